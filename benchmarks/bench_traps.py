"""Trap sites: a naive breadth-first crawler against robotkit, in one run.

For every trap site, two fresh copies are served on loopback: one is crawled by a
naive breadth-first crawler, the other by :class:`robotkit.crawl.Crawler`, each with
the same page budget. Both are scored from the requests their server saw
(``RunningSite.score``): legitimate pages found, and requests spent inside the trap
(trap pages plus repeated fetches of a page already fetched).

The naive crawler is :mod:`robotkit.traps.naive` (what a first crawler looks like:
redirects followed, exact-string seen set, every loopback link, no manners). A site
that holds it past ``--wall`` seconds (the tarpit's drip never trips a per-read
timeout) is cut off and marked "stuck".

robotkit runs with its defaults except ``delay`` 0.01 s, ``response_timeout`` 2 s
and ``max_defer`` 0 (do not wait an hour for robots-503).

Usage: ``python benchmarks/bench_traps.py [--pages 200] [--wall 15] [SITE ...]``
"""

from __future__ import annotations

import argparse
import asyncio
import time
from dataclasses import dataclass

from rich.console import Console
from rich.table import Table

from robotkit import traps
from robotkit.crawl import CrawlConfig, Crawler
from robotkit.traps.base import RunningSite, Score
from robotkit.traps.naive import naive_crawl


@dataclass(frozen=True)
class Run:
    score: Score
    seconds: float
    stuck: bool = False


async def robotkit_crawl(seeds: list[str], budget: int) -> None:
    config = CrawlConfig(
        max_pages=budget, delay=0.01, allow_private=True, response_timeout=2.0, max_defer=0.0
    )
    await Crawler(seeds, config).run()


async def naive(seeds: list[str], budget: int) -> None:
    await naive_crawl(seeds, budget)


async def measure(name: str, robotkit: bool, budget: int, wall: float) -> Run:
    site: RunningSite = traps.start(traps.get(name))
    began = time.monotonic()
    stuck = False
    try:
        crawl = robotkit_crawl if robotkit else naive
        try:
            await asyncio.wait_for(crawl(site.seed_urls, budget), wall)
        except asyncio.TimeoutError:
            stuck = True
        return Run(site.score(), time.monotonic() - began, stuck)
    finally:
        await asyncio.to_thread(site.stop)


async def main_async(names: list[str], budget: int, wall: float) -> list[tuple[str, Run, Run]]:
    naive = [measure(name, False, budget, wall) for name in names]
    ours = [measure(name, True, budget, wall) for name in names]
    results = await asyncio.gather(*naive, *ours)
    return [(name, results[i], results[len(names) + i]) for i, name in enumerate(names)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sites", nargs="*", help="default: every trap site")
    parser.add_argument("--pages", type=int, default=200, help="page budget per crawl")
    parser.add_argument("--wall", type=float, default=15.0, help="seconds per crawl at most")
    args = parser.parse_args()
    names = args.sites or traps.names()
    began = time.monotonic()
    rows = asyncio.run(main_async(names, args.pages, args.wall))
    table = Table(title=f"trap sites, {args.pages}-page budget: naive BFS vs robotkit")
    table.add_column("site", no_wrap=True)
    for column in ("naive legit", "naive trap", "robotkit legit", "robotkit trap"):
        table.add_column(column, justify="right")
    totals = [0, 0, 0, 0, 0]
    for name, naive, ours in rows:
        n, r = naive.score, ours.score
        stuck = " stuck" if naive.stuck else ""
        table.add_row(
            name,
            f"{n.legit_found}/{n.legit_total}",
            f"{n.trap_fetched}{stuck}",
            f"{r.legit_found}/{r.legit_total}{' stuck' if ours.stuck else ''}",
            str(r.trap_fetched),
        )
        totals = [
            totals[0] + n.legit_found,
            totals[1] + n.trap_fetched,
            totals[2] + r.legit_found,
            totals[3] + r.trap_fetched,
            totals[4] + n.legit_total,
        ]
    table.add_row(
        "total",
        f"{totals[0]}/{totals[4]}",
        str(totals[1]),
        f"{totals[2]}/{totals[4]}",
        str(totals[3]),
        style="bold",
    )
    console = Console()
    console.print(table)
    ratio = totals[1] / totals[3] if totals[3] else float("inf")
    console.print(
        f"requests spent in traps: naive {totals[1]}, robotkit {totals[3]} "
        f"({ratio:.0f}x fewer); legitimate pages: naive {totals[0]}, robotkit {totals[2]} "
        f"of {totals[4]}; {time.monotonic() - began:.1f} s"
    )


if __name__ == "__main__":
    main()
