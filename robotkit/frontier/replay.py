"""Rebuilding a frontier from what was recorded: a checkpoint (a whole file, or the
database of a frontier on disk) and the journal's events replayed on it through
the frontier's own operations, so that a live frontier and a replayed one cannot
drift apart (ARCHITECTURE.md, "State and resume")."""

from __future__ import annotations

import os
import sqlite3
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, TypeVar

from robotkit.base.clock import Clock
from robotkit.frontier.disk import DiskStore, is_database
from robotkit.frontier.durable import CheckpointError
from robotkit.frontier.events import (
    BudgetSet,
    Demoted,
    Done,
    FrontierEvent,
    Parked,
    Queued,
    Released,
    Requeued,
    Taken,
    Tallied,
)
from robotkit.frontier.hosts import load_host
from robotkit.frontier.seen import seen_set_from_snapshot
from robotkit.frontier.store import decode_event, load_checkpoint

if TYPE_CHECKING:
    from robotkit.frontier.frontier import Frontier

__all__ = ["apply", "restore"]

F = TypeVar("F", bound="Frontier")


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
        for state in list(frontier._table.hosts.values()):
            if state.busy is not None:
                frontier.requeue(state.busy)
    except CheckpointError:
        raise
    except (ValueError, KeyError, IndexError, TypeError, sqlite3.Error) as exc:
        raise CheckpointError(f"corrupt checkpoint {name!r}: {exc}") from None
    frontier._resume_mark = mark
    return frontier


def _from_file(
    cls: type[F], path: str | os.PathLike[str], clock: Clock | None
) -> tuple[F, list[FrontierEvent], str | None]:
    snap, events, mark = load_checkpoint(path)
    frontier = cls(snap.max_depth, snap.host_budget, clock=clock)
    frontier.seen = seen_set_from_snapshot(snap.seen)
    frontier.generation = snap.generation
    frontier.tallies = Counter(snap.tallies)
    frontier._rejected = Counter(snap.rejected)
    frontier._table.done = snap.done
    for record in snap.hosts:
        load_host(frontier._table, record)
    return frontier, events, mark


def _from_database(
    cls: type[F], path: str, clock: Clock | None
) -> tuple[F, list[FrontierEvent], str | None]:
    store, header, seen, records, mark = DiskStore.load(path)
    try:
        frontier = cls(header.max_depth, header.host_budget, seen=seen, clock=clock)
        frontier.generation = header.generation
        frontier.tallies = Counter(header.tallies)
        frontier._rejected = Counter(header.rejected)
        frontier._table.done = header.done
        store.load_hosts(frontier._table)
        events = [decode_event(record) for record in records]
    except BaseException:
        store.close()
        raise
    frontier._bind(store)
    return frontier, events, mark


def apply(frontier: Frontier, event: FrontierEvent) -> None:
    """Replay a recorded change through the operation that made it."""
    _APPLY[type(event)](frontier, event)


# A URL's end (done, requeued, demoted) is replayed through the same operation when
# the URL is in flight here, as it is unless it was taken before the checkpoint the
# replay starts from.


def _replay_done(frontier: Frontier, event: Done) -> None:
    busy = frontier._table.busy_with(event.host, event.key)
    if busy is not None:
        frontier.mark_done(busy, event.hold)
    else:
        frontier._table.finish_key(event.host, event.key, event.hold)


def _replay_requeued(frontier: Frontier, event: Requeued) -> None:
    busy = frontier._table.busy_with(event.host, event.key)
    if busy is not None:
        frontier.requeue(busy, event.hold)
    elif event.hold is not None:  # already queued: only the hold is news
        state = frontier._table.host(event.host)
        state.hold = event.hold
        frontier._table.reschedule(state)


def _replay_taken(frontier: Frontier, event: Taken) -> None:
    frontier._table.take_key(event.host, event.key)


def _replay_demoted(frontier: Frontier, event: Demoted) -> None:
    busy = frontier._table.busy_with(event.host, event.key)
    if busy is not None:
        frontier.demote(busy)


_APPLY: Final[dict[type[Any], Callable[[Frontier, Any], object]]] = {
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
