"""Where a frontier's changes go: checkpoints and a journal of typed events.

The frontier announces every change as a record of :mod:`robotkit.frontier.events`
and does no I/O itself. A :class:`FrontierStore` is what it announces them to:
three calls (:meth:`~FrontierStore.record` each change, :meth:`~FrontierStore.compact`
to a whole snapshot, :meth:`~FrontierStore.close`), small enough for another
backend (a shared store on Redis) to plug into the same seam.

:class:`FileStore` is the one on disk: a checkpoint file, written whole with
:func:`robotkit.frontier.durable.atomic_write` (temp file, fsync, rename, fsync of the
directory, SHA-256 trailer), and a :class:`robotkit.frontier.durable.Journal` after it, one
checksummed line per event, flushed before the call returns (so a SIGKILL loses
nothing recorded). Each compaction writes a checkpoint that names the fresh
journal continuing it and the journal it replaces. :func:`load_checkpoint` reads
both back as a snapshot and the events to replay on it
(:meth:`robotkit.frontier.frontier.Frontier.restore` replays them through the frontier's
own operations).

Format version 3 (robotkit after issue 10): entries carry their tier, and a host
no longer stores a time of readiness copied from the pacer. Files of version 2
are refused with a message that says so.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Final, Protocol

from robotkit.base.reasons import Reason
from robotkit.frontier.durable import (
    CheckpointError,
    Journal,
    atomic_write,
    encode_line,
    new_journal_id,
    verified,
)
from robotkit.frontier.events import (
    BudgetSet,
    Demoted,
    Done,
    FrontierEntry,
    FrontierEvent,
    FrontierSnapshot,
    HostRecord,
    Parked,
    Queued,
    Released,
    Requeued,
    Taken,
    Tallied,
    Tier,
)
from robotkit.frontier.seen import SeenSnapshot
from robotkit.url.parse import Origin

__all__ = [
    "FORMAT",
    "VERSION",
    "FileStore",
    "FrontierSnapshot",
    "FrontierStore",
    "HostRecord",
    "decode_event",
    "encode_event",
    "entry_of",
    "entry_record",
    "entry_records",
    "journal_path",
    "load_checkpoint",
    "write_checkpoint",
]

FORMAT: Final = b"robotkit-frontier"
VERSION: Final = 3  # 3: typed events, tiers in one frontier, no copied readiness
JOURNAL_MAGIC: Final = b"robotkit-frontier-journal"


class FrontierStore(Protocol):
    """What a frontier's changes are sent to (see the module docstring)."""

    def record(self, event: FrontierEvent) -> None:
        """Keep ``event`` durably before returning."""
        ...

    def compact(self, snapshot: FrontierSnapshot) -> None:
        """Replace everything kept so far with ``snapshot``."""
        ...

    def close(self) -> None: ...


# -- events as journal records ----------------------------------------------------


def _origin(origin: Origin) -> list[Any]:
    return [origin.scheme, origin.host, origin.port]


def entry_record(entry: FrontierEntry) -> list[Any]:
    """A URL as stored: a key equal to its URL is null; the tier only if demoted."""
    out = [entry.url, None if entry.key == entry.url else entry.key, entry.depth, entry.referer]
    if entry.tier is not Tier.MAIN:
        out.append(int(entry.tier))
    return out


def entry_records(entries: Iterable[FrontierEntry]) -> list[list[Any]]:
    """:func:`entry_record` of each entry; a main-tier one written out, with no
    call, since a frontier on disk stores every URL it queues this way."""
    return [
        [e.url, None if e.key == e.url else e.key, e.depth, e.referer]
        if e.tier is Tier.MAIN
        else entry_record(e)
        for e in entries
    ]


def entry_of(origin: Origin, data: list[Any]) -> FrontierEntry:
    url, key, depth, referer, *tier = data
    return FrontierEntry(
        url,
        url if key is None else key,
        depth,
        referer,
        origin,
        Tier(tier[0]) if tier else Tier.MAIN,
    )


def _queued(event: Queued) -> list[Any]:
    entry, host = event.entry, event.entry.host
    key = None if entry.key == entry.url else entry.key
    out = ["q", host.scheme, host.host, host.port, entry.url, key, entry.depth, entry.referer]
    if entry.tier:
        out.append(int(entry.tier))
    return out


# Each event as a JSON list, its one-letter tag first; written out per type (no
# helper calls), since a journaled crawl encodes three events per URL.
_ENCODE: Final[dict[type[Any], Callable[[Any], list[Any]]]] = {
    Queued: _queued,
    Taken: lambda e: ["t", e.host.scheme, e.host.host, e.host.port, e.key],
    Done: lambda e: ["d", e.host.scheme, e.host.host, e.host.port, e.key, e.hold],
    Requeued: lambda e: ["r", e.host.scheme, e.host.host, e.host.port, e.key, e.hold],
    Demoted: lambda e: ["m", e.host.scheme, e.host.host, e.host.port, e.key],
    BudgetSet: lambda e: ["b", e.budget, None if e.host is None else _origin(e.host)],
    Parked: lambda e: ["p", *_origin(e.host), str(e.reason)],
    Released: lambda e: ["u", *_origin(e.host)],
    Tallied: lambda e: ["c", e.name, e.n],
}

_DECODE: Final[dict[str, Callable[[list[Any]], FrontierEvent]]] = {
    "q": lambda r: Queued(entry_of(Origin(*r[:3]), r[3:])),
    "t": lambda r: Taken(Origin(*r[:3]), r[3]),
    "d": lambda r: Done(Origin(*r[:3]), *r[3:5]),
    "r": lambda r: Requeued(Origin(*r[:3]), *r[3:5]),
    "m": lambda r: Demoted(Origin(*r[:3]), r[3]),
    "b": lambda r: BudgetSet(r[0], None if r[1] is None else Origin(*r[1])),
    "p": lambda r: Parked(Origin(*r[:3]), Reason(r[3])),
    "u": lambda r: Released(Origin(*r[:3])),
    "c": lambda r: Tallied(str(r[0]), int(r[1])),
}


def encode_event(event: FrontierEvent) -> list[Any]:
    """``event`` as a JSON list: a one-letter tag, then its fields."""
    return _ENCODE[type(event)](event)


def decode_event(record: Any) -> FrontierEvent:
    """The event :func:`encode_event` wrote; :class:`CheckpointError` if it is none."""
    if not isinstance(record, list) or not record or record[0] not in _DECODE:
        raise CheckpointError(f"unknown journal record {str(record)[:60]}")
    try:
        return _DECODE[record[0]](record[1:])
    except (ValueError, TypeError, IndexError) as exc:
        raise CheckpointError(f"bad journal record {str(record)[:60]}: {exc}") from None


# -- checkpoints ---------------------------------------------------------------------


def _encode(snap: FrontierSnapshot, journal: str | None, replaced: str | None) -> Iterator[bytes]:
    """The checkpoint's lines; ``journal``: the id of the journal that will
    continue it; ``replaced``: the id of the journal it compacts."""
    seen = snap.seen
    header = {
        "generation": snap.generation,
        "journal": journal,
        "replaced": replaced,
        "tallies": snap.tallies,
        "max_depth": snap.max_depth,
        "host_budget": snap.host_budget,
        "done": snap.done,
        "rejected": {str(reason): n for reason, n in snap.rejected.items()},
        "hosts": snap.host_count,
        "entries": snap.entry_count,
        "seen": {
            "kind": seen.kind,
            "count": seen.count,
            "expected_items": seen.expected_items,
            "error_rate": seen.error_rate,
            "byteorder": seen.byteorder,
            "blobs": [len(blob) for blob in seen.blobs],
        },
    }
    yield FORMAT + b" %d\n" % VERSION
    yield encode_line(header)
    for host in snap.hosts:
        # One line per host: json's C encoder makes one big list far cheaper than
        # a line per URL.
        yield encode_line(
            [
                *_origin(host.origin),
                host.hold,
                host.admitted,
                host.done,
                None if host.park_reason is None else str(host.park_reason),
                host.budget,
                entry_records(host.queued),
                entry_records(host.parked),
                host.busy,
            ]
        )
    yield from seen.blobs


def write_checkpoint(
    path: str | os.PathLike[str],
    snap: FrontierSnapshot,
    journal: str | None = None,
    replaced: str | None = None,
) -> None:
    """Write ``snap`` to ``path`` atomically: after a crash ``path`` holds the old
    checkpoint or this one, never a part; a temporary file a killed process left
    behind is removed by the next write."""
    atomic_write(path, _encode(snap, journal, replaced))


def journal_path(checkpoint: str | os.PathLike[str]) -> str:
    return os.fspath(checkpoint) + ".journal"


class _Lines:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def next(self) -> bytes:
        end = self.data.find(b"\n", self.pos)
        if end < 0:
            raise CheckpointError("checkpoint ends in the middle of a line")
        line = self.data[self.pos : end]
        self.pos = end + 1
        return line


def _check_version(path: str, first_line: bytes) -> None:
    magic, _, version = first_line.partition(b" ")
    if magic != FORMAT or not version.isdigit():
        raise CheckpointError(f"{path} is not a robotkit frontier checkpoint")
    found = int(version)
    if found < VERSION:
        raise CheckpointError(
            f"{path} is from an older robotkit (checkpoint format version {found}, this "
            f"robotkit reads {VERSION}): finish that crawl with the robotkit that started "
            "it, or start it again in a new state directory"
        )
    if found > VERSION:
        raise CheckpointError(
            f"{path} is from a newer robotkit (checkpoint format version {found}, this "
            f"robotkit reads {VERSION}): upgrade robotkit to resume it"
        )


def _hosts(lines: _Lines, count: int, entries: int, end: int) -> Iterator[HostRecord]:
    """The host lines of a checkpoint, checked against the header's counts once read."""
    seen_entries = 0
    for _ in range(count):
        (scheme, name, port, hold, admitted, done, reason, budget, queued, parked, busy) = (
            json.loads(lines.next())
        )
        origin = Origin(scheme, name, port)
        record = HostRecord(
            origin,
            float(hold),
            admitted,
            done,
            None if reason is None else Reason(reason),
            budget,
            [entry_of(origin, entry) for entry in queued],
            [entry_of(origin, entry) for entry in parked],
            busy,
        )
        seen_entries += len(record.queued) + len(record.parked)
        yield record
    if seen_entries != entries or lines.pos != end:
        raise CheckpointError("checkpoint entries do not match their count")


def load_checkpoint(
    path: str | os.PathLike[str],
) -> tuple[FrontierSnapshot, list[FrontierEvent], str | None]:
    """The snapshot in the checkpoint at ``path``, the events of its journal to
    replay on it, and the id of the journal that holds them (a later
    :meth:`FileStore.open` names it as replaced). Raises :class:`CheckpointError`
    for a file that is not a whole, valid checkpoint of this version, or a journal
    that is missing, foreign or damaged."""
    name = os.fspath(path)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise CheckpointError(f"cannot read checkpoint {name!r}: {exc}") from None
    _check_version(name, data[: data.find(b"\n")] if b"\n" in data else data)
    body = verified(data)
    try:
        lines = _Lines(body)
        lines.next()
        header = json.loads(lines.next())
        meta = header["seen"]
        entry_end = len(body) - sum(meta["blobs"])
        blobs, offset = [], entry_end
        for size in meta["blobs"]:
            blobs.append(body[offset : offset + size])
            offset += size
        seen = SeenSnapshot(
            meta["kind"],
            meta["count"],
            meta["expected_items"],
            meta["error_rate"],
            meta["byteorder"],
            tuple(blobs),
        )
        snap = FrontierSnapshot(
            generation=header["generation"],
            tallies={str(k): int(v) for k, v in header["tallies"].items()},
            max_depth=header["max_depth"],
            host_budget=header["host_budget"],
            done=header["done"],
            rejected={Reason(k): v for k, v in header["rejected"].items()},
            seen=seen,
            host_count=header["hosts"],
            entry_count=header["entries"],
            hosts=_hosts(lines, header["hosts"], header["entries"], entry_end),
        )
        ident, replaced = header["journal"], header["replaced"]
    except (ValueError, KeyError, IndexError, TypeError) as exc:
        raise CheckpointError(f"corrupt checkpoint {name!r}: {exc}") from None
    records = Journal.records(journal_path(path), JOURNAL_MAGIC, ident, replaced, name)
    return snap, [decode_event(record) for record in records], ident


class FileStore:
    """A checkpoint file and the journal that continues it (see the module
    docstring). :meth:`open` starts one; the frontier then sends it every change."""

    def __init__(self, path: str, journal: Journal) -> None:
        self.path = path
        self._journal = journal

    @classmethod
    def open(cls, path: str, snap: FrontierSnapshot, replaced: str | None, sync: bool) -> FileStore:
        """Checkpoint ``snap`` to ``path`` and start a fresh journal after it.

        On a path that holds no checkpoint yet, the (empty) journal is written
        first: a process killed in between leaves no checkpoint, so nothing to
        resume. On an existing checkpoint (a resume), the new checkpoint is
        written first and names the journal it replaces (``replaced``, the one
        replayed on restore)."""
        ident = new_journal_id()
        journal_file = journal_path(path)
        if os.path.exists(path):
            write_checkpoint(path, snap, ident, replaced)
            journal = Journal.start(journal_file, JOURNAL_MAGIC, snap.generation, ident, sync)
        else:
            journal = Journal.start(journal_file, JOURNAL_MAGIC, snap.generation, ident, sync)
            write_checkpoint(path, snap, ident, None)
        return cls(path, journal)

    def record(self, event: FrontierEvent) -> None:
        self._journal.write(_ENCODE[type(event)](event))

    def compact(self, snapshot: FrontierSnapshot) -> None:
        old = self._journal
        ident = new_journal_id()
        write_checkpoint(self.path, snapshot, ident, old.ident)
        self._journal = Journal.start(
            journal_path(self.path), JOURNAL_MAGIC, snapshot.generation, ident, old.sync
        )
        old.close()

    def close(self) -> None:
        self._journal.close()
