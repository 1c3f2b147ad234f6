"""Benchmark: ``robotkit check-url`` over a million URLs, peak memory and speed.

check-url streams: it reads ``--input`` line by line and prints each verdict as
soon as every verdict before it is printed, so its memory must not grow with the
input (issue 9, row 10; target: under 200 MB peak RSS for 1M URLs). Each run is
a child process; its peak RSS comes from ``os.wait4`` (that child alone), its
speed is wall time, output going to /dev/null (a pipe: the table prints URLs in
full). Runs:

* ``--robots-file``: every URL judged against one local file, no network;
* live: the URLs spread over a few loopback origins (127.0.0.2, .3, ...), each
  serving its robots.txt from this process; every origin's robots.txt must be
  fetched exactly once;

each with ``--json`` and with the table.

    python benchmarks/bench_check_url_memory.py [--urls N] [--origins K]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

TARGET_MB = 200
ROBOTS = b"User-agent: *\nCrawl-delay: 1\nDisallow: /private/\nAllow: /private/ok\n"


class _Robots(BaseHTTPRequestHandler):
    """Serves robots.txt, counting each request; any other path is a 404."""

    hits: ClassVar[Counter[str]] = Counter()

    def do_GET(self) -> None:
        _Robots.hits[f"{self.server.server_address[0]} {self.path}"] += 1  # type: ignore[index]
        body = ROBOTS if self.path == "/robots.txt" else b"not found"
        self.send_response(200 if self.path == "/robots.txt" else 404)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


def write_urls(path: Path, count: int, hosts: list[str]) -> None:
    """``count`` URLs over ``hosts`` in turn, a seventh of them disallowed."""
    with path.open("w") as out:
        for n in range(count):
            folder = "private" if n % 7 == 0 else "docs"
            out.write(f"http://{hosts[n % len(hosts)]}/{folder}/page-{n}.html?ref={n % 97}\n")


def run(argv: list[str]) -> tuple[int, float, float]:
    """(exit status, peak RSS in MB, seconds) of ``robotkit argv``."""
    command = [sys.executable, "-m", "robotkit", *argv]
    start = time.monotonic()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.monotonic() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    return child.returncode, usage.ru_maxrss / 1024, seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--urls", type=int, default=1_000_000)
    parser.add_argument("--origins", type=int, default=4, help="live loopback origins")
    args = parser.parse_args(argv)

    servers = [ThreadingHTTPServer((f"127.0.0.{2 + i}", 0), _Robots) for i in range(args.origins)]
    for server in servers:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    hosts = [f"{s.server_address[0]}:{s.server_address[1]}" for s in servers]
    rows = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            urls = Path(tmp) / "urls.txt"
            write_urls(urls, args.urls, hosts)
            robots = Path(tmp) / "robots.txt"
            robots.write_bytes(ROBOTS)
            for source, extra in (("--robots-file", ["--robots-file", str(robots)]), ("live", [])):
                for output in ("--json", "table"):
                    _Robots.hits.clear()
                    flags = ["--json"] if output == "--json" else []
                    command = ["check-url", "--input", str(urls), *extra, *flags]
                    code, peak, seconds = run(command)
                    fetched = sum(_Robots.hits.values())
                    expected = 0 if extra else len(servers)
                    assert code == 1, f"exit status {code}, expected 1 (some disallowed)"
                    assert fetched == expected, f"{fetched} robots.txt requests, not {expected}"
                    rows.append((source, output, peak, seconds))
    finally:
        for server in servers:
            server.shutdown()
            server.server_close()

    print(f"check-url over {args.urls:,} URLs ({args.origins} origins), output to /dev/null")
    print(f"{'robots.txt':<14} {'output':<7} {'peak RSS MB':>12} {'seconds':>8} {'URLs/s':>9}")
    for source, output, peak, seconds in rows:
        print(
            f"{source:<14} {output:<7} {peak:>12.1f} {seconds:>8.1f} {args.urls / seconds:>9,.0f}"
        )
    worst = max(peak for _, _, peak, _ in rows)
    meets = "meets" if worst < TARGET_MB else "MISSES"
    print(f"largest peak {worst:.1f} MB ({meets} the {TARGET_MB} MB target)")
    return 0 if worst < TARGET_MB else 1


if __name__ == "__main__":
    raise SystemExit(main())
