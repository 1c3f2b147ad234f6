"""robotkit inside Scrapy: one add-on for robots.txt, pacing, identity and traps.

``ADDONS = {"robotkit.scrapy.RobotkitAddon": 0}`` in a project's settings. Needs
the ``scrapy`` extra (``pip install 'robotkit[scrapy]'``); the rest of robotkit
never imports Scrapy. One module per piece:

| module | piece | Scrapy component |
|---|---|---|
| ``addon`` | the one line | ``ADDONS`` |
| ``settings`` | ``ROBOTKIT_*`` settings | - |
| ``state`` | what the pieces share in one crawl | - |
| ``robots`` | robots.txt verdicts | downloader middleware |
| ``pacing`` | per-host gaps, Retry-After, backoff | downloader middleware |
| ``judging`` | a host's next page waits for the judgement of its last | - |
| ``identity`` | User-Agent check, From | downloader middleware |
| ``guard`` | trap guard, nofollow, content signals | spider and downloader middleware |
| ``growth`` | requests held past the growth bound, given back or left | - |
| ``breaker`` | timeouts and oversize bodies per path family | downloader middleware |
| ``dupefilter`` | robotkit's normalized key | ``DUPEFILTER_CLASS`` |
| ``shared`` | pacing and robots.txt shared on Redis (``ROBOTKIT_REDIS_URL``) | - |
"""

from __future__ import annotations

try:
    import scrapy  # noqa: F401
except ModuleNotFoundError as error:  # pragma: no cover - the message is the point
    raise ModuleNotFoundError(
        "robotkit.scrapy needs Scrapy: pip install 'robotkit[scrapy]'", name="scrapy"
    ) from error

from robotkit.scrapy.addon import RobotkitAddon
from robotkit.scrapy.breaker import BreakerMiddleware
from robotkit.scrapy.dupefilter import RobotkitDupeFilter
from robotkit.scrapy.errors import Refused, Rescheduled, SharedStateLost
from robotkit.scrapy.guard import TrapGuardDownloaderMiddleware, TrapGuardSpiderMiddleware
from robotkit.scrapy.identity import IdentityMiddleware
from robotkit.scrapy.pacing import PacingMiddleware
from robotkit.scrapy.robotstxt import RobotsMiddleware
from robotkit.scrapy.settings import RobotkitSettings

__all__ = [
    "BreakerMiddleware",
    "IdentityMiddleware",
    "PacingMiddleware",
    "Refused",
    "Rescheduled",
    "RobotkitAddon",
    "RobotkitDupeFilter",
    "RobotkitSettings",
    "RobotsMiddleware",
    "SharedStateLost",
    "TrapGuardDownloaderMiddleware",
    "TrapGuardSpiderMiddleware",
]
