"""A service node's URLs kept across restarts (``robotkit frontier serve --state DIR``).

At a clean stop (SIGINT, SIGTERM) the node writes every URL of every crawl (queued,
out, waiting for a refetch date, done; not the refused ones) to ``DIR/urls.jsonl``,
one JSON object per line, through a temporary file renamed over the old one (with
an fsync before the rename), so a stop never leaves half a file. At start it reads
the file back: a URL that was out is queued again, its fetch unreported.

What is not kept: the refused URLs, the pacing and robots.txt state (learned again:
robots.txt is fetched again once per origin), queue settings (delay, block, limit),
and, for a node killed without a clean stop, what changed since its start.
A file of another format or a damaged line is refused (:class:`DataError`), never
half read.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from robotkit.base.errors import DataError
from robotkit.service.core import ServiceCore, URLState

__all__ = ["FILE_NAME", "FORMAT", "load", "save"]

FILE_NAME = "urls.jsonl"
FORMAT = 1
"""The first line of the file: ``{"robotkit-frontier-state": 1}``."""


def save(core: ServiceCore, directory: str | os.PathLike[str]) -> int:
    """Write every URL the core holds; returns how many."""
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / FILE_NAME
    temporary = folder / (FILE_NAME + ".tmp")
    count = 0
    with temporary.open("w", encoding="utf-8") as out:
        out.write(json.dumps({"robotkit-frontier-state": FORMAT}) + "\n")
        for name, crawl in core.crawls.items():
            for record in crawl.records.values():
                line = {
                    "crawl": name,
                    "url": record.url,
                    "queue": record.queue.key,
                    "metadata": {k: list(v) for k, v in record.metadata.items()},
                    "depth": record.depth,
                    "state": record.state.value,
                    "refetch_from": record.refetch_from,
                    "created": record.created,
                }
                out.write(json.dumps(line, ensure_ascii=False) + "\n")
                count += 1
        out.flush()
        os.fsync(out.fileno())
    os.replace(temporary, target)
    return count


def load(core: ServiceCore, directory: str | os.PathLike[str]) -> int:
    """Read the URLs a node saved in ``directory`` (nothing when there is no file);
    returns how many were restored. Raises :class:`DataError` for a foreign or
    damaged file."""
    path = Path(directory) / FILE_NAME
    if not path.exists():
        return 0
    restored = 0
    with path.open(encoding="utf-8") as lines:
        head = lines.readline()
        if _read(head, path, 1) != {"robotkit-frontier-state": FORMAT}:
            raise DataError(f"{path} is not a robotkit frontier state of format {FORMAT}")
        for number, text in enumerate(lines, start=2):
            line = _read(text, path, number)
            try:
                restored += core.restore(
                    str(line["crawl"]),
                    str(line["url"]),
                    str(line["queue"]),
                    {str(k): [str(v) for v in vs] for k, vs in line["metadata"].items()},
                    depth=int(line["depth"]),
                    state=URLState(line["state"]),
                    refetch_from=int(line["refetch_from"]),
                    created=int(line["created"]),
                )
            except (KeyError, TypeError, ValueError, AttributeError) as error:
                raise DataError(f"{path}:{number}: not a saved URL ({error})") from None
    return restored


def _read(text: str, path: Path, number: int) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        raise DataError(f"{path}:{number}: not JSON") from None
