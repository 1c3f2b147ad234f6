"""Frontier throughput: add, next and mark_done of 200,000 URLs over 1,000 hosts.

Every URL is added (depths 0 to 3, hosts in turn), then served and marked done
until the frontier is empty; with ``--journal`` the same runs with a journal open
(each change written to disk). The figure is URLs per second of CPU time (the
process's own, so other work on a shared machine counts less) through the whole
cycle, best of ``--repeat`` runs.

``--baseline REF`` also loads ``robotkit/frontier/frontier.py`` as it was at git ``REF``
and times it in the same process, runs interleaved (alternating which goes
first), so the ratio is fair on a busy machine (the old module must import with today's package).

Usage: ``python benchmarks/bench_frontier.py [--urls 200000] [--hosts 1000]
[--repeat 5] [--journal] [--baseline main]``
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import robotkit.frontier.frontier
from robotkit.url.parse import Origin

ROOT = Path(__file__).resolve().parent.parent


def load_at(ref: str) -> ModuleType:
    """``robotkit/frontier/frontier.py`` of git ``ref``, as a module of its own."""
    source = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{ref}:robotkit/frontier/frontier.py"],
        check=True,
        capture_output=True,
    ).stdout
    path = Path(tempfile.mkdtemp()) / "frontier_baseline.py"
    path.write_bytes(source)
    spec = importlib.util.spec_from_file_location("frontier_baseline", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["frontier_baseline"] = module
    spec.loader.exec_module(module)
    return module


def cycle(module: ModuleType, urls: int, hosts: int, journal: bool) -> float:
    """Seconds to add ``urls`` URLs and serve them all."""
    origins = [Origin("http", f"h{i}.example", 80) for i in range(hosts)]
    names = [f"http://h{i}.example/" for i in range(hosts)]
    gc.collect()
    with tempfile.TemporaryDirectory() as tmp:
        frontier: Any = module.Frontier()
        if journal:
            frontier.open_journal(f"{tmp}/frontier")
        start = time.process_time()
        for n in range(urls):
            h = n % hosts
            url = f"{names[h]}p/{n}"
            frontier.add(url, url, n % 4, None, host=origins[h])
        while (entry := frontier.next(0.0)) is not None:
            frontier.mark_done(entry)
        elapsed = time.process_time() - start
        frontier.close_journal()
    assert len(frontier) == 0 and frontier.stats().done == urls
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--urls", type=int, default=200_000)
    parser.add_argument("--hosts", type=int, default=1_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--journal", action="store_true")
    parser.add_argument("--baseline", metavar="REF")
    args = parser.parse_args()
    modules: dict[str, ModuleType] = {"current": robotkit.frontier.frontier}
    if args.baseline:
        modules[args.baseline] = load_at(args.baseline)
    best = dict.fromkeys(modules, float("inf"))
    for round_ in range(args.repeat):
        order = list(modules.items())
        if round_ % 2:
            order.reverse()  # neither goes first every time
        for name, module in order:
            best[name] = min(best[name], cycle(module, args.urls, args.hosts, args.journal))
    mode = "journal" if args.journal else "in memory"
    for name, seconds in best.items():
        print(f"{name:>10}: {args.urls / seconds:>10,.0f} URLs/s ({mode}, best of {args.repeat})")
    if args.baseline:
        ratio = best[args.baseline] / best["current"]
        print(f"current / {args.baseline} throughput: {ratio:.2f}x")


if __name__ == "__main__":
    main()
