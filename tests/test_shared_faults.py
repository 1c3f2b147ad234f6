"""A Redis that cannot be reached, at start or mid-crawl: one clear exception
(SharedStateUnavailable), never a silent "allow" or "no delay"."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from pytest_httpserver import HTTPServer
from redis.backoff import NoBackoff
from redis.retry import Retry
from support.redis_server import RedisServer, free_port

from robotkit.base.clock import ManualClock
from robotkit.pacing.pacer import Pacer
from robotkit.shared import (
    Namespace,
    SharedPacer,
    SharedRobotsChecker,
    SharedStateUnavailable,
    connect,
)

HOST = ("127.0.0.1", 8080)


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[RedisServer]:
    """A server of this test's own, since the test stops it."""
    server = RedisServer(tmp_path)
    yield server
    server.stop()


def test_a_closed_port_is_reported_at_connect() -> None:
    url = f"redis://127.0.0.1:{free_port()}/0"
    with pytest.raises(SharedStateUnavailable, match="unreachable"):
        connect(url, socket_timeout=2.0)


def test_not_a_redis_url_is_reported() -> None:
    with pytest.raises(SharedStateUnavailable, match="not a Redis URL"):
        connect("http://127.0.0.1/")


def test_a_crawl_id_is_one_word() -> None:
    with pytest.raises(ValueError, match="crawl id"):
        Namespace("a b")


def test_pacing_without_redis_raises_instead_of_granting(clock: ManualClock) -> None:
    client = redis.Redis(port=free_port(), retry=Retry(NoBackoff(), 0))
    pacer = SharedPacer(Pacer(clock), client, Namespace("gone"))
    with pytest.raises(SharedStateUnavailable):
        pacer.reserve(HOST)


def test_redis_lost_mid_crawl_stops_pacing_and_robots(
    own_redis: RedisServer, httpserver: HTTPServer, clock: ManualClock
) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data("User-agent: *\nDisallow: /p\n")
    client = connect(own_redis.url, socket_timeout=2.0)
    pacer = SharedPacer(Pacer(clock), client, Namespace("lost"))
    robots = SharedRobotsChecker(client, Namespace("lost"), clock=clock)
    ticket = pacer.reserve(HOST).ticket
    assert ticket is not None
    assert not robots.check(httpserver.url_for("/p/1")).allowed  # fetched and shared
    own_redis.stop()
    with pytest.raises(SharedStateUnavailable):
        pacer.finish(ticket, None)
    with pytest.raises(SharedStateUnavailable):
        pacer.reserve(HOST)
    # The origin already known stays known (its copy is fresh in this process);
    # another origin of the same server cannot be learnt without Redis.
    assert not robots.check(httpserver.url_for("/p/2")).allowed
    other = httpserver.url_for("/other").replace("localhost", "127.0.0.1")
    with robots, pytest.raises(SharedStateUnavailable):
        robots.check(other)
    assert len(httpserver.log) == 1  # nothing fetched on a guess
