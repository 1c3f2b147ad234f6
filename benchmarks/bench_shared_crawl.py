"""Benchmark: ``robotkit crawl --redis`` with four workers on fifty hosts (issue 11).

Fifty loopback hosts (127.0.0.1 to 127.0.0.50, one port) serve ``--pages`` small
pages each: every page has words of its own, links to the next page and to three
others of its host, and to the same page of the next host (so workers hand links
to each other). The server runs in a child process and writes down every request
with its start and end, so everything below is measured server-side:

* **shared**: four ``robotkit crawl --redis URL --crawl-id ID --delay 0.2``
  processes started together on a local redis-server. Requests to a host earlier
  than the delay after the end of the previous one (across all workers), robots.txt
  fetches per host, pages fetched more than once, throughput (pages from the first
  request to the last) against the ideal hosts x 1/delay, Redis commands per page
  (``INFO commandstats``: the scripts robotkit runs and the connection set-up; not
  the commands a script runs inside Redis; several may go in one round trip, as a
  pipeline), and pages/s;
* **not shared**: the same four processes without ``--redis``: each crawls
  everything on its own, and the hosts see four robots at once;
* **split**: the same four processes without ``--redis``, each crawling its own
  quarter of the hosts (seeds n, n + 4, ...; a crawl stays on its seeds' hosts): the
  same hosts, pages and pace per process as the shared run, so the two differ only
  by the sharing. The CPU a page costs shared is judged against this run's (the
  not-shared run's processes each fetch four times the pages at four times the pace,
  busier, and a busy event loop spends less CPU a page: that anchor is printed too);
* **SIGKILL**: four shared workers, one killed with SIGKILL when a third of the
  pages are fetched; the other three finish. Pages never fetched, and pages fetched
  twice (only those in flight at the kill may be).

    python benchmarks/bench_shared_crawl.py [--pages N] [--workers N] [--hosts N]
        [--turns N]

``--turns N`` runs split and shared N times in turns (split, shared, split, ...) and
prints the median CPU a page of each: on a machine shared with other work, one run
of each is noise.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import random
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import redis

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import itertools

from support.redis_server import RedisServer

DELAY = 0.2
TREE = Path(__file__).resolve().parent.parent
"""The workers run in this checkout: ``python -m robotkit`` puts its working directory
first on ``sys.path``, so a run started elsewhere would measure another tree's code."""
SYLLABLES = "aeioubdklmnprstv"


def page(host: int, number: int, count: int, hosts: int, port: int) -> bytes:
    rnd = random.Random(host * 100_003 + number)
    words = " ".join("".join(rnd.choice(SYLLABLES) for _ in range(7)) for _ in range(40))
    links = [(number + 1) % count, *(rnd.randrange(count) for _ in range(3))]
    local = "".join(f'<li><a href="/p/{n}">page {n}</a></li>' for n in links)
    other = f"http://127.0.0.{host % hosts + 1}:{port}/p/{number}"
    return (
        f"<!doctype html><html><head><title>Host {host} page {number}</title></head>"
        f"<body><h1>Page {number}</h1><p>{words}.</p><ul>{local}"
        f'<li><a href="{other}">elsewhere</a></li></ul></body></html>'
    ).encode()


def serve(log: str, count: int, hosts: int, ready: multiprocessing.Queue[int]) -> None:
    """Child process: one threaded server per host address, all on one port; every
    request appended to ``log`` as ``host path start end``."""
    lock = threading.Lock()
    out = open(log, "a", buffering=1, encoding="utf-8")  # noqa: SIM115 - for the process's life
    port_box: list[int] = []

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            with contextlib.suppress(ConnectionError):  # a worker killed mid-request
                self.answer()

        def answer(self) -> None:
            start = time.time()
            host = int(self.server.server_address[0].rsplit(".", 1)[1])  # type: ignore[index]
            path = self.path
            if path == "/robots.txt":
                body, kind, status = b"User-agent: *\nAllow: /\n", "text/plain", 200
            elif path.startswith("/p/") and path[3:].isdigit() and int(path[3:]) < count:
                body = page(host, int(path[3:]), count, hosts, port_box[0])
                kind, status = "text/html", 200
            else:
                body, kind, status = b"not here", "text/plain", 404
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            self.wfile.flush()
            with lock:
                out.write(f"{host} {path} {start:.6f} {time.time():.6f}\n")

    first = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    port_box.append(first.server_address[1])
    servers = [first] + [
        ThreadingHTTPServer((f"127.0.0.{n}", port_box[0]), Handler) for n in range(2, hosts + 1)
    ]
    for server in servers:
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
    ready.put(port_box[0])
    while True:
        time.sleep(3600)


class Sites:
    def __init__(self, directory: Path, count: int, hosts: int) -> None:
        self.count, self.hosts = count, hosts
        self.log = directory / "requests.log"
        self.log.touch()
        queue: multiprocessing.Queue[int] = multiprocessing.Queue()
        self.process = multiprocessing.Process(
            target=serve, args=(str(self.log), count, hosts, queue), daemon=True
        )
        self.process.start()
        self.port = queue.get(timeout=30)
        self.mark = 0

    def seeds(self) -> list[str]:
        return [f"http://127.0.0.{n}:{self.port}/p/0" for n in range(1, self.hosts + 1)]

    def requests(self) -> list[tuple[int, str, float, float]]:
        """The requests since the last call."""
        with open(self.log, encoding="utf-8") as log:
            log.seek(self.mark)
            text = log.read()
            self.mark = log.tell()
        rows = []
        for line in text.splitlines():
            host, path, start, end = line.split()
            rows.append((int(host), path, float(start), float(end)))
        return rows

    def stop(self) -> None:
        self.process.terminate()
        self.process.join()


def measure(rows: list[tuple[int, str, float, float]], count: int, hosts: int) -> dict[str, float]:
    by_host: dict[int, list[tuple[float, float]]] = defaultdict(list)
    pages: Counter[tuple[int, str]] = Counter()
    robots: Counter[int] = Counter()
    for host, path, start, end in rows:
        by_host[host].append((start, end))
        if path == "/robots.txt":
            robots[host] += 1
        elif path.startswith("/p/") and path[3:].isdigit():
            pages[host, path] += 1
    early = 0
    smallest = float("inf")
    for spans in by_host.values():
        spans.sort()
        for (_, end), (start, _) in itertools.pairwise(spans):
            gap = start - end
            smallest = min(smallest, gap)
            early += gap < DELAY - 0.002  # the clocks are one machine's: 2 ms of slack
    missing = [
        (host, f"/p/{n}")
        for host in range(1, hosts + 1)
        for n in range(count)
        if (host, f"/p/{n}") not in pages
    ]
    if missing:
        print("missing:", missing[:10], file=sys.stderr)
    page_rows = [r for r in rows if r[1].startswith("/p/")]
    span = max(r[3] for r in page_rows) - min(r[2] for r in rows)
    return {
        "pages": len(pages),
        "missing": count * hosts - len(pages),
        "twice": sum(n - 1 for n in pages.values()),
        "fetches": sum(pages.values()),
        "robots_max": max(robots.values()) if robots else 0,
        "robots_total": sum(robots.values()),
        "early": early,
        "smallest_gap": smallest,
        "seconds": span,
        "pages_per_s": sum(pages.values()) / span,
        "ideal_share": (len(pages) / span) / (hosts / DELAY),
    }


def workers(
    count: int,
    seeds: list[str],
    redis_url: str | None,
    crawl_id: str,
    out: Path,
    split: bool = False,
) -> list[subprocess.Popen[bytes]]:
    """``count`` crawl processes on ``seeds``; ``split``: process n gets seeds n,
    n + count, ... alone (a crawl stays on its seeds' hosts)."""
    procs = []
    for n in range(count):
        mine = seeds[n::count] if split else seeds
        command = [sys.executable, "-m", "robotkit", "crawl", "--delay", str(DELAY),
                   "--max-pages", "100000", "--from", "bench@example.org",
                   "--output", str(out / f"worker{n}.jsonl")]  # fmt: skip
        if redis_url is not None:
            command += ["--redis", redis_url, "--crawl-id", crawl_id, "--redis-lease", "3"]
        procs.append(
            subprocess.Popen(
                [*command, *mine], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=TREE
            )
        )
    return procs


def all_running(out: Path, count: int) -> float:
    """When the last of the workers made its first decision (its output's first
    line): from then on all of them crawl, start-up behind them."""
    firsts = []
    for n in range(count):
        with open(out / f"worker{n}.jsonl", encoding="utf-8") as lines:
            firsts.append(min(json.loads(line)["time"] for line in lines if line.strip()))
    return max(firsts)


def steady_share(rows: list[tuple[int, str, float, float]], since: float, hosts: int) -> float:
    """Pages per second from ``since`` to the last page's end, against the ideal."""
    pages = [r for r in rows if r[2] >= since and r[1][3:].isdigit()]
    span = max(r[3] for r in pages) - since
    return (len(pages) / span) / (hosts / DELAY)


def fetched_by(out: Path, n: int) -> int:
    path = out / f"worker{n}.jsonl"
    if not path.exists():
        return 0
    with open(path, encoding="utf-8") as lines:
        return sum(json.loads(line)["event"] == "fetched" for line in lines if line.strip())


CALLS = ("evalsha", "eval", "ping", "script|load", "client|setinfo", "hello", "select")
"""What a client sends Redis (one command, one round trip); the commands a script
runs inside Redis are counted apart by Redis and are not round trips."""


def process_cpu(pid: int) -> float:
    """CPU seconds a process has used so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class CpuSampler:
    """The workers' CPU (Linux /proc), sampled every ``every`` seconds with the time,
    so that a window of a run can be read: the steady part, with every worker's
    start-up and the crawl's ending left out. Taking a one-page crawl's CPU off a
    whole run (``startup_cpu``) left the start-up's own variance in each figure,
    about 0.5 ms a page from one invocation to the next."""

    def __init__(self, pids: list[int], every: float = 0.02) -> None:
        self.pids = pids
        self.every = every
        self.samples: list[tuple[float, float]] = []
        self._last = dict.fromkeys(pids, 0.0)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            for pid in self.pids:
                with contextlib.suppress(OSError, IndexError, ValueError):
                    self._last[pid] = process_cpu(pid)  # an ended worker keeps its last
            self.samples.append((time.time(), sum(self._last.values())))
            self._stop.wait(self.every)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    def at(self, moment: float) -> float:
        """The workers' CPU seconds at ``moment``: the last sample at or before it."""
        used = 0.0
        for when, cpu in self.samples:
            if when > moment:
                break
            used = cpu
        return used


def steady_cpu(
    sampler: CpuSampler, rows: list[tuple[int, str, float, float]], since: float
) -> float:
    """Milliseconds of worker CPU a page in the steady window: from ``since`` (every
    worker has started) to the end of the page by which 90% of the run's pages had
    ended (the crawl's ending left out), over the pages that ended in it."""
    ends = sorted(r[3] for r in rows if r[1][3:].isdigit())
    until = ends[int(len(ends) * 0.9) - 1]
    pages = sum(since <= end <= until for end in ends)
    return (sampler.at(until) - sampler.at(since)) / max(pages, 1) * 1000


def redis_cpu(client: redis.Redis) -> float:
    info = client.info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


def commands(client: redis.Redis) -> int:
    stats = client.info("commandstats")
    return sum(int(stats.get(f"cmdstat_{name}", {}).get("calls", 0)) for name in CALLS)


def run_shared(
    sites: Sites, server: RedisServer, count: int, out: Path, crawl_id: str = "bench-shared"
) -> dict[str, float]:
    client = redis.Redis.from_url(server.url)
    before = commands(client)
    cpu_before = (resource.getrusage(resource.RUSAGE_CHILDREN), process_cpu(sites.process.pid),
                  redis_cpu(client))  # fmt: skip
    procs = workers(count, sites.seeds(), server.url, crawl_id, out)
    sampler = CpuSampler([proc.pid for proc in procs])
    for proc in procs:
        _, err = proc.communicate(timeout=600)
        if proc.returncode != 0:
            raise SystemExit(f"a worker failed ({proc.returncode}): {err.decode()[-500:]}")
    sampler.stop()
    used = commands(client) - before
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    workers_cpu = (after.ru_utime + after.ru_stime) - (
        cpu_before[0].ru_utime + cpu_before[0].ru_stime
    )
    server_cpu = process_cpu(sites.process.pid) - cpu_before[1]
    redis_used = redis_cpu(client) - cpu_before[2]
    rows = sites.requests()
    figures = measure(rows, sites.count, sites.hosts)
    since = all_running(out, count)
    figures["steady_share"] = steady_share(rows, since, sites.hosts)
    figures["steady_cpu"] = steady_cpu(sampler, rows, since)
    figures["commands_per_page"] = used / figures["fetches"]
    figures["cpu"] = (workers_cpu, server_cpu, redis_used)  # type: ignore[assignment]
    figures["per_worker"] = [fetched_by(out, n) for n in range(count)]  # type: ignore[assignment]
    return figures


def children_cpu() -> float:
    """CPU seconds of the children waited for so far."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def run_alone(sites: Sites, count: int, out: Path, split: bool = False) -> dict[str, float]:
    before = children_cpu()
    procs = workers(count, sites.seeds(), None, "", out, split)
    sampler = CpuSampler([proc.pid for proc in procs])
    for proc in procs:
        proc.communicate(timeout=900)
    sampler.stop()
    rows = sites.requests()
    figures = measure(rows, sites.count, sites.hosts)
    figures["workers_cpu"] = children_cpu() - before
    figures["steady_cpu"] = steady_cpu(sampler, rows, all_running(out, count))
    return figures


def startup_cpu(sites: Sites, out: Path, redis_url: str | None = None) -> float:
    """CPU seconds of a worker's start and end alone: a crawl of one page, the least
    of three. Taken off the runs' CPU, so that the CPU per page compares the pages
    (four workers' start-ups weigh on the shared run's 1,500 pages four times as much
    as on the lone runs' 6,000). With ``redis_url``, a shared worker's (a crawl id of
    its own): its start-up also imports redis-py, connects, loads the scripts and
    syncs, which the lone one's does not."""
    runs = []
    for n in range(3):
        before = children_cpu()
        shared = [] if redis_url is None else ["--redis", redis_url, "--crawl-id", f"start{n}"]
        command = [sys.executable, "-m", "robotkit", "crawl", "--max-pages", "1", *shared,
                   "--output", str(out / f"start{n}.jsonl"), sites.seeds()[0]]  # fmt: skip
        subprocess.run(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, cwd=TREE
        )
        runs.append(children_cpu() - before)
    sites.requests()  # not the runs' requests
    return min(runs)


def run_kill(sites: Sites, server: RedisServer, count: int, out: Path) -> dict[str, float]:
    procs = workers(count, sites.seeds(), server.url, "bench-kill", out)
    total = sites.count * sites.hosts
    seen = 0
    while seen < total // 3:
        time.sleep(0.05)
        with open(sites.log, encoding="utf-8") as log:
            log.seek(sites.mark)
            seen = sum(1 for line in log if " /p/" in line)
    os.kill(procs[0].pid, signal.SIGKILL)
    for proc in procs:
        proc.communicate(timeout=600)
    return measure(sites.requests(), sites.count, sites.hosts)


def per_page(cpu: float, fetches: float, workers_count: int, start: float) -> float:
    """Milliseconds of worker CPU a page, the workers' start-ups left out."""
    return (cpu - workers_count * start) / fetches * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=30, help="pages per host (default 30)")
    parser.add_argument("--hosts", type=int, default=50)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--turns", type=int, default=1, help="split and shared runs, in turns")
    parser.add_argument("--skip-alone", action="store_true")
    parser.add_argument("--skip-kill", action="store_true")
    parser.add_argument("--keep", metavar="DIR", help="keep the logs and outputs here")
    args = parser.parse_args()
    results: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as directory:
        root = Path(args.keep or directory)
        (root / "redis").mkdir()
        server = RedisServer(root / "redis")
        sites = Sites(root, args.pages, args.hosts)
        try:
            (root / "start").mkdir()
            (root / "start-shared").mkdir()
            start = startup_cpu(sites, root / "start")
            start_shared = startup_cpu(sites, root / "start-shared", server.url)
            names = [f"{kind} {n + 1}" for n in range(args.turns) for kind in ("split", "shared")]
            names += [] if args.skip_alone else ["alone"]
            names += [] if args.skip_kill else ["kill"]
            for name in names:
                out = root / name.replace(" ", "")
                out.mkdir()
                if name.startswith("shared"):
                    crawl_id = "bench-" + name.replace(" ", "")
                    results[name] = run_shared(sites, server, args.workers, out, crawl_id)
                elif name.startswith("split"):
                    results[name] = run_alone(sites, args.workers, out, split=True)
                elif name == "alone":
                    results[name] = run_alone(sites, args.workers, out)
                else:
                    results[name] = run_kill(sites, server, args.workers, out)
        finally:
            sites.stop()
            server.stop()
    report(results, args.workers, args.hosts, args.pages, (start, start_shared))


def report(
    results: dict[str, dict[str, float]],
    count: int,
    hosts: int,
    pages: int,
    starts: tuple[float, float],
) -> None:
    """The runs' table and the CPU a page costs: each run's worker CPU less its
    workers' start-ups (a lone one's, a shared one's: ``starts``)."""
    start, start_shared = starts
    ideal = hosts / DELAY
    print(f"{count} workers, {hosts} hosts x {pages} pages, delay {DELAY} s "
          f"(ideal {ideal:.0f} pages/s)")  # fmt: skip
    header = ("run", "pages", "missing", "fetched twice", "robots.txt max/host",
              "requests < delay", "smallest gap s", "pages/s", "of ideal",
              "CPU ms/page")  # fmt: skip
    print(" | ".join(header))
    cpu: dict[str, float] = {}
    lone_start: dict[str, float] = {}  # the shared runs with a lone worker's start-up off
    for name, r in results.items():
        used = r["cpu"][0] if "cpu" in r else r.get("workers_cpu")  # type: ignore[index]
        if used is not None and "cpu" in r:
            cpu[name] = per_page(used, r["fetches"], count, start_shared)
            lone_start[name] = per_page(used, r["fetches"], count, start)
        elif used is not None:
            cpu[name] = per_page(used, r["fetches"], count, start)
        print(
            f"{name} | {r['pages']} | {r['missing']} | {r['twice']} | {r['robots_max']} | "
            f"{r['early']} | {r['smallest_gap']:.3f} | {r['pages_per_s']:.1f} | "
            f"{r['ideal_share']:.0%} | {cpu.get(name, float('nan')):.2f}"
        )
    shared_runs = [name for name in results if name.startswith("shared")]
    for name in shared_runs:
        shared = results[name]
        work, serve, red = shared["cpu"]  # type: ignore[misc]
        print(f"{name}: {shared['steady_share']:.0%} of ideal from the moment all {count} "
              f"workers had started; Redis commands per fetched page: "
              f"{shared['commands_per_page']:.2f}; pages per worker: "
              f"{shared['per_worker']}")  # fmt: skip
        print(f"{name}: CPU seconds over {shared['seconds']:.1f} s: workers {work:.1f} "
              f"({work / shared['fetches'] * 1000:.1f} ms per page, start-up included), "
              f"site server {serve:.1f}, redis-server {red:.1f}; "
              f"{os.cpu_count()} cores")  # fmt: skip
    together = statistics.median(cpu[name] for name in shared_runs)
    split = statistics.median(cpu[name] for name in results if name.startswith("split"))
    print(f"CPU per page, the workers' start-ups left out (a lone worker's {start:.2f} s, "
          f"a shared one's {start_shared:.2f} s), median of {len(shared_runs)} turn(s): "
          f"split {split:.2f} ms, shared {together:.2f} ms ({together / split:.2f}x, the "
          f"verdict: the same {count} processes, hosts, pages and pace, only the sharing "
          f"differs)")  # fmt: skip
    old = statistics.median(lone_start[name] for name in shared_runs)
    print(f"CPU per page shared with a lone worker's start-up left out (the figure "
          f"before: the shared start-up's Redis part counted as pages): {old:.2f} ms "
          f"({old / split:.2f}x split)")  # fmt: skip
    if "alone" in cpu:
        # Each lone worker fetches every page, at four times the pace: a busier loop.
        print(f"CPU per page, the not-shared run (each process crawls every host, four "
              f"times the pages at four times the pace: the anchor before): "
              f"{cpu['alone']:.2f} ms; shared {together / cpu['alone']:.2f}x that, "
              f"{old / cpu['alone']:.2f}x with a lone start-up off")  # fmt: skip
    # What the ideal rate would take: every page's CPU (workers, site server, Redis)
    # times the ideal pages per second, against the cores there are. Above them the
    # run is bound by the machine, not by the coordination.
    steady = {name: r["steady_cpu"] for name, r in results.items() if "steady_cpu" in r}
    split_runs = [name for name in results if name.startswith("split")]
    s_split = statistics.median(steady[name] for name in split_runs)
    s_shared = statistics.median(steady[name] for name in shared_runs)
    turns = [steady[f"shared {n + 1}"] / steady[f"split {n + 1}"] for n in range(len(shared_runs))]
    print(f"CPU per page in the steady window (every worker started, up to 90% of the "
          f"pages: no start-up or ending in it; each worker's CPU sampled from /proc): "
          f"split {s_split:.2f} ms, shared {s_shared:.2f} ms ({s_shared / s_split:.2f}x, "
          f"the ratio of the medians); turn by turn "
          f"{', '.join(f'{t:.2f}' for t in turns)} (median {statistics.median(turns):.2f}x)"
          + (f"; not shared {steady['alone']:.2f} ms ({s_shared / steady['alone']:.2f}x)"
             if "alone" in steady else ""))  # fmt: skip
    shared = results[shared_runs[-1]]
    work, serve, red = shared["cpu"]  # type: ignore[misc]
    need = (work + serve + red) / shared["fetches"] * ideal
    print(f"shared: cores the ideal {ideal:.0f} pages/s would take at this CPU per page: "
          f"{need:.1f} (this machine: {os.cpu_count()})")  # fmt: skip


if __name__ == "__main__":
    main()
