"""Where one family's proof of barrenness serves another (ARCHITECTURE.md, "The waste
bound"; :mod:`robotkit.triage.kinship`): the ledger's rules, pure. The end of a crawl
with a URL they hold is tested with the other held URLs
(``tests/test_triage_waste_vouching.py``).
"""

from __future__ import annotations

from robotkit.triage.waste import BARREN, WasteLedger
from robotkit.url.families import waste_family, waste_shape
from robotkit.url.normalization import normalize
from robotkit.url.template import query_form


def _fetch(ledger: WasteLedger, url: str, taught: bool = False) -> None:
    norm = normalize(url)
    family, shape, form = waste_family(norm), waste_shape(norm), query_form(norm)
    ledger.fetched("h", "r", url, url, taught, family, shape=shape, form=form)


def _barren(ledger: WasteLedger, url: str) -> bool:
    norm = normalize(url)
    return ledger.barren(waste_family(norm), waste_shape(norm))


def _held(ledger: WasteLedger, url: str) -> bool:
    norm = normalize(url)
    family, shape, form = waste_family(norm), waste_shape(norm), query_form(norm)
    return ledger.unvouched(url, family, shape, form)


def test_a_switch_barren_in_three_directories_is_held_in_a_fourth_before_its_first_page() -> None:
    """A language switch proven barren in one directory and again in two more is
    held in every other directory of its origin without a fetch there; in two
    directories only, the next one's first page is still fetched as evidence. A
    parameter naming objects is never held so: a commit is no tree at a commit."""
    ledger = WasteLedger()
    for n in range(BARREN):
        _fetch(ledger, f"http://h/a?lang=l{n}")
    _fetch(ledger, "http://h/r/b/x?lang=en")
    assert _barren(ledger, "http://h/r/b/x?lang=de")
    assert not _held(ledger, "http://h/r/c/y?lang=en")
    _fetch(ledger, "http://h/r/c/y?lang=en")
    assert _held(ledger, "http://h/r/e/z?lang=en")
    assert not _held(ledger, "http://h/r/e/z?page=next")  # other parameters
    assert not _held(ledger, "http://g/r/e/z?lang=en")  # another origin
    for where in ("tree/?id=", "tree/docs/?id=", "tree/docs/api/?id="):
        for n in range(BARREN):
            _fetch(ledger, f"http://h/git/{where}{n}a{n}")
    assert not _held(ledger, "http://h/git/log/x/?id=9a9")


def test_the_kinship_survives_a_snapshot() -> None:
    ledger = WasteLedger()
    for where in ("/a", "/r/b/x", "/r/c/y"):
        for lang in ("de", "fr", "it"):
            _fetch(ledger, f"http://h{where}?lang={lang}")
    again = WasteLedger()
    again.restore(ledger.snapshot())
    assert _held(again, "http://h/r/e/z?lang=fr")


def test_a_tail_proven_barren_under_one_directory_needs_one_page_under_another() -> None:
    """The same relative page under another prefix (an acquisition server's
    ``/news/x/about`` beside ``/people/x/about``) or the same state URL under another
    page (a portal's ``/<page>/!ut/p/z1/<token>/``) is a sibling family: proven barren
    by 3 pages under one directory, it is barren under another after one page that
    taught nothing (blind3 ``portal``, ``plone``)."""
    ledger = WasteLedger()
    for n in range(BARREN):
        _fetch(ledger, f"http://h/news/n{n}/about")
    assert _barren(ledger, "http://h/news/n9/about")
    assert not _barren(ledger, "http://h/people/p1/about")
    _fetch(ledger, "http://h/people/p1/about")
    assert _barren(ledger, "http://h/people/p2/about")
    _fetch(ledger, "http://h/shop/s1/about")
    assert _barren(ledger, "http://h/shop/s1/x")
    assert not _barren(ledger, "http://g/people/p1/about")  # another origin
    for n in range(BARREN):  # one masked segment alone is every page of every directory
        _fetch(ledger, f"http://h/a/p{n}")
    _fetch(ledger, "http://h/b/p9")
    assert not _barren(ledger, "http://h/b/p8")


def test_a_sibling_that_taught_is_not_carried_and_two_such_end_the_carry() -> None:
    """A sibling family a page of which taught has pages of its own: one page that
    taught nothing later does not make it barren. Two such siblings, and the tail's
    proof carries to no other family."""
    ledger = WasteLedger()
    for n in range(BARREN):
        _fetch(ledger, f"http://h/news/n{n}/about")
    _fetch(ledger, "http://h/people/p1/about", taught=True)
    _fetch(ledger, "http://h/people/p2/about")
    assert not _barren(ledger, "http://h/people/p3/about")
    _fetch(ledger, "http://h/shop/s1/about")
    assert _barren(ledger, "http://h/shop/s2/about")
    _fetch(ledger, "http://h/team/t1/about", taught=True)
    _fetch(ledger, "http://h/docs/d1/about")
    assert not _barren(ledger, "http://h/docs/d2/about")
    again = WasteLedger()
    again.restore(ledger.snapshot())
    assert not _barren(again, "http://h/docs/d2/about")
    assert not _barren(again, "http://h/people/p3/about")


def test_a_family_barren_by_its_own_pages_is_not_vetoed_by_its_own_page_that_taught() -> None:
    """A family proven barren by its own 3 pages (a forum's ``/t/<topic>/<n>/last``
    alias of every topic) whose page then taught (a topic whose last post is new) is
    barren again after one page that taught nothing, and vetoes nothing: a tail is
    vetoed by its siblings' pages, not by its proof's (blind3 ``discourse``: 41 trap
    fetches, 52 when it vetoed itself)."""
    ledger = WasteLedger()
    for n in range(BARREN):
        _fetch(ledger, f"http://h/t/topic-{n}/{n}/last")
    _fetch(ledger, "http://h/t/topic-7/7/last", taught=True)
    _fetch(ledger, "http://h/t/topic-8/8/last")
    assert _barren(ledger, "http://h/t/topic-9/9/last")
    _fetch(ledger, "http://h/t/topic-6/6/last", taught=True)
    _fetch(ledger, "http://h/c/a/topic-1/1/last")
    assert _barren(ledger, "http://h/c/a/topic-2/2/last")  # its tail is not vetoed
