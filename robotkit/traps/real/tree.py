"""A document tree as a real server serves it, and how a request target reads in it.

A :class:`Tree` is files, directories and symbolic links by relative path, written
to disk with fixed modification times (an autoindex listing shows them, and a
listing must be the same bytes from run to run). :meth:`Tree.resolve` walks a URL
path through it the way Apache does with ``Options FollowSymLinks``: a link is
followed (more than :data:`MAX_SYMLINKS` fail, as Linux's ``ELOOP``), and with
``AcceptPathInfo On`` a file followed by more segments is that file. Scoring needs
the result: which real file or directory a request reached, and whether it got
there through a link or a path-info tail (a copy under another URL).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

FIXED_MTIME = 1_710_408_360.0
"""2024-03-14 09:26 UTC: every file's, directory's and link's modification time."""

MAX_SYMLINKS = 40
"""Links Linux follows in one path before ``ELOOP`` (Apache then answers 403)."""


@dataclass(frozen=True)
class Link:
    """A symbolic link. ``target`` is written as given when relative (``../..``,
    ``.``); an absolute one (``/``, ``/docs``) names a path under the document root
    and is written as that absolute path on disk."""

    target: str


Entry = bytes | Link


@dataclass(frozen=True)
class Resolved:
    """Where a URL path lands in a tree."""

    real: str
    """The real file or directory reached, as a canonical URL path (``/a/b.html``,
    ``/a/``), or the path where the walk failed."""
    found: bool
    """The path names something the server would send (else a 403 or 404)."""
    is_dir: bool = False
    via_link: bool = False
    """A symbolic link was followed on the way."""
    path_info: bool = False
    """Segments were left after a file (served as that file by ``AcceptPathInfo``)."""
    slash_missing: bool = False
    """A directory asked for without its trailing slash (mod_dir redirects)."""


class Tree:
    """Files (bytes), symbolic links and directories by relative path (``a/b.html``;
    directories are the parents of entries, or named with a trailing ``/``)."""

    def __init__(self, entries: Mapping[str, Entry | None]) -> None:
        self.files: dict[str, bytes] = {}
        self.links: dict[str, Link] = {}
        self.dirs: set[str] = {""}
        for path, entry in entries.items():
            clean = path.strip("/")
            if path.endswith("/") or entry is None:
                self._add_dir(clean)
                continue
            self._add_dir(clean.rpartition("/")[0])
            if isinstance(entry, Link):
                self.links[clean] = entry
            else:
                self.files[clean] = entry

    def _add_dir(self, path: str) -> None:
        while path not in self.dirs:
            self.dirs.add(path)
            path = path.rpartition("/")[0]

    def children(self, directory: str) -> list[str]:
        """Names directly in ``directory`` (relative path, ``""`` for the root)."""
        prefix = f"{directory}/" if directory else ""
        names = {
            p[len(prefix) :].partition("/")[0]
            for p in (*self.files, *self.links, *self.dirs)
            if p.startswith(prefix) and p != directory
        }
        return sorted(names)

    def write(self, root: Path) -> None:
        """Create the tree under ``root``, every mtime :data:`FIXED_MTIME`."""
        for directory in sorted(self.dirs):
            (root / directory).mkdir(parents=True, exist_ok=True)
        for path, data in self.files.items():
            (root / path).write_bytes(data)
        for path, link in self.links.items():
            target = link.target
            if target.startswith("/"):
                target = str(root / target.lstrip("/"))
            os.symlink(target, root / path)
        stamp = (FIXED_MTIME, FIXED_MTIME)
        for path in (*self.files, *self.links):
            os.utime(root / path, stamp, follow_symlinks=False)
        for directory in sorted(self.dirs, key=len, reverse=True):
            os.utime(root / directory, stamp)

    def resolve(self, path: str, *, path_info: bool = False) -> Resolved:
        """Walk the URL path ``path`` (no query) as the server would."""
        segments = [unquote(s) for s in path.split("/")[1:]]
        trailing = path.endswith("/")
        pending = [s for s in segments if s]
        where: list[str] = []
        via_link = False
        hops = 0
        while pending:
            name = pending.pop(0)
            here = "/".join([*where, name])
            if name in (".", ".."):
                return Resolved("/" + here, found=False, via_link=via_link)
            if here in self.dirs:
                where.append(name)
            elif here in self.files:
                real = "/" + here
                if pending or trailing:
                    return Resolved(real, found=path_info, via_link=via_link, path_info=True)
                return Resolved(real, found=True, via_link=via_link)
            elif here in self.links:
                via_link = True
                hops += 1
                if hops > MAX_SYMLINKS:
                    return Resolved("/" + here, found=False, via_link=True)
                pending[:0] = [s for s in self._link_target(where, self.links[here]) if s]
                where = []
            else:
                return Resolved("/" + here, found=False, via_link=via_link)
        real = "/" + "/".join(where) + ("/" if where else "")
        return Resolved(
            real, found=True, is_dir=True, via_link=via_link, slash_missing=not trailing
        )

    @staticmethod
    def _link_target(where: list[str], link: Link) -> Iterator[str]:
        """The link's target as segments from the root (``..`` applied)."""
        parts: list[str] = [] if link.target.startswith("/") else list(where)
        for segment in link.target.split("/"):
            if segment == "..":
                if parts:
                    parts.pop()
            elif segment not in ("", "."):
                parts.append(segment)
        yield from parts
