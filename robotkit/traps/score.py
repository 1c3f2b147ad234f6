"""The trap gauntlet: any crawler, given as a command, run against the trap sites and
scored from each server's own request log.

A crawler in any language is a command template with placeholders: ``{seeds}`` (the
start URLs, one argument each; inside a longer word, joined by spaces),
``{max_pages}`` (the page budget) and, optionally, ``{output}`` (a file path the
crawler may write). The template is split like a shell line but run without a shell,
so a URL is never reinterpreted; wrap it in ``sh -c '...'`` to get one.

For each site a fresh copy is served on loopback, the command runs in its own
process group, and when it exits (or is killed at the time limit) the site is
scored from the requests its server saw, never from the crawler's word. The pass
rule is the bench's (:meth:`robotkit.traps.bench.CrawlResult.failures`): every
legitimate page, at most 20 trap fetches, no fetch robots.txt forbids, and an exit
by itself within the limit. A few sites run at once (:class:`Gauntlet`): each waits
mostly on sockets.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import signal
import string
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from werkzeug import Request, Response
from werkzeug.test import Client

from robotkit import traps
from robotkit.base.errors import UsageError
from robotkit.page.meta import parse_page
from robotkit.traps.base import RequestContext, SeenRequest, TrapSite, target_of
from robotkit.traps.bench import CUT_SECONDS, DEFAULT_MAX_PAGES, CrawlResult, Ended
from robotkit.traps.server import RunningSite

PLACEHOLDERS = frozenset({"seeds", "output", "max_pages"})

SITE_OPTIONS: dict[str, dict[str, Any]] = {
    "tarpit": {"drip_interval": 0.05, "stall_seconds": 5.0},
    "slow-paths": {"stall": 2.0, "slow_legit": 0.3},
}
"""The slow sites, shrunk so a run takes seconds: the tarpit drips every 50 ms and
stalls 5 s, slow-paths' reports stall 2 s and its honest archive answers in 0.3 s.
A crawler still needs a total response deadline to get through them."""

STDERR_KEPT = 2000
"""Characters of the crawler's stderr kept for the report (its last ones)."""


class CommandError(UsageError):
    """A crawler command template that cannot be run (bad usage)."""


@dataclass(frozen=True)
class Command:
    """A crawler command template, checked once."""

    words: tuple[str, ...]

    @classmethod
    def parse(cls, words: Sequence[str]) -> Command:
        """``words`` as after ``--`` on a command line; a single word is split like
        a shell line (``--crawler 'mycrawler {seeds}'``)."""
        if len(words) == 1:
            try:
                words = shlex.split(words[0])
            except ValueError as exc:
                raise CommandError(f"cannot split the crawler command: {exc}") from None
        if not words:
            raise CommandError("no crawler command given")
        names = set()
        for word in words:
            try:
                names |= {name for _, name, _, _ in string.Formatter().parse(word) if name}
            except ValueError as exc:
                raise CommandError(f"bad placeholder in {word!r}: {exc}") from None
        unknown = names - PLACEHOLDERS
        if unknown:
            known = ", ".join(f"{{{n}}}" for n in sorted(PLACEHOLDERS))
            raise CommandError(f"unknown placeholder {{{min(unknown)}}} (known: {known})")
        if "seeds" not in names:
            raise CommandError("the crawler command must contain {seeds}")
        if shutil.which(words[0]) is None:
            raise CommandError(f"no such program: {words[0]}")
        return cls(tuple(words))

    def argv(self, seeds: Sequence[str], output: Path, max_pages: int) -> list[str]:
        """The command for one site: ``{seeds}`` alone becomes one argument per seed."""
        argv: list[str] = []
        values = {"seeds": " ".join(seeds), "output": str(output), "max_pages": str(max_pages)}
        for word in self.words:
            if word == "{seeds}":
                argv += seeds
            else:
                argv.append(word.format_map(values))
        return argv

    def __str__(self) -> str:
        return shlex.join(self.words)


def robotkit_command(*extra: str, delay: float = 0.0) -> Command:
    """robotkit's own crawler as a gauntlet command: ``delay`` between requests to a
    host, a 1 s response deadline (the gauntlet's slow sites are shrunk to match),
    ``extra`` flags appended."""
    words = [sys.executable, "-m", "robotkit", "crawl", "{seeds}", "--max-pages", "{max_pages}"]
    words += ["--delay", f"{delay:g}", "--timeout", "1", "--output", "{output}", *extra]
    return Command(tuple(words))


def site_for(name: str) -> TrapSite:
    """A fresh gauntlet copy of a site (the slow ones shrunk, :data:`SITE_OPTIONS`)."""
    return traps.get(name, **SITE_OPTIONS.get(name, {}))


@dataclass(frozen=True)
class GauntletRun:
    """One crawler command on one site: its result, and what the server saw."""

    running: RunningSite
    """The site as served (stopped now): its URLs and every request its server saw."""
    result: CrawlResult
    output: Path
    """Where ``{output}`` pointed; it may not exist."""
    stderr: str
    """The end of the crawler's stderr."""
    links: Mapping[tuple[int, str], tuple[tuple[int, str], ...]] = field(default_factory=dict)
    """Each legitimate page's links on the site, ``(host, target)`` to the same;
    gathered only when asked (for the picture of the site's link graph)."""

    @property
    def site(self) -> TrapSite:
        return self.running.site

    @property
    def name(self) -> str:
        return self.site.name

    def failures(self) -> list[str]:
        """The result's failure reasons; when the crawler also exited with an error,
        the last line of its stderr too (a crawler that cannot start says why)."""
        why = self.result.failures()
        code = self.result.exit_code
        if why and code not in (0, None):
            last = self.stderr.strip().splitlines()[-1:]
            why.append(f"the crawler exited with status {code}" + (f": {last[0]}" if last else ""))
        return why

    def to_json(self) -> dict[str, Any]:
        return {
            "record": "site",
            "site": self.name,
            "summary": self.site.summary,
            **self.result.to_json(),
            "failures": self.failures(),
        }


def page_links(running: RunningSite) -> dict[tuple[int, str], tuple[tuple[int, str], ...]]:
    """The on-site links of every legitimate page, asked of the site's handler in
    process (no socket, so the server's log stays the crawler's alone)."""
    site = running.site
    links: dict[tuple[int, str], tuple[tuple[int, str], ...]] = {}
    pages = [(0, target) for target in site.legitimate_pages]
    for host, target in sorted([*pages, *site.legitimate_elsewhere]):
        ctx = RequestContext(host, running.base_urls, running.stopping)

        def app(environ: Any, start_response: Any, ctx: RequestContext = ctx) -> Any:
            response: Response = site.handle(Request(environ), ctx)
            return response(environ, start_response)

        base = running.base_urls[host]
        answer = Client(app).get(target, base_url=base + "/")
        if "html" not in answer.headers.get("Content-Type", ""):
            continue
        found = []
        for link in parse_page(answer.get_data(as_text=True), base + target, "gauntlet").links:
            where = running.host_of(link.url)
            if where is not None:
                found.append((where, target_of(link.url)))
        links[(host, target)] = tuple(dict.fromkeys(found))
    return links


def _page_requests(requests: Iterable[SeenRequest]) -> int:
    return sum(1 for r in requests if target_of(r.target).partition("?")[0] != "/robots.txt")


def _stop_group(process: subprocess.Popen[bytes]) -> None:
    """Kill whatever is left of the crawler's process group (children included)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def run_site(
    name: str,
    command: Command,
    workdir: Path,
    *,
    max_pages: int = DEFAULT_MAX_PAGES,
    time_limit: float = CUT_SECONDS,
    links: bool = False,
) -> GauntletRun:
    """Serve a fresh copy of site ``name``, run ``command`` on it until it exits or
    ``time_limit`` passes, and score what the server saw."""
    running = traps.start(site_for(name))
    output = workdir / f"{name}.jsonl"
    err_path = workdir / f"{name}.stderr"
    argv = command.argv(running.seed_urls, output, max_pages)
    ended: Ended = "done"
    error = exit_code = None
    began = time.monotonic()
    try:
        with open(err_path, "wb") as err:
            try:
                process = subprocess.Popen(
                    argv,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=err,
                    start_new_session=True,
                )
            except OSError as exc:
                ended, error = "error", f"{argv[0]}: {exc.strerror or exc}"
            else:
                try:
                    exit_code = process.wait(timeout=time_limit)
                except subprocess.TimeoutExpired:
                    ended = "cut"
                finally:
                    _stop_group(process)
        seconds = time.monotonic() - began
        running.settle()
        requests = tuple(running.requests_seen)
        if ended == "done" and _page_requests(requests) >= max_pages:
            ended = "budget"
        score = running.score()
        graph = page_links(running) if links else {}
    finally:
        running.stop()
    running.check()
    result = CrawlResult(
        str(command), score, ended, seconds, error, exit_code, cut=time_limit, max_pages=max_pages
    )
    stderr = err_path.read_text(errors="replace")[-STDERR_KEPT:]
    return GauntletRun(running, result, output, stderr, graph)


class Gauntlet:
    """Runs sites a few at a time; :meth:`result` waits for one, and may first start
    those that come next (a test suite knows its order)."""

    def __init__(
        self,
        command: Command,
        workdir: Path,
        *,
        jobs: int = 4,
        max_pages: int = DEFAULT_MAX_PAGES,
        time_limit: float = CUT_SECONDS,
        links: bool = False,
    ) -> None:
        self.command = command
        self.workdir = workdir
        self.options: dict[str, Any] = {
            "max_pages": max_pages,
            "time_limit": time_limit,
            "links": links,
        }
        self._pool = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="gauntlet")
        self._runs: dict[str, Future[GauntletRun]] = {}

    def start(self, names: Iterable[str]) -> None:
        for name in names:
            if name not in self._runs:
                self._runs[name] = self._pool.submit(
                    run_site, name, self.command, self.workdir, **self.options
                )

    def result(self, name: str, upcoming: Iterable[str] = ()) -> GauntletRun:
        """``name``'s run, started now if it was not; ``upcoming`` are started too."""
        self.start([name, *upcoming])
        return self._runs[name].result()

    def run(
        self, names: Sequence[str], on_result: Callable[[GauntletRun], None] | None = None
    ) -> list[GauntletRun]:
        """Every site of ``names``, in that order."""
        self.start(names)
        results = []
        for name in names:
            run = self._runs[name].result()
            if on_result is not None:
                on_result(run)
            results.append(run)
        return results

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)

    def __enter__(self) -> Gauntlet:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
