"""A path's default object read again under its id: a repository browser's
``commit/`` shows the latest commit, and ``commit/?id=<head>`` is a copy of it. One
object of the family is its path's default, so that copy is no evidence against the
family of the other commits. The pure core, fed the facts a crawl would feed it; the
crawl is blind2 ``cgit``'s (traps/README.md)."""

from __future__ import annotations

from robotkit.traps.base import prose
from robotkit.triage.triage import PageFacts, Triage
from robotkit.url.normalization import normalize
from robotkit.url.waste import waste_family, waste_shape

REPO = "http://git.test/cgit/robo.git"
SHAS = (
    "b0b027611e98d1c3dd6a2ed0858308c546b65511",  # the head: commit/ shows it
    "6c3de576c2db5f218fb10901b35e171e15934691",
    "a8d576f5cdf698f725f631732540619462f17c44",
    "87e72b7bd95241adc4c2b889719178189e4c5d65",
    "f61c70208520107adfaf104bd45b05922860fb15",
)


def commit(sha: str) -> str:
    return f"<html><body><h2>commit {sha[:7]}</h2><p>{prose(f'commit {sha}', 12)}</p></body></html>"


def judge(triage: Triage, url: str, text: str, links: list[str] | None = None) -> bool:
    page = PageFacts(url, url, 200, text, links or [], None, referer=f"{REPO}/log/")
    return triage.judge(page, set()).taught


def test_the_head_commits_copy_of_the_latest_commit_is_no_evidence_against_commits() -> None:
    head, first, *others = SHAS
    triage = Triage()
    log = f"<html><body><p>{prose('log of the repository', 12)}</p></body></html>"
    judge(triage, f"{REPO}/log/", log, [f"{REPO}/commit/?id={sha}" for sha in SHAS])
    judge(triage, f"{REPO}/commit/", commit(head))
    assert judge(triage, f"{REPO}/commit/?id={first}", commit(first))
    assert not judge(triage, f"{REPO}/commit/?id={head}", commit(head))
    for sha in others[:2]:  # copies of another commit: evidence
        assert not judge(triage, f"{REPO}/commit/?id={sha}", commit(first))
    other = normalize(f"{REPO}/commit/?id={others[2]}")
    assert not triage.waste.barren(waste_family(other), waste_shape(other))
