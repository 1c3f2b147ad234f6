"""Generated trap sites: does a crawler rule generalise beyond the sites it was tuned on?

NOTE: seeds >= 1000 are HELD OUT. Report their figures; never tune a rule on them
(never look at which held-out site failed in order to fix it), or they stop
measuring anything but the tuning. Tune on seeds 0-999 and the hand-written sites.

Three groups are measured with ``robotkit traps bench``'s machinery
(:mod:`robotkit.traps.bench`): the tuning seeds (default 0-99), the held-out seeds
(default 1000-1099) and every hand-written site. Each site is crawled by robotkit
(its defaults, no delay) and by the naive breadth-first crawler, each on a fresh
copy, and cut at 60 s. For each group and crawler it prints: legitimate pages found
(%), trap fetches (total and median), sites passed, and crawls that ended within
60 s. With ``--by-kind`` it also prints, per trap kind of the tuning seeds (and for
the sites with a related-items section), the sites robotkit failed and the trap
fetches they cost.

Usage: ``python benchmarks/bench_generated.py [--tuning 100] [--held-out 100]
[--jobs 4] [--max-pages 1000] [--no-naive] [--no-hand-written] [--by-kind]`` (100 + 100 sites take a
few minutes on two cores).
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections import Counter

from rich.console import Console

from robotkit import traps
from robotkit.traps.bench import CRAWLERS, SiteResult, bench, generated_names, totals
from robotkit.traps.generated import GeneratedSite

HELD_OUT_FIRST_SEED = 1000


def by_kind(results: list[SiteResult]) -> list[str]:
    """Per trap kind: sites drawn, sites robotkit failed, trap fetches it spent."""
    drawn: Counter[str] = Counter()
    failed: Counter[str] = Counter()
    spent: Counter[str] = Counter()
    missed: Counter[str] = Counter()
    for result in results:
        seed = int(result.site.removeprefix(traps.GENERATED_PREFIX))
        run = result.runs["robotkit"]
        site = GeneratedSite(seed)
        # A related-items section is no trap, but a shape the trap rules must not
        # mistake for one: counted as a kind of its own.
        kinds = [t.kind for t in site.traps] + (["(related-items)"] if site.related else [])
        for kind in kinds:
            drawn[kind] += 1
            failed[kind] += not run.passed
            spent[kind] += run.score.trap_fetched
            missed[kind] += run.score.legit_total - run.score.legit_found
    rows = sorted(drawn, key=lambda k: (-spent[k], -failed[k]))
    return [
        f"  {k:<20} sites {drawn[k]:>3}  failed {failed[k]:>3}  trap fetches {spent[k]:>6}"
        f"  legit missed {missed[k]:>4}"
        for k in rows
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tuning", type=int, default=100, help="tuning seeds 0..N-1")
    parser.add_argument("--held-out", type=int, default=100, help="held-out seeds 1000..")
    parser.add_argument("--jobs", type=int, default=4)
    parser.add_argument("--max-pages", type=int, default=1000)
    parser.add_argument("--naive", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--hand-written", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--by-kind", action="store_true", help="tuning seeds per trap kind")
    args = parser.parse_args()
    tuning_names = generated_names(args.tuning, 0)
    groups = {
        f"tuning seeds 0-{args.tuning - 1}": tuning_names,
        f"held-out seeds {HELD_OUT_FIRST_SEED}-{HELD_OUT_FIRST_SEED + args.held_out - 1}": (
            generated_names(args.held_out, HELD_OUT_FIRST_SEED)
        ),
        "hand-written sites": traps.names() if args.hand_written else [],
    }
    console = Console(width=120)
    tuning: list[SiteResult] = []
    for title, names in groups.items():
        if not names:
            continue
        began = time.monotonic()
        results = asyncio.run(
            bench(names, jobs=args.jobs, max_pages=args.max_pages, naive=args.naive)
        )
        if names is tuning_names:
            tuning = results
        console.print(f"[bold]{title}[/] ({len(names)} sites, {time.monotonic() - began:.0f} s)")
        for crawler in CRAWLERS:
            t = totals(results, crawler)
            if t is not None:
                console.print(f"  {crawler:<8} {t}", highlight=False)
    if args.by_kind and args.tuning:
        console.print("[bold]robotkit per trap kind, tuning seeds[/]")
        for line in by_kind(tuning):
            console.print(line, highlight=False)


if __name__ == "__main__":
    main()
