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
5. **seen**: what is left when nothing is pending (the hosts at rest: their seen
   filters, no ``owned`` entries): memory per seen URL.

With ``--direct`` (for 10^6 hosts and 10^7 URLs: the path above offers a few thousand
URLs a second), the state of phase 2 is written key by key in pipelines (each host's
filter replayed in Python with its header, its pending records, the ``owned``
entries and loads), then the workers run as processes, all at once, for
``--seconds``: syncs alone (one sync's Redis time, its round trip), then pages and
syncs (reserve + finish median, BUSY, Redis CPU per page, pages/s); memory per
pending URL after the load, per seen URL once the pending records are gone.

    python benchmarks/bench_scale.py [--quick] [--hosts N] [--urls N] [--workers N] [--cluster]
    python benchmarks/bench_scale.py --direct --hosts 1000000 --urls 10000000 [--cluster]
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import multiprocessing
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
from robotkit.shared.crawl import Offer, SharedCrawl, hashes, short
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


def replay(keys: list[str]) -> tuple[set[str], set[int], int, int]:
    """A host's seen filter offered ``keys`` in this order, replayed in Python (its
    levels, its triple hashing): the keys it wrongly answers "seen" for, the bits it
    sets (from the end of the header), its level and the keys in that level. Tells a
    lost link apart as a false positive or a loss elsewhere, and builds the filters
    the direct loader writes."""
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
    return wrong, bits, level, count


def rejected(keys: list[str]) -> set[str]:
    return replay(keys)[0]


def filter_string(owner: str, bits: set[int], level: int, count: int) -> bytes:
    """The seen filter as the Lua leaves it: the header, then the bits of every level
    up to its own (SETBIT: bit 0 is a byte's high bit)."""
    head = f"{owner:<10}1{level:02d}{count:010d} ".encode()
    body = bytearray(BLOOM_BASE_BITS * (2 ** (level + 1) - 1) // 8)
    for bit in bits:
        body[bit >> 3] |= 0x80 >> (bit & 7)
    return head + bytes(body)


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
                    c.take(claim.host, dataclasses.replace(offer, tier=Tier.MAIN, taken=True))
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
    now += 0.1
    for c in crawls:  # the last pages' news: their hosts at rest lose their owned entries
        await c.sync(now, idle=False)
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


def load_direct(
    url: str, ns: Namespace, crawls: list[SharedCrawl], hosts: int, urls: int
) -> list[list[tuple[str, str]]]:
    """Writes the state the offers, claims and takes of the script path leave (every
    host claimed by a worker, every URL taken on), key by key in pipelines: the seen
    filter with its header, the pending records, the ``owned`` entries and loads.
    Returns each worker's pending URLs (host, key)."""
    client = connect(url)
    per_host = -(-urls // hosts)
    pending: list[list[tuple[str, str]]] = [[] for _ in crawls]
    pipe = client.pipeline(transaction=False)
    owned: list[dict[str, float]] = [{} for _ in crawls]
    for n in range(hosts):
        w = n % len(crawls)
        crawl = crawls[w]
        host = f"http://h{n}.example"
        keys = [f"{host}/p/{i}" for i in range(per_host) if i * hosts + n < urls]
        wrong, bits, level, count = replay(keys)
        pipe.set(ns.host_key(host, "s"), filter_string(crawl.token, bits, level, count))
        records = {}
        for key in keys:
            if key not in wrong:
                offer = Offer(key, key, 1, f"{host}/", 0, Tier.MAIN, taken=True)
                records[short(host, key)] = offer.record(host)
                pending[w].append((host, key))
        if records:
            pipe.hset(ns.host_key(host, "q"), mapping=records)
        owned[w][f"{crawl.token}\0{host}"] = 0
        crawl.owned.add(origin_of(host))
        if n % 2000 == 1999 or n == hosts - 1:
            for w2, entries in enumerate(owned):
                if entries:
                    pipe.zadd(ns.crawl_key("owned"), entries)
                owned[w2] = {}
            pipe.execute()
    for crawl in crawls:
        client.hset(ns.crawl_key("load"), crawl.token, len(crawl.owned))
    client.set(ns.crawl_key("loadsum"), hosts)
    client.close()
    return pending


def worker_phase(
    url: str,
    crawl: SharedCrawl,
    pages: list[tuple[str, str]],
    seconds: float,
    with_pages: bool,
    out: Any,
) -> None:
    """One worker process: syncs every 0.1 s (as a crawler does) for ``seconds``;
    with ``with_pages``, between syncs it finishes its pending pages one by one (the
    page's host script) with a pacer slot reserved and finished for each."""

    async def go() -> None:
        client = await connect_async(url)
        crawl.client = client
        crawl._runner = type(crawl._runner)(client)
        pacer = AsyncSharedPacer(Pacer(ManualClock()), client, crawl.namespace)
        latencies, sync_times = [], []
        done = syncs = 0
        start = time.perf_counter()
        next_sync = start
        now = 1.0
        while (t := time.perf_counter()) - start < seconds:
            if t >= next_sync or not with_pages or done >= len(pages):
                if t < next_sync:
                    await asyncio.sleep(next_sync - t)
                now += 0.1
                t0 = time.perf_counter()
                await crawl.sync(now, idle=False)
                sync_times.append(time.perf_counter() - t0)
                syncs += 1
                next_sync += 0.1
                continue
            host, key = pages[done]
            t0 = time.perf_counter()
            slot = await pacer.reserve((host[7:], 80))
            if slot.ticket is not None:
                await pacer.finish(slot.ticket, Outcome.OK)
            latencies.append(time.perf_counter() - t0)
            crawl.done(origin_of(host), key)
            await crawl.settle()
            done += 1
        out.put((done, syncs, latencies, sync_times, time.perf_counter() - start))
        await client.aclose()

    asyncio.run(go())


def concurrently(
    url: str,
    crawls: list[SharedCrawl],
    pending: list[list[tuple[str, str]]],
    seconds: float,
    with_pages: bool,
) -> list[tuple[int, int, list[float], list[float], float]]:
    context = multiprocessing.get_context("fork")
    out = context.Queue()
    procs = [
        context.Process(target=worker_phase, args=(url, c, p, seconds, with_pages, out))
        for c, p in zip(crawls, pending, strict=True)
    ]
    for proc in procs:
        proc.start()
    results = [out.get() for _ in procs]
    for proc in procs:
        proc.join()
    return results


def redis_cpu(servers: list[redis.Redis]) -> float:
    return sum(
        float(i["used_cpu_user"]) + float(i["used_cpu_sys"])
        for i in (s.info("cpu") for s in servers)
    )


async def run_direct(
    url: str, hosts: int, urls: int, workers: int, seconds: float
) -> dict[str, Any]:
    """The state at full size written directly (:func:`load_direct`), then the
    workers as processes, all at once: syncs alone, then pages and syncs."""
    servers = nodes(url)
    ns = Namespace("scale")
    base = memory(servers)
    crawls = [
        SharedCrawl(await connect_async(url), ns, f"w{n}", lease=3600.0) for n in range(workers)
    ]
    for crawl in crawls:
        await crawl.sync(0.5, idle=False)
        await crawl.client.aclose()
    t0 = time.perf_counter()
    pending = load_direct(url, ns, crawls, hosts, urls)
    load_s = time.perf_counter() - t0
    taken = sum(len(p) for p in pending)
    per_pending = (memory(servers) - base) / max(1, taken)
    figures: dict[str, Any] = {"hosts": hosts, "urls": urls, "taken": taken}
    figures["load s"] = round(load_s, 1)
    figures["B per pending URL"] = round(per_pending, 1)
    for s in servers:
        s.config_resetstat()
    results = concurrently(url, crawls, pending, seconds, with_pages=False)
    calls, usec = evalsha(servers)
    syncs = sum(r[1] for r in results)
    figures["syncs"] = syncs
    figures["sync Redis ms"] = round(usec / 1000 / max(1, calls), 3)
    figures["sync round trip median ms"] = round(
        statistics.median([t for r in results for t in r[3]]) * 1000, 3
    )
    busy0 = busy(servers)
    cpu0 = redis_cpu(servers)
    results = concurrently(url, crawls, pending, seconds, with_pages=True)
    cpu = redis_cpu(servers) - cpu0
    pages = sum(r[0] for r in results)
    span = max(r[4] for r in results)
    figures["pages/s (10 processes, 2 cores)"] = round(pages / span)
    figures["reserve+finish median ms"] = round(
        statistics.median([t for r in results for t in r[2]]) * 1000, 3
    )
    figures["Redis CPU ms per page"] = round(cpu / max(1, pages) * 1000, 3)
    figures["pages/s per Redis core"] = round(pages / cpu) if cpu else None
    figures["BUSY"] = busy(servers) - busy0
    # Every page done: what is left is the seen filters (a host at rest keeps no owned
    # entry: its owner's host script saw no work left, and the next sync removed it).
    client = connect(url)
    pipe = client.pipeline(transaction=False)
    for n in range(hosts):
        pipe.unlink(ns.host_key(f"http://h{n}.example", "q"))
        if n % 5000 == 4999:
            pipe.execute()
    pipe.delete(ns.crawl_key("owned"))  # freed now (UNLINK frees a large one later)
    pipe.execute()
    figures["B per seen URL"] = round((memory(servers) - base) / max(1, taken), 1)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10^4 hosts, 10^5 URLs")
    parser.add_argument("--hosts", type=int, default=100_000)
    parser.add_argument("--urls", type=int, default=1_000_000)
    parser.add_argument("--workers", type=int, default=10)
    parser.add_argument("--syncs", type=int, default=20)
    parser.add_argument("--cluster", action="store_true", help="a three-node cluster")
    parser.add_argument(
        "--direct",
        action="store_true",
        help="write the full-size state key by key, then run the workers as processes "
        "at once (syncs alone, then pages and syncs) for --seconds each",
    )
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    if args.quick:
        args.hosts, args.urls = 10_000, 100_000
    with tempfile.TemporaryDirectory() as where:
        server: RedisServer | RedisCluster
        server = RedisCluster(Path(where)) if args.cluster else RedisServer(Path(where))
        try:
            if args.direct:
                figures = asyncio.run(
                    run_direct(server.url, args.hosts, args.urls, args.workers, args.seconds)
                )
            else:
                figures = asyncio.run(
                    run(server.url, args.hosts, args.urls, args.workers, args.syncs)
                )
        finally:
            server.stop()
    print(("cluster" if args.cluster else "single") + ": " + ", ".join(
        f"{k} {v}" for k, v in figures.items()))  # fmt: skip


if __name__ == "__main__":
    main()
