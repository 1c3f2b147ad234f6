"""The shared robots.txt cache on a real Redis: one fetch per origin for all workers.

Workers are separate checkers (each with its own in-process cache) on one crawl
namespace, or separate processes; pytest-httpserver says how often robots.txt
was really fetched.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from robotkit.base.clock import ManualClock
from robotkit.robots.cache import OriginState
from robotkit.robots.engine import FetchNeeded, RobotsEngine, RobotsResponse
from robotkit.robots.status import FetchFailure, Profile, RobotsOutcome
from robotkit.shared import (
    Namespace,
    SharedRobotsChecker,
    SharedState,
    SharedStateTimeout,
    connect,
)
from robotkit.shared.codec import decode_state, encode_state
from robotkit.url.parse import origin_of

WORKER = Path(__file__).parent / "support" / "shared_worker.py"
RULES = "User-agent: *\nDisallow: /private\nAllow: /private/open\n"


def robots_requests(server: HTTPServer) -> list[Request]:
    return [request for request, _ in server.log if request.path == "/robots.txt"]


def checker(
    redis_url: str, crawl_id: str, clock: ManualClock | None = None, wait_timeout: float = 5.0
) -> SharedRobotsChecker:
    client, namespace = connect(redis_url), Namespace(crawl_id)
    if clock is None:
        return SharedRobotsChecker(client, namespace, wait_timeout=wait_timeout)
    return SharedRobotsChecker(client, namespace, clock=clock, wait_timeout=wait_timeout)


def plain(state: OriginState | None) -> object:
    """A state as comparable data: rules by their text and truncation."""
    if state is None:
        return None
    rules = None if state.rules is None else (state.rules.text, state.rules.truncated)
    return (replace(state, rules=None, last_good=None), rules, plain(state.last_good))


def test_a_state_survives_the_trip_through_json() -> None:
    """Rules (with their line numbers), validators, redirects and an unreachable
    streak over a last good copy all come back as they were."""
    engine = RobotsEngine(profile=Profile.RFC9309)
    engine.keep_text = True
    url, now = "https://example.org/private/x", 1000.0
    first = engine.check(url, "bot", now)
    assert isinstance(first, FetchNeeded)
    moved = RobotsResponse.http(301, {"Location": "https://example.org/r.txt"})
    hop = engine.receive(first, moved, now)
    assert isinstance(hop, FetchNeeded)
    good = engine.receive(hop, RobotsResponse.http(200, {"ETag": '"v1"'}, RULES.encode()), now)
    assert isinstance(good, OriginState) and good.redirects and good.validators
    back = decode_state(encode_state(good))
    assert plain(back) == plain(good)
    assert engine.decide(url, back, "bot", now) == engine.decide(url, good, "bot", now)
    later = good.expires_at + 1
    stale = engine.check(url, "bot", later)
    assert isinstance(stale, FetchNeeded)
    down = engine.receive(stale, RobotsResponse.failed(FetchFailure.TIMEOUT), later)
    assert isinstance(down, OriginState) and down.last_good is not None
    assert plain(decode_state(encode_state(down))) == plain(down)


def test_rules_parsed_without_their_text_are_not_shared() -> None:
    engine = RobotsEngine()  # keep_text off: the in-process default
    request = engine.check("https://example.org/", "bot", 0.0)
    assert isinstance(request, FetchNeeded)
    state = engine.receive(request, RobotsResponse.http(200, body=RULES.encode()), 0.0)
    assert isinstance(state, OriginState)
    with pytest.raises(ValueError, match="keep_text"):
        encode_state(state)


def test_a_second_worker_reads_the_first_ones_fetch(
    redis_url: str, crawl_id: str, httpserver: HTTPServer
) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data(RULES)
    a, b = checker(redis_url, crawl_id), checker(redis_url, crawl_id)
    with a, b:
        seen_a = a.check(httpserver.url_for("/private/x"))
        seen_b = b.check(httpserver.url_for("/private/x"))
        assert b.check(httpserver.url_for("/private/open/y")).allowed  # b's own cache now
    assert not seen_a.allowed and seen_b == seen_a
    assert seen_b.rule is not None and seen_b.rule.line == 2
    assert (a.fetches, b.fetches, b.shared_reads) == (1, 0, 1)
    assert len(robots_requests(httpserver)) == 1


def test_two_processes_fetch_robots_txt_once(
    redis_url: str, crawl_id: str, httpserver: HTTPServer
) -> None:
    """Both start before the (slow) robots.txt has come: one fetches, one waits."""

    def slow(_request: Request) -> Response:
        time.sleep(0.5)
        return Response(RULES)

    httpserver.expect_request("/robots.txt").respond_with_handler(slow)
    args = [sys.executable, str(WORKER), "robots", redis_url, crawl_id]
    procs = [
        subprocess.Popen([*args, httpserver.url_for(f"/private/{n}")], stdout=subprocess.PIPE)
        for n in range(2)
    ]
    outputs = [json.loads(proc.communicate(timeout=60)[0]) for proc in procs]
    assert [out["allowed"] for out in outputs] == [False, False]
    assert sorted(out["fetches"] for out in outputs) == [0, 1]
    assert len(robots_requests(httpserver)) == 1


def test_a_deferral_holds_every_worker(
    redis_url: str, crawl_id: str, httpserver: HTTPServer
) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data(
        "busy", status=503, headers={"Retry-After": "600"}
    )
    a, b = checker(redis_url, crawl_id), checker(redis_url, crawl_id)
    with a, b:
        assert a.check(httpserver.url_for("/x")).decision.value == "defer"
        assert b.check(httpserver.url_for("/y")).decision.value == "defer"
    assert b.fetches == 0 and len(robots_requests(httpserver)) == 1


def test_a_stale_state_is_revalidated_by_whoever_comes_next(
    redis_url: str, crawl_id: str, httpserver: HTTPServer
) -> None:
    """Freshness is the injected clock's: past max-age, worker b revalidates a's
    copy with a's ETag, and the 304 renews it for both."""
    clock = ManualClock()
    httpserver.expect_ordered_request("/robots.txt").respond_with_data(
        RULES, headers={"Cache-Control": "max-age=120", "ETag": '"v1"'}
    )
    httpserver.expect_ordered_request(
        "/robots.txt", headers={"If-None-Match": '"v1"'}
    ).respond_with_data("", status=304, headers={"Cache-Control": "max-age=120"})
    a, b = checker(redis_url, crawl_id, clock=clock), checker(redis_url, crawl_id, clock=clock)
    with a, b:
        assert not a.check(httpserver.url_for("/private/1")).allowed
        clock.advance(121)
        assert not b.check(httpserver.url_for("/private/2")).allowed
        assert not a.check(httpserver.url_for("/private/3")).allowed
    assert (a.fetches, b.fetches) == (1, 1)
    assert len(robots_requests(httpserver)) == 2
    httpserver.check_assertions()


def test_a_dead_fetchers_lock_is_taken_over(
    redis_url: str, crawl_id: str, httpserver: HTTPServer
) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data(RULES)
    b = checker(redis_url, crawl_id)
    origin_lock = b.lock_key(origin_of(httpserver.url_for("/")))
    b.redis.set(origin_lock, "dead-worker", px=300)
    with b:
        assert not b.check(httpserver.url_for("/private/x")).allowed
    assert len(robots_requests(httpserver)) == 1


def test_waiting_too_long_for_another_worker_is_an_error_not_an_allow(
    redis_url: str, crawl_id: str, httpserver: HTTPServer
) -> None:
    b = checker(redis_url, crawl_id, wait_timeout=0.2)
    origin_lock = b.lock_key(origin_of(httpserver.url_for("/")))
    b.redis.set(origin_lock, "slow-worker", px=60_000)
    with b, pytest.raises(SharedStateTimeout, match="another worker"):
        b.check(httpserver.url_for("/private/x"))
    assert robots_requests(httpserver) == []


def test_an_unreadable_shared_state_is_fetched_again(
    redis_url: str, crawl_id: str, httpserver: HTTPServer
) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data(RULES)
    b = checker(redis_url, crawl_id)
    origin = origin_of(httpserver.url_for("/"))
    b.redis.hset(b.state_key(origin), mapping={"state": '{"format": 99}', "expires_at": 1e12})
    with b:
        assert not b.check(httpserver.url_for("/private/x")).allowed
    assert b.fetches == 1
    stored = b.redis.hget(b.state_key(origin), "state")
    assert decode_state(stored).outcome is RobotsOutcome.RULES  # type: ignore[arg-type]
    assert 0 < b.redis.pttl(b.state_key(origin)) <= 86_400_000


def test_async_checkers_fetch_once_and_share_with_sync_ones(
    redis_url: str, crawl_id: str, httpserver: HTTPServer, clock: ManualClock
) -> None:
    """Two async checkers asking at once: one fetches (the other polls until the
    state is published); a sync checker then reads it without fetching."""
    httpserver.expect_request("/robots.txt").respond_with_data(RULES)
    state = SharedState.connect(redis_url, crawl_id)
    url = httpserver.url_for("/private/x")

    async def run() -> list[bool]:
        checkers = [state.async_robots_checker(clock=clock) for _ in range(2)]
        verdicts = await asyncio.gather(*(each.check(url) for each in checkers))
        assert sorted(each.fetches for each in checkers) == [0, 1]
        assert sum(each.shared_reads for each in checkers) == 1
        for each in checkers:
            await each.aclose()
        await state.aclose()
        return [verdict.allowed for verdict in verdicts]

    assert asyncio.run(run()) == [False, False]
    with state.robots_checker(clock=clock) as sync:
        assert not sync.check(url).allowed
        assert sync.fetches == 0 and sync.shared_reads == 1
    assert len(robots_requests(httpserver)) == 1
    state.close()
