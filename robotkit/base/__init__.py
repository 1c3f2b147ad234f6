"""The vocabulary every layer speaks: the clock, reason codes, snapshots, outcomes,
header values and the robot's identity; imports nothing else of robotkit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from robotkit.base.lazy import lazy_exports

# Loaded on first use (robotkit.base.lazy): ``import robotkit`` reads this package
# for the loader itself and must not pay for every module of it.
_EXPORTS = {
    "Clock": "robotkit.base.clock",
    "CodeEnum": "robotkit.base.reasons",
    "DEFAULT_USER_AGENT": "robotkit.base.identity",
    "DataError": "robotkit.base.errors",
    "Decision": "robotkit.base.reasons",
    "Identity": "robotkit.base.identity",
    "IdentityError": "robotkit.base.identity",
    "ManualClock": "robotkit.base.clock",
    "NetworkErrorKind": "robotkit.base.outcome",
    "Outcome": "robotkit.base.outcome",
    "Reason": "robotkit.base.reasons",
    "RobotkitError": "robotkit.base.errors",
    "SnapshotError": "robotkit.base.snapshot",
    "UnavailableError": "robotkit.base.errors",
    "UsageError": "robotkit.base.errors",
    "classify_status": "robotkit.base.outcome",
    "parse_delay_seconds": "robotkit.base.headervalues",
    "parse_http_date": "robotkit.base.headervalues",
    "parse_retry_after": "robotkit.base.headervalues",
    "product_token": "robotkit.base.identity",
    "system_clock": "robotkit.base.clock",
}

__all__ = [
    "DEFAULT_USER_AGENT",
    "Clock",
    "CodeEnum",
    "DataError",
    "Decision",
    "Identity",
    "IdentityError",
    "ManualClock",
    "NetworkErrorKind",
    "Outcome",
    "Reason",
    "RobotkitError",
    "SnapshotError",
    "UnavailableError",
    "UsageError",
    "classify_status",
    "parse_delay_seconds",
    "parse_http_date",
    "parse_retry_after",
    "product_token",
    "system_clock",
]

if TYPE_CHECKING:
    from robotkit.base.clock import Clock, ManualClock, system_clock
    from robotkit.base.errors import DataError, RobotkitError, UnavailableError, UsageError
    from robotkit.base.headervalues import parse_delay_seconds, parse_http_date, parse_retry_after
    from robotkit.base.identity import DEFAULT_USER_AGENT, Identity, IdentityError, product_token
    from robotkit.base.outcome import NetworkErrorKind, Outcome, classify_status
    from robotkit.base.reasons import CodeEnum, Decision, Reason
    from robotkit.base.snapshot import SnapshotError

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, __all__)
