"""Symlink loops: a directory that contains itself.

What it is
    On a file server, a symbolic link that points at one of its own ancestors makes
    the directory tree infinite: ``loop/a -> .`` turns ``/files/loop/`` into
    ``/files/loop/a/``, ``/files/loop/a/a/``, ``/files/loop/a/a/a/`` ... (period 1);
    ``loop/a/b -> ..`` repeats two segments (``a/b/a/b/``, period 2) and
    ``loop/a/b/c -> ../..`` three (``a/b/c/a/b/c/``, period 3).

How it arises
    Apache or nginx with directory listings (``Options Indexes``,
    ``autoindex on``) and ``FollowSymLinks`` serving a tree where someone linked
    a folder into itself (a "current" link, a backup of a parent). The same shape
    appears without a trailing slash on CMSs that serve a "folder" page at
    ``/pages/loop/a`` and write absolute links to its children.

How a naive crawler falls in
    Every listing links to the next level down, each level is a "new" URL, and the
    server happily answers 200 with a listing; a breadth-first crawler never runs
    out of URLs.

What catches it in robotkit
    ``duplicate-content``, in the demo: every level lists the same entries, and the
    crawler's fingerprint leaves out the words that only echo the page's own URL
    (``Index of /files/loop/a/a/``), so the second level of the loop is a copy of
    the first and its links are dropped: two trap levels per tree are fetched.
    Each repeated level and the level it repeats (``/files/loop/a/`` and
    ``/files/loop/`` for period 1) are listings with one text under one path
    rewrite; two such pairs prove a directory alias (:mod:`robotkit.url.substitution`,
    DUST's path substitution), and every URL still queued under the alias is keyed
    on the real directory and skipped as ``duplicate-url``.
    Behind it, on the URL alone, ``repeated-path`` refuses a run of segments
    repeated three times (``a/a/a``, ``a/b/a/b/a/b``) and ``path-too-deep`` more
    than 20 segments, so the loop ends even on a server whose levels all differ.

Legitimate part: the home page, four documentation pages, the ``/files/`` listing
with two files, and the real levels of the loop directory before the first
repetition (``/files/loop/`` and, for periods 2 and 3, ``a/`` and ``a/b/``), in
both trees. Trap part: every deeper level.
"""

from __future__ import annotations

from werkzeug import Request, Response

from robotkit.base.reasons import Reason
from robotkit.traps.base import (
    RequestContext,
    TrapSite,
    article,
    html_page,
    not_found,
    request_target,
)

SEGMENTS = ("a", "b", "c")
DOCS = ("/docs/install.html", "/docs/usage.html", "/docs/faq.html", "/docs/changes.html")
FILES = ("/files/readme.txt", "/files/notes.txt")
SLASH_ROOT = "/files/loop/"
NOSLASH_ROOT = "/pages/loop"


class SymlinkLoop(TrapSite):
    caught_by = (Reason.DUPLICATE_CONTENT, Reason.DUPLICATE_URL)

    def __init__(self, period: int = 1) -> None:
        if period not in (1, 2, 3):
            raise ValueError("period must be 1, 2 or 3")
        self.period = period
        self.name = f"symlink-loop-{period}"
        cycle = "/".join(SEGMENTS[:period])
        self.summary = (
            f"a directory symlinked into itself, period {period}: "
            f"/files/loop/{cycle}/{cycle}/..., also without trailing slash"
        )
        real_slash = [SLASH_ROOT + "".join(s + "/" for s in SEGMENTS[:n]) for n in range(period)]
        real_noslash = [
            NOSLASH_ROOT + "".join("/" + s for s in SEGMENTS[:n]) for n in range(period)
        ]
        self.legitimate_pages = frozenset(
            ["/", *DOCS, "/files/", *FILES, *real_slash, *real_noslash]
        )

    def _depth(self, target: str) -> int | None:
        """Levels below the loop root when ``target`` is inside the loop, else None.
        Every level's segment follows the cycle a, b, c, a, ..."""
        if target.startswith(SLASH_ROOT):
            rest = target[len(SLASH_ROOT) :]
            if rest and not rest.endswith("/"):
                return None
            segments = rest.strip("/").split("/") if rest else []
        elif target == NOSLASH_ROOT or target.startswith(NOSLASH_ROOT + "/"):
            rest = target[len(NOSLASH_ROOT) :]
            segments = rest.split("/")[1:] if rest else []
        else:
            return None
        expected = [SEGMENTS[i % self.period] for i in range(len(segments))]
        return len(segments) if segments == expected else None

    def is_trap(self, target: str, host: int = 0) -> bool:
        depth = self._depth(target)
        return depth is not None and depth >= self.period

    def page(self, request: Request, ctx: RequestContext) -> Response:
        target = request_target(request)
        if target == "/":
            links = [(d, d) for d in DOCS] + [("/files/", "Files"), (NOSLASH_ROOT, "Pages")]
            return article(self.name, "/", links)
        if target in DOCS or target in FILES:
            return article(self.name, target)
        if target == "/files/":
            return html_page(
                "Index of /files/",
                [],
                [(f.rsplit("/", 1)[1], f) for f in FILES] + [("loop/", "loop/")],
            )
        depth = self._depth(target)
        if depth is None:
            return not_found()
        child = SEGMENTS[depth % self.period]
        if target.startswith(SLASH_ROOT):
            # An autoindex listing: relative links, directories end in a slash.
            return html_page(
                f"Index of {target}", [], [("../", "Parent Directory"), (child + "/", child + "/")]
            )
        # A folder page without trailing slash: absolute links to its children.
        return html_page(f"Folder {target}", [], [(f"{target}/{child}", child)])
