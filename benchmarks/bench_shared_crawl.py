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
  (``INFO commandstats``: the scripts robotkit runs, each one round trip, and the
  connection set-up; not the commands a script runs inside Redis), and pages/s;
* **not shared**: the same four processes without ``--redis``: each crawls
  everything on its own, and the hosts see four robots at once;
* **SIGKILL**: four shared workers, one killed with SIGKILL when a third of the
  pages are fetched; the other three finish. Pages never fetched, and pages fetched
  twice (only those in flight at the kill may be).

    python benchmarks/bench_shared_crawl.py [--pages N] [--workers N] [--hosts N]
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
    count: int, seeds: list[str], redis_url: str | None, crawl_id: str, out: Path
) -> list[subprocess.Popen[bytes]]:
    procs = []
    for n in range(count):
        command = [sys.executable, "-m", "robotkit", "crawl", "--delay", str(DELAY),
                   "--max-pages", "100000", "--from", "bench@example.org",
                   "--output", str(out / f"worker{n}.jsonl")]  # fmt: skip
        if redis_url is not None:
            command += ["--redis", redis_url, "--crawl-id", crawl_id, "--redis-lease", "3"]
        procs.append(
            subprocess.Popen([*command, *seeds], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
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


def redis_cpu(client: redis.Redis) -> float:
    info = client.info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


def commands(client: redis.Redis) -> int:
    stats = client.info("commandstats")
    return sum(int(stats.get(f"cmdstat_{name}", {}).get("calls", 0)) for name in CALLS)


def run_shared(sites: Sites, server: RedisServer, count: int, out: Path) -> dict[str, float]:
    client = redis.Redis.from_url(server.url)
    before = commands(client)
    cpu_before = (resource.getrusage(resource.RUSAGE_CHILDREN), process_cpu(sites.process.pid),
                  redis_cpu(client))  # fmt: skip
    procs = workers(count, sites.seeds(), server.url, "bench-shared", out)
    for proc in procs:
        _, err = proc.communicate(timeout=600)
        if proc.returncode != 0:
            raise SystemExit(f"a worker failed ({proc.returncode}): {err.decode()[-500:]}")
    used = commands(client) - before
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    workers_cpu = (after.ru_utime + after.ru_stime) - (
        cpu_before[0].ru_utime + cpu_before[0].ru_stime
    )
    server_cpu = process_cpu(sites.process.pid) - cpu_before[1]
    redis_used = redis_cpu(client) - cpu_before[2]
    rows = sites.requests()
    figures = measure(rows, sites.count, sites.hosts)
    figures["steady_share"] = steady_share(rows, all_running(out, count), sites.hosts)
    figures["commands_per_page"] = used / figures["fetches"]
    figures["cpu"] = (workers_cpu, server_cpu, redis_used)  # type: ignore[assignment]
    figures["per_worker"] = [fetched_by(out, n) for n in range(count)]  # type: ignore[assignment]
    return figures


def children_cpu() -> float:
    """CPU seconds of the children waited for so far."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def run_alone(sites: Sites, count: int, out: Path) -> dict[str, float]:
    before = children_cpu()
    procs = workers(count, sites.seeds(), None, "", out)
    for proc in procs:
        proc.communicate(timeout=900)
    figures = measure(sites.requests(), sites.count, sites.hosts)
    figures["workers_cpu"] = children_cpu() - before
    return figures


def startup_cpu(sites: Sites, out: Path) -> float:
    """CPU seconds of a worker's start and end alone: a crawl of one page, the least
    of three. Taken off both runs' CPU, so that the CPU per page compares the pages
    (four workers' start-ups weigh on the shared run's 1,500 pages four times as much
    as on the lone runs' 6,000)."""
    runs = []
    for n in range(3):
        before = children_cpu()
        command = [sys.executable, "-m", "robotkit", "crawl", "--max-pages", "1",
                   "--output", str(out / f"start{n}.jsonl"), sites.seeds()[0]]  # fmt: skip
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=30, help="pages per host (default 30)")
    parser.add_argument("--hosts", type=int, default=50)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--skip-alone", action="store_true")
    parser.add_argument("--keep", metavar="DIR", help="keep the logs and outputs here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        root = Path(args.keep or directory)
        (root / "redis").mkdir()
        server = RedisServer(root / "redis")
        sites = Sites(root, args.pages, args.hosts)
        try:
            results = {}
            (root / "start").mkdir()
            start = startup_cpu(sites, root / "start")
            for name in ("shared", "alone", "kill"):
                if name == "alone" and args.skip_alone:
                    continue
                out = root / name
                out.mkdir()
                if name == "shared":
                    results[name] = run_shared(sites, server, args.workers, out)
                elif name == "alone":
                    results[name] = run_alone(sites, args.workers, out)
                else:
                    results[name] = run_kill(sites, server, args.workers, out)
        finally:
            sites.stop()
            server.stop()
    ideal = args.hosts / DELAY
    print(f"{args.workers} workers, {args.hosts} hosts x {args.pages} pages, delay {DELAY} s "
          f"(ideal {ideal:.0f} pages/s)")  # fmt: skip
    header = ("run", "pages", "missing", "fetched twice", "robots.txt max/host",
              "requests < delay", "smallest gap s", "pages/s", "of ideal")  # fmt: skip
    print(" | ".join(header))
    for name, r in results.items():
        print(
            f"{name} | {r['pages']} | {r['missing']} | {r['twice']} | {r['robots_max']} | "
            f"{r['early']} | {r['smallest_gap']:.3f} | {r['pages_per_s']:.1f} | "
            f"{r['ideal_share']:.0%}"
        )
    shared = results["shared"]
    per_page = shared["commands_per_page"]
    print(f"shared: {shared['steady_share']:.0%} of ideal from the moment all "
          f"{args.workers} workers had started")  # fmt: skip
    print(f"shared: Redis round trips per fetched page: {per_page:.2f}; "
          f"pages per worker: {shared['per_worker']}")  # fmt: skip
    work, serve, red = shared["cpu"]  # type: ignore[misc]
    print(f"shared: CPU seconds over {shared['seconds']:.1f} s: workers {work:.1f} "
          f"({work / shared['fetches'] * 1000:.1f} ms per page, start-up included), "
          f"site server {serve:.1f}, redis-server {red:.1f}; {os.cpu_count()} cores")  # fmt: skip
    if "alone" in results:
        # Each lone worker fetches every page: fetches counts all of them.
        alone = results["alone"]
        lone = (alone["workers_cpu"] - args.workers * start) / alone["fetches"] * 1000
        together = (work - args.workers * start) / shared["fetches"] * 1000
        print(f"CPU per page, a worker's start-up ({start:.2f} s) left out: alone "
              f"{lone:.2f} ms, shared {together:.2f} ms ({together / lone:.2f}x)")  # fmt: skip
    # What the ideal rate would take: every page's CPU (workers, site server, Redis)
    # times the ideal pages per second, against the cores there are. Above them the
    # run is bound by the machine, not by the coordination.
    need = (work + serve + red) / shared["fetches"] * ideal
    print(f"shared: cores the ideal {ideal:.0f} pages/s would take at this CPU per page: "
          f"{need:.1f} (this machine: {os.cpu_count()})")  # fmt: skip


if __name__ == "__main__":
    main()
