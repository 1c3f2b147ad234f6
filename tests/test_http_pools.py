"""One connection pool per origin (robotkit/http/pools.py): a polite transport on
many hosts keeps one connection alive per host and reuses it, where httpx's one
pool (20 idle connections in all) would open a new one for almost every request.

pytest-httpserver answers HTTP/1.0 and closes every connection, so these tests
use a small HTTP/1.1 server that counts the connections each host accepted.
"""

from __future__ import annotations

import asyncio
import threading
from collections import Counter
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest

from robotkit.base.identity import Identity
from robotkit.http.client import AsyncPoliteClient, PoliteClient
from robotkit.http.pools import AsyncPerHostTransport, PerHostTransport

HOSTS = 25  # more than httpx's 20 kept-alive connections


class KeepAliveHosts:
    """HTTP/1.1 servers on 127.0.0.1 to 127.0.0.{count}, one port, counting the
    connections each host accepted."""

    def __init__(self, count: int) -> None:
        self.connections: Counter[str] = Counter()
        lock = threading.Lock()
        hosts = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def setup(self) -> None:
                super().setup()
                with lock:
                    hosts.connections[self.server.server_address[0]] += 1  # type: ignore[index]

            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                body = b"User-agent: *\nAllow: /\n" if self.path == "/robots.txt" else b"hello"
                self.send_response(200)
                self.send_header("Content-Type", "text/plain")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        first = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = first.server_address[1]
        self.servers = [first] + [
            ThreadingHTTPServer((f"127.0.0.{n}", self.port), Handler) for n in range(2, count + 1)
        ]
        for server in self.servers:
            server.daemon_threads = True
            threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True).start()

    def urls(self, path: str = "/") -> list[str]:
        return [f"http://127.0.0.{n}:{self.port}{path}" for n in range(1, len(self.servers) + 1)]

    def stop(self) -> None:
        for server in self.servers:
            server.shutdown()
            server.server_close()


@pytest.fixture
def hosts() -> Iterator[KeepAliveHosts]:
    servers = KeepAliveHosts(HOSTS)
    yield servers
    servers.stop()


BOT = Identity(user_agent="pooltest/1.0 (+https://example.org/bot)")


def test_a_polite_client_keeps_one_connection_per_host(hosts: KeepAliveHosts) -> None:
    with PoliteClient(BOT, delay=0.0, allow_private=True) as client:
        for _ in range(3):
            for url in hosts.urls():
                assert client.fetch(url).status_code == 200
    # robots.txt and three pages per host, all on one connection.
    assert set(hosts.connections.values()) == {1}, hosts.connections


def test_the_async_client_too(hosts: KeepAliveHosts) -> None:
    async def crawl() -> None:
        async with AsyncPoliteClient(BOT, delay=0.0, allow_private=True) as client:
            for _ in range(3):
                await asyncio.gather(*(client.fetch(url) for url in hosts.urls()))

    asyncio.run(crawl())
    assert set(hosts.connections.values()) == {1}, hosts.connections


def test_httpx_alone_would_reconnect(hosts: KeepAliveHosts) -> None:
    """The case the per-host pools are for: the measure above can fail."""
    with httpx.Client() as client:
        for _ in range(2):
            for url in hosts.urls():
                client.get(url)
    assert sum(hosts.connections.values()) > HOSTS


def test_old_pools_are_closed_but_not_under_an_open_response(hosts: KeepAliveHosts) -> None:
    a, b, c = hosts.urls()[:3]
    transport = PerHostTransport(max_hosts=2)
    with httpx.Client(transport=transport) as client:
        with client.stream("GET", a) as held:  # a's pool has a response open
            client.get(b)
            client.get(c)  # a is the oldest, but in use: kept
            assert held.read() == b"hello"
        client.get(b)
        client.get(c)
        client.get(a)  # a's pool was closed meanwhile: a new connection
    assert hosts.connections["127.0.0.1"] == 2
    assert hosts.connections["127.0.0.2"] == 1


def test_async_pools_close(hosts: KeepAliveHosts) -> None:
    async def run() -> None:
        transport = AsyncPerHostTransport(max_hosts=1)
        async with httpx.AsyncClient(transport=transport) as client:
            for url in (*hosts.urls()[:2], hosts.urls()[0]):
                assert (await client.get(url)).text == "hello"

    asyncio.run(run())
    assert hosts.connections["127.0.0.1"] == 2


def test_bad_sizes_are_refused() -> None:
    with pytest.raises(ValueError):
        PerHostTransport(per_host=0)
    with pytest.raises(ValueError):
        AsyncPerHostTransport(max_hosts=0)
