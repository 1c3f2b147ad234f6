"""Frontier throughput: add, next and mark_done of 200,000 URLs over 1,000 hosts.

Every URL is added (depths 0 to 3, hosts in turn), then served and marked done
until the frontier is empty; with ``--journal`` the same runs with a journal open
(each change written to disk). The figure is URLs per second of CPU time (the
process's own, so other work on a shared machine counts less) through the whole
cycle, best of ``--repeat`` runs.

``--baseline REF`` also loads ``robotkit/frontier/frontier.py`` as it was at git ``REF``
and times it in the same process, runs interleaved (alternating which goes
first), so the ratio is fair on a busy machine (the old module must import with today's package).

``--scale 100000,1000000`` instead measures the frontier on disk (a window of
``--window`` URLs per queue) at each size, each in a fresh process:
with ``--journal`` the journal open too: the slowest add rate (CPU time) over any
100,000 adds on the way up, the peak RSS, the time
of a checkpoint after 1,000 changes (500 adds, 500 URLs served; median of 5), and of a restore.

Usage: ``python benchmarks/bench_frontier.py [--urls 200000] [--hosts 1000]
[--repeat 5] [--journal] [--baseline main]`` or ``[--scale N,N...] [--hosts H]
[--window W]``
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import resource
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


def scale_run(size: int, hosts: int, window: int, journal: bool) -> dict[str, float]:
    """One size of ``--scale``, in this process (a fresh one per size)."""
    from robotkit.frontier import Frontier

    origins = [Origin("http", f"h{i}.example", 80) for i in range(hosts)]
    names = [f"http://h{i}.example/" for i in range(hosts)]
    with tempfile.TemporaryDirectory() as tmp:
        path = f"{tmp}/frontier"
        frontier = Frontier(expected_urls=size + 1000)
        frontier.open_journal(path, window=window)
        if not journal:
            frontier.close_journal()  # stays on disk; checkpoints commit to its database
        slowest = float("inf")
        step = 100_000
        for base in range(0, size, step):
            start = time.process_time()  # CPU time: a shared machine counts less
            for n in range(base, min(size, base + step)):
                h = n % hosts
                url = f"{names[h]}p/{n}"
                frontier.add(url, url, n % 4, None, host=origins[h])
            spent = time.process_time() - start
            slowest = min(slowest, (min(size, base + step) - base) / spent)
        frontier.checkpoint(path)
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        times = []
        for round_ in range(5):  # 1,000 changes each: 500 adds, 500 served (250 taken, done)
            for n in range(size + 500 * round_, size + 500 * (round_ + 1)):
                url = f"{names[n % hosts]}p/{n}"
                frontier.add(url, url, 1, None, host=origins[n % hosts])
            for _ in range(250):
                entry = frontier.next(0.0)
                assert entry is not None
                frontier.mark_done(entry)
            start = time.perf_counter()
            frontier.checkpoint(path)
            times.append(time.perf_counter() - start)
        checkpoint = sorted(times)[2]  # the median: an fsync on a shared disk varies
        frontier.close()
        start = time.perf_counter()
        back = Frontier.restore(path)
        restore = time.perf_counter() - start
        assert len(back) + back.in_flight == size + 5 * 250
        back.close()
    return {
        "size": size,
        "adds_per_s": slowest,
        "rss_mb": rss,
        "checkpoint_s": checkpoint,
        "restore_s": restore,
    }


def scale(sizes: list[int], hosts: int, window: int, journal: bool) -> None:
    print(f"frontier on disk, window {window}, {hosts} hosts, journal {'on' if journal else 'off'}")
    print(
        f"{'queued URLs':>12} {'slowest adds/s':>15} {'peak RSS MB':>12} "
        f"{'ckpt 1k chg s':>14} {'restore s':>10}"
    )
    for size in sizes:
        out = subprocess.run(
            [
                sys.executable,
                __file__,
                "--one",
                str(size),
                "--hosts",
                str(hosts),
                "--window",
                str(window),
                *(["--journal"] if journal else []),
            ],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        r = json.loads(out)
        print(
            f"{r['size']:>12,} {r['adds_per_s']:>15,.0f} {r['rss_mb']:>12,.0f} "
            f"{r['checkpoint_s']:>14.4f} {r['restore_s']:>10.3f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", help="sizes, comma-separated: the frontier on disk")
    parser.add_argument("--window", type=int, default=16)
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--urls", type=int, default=200_000)
    parser.add_argument("--hosts", type=int, default=1_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--journal", action="store_true")
    parser.add_argument("--baseline", metavar="REF")
    args = parser.parse_args()
    if args.one:
        print(json.dumps(scale_run(args.one, args.hosts, args.window, args.journal)))
        return
    if args.scale:
        scale([int(n) for n in args.scale.split(",")], args.hosts, args.window, args.journal)
        return
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
