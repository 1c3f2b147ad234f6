"""A crawler that speaks only URL Frontier, run through ``robotkit frontier serve``
against trap sites of the gauntlet (robotkit.traps), judged by the sites' own
request logs: no robots.txt rule broken, no request to a host sooner than the delay
after the one before, and the URL-shape traps refused at PutURLs.

The crawler (tests/support/frontier_client.py) knows nothing of robots.txt or
delays: whatever politeness the sites see is the service's.
"""

from __future__ import annotations

import itertools
import os
import signal
import subprocess
import sys
from collections.abc import Iterator

import pytest
from support.frontier_client import Client, crawl

from robotkit import traps
from robotkit.service import metadata as meta

DELAY = 0.1
SITES = (
    "robots-rules",
    "robots-401",
    "robots-503",
    "robots-3xx",
    "relative-loop",
    "symlink-loop-1",
    "calendar",
    "session-ids",
)
SHAPE_TRAPS = ("relative-loop", "symlink-loop-1")


@pytest.fixture(scope="module")
def address() -> Iterator[str]:
    """``robotkit frontier serve`` as a process, on a free loopback port."""
    command = [sys.executable, "-m", "robotkit", "frontier", "serve", "--listen", "127.0.0.1:0"]
    command += ["--delay", str(DELAY), "--user-agent", "FrontierBot/1.0", "--lease", "10"]
    command += ["--from", "bot@example.org"]
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


@pytest.mark.parametrize("name", SITES)
def test_the_gauntlet_through_the_service_is_polite(address: str, name: str) -> None:
    running = traps.start(traps.get(name))
    client = Client(address)
    try:
        crawl(client, running.seed_urls, crawl_id=name, max_pages=60, idle_limit=3.0)
        seen = list(running.requests_seen)
        score = running.score()
        stats = client.stats(name)
    finally:
        client.close()
        running.stop()
    assert score.robots_violations == ()
    for host in {r.host for r in seen}:
        times = [r.time for r in seen if r.host == host]
        gaps = [b - a for a, b in itertools.pairwise(times)]
        assert all(gap >= DELAY for gap in gaps), (host, gaps)
        robots = [r for r in seen if r.host == host and r.target == "/robots.txt"]
        assert len(robots) <= 1 or name == "robots-503"
    if name in SHAPE_TRAPS:
        assert stats.counts["refused"] > 0
        assert score.trap_fetched <= 10, score


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
