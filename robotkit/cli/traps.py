"""``robotkit traps``: list the trap sites, or serve one on loopback.

``robotkit traps list`` prints a table of the sites; ``robotkit traps serve NAME``
starts one as a real local server, prints what it is and where it listens, logs
each request (marking trap pages) and serves until Ctrl-C or SIGTERM, then stops
cleanly (exit 0). Only loopback addresses are accepted: trap sites are hostile on
purpose.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from types import FrameType
from typing import Any

from rich.table import Table

from robotkit import traps
from robotkit.cli import EXIT_USAGE, console, error
from robotkit.traps.base import PageKind, SeenRequest


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "traps",
        help="list the crawler-trap sites or serve one on loopback",
        description="Trap sites for testing and teaching crawlers.",
    )
    actions = parser.add_subparsers(dest="traps_command", metavar="ACTION")
    actions.required = True
    listing = actions.add_parser("list", help="print every trap site and what it is")
    listing.set_defaults(handler=list_handler)
    serving = actions.add_parser(
        "serve",
        help="serve one trap site on loopback until Ctrl-C",
        description="Serve one trap site as a real local server until Ctrl-C.",
    )
    serving.add_argument("name", metavar="NAME", help="a site name from `robotkit traps list`")
    serving.add_argument("--host", default="127.0.0.1", help="loopback address (default 127.0.0.1)")
    serving.add_argument("--port", type=int, default=0, help="port (default 0: any free port)")
    serving.add_argument("--quiet", action="store_true", help="do not log each request")
    serving.set_defaults(handler=serve_handler)


def list_handler(args: argparse.Namespace) -> int:
    table = Table(title="robotkit trap sites")
    table.add_column("name", style="bold", no_wrap=True)
    table.add_column("what it is")
    table.add_column("caught by", no_wrap=True)
    for name in traps.names():
        site = traps.get(name)
        table.add_row(name, site.summary, ", ".join(map(str, site.caught_by)) or "-")
    console().print(table)
    return 0


def serve_handler(args: argparse.Namespace) -> int:
    try:
        site = traps.get(args.name)
    except traps.UnknownSite as exc:
        error(str(exc))
        return EXIT_USAGE
    if not 0 <= args.port <= 65535:
        error(f"port out of range: {args.port}")
        return EXIT_USAGE
    try:
        running = traps.start(site, args.host, args.port, log_limit=10_000)
    except traps.SiteError as exc:
        error(str(exc))
        return EXIT_USAGE
    if not args.quiet:
        running.on_request = lambda seen, status: _log(running, seen, status)
    done = threading.Event()

    def on_term(signum: int, frame: FrameType | None) -> None:
        done.set()

    # Our own handlers for both: a shell starts background jobs with SIGINT
    # ignored, and the site must still stop on Ctrl-C / kill -INT.
    previous = {sig: signal.signal(sig, on_term) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        print(f"{site.name}: {site.summary}")
        print(f"legitimate pages: {len(site.legitimate_pages)}; caught by: ", end="")
        print(", ".join(str(r) for r in site.caught_by) or "-")
        for index, base in enumerate(running.base_urls[1:], start=1):
            print(f"also on host {index}: {base}/")
        print(f"listening on {running.base_url}/  (start page {running.start_url})")
        print("press Ctrl-C to stop", flush=True)
        while not done.wait(0.2):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)
        running.stop()
    print("stopped", flush=True)
    return 0


def _log(running: traps.RunningSite, seen: SeenRequest, status: int) -> None:
    page = running.site.classify(seen.target, seen.host)
    mark = " [trap]" if page.kind is PageKind.TRAP else ""
    host = f" host {seen.host}" if seen.host else ""
    print(f"{seen.method} {seen.target}{host} -> {status}{mark}", file=sys.stderr, flush=True)
