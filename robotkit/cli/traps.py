"""``robotkit traps``: list the trap sites, or serve one on loopback.

``robotkit traps list`` prints a table of the sites; ``robotkit traps serve NAME``
starts one as a real local server, prints what it is and where it listens, logs
each request (marking trap pages) and serves until Ctrl-C or SIGTERM, then stops
cleanly (exit 0). Only loopback addresses are accepted: trap sites are hostile on
purpose. ``robotkit traps bench`` crawls sites with robotkit and a naive crawler
and scores both (:mod:`robotkit.traps.bench`); exit 0 when robotkit passed every
site, 1 otherwise. ``robotkit traps score -- CMD ...`` runs any crawler command on
the sites (the gauntlet, :mod:`robotkit.traps.score`) and prints its scorecard, as
JSON lines with ``--json`` and as an HTML report with ``--html FILE``; exit 0 when
every site passed, 1 otherwise, 2 for bad usage.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

from rich.table import Table

from robotkit import traps
from robotkit.cli import EXIT_USAGE, console, count, error, positive, quiet_local_robot
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
from robotkit.traps.report import ended_text, render
from robotkit.traps.score import (
    Command,
    CommandError,
    Gauntlet,
    GauntletRun,
    robotkit_command,
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
            "trap fetches, nothing robots.txt forbids and a crawl that ended by itself within "
            f"{CUT_SECONDS:.0f} s. "
            "Without --sites or --generated: every hand-written site."
        ),
    )
    _site_options(benching, "page budget of each crawl")
    benching.add_argument(
        "--naive",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="also crawl with the naive crawler (default: yes)",
    )
    benching.set_defaults(handler=bench_handler)
    scoring = actions.add_parser(
        "score",
        help="run any crawler command on the trap sites and print its scorecard",
        description=(
            "The trap gauntlet: serve each site on loopback, run CMD on it (placeholders "
            "{seeds}, {max_pages}, optional {output}; no shell) and score the crawl from the "
            f"server's log. A site is passed with every legitimate page, at most "
            f"{PASS_TRAP_FETCHES} trap fetches, nothing robots.txt forbids, and an exit by "
            "itself within the time limit. Without CMD: robotkit crawl. Exit 0 when every "
            "site passed, 1 otherwise, 2 for bad usage."
        ),
    )
    _site_options(scoring, "the {max_pages} given to the crawler")
    scoring.add_argument(
        "--time-limit",
        type=positive,
        default=CUT_SECONDS,
        metavar="S",
        help=f"seconds before a crawl is killed (default {CUT_SECONDS:g})",
    )
    scoring.add_argument("--html", metavar="FILE", help="also write the HTML report to FILE")
    scoring.add_argument(
        "command", nargs=argparse.REMAINDER, metavar="-- CMD", help="the crawler command"
    )
    scoring.set_defaults(handler=score_handler)


def _site_options(parser: argparse.ArgumentParser, budget: str) -> None:
    """The options ``bench`` and ``score`` share: which sites, how many at once,
    the page budget, JSON output."""
    parser.add_argument(
        "--generated",
        type=count,
        default=0,
        metavar="N",
        help="N generated sites, seeds S, S+1, ...",
    )
    parser.add_argument(
        "--seed",
        type=count,
        default=0,
        metavar="S",
        help="first seed (default 0; seeds from 1000 on are held out)",
    )
    parser.add_argument(
        "--sites",
        nargs="+",
        default=[],
        metavar="NAME",
        help="sites by name (hand-written, or generated-N)",
    )
    parser.add_argument(
        "--json", action="store_true", help="one JSON object per site, then a summary object"
    )
    parser.add_argument(
        "--jobs", type=count, default=4, metavar="K", help="sites crawled at once (default 4)"
    )
    parser.add_argument(
        "--max-pages",
        type=count,
        default=DEFAULT_MAX_PAGES,
        metavar="P",
        help=f"{budget} (default {DEFAULT_MAX_PAGES})",
    )


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
    names = _site_names(args)
    if names is None:
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


def _progress(count: int) -> Callable[[object], None]:
    done = 0

    def report(result: object) -> None:
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


def _site_names(args: argparse.Namespace) -> list[str] | None:
    """The sites asked for (every hand-written one by default); None after an
    error was printed."""
    names = list(dict.fromkeys([*args.sites, *generated_names(args.generated, args.seed)]))
    for name in names:
        try:
            traps.get(name)
        except traps.UnknownSite as exc:
            error(str(exc))
            return None
    return names or traps.names()


def score_handler(args: argparse.Namespace) -> int:
    words = args.command[1:] if args.command[:1] == ["--"] else args.command
    try:
        command = Command.parse(words) if words else robotkit_command()
    except CommandError as exc:
        error(str(exc))
        return EXIT_USAGE
    if args.jobs < 1 or args.max_pages < 1:
        error("--jobs and --max-pages must be >= 1")
        return EXIT_USAGE
    names = _site_names(args)
    if names is None:
        return EXIT_USAGE
    progress = None if args.json or not sys.stderr.isatty() else _progress(len(names))
    with tempfile.TemporaryDirectory(prefix="robotkit-gauntlet-") as workdir:
        gauntlet = Gauntlet(
            command,
            Path(workdir),
            jobs=args.jobs,
            max_pages=args.max_pages,
            time_limit=args.time_limit,
            links=args.html is not None,
        )
        with gauntlet:
            runs = gauntlet.run(names, on_result=progress)
    summary = totals(
        [SiteResult(r.name, r.site.summary, {"command": r.result}) for r in runs], "command"
    )
    assert summary is not None
    if args.html is not None:
        try:
            Path(args.html).write_text(render(runs, str(command)), encoding="utf-8")
        except OSError as exc:
            error(f"cannot write {args.html}: {exc.strerror or exc}")
            return EXIT_USAGE
    if args.json:
        for run in runs:
            print(json.dumps(run.to_json()))
        print(json.dumps({"record": "summary", "command": str(command), **summary.to_json()}))
    else:
        _print_scorecard(runs, summary)
    return 0 if summary.passed == summary.sites else 1


def _print_scorecard(runs: list[GauntletRun], summary: Totals) -> None:
    table = Table(title="trap gauntlet: scored from each site's server log")
    table.add_column("site", no_wrap=True)
    for column in ("legitimate", "trap fetches", "robots violations", "ended", "s", "verdict"):
        table.add_column(column, justify="right", no_wrap=True)
    for run in runs:
        result, s = run.result, run.result.score
        verdict = "pass" if result.passed else "[red]fail[/]"
        table.add_row(
            run.name,
            f"{s.legit_found}/{s.legit_total}",
            str(s.trap_fetched),
            str(len(s.robots_violations)),
            ended_text(result),
            f"{result.seconds:.1f}",
            verdict,
        )
    out = console()
    out.print(table)
    for run in runs:
        for line in run.failures():
            out.print(f"{run.name}: {line}", highlight=False, markup=False)
    out.print(f"crawler: {summary}", highlight=False)
