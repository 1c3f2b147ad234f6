"""A site written in a small vocabulary: its pages say new things in words the site
always uses. Novelty by new passages (runs of words its region never showed) keeps
such a region alive, and the relative links that nest one permalink under another
are learned as a link form of copies. Every site here is a real loopback server;
the counts are the server's."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Callable

from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from robotkit.content import passage_shingles, prose_words
from robotkit.crawler.loop import CrawlConfig, CrawlEvent, crawl
from robotkit.triage.copies import FORM_COPIES, Copies
from robotkit.url.normalization import normalize

FAST = CrawlConfig(
    max_pages=600, delay=0.0, allow_private=True, response_timeout=2.0, max_defer=0.0
)
WORDS_TEXT = (
    "the a of to in on at by for with from and or but not so then when while solder "
    "iron flux joint tin lead board pad wire heat cool clean tip hold press melt flow "
    "bridge pin trace copper drop smoke time long short hot cold good bad wet dry small "
    "large thin thick paste reel spool stand sponge brass wick pump braid gun station "
    "fume fan mask glove bench mat lamp lens probe meter scope supply rail ground via "
    "hole header socket chip resistor diode cap coil relay switch button knob screen "
    "case screw nut bolt tape glue clip hook loop ring plate sheet block frame panel "
    "slot gap edge side top back front left right up down over under again always never"
)
WORDS = WORDS_TEXT.split()
"""A hundred and twenty words: after a few pages, no page of the site brings a word
of its own, but its sentences are its own."""
THREADS = 20
POSTS = 4


def prose(key: str, count: int = 40) -> str:
    rng = random.Random(key)
    return " ".join(rng.choice(WORDS) for _ in range(count)) + "."


def page(title: str, text: str, links: list[str]) -> Response:
    anchors = "".join(f'<li><a href="{href}">#{i}</a></li>' for i, href in enumerate(links))
    body = f"<html><head><title>{title}</title></head><body><p>{text}</p><ul>{anchors}</ul>"
    return Response(body + "</body></html>", content_type="text/html")


class Forum:
    """``/forum/`` lists threads; a thread lists its posts' permalinks
    ``/thread/T/reply/R/``; with ``nested``, a post links the other posts of its
    thread relatively (``reply/O/``), which the server answers under the nested
    path with post O itself, as a forum that reads only the last id does."""

    def __init__(self, nested: bool) -> None:
        self.nested = nested
        self.served: list[str] = []

    def __call__(self, request: Request) -> Response:
        path = request.path
        self.served.append(path)
        if path == "/forum/":
            return page("Forum", prose("forum"), [f"/thread/{t}/" for t in range(THREADS)])
        parts = path.strip("/").split("/")
        if len(parts) < 2 or parts[0] != "thread" or not path.endswith("/"):
            return Response("no", status=404)
        thread = int(parts[1])
        if len(parts) == 2:
            links = [f"/thread/{thread}/reply/{r}/" for r in range(POSTS)]
            return page(f"Thread {thread}", prose(f"t{thread}"), links)
        post = int(parts[-1])
        others = [f"reply/{o}/" for o in range(POSTS) if o != post] if self.nested else []
        return page(f"Post {post}", prose(f"p{thread}.{post}"), ["/forum/", *others])

    def posts_fetched(self) -> set[str]:
        return {p for p in self.served if re.fullmatch(r"/thread/\d+/reply/\d+/", p)}

    def nested_fetched(self) -> list[str]:
        return [p for p in self.served if p.count("/reply/") > 1]


def start(handler: Callable[[Request], Response]) -> HTTPServer:
    server = HTTPServer(host="127.0.0.1", port=0)
    server.expect_request("/robots.txt").respond_with_data("", status=404)
    server.expect_request(re.compile(".*")).respond_with_handler(handler)
    server.start()
    return server


def run(server: HTTPServer) -> list[CrawlEvent]:
    try:
        _, events = asyncio.run(crawl([server.url_for("/forum/")], FAST))
    finally:
        server.clear()
        server.stop()
    return [e for e in events if not e.probe]


def test_a_forum_in_a_small_vocabulary_is_fetched_whole() -> None:
    """Each thread page adds new URLs of its region and no word the site had not
    used: by new words alone, that region grows without news and is parked."""
    forum = Forum(nested=False)
    run(start(forum))
    assert len(forum.posts_fetched()) == THREADS * POSTS
    assert {f"/thread/{t}/" for t in range(THREADS)} <= set(forum.served)


def test_relative_links_nesting_permalinks_cost_a_bounded_number_of_copies() -> None:
    """Every post links the others under its own path: 240 nested URLs, each an
    exact copy of a permalink fetched already. The link form is learned from the
    first few, and no permalink is lost."""
    forum = Forum(nested=True)
    run(start(forum))
    assert len(forum.posts_fetched()) == THREADS * POSTS
    assert len(forum.nested_fetched()) <= FORM_COPIES + 3


def test_a_list_of_known_items_in_another_order_has_no_new_passage() -> None:
    items = [" ".join(random.Random(i).sample(WORDS, 3)) for i in range(12)]
    listing = "".join(f"<li>{item}</li>" for item in items)
    known = set(passage_shingles(prose_words(listing), 2))
    shuffled = "".join(f"<li>{item}</li>" for item in reversed(items))
    new = [s not in known for s in passage_shingles(prose_words(shuffled), 2)]
    longest = max(len(run) for run in "".join("x" if n else " " for n in new).split(" "))
    assert longest < 2
    sentence = prose("a new post")
    fresh = [s not in known for s in passage_shingles(prose_words(f"<p>{sentence}</p>"), 2)]
    assert sum(fresh) > 30


def test_link_text_is_not_prose() -> None:
    markup = '<p>Our new board <a href="/x">solder iron flux</a> is here</p><a href="/y">tip'
    assert prose_words(markup) == ["our", "new", "board", "is", "here"]


def test_a_link_form_that_once_led_to_a_real_page_is_never_a_copy_form() -> None:
    copies = Copies()
    referer = "http://forum.example/thread/1/reply/7/"
    target = normalize("http://forum.example/thread/1/reply/7/reply/9/")
    copies.record(target, referer, copy=False, proof=0, exact=False)
    for other in range(FORM_COPIES + 2):
        nested = normalize(f"http://forum.example/thread/2/reply/{other}/reply/5/")
        copies.record(nested, f"http://forum.example/thread/2/reply/{other}/", True, 0, True)
    later = normalize("http://forum.example/thread/3/reply/4/reply/8/")
    assert not copies.known_copy(later, "http://forum.example/thread/3/reply/4/")


def test_a_link_form_proven_a_copy_is_known_on_other_pages_of_the_template() -> None:
    copies = Copies()
    for other in range(FORM_COPIES):
        nested = normalize(f"http://forum.example/thread/2/reply/{other}/reply/5/")
        assert not copies.known_copy(nested, f"http://forum.example/thread/2/reply/{other}/")
        copies.record(nested, f"http://forum.example/thread/2/reply/{other}/", True, 0, True)
    later = normalize("http://forum.example/thread/3/reply/4/reply/8/")
    assert copies.known_copy(later, "http://forum.example/thread/3/reply/4/")
    snapshot = copies.snapshot()
    restored = Copies()
    restored.restore(snapshot)
    assert restored.known_copy(later, "http://forum.example/thread/3/reply/4/")


def test_children_merely_like_other_pages_do_not_demote_a_listings_other_children() -> None:
    """A news index whose ticker links (``/live?_=...``) were near copies of other
    pages: its articles keep their turn. An article whose print and AMP links were
    copies of itself, or a page whose links were exact copies of other pages, has
    its other children served last."""
    copies = Copies()
    index = "http://news.example/news/"
    for n in range(3):
        ticker = normalize(f"http://news.example/live?_={n}")
        copies.record(ticker, index, copy=True, proof=0, exact=False)
    assert not copies.demote(index)
    article = "http://news.example/news/harbour"
    for form in ("print", "amp"):
        own = normalize(f"http://news.example/{form}/news/harbour")
        copies.record(own, article, copy=True, proof=1, exact=False)
    assert copies.demote(article)
    products = "http://shop.example/Products/"
    for name in ("gizmo", "widget"):
        spelled = normalize(f"http://shop.example/products/{name}.aspx")
        copies.record(spelled, products, copy=True, proof=0, exact=True)
    assert copies.demote(products)


def test_a_listings_own_sorted_views_do_not_demote_its_folders() -> None:
    """A file manager's listing links itself re-sorted by each column
    (``?p=&sort=size&order=asc``), exact copies of it in another order: they copy
    the listing, not its folders, which keep their turn. Print forms at other paths
    still count."""
    copies = Copies()
    listing = "http://files.example/index.php"
    for column in ("name", "size", "modified"):
        view = normalize(f"{listing}?p=&sort={column}&order=asc")
        copies.record(view, listing, copy=True, proof=1, exact=True)
    assert not copies.demote(listing)
    for form in ("print", "amp"):
        own = normalize(f"http://files.example/{form}/index.php")
        copies.record(own, listing, copy=True, proof=1, exact=False)
    assert copies.demote(listing)
    # Another query of a script every page shares is no view of the page: a forum
    # topic's post permalinks, copies of it, still count.
    topic = "http://forum.example/viewtopic.php?f=1&t=102"
    for post in (5004, 5005):
        permalink = normalize(f"http://forum.example/viewtopic.php?p={post}")
        copies.record(permalink, topic, copy=True, proof=1, exact=True)
    assert copies.demote(topic)
