"""Compression bombs against every body robotkit reads: pages and robots.txt, sync
and async, in process and through the command line. The bound asserted is the
cap on decoded bytes (plus at most one 64 KiB block) and the memory it costs.

The bombs are ``gzip, gzip`` of 2 GiB of zeros (under 5 KB on the wire). Before
the decoder undid every layer under the cap, a stacked coding went raw into
``httpx.Response``, which decoded all of it: gigabytes in memory.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tracemalloc
import zlib
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from pytest_httpserver import HTTPServer
from support.bombs import (
    GIB,
    deflate_layer,
    gzip_layer,
    gzip_zeros,
    run_measured,
    stacked_bomb,
)

from robotkit.base.identity import Identity
from robotkit.base.reasons import Decision, Reason
from robotkit.http import (
    AsyncPoliteTransport,
    FetchLimits,
    PoliteTransport,
    facts,
)
from robotkit.http.checker import AsyncRobotsChecker, RobotsChecker
from robotkit.http.client import AsyncPoliteClient, PoliteClient
from robotkit.http.decoding import BLOCK, CappedBody, UnsupportedEncoding, codings
from robotkit.pacing.pacer import PacingPolicy

BOT = Identity.build("ExampleBot", "1.0", "https://example.org/bot", from_="bot@example.org")
ALLOW_ALL = "User-agent: *\nDisallow:\n"
RULES = b"User-agent: *\nDisallow: /private\n"
CAP = 256 * 1024
FAST = PacingPolicy(delay=0.0)
MEMORY = 32 * 1024 * 1024
"""Peak Python allocations allowed while reading one bomb: the cap, one block per
layer and the decompressors, with room to spare; a decoded bomb is 2 GiB."""


class Peak:
    """Peak traced Python allocations (zlib's buffers included) since ``start``."""

    def start(self) -> None:
        tracemalloc.reset_peak()

    def __call__(self) -> int:
        return tracemalloc.get_traced_memory()[1]


@pytest.fixture
def peak() -> Iterator[Peak]:
    """Traces allocations; a test builds its bombs, then calls ``peak.start()``."""
    tracemalloc.start()
    yield Peak()
    tracemalloc.stop()


def decode(body: bytes, encoding: str, cap: int = 10**9, chunk: int = 1000) -> CappedBody:
    capped = CappedBody([encoding], cap)
    for start in range(0, len(body), chunk):
        if not capped.feed(body[start : start + chunk]):
            break
    return capped


# -- the decoder alone ------------------------------------------------------------------


def test_codings_are_listed_in_the_order_applied() -> None:
    assert codings(["gzip, identity", " X-GZIP ,, deflate"]) == ["gzip", "x-gzip", "deflate"]
    assert codings([]) == codings(["identity"]) == []


TEXT = b"The quick brown fox jumps over the lazy dog. " * 500


@pytest.mark.parametrize(
    ("encoding", "body"),
    [
        ("gzip", gzip_layer(TEXT)),
        ("gzip, gzip", gzip_layer(gzip_layer(TEXT))),
        ("gzip, identity", gzip_layer(TEXT)),
        ("deflate, gzip", gzip_layer(deflate_layer(TEXT))),
        ("gzip, deflate, gzip", gzip_layer(deflate_layer(gzip_layer(TEXT)))),
        ("deflate", zlib.compress(TEXT)[2:-4]),  # raw deflate, as some servers send
        ("identity", TEXT),
    ],
)
@pytest.mark.parametrize("chunk", [1, 7, 65536])
def test_every_stack_of_codings_decodes(encoding: str, body: bytes, chunk: int) -> None:
    capped = decode(body, encoding, chunk=chunk)
    assert capped.content() == TEXT and not capped.truncated
    cut = decode(body, encoding, cap=1000, chunk=chunk)
    assert cut.content() == TEXT[:1000] and cut.truncated


@pytest.mark.parametrize("layers", [1, 2, 3])
def test_stacked_bomb_stops_at_the_cap(layers: int, peak: Peak) -> None:
    bomb = stacked_bomb(2 * GIB, layers)
    peak.start()
    capped = decode(bomb, ", ".join(["gzip"] * layers), cap=CAP, chunk=65536)
    assert len(capped.content()) == CAP and capped.truncated
    assert peak() < MEMORY


@pytest.mark.parametrize(
    "encoding", ["br", "zstd", "compress", "gzip, br", "gzip, gzip, gzip, gzip, gzip"]
)
def test_an_unknown_or_too_deep_coding_is_refused(encoding: str) -> None:
    body = CappedBody([encoding], CAP)
    assert body.content() == b""  # no body (a 304, a HEAD): nothing to refuse
    with pytest.raises(UnsupportedEncoding) as refused:
        body.feed(b"x")
    assert refused.value.reason is Reason.UNSUPPORTED_ENCODING
    assert isinstance(refused.value, httpx.HTTPError)  # what callers already catch


def test_corrupt_data_is_a_decoding_error() -> None:
    with pytest.raises(httpx.DecodingError):
        decode(b"\x1f\x8b\x08\x00garbage" * 10, "gzip")
    with pytest.raises(httpx.DecodingError):
        decode(gzip_layer(b"\xff" * 100), "gzip, gzip")


# -- pages over loopback ----------------------------------------------------------------


def serve_bomb(server: HTTPServer, path: str, encoding: str = "gzip, gzip") -> None:
    server.expect_request(path).respond_with_data(
        stacked_bomb(2 * GIB, len(codings([encoding])), b"<html><title>bomb</title>"),
        headers={"Content-Encoding": encoding, "Content-Type": "text/html"},
    )


def limits() -> FetchLimits:
    return FetchLimits(max_body_bytes=CAP, max_wait=5.0)


def test_stacked_bomb_page_sync(httpserver: HTTPServer, peak: Peak) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data(ALLOW_ALL)
    serve_bomb(httpserver, "/bomb")
    serve_bomb(httpserver, "/deep", "gzip, gzip, gzip")
    peak.start()
    transport = PoliteTransport(identity=BOT, limits=limits(), policy=FAST, allow_private=True)
    with PoliteClient(transport=transport) as http:
        for path in ("/bomb", "/deep"):
            response = http.fetch(httpserver.url_for(path))
            assert len(response.content) == facts(response).body_bytes == CAP
            assert facts(response).truncated
            assert "content-encoding" not in response.headers
    assert peak() < MEMORY


def test_stacked_bomb_page_async(httpserver: HTTPServer, peak: Peak) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data(ALLOW_ALL)
    serve_bomb(httpserver, "/bomb")
    peak.start()

    async def main() -> httpx.Response:
        transport = AsyncPoliteTransport(
            identity=BOT, limits=limits(), policy=FAST, allow_private=True
        )
        async with AsyncPoliteClient(transport=transport) as http:
            return await http.fetch(httpserver.url_for("/bomb"))

    response = asyncio.run(main())
    assert len(response.content) == CAP and facts(response).truncated
    assert peak() < MEMORY


def test_unknown_coding_refused_not_passed_on(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data(ALLOW_ALL)
    httpserver.expect_request("/br").respond_with_data(
        b"\x0b" * 100, headers={"Content-Encoding": "gzip, br"}
    )
    transport = PoliteTransport(identity=BOT, policy=FAST, allow_private=True)
    with PoliteClient(transport=transport) as http:
        with pytest.raises(UnsupportedEncoding, match="unsupported Content-Encoding br"):
            http.fetch(httpserver.url_for("/br"))
        # The host answered: no backoff as for a network failure.
        assert http.polite.pacer.state(("127.0.0.1", httpserver.port)).failures == 0

    async def main() -> None:
        transport = AsyncPoliteTransport(identity=BOT, policy=FAST, allow_private=True)
        async with AsyncPoliteClient(transport=transport) as http:
            with pytest.raises(UnsupportedEncoding):
                await http.fetch(httpserver.url_for("/br"))

    asyncio.run(main())
    sent = [r.headers.get("Accept-Encoding") for r, _ in httpserver.log]
    assert sent == ["gzip, deflate"] * 4


# -- robots.txt over loopback -----------------------------------------------------------


def serve_robots_bomb(server: HTTPServer) -> None:
    server.expect_request("/robots.txt").respond_with_data(
        stacked_bomb(2 * GIB, 2, RULES),
        headers={"Content-Encoding": "gzip, gzip", "Content-Type": "text/plain"},
    )


def async_decision(url: str) -> Decision:
    async def main() -> Decision:
        async with AsyncRobotsChecker(BOT) as robots:
            return (await robots.check(url)).decision

    return asyncio.run(main())


def test_stacked_bomb_robots_txt_sync(httpserver: HTTPServer, peak: Peak) -> None:
    serve_robots_bomb(httpserver)
    peak.start()
    with RobotsChecker(BOT) as robots:
        verdict = robots.check(httpserver.url_for("/private/x"))
    assert verdict.decision is Decision.DISALLOW and verdict.reason is Reason.ROBOTS_DISALLOW
    assert peak() < MEMORY
    assert httpserver.log[0][0].headers["Accept-Encoding"] == "gzip, deflate"


def test_stacked_bomb_robots_txt_async(httpserver: HTTPServer, peak: Peak) -> None:
    serve_robots_bomb(httpserver)
    peak.start()
    assert async_decision(httpserver.url_for("/private/x")) is Decision.DISALLOW
    assert peak() < MEMORY


def test_single_layer_bomb_robots_txt_async_is_bounded(httpserver: HTTPServer, peak: Peak) -> None:
    """One gzip layer of 1 GiB: ``aiter_bytes`` decoded each network chunk whole
    (about 64 MB from a 64 KiB chunk) before the 500 KiB cut could apply."""
    httpserver.expect_request("/robots.txt").respond_with_data(
        gzip_zeros(GIB, RULES), headers={"Content-Encoding": "gzip"}
    )
    peak.start()
    assert async_decision(httpserver.url_for("/private/x")) is Decision.DISALLOW
    assert peak() < MEMORY


def test_unknown_coding_robots_txt_is_deferred(httpserver: HTTPServer) -> None:
    """Rules that cannot be read are no rules: the origin waits, as when
    unreachable, rather than being crawled as if all were allowed."""
    httpserver.expect_request("/robots.txt").respond_with_data(
        b"\x0b" * 50, headers={"Content-Encoding": "zstd"}
    )
    with RobotsChecker(BOT) as robots:
        verdict = robots.check(httpserver.url_for("/x"))
    assert verdict.decision is Decision.DEFER and verdict.reason is Reason.ROBOTS_DEFERRED
    assert "unsupported Content-Encoding zstd" in verdict.detail


# -- the command line: whole processes, peak RSS ----------------------------------------

RSS_LIMIT = 300 * 1024 * 1024
"""Generous for a Python process with httpx loaded; a decoded bomb is 2 GiB."""


def test_check_url_with_a_stacked_bomb_robots_txt(httpserver: HTTPServer) -> None:
    serve_robots_bomb(httpserver)
    url = httpserver.url_for("/private/x")
    run, rss = run_measured(
        [sys.executable, "-m", "robotkit", "check-url", url, "--json", "--timeout", "20"],
        timeout=60,
    )
    assert run.returncode == 1, run.stderr
    record = json.loads(run.stdout)
    assert (record["decision"], record["reason"]) == ("disallow", "robots-disallow")
    assert rss < RSS_LIMIT


def test_crawl_records_a_stacked_bomb_page_as_too_large(
    httpserver: HTTPServer, tmp_path: Path
) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data(ALLOW_ALL)
    serve_bomb(httpserver, "/")
    output = tmp_path / "crawl.jsonl"
    command = [sys.executable, "-m", "robotkit", "crawl", httpserver.url_for("/")]
    options = ["--output", str(output), "--max-pages", "1", "--delay", "0", "--timeout", "20"]
    run, rss = run_measured([*command, *options], timeout=60)
    assert run.returncode == 0, run.stderr
    lines = [json.loads(line) for line in output.read_text().splitlines()]
    page = next(line for line in lines if line["url"] == httpserver.url_for("/"))
    assert (page["event"], page["status"], page["reason"]) == ("fetched", 200, "body-too-large")
    assert rss < RSS_LIMIT


def test_decoded_bytes_never_pass_cap_plus_a_block() -> None:
    """What the bound in the issue means: kept bytes are the cap, and the decoder
    never holds more than one block per layer besides."""
    capped = decode(stacked_bomb(2 * GIB, 3), "gzip, gzip, gzip", cap=CAP, chunk=65536)
    assert capped.size == CAP
    assert all(len(layer.pending) <= BLOCK for layer in capped.layers)
