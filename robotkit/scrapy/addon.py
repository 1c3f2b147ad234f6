"""``ADDONS = {"robotkit.scrapy.RobotkitAddon": 0}``: robotkit in one line.

The add-on (Scrapy's ``ADDONS`` setting) swaps Scrapy's RobotsTxtMiddleware for
robotkit's and installs the other pieces where each belongs in Scrapy's chains.
Each piece can also be enabled alone in ``DOWNLOADER_MIDDLEWARES``,
``SPIDER_MIDDLEWARES`` or ``DUPEFILTER_CLASS``.
"""

from __future__ import annotations

from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware
from scrapy.settings import BaseSettings

from robotkit.http.settings import CRAWL_MAX_BODY
from robotkit.scrapy import breaker
from robotkit.scrapy.breaker import BreakerMiddleware
from robotkit.scrapy.dupefilter import RobotkitDupeFilter
from robotkit.scrapy.guard import TrapGuardDownloaderMiddleware, TrapGuardSpiderMiddleware
from robotkit.scrapy.identity import IdentityMiddleware
from robotkit.scrapy.pacing import PacingMiddleware
from robotkit.scrapy.robotstxt import RobotsMiddleware
from robotkit.scrapy.settings import RobotkitSettings

RESPONSE_TIMEOUT = 10.0
"""Seconds for a whole response, as ``robotkit crawl --timeout`` (Nutch's default)."""

DOWNLOADER_ORDER: dict[type, int] = {
    # Before robots.txt: a trap URL costs no robots.txt fetch.
    TrapGuardDownloaderMiddleware: 90,
    # Scrapy's robots.txt middleware's place.
    RobotsMiddleware: 100,
    # After DefaultHeaders (400) and UserAgent (500): From joins their headers.
    IdentityMiddleware: 510,
    # Last before the download: the pacer sees the real start and end.
    PacingMiddleware: 950,
    # No process_request; its process_exception runs before the pacing frees the
    # host and before RetryMiddleware (550) turns a timeout into a retry.
    BreakerMiddleware: breaker.ORDER,
}
BREADTH_FIRST = {
    "DEPTH_PRIORITY": 1,
    "SCHEDULER_DISK_QUEUE": "scrapy.squeues.PickleFifoDiskQueue",
    "SCHEDULER_MEMORY_QUEUE": "scrapy.squeues.FifoMemoryQueue",
}
"""Scrapy's own recipe for a breadth-first crawl (its default is depth-first: LIFO
queues). robotkit's crawler is breadth-first, and its trap rules count on it: a
category's plain pages are met before the filter links deeper in its query space
have grown that space into a parked region."""

SPIDER_ORDER: dict[type, int] = {
    # Between the spider and Referer/UrlLength/Depth (700-900 run first on output).
    TrapGuardSpiderMiddleware: 650,
}


class RobotkitAddon:
    """The Scrapy add-on: robots.txt, pacing, identity and the trap guard."""

    def update_settings(self, settings: BaseSettings) -> None:
        RobotkitSettings.from_scrapy(settings)  # bad ROBOTKIT_* values fail here, at start
        settings.set_in_component_priority_dict("DOWNLOADER_MIDDLEWARES", RobotsTxtMiddleware, None)
        for component, order in DOWNLOADER_ORDER.items():
            settings.set_in_component_priority_dict("DOWNLOADER_MIDDLEWARES", component, order)
        for component, order in SPIDER_ORDER.items():
            settings.set_in_component_priority_dict("SPIDER_MIDDLEWARES", component, order)
        settings.set("DUPEFILTER_CLASS", RobotkitDupeFilter, "addon")
        # robotkit's response deadline: a tarpit costs 10 s a request, not Scrapy's
        # 180 s. At the add-on's priority, so a project's own value wins.
        settings.set("DOWNLOAD_TIMEOUT", RESPONSE_TIMEOUT, "addon")
        # robotkit's crawler's body cap (8 MiB), not Scrapy's 1 GiB: a 1 GB export
        # costs 8 MiB, and the cut body counts against its path family.
        settings.set("DOWNLOAD_MAXSIZE", CRAWL_MAX_BODY, "addon")
        for name, value in BREADTH_FIRST.items():
            settings.set(name, value, "addon")
