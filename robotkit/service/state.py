"""A service node's URLs kept across restarts and kills (``robotkit frontier serve
--state DIR``).

Two files, the frontier's recipe (:mod:`robotkit.frontier.durable`):

* ``DIR/urls.jsonl``, the checkpoint: a header line, then every URL of every crawl
  (queued, out, waiting for a refetch date, done; not the refused ones), one JSON
  object per line, replaced atomically (temporary file, fsync, rename, fsync of
  the directory). Written at start, at a clean stop (SIGINT, SIGTERM), and when
  the journal has grown as long as the checkpoint (:meth:`NodeState.compact_if_due`).
* ``DIR/urls.jsonl.journal``, a :class:`~robotkit.frontier.durable.Journal` (one
  CRC-checked record per line, flushed to the operating system before the call
  that made it answers): every change since the checkpoint, as it happens (a URL
  put, reported, waiting, queued again, forgotten; a crawl deleted). A killed
  node loses nothing it acknowledged; a power cut may lose what the operating
  system had not written.

The checkpoint names its journal by id (and the one it replaced, for a kill
between the two writes). At start the node reads the checkpoint, replays the
journal over it, puts every URL back (a URL that was out is queued again, its
fetch unreported), then writes a fresh checkpoint and journal. Not kept: the
refused URLs, the pacing and robots.txt state (learned again), the queue
settings (delay, block, limit). A file of another format, a damaged line or a
journal that is not the checkpoint's is refused (:class:`DataError`), never half
read.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

from robotkit.base.errors import DataError
from robotkit.frontier.durable import Journal, atomic_write, encode_line, new_journal_id
from robotkit.service.core import ServiceCore
from robotkit.service.records import URLRecord, URLState

__all__ = ["FILE_NAME", "FORMAT", "JOURNAL_NAME", "NodeState", "load", "save"]

FILE_NAME: Final = "urls.jsonl"
JOURNAL_NAME: Final = FILE_NAME + ".journal"
FORMAT: Final = 2
"""The checkpoint's first line: ``{"robotkit-frontier-state": 2, "journal": ...}``
(format 1, written by earlier versions at a clean stop, has no journal)."""
MAGIC: Final = b"robotkit-frontier-urls"
COMPACT_MIN: Final = 10_000
"""Journal records before a compaction is considered at all."""

_Key = tuple[str, str]  # (crawl, record key)


def _line(record: URLRecord) -> dict[str, Any]:
    return {
        "crawl": record.queue.crawl,
        "key": record.key,
        "url": record.url,
        "queue": record.queue.key,
        "metadata": {k: list(v) for k, v in record.metadata.items()},
        "depth": record.depth,
        "state": record.state.value,
        "refetch_from": record.refetch_from,
        "created": record.created,
    }


def _checkpoint(core: ServiceCore, folder: Path, journal: str | None, replaced: str | None) -> int:
    count = 0

    def lines() -> Iterator[bytes]:
        nonlocal count
        head = {"robotkit-frontier-state": FORMAT, "journal": journal, "replaced": replaced}
        yield encode_line(head)
        for crawl in list(core.crawls.values()):
            for record in list(crawl.records.values()):
                yield encode_line(_line(record))
                count += 1

    folder.mkdir(parents=True, exist_ok=True)
    atomic_write(folder / FILE_NAME, lines(), trailer=False)
    return count


def save(core: ServiceCore, directory: str | os.PathLike[str]) -> int:
    """Write every URL the core holds as a checkpoint with no journal; returns how
    many."""
    return _checkpoint(core, Path(directory), None, None)


def load(core: ServiceCore, directory: str | os.PathLike[str]) -> int:
    """Read the URLs a node kept in ``directory`` (its checkpoint and the journal
    after it; nothing when there is no checkpoint); returns how many were
    restored. Raises :class:`DataError` for a foreign or damaged file."""
    folder = Path(directory)
    path = folder / FILE_NAME
    if not path.exists():
        if (folder / JOURNAL_NAME).exists():
            raise DataError(f"{folder / JOURNAL_NAME} has no checkpoint {path} (deleted?)")
        return 0
    urls: dict[_Key, dict[str, Any]] = {}
    with path.open(encoding="utf-8", errors="surrogatepass") as lines:
        head = _read(lines.readline(), path, 1)
        if not isinstance(head, dict) or head.get("robotkit-frontier-state") not in (1, FORMAT):
            raise DataError(f"{path} is not a robotkit frontier state of format {FORMAT}")
        for number, text in enumerate(lines, start=2):
            line = _read(text, path, number)
            if not isinstance(line, dict):
                raise DataError(f"{path}:{number}: not a saved URL")
            urls[(str(line.get("crawl")), str(line.get("key", line.get("url"))))] = line
    journal = head.get("journal")
    records = Journal.records(
        folder / JOURNAL_NAME, MAGIC, journal, head.get("replaced"), str(path)
    )
    for number, entry in enumerate(records, start=1):
        _replay(urls, entry, f"{folder / JOURNAL_NAME}: record {number}")
    restored = 0
    for (crawl, _), line in urls.items():
        try:
            restored += core.restore(
                crawl,
                str(line["url"]),
                str(line["queue"]),
                {str(k): [str(v) for v in vs] for k, vs in line["metadata"].items()},
                depth=int(line["depth"]),
                state=URLState(line["state"]),
                refetch_from=int(line["refetch_from"]),
                created=int(line["created"]),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise DataError(f"{path}: {line.get('url')!r} is not a saved URL ({error})") from None
    return restored


def _replay(urls: dict[_Key, dict[str, Any]], entry: Any, where: str) -> None:
    """One journal record over the URLs read so far."""
    match entry:
        case ["url", {"crawl": str(crawl), "key": str(key)} as line]:
            urls.pop((crawl, key), None)  # its latest place in the order
            urls[(crawl, key)] = line
        case ["forget", str(crawl), str(key)]:
            urls.pop((crawl, key), None)
        case ["drop", str(crawl)]:
            for gone in [k for k in urls if k[0] == crawl]:
                del urls[gone]
        case _:
            raise DataError(f"{where} is not a change of a frontier node")


def _read(text: str, path: Path, number: int) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        raise DataError(f"{path}:{number}: not JSON") from None


class NodeState:
    """The ``--state`` directory of a running node: :meth:`open` restores the core
    and journals its changes from then on (the core's
    :class:`~robotkit.service.crawls.Changes`); :meth:`close` writes the last
    checkpoint."""

    def __init__(
        self, directory: str | os.PathLike[str], *, compact_min: int = COMPACT_MIN
    ) -> None:
        self.folder = Path(directory)
        self.compact_min = compact_min
        self.journal: Journal | None = None
        self.generation = 0
        self.written = 0  # journal records since the checkpoint
        self.held = 0  # URLs in the checkpoint

    def open(self, core: ServiceCore) -> int:
        """Restore what the directory holds into ``core``, checkpoint it, and start
        journaling; returns how many URLs were restored."""
        restored = load(core, self.folder)
        self.checkpoint(core)
        core.registry.changes = self
        return restored

    def checkpoint(self, core: ServiceCore) -> None:
        """Write every URL and start a fresh journal (compaction)."""
        old = self.journal
        ident = new_journal_id()
        self.held = _checkpoint(core, self.folder, ident, None if old is None else old.ident)
        self.generation += 1
        self.journal = Journal.start(
            self.folder / JOURNAL_NAME, MAGIC, self.generation, ident, sync=False
        )
        self.written = 0
        if old is not None:
            old.close()

    def compact_if_due(self, core: ServiceCore) -> bool:
        """Checkpoint when the journal holds as many records as the checkpoint has
        URLs (and at least ``compact_min``, :data:`COMPACT_MIN` by default): the
        cost of a compaction is spread over the changes that made it due."""
        if self.written < max(self.compact_min, self.held):
            return False
        self.checkpoint(core)
        return True

    def close(self, core: ServiceCore) -> int:
        """The last checkpoint (with an empty journal); returns how many URLs."""
        if core.registry.changes is self:
            core.registry.changes = None
        self.checkpoint(core)
        assert self.journal is not None
        self.journal.close()
        return self.held

    # -- Changes ------------------------------------------------------------------

    def _write(self, entry: list[Any]) -> None:
        if self.journal is not None:
            self.journal.write(entry)
            self.written += 1

    def changed(self, record: URLRecord) -> None:
        self._write(["url", _line(record)])

    def forgotten(self, crawl: str, key: str) -> None:
        self._write(["forget", crawl, key])

    def dropped(self, crawl: str) -> None:
        self._write(["drop", crawl])
