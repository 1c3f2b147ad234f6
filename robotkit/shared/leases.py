"""The leases a worker of a shared crawl keeps on its hosts between requests.

One owner per host (ARCHITECTURE.md, "The crawl shared by several workers"): no other
worker of the crawl requests the host, so a reservation in Redis before each request
(a round trip and a wake-up of the event loop a page) only confirmed what the owner's
own last finish wrote. A finish that keeps sets the host's lease in Redis to
``KEPT_WINDOW`` seconds past the next ready time, plus a whole lease, under the
worker's name; a request that starts in that window is covered in Redis exactly as a
fresh reservation would cover it (the lease outlives its start by ``lease`` seconds),
so it needs no round trip. The Lua and the calls are
:mod:`robotkit.shared.pacing`'s; this module is the worker's own book of them, pure.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from robotkit.pacing.pacer import HostKey

__all__ = ["KEPT_WINDOW", "KeptLease", "KeptLeases"]

KEPT_WINDOW = 2.0
"""Seconds past a host's ready time in which its kept lease lets the owner start the
next request without asking Redis. Later, it asks as any request does."""


@dataclass(frozen=True)
class KeptLease:
    """A host's lease its owner kept past a finish."""

    ready: float
    """The next start the finish recorded in Redis."""
    until: float
    """The lease's end in Redis."""
    failures: int


class KeptLeases:
    """A worker's kept leases. One is trusted only once Redis answered that it was
    kept: another worker that asked for the host meanwhile (a redirect, the other
    scheme of the same server) flags it ``want``, and the finish then lets it go. A
    worker killed holding kept leases leaves them to expire, as one killed mid-request
    does."""

    def __init__(self, window: float = KEPT_WINDOW) -> None:
        self.on = False
        """Turned on by a shared crawl (:class:`~robotkit.shared.crawl.SharedCrawl`)."""
        self.window = window
        self.owner = uuid.uuid4().hex
        """This worker's name on the leases it keeps and on its reservations."""
        self.held: dict[HostKey, KeptLease] = {}
        """Always some of ``_asked``: a lease is held only once its finish is answered."""
        self._asked: set[HostKey] = set()  # a keeping finish planned since the last let-go
        self._epoch: dict[HostKey, int] = {}

    def grant(self, host: HostKey, now: float, lease: float) -> KeptLease | float | None:
        """What Redis would answer, when the kept lease tells it: the lease (the
        request may start now, in the window), the seconds to wait for the ready
        time; None to ask Redis."""
        kept = self.held.get(host)
        if kept is None:
            return None
        if now < kept.ready:
            return kept.ready - now
        if now + lease > kept.until:  # past the window: Redis decides
            del self.held[host]
            return None
        return kept

    def keeping(
        self, host: HostKey, ready: float, lease: float, failures: int, held: bool
    ) -> tuple[float, Callable[[Any], None] | None]:
        """For a finish: the end of the lease it asks to keep (0 for none: off, or the
        host is held, a Retry-After's hold being Redis' to give out, RFC 9110 section
        10.2.3) and the call its answer goes to."""
        self.held.pop(host, None)
        if not self.on or held:
            return 0.0, None
        self._asked.add(host)
        until = ready + self.window + lease
        kept = KeptLease(ready, until, failures)
        return until, functools.partial(self._answered, host, kept, self._epoch.get(host, 0))

    def _answered(self, host: HostKey, kept: KeptLease, epoch: int, result: Any) -> None:
        if int(result) == 1 and self._epoch.get(host, 0) == epoch:  # Lua's integer reply
            self.held[host] = kept

    def forget(self, hosts: Iterable[HostKey]) -> list[HostKey]:
        """Forget the leases of ``hosts`` (given back, taken over by another worker,
        leaving): those Redis may hold. A finish still on its way is not trusted when
        it is answered."""
        maybe = []
        for host in hosts:
            self.held.pop(host, None)
            self._epoch[host] = self._epoch.get(host, 0) + 1
            if host in self._asked:
                self._asked.discard(host)
                maybe.append(host)
        return maybe

    def hosts(self) -> set[HostKey]:
        """Every host whose lease may be kept (the held ones among them)."""
        return set(self._asked)
