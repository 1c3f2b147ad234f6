"""Per host, at most one page sent out and not yet judged.

robotkit's crawler judges a page (``Triage.judge``) before it sends the host's next
request, so what the page taught (a region that grows without news, a copy, a
session id) already rules on the next one (ARCHITECTURE.md, "The flow of a URL
through the crawler", steps 3 to 5). Inside Scrapy a response reaches the trap guard,
a spider middleware, only after the downloader middlewares and the scraper's queue,
and meanwhile the pacing would let the host's next request go: the triage learned
one page late, and a facet space cost a few fetches more than in robotkit's crawler.

So the pacing holds a host's next page until the page of that host sent out last
is judged, or is known never to reach the guard. Every way out is heard, so a host
never hangs:

- the guard judged the response, or an exception passed the guard (the
  HttpError of a non-2xx answer, a callback's error): the guard releases it;
- a download error, a timeout, a body past ``DOWNLOAD_MAXSIZE``: the pacing
  releases it at once (there is no page to judge);
- anything else (a redirect or a retry, which return a new request; a downloader
  middleware that drops the response; an errback): the request has left Scrapy's
  engine, being neither in the downloader nor in the scraper. That is checked
  whenever the engine schedules a request, takes one from its scheduler or finds
  the scheduler empty (it asks after every request it has finished), and every
  :data:`POLL` seconds while a page is held, for a way out no signal tells of.

Only requests that came through Scrapy's scheduler are held: robots.txt fetches,
soft-404 probes and other downloads through the engine never reach a spider.
Without the guard's spider middleware nothing is judged, and nothing is held.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

from scrapy import Request, signals
from scrapy.crawler import Crawler
from scrapy.utils.asyncio import CallLaterResult, call_later

from robotkit.pacing.pacer import HostKey, host_key
from robotkit.url.parse import InvalidURL

POLL = 0.5
"""Seconds between two checks, while a page is held, that it is still in Scrapy's
engine: the last resort for a way out no signal tells of (the engine backing out
of its scheduler while a dropped page's host waits)."""

InEngine = Callable[[Request], bool]
"""Whether a request is still in Scrapy's engine: downloading, or its response or
failure queued for, or in, the scraper."""


class Judging:
    """Per host, the page sent out last whose response is not judged yet."""

    def __init__(self) -> None:
        self._pending: dict[HostKey, Request] = {}
        self._scheduled: weakref.WeakSet[Request] = weakref.WeakSet()
        self._in_engine: InEngine | None = None
        self._listeners: list[Callable[[HostKey], None]] = []
        self.poll: float | None = POLL
        """Seconds between two checks while a host waits (None: only on signals)."""
        self._timer: CallLaterResult | None = None

    @property
    def enabled(self) -> bool:
        return self._in_engine is not None

    def attach(self, crawler: Crawler) -> None:
        """Hold hosts for the trap guard of ``crawler``'s crawl (called by the guard's
        spider middleware: without it nothing is judged)."""
        if self._in_engine is None:
            self.enable(lambda request: in_engine(crawler, request))
            crawler.signals.connect(self.scheduled, signal=signals.request_scheduled)
            crawler.signals.connect(self.sweep, signal=signals.scheduler_empty)

    def enable(self, in_engine: InEngine) -> None:
        self._in_engine = in_engine

    def on_release(self, listener: Callable[[HostKey], None]) -> None:
        """Call ``listener`` with a host whenever the host is no longer held."""
        self._listeners.append(listener)

    def scheduled(self, request: Request, **_: Any) -> None:
        """Scrapy's ``request_scheduled``: a page of the crawl, which a spider will
        see. A redirect or a retry of a held page is scheduled when that page left
        the engine, so every host is checked."""
        self._scheduled.add(request)
        self.sweep()

    def begin(self, host: HostKey, request: Request) -> None:
        """``request`` starts now: hold ``host`` until it is judged or gone."""
        if self.enabled and request in self._scheduled:
            self._pending[host] = request

    def holds(self, host: HostKey, request: Request) -> bool:
        """Whether ``request`` must wait for the judgement of the page of ``host``
        sent out last. Only a page waits: a soft-404 probe is fetched while a page
        is being judged, and robots.txt is no page."""
        return request in self._scheduled and self._unjudged(host)

    def _unjudged(self, host: HostKey) -> bool:
        pending = self._pending.get(host)
        if pending is None:
            return False
        assert self._in_engine is not None  # nothing is pending unless enabled
        if self._in_engine(pending):
            if self._timer is None and self.poll is not None:
                # One timer for every waiting host: waking each waiter on a timer
                # of its own would shuffle their order.
                self._timer = call_later(self.poll, self._tick)
            return True
        self._release(host)
        return False

    def _tick(self) -> None:
        self._timer = None
        self.sweep()

    def done(self, request: Request | None) -> None:
        """``request``'s page was judged, or will never be."""
        if request is None:
            return
        try:
            host = host_key(request.url)
        except InvalidURL:
            return
        if self._pending.get(host) is request:
            self._release(host)

    def sweep(self, **_: Any) -> None:
        """Release every host whose unjudged page has left the engine unseen."""
        for host in list(self._pending):
            self._unjudged(host)

    def _release(self, host: HostKey) -> None:
        del self._pending[host]
        for listener in self._listeners:
            listener(host)


def in_engine(crawler: Crawler, request: Request) -> bool:
    """Whether ``request`` is still in ``crawler``'s engine: in the downloader (its
    middlewares included), queued for the scraper, or being scraped. Scrapy's
    telnet console reads the same attributes; where they are missing the request
    counts as gone, so a host is never held on a guess."""
    engine = crawler.engine
    if engine is None:
        return False
    try:
        if request in engine.downloader.active:
            return True
        slot = engine.scraper.slot
        if slot is None:
            return False
        return request in slot.active or any(queued is request for _, queued, _ in slot.queue)
    except AttributeError:
        return False
