"""A query string that grows: every link appends to the query it came from.

What it is
    Links are built by appending a parameter to the current URL's query instead of
    setting it: ``/news/2?a=1`` links to ``/news/3?a=1&a=1``, then
    ``/news/4?a=1&a=1&a=1``; a filter list appends one more ``&f=...`` per click.
    The query, and the URL, grow by one parameter per hop and never repeat.

How it arises
    Templates that do ``href="?{{ request.query_string }}&page=2"``, "refine
    search" links that add a filter without checking whether it is there,
    tracking code that appends ``&ref=`` to whatever URL it finds.

How a naive crawler falls in
    Every hop yields new, longer URLs whose pages are the same as before.

What catches it in robotkit
    ``duplicate-content``: ``/news/3?a=1`` is a copy of ``/news/3``, so its links
    are dropped, and the crawl learns that the pair ``a=1`` changes nothing on this
    site (:mod:`robotkit.url.learned`): every other URL carrying it, however often, is
    ``duplicate-url`` unfetched. Only the exact pair is learned: ``?page=1`` may be
    the list itself while ``?page=2`` is not. Behind it, on the URL alone:
    ``too-many-params`` (over 32 names) and ``url-too-long`` (over 2083
    characters).

Legitimate part: the home page, ``/list`` and six news pages, all linked without a
query. Trap part: ``/list`` and the news pages with any query.
"""

from __future__ import annotations

import re

from werkzeug import Request, Response

from robotkit.base.reasons import Reason
from robotkit.traps.base import RequestContext, TrapSite, article, not_found, request_target

NEWS = tuple(f"/news/{n}" for n in range(1, 7))
LEGIT = frozenset(["/", "/list", *NEWS])
FILTERS = ("red", "new", "sale")
_PAGE = re.compile(r"^(/list|/news/[1-6])(?:\?(.*))?$")


def grow(query: str, pair: str) -> str:
    """The bug on purpose: append, never replace."""
    return f"{query}&{pair}" if query else pair


class GrowingQuery(TrapSite):
    name = "growing-query"
    summary = "links append to the current query: ?a=1&a=1&a=1... and &f=red&f=new..."
    caught_by = (Reason.DUPLICATE_CONTENT, Reason.DUPLICATE_URL)

    legitimate_pages = LEGIT

    def is_trap(self, target: str, host: int = 0) -> bool:
        match = _PAGE.match(target)
        return match is not None and bool(match[2])

    def page(self, request: Request, ctx: RequestContext) -> Response:
        target = request_target(request)
        if target == "/":
            return article(self.name, "/", [("/list", "All news"), *((n, n) for n in NEWS)])
        match = _PAGE.match(target)
        if match is None:
            return not_found()
        path, query = match[1], match[2] or ""
        if path == "/list":
            links = [(f"/list?{grow(query, 'f=' + f)}", f"only {f}") for f in FILTERS]
            links += [(n, n) for n in NEWS]
            return article(self.name, "/list", links)
        number = int(path.rsplit("/", 1)[1])
        following = NEWS[number % len(NEWS)]
        links = [(f"{following}?{grow(query, 'a=1')}", "next story")]
        links.append((f"/list?{grow(query, 'ref=news')}", "more news"))
        return article(self.name, path, links)
