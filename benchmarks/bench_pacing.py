"""Pace many local hosts at once through the async polite client.

Starts one HTTP server per loopback address (127.0.0.10, 127.0.0.11, ...) in a
separate process, then crawls every host at the same time with
``AsyncPoliteClient`` (two workers per host, so the pacer, not a sequential loop,
keeps the gaps). Each server records when each request started and when its answer
was ready. Reports, in one run:

* early requests: a request whose start came less than the host's delay after the
  previous answer to that host (robots.txt included) was ready, measured on the
  server side (target 0);
* throughput as a share of the ideal, the sum over hosts of 1 / delay (target at
  least 90 %).

Run: ``.venv/bin/python benchmarks/bench_pacing.py`` (about 25 s).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import logging
import multiprocessing
import threading
import time
from dataclasses import dataclass, field
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Event

import httpx
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response
from werkzeug.serving import WSGIRequestHandler

from robotkit.base.identity import Identity
from robotkit.http.client import AsyncPoliteClient
from robotkit.http.transport import AsyncPoliteTransport, FetchLimits
from robotkit.pacing.pacer import PacingPolicy

Events = list[tuple[float, float]]
ROBOTS = "User-agent: *\nDisallow: /private\n"


@dataclass
class Host:
    """One server on its own loopback address, recording (start, ready) times."""

    server: HTTPServer
    events: Events = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def handler(self, request: Request) -> Response:
        start = time.monotonic()
        body = ROBOTS if request.path == "/robots.txt" else f"page {request.path}"
        response = Response(body, content_type="text/plain")
        with self.lock:
            self.events.append((start, time.monotonic()))
        return response


def serve(count: int, urls: Queue[list[str]], stop: Event, results: Queue[list[Events]]) -> None:
    """The servers, in a process of their own: they do not compete with the client
    for the interpreter lock, as a real site would not."""
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    # Keep-alive, as real sites serve; werkzeug's development server says HTTP/1.0
    # (one connection per request) unless told otherwise.
    WSGIRequestHandler.protocol_version = "HTTP/1.1"
    hosts = []
    for n in range(count):
        server = HTTPServer(host=f"127.0.0.{10 + n}", port=0)
        server.start()
        host = Host(server)
        server.expect_request("").respond_with_handler(host.handler)
        hosts.append(host)
    urls.put([host.server.url_for("/") for host in hosts])
    stop.wait()
    for host in hosts:
        host.server.stop()
    results.put([host.events for host in hosts])


async def crawl(roots: list[str], delay: float, per_host: int, workers: int) -> float:
    connections = httpx.Limits(max_connections=4 * len(roots), max_keepalive_connections=len(roots))
    transport = AsyncPoliteTransport(
        httpx.AsyncHTTPTransport(limits=connections),
        identity=Identity.build("robotkit-bench", "1.0"),
        policy=PacingPolicy(delay=delay, max_in_flight=len(roots)),
        limits=FetchLimits(max_wait=10 * delay + 5),
        allow_private=True,
        parse_html=False,
    )
    async with AsyncPoliteClient(transport=transport) as http:

        async def worker(root: str, first: int) -> None:
            for n in range(first, per_host, workers):
                response = await http.fetch(f"{root}p{n}")
                response.raise_for_status()

        began = time.monotonic()
        await asyncio.gather(*(worker(root, w) for root in roots for w in range(workers)))
        return time.monotonic() - began


def measure(hosts: list[Events], delay: float) -> tuple[int, int, float, float, float]:
    """(requests, early, smallest gap, measured rate, ideal rate)."""
    early = 0
    total = 0
    smallest = float("inf")
    rate = 0.0
    for host in hosts:
        events = sorted(host)
        total += len(events)
        for (_, end), (start, _) in itertools.pairwise(events):
            smallest = min(smallest, start - end)
            early += start - end < delay
        span = events[-1][0] - events[0][0]
        rate += (len(events) - 1) / span if span > 0 else 0.0
    return total, early, smallest, rate, len(hosts) / delay


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--hosts", type=int, default=50)
    parser.add_argument("--delay", type=float, default=0.2)
    parser.add_argument("--requests", type=int, default=100, help="pages per host")
    parser.add_argument("--workers", type=int, default=2, help="concurrent fetchers per host")
    args = parser.parse_args()
    context = multiprocessing.get_context("spawn")
    urls: Queue[list[str]] = context.Queue()
    results: Queue[list[Events]] = context.Queue()
    stop = context.Event()
    servers = context.Process(target=serve, args=(args.hosts, urls, stop, results))
    servers.start()
    try:
        roots = urls.get(timeout=60)
        elapsed = asyncio.run(crawl(roots, args.delay, args.requests, args.workers))
    finally:
        stop.set()
    hosts = results.get(timeout=60)
    servers.join(timeout=30)
    total, early, smallest, rate, ideal = measure(hosts, args.delay)
    print(
        f"{args.hosts} hosts, delay {args.delay:g} s, {args.requests} pages per host "
        f"(+ robots.txt), {args.workers} workers per host, {elapsed:.1f} s"
    )
    rows = [
        ("requests served (robots.txt included)", f"{total}", ""),
        ("requests earlier than the delay", f"{early}", "0"),
        ("smallest end-to-start gap (s)", f"{smallest:.3f}", f">= {args.delay:g}"),
        ("throughput (requests/s)", f"{rate:.1f}", ""),
        ("ideal: sum of 1/delay (requests/s)", f"{ideal:.1f}", ""),
        ("share of ideal", f"{rate / ideal:.1%}", ">= 90%"),
    ]
    print(f"{'measure':<40}{'value':>10}{'target':>10}")
    for name, value, target in rows:
        print(f"{name:<40}{value:>10}{target:>10}")


if __name__ == "__main__":
    main()
