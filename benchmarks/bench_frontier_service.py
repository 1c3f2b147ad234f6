"""The URL Frontier service's cost: server time per URL handed out, and memory per
URL held.

1. **Hand-out over gRPC.** A service node (in this process, its own thread and
   event loop) gets ``--urls`` URLs over ``--hosts`` hosts through PutURLs; then a
   client calls GetURLs (no limits) and reports every URL back (a known item with a
   status) until all are done. robots.txt answers come from a local allow-all file
   (no network: the figure is the service's, not a web server's) and the delay is
   0, so every host is due at every call. The figure is the server thread's CPU
   time (``time.thread_time``, read on the server's loop) per URL, for the GetURLs
   calls alone and for the PutURLs reports; the target is at most 1 ms per URL
   handed out at 10^4 URLs over 10^3 hosts.
2. **Hand-out in the core alone** (``ServiceCore.take`` and the report), the same
   work without gRPC and protobuf.
3. **Holding** ``--hold`` URLs (default 10^6) queued over ``--hosts`` hosts in the
   core: the growth of the process's peak RSS per URL, and the cost of one
   GetURLs-sized take afterwards.

Usage: ``python benchmarks/bench_frontier_service.py [--urls 10000] [--hosts 1000]
[--hold 1000000]`` (``--hold 0`` skips part 3).
"""

from __future__ import annotations

import argparse
import gc
import resource
import sys
import tempfile
import time
from pathlib import Path

import grpc

from robotkit.base.clock import system_clock
from robotkit.base.identity import Identity
from robotkit.http.checker import AsyncRobotsChecker
from robotkit.pacing.pacer import Pacer, PacingPolicy
from robotkit.service import metadata as meta
from robotkit.service.core import Incoming, ServiceCore
from robotkit.service.proto import urlfrontier_pb2 as pb
from robotkit.service.proto import urlfrontier_pb2_grpc as pb_grpc
from robotkit.service.server import FrontierServer, RunningService, ServiceConfig

IDENTITY = Identity("BenchBot/1.0 (+https://example.org/bot)")


def urls(count: int, hosts: int) -> list[str]:
    return [f"http://h{i % hosts}.example/page/{i}" for i in range(count)]


def known(url: str) -> pb.URLItem:
    info = pb.URLInfo(url=url)
    info.metadata[meta.STATUS].values.append("200")
    return pb.URLItem(known=pb.KnownURLItem(info=info))


def bench_grpc(count: int, hosts: int, robots_file: Path) -> None:
    checker = AsyncRobotsChecker.from_file(robots_file, IDENTITY)
    server = FrontierServer(ServiceConfig(identity=IDENTITY, delay=0.0), checker=checker)
    with RunningService(server) as running:
        channel = grpc.insecure_channel(running.address)
        stub = pb_grpc.URLFrontierStub(channel)
        items = [
            pb.URLItem(discovered=pb.DiscoveredURLItem(info=pb.URLInfo(url=u)))
            for u in urls(count, hosts)
        ]
        start = running.call(time.thread_time)
        acks = list(stub.PutURLs(iter(items)))
        put_cpu = running.call(time.thread_time) - start
        assert len(acks) == count
        get_cpu = report_cpu = 0.0
        handed = calls = 0
        wall = time.perf_counter()
        while handed < count:
            start = running.call(time.thread_time)
            batch = list(stub.GetURLs(pb.GetParams()))
            get_cpu += running.call(time.thread_time) - start
            calls += 1
            handed += len(batch)
            start = running.call(time.thread_time)
            list(stub.PutURLs(iter([known(info.url) for info in batch])))
            report_cpu += running.call(time.thread_time) - start
            if not batch:
                time.sleep(0.001)
        wall = time.perf_counter() - wall
        channel.close()
    print(f"gRPC, {count:,} URLs over {hosts:,} hosts ({calls} GetURLs calls):")
    print(f"  PutURLs (discovered): {put_cpu / count * 1e3:.3f} ms server CPU per URL")
    print(f"  GetURLs:              {get_cpu / count * 1e3:.3f} ms server CPU per URL handed out")
    print(f"  PutURLs (reports):    {report_cpu / count * 1e3:.3f} ms server CPU per URL")
    print(f"  whole cycle:          {wall / count * 1e3:.3f} ms wall per URL (client included)")


def core_for_bench() -> ServiceCore:
    policy = PacingPolicy(delay=0.0, max_in_flight=1 << 30, max_hosts=1 << 22)
    return ServiceCore(system_clock, Pacer(system_clock, policy))


def allow(url: str) -> None:
    return None


def bench_core(count: int, hosts: int, robots_file: Path) -> None:
    checker = AsyncRobotsChecker.from_file(robots_file, IDENTITY)
    core = core_for_bench()
    for url in urls(count, hosts):
        core.put("", Incoming(url))
    report = {meta.STATUS: ["200"]}
    taken = 0
    take = report_time = 0.0
    while taken < count:
        start = time.process_time()
        handed = core.take(checker.known).handed
        take += time.process_time() - start
        start = time.process_time()
        for record in handed:
            core.put("", Incoming(record.url, metadata=report, known=True))
        report_time += time.process_time() - start
        taken += len(handed)
    print(f"core alone, {count:,} URLs over {hosts:,} hosts:")
    print(f"  take:   {take / count * 1e3:.4f} ms CPU per URL handed out")
    print(f"  report: {report_time / count * 1e3:.4f} ms CPU per URL")


def bench_hold(count: int, hosts: int, robots_file: Path) -> None:
    checker = AsyncRobotsChecker.from_file(robots_file, IDENTITY)
    gc.collect()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    core = core_for_bench()
    start = time.process_time()
    for url in urls(count, hosts):
        core.put("", Incoming(url))
    put_time = time.process_time() - start
    gc.collect()
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    start = time.process_time()
    handed = core.take(checker.known).handed
    take_time = time.process_time() - start
    queued = core.crawls["DEFAULT"].queues
    total = sum(q.queued + q.in_flight for q in queued.values())
    print(f"holding {count:,} URLs over {hosts:,} hosts: {total:,} queued or out")
    grown = after - before
    print(f"  peak RSS grew {grown / 2**20:,.0f} MiB: {grown / count:.0f} bytes per URL")
    print(f"  put: {put_time / count * 1e6:.1f} µs CPU per URL")
    print(f"  one take afterwards: {len(handed):,} URLs in {take_time * 1e3:.1f} ms CPU")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--urls", type=int, default=10_000)
    parser.add_argument("--hosts", type=int, default=1_000)
    parser.add_argument("--hold", type=int, default=1_000_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        robots_file = Path(tmp) / "robots.txt"
        robots_file.write_text("User-agent: *\nDisallow: /private\n")
        bench_grpc(args.urls, args.hosts, robots_file)
        bench_core(args.urls, args.hosts, robots_file)
        if args.hold:
            bench_hold(args.hold, args.hosts, robots_file)
    return 0


if __name__ == "__main__":
    sys.exit(main())
