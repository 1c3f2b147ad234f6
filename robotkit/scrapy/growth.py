"""Self-grown URLs in Scrapy: requests the growth bound holds, given back or left.

The bound (:mod:`robotkit.triage.growth`, ARCHITECTURE.md "Self-grown URLs") follows
a class of URLs that its own pages extend with parameters only a few steps from the
pages outside it; a request further along waits. robotkit's crawler keeps such a URL
out of its frontier and decides about it once nothing else is queued; inside Scrapy
the request has left the scheduler when its turn comes (the trap guard's downloader
middleware asks the bound then, once the pages that link it were judged), so it is
kept here, by its key, and the downloader middleware drops it with :class:`Held`:

- a page closer to a root that links it again (met by the guard's spider middleware),
  or a copy of it that the guard refuses, gives it back: scheduled again, under the
  spelling the closer page linked (``dont_filter``: the dupefilter saw its key);
- when the spider is idle (Scrapy's ``spider_idle``: nothing scheduled, downloading
  or being scraped), those a page closer to a root linked meanwhile are scheduled
  again, and the rest are left: ``robotkit/disallow/self-growth`` in Scrapy's stats,
  the reason code robotkit's crawler writes in ``--output``.

The bound's own state (the pages that linked each URL, each page's chain) is the
crawl's :class:`~robotkit.triage.growth.GrowthGate`, the triage's, asked as robotkit's
crawler asks it; this module only keeps the Scrapy requests it holds.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from scrapy import Request, signals
from scrapy.crawler import Crawler

from robotkit.base.reasons import Reason
from robotkit.scrapy.errors import Refused
from robotkit.triage.growth import GrowthGate
from robotkit.triage.waste import Waiting

log = logging.getLogger(__name__)


class Held(Refused):
    """Not now: the request is past the growth bound. It is scheduled again if a page
    closer to a root links it before the spider is idle, else left (``self-growth``).
    An errback may ignore it."""

    def __init__(self) -> None:
        super().__init__(Reason.SELF_GROWTH, "held until a page closer to a root links it")


class HeldRequests:
    """The requests ``gate`` holds in one crawl, by key; ``left`` counts each left
    for good."""

    def __init__(self, gate: GrowthGate, left: Callable[[Reason], None]) -> None:
        self.gate = gate
        self._left = left
        self._held: dict[str, Request] = {}
        self._send: Callable[[Request], None] | None = None

    def attach(self, crawler: Crawler) -> None:
        """Give requests back through ``crawler``'s engine, and decide about the held
        ones when its spider is idle (called by the guard's spider middleware: without
        it no page is judged and no link offered, so nothing is ever held)."""
        if self._send is None:
            self._send = lambda request: _schedule(crawler, request)
            crawler.signals.connect(self.idle, signal=signals.spider_idle)

    def check(self, request: Request, key: str, referer: str | None) -> None:
        """Raise :class:`Held` when ``request``'s turn came while it is deep (its state
        is kept otherwise, for its page's links)."""
        if self._send is None or not self.gate.waits(request.url, key):
            return
        depth = int(request.meta.get("depth", 0))
        self.gate.hold(Waiting(request.url, key, depth, referer, ""))
        self._held[key] = request
        raise Held()

    def respelled(self, request: Request) -> Request | None:
        """``request`` under the spelling a page closer to a root linked, when that
        chain was the shorter (to be scheduled in its place); None to send it as is."""
        spelled = self.gate.respelled(request.url)
        return None if spelled == request.url else request.replace(url=spelled, dont_filter=True)

    def again(self, url: str, key: str, referer: str | None) -> None:
        """A link to a known ``key`` as ``url`` on ``referer``: its held request goes
        back if the link brings it closer to a root."""
        self._back(self.gate.again(url, key, referer))

    def copied(self, url: str, referer: str | None) -> None:
        """A request refused as a copy of the page under its key now: its link is one
        to that page, which goes back if it was held and is no longer deep."""
        self._back(self.gate.copied(url, referer))

    def idle(self, **_: Any) -> None:
        """Scrapy's ``spider_idle``: schedule again what a page closer to a root linked
        since it was held (the spider stays open for them); leave the rest."""
        again, left = self.gate.leave()
        for waiting in left:
            self._held.pop(waiting.key, None)
            self._left(Reason.SELF_GROWTH)
            log.debug("robotkit: %s left (%s)", waiting.url, Reason.SELF_GROWTH.value)
        for waiting in again:
            self._back(waiting)

    def _back(self, waiting: Waiting | None) -> None:
        request = self._held.pop(waiting.key, None) if waiting is not None else None
        if request is not None and waiting is not None and self._send is not None:
            self._send(request.replace(url=waiting.url, dont_filter=True))


def _schedule(crawler: Crawler, request: Request) -> None:
    if crawler.engine is not None:
        crawler.engine.crawl(request)
