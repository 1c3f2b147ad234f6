"""Run a crawler against each blind trap site and score it from the server's own log.

    python -m traps.blind.run [--only NAME ...] [--json FILE] [--max-pages 1500]
                              [--timeout 90] [--log-dir DIR] [-- CRAWLER_CMD ...]

CRAWLER_CMD placeholders: {seeds} (one argument per seed URL), {max_pages}, {output}.
Default: robotkit crawl {seeds} --delay 0 --max-pages {max_pages} --output {output}
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from . import SITES
from .kit import DISALLOWED, LEGIT, OTHER, ROBOTS, TRAP, Servers, Site

PASS_MAX_TRAPS = 20
PASS_MAX_SECONDS = 60.0


@dataclass
class Score:
    site: str
    kind: str
    legit_total: int
    legit_fetched: int
    legit_repeats: int
    trap_fetches: int
    violations: int
    robots_fetches: int
    other: int
    requests: int
    wall: float
    ended_by_itself: bool
    exit_code: int | None
    passed: bool

    @property
    def pct(self) -> float:
        return 100.0 * self.legit_fetched / self.legit_total if self.legit_total else 100.0


def block_addresses(block: int) -> Callable[[int], list[str]]:
    """The address plan of a set of sites on 127.0.`block`.x: site number `index`
    (registry order) gets 127.0.`block`.(3*index+1) onwards, three addresses a site."""

    def addresses(index: int) -> list[str]:
        return [f"127.0.{block}.{3 * index + 1 + k}" for k in range(3)]

    return addresses


addresses = block_addresses(1)
"""This set's plan: 127.0.1.x."""


def expand(cmd: list[str], seeds: list[str], max_pages: int, output: str) -> list[str]:
    out: list[str] = []
    for tok in cmd:
        if tok == "{seeds}":
            out += seeds
        else:
            out.append(tok.replace("{max_pages}", str(max_pages)).replace("{output}", output))
    return out


def score(site: Site, wall: float, ended: bool, code: int | None) -> Score:
    log = list(site.log)
    legit_hits = [e.page for e in log if e.cls == LEGIT and e.page in site.legit]
    distinct = set(legit_hits)
    traps = sum(1 for e in log if e.cls == TRAP)
    viol = sum(1 for e in log if e.cls == DISALLOWED)
    s = Score(
        site=site.name,
        kind=site.kind,
        legit_total=len(site.legit),
        legit_fetched=len(distinct),
        legit_repeats=len(legit_hits) - len(distinct),
        trap_fetches=traps,
        violations=viol,
        robots_fetches=sum(1 for e in log if e.cls == ROBOTS),
        other=sum(1 for e in log if e.cls == OTHER),
        requests=len(log),
        wall=round(wall, 2),
        ended_by_itself=ended,
        exit_code=code,
        passed=False,
    )
    s.passed = (
        s.legit_fetched == s.legit_total
        and viol == 0
        and traps <= PASS_MAX_TRAPS
        and ended
        and wall <= PASS_MAX_SECONDS
    )
    return s


def run_site(
    index: int,
    factory: type[Site],
    cmd: list[str],
    max_pages: int,
    timeout: float,
    log_dir: Path | None,
    addrs: list[str] | None = None,
) -> Score:
    site = factory()
    with (
        tempfile.TemporaryDirectory(prefix=f"blind-{site.name}-") as tmp,
        Servers(site, addrs if addrs is not None else addresses(index)),
    ):
        output = os.path.join(tmp, "crawl.jsonl")
        argv = expand(cmd, site.seeds(), max_pages, output)
        t0 = time.monotonic()
        with (
            open(os.path.join(tmp, "stdout"), "wb") as so,
            open(os.path.join(tmp, "stderr"), "wb") as se,
        ):
            proc = subprocess.Popen(argv, stdout=so, stderr=se, start_new_session=True)
            ended = True
            try:
                code: int | None = proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                ended = False
                os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()
                code = None
        wall = time.monotonic() - t0
        time.sleep(0.2)
        if log_dir is not None:
            log_dir.mkdir(parents=True, exist_ok=True)
            with open(log_dir / f"{site.name}.log.jsonl", "w") as f:
                for e in site.log:
                    f.write(json.dumps(asdict(e)) + "\n")
            stderr = Path(tmp, "stderr").read_bytes()
            (log_dir / f"{site.name}.stderr").write_bytes(stderr)
            if Path(output).exists():
                (log_dir / f"{site.name}.crawl.jsonl").write_bytes(Path(output).read_bytes())
        return score(site, wall, ended, code)


def table(scores: list[Score]) -> str:
    hdr = (
        f"{'site':<12} {'legit':>9} {'%':>6} {'traps':>6} {'viol':>5} {'other':>6} "
        f"{'reqs':>6} {'wall s':>7} {'ended':>5} {'exit':>5}  result"
    )
    lines = [hdr, "-" * len(hdr)]
    for s in scores:
        lines.append(
            f"{s.site:<12} {f'{s.legit_fetched}/{s.legit_total}':>9} {s.pct:>6.1f} "
            f"{s.trap_fetches:>6} {s.violations:>5} {s.other:>6} {s.requests:>6} "
            f"{s.wall:>7.1f} {'yes' if s.ended_by_itself else 'no':>5} "
            f"{'' if s.exit_code is None else s.exit_code:>5}  {'PASS' if s.passed else 'FAIL'}"
        )
    lf, lt = sum(s.legit_fetched for s in scores), sum(s.legit_total for s in scores)
    lines.append("-" * len(hdr))
    lines.append(
        f"{'TOTAL':<12} {f'{lf}/{lt}':>9} {100.0 * lf / max(lt, 1):>6.1f} "
        f"{sum(s.trap_fetches for s in scores):>6} {sum(s.violations for s in scores):>5} "
        f"{sum(s.other for s in scores):>6} {sum(s.requests for s in scores):>6} "
        f"{sum(s.wall for s in scores):>7.1f} {'':>5} {'':>5}  "
        f"{sum(s.passed for s in scores)}/{len(scores)} PASS"
    )
    return "\n".join(lines)


def main(
    argv: list[str] | None = None,
    *,
    sites: list[type[Site]] | None = None,
    prog: str = "python -m traps.blind.run",
    description: str | None = __doc__,
    address_fn: Callable[[int], list[str]] = addresses,
) -> int:
    """Run the crawler on `sites` (default: this set), one site at a time, and score it."""
    sites = SITES if sites is None else sites
    argv = list(sys.argv[1:] if argv is None else argv)
    cmd: list[str] | None = None
    if "--" in argv:
        i = argv.index("--")
        argv, cmd = argv[:i], argv[i + 1 :]
    ap = argparse.ArgumentParser(
        prog=prog,
        description=description,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("--only", nargs="+", action="extend", default=[], metavar="NAME")
    ap.add_argument("--json", default=None, metavar="FILE")
    ap.add_argument("--max-pages", type=int, default=1500)
    ap.add_argument("--timeout", type=float, default=90.0)
    ap.add_argument("--log-dir", default=None, help="write each site's request log here")
    ap.add_argument("--list", action="store_true", help="list the sites and exit")
    args = ap.parse_args(argv)
    names = [f.name for f in sites]
    if args.list:
        for f in sites:
            print(f"{f.name:<12} {f.kind}")
        return 0
    unknown = [n for n in args.only if n not in names]
    if unknown:
        ap.error(f"unknown site(s): {', '.join(unknown)}; known: {', '.join(names)}")
    if not cmd:
        robotkit = str(Path(sys.executable).parent / "robotkit")
        cmd = [
            robotkit,
            "crawl",
            "{seeds}",
            "--delay",
            "0",
            "--max-pages",
            "{max_pages}",
            "--output",
            "{output}",
        ]
    chosen = [(i, f) for i, f in enumerate(sites) if not args.only or f.name in args.only]
    scores: list[Score] = []
    for i, factory in chosen:
        s = run_site(
            i,
            factory,
            cmd,
            args.max_pages,
            args.timeout,
            Path(args.log_dir) if args.log_dir else None,
            address_fn(i),
        )
        scores.append(s)
        print(
            f"  {s.site}: {s.legit_fetched}/{s.legit_total} legit, {s.trap_fetches} traps, "
            f"{s.violations} violations, {s.wall:.1f}s",
            file=sys.stderr,
            flush=True,
        )
    print(table(scores))
    if args.json:
        data = {
            "command": cmd,
            "max_pages": args.max_pages,
            "timeout": args.timeout,
            "pass_rule": f"100% legit, 0 violations, <= {PASS_MAX_TRAPS} trap fetches, "
            f"ended by itself within {PASS_MAX_SECONDS:.0f} s",
            "sites": [asdict(s) | {"legit_pct": round(s.pct, 1)} for s in scores],
            "passed": sum(s.passed for s in scores),
        }
        Path(args.json).write_text(json.dumps(data, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
