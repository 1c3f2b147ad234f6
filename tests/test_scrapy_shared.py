"""The Scrapy add-on with ROBOTKIT_REDIS_URL: several Scrapy processes share
robotkit's politeness on a real redis-server (ARCHITECTURE.md, "Shared state").

Each crawl is a real Scrapy process (tests/scrapy_project/run_spider.py); the
assertions are on what the HTTP server saw, with the start and end of every
request, so an overlap between two processes or a short gap shows.
"""

from __future__ import annotations

import asyncio
import itertools
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from pytest_httpserver import HTTPServer
from scrapy import Request as ScrapyRequest
from scrapy.http import HtmlResponse
from scrapy.settings import Settings
from werkzeug import Request, Response

from robotkit.base.clock import ManualClock
from robotkit.base.reasons import Reason
from robotkit.scrapy import PacingMiddleware, Refused, RobotkitSettings
from robotkit.scrapy.pacing import SHARED_TICKET_META, TICKET_META
from robotkit.scrapy.shared import SharedPoliteness
from robotkit.scrapy.state import CrawlState
from robotkit.shared import SharedState

sys.path.insert(0, str(Path(__file__).parent / "scrapy_project"))
sys.path.insert(0, str(Path(__file__).parent))
from run_spider import ADDON, ROBOT, crawl
from support.redis_server import RedisServer, free_port

DELAY = 0.2
"""The Crawl-delay and ROBOTKIT_DELAY of the shared crawls."""
SLACK = 0.002
"""Seconds a server-side gap may fall short of the delay: the server notes a
response's end just before its last bytes leave."""
SERVICE = 0.02
"""Seconds each response takes, so two requests in flight at once overlap."""


@dataclass
class Visit:
    path: str
    start: float
    end: float


@dataclass
class TimedSite:
    """``/`` links ``/p0`` ... ``/p{n-1}``; every request is logged with its start
    and its end, server-side. ``on_page`` runs when ``/`` is asked for."""

    server: HTTPServer
    robots: str
    pages: int = 5
    visits: list[Visit] = field(default_factory=list)
    on_page: Any = None

    def __post_init__(self) -> None:
        self.server.expect_request("/robots.txt").respond_with_handler(self._robots)
        self.server.expect_request("/").respond_with_handler(self._home)
        for i in range(self.pages):
            self.server.expect_request(f"/p{i}").respond_with_handler(self._page)

    @property
    def url(self) -> str:
        return self.server.url_for("/")

    def _timed(self, request: Request, body: str, kind: str) -> Response:
        start = time.time()
        time.sleep(SERVICE)
        self.visits.append(Visit(request.path, start, time.time()))
        return Response(body, 200, {"Content-Type": kind})

    def _robots(self, request: Request) -> Response:
        return self._timed(request, self.robots, "text/plain")

    def _home(self, request: Request) -> Response:
        if self.on_page is not None:
            self.on_page()
        links = "".join(f'<a href="/p{i}">p{i}</a>' for i in range(self.pages))
        return self._timed(request, f"<html><body>{links}</body></html>", "text/html")

    def _page(self, request: Request) -> Response:
        return self._timed(request, "<html><body>a page</body></html>", "text/html")

    def gaps(self) -> list[float]:
        """Seconds from the end of each request to the start of the next one;
        negative when two overlapped."""
        visits = sorted(self.visits, key=lambda visit: visit.start)
        return [b.start - a.end for a, b in itertools.pairwise(visits)]

    def paths(self, path: str) -> int:
        return sum(visit.path == path for visit in self.visits)


@pytest.fixture
def site_server() -> Iterator[HTTPServer]:
    """A threaded server: two requests at once are served at once (and overlap)."""
    server = HTTPServer(host="127.0.0.1", port=0, threaded=True)
    server.start()
    try:
        yield server
    finally:
        server.clear()
        server.stop()


def _shared(redis_url: str, crawl_id: str) -> dict[str, Any]:
    return {
        **ROBOT,
        **ADDON,
        "ROBOTKIT_REDIS_URL": redis_url,
        "ROBOTKIT_CRAWL_ID": crawl_id,
        "DOWNLOAD_DELAY": 0,
        "ROBOTKIT_DELAY": DELAY,
        # A soft-404 probe would be a request the site does not log.
        "ROBOTKIT_SOFT404_PROBES": False,
    }


def test_two_scrapy_processes_share_the_pace_and_robots_txt_of_a_host(
    site_server: HTTPServer, any_redis_url: str, crawl_id: str
) -> None:
    redis_url = any_redis_url  # ROBOTKIT_REDIS_URL may name a cluster's node
    site = TimedSite(site_server, f"User-agent: *\nCrawl-delay: {DELAY}\n")
    settings = _shared(redis_url, crawl_id)
    with ThreadPoolExecutor(2) as pool:
        runs = [pool.submit(crawl, [site.url], settings, 60.0) for _ in range(2)]
        stats = [run.result() for run in runs]

    # Each process has its own dupefilter, so each fetched every page.
    assert site.paths("/") == 2
    assert all(site.paths(f"/p{i}") == 2 for i in range(site.pages))
    # robots.txt once for both: one process fetched it, the other adopted it.
    assert site.paths("/robots.txt") == 1
    assert len(site_server.log) == len(site.visits)  # every request is timed
    assert sum(s.get("robotkit/robots_status/200", 0) for s in stats) == 1
    # One request at a time to the host across both processes, and from the end
    # of each response to the next start at least the delay, robots.txt included.
    gaps = site.gaps()
    assert min(gaps) >= DELAY - SLACK, gaps
    for run in stats:
        assert "Traceback" not in run["stderr"]
        assert run.get("robotkit/allow/allowed", 0) >= 1 + site.pages


def test_unreachable_redis_stops_the_crawl_at_start(site_server: HTTPServer) -> None:
    site = TimedSite(site_server, "User-agent: *\nAllow: /\n")
    unreachable = f"redis://127.0.0.1:{free_port()}/0"
    settings = {**ROBOT, **ADDON, "ROBOTKIT_REDIS_URL": unreachable}
    with pytest.raises(AssertionError, match=r"UsageError: ROBOTKIT_REDIS_URL: Redis unreachable"):
        crawl([site.url], settings, 60.0)
    assert site.visits == []


def test_shared_state_needs_the_asyncio_reactor(
    site_server: HTTPServer, redis_url: str, crawl_id: str
) -> None:
    site = TimedSite(site_server, "User-agent: *\nAllow: /\n")
    settings = {
        **_shared(redis_url, crawl_id),
        "TWISTED_REACTOR": "twisted.internet.selectreactor.SelectReactor",
    }
    with pytest.raises(AssertionError, match=r"ROBOTKIT_REDIS_URL needs Scrapy's asyncio reactor"):
        crawl([site.url], settings, 60.0)
    assert site.visits == []


def test_redis_lost_mid_crawl_refuses_every_request_after(
    site_server: HTTPServer, tmp_path: Path, crawl_id: str
) -> None:
    redis = RedisServer(tmp_path)
    try:
        site = TimedSite(site_server, "User-agent: *\nAllow: /\n", pages=2, on_page=redis.stop)
        stats = crawl([site.url], _shared(redis.url, crawl_id), 60.0)
    finally:
        redis.stop()
    # robots.txt and the page during which Redis went: nothing after it.
    assert [visit.path for visit in site.visits] == ["/robots.txt", "/"]
    assert "shared state unavailable, a request to 127.0.0.1" in stats["stderr"]


def _process(redis_url: str, crawl_id: str, clock: ManualClock) -> PacingMiddleware:
    """One Scrapy process's pacing, on the shared state (no reactor: the crawl's
    start-up check of it is the crawls' business above)."""
    settings = Settings(
        {"USER_AGENT": "Bot/1", "ROBOTKIT_REDIS_URL": redis_url, "ROBOTKIT_CRAWL_ID": crawl_id}
    )
    state = CrawlState(RobotkitSettings.from_scrapy(settings), None, clock=clock)
    shared = SharedState.connect(redis_url, crawl_id)
    state.shared = SharedPoliteness(shared, state.pacer, state.engine, clock)
    return PacingMiddleware(state)


def test_a_retry_after_one_process_saw_holds_the_host_for_the_other(
    redis_url: str, crawl_id: str, clock: ManualClock
) -> None:
    async def run() -> None:
        one, other = (_process(redis_url, crawl_id, clock) for _ in range(2))
        first = ScrapyRequest("http://a.example/1")
        await one.process_request(first)
        assert SHARED_TICKET_META in first.meta
        busy = HtmlResponse(first.url, status=503, headers={"Retry-After": "120"})
        await one.process_response(first, busy)
        # 120 s is past ROBOTKIT_MAX_DEFER (30 s): dropped, as a hold seen in process.
        with pytest.raises(Refused) as refused:
            await other.process_request(ScrapyRequest("http://a.example/2"))
        assert refused.value.reason is Reason.RATE_LIMITED
        await other.process_request(ScrapyRequest("http://b.example/1"))  # not held
        clock.advance(120)
        later = ScrapyRequest("http://a.example/3")
        await other.process_request(later)  # the hold is over
        assert TICKET_META in later.meta and SHARED_TICKET_META in later.meta
        await other.process_response(later, HtmlResponse(later.url))

    asyncio.run(run())


def test_row2_redis_password_masked_in_settings_repr_and_usage_error(
    site_server: HTTPServer,
) -> None:
    """ROBOTKIT_REDIS_URL's password is in neither the settings' repr (logged by
    users and Scrapy) nor the one-line error of a Redis that does not answer."""
    secret = "s3cret-pw"
    port = free_port()
    unreachable = f"redis://:{secret}@127.0.0.1:{port}/0"
    settings = RobotkitSettings.from_scrapy(
        Settings({"USER_AGENT": "TestBot/1.0", "ROBOTKIT_REDIS_URL": unreachable})
    )
    assert settings.redis_url == unreachable  # the value itself is kept for the client
    assert secret not in repr(settings)
    assert f"redis_url='redis://:***@127.0.0.1:{port}/0'" in repr(settings)
    assert "user_agent='TestBot/1.0'" in repr(settings)

    site = TimedSite(site_server, "User-agent: *\nAllow: /\n")
    with pytest.raises(AssertionError, match=r"ROBOTKIT_REDIS_URL: Redis unreachable") as caught:
        crawl([site.url], {**ROBOT, **ADDON, "ROBOTKIT_REDIS_URL": unreachable}, 60.0)
    assert secret not in str(caught.value)
    assert f"redis://:***@127.0.0.1:{port}/0" in str(caught.value)
    assert site.visits == []
