"""Endless pagination: there is always a "next page".

What it is
    A list split into pages, ``/list?page=1`` to ``?page=5`` with real items; past
    the last one the server still answers 200 with an empty list ("No more
    results") and, of course, a link to the next page.

How it arises
    Pagination templates that render "next" without checking the total, search
    result pages that accept any offset, infinite-scroll fallbacks for crawlers.

How a naive crawler falls in
    It follows ``page=6``, ``page=7``, ... each a new URL and a 200, forever.

What catches it in robotkit
    ``duplicate-content``: every page past the end is the same empty list. List
    pages look alike, so their "next" links wait in a lower tier that is served
    once everything else is done and abandoned after two pages in a row brought
    nothing new: pages 1 to 5 are still fetched, as their items are new. Behind
    it: the novelty tracker, and ``depth-limit`` when ``--max-depth`` is set.

Legitimate part: the home page, pages 1 to 5 of the list and the ten items they
show. Trap part: ``/list?page=N`` for any other N (also 0 and negatives).
"""

from __future__ import annotations

import re

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

REAL_PAGES = 5
PER_PAGE = 2
ITEMS = tuple(f"/item/{n}" for n in range(1, REAL_PAGES * PER_PAGE + 1))
LIST_PAGES = tuple(f"/list?page={n}" for n in range(1, REAL_PAGES + 1))
LEGIT = frozenset(["/", *LIST_PAGES, *ITEMS])
_LIST = re.compile(r"^/list\?page=(-?\d+)$")


class Pagination(TrapSite):
    name = "pagination"
    summary = "?page=N always has a next link; past page 5 the pages are empty"
    caught_by = (Reason.DUPLICATE_CONTENT,)

    legitimate_pages = LEGIT

    def is_trap(self, target: str, host: int = 0) -> bool:
        return _LIST.match(target) is not None and target not in LEGIT

    def page(self, request: Request, ctx: RequestContext) -> Response:
        target = request_target(request)
        if target == "/":
            return article(self.name, "/", [(LIST_PAGES[0], "Browse the list")])
        if target in ITEMS:
            return article(self.name, target, [(LIST_PAGES[0], "List")])
        match = _LIST.match(target)
        if match is None:
            return not_found()
        number = int(match[1])
        first = (number - 1) * PER_PAGE
        shown = ITEMS[first : first + PER_PAGE] if 1 <= number <= REAL_PAGES else ()
        links = [(item, f"Item {item.rsplit('/', 1)[1]}") for item in shown]
        if number > 1:
            links.append((f"/list?page={number - 1}", "previous"))
        links.append((f"/list?page={number + 1}", "next"))
        text = f"Items {first + 1} to {first + len(shown)}." if shown else "No more results."
        return html_page(f"List, page {number}", [text], links)
