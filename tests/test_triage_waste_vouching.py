"""The waste bound's vouching, where a real page is first met through a copy: a
story first fetched under a spelling with a fresh token (``?_ck=...``, naming its
canonical form) shows text the host never showed, so its links are vouched for;
and a URL that waits, linked again by a page that taught something, is vouched
for from then on. The pure core, fed the facts a crawl would feed it; the crawls
are the blind ``churn`` site's (traps/README.md)."""

from __future__ import annotations

import pytest

from robotkit.base.reasons import Reason
from robotkit.traps.base import prose
from robotkit.triage.screening import TriageConfig
from robotkit.triage.triage import PageFacts, Triage
from robotkit.triage.waste import Waiting, WasteLedger
from robotkit.url.normalization import normalize

SITE = "http://news.example"


def test_a_first_sight_under_a_non_canonical_spelling_taught_and_its_copy_did_not() -> None:
    """Before anything tells the crawl that ``_ck`` changes nothing, a story fetched
    as ``/story/1?_ck=...`` names ``/story/1`` as canonical and shows text the host
    never showed: it taught (the stories it links are vouched for). The canonical
    form, fetched next, shows the same text and did not."""
    triage = Triage()
    body = (
        '<html><head><title>Story</title><link rel="canonical" href="/story/1"></head>'
        f'<body><p>{prose("story one", 8)}</p><a href="/story/2?_ck=77aa">next</a></body></html>'
    )
    spelled = f"{SITE}/story/1?_ck=5e1f0c2a"
    first = triage.judge(
        PageFacts(spelled, spelled, 200, body, (f"{SITE}/story/2?_ck=77aa",), f"{SITE}/story/1"),
        set(),
    )
    assert first.canonical == f"{SITE}/story/1" and first.taught
    again = triage.judge(
        PageFacts(f"{SITE}/story/1", f"{SITE}/story/1", 200, body, (), None, referer=spelled),
        set(),
    )
    assert not again.taught


def test_a_url_waiting_under_an_older_key_goes_back_once_a_page_that_taught_links_it() -> None:
    """A URL held under the key it had when it waited (``?_ck=`` kept); since then
    ``_ck`` is known to change nothing, and a page that taught linked the story
    under its new key: once the host has nothing else queued, it is queued again
    (and vouched for), not left. A URL no such page linked is left."""
    triage = Triage(config=TriageConfig(waste_budget=1))
    old, other = f"{SITE}/story/2?_ck=77aa", f"{SITE}/story/3?_ck=88bb"
    triage.waste.fetched(SITE, "r", f"{SITE}/copy", None, taught=False)
    for url in (old, other):
        triage.remember(url, 0, f"{SITE}/copy")
        triage.wait(url, url, 2, f"{SITE}/copy")
    assert triage.rules.learn_canonical(normalize(old), normalize(f"{SITE}/story/2"))
    new = triage.key(normalize(old))
    assert new != old
    triage.waste.fetched(SITE, "r", f"{SITE}/news", None, taught=True)
    assert triage.linked_again(f"{SITE}/story/2", new, f"{SITE}/news") is None
    again, left = triage.leave(SITE)
    assert [w.url for w in again] == [old] and [w.url for w in left] == [other]
    assert not triage.waste.unvouched(old) and triage.waste.unvouched(other)


def test_a_waiting_url_linked_again_by_a_page_that_taught_goes_back() -> None:
    ledger = WasteLedger(budget=1)
    # Only unvouched fetches spend the budget: k0, linked by a wasted page, is one.
    ledger.fetched("h", "h/a", "http://h/echo", "ke", taught=False)
    ledger.offered("k0", "http://h/echo")
    ledger.fetched("h", "h/a", "http://h/copy", "k0", taught=False)
    ledger.offered("k1", "http://h/copy")
    assert ledger.must_wait("h", "k1")
    waiting = Waiting("http://h/1", "k1", 2, "http://h/copy", "h/a")
    ledger.hold("h", waiting)
    assert ledger.linked_again("h", "k1", "http://h/copy") is None  # a wasted page again
    assert ledger.waiting("h") == 1
    ledger.fetched("h", "h/b", "http://h/news", "k2", taught=True)
    assert ledger.linked_again("h", "k1", "http://h/news") == waiting
    assert ledger.waiting("h") == 0 and not ledger.unvouched("k1")
    assert ledger.vouched("k1")
    copy = WasteLedger(budget=1)
    copy.restore(ledger.snapshot())
    assert copy.vouched("k1") and copy.snapshot() == ledger.snapshot()


# A family's pages that taught nothing in a row, or (``triage.kinship``) a switch of
# words that taught nothing in three directories, its family never fetched.
HELD = {
    "barren": (f"{SITE}/story/9?v=1", [f"{SITE}/story/{n}?v=1" for n in range(3)]),
    "carried": (
        f"{SITE}/r/e/z?lang=fr",
        [
            f"{SITE}{d}?lang={lang}"
            for d in ("/a", "/r/b/x", "/r/c/y")
            for lang in ("de", "fr", "it")
        ],
    ),
}


@pytest.mark.parametrize("held", sorted(HELD))
def test_a_url_of_a_barren_family_is_left_not_given_back_at_the_end(held: str) -> None:
    """A URL that waits, vouched for since by a page that taught, but of a family
    whose last pages taught nothing, would only wait again: it counts as unvouched
    whoever linked it. Giving it back once its host has nothing else queued made the
    end of a crawl a loop (the URL given back, held again, given back...); it is
    left (``waste-budget``). So is a switch held before its family's first page
    (blind7 ``gitea`` ran to the harness's limit in a trial)."""
    triage = Triage(config=TriageConfig(waste_budget=1))
    url, copies = HELD[held]
    key = triage.key(normalize(url))
    # The host spent its budget: a fetch nothing vouched for taught nothing.
    triage.waste.fetched(SITE, "r", f"{SITE}/copy", None, taught=False)
    triage.waste.offered("k-echo", f"{SITE}/copy")
    triage.waste.fetched(SITE, "r", f"{SITE}/echo", "k-echo", taught=False)
    for copy in copies:  # copies of the family in a row: it is barren
        triage.count_waste(normalize(copy), copy, None, False, True)
    triage.remember(url, 0, f"{SITE}/copy")
    assert triage.must_wait(url, key)
    triage.wait(url, key, 2, f"{SITE}/copy")
    triage.waste.fetched(SITE, "r", f"{SITE}/news", None, taught=True)
    assert triage.linked_again(url, key, f"{SITE}/news") is not None
    assert triage.waste.vouched(key) and triage.must_wait(url, key)
    triage.wait(url, key, 2, f"{SITE}/copy")
    again, left = triage.leave(SITE)
    assert again == [] and [w.url for w in left] == [url]


def test_a_seed_that_copies_another_seed_still_vouches_for_its_links() -> None:
    """Two seeds naming one site (``a.example`` and its twin ``b.example``), the
    second's home fetched first: the first's home is then an exact copy and taught
    nothing, yet its links are vouched for, since the user named its host. Before
    this, they counted against the waste bound, and in a crawl where the twin rule
    then kept the first host's pages (their copies on the twin skipped) the last of
    them waited and were left: pages of the site fetched on neither host."""
    triage = Triage()
    body = f"<html><body><p>{prose('twin home', 8)}</p><a href='/p1'>one</a></body></html>"
    twin = triage.judge(
        PageFacts("http://b.example/", "http://b.example/", 200, body, ("http://b.example/p1",)),
        set(),
    )
    home = triage.judge(
        PageFacts("http://a.example/", "http://a.example/", 200, body, ("http://a.example/p1",)),
        set(),
    )
    assert twin.taught and not home.taught
    assert triage.waste.vouches("http://a.example/")
    # A page that copies a seed's page, and is not a seed itself, still vouches for nothing.
    copy = triage.judge(
        PageFacts(
            "http://a.example/again",
            "http://a.example/again",
            200,
            body,
            (),
            referer="http://a.example/",
        ),
        set(),
    )
    assert not copy.taught and not triage.waste.vouches("http://a.example/again")


def test_a_link_to_a_twin_hosts_copy_vouches_for_the_page_it_copies() -> None:
    """Host ``a.example`` spent its waste budget, and its page ``/p9``, linked only by a
    page that taught nothing, waits. The twin host ``b.example`` serves the same pages;
    a page that taught there linked ``/p9`` on it. Once the twin rule is learned, the
    queued ``b.example/p9`` is skipped at the recheck as a copy of ``a.example/p9``, and
    its link vouches for the page it copies, which goes back instead of waiting for
    good. A copy linked only by a wasted page vouches for nothing."""
    a, b = "http://a.example", "http://b.example"
    triage = Triage(config=TriageConfig(waste_budget=1))
    triage.waste.fetched(a, "r", f"{a}/copy", None, taught=False)
    triage.waste.offered("k-echo", f"{a}/copy")
    triage.waste.fetched(a, "r", f"{a}/echo", "k-echo", taught=False)
    pages = {}
    for name in ("p9", "p8"):
        url = f"{a}/{name}"
        pages[name] = key = triage.key(normalize(url))
        triage.remember(key, 0, f"{a}/copy")
        assert triage.must_wait(url, key)
        triage.wait(url, key, 2, f"{a}/copy")
    copies = {}
    for name, referer in (("p9", f"{b}/home"), ("p8", f"{a}/copy")):
        copies[name] = triage.key(normalize(f"{b}/{name}"))
        triage.remember(copies[name], 0, referer)
    for n in range(2):  # two paths with one text on both hosts: b is a twin of a
        for host in (a, b):
            triage.rules.observe(normalize(f"{host}/x{n}"), 1000 + n)
    assert triage.key(normalize(f"{b}/p9")) == pages["p9"]
    queued = {*pages.values(), *copies.values()}
    assert triage.recheck(f"{b}/p9", copies["p9"], f"{b}/home", queued) is Reason.DUPLICATE_URL
    back = triage.copied(f"{b}/p9", copies["p9"])
    assert back is not None and back.url == f"{a}/p9"
    assert not triage.must_wait(f"{a}/p9", pages["p9"]) and triage.waste.waiting(a) == 1
    assert triage.copied(f"{b}/p8", copies["p8"]) is None
    assert triage.must_wait(f"{a}/p8", pages["p8"])
