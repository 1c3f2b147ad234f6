"""``robotkit crawl``: a polite breadth-first crawl of the seeds' hosts (ARCHITECTURE.md).

One JSON line per URL decision with ``--output``; on a terminal, a live panel on
stderr (:class:`CrawlDisplay`: pages against the budget, the queue, the hosts held
back and why, the trap signals so far); a summary table at the end. ``--state DIR``
keeps the crawl there (:mod:`robotkit.crawler.state`) and resumes it when the same
command is run again; Ctrl-C saves the state and exits (status 130).

A resumed crawl keeps its frontier (queues, seen set, parked URLs, per-host
counts), its counters and what it learned (page fingerprints, soft-404 answers,
novelty windows, the automatic blacklist), so it pays for no trap twice. The
directory is locked while a crawl runs; a second crawl on it, a resume with other
seeds (without ``--add-seeds``) or a damaged state file is one line and exit 2.

A crawl that fetched no page at all (every seed unreachable, deferred or refused)
is a failure a script must be able to see: exit 4, with the reasons on stderr.
``--output`` starts a fresh file unless ``--append`` is given or the crawl resumes,
whose decisions belong after the ones already written.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import sys
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.panel import Panel
from rich.progress_bar import ProgressBar
from rich.table import Table

from robotkit.base.identity import Identity, IdentityError
from robotkit.cli import EXIT_USAGE, console, count, error, non_negative, positive, size
from robotkit.cli.check_url import add_identity_options
from robotkit.crawler.loop import CrawlConfig, Crawler, CrawlEvent, CrawlSummary, is_loopback_url
from robotkit.crawler.state import MAIN_CHECKPOINT, CrawlState
from robotkit.frontier.frontier import CheckpointError
from robotkit.http.checker import RobotsOptions
from robotkit.robots.status import Profile
from robotkit.url.normalization import normalize
from robotkit.url.parse import InvalidURL
from robotkit.url.redact import masked

LEASE_MARGIN = 5.0
"""Seconds a shared pacing reservation outlives the response deadline (--redis)."""

if TYPE_CHECKING:
    from robotkit.shared.state import SharedState

EXIT_INTERRUPTED = 130
EXIT_NOTHING_FETCHED = 4
"""Not 1 (a Python crash) nor 2 (bad usage) nor 3 (check-url's "deferred")."""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "crawl",
        help="polite breadth-first crawl of the seeds' hosts",
        description="Crawl breadth-first, politely, on the seeds' hosts only, until "
        "nothing is left or a budget is spent. Exit status: 0 done, 2 bad usage, "
        f"{EXIT_NOTHING_FETCHED} no page could be fetched (the reasons on stderr), "
        "130 interrupted (state saved with --state).",
    )
    parser.add_argument("seeds", nargs="*", metavar="SEED", help="start URLs")
    add_identity_options(parser)
    parser.add_argument(
        "--max-pages", type=count, default=1000, metavar="N", help="page budget (default 1000)"
    )
    parser.add_argument(
        "--max-depth", type=count, default=None, metavar="D", help="links away from a seed"
    )
    parser.add_argument(
        "--delay",
        type=non_negative,
        default=1.0,
        metavar="SECONDS",
        help="seconds from the end of a response to the next request to the host (default 1)",
    )
    parser.add_argument(
        "--timeout",
        type=positive,
        default=CrawlConfig().response_timeout,
        metavar="SECONDS",
        help="total deadline of one response, body included (default "
        f"{CrawlConfig().response_timeout:g})",
    )
    parser.add_argument(
        "--max-body",
        type=size,
        default=CrawlConfig().max_body_bytes,
        metavar="SIZE",
        help="bytes of a page kept: a longer body is cut there and its links past the cut "
        "are lost (reason body-too-large); suffixes K, M, G (default "
        f"{CrawlConfig().max_body_bytes // 1024**2}M)",
    )
    parser.add_argument(
        "--output",
        metavar="FILE.jsonl",
        help="one JSON line per URL decision ('-': stdout); an existing file is "
        "replaced, unless --append or a resumed --state crawl",
    )
    parser.add_argument(
        "--append", action="store_true", help="add to the --output file instead of replacing it"
    )
    parser.add_argument(
        "--state",
        metavar="DIR",
        help="keep the crawl here (locked while it runs): frontier, counters and what "
        "was learned; rerun the command to resume",
    )
    parser.add_argument(
        "--add-seeds",
        action="store_true",
        help="with --state: resume even though the seeds differ from the recorded "
        "ones, adding the new seeds to the crawl",
    )
    parser.add_argument(
        "--allow-private",
        action="store_true",
        help="allow private and loopback addresses (implied when every seed is a "
        "loopback address such as 127.0.0.1 or localhost)",
    )
    shared = parser.add_argument_group(
        "crawling together (the redis extra)",
        "Start the same command on several processes or machines with one --redis and "
        "--crawl-id: they crawl together, each URL fetched once, one request at a time "
        "per host across all of them, and all exit when nothing is left.",
    )
    shared.add_argument(
        "--redis", metavar="URL", help="keep the crawl's state in Redis (redis://host:port/db)"
    )
    shared.add_argument(
        "--crawl-id",
        default="default",
        metavar="ID",
        help="the crawl's name in Redis: workers with the same id crawl together "
        "(default 'default')",
    )
    shared.add_argument(
        "--redis-clear",
        action="store_true",
        help="remove everything the crawl keeps in Redis (its frontier, seen set and "
        "politeness state), then exit; run it when no worker of the crawl is running",
    )
    shared.add_argument(
        "--redis-lease",
        type=positive,
        default=None,
        metavar="SECONDS",
        help="how long a worker's hosts stay its own without a renewal: a killed "
        "worker's unfinished URLs go to the others after this (default 15)",
    )
    parser.set_defaults(handler=run, crawl_parser=parser)


@dataclass(frozen=True)
class WaitingHost:
    """One host the crawl is holding back: why, and for how many more seconds."""

    host: str
    why: str
    seconds: float


class CrawlDisplay:
    """The live view on a terminal (a rich renderable, redrawn by :class:`Live`):
    pages against the budget, the queue, the hosts held back and why, and the trap
    signals the crawl has seen. It only reads the crawler's state."""

    MAX_HOSTS = 5
    MAX_SIGNALS = 3

    def __init__(self, crawler: Crawler, budget: int) -> None:
        self.crawler = crawler
        self.budget = budget

    def waiting_hosts(self) -> list[WaitingHost]:
        """Hosts not ready yet, soonest first; a host whose wait is over is not
        waiting any more, whatever the last reason recorded for it."""
        crawler = self.crawler
        now = crawler.clock()
        waiting = []
        for origin, why in list(crawler.waiting.items()):
            ready = crawler.frontier.ready_at(origin)
            if ready > now:
                waiting.append(WaitingHost(str(origin), why, ready - now))
        return sorted(waiting, key=lambda w: (w.seconds, w.host))

    def __rich__(self) -> Panel:
        crawler, summary = self.crawler, self.crawler.summary
        stats = crawler.frontier.stats()
        counts = Table.grid(padding=(0, 2))
        counts.add_row(
            f"[bold]pages[/] {crawler.pages}/{self.budget}",
            f"failed {summary.failed}",
            f"queued {stats.queued - stats.demoted} (+{stats.demoted} demoted)",
            f"in flight {stats.in_flight}",
            f"parked {stats.parked}",
            f"probes {summary.probes}",
        )
        # In a grid row, so that the bar ends its line (alone it does not).
        bar = Table.grid(expand=True)
        bar.add_row(
            ProgressBar(total=max(self.budget, 1), completed=min(crawler.pages, self.budget))
        )
        parts: list[RenderableType] = [counts, bar]

        waiting = self.waiting_hosts()
        hosts = Table(title="hosts waiting", title_justify="left", expand=True, box=None)
        hosts.add_column("host", overflow="fold")
        hosts.add_column("why")
        hosts.add_column("for", justify="right")
        for host in waiting[: self.MAX_HOSTS]:
            hosts.add_row(host.host, host.why, f"{host.seconds:.1f}s")
        if len(waiting) > self.MAX_HOSTS:
            hosts.add_row(f"... {len(waiting) - self.MAX_HOSTS} more", "", "")
        if not waiting:
            hosts.add_row("[dim]none[/]", "", "")
        parts.append(hosts)

        signals = Table(
            title="trap signals", title_justify="left", expand=True, box=None, show_header=False
        )
        signals.add_column("signal", overflow="fold")
        found = [*summary.flagged.most_common(), *summary.skipped.most_common()]
        if found:
            signals.add_row(", ".join(f"{reason.value} {n}" for reason, n in found[:6]))
        for signal_text in summary.trap_signals[-self.MAX_SIGNALS :]:
            signals.add_row(f"[yellow]{signal_text}[/]")
        if not found and not summary.trap_signals:
            signals.add_row("[dim]none yet[/]")
        parts.append(signals)
        return Panel(Group(*parts), title="robotkit crawl", title_align="left")


def summary_table(summary: CrawlSummary) -> Group:
    """The end-of-crawl tables: totals, skips by reason, hosts."""
    totals = Table(title="robotkit crawl", show_header=False)
    totals.add_column("what")
    totals.add_column("count", justify="right")
    totals.add_row("pages fetched", str(summary.fetched))
    totals.add_row("failed (network, timeout)", str(summary.failed))
    totals.add_row("soft-404 probes", str(summary.probes))
    for reason, n in summary.flagged.most_common():
        totals.add_row(f"fetched, then {reason.value}", str(n))
    totals.add_row("left in the frontier", str(summary.queued_left + summary.parked_left))
    ended = (
        "interrupted"
        if summary.interrupted
        else "page budget spent"
        if summary.budget_spent
        else "nothing left"
    )
    totals.add_row("ended", ended)
    totals.add_row("seconds", f"{summary.ended - summary.started:.1f}")
    skipped = Table(title="skipped by reason")
    skipped.add_column("reason")
    skipped.add_column("URLs", justify="right")
    for reason, n in summary.skipped.most_common():
        skipped.add_row(reason.value, str(n))
    if not summary.hosts:  # nothing happened in this run (a finished crawl rerun)
        return Group(totals, skipped) if summary.skipped else Group(totals)
    hosts = Table(title="hosts")
    hosts.add_column("host")
    for column in ("fetched", "failed", "skipped"):
        hosts.add_column(column, justify="right")
    for host, counts in sorted(summary.hosts.items()):
        hosts.add_row(host, *(str(counts[c]) for c in ("fetched", "failed", "skipped")))
    return Group(totals, skipped, hosts) if summary.skipped else Group(totals, hosts)


def _notice(message: str) -> None:
    print(f"robotkit: {message}", file=sys.stderr)


def _writer(stream: IO[str]) -> Any:
    def write(event: CrawlEvent) -> None:
        stream.write(json.dumps(event.to_json(), ensure_ascii=False) + "\n")

    return write


def run(args: argparse.Namespace) -> int:
    if args.redis is None and (args.redis_clear or args.redis_lease is not None):
        error("--redis-clear and --redis-lease need --redis URL")
        return EXIT_USAGE
    if args.redis is not None and args.state is not None:
        error("--redis and --state exclude each other: a shared crawl keeps its state in Redis")
        return EXIT_USAGE
    if args.redis_clear:
        return _clear(args.redis, args.crawl_id)
    if not args.seeds:  # optional only for --redis-clear: argparse's own message
        args.crawl_parser.error("the following arguments are required: SEED")
    seeds: list[str] = []
    for seed in args.seeds:
        try:
            seeds.append(normalize(seed).original)
        except InvalidURL as exc:
            error(f"invalid seed {seed!r}: {exc.detail} ({exc.reason})")
            return EXIT_USAGE
    try:
        identity = Identity(user_agent=args.user_agent, from_=args.from_)
    except IdentityError as exc:
        error(str(exc))
        return EXIT_USAGE
    # A seed that names a loopback address literally was typed by the operator:
    # crawling it cannot be a forged redirect or a rebound DNS name, and the crawl
    # stays on the seeds' hosts, so it needs no extra flag.
    allow_private = args.allow_private or all(is_loopback_url(seed) for seed in seeds)
    config = CrawlConfig(
        max_pages=args.max_pages,
        max_depth=args.max_depth,
        delay=args.delay,
        robots=RobotsOptions(profile=Profile(args.profile), min_ttl=args.robots_min_ttl),
        allow_private=allow_private,
        response_timeout=args.timeout,
        max_body_bytes=args.max_body,
    )
    if args.state is not None and Path(args.state).exists() and not Path(args.state).is_dir():
        error(f"--state {args.state} is a file; give a directory to keep the crawl in")
        return EXIT_USAGE
    resuming = args.state is not None and (Path(args.state) / MAIN_CHECKPOINT).exists()
    with ExitStack() as stack:
        out: IO[str] | None = None
        if args.output == "-":
            out = sys.stdout
        elif args.output:
            mode = "a" if args.append or resuming else "w"
            try:
                out = stack.enter_context(open(args.output, mode, encoding="utf-8", buffering=1))
            except OSError as exc:
                error(f"cannot write --output {args.output}: {exc.strerror}")
                return EXIT_USAGE
        shared = None
        shared_errors: tuple[type[Exception], ...] = ()  # none without --redis
        if args.redis is not None:
            shared = _connect(args.redis, args.crawl_id, config)
            if shared is None:
                return EXIT_USAGE
            stack.callback(shared.close)
            from robotkit.shared.connection import SharedStateUnavailable

            shared_errors = (SharedStateUnavailable,)
        crawler = Crawler(
            seeds,
            config,
            identity=identity,
            on_event=_writer(out) if out is not None else None,
            state_dir=None
            if args.state is None
            else CrawlState(args.state, add_seeds=args.add_seeds, notice=_notice),
            shared=shared,
            owner_lease=args.redis_lease,
        )
        report = console(sys.stderr if out is sys.stdout else sys.stdout)
        try:
            summary = asyncio.run(_crawl(crawler, args.max_pages))
        except shared_errors as exc:
            error(f"stopped, fetching nothing on a guess: {exc}")
            return EXIT_USAGE
        except CheckpointError as exc:
            error(str(exc))
            return EXIT_USAGE
        except BrokenPipeError:
            raise  # the reader of --output - went away: robotkit.cli.main ends quietly
        except OSError as exc:
            error(f"{exc.strerror or exc}: {getattr(exc, 'filename', '') or ''}".rstrip(": "))
            return EXIT_USAGE
        except Exception as exc:  # a bug: still one line, never a traceback
            error(f"internal error: {type(exc).__name__}: {exc}")
            return 1
    report.print(summary_table(summary))
    if summary.interrupted:
        where = f"; state saved in {args.state}" if args.state else ""
        print(f"robotkit: interrupted{where}", file=sys.stderr)
        return EXIT_INTERRUPTED
    if summary.fetched == 0:
        error(f"no page was fetched: {_why_nothing(summary)}")
        return EXIT_NOTHING_FETCHED
    return 0


def _connect(url: str, crawl_id: str, config: CrawlConfig) -> SharedState | None:
    """The shared state at ``url``, or None after one line on stderr."""
    try:
        from robotkit.shared.connection import SharedStateUnavailable
        from robotkit.shared.state import SharedState
    except ImportError:
        error("--redis needs the redis extra: pip install 'robotkit[redis]'")
        return None
    try:
        # A reservation outlives a killed worker's request by a little: the
        # response deadline plus a margin, after which its host is free again.
        return SharedState.connect(url, crawl_id, lease=config.response_timeout + LEASE_MARGIN)
    except (SharedStateUnavailable, ValueError) as exc:
        error(str(exc))
        return None


def _clear(url: str, crawl_id: str) -> int:
    """``--redis-clear``: remove the crawl's keys; say how many."""
    with ExitStack() as stack:
        shared = _connect(url, crawl_id, CrawlConfig())
        if shared is None:
            return EXIT_USAGE
        stack.callback(shared.close)
        from robotkit.shared.connection import SharedStateUnavailable

        try:
            removed = shared.clear()
        except SharedStateUnavailable as exc:
            error(str(exc))
            return EXIT_USAGE
    shown = masked(url)
    print(f"robotkit: removed {removed} keys of crawl {crawl_id!r} from {shown}", file=sys.stderr)
    return 0


def _why_nothing(summary: CrawlSummary) -> str:
    """What became of the URLs of a crawl that fetched nothing, in a few words."""
    parts = [f"{reason.value} {n}" for reason, n in summary.skipped.most_common(4)]
    if summary.failed:
        parts.append(f"failed (network, timeout) {summary.failed}")
    return ", ".join(parts) if parts else "nothing to fetch"


async def _crawl(crawler: Crawler, budget: int) -> CrawlSummary:
    loop = asyncio.get_running_loop()

    def interrupt() -> None:
        crawler.stop()
        loop.remove_signal_handler(signal.SIGINT)  # a second Ctrl-C is not polite

    loop.add_signal_handler(signal.SIGINT, interrupt)
    loop.add_signal_handler(signal.SIGTERM, crawler.stop)
    try:
        if sys.stderr.isatty():
            # stdout is left alone: with ``--output -`` it carries the JSON lines.
            display = CrawlDisplay(crawler, budget)
            live = Live(
                display,
                console=Console(file=sys.stderr),
                refresh_per_second=4,
                redirect_stdout=False,
            )
            with live:
                return await crawler.run()
        return await crawler.run()
    finally:
        loop.remove_signal_handler(signal.SIGINT)
        loop.remove_signal_handler(signal.SIGTERM)
