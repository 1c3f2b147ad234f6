"""The frontier on disk: a SQLite database that is the checkpoint, and the journal
after it (ARCHITECTURE.md, "The frontier on disk").

A frontier opened with a ``window`` keeps at most that many URLs of each queue in
memory (:mod:`robotkit.frontier.lanes`); every URL is written through to the
database's ``rows`` table. The database holds one write transaction open from one
checkpoint to the next, and a checkpoint is its commit: the rows buffered since,
the deletion of rows already served, one ``hosts`` row per host that changed (its
counters, its lanes' ranges, the URL in flight), the seen set's new digests, and
the header. SQLite's atomic commit stands in for the temp-file-and-rename of a
whole-file checkpoint, so a checkpoint costs what changed, not what is held; a
process killed between checkpoints leaves the database as the last one committed
it, and the journal (:class:`robotkit.frontier.durable.Journal`, as with
:class:`robotkit.frontier.store.FileStore`) replays the rest. Restoring reads the
header, the seen set and one row per host: the queues stay on disk until served.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from typing import Any, Final

from robotkit.base.reasons import Reason
from robotkit.frontier.durable import CheckpointError, Journal, encode_line
from robotkit.frontier.events import BudgetSet, FrontierEvent, FrontierHeader, Queued, Tallied
from robotkit.frontier.hosts import HostQueues, HostTable, adopt_host
from robotkit.frontier.lanes import Lane, LaneRows, SpillLane
from robotkit.frontier.seen import ExactSeenSet, SeenSet, SeenSnapshot, seen_set_from_snapshot
from robotkit.frontier.store import (
    JOURNAL_MAGIC,
    encode_event,
    entry_of,
    entry_record,
    journal_path,
)
from robotkit.url.parse import Origin

__all__ = ["DB_FORMAT", "DB_VERSION", "DiskStore", "is_database"]

DB_FORMAT: Final = "robotkit-frontier-db"
DB_VERSION: Final = 2
"""2: a lane's range says how many entries of its first block were served (a
checkpoint no longer writes a head that was only served from). Version 1 is read."""
READS: Final = ("1", "2")
SQLITE_MAGIC: Final = b"SQLite format 3\x00"
REBASE_MIN: Final = 65_536
"""The seen set is stored whole again once the digests stored since its last image
exceed this or an eighth of its size: a restore replays at most that many."""

SCHEMA: Final = (
    "CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT)",
    "CREATE TABLE IF NOT EXISTS hosts (scheme TEXT, host TEXT, port INTEGER, data TEXT, "
    "PRIMARY KEY (scheme, host, port)) WITHOUT ROWID",
    LaneRows.SCHEMA,
    "CREATE TABLE IF NOT EXISTS seen_base (i INTEGER PRIMARY KEY, blob BLOB)",
    "CREATE TABLE IF NOT EXISTS seen_delta (i INTEGER PRIMARY KEY, blob BLOB)",
)


def is_database(path: str | os.PathLike[str]) -> bool:
    """True if ``path`` is a SQLite file (a frontier on disk), not a whole-file one."""
    try:
        with open(path, "rb") as f:
            return f.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
    except OSError:
        return False


def _connect(path: str) -> sqlite3.Connection:
    db = sqlite3.connect(path, timeout=0, isolation_level=None, check_same_thread=False)
    db.execute("PRAGMA journal_mode=WAL")  # uncommitted pages spill to the WAL, not the file
    db.execute("PRAGMA synchronous=FULL")  # a commit is a checkpoint: fsync it
    # 128 MiB of pages at most: at 10 million URLs the rows table (600 MB) outgrew
    # 32 MiB and each block written read its page back from the file
    db.execute("PRAGMA cache_size=-131072")
    db.execute("PRAGMA journal_size_limit=67108864")  # a WAL grown by a big commit shrinks
    return db


class DiskStore:
    """A frontier's database and journal (see the module docstring). The frontier
    sends it every change (:meth:`record`: the host becomes dirty, the journal
    gets the event) and calls :meth:`compact` to checkpoint."""

    def __init__(self, path: str, db: sqlite3.Connection, rows: LaneRows) -> None:
        self.path = path
        self.db = db
        self.rows = rows
        self.journal: Journal | None = None
        self.dirty: set[Origin] = set()
        # The hosts of URLs queued, by id(): an Origin hashes in Python (a frozen
        # dataclass), an int in C, and a queued URL is the change made most often.
        # The dict holds each origin, so no id is reused while it is there.
        self.queued_to: dict[int, Origin] = {}
        self.all_dirty = False
        self._lanes: dict[Origin, list[int]] = {}  # lane ids each host row names
        self._delta_keys = 0  # seen digests stored since the last image
        self._base: dict[str, Any] | None = None  # the stored image's figures
        self._seen_id = 0  # id() of the seen set stored (another one: a new image)
        self._pending_rename: str | None = None  # where a new database is being built

    # -- creating, opening ------------------------------------------------------

    @classmethod
    def create(cls, path: str, table: HostTable, window: int) -> DiskStore:
        """A new database at ``path`` holding ``table``'s queues, which spill to it
        from now on. Nothing is committed until :meth:`compact`; an older file at
        ``path`` is replaced then."""
        tmp = path + ".new"
        for leftover in (tmp, tmp + "-wal", tmp + "-shm"):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(leftover)
        db = _connect(tmp)
        for statement in SCHEMA:
            db.execute(statement)
        db.execute("BEGIN")
        store = cls(path, db, LaneRows(db, window))
        store._pending_rename = tmp
        table.spill = store.rows
        for host in table.hosts.values():
            for slot, lane in list(host.queues.items()):
                host.queues[slot] = store._copy(host.origin, lane)
            host.parked = store._copy(host.origin, host.parked)
        store.all_dirty = True
        return store

    def _copy(self, origin: Origin, entries: Lane) -> SpillLane:
        lane = self.rows.lane(origin)
        for entry in list(entries):
            lane.append(entry)
        if isinstance(entries, SpillLane):
            entries.discard()
        return lane

    @classmethod
    def load(cls, path: str) -> tuple[DiskStore, FrontierHeader, SeenSet, list[Any], str | None]:
        """Open the database at ``path``: the store, the header, the seen set, the
        journal's records to replay and the journal's id. Raises
        :class:`CheckpointError` for a database that is not a whole frontier."""
        try:
            db = _connect(path)
            meta = dict(db.execute("SELECT k, v FROM meta").fetchall())
        except sqlite3.Error as exc:
            raise CheckpointError(f"cannot read frontier database {path!r}: {exc}") from None
        if meta.get("format") != DB_FORMAT:
            raise CheckpointError(f"{path} is not a robotkit frontier database")
        if meta.get("version") not in READS:
            raise CheckpointError(
                f"{path} has frontier database format version {meta.get('version')} "
                f"(this robotkit reads {' and '.join(READS)})"
            )
        try:
            head = json.loads(meta["header"])
            header = FrontierHeader(
                head["generation"],
                {str(k): int(v) for k, v in head["tallies"].items()},
                head["max_depth"],
                head["host_budget"],
                head["done"],
                {Reason(k): v for k, v in head["rejected"].items()},
            )
            store = cls(path, db, LaneRows(db, head["window"], head["next_lane"]))
            seen = store._load_seen(head["seen"])
        except (ValueError, KeyError, TypeError, sqlite3.Error) as exc:
            raise CheckpointError(f"corrupt frontier database {path!r}: {exc}") from None
        records = Journal.records(
            journal_path(path), JOURNAL_MAGIC, head["journal"], head["replaced"], path
        )
        db.execute("BEGIN")
        return store, header, seen, records, head["journal"]

    def _load_seen(self, meta: dict[str, Any]) -> SeenSet:
        blobs = tuple(b for (b,) in self.db.execute("SELECT blob FROM seen_base ORDER BY i"))
        seen = seen_set_from_snapshot(
            SeenSnapshot(
                meta["kind"],
                meta["count"],
                meta["expected_items"],
                meta["error_rate"],
                meta["byteorder"],
                blobs,
            )
        )
        for (delta,) in self.db.execute("SELECT blob FROM seen_delta ORDER BY i"):
            seen.add_digests(delta)
            self._delta_keys += len(delta) // _digest_size(seen)
        if len(seen) != meta["total"]:
            raise ValueError("the seen set does not hold its count")
        seen.log_fresh()
        self._base, self._seen_id = meta, id(seen)
        return seen

    def load_hosts(self, table: HostTable) -> None:
        """Put every stored host into ``table`` (an empty one), queues on disk."""
        table.spill = self.rows
        for scheme, name, port, data in self.db.execute("SELECT * FROM hosts").fetchall():
            origin = Origin(scheme, name, port)
            hold, admitted, done, reason, budget, lanes, parked, busy = json.loads(data)
            host = HostQueues(origin, hold=float(hold), admitted=admitted, done=done)
            host.park_reason = None if reason is None else Reason(reason)
            host.budget = budget
            for slot, *stored in lanes:
                host.queues[slot] = SpillLane(self.rows, *_range(stored, origin))
            host.parked = SpillLane(self.rows, *_range(parked, origin))
            self._lanes[origin] = [lane[1] for lane in lanes] + [parked[0]]
            table.hosts[origin] = host
            adopt_host(table, host, None if busy is None else entry_of(origin, busy))

    # -- recording --------------------------------------------------------------------

    def record(self, event: FrontierEvent) -> None:
        """Note the host ``event`` changed, and journal it if a journal is open."""
        if isinstance(event, Queued):  # the most frequent first: an add
            host = event.entry.host
            self.queued_to[id(host)] = host
        elif isinstance(event, BudgetSet):
            if event.host is None:
                self.all_dirty = True
            else:
                self.dirty.add(event.host)
        elif not isinstance(event, Tallied):
            self.dirty.add(event.host)
        if self.journal is not None:
            self.journal.write(encode_event(event))

    def start_journal(self, ident: str, generation: int, sync: bool) -> None:
        """Start a fresh journal with the id ``ident``, replacing any open one."""
        self.close_journal()
        path = journal_path(self.path)
        self.journal = Journal.start(path, JOURNAL_MAGIC, generation, ident, sync)

    # -- checkpoints ------------------------------------------------------------------

    def compact(
        self,
        header: FrontierHeader,
        table: HostTable,
        seen: SeenSet,
        journal: str | None,
        replaced: str | None,
    ) -> None:
        """Commit everything since the last checkpoint (see the module docstring);
        ``journal``: the id of the journal that continues it, ``replaced``: the one
        it compacts."""
        db = self.db
        hosts = table.hosts
        dirty = set(hosts) if self.all_dirty else self.dirty.union(self.queued_to.values())
        upserts: list[tuple[str, str, int, str]] = []
        gone: list[tuple[str, str, int]] = []
        for origin in dirty:
            host = hosts.get(origin)
            key = (origin.scheme, origin.host, origin.port)
            if host is None:
                gone.append(key)
                self.rows.discarded.extend(self._lanes.pop(origin, ()))
                continue
            lanes = [(slot, _spilled(lane)) for slot, lane in host.queues.items()]
            parked = _spilled(host.parked)
            _, admitted = host.busy_place()
            busy = None if host.busy is None else entry_record(host.busy)
            ranges = [[slot, lane.id, *lane.persist()] for slot, lane in lanes]
            parked_range = [parked.id, *parked.persist()]
            data = [
                host.hold,
                admitted,
                host.done,
                None if host.park_reason is None else str(host.park_reason),
                host.budget,
                ranges,
                parked_range,
                busy,
            ]
            self._lanes[origin] = [r[1] for r in ranges] + [parked.id]
            upserts.append((*key, encode_line(data).decode("utf-8", "surrogatepass")))
        try:
            self.rows.trim()
            db.executemany("DELETE FROM hosts WHERE scheme=? AND host=? AND port=?", gone)
            db.executemany("INSERT OR REPLACE INTO hosts VALUES (?,?,?,?)", upserts)
            seen_meta = self._store_seen(seen)
            head = {
                "generation": header.generation,
                "journal": journal,
                "replaced": replaced,
                "tallies": header.tallies,
                "max_depth": header.max_depth,
                "host_budget": header.host_budget,
                "done": header.done,
                "rejected": {str(reason): n for reason, n in header.rejected.items()},
                "window": self.rows.window,
                "next_lane": self.rows.next_id,
                "seen": seen_meta,
            }
            db.executemany(
                "INSERT OR REPLACE INTO meta VALUES (?, ?)",
                [("format", DB_FORMAT), ("version", str(DB_VERSION)), ("header", json.dumps(head))],
            )
            db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise CheckpointError(f"cannot write frontier database {self.path!r}: {exc}") from None
        self.dirty.clear()
        self.queued_to.clear()
        self.all_dirty = False
        if self._pending_rename is not None:
            self._move_into_place()
        self.db.execute("BEGIN")

    def _store_seen(self, seen: SeenSet) -> dict[str, Any]:
        """Store the seen set's new digests, or its whole image when the digests
        stored since the last one grow past :data:`REBASE_MIN` or an eighth (or the
        frontier was given another set)."""
        fresh = seen.fresh()
        added = len(fresh) // _digest_size(seen)
        base = self._base
        if (
            base is None
            or self._seen_id != id(seen)
            or self._delta_keys + added > max(REBASE_MIN, len(seen) // 8)
        ):
            seen.log_fresh()
            snap = seen.snapshot()
            self.db.execute("DELETE FROM seen_base")
            self.db.execute("DELETE FROM seen_delta")
            self.db.executemany("INSERT INTO seen_base VALUES (?, ?)", enumerate(snap.blobs))
            self._delta_keys, self._seen_id = 0, id(seen)
            base = self._base = {
                "kind": snap.kind,
                "count": snap.count,
                "expected_items": snap.expected_items,
                "error_rate": snap.error_rate,
                "byteorder": snap.byteorder,
            }
        elif fresh:
            self.db.execute("INSERT INTO seen_delta (blob) VALUES (?)", (fresh,))
            self._delta_keys += added
        return {**base, "total": len(seen)}

    def _move_into_place(self) -> None:
        """A new database goes where the checkpoint lives only once whole."""
        tmp = self._pending_rename
        assert tmp is not None
        self.db.close()
        os.replace(tmp, self.path)
        directory = os.open(os.path.dirname(self.path) or ".", os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)
        self._pending_rename = None
        self.db = self.rows.db = _connect(self.path)

    def close_journal(self) -> None:
        if self.journal is not None:
            self.journal.close()
            self.journal = None

    def close(self) -> None:
        """Close the journal and the database (what was not checkpointed is in the
        journal, not in the database)."""
        self.close_journal()
        with contextlib.suppress(sqlite3.Error):
            self.db.close()


def _range(stored: list[int], origin: Origin) -> tuple[int, Origin, int, int, int, int]:
    """A lane's stored range as :class:`SpillLane` takes it (version 1 had no skip)."""
    ident, first, hi, count, *skip = stored
    if len(skip) > 1 or not all(isinstance(n, int) for n in stored):
        raise ValueError(f"a lane of {origin} has a bad range")
    return ident, origin, first, hi, count, skip[0] if skip else 0


def _spilled(lane: Lane) -> SpillLane:
    if not isinstance(lane, SpillLane):
        raise TypeError("a frontier on disk holds a lane in memory")
    return lane


def _digest_size(seen: SeenSet) -> int:
    return 8 if isinstance(seen, ExactSeenSet) else 16
