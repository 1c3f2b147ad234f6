"""The guard's ``nested-return`` rule: a return address wrapping another of its name
is a click path kept in the URL, never a new page (``robotkit.url.nesting``; blind15
``jobs``: every salary page links three more careers with ``returnUrl=`` itself, one
level deeper at each click, 803 of 1,463 trap fetches)."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from robotkit.base.reasons import Reason
from robotkit.triage.guard import Guard, GuardConfig, Rule

JOB = "/viewjob?jk=8c995b99c3d8cd5e"


def salaries(career: str, back: str) -> str:
    """A career's salary page with ``back`` as its return address."""
    return f"/career/{career}/salaries?from=viewjob&returnUrl={quote(back, safe='')}"


@pytest.mark.parametrize(
    "url",
    [
        "http://jobs.test" + salaries("nurse-lead", salaries("nurse", JOB)),
        "http://jobs.test" + salaries("a-b", salaries("b", salaries("b", JOB))),
        "http://jobs.test/login?next=" + quote("http://jobs.test/register?next=/cart", safe=""),
    ],
)
def test_a_return_address_wrapping_another_of_its_name_is_refused(url: str) -> None:
    verdict = Guard().check(url)
    assert (verdict.allowed, verdict.reason, verdict.rule) == (
        False,
        Reason.REPEATED_PATH,
        Rule.NESTED_RETURN,
    )


@pytest.mark.parametrize(
    "url",
    [
        "http://jobs.test" + salaries("nurse", JOB),
        "http://jobs.test/login?next=/cart",
        "http://jobs.test/login?next=" + quote("/register?back=/cart", safe=""),
        "http://jobs.test/login?next=" + quote("http://other.test/a?next=/b", safe=""),
        "http://jobs.test/search?q=" + quote("where?", safe=""),
    ],
)
def test_a_single_return_address_or_another_name_passes(url: str) -> None:
    assert Guard().check(url).allowed


def test_the_rule_can_be_relaxed_or_disabled() -> None:
    url = "http://jobs.test" + salaries("a-b", salaries("b", salaries("b", JOB)))
    assert not Guard(GuardConfig(max_return_nesting=1)).check(url).allowed
    assert Guard(GuardConfig(max_return_nesting=2)).check(url).allowed
    assert Guard(GuardConfig(max_return_nesting=None)).check(url).allowed
    with pytest.raises(ValueError, match="max_return_nesting"):
        GuardConfig(max_return_nesting=-1)
