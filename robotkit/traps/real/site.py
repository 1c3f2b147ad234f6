"""A trap site served by a real Apache httpd, scored from Apache's access log.

An :class:`ApacheSite` is a :class:`~robotkit.traps.base.TrapSite` whose pages are
a :class:`~robotkit.traps.real.tree.Tree` on disk, served by Apache
(:mod:`robotkit.traps.real.apache`). It knows its two parts from the tree:

- **legitimate**: every real file (robots.txt and what robots.txt forbids left out)
  by one canonical URL, its path with no symbolic link in it; a directory by its
  URL with the trailing slash, either as an autoindex listing or as the
  ``index.html`` it serves (``/docs/index.html`` is then ``/docs/`` again: a second
  fetch is a repeat);
- **trap**: anything reached through a symbolic link or a path-info tail (a copy of
  a real file under another URL, or a 403 deeper in a loop), a file asked for with
  a query, a column-sort variant of a listing (``?C=M;O=A``) beyond the first one
  per listing, and whatever robots.txt forbids. Everything else (robots.txt, a
  directory without its slash that mod_dir redirects, a 404) is neither.

The in-process :meth:`ApacheSite.page` answers from the tree as Apache would, files
and listings; the gauntlet uses it only to draw the site's link graph, never for a
crawl.
"""

from __future__ import annotations

import html
import mimetypes
from collections import deque
from collections.abc import Iterable, Sequence
from datetime import datetime, timezone

from werkzeug import Request, Response

from robotkit.traps.base import (
    Page,
    PageKind,
    RequestContext,
    Score,
    SeenRequest,
    TrapSite,
    not_found,
    redirect,
    target_of,
)
from robotkit.traps.real.apache import ApacheServer
from robotkit.traps.real.tree import FIXED_MTIME, Resolved, Tree
from robotkit.traps.server import RunningSite, SiteError

SORT_COLUMNS = "NMSD"
"""Name, Last modified, Size, Description: a FancyIndexing listing's sort keys."""


def sort_variant(query: str) -> bool:
    """Whether a query is an autoindex sort or display option (``C=M;O=A``)."""
    keys = {part.partition("=")[0] for part in query.replace("&", ";").split(";")}
    return bool(keys) and keys <= {"C", "O", "F", "V", "P"}


class ApacheSite(TrapSite):
    """A tree, the directives of its document root, and a robots.txt."""

    tree: Tree
    directives: tuple[str, ...] = ("Options +Indexes +FollowSymLinks", "IndexOptions FancyIndexing")
    accept_path_info: bool = False
    listed: tuple[str, ...] = ("/",)
    """Where a directory without index.html is listed (``+Indexes``): these URL
    prefixes; elsewhere it is a 403."""
    sections: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """More ``<Directory>`` sections: a folder under the root and its directives."""
    disallow: tuple[str, ...] = ()
    """robots.txt's ``Disallow`` prefixes for every robot."""
    caught_by = ()

    def __init__(self) -> None:
        legit = set()
        for path in self.tree.files:
            target = "/" + path
            if target == "/robots.txt" or self._forbidden(target):
                continue
            directory, _, name = target.rpartition("/")
            legit.add(f"{directory}/" if name == "index.html" else target)
        for path in self.tree.dirs:
            target = f"/{path}/" if path else "/"
            if not self._forbidden(target) and self.is_listed(target):
                legit.add(target)
        self.legitimate_pages = frozenset(legit)

    @property
    def robots_text(self) -> str:
        return "User-agent: *\n" + "".join(f"Disallow: {p}\n" for p in self.disallow)

    def is_listed(self, directory: str) -> bool:
        """Whether Apache lists this directory (real, with a trailing slash) when it
        has no index.html."""
        return any(directory.startswith(prefix) for prefix in self.listed)

    def _forbidden(self, target: str) -> bool:
        return any(target.startswith(prefix) for prefix in self.disallow)

    def resolve(self, target: str) -> Resolved:
        return self.tree.resolve(target.partition("?")[0], path_info=self.accept_path_info)

    def has_index(self, resolved: Resolved) -> bool:
        return resolved.is_dir and f"{resolved.real.strip('/')}/index.html".lstrip("/") in (
            self.tree.files
        )

    def classify(self, target: str, host: int = 0) -> Page:
        target = target_of(target)
        path, _, query = target.partition("?")
        if path == "/robots.txt":
            return Page(PageKind.OTHER, target)
        if self.robots_forbids(target, host):
            return Page(PageKind.TRAP, target)
        resolved = self.resolve(path)
        if resolved.via_link or resolved.path_info:
            return Page(PageKind.TRAP, target)
        if not resolved.found or resolved.slash_missing:
            return Page(PageKind.OTHER, target)
        if resolved.is_dir and not self.has_index(resolved) and not self.is_listed(resolved.real):
            return Page(PageKind.OTHER, target)  # 403: no index.html, no listing
        key = resolved.real
        if key.endswith("/index.html"):
            key = key.removesuffix("index.html")
        if query:
            return Page(PageKind.TRAP, target)
        return Page(PageKind.LEGITIMATE, key)

    def is_trap(self, target: str, host: int = 0) -> bool:
        return self.classify(target, host).kind is PageKind.TRAP

    def robots_forbids(self, target: str, host: int = 0) -> bool:
        return self._forbidden(target_of(target))

    def listing_of(self, target: str) -> str | None:
        """The real listing a sort variant of a listing reached without a link
        sorts (``/docs/?C=M;O=A`` is ``/docs/``), else None."""
        path, _, query = target_of(target).partition("?")
        if not query or not sort_variant(query):
            return None
        resolved = self.resolve(path)
        if not resolved.found or resolved.via_link or resolved.slash_missing:
            return None
        if not resolved.is_dir or self.has_index(resolved) or not self.is_listed(resolved.real):
            return None
        return resolved.real

    def score(self, fetched: Iterable[tuple[int, str]]) -> Score:
        """As every site scores, except that the first sort variant fetched of each
        real listing is free (neither legitimate nor trap)."""
        sorted_once: set[str] = set()
        counted = []
        free = 0
        for host, target in fetched:
            listing = self.listing_of(target)
            if listing is not None and listing not in sorted_once:
                sorted_once.add(listing)
                free += 1
                continue
            counted.append((host, target))
        score = super().score(counted)
        return Score(
            legit_found=score.legit_found,
            legit_total=score.legit_total,
            trap_fetched=score.trap_fetched,
            repeats=score.repeats,
            other=score.other + free,
            missing=score.missing,
            trap_targets=score.trap_targets,
            robots_violations=score.robots_violations,
        )

    # ------------------------------------------------------------ serving

    def start_server(self, host: str, port: int, log_limit: int | None) -> RunningSite | None:
        if port:
            raise SiteError(f"{self.name} is served by Apache on a free port: give no port")
        directives = [*self.directives, "DirectoryIndex index.html"]
        directives.append(f"AcceptPathInfo {'On' if self.accept_path_info else 'Off'}")
        tree = Tree(
            {
                **self.tree.files,
                **self.tree.links,
                **{f"{d}/": None for d in self.tree.dirs if d},
                "robots.txt": self.robots_text.encode(),
            }
        )
        server = ApacheServer(tree, directives, host, sections=self.sections)
        running = ApacheRunningSite(self, server, log_limit)
        server.start()
        running.base_urls = (server.base_url,)
        return running

    def page(self, request: Request, ctx: RequestContext) -> Response:
        """The tree's answer as Apache gives it (files, index.html, listings), for
        the link graph of a report; a crawl always meets the real Apache."""
        target = target_of(request.full_path)
        resolved = self.resolve(target)
        if not resolved.found:
            return not_found()
        if resolved.slash_missing:
            return redirect(ctx.url(target.partition("?")[0] + "/"), 301)
        if not resolved.is_dir:
            data = self.tree.files[resolved.real.lstrip("/")]
            kind = mimetypes.guess_type(resolved.real)[0] or "application/octet-stream"
            return Response(data, mimetype=kind)
        if self.has_index(resolved):
            data = self.tree.files[(resolved.real + "index.html").lstrip("/")]
            return Response(data, mimetype="text/html")
        if not self.is_listed(resolved.real):
            return Response("Forbidden", 403, mimetype="text/plain")
        return Response(self.listing(resolved.real), mimetype="text/html")

    def robots_txt(self, request: Request, ctx: RequestContext) -> Response:
        return Response(self.robots_text, mimetype="text/plain")

    def listing(self, directory: str) -> str:
        """An autoindex FancyIndexing listing's links (the layout approximated)."""
        stamp = datetime.fromtimestamp(FIXED_MTIME, timezone.utc).strftime("%Y-%m-%d %H:%M")
        rows = [f'<a href="?C={c};O={"D" if c == "N" else "A"}">{c}</a>' for c in SORT_COLUMNS]
        if directory != "/":
            parent = directory.rstrip("/").rpartition("/")[0] + "/"
            rows.append(f'<a href="{html.escape(parent)}">Parent Directory</a>')
        relative = directory.strip("/")
        for name in self.tree.children(relative):
            path = f"{relative}/{name}".lstrip("/")
            resolved = self.tree.resolve("/" + path + "/")
            slash = "/" if path in self.tree.dirs or (resolved.found and resolved.is_dir) else ""
            rows.append(f'<a href="{html.escape(name)}{slash}">{html.escape(name)}</a> {stamp}')
        title = f"Index of {html.escape(directory.rstrip('/') or '/')}"
        return f"<html><head><title>{title}</title></head><body><h1>{title}</h1><pre>" + (
            "\n".join(rows) + "</pre></body></html>\n"
        )


class ApacheRunningSite(RunningSite):
    """A site served by Apache: :attr:`requests_seen` comes from its access log."""

    def __init__(self, site: ApacheSite, server: ApacheServer, log_limit: int | None) -> None:
        super().__init__(site=site, base_urls=(), requests_seen=deque(maxlen=log_limit))
        self.server = server
        server.on_lines = self._seen

    def _seen(self, entries: Sequence[tuple[SeenRequest, int]]) -> None:
        for seen, status in entries:
            self.requests_seen.append(seen)
            if self.on_request is not None:
                self.on_request(seen, status)

    def settle(self) -> None:
        """Stop Apache gracefully and read its access log to the end."""
        self.stopping.set()
        self.server.stop()

    def stop(self) -> None:
        self.settle()
