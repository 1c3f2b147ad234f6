"""Two service nodes on one real Redis (``--redis``): one host's pacing and one
robots.txt shared by both, and ListNodes listing both; judged by the site's log."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator

import httpx
import pytest
from pytest_httpserver import HTTPServer
from support.frontier_client import Client, discovered, fetch_report
from test_service import DELAY, Site, html

from robotkit.base.identity import Identity
from robotkit.service.proto import urlfrontier_pb2 as pb
from robotkit.service.server import FrontierServer, RunningService, ServiceConfig
from robotkit.shared import SharedState


@pytest.fixture
def nodes(redis_url: str, crawl_id: str) -> Iterator[list[RunningService]]:
    config = ServiceConfig(
        identity=Identity("FrontierBot/1.0"), delay=DELAY, lease=10, allow_private=True
    )
    states = [SharedState.connect(redis_url, crawl_id) for _ in range(2)]
    running = [RunningService(FrontierServer(config, shared=state)) for state in states]
    try:
        yield running
    finally:
        for node in running:
            node.stop()
        states[0].clear()
        for state in states:
            state.close()


def test_two_nodes_share_one_host_politely(
    nodes: list[RunningService], make_server: Callable[[str], HTTPServer]
) -> None:
    pages = {f"/{i}": (200, html() + f"page {i}", {}) for i in range(6)}
    site = Site(make_server("127.0.0.20"), {"/robots.txt": (200, "User-agent: *\n", {}), **pages})
    clients = [Client(node.address) for node in nodes]
    try:
        for client in clients:
            assert sorted(client.stub.ListNodes(pb_empty()).values) == sorted(
                node.address for node in nodes
            )
        clients[0].put(discovered(site.url(f"/{i}")) for i in range(3))
        clients[1].put(discovered(site.url(f"/{i}")) for i in range(3, 6))
        fetch_through(clients, 6)
    finally:
        for client in clients:
            client.close()
    assert sorted(site.paths()) == ["/0", "/1", "/2", "/3", "/4", "/5", "/robots.txt"]
    assert site.paths().count("/robots.txt") == 1
    assert min(site.gaps()) >= DELAY, site.log


def fetch_through(clients: list[Client], count: int) -> list[str]:
    """Fetch and report what the nodes hand out, asking each in turn, until ``count``
    pages are fetched (or 30 s have passed: the caller's assertions tell)."""
    fetched: list[str] = []
    deadline = time.monotonic() + 30
    with httpx.Client(timeout=10) as http:
        for client in itertools.cycle(clients):
            if len(fetched) == count or time.monotonic() > deadline:
                break
            for info in client.get():
                report, _ = fetch_report(http, info.url)
                fetched.append(info.url)
                client.put([report])
            time.sleep(0.01)
    return fetched


def pb_empty():  # type: ignore[no-untyped-def]
    from robotkit.service.proto import urlfrontier_pb2 as pb

    return pb.Empty()


def test_a_url_put_on_two_nodes_is_queued_by_one_and_fetched_once(
    nodes: list[RunningService], make_server: Callable[[str], HTTPServer]
) -> None:
    pages = {f"/{i}": (200, html() + f"page {i}", {}) for i in range(4)}
    site = Site(make_server("127.0.0.21"), {"/robots.txt": (200, "User-agent: *\n", {}), **pages})
    urls = [site.url(f"/{i}") for i in range(4)]
    clients = [Client(node.address) for node in nodes]
    try:
        assert clients[0].put(discovered(url) for url in urls[:3]) == [pb.AckMessage.OK] * 3
        assert clients[1].put(discovered(url) for url in reversed(urls)) == [pb.AckMessage.OK] * 4
        sizes = [client.stats().size for client in clients]
        assert sizes == [3, 1]  # each URL queued on the node that claimed it first
        fetched = fetch_through(clients, 4)
        assert [client.stats().size + client.stats().inProcess for client in clients] == [0, 0]
    finally:
        for client in clients:
            client.close()
    assert sorted(fetched) == sorted(urls)
    assert sorted(site.paths()) == ["/0", "/1", "/2", "/3", "/robots.txt"]
