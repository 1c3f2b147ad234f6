"""A host a worker of a shared crawl gives away goes with the URLs the growth bound held
on it (:mod:`robotkit.triage.growth`, :meth:`robotkit.crawler.turn.SharedTurn.leave`,
ARCHITECTURE.md, "The growth bound across workers"): they go back to Redis as taken on,
each with its referer's chain, and the next owner holds them and reports them. Without
that the worker that held them kept them: lost when its page budget was spent, and
never given back by a page the next owner read closer to a root. A real loopback server
and the test Redis."""

from __future__ import annotations

import asyncio
import random
import re
import string

from werkzeug import Request

from robotkit.base.reasons import Reason
from robotkit.crawler.report import EventKind
from robotkit.triage.growth import COUNTER_STEPS
from tests.test_crawler_waste import vocabulary
from tests.test_crawler_waste_exports import page, served
from tests.test_shared_crawl import _config, _workers

FIRST = 1000
"""The day the home page links."""
WORDS = vocabulary(random.Random(5), 40)
NAMES = [a + b for a in string.ascii_lowercase for b in string.ascii_lowercase][:40]
"""The pages of a reading list, each linking the next: no growth, a long way deep."""
DEEP = {f"/day/{FIRST - COUNTER_STEPS - 1}", f"/day/{FIRST + COUNTER_STEPS + 1}"}
"""The days one step past the bound on either side of the day the home page links."""
BUDGET = 1 + (2 * COUNTER_STEPS + 1) + 2 * COUNTER_STEPS
"""The first worker's pages: the home page, the days the bound follows and the first
pages of the reading list, twice as deep as the days: it holds both deep days (nine
links from the home page) and leaves with the list's later pages queued."""


def _said(seed: str) -> str:
    return " ".join(random.Random(seed).choices(WORDS, k=40))


def _site(request: Request) -> tuple[str, str] | None:
    """``/`` links ``/day/1000`` and ``/read/aa``; each day links the day before and the
    day after without end, each page of the list the next; every page writes prose
    seeded by its URL in the site's few words."""
    path = request.path
    if path == "/":
        return page("Almanac", " ".join(WORDS), [f"/day/{FIRST}", "/read/aa"]), "text/html"
    day = re.fullmatch(r"/day/(\d+)", path)
    if day is not None:
        n = int(day.group(1))
        return page(f"Day {n}", _said(path), [f"/day/{n - 1}", f"/day/{n + 1}", "/"]), "text/html"
    name = path.removeprefix("/read/")
    if name in NAMES:
        after = NAMES[NAMES.index(name) + 1 :][:1]
        return page(f"Read {name}", _said(path), [f"/read/{n}" for n in after]), "text/html"
    return None


def test_a_host_given_away_goes_with_the_urls_the_growth_bound_held_on_it(
    redis_url: str, crawl_id: str
) -> None:
    """The first worker spends its page budget with both deep days held and the list's
    later pages queued, and leaves; the second takes the host over, reads the rest of
    the list, holds the deep days and reports them ``self-growth`` at its end. Neither
    day is fetched."""
    config = _config(delay=0.0)
    with served(_site) as (home, seen):
        [(first, early)] = asyncio.run(_workers(redis_url, crawl_id, [home], 1, [BUDGET], config))
        [(second, late)] = asyncio.run(_workers(redis_url, crawl_id, [home], 1, base=config))
    assert first.summary.budget_spent and second.summary.fetched > 0
    assert {f"/read/{name}" for name in NAMES} <= set(seen)
    assert not DEEP & set(seen)
    left = {
        event.url.removeprefix(home.rstrip("/"))
        for event in early + late
        if event.event is EventKind.SKIPPED and event.reason is Reason.SELF_GROWTH
    }
    assert left == DEEP
