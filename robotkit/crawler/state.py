"""A crawl's state directory (``robotkit crawl --state DIR``): locked, durable from
the first fetch, and resumable with what the crawl learned.

What lives in the directory, and why:

* ``lock``: held with :func:`fcntl.flock` for the crawl's whole life (the kernel
  drops it when the process dies, however it dies), so two crawls never share a
  directory; it holds the owner's pid for the error message.
* ``frontier``: the frontier's checkpoint (both tiers), with its journal
  (``frontier.journal``, one checksummed record per change, see
  :mod:`robotkit.frontier.store`). The journal is the record: it is open before the
  first fetch, and a checkpoint only compacts it. The frontier is kept on disk
  (:mod:`robotkit.frontier.disk`): ``frontier`` is its SQLite database (with
  ``frontier-wal`` and ``frontier-shm`` while it is open), and only
  :data:`FRONTIER_WINDOW` URLs of each of a host's queues are in memory, so a
  large crawl's memory does not grow with the URLs it has queued. A directory
  written by an older robotkit, whose ``frontier`` is a whole file, resumes and
  goes on on disk: the database is built beside it and renamed over it once
  committed, and it names the journal it replaces, so a kill at any point
  resumes from one or the other. The page counters (pages fetched,
  failed, soft-404 probes) are tallies in that journal, one record per request,
  so a crawl killed N times refetches at most the N requests that were in flight
  and never spends more than N requests past its page budget.
* ``crawl.json``: the seeds (a resume with other seeds is refused unless
  ``add_seeds``) and what the crawl learned (page fingerprints, soft-404 answers,
  novelty windows, the automatic blacklist, the self-growth bound's chains, the retry
  counts: :func:`learned_snapshot`),
  written at the start, with every checkpoint and at every clean stop.
* ``crawl.json.journal``: the facts learned since ``crawl.json`` was written that
  cost a request to learn (a directory's soft-404 answer), one checksummed record
  each, journaled when learned: a crawl killed before its next checkpoint does not
  probe that directory again. ``crawl.json`` names the journal that continues it
  (and the one it replaces, as a frontier checkpoint does). What a page teaches
  for free (fingerprints, novelty windows) is not journaled: after a SIGKILL a
  crawl relearns at most the pages since the last checkpoint. Without
  ``crawl.json`` (deleted) the frontier and the counters still resume from their
  journals; the loss is reported.

Every file is replaced atomically (:func:`robotkit.frontier.durable.atomic_write`). A file
that cannot be read back raises :class:`CrawlStateError` with one line that says
which file and what is wrong.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from robotkit.base.snapshot import SnapshotError, listed, reading, typed
from robotkit.crawler.ports import ResumableCrawl
from robotkit.crawler.report import CrawlEvent
from robotkit.frontier.durable import (
    CheckpointError,
    Journal,
    atomic_write,
    encode_line,
    new_journal_id,
)
from robotkit.frontier.frontier import Frontier
from robotkit.url.normalization import normalize
from robotkit.url.parse import InvalidURL

__all__ = [
    "FRONTIER_WINDOW",
    "STATE_FILE",
    "STATE_VERSION",
    "CrawlState",
    "CrawlStateError",
    "StateInUse",
    "learned_snapshot",
    "replay_learned",
    "restore_learned",
]

STATE_FILE: Final = "crawl.json"
LEARNED_JOURNAL: Final = "crawl.json.journal"
LEARNED_MAGIC: Final = b"robotkit-learned-journal"
MAIN_CHECKPOINT: Final = "frontier"
LOCK_FILE: Final = "lock"
FRONTIER_WINDOW: Final = 16
"""URLs of each of a host's queues held in memory (the rest in the database)."""
STATE_FORMAT: Final = "robotkit-crawl"
STATE_VERSION: Final = 2
"""2: seeds, learned state and a save count; counters moved into the journal. The
ids of the learned journal (``journal``, ``replaced``) are optional: a state of a
robotkit without that journal has none to replay."""


class CrawlStateError(CheckpointError):
    """A state directory that cannot be used: damaged, of another version, or
    holding a crawl of other seeds."""


class StateInUse(CrawlStateError):
    """Another process holds the state directory's lock."""


class CrawlState:
    """The state directory of one crawl. :meth:`open` (lock, then resume or start)
    before the first fetch; :meth:`record` each request; :meth:`save` at
    checkpoints and at the end; :meth:`close` releases the lock.

    ``add_seeds``: resume even if the seeds differ from the recorded ones, and
    add the new ones. ``notice``: receives one-line messages for the operator
    (resuming, nothing left, lost learned state). ``window``: URLs of each queue
    kept in memory, the rest on disk; None keeps the whole frontier in memory and
    checkpoints it as one file (a directory on disk stays on disk).
    """

    def __init__(
        self,
        directory: str | os.PathLike[str],
        *,
        add_seeds: bool = False,
        notice: Callable[[str], None] | None = None,
        window: int | None = FRONTIER_WINDOW,
    ) -> None:
        self.directory = Path(directory)
        self.add_seeds = add_seeds
        self.notice = notice
        self.window = window
        self.resumed = False
        self._seeds: list[str] = []
        self._saves = 0
        self._lock_fd: int | None = None
        self._journal: Journal | None = None

    @classmethod
    def of(cls, state: str | os.PathLike[str] | CrawlState | None) -> CrawlState | None:
        """A :class:`CrawlState` for what :class:`~robotkit.crawler.loop.Crawler` was
        given as ``state_dir``."""
        if state is None or isinstance(state, CrawlState):
            return state
        return cls(state)

    # -- open -------------------------------------------------------------------------

    def open(self, crawler: ResumableCrawl) -> None:
        """Lock the directory, then resume the crawl it holds into ``crawler`` or
        start a new one there; on return the journals are open and the seeds
        recorded. Raises :class:`CrawlStateError` (the directory untouched if it is
        locked; one line if it holds a crawl of an older robotkit) or
        :class:`OSError`."""
        self.directory.mkdir(parents=True, exist_ok=True)
        self._lock()
        try:
            self._open(crawler)
        except BaseException:
            self.close()
            raise

    def _open(self, crawler: ResumableCrawl) -> None:
        main_path = self.directory / MAIN_CHECKPOINT
        saved = self._read_state_file()
        seeds = list(crawler.seeds)
        if not main_path.exists():
            if saved is not None and saved["saves"] > 0:
                raise CrawlStateError(
                    f"cannot resume from {self.directory}: {main_path.name} is missing"
                )
            self._seeds = seeds
            self._save_learned({}, None)
            # last: its presence means "a crawl"
            crawler.frontier.open_journal(main_path, window=self.window)
            return
        try:
            frontier = Frontier.restore(main_path)
        except CheckpointError as exc:
            raise CrawlStateError(f"cannot resume from {self.directory}: {exc}") from None
        try:
            self._resume(crawler, frontier, saved)
        except BaseException:
            frontier.close()  # a frontier on disk holds its database open
            raise

    def _resume(
        self, crawler: ResumableCrawl, frontier: Frontier, saved: dict[str, Any] | None
    ) -> None:
        main_path = self.directory / MAIN_CHECKPOINT
        seeds = list(crawler.seeds)
        try:
            if saved is not None:
                if saved["learned"]:
                    restore_learned(crawler, saved["learned"])
                for kind, fact in self._learned_since(saved):
                    replay_learned(crawler, kind, fact)
        except (CheckpointError, SnapshotError) as exc:
            raise CrawlStateError(f"cannot resume from {self.directory}: {exc}") from None
        if saved is None:
            self._seeds = seeds
            self._say(
                f"{self.directory / STATE_FILE} is missing: resuming the frontier from its "
                "journal, with the seeds given; what the crawl had learned is lost"
            )
        else:
            self._seeds = self._merge_seeds(saved["seeds"], seeds)
            self._saves = saved["saves"]
        crawler.seeds = list(self._seeds)
        crawler.frontier = frontier
        summary = crawler.summary
        summary.fetched = frontier.tallies["fetched"]
        summary.failed = frontier.tallies["failed"]
        summary.probes = frontier.tallies["probes"]
        summary.resumed = self.resumed = True
        frontier.open_journal(main_path, window=self.window)  # a whole file goes on disk
        self._save_learned(learned_snapshot(crawler), saved.get("journal") if saved else None)
        self._announce(crawler, added=len(self._seeds) > len(saved["seeds"]) if saved else False)

    def _merge_seeds(self, recorded: list[str], given: list[str]) -> list[str]:
        """The seeds to go on with: the recorded ones, refused if they differ from
        ``given`` unless :attr:`add_seeds`, then the new ones after them."""
        old, new = _keys(recorded), _keys(given)
        if old == new:
            return recorded
        added = [seed for seed in given if _keys([seed]) - old]
        missing = [seed for seed in recorded if _keys([seed]) - new]
        if not self.add_seeds:
            new_part = f"new: {' '.join(added)}" if added else ""
            missing_part = f"not given: {' '.join(missing)}" if missing else ""
            diff = "; ".join(part for part in (new_part, missing_part) if part)
            raise CrawlStateError(
                f"{self.directory} holds a crawl of other seeds ({diff}); "
                "pass --add-seeds to add the new seeds to it"
            )
        return [*recorded, *added]

    def _announce(self, crawler: ResumableCrawl, added: bool) -> None:
        pages, budget = crawler.pages, crawler.config.max_pages
        queued = len(crawler.frontier)
        where = self.directory
        if pages >= budget:
            self._say(
                f"crawl in {where} has spent its page budget ({pages} of {budget} pages); "
                "raise --max-pages to go on"
            )
        elif queued == 0 and not added:
            self._say(f"crawl in {where} has nothing left to fetch ({pages} pages done)")
        else:
            self._say(f"resuming crawl in {where}: {pages} pages done, {queued} queued")

    def _say(self, message: str) -> None:
        if self.notice is not None:
            self.notice(message)

    # -- during the crawl ---------------------------------------------------------

    def record(self, crawler: ResumableCrawl, event: CrawlEvent) -> None:
        """Journal the request behind ``event`` (if it made one) in the counters."""
        if event.event.value == "skipped":
            return
        name = "probes" if event.probe else event.event.value
        crawler.frontier.tally(name)

    def learned(self, kind: str, fact: dict[str, Any]) -> None:
        """Journal a fact the crawl just learned (flushed before this returns)."""
        if self._journal is not None:
            self._journal.write([kind, fact])

    def save(self, crawler: ResumableCrawl) -> None:
        """Checkpoint the frontier (compacting its journal), then what was learned
        (compacting the learned journal)."""
        crawler.frontier.checkpoint(self.directory / MAIN_CHECKPOINT)
        self._saves += 1
        self._save_learned(learned_snapshot(crawler), self._journal_ident())

    def close(self, crawler: ResumableCrawl | None = None) -> None:
        """Close ``crawler``'s frontier (its journal and database: what it counts
        stays readable, its queues do not) and the learned journal, then release
        the lock."""
        if crawler is not None:
            crawler.frontier.close()
        if self._journal is not None:
            self._journal.close()
            self._journal = None
        if self._lock_fd is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(self._lock_fd, fcntl.LOCK_UN)
            os.close(self._lock_fd)
            self._lock_fd = None

    # -- files --------------------------------------------------------------------

    def _lock(self) -> None:
        fd = os.open(self.directory / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            owner = os.read(fd, 32).decode("ascii", "replace").strip() or "unknown"
            os.close(fd)
            raise StateInUse(f"{self.directory} is in use by another crawl (pid {owner})") from None
        except BaseException:
            os.close(fd)
            raise
        os.ftruncate(fd, 0)
        os.pwrite(fd, b"%d\n" % os.getpid(), 0)
        self._lock_fd = fd

    def _journal_ident(self) -> str | None:
        return None if self._journal is None else self._journal.ident

    def _save_learned(self, learned: dict[str, Any], replaced: str | None) -> None:
        """Write ``crawl.json`` naming a fresh learned journal, then start that
        journal. Killed in between, the file holds the journal ``replaced``, whose
        facts ``learned`` already holds: :meth:`_learned_since` reads none of it."""
        ident = new_journal_id()
        state = {
            "format": STATE_FORMAT,
            "version": STATE_VERSION,
            "seeds": self._seeds,
            "saves": self._saves,
            "learned": learned,
            "journal": ident,
            "replaced": replaced,
        }
        atomic_write(self.directory / STATE_FILE, [encode_line(state)], trailer=False)
        old = self._journal
        self._journal = Journal.start(
            self.directory / LEARNED_JOURNAL, LEARNED_MAGIC, self._saves, ident, sync=False
        )
        if old is not None:
            old.close()

    def _learned_since(self, saved: dict[str, Any]) -> list[tuple[str, Any]]:
        """The facts journaled since ``crawl.json`` (``saved``) was written, as
        ``(kind, fact)``; :class:`CheckpointError` for a damaged or foreign journal."""
        path = self.directory / LEARNED_JOURNAL
        records = Journal.records(
            path, LEARNED_MAGIC, saved.get("journal"), saved.get("replaced"), STATE_FILE
        )
        facts = []
        for number, record in enumerate(records, start=1):
            if not (isinstance(record, list) and len(record) == 2 and isinstance(record[0], str)):
                raise CheckpointError(f"journal {path}: record {number} is not a learned fact")
            facts.append((record[0], record[1]))
        return facts

    def _read_state_file(self) -> dict[str, Any] | None:
        """``crawl.json`` checked for shape, or None if there is none."""
        path = self.directory / STATE_FILE
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as exc:
            raise CrawlStateError(f"cannot read {path}: {exc}") from None
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise CrawlStateError(f"{path} is not valid JSON: {exc}") from None
        if not isinstance(data, dict):
            raise CrawlStateError(f"{path} is not a crawl state (expected an object)")
        version = data.get("version")
        if data.get("format", STATE_FORMAT) != STATE_FORMAT or not isinstance(version, int):
            raise CrawlStateError(f"{path} is not a robotkit crawl state")
        if version != STATE_VERSION:
            raise CrawlStateError(
                f"{path} has format version {version} (this robotkit reads {STATE_VERSION}); "
                "start the crawl in a new state directory"
            )
        for key, kind, what in (
            ("seeds", list, "a list of URLs"),
            ("saves", int, "a count"),
            ("learned", dict, "an object"),
        ):
            value = data.get(key)
            if not isinstance(value, kind) or isinstance(value, bool):
                raise CrawlStateError(f"{path}: {key!r} must be {what}")
        for key in ("journal", "replaced"):
            if not isinstance(data.get(key), str | None):
                raise CrawlStateError(f"{path}: {key!r} must be a journal id")
        if not all(isinstance(seed, str) for seed in data["seeds"]):
            raise CrawlStateError(f"{path}: 'seeds' must be a list of URLs")
        try:
            _keys(data["seeds"])
        except InvalidURL as exc:
            raise CrawlStateError(f"{path}: invalid seed: {exc.detail}") from None
        return data


def learned_snapshot(crawler: ResumableCrawl) -> dict[str, Any]:
    """Everything ``crawler`` learned from pages, as JSON, for ``crawl.json``: the
    triage's snapshot and how often each URL was tried again."""
    return {
        "triage": crawler.triage.snapshot(),
        "retries": [[key, n] for key, n in crawler.retries.items()],
    }


def restore_learned(crawler: ResumableCrawl, data: dict[str, Any]) -> None:
    """Take back :func:`learned_snapshot` into ``crawler``; raises
    :class:`~robotkit.base.snapshot.SnapshotError` for bad data."""
    with reading("crawler"):
        crawler.triage.restore(data["triage"])
        retries = Counter(
            {
                typed(key, str, "key"): typed(n, int, "retries")
                for key, n in listed(data["retries"], "retries", list)
            }
        )
    crawler.retries.clear()  # in place: the crawl's parts share the counter
    crawler.retries.update(retries)


def replay_learned(crawler: ResumableCrawl, kind: str, fact: Any) -> None:
    """Take back one fact :meth:`CrawlState.learned` journaled (``soft404``: a
    directory's probe answer); raises :class:`~robotkit.base.snapshot.SnapshotError`
    for bad data."""
    if kind != "soft404":
        raise SnapshotError(f"unknown learned fact {kind!r}")
    crawler.triage.soft404.learn(fact)


def _keys(seeds: list[str]) -> set[str]:
    return {normalize(seed).key for seed in seeds}
