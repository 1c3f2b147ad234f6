"""Plain Scrapy against Scrapy with robotkit's add-on, on every trap site.

Each site is served fresh on loopback for each crawler and crawled by the same
spider (``tests/scrapy_project/run_spider.py``: every link robotkit's extractor
finds, on the seeds' hosts), in a child process:

- **plain**: Scrapy's defaults with ``ROBOTSTXT_OBEY = True``;
- **robotkit**: the same plus ``ADDONS = {"robotkit.scrapy.RobotkitAddon": 0}``.

Both get the same identity, ``CLOSESPIDER_PAGECOUNT = 1000`` (the budget of
``robotkit traps bench``) and ``CLOSESPIDER_TIMEOUT = 60`` (its cut). Scored from
the server's log: legitimate pages, trap fetches (the trap bench's count),
robots.txt violations (page requests that robotkit's status table, ``classic``
profile, forbids: a disallowed path, any page of a 401/403 origin, any page of an
origin whose robots.txt answered 429 or 5xx, whose hold outlasts the crawl), and
how the crawl ended. Then one more site, 8 pages under ``Crawl-delay: 0.5``: the
smallest gap between two requests the server saw, against the Crawl-delay.

Usage: ``python benchmarks/bench_scrapy.py [--sites NAME ...] [--jobs 2]`` (all 34
sites take a few minutes on two cores).
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from pytest_httpserver import HTTPServer

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "scrapy_project"))
from run_spider import ADDON, ROBOT, crawl
from sites import PageSite, robots_text

from robotkit import traps
from robotkit.base.reasons import Decision
from robotkit.robots.cache import OriginState
from robotkit.robots.engine import FetchNeeded, RobotsEngine, RobotsResponse
from robotkit.robots.status import FetchFailure
from robotkit.traps.server import RunningSite

BUDGET = {"CLOSESPIDER_PAGECOUNT": 1000, "CLOSESPIDER_TIMEOUT": 60}
CRAWLERS: dict[str, dict[str, Any]] = {
    "plain": {**ROBOT, **BUDGET, "ROBOTSTXT_OBEY": True},
    "robotkit": {**ROBOT, **BUDGET, **ADDON},
}
CRAWL_DELAY = 0.5
KILL_SECONDS = 100.0
"""A crawl still running this long after its start (60 s cut and slack) is killed."""


@dataclass(frozen=True)
class Row:
    site: str
    crawler: str
    legit: str
    complete: bool
    trap: int
    violations: int
    ended: str
    seconds: float


def robots_states(site: RunningSite) -> list[OriginState]:
    """What robotkit's status table makes of each host's robots.txt, fetched once
    after the crawl (the score is taken before)."""
    engine = RobotsEngine()
    states = []
    for base in site.base_urls:
        step: FetchNeeded | OriginState | Any = engine.lookup(base + "/", time.time())
        while isinstance(step, FetchNeeded):
            try:
                answer = httpx.get(step.url, headers=dict(step.headers), timeout=10)
                facts = RobotsResponse.http(
                    answer.status_code, answer.headers.multi_items(), answer.content
                )
            except httpx.HTTPError as error:
                facts = RobotsResponse.failed(FetchFailure.NETWORK_ERROR, str(error))
            step = engine.receive(step, facts, time.time())
        if isinstance(step, OriginState):
            states.append(step)
    return states


def violations(site: RunningSite, seen: list[Any]) -> int:
    """Page requests the status table forbids (robots.txt itself never counts)."""
    states = robots_states(site)
    count = 0
    for request in seen:
        if request.target.split("?")[0] == "/robots.txt" or request.host >= len(states):
            continue
        url = site.url(request.target, request.host)
        verdict = RobotsEngine.decide(url, states[request.host], "TestBot", time.time())
        count += verdict.decision is not Decision.ALLOW
    return count


def measure(name: str, crawler: str) -> Row:
    site = traps.start(traps.get(name))
    started = time.monotonic()
    try:
        try:
            stats = crawl(site.seed_urls, CRAWLERS[crawler], timeout=KILL_SECONDS)
        except subprocess.TimeoutExpired:
            # Closing waits for the downloads in flight: plain Scrapy's 180 s
            # DOWNLOAD_TIMEOUT on a tarpit outlasts the 60 s cut.
            stats = {"finish_reason": "killed"}
        seconds = time.monotonic() - started
        seen = list(site.requests_seen)
        score = site.score()
        broken = violations(site, seen)
    finally:
        site.stop()
    reason = str(stats.get("finish_reason"))
    ended = {
        "finished": "done",
        "closespider_pagecount": "budget",
        "killed": f"killed at {KILL_SECONDS:.0f} s",
    }.get(reason, "cut at 60 s")
    return Row(
        name,
        crawler,
        f"{score.legit_found}/{score.legit_total}",
        score.complete,
        score.trap_fetched,
        broken,
        ended,
        seconds,
    )


def crawl_delay_gap(crawler: str) -> tuple[float, int]:
    """Smallest server-side gap between two requests under ``Crawl-delay: 0.5``,
    robots.txt included, and how many requests there were."""
    server = HTTPServer(host="127.0.0.1", port=0)
    server.start()
    try:
        site = PageSite(server, robots_text(f"User-agent: *\nCrawl-delay: {CRAWL_DELAY}\n"), 8)
        crawl([site.url], CRAWLERS[crawler], timeout=120)
    finally:
        server.clear()
        server.stop()
    times = site.times()
    return min(b - a for a, b in itertools.pairwise(times)), len(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sites", nargs="+", default=traps.names())
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    jobs = [(name, crawler) for name in args.sites for crawler in CRAWLERS]
    with ThreadPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(lambda job: measure(*job), jobs))
    by_site: dict[str, dict[str, Row]] = {}
    for row in rows:
        by_site.setdefault(row.site, {})[row.crawler] = row
    print(
        "| site | plain: legitimate | plain: trap | plain: robots.txt violations | plain: "
        "ended | robotkit: legitimate | robotkit: trap | robotkit: violations | robotkit: "
        "ended | robotkit: seconds |"
    )
    print("|---|---:|---:|---:|---|---:|---:|---:|---|---:|")
    for name, pair in by_site.items():
        p, r = pair["plain"], pair["robotkit"]
        print(
            f"| {name} | {p.legit} | {p.trap} | {p.violations} | {p.ended} | {r.legit} | "
            f"{r.trap} | {r.violations} | {r.ended} | {r.seconds:.1f} |"
        )
    for crawler in CRAWLERS:
        mine = [pair[crawler] for pair in by_site.values()]
        passed = sum(r.complete and r.trap <= 20 and r.ended == "done" for r in mine)
        print(
            f"{crawler}: complete {sum(r.complete for r in mine)}/{len(mine)}, trap fetches "
            f"{sum(r.trap for r in mine)} (median {statistics.median(r.trap for r in mine)}), "
            f"violations {sum(r.violations for r in mine)}, passed {passed}/{len(mine)}"
        )
    for crawler in CRAWLERS:
        gap, count = crawl_delay_gap(crawler)
        print(
            f"{crawler}: smallest gap under Crawl-delay {CRAWL_DELAY} s: {gap:.3f} s "
            f"({count} requests)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
