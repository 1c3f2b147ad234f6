"""Seen-set memory per URL at one and ten million URLs (issue 4's targets: at most
2 bytes per URL for the Bloom filter at a 1% error rate, at most 16 exact).

For each structure it adds N distinct URL keys and reports, per URL: the bytes the
structure holds (``nbytes``) and the growth of the process's resident memory while
it was filled (which also sees rbloom's Rust allocation, invisible to
tracemalloc); then the false positive rate measured on 100,000 keys never added,
and the time per add. The anchors, a Python ``set`` of the URL strings and of
64-bit ints, are measured with tracemalloc at the smallest size only (they are
what the compact structures replace, and would need gigabytes at ten million).

    .venv/bin/python benchmarks/bench_seen.py            # 1M, and 10M targets (~2 min)
    .venv/bin/python benchmarks/bench_seen.py --quick    # 100k (~10 s)
    .venv/bin/python benchmarks/bench_seen.py --full     # every variant at 10M (~4 min)
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import asdict, dataclass

from robotkit.frontier.seen import BloomSeenSet, ExactSeenSet, SeenSet, digest64

PROBES = 100_000
PAGE = os.sysconf("SC_PAGE_SIZE")


def key(i: int) -> str:
    """A realistic normalized URL key; distinct for every i."""
    return f"https://www.site{i % 997}.example/section/{i % 89}/article-{i}.html?page={i % 7}"


def probe(i: int) -> str:
    return f"https://www.other{i % 991}.example/never/{i}"


def rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE


@dataclass
class Row:
    name: str
    n: int
    nbytes: float  # per URL
    rss: float  # per URL
    fp_rate: float | None
    add_us: float
    target: float | None

    def line(self) -> str:
        fp = "-" if self.fp_rate is None else f"{self.fp_rate:.3%}"
        target = "-" if self.target is None else f"<= {self.target:g}"
        ok = "" if self.target is None else ("ok" if self.nbytes <= self.target else "MISSED")
        return (
            f"{self.name:<34} {self.n:>11,} {self.nbytes:>9.2f} {self.rss:>9.2f}"
            f" {fp:>8} {self.add_us:>8.2f} {target:>7} {ok}"
        )


def measure(name: str, make: Callable[[], SeenSet], n: int, target: float | None) -> Row:
    gc.collect()
    before = rss()
    seen = make()
    start = time.perf_counter()
    add = seen.add
    for i in range(n):
        add(key(i))
    elapsed = time.perf_counter() - start
    grown = rss() - before
    assert len(seen) >= n * 0.98, "keys went missing"
    assert all(key(i) in seen for i in range(0, n, max(1, n // 1000))), "false negative"
    false_positives = sum(probe(i) in seen for i in range(PROBES))
    row = Row(
        name, n, seen.nbytes / n, grown / n, false_positives / PROBES, elapsed / n * 1e6, target
    )
    del seen
    gc.collect()
    return row


def measure_python_set(name: str, n: int, as_ints: bool) -> Row:
    gc.collect()
    tracemalloc.start()
    start = time.perf_counter()
    seen: set[object] = set()
    for i in range(n):
        seen.add(digest64(key(i)) if as_ints else key(i))
    elapsed = time.perf_counter() - start
    current, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del seen
    gc.collect()
    return Row(name, n, current / n, current / n, None, elapsed / n * 1e6, None)


CASES: dict[str, tuple[Callable[[int], SeenSet], float | None]] = {
    "BloomSeenSet 1% (sized for N)": (lambda n: BloomSeenSet(n, 0.01), 2.0),
    "BloomSeenSet 1% (sized for N/8)": (lambda n: BloomSeenSet(n // 8, 0.01), None),
    "BloomSeenSet 0.1% (sized for N)": (lambda n: BloomSeenSet(n, 0.001), None),
    "ExactSeenSet (sized for N)": (lambda n: ExactSeenSet(n), 16.0),
    "ExactSeenSet (grown from 1024)": (lambda n: ExactSeenSet(), 16.0),
}
ANCHORS = {"anchor: set of URL strings": False, "anchor: set of 64-bit digests": True}


def one(name: str, n: int) -> Row:
    if name in ANCHORS:
        return measure_python_set(name, n, ANCHORS[name])
    make, target = CASES[name]
    return measure(name, lambda: make(n), n, target)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="100k URLs only")
    parser.add_argument("--full", action="store_true", help="every variant at 10M too (~4 min)")
    parser.add_argument("--one", nargs=2, metavar=("NAME", "N"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(asdict(one(args.one[0], int(args.one[1])))))
        return
    sizes = [100_000] if args.quick else [1_000_000, 10_000_000]
    print(
        f"{'structure':<34} {'URLs':>11} {'B/URL':>9} {'RSS B/URL':>9}"
        f" {'FP rate':>8} {'us/add':>8} {'target':>7}"
    )
    # Each measurement in a fresh process, so resident memory is not blurred by
    # memory an earlier measurement freed.
    # At ten million only the two target rows run, unless --full.
    jobs = [(name, sizes[0]) for name in ANCHORS]
    jobs += [(name, sizes[0]) for name in CASES]
    jobs += [
        (name, n) for n in sizes[1:] for name in CASES if args.full or CASES[name][1] is not None
    ]
    for name, n in jobs:
        out = subprocess.run(
            [sys.executable, __file__, "--one", name, str(n)],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        print(Row(**json.loads(out)).line(), flush=True)


if __name__ == "__main__":
    main()
