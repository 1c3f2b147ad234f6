"""Copy families in real crawls: one page under many URL spellings is fetched a small,
bounded number of times, and the real page keeps ``fetched`` while its copies are the
duplicates. Every site here is a real loopback server; the counts are the server's.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import re
import secrets
from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from robotkit.base.reasons import Reason
from robotkit.crawler.loop import CrawlConfig, CrawlEvent, EventKind, crawl
from robotkit.triage.triage import PageFacts, PageVerdict, Triage, TriageConfig

FAST = CrawlConfig(
    max_pages=300, delay=0.0, allow_private=True, response_timeout=2.0, max_defer=0.0
)
PAGE = "/docs/guide.html"
MOST = 5
"""Fetches of one page's spellings a crawl may spend, however many spellings it met:
the page, the copies that prove a rule (2 or 3), a fresh-token form of its own link."""


def html(title: str, text: str, links: list[str]) -> str:
    anchors = "".join(f'<a href="{href}">link {i}</a> ' for i, href in enumerate(links))
    return f"<html><head><title>{title}</title></head><body><p>{text}</p>{anchors}</body></html>"


def respond(body: str) -> Response:
    return Response(body, content_type="text/html")


def start(host: str, handler: Callable[[Request], Response]) -> HTTPServer:
    server = HTTPServer(host=host, port=0)
    server.expect_request("/robots.txt").respond_with_data("", status=404)
    server.expect_request(re.compile(".*")).respond_with_handler(handler)
    server.start()
    return server


def stop(*servers: HTTPServer) -> None:
    for server in servers:
        server.clear()
        server.stop()


def crawl_site(handler: Callable[[Request], Response]) -> None:
    """Crawl a site of ``handler`` from its home page (the handler records what it served)."""
    server = start("127.0.0.1", handler)
    try:
        run(server.url_for("/"))
    finally:
        stop(server)


def run(*seeds: str) -> list[CrawlEvent]:
    _, events = asyncio.run(crawl(list(seeds), FAST))
    return [e for e in events if not e.probe]


GUIDE_TEXT = "the guide explains how lanterns light the harbor at winter dusk"


def guide() -> Response:
    """The page, whose own link carries a fresh token on every response: links
    change, the text a reader sees does not."""
    fresh = secrets.token_hex(6) + "z9"
    return respond(html("Guide", GUIDE_TEXT, [f"guide.html?sid={fresh}", "/"]))


class Family:
    """A site serving the guide under one family of spellings, with a home page
    linking the guide and ``spellings`` of it; ``served`` counts the guide's fetches."""

    def __init__(self, is_guide: Callable[[str, str], bool], spellings: list[str]) -> None:
        self.is_guide = is_guide
        self.spellings = spellings
        self.served: list[str] = []

    def __call__(self, request: Request) -> Response:
        path, query = request.path, request.query_string.decode()
        if path == "/":
            return respond(html("Home", "welcome to the site", [PAGE, *self.spellings]))
        if self.is_guide(path, query):
            self.served.append(f"{path}?{query}" if query else path)
            return guide()
        return Response("not found", status=404)


def case_variants(masks: list[int]) -> list[str]:
    letters = [i for i, c in enumerate(PAGE) if c.isalpha()]
    out = []
    for mask in masks:
        chars = list(PAGE)
        for bit, i in enumerate(letters):
            if mask >> bit & 1:
                chars[i] = chars[i].upper()
        out.append("".join(chars))
    return out


def drawn(pattern: str) -> st.SearchStrategy[list[str]]:
    """3 to 25 distinct strings matching ``pattern``."""
    return st.lists(st.from_regex(pattern, fullmatch=True), min_size=3, max_size=25, unique=True)


SPELLINGS = {
    "case": (
        st.lists(st.integers(1, 2**13 - 1), min_size=3, max_size=25, unique=True).map(
            case_variants
        ),
        lambda path, query: path.lower() == PAGE,
    ),
    "path-info": (
        drawn(r"[a-z]{0,6}(/[a-z]{1,5}(\.html)?){0,2}/?").map(
            lambda tails: [f"{PAGE}/{tail}" for tail in tails]
        ),
        lambda path, query: path == PAGE or path.startswith(PAGE + "/"),
    ),
    "parameter": (
        drawn(r"[a-z0-9]{1,8}").map(lambda values: [f"{PAGE}?view={v}" for v in values]),
        lambda path, query: path == PAGE,
    ),
    "token": (
        drawn(r"[a-z]{4}[0-9]{4}[a-z]{2}").map(
            lambda tokens: [f"/docs/{t}/guide.html" for t in tokens]
        ),
        lambda path, query: re.fullmatch(r"/docs/([a-z0-9]{10}/)?guide\.html", path) is not None,
    ),
}


@settings(
    max_examples=16,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.data())
def test_one_page_under_many_spellings_is_fetched_a_bounded_number_of_times(
    data: st.DataObject,
) -> None:
    kind = data.draw(st.sampled_from(sorted(SPELLINGS)), label="kind")
    strategy, is_guide = SPELLINGS[kind]
    spellings = data.draw(strategy, label="spellings")
    family = Family(is_guide, spellings)
    server = start("127.0.0.1", family)
    try:
        events = run(server.url_for("/"))
    finally:
        stop(server)
    assert len(family.served) <= MOST, (kind, family.served)
    fetched = {e.url: e.reason for e in events if e.event is EventKind.FETCHED}
    assert fetched[server.url_for(PAGE)] is None  # the real page is the page
    skipped = [e for e in events if e.reason is Reason.DUPLICATE_URL]
    if len(set(spellings)) > MOST:
        # The family was learned: the spellings left are skipped, the rule named.
        assert any(e.copy_rule for e in skipped), [e.to_json() for e in skipped]


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(3, 20))
def test_a_twin_host_costs_a_bounded_number_of_fetches(pages: int) -> None:
    """Two hosts (127.0.0.1 and 127.0.0.2) serving one site: the second is learned a
    twin of the first after two of its pages, and the rest of it is skipped."""
    names = [f"/p{i}" for i in range(pages)]
    served: dict[str, list[str]] = {"127.0.0.1": [], "127.0.0.2": []}

    def site(request: Request) -> Response:
        if not request.path.startswith("/robotkit-probe-"):
            served[request.host.partition(":")[0]].append(request.path)
        if request.path == "/":
            return respond(html("Home", "welcome to the twin site", names))
        if request.path in names:
            return respond(html(request.path, f"page {request.path[2:]} of the site", ["/"]))
        return Response("not found", status=404)

    first, second = start("127.0.0.1", site), start("127.0.0.2", site)
    try:
        events = run(first.url_for("/"), second.url_for("/"))
    finally:
        stop(first, second)
    both = served["127.0.0.1"] + served["127.0.0.2"]
    assert sorted(set(both)) == sorted(["/", *names])  # every page, on one host or the other
    assert len(both) - len(set(both)) <= MOST, served  # its twin fetched a few times
    if pages > MOST:
        rules = [e.copy_rule for e in events if e.reason is Reason.DUPLICATE_URL]
        assert any(rule and "twin" in rule for rule in rules)


def test_apache_path_info_copies_are_the_duplicates_not_the_page() -> None:
    """An Apache with ``AcceptPathInfo On`` serves ``/library/index.html/anything`` as
    ``/library/index.html``. One typo link to ``/library/index.html/``, found before
    the real link: the real page is ``fetched`` with no reason, the typo's fetch is the
    ``duplicate-content``, the real pages of the library are all fetched, and the
    copies' relative links (``/library/index.html/a.html``) cost at most one more."""
    files = {
        "/": html("Home", "the home of the library site", ["/library/index.html/", "/library/"]),
        "/library/index.html": html(
            "Library", "the library index lists the books", ["a.html", "b.html", "../"]
        ),
        "/library/a.html": html("Alpha", "alpha is the first book", ["index.html"]),
        "/library/b.html": html("Beta", "beta is the second book", ["index.html"]),
    }
    served: list[str] = []

    def apache(request: Request) -> Response:
        path = request.path
        served.append(path)
        if path == "/library/":
            path = "/library/index.html"
        for file, body in files.items():
            if path == file or (file.endswith(".html") and path.startswith(file + "/")):
                return respond(body)
        return Response("not found", status=404)

    server = start("127.0.0.1", apache)
    try:
        events = run(server.url_for("/"))
    finally:
        stop(server)
    fetched = {e.url: e.reason for e in events if e.event is EventKind.FETCHED}
    real = [server.url_for(p) for p in ("/library/a.html", "/library/b.html")]
    assert all(fetched[url] is None for url in real)
    assert fetched[server.url_for("/library/")] is None
    typo = server.url_for("/library/index.html/")
    assert fetched.get(typo) is Reason.DUPLICATE_CONTENT or typo not in fetched
    copies = [p for p in served if p.startswith("/library/index.html/")]
    assert len(copies) <= 2, copies


def test_the_real_page_reached_after_its_copy_is_the_page() -> None:
    """Judged in the order a crawl may meet them (the copy first): the shorter,
    canonical member is the page (no reason, links followed), and a third spelling is
    a duplicate of the page, not of the copy."""
    triage = Triage()
    site = "http://site.test"
    body = html("Library", "the library index lists the books", ["a.html"])

    def judge(url: str) -> PageVerdict:
        links = [f"{url.rpartition('/')[0]}/a.html"]
        return triage.judge(PageFacts(url, url, 200, body, links), set())

    copy = judge(f"{site}/library/index.html/")
    page = judge(f"{site}/library/index.html")
    third = judge(f"{site}/library/index.html/x.html")
    assert copy.reason is None  # nothing to compare with yet
    assert page.reason is None and page.follow == (f"{site}/library/a.html",)
    assert third.reason is Reason.DUPLICATE_CONTENT
    match = triage.content.lookup(f"{site}/other", body)
    assert match.duplicate_of == f"{site}/library/index.html"


def test_links_with_fresh_tokens_do_not_hide_a_copy() -> None:
    """Each response links its sections with a fresh token: two fetches of one page
    have different links and the same text. The copy is judged on its text, and its
    links (the same forms as its original's, tokens aside) are not followed."""
    triage = Triage()
    site = "http://site.test"
    counter = itertools.count()

    def judge(url: str) -> PageVerdict:
        links = [f"{site}/s/{secrets.token_hex(5)}q{next(counter)}/news" for _ in range(3)]
        body = html("News", "the news of the day", links)
        return triage.judge(PageFacts(url, url, 200, body, links), set())

    judge(f"{site}/news")
    copy = judge(f"{site}/news/")
    assert copy.reason is Reason.DUPLICATE_CONTENT
    assert copy.follow == ()


def test_an_item_read_after_its_copy_under_a_list_path_vouches_for_its_links() -> None:
    """A store serves each product under the path of any collection that lists it
    (``/collections/c/products/p``) and at its own (``/products/p``), and a product
    page links related products in the spelling it was read under. The collection's
    spellings are read first; each bare product read after its copy is the page, and
    its copy taught, so the bare links it has are vouched for: every product is read
    under its own path, however many there are beyond the waste budget."""
    count = TriageConfig().waste_budget * 2
    served: list[str] = []

    def product(base: str, i: int) -> str:
        text = " ".join(word(f"{i}:{k}") for k in range(15))
        return html(f"Product {i}", text, [f"{base}/products/p{(i + 1) % count}"])

    def handler(request: Request) -> Response:
        path = request.path
        served.append(path)
        if path == "/":
            return respond(html("Store", "the store", ["/collections/c", "/products/p0"]))
        if path == "/collections/c":
            links = [f"/collections/c/products/p{i}" for i in range(count)]
            return respond(html("Coats", "all the coats of the store", links))
        found = re.fullmatch(r"(/collections/c)?/products/p(\d+)", path)
        if found is None or int(found.group(2)) >= count:
            return Response("not found", status=404)
        return respond(product(found.group(1) or "", int(found.group(2))))

    crawl_site(handler)
    missing = [i for i in range(count) if f"/products/p{i}" not in served]
    assert missing == [], missing


def word(seed: str) -> str:
    """A word of its own for each seed, letters only."""
    digest = hashlib.sha256(seed.encode()).hexdigest()[:8]
    return digest.translate(str.maketrans("0123456789", "ghijklmnop"))


def test_a_release_read_after_its_version_alias_keeps_its_class_pages() -> None:
    """A docs host serves release 2.1 under ``/api/2.1/`` and again under the symlink
    ``/api/latest/``, and every page's version menu links the same page in the other
    trees. Read from 2.0's pages first, each class reaches the crawl under
    ``latest/``; the 2.1 tree page, read later, links the 2.1 class pages, each an
    exact copy of its ``latest/`` spelling. Linked from inside their own tree, they
    are the tree's pages, no evidence that their family is barren: every one is read,
    though each page's frames link (``index.html?<page>``, a copy) spends the budget."""
    count = TriageConfig().waste_budget * 2
    served: list[str] = []

    def page(version: str, name: str) -> str:
        tree = "2.1" if version == "latest" else version
        text = " ".join(word(f"{tree}:{name}:{k}") for k in range(15))
        menu = [f"/api/{v}/pkg/{name}" for v in ("2.0", "latest")]
        frames = [f"/api/{version}/index.html?pkg/{name}", f"/api/{tree}/tree.html"]
        return html(f"{name} {tree}", text, [*frames, *menu])

    def handler(request: Request) -> Response:
        served.append(request.full_path.rstrip("?"))
        path = request.path
        if path == "/":
            return respond(html("Toolkit", "the toolkit api", ["/api/2.0/tree.html"]))
        tree = re.fullmatch(r"/api/(2\.0|2\.1)/tree\.html", path)
        if tree is not None:
            links = [f"/api/{tree.group(1)}/pkg/C{i}.html" for i in range(count)]
            return respond(html(f"Tree {tree.group(1)}", f"class tree {tree.group(1)}", links))
        if path.endswith("/index.html") and request.query_string:
            path = path.removesuffix("index.html") + request.query_string.decode()
        found = re.fullmatch(r"/api/(2\.0|2\.1|latest)/pkg/(C\d+\.html)", path)
        if found is None:
            return Response("not found", status=404)
        return respond(page(found.group(1), found.group(2)))

    crawl_site(handler)
    missing = [i for i in range(count) if f"/api/2.1/pkg/C{i}.html" not in served]
    assert missing == [], missing
