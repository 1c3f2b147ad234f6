"""Why the add-on took a request out of Scrapy's flow.

Each is a :class:`scrapy.exceptions.IgnoreRequest`, so Scrapy handles them as any
dropped request (a request's errback sees them); :class:`Refused` and
:class:`Rescheduled` carry robotkit's stable reason code, so a spider can tell why.
:class:`Waiting` is the one answer short of those: the crawl's other processes hold
the host for now.
"""

from __future__ import annotations

from dataclasses import dataclass

from scrapy.exceptions import DownloadTimeoutError, IgnoreRequest
from twisted.internet.error import TimeoutError as TwistedTimeout

from robotkit.base.errors import RobotkitError
from robotkit.base.reasons import Reason

TIMEOUTS: tuple[type[BaseException], ...] = (DownloadTimeoutError, TwistedTimeout, TimeoutError)
"""What a download that ran out of time raises: Scrapy's own error since 2.14 (its
``DOWNLOAD_TIMEOUT``), Twisted's or asyncio's from other handlers."""


class Refused(IgnoreRequest, RobotkitError):
    """The request will not be fetched: robots.txt, the trap guard or a host that
    asks for more patience than the crawl has."""

    def __init__(self, reason: Reason, detail: str = "") -> None:
        self.reason = reason
        self.detail = detail
        super().__init__(f"robotkit: {reason.value}" + (f" ({detail})" if detail else ""))


class Rescheduled(Refused):
    """Not now: the request left the downloader and a copy comes back at
    ``retry_at`` (a robots.txt answered 429 or 5xx). Not a loss: an errback may
    ignore it."""

    def __init__(self, reason: Reason, retry_at: float, detail: str = "") -> None:
        self.retry_at = retry_at
        super().__init__(reason, detail)


class SharedStateLost(IgnoreRequest, RobotkitError):
    """The shared state on Redis (``ROBOTKIT_REDIS_URL``) could not be read or
    written mid-crawl: the request is not fetched, since without the state its
    host's pace and robots.txt are unknown (ARCHITECTURE.md, "Shared state")."""

    def __init__(self, detail: str) -> None:
        self.detail = detail
        super().__init__(f"robotkit: shared state unavailable ({detail})")


@dataclass(frozen=True)
class Waiting:
    """A host reservation the crawl's other processes refused: ask again in
    ``seconds``; ``held`` when the wait is a hold (Retry-After, a deferral), not
    the gap or the backoff (the reason given if it is too long to wait)."""

    seconds: float
    held: bool
