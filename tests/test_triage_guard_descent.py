"""The guard's ``relative-descent`` rule: a run of links each under its page's
directory may descend beside its pages twice, never three times
(``robotkit.url.descent``; blind16 ``curlie``: relative "@" links ``Top/Sub`` on
category pages served without their slash, one level deeper per click, 1,472 trap
fetches to the page cap)."""

from __future__ import annotations

from itertools import pairwise

import pytest

from robotkit.base.reasons import Reason
from robotkit.triage.guard import Guard, GuardConfig, Rule
from robotkit.url.descent import Step, step

SITE = "http://dir.test"


@pytest.mark.parametrize(
    ("page", "link", "went"),
    [
        ("/en/Arts/Music", "/en/Arts/Jazz/Bebop", Step.BESIDE),
        ("/en/Arts/Music", "/en/Arts/Jazz", Step.ALONG),
        ("/en/Arts/Music", "/en/Arts/Music/Bebop", Step.DOWN),
        ("/en/Arts/Music", "/en/Arts/Music/Jazz/Bebop", Step.DOWN),
        ("/en/Arts/", "/en/Arts/Jazz/Bebop", Step.DOWN),
        ("/docs/index.html", "/docs/api/net/http.html", Step.DOWN),
        ("/en/Arts/Music", "/en/Jazz/Bebop", Step.ELSEWHERE),
        ("/en/Arts/Music", "/fr/Arts/Jazz/Bebop", Step.ELSEWHERE),
        ("/search", "/books/guide/page/intro", Step.ELSEWHERE),
        ("/search", "/search/books/guide", Step.DOWN),
    ],
)
def test_where_a_link_goes_from_its_page(page: str, link: str, went: Step) -> None:
    assert step(page, link) is went


def walk(guard: Guard, paths: list[str]) -> list[bool]:
    """Whether each link of a click path is allowed, each from the one before."""
    return [guard.check(SITE + link, SITE + page).allowed for page, link in pairwise(paths)]


def test_relative_links_of_pages_served_without_their_slash_stop_at_the_third_descent() -> None:
    guard = Guard()
    path = ["/en/Arts/Music", "/en/Arts/Jazz/Bebop", "/en/Arts/Jazz/Blues/Delta"]
    path += ["/en/Arts/Jazz/Blues/Rock", "/en/Arts/Jazz/Blues/Rock/Folk/Celtic"]
    assert walk(guard, path) == [True, True, True, False]
    verdict = guard.check(SITE + path[-1], SITE + path[-2])
    assert (verdict.reason, verdict.rule) == (Reason.PATH_TOO_DEEP, Rule.RELATIVE_DESCENT)


def test_a_step_down_counts_once_a_run_descended_beside() -> None:
    # A two-segment relative link whose first segment is the page's own name.
    guard = Guard()
    path = ["/en/Arts/Music", "/en/Arts/Jazz/Bebop", "/en/Arts/Jazz/Bebop/Blues"]
    path += ["/en/Arts/Jazz/Bebop/Blues/Rock/Folk"]
    assert walk(guard, path) == [True, True, False]


def test_a_real_tree_goes_down_without_end_and_a_journal_descends_twice() -> None:
    guard = Guard()
    tree = ["/en", "/en/Arts", "/en/Arts/Music", "/en/Arts/Music/Jazz", "/en/Arts/Music/Jazz/Bop"]
    assert all(walk(guard, tree))
    journal = ["/index.php/j/index", "/index.php/j/issue/archive", "/index.php/j/issue/view/15"]
    assert all(walk(guard, [*journal, "/index.php/j/issue/view/14"]))


def test_a_link_elsewhere_ends_the_run() -> None:
    guard = Guard()
    path = ["/en/Arts/Music", "/en/Arts/Jazz/Bebop", "/en/Arts/Jazz/Blues/Delta", "/en/Sports"]
    path += ["/en/Golf/Links", "/en/Golf/Clubs/Irons", "/en/Golf/Clubs/Woods/Steel"]
    assert walk(guard, path) == [True, True, True, True, True, False]


def test_the_rule_judges_links_only_and_is_disabled_by_none() -> None:
    deep = SITE + "/en/Arts/Jazz/Blues/Rock/Folk/Celtic"
    guard = Guard()
    path = ["/en/Arts/Music", "/en/Arts/Jazz/Bebop", "/en/Arts/Jazz/Blues/Delta"]
    path += ["/en/Arts/Jazz/Blues/Rock"]
    assert all(walk(guard, path))
    assert guard.check(deep).allowed  # no referer: a seed, a redirect hop
    assert not guard.check(deep, SITE + path[-1]).allowed
    off = Guard(GuardConfig(max_descents=None))
    assert all(walk(off, [*path, "/en/Arts/Jazz/Blues/Rock/Folk/Celtic"]))
    with pytest.raises(ValueError, match="max_descents"):
        GuardConfig(max_descents=-1)
