"""The bounds against hostile servers, in numbers.

Bodies: each bomb shape is served from loopback and fetched, in a fresh process
of its own, as a page through the sync polite client (cap 10 MiB), as a page
through the async client (the crawler's cap, 2 MiB) and as robots.txt (cut at
500 KiB). Reported: decoded bytes kept against the cap, bytes on the wire, and
the process's peak RSS. Targets: kept at most cap + 64 KiB, peak RSS at most
200 MB.

Pages: for each hostile 2 MiB page, the CPU time of ``parse_page`` and of
``content.fingerprint``, best of 3. Target: at most 1 s for both together.

Run: ``.venv/bin/python benchmarks/bench_hostile.py`` (about a minute).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from support.bombs import GIB, gzip_layer, gzip_zeros, hostile_pages

MIB = 1024 * 1024
RSS_TARGET = 200 * 1000 * 1000
SLACK = 64 * 1024
PAGE_TARGET = 1.0


def _shapes() -> dict[str, Callable[[], tuple[bytes | Iterator[bytes], str]]]:
    """Each bomb: (body or chunks, Content-Encoding)."""

    def stream() -> Iterator[bytes]:
        chunk = b"x" * (64 * 1024)
        for _ in range(GIB // len(chunk)):
            yield chunk

    def zeros() -> bytes:
        return gzip_zeros(2 * GIB)

    return {
        "gzip (2 GiB of zeros)": lambda: (zeros(), "gzip"),
        "gzip, gzip (2 GiB)": lambda: (gzip_layer(zeros()), "gzip, gzip"),
        "gzip x3 (2 GiB)": lambda: (gzip_layer(gzip_layer(zeros())), "gzip, gzip, gzip"),
        # raw deflate (the gzip member without its wrapper), as some servers send it
        "deflate, gzip (2 GiB)": lambda: (gzip_layer(zeros()[10:-8]), "deflate, gzip"),
        "gzip, identity (2 GiB)": lambda: (zeros(), "gzip, identity"),
        "1 GiB plain stream": lambda: (stream(), ""),
        "10 MB plain body": lambda: (b"y" * 10_000_000, ""),
    }


def measure_one(shape: str) -> dict[str, object]:
    """In this process: serve ``shape`` and read it three ways."""
    import httpx
    from pytest_httpserver import HTTPServer
    from werkzeug import Response

    from robotkit.base.identity import Identity
    from robotkit.http.checker import RobotsChecker
    from robotkit.http.client import AsyncPoliteClient, PoliteClient
    from robotkit.http.settings import CRAWL_MAX_BODY
    from robotkit.http.transport import (
        AsyncPoliteTransport,
        FetchLimits,
        PoliteTransport,
        facts,
    )
    from robotkit.pacing.pacer import PacingPolicy

    make = _shapes()[shape]
    first, encoding = make()
    wire = len(first) if isinstance(first, bytes) else GIB

    def handler(request: object) -> Response:
        data, _ = make()  # a fresh stream for each request
        headers = {"Content-Encoding": encoding} if encoding else {}
        return Response(data, headers=headers, content_type="text/html")

    server = HTTPServer(host="127.0.0.1", port=0)
    server.expect_request("/page").respond_with_handler(handler)
    server.expect_request("/robots.txt").respond_with_handler(handler)
    server.start()
    bot = Identity.build("BenchBot", "1.0", "https://example.org/bot", from_="b@example.org")
    fast = PacingPolicy(delay=0.0)
    result: dict[str, object] = {"shape": shape, "wire": wire}
    options: dict[str, Any] = {
        "identity": bot,
        "policy": fast,
        "allow_private": True,
        "check_robots": False,
    }
    try:
        transport = PoliteTransport(**options)
        with PoliteClient(transport=transport) as client:
            page = client.fetch(server.url_for("/page"))
            result["sync"] = (len(page.content), facts(page).truncated)

        async def fetch() -> httpx.Response:
            limits = FetchLimits(max_body_bytes=CRAWL_MAX_BODY)
            transport = AsyncPoliteTransport(limits=limits, **options)
            async with AsyncPoliteClient(transport=transport) as client:
                return await client.fetch(server.url_for("/page"))

        crawled = asyncio.run(fetch())
        result["async"] = (len(crawled.content), facts(crawled).truncated)
        with RobotsChecker(bot) as robots:
            verdict = robots.check(server.url_for("/x"))
        result["robots"] = str(verdict.decision)
    finally:
        server.stop()
    result["rss"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return result


def bodies() -> bool:
    from robotkit.http.settings import CRAWL_MAX_BODY, DEFAULT_MAX_BODY

    print(
        "| bomb | on the wire | sync page kept (cap 10 MiB) | async page kept (cap 2 MiB) |", end=""
    )
    print(" robots.txt | peak RSS |")
    print("|---|---:|---:|---:|---|---:|")
    ok = True
    for shape in _shapes():
        run = subprocess.run(
            [sys.executable, __file__, "--one", shape], capture_output=True, text=True, timeout=300
        )
        if run.returncode:
            print(f"| {shape} | failed: {run.stderr.strip().splitlines()[-1]} |")
            ok = False
            continue
        r = json.loads(run.stdout)
        sync_kept, async_kept = r["sync"][0], r["async"][0]
        ok &= sync_kept <= DEFAULT_MAX_BODY + SLACK and async_kept <= CRAWL_MAX_BODY + SLACK
        ok &= r["rss"] <= RSS_TARGET
        wire = f"{r['wire']:,} B"
        print(
            f"| {shape} | {wire} | {sync_kept:,} | {async_kept:,} | {r['robots']} |"
            f" {r['rss'] / 1e6:.0f} MB |"
        )
    return ok


def pages() -> bool:
    from robotkit.content import fingerprint
    from robotkit.page.meta import parse_page

    print()
    print("| hostile 2 MiB page | parse_page | fingerprint | total |")
    print("|---|---:|---:|---:|")
    ok = True
    for name, html in hostile_pages().items():
        best = []
        steps = (partial(parse_page, html, "http://e.org/", "BenchBot"), partial(fingerprint, html))
        for step in steps:
            times = []
            for _ in range(3):
                started = time.process_time()
                step()
                times.append(time.process_time() - started)
            best.append(min(times))
        total = sum(best)
        ok &= total <= PAGE_TARGET
        print(f"| {name} | {best[0]:.3f} s | {best[1]:.3f} s | {total:.3f} s |")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--one", help=argparse.SUPPRESS)
    parser.add_argument("--pages-only", action="store_true")
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure_one(args.one)))
        return 0
    ok = True
    if not args.pages_only:
        ok &= bodies()
    ok &= pages()
    print()
    print("all bounds held" if ok else "SOME BOUND BROKEN")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
