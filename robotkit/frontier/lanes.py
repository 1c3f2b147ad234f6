"""Queues that spill to disk: a small window of each queue in memory, the rest in SQLite.

A *lane* is one FIFO of a host (one slot of tier and depth, or the host's parked
URLs). In a frontier kept in memory a lane is a plain :class:`collections.deque`; in
a frontier on disk (ARCHITECTURE.md, "The frontier on disk") it is a
:class:`SpillLane` with the same operations. Every entry of a spill lane is written
through to one table of the database, numbered ``lo`` to ``hi`` in queue order;
memory holds at most ``window`` entries of its head, read back in one query when
they run out. Rows are written in batches, inside the transaction that the next
checkpoint commits, so a killed process leaves the database as its last
checkpoint left it (SQLite's own atomic commit).
"""

from __future__ import annotations

import sqlite3
from collections import deque
from collections.abc import Iterable, Iterator
from typing import Final

from robotkit.frontier.events import FrontierEntry, Tier
from robotkit.url.parse import Origin

__all__ = ["Lane", "LaneRows", "SpillLane", "first", "remove_key"]

FLUSH_AT: Final = 4096
"""Rows buffered before they are written (one executemany, sorted by lane)."""

TIERS: Final = tuple(Tier)

Row = tuple[int, int, bytes, bytes | None, int, bytes | None, int]
"""lane, seq, url, key (None: the URL), depth, referer, tier. Text as UTF-8 bytes
with lone surrogates kept (a hostile URL may hold one; SQLite's text refuses it)."""


def _b(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


def _s(data: bytes) -> str:
    return data.decode("utf-8", "surrogatepass")


class LaneRows:
    """The ``rows`` table of a frontier's database, shared by all its spill lanes,
    with the buffer of rows not yet written. ``window``: entries of each lane's
    head kept in memory."""

    SCHEMA: Final = (
        "CREATE TABLE IF NOT EXISTS rows (lane INTEGER, seq INTEGER, url BLOB, key BLOB, "
        "depth INTEGER, referer BLOB, tier INTEGER, PRIMARY KEY (lane, seq)) WITHOUT ROWID"
    )

    def __init__(self, db: sqlite3.Connection, window: int, next_id: int = 0) -> None:
        if window < 1:
            raise ValueError("window must be at least 1")
        self.db = db
        self.window = window
        self.next_id = next_id
        self.pending: list[Row] = []
        self.discarded: list[int] = []  # lanes emptied since the last checkpoint

    def lane(self, origin: Origin) -> SpillLane:
        """A new, empty lane of ``origin``'s entries."""
        self.next_id += 1
        return SpillLane(self, self.next_id, origin)

    def put(self, lane: int, seq: int, entry: FrontierEntry) -> None:
        key = None if entry.key == entry.url else _b(entry.key)
        referer = None if entry.referer is None else _b(entry.referer)
        self.pending.append((lane, seq, _b(entry.url), key, entry.depth, referer, entry.tier))
        if len(self.pending) >= FLUSH_AT:
            self.flush()

    def flush(self) -> None:
        """Write the buffered rows (sorted: SQLite inserts in key order fastest)."""
        if self.pending:
            self.pending.sort(key=lambda row: (row[0], row[1]))
            self.db.executemany("INSERT OR REPLACE INTO rows VALUES (?,?,?,?,?,?,?)", self.pending)
            self.pending.clear()

    def read(
        self, origin: Origin, lane: int, lo: int, hi: int, limit: int | None = None
    ) -> list[FrontierEntry]:
        """Entries ``lo`` to ``hi`` of ``lane`` (at most ``limit``), in order."""
        self.flush()
        rows = self.db.execute(
            "SELECT url, key, depth, referer, tier FROM rows WHERE lane = ? AND seq >= ? "
            "AND seq < ? ORDER BY seq LIMIT ?",
            (lane, lo, hi, -1 if limit is None else limit),
        ).fetchall()
        if len(rows) != (hi - lo if limit is None else min(hi - lo, limit)):
            raise ValueError(f"lane {lane} of {origin} is missing rows on disk")
        out = []
        for url, key, depth, referer, tier in rows:
            text = _s(url)
            out.append(
                FrontierEntry(
                    text,
                    text if key is None else _s(key),
                    depth,
                    None if referer is None else _s(referer),
                    origin,
                    TIERS[tier],
                )
            )
        return out

    def trim(self, lanes: Iterable[tuple[int, int]]) -> None:
        """Delete the rows before each ``(lane, lo)``: entries already served."""
        self.flush()
        self.db.executemany("DELETE FROM rows WHERE lane = ? AND seq < ?", lanes)
        self.db.executemany("DELETE FROM rows WHERE lane = ?", [(i,) for i in self.discarded])
        self.discarded.clear()


class SpillLane:
    """A FIFO of one host's entries, written through to :class:`LaneRows`, with at
    most ``window`` of its head in memory (plus entries put back at the front)."""

    __slots__ = ("head", "hi", "id", "lo", "origin", "rows")

    def __init__(self, rows: LaneRows, ident: int, origin: Origin, lo: int = 0, hi: int = 0):
        self.rows = rows
        self.id = ident
        self.origin = origin
        self.lo = lo  # the first entry's number
        self.hi = hi  # one past the last entry's number
        self.head: deque[FrontierEntry] = deque()  # entries lo .. lo + len(head) - 1

    def __len__(self) -> int:
        return self.hi - self.lo

    def __bool__(self) -> bool:
        return self.hi > self.lo

    def append(self, entry: FrontierEntry) -> None:
        self.rows.put(self.id, self.hi, entry)
        head = self.head
        if len(head) == self.hi - self.lo and len(head) < self.rows.window:
            head.append(entry)
        self.hi += 1

    def appendleft(self, entry: FrontierEntry) -> None:
        self.lo -= 1
        self.rows.put(self.id, self.lo, entry)
        self.head.appendleft(entry)

    def popleft(self) -> FrontierEntry:
        if not self.head:
            if self.hi <= self.lo:
                raise IndexError("pop from an empty lane")
            self.head.extend(
                self.rows.read(self.origin, self.id, self.lo, self.hi, self.rows.window)
            )
        self.lo += 1
        return self.head.popleft()

    def __iter__(self) -> Iterator[FrontierEntry]:
        yield from list(self.head)
        if len(self.head) < len(self):
            yield from self.rows.read(self.origin, self.id, self.lo + len(self.head), self.hi)

    def peek(self) -> FrontierEntry:
        """The first entry, left in place."""
        if not self.head:
            self.head.append(self.popleft())
            self.lo -= 1
        return self.head[0]

    def remove(self, key: str) -> FrontierEntry | None:
        """Take the entry with ``key`` out of the lane, wherever it is (a replay;
        entries before it move up one place), or None."""
        if self.head and self.head[0].key == key:
            return self.popleft()
        entries = list(self)
        for i, entry in enumerate(entries):
            if entry.key == key:
                for j in range(i - 1, -1, -1):
                    self.rows.put(self.id, self.lo + j + 1, entries[j])
                self.lo += 1
                self.head.clear()
                return entry
        return None

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
