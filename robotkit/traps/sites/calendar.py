"""An infinite calendar: next month, next month, next month ...

What it is
    A calendar page per month with "previous" and "next" links. Nothing stops the
    links at the last month that has events, so the months go on forever, in the
    path (``/cal/2024/05/``) or in the query (``/events?month=2024-05``).

How it arises
    Event, booking and blog-archive plugins render any month asked for, and a
    crawler that follows "next" walks into year 3000 and beyond. Heritrix and
    Nutch documentation name calendars as the classic crawler trap.

How a naive crawler falls in
    Every month page is a new URL with a 200 answer and one more "next" link.

What catches it in robotkit
    ``duplicate-content``: empty months are near-identical pages, so their links
    are demoted to a lower tier that is abandoned after two pages in a row brought
    nothing new. Behind it: the novelty tracker parks a URL template whose last
    pages were nearly all duplicates, and the budgets ``depth-limit``
    (``--max-depth``) and ``host-budget`` when they are set.

Legitimate part: the home page, the three months that have events (in both URL
forms) and the six event pages. Trap part: every other month in either form.
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

EVENTS = {
    (2024, 4): ("/events/2024-04-12-spring-fair.html", "/events/2024-04-27-tree-planting.html"),
    (2024, 5): ("/events/2024-05-09-book-swap.html", "/events/2024-05-21-night-market.html"),
    (2024, 6): ("/events/2024-06-03-river-cleanup.html", "/events/2024-06-15-open-air-film.html"),
}
PATH_MONTH = re.compile(r"^/cal/(\d{4,})/(\d{2})/$")
QUERY_MONTH = re.compile(r"^/events\?month=(\d{4,})-(\d{2})$")


def path_url(year: int, month: int) -> str:
    return f"/cal/{year:04d}/{month:02d}/"


def query_url(year: int, month: int) -> str:
    return f"/events?month={year:04d}-{month:02d}"


def parse_month(target: str) -> tuple[int, int, bool] | None:
    """(year, month, in_path) of a calendar page, or None."""
    for pattern, in_path in ((PATH_MONTH, True), (QUERY_MONTH, False)):
        match = pattern.match(target)
        if match:
            year, month = int(match[1]), int(match[2])
            if year >= 1 and 1 <= month <= 12:
                return year, month, in_path
    return None


EVENT_PAGES = frozenset(url for pages in EVENTS.values() for url in pages)
LEGIT = frozenset(
    ["/", *EVENT_PAGES] + [path_url(*ym) for ym in EVENTS] + [query_url(*ym) for ym in EVENTS]
)


class Calendar(TrapSite):
    name = "calendar"
    summary = "an endless calendar: next month forever in /cal/2024/05/ and ?month=2024-05"
    caught_by = (Reason.DUPLICATE_CONTENT,)

    legitimate_pages = LEGIT

    def is_trap(self, target: str, host: int = 0) -> bool:
        return parse_month(target) is not None and target not in LEGIT

    def page(self, request: Request, ctx: RequestContext) -> Response:
        target = request_target(request)
        if target == "/":
            links = [(path_url(*ym), f"{ym[0]}-{ym[1]:02d}") for ym in EVENTS]
            links += [(query_url(*ym), f"events {ym[0]}-{ym[1]:02d}") for ym in EVENTS]
            return article(self.name, "/", links)
        if target in EVENT_PAGES:
            return article(self.name, target, [(path_url(2024, 5), "Calendar")])
        parsed = parse_month(target)
        if parsed is None:
            return not_found()
        year, month, in_path = parsed
        make = path_url if in_path else query_url
        events = EVENTS.get((year, month), ())
        links = [(url, url.rsplit("/", 1)[1]) for url in events]
        if (year, month) > (1, 1):
            prev = (year - 1, 12) if month == 1 else (year, month - 1)
            links.append((make(*prev), "previous month"))
        nxt = (year + 1, 1) if month == 12 else (year, month + 1)
        links.append((make(*nxt), "next month"))
        text = f"{len(events)} events this month." if events else "No events this month."
        return html_page(f"Calendar {year:04d}-{month:02d}", [text], links)
