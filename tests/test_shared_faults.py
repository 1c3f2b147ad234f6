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


SECRET = "s3cret-pw"


def test_row2_redis_password_masked_in_connect_errors() -> None:
    """A Redis URL's password never reaches a message: it would be printed on stderr
    and kept in CI and crawl logs."""
    port = free_port()
    for url, shown in [
        (f"redis://:{SECRET}@127.0.0.1:{port}/0", f"redis://:***@127.0.0.1:{port}/0"),
        (f"redis://bot:{SECRET}@127.0.0.1:{port}/0", f"redis://bot:***@127.0.0.1:{port}/0"),
        (
            f"redis://127.0.0.1:{port}/0?password={SECRET}",
            f"redis://127.0.0.1:{port}/0?password=***",
        ),
    ]:
        with pytest.raises(SharedStateUnavailable, match="unreachable") as caught:
            connect(url, socket_timeout=2.0)
        assert SECRET not in str(caught.value) and shown in str(caught.value)
    with pytest.raises(SharedStateUnavailable, match="not a Redis URL") as caught:
        connect(f"http://bot:{SECRET}@127.0.0.1/")
    assert SECRET not in str(caught.value) and "http://bot:***@127.0.0.1/" in str(caught.value)


def _with_password(server: RedisServer) -> str:
    """The server asks for a password from now on; its URL with that password."""
    redis.Redis.from_url(server.url).config_set("requirepass", SECRET)
    return server.url.replace("redis://", f"redis://:{SECRET}@")


def test_row2_redis_password_masked_in_shared_state_repr(own_redis: RedisServer) -> None:
    from robotkit.shared.state import SharedState

    state = SharedState.connect(_with_password(own_redis), "masked")
    try:
        assert SECRET not in repr(state)
        assert (
            repr(state)
            == f"SharedState('redis://:***@127.0.0.1:{own_redis.port}/0', crawl_id='masked')"
        )
    finally:
        state.close()


def test_row2_redis_password_masked_on_the_command_line(own_redis: RedisServer) -> None:
    """``robotkit crawl --redis URL``: with Redis down, with a wrong password, and in
    ``--redis-clear``'s report, stderr shows the URL with its password masked."""
    import subprocess
    import sys

    from support.servers import closed_port

    url = _with_password(own_redis)
    wrong = url.replace(SECRET, SECRET + "-wrong")
    down = f"redis://:{SECRET}@127.0.0.1:{closed_port()}/0"
    cli = [sys.executable, "-m", "robotkit", "crawl", "--crawl-id", "masked", "--redis"]
    runs = {
        "down": [*cli, down, "http://127.0.0.1:9/"],
        "wrong": [*cli, wrong, "http://127.0.0.1:9/"],
        "clear": [*cli, url, "--redis-clear"],
    }
    results = {
        name: subprocess.run(argv, capture_output=True, text=True, timeout=60)
        for name, argv in runs.items()
    }
    for name, result in results.items():
        assert SECRET not in result.stderr + result.stdout, name
        assert "redis://:***@127.0.0.1:" in result.stderr, (name, result.stderr)
        assert "Traceback" not in result.stderr
    assert results["down"].returncode == results["wrong"].returncode == 2
    assert "unreachable" in results["down"].stderr
    assert (results["clear"].returncode, results["clear"].stderr.count("\n")) == (0, 1)
