"""Trap guard benchmark: traps refused and legitimate URLs kept, against the
repetition rules of Heritrix and Nutch, plus the cost of the core algorithms.

Legitimate URLs: every ``Sitemap:`` URL and every literal ``Allow``/``Disallow`` path
(no wildcards) of the 4,231 real robots.txt files in ``tests/data``, joined to
their host: paths real sites have, with their real depth, repetition and parameters.
Trap URLs: loops grown from those same URLs the way trap sites grow them (a relative
link re-resolved under itself with period 1 to 4, a scheme-less link repeating the host,
a parameter appended on each page); the figure is how many URLs of a loop a crawler
would fetch before the rule refuses one (lower is better).

Anchors, re-implemented from their documented behaviour:
- Heritrix ``PathologicalPathDecideRule`` (a ``/``-ended run repeated 3 times,
  backtracking regular expression) with ``TooManyPathSegmentsDecideRule`` (20).
- Nutch's default ``regex-urlfilter.txt`` loop line (a segment seen 3 times with one
  segment between each).

Run: ``.venv/bin/python benchmarks/bench_guard.py [--corpus PATH] [--limit N]``
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import tarfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from robotkit.content import SimHashIndex, fingerprint, hamming
from robotkit.triage.guard import Guard, WorkCounter, find_repeated_run, path_segments
from robotkit.url.normalization import normalize
from robotkit.url.parse import InvalidURL

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "data" / "robots-top-sites.tar.gz"
_LINE = re.compile(r"^\s*(sitemap|allow|disallow)\s*:\s*(\S+)\s*$", re.IGNORECASE)

Rule = Callable[[str], bool]  # True = refused


def legit_urls(corpus: Path, limit: int) -> list[str]:
    urls: dict[str, None] = {}
    with tarfile.open(corpus) as tar:
        for member in tar:
            if not member.isfile():
                continue
            handle = tar.extractfile(member)
            if handle is None:
                continue
            host = Path(member.name).name
            for raw in handle.read().decode("utf-8", "replace").splitlines():
                found = _LINE.match(raw)
                if not found:
                    continue
                kind, value = found.group(1).lower(), found.group(2)
                if kind == "sitemap" and value.startswith(("http://", "https://")):
                    urls[value] = None
                elif kind != "sitemap" and value.startswith("/") and not set("*$") & set(value):
                    urls[f"https://{host}{value}"] = None
    valid = []
    for url in urls:
        try:
            normalize(url)
        except InvalidURL:
            continue
        valid.append(url)
    random.Random(1).shuffle(valid)
    return valid[:limit]


def loops(seed: str, rng: random.Random) -> Iterator[tuple[str, list[str]]]:
    """Growing trap sequences from one legitimate URL (40 steps each)."""
    norm = normalize(seed)
    base = f"{norm.origin}{norm.path.rsplit('/', 1)[0]}/"
    words = ["calendar", "img", "en", "page", "css", "2024", "view", "a"]
    for period in (1, 2, 3, 4):
        unit = "".join(f"{rng.choice(words)}{i}/" for i in range(period))
        yield f"period-{period} loop", [base + unit * k for k in range(1, 41)]
    yield "host in path", [base + f"{norm.host}/x/" * k for k in range(1, 41)]
    yield (
        "param append",
        [f"{base}list?" + "&".join(f"f{i}=1" for i in range(k)) for k in range(1, 41)],
    )


def heritrix_rule() -> Rule:
    # PathologicalPathDecideRule, maxRepetitions 2: a run ending in "/" then 2 more.
    pathological = re.compile(r".*?/(.*?/)\1{2,}.*")

    def refused(url: str) -> bool:
        path = url.split("://", 1)[-1].partition("/")[2]
        return bool(pathological.fullmatch(url)) or path.count("/") + 1 > 20

    return refused


def nutch_rule() -> Rule:
    loop = re.compile(r".*(/[^/]+)/[^/]+\1/[^/]+\1/")
    return lambda url: bool(loop.match(url))


def robotkit_rule() -> Rule:
    guard = Guard()
    return lambda url: not guard.check(url).allowed


def naive_cube(segments: list[str]) -> int:
    """Steps of the obvious scan: every period, every start, compare three copies."""
    n, ops = len(segments), 0
    for p in range(1, n // 3 + 1):
        for start in range(n - 3 * p + 1):
            ops += 1
            if (
                segments[start : start + p]
                == segments[start + p : start + 2 * p]
                == (segments[start + 2 * p : start + 3 * p])
            ):
                return ops
    return ops


def thue_morse(n: int) -> list[str]:
    return [str(bin(i).count("1") % 2) for i in range(n)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--limit", type=int, default=50_000)
    args = parser.parse_args()

    legit = legit_urls(args.corpus, args.limit)
    rules = {"robotkit": robotkit_rule(), "heritrix": heritrix_rule(), "nutch": nutch_rule()}
    rng = random.Random(2)
    seeds = rng.sample(legit, min(500, len(legit)))
    trap_sets = [loop for seed in seeds for loop in loops(seed, rng)]

    print(f"legitimate URLs: {len(legit):,} from {args.corpus.name}; trap loops: {len(trap_sets)}")
    print()
    kinds = sorted({kind for kind, _ in trap_sets})
    header = f"{'rule':10} {'legit kept':>11} {'us/URL':>7} " + " ".join(f"{k:>15}" for k in kinds)
    print(header)
    print("-" * len(header))
    lost_examples: dict[str, list[str]] = {}
    for name, refused in rules.items():
        start = time.perf_counter()
        lost = [url for url in legit if refused(url)]
        per_url = (time.perf_counter() - start) / len(legit) * 1e6
        lost_examples[name] = lost[:8]
        kept = 100 * (1 - len(lost) / len(legit))
        cells = []
        for kind in kinds:
            fetched = []
            for k, seq in trap_sets:
                if k != kind:
                    continue
                first = next((i for i, url in enumerate(seq) if refused(url)), len(seq))
                fetched.append(first)
            escaped = sum(f == 40 for f in fetched)
            cells.append(f"{statistics.median(fetched):>5.0f} fetched" + ("*" if escaped else " "))
        print(f"{name:10} {kept:>10.3f}% {per_url:>7.1f} " + " ".join(f"{c:>15}" for c in cells))
    print("(fetched: median URLs of a 40-step loop allowed before the first refusal;")
    print(" * some loops never refused within 40 steps)")
    for name, examples in lost_examples.items():
        for url in examples:
            print(f"  {name} refuses legit: {url[:110]}")

    print()
    print("repeat detection on a cube-free (Thue-Morse) path, steps:")
    print(f"{'segments':>9} {'robotkit':>10} {'naive':>12} {'ratio':>8}")
    for n in (64, 256, 1024, 4096):
        work = WorkCounter()
        find_repeated_run(thue_morse(n), 3, work)
        naive = naive_cube(thue_morse(n))
        print(f"{n:>9} {work.ops:>10,} {naive:>12,} {naive / work.ops:>7.1f}x")

    print()
    sizes = (10_000, 100_000)
    print("near-duplicate lookup (k=3) against N stored fingerprints, per query:")
    print(f"{'N':>9} {'banded us':>10} {'linear us':>10} {'speed-up':>9}")
    for size in sizes:
        r = random.Random(size)
        values = [r.getrandbits(64) for _ in range(size)]
        index = SimHashIndex(3)
        for i, value in enumerate(values):
            index.add(value, str(i))
        queries = [v ^ (1 << r.randrange(64)) for v in r.sample(values, 200)]
        start = time.perf_counter()
        for q in queries:
            list(index.near(q))
        banded = (time.perf_counter() - start) / len(queries) * 1e6
        start = time.perf_counter()
        for q in queries[:20]:
            [v for v in values if hamming(v, q) <= 3]
        linear = (time.perf_counter() - start) / 20 * 1e6
        print(f"{size:>9,} {banded:>10.1f} {linear:>10.1f} {linear / banded:>8.0f}x")

    page = "<html><body>" + " ".join(f"word{i % 700}" for i in range(1500)) + "</body></html>"
    start = time.perf_counter()
    for _ in range(50):
        fingerprint(page)
    print()
    print(f"fingerprint of a 1,500-word page: {(time.perf_counter() - start) / 50 * 1e3:.2f} ms")
    segs = path_segments("/a/b/c/d/e/f")
    start = time.perf_counter()
    for _ in range(20_000):
        find_repeated_run(segs, 3)
    print(
        f"repeat check of a 6-segment path: {(time.perf_counter() - start) / 20_000 * 1e6:.1f} us"
    )


if __name__ == "__main__":
    main()
