"""A crawler that speaks only URL Frontier: what a crawler in another language does
with robotkit's service, written with the Python gRPC stubs and httpx.

It knows nothing of robots.txt or delays: it fetches whatever GetURLs hands out, at
once, and reports each fetch (status, Retry-After, final URL, fingerprint) and the
page's links (with the page's URL as ``robotkit.parent``) back with PutURLs. Like
any crawler it bounds a fetch: a total deadline a dripping server cannot stretch,
and a body cap (a cut body is reported, its links unread).
"""

from __future__ import annotations

import html
import re
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from urllib.parse import urljoin

import grpc
import httpx

from robotkit.content import fingerprint
from robotkit.service import metadata as meta
from robotkit.service.proto import urlfrontier_pb2 as pb
from robotkit.service.proto import urlfrontier_pb2_grpc as pb_grpc

HREF = re.compile(r"""href\s*=\s*["']([^"'#]+)""", re.I)


def info(url: str, crawl: str = "", key: str = "", **metadata: str) -> pb.URLInfo:
    message = pb.URLInfo(url=url, key=key, crawlID=crawl)
    for name, value in metadata.items():
        message.metadata[name].values.append(value)
    return message


def discovered(
    url: str,
    crawl: str = "",
    parent: str | None = None,
    key: str = "",
    extra: dict[str, str] | None = None,
) -> pb.URLItem:
    metadata = dict(extra or {})
    if parent is not None:
        metadata[meta.PARENT] = parent
    return pb.URLItem(discovered=pb.DiscoveredURLItem(info=info(url, crawl, key, **metadata)))


def known(url: str, crawl: str = "", refetch: int = 0, **metadata: str) -> pb.URLItem:
    item = pb.KnownURLItem(info=info(url, crawl, **metadata), refetchable_from_date=refetch)
    return pb.URLItem(known=item)


@dataclass
class Client:
    """A channel to the service and the calls a crawler makes."""

    address: str
    channel: grpc.Channel = field(init=False)
    stub: pb_grpc.URLFrontierStub = field(init=False)

    def __post_init__(self) -> None:
        self.channel = grpc.insecure_channel(self.address)
        self.stub = pb_grpc.URLFrontierStub(self.channel)

    def put(self, items: Iterable[pb.URLItem]) -> list[int]:
        return [ack.status for ack in self.put_acks(items)]

    def put_acks(self, items: Iterable[pb.URLItem]) -> list[pb.AckMessage]:
        return list(self.stub.PutURLs(iter(list(items)), timeout=30))

    def get(self, crawl: str = "", **params: int) -> list[pb.URLInfo]:
        request = pb.GetParams(crawlID=crawl, **params)
        return list(self.stub.GetURLs(request, timeout=30))

    def stats(self, crawl: str = "", key: str = "") -> pb.Stats:
        return self.stub.GetStats(pb.QueueWithinCrawlParams(crawlID=crawl, key=key), timeout=10)

    def status(self, url: str, crawl: str = "") -> pb.URLItem:
        return self.stub.GetURLStatus(pb.URLStatusRequest(url=url, crawlID=crawl), timeout=10)

    def close(self) -> None:
        self.channel.close()


def links(base: str, body: str) -> Iterator[str]:
    for href in HREF.findall(body):
        yield urljoin(base, html.unescape(href.strip()))


DEADLINE = 10.0
"""Seconds a fetch may take in all (Nutch's default)."""
MAX_BYTES = 1024 * 1024
"""The body cap: the rest of a longer body is not read."""


def fetch_report(
    http: httpx.Client, url: str, crawl: str = "", deadline: float = DEADLINE
) -> tuple[pb.URLItem, list[str]]:
    """Fetch ``url`` within ``deadline`` seconds and build its known item and the
    page's links. A redirect is not followed (the next request to the host is the
    service's to time): its target is a link of the page."""
    try:
        response, body = _get(http, url, deadline)
    except httpx.HTTPError as error:
        return known(url, crawl, **{meta.ERROR: type(error).__name__.lower()}), []
    except TimeoutError:
        return known(url, crawl, **{meta.ERROR: "timeout"}), []
    extra = {meta.STATUS: str(response.status_code), meta.FETCHED_AT: str(time.time())}
    if "retry-after" in response.headers:
        extra[meta.RETRY_AFTER] = response.headers["retry-after"]
    found: list[str] = []
    if response.is_redirect and "location" in response.headers:
        found = [urljoin(url, response.headers["location"])]
    is_html = "html" in response.headers.get("content-type", "")
    if body is not None and response.status_code == 200 and is_html:
        text = body.decode(response.encoding or "utf-8", "replace")
        print_ = fingerprint(text)
        extra[meta.FINGERPRINT] = f"{print_.exact:016x}:{print_.simhash:016x}"
        found = list(links(url, text))
    return known(url, crawl, **extra), found


def _get(http: httpx.Client, url: str, deadline: float) -> tuple[httpx.Response, bytes | None]:
    """The response to ``url`` and its body (None when over :data:`MAX_BYTES`: the
    rest is not read), all of it within ``deadline`` seconds."""
    end = time.monotonic() + deadline
    with http.stream("GET", url, timeout=httpx.Timeout(deadline)) as response:
        body = bytearray()
        for chunk in response.iter_bytes():
            body += chunk
            if len(body) > MAX_BYTES:
                return response, None
            if time.monotonic() > end:
                raise TimeoutError(url)
        return response, bytes(body)


def crawl(
    client: Client,
    seeds: Iterable[str],
    *,
    crawl_id: str = "",
    max_pages: int = 200,
    idle_limit: float = 15.0,
    max_queues: int = 0,
    max_urls_per_queue: int = 0,
    deadline: float = DEADLINE,
    skipped: list[str] | None = None,
) -> list[str]:
    """Crawl from ``seeds`` through the service until it has nothing left (no URL
    queued or out) or ``max_pages``; returns the URLs fetched, in order. ``deadline``:
    each fetch's; ``skipped`` gets the links PutURLs refused."""
    refused = skipped if skipped is not None else []
    acks = client.put_acks(discovered(url, crawl_id) for url in seeds)
    refused += [ack.ID for ack in acks if ack.status == pb.AckMessage.Status.SKIPPED]
    fetched: list[str] = []
    idle_since = time.monotonic()
    with httpx.Client(timeout=10, headers={"User-Agent": "FrontierBot/1.0"}) as http:
        while len(fetched) < max_pages:
            batch = client.get(
                crawl_id, max_queues=max_queues, max_urls_per_queue=max_urls_per_queue
            )
            if not batch:
                stats = client.stats(crawl_id)
                if stats.size == 0 and stats.inProcess == 0:
                    break
                if time.monotonic() - idle_since > idle_limit:
                    break
                time.sleep(0.02)
                continue
            idle_since = time.monotonic()
            updates: list[pb.URLItem] = []
            for url_info in batch:
                report, found = fetch_report(http, url_info.url, crawl_id, deadline)
                fetched.append(url_info.url)
                updates.append(report)
                updates.extend(discovered(link, crawl_id, parent=url_info.url) for link in found)
            acks = client.put_acks(updates)
            refused += [
                ack.ID
                for ack, item in zip(acks, updates, strict=True)
                if ack.status == pb.AckMessage.Status.SKIPPED and item.HasField("discovered")
            ]
    return fetched
