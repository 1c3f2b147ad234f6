"""The vocabulary every layer speaks: the clock, reason codes, snapshots, outcomes,
header values and the robot's identity; imports nothing else of robotkit."""

from __future__ import annotations

from robotkit.base.clock import Clock, ManualClock, system_clock
from robotkit.base.errors import DataError, RobotkitError, UnavailableError, UsageError
from robotkit.base.headervalues import parse_delay_seconds, parse_http_date, parse_retry_after
from robotkit.base.identity import DEFAULT_USER_AGENT, Identity, IdentityError, product_token
from robotkit.base.outcome import NetworkErrorKind, Outcome, classify_status
from robotkit.base.reasons import CodeEnum, Decision, Reason
from robotkit.base.snapshot import SnapshotError

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
