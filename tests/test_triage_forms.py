"""The waste bound's evidence per query form (ARCHITECTURE.md, "The waste bound";
:mod:`robotkit.triage.forms`): the real pages of a family are not condemned by the
copies under its other forms, and a variant's new pairs are counted as pairs on a
path whose bits are nearly all set. The crawl is of a real loopback server; the
counts are what the server saw.
"""

from __future__ import annotations

import asyncio
import random
import re

from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from robotkit.crawler.loop import CrawlConfig, crawl
from robotkit.triage.waste import BARREN, PATH_BITS, WasteLedger
from robotkit.url.normalization import normalize
from robotkit.url.template import query_form

FAMILY = "http://h/index.php?topic"


def _form(url: str) -> str:
    return query_form(normalize(url))


def test_a_form_naming_objects_that_taught_is_vouched_for_in_a_barren_family() -> None:
    ledger = WasteLedger(budget=0)
    page, copy = _form("http://h/index.php?topic=40.0"), _form("http://h/index.php?topic=40.msg7")
    assert (page, copy) == ("topic={n}.{n}", "topic={n}.msg{n}")
    for n in range(BARREN):  # as many topics' first pages as make a family barren
        url = f"http://h/index.php?topic={40 + n}.0"
        ledger.fetched("h", "r", url, f"t{n}", True, FAMILY, form=page)
    for n in range(BARREN):  # the post permalinks, copies of their topic's page
        url = f"http://h/index.php?topic=40.msg{n}"
        ledger.fetched("h", "r", url, f"m{n}", False, FAMILY, form=copy)
    assert ledger.barren(FAMILY)
    # The topic's second page is of a form whose own page taught; the copies' is not.
    assert not ledger.unvouched("t40.10", FAMILY, form=_form("http://h/index.php?topic=40.10"))
    assert ledger.unvouched("m9", FAMILY, form=copy)
    # A form of words alone is one view of every page: the family's barrenness rules it.
    view = _form("http://h/index.php?topic=print")
    ledger.fetched("h", "r", "http://h/index.php?topic=print", "p", True, FAMILY, form=view)
    for n in range(BARREN):
        ledger.fetched(
            "h", "r", f"http://h/index.php?topic=41.msg{n}", None, False, FAMILY, form=copy
        )
    assert ledger.unvouched("p2", FAMILY, form=view)
    # One of its last BARREN pages that taught nothing: no longer proven.
    ledger.fetched("h", "r", "http://h/index.php?topic=60.10", None, False, FAMILY, form=page)
    assert ledger.unvouched("t50.10", FAMILY, form=page)
    for n in range(BARREN):
        url = f"http://h/index.php?topic=4{n}.10"
        ledger.fetched("h", "r", url, None, False, FAMILY, form=page)
    assert ledger.unvouched("t50.10", FAMILY, form=page)


def test_a_page_its_proven_form_let_through_a_barren_family_earns_as_an_unvouched_one() -> None:
    ledger = WasteLedger(budget=1)
    page, copy = _form("http://h/index.php?topic=1.0"), _form("http://h/index.php?topic=1.msg1")
    for n in range(BARREN):
        ledger.fetched("h", "r", f"http://h/index.php?topic={n}.0", None, True, FAMILY, form=page)
    for n in range(BARREN):
        url = f"http://h/index.php?topic=1.msg{n}"
        ledger.fetched("h", "r", url, None, False, FAMILY, form=copy)
    # One unvouched page that taught nothing spends the budget...
    ledger.fetched("h", "r", "http://h/copy", None, False, "http://h/*")
    ledger.offered("u", "http://h/copy")
    ledger.fetched("h", "r", "http://h/u", "u", False, "http://h/u/*")
    ledger.offered("u3", "http://h/copy")
    assert ledger.must_wait("h", "u3")
    # ...and a real page of the proven form, in the barren family, earns it back.
    ledger.fetched("h", "r", "http://h/index.php?topic=1.10", "t", True, FAMILY, form=page)
    assert not ledger.must_wait("h", "u3")


def test_a_form_extending_a_proven_one_is_held_once_its_own_pages_taught_nothing() -> None:
    ledger = WasteLedger(budget=0)
    page, every = _form("http://h/index.php?topic=4.0"), _form("http://h/index.php?topic=4.0;all")
    for n in range(BARREN):
        ledger.fetched("h", "r", f"http://h/index.php?topic={n}.0", None, True, FAMILY, form=page)
    for n in range(BARREN):
        url = f"http://h/index.php?topic={n}.0;all"
        assert not ledger.unvouched(f"a{n}", FAMILY, form=every)
        ledger.fetched("h", "r", url, None, False, FAMILY, form=every)
    # The family is alive (its last page fetched, a topic, taught), the copies' form is not.
    ledger.fetched("h", "r", "http://h/index.php?topic=5.0", None, True, FAMILY, form=page)
    assert not ledger.barren(FAMILY)
    assert ledger.unvouched("a9", FAMILY, form=every)
    assert not ledger.unvouched("t6", FAMILY, form=page)
    # Another form with the same runs, extending no proven form, is not held.
    other = _form("http://h/index.php?topic=x;all")
    for n in range(BARREN):
        ledger.fetched("h", "r", f"http://h/index.php?topic=x{n};all", None, False, "f", form=other)
    assert not ledger.forms.copies("f", other) and ledger.forms.copies(FAMILY, every)
    # The runs survive a snapshot.
    again = WasteLedger(budget=0)
    again.restore(ledger.snapshot())
    assert again.unvouched("a9", FAMILY, form=every)
    assert not again.unvouched("t7.10", FAMILY, form=_form("http://h/index.php?topic=7.10"))


def test_a_variant_bringing_new_pairs_teaches_on_a_path_whose_bits_are_nearly_all_set() -> None:
    # A front controller serves a whole site under one path: its pages' pairs fill
    # nearly all of the path's bits, and a page of new pairs sets few new ones.
    rng = random.Random(7)
    ledger = WasteLedger()
    for n in range(60):
        words = [f"w{rng.randrange(10**9)}" for _ in range(300)]
        ledger.variant(normalize(f"http://h/index.php?topic={n}.0"), words)
    ((_, bits),) = ledger.snapshot()["paths"]
    assert int(bits, 16).bit_count() > PATH_BITS * 95 // 100
    fresh = [f"w{rng.randrange(10**9)}" for _ in range(300)]
    assert ledger.variant(normalize("http://h/index.php?topic=1.10"), fresh) == (True, False, False)
    # A page of known words still repeats its path.
    known = words[:150]
    assert ledger.variant(normalize("http://h/index.php?topic=2.10"), known) == (True, True, False)


SYLLABLES = ["ka", "lo", "mi", "ren", "tu", "vas", "qe", "dor", "pim", "sul", "ob", "yat"]


class Forum:
    """A forum behind one script: the index lists 14 topics (``?topic=N.0``) and
    their print views (the topic's text without the links: each taught nothing,
    and they spend the waste budget); each topic's page links its second page
    (``?topic=N.10``, posts of its own) and four post permalinks
    (``?topic=N.msgM``), each served as the topic's first page. The permalinks are
    one family with the topics' pages, by their parameter's name, and a run of them
    made it barren."""

    TOPICS = 14

    def __init__(self) -> None:
        rng = random.Random(11)
        words = sorted({"".join(rng.choices(SYLLABLES, k=4)) for _ in range(4000)})
        rng.shuffle(words)
        self.text = {
            f"{t}.{p}": " ".join(words.pop() for _ in range(40))
            for t in range(self.TOPICS)
            for p in (0, 10)
        }

    def handle(self, request: Request) -> Response:
        topic = request.args.get("topic")
        if request.path != "/index.php":
            return Response("not found", status=404)
        if topic is None:
            links = [f"?topic={t}.0" for t in range(self.TOPICS)]
            links += [f"?action=print&topic={t}.0" for t in range(self.TOPICS)]
            return self._page("Forum", "Welcome to the forum", links)
        if request.args.get("action") == "print" and topic in self.text:
            return self._page(f"Topic {topic}", self.text[topic], [])
        number, _, rest = topic.partition(".")
        if not number.isdigit() or int(number) >= self.TOPICS:
            return Response("not found", status=404)
        if rest.startswith("msg"):
            rest = "0"  # the permalink of a post: the page holding it
        if rest not in ("0", "10"):
            return Response("not found", status=404)
        links = [f"?topic={number}.msg{number}{m}" for m in range(4)]
        links += [f"?topic={number}.10"] if rest == "0" else [f"?topic={number}.0"]
        return self._page(f"Topic {number}", self.text[f"{number}.{rest}"], links)

    @staticmethod
    def _page(title: str, text: str, links: list[str]) -> Response:
        anchors = " ".join(f'<a href="/index.php{href}">{href}</a>' for href in links)
        body = (
            f"<html><head><title>{title}</title></head><body><nav>{anchors}</nav>"
            f"<main><h1>{title}</h1><p>{text}</p></main></body></html>"
        )
        return Response(body, content_type="text/html")


def test_a_topics_second_pages_are_not_condemned_by_its_post_permalinks() -> None:
    forum = Forum()
    server = HTTPServer(host="127.0.0.1", port=0)
    server.expect_request("/robots.txt").respond_with_data("", status=404)
    server.expect_request(re.compile(".*")).respond_with_handler(forum.handle)
    server.start()
    config = CrawlConfig(
        max_pages=400, delay=0.0, allow_private=True, response_timeout=2.0, max_defer=0.0
    )
    try:
        asyncio.run(crawl([server.url_for("/index.php")], config))
        seen = {request.full_path for request, _ in server.log}
    finally:
        server.clear()
        server.stop()
    second = {f"/index.php?topic={t}.10" for t in range(Forum.TOPICS)}
    assert second <= seen, sorted(second - seen)
    copies = {path for path in seen if ".msg" in path}
    assert len(copies) <= 20


def test_a_token_is_one_number_of_a_form_and_a_words_digits_are_its_number() -> None:
    # A cache-buster's values split at their digits would make a form of each value.
    forms = {_form(f"http://h/news/a?v={token}") for token in ("a1a2", "123", "fe3419", "0b7")}
    assert forms == {"v={n}"}
    assert _form("http://h/index.php?topic=40.msg1004") == "topic={n}.msg{n}"


def test_a_form_adding_pairs_to_another_of_its_family_is_a_view_and_proves_nothing() -> None:
    # A document's sections expanded (Domino's ``?OpenDocument&ExpandSection=1,3``)
    # teach, but are views of the document, not objects.
    ledger = WasteLedger(budget=0)
    family = "http://h/db.nsf/view/*?OpenDocument"
    document, section = (
        _form("http://h/d?OpenDocument"),
        _form("http://h/d?OpenDocument&ExpandSection=1"),
    )
    ledger.fetched(
        "h", "r", "http://h/db.nsf/view/a?OpenDocument", None, False, family, form=document
    )
    for n in range(BARREN):
        url = f"http://h/db.nsf/view/a?OpenDocument&ExpandSection={n}"
        ledger.fetched("h", "r", url, None, True, family, form=section)
    for n in range(BARREN):
        url = f"http://h/db.nsf/view/b{n}?OpenDocument"
        ledger.fetched("h", "r", url, None, False, family, form=document)
    assert ledger.barren(family) and not ledger.forms.proven(family, section)
    assert ledger.unvouched("s", family, form=section)
