"""A report's "previous period" (``robotkit.triage.entries``): a statistics report of a
month addresses it by its first day (Matomo's ``period=month&date=2026-10-01``), and its
real months lie in the past, each reached from the one after it. In a parked query space
the month before is a next page all the same (blind12 ``matomo``: each site's July to
October overviews, held with the segments that parked the dashboard); a month view's
month before (``month=2027-01``, an availability calendar's past) is not. The crawl
driver of ``tests/test_triage.py``."""

from __future__ import annotations

from robotkit.triage.entries import next_pages
from tests.test_triage import SITE, Crawl, html
from tests.test_triage_entries import prose

SEGMENTS = [f"segment=s{k}" for k in range(10)]
REAL = ("2026-07-01", "2026-08-01", "2026-09-01", "2026-10-01", "2026-11-01")


def previous(date: str) -> str:
    """The first day of the month before ``date``'s."""
    year, month = int(date[:4]), int(date[5:7])
    year, month = (year - 1, 12) if month == 1 else (year, month - 1)
    return f"{year:04d}-{month:02d}-01"


def dashboard(url: str) -> tuple[str, list[str]]:
    """A site's statistics: the home page links November's overview, each month's
    links ten segments of itself and its "previous period" (the month before, without
    end); July to November have visits, the months before say "no data". A segment
    says nothing new and links two segments more of itself."""
    base = f"{SITE}/index.php?idSite=1&period=month&date="
    if not url.startswith(base):
        return html("Statistics", "the town's web statistics", [base + REAL[-1]]), [base + REAL[-1]]
    date, _, rest = url[len(base) :].partition("&")
    if rest:
        more = [f"{url}&x=1", f"{url}&x=2"]
        return html("Segment", f"visits of a segment {sum(map(ord, rest))}", more), more
    links = [f"{url}&{s}" for s in SEGMENTS] + [base + previous(date)]
    text = (
        prose("v" + "abcdefghijklm"[int(date[5:7])]) if date in REAL else "no data for this period"
    )
    return html("Visits overview", text, links), links


def test_a_reports_previous_period_is_let_into_a_parked_dashboard() -> None:
    """The segments park the dashboard before the arrows are read: July to October,
    each only along "previous period", are still fetched; the arrow stops after the
    second month without data (a copy of the first: no news), and no segment's month
    is fetched."""
    crawl = Crawl()
    crawl.run(dashboard, f"{SITE}/", budget=300)
    base = f"{SITE}/index.php?idSite=1&period=month&date="
    assert f"{SITE}/index.php?" in crawl.triage.regions.parked
    assert all(base + date in crawl.fetched for date in REAL)
    assert base + "2026-04-01" not in crawl.fetched
    assert not any("segment=" in url and "2026-11-01" not in url for url in crawl.fetched)


def test_the_month_before_is_a_next_page_of_a_period_not_of_a_month_view() -> None:
    """:func:`next_pages`: of ``date=2026-10-01``, the months before and after are
    next pages, the year before and a day (``2026-09-30``) are not; of
    ``month=2027-02`` only the month after is."""
    crawl = Crawl()
    page = crawl.triage.normalize(f"{SITE}/stats?period=month&date=2026-10-01")
    links = [
        crawl.triage.normalize(f"{SITE}/stats?period=month&date={d}")
        for d in ("2026-09-01", "2026-11-01", "2025-10-01", "2026-09-30")
    ]
    assert next_pages(page, links) == links[:2]
    view = crawl.triage.normalize(f"{SITE}/availability?month=2027-02")
    months = [
        crawl.triage.normalize(f"{SITE}/availability?month={m}") for m in ("2027-01", "2027-03")
    ]
    assert next_pages(view, months) == months[1:]
