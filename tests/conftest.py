"""Shared fixtures: real HTTP servers on loopback and an injected clock."""

from __future__ import annotations

import compileall
import importlib.util
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

# pytest rewrites the asserts of every test module and of every module of a
# distribution with a pytest plugin (robotkit itself, hypothesis), and keeps the
# rewritten code in __pycache__ only when Python may write bytecode. Under
# PYTHONDONTWRITEBYTECODE each xdist worker rewrote about 300 modules on every run:
# 9 of its 13 CPU seconds of collection (about 36 CPU s a run with 4 workers, and
# 1 to 2.5 s more in each pytest the tests start). This process may write them; its
# children still follow the environment. The caches are git-ignored, and keyed by
# each file's mtime and size.
sys.dont_write_bytecode = False

import pytest  # noqa: E402
from hypothesis import settings  # noqa: E402
from pytest_httpserver import HTTPServer  # noqa: E402

from robotkit.base.clock import ManualClock  # noqa: E402

# CI decides whether a submission lands, so there the property tests draw the same
# examples on every run (a failure reproduces, and a pass is not luck); elsewhere
# they explore new ones each run. Failures found while exploring become
# @example cases.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


def pytest_configure(config: pytest.Config) -> None:
    """Compile robotkit (and the Scrapy project's modules) once, before any test.

    The suite starts many ``python -m robotkit`` and Scrapy processes (the gauntlet
    alone 33); under PYTHONDONTWRITEBYTECODE none of them may keep bytecode, so each
    compiled again every module that had none (half of robotkit: the trap sites, the
    shared state, the Scrapy add-on): 0.1 to 0.15 CPU s per ``robotkit normalize``.
    Done by the controller only, not by each xdist worker; an up-to-date tree costs
    a stat per file (0.05 s in all)."""
    if hasattr(config, "workerinput"):
        return
    spec = importlib.util.find_spec("robotkit")
    assert spec is not None and spec.submodule_search_locations is not None
    for location in spec.submodule_search_locations:
        compileall.compile_dir(location, quiet=1)
    compileall.compile_dir(Path(__file__).parent / "scrapy_project", quiet=1)


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
    from support.redis_server import RedisServer

    server = RedisServer(tmp_path_factory.mktemp("redis"))
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture(scope="session")
def redis_cluster_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real three-node Redis Cluster, one per test process, started only when a
    test asks for it (its first node's URL: the client finds the others)."""
    from support.redis_server import RedisCluster

    cluster = RedisCluster(tmp_path_factory.mktemp("redis-cluster"))
    try:
        yield cluster.url
    finally:
        cluster.stop()


@pytest.fixture(params=["single", "cluster"])
def any_redis_url(request: pytest.FixtureRequest) -> str:
    """The tests' Redis, once as a single server and once as a cluster: for the few
    tests whose guarantees must hold on both (the others run on the single one)."""
    name = "redis_url" if request.param == "single" else "redis_cluster_url"
    return str(request.getfixturevalue(name))


@pytest.fixture
def crawl_id() -> str:
    """A key namespace of the test's own: tests share the server, never keys."""
    import uuid

    return f"test-{uuid.uuid4().hex}"
