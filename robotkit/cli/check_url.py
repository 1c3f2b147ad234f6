"""``robotkit check-url``: may this robot fetch these URLs, and why.

Verdicts stream: the input is read line by line and each verdict printed as soon
as all before it are, so a million URLs cost no more memory than a dozen; the
exit status is tallied as they pass.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import re
import shutil
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from robotkit.base.clock import system_clock
from robotkit.base.identity import DEFAULT_USER_AGENT, Identity, IdentityError, warn_if_anonymous
from robotkit.base.reasons import Decision, Reason
from robotkit.cli import EXIT_USAGE, error, non_negative, positive
from robotkit.cli.inputs import arguments, close_input, lines, open_input, shown
from robotkit.http.checker import DEFAULT_DEADLINE, AsyncRobotsChecker, RobotsOptions
from robotkit.robots.freshness import DEFAULT_MIN_TTL
from robotkit.robots.status import Profile
from robotkit.robots.verdict import Verdict
from robotkit.triage.guard import Blacklist, BlacklistSyntaxError, Guard
from robotkit.url.parse import InvalidURL, robots_url
from robotkit.url.redact import masked

EXIT_DISALLOWED = 1
EXIT_DEFERRED = 3
PROGRESS_THRESHOLD = 20
"""Batches larger than this show a progress bar (on a terminal's stderr)."""
WINDOW = 2048
"""Verdicts waiting at most to be printed (those of URLs whose robots.txt is being
fetched, and every one after the first of them): memory stays bounded however
long the input is, while fetches for up to this many URLs' origins overlap."""

INVALID_REASONS = (Reason.INVALID_URL, Reason.UNSUPPORTED_SCHEME)


def add_identity_options(parser: argparse.ArgumentParser) -> None:
    """The options every fetching command shares: who the robot is and how it
    reads robots.txt (ARCHITECTURE.md, command-line contract)."""
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
        type=non_negative,
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
        type=positive,
        default=DEFAULT_DEADLINE,
        metavar="SECONDS",
        help=f"total deadline of one robots.txt fetch (default {DEFAULT_DEADLINE:g})",
    )
    parser.set_defaults(handler=run)


def guard_verdict(guard: Guard, url: str) -> Verdict | None:
    """The trap guard's URL rules, consulted before robots.txt (ARCHITECTURE.md).

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


class _Input:
    """The URLs to check, in order: the arguments, then ``--input`` read line by
    line (never held whole), by the rule of :mod:`robotkit.cli.inputs`. A file
    that cannot be read is bad input, said after the verdicts of the URLs that
    could be read (:attr:`unreadable`)."""

    def __init__(self, urls: Sequence[str], source: str | None) -> None:
        self.urls = urls
        self.source = source
        self.unreadable = ""

    def __iter__(self) -> Iterator[str]:
        yield from self.urls
        if self.source is None:
            return
        try:
            stream = open_input(self.source)
            try:
                yield from lines(stream)
            finally:
                close_input(stream)
        except OSError as problem:
            self.unreadable = f"cannot read --input {self.source}: {problem.strerror or problem}"


class _Tally:
    """What the exit status and the closing error line need: counts, not verdicts."""

    def __init__(self) -> None:
        self.count = 0
        self.disallowed = False
        self.deferred = False
        self.invalid = 0
        self.first_invalid: Verdict | None = None

    def add(self, verdict: Verdict) -> None:
        self.count += 1
        if verdict.reason in INVALID_REASONS:
            self.invalid += 1
            if self.first_invalid is None:
                self.first_invalid = verdict
        if verdict.decision is Decision.DISALLOW:
            self.disallowed = True
        elif verdict.decision is Decision.DEFER:
            self.deferred = True

    def exit_code(self) -> int:
        """ARCHITECTURE.md: 2 any invalid input, else 1 any disallowed, else 3 any
        deferred, else 0."""
        if self.invalid:
            return EXIT_USAGE
        if self.disallowed:
            return EXIT_DISALLOWED
        if self.deferred:
            return EXIT_DEFERRED
        return 0


async def _stream(
    urls: Iterable[str],
    checker: AsyncRobotsChecker,
    guard: Guard,
    emit: Callable[[Verdict], None],
) -> None:
    """Check ``urls`` and hand each verdict to ``emit`` in input order, as soon as
    every verdict before it has been handed on. At most :data:`WINDOW` verdicts
    wait at once, so memory does not grow with the input; within the window,
    the robots.txt fetches of different origins run concurrently (one per
    origin), while URLs of an origin already known are answered at once."""
    pending: deque[Verdict | asyncio.Task[Verdict]] = deque()

    def flush() -> None:
        while pending:
            head = pending[0]
            if isinstance(head, asyncio.Task):
                if not head.done():
                    return
                head = head.result()
            pending.popleft()
            emit(head)

    try:
        for url in urls:
            verdict = guard_verdict(guard, url) or checker.known(url)
            if verdict is None:
                pending.append(asyncio.ensure_future(checker.check(url)))
                await asyncio.sleep(0)  # let its fetch start now
            else:
                pending.append(verdict)
            flush()
            while len(pending) >= WINDOW:
                head = pending[0]
                assert isinstance(head, asyncio.Task)  # else flush() had taken it
                await asyncio.wait([head])
                flush()
        while pending:
            head = pending[0]
            if isinstance(head, asyncio.Task):
                await asyncio.wait([head])
            flush()
    finally:
        for task in pending:
            if isinstance(task, asyncio.Task):
                task.cancel()
        await checker.aclose()


def _check(
    urls: Iterator[str],
    checker: AsyncRobotsChecker,
    guard: Guard,
    emit: Callable[[Verdict], None],
) -> None:
    """:func:`_stream`, with a progress bar on stderr when it is a terminal and
    the batch is larger than :data:`PROGRESS_THRESHOLD` (the total is not known
    ahead: the input is never read whole)."""
    head = list(itertools.islice(urls, PROGRESS_THRESHOLD + 1))
    everything = itertools.chain(head, urls)
    if len(head) <= PROGRESS_THRESHOLD or not sys.stderr.isatty():
        asyncio.run(_stream(everything, checker, guard, emit))
        return
    columns = (TextColumn("checking"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("checking", total=None)

        def emit_and_count(verdict: Verdict) -> None:
            emit(verdict)
            bar.advance(task)

        asyncio.run(_stream(everything, checker, guard, emit_and_count))


def _rule_text(verdict: Verdict) -> str:
    if verdict.rule is not None:
        return f"{verdict.rule.line}: {verdict.rule.text}"
    return verdict.detail


def _middle_cut(text: str, width: int) -> str:
    """``text`` in ``width`` characters, its middle replaced by an ellipsis."""
    if len(text) <= width:
        return text
    head = (width - 1) // 2
    return text[:head] + "…" + text[len(text) - (width - 1 - head) :]


_WIDTHS = (8, max(len(r.value) for r in Reason), 14, 12)
"""Widths of the columns between the URL and the rule: decision, reason,
robots.txt (status and outcome), wait."""
_PIPE_URL_WIDTH = 60
_STYLES = {Decision.ALLOW: "\x1b[32m", Decision.DISALLOW: "\x1b[31m", Decision.DEFER: "\x1b[33m"}


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def _shown(text: str) -> str:
    """``text`` safe on a terminal: a control character (an escape sequence in a
    URL from the input) becomes U+FFFD."""
    return _CONTROL.sub("\ufffd", shown(text))


class _Table:
    """The table, one line per verdict as it comes. Columns have fixed widths, so
    no row waits for the widest value, and no row ever wraps. On a terminal a
    long URL loses its middle and the last column its end, to fit the width
    (decisions in colour, control characters shown as U+FFFD, and a terminal too
    narrow for the columns cuts the row's end); on a pipe every value is printed
    in full."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.terminal = out.isatty()
        fixed = sum(_WIDTHS) + 2 * (len(_WIDTHS) + 1)
        self.width: int | None = None
        if self.terminal:
            self.width = width = shutil.get_terminal_size().columns
            self.url_width = max(20, (width - fixed) * 3 // 5)
            self.last_width: int | None = max(10, width - fixed - self.url_width)
        else:
            self.url_width, self.last_width = _PIPE_URL_WIDTH, None
        self.out.write(
            self.line("URL", "decision", "reason", "robots.txt", "wait", "rule / detail") + "\n"
        )

    def line(self, url: str, decision: str, reason: str, robots: str, wait: str, last: str) -> str:
        if self.terminal:
            url = _middle_cut(_shown(url), self.url_width)
            last = _shown(last)
        else:
            url, last = shown(url), shown(last)
            if self.last_width is not None and len(last) > self.last_width:
                last = last[: self.last_width - 1] + "…"
        middle = (
            value.ljust(width)
            for value, width in zip((decision, reason, robots, wait), _WIDTHS, strict=True)
        )
        text = "  ".join((url.ljust(self.url_width), *middle, last)).rstrip()
        if self.width is not None and len(text) > self.width:
            text = text[: self.width - 1] + "…"
        return text

    def row(self, verdict: Verdict, now: float) -> None:
        status = "" if verdict.robots_status is None else str(verdict.robots_status)
        outcome = "" if verdict.outcome is None else verdict.outcome.value
        wait = verdict.retry_after(now)
        if wait is None and verdict.crawl_delay is not None:
            wait_text = f"delay {verdict.crawl_delay:g}s"
        else:
            wait_text = "" if wait is None else f"retry {wait:.0f}s"
        decision = verdict.decision.value
        text = self.line(
            verdict.url,
            decision,
            verdict.reason.value,
            f"{status} {outcome}".strip(),
            wait_text,
            _rule_text(verdict).replace("\n", " "),
        )
        start = self.url_width + 2  # where the decision begins
        if self.terminal and len(text) >= start + len(decision):  # colour it
            style = _STYLES[verdict.decision]
            text = f"{text[:start]}{style}{decision}\x1b[0m{text[start + len(decision) :]}"
        self.out.write(text + "\n")


def run(args: argparse.Namespace) -> int:
    try:
        identity = Identity(user_agent=args.user_agent, from_=args.from_)
    except IdentityError as problem:
        error(str(problem))
        return EXIT_USAGE
    if not args.urls and args.input is None:
        error("no URL given (as arguments or with --input)")
        return EXIT_USAGE
    source = _Input(arguments(args.urls), args.input)
    urls = iter(source)
    first = next(urls, None)
    if first is None:  # an empty input: nothing to check, as for normalize
        if source.unreadable:
            error(source.unreadable)
            return EXIT_USAGE
        return 0
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
        warn_if_anonymous(identity)  # (a local robots file is read by nobody else)
        options = RobotsOptions(
            profile=Profile(args.profile), min_ttl=args.robots_min_ttl, deadline=args.timeout
        )
        checker = AsyncRobotsChecker(identity, options=options)
    tally = _Tally()
    out = sys.stdout
    table = None if args.json else _Table(out)

    def emit(verdict: Verdict) -> None:
        tally.add(verdict)
        if table is None:
            record = verdict.to_json(system_clock())
            record["url"] = shown(verdict.url)
            out.write(json.dumps(record) + "\n")
        else:
            table.row(verdict, system_clock())

    _check(itertools.chain((first,), urls), checker, guard, emit)
    out.flush()
    if source.unreadable:
        more = f" (and {tally.invalid} invalid URLs)" if tally.invalid else ""
        error(source.unreadable + more)
        return EXIT_USAGE
    if tally.first_invalid is not None:
        first_invalid = tally.first_invalid
        more = f" (and {tally.invalid - 1} more)" if tally.invalid > 1 else ""
        url = shown(masked(first_invalid.url))
        error(f"invalid URL {url!r}: {first_invalid.detail}{more}")
    return tally.exit_code()
