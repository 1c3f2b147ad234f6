"""SIGKILL a ``robotkit crawl --state`` N times and count what the kills cost.

A loopback site of about 300 distinct pages (a home page, 15 sections of 19 pages
each) is crawled with ``robotkit crawl --delay 0 --state DIR --max-pages B``. The
crawl is started, SIGKILLed at a random moment, started again, N times; then it
runs to its end. A random moment: after a seeded random number (1 to 15) of new
page requests, plus a random 0 to 20 ms, so kills land in fetches, in page
processing, in journal writes and in checkpoints alike. The server's log is
the measure, not the crawler's report:

* refetched: page requests beyond the first for each page; the bound is N (each
  kill loses at most the one request in flight: one host, one request at a time);
* over budget: page requests beyond ``--max-pages``; the bound is N too.

Usage: ``python benchmarks/bench_kill.py [--kills 5 10 20] [--budget 250] [--seed 1]``
"""

from __future__ import annotations

import argparse
import html
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from robotkit.traps.base import prose

SECTIONS, PER_SECTION = 15, 19


def page(path: str) -> bytes | None:
    """The HTML of ``path``, or None if the site has no such page."""
    if path == "/":
        links = [f"/s{k}" for k in range(SECTIONS)]
    elif path.startswith("/s") and path[2:].isdigit() and int(path[2:]) < SECTIONS:
        links = ["/", *(f"{path}/p{i}" for i in range(PER_SECTION))]
    else:
        section, _, rest = path[1:].partition("/p")
        valid = section[1:].isdigit() and int(section[1:]) < SECTIONS
        if not (valid and rest.isdigit() and int(rest) < PER_SECTION):
            return None
        links = ["/", f"/{section}"]
    items = "".join(f'<li><a href="{link}">{html.escape(link)}</a></li>' for link in links)
    return (
        f"<!doctype html><title>{html.escape(path)}</title>"
        f"<p>{html.escape(prose(path))}</p><ul>{items}</ul>"
    ).encode()


class Site:
    """The site on 127.0.0.1, logging each page request (not robots.txt or probes)."""

    def __init__(self) -> None:
        self.requests: list[str] = []
        site = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                body = page(self.path)
                if body is not None:
                    site.requests.append(self.path)
                try:
                    self.send_response(200 if body is not None else 404)
                    self.send_header("Content-Type", "text/html; charset=utf-8")
                    self.send_header("Content-Length", str(len(body or b"")))
                    self.end_headers()
                    self.wfile.write(body or b"")
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the crawler was killed while waiting for this answer

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def total_pages() -> int:
    return 1 + SECTIONS + SECTIONS * PER_SECTION


def run(kills: int, budget: int, rng: random.Random) -> dict[str, int]:
    site = Site()
    state = Path(tempfile.mkdtemp(prefix="bench-kill-")) / "state"
    command = [sys.executable, "-m", "robotkit", "crawl", site.url, "--delay", "0"]
    command += ["--max-pages", str(budget), "--state", str(state)]
    delivered = 0
    try:
        for _ in range(kills):
            proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            target = len(site.requests) + rng.randint(1, 15)
            while len(site.requests) < target and proc.poll() is None:
                time.sleep(0.001)
            time.sleep(rng.uniform(0, 0.02))
            if proc.poll() is not None:  # it finished before the kill: no more kills
                break
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            delivered += 1
        final = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if final.returncode != 0:
            raise SystemExit(f"the last run failed: {final.stderr.decode()}")
    finally:
        site.close()
    counts = Counter(site.requests)
    requests = sum(counts.values())
    return {
        "kills": delivered,
        "requests": requests,
        "distinct": len(counts),
        "refetched": requests - len(counts),
        "over": max(0, requests - budget),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, nargs="+", default=[5, 10, 20])
    parser.add_argument("--budget", type=int, default=250)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(f"site: {total_pages()} pages; --max-pages {args.budget}; --delay 0")
    print(f"{'N kills':>8} {'requests':>9} {'distinct':>9} {'refetched':>10} {'over budget':>12}")
    ok = True
    for kills in args.kills:
        r = run(kills, args.budget, rng)
        n = r["kills"]
        ok &= r["refetched"] <= n and r["over"] <= n
        print(
            f"{n:>8} {r['requests']:>9} {r['distinct']:>9} "
            f"{r['refetched']:>6} ≤ {n:<3} {r['over']:>8} ≤ {n:<3}"
        )
    print("bounds hold" if ok else "BOUND BROKEN")
    if not ok:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
