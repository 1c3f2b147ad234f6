"""The reference crawler on trap sites and hand-made servers, judged from what the
servers saw. The crawl of every trap site, one per site, is the gauntlet's
(traps/test_gauntlet.py), run as README's test command runs both suites."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import socket
import threading
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import replace

from pytest_httpserver import HTTPServer
from support.servers import read_head

from robotkit import traps
from robotkit.base.identity import Identity
from robotkit.base.reasons import Reason
from robotkit.crawler.loop import (
    CrawlConfig,
    Crawler,
    CrawlEvent,
    EventKind,
    crawl,
    is_loopback_url,
)
from robotkit.traps.server import RunningSite

UA = "TrapTestBot/1.0 (+https://example.org/bot)"
FROM = "crawler-ops@example.org"
IDENTITY = Identity(user_agent=UA, from_=FROM)
FAST = CrawlConfig(
    max_pages=300, delay=0.01, allow_private=True, response_timeout=1.0, max_defer=0.0
)


def run(site: RunningSite, config: CrawlConfig = FAST) -> tuple[Crawler, list[CrawlEvent]]:
    events: list[CrawlEvent] = []
    crawler = Crawler([site.start_url], config, identity=IDENTITY, on_event=events.append)
    asyncio.run(crawler.run())
    return crawler, events


def test_pacing_per_host_is_a_lower_bound_seen_by_the_server(
    trap_site: Callable[..., RunningSite],
) -> None:
    delay = 0.1
    site = trap_site("robots-404")
    config = CrawlConfig(max_pages=20, delay=delay, allow_private=True, max_defer=0.0)
    run(site, config)
    times = [r.time for r in site.requests_seen]
    assert len(times) >= 5
    # Request to request is at least the delay (end-to-start is longer still);
    # 5 ms of slack for when the server thread reads the clock.
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert min(gaps) >= delay - 0.005, gaps


def test_hosts_are_crawled_concurrently_each_at_its_own_pace(
    trap_site: Callable[..., RunningSite],
) -> None:
    first = trap_site("robots-404")
    second = trap_site("robots-rules", host="127.0.0.3")
    config = CrawlConfig(max_pages=50, delay=0.05, allow_private=True, max_defer=0.0)
    events: list[CrawlEvent] = []
    crawler = Crawler([first.start_url, second.start_url], config, on_event=events.append)
    asyncio.run(crawler.run())
    assert first.score().complete and second.score().complete
    a = [r.time for r in first.requests_seen]
    b = [r.time for r in second.requests_seen]
    # The hosts' requests interleave: neither waited for the other to finish.
    assert min(b) < max(a) and min(a) < max(b)
    for times in (a, b):
        gaps = [y - x for x, y in itertools.pairwise(times)]
        assert min(gaps) >= 0.05 - 0.005


def test_off_scope_links_are_skipped_and_never_fetched(
    trap_site: Callable[..., RunningSite],
) -> None:
    site = trap_site("link-farm")
    _, events = run(site)
    off = [e for e in events if e.reason is Reason.OFF_SCOPE]
    assert off and all(e.event is EventKind.SKIPPED for e in off)
    assert all(r.host == 0 for r in site.requests_seen)


def test_a_followed_redirect_is_one_decision_with_final_url(
    trap_site: Callable[..., RunningSite],
) -> None:
    site = trap_site("redirect-loop")
    _, events = run(site)
    moved = [e for e in events if e.url == site.url("/old-home.html")]
    assert len(moved) == 1
    assert moved[0].event is EventKind.FETCHED and moved[0].status == 200
    assert moved[0].final_url == site.url("/new-home.html")
    loops = [e for e in events if e.reason is Reason.REDIRECT_LOOP]
    assert loops and all(e.status in (301, 302) for e in loops)


def test_robots_deferral_is_reported_and_the_crawl_ends(
    trap_site: Callable[..., RunningSite],
) -> None:
    site = trap_site("robots-503")
    crawler, events = run(site)
    assert [e.reason for e in events] == [Reason.ROBOTS_DEFERRED]
    assert [r.target for r in site.requests_seen] == ["/robots.txt"]
    assert crawler.summary.fetched == 0


def test_budget_stops_the_crawl_and_counts_pages_not_robots(
    trap_site: Callable[..., RunningSite],
) -> None:
    site = trap_site("calendar")
    config = CrawlConfig(max_pages=4, delay=0.01, allow_private=True, soft404_probes=False)
    crawler, _events = run(site, config)
    assert crawler.summary.budget_spent
    pages = [r for r in site.requests_seen if r.target != "/robots.txt"]
    assert len(pages) == 4 == crawler.pages


def test_nofollow_page_links_are_skipped(trap_site: Callable[..., RunningSite]) -> None:
    # robots.txt 404 allows everything; a page with X-Robots-Tag: nofollow via the
    # crawler's own site would need a custom site, so use pytest-httpserver.
    with _server_without_robots() as server:
        server.expect_request("/").respond_with_data(
            '<html><head><meta name="robots" content="nofollow"></head>'
            '<body><a href="/a">a</a></body></html>',
            content_type="text/html",
        )
        url = server.url_for("/")
        _, events = asyncio.run(crawl([url], FAST))
        assert [(e.url, e.reason) for e in events if e.event is EventKind.SKIPPED] == [
            (server.url_for("/a"), Reason.NOFOLLOW)
        ]
        assert "/a" not in [request.path for request, _ in server.log]


@contextlib.contextmanager
def _server_without_robots(pages: dict[str, str] | None = None) -> Iterator[HTTPServer]:
    """A loopback server whose robots.txt is a 404 (everything allowed), serving
    ``pages`` (a path to the HTML of its body)."""
    server = HTTPServer(host="127.0.0.1", port=0)
    server.start()
    try:
        server.expect_request("/robots.txt").respond_with_data("", status=404)
        for path, body in (pages or {}).items():
            server.expect_request(path).respond_with_data(
                f"<html><body>{body}</body></html>", content_type="text/html"
            )
        yield server
    finally:
        server.clear()
        server.stop()


def test_private_addresses_need_permission() -> None:
    site = traps.start(traps.get("robots-404"))
    try:
        config = CrawlConfig(max_pages=5, delay=0.01, allow_private=False)
        summary, events = asyncio.run(crawl([site.start_url], config))
        assert [e.reason for e in events] == [Reason.PRIVATE_ADDRESS]
        assert list(site.requests_seen) == []
        assert summary.fetched == 0
    finally:
        site.stop()


def test_loopback_urls_are_recognised_literally() -> None:
    assert is_loopback_url("http://127.0.0.5:8080/")
    assert is_loopback_url("http://localhost/")
    assert is_loopback_url("http://[::1]/")
    assert not is_loopback_url("http://10.0.0.1/")
    assert not is_loopback_url("http://example.org/")
    assert not is_loopback_url("not a url")


def test_events_per_host_never_fetch_a_url_twice(trap_site: Callable[..., RunningSite]) -> None:
    site = trap_site("session-ids")
    run(site)
    counts: dict[str, int] = defaultdict(int)
    for request in site.requests_seen:
        counts[request.target] += 1
    assert max(counts.values()) == 1
    assert site.score().repeats == 0


def test_max_depth_limits_links_away_from_the_seed(
    trap_site: Callable[..., RunningSite],
) -> None:
    site = trap_site("calendar")
    config = CrawlConfig(max_depth=1, delay=0.01, allow_private=True, soft404_probes=False)
    _, events = run(site, config)
    fetched = [e for e in events if e.event is EventKind.FETCHED]
    assert fetched and max(e.depth for e in fetched) == 1
    too_deep = [e for e in events if e.reason is Reason.DEPTH_LIMIT]
    assert too_deep and all(e.depth == 2 and e.event is EventKind.SKIPPED for e in too_deep)
    assert not any(r.target.startswith("/events/2024") for r in site.requests_seen)


def test_a_pair_that_changes_nothing_is_learned_and_its_other_urls_skipped(
    trap_site: Callable[..., RunningSite],
) -> None:
    """growing-query links every story to ``/news/{n+1}?a=1``, a copy of the story:
    the first copy teaches that ``a=1`` changes nothing in ``/news/``, so the other
    stories' copy links are ``duplicate-url`` without a request. Outside ``/news/``
    the rule is re-checked, not applied blindly: one page with ``a=1`` there (one
    fetch more) is the evidence."""
    site = trap_site("growing-query")
    crawler, events = run(site)
    score = site.score()
    assert score.complete, score.missing
    copies = [t for t in score.trap_targets if t.startswith("/news/")]
    assert len(copies) == 1, copies
    assert score.trap_fetched <= 6, score.trap_targets
    assert [t for t in score.trap_targets if "a=1" in t and not t.startswith("/news/")] == [
        "/list?a=1&ref=news"
    ]
    skipped = [e for e in events if e.event is EventKind.SKIPPED and "?a=1" in e.url]
    # The five other stories' copy links, and what the one copy linked further.
    assert len(skipped) >= 5 and {e.reason for e in skipped} == {Reason.DUPLICATE_URL}
    assert any("a=1" in line and "change nothing" in line for line in crawler.summary.trap_signals)


def test_an_encoding_robotkit_will_not_decode_is_failed_with_its_reason_once(
    httpserver: HTTPServer,
) -> None:
    """A page in ``Content-Encoding: br`` (not decoded, so never passed on raw) is
    ``failed`` with ``unsupported-encoding``, requested once: a retry would get the
    same answer."""
    httpserver.expect_request("/robots.txt").respond_with_data("", status=404)
    httpserver.expect_request("/").respond_with_data(
        b"\x0b" * 100, headers={"Content-Encoding": "br"}, content_type="text/html"
    )
    _, events = asyncio.run(crawl([httpserver.url_for("/")], FAST))
    assert [(e.event, e.reason) for e in events if not e.probe] == [
        (EventKind.FAILED, Reason.UNSUPPORTED_ENCODING)
    ]
    assert [r.path for r, _ in httpserver.log].count("/") == 1


class HangUpServer:
    """A loopback server that answers ``/robots.txt`` with 404 and hangs up on any
    other request without a response: a network error, not an HTTP answer."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}/"
        self.targets: list[str] = []
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            with conn:
                head = read_head(conn)
                target = head.split(b" ", 2)[1].decode() if head.count(b" ") >= 2 else ""
                self.targets.append(target)
                if target == "/robots.txt":
                    conn.sendall(
                        b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                    )

    def close(self) -> None:
        self.listener.close()
        self.thread.join(timeout=5)


def test_a_connection_closed_without_an_answer_is_a_failed_event() -> None:
    """``failed`` with no status and ``network-error`` (timeouts: the tarpit in the
    test above)."""
    server = HangUpServer()
    try:
        config = replace(FAST, retries=0)
        summary, events = asyncio.run(crawl([server.url], config))
    finally:
        server.close()
    assert server.targets == ["/robots.txt", "/"]
    assert [e.to_json() | {"time": 0} for e in events] == [
        {
            "url": server.url,
            "event": "failed",
            "status": None,
            "reason": "network-error",
            "depth": 0,
            "referer": None,
            "time": 0,
        }
    ]
    assert summary.failed == 1 and summary.fetched == 0


def test_a_link_with_tracking_parameters_is_requested_without_them() -> None:
    """A story first linked with an ad click's ``gclid`` and a campaign's ``utm_*``
    (then under its own URL): the server sees one request, for the story itself,
    with its real parameter kept and in its place."""
    pages = {
        "/": '<a href="/story?utm_source=ad&page=2&gclid=Cj0K5b0e">ad</a>'
        '<a href="/story?page=2">story</a>',
        "/story": "<p>the story itself, page two</p>",
    }
    with _server_without_robots(pages) as server:
        _, events = asyncio.run(crawl([server.url_for("/")], FAST))
        asked = [
            (request.path, request.query_string.decode())
            for request, _ in server.log
            if request.path == "/story"
        ]
        assert asked == [("/story", "page=2")]
        fetched = [e.url for e in events if e.event is EventKind.FETCHED and not e.probe]
        assert server.url_for("/story?page=2") in fetched


def test_a_link_with_a_session_path_parameter_is_requested_without_it() -> None:
    """A Java site behind URL rewriting links every page with ``;jsessionid=`` (a new
    id in each response): the server sees each page asked for as itself, once, and
    no request carries a session id (blind11 ``magnolia``)."""
    pages = {
        "/": '<a href="/about.html;jsessionid=0A1B.node2">about</a>'
        '<a href="/news.html;jsessionid=0A1B.node2?page=2">news</a>',
        "/about.html": '<p>about the firm</p><a href="/news.html;jsessionid=9F8E?page=2">n</a>',
        "/news.html": "<p>the news, page two</p>",
    }
    with _server_without_robots(pages) as server:
        asyncio.run(crawl([server.url_for("/")], FAST))
        asked = sorted(
            (request.environ["RAW_URI"], request.query_string.decode())
            for request, _ in server.log
            if request.path in pages and request.path != "/"
        )
        assert asked == [("/about.html", ""), ("/news.html?page=2", "page=2")]


def test_a_pages_shortlink_is_never_requested() -> None:
    """A page that names its shorter URL (``rel=shortlink``, ``/node/12``) is that URL:
    the crawler requests neither the link element nor a later link to it."""
    pages = {
        "/": '<a href="/news/harbour">harbour</a>',
        "/news/harbour": '<link rel="shortlink" href="/node/12">'
        '<p>the harbour reopens</p><a href="/about">about</a>',
        "/about": '<p>about us</p><a href="/node/12">recent</a>',
    }
    with _server_without_robots(pages) as server:
        asyncio.run(crawl([server.url_for("/")], FAST))
        asked = [request.path for request, _ in server.log]
        assert "/about" in asked and "/node/12" not in asked


def test_a_url_queued_before_its_session_parameter_was_learned_is_requested_without_it() -> None:
    """Two spellings of one page differing only in a token (``?src=``), each linked
    by a page of its own (a session id has one value a visit: a page linking several
    is no session, test_url_families), prove ``src`` a session id; a page queued
    under a ``src`` spelling before that is requested as itself, and the server
    never sees its session spelling."""
    one, two = "x7K2q9Lm4Ta1", "p3R8w2Zn6Qe5"
    pages = {
        "/": f'<a href="/guide?src={one}">guide</a><a href="/more">more</a>',
        "/more": f'<p>more about the harbour at night</p><a href="/guide?src={two}">guide</a>'
        f'<a href="/faq?src={two}">faq</a>',
        "/guide": "<p>the guide to the harbour lanterns at dusk</p>",
        "/faq": "<p>questions asked about the harbour lanterns</p>",
    }
    with _server_without_robots(pages) as server:
        asyncio.run(crawl([server.url_for("/")], FAST))
        asked = [(r.path, r.query_string.decode()) for r, _ in server.log if r.path == "/faq"]
        assert asked == [("/faq", "")]
