"""A polite transport's slots, shared with every worker of a crawl.

The in-process waiters (:mod:`robotkit.http.slots`) keep every decision that is
not shared: the host's skip (Crawl-delay too long), the waits longer than
``max_wait`` (:class:`~robotkit.http.errors.Deferred`), the global in-flight limit
and this process's own gaps. When they say "now", the host is also reserved in
Redis (:class:`~robotkit.shared.pacing.SharedPacer`): one request at a time per
host across all workers, and the shared ready time, hold and backoff. When the
reservation says wait, the in-process slot is given back unrecorded (nothing was
sent) and the waiter asks again after the wait, or after a short poll when the
host is busy on another worker (its lease is only an upper bound). A release
ends both, with the outcome and Retry-After the core reads once
(:meth:`~robotkit.http.core.PolitenessCore.ending`). ARCHITECTURE.md, "Shared state".
"""

from __future__ import annotations

from dataclasses import dataclass

from robotkit.base.outcome import Outcome
from robotkit.http.core import PolitenessCore
from robotkit.http.errors import HostSkipped
from robotkit.http.slots import AsyncSlots, SyncSlots
from robotkit.pacing.pacer import HostKey, Ticket
from robotkit.shared.pacing import AsyncSharedPacer, Reservation, SharedPacer, SharedTicket

__all__ = ["BUSY_POLL", "SharedAsyncSlots", "SharedSlotTicket", "SharedSyncSlots"]

BUSY_POLL = 0.05
"""Seconds between two reservations while the host is in flight on another worker:
its response may end any moment, and the lease's end is only an upper bound."""


@dataclass(frozen=True)
class SharedSlotTicket(Ticket):
    """An in-process ticket with the shared reservation taken with it."""

    shared: SharedTicket


def granted_or_wait(
    core: PolitenessCore, url: str, ticket: Ticket, reservation: Reservation
) -> SharedSlotTicket | float:
    """The slot, when the shared reservation granted it, else seconds to wait
    before asking again; raises as the in-process wait does (HostSkipped, or
    Deferred past ``max_wait``)."""
    if reservation.ticket is not None:
        return SharedSlotTicket(ticket.host, ticket.started, reservation.ticket)
    if reservation.skip_reason is not None:
        raise HostSkipped(url, reservation.skip_reason)
    if reservation.busy:
        return min(reservation.wait, BUSY_POLL)
    return core.wait_until(url, core.clock() + reservation.wait, reservation.held)


def _shared_ticket(ticket: Ticket) -> SharedTicket:
    if not isinstance(ticket, SharedSlotTicket):
        raise TypeError("a shared slot's ticket was expected")
    return ticket.shared


class SharedSyncSlots(SyncSlots):
    """:class:`~robotkit.http.slots.SyncSlots` that also reserve the host in Redis.
    The reservation's one round trip is made holding the condition, so this
    process's threads reserve one at a time (well under a millisecond each on a
    local Redis)."""

    def __init__(self, core: PolitenessCore, pacer: SharedPacer) -> None:
        super().__init__(core)
        self.shared = pacer

    def grant(self, url: str, key: HostKey) -> Ticket | float:
        ticket = self.core.pacer.start(key)
        granted: Ticket | float = 0.0
        try:
            granted = granted_or_wait(self.core, url, ticket, self.shared.reserve(key))
        finally:  # refused or failed: nothing was sent, the in-process slot is free
            if not isinstance(granted, SharedSlotTicket):
                self.core.pacer.withdraw(ticket)
                self.cond.notify_all()
        return granted

    def finish(self, ticket: Ticket, outcome: Outcome | None, retry_at: float | None) -> None:
        try:
            self.shared.finish(_shared_ticket(ticket), outcome, retry_at)
        finally:
            super().finish(ticket, outcome, retry_at)


class SharedAsyncSlots(AsyncSlots):
    """:class:`~robotkit.http.slots.AsyncSlots` that also reserve the host in Redis."""

    def __init__(self, core: PolitenessCore, pacer: AsyncSharedPacer) -> None:
        super().__init__(core)
        self.shared = pacer

    async def grant(self, url: str, key: HostKey) -> Ticket | float:
        ticket = self.core.pacer.start(key)
        granted: Ticket | float = 0.0
        try:
            granted = granted_or_wait(
                self.core, url, ticket, await self.shared.reserve_shielded(key)
            )
        finally:
            if not isinstance(granted, SharedSlotTicket):
                self.core.pacer.withdraw(ticket)
                self.wake(key)
        return granted

    async def finish(self, ticket: Ticket, outcome: Outcome | None, retry_at: float | None) -> None:
        try:
            await self.shared.finish(_shared_ticket(ticket), outcome, retry_at)
        finally:
            await super().finish(ticket, outcome, retry_at)
