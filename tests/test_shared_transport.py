"""Polite transports on a shared state (issue 11): several transports, each with
its own in-process pacer, behave as one worker towards a host. Everything is
measured where the server saw it: the start and end of each request."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
import redis
from pytest_httpserver import HTTPServer
from support.redis_server import RedisServer, free_port
from support.transports import ALLOW_ALL, BOT, Events, paths, timed
from werkzeug import Response

from robotkit.base.clock import ManualClock
from robotkit.base.reasons import Reason
from robotkit.http import AsyncPoliteTransport, Deferred, FetchLimits, PoliteTransport
from robotkit.http.client import AsyncPoliteClient, PoliteClient
from robotkit.pacing.pacer import Pacer, PacingPolicy
from robotkit.shared import SharedState, SharedStateUnavailable

DELAY = 0.1
PAGES = 4
"""Pages per worker: with two workers and the robots.txt, 9 requests 0.1 s apart."""


def serve(server: HTTPServer, events: Events) -> None:
    timed(server, events, "/robots.txt", lambda: Response(ALLOW_ALL))
    for n in range(2 * PAGES):
        timed(server, events, f"/p{n}", lambda: Response("ok"))


def assert_paced(events: Events, delay: float) -> None:
    """No request started less than ``delay`` after the previous one ended, as the
    server saw them (the client's end is later than the server's, so this is the
    delay's own measure, less the microsecond Redis keeps of a time)."""
    ordered = sorted(events, key=lambda event: event[2])
    gaps = [nxt[2] - prev[3] for prev, nxt in itertools.pairwise(ordered)]
    assert min(gaps) >= delay - 1e-3, gaps


_Polite = TypeVar("_Polite", PoliteTransport, AsyncPoliteTransport)


def made(kind: type[_Polite], state: SharedState, **options: Any) -> _Polite:
    """A polite transport of ``kind`` on ``state`` for loopback servers."""
    return kind(
        identity=BOT, policy=PacingPolicy(delay=DELAY), allow_private=True, shared=state, **options
    )


def transport(state: SharedState, **options: Any) -> PoliteTransport:
    return made(PoliteTransport, state, **options)


def async_transport(state: SharedState, **options: Any) -> AsyncPoliteTransport:
    return made(AsyncPoliteTransport, state, **options)


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[RedisServer]:
    """A server of this test's own, since the test stops it."""
    server = RedisServer(tmp_path)
    yield server
    server.stop()


def sync_worker(state: SharedState, server: HTTPServer, first: int) -> None:
    with PoliteClient(transport=transport(state)) as client:
        for n in range(first, first + PAGES):
            assert client.get(server.url_for(f"/p{n}")).status_code == 200


async def async_worker(state: SharedState, server: HTTPServer, first: int) -> None:
    async with AsyncPoliteClient(transport=async_transport(state)) as client:
        for n in range(first, first + PAGES):
            assert (await client.get(server.url_for(f"/p{n}"))).status_code == 200


def assert_one_worker_seen(server: HTTPServer, events: Events) -> None:
    """What the server saw of two workers is what one polite worker would send:
    robots.txt once, every page once, each request ``DELAY`` after the last."""
    expected = ["/robots.txt", *(f"/p{n}" for n in range(2 * PAGES))]
    assert sorted(paths(server)) == sorted(expected)
    assert_paced(events, DELAY)


def test_two_sync_transports_pace_a_host_together(
    redis_url: str, crawl_id: str, httpserver: HTTPServer
) -> None:
    events: Events = []
    serve(httpserver, events)
    states = [SharedState.connect(redis_url, crawl_id) for _ in range(2)]
    errors: list[BaseException] = []

    def worker(state: SharedState, first: int) -> None:
        try:
            sync_worker(state, httpserver, first)
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=worker, args=(states[i], i * PAGES)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert_one_worker_seen(httpserver, events)
    for state in states:
        state.close()


@pytest.mark.parametrize("beside_sync", [False, True], ids=["two-async", "async-and-sync"])
def test_async_transports_pace_a_host_together(
    redis_url: str, crawl_id: str, httpserver: HTTPServer, beside_sync: bool
) -> None:
    """Two async workers on one loop, or one beside a sync worker in a thread:
    both faces use the same keys."""
    events: Events = []
    serve(httpserver, events)
    state = SharedState.connect(redis_url, crawl_id)

    async def crawl(firsts: list[int]) -> None:
        await asyncio.gather(*(async_worker(state, httpserver, first) for first in firsts))
        await state.aclose()

    thread = threading.Thread(target=sync_worker, args=(state, httpserver, 0))
    if beside_sync:
        thread.start()
    asyncio.run(crawl([PAGES] if beside_sync else [0, PAGES]))
    if beside_sync:
        thread.join()
    assert_one_worker_seen(httpserver, events)
    state.close()


def test_a_retry_after_seen_by_one_worker_holds_the_other(
    redis_url: str, crawl_id: str, httpserver: HTTPServer
) -> None:
    """Worker A gets a 503 with Retry-After: 5; worker B, which will not wait more
    than 0.5 s, is told ``rate-limited`` until then and sends nothing."""
    httpserver.expect_request("/robots.txt").respond_with_data(ALLOW_ALL)
    httpserver.expect_request("/busy").respond_with_data(
        "later", status=503, headers={"Retry-After": "5"}
    )
    httpserver.expect_request("/page").respond_with_data("ok")
    state = SharedState.connect(redis_url, crawl_id)
    with PoliteClient(transport=transport(state)) as a:
        assert a.get(httpserver.url_for("/busy")).status_code == 503
    seen = len(httpserver.log)
    b = transport(state, limits=FetchLimits(max_wait=0.5))
    with PoliteClient(transport=b) as client, pytest.raises(Deferred) as deferred:
        client.get(httpserver.url_for("/page"))
    assert deferred.value.reason is Reason.RATE_LIMITED
    assert deferred.value.retry_at is not None
    assert deferred.value.retry_at >= b.core.clock() + 4.0
    assert len(httpserver.log) == seen  # B sent nothing, robots.txt included
    state.close()


def test_the_async_face_is_held_too(redis_url: str, crawl_id: str, httpserver: HTTPServer) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data(ALLOW_ALL)
    httpserver.expect_request("/busy").respond_with_data(
        "later", status=429, headers={"Retry-After": "5"}
    )
    state = SharedState.connect(redis_url, crawl_id)

    async def crawl() -> Deferred:
        async with AsyncPoliteClient(transport=async_transport(state)) as a:
            assert (await a.get(httpserver.url_for("/busy"))).status_code == 429
        b = async_transport(state, limits=FetchLimits(max_wait=0.5))
        async with AsyncPoliteClient(transport=b) as client:
            try:
                await client.get(httpserver.url_for("/page"))
            except Deferred as error:
                return error
            finally:
                await state.aclose()
        raise AssertionError("not held")

    assert asyncio.run(crawl()).reason is Reason.RATE_LIMITED
    assert paths(httpserver) == ["/robots.txt", "/busy"]
    state.close()


def lost_later(own_redis: RedisServer, server: HTTPServer) -> SharedState:
    """A state on a Redis the test will stop after a first page, /p1."""
    server.expect_request("/robots.txt").respond_with_data(ALLOW_ALL)
    server.expect_request("/p1").respond_with_data("ok")
    return SharedState.connect(own_redis.url, "lost")


def test_redis_lost_mid_run_stops_the_sync_transport(
    own_redis: RedisServer, httpserver: HTTPServer
) -> None:
    state = lost_later(own_redis, httpserver)
    with PoliteClient(transport=transport(state)) as client:
        assert client.get(httpserver.url_for("/p1")).status_code == 200
        own_redis.stop()
        with pytest.raises(SharedStateUnavailable):
            client.get(httpserver.url_for("/p2"))
        # Another origin's robots.txt cannot be learnt either: no fetch on a guess.
        other = httpserver.url_for("/p3").replace("localhost", "127.0.0.1")
        with pytest.raises(SharedStateUnavailable):
            client.get(other)
    assert paths(httpserver) == ["/robots.txt", "/p1"]


def test_redis_lost_mid_run_stops_the_async_transport(
    own_redis: RedisServer, httpserver: HTTPServer
) -> None:
    state = lost_later(own_redis, httpserver)

    async def crawl() -> None:
        async with AsyncPoliteClient(transport=async_transport(state)) as client:
            assert (await client.get(httpserver.url_for("/p1"))).status_code == 200
            own_redis.stop()
            with pytest.raises(SharedStateUnavailable):
                await client.get(httpserver.url_for("/p2"))
            other = httpserver.url_for("/p3").replace("localhost", "127.0.0.1")
            with pytest.raises(SharedStateUnavailable):
                await client.get(other)

    asyncio.run(crawl())
    assert paths(httpserver) == ["/robots.txt", "/p1"]


def test_an_unreachable_redis_is_one_clear_error_at_connect() -> None:
    with pytest.raises(SharedStateUnavailable, match="unreachable") as error:
        SharedState.connect(f"redis://127.0.0.1:{free_port()}/0")
    assert "\n" not in str(error.value)


def test_clear_removes_this_crawls_keys_only(
    redis_url: str, crawl_id: str, clock: ManualClock
) -> None:
    """The other crawl's id starts like this one's and a glob ('*') would match
    it: clear matches the prefix literally."""
    mine = SharedState.connect(redis_url, f"{crawl_id}*")
    other = SharedState.connect(redis_url, f"{crawl_id}-other")
    for state in (mine, other):
        pacer = state.pacer(Pacer(clock))
        for port in range(3):
            assert pacer.reserve(("127.0.0.1", port)).ticket is not None
    check = redis.Redis.from_url(redis_url)
    assert mine.clear() == 3
    assert list(check.scan_iter(f"robotkit:{crawl_id}[*]:*")) == []
    assert len(list(check.scan_iter(f"robotkit:{crawl_id}-other:*"))) == 3
    assert other.clear() == 3
    assert mine.clear() == 0
    for state in (mine, other):
        state.close()


def test_one_state_serves_one_event_loop_after_another(redis_url: str, crawl_id: str) -> None:
    """redis-py binds an asyncio client to its loop: each loop gets its own."""
    state = SharedState.connect(redis_url, crawl_id)

    async def ping() -> redis.asyncio.Redis:
        client = state.async_client()
        assert client is state.async_client()
        assert await client.ping()
        return client

    first = asyncio.run(ping())
    second = asyncio.run(ping())
    assert first is not second
    state.close()


def test_a_users_own_robots_checker_is_kept(redis_url: str, crawl_id: str) -> None:
    from robotkit.http.checker import RobotsChecker

    state = SharedState.connect(redis_url, crawl_id)
    mine = RobotsChecker(BOT)
    assert transport(state, robots=mine).robots is mine
    assert type(transport(state).robots).__name__ == "SharedRobotsChecker"
    mine.close()
    state.close()


class SlowReplies:
    """A TCP proxy to Redis that holds every reply ``delay`` seconds while
    ``slow`` is set: a command has run in Redis, its answer is still on the way."""

    def __init__(self, target: tuple[str, int], delay: float) -> None:
        self.target = target
        self.delay = delay
        self.slow = threading.Event()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"redis://127.0.0.1:{self.listener.getsockname()[1]}/0"
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.target)
            threading.Thread(target=self._pump, args=(client, server, 0.0), daemon=True).start()
            threading.Thread(
                target=self._pump, args=(server, client, self.delay), daemon=True
            ).start()

    def _pump(self, source: socket.socket, sink: socket.socket, delay: float) -> None:
        with source, sink, contextlib.suppress(OSError):  # either end closed: done
            while data := source.recv(65536):
                if delay and self.slow.is_set():
                    time.sleep(delay)
                sink.sendall(data)

    def close(self) -> None:
        self.listener.close()


def test_a_cancelled_reservation_leaves_no_lease_behind(
    redis_url: str, crawl_id: str, httpserver: HTTPServer, clock: ManualClock
) -> None:
    """A request cancelled while its reservation's answer is on the way (the script
    has taken the lease in Redis): the slot is given back, so the host is not
    leased to no one for the lease's 120 s."""
    httpserver.expect_request("/robots.txt").respond_with_data(ALLOW_ALL)
    httpserver.expect_request("/p1").respond_with_data("ok")
    direct = redis.Redis.from_url(redis_url)
    parsed = direct.connection_pool.connection_kwargs
    proxy = SlowReplies((parsed["host"], parsed["port"]), delay=0.4)
    state = SharedState.connect(proxy.url, crawl_id)
    host = ("localhost", httpserver.port)

    async def crawl() -> None:
        polite = async_transport(state)
        async with AsyncPoliteClient(transport=polite) as client:
            await client.get(httpserver.url_for("/p1"))  # robots.txt now known here
            await asyncio.sleep(DELAY)  # the next reservation is granted at once
            proxy.slow.set()
            request = asyncio.ensure_future(client.get(httpserver.url_for("/p2")))
            await asyncio.sleep(0.2)  # the reservation has run; its answer is held
            request.cancel()
            with pytest.raises(asyncio.CancelledError):
                await request
            key = state.pacer(Pacer(clock)).key(host)
            for _ in range(200):  # the held answer, then the give-back, arrive
                if direct.hget(key, "busy") is None:
                    break
                await asyncio.sleep(0.05)
        await state.aclose()

    asyncio.run(crawl())
    proxy.slow.clear()
    assert paths(httpserver) == ["/robots.txt", "/p1"]
    other = state.pacer(Pacer(clock, PacingPolicy(delay=0.0)))
    assert not other.reserve(host).busy  # not leased to no one
    state.close()
    proxy.close()
