"""Shared pacing on a real Redis: the host's slot is one for all workers.

Each "worker" is its own Pacer (its own in-process state) over the same Redis
namespace; time comes from a ManualClock, except in the multi-process test, where
the server's own log shows the gaps.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import redis
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from robotkit.base.clock import ManualClock
from robotkit.base.outcome import Outcome
from robotkit.base.reasons import Reason
from robotkit.pacing.pacer import Pacer, PacingPolicy
from robotkit.shared import Namespace, SharedPacer, SharedState, SharedTicket, connect

HOST = ("127.0.0.1", 8080)
WORKER = Path(__file__).parent / "support" / "shared_worker.py"


def workers(
    redis_url: str, crawl_id: str, clock: ManualClock, n: int = 2, **policy: float
) -> list[SharedPacer]:
    client = connect(redis_url)
    return [
        SharedPacer(Pacer(clock, PacingPolicy(**policy)), client, Namespace(crawl_id))
        for _ in range(n)
    ]


def test_the_server_fixture_is_a_real_redis(redis_url: str) -> None:
    info = redis.Redis.from_url(redis_url).info("server")
    assert int(str(info["redis_version"]).split(".")[0]) >= 5


def test_a_slot_taken_by_one_worker_is_taken_for_all(
    redis_url: str, crawl_id: str, clock: ManualClock
) -> None:
    a, b = workers(redis_url, crawl_id, clock, delay=2.0)
    first = a.reserve(HOST)
    assert first.ticket is not None and first.ticket.started == clock.now
    busy = b.reserve(HOST)
    assert busy.ticket is None and busy.busy  # in flight on worker a
    clock.advance(0.5)
    a.finish(first.ticket, Outcome.OK)
    clock.advance(1.5)
    waiting = b.reserve(HOST)  # the gap runs from a's end, not its start
    assert waiting.ticket is None and not waiting.busy
    assert waiting.wait == pytest.approx(0.5)
    clock.advance(0.5)
    second = b.reserve(HOST)
    assert second.ticket is not None
    assert a.reserve(HOST).busy


def test_a_hold_set_by_one_worker_delays_the_others(
    redis_url: str, crawl_id: str, clock: ManualClock
) -> None:
    a, b = workers(redis_url, crawl_id, clock, delay=1.0)
    a.hold(HOST, clock.now + 30)
    assert b.reserve(HOST).wait == pytest.approx(30)
    clock.advance(30)
    assert b.reserve(HOST).ticket is not None


def test_retry_after_and_backoff_are_shared(
    redis_url: str, crawl_id: str, clock: ManualClock
) -> None:
    a, b = workers(redis_url, crawl_id, clock, delay=1.0, backoff_base=10.0)
    ticket = a.reserve(HOST).ticket
    assert ticket is not None
    a.finish(ticket, Outcome.RATE_LIMITED, retry_at=clock.now + 60)  # 429, Retry-After: 60
    assert b.reserve(HOST).wait == pytest.approx(60)
    clock.advance(60)
    ticket = b.reserve(HOST).ticket
    assert ticket is not None and ticket.failures == 1  # a's streak, seen by b
    b.finish(ticket, Outcome.SERVER_ERROR)  # a second failure: backoff 10 * 2
    assert a.reserve(HOST).wait == pytest.approx(20)
    clock.advance(20)
    ticket = a.reserve(HOST).ticket
    assert ticket is not None and ticket.failures == 2
    a.finish(ticket, Outcome.OK)  # one success steps the streak down one
    assert b.reserve(HOST).wait == pytest.approx(10)


def test_a_crawl_delay_too_long_skips_the_host(
    redis_url: str, crawl_id: str, clock: ManualClock
) -> None:
    (a,) = workers(redis_url, crawl_id, clock, n=1)
    a.pacer.apply_robots(HOST, crawl_delay=3600)
    assert a.reserve(HOST).skip_reason is Reason.CRAWL_DELAY_TOO_LONG


def test_crawl_ids_do_not_share_hosts(redis_url: str, clock: ManualClock) -> None:
    (a,) = workers(redis_url, "crawl-a", clock, n=1)
    (b,) = workers(redis_url, "crawl-b", clock, n=1)
    assert a.reserve(HOST).ticket is not None
    assert b.reserve(HOST).ticket is not None


def test_every_key_expires(redis_url: str, crawl_id: str, clock: ManualClock) -> None:
    (a,) = workers(redis_url, crawl_id, clock, n=1, delay=5.0)
    ticket = a.reserve(HOST).ticket
    assert ticket is not None
    a.finish(ticket, Outcome.OK, None)
    a.hold(("127.0.0.2", 80), clock.now + 100)
    keys = list(a.client.scan_iter(f"robotkit:{crawl_id}:*"))
    assert len(keys) == 2
    assert all(a.client.pttl(key) > 0 for key in keys)


def test_a_dead_workers_lease_runs_out(redis_url: str, crawl_id: str, clock: ManualClock) -> None:
    client = connect(redis_url)
    policy = PacingPolicy(delay=1.0)
    a = SharedPacer(Pacer(clock, policy), client, Namespace(crawl_id), lease=15.0)
    b = SharedPacer(Pacer(clock, policy), client, Namespace(crawl_id), lease=15.0)
    assert a.reserve(HOST).ticket is not None  # a dies without finishing
    assert b.reserve(HOST).wait == pytest.approx(15)
    clock.advance(15)
    assert b.reserve(HOST).ticket is not None


def reserve_at_once(
    pacer: SharedPacer,
    barrier: threading.Barrier,
    granted: list[tuple[SharedPacer, SharedTicket]],
) -> None:
    barrier.wait()
    slot = pacer.reserve(HOST)
    if slot.ticket is not None:
        granted.append((pacer, slot.ticket))


def test_threads_reserving_at_one_instant_get_one_slot(
    redis_url: str, crawl_id: str, clock: ManualClock
) -> None:
    pacers = workers(redis_url, crawl_id, clock, n=8, delay=1.0)
    for _round in range(3):
        barrier = threading.Barrier(len(pacers))
        granted: list[tuple[SharedPacer, SharedTicket]] = []
        threads = [
            threading.Thread(target=reserve_at_once, args=(p, barrier, granted)) for p in pacers
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len(granted) == 1
        pacer, ticket = granted[0]
        pacer.finish(ticket, Outcome.OK)
        clock.advance(1.0)


def test_processes_never_overlap_on_one_host(
    redis_url: str, crawl_id: str, httpserver: HTTPServer
) -> None:
    """Three processes fetch one URL four times each at a 0.05 s delay: the server
    sees every request start at least the delay after the previous response."""
    delay, per_worker, spans = 0.05, 4, []
    lock = threading.Lock()

    def handler(request: Request) -> Response:
        start = time.time()
        time.sleep(0.01)  # a response that takes time, so overlaps would show
        with lock:
            spans.append((start, time.time()))
        return Response("ok")

    httpserver.expect_request("/page").respond_with_handler(handler)
    url = httpserver.url_for("/page")
    args = [redis_url, crawl_id, url, str(per_worker), str(delay)]
    procs = [
        subprocess.Popen([sys.executable, str(WORKER), "pace", *args], stdout=subprocess.PIPE)
        for _ in range(3)
    ]
    outputs = [json.loads(proc.communicate(timeout=60)[0]) for proc in procs]
    assert all(proc.returncode == 0 for proc in procs)
    assert sum(len(out["spans"]) for out in outputs) == len(spans) == 3 * per_worker
    spans.sort()
    gaps = [nxt[0] - prev[1] for prev, nxt in itertools.pairwise(spans)]
    assert min(gaps) >= delay, gaps


def test_the_async_pacer_shares_the_sync_pacers_slots(
    redis_url: str, crawl_id: str, clock: ManualClock
) -> None:
    """AsyncSharedPacer runs the same scripts: a slot it takes is taken for a sync
    worker, its finish sets the gap, its hold holds (and says it is a hold)."""
    (sync,) = workers(redis_url, crawl_id, clock, n=1, delay=2.0)
    state = SharedState.connect(redis_url, crawl_id)
    lone = state.async_pacer(Pacer(clock, PacingPolicy(delay=2.0)))

    async def run() -> None:
        granted = await lone.reserve(HOST)
        assert granted.ticket is not None
        assert sync.reserve(HOST).busy
        clock.advance(0.5)
        await lone.finish(granted.ticket, Outcome.OK)
        waiting = sync.reserve(HOST)
        assert waiting.ticket is None and not waiting.busy
        assert waiting.wait == pytest.approx(2.0) and not waiting.held
        await lone.hold(HOST, clock.now + 10.0)
        held = await lone.reserve(HOST)
        assert held.wait == pytest.approx(10.0) and held.held
        await state.aclose()

    asyncio.run(run())
    state.close()
