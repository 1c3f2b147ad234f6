"""Benchmark: the shared crawl's Redis side at web scale (issue 23), no HTTP.

Simulated hosts ``http://h<n>.example`` and their URLs go through the real
:class:`~robotkit.shared.crawl.SharedCrawl` scripts, on one redis-server or on a
three-node cluster (the tests' ``support/redis_server.py``), in phases:

1. **offer**: a loader offers ``--urls`` URLs spread over ``--hosts`` hosts (the
   seen filter, the inboxes, the index of claimable hosts);
2. **claim and take**: ``--workers`` workers sync until every host is claimed and
   take every link on (screened, then pending): Redis memory per pending URL
   (``INFO memory`` delta from the empty crawl);
3. **sync**: every worker syncs ``--syncs`` times with the crawl at full size: one
   sync's Redis time (``INFO commandstats``, EVALSHA's microseconds over the syncs,
   host scripts it triggered included); BUSY replies counted;
4. **pages**: workers finish their pending URLs (``done``, one page each), while a
   SharedPacer reserves and finishes a slot between them: pages per second the
   coordination alone sustains (one process), and the reserve + finish median;
5. **seen**: what is left when nothing is pending: memory per seen URL.

    python benchmarks/bench_scale.py [--quick] [--hosts N] [--urls N] [--workers N] [--cluster]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import redis

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from support.redis_server import RedisCluster, RedisServer

from robotkit.base.clock import ManualClock
from robotkit.base.outcome import Outcome
from robotkit.frontier.events import Tier
from robotkit.pacing.pacer import Pacer
from robotkit.shared.connection import Namespace, connect, connect_async
from robotkit.shared.crawl import SharedCrawl, hashes
from robotkit.shared.crawl_scripts import BLOOM_BASE_BITS, BLOOM_BASE_HASHES
from robotkit.shared.pacing import AsyncSharedPacer
from robotkit.url.parse import origin_of


def nodes(url: str) -> list[redis.Redis]:
    client = connect(url)
    if isinstance(client, redis.cluster.RedisCluster):
        return [n.redis_connection for n in client.get_primaries()]  # type: ignore[no-untyped-call]
    return [client]


def memory(servers: list[redis.Redis]) -> int:
    return sum(int(s.info("memory")["used_memory"]) for s in servers)


def evalsha(servers: list[redis.Redis]) -> tuple[int, int]:
    calls = usec = 0
    for s in servers:
        stat = s.info("commandstats").get("cmdstat_evalsha", {})
        calls += int(stat.get("calls", 0))
        usec += int(stat.get("usec", 0))
    return calls, usec


def rejected(keys: list[str]) -> set[str]:
    """The keys a host's seen filter answers "seen" for although they are new, when
    offered ``keys`` in this order: the Lua's filter replayed in Python (its levels,
    its triple hashing), so each lost link is told apart as a false positive or a
    loss elsewhere."""
    bits: set[int] = set()
    level = count = 0
    wrong = set()
    for key in keys:
        h1, h2, h3 = hashes(key)

        def spots(i: int, h1: int = h1, h2: int = h2, h3: int = h3) -> list[int]:
            m, base = BLOOM_BASE_BITS << i, BLOOM_BASE_BITS * ((1 << i) - 1)
            return [
                base + ((h1 + j * h2 + j * (j - 1) // 2 * h3) % 2**32) * m // 2**32
                for j in range(BLOOM_BASE_HASHES + i)
            ]

        if any(all(p in bits for p in spots(i)) for i in range(level + 1)):
            wrong.add(key)
            continue
        if count >= int(BLOOM_BASE_BITS * 2**level * 0.6931 / (BLOOM_BASE_HASHES + level)):
            level, count = level + 1, 0
        bits.update(spots(level))
        count += 1
    return wrong


def busy(servers: list[redis.Redis]) -> int:
    return sum(int(s.info("errorstats").get("errorstat_BUSY", {}).get("count", 0)) for s in servers)


async def run(url: str, hosts: int, urls: int, workers: int, syncs: int) -> dict[str, Any]:
    servers = nodes(url)
    ns = Namespace("scale")
    base = memory(servers)
    names = [f"http://h{n}.example" for n in range(hosts)]
    loader = SharedCrawl(await connect_async(url), ns, "loader", lease=3600.0)
    now = 0.0
    t0 = time.perf_counter()
    for n in range(urls):
        host = names[n % hosts]
        page = f"{host}/p/{n // hosts}"
        loader.offer(origin_of(host), page, page, 1, f"{host}/", 0)
        if loader.unsent >= 5000:
            await loader.settle() if loader.token else await loader.sync(now, idle=False)
    await loader.sync(now, idle=False)
    await loader.sync(now, idle=False)  # announcements
    await loader.leave()
    offer_s = time.perf_counter() - t0
    crawls = [
        SharedCrawl(await connect_async(url), ns, f"w{n}", lease=3600.0, max_claims=1000)
        for n in range(workers)
    ]
    # 2. claim and take everything.
    t0 = time.perf_counter()
    pending: list[list[tuple[Any, str]]] = [[] for _ in crawls]
    quiet = 0
    while quiet < 2:
        got = 0
        now += 0.1
        for i, c in enumerate(crawls):
            result = await c.sync(now, idle=False)
            for claim in result.claims:
                for offer in claim.pending:
                    got += 1
                    c.screened(claim.host, offer.key)
                    c.take(
                        claim.host, offer.url, offer.key, offer.depth, offer.referer, 0, Tier.MAIN
                    )
                    pending[i].append((claim.host, offer.key))
            if c.unsent:
                await c.settle()
        quiet = quiet + 1 if got == 0 else 0
    claim_s = time.perf_counter() - t0
    taken = sum(len(p) for p in pending)
    per_host = -(-urls // hosts)
    offered = [
        [f"{h}/p/{i}" for i in range(per_host) if i * hosts + n < urls] for n, h in enumerate(names)
    ]
    lost = {k for keys in offered for k in keys} - {key for p in pending for _, key in p}
    false_positives = sum(len(rejected(keys) & lost) for keys in offered)
    per_pending = (memory(servers) - base) / max(1, taken)
    # 3. syncs at full size.
    for s in servers:
        s.config_resetstat()
    busy0 = busy(servers)
    for _ in range(syncs):
        now += 0.1
        for c in crawls:
            await c.sync(now, idle=False)
    _, usec = evalsha(servers)
    sync_ms = usec / 1000 / (syncs * workers)
    # 4. pages: done per page, a pacer slot between.
    pacer = AsyncSharedPacer(Pacer(ManualClock()), crawls[0].client, ns)
    latencies = []
    t0 = time.perf_counter()
    pages = 0
    rounds = max(len(p) for p in pending)
    for r in range(rounds):
        for i, c in enumerate(crawls):
            if r < len(pending[i]):
                host, key = pending[i][r]
                c.done(host, key)
                await c.settle()
                pages += 1
        start = time.perf_counter()
        slot = await pacer.reserve(("h.example", 80 + r % 1000))
        if slot.ticket is not None:
            await pacer.finish(slot.ticket, Outcome.OK)
        latencies.append(time.perf_counter() - start)
        if r % 20 == 0:
            now += 0.1
            for c in crawls:
                await c.sync(now, idle=False)
    pages_s = pages / (time.perf_counter() - t0)
    per_seen = (memory(servers) - base) / max(1, taken)
    for c in crawls:
        await c.leave()
    return {
        "hosts": hosts,
        "urls": urls,
        "taken": taken,
        "lost": len(lost),
        "of which false positives": false_positives,
        "offer s": round(offer_s, 1),
        "claim+take s": round(claim_s, 1),
        "sync Redis ms": round(sync_ms, 3),
        "reserve+finish median ms": round(statistics.median(latencies) * 1000, 3),
        "BUSY": busy(servers) - busy0,
        "B per pending URL": round(per_pending, 1),
        "B per seen URL": round(per_seen, 1),
        "pages/s (one process)": round(pages_s),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10^4 hosts, 10^5 URLs")
    parser.add_argument("--hosts", type=int, default=100_000)
    parser.add_argument("--urls", type=int, default=1_000_000)
    parser.add_argument("--workers", type=int, default=10)
    parser.add_argument("--syncs", type=int, default=20)
    parser.add_argument("--cluster", action="store_true", help="a three-node cluster")
    args = parser.parse_args()
    if args.quick:
        args.hosts, args.urls = 10_000, 100_000
    with tempfile.TemporaryDirectory() as where:
        server: RedisServer | RedisCluster
        server = RedisCluster(Path(where)) if args.cluster else RedisServer(Path(where))
        try:
            figures = asyncio.run(run(server.url, args.hosts, args.urls, args.workers, args.syncs))
        finally:
            server.stop()
    print(("cluster" if args.cluster else "single") + ": " + ", ".join(
        f"{k} {v}" for k, v in figures.items()))  # fmt: skip


if __name__ == "__main__":
    main()
