"""A crawler that speaks only URL Frontier, run through ``robotkit frontier serve``
against every hand-written trap site of the gauntlet (robotkit.traps), judged by the
sites' own request logs: no robots.txt rule broken, no request to a host sooner than
the delay after the one before, robots.txt fetched once per origin (again only after
a deferral's time), and the URL-shape traps refused at PutURLs.

The crawler (tests/support/frontier_client.py) knows nothing of robots.txt or
delays: whatever politeness the sites see is the service's. Each site's crawl is
capped (:data:`MAX_PAGES`) and the slow ones shrunk, so the 34 cost seconds.
"""

from __future__ import annotations

import itertools
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest
from support.frontier_client import Client, crawl

from robotkit import traps
from robotkit.base.reasons import Reason
from robotkit.robots import freshness
from robotkit.service import metadata as meta
from robotkit.traps.base import Page, PageKind, SeenRequest, TrapSite
from robotkit.traps.sites.robots_sites import RobotsUnavailable

DELAY = 0.05
MAX_PAGES = 30
"""Fetches per site: enough to reach every site's trap part, not to finish the
numbered and related-items sites."""
DEADLINE = 0.5
"""The crawler's total deadline per fetch: the tarpit's and slow-paths' stalls and
drips cost this, not a minute."""
ROBOTS_MIN_TTL = 1.0
"""``--robots-min-ttl``: low, so that robots-429's deferral ends within the test."""
RETRY_AFTER = 1
"""robots-429's Retry-After here (the gauntlet's is 120 s)."""

SHAPE_TRAPS = {
    "symlink-loop-1": "repeated-path",
    "symlink-loop-2": "repeated-path",
    "symlink-loop-3": "repeated-path",
    "relative-loop": "repeated-path",
    "redirect-chain": "repeated-path",
}
"""The sites whose trap URLs the service's guard knows by their shape alone, and
the reason it refuses them with at PutURLs."""
SHAPES = frozenset(
    r.value
    for r in (
        Reason.REPEATED_PATH,
        Reason.PATH_TOO_DEEP,
        Reason.URL_TOO_LONG,
        Reason.TOO_MANY_PARAMS,
    )
)
"""The guard's reasons for a URL's shape."""


def refetch_after(site: TrapSite) -> float:
    """The least time between two robots.txt fetches of one origin, by ARCHITECTURE.md's
    status table. An answer that is not deferred (2xx, 3xx, 4xx) is cached for its
    lifetime: 24 h for these sites' answers (no cache headers), so once in a test. A
    deferred one (429, 5xx) is held until Retry-After, else the first backoff step,
    never less than the floor: robots-503 (3600 s) and robots-500 (60 s) once in a
    test, robots-429 (here 1 s) again after each Retry-After."""
    if isinstance(site, RobotsUnavailable):
        wait = site.retry_after if site.retry_after is not None else freshness.backoff(1)
        return max(float(wait), ROBOTS_MIN_TTL)
    return freshness.MAX_TTL


def make_site(name: str) -> TrapSite:
    if name == "robots-429":
        return RobotsUnavailable(429, RETRY_AFTER)
    if name == "tarpit":
        return traps.get(name, drip_interval=0.05, huge_bytes=2 * 1024 * 1024)
    if name == "slow-paths":
        return traps.get(name, slow_legit=0.05, huge_bytes=2 * 1024 * 1024)
    return traps.get(name)


def is_robots(request: SeenRequest) -> bool:
    """A request of a robots.txt fetch: ``/robots.txt`` or a hop of its redirects
    (robots-3xx's ``/robots-moved-N.txt``)."""
    return request.target == "/robots.txt" or request.target.startswith("/robots-moved-")


@pytest.fixture
def address() -> Iterator[str]:
    """``robotkit frontier serve`` as a process, on a free loopback port: one per site, so
    that no robots.txt cached for an earlier site on the same address and port (ports are
    reused) stands for this one."""
    command = [sys.executable, "-m", "robotkit", "frontier", "serve", "--listen", "127.0.0.1:0"]
    command += ["--delay", str(DELAY), "--user-agent", "FrontierBot/1.0", "--lease", "10"]
    command += ["--from", "bot@example.org", "--robots-min-ttl", str(ROBOTS_MIN_TTL)]
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    line = process.stderr.readline()
    assert "listening on" in line, line
    try:
        yield line.rsplit(" ", 1)[1].strip()
    finally:
        process.send_signal(signal.SIGTERM)
        rest = process.stderr.read()
        assert process.wait(timeout=30) == 0
        assert "Traceback" not in rest, rest


@pytest.mark.parametrize("name", traps.names())
def test_the_gauntlet_through_the_service_is_polite(address: str, name: str) -> None:
    site = make_site(name)
    running = traps.start(site)
    client = Client(address)
    skipped: list[str] = []
    try:
        crawl(
            client,
            running.seed_urls,
            crawl_id=name,
            max_pages=MAX_PAGES,
            idle_limit=1.0,
            deadline=DEADLINE,
            skipped=skipped,
        )
        if name == "robots-429":
            _until_robots_fetched_twice(client, running, name)
        seen = list(running.requests_seen)
        score = running.score()
        reasons = {url: _reason(client, url, name) for url in skipped}
    finally:
        client.close()
        running.stop()
    running.check()
    # robots.txt, by the status table: nothing its answer forbids (for 401, 403 and
    # the deferred 429 and 5xx: every page).
    assert score.robots_violations == (), score.robots_violations
    for host in {r.host for r in seen}:
        mine = [r for r in seen if r.host == host]
        # The delay, robots.txt and its redirect hops included.
        gaps = [b.time - a.time for a, b in itertools.pairwise(mine)]
        assert all(gap >= DELAY for gap in gaps), (host, gaps)
        # robots.txt before any page of its origin, and again only when due.
        pages = [r for r in mine if not is_robots(r)]
        robots = [r for r in mine if r.target == "/robots.txt"]
        if pages:
            assert robots and robots[0].time < pages[0].time, (host, mine[:3])
        refetches = [b.time - a.time for a, b in itertools.pairwise(robots)]
        assert all(gap >= refetch_after(site) for gap in refetches), (host, refetches)
        hops = [r.target for r in mine if is_robots(r)]
        assert len(hops) == len(set(hops)) or name == "robots-429", hops
    if name == "robots-429":
        assert len([r for r in seen if r.target == "/robots.txt"]) >= 2
    # The URL-shape traps: refused at PutURLs with the guard's reason, never fetched;
    # on any site, what is refused for its shape is a trap URL, never a page.
    shaped = [url for url, reason in reasons.items() if reason in SHAPES]
    assert all(running.classify(url) == _trap(url) for url in shaped), reasons
    fetched = {running.url(r.target, r.host) for r in seen}
    assert fetched.isdisjoint(shaped), reasons
    if name in SHAPE_TRAPS:
        assert SHAPE_TRAPS[name] in reasons.values(), reasons


def _until_robots_fetched_twice(client: Client, running: traps.RunningSite, name: str) -> None:
    """Ask for URLs until the site has seen robots.txt twice: the deferral's end, when
    the service fetches again (bounded, for a service that never does)."""
    end = time.monotonic() + 30
    while time.monotonic() < end:
        if sum(r.target == "/robots.txt" for r in list(running.requests_seen)) >= 2:
            return
        assert client.get(name) == []  # every page stays deferred
        time.sleep(0.05)


def _trap(url: str) -> Page:
    return Page(PageKind.TRAP, traps.target_of(url))


def _reason(client: Client, url: str, crawl_id: str) -> str:
    values = client.status(url, crawl_id).known.info.metadata[meta.REASON].values
    return values[0] if values else ""


def test_a_refused_trap_url_says_why(address: str) -> None:
    client = Client(address)
    try:
        url = "http://127.0.0.1:9/a/b/a/b/a/b/a/b"
        assert client.put([_discovered(url)]) == [1]  # SKIPPED
        status = client.status(url, "shapes")
        assert list(status.known.info.metadata[meta.REASON].values) == ["repeated-path"]
    finally:
        client.close()


def _discovered(url: str):  # type: ignore[no-untyped-def]
    from support.frontier_client import discovered

    return discovered(url, "shapes")


if os.name != "posix":  # pragma: no cover - signals as the command line uses them
    pytestmark = pytest.mark.skip("POSIX signals")
