"""``robotkit traps``: list the trap sites, or serve one on loopback.

``robotkit traps list`` prints a table of the sites; ``robotkit traps serve NAME``
starts one as a real local server, prints what it is and where it listens, logs
each request (marking trap pages) and serves until Ctrl-C or SIGTERM, then stops
cleanly (exit 0). Only loopback addresses are accepted: trap sites are hostile on
purpose. ``robotkit traps bench`` crawls sites with robotkit and a naive crawler
and scores both (:mod:`robotkit.traps.bench`); exit 0 when robotkit passed every
site, 1 otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import sys
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any

from rich.table import Table

from robotkit import traps
from robotkit.cli import EXIT_USAGE, console, count, error, quiet_local_robot
from robotkit.traps.base import PageKind, SeenRequest
from robotkit.traps.bench import (
    CRAWLERS,
    CUT_SECONDS,
    DEFAULT_MAX_PAGES,
    PASS_TRAP_FETCHES,
    CrawlResult,
    SiteResult,
    Totals,
    bench,
    generated_names,
    totals,
)


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
    serving.add_argument("--port", type=count, default=0, help="port (default 0: any free port)")
    serving.add_argument("--quiet", action="store_true", help="do not log each request")
    serving.set_defaults(handler=serve_handler)
    benching = actions.add_parser(
        "bench",
        help="crawl trap sites with robotkit and a naive crawler, and score both",
        description=(
            "Serve each site on loopback, crawl it with robotkit's crawler and with a naive "
            "breadth-first crawler (each on a fresh copy), and score both from the server's "
            f"log. A site is passed with every legitimate page, at most {PASS_TRAP_FETCHES} "
            f"trap fetches and a crawl that ended by itself within {CUT_SECONDS:.0f} s. "
            "Without --sites or --generated: every hand-written site."
        ),
    )
    benching.add_argument(
        "--generated",
        type=count,
        default=0,
        metavar="N",
        help="N generated sites, seeds S, S+1, ...",
    )
    benching.add_argument(
        "--seed",
        type=count,
        default=0,
        metavar="S",
        help="first seed (default 0; seeds from 1000 on are held out)",
    )
    benching.add_argument(
        "--sites",
        nargs="+",
        default=[],
        metavar="NAME",
        help="sites by name (hand-written, or generated-N)",
    )
    benching.add_argument(
        "--json", action="store_true", help="one JSON object per site, then a summary object"
    )
    benching.add_argument(
        "--jobs", type=count, default=4, metavar="K", help="sites crawled at once (default 4)"
    )
    benching.add_argument(
        "--max-pages",
        type=count,
        default=DEFAULT_MAX_PAGES,
        metavar="P",
        help=f"page budget of each crawl (default {DEFAULT_MAX_PAGES})",
    )
    benching.add_argument(
        "--naive",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="also crawl with the naive crawler (default: yes)",
    )
    benching.set_defaults(handler=bench_handler)


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
        print(f"legitimate pages: {len(site.legitimate_keys)}; caught by: ", end="")
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


def bench_handler(args: argparse.Namespace) -> int:
    if args.generated < 0 or args.seed < 0 or args.jobs < 1 or args.max_pages < 1:
        error("--generated and --seed must be >= 0, --jobs and --max-pages >= 1")
        return EXIT_USAGE
    quiet_local_robot()
    names = list(dict.fromkeys([*args.sites, *generated_names(args.generated, args.seed)]))
    if not names:
        names = traps.names()
    for name in names:
        try:
            traps.get(name)
        except traps.UnknownSite as exc:
            error(str(exc))
            return EXIT_USAGE
    progress = None if args.json or not sys.stderr.isatty() else _progress(len(names))
    results = asyncio.run(
        bench(names, jobs=args.jobs, max_pages=args.max_pages, naive=args.naive, on_result=progress)
    )
    summaries = {c: totals(results, c) for c in CRAWLERS}
    if args.json:
        for result in results:
            print(json.dumps(result.to_json()))
        summary = {c: t.to_json() if t else None for c, t in summaries.items()}
        print(json.dumps({"record": "summary", "sites": len(results), **summary}))
    else:
        _print_table(results, summaries)
    robotkit = summaries["robotkit"]
    return 0 if robotkit is not None and robotkit.passed == robotkit.sites else 1


def _progress(count: int) -> Callable[[SiteResult], None]:
    done = 0

    def report(result: SiteResult) -> None:
        nonlocal done
        done += 1
        print(f"\r{done}/{count} sites measured", end="", file=sys.stderr, flush=True)
        if done == count:
            print(file=sys.stderr)

    return report


_ENDED = {
    "done": "done",
    "budget": "budget",
    "cut": f"cut at {CUT_SECONDS:.0f} s",
    "error": "error",
}


def _cells(run: CrawlResult | None) -> list[str]:
    if run is None:
        return ["-"] * 4
    s = run.score
    legit = f"{s.legit_found}/{s.legit_total}"
    return [
        legit if run.passed else f"[red]{legit}[/]",
        str(s.trap_fetched),
        _ENDED[run.ended],
        f"{run.seconds:.1f}",
    ]


def _print_table(results: list[SiteResult], summaries: dict[str, Totals | None]) -> None:
    crawlers = [c for c in CRAWLERS if summaries[c] is not None]
    table = Table(title="trap sites: legitimate pages found, requests spent in traps")
    table.add_column("site", no_wrap=True, min_width=max(len(r.site) for r in results))
    for crawler in crawlers:
        for column in ("legit", "trap", "ended", "s"):
            table.add_column(f"{crawler}\n{column}", justify="right", no_wrap=True)
    for result in results:
        row = [result.site]
        for crawler in crawlers:
            row += _cells(result.runs.get(crawler))
        table.add_row(*row)
    out = console()
    out.print(table)
    for crawler in crawlers:
        t = summaries[crawler]
        assert t is not None
        out.print(f"{crawler}: {t}", highlight=False)
