"""A parked list's next page, let in by an entry of the list that was news, waits on
the waste bound only as a link of a page that taught nothing would, or once a page of
its own shape taught nothing, never because the list's other states made its family
barren (``robotkit.triage.regions.Regions.admitted``,
``robotkit.triage.waste.WasteLedger.must_wait``): a catalogue's sorts and library
switches of a search, copies of it, make the results' family barren while the host's
budget is spent, and each search's second page is its own page, not a state of it
(blind12 ``evergreen``: two subjects' second pages and four records only they list,
held by ``waste-budget``). The pure core, driven by ``tests/test_triage.py``'s crawl
over the catalogue of ``tests/test_triage_zero_based_pager.py``."""

from __future__ import annotations

from robotkit.triage.screening import TriageConfig
from robotkit.triage.triage import Triage
from robotkit.url.normalization import normalize
from tests.test_triage import SITE, Crawl
from tests.test_triage_zero_based_pager import results

NEXT = f"{SITE}/results?q=x&page=1"


def parked_spent_and_barren() -> Triage:
    """A triage whose crawl of the catalogue parked ``/results?`` (its facets and
    sorts) and let its second page in; then its host spent its budget of 1 on a fetch
    nothing vouched for, and three library switches of a search (``&lib=2``), copies
    of it, made the results' family barren."""
    crawl = Crawl(Triage(config=TriageConfig(waste_budget=1)))
    crawl.run(results, f"{SITE}/", budget=300)
    triage = crawl.triage
    assert f"{SITE}/results?" in triage.regions.parked
    assert triage.regions.entries.named(normalize(NEXT))
    spend(triage, [f"{SITE}/results?q=x&lib={lib}" for lib in (2, 3, 4)])
    return triage


def spend(triage: Triage, copies: list[str]) -> None:
    """Spend the host's budget of 1 on a fetch nothing vouched for, then read
    ``copies``, pages that taught nothing."""
    triage.waste.fetched(SITE, "r", f"{SITE}/copy", None, taught=False)
    triage.waste.offered("k-echo", f"{SITE}/copy")
    triage.waste.fetched(SITE, "r", f"{SITE}/echo", "k-echo", taught=False)
    for copy in copies:
        triage.count_waste(normalize(copy), copy, None, False, True)


def test_a_parked_list_s_next_page_does_not_wait_on_its_barren_family() -> None:
    """``?q=x&page=1``, the "Next" of the search's first page, is not held; a page of
    the family no entry named (``?q=y&page=1``) is."""
    triage = parked_spent_and_barren()
    other = normalize(f"{SITE}/results?q=y&page=1")
    triage.remember(triage.key(other), 0)
    assert not triage.must_wait(NEXT, triage.key(normalize(NEXT)))
    assert triage.must_wait(str(other), triage.key(other))


def test_a_next_page_waits_once_a_page_of_its_own_shape_taught_nothing() -> None:
    """A numbered switch looks like a pager (``o=1``, a column's sort): once a page of
    the next page's own shape (``page&q``) taught nothing since its family's last page
    that taught, the family's barrenness holds it again (blind11 ``nopcommerce``:
    ``orderby=`` values read as a pager, 446 trap fetches more in a trial without
    this or the parking)."""
    triage = parked_spent_and_barren()
    copy = f"{SITE}/results?q=y&page=1"
    triage.count_waste(normalize(copy), copy, None, False, True)
    assert triage.must_wait(NEXT, triage.key(normalize(NEXT)))
