"""``robotkit demo``: every trap site on loopback, crawled by robotkit, scored.

Each site is served on 127.0.0.x, crawled with :class:`robotkit.crawler.loop.Crawler`
(all sites at once, each host paced), and scored from the requests its server saw:
legitimate pages found, trap pages fetched, and the reason codes robotkit gave for
trap URLs. A site passes with every legitimate page and at most
:data:`MAX_TRAP_PAGES` trap pages. Each site's line is printed on stderr as it
finishes, so the run is never silent; the table and its legend follow on stdout.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rich.table import Table

from robotkit import traps
from robotkit.base.reasons import Reason
from robotkit.crawler.loop import CrawlConfig, Crawler, CrawlEvent
from robotkit.traps.base import Score, target_of
from robotkit.traps.server import RunningSite

MAX_TRAP_PAGES = 20
"""A site passes with at most this many requests spent inside its trap."""

DEMO_CONFIG = CrawlConfig(
    max_pages=300,
    delay=0.05,
    allow_private=True,
    response_timeout=2.0,
    max_defer=0.0,
)
"""Small delay and a 2 s response deadline so the whole demo takes seconds; no
waiting for deferred hosts (robots-503 asks for an hour)."""


@dataclass(frozen=True)
class SiteResult:
    """One site's score and what robotkit said about its trap URLs."""

    name: str
    score: Score
    trap_reasons: Counter[Reason]
    seconds: float

    @property
    def passed(self) -> bool:
        return self.score.complete and self.score.trap_fetched <= MAX_TRAP_PAGES


def trap_reasons(site: RunningSite, events: list[CrawlEvent]) -> Counter[Reason]:
    """Reason codes robotkit gave for URLs in the site's trap part."""
    found: Counter[Reason] = Counter()
    for event in events:
        if event.reason is None:
            continue
        for url in (event.url, event.final_url):
            host = site.host_of(url) if url is not None else None
            if url is not None and host is not None and site.site.is_trap(target_of(url), host):
                found[event.reason] += 1
                break
    return found


async def crawl_site(name: str, config: CrawlConfig = DEMO_CONFIG) -> SiteResult:
    """Serve one trap site, crawl it from its start page, score it."""
    site = traps.start(traps.get(name))
    began = time.monotonic()
    try:
        events: list[CrawlEvent] = []
        crawler = Crawler([site.start_url], config, on_event=events.append)
        await crawler.run()
        seconds = time.monotonic() - began
        return SiteResult(name, site.score(), trap_reasons(site, events), seconds)
    finally:
        await asyncio.to_thread(site.stop)
        site.check()


async def crawl_all(
    names: list[str],
    config: CrawlConfig = DEMO_CONFIG,
    on_done: Callable[[SiteResult], None] | None = None,
) -> list[SiteResult]:
    """Every site at once; ``on_done`` hears of each as it finishes. Results in
    the order of ``names``."""

    async def one(name: str) -> SiteResult:
        result = await crawl_site(name, config)
        if on_done is not None:
            on_done(result)
        return result

    return list(await asyncio.gather(*(one(name) for name in names)))


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="crawl all trap sites on loopback and score robotkit",
        description=f"Start all {len(traps.names())} trap sites (or those named) on "
        "loopback, crawl each with robotkit, and show legitimate pages found, trap pages "
        "fetched and the rules that caught the traps; one line per site on stderr as it "
        f"finishes. Exit 0 when every site passes (all legitimate pages, at most "
        f"{MAX_TRAP_PAGES} trap pages), else 1.",
    )
    parser.add_argument("sites", nargs="*", metavar="SITE", help="only these sites (default: all)")
    parser.set_defaults(handler=run)


def what_runs(names: list[str]) -> str:
    """The sites a run covers, said plainly: all of them, or which."""
    total = len(traps.names())
    if sorted(names) == sorted(traps.names()):
        return f"all {total} trap sites"
    listed = ", ".join(names)
    return f"{len(names)} of the {total} trap sites ({listed})"


LEGEND = (
    "legitimate: the site's ordinary pages robotkit found, of all it has; "
    "trap pages: requests robotkit spent inside the site's trap (the server's count); "
    "caught by: the reason codes robotkit gave for trap URLs, most frequent first; "
    "time: the site's crawl, all sites crawled at once; "
    f"result: pass = every legitimate page and at most {MAX_TRAP_PAGES} trap pages."
)


def _progress(total: int) -> Callable[[SiteResult], None]:
    """Prints one line on stderr per finished site: ``[k/N] name: pass ...``."""
    done = 0

    def report(result: SiteResult) -> None:
        nonlocal done
        done += 1
        score = result.score
        verdict = "pass" if result.passed else "FAIL"
        print(
            f"[{done}/{total}] {result.name}: {verdict} ({score.legit_found}/"
            f"{score.legit_total} legitimate, {score.trap_fetched} trap pages, "
            f"{result.seconds:.1f} s)",
            file=sys.stderr,
            flush=True,
        )

    return report


def result_table(results: list[SiteResult], title: str = "every trap site") -> Table:
    table = Table(title=f"robotkit demo: {title}, crawled politely")
    table.add_column("site", no_wrap=True)
    table.add_column("legitimate", justify="right")
    table.add_column("trap pages", justify="right")
    table.add_column("caught by", no_wrap=True)
    table.add_column("time", justify="right")
    table.add_column("result")
    for result in results:
        score = result.score
        caught = ", ".join(reason.value for reason, _ in result.trap_reasons.most_common(3))
        table.add_row(
            result.name,
            f"{score.legit_found}/{score.legit_total}",
            str(score.trap_fetched),
            caught or "-",
            f"{result.seconds:.1f}s",
            "[green]pass[/]" if result.passed else "[red]FAIL[/]",
        )
    return table


def run(args: argparse.Namespace) -> int:
    from robotkit.cli import EXIT_USAGE, error, quiet_local_robot
    from robotkit.cli import console as report_console

    names = args.sites or traps.names()
    unknown = [name for name in names if name not in traps.SITES]
    if unknown:
        error(f"unknown trap site {unknown[0]!r} (see `robotkit traps list`)")
        return EXIT_USAGE
    quiet_local_robot()
    covered = what_runs(names)
    print(
        f"robotkit demo: serving {covered} on loopback and crawling them all at once",
        file=sys.stderr,
        flush=True,
    )
    began = time.monotonic()
    results = asyncio.run(crawl_all(names, DEMO_CONFIG, _progress(len(names))))
    console = report_console()
    console.print(result_table(results, covered.split(" (")[0]))
    console.print(LEGEND, highlight=False)
    passed = sum(result.passed for result in results)
    console.print(
        f"{passed}/{len(results)} sites passed in {time.monotonic() - began:.1f} s "
        f"(every legitimate page, at most {MAX_TRAP_PAGES} trap pages)"
    )
    return 0 if passed == len(results) else 1
