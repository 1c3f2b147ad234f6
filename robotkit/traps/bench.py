"""Measuring crawlers on trap sites: serve, crawl, score from the server's log.

For each site a fresh copy is served on loopback and crawled by robotkit's crawler
in-process (:class:`robotkit.crawler.loop.Crawler`, its defaults except no delay, private
addresses allowed and a page budget), and another fresh copy by the naive
breadth-first crawler (:mod:`robotkit.traps.naive`) with the same budget. Each crawl
is scored from the requests its server saw, which no crawler can misreport, and
cut off after 60 s.

A crawl *passes* a site when it fetched every legitimate page, spent at most 20
requests inside the trap, fetched nothing robots.txt forbids (read by the status
table), and ended by itself (nothing left to fetch) within the 60 s. A crawl that
spent its budget did not end by itself: it would have gone on. The same rule
judges any crawler command in the gauntlet (:mod:`robotkit.traps.score`).
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from robotkit import traps
from robotkit.crawler.loop import CrawlConfig, Crawler
from robotkit.traps.base import Score, TrapSite
from robotkit.traps.naive import naive_crawl
from robotkit.traps.server import RunningSite

CUT_SECONDS = 60.0
PASS_TRAP_FETCHES = 20
DEFAULT_MAX_PAGES = 1000
CRAWLERS = ("robotkit", "naive")

Ended = Literal["done", "budget", "cut", "error"]
"""How a crawl ended: nothing left, budget spent, cut off at :data:`CUT_SECONDS`, or
the crawler raised (a bug, reported apart)."""


SHOWN = 5
"""How many URLs a failure reason names before it says how many more."""


def _some(targets: Sequence[str]) -> str:
    more = f" and {len(targets) - SHOWN} more" if len(targets) > SHOWN else ""
    return ", ".join(targets[:SHOWN]) + more


@dataclass(frozen=True)
class CrawlResult:
    crawler: str
    score: Score
    ended: Ended
    seconds: float
    error: str | None = None
    exit_code: int | None = None
    """The crawler command's exit status (a crawler run in its own process)."""
    cut: float = CUT_SECONDS
    max_pages: int = DEFAULT_MAX_PAGES

    def failures(self) -> list[str]:
        """Why the crawl did not pass, one readable sentence per broken rule."""
        s = self.score
        why = []
        if not s.complete:
            missed = s.legit_total - s.legit_found
            why.append(f"missed {missed} of {s.legit_total} legitimate pages: {_some(s.missing)}")
        if s.trap_fetched > PASS_TRAP_FETCHES:
            over = s.trap_fetched - PASS_TRAP_FETCHES
            why.append(
                f"{s.trap_fetched} trap fetches, {over} over the bound of {PASS_TRAP_FETCHES} "
                f"(first: {_some(s.trap_targets)})"
            )
        if s.robots_violations:
            why.append(
                f"broke robots.txt: {len(s.robots_violations)} fetches its answer forbids "
                f"by the status table: {_some(s.robots_violations)}"
            )
        if self.ended == "cut":
            why.append(f"timed out: still running after {self.cut:g} s, killed")
        elif self.ended == "budget":
            why.append(f"spent its page budget ({self.max_pages}): it would have gone on")
        elif self.ended == "error":
            why.append(f"could not run: {self.error}")
        return why

    @property
    def passed(self) -> bool:
        return not self.failures()

    def to_json(self) -> dict[str, Any]:
        s = self.score
        return {
            "legit_found": s.legit_found,
            "legit_total": s.legit_total,
            "trap_fetched": s.trap_fetched,
            "repeats": s.repeats,
            "robots_violations": len(s.robots_violations),
            "ended": self.ended,
            "exit_code": self.exit_code,
            "seconds": round(self.seconds, 2),
            "passed": self.passed,
            "missing": list(s.missing),
            "error": self.error,
            "failures": self.failures(),
        }


@dataclass(frozen=True)
class SiteResult:
    site: str
    summary: str
    runs: dict[str, CrawlResult]

    def to_json(self) -> dict[str, Any]:
        record: dict[str, Any] = {"record": "site", "site": self.site, "summary": self.summary}
        for crawler in CRAWLERS:
            run = self.runs.get(crawler)
            record[crawler] = run.to_json() if run else None
        return record


@dataclass(frozen=True)
class Totals:
    """One crawler over many sites."""

    sites: int
    legit_found: int
    legit_total: int
    trap_fetched: int
    trap_median: float
    passed: int
    ended_in_time: int
    """Crawls that ended by themselves (done or budget) before the cut."""

    @property
    def legit_percent(self) -> float:
        return 100.0 * self.legit_found / self.legit_total if self.legit_total else 100.0

    def __str__(self) -> str:
        return (
            f"legitimate {self.legit_found}/{self.legit_total} ({self.legit_percent:.1f}%), "
            f"trap fetches {self.trap_fetched} (median {self.trap_median:g}), "
            f"passed {self.passed}/{self.sites}, "
            f"ended within {CUT_SECONDS:.0f} s {self.ended_in_time}/{self.sites}"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "sites": self.sites,
            "legit_found": self.legit_found,
            "legit_total": self.legit_total,
            "legit_percent": round(self.legit_percent, 2),
            "trap_fetched": self.trap_fetched,
            "trap_median": self.trap_median,
            "passed": self.passed,
            "ended_in_time": self.ended_in_time,
        }


def totals(results: Sequence[SiteResult], crawler: str) -> Totals | None:
    runs = [r.runs[crawler] for r in results if crawler in r.runs]
    if not runs:
        return None
    traps_fetched = [run.score.trap_fetched for run in runs]
    return Totals(
        sites=len(runs),
        legit_found=sum(run.score.legit_found for run in runs),
        legit_total=sum(run.score.legit_total for run in runs),
        trap_fetched=sum(traps_fetched),
        trap_median=float(statistics.median(traps_fetched)),
        passed=sum(run.passed for run in runs),
        ended_in_time=sum(run.ended in ("done", "budget") for run in runs),
    )


async def _robotkit(seeds: list[str], max_pages: int) -> Ended:
    config = CrawlConfig(max_pages=max_pages, delay=0.0, allow_private=True)
    summary = await Crawler(seeds, config).run()
    return "budget" if summary.budget_spent else "done"


async def _naive(seeds: list[str], max_pages: int) -> Ended:
    return (await naive_crawl(seeds, max_pages)).ended


RUNNERS: dict[str, Callable[[list[str], int], Awaitable[Ended]]] = {
    "robotkit": _robotkit,
    "naive": _naive,
}


async def measure(site: TrapSite, crawler: str, max_pages: int, cut: float) -> CrawlResult:
    """Serve ``site``, crawl it with ``crawler`` from its seeds, score what the
    server saw."""
    running: RunningSite = await asyncio.to_thread(traps.start, site)
    began = time.monotonic()
    error = None
    try:
        try:
            ended = await asyncio.wait_for(RUNNERS[crawler](running.seed_urls, max_pages), cut)
        except asyncio.TimeoutError:
            ended = "cut"
        except Exception as exc:  # a crawler bug must not stop the other sites
            ended, error = "error", f"{type(exc).__name__}: {exc}"
        seconds = time.monotonic() - began
        await asyncio.to_thread(running.settle)
        score = running.score()
        return CrawlResult(crawler, score, ended, seconds, error, cut=cut, max_pages=max_pages)
    finally:
        await asyncio.to_thread(running.stop)


async def bench(
    names: Sequence[str],
    *,
    jobs: int = 4,
    max_pages: int = DEFAULT_MAX_PAGES,
    naive: bool = True,
    cut: float = CUT_SECONDS,
    on_result: Callable[[SiteResult], None] | None = None,
) -> list[SiteResult]:
    """Measure every site by name, ``jobs`` sites at a time (each crawler on its own
    copy, at once); results in the order of ``names``."""
    limit = asyncio.Semaphore(jobs)
    crawlers = CRAWLERS if naive else CRAWLERS[:1]

    async def one(name: str) -> SiteResult:
        async with limit:
            sites = [traps.get(name) for _ in crawlers]
            runs = await asyncio.gather(
                *(measure(s, c, max_pages, cut) for s, c in zip(sites, crawlers, strict=True))
            )
            result = SiteResult(name, sites[0].summary, {r.crawler: r for r in runs})
        if on_result is not None:
            on_result(result)
        return result

    return list(await asyncio.gather(*(one(name) for name in names)))


def generated_names(count: int, first_seed: int) -> list[str]:
    return [f"{traps.GENERATED_PREFIX}{seed}" for seed in range(first_seed, first_seed + count)]
