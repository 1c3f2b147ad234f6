"""``robotkit check-url``: may this robot fetch these URLs, and why (DESIGN.md)."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from robotkit.cli import EXIT_USAGE, console, error
from robotkit.clock import system_clock
from robotkit.guard import Blacklist, BlacklistSyntaxError, Guard
from robotkit.http.robots import DEFAULT_DEADLINE, AsyncRobotsChecker, RobotsOptions
from robotkit.identity import DEFAULT_USER_AGENT, Identity, IdentityError
from robotkit.reasons import Decision, Reason
from robotkit.robots.freshness import DEFAULT_MIN_TTL
from robotkit.robots.status import Profile
from robotkit.robots.verdict import Verdict
from robotkit.urls import InvalidURL, robots_url

EXIT_DISALLOWED = 1
EXIT_DEFERRED = 3
PROGRESS_THRESHOLD = 20
"""Batches larger than this show a progress bar (on a terminal's stderr)."""

INVALID_REASONS = (Reason.INVALID_URL, Reason.UNSUPPORTED_SCHEME)


def _non_negative(text: str) -> float:
    value = float(text)
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, not {text}")
    return value


def _positive(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be > 0, not {text}")
    return value


def add_identity_options(parser: argparse.ArgumentParser) -> None:
    """The options every fetching command shares: who the robot is and how it
    reads robots.txt (DESIGN.md, command-line contract)."""
    parser.add_argument(
        "--user-agent",
        default=DEFAULT_USER_AGENT,
        metavar="UA",
        help="the robot's User-Agent; its product token (up to the first / or space) "
        f"is the name it answers to in robots.txt (default {DEFAULT_USER_AGENT!r})",
    )
    parser.add_argument("--from", dest="from_", metavar="EMAIL", help="operator's mailbox")
    parser.add_argument(
        "--profile",
        choices=[profile.value for profile in Profile],
        default=Profile.CLASSIC.value,
        help="robots.txt status-code semantics (default classic)",
    )
    parser.add_argument(
        "--robots-min-ttl",
        type=_non_negative,
        default=DEFAULT_MIN_TTL,
        metavar="SECONDS",
        help=f"shortest robots.txt cache lifetime (default {DEFAULT_MIN_TTL:g})",
    )


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "check-url",
        help="robots.txt verdicts for URLs",
        description="Say for each URL whether this robot may fetch it now (allow), "
        "never (disallow) or later (defer), and why. Exit status: 0 all allowed, "
        "1 any disallowed, 3 any deferred, 2 bad usage or invalid input.",
    )
    parser.add_argument("urls", nargs="*", metavar="URL", help="URLs to check")
    add_identity_options(parser)
    parser.add_argument(
        "--robots-file", metavar="PATH", help="check against this local file, no fetching"
    )
    parser.add_argument("--input", metavar="FILE|-", help="read URLs, one per line")
    parser.add_argument("--json", action="store_true", help="JSON Lines output")
    parser.add_argument(
        "--blacklist",
        metavar="FILE",
        help="trap-guard blacklist (lines: host:, domain:, prefix:, regex:, glob:)",
    )
    parser.add_argument(
        "--timeout",
        type=_positive,
        default=DEFAULT_DEADLINE,
        metavar="SECONDS",
        help=f"total deadline of one robots.txt fetch (default {DEFAULT_DEADLINE:g})",
    )
    parser.set_defaults(handler=run)


def guard_verdict(guard: Guard, url: str) -> Verdict | None:
    """The trap guard's URL rules, consulted before robots.txt (DESIGN.md).

    A URL the guard refuses (``repeated-path``, ``url-too-long``, a blacklist
    entry, ...) is never worth a robots.txt fetch; None means "no objection".
    The detail names the rule, so a refusal explains itself like a robots.txt one.
    """
    refusal = guard.check(url)
    if refusal.allowed:
        return None
    try:
        robots = robots_url(url)
    except InvalidURL:
        robots = None
    # An unusable URL is reported as the robots engine reports one; every other
    # refusal names the guard rule that made it.
    rule = refusal.rule
    label = f"{rule.value}: " if rule is not None and refusal.reason not in INVALID_REASONS else ""
    return Verdict(
        url=url,
        decision=Decision.DISALLOW,
        reason=refusal.reason,
        robots_url=robots,
        detail=f"{label}{refusal.detail}",
    )


def _read_input(source: str) -> list[str]:
    """URLs one per line, whitespace stripped, blank lines skipped. Raises
    OSError for an unreadable file."""
    if source == "-":
        raw = getattr(sys.stdin, "buffer", None)  # bytes, so bad UTF-8 cannot raise
        text = sys.stdin.read() if raw is None else raw.read().decode("utf-8", "replace")
    else:
        with open(source, "rb") as handle:
            text = handle.read().decode("utf-8", errors="replace")
    return [line.strip() for line in text.splitlines() if line.strip()]


async def _check_all(
    urls: Sequence[str], checker: AsyncRobotsChecker, guard: Guard, progress: Callable[[], None]
) -> list[Verdict]:
    async def one(url: str) -> Verdict:
        verdict = guard_verdict(guard, url)
        if verdict is None:
            verdict = await checker.check(url)
        progress()
        return verdict

    try:
        return list(await asyncio.gather(*(one(url) for url in urls)))
    finally:
        await checker.aclose()


def _check(urls: Sequence[str], checker: AsyncRobotsChecker, guard: Guard) -> list[Verdict]:
    if len(urls) <= PROGRESS_THRESHOLD or not sys.stderr.isatty():
        return asyncio.run(_check_all(urls, checker, guard, lambda: None))
    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("checking", total=len(urls))
        return asyncio.run(_check_all(urls, checker, guard, lambda: bar.advance(task)))


def _rule_text(verdict: Verdict) -> str:
    if verdict.rule is not None:
        return f"{verdict.rule.line}: {verdict.rule.text}"
    return verdict.detail


def _print_table(verdicts: Sequence[Verdict], now: float) -> None:
    table = Table(show_edge=False)
    # Codes are never cut (scripts and people grep them); URL and detail fold.
    table.add_column("URL", overflow="fold", ratio=3)
    table.add_column("decision", no_wrap=True)
    table.add_column("reason", no_wrap=True)
    table.add_column("robots.txt", no_wrap=True)
    table.add_column("rule / detail", overflow="fold", ratio=2)
    table.add_column("wait", justify="right", no_wrap=True)
    styles = {Decision.ALLOW: "green", Decision.DISALLOW: "red", Decision.DEFER: "yellow"}
    for verdict in verdicts:
        status = "" if verdict.robots_status is None else str(verdict.robots_status)
        outcome = "" if verdict.outcome is None else verdict.outcome.value
        wait = verdict.retry_after(now)
        if wait is None and verdict.crawl_delay is not None:
            wait_text = f"delay {verdict.crawl_delay:g}s"
        else:
            wait_text = "" if wait is None else f"retry {wait:.0f}s"
        table.add_row(
            verdict.url,
            f"[{styles[verdict.decision]}]{verdict.decision.value}[/]",
            verdict.reason.value,
            f"{status} {outcome}".strip(),
            _rule_text(verdict),
            wait_text,
        )
    console().print(table)


def exit_code(verdicts: Sequence[Verdict]) -> int:
    """DESIGN.md: 2 any invalid input, else 1 any disallowed, else 3 any
    deferred, else 0."""
    decisions = {verdict.decision for verdict in verdicts}
    if any(verdict.reason in INVALID_REASONS for verdict in verdicts):
        return EXIT_USAGE
    if Decision.DISALLOW in decisions:
        return EXIT_DISALLOWED
    if Decision.DEFER in decisions:
        return EXIT_DEFERRED
    return 0


def run(args: argparse.Namespace) -> int:
    try:
        identity = Identity(user_agent=args.user_agent, from_=args.from_)
    except IdentityError as problem:
        error(str(problem))
        return EXIT_USAGE
    # Invalid UTF-8 in argv arrives as surrogates, which no stream can print.
    urls = [url.encode("utf-8", "surrogateescape").decode("utf-8", "replace") for url in args.urls]
    unreadable = ""  # an unreadable --input is bad input: reported after the verdicts
    if args.input is not None:
        try:
            urls += _read_input(args.input)
        except OSError as problem:
            unreadable = f"cannot read --input {args.input}: {problem.strerror or problem}"
    if not urls:
        error(unreadable or "no URL given (as arguments or with --input)")
        return EXIT_USAGE
    try:
        blacklist = Blacklist.from_file(args.blacklist) if args.blacklist else None
    except OSError as problem:
        error(f"cannot read --blacklist {args.blacklist}: {problem.strerror or problem}")
        return EXIT_USAGE
    except BlacklistSyntaxError as problem:
        error(str(problem))
        return EXIT_USAGE
    guard = Guard(blacklist=blacklist)
    if args.robots_file is not None:
        try:
            checker = AsyncRobotsChecker.from_file(args.robots_file, identity)
        except OSError as problem:
            error(f"cannot read --robots-file {args.robots_file}: {problem.strerror or problem}")
            return EXIT_USAGE
    else:
        options = RobotsOptions(
            profile=Profile(args.profile), min_ttl=args.robots_min_ttl, deadline=args.timeout
        )
        checker = AsyncRobotsChecker(identity, options=options)
    verdicts = _check(urls, checker, guard)
    now = system_clock()
    if args.json:
        for verdict in verdicts:
            print(json.dumps(verdict.to_json(now)))
    else:
        _print_table(verdicts, now)
    sys.stdout.flush()
    invalid = [verdict for verdict in verdicts if verdict.reason in INVALID_REASONS]
    if unreadable:
        more = f" (and {len(invalid)} invalid URLs)" if invalid else ""
        error(unreadable + more)
        return EXIT_USAGE
    if invalid:
        first = invalid[0]
        more = f" (and {len(invalid) - 1} more)" if len(invalid) > 1 else ""
        error(f"invalid URL {first.url!r}: {first.detail}{more}")
    return exit_code(verdicts)
