"""Every exception robotkit raises, in one tree: catch :class:`RobotkitError` to
catch them all.

The families say what went wrong from the caller's side. Each is also the built-in
exception it always was (a bad value is still a ``ValueError``), and the errors of
a request are ``httpx.RequestError`` subclasses as well, so that code written for
httpx (``except httpx.HTTPError``) still catches a request robotkit refused::

    RobotkitError
    ├── UsageError (ValueError)          a value the caller gave cannot be used
    │   ├── InvalidURL                   robotkit.url: not a URL a robot can fetch
    │   ├── IdentityError                robotkit.base.identity: a robot that hides who it is
    │   ├── BlacklistSyntaxError         robotkit.triage.blacklist: a line of a blacklist file
    │   ├── CommandError                 robotkit.traps.score: a crawler command template
    │   └── UnknownSite (also KeyError)  robotkit.traps: no trap site of that name
    ├── DataError (ValueError)           saved data that is damaged, foreign or of another version
    │   ├── SnapshotError                robotkit.base.snapshot: a component's learned state
    │   ├── CheckpointError              robotkit.frontier.durable: a checkpoint or journal
    │   │   └── CrawlStateError          robotkit.crawler.state: a crawl's state directory
    │   │       └── StateInUse           another crawl holds it
    │   └── StateFormatError             robotkit.shared.codec: a robots.txt state in Redis
    ├── UnavailableError (RuntimeError)  something robotkit relies on is not there
    │   ├── SharedStateUnavailable       robotkit.shared: Redis unreachable or lost
    │   │   └── SharedStateTimeout       another worker held a lock too long
    │   └── SiteError                    robotkit.traps: a trap site cannot be served
    │       └── ApacheMissing            no Apache httpd for the sites on a real server
    ├── PacingError (RuntimeError)       robotkit.pacing: a request started before its slot (a bug)
    └── robotkit.http.errors (also httpx.RequestError or its kinds)
        ├── PolitenessError              refused before sending: Disallowed, Deferred,
        │                                HostSkipped, RedirectRefused, AddressRefused
        ├── ResponseTooSlow              also httpx.ReadTimeout
        └── UnsupportedEncoding          also httpx.DecodingError

The Scrapy add-on's ``Refused`` (and ``Rescheduled`` and ``Held`` under it) and
``SharedStateLost`` are also Scrapy's ``IgnoreRequest``. Internal
exceptions (``BadURL``, ``BadHost``) never leave the module that raises them.
"""

from __future__ import annotations

__all__ = ["DataError", "RobotkitError", "UnavailableError", "UsageError"]


class RobotkitError(Exception):
    """The root of every exception robotkit raises."""


class UsageError(RobotkitError, ValueError):
    """A value the caller gave cannot be used (a URL, an identity, a file's line)."""


class DataError(RobotkitError, ValueError):
    """Saved data read back is damaged, foreign or of another version: robotkit
    refuses it rather than guess what it meant."""


class UnavailableError(RobotkitError, RuntimeError):
    """Something robotkit relies on (Redis, a loopback port) is not there."""
