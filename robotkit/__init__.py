"""robotkit: the politeness layer a web robot embeds.

The names below are the most used of the public API; each package lists the rest of
its own in its ``__all__`` (ARCHITECTURE.md, "Packages and layers"), and the modules
behind them may move. They are loaded on first use (PEP 562), so ``import robotkit``
stays cheap and the pure core never drags in the network shell.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from robotkit._version import __version__
from robotkit.base.lazy import lazy_exports

_EXPORTS = {
    "Clock": "robotkit.base.clock",
    "ManualClock": "robotkit.base.clock",
    "system_clock": "robotkit.base.clock",
    "Decision": "robotkit.base.reasons",
    "RobotkitError": "robotkit.base.errors",
    "Reason": "robotkit.base.reasons",
    "Identity": "robotkit.base.identity",
    "IdentityError": "robotkit.base.identity",
    "InvalidURL": "robotkit.url.parse",
    "NormalizePolicy": "robotkit.url.normalization",
    "NormalizedURL": "robotkit.url.normalization",
    "Origin": "robotkit.url.parse",
    "normalize": "robotkit.url.normalization",
    "RobotsRules": "robotkit.robots.rules",
    "Profile": "robotkit.robots.status",
    "Verdict": "robotkit.robots.verdict",
    "RobotsChecker": "robotkit.http.checker",
    "AsyncRobotsChecker": "robotkit.http.checker",
    "RobotsOptions": "robotkit.http.checker",
    "PoliteTransport": "robotkit.http.transport",
    "AsyncPoliteTransport": "robotkit.http.transport",
    "PolitenessError": "robotkit.http.errors",
    "Disallowed": "robotkit.http.errors",
    "Deferred": "robotkit.http.errors",
    "HostSkipped": "robotkit.http.errors",
    "RedirectRefused": "robotkit.http.errors",
    "AddressRefused": "robotkit.http.errors",
    "ResponseTooSlow": "robotkit.http.errors",
    "UnsupportedEncoding": "robotkit.http.errors",
    "FetchFacts": "robotkit.http.facts",
    "ValidatorStore": "robotkit.http.validators",
    "PoliteClient": "robotkit.http.client",
    "AsyncPoliteClient": "robotkit.http.client",
    "Guard": "robotkit.triage.guard",
    "GuardConfig": "robotkit.triage.guard",
    "Frontier": "robotkit.frontier.frontier",
    "Crawler": "robotkit.crawler.loop",
    "CrawlConfig": "robotkit.crawler.loop",
}

__all__ = [
    "AddressRefused",
    "AsyncPoliteClient",
    "AsyncPoliteTransport",
    "AsyncRobotsChecker",
    "Clock",
    "CrawlConfig",
    "Crawler",
    "Decision",
    "Deferred",
    "Disallowed",
    "FetchFacts",
    "Frontier",
    "Guard",
    "GuardConfig",
    "HostSkipped",
    "Identity",
    "IdentityError",
    "InvalidURL",
    "ManualClock",
    "NormalizePolicy",
    "NormalizedURL",
    "Origin",
    "PoliteClient",
    "PoliteTransport",
    "PolitenessError",
    "Profile",
    "Reason",
    "RedirectRefused",
    "ResponseTooSlow",
    "RobotkitError",
    "RobotsChecker",
    "RobotsOptions",
    "RobotsRules",
    "UnsupportedEncoding",
    "ValidatorStore",
    "Verdict",
    "__version__",
    "normalize",
    "system_clock",
]

if TYPE_CHECKING:
    from robotkit.base.clock import Clock, ManualClock, system_clock
    from robotkit.base.errors import RobotkitError
    from robotkit.base.identity import Identity, IdentityError
    from robotkit.base.reasons import Decision, Reason
    from robotkit.crawler.loop import CrawlConfig, Crawler
    from robotkit.frontier.frontier import Frontier
    from robotkit.http.checker import AsyncRobotsChecker, RobotsChecker, RobotsOptions
    from robotkit.http.client import AsyncPoliteClient, PoliteClient
    from robotkit.http.errors import (
        AddressRefused,
        Deferred,
        Disallowed,
        HostSkipped,
        PolitenessError,
        RedirectRefused,
        ResponseTooSlow,
        UnsupportedEncoding,
    )
    from robotkit.http.facts import FetchFacts
    from robotkit.http.transport import AsyncPoliteTransport, PoliteTransport
    from robotkit.http.validators import ValidatorStore
    from robotkit.robots.rules import RobotsRules
    from robotkit.robots.status import Profile
    from robotkit.robots.verdict import Verdict
    from robotkit.triage.guard import Guard, GuardConfig
    from robotkit.url.normalization import NormalizedURL, NormalizePolicy, normalize
    from robotkit.url.parse import InvalidURL, Origin


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, __all__)
