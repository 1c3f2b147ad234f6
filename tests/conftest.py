"""Shared fixtures: real HTTP servers on loopback and an injected clock."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

import pytest
from hypothesis import settings
from pytest_httpserver import HTTPServer

from robotkit.clock import ManualClock

# CI decides whether a submission lands, so there the property tests draw the same
# examples on every run (a failure reproduces, and a pass is not luck); elsewhere
# they explore new ones each run. Failures found while exploring become
# @example cases.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def make_server() -> Iterator[Callable[[str], HTTPServer]]:
    """Start extra servers on other loopback addresses (127.0.0.2, ...), so that a
    test can have several hosts; every server is stopped and checked at the end."""
    servers: list[HTTPServer] = []

    def start(host: str = "127.0.0.2") -> HTTPServer:
        server = HTTPServer(host=host, port=0)
        server.start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.clear()
        if server.is_running():
            server.stop()


@pytest.fixture
def httpserver2(make_server: Callable[[str], HTTPServer]) -> HTTPServer:
    """A second host, 127.0.0.2, for tests that cross hosts."""
    return make_server("127.0.0.2")


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real redis-server, one per test process (so per xdist worker), started
    only when a test asks for it."""
    from redis_server import RedisServer

    server = RedisServer(tmp_path_factory.mktemp("redis"))
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture
def crawl_id() -> str:
    """A key namespace of the test's own: tests share the server, never keys."""
    import uuid

    return f"test-{uuid.uuid4().hex}"
