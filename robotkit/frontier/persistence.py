"""How a frontier is kept: the store its changes go to, its checkpoints (a whole
file, or the database of a frontier on disk) and its journal (ARCHITECTURE.md,
"State and resume" and "The frontier on disk"). The policy lives in
:class:`robotkit.frontier.frontier.Frontier`, which inherits this; the two are
apart because what a frontier decides and how it is written down change for
different reasons."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable

from robotkit.base.reasons import Reason
from robotkit.frontier.disk import DiskStore
from robotkit.frontier.durable import new_journal_id
from robotkit.frontier.events import FrontierEvent, FrontierHeader, FrontierSnapshot
from robotkit.frontier.hosts import HostTable
from robotkit.frontier.seen import SeenSet
from robotkit.frontier.store import FileStore, FrontierStore, write_checkpoint

__all__ = ["Persistence"]


class Persistence:
    """A frontier's stores, checkpoints and journal (see the module docstring)."""

    max_depth: int | None
    host_budget: int | None
    seen: SeenSet
    generation: int
    tallies: Counter[str]
    table: HostTable
    rejected: Counter[Reason]
    _sink: Callable[[FrontierEvent], None] | None
    _store: FrontierStore | None
    _store_path: str | None
    resume_mark: str | None
    _disk: DiskStore | None

    def attach(self, store: FrontierStore, path: str | None = None) -> None:
        """Send every change from now on to ``store`` (``path``: the checkpoint it
        continues, so that :meth:`checkpoint` to it compacts the store)."""
        self.close_journal()
        self._store, self._store_path, self._sink = store, path, store.record

    def bind(self, disk: DiskStore) -> None:
        """Keep the queues in ``disk``'s database from now on (a frontier on disk)."""
        self.close()
        self._disk, self._sink = disk, disk.record

    def close_journal(self) -> None:
        """Detach and close the store (the journal), if any. A frontier on disk
        keeps its database open, and its queues in it, until :meth:`close`."""
        if self._store is not None:
            self._store.close()
        self._store = self._store_path = None
        if self._disk is not None:
            self._disk.close_journal()
        else:
            self._sink = None

    def close(self) -> None:
        """Close the journal and, for a frontier on disk, its database: what was not
        checkpointed is in the journal. The frontier is not used after this."""
        self.close_journal()
        if self._disk is not None:
            self._disk.close()
        self._disk = self._sink = None

    def snapshot(self) -> FrontierSnapshot:
        """Everything the frontier holds, for a checkpoint; hosts are produced as the
        store reads them."""
        table = self.table
        return FrontierSnapshot(
            generation=self.generation,
            tallies=dict(self.tallies),
            max_depth=self.max_depth,
            host_budget=self.host_budget,
            done=table.done,
            rejected=dict(self.rejected),
            seen=self.seen.snapshot(),
            host_count=len(table.hosts),
            entry_count=table.queued + table.in_flight + table.parked,
            hosts=(state.record() for state in list(table.hosts.values())),
        )

    def _header(self) -> FrontierHeader:
        return FrontierHeader(
            self.generation,
            dict(self.tallies),
            self.max_depth,
            self.host_budget,
            self.table.done,
            dict(self.rejected),
        )

    def checkpoint(self, path: str | os.PathLike[str]) -> int:
        """Write the frontier to ``path``; return its generation. URLs in flight are
        stored as queued, at the head of their host. With a journal open on
        ``path``, the checkpoint compacts it: a fresh journal follows. A frontier on
        disk checkpointed to its own database commits only what changed since the
        last checkpoint; any other checkpoint is a whole file, written atomically
        (temp file, fsync, rename, fsync of the directory)."""
        path = os.path.abspath(os.fspath(path))
        self.generation += 1
        disk = self._disk
        if disk is not None and disk.path == path:
            journal = disk.journal
            if journal is None:
                disk.compact(self._header(), self.table, self.seen, None, None)
            else:
                ident = new_journal_id()
                disk.compact(self._header(), self.table, self.seen, ident, journal.ident)
                disk.start_journal(ident, self.generation, journal.sync)
        elif self._store is not None and self._store_path == path:
            self._store.compact(self.snapshot())
        else:
            write_checkpoint(path, self.snapshot())
        return self.generation

    def open_journal(
        self, path: str | os.PathLike[str], *, sync: bool = False, window: int | None = None
    ) -> None:
        """Checkpoint to ``path`` and record every change after it in
        ``<path>.journal``, so a killed crawl loses nothing it recorded;
        ``sync=True`` fsyncs each record. ``window``: keep the frontier on disk
        (:mod:`robotkit.frontier.disk`), at most ``window`` URLs of each queue in
        memory; a frontier restored from a database stays on disk."""
        self.close_journal()
        path = os.path.abspath(os.fspath(path))
        self.generation += 1
        disk = self._disk
        if window is None and disk is None:
            self.attach(FileStore.open(path, self.snapshot(), self.resume_mark, sync), path)
            return
        if disk is None or disk.path != path:
            disk = DiskStore.create(path, self.table, window or (disk and disk.rows.window) or 1)
            self.bind(disk)
        ident = new_journal_id()
        if os.path.exists(path):  # a resume: the checkpoint names the journal it replaces
            disk.compact(self._header(), self.table, self.seen, ident, self.resume_mark)
            disk.start_journal(ident, self.generation, sync)
        else:  # the journal first: killed in between, there is nothing to resume
            disk.start_journal(ident, self.generation, sync)
            disk.compact(self._header(), self.table, self.seen, ident, None)
