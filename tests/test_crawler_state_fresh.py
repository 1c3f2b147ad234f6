"""A resumed crawl proves a value stamped anew by each response with the responses it
read before the stop (:mod:`robotkit.url.fresh`, saved in the learned rules with
``--state``, ARCHITECTURE.md, "State and resume"). Without that evidence the first
response read after the resume proved nothing, its links under its own token were new
URLs, and pages were fetched again under them."""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from robotkit.traps.base import html_page, not_found
from robotkit.url.learned import LearnedRules
from robotkit.url.normalization import normalize
from tests.test_crawler_state_growth import Arrows
from tests.test_crawler_waste import vocabulary

ITEMS = 6
"""The shop's items, each linked by every page."""
WORDS = vocabulary(random.Random(11), 200)


class Stamped(Arrows):
    """``/`` and ``/item/0`` … ``/item/5``: every page links every item and the home
    page, each link carrying ``?csrf=`` a token minted for the response (a new one
    each response). Records every page request (its path)."""

    def handle(self, request: Request) -> Response:
        path = request.path
        if path == "/robots.txt" or "robotkit-probe-" in path:
            return not_found()
        self.requests.append(path)
        if path != "/" and not re.fullmatch(r"/item/[0-9]+", path):
            return not_found()
        token = hashlib.sha256(str(len(self.requests)).encode()).hexdigest()[:16]
        links = [(f"/item/{n}?csrf={token}", f"item {n}") for n in range(ITEMS)]
        said = " ".join(random.Random(path).choices(WORDS, k=60))
        return html_page(f"Shop {path}", [said], [*links, (f"/?csrf={token}", "home")])


@pytest.fixture
def stamped(make_server: Callable[[str], HTTPServer]) -> Callable[[], Stamped]:
    return lambda: Stamped(make_server("127.0.0.1"))


@pytest.mark.parametrize("stop", [1, 2])
def test_a_resumed_crawl_proves_a_stamp_with_the_responses_read_before_the_stop(
    stamped: Callable[[], Stamped], tmp_path: Path, stop: int
) -> None:
    """Stopped after the home page (its token's one response read) or after the
    first item (the token proven) and resumed, the crawl asks the server for the
    same pages as a crawl never stopped."""
    whole = stamped()
    whole.crawl(tmp_path / "whole.jsonl")
    assert set(whole.requests) == {"/", *(f"/item/{n}" for n in range(ITEMS))}

    cut, state = stamped(), str(tmp_path / "state")
    cut.crawl(tmp_path / "first.jsonl", "--state", state, "--max-pages", str(stop))
    assert len(cut.requests) == stop
    cut.crawl(tmp_path / "rest.jsonl", "--state", state)
    assert Counter(cut.requests) == Counter(whole.requests)


def test_the_stamps_seen_come_back_from_a_snapshot() -> None:
    """The pure round trip, through JSON: a restored set of rules proves the stamp
    with the second response, as the rules it was saved from do; new rules do not."""
    site = "http://h"

    def links(token: str) -> list:
        return [normalize(f"{site}/item/{n}?csrf={token}") for n in range(ITEMS)]

    rules = LearnedRules()
    assert not rules.observe_links(normalize(f"{site}/"), links("4ab9d1356cee413f"))
    restored, new = LearnedRules(), LearnedRules()
    restored.restore(json.loads(json.dumps(rules.snapshot())))
    second = normalize(f"{site}/item/0?csrf=4ab9d1356cee413f")
    assert restored.observe_links(second, links("9c0e2a77d1f04b1e"))
    assert not new.observe_links(second, links("9c0e2a77d1f04b1e"))
    assert restored.apply(second) == rules.apply(normalize(f"{site}/item/0"))
