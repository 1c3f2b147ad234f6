"""A token a form's redirects mint for each visit (``robotkit.url.minted``): a
booking engine's ``/reserve?<the page's query>`` answers with a redirect to
``/reservation/<token>/guest``, a new token each time, whose ``extras`` and
``summary`` steps are the same for every visit (blind13 ``booking``: 55
reservations, 165 fetches of their steps). The page triage on its own, as in
``tests/test_triage.py``."""

from __future__ import annotations

from robotkit.base.reasons import Reason
from robotkit.triage.triage import PageFacts, Triage
from robotkit.url.normalization import normalize
from tests.test_triage import SITE, html


def redirected(triage: Triage, url: str, final: str, referer: str, links: list[str]) -> None:
    """Judge a page fetched at ``url`` that answered from ``final``."""
    body = html("Reservation", f"your reservation {final.rpartition('/')[0]}", links)
    facts = PageFacts(url, final, 200, body, links, referer=referer)
    triage.judge(facts, set())


def test_a_token_a_forms_redirects_mint_for_each_visit_is_a_session_id() -> None:
    """Two reservations under tokens of their own: the token's place is a session
    id, and a third visit's steps are the pages fetched under the first."""
    triage = Triage()
    tokens = ["4ab9d1356cee413f", "9c0e77ab12f4d8e1"]
    for n, token in enumerate(tokens, 1):
        query = f"checkin=2026-12-0{n}&nights=1"
        base = f"{SITE}/reservation/{token}"
        steps = [f"{base}/extras", f"{base}/summary"]
        redirected(
            triage, f"{SITE}/reserve?{query}", f"{base}/guest", f"{SITE}/select?{query}", steps
        )
    third = normalize(f"{SITE}/reservation/e3f1aa0912bc7d55/extras")
    assert triage.key(third) == f"{SITE}/reservation/extras"
    first = f"{SITE}/reservation/{tokens[0]}/extras"
    redirected(triage, first, first, f"{SITE}/reservation/{tokens[0]}/guest", [])
    assert triage.recheck(third.original, "", None) is Reason.DUPLICATE_URL


def test_a_short_link_or_a_symbolic_name_mints_no_session_id() -> None:
    """Redirects of links that are no form (a short link, ``/latest``), or of a form
    to the same token, name objects: no session id is learned."""
    triage = Triage()
    for n, token in enumerate(["4ab9d1356cee413f", "9c0e77ab12f4d8e1"]):
        final = f"{SITE}/post/{token}/story"
        redirected(triage, f"{SITE}/s/x{n}k2q9a1", final, f"{SITE}/", [])
        redirected(triage, f"{SITE}/latest?n={n}", final, f"{SITE}/news?n={n + 1}", [])
    for n in range(2):
        final = f"{SITE}/commit/3fa9c2e17b/tree"
        redirected(triage, f"{SITE}/go?n={n}", final, f"{SITE}/log?n={n}", [])
    assert triage.key(normalize(f"{SITE}/post/4ab9d1356cee413f/story")).endswith("f/story")
    assert triage.key(normalize(f"{SITE}/commit/3fa9c2e17b/tree")).endswith("7b/tree")


def test_a_place_a_page_linked_several_tokens_at_is_never_minted() -> None:
    """A page linking several tokens at the place a form's redirects mint one (a
    list of reservations) vetoes it: the place names pages, and two redirects more
    prove nothing there (the veto is the session-id bookkeeping minted tokens share
    with tokens re-issued in every link)."""
    triage = Triage()
    listing = f"{SITE}/reservation/0d3e5f7a9b1c2e4f/all"
    ids = ["5b8c1d2e3f4a6b7c", "7e9f0a1b2c3d4e5f"]
    redirected(triage, listing, listing, f"{SITE}/", [f"{SITE}/reservation/{i}/guest" for i in ids])
    for n, token in enumerate(["4ab9d1356cee413f", "9c0e77ab12f4d8e1"], 1):
        query = f"checkin=2026-12-0{n}&nights=1"
        final = f"{SITE}/reservation/{token}/guest"
        redirected(triage, f"{SITE}/reserve?{query}", final, f"{SITE}/select?{query}", [])
    third = normalize(f"{SITE}/reservation/e3f1aa0912bc7d55/extras")
    assert triage.key(third) == third.key
