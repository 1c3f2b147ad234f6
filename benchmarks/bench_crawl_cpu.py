"""Benchmark: CPU per page of a whole ``robotkit`` crawl against a naive httpx crawler.

Ten loopback hosts (127.0.0.1 to 127.0.0.10) serve 300 small pages each (about
2 KB: a title, ten sentences of the trap sites' filler text and a few words of its
own, links to six other
pages of the same host, a robots.txt that allows all). The server runs in a child
process, so its work is not counted. In this process, taking turns:

* **robotkit**: ``robotkit.crawler.loop.Crawler`` as ``robotkit crawl`` runs it
  (``CrawlConfig`` defaults, but no delay, loopback allowed, 3,000 pages): robots.txt,
  identity headers, the pacer, the frontier, the trap policy, fingerprints;
* **naive**: :func:`robotkit.traps.naive.naive_crawl`, the baseline crawler of the
  trap benchmarks (httpx, exact-URL seen set, the same link extractor, no manners).

Each crawl fetches the 3,000 pages; the figure is CPU time of this process
(``time.process_time``) divided by the pages fetched, best of the rounds (and the
median of each round's own ratio, which the machine's changing load moves less). Target
(issue 13): robotkit at most 1.3x the naive crawler.

    python benchmarks/bench_crawl_cpu.py [--rounds N] [--pages-per-host N]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import multiprocessing
import random
import statistics
import time
from collections.abc import Awaitable, Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from threading import Thread

from robotkit.crawler.loop import CrawlConfig, Crawler
from robotkit.traps.base import prose
from robotkit.traps.naive import naive_crawl

HOSTS = [f"127.0.0.{i}" for i in range(1, 11)]
TARGET = 1.3


def page(host: int, number: int, count: int) -> bytes:
    rnd = random.Random(host * 100_003 + number)
    # Real pages bring words the site has not used before (names, terms); the filler
    # text's vocabulary is small, so each page adds a few made-up words of its own.
    coined = " ".join("".join(rnd.choice("aeioubdklmnprstv") for _ in range(7)) for _ in range(24))
    text = f"{prose(f'{host}/{number}', sentences=10)} {coined}."
    links = "".join(f'<li><a href="/p/{rnd.randrange(count)}">page {n}</a></li>' for n in range(6))
    return (
        f"<!doctype html><html><head><title>Host {host} page {number}</title></head>"
        f"<body><h1>Page {number}</h1><p>{text}</p><ul>{links}"
        f'<li><a href="/p/{(number + 1) % count}">next</a></li></ul></body></html>'
    ).encode()


def serve(port_queue: multiprocessing.Queue[int], count: int) -> None:
    """Child process: one threaded HTTP server per host, all on one port."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            host = HOSTS.index(self.server.server_address[0])  # type: ignore[index]
            if self.path == "/robots.txt":
                body, kind = b"User-agent: *\nAllow: /\n", "text/plain"
            elif self.path == "/" or (self.path[:3] == "/p/" and self.path[3:].isdigit()):
                number = int(self.path[3:]) if self.path != "/" else 0
                body, kind = page(host, number % count, count), "text/html; charset=utf-8"
            else:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    first = ThreadingHTTPServer((HOSTS[0], 0), Handler)
    port = first.server_address[1]
    servers = [first] + [ThreadingHTTPServer((h, port), Handler) for h in HOSTS[1:]]
    for server in servers:
        Thread(target=server.serve_forever, daemon=True).start()
    port_queue.put(port)
    time.sleep(3600)


async def robotkit_crawl(seeds: list[str], pages: int) -> int:
    config = CrawlConfig(max_pages=pages, delay=0.0, allow_private=True)
    summary = await Crawler(seeds, config).run()
    return summary.fetched + summary.probes + summary.failed


async def naive(seeds: list[str], pages: int) -> int:
    return (await naive_crawl(seeds, pages)).fetched


def measure(
    crawl: Callable[[list[str], int], Awaitable[int]], seeds: list[str], pages: int
) -> tuple[float, int]:
    gc.collect()
    started = time.process_time()
    fetched = asyncio.run(crawl(seeds, pages))
    return time.process_time() - started, fetched


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pages-per-host", type=int, default=300)
    args = parser.parse_args()
    count = args.pages_per_host
    queue: multiprocessing.Queue[int] = multiprocessing.Queue()
    server = multiprocessing.Process(target=serve, args=(queue, count), daemon=True)
    server.start()
    try:
        port = queue.get(timeout=30)
        seeds = [f"http://{host}:{port}/" for host in HOSTS]
        pages = count * len(HOSTS)
        crawlers = {"robotkit crawl": robotkit_crawl, "naive httpx crawler": naive}
        best: dict[str, float] = dict.fromkeys(crawlers, float("inf"))
        ratios: list[float] = []  # each round's own ratio: both crawls under one load
        for _ in range(args.rounds):
            took: dict[str, float] = {}
            for name, crawl in crawlers.items():
                seconds, fetched = measure(crawl, seeds, pages)
                took[name] = seconds / max(fetched, 1)
                best[name] = min(best[name], took[name])
            ratios.append(took["robotkit crawl"] / took["naive httpx crawler"])
        anchor = best["naive httpx crawler"]
        print(f"{len(HOSTS)} hosts, {pages} pages, no delay, CPU of the crawling process")
        print("| crawler | ms CPU/page | vs naive |")
        print("|---|---:|---:|")
        for name, per_page in best.items():
            print(f"| {name} | {per_page * 1000:.2f} | {per_page / anchor:.2f}x |")
        ratio = best["robotkit crawl"] / anchor
        print(f"median of the rounds' own ratios: {statistics.median(ratios):.2f}x")
        print(f"target: <= {TARGET}x: {'met' if ratio <= TARGET else 'NOT met'}")
        return 0 if ratio <= TARGET else 1
    finally:
        server.terminate()


if __name__ == "__main__":
    raise SystemExit(main())
