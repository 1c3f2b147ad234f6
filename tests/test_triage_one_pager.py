"""A thread's next page, named by a page with one pager, waits on the waste bound only
by its own pages, parked space or not (``robotkit.triage.entries.one_pager``,
``Entries.paged``, ``robotkit.triage.regions.Regions.admitted``): a forum's post
permalinks (``showthread.php?tid=1&pid=100``), copies of their thread, make the
threads' family barren while the host's budget is spent, and a thread's second page
is its own page, not a copy (blind11 ``mybb``: three threads' ``&page=2`` held by
``waste-budget``). A select numbered like a pager (a filter's ``ms=1`` and ``ms=2``)
is no pager: its values wait as before. The pure core, driven by
``tests/test_triage.py``'s crawl."""

from __future__ import annotations

from robotkit.triage.entries import next_pages, one_pager
from robotkit.triage.screening import TriageConfig
from robotkit.triage.triage import Triage
from robotkit.url.normalization import normalize
from tests.test_triage import SITE, Crawl, html
from tests.test_triage_next_page_waits_on_no_family import spend

THREAD = f"{SITE}/showthread.php?tid=1"
NEXT = f"{THREAD}&page=2"


def prose(seed: str) -> str:
    """Thirty words of a page's own."""
    return " ".join(f"{seed}w{i}" for i in range(30))


def spent_and_barren(links: list[str]) -> Triage:
    """A triage that read a forum's thread (linked by its forum, linking ``links``),
    then three permalinks of other threads, copies, that made the threads' family
    barren, while its host spent its budget of 1 on a fetch nothing vouched for."""
    crawl = Crawl(Triage(config=TriageConfig(waste_budget=1)))
    forum = f"{SITE}/forumdisplay.php?fid=1"
    crawl.offer(f"{SITE}/")
    crawl.fetch(f"{SITE}/", html("Forum", prose("home"), [forum]), [forum])
    threads = [THREAD, f"{SITE}/showthread.php?tid=2"]
    crawl.fetch(forum, html("Workshop", prose("forum"), threads), threads, f"{SITE}/")
    crawl.fetch(THREAD, html("Boilers", prose("thread"), links), links, forum)
    spend(crawl.triage, [f"{SITE}/showthread.php?tid=2&pid={pid}" for pid in (200, 201, 202)])
    return crawl.triage


def test_a_thread_s_next_page_does_not_wait_on_its_barren_family() -> None:
    """``&page=2``, the thread's "Next", is not held; a page of the family its thread
    did not name (another thread's ``&page=2``) is."""
    triage = spent_and_barren([NEXT, f"{THREAD}&pid=100", f"{THREAD}&pid=101"])
    other = normalize(f"{SITE}/showthread.php?tid=3&page=2")
    triage.remember(triage.key(other), 0)
    assert not triage.must_wait(NEXT, triage.key(normalize(NEXT)))
    assert triage.must_wait(str(other), triage.key(other))


def test_a_select_numbered_like_a_pager_still_waits() -> None:
    """A thread page that names ``ms=2`` beside ``ms=1`` (a filter of two values) has
    no pager: its ``ms=2`` waits on the barren family."""
    select = [f"{THREAD}&ms=1", f"{THREAD}&ms=2"]
    triage = spent_and_barren(select)
    assert triage.must_wait(select[1], triage.key(normalize(select[1])))


def test_one_pager_tells_a_pager_from_a_select() -> None:
    """One name stepping past the page's own number is a pager; a name also linked at
    or below it, or two names stepping on, are selects."""
    page = normalize(THREAD)

    def pager(*links: str) -> bool:
        norms = [normalize(f"{THREAD}&{link}") for link in links]
        return one_pager(page, next_pages(page, norms), norms)

    assert pager("page=2", "page=3")
    assert not pager("ms=1", "ms=2")
    assert not pager("page=2", "specs=2")
    second = normalize(NEXT)
    links = [normalize(f"{THREAD}&page={n}") for n in (1, 3)]
    assert not one_pager(second, next_pages(second, links), links)
