"""The trap gauntlet: one test per trap site, for any crawler command.

The sites are every hand-written one, then ``--generated N`` drawn by the generator
from seed ``--seed S`` on. Each test serves a fresh copy of its site on loopback,
runs the crawler on it and scores the crawl from the server's own request log. It
passes when the crawler fetched every legitimate page, spent at most 20 requests
inside the trap, fetched nothing the site's robots.txt forbids (read by the status
table in README), and exited by itself within the time limit; otherwise it fails
with one line per broken rule. With no ``--crawler``, the crawler is robotkit's, and
its own manners are checked too: the reason codes it gave for the trap, honest
identity headers, pacing by the server's clock, and its exit status.
"""

from __future__ import annotations

import itertools
import json
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import pytest

from robotkit import traps
from robotkit.base.reasons import Reason
from robotkit.cli import demo
from robotkit.crawler.report import CrawlEvent, EventKind
from robotkit.traps.base import target_of
from robotkit.traps.score import GauntletRun

SLACK = 0.005
"""Seconds the server thread may read its clock early or late."""
EXIT_NOTHING_FETCHED = 4
"""``robotkit crawl``'s exit status when no page could be fetched (robots.txt said no)."""


def test_site(site: str, crawl_site: Callable[[str], GauntletRun], robotkit_manners: Any) -> None:
    run = crawl_site(site)
    failures = run.failures()
    if failures:
        lines = "\n".join(f"  - {failure}" for failure in failures)
        pytest.fail(f"{site} ({run.site.summary}):\n{lines}", pytrace=False)
    if robotkit_manners is not None:
        check_robotkit(run, robotkit_manners)


def gaps_per_host(run: GauntletRun) -> list[float]:
    """Seconds between consecutive requests to the same host, as the server saw them."""
    times: dict[int, list[float]] = defaultdict(list)
    for request in run.running.requests_seen:
        times[request.host].append(request.time)
    return [b - a for t in times.values() for a, b in itertools.pairwise(sorted(t))]


def check_robotkit(run: GauntletRun, manners: Any) -> None:
    """What robotkit promises beyond the gauntlet, from the server's log and from
    its own ``--output`` lines."""
    site, running = run.site, run.running
    lines = run.output.read_text().splitlines()
    events = [CrawlEvent.from_json(json.loads(line)) for line in lines]
    # A hand-written site's docs name exactly the rules that fired on its trap URLs.
    if not site.name.startswith(traps.GENERATED_PREFIX):
        reasons = demo.trap_reasons(running, events)
        assert set(reasons) == set(site.caught_by), run.stderr
        if site.caught_by:
            assert reasons[site.caught_by[0]] > 0
    # Pacing by the server's clock: never two requests to a host closer than the
    # delay (robots.txt, redirect hops and soft-404 probes included).
    assert min(gaps_per_host(run), default=manners.delay) >= manners.delay - SLACK
    # Honest identity on every request, robots.txt included.
    seen = list(running.requests_seen)
    assert seen and all(r.headers.get("User-Agent") == manners.user_agent for r in seen)
    assert all(r.headers.get("From") == manners.from_ for r in seen)
    # Exit 0, or 4 where robots.txt let no page be fetched.
    nothing = not site.legitimate_keys
    assert run.result.exit_code == (EXIT_NOTHING_FETCHED if nothing else 0), run.stderr
    if site.name.startswith("numbered"):
        # Pages whose text differs only in numbers are no trap (200 of them in
        # numbered-200): every page fetched, none refused as a copy.
        assert run.result.score.trap_fetched == 0
        assert [e.url for e in events if e.event is EventKind.SKIPPED and e.reason] == []
    if site.name == "tarpit":
        # No answer in time is ``failed``; a huge answer is ``fetched``, cut.
        outcome = {
            target_of(e.url): (e.event, e.status, e.reason)
            for e in events
            if site.is_trap(target_of(e.url))
        }
        assert outcome == {
            "/slow": (EventKind.FAILED, None, Reason.RESPONSE_TIMEOUT),
            "/stall": (EventKind.FAILED, None, Reason.RESPONSE_TIMEOUT),
            "/huge": (EventKind.FETCHED, 200, Reason.BODY_TOO_LARGE),
            "/huge-chunked": (EventKind.FETCHED, 200, Reason.BODY_TOO_LARGE),
        }
