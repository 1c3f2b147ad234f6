"""A session id as a path's last segment (``robotkit.url.tails``): Aleph's OPAC names
its pages by the query and puts a session, new in every link of every response, in
the last segment (``/F/<session>-<seq>?func=direct&doc_number=…``; blind15 ``aleph``:
1,464 trap fetches, most of them the records again under new sessions). The page
triage on its own, as in ``tests/test_triage.py``."""

from __future__ import annotations

import itertools

from robotkit.triage.triage import PageFacts, Triage
from robotkit.url.learned import LearnedRules
from robotkit.url.normalization import normalize
from tests.test_triage import SITE

_COUNTER = itertools.count()


def session() -> str:
    """A new Aleph session and sequence number."""
    n = next(_COUNTER)
    return f"{n:04d}K7Q2M9X4B8R1T6W3Z5Y0N2P7L4C9V1H8D3F6G0J5S2A7E-{n:05d}"


def record(triage: Triage, url: str, doc: str, links: list[str]) -> None:
    """Judge the record ``doc`` fetched at ``url``: one text whatever its URL, its
    links' anchor texts too."""
    anchors = "".join(f'<a href="{u}">link {i}</a>' for i, u in enumerate(links))
    text = f"record {doc} the lantern orchard harbor meadow copper violin garden {doc}"
    body = f"<html><head><title>Record {doc}</title></head><body><p>{text}</p>{anchors}"
    triage.judge(PageFacts(url, url, 200, body + "</body></html>", links), set())


def aleph(doc: str, sess: str | None = None) -> str:
    """Record ``doc``'s URL, under session ``sess`` or none."""
    return f"{SITE}/F/{sess or ''}?func=direct&doc_number={doc}&local_base=HRB01"


def test_a_folders_last_segment_is_a_session_when_two_queries_gave_copies_under_it() -> None:
    """Two records, each the same under a session as at the folder itself: the
    folder's last segment is a session id, and every other record under any session
    is keyed as the session-less record."""
    triage = Triage()
    for doc in ("000004100", "000004137"):
        links = [f"{SITE}/F/{session()}?func=item-global&doc_number={doc}"]
        record(triage, aleph(doc), doc, links)
        record(triage, aleph(doc, session()), doc, links)
    third = normalize(aleph("000004174", session()))
    assert triage.key(third) == normalize(aleph("000004174")).key
    holdings = normalize(f"{SITE}/F/{session()}?func=item-global&doc_number=1")
    assert triage.key(holdings) == f"{SITE}/F/?doc_number=1&func=item-global"
    assert triage.key(normalize(f"{SITE}/G/{session()}?x=1")).startswith(f"{SITE}/G/0")


def test_one_query_proves_nothing_a_default_object_names() -> None:
    """``/commit/`` shows the latest commit, the same as ``/commit/<its sha>``: one
    query's copy proves nothing, and other commits keep their keys."""
    triage = Triage()
    sha = "3fa9c2e17b4d8e1a9c0e77ab12f4d8e13fa9c2e1"
    record(triage, f"{SITE}/commit/", "latest", [])
    record(triage, f"{SITE}/commit/{sha}", "latest", [])
    other = normalize(f"{SITE}/commit/9c0e77ab12f4d8e13fa9c2e17b4d8e1a3fa9c2e1")
    assert triage.key(other) == other.key


def test_a_page_linking_two_tokens_under_one_query_names_pages_by_them() -> None:
    """A log linking ``/commit/<a>`` and ``/commit/<b>`` (one query) vetoes the
    folder: copies under two queries prove nothing there after it, and a folder
    learned before it is withdrawn."""
    rules = LearnedRules()
    shas = ["3fa9c2e17b4d8e1a", "9c0e77ab12f4d8e1"]
    log = normalize(f"{SITE}/log/")
    links = [normalize(f"{SITE}/commit/{sha}?w=1") for sha in shas]
    for query in ("w=1", "w=0"):
        rules.learn_pair(f"{SITE}/F/?{query}", f"{SITE}/F/{shas[0]}?{query}")
    assert rules.apply(normalize(f"{SITE}/F/{shas[1]}?q=2")) == f"{SITE}/F/?q=2"
    rules.observe_links(log, [*links, *(normalize(f"{SITE}/F/{s}?q=2") for s in shas)])
    rules.observe_links(log, links)
    for query in ("w=1", "w=0"):
        assert not rules.learn_pair(f"{SITE}/commit/?{query}", f"{SITE}/commit/{shas[0]}?{query}")
    assert rules.apply(links[1]) == links[1].key
    assert rules.apply(normalize(f"{SITE}/F/{shas[1]}?q=2")).endswith(f"{shas[1]}?q=2")


def test_the_learned_tails_survive_a_snapshot() -> None:
    """A resumed crawl keys the folder's sessions as the crawl it resumes did."""
    rules = LearnedRules()
    for query in ("a=1", "a=2"):
        rules.learn_pair(f"{SITE}/F/?{query}", f"{SITE}/F/{session()}?{query}")
    again = LearnedRules()
    again.restore(rules.snapshot())
    assert again.apply(normalize(f"{SITE}/F/{session()}?a=3")) == f"{SITE}/F/?a=3"
    assert "session id ending /F/" in again.describe(normalize(f"{SITE}/F/"))
