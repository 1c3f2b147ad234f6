"""Several crawlers crawling together through Redis (issue 11; ARCHITECTURE.md,
"Shared state"): every URL fetched once in total, one request at a time per host
across all workers, each robots.txt fetched once, all workers ending by themselves;
a worker killed with SIGKILL loses nothing; Redis unreachable or lost is one line.

Everything is asserted on what the servers saw. Workers run in one event loop
(``Crawler.run`` concurrently) or as ``robotkit crawl`` processes.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from robotkit.crawler.loop import CrawlConfig, Crawler, CrawlEvent, EventKind
from robotkit.shared.state import SharedState

PAGES = 12
"""Pages per host: a chain with shortcuts, and links to the other hosts."""


class Site:
    """One host of the shared-crawl tests: ``/robots.txt`` and ``/p/0`` to
    ``/p/{PAGES-1}``; page i links to i+1 and i+2 on its host and to page i of every
    other host. Records every request with its start and end time."""

    def __init__(self, server: HTTPServer, hosts: list[str], pause: float = 0.0) -> None:
        self.server = server
        self.hosts = hosts
        self.pause = pause
        self.lock = threading.Lock()
        self.spans: list[tuple[str, float, float]] = []
        server.expect_request(re.compile(r"/.*")).respond_with_handler(self.handle)

    @property
    def base(self) -> str:
        return f"http://{self.server.host}:{self.server.port}"

    def handle(self, request: Request) -> Response:
        start = time.time()
        if request.path == "/robots.txt":
            response = Response("User-agent: *\nAllow: /\n", content_type="text/plain")
        else:
            match = re.fullmatch(r"/p/(\d+)", request.path)
            if match is None:
                response = Response("no", status=404)
            else:
                i = int(match.group(1))
                links = [f"/p/{j}" for j in (i + 1, i + 2) if j < PAGES]
                links += [f"{host}/p/{i}" for host in self.hosts if host != self.base]
                body = "".join(f'<a href="{href}">page {href}</a> ' for href in links)
                words = " ".join(f"word{i}x{n}" for n in range(12))  # every page is news
                response = Response(
                    f"<html><head><title>Page {i}</title></head><body><p>{words}</p>"
                    f"{body}</body></html>",
                    content_type="text/html",
                )
        time.sleep(self.pause)
        with self.lock:
            self.spans.append((request.path, start, time.time()))
        return response

    def paths(self) -> Counter[str]:
        with self.lock:
            return Counter(path for path, _, _ in self.spans)

    def smallest_gap(self) -> float:
        """The shortest time from the end of one request to the start of the next."""
        with self.lock:
            spans = sorted(self.spans, key=lambda span: span[1])
        return min(b[1] - a[2] for a, b in itertools.pairwise(spans))


@pytest.fixture
def sites(make_server: Callable[[str], HTTPServer]) -> Iterator[list[Site]]:
    servers = [make_server(f"127.0.0.{n}") for n in (1, 2, 3)]
    hosts = [f"http://{s.host}:{s.port}" for s in servers]
    yield [Site(server, hosts) for server in servers]


def _config(**changes: object) -> CrawlConfig:
    options: dict[str, object] = {
        "delay": 0.1,
        "allow_private": True,
        "soft404_probes": False,
        "response_timeout": 5.0,
    }
    options.update(changes)
    return CrawlConfig(**options)  # type: ignore[arg-type]


async def _workers(
    redis_url: str,
    crawl_id: str,
    seeds: list[str],
    count: int,
    budgets: list[int] | None = None,
    base: CrawlConfig | None = None,
) -> list[tuple[Crawler, list[CrawlEvent]]]:
    """Run ``count`` workers of one crawl together under ``base`` (:func:`_config` by
    default), each with its page budget of ``budgets``."""
    out = []
    states = []
    base = base or _config()
    for n in range(count):
        state = SharedState.connect(redis_url, crawl_id, lease=10.0)
        states.append(state)
        events: list[CrawlEvent] = []
        config = base if budgets is None else dataclasses.replace(base, max_pages=budgets[n])
        crawler = Crawler(seeds, config, on_event=events.append, shared=state, worker=f"w{n}")
        out.append((crawler, events))
    try:
        await asyncio.wait_for(asyncio.gather(*(c.run() for c, _ in out)), 60)
    finally:
        for state in states:
            await state.aclose()
    return out


def test_workers_crawl_together_each_page_once_one_request_per_host(
    sites: list[Site], any_redis_url: str, crawl_id: str
) -> None:
    seeds = [f"{site.base}/p/0" for site in sites]
    workers = asyncio.run(_workers(any_redis_url, crawl_id, seeds, 3))
    for site in sites:
        paths = site.paths()
        assert paths["/robots.txt"] == 1, "one robots.txt fetch for all workers"
        assert {p: n for p, n in paths.items() if p != "/robots.txt"} == {
            f"/p/{i}": 1 for i in range(PAGES)
        }, "every page fetched exactly once in total"
        # The delay runs from the end of one response to the start of the next.
        assert site.smallest_gap() >= 0.1 - 0.005
    fetched = [sum(e.event is EventKind.FETCHED for e in events) for _, events in workers]
    assert sum(fetched) == 3 * PAGES
    assert sum(1 for n in fetched if n > 0) >= 2, f"the work was shared: {fetched}"
    for crawler, _ in workers:
        assert not crawler.summary.interrupted


def test_a_worker_whose_budget_is_spent_hands_its_hosts_over(
    sites: list[Site], redis_url: str, crawl_id: str
) -> None:
    seeds = [f"{site.base}/p/0" for site in sites]
    workers = asyncio.run(_workers(redis_url, crawl_id, seeds, 2, budgets=[4, 1000]))
    (small, _), (large, _) = workers
    assert small.summary.budget_spent and small.summary.fetched == 4
    assert small.summary.fetched + large.summary.fetched == 3 * PAGES
    for site in sites:
        pages = {p: n for p, n in site.paths().items() if p.startswith("/p/")}
        assert pages == {f"/p/{i}": 1 for i in range(PAGES)}


def test_a_finished_crawl_is_not_fetched_again_by_a_late_worker(
    sites: list[Site], redis_url: str, crawl_id: str
) -> None:
    seeds = [f"{site.base}/p/0" for site in sites[:1]]
    asyncio.run(_workers(redis_url, crawl_id, seeds, 1))
    before = sum(sites[0].paths().values())
    [(late, _events)] = asyncio.run(_workers(redis_url, crawl_id, seeds, 1))
    assert sum(sites[0].paths().values()) == before
    assert late.summary.fetched == 0


def _cli(redis_url: str, crawl_id: str, *args: str) -> list[str]:
    return [sys.executable, "-m", "robotkit", "crawl", "--redis", redis_url,
            "--crawl-id", crawl_id, *args]  # fmt: skip


def test_a_worker_killed_mid_crawl_loses_nothing(
    make_server: Callable[[str], HTTPServer], any_redis_url: str, crawl_id: str, tmp_path: Path
) -> None:
    redis_url = any_redis_url  # a cluster's node too: --redis finds out which
    servers = [make_server(f"127.0.0.{n}") for n in (1, 2)]
    hosts = [f"http://{s.host}:{s.port}" for s in servers]
    sites = [Site(server, hosts, pause=0.02) for server in servers]
    seeds = [f"{host}/p/0" for host in hosts]
    common = ["--delay", "0.05", "--timeout", "2", "--redis-lease", "1", *seeds]
    victim = subprocess.Popen(
        _cli(redis_url, crawl_id, *common), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    # Kill the first worker once it has fetched a few pages, then a second worker
    # must take its hosts over when its leases run out and finish the crawl.
    deadline = time.monotonic() + 60
    while sum(sum(site.paths().values()) for site in sites) < 6:
        assert victim.poll() is None, victim.stderr.read() if victim.stderr else ""
        assert time.monotonic() < deadline, "the first worker fetched nothing"
        time.sleep(0.01)
    os.kill(victim.pid, signal.SIGKILL)
    victim.wait()
    survivor = subprocess.run(
        _cli(redis_url, crawl_id, *common, "--output", str(tmp_path / "out.jsonl")),
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert survivor.returncode == 0, survivor.stderr
    twice = 0
    for site in sites:
        paths = site.paths()
        pages = {p: n for p, n in paths.items() if re.fullmatch(r"/p/\d+", p)}
        assert set(pages) == {f"/p/{i}" for i in range(PAGES)}, "every page fetched"
        twice += sum(n - 1 for n in pages.values())
    # Only a request in flight at the kill is sent again: one per host at most.
    assert twice <= len(sites)


def test_redis_unreachable_at_start_is_one_line_and_exit_2(crawl_id: str) -> None:
    from support.servers import closed_port

    result = subprocess.run(
        _cli(f"redis://127.0.0.1:{closed_port()}/0", crawl_id, "http://127.0.0.1:9/"),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "redis" in result.stderr.lower()


def test_redis_and_state_exclude_each_other(redis_url: str, crawl_id: str, tmp_path: Path) -> None:
    result = subprocess.run(
        _cli(redis_url, crawl_id, "--state", str(tmp_path), "http://127.0.0.1:9/"),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2 and "--state" in result.stderr


def _keys(client: redis.Redis | redis.RedisCluster, pattern: str) -> list[bytes]:
    return list(client.scan_iter(match=pattern))


def test_redis_clear_removes_the_crawl_and_only_it(
    sites: list[Site], any_redis_url: str, crawl_id: str
) -> None:
    from robotkit.shared.connection import connect
    from robotkit.shared.crawl import CRAWL_KEYS, HOST_KEYS

    redis_url = any_redis_url
    seeds = [f"{sites[0].base}/p/0"]
    asyncio.run(_workers(redis_url, crawl_id, seeds, 1))
    asyncio.run(_workers(redis_url, crawl_id + "-other", seeds, 1))
    client = connect(redis_url)  # on a cluster, SCAN walks every node
    assert _keys(client, f"robotkit:{crawl_id}:*")
    result = subprocess.run(
        _cli(redis_url, crawl_id, "--redis-clear"), capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert _keys(client, f"robotkit:{crawl_id}:*") == []
    assert _keys(client, f"robotkit:{crawl_id}-other:*"), "another crawl's keys stay"
    # Every key left without an expiry is the crawl's own frontier or seen filter.
    for key in _keys(client, f"robotkit:{crawl_id}-other:*"):
        if client.pttl(key) == -1:
            assert key.decode().rsplit(":", 1)[1] in {*CRAWL_KEYS, *HOST_KEYS}, key


def test_redis_lost_mid_crawl_stops_the_worker_without_fetching(
    make_server: Callable[[str], HTTPServer], tmp_path: Path
) -> None:
    from support.redis_server import RedisServer

    (tmp_path / "redis").mkdir()
    server = RedisServer(tmp_path / "redis")
    site = Site(make_server("127.0.0.1"), [], pause=0.0)
    worker = subprocess.Popen(
        _cli(server.url, "lost", "--delay", "0.2", f"{site.base}/p/0"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while sum(site.paths().values()) < 3:
        assert worker.poll() is None and time.monotonic() < deadline
        time.sleep(0.01)
    server.stop()
    lost_at = time.time()
    _, stderr = worker.communicate(timeout=60)
    assert worker.returncode == 2, stderr
    assert "Traceback" not in stderr and "Redis" in stderr
    late = [path for path, start, _ in site.spans if start > lost_at + 0.05]
    assert late == [], "nothing is fetched once the shared state is gone"
