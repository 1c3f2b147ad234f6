"""The HTTP fuzz test, longer: a hostile server driven by hypothesis against the
polite clients and the robots.txt fetchers, sync and async.

The same attack as ``tests/test_http_fuzz.py`` (which runs a fixed, derandomized
budget in CI), for as many examples as asked, with fresh random examples each
run. Prints the error types seen and the largest body, peak memory and slowest
call; exits 1 on the first bound broken, with the answer that broke it.

Run: ``.venv/bin/python benchmarks/fuzz_http.py --examples 2000`` (about 0.2 s
per example).
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from hypothesis import HealthCheck, given, settings
from support.httpfuzz import Answer, Report, answers, attack, hostile_server


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=500)
    args = parser.parse_args()
    errors: collections.Counter[str] = collections.Counter()
    worst = Report()
    started = time.monotonic()
    with hostile_server() as server:

        @settings(
            max_examples=args.examples,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(answers())
        def run(answer: Answer) -> None:
            report = attack(server, answer)
            errors.update(f"{reader}: {error}" for reader, error in report.errors.items())
            worst.body_bytes = max(worst.body_bytes, report.body_bytes)
            worst.peak = max(worst.peak, report.peak)
            worst.slowest = max(worst.slowest, report.slowest)

        try:
            run()
        except AssertionError as broken:
            print(f"BOUND BROKEN: {broken}", file=sys.stderr)
            return 1
    print(f"{args.examples} examples in {time.monotonic() - started:.0f} s, no bound broken")
    print(f"largest body kept {worst.body_bytes} bytes; peak traced memory {worst.peak} bytes;")
    print(f"slowest call {worst.slowest:.2f} s")
    for name, count in errors.most_common():
        print(f"  {count:6d}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
