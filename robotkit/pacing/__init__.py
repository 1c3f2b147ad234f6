"""When a host may be fetched again: the pacer (delays, Crawl-delay, Retry-After,
backoff) and the readiness the frontier asks."""

from __future__ import annotations

from robotkit.pacing.pacer import HostKey, Pacer, PacingError, PacingPolicy, Ticket, host_key
from robotkit.pacing.readiness import PacerReadiness, Readiness

__all__ = [
    "HostKey",
    "Pacer",
    "PacerReadiness",
    "PacingError",
    "PacingPolicy",
    "Readiness",
    "Ticket",
    "host_key",
]
