"""Queues that spill to disk: a small window of each queue in memory, the rest in SQLite.

A *lane* is one FIFO of a host (one slot of tier and depth, or the host's parked
URLs). In a frontier kept in memory a lane is a plain :class:`collections.deque`; in
a frontier on disk (ARCHITECTURE.md, "The frontier on disk") it is a
:class:`SpillLane` with the same operations. A spill lane keeps up to ``window``
entries of its head and as many of its tail in memory; the entries between are in
blocks of ``window`` on one table of the database, a block read back in one query
when the head runs out. Blocks are written in batches, inside the transaction that
the next checkpoint commits, so a killed process leaves the database as its last
checkpoint left it (SQLite's own atomic commit).

A checkpoint writes only what changed in a lane since the last one: a tail that
grew is written over its own partial block, a head that was only served from is
not written at all (the lane's range says how many entries of its first block
were served), and blocks are deleted only when the head has moved past them. So a
checkpoint costs the rows the change touched, whatever the lane's length.
"""

from __future__ import annotations

import json
import sqlite3
from collections import deque
from collections.abc import Iterable, Iterator
from typing import Final

from robotkit.frontier.events import FrontierEntry
from robotkit.frontier.store import entry_of, entry_records
from robotkit.url.parse import Origin

__all__ = ["Lane", "LaneRows", "SpillLane", "first", "remove_key"]

FLUSH_AT: Final = 256
"""Blocks buffered before they are written (one executemany, sorted by lane)."""

_JSON: Final = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


class LaneRows:
    """The ``rows`` table of a frontier's database, shared by all its spill lanes,
    with the buffer of rows not yet written. A row is a block of up to ``window``
    entries of one lane (one SQLite row per block: a row per URL cost 4 µs, a
    block under 1 µs per URL). ``window``: entries of each lane kept in memory at
    its head, and as many at its tail until they fill a block.

    A table with rowids, the key ``(lane, seq)`` its index: blocks go at the end of
    the table as they are written, and only the small index entries go in the
    middle of a B-tree, where a lane's blocks are. Keyed by ``(lane, seq)`` alone
    (``WITHOUT ROWID``, as robotkit wrote it before; still read, the queries are
    the same) each block split the pages of its neighbours' lanes, and at ten
    million URLs a block cost 17 µs to write instead of 8."""

    SCHEMA: Final = (
        "CREATE TABLE IF NOT EXISTS rows (lane INTEGER, seq INTEGER, n INTEGER, "
        "block BLOB, PRIMARY KEY (lane, seq))"
    )

    def __init__(self, db: sqlite3.Connection, window: int, next_id: int = 0) -> None:
        if window < 1:
            raise ValueError("window must be at least 1")
        self.db = db
        self.window = window
        self.next_id = next_id
        self.pending: list[tuple[int, int, int, bytes]] = []
        self.discarded: list[int] = []  # lanes emptied since the last checkpoint
        self.trims: list[tuple[int, int]] = []  # (lane, first): blocks before first go

    def lane(self, origin: Origin) -> SpillLane:
        """A new, empty lane of ``origin``'s entries."""
        self.next_id += 1
        return SpillLane(self, self.next_id, origin)

    def put(self, lane: int, seq: int, entries: Iterable[FrontierEntry]) -> int:
        """Buffer ``entries`` as block ``seq`` of ``lane``; how many there were."""
        records = entry_records(entries)
        block = _JSON.encode(records).encode("utf-8", "surrogatepass")
        self.pending.append((lane, seq, len(records), block))
        if len(self.pending) >= FLUSH_AT:
            self.flush()
        return len(records)

    def flush(self) -> None:
        """Write the buffered blocks (sorted: SQLite inserts in key order fastest)."""
        if self.pending:
            self.pending.sort(key=lambda row: (row[0], row[1]))
            self.db.executemany("INSERT OR REPLACE INTO rows VALUES (?,?,?,?)", self.pending)
            self.pending.clear()

    def read(self, origin: Origin, lane: int, lo: int, hi: int) -> list[list[FrontierEntry]]:
        """Blocks ``lo`` to ``hi`` of ``lane`` (all of them, or an error), in order."""
        self.flush()
        blocks = self.db.execute(
            "SELECT block FROM rows WHERE lane = ? AND seq >= ? AND seq < ? ORDER BY seq",
            (lane, lo, hi),
        ).fetchall()
        if len(blocks) != hi - lo:
            raise ValueError(f"lane {lane} of {origin} is missing rows on disk")
        return [
            [
                entry_of(origin, record)
                for record in json.loads(block.decode("utf-8", "surrogatepass"))
            ]
            for (block,) in blocks
        ]

    def trim(self) -> None:
        """Delete the blocks :meth:`SpillLane.persist` found served, and the rows of
        the lanes discarded."""
        self.flush()
        self.db.executemany("DELETE FROM rows WHERE lane = ? AND seq < ?", self.trims)
        self.db.executemany("DELETE FROM rows WHERE lane = ?", [(i,) for i in self.discarded])
        self.trims.clear()
        self.discarded.clear()


class SpillLane:
    """A FIFO of one host's entries: a head in memory, whole blocks on disk
    (``lo`` to ``hi``), and a tail in memory filling the next block. At a
    checkpoint (:meth:`persist`) the tail is written as block ``hi`` (replaced when
    it fills) and the head is block ``lo - 1``: the block it was read from, less
    the entries served, or written there if it changed otherwise; so the database
    holds the whole lane."""

    __slots__ = (
        "head",
        "head_block",
        "hi",
        "id",
        "lo",
        "ondisk",
        "origin",
        "rows",
        "skip",
        "tail",
        "tail_saved",
        "trimmed",
    )

    def __init__(
        self,
        rows: LaneRows,
        ident: int,
        origin: Origin,
        lo: int = 0,
        hi: int = 0,
        ondisk: int = 0,
        skip: int = 0,
    ) -> None:
        self.rows = rows
        self.id = ident
        self.origin = origin
        self.lo = lo  # the first block on disk not yet read
        self.hi = hi  # one past the last block on disk
        self.ondisk = ondisk  # entries in blocks lo .. hi - 1, less skip
        self.skip = skip  # entries of block lo served already (a restored lane)
        self.head: deque[FrontierEntry] = deque()
        self.head_block: int | None = None  # entries in block lo - 1 if head is its end
        self.tail: list[FrontierEntry] = []
        self.tail_saved = 0  # entries of the tail written as block hi
        self.trimmed = lo  # blocks before this are deleted (or will be at the checkpoint)

    def __len__(self) -> int:
        return len(self.head) + self.ondisk + len(self.tail)

    def __bool__(self) -> bool:
        return bool(self.head or self.ondisk or self.tail)

    def append(self, entry: FrontierEntry) -> None:
        tail = self.tail
        if not tail and not self.ondisk and len(self.head) < self.rows.window:
            self.head.append(entry)
            self.head_block = None
            return
        tail.append(entry)
        if len(tail) >= self.rows.window:
            self.ondisk += self.rows.put(self.id, self.hi, tail)
            self.hi += 1
            self.tail = []
            self.tail_saved = 0

    def appendleft(self, entry: FrontierEntry) -> None:
        self.head.appendleft(entry)
        self.head_block = None

    def popleft(self) -> FrontierEntry:
        if not self.head:
            self._refill()
        return self.head.popleft()

    def _refill(self) -> None:
        if self.ondisk:
            (block,) = self.rows.read(self.origin, self.id, self.lo, self.lo + 1)
            if not 0 <= self.skip < len(block) or len(block) - self.skip > self.ondisk:
                raise ValueError(f"lane {self.id} of {self.origin}: a block does not fit")
            self.lo += 1
            self.head_block = len(block)
            del block[: self.skip]
            self.skip = 0
            self.ondisk -= len(block)
            self.head.extend(block)
        elif self.tail:
            self.head.extend(self.tail)  # block hi, if written, is stale: replaced later
            self.head_block = None
            self.tail = []
            self.tail_saved = 0
        else:
            raise IndexError("pop from an empty lane")

    def peek(self) -> FrontierEntry:
        """The first entry, left in place."""
        if not self.head:
            self._refill()
        return self.head[0]

    def __iter__(self) -> Iterator[FrontierEntry]:
        yield from list(self.head)
        if self.ondisk:
            blocks = self.rows.read(self.origin, self.id, self.lo, self.hi)
            yield from blocks[0][self.skip :]
            for block in blocks[1:]:
                yield from block
        yield from list(self.tail)

    def remove(self, key: str) -> FrontierEntry | None:
        """Take the entry with ``key`` out of the lane, wherever it is (a replay;
        the lane is read into memory if it is not at the head), or None."""
        if self.head and self.head[0].key == key:
            return self.head.popleft()
        entries = list(self)
        for i, entry in enumerate(entries):
            if entry.key == key:
                del entries[i]
                self.head = deque(entries)
                self.lo, self.ondisk, self.skip, self.tail = self.hi, 0, 0, []
                self.head_block, self.tail_saved = None, 0
                return entry
        return None

    def persist(self) -> tuple[int, int, int, int]:
        """Write what changed of the head and the tail since the last call (a
        checkpoint); return the lane as stored: its first block, one past its
        last, its number of entries, and how many of the first block's entries
        were served."""
        rows = self.rows
        if len(self.tail) != self.tail_saved:  # grown: written over its partial block
            rows.put(self.id, self.hi, self.tail)
            self.tail_saved = len(self.tail)
        first, skip = self.lo, self.skip
        if self.head:
            if self.head_block is None:
                self.head_block = rows.put(self.id, self.lo - 1, self.head)
            first, skip = self.lo - 1, self.head_block - len(self.head)
        if first > self.trimmed:
            rows.trims.append((self.id, first))
        self.trimmed = first  # lower: a head written again where it had been deleted
        return first, self.hi + bool(self.tail), len(self), skip

    def discard(self) -> None:
        """The lane is no longer used: its rows go at the next checkpoint."""
        self.rows.discarded.append(self.id)


Lane = deque[FrontierEntry] | SpillLane
"""A host's FIFO: in memory, or spilled."""


def first(lane: Lane) -> FrontierEntry:
    """The first entry of a non-empty ``lane``, left in place."""
    return lane.peek() if isinstance(lane, SpillLane) else lane[0]


def remove_key(lane: Lane, key: str) -> FrontierEntry | None:
    """Take the entry with ``key`` out of ``lane``, or None if it is not there."""
    if isinstance(lane, SpillLane):
        return lane.remove(key)
    for i, entry in enumerate(lane):
        if entry.key == key:
            del lane[i]
            return entry
    return None
