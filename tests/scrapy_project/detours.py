"""Test-only Scrapy components: the ways a response can miss the spider, and a
crawl in which only signals (no periodic check) free a host held for judgement.

Enabled by the settings a test passes (``DETOURS``); the child process finds this
module on its path, beside ``run_spider.py``.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.exceptions import IgnoreRequest
from scrapy.http import Response

from robotkit.scrapy.state import crawl_state

DROPPED = "/dropped"
RAISES = "/raises"


class DropMiddleware:
    """Downloader middleware after the pacing: drops the answer of ``/dropped``
    with IgnoreRequest (no spider, no errback, no signal sees it)."""

    def process_response(self, request: Request, response: Response) -> Response:
        if urlsplit(request.url).path == DROPPED:
            raise IgnoreRequest("dropped by a middleware")
        return response


class RaiseMiddleware:
    """Spider middleware before the callback: refuses the answer of ``/raises``."""

    def process_spider_input(self, response: Response) -> None:
        if urlsplit(response.url).path == RAISES:
            raise ValueError("refused by a spider middleware")


class SignalsOnly:
    """Extension: a held host is freed only by what Scrapy tells (no periodic
    check), so a way out that goes unheard hangs the crawl."""

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> SignalsOnly:
        crawl_state(crawler).judging.poll = None
        return cls()


DETOURS = {
    "DOWNLOADER_MIDDLEWARES": {f"{__name__}.DropMiddleware": 580},
    "SPIDER_MIDDLEWARES": {f"{__name__}.RaiseMiddleware": 600},
    "EXTENSIONS": {f"{__name__}.SignalsOnly": 0},
}
