"""The waste bound's measure of teaching, where a page is only unlike the others by
SimHash: a list's sort or filter states written from the blurbs its other states
showed, in another order and subset, are far from one another by SimHash bits and
bring no word and no sentence of their own. They count as pages that taught, but
the states they link are not vouched for; a page of the same query space that
writes a sentence of its own (a product of a small vocabulary) still teaches. The
pure core, fed the facts a crawl would feed it (blind ``sortview``)."""

from __future__ import annotations

import random

from robotkit.traps.base import prose
from robotkit.triage.triage import PageFacts, PageVerdict, Triage

SITE = "http://shop.example"
BLURBS = [prose(f"blurb {i}", 1) for i in range(12)]
"""The catalog's items, one sentence each: every state of the list shows some."""


def _page(url: str, text: str, links: list[str], referer: str | None) -> PageFacts:
    anchors = "".join(f'<a href="{link}">state</a>' for link in links)
    body = f"<html><head><title>Catalog</title></head><body><p>{text}</p>{anchors}</body></html>"
    return PageFacts(url, url, 200, body, tuple(links), referer=referer)


def _states(triage: Triage, count: int) -> list[tuple[str, PageVerdict]]:
    """A list's states ``/catalog?sort=s{n}``, each linking the next two: the first
    two show every blurb, the others 7 of them in another order."""
    rng = random.Random(3)
    seen: set[str] = set()
    referer = None
    verdicts = []
    for n in range(count):
        order = list(range(len(BLURBS))) if n < 2 else rng.sample(range(len(BLURBS)), 7)
        url = f"{SITE}/catalog?sort=s{n}"
        links = [f"{SITE}/catalog?sort=s{n + 1}", f"{SITE}/catalog?sort=s{n + 2}"]
        text = " ".join(BLURBS[i] for i in order)
        verdicts.append((url, triage.judge(_page(url, text, links, referer), seen)))
        seen.update(links)
        referer = url
    return verdicts


def test_a_state_unlike_the_others_only_by_simhash_vouches_for_nothing() -> None:
    """Far from its referer and from its template's recent pages by SimHash, each
    state passed for a page of its own: it taught, and vouched for the next states
    (blind ``sortview``: 22 sort and size states, 30 trap fetches). With no word, no
    run of pairs new to its query space and no new page of another region, it still
    counts as a page that taught, but vouches for nothing."""
    triage = Triage()
    states = _states(triage, 8)
    assert states[0][1].taught and triage.waste.vouches(states[0][0])
    for url, verdict in states[2:]:
        if verdict.taught:  # else wasted by another rule: a variant repeating its path
            assert not triage.waste.vouches(url), url
    assert sum(verdict.taught for _, verdict in states[2:]) >= 3


def test_a_page_of_the_query_space_with_a_sentence_of_its_own_still_teaches() -> None:
    """A product under ``?product_id=`` in the words the site always uses (a shop
    written from a small vocabulary, blind8 ``opencart``) brings no new word, but a
    sentence its query space never showed: it teaches, as before."""
    triage = Triage()
    _states(triage, 3)
    url = f"{SITE}/catalog?sort=s3"
    known = " ".join(BLURBS).lower().replace(".", "").split()
    own = random.Random(5).sample(known, 24)  # its own sentence, in the list's words
    text = " ".join(BLURBS[i] for i in (4, 9)) + " " + " ".join(own) + "."
    verdict = triage.judge(_page(url, text, [], f"{SITE}/catalog?sort=s2"), set())
    assert verdict.taught and triage.waste.vouches(url)
