"""The reference crawler: the loop, one URL's fetch and verdict, the report, the saved
state and the turn of a shared worker."""

from robotkit.crawler.config import CrawlConfig, is_loopback_url
from robotkit.crawler.loop import Crawler, crawl
from robotkit.crawler.report import CrawlEvent, CrawlSummary, EventKind
from robotkit.crawler.state import CrawlState, CrawlStateError, StateInUse
from robotkit.frontier.frontier import Tier

__all__ = [
    "CrawlConfig",
    "CrawlEvent",
    "CrawlState",
    "CrawlStateError",
    "CrawlSummary",
    "Crawler",
    "EventKind",
    "StateInUse",
    "Tier",
    "crawl",
    "is_loopback_url",
]
