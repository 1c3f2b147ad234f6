"""robotkit's URL Frontier service driven as a crawler drives it: a real gRPC server
on loopback, the Python stubs as the client, pytest-httpserver sites fetched with
httpx, and every assertion about politeness read from what the sites' servers saw.

Times are the servers' own (``time.monotonic`` in the handler): a request's arrival
and the moment its handler returned, so "no request earlier than the delay" is read
from the host's side.
"""

from __future__ import annotations

import itertools
import queue
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import grpc
import httpx
import pytest
from pytest_httpserver import HTTPServer
from support.frontier_client import Client, crawl, discovered, fetch_report, known
from werkzeug import Request, Response

from robotkit.base.identity import Identity
from robotkit.service import metadata as meta
from robotkit.service.proto import urlfrontier_pb2 as pb
from robotkit.service.server import FrontierServer, RunningService, ServiceConfig

OK, SKIPPED = pb.AckMessage.OK, pb.AckMessage.SKIPPED
DELAY = 0.3


@dataclass
class Site:
    """A host whose every request is logged with its arrival and its end."""

    server: HTTPServer
    pages: dict[str, tuple[int, str, dict[str, str]]]
    log: list[tuple[str, float, float]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.server.expect_request("").respond_with_handler(self.handle)

    def handle(self, request: Request) -> Response:
        arrived = time.monotonic()
        status, body, headers = self.pages.get(request.path, (404, "no such page", {}))
        response = Response(body, status, headers=headers, content_type="text/html")
        with self.lock:
            self.log.append((request.path, arrived, time.monotonic()))
        return response

    def url(self, path: str) -> str:
        return self.server.url_for(path)

    def paths(self) -> list[str]:
        return [path for path, _, _ in self.log]

    def gaps(self) -> list[float]:
        """From the end of each answer to the arrival of the next request."""
        return [b[1] - a[2] for a, b in itertools.pairwise(self.log)]


def html(*links: str) -> str:
    return "<html><body>" + "".join(f'<a href="{h}">{h}</a> ' for h in links) + "</body></html>"


@pytest.fixture
def service(caplog: pytest.LogCaptureFixture) -> Iterator[RunningService]:
    """A service node on loopback; at the end, no servicer raised (grpc logs what a
    servicer method raises, with its traceback, under ``grpc._cython``)."""
    config = ServiceConfig(
        identity=Identity("FrontierBot/1.0"), delay=DELAY, lease=10, allow_private=True
    )
    with RunningService(FrontierServer(config)) as running:
        yield running
    raised = [r for r in caplog.records if r.name.startswith("grpc._cython") or r.exc_info]
    assert raised == []


@pytest.fixture
def client(service: RunningService) -> Iterator[Client]:
    client = Client(service.address)
    yield client
    client.close()


@pytest.fixture
def make_site(make_server: Callable[[str], HTTPServer]) -> Callable[..., Site]:
    def make(host: str, pages: dict[str, tuple[int, str, dict[str, str]]]) -> Site:
        return Site(make_server(host), pages)

    return make


def test_a_crawler_through_the_service_obeys_robots_txt_and_the_delay(
    client: Client, make_site: Callable[..., Site]
) -> None:
    robots = "User-agent: *\nDisallow: /private\n"
    a = make_site(
        "127.0.0.3",
        {
            "/robots.txt": (200, robots, {}),
            "/": (200, html("/a", "/b", "/private/x", "/a/a/a/a"), {}),
            "/a": (200, html("/", "/b", "/c"), {}),
            "/b": (200, html("/c", "/private/y"), {}),
            "/c": (200, html("/"), {}),
        },
    )
    b = make_site(
        "127.0.0.4",
        {
            "/robots.txt": (404, "", {}),
            "/": (200, html("/one", a.url("/")), {}),
            "/one": (200, "x", {}),
        },
    )
    fetched = crawl(client, [a.url("/"), b.url("/")])

    assert a.paths().count("/robots.txt") == 1
    assert b.paths().count("/robots.txt") == 1
    assert sorted(a.paths()) == ["/", "/a", "/b", "/c", "/robots.txt"]
    assert sorted(b.paths()) == ["/", "/one", "/robots.txt"]
    assert not any("/private" in url for url in fetched)
    for site in (a, b):
        assert site.paths()[0] == "/robots.txt"
        assert min(site.gaps()) >= DELAY, site.log
    # The trap shape and the disallowed URLs are visible with robotkit's reasons.
    trap = client.status(a.url("/a/a/a/a"))
    assert list(trap.known.info.metadata[meta.REASON].values) == ["repeated-path"]
    private = client.status(a.url("/private/x"))
    assert list(private.known.info.metadata[meta.REASON].values) == ["robots-disallow"]
    assert client.stats().counts["completed"] == 6


def test_a_503_robots_txt_holds_its_queue(client: Client, make_site: Callable[..., Site]) -> None:
    site = make_site(
        "127.0.0.5",
        {"/robots.txt": (503, "busy", {"Retry-After": "3600"}), "/": (200, html("/a"), {})},
    )
    assert client.put([discovered(site.url("/"))]) == [OK]
    for _ in range(3):
        assert client.get() == []
    assert site.paths() == ["/robots.txt"]
    stats = client.stats()
    assert (stats.size, stats.inProcess) == (1, 0)
    status = client.status(site.url("/"))
    assert list(status.known.info.metadata[meta.REASON].values) == ["robots-deferred"]


def test_403_robots_txt_denies_the_host_in_the_classic_profile(
    client: Client, make_site: Callable[..., Site]
) -> None:
    site = make_site("127.0.0.6", {"/robots.txt": (403, "no", {}), "/": (200, "x", {})})
    assert crawl(client, [site.url("/")]) == []
    assert site.paths() == ["/robots.txt"]
    status = client.status(site.url("/"))
    assert list(status.known.info.metadata[meta.REASON].values) == ["robots-deny-all"]


def test_retry_after_reported_by_the_crawler_holds_the_host(
    client: Client, make_site: Callable[..., Site]
) -> None:
    site = make_site(
        "127.0.0.7",
        {
            "/robots.txt": (404, "", {}),
            "/": (200, html("/a", "/b"), {}),
            "/a": (429, "slow down", {"Retry-After": "3600"}),
            "/b": (200, "b", {}),
        },
    )
    fetched = crawl(client, [site.url("/")], idle_limit=3 * DELAY + 1)
    assert fetched == [site.url("/"), site.url("/a")]
    assert site.paths() == ["/robots.txt", "/", "/a"]
    assert client.stats().size == 1  # /b waits for the Retry-After


def test_duplicates_are_ok_and_queued_once(client: Client, make_site: Callable[..., Site]) -> None:
    site = make_site("127.0.0.8", {"/robots.txt": (404, "", {}), "/": (200, "x", {})})
    url = site.url("/")
    acks = client.put([discovered(url), discovered(url), discovered(url + "#frag")])
    assert acks == [OK, OK, OK]
    assert client.stats().size == 1


def test_bad_input_gets_a_defined_answer(client: Client) -> None:
    acks = client.put(
        [
            discovered("not a url"),
            discovered("ftp://example.org/file"),
            discovered("http://[::1"),
            pb.URLItem(),  # neither discovered nor known
        ]
    )
    assert acks == [SKIPPED] * 4
    status = client.status("ftp://example.org/file")
    assert list(status.known.info.metadata[meta.REASON].values) == ["unsupported-scheme"]
    assert client.get("no-such-crawl") == []
    assert client.stats("no-such-crawl").size == 0
    with pytest.raises(grpc.RpcError) as error:
        client.status("http://example.org/never-put")
    assert error.value.code() is grpc.StatusCode.NOT_FOUND
    # A known item for a URL never handed out is taken as an update, not an error.
    assert client.put([known("http://example.org/x", **{meta.STATUS: "oops"})]) == [OK]


def test_a_stream_cut_in_the_middle_keeps_what_came_before(client: Client) -> None:
    acked = threading.Event()

    def items() -> Iterator[pb.URLItem]:
        yield discovered("http://127.0.0.9/a")
        yield discovered("http://127.0.0.9/b")
        acked.wait(10)
        raise RuntimeError("the client dies")

    acks = []
    with pytest.raises(grpc.RpcError) as error:
        for ack in client.stub.PutURLs(items(), timeout=10):
            acks.append(ack.status)
            if len(acks) == 2:
                acked.set()
    assert error.value.code() in (grpc.StatusCode.UNKNOWN, grpc.StatusCode.CANCELLED)
    assert acks == [OK, OK]
    assert client.stats().size == 2
    assert client.put([discovered("http://127.0.0.9/c")]) == [OK]
    assert client.stats().size == 3


def test_driven_as_stormcrawler_drives_it(client: Client, make_site: Callable[..., Site]) -> None:
    """StormCrawler's URLFrontier spout asks for batches (``max_urls_per_queue``,
    ``max_queues``, ``delay_requestable``); its status updater keeps one PutURLs
    stream open and writes every fetch and outlink into it, reading the acks as
    they come. Its own metadata (``depth``) must come back with each URL."""
    sites = [
        make_site(
            f"127.0.0.{10 + i}",
            {
                "/robots.txt": (200, "User-agent: *\nDisallow: /no\n", {}),
                "/": (200, html("/1", "/2", "/no") + f"site {name}", {}),
                "/1": (200, html("/2") + f"page one of {name}", {}),
                "/2": (200, html("/") + f"page two of {name}", {}),
            },
        )
        for i, name in enumerate(("alpha", "beta", "gamma", "delta"))
    ]
    updates: queue.Queue[pb.URLItem | None] = queue.Queue()
    acks: list[int] = []

    def stream() -> Iterator[pb.URLItem]:
        while (item := updates.get()) is not None:
            yield item

    responses = client.stub.PutURLs(stream(), timeout=60)
    reader = threading.Thread(target=lambda: acks.extend(a.status for a in responses))
    reader.start()
    sent = 0
    for site in sites:
        updates.put(discovered(site.url("/"), extra={"depth": "0"}))
        sent += 1
    fetched: list[str] = []
    depths: dict[str, str] = {}
    deadline = time.monotonic() + 30
    with httpx.Client(timeout=10) as http:
        while time.monotonic() < deadline and len(fetched) < 12:
            batch = client.get(max_urls_per_queue=2, max_queues=3, delay_requestable=5)
            assert len(batch) <= 3
            for url_info in batch:
                depth = list(url_info.metadata["depth"].values)
                depths[url_info.url] = depth[0]
                report, found = fetch_report(http, url_info.url)
                report.known.info.metadata["depth"].values.extend(depth)
                fetched.append(url_info.url)
                updates.put(report)
                for link in found:
                    child = str(int(depth[0]) + 1)
                    updates.put(discovered(link, parent=url_info.url, extra={"depth": child}))
                sent += 1 + len(found)
            time.sleep(0.02)
    updates.put(None)
    reader.join(30)
    assert len(acks) == sent
    assert len(fetched) == 12
    for site in sites:
        assert sorted(site.paths()) == ["/", "/1", "/2", "/robots.txt"]
        assert min(site.gaps()) >= DELAY
        assert depths[site.url("/1")] == "1"
