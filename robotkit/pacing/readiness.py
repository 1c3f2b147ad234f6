"""When may a host be fetched again: the question the frontier asks its owner.

The frontier decides *which* URL goes next; *when* a host may be fetched is known
by whoever paces the requests (:class:`robotkit.pacing.pacer.Pacer`: the delay from the
end of one response to the next request, Crawl-delay, Retry-After, backoff). The
frontier does not keep a copy of that answer: it asks a :class:`Readiness` each
time it must place a host in time, so there is one owner of the fact and nothing
to keep in step. Pure: no I/O, no clock of its own.
"""

from __future__ import annotations

from typing import Protocol

from robotkit.pacing.pacer import Pacer
from robotkit.url.parse import Origin

__all__ = ["PacerReadiness", "Readiness"]


class Readiness(Protocol):
    """The owner of host readiness, as the frontier sees it."""

    def ready_at(self, origin: Origin) -> float:
        """The earliest time a request to ``origin`` may start (a time in the past,
        or 0, means now)."""
        ...


class PacerReadiness:
    """A :class:`~robotkit.pacing.pacer.Pacer` as a :class:`Readiness`. A host the pacer
    cannot plan yet (a request to it in flight, no free slot, or skipped) is ready
    as far as the frontier is concerned: the transport waits for the slot, or
    reports the skip, when the URL is fetched."""

    __slots__ = ("pacer",)

    def __init__(self, pacer: Pacer) -> None:
        self.pacer = pacer

    def ready_at(self, origin: Origin) -> float:
        ready = self.pacer.plan(origin.pacing_key).ready_at
        return 0.0 if ready is None else ready
