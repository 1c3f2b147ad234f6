"""Per-host pacing for Scrapy, never faster than robotkit's delay.

Scrapy's download slots space request *starts* by ``DOWNLOAD_DELAY`` (AutoThrottle
moves that delay), ignore Crawl-delay, and retry a 429 or 503 without reading
Retry-After. This downloader middleware sits last before the download, so each
request passes it only when robotkit's :class:`~robotkit.pacing.pacer.Pacer` allows:

- one request per host at a time; the gap from the *end* of one response to the
  start of the next is the largest of the delay, Crawl-delay and 1/Request-rate,
  robots.txt fetches included;
- a 429 or 503 with Retry-After holds the whole host until then (RFC 9110 section
  10.2.3, RFC 6585 section 4); 5xx, 429 without Retry-After and network errors
  back off exponentially.

With the trap guard installed, a host's next page also waits until the guard has
judged the page of that host sent out last (:mod:`robotkit.scrapy.judging`), as
robotkit's own crawler judges a page before the next request.

Scrapy's slots and AutoThrottle still apply after this middleware: they can only
make the gaps longer. A request that would wait longer than
``ROBOTKIT_MAX_DEFER`` is dropped (``rate-limited`` or ``host-backoff``), so a
crawl always ends by itself.

With ``ROBOTKIT_REDIS_URL``, a request the in-process pacer lets go also reserves
its host in Redis, so every Scrapy process of the crawl keeps these gaps together
(:mod:`robotkit.scrapy.shared`).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from scrapy import Request, Spider
from scrapy.crawler import Crawler
from scrapy.exceptions import DownloadCancelledError
from scrapy.http import Response
from scrapy.utils.asyncio import sleep
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.defer import Deferred

from robotkit.base.headervalues import parse_retry_after
from robotkit.base.outcome import Outcome, classify_status
from robotkit.base.reasons import Decision, Reason
from robotkit.pacing.pacer import HostKey, Ticket, host_key
from robotkit.scrapy.errors import Refused, Waiting
from robotkit.scrapy.guard import is_demoted
from robotkit.scrapy.state import CrawlState, crawl_state
from robotkit.url.parse import InvalidURL

if TYPE_CHECKING:  # the shared pieces need the redis extra
    from robotkit.shared import SharedTicket

TICKET_META = "robotkit_pacing_ticket"
SHARED_TICKET_META = "robotkit_shared_ticket"
"""The request's reservation in Redis, with ``ROBOTKIT_REDIS_URL``."""
_HOLDING_STATUSES = frozenset({429, 503})


class PacingMiddleware:
    """Downloader middleware: wait for the host's turn, record each end."""

    def __init__(self, state: CrawlState) -> None:
        self.state = state
        self._freed: dict[HostKey, list[Deferred[None]]] = {}
        self._main: Counter[HostKey] = Counter()
        """Requests of the main tier waiting here, per host."""
        self._line: dict[HostKey, list[Request]] = {}
        """Requests waiting here, per host, in the order they came: Scrapy's
        scheduler hands them out in its priority order, and a waiter that a wake-up
        set moving must not lose its place to one that came later."""
        state.judging.on_release(self._judged)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> PacingMiddleware:
        return cls(crawl_state(crawler))

    async def process_request(self, request: Request, spider: Spider | None = None) -> None:
        try:
            host = host_key(request.url)
        except InvalidURL:
            return  # not http(s): nothing to pace
        pacer, clock, judging = self.state.pacer, self.state.clock, self.state.judging
        # A page that left the engine unjudged (an errback, a dropped response)
        # frees its host now: the engine asks for a request after each it finished.
        judging.sweep()
        # Links of look-alike pages go after every main link waiting for the same
        # host: Scrapy's priorities order its scheduler, but up to
        # CONCURRENT_REQUESTS requests leave it at once and wait here.
        counted = False
        line = self._line.setdefault(host, [])
        line.append(request)
        try:
            while True:
                # Before every wait, not only the last: a request that what the crawl
                # learned meanwhile rules out (a broken path family) is dropped now,
                # not after its host's backoff. The checks may also demote it.
                for check in self.state.last_checks:
                    check(request)
                demoted = is_demoted(request)
                if counted == demoted:  # the count of waiting main requests follows the tier
                    counted = self._count_main(host, not demoted)
                plan = pacer.plan(host)
                if plan.skip_reason is not None:
                    self.state.count(Decision.DISALLOW, plan.skip_reason)
                    raise Refused(plan.skip_reason)
                # The host (or the crawl) has a request in flight, or another
                # request goes first (see _next).
                if plan.ready_at is None or self._next(host) is not request:
                    freed: Deferred[None] = Deferred()
                    self._freed.setdefault(host, []).append(freed)
                    await maybe_deferred_to_future(freed)
                    continue
                wait = plan.ready_at - clock()
                if wait <= 0:
                    waiting = await self._start(host, request)
                    if waiting is None:
                        judging.begin(host, request)
                        return
                    wait, held = waiting.seconds, waiting.held
                else:
                    held = pacer.state(host).hold_until > clock()
                if wait > self.state.settings.max_defer:
                    reason = Reason.RATE_LIMITED if held else Reason.HOST_BACKOFF
                    self.state.count(Decision.DEFER, reason)
                    raise Refused(reason, f"{host[0]}:{host[1]} asks for {wait:.0f} s")
                await sleep(wait)
        finally:
            line.remove(request)
            if not line:
                del self._line[host]
            if counted:
                self._count_main(host, False)
            # The next in line may go (or, when this one started, wait for its end).
            self._wake(self._freed.pop(host, []))

    async def _start(self, host: HostKey, request: Request) -> Waiting | None:
        """Start ``request`` now (its tickets in its meta), or, when the crawl's
        other processes hold the host (``ROBOTKIT_REDIS_URL``), how long to wait."""
        ticket = self.state.pacer.start(host)
        shared = self.state.shared
        if shared is not None:
            granted: SharedTicket | Waiting = await shared.reserve(host, ticket)
            if isinstance(granted, Waiting):
                self._wake_all()  # the withdrawn slot may be any waiter's (global limit)
                return granted
            request.meta[SHARED_TICKET_META] = granted
        request.meta[TICKET_META] = ticket
        return None

    def _next(self, host: HostKey) -> Request | None:
        """The request waiting for ``host`` that goes next: the first in line that
        nothing holds. A page is held while the host's last page is not judged
        (robots.txt and soft-404 probes are not); a demoted link while a main one
        waits for the same host."""
        judging = self.state.judging
        for waiting in self._line.get(host, ()):
            if judging.holds(host, waiting):
                continue
            if is_demoted(waiting) and self._main.get(host):
                continue
            return waiting
        return None

    def _judged(self, host: HostKey) -> None:
        """The page of ``host`` sent out last is judged (or never will be)."""
        self._wake(self._freed.pop(host, []))

    def _count_main(self, host: HostKey, waiting: bool) -> bool:
        """One main-tier request more (``waiting``) or less waiting for ``host``;
        when none is left, the demoted ones waiting for it re-plan."""
        if waiting:
            self._main[host] += 1
            return True
        self._main[host] -= 1
        if not self._main[host]:
            del self._main[host]
            self._wake(self._freed.pop(host, []))
        return False

    async def process_response(
        self, request: Request, response: Response, spider: Spider | None = None
    ) -> Response:
        retry_at = None
        if response.status in _HOLDING_STATUSES:
            value = response.headers.get("Retry-After")
            text = value.decode("latin-1") if value is not None else None
            retry_at = parse_retry_after(text, self.state.clock())
        await self._finish(request, classify_status(response.status), retry_at)
        return response

    async def process_exception(
        self, request: Request, exception: Exception, spider: Spider | None = None
    ) -> None:
        # A download cut at DOWNLOAD_MAXSIZE had an answer: the cap is the
        # crawl's limit, not a sign that the host struggles (no backoff).
        failed = None if isinstance(exception, DownloadCancelledError) else Outcome.NETWORK_ERROR
        await self._finish(request, failed, None)
        # No page to judge (even if a middleware retries or answers it later).
        self.state.judging.done(request)

    async def _finish(
        self, request: Request, outcome: Outcome | None, retry_at: float | None
    ) -> None:
        """One end of ``request``'s download, read once, for the in-process pacer
        and the shared one. The shared end goes first: a request this process
        lets go next asks Redis for the host, which must know it is free."""
        ticket = request.meta.pop(TICKET_META, None)
        shared_ticket = request.meta.pop(SHARED_TICKET_META, None)
        if not isinstance(ticket, Ticket):
            return
        if shared_ticket is not None and self.state.shared is not None:
            await self.state.shared.finish(shared_ticket, outcome, retry_at)
        self.state.pacer.finish(ticket, outcome, retry_at)
        self._wake_all()

    def _wake_all(self) -> None:
        """Every waiter re-plans: the global in-flight limit may free any host."""
        self._wake([d for host in list(self._freed) for d in self._freed.pop(host)])

    @staticmethod
    def _wake(waiters: list[Deferred[None]]) -> None:
        for freed in waiters:
            freed.callback(None)
