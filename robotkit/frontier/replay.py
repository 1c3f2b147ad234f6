"""Rebuilding a frontier from what was recorded: a checkpoint (a whole file, or the
database of a frontier on disk) and the journal's events replayed on it through
the frontier's own operations, so that a live frontier and a replayed one cannot
drift apart (ARCHITECTURE.md, "State and resume")."""

from __future__ import annotations

import os
import sqlite3
from collections import Counter
from collections.abc import Callable
from typing import Any, Final, Protocol, TypeVar

from robotkit.base.clock import Clock
from robotkit.base.reasons import Reason
from robotkit.frontier.disk import DiskStore, is_database
from robotkit.frontier.durable import CheckpointError
from robotkit.frontier.events import (
    BudgetSet,
    Demoted,
    Done,
    FrontierEntry,
    FrontierEvent,
    Parked,
    Queued,
    Released,
    Requeued,
    Taken,
    Tallied,
    Tier,
)
from robotkit.frontier.hosts import HostTable, load_host
from robotkit.frontier.results import AddResult
from robotkit.frontier.seen import SeenSet, seen_set_from_snapshot
from robotkit.frontier.store import decode_event, load_checkpoint
from robotkit.url.parse import Origin

__all__ = ["Replayable", "apply", "restore"]


class Replayable(Protocol):
    """What replay needs of a frontier (:class:`robotkit.frontier.frontier.Frontier`
    is one): its figures and queues to load, and the operations each recorded change
    is replayed through. Named here so that replay does not import the frontier that
    calls it."""

    seen: SeenSet
    generation: int
    tallies: Counter[str]
    rejected: Counter[Reason]
    table: HostTable
    resume_mark: str | None

    def __init__(
        self,
        max_depth: int | None = None,
        host_budget: int | None = None,
        *,
        seen: SeenSet | None = None,
        clock: Clock | None = None,
    ) -> None: ...

    def bind(self, disk: DiskStore) -> None: ...

    def add(
        self,
        url: str,
        key: str,
        depth: int = 0,
        referer: str | None = None,
        *,
        host: Origin | None = None,
        tier: Tier = Tier.MAIN,
        again: bool = False,
    ) -> AddResult: ...

    def mark_done(self, entry: FrontierEntry, ready_at: float | None = None) -> None: ...

    def requeue(self, entry: FrontierEntry, ready_at: float | None = None) -> None: ...

    def demote(self, entry: FrontierEntry) -> FrontierEntry: ...

    def set_host_budget(self, budget: int | None, host: Origin | None = None) -> int: ...

    def park_host(self, host: Origin, reason: Reason = Reason.TRAP_HOST) -> int: ...

    def unpark_host(self, host: Origin) -> int: ...

    def tally(self, name: str, n: int = 1) -> None: ...


F = TypeVar("F", bound=Replayable)


def restore(cls: type[F], path: str | os.PathLike[str], clock: Clock | None) -> F:
    """The frontier the checkpoint at ``path`` and its journal hold (see
    :meth:`robotkit.frontier.frontier.Frontier.restore`)."""
    name = os.fspath(path)
    try:
        if is_database(path):
            frontier, events, mark = _from_database(cls, os.path.abspath(name), clock)
        else:
            frontier, events, mark = _from_file(cls, path, clock)
        for event in events:
            apply(frontier, event)
        # What was in flight when the process died was never finished: it goes
        # back to the head of its queue (or to the parked).
        for state in list(frontier.table.hosts.values()):
            if state.busy is not None:
                frontier.requeue(state.busy)
    except CheckpointError:
        raise
    except (ValueError, KeyError, IndexError, TypeError, sqlite3.Error) as exc:
        raise CheckpointError(f"corrupt checkpoint {name!r}: {exc}") from None
    frontier.resume_mark = mark
    return frontier


def _from_file(
    cls: type[F], path: str | os.PathLike[str], clock: Clock | None
) -> tuple[F, list[FrontierEvent], str | None]:
    snap, events, mark = load_checkpoint(path)
    frontier = cls(snap.max_depth, snap.host_budget, clock=clock)
    frontier.seen = seen_set_from_snapshot(snap.seen)
    frontier.generation = snap.generation
    frontier.tallies = Counter(snap.tallies)
    frontier.rejected = Counter(snap.rejected)
    frontier.table.done = snap.done
    for record in snap.hosts:
        load_host(frontier.table, record)
    return frontier, events, mark


def _from_database(
    cls: type[F], path: str, clock: Clock | None
) -> tuple[F, list[FrontierEvent], str | None]:
    store, header, seen, records, mark = DiskStore.load(path)
    try:
        frontier = cls(header.max_depth, header.host_budget, seen=seen, clock=clock)
        frontier.generation = header.generation
        frontier.tallies = Counter(header.tallies)
        frontier.rejected = Counter(header.rejected)
        frontier.table.done = header.done
        store.load_hosts(frontier.table)
        events = [decode_event(record) for record in records]
    except BaseException:
        store.close()
        raise
    frontier.bind(store)
    return frontier, events, mark


def apply(frontier: Replayable, event: FrontierEvent) -> None:
    """Replay a recorded change through the operation that made it."""
    _APPLY[type(event)](frontier, event)


# A URL's end (done, requeued, demoted) is replayed through the same operation when
# the URL is in flight here, as it is unless it was taken before the checkpoint the
# replay starts from.


def _replay_done(frontier: Replayable, event: Done) -> None:
    busy = frontier.table.busy_with(event.host, event.key)
    if busy is not None:
        frontier.mark_done(busy, event.hold)
    else:
        frontier.table.finish_key(event.host, event.key, event.hold)


def _replay_requeued(frontier: Replayable, event: Requeued) -> None:
    busy = frontier.table.busy_with(event.host, event.key)
    if busy is not None:
        frontier.requeue(busy, event.hold)
    elif event.hold is not None:  # already queued: only the hold is news
        state = frontier.table.host(event.host)
        state.hold = event.hold
        frontier.table.reschedule(state)


def _replay_taken(frontier: Replayable, event: Taken) -> None:
    frontier.table.take_key(event.host, event.key)


def _replay_demoted(frontier: Replayable, event: Demoted) -> None:
    busy = frontier.table.busy_with(event.host, event.key)
    if busy is not None:
        frontier.demote(busy)


_APPLY: Final[dict[type[Any], Callable[[Replayable, Any], object]]] = {
    Queued: lambda f, e: f.add(
        e.entry.url,
        e.entry.key,
        e.entry.depth,
        e.entry.referer,
        host=e.entry.host,
        tier=e.entry.tier,
    ),
    Taken: _replay_taken,
    Done: _replay_done,
    Requeued: _replay_requeued,
    Demoted: _replay_demoted,
    BudgetSet: lambda f, e: f.set_host_budget(e.budget, e.host),
    Parked: lambda f, e: f.park_host(e.host, e.reason),
    Released: lambda f, e: f.unpark_host(e.host),
    Tallied: lambda f, e: f.tally(e.name, e.n),
}
"""Each recorded change, replayed through the operation that made it."""
