"""A Scrapy dupefilter on robotkit's normalized key.

w3lib's canonical form (Scrapy's default fingerprint) sorts the query and drops
the fragment; robotkit's key also drops tracking parameters and session ids
(query, ``;jsessionid=``, path segments), applies RFC 3986 section 6.2.2, and
takes what the crawl learned from the site (a parameter proven to change nothing,
``rel=canonical``). Its seen keys also tell the trap guard which links are new.
Only GET and HEAD are keyed by URL; other methods fall back to Scrapy's default.
"""

from __future__ import annotations

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.dupefilters import RFPDupeFilter

from robotkit.base.reasons import Decision, Reason
from robotkit.scrapy.guard import request_key
from robotkit.scrapy.state import CrawlState, crawl_state


class RobotkitDupeFilter(RFPDupeFilter):
    """``DUPEFILTER_CLASS``: one request per normalized key."""

    state: CrawlState

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RobotkitDupeFilter:
        dupefilter = super().from_crawler(crawler)
        dupefilter.state = crawl_state(crawler)
        return dupefilter

    def request_seen(self, request: Request) -> bool:
        if request.method not in ("GET", "HEAD"):
            return super().request_seen(request)
        key = request_key(self.state, request.url)
        if key in self.state.seen:
            if key != request.url:
                self.state.count(Decision.DISALLOW, Reason.DUPLICATE_URL)
            return True
        self.state.seen.add(key)
        return False
