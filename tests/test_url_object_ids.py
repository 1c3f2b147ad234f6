"""An object's id (a commit's ``id=<sha>``, a parameter pages list several token values
of) that changes nothing on a file's page: the file at that commit, the file itself
when the commit did not touch it. It holds on the section's files, never on the page
the id alone names (``commit/?id=<sha>``), and that page, differing from its path
without the id, says nothing of the files. Pure: URLs and text hashes in, keys out; the
crawl is blind2 ``cgit``'s (traps/README.md)."""

from __future__ import annotations

from robotkit.url.learned import LearnedRules
from robotkit.url.normalization import normalize

REPO = "http://git.test/cgit/robo.git"
SHAS = ("6c3de576c2db5f218fb10901b35e171e15934691", "a8d576f5cdf698f725f631732540619462f17c44")


def listed(rules: LearnedRules) -> None:
    """A log page listing commits by id: ``id`` names objects."""
    links = [normalize(f"{REPO}/commit/?id={sha}") for sha in SHAS]
    rules.observe_links(normalize(f"{REPO}/log/"), links)


def key(rules: LearnedRules, url: str) -> str:
    return rules.apply(normalize(url))


def test_a_commit_id_that_changes_nothing_on_a_file_holds_on_files_not_on_the_commit() -> None:
    rules = LearnedRules()
    listed(rules)
    sha = SHAS[0]
    assert rules.learn_pair(f"{REPO}/tree/Makefile?id={sha}", f"{REPO}/tree/Makefile")
    assert key(rules, f"{REPO}/tree/src/main.c?id={sha}") == f"{REPO}/tree/src/main.c"
    assert key(rules, f"{REPO}/commit/?id={sha}") == f"{REPO}/commit/?id={sha}"


def test_the_commit_page_differing_from_the_latest_does_not_disprove_it_on_files() -> None:
    """``commit/?id=<sha>`` read before with other text than ``commit/`` (the latest
    commit): the id still changes nothing on a file the commit did not touch."""
    rules = LearnedRules()
    listed(rules)
    sha = SHAS[1]
    rules.observe(normalize(f"{REPO}/commit/"), 1)
    rules.observe(normalize(f"{REPO}/commit/?id={sha}"), 2)
    assert rules.learn_pair(f"{REPO}/tree/README.md?id={sha}", f"{REPO}/tree/README.md")
    assert key(rules, f"{REPO}/tree/docs/index.md?id={sha}") == f"{REPO}/tree/docs/index.md"
