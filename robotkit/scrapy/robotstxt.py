"""robots.txt for Scrapy with robotkit's status table, cache and explanations.

Scrapy's own RobotsTxtMiddleware parses whatever body comes back (an error page
becomes rules) and allows everything after a failed fetch. This middleware takes
its place: Scrapy's engine downloads each robots.txt (so the fetch passes through
the pacing like any request) and robotkit's sans-I/O engine decides. Per origin:

- 2xx: the rules; 3xx: followed up to five hops by the engine, not by Scrapy;
- 404 and other 4xx: allow all; 401/403: deny all in the ``classic`` profile;
- 429, 5xx, network errors: the origin is deferred (RFC 9309 section 2.3.1.4).
  A deferred request leaves the downloader and a copy is scheduled again when the
  hold ends (Retry-After, RFC 9110 section 10.2.3, or the backoff): never fetched
  early, and dropped only when the wait would pass ``ROBOTKIT_MAX_DEFER``.

Every verdict is counted in Scrapy's stats as ``robotkit/<decision>/<reason>``.
With ``ROBOTKIT_REDIS_URL``, an origin's robots.txt is fetched by one process of
the crawl for all of them (:mod:`robotkit.scrapy.shared`).
"""

from __future__ import annotations

import logging
from typing import Any

from scrapy import Request, Spider, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import DontCloseSpider, IgnoreRequest
from scrapy.http import Response
from scrapy.http.request import NO_CALLBACK
from scrapy.utils.asyncio import call_later
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.defer import Deferred

from robotkit.base.identity import product_token
from robotkit.base.reasons import Decision
from robotkit.pacing.pacer import host_key
from robotkit.robots.engine import FetchNeeded, RobotsResponse
from robotkit.robots.status import FetchFailure
from robotkit.robots.verdict import Verdict
from robotkit.scrapy.errors import TIMEOUTS, Refused, Rescheduled, SharedStateLost
from robotkit.scrapy.state import CrawlState, crawl_state
from robotkit.url.parse import InvalidURL, Origin

log = logging.getLogger(__name__)

ROBOTS_META = "robotkit_robots_fetch"
"""Marks the add-on's own robots.txt requests (never judged by robots.txt)."""
WAITED_META = "robotkit_deferred_for"
"""Seconds a request has already been held back by deferrals."""
ROBOTS_TIMEOUT = 10.0
"""A robots.txt fetch's deadline, as robotkit's own fetcher."""
ROBOTS_PRIORITY = 1000


def response_facts(response: Response) -> RobotsResponse:
    """Scrapy's response as the engine's facts: status, every header value, body."""
    headers = [
        (name.decode("latin-1"), value.decode("latin-1"))
        for name in response.headers
        for value in response.headers.getlist(name)
    ]
    return RobotsResponse.http(response.status, headers, response.body)


def header_values(response: Response, name: str) -> list[str]:
    """Every value of header ``name``, decoded as HTTP's octets (RFC 9110 5.5)."""
    return [value.decode("latin-1") for value in response.headers.getlist(name)]


class RobotsMiddleware:
    """Downloader middleware: robotkit's robots.txt verdict before every request."""

    def __init__(self, crawler: Crawler, state: CrawlState) -> None:
        self.crawler = crawler
        self.state = state
        token = crawler.settings.get("ROBOTSTXT_USER_AGENT") or state.settings.user_agent
        self.token = product_token(token)
        self._fetching: dict[Origin, list[Deferred[None]]] = {}
        self._held = 0
        crawler.signals.connect(self._spider_idle, signal=signals.spider_idle)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RobotsMiddleware:
        return cls(crawler, crawl_state(crawler))

    async def process_request(self, request: Request, spider: Spider | None = None) -> None:
        if request.meta.get(ROBOTS_META) or request.meta.get("dont_obey_robotstxt"):
            return
        if not request.url.startswith(("http://", "https://")):
            return  # data:, file:, ... have no robots.txt
        verdict = await self.verdict(request.url)
        self.state.count(verdict.decision, verdict.reason)
        if verdict.decision is Decision.ALLOW:
            self._pace(request.url, verdict)
            return
        if verdict.decision is Decision.DEFER and verdict.retry_at is not None:
            self._reschedule(request, verdict.retry_at, verdict)
        raise Refused(verdict.reason, _explain(verdict))

    async def verdict(self, url: str) -> Verdict:
        """The verdict for ``url``, fetching its robots.txt first when needed."""
        while True:
            answer = self.state.engine.check(url, self.token, self.state.clock())
            if isinstance(answer, Verdict):
                return answer
            await self._fetch(answer)

    def _pace(self, url: str, verdict: Verdict) -> None:
        """Hand the robots.txt pace (Crawl-delay, Request-rate) to the pacer."""
        try:
            host = host_key(url)
        except InvalidURL:
            return
        skip = self.state.pacer.apply_robots(host, verdict.crawl_delay, verdict.request_rate)
        if skip is not None:
            self.state.count(Decision.DISALLOW, skip)
            raise Refused(
                skip,
                f"Crawl-delay {verdict.crawl_delay}, Request-rate interval {verdict.request_rate}",
            )

    async def _fetch(self, need: FetchNeeded) -> None:
        """Fetch one origin's robots.txt (following the engine's redirects); a
        second request for the same origin waits for the fetch under way."""
        waiting = self._fetching.get(need.origin)
        if waiting is not None:
            done: Deferred[None] = Deferred()
            waiting.append(done)
            await maybe_deferred_to_future(done)
            return
        self._fetching[need.origin] = []
        try:
            shared = self.state.shared
            if shared is None:
                await self._fetch_chain(need)
            else:  # fetched here only while this process holds the origin's lock
                await shared.claim_robots(need.origin, lambda: self._fetch_chain(need))
        finally:
            for done in self._fetching.pop(need.origin):
                done.callback(None)

    async def _fetch_chain(self, need: FetchNeeded) -> None:
        """Download ``need`` and each redirect the engine asks for, into its cache."""
        step: FetchNeeded | object = need
        while isinstance(step, FetchNeeded):
            facts = await self._download(step)
            step = self.state.engine.receive(step, facts, self.state.clock())

    async def _download(self, need: FetchNeeded) -> RobotsResponse:
        request = Request(
            need.url,
            headers=dict(need.headers),
            priority=ROBOTS_PRIORITY,
            dont_filter=True,
            callback=NO_CALLBACK,
            meta={
                ROBOTS_META: True,
                "dont_redirect": True,  # the engine follows, and counts, the hops
                "dont_retry": True,  # a failure defers the origin instead
                "handle_httpstatus_all": True,
                "download_timeout": ROBOTS_TIMEOUT,
            },
        )
        try:
            response = await self.crawler.engine.download_async(request)
        except SharedStateLost:
            raise  # the pacing could not reach Redis: no state to guess
        except TIMEOUTS as error:
            return RobotsResponse.failed(FetchFailure.TIMEOUT, str(error))
        except IgnoreRequest as error:
            return RobotsResponse.failed(FetchFailure.NETWORK_ERROR, f"not fetched: {error}")
        except Exception as error:  # any transport failure: the origin is unreachable
            return RobotsResponse.failed(FetchFailure.NETWORK_ERROR, repr(error))
        if self.crawler.stats is not None:
            self.crawler.stats.inc_value(f"robotkit/robots_status/{response.status}")
        return response_facts(response)

    def _reschedule(self, request: Request, retry_at: float, verdict: Verdict) -> None:
        """Send a copy of ``request`` back to the scheduler at ``retry_at``, unless
        the total wait would pass ``ROBOTKIT_MAX_DEFER`` (then it is only dropped)."""
        now = self.state.clock()
        wait = max(0.0, retry_at - now)
        waited = float(request.meta.get(WAITED_META, 0.0))
        if waited + wait > self.state.settings.max_defer:
            return
        again = request.replace(dont_filter=True)
        again.meta[WAITED_META] = waited + wait
        self._held += 1
        call_later(wait, self._release, again)
        raise Rescheduled(verdict.reason, retry_at, _explain(verdict))

    def _release(self, request: Request) -> None:
        self._held -= 1
        engine = self.crawler.engine
        if engine is not None and engine.running:
            engine.crawl(request)

    def _spider_idle(self, spider: Any = None) -> None:
        """Keep the spider open while deferred requests wait to come back."""
        if self._held:
            raise DontCloseSpider


def _explain(verdict: Verdict) -> str:
    """One line: the robots.txt URL, its status or outcome, and the deciding rule."""
    parts = [verdict.robots_url or "", verdict.detail]
    if verdict.rule is not None:
        parts.append(f"line {verdict.rule.line}: {verdict.rule.text}")
    return "; ".join(part for part in parts if part)
