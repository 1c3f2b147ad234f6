"""The breaker for Scrapy: timeouts and oversize bodies counted per path family.

robotkit's crawler stops a path family (``/reports/``) after two responses in it
ran out of time or over the body cap (:meth:`~robotkit.triage.triage.Triage.failed`); the
requests of that family still queued are then dropped with ``slow-path`` by the
trap guard's recheck. In Scrapy, a failed download goes back out through the
downloader middlewares from the download outwards, and RetryMiddleware (550)
turns a timeout into a retry, which ends the chain: a middleware placed before it
never hears of the timeout until the last retry. So this middleware sits outside
even the pacing (:data:`ORDER`): it has no ``process_request``, and its
``process_exception`` runs first, so a family is broken before the pacing lets the
host's next request go, and before RetryMiddleware decides. It

- counts every timeout and every body cut at ``DOWNLOAD_MAXSIZE`` against the
  URL's family;
- marks a timed-out request ``dont_retry``: a total deadline spent once is spent
  for good (robotkit's crawler never retries a timeout either), and a tarpit of
  slow URLs otherwise costs three deadlines a URL.
"""

from __future__ import annotations

import logging

from scrapy import Request, Spider
from scrapy.crawler import Crawler
from scrapy.exceptions import DownloadCancelledError

from robotkit.scrapy.errors import TIMEOUTS
from robotkit.scrapy.guard import PROBE_META
from robotkit.scrapy.robotstxt import ROBOTS_META
from robotkit.scrapy.state import CrawlState, crawl_state
from robotkit.triage.regions import FailureKind

log = logging.getLogger(__name__)

ORDER = 960
"""Downloader middleware order: past the pacing (950) and RetryMiddleware (550),
whose ``process_exception`` methods run after this one's."""


class BreakerMiddleware:
    """Downloader middleware: feeds the triage's breaker, stops timeout retries."""

    def __init__(self, state: CrawlState) -> None:
        self.state = state

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> BreakerMiddleware:
        return cls(crawl_state(crawler))

    def process_exception(
        self, request: Request, exception: Exception, spider: Spider | None = None
    ) -> None:
        if isinstance(exception, TIMEOUTS):
            kind = FailureKind.TIMEOUT
            request.meta["dont_retry"] = True
        elif isinstance(exception, DownloadCancelledError):
            # Scrapy cancels a download when its body passes DOWNLOAD_MAXSIZE
            # (announced by Content-Length or counted while streaming).
            kind = FailureKind.OVERSIZE
        else:
            return
        if request.meta.get(ROBOTS_META) or request.meta.get(PROBE_META):
            return  # robots.txt and soft-404 probes are no pages of a family
        broken = self.state.triage.failed(request.url, kind)
        if broken is not None:
            log.info("robotkit: %s", broken)
