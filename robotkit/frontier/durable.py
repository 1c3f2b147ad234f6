"""Files that survive a kill: atomic replacement and checksummed journals.

Two tools, shared by the frontier's checkpoints and the crawl state:

* :func:`atomic_write` replaces a file so that after a crash (SIGKILL or power
  loss) it holds either the old or the new content, never a part of one.
* :class:`Journal` is an append-only log that continues one checkpoint. Every
  record carries its own CRC-32, so a changed digit is caught, not replayed. Only
  the text after the last newline can be a record cut short by a kill; it is
  dropped. A damaged record before that is an error: what followed it would be
  replayed on a wrong state.

A journal names the checkpoint it continues by a random id, stored in both
files. A checkpoint also names the journal it replaces: a process killed between
writing a checkpoint and starting its journal leaves that older journal, whose
records are already inside the checkpoint. Any other journal (deleted, copied
from another crawl) is reported, never silently ignored.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import tempfile
import zlib
from collections.abc import Iterable
from hashlib import sha256
from typing import Any, BinaryIO, Final

from robotkit.base.errors import DataError

__all__ = [
    "CheckpointError",
    "Journal",
    "atomic_write",
    "encode_line",
    "new_journal_id",
    "verified",
]


class CheckpointError(DataError):
    """A checkpoint or journal that cannot be restored (truncated, corrupt, wrong
    version, or a journal that does not belong to its checkpoint)."""


# One encoder for every line: json.dumps builds a new one per call when given options.
_JSON: Final = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def _compact(value: Any) -> bytes:
    return _JSON.encode(value).encode("utf-8", "surrogatepass")


def encode_line(value: Any) -> bytes:
    """``value`` as one line of compact JSON (UTF-8; lone surrogates kept)."""
    return _compact(value) + b"\n"


def new_journal_id() -> str:
    """A fresh id tying a journal to its checkpoint."""
    return secrets.token_hex(8)


# -- atomic replacement -------------------------------------------------------------

TRAILER: Final = b"\nsha256 "
TRAILER_LEN: Final = len(TRAILER) + 64 + 1


def verified(data: bytes) -> bytes:
    """The body of a file :func:`atomic_write` wrote with a trailer, after checking
    its SHA-256: a torn or truncated file is refused instead of restored in part."""
    body, trailer = data[:-TRAILER_LEN], data[-TRAILER_LEN:]
    if len(data) < TRAILER_LEN or not trailer.startswith(TRAILER) or not trailer.endswith(b"\n"):
        raise CheckpointError("checkpoint has no trailer (truncated?)")
    if sha256(body).hexdigest().encode() != trailer[len(TRAILER) : -1]:
        raise CheckpointError("checkpoint checksum mismatch (corrupt or truncated)")
    return body


def _remove_stale_temporaries(directory: str, name: str) -> None:
    """Remove what an earlier write of ``name`` left when it was killed between
    creating its temporary file and renaming it: exactly the names
    :func:`tempfile.mkstemp` makes for it (``name.`` + 8 characters + ``.tmp``), so
    the temporary files of other files in the directory are left alone. One
    process writes a given path at a time."""
    stale = re.compile(re.escape(name) + r"\.[a-z0-9_]{8}\.tmp")
    with contextlib.suppress(OSError):
        for entry in os.scandir(directory):
            if stale.fullmatch(entry.name):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(entry.path)


def atomic_write(
    path: str | os.PathLike[str], chunks: Iterable[bytes], *, trailer: bool = True
) -> None:
    """Write-temp, fsync, rename, fsync-directory: the POSIX recipe for replacing a
    file so that a crash leaves the old or the new file whole. ``trailer`` appends
    a SHA-256 line that :func:`verified` checks."""
    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    _remove_stale_temporaries(directory, os.path.basename(path))
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=os.path.basename(path) + ".", suffix=".tmp")
    try:
        digest = sha256()
        with os.fdopen(fd, "wb") as f:
            for chunk in chunks:
                digest.update(chunk)
                f.write(chunk)
            if trailer:
                f.write(TRAILER + digest.hexdigest().encode() + b"\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    dir_fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


# -- journals -------------------------------------------------------------------------

JOURNAL_VERSION: Final = 3  # 3: the frontier's typed events (robotkit.frontier.store)


def _record_line(record: Any) -> bytes:
    body = _compact(record)
    return b"%08x " % zlib.crc32(body) + body + b"\n"


class Journal:
    """An open journal: ``<magic> <version> <generation> <id>`` on the first line,
    then one ``<crc32 hex> <json>`` line per record. Each record is flushed to the
    operating system before :meth:`write` returns, so a killed process loses
    nothing it recorded; ``sync=True`` also fsyncs each one (power loss)."""

    def __init__(self, path: str, ident: str, file: BinaryIO, sync: bool) -> None:
        self.path = path
        self.ident = ident
        self.file: BinaryIO | None = file
        self.sync = sync

    @classmethod
    def start(
        cls, path: str | os.PathLike[str], magic: bytes, generation: int, ident: str, sync: bool
    ) -> Journal:
        """A fresh, empty journal at ``path``, swapped in atomically."""
        path = os.path.abspath(os.fspath(path))
        head = b"%s %d %d %s\n" % (magic, JOURNAL_VERSION, generation, ident.encode())
        atomic_write(path, [head], trailer=False)
        return cls(path, ident, open(path, "ab"), sync)

    def write(self, record: Any) -> None:
        if self.file is None:
            return
        self.file.write(_record_line(record))
        self.file.flush()
        if self.sync:
            os.fsync(self.file.fileno())

    def close(self) -> None:
        if self.file is not None:
            self.file.close()
            self.file = None

    @staticmethod
    def records(
        path: str | os.PathLike[str],
        magic: bytes,
        ident: str | None,
        replaced: str | None,
        checkpoint: str,
    ) -> list[Any]:
        """The records of the journal at ``path`` that continues the checkpoint
        named ``checkpoint`` (whose journal id is ``ident``; None: it has no
        journal). A journal with the id ``replaced`` is the one that checkpoint
        already holds: no records. Raises :class:`CheckpointError` for a missing,
        foreign or damaged journal."""
        path = os.fspath(path)
        if ident is None:
            return []
        try:
            with open(path, "rb") as f:
                data = f.read()
        except FileNotFoundError:
            raise CheckpointError(
                f"journal {path} is missing: the changes since checkpoint {checkpoint} "
                "are lost (deleted?)"
            ) from None
        except OSError as exc:
            raise CheckpointError(f"cannot read journal {path}: {exc.strerror}") from None
        lines = data.split(b"\n")
        head = lines[0].split(b" ")
        if len(head) != 4 or head[0] != magic:
            raise CheckpointError(f"not a journal of this kind: {path}")
        if head[1] != b"%d" % JOURNAL_VERSION:
            version = head[1].decode("ascii", "replace")
            raise CheckpointError(
                f"journal {path} has format version {version} "
                f"(this robotkit reads {JOURNAL_VERSION})"
            )
        found = head[3].decode("ascii", "replace")
        if found == replaced and found != ident:
            return []  # killed before the new journal started: all inside the checkpoint
        if found != ident:
            raise CheckpointError(
                f"journal {path} does not belong to checkpoint {checkpoint} "
                f"(journal {found}, expected {ident})"
            )
        records = []
        # The part after the last newline is a record cut short by a kill, or empty.
        for number, line in enumerate(lines[1:-1], start=1):
            crc, _, body = line.partition(b" ")
            try:
                ok = len(crc) == 8 and int(crc, 16) == zlib.crc32(body)
                record = json.loads(body) if ok else None
            except ValueError:
                ok = False
            if not ok:
                raise CheckpointError(f"journal {path}: record {number} is corrupt (checksum)")
            records.append(record)
        return records
