"""A resumed crawl bounds self-grown URLs as an uninterrupted one does: the growth
bound's chains and held URLs (:mod:`robotkit.triage.growth`) and the tokens a form's
redirects minted (:mod:`robotkit.url.minted`) are saved with ``--state``
(ARCHITECTURE.md, "State and resume"). Without them, the URLs queued before the stop
were roots again and their chains ran on, and the URLs held were lost."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from robotkit.cli import main
from robotkit.traps.base import html_page, not_found
from robotkit.triage.growth import COUNTER_STEPS
from robotkit.triage.triage import Triage
from robotkit.triage.waste import Waiting
from robotkit.url.normalization import normalize
from tests.test_crawler_waste import vocabulary

FIRST = 1000
"""The day the home page links: the root of both chains of arrows."""
WORDS = vocabulary(random.Random(7), 40)
"""The site's few words: soon no page shows one its host never showed."""


def _said(seed: str) -> str:
    return " ".join(random.Random(seed).choices(WORDS, k=40))


class Arrows:
    """``/`` links ``/day/1000``; every day links the day before and the day after,
    without end, each page writing prose seeded by its URL in the site's few words (it
    teaches, so the waste bound never holds it; the growth bound does). Records every
    page request."""

    def __init__(self, server: HTTPServer) -> None:
        self.server = server
        self.requests: list[str] = []
        server.expect_request(re.compile("^/.*")).respond_with_handler(self.handle)

    def handle(self, request: Request) -> Response:
        path = request.path
        if path == "/robots.txt" or "robotkit-probe-" in path:
            return not_found()
        self.requests.append(path)
        if path == "/":
            return html_page("Almanac", [" ".join(WORDS)], [(f"/day/{FIRST}", "today")])
        found = re.fullmatch(r"/day/(\d+)", path)
        if found is None:
            return not_found()
        n = int(found.group(1))
        arrows = [(f"/day/{n - 1}", "previous"), (f"/day/{n + 1}", "next")]
        return html_page(f"Day {n}", [_said(path)], [*arrows, ("/", "Almanac")])

    def crawl(self, output: Path, *extra: str) -> list[dict[str, object]]:
        """``robotkit crawl`` of the site to ``output``; its JSON lines."""
        command = ["crawl", self.server.url_for("/"), "--delay", "0", "--output", str(output)]
        assert main([*command, *extra]) == 0
        return [json.loads(line) for line in output.read_text().splitlines()]


@pytest.fixture
def arrows(make_server: Callable[[str], HTTPServer]) -> Callable[[], Arrows]:
    return lambda: Arrows(make_server("127.0.0.1"))


def _left(lines: list[dict[str, object]]) -> set[object]:
    return {line["url"] for line in lines if line.get("reason") == "self-growth"}


@pytest.mark.parametrize("stop", [5, 12])
def test_a_resumed_crawl_follows_the_chains_it_had_queued_no_further(
    arrows: Callable[[], Arrows], tmp_path: Path, stop: int
) -> None:
    """Stopped at ``stop`` pages (before any day is held, and after the first ones
    were) and resumed, the crawl asks the server for the same pages as a crawl never
    stopped: each arrow followed ``COUNTER_STEPS`` days from the root, and the next
    day on each side left as ``self-growth``."""
    whole = arrows()
    left = _left(whole.crawl(tmp_path / "whole.jsonl"))
    days = {f"/day/{FIRST + n}" for n in range(-COUNTER_STEPS, COUNTER_STEPS + 1)}
    assert set(whole.requests) == {"/", *days}
    assert {str(url).rpartition("/")[2] for url in left} == {
        str(FIRST - COUNTER_STEPS - 1),
        str(FIRST + COUNTER_STEPS + 1),
    }

    cut, state = arrows(), str(tmp_path / "state")
    cut.crawl(tmp_path / "first.jsonl", "--state", state, "--max-pages", str(stop))
    assert len(cut.requests) == stop
    rest = cut.crawl(tmp_path / "rest.jsonl", "--state", state)
    assert Counter(cut.requests) == Counter(whole.requests)
    assert {str(url).rpartition("/")[2] for url in _left(rest)} == {
        str(url).rpartition("/")[2] for url in left
    }


def _chain(triage: Triage, steps: int) -> str:
    """Offer and take the turn of the days ``/day/1000`` back ``steps`` arrows (the
    first linked by the home page); the last day's URL."""
    url = f"{SITE}/day/{FIRST}"
    triage.growth.offered(url, f"{SITE}/")
    assert not triage.growth.waits(url, url)
    for n in range(1, steps + 1):
        older = f"{SITE}/day/{FIRST - n}"
        triage.growth.offered(older, url)
        assert not triage.growth.waits(older, older)
        url = older
    return url


SITE = "http://h"


def test_the_growth_bound_and_the_minted_tokens_come_back_from_a_snapshot() -> None:
    """The pure round trip, through JSON: a restored triage finds the day past the
    chain's steps deep, gives back the URL held, and proves a form's token with the
    redirect it had met; a new triage does none of it."""
    triage = Triage()
    last = _chain(triage, COUNTER_STEPS)
    held = f"{SITE}/day/{FIRST + 1}"
    triage.growth.offered(held, f"{SITE}/day/{FIRST}")
    triage.growth.hold(Waiting(held, held, 2, f"{SITE}/day/{FIRST}", ""))
    form, start = normalize(f"{SITE}/reserve?nights=2"), f"{SITE}/offers?nights=2"
    assert not triage.rules.learn_minted(form, normalize(f"{SITE}/r/4ab9d1356cee413f/g"), start)

    restored, new = Triage(), Triage()
    restored.restore(json.loads(json.dumps(triage.snapshot())))
    deeper = f"{SITE}/day/{FIRST - COUNTER_STEPS - 1}"
    for growth in (restored.growth, new.growth):
        growth.offered(deeper, last)
    assert restored.growth.waits(deeper, deeper) and not new.growth.waits(deeper, deeper)
    assert [w.url for w in restored.growth.leave()[0]] == [held]
    again = normalize(f"{SITE}/r/9c0e2a77d1f04b1e/g")
    assert restored.rules.learn_minted(form, again, start)
    assert not new.rules.learn_minted(form, again, start)
