"""A hostile HTTP server driven by hypothesis, and the attack it runs on robotkit.

The server (raw sockets on 127.0.0.1) answers every request with a scripted
:class:`Answer`: any status line, any header set, stacked and lying
``Content-Encoding``, chunked framing with errors, truncation, a lying
``Content-Length``, pauses. :func:`attack` sends one answer through the sync and
async polite clients and both robots.txt checkers, and checks what must hold
whatever the server does: only the documented errors, bodies within their cap,
and an end within the deadline. Used by ``tests/test_http_fuzz.py`` (a fixed
budget) and ``benchmarks/fuzz_http.py`` (a longer run).
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import ssl
import threading
import time
import tracemalloc
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
from hypothesis import strategies as st

from robotkit.base.identity import Identity
from robotkit.http import (
    AsyncPoliteTransport,
    FetchLimits,
    PolitenessError,
    PoliteTransport,
)
from robotkit.http.checker import AsyncRobotsChecker, RobotsChecker, RobotsOptions
from robotkit.http.client import AsyncPoliteClient, PoliteClient
from robotkit.pacing.pacer import PacingPolicy
from robotkit.robots.verdict import Verdict
from support.bombs import GIB, stacked_bomb
from support.servers import read_head

BOT = Identity.build("FuzzBot", "1.0", "https://example.org/bot", from_="bot@example.org")
CAP = 64 * 1024
SLACK = 64 * 1024
DEADLINE = 0.25
HOPS = 6
"""A page fetch is one response and up to 5 redirects, each with its own deadline."""
LATE = 5.0
"""Seconds past its deadlines a call may end: scheduling on a loaded machine. A
stalled answer pauses for :data:`STALL`, far longer, so a deadline that does not
hold is caught however slow the machine."""
MEMORY = 48 * 1024 * 1024
"""Peak traced allocations per answer: cap and decoder blocks, with room to spare."""
STALL = 60.0
"""A pause past every deadline: the client must give up long before it ends."""


@dataclass(frozen=True)
class Answer:
    """What the server writes, piece by piece, before it closes the connection."""

    pieces: tuple[bytes, ...]
    pauses: tuple[float, ...] = ()
    """Seconds slept before each piece (missing: none)."""

    def describe(self) -> str:
        return repr(b"".join(self.pieces)[:300])


class HostileServer:
    """A raw HTTP server on 127.0.0.1: each connection reads one request head,
    gets ``self.answer`` and is closed. Records the requests it saw."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.listener.getsockname()[1])
        self.answer = Answer((b"HTTP/1.1 204 No Content\r\n\r\n",))
        self.requests = 0
        self.stopped = threading.Event()
        self.threads: list[threading.Thread] = []
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def url(self, path: str = "/page") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def _serve(self) -> None:
        while not self.stopped.is_set():
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            worker = threading.Thread(target=self._answer, args=(conn, self.answer), daemon=True)
            worker.start()
            self.threads = [t for t in self.threads if t.is_alive()] + [worker]

    def _answer(self, conn: socket.socket, answer: Answer) -> None:
        with conn, contextlib.suppress(OSError):
            conn.settimeout(5)
            if b"\r\n\r\n" not in read_head(conn):
                return
            self.requests += 1
            for index, piece in enumerate(answer.pieces):
                pause = answer.pauses[index] if index < len(answer.pauses) else 0.0
                if pause and self.stopped.wait(pause):
                    return
                conn.sendall(piece)
            conn.shutdown(socket.SHUT_WR)

    def close(self) -> None:
        self.stopped.set()
        with contextlib.suppress(OSError):
            self.listener.shutdown(socket.SHUT_RDWR)  # wakes the accept()
        self.listener.close()
        self.thread.join(5)
        for worker in self.threads:
            worker.join(5)


@contextlib.contextmanager
def hostile_server() -> Iterator[HostileServer]:
    server = HostileServer()
    try:
        yield server
    finally:
        server.close()


# -- what the server may say -------------------------------------------------------------

TEXT = b"<html><title>t</title><a href='/next'>n</a>" + b"word " * 200


def _gzip(data: bytes) -> bytes:
    return zlib.compress(data, 6, wbits=16 + zlib.MAX_WBITS)


def _encoded(layers: list[str], data: bytes) -> bytes:
    for name in layers:
        if name in ("gzip", "x-gzip"):
            data = _gzip(data)
        elif name == "deflate":
            data = zlib.compress(data)
    return data


STATUS_LINES = st.one_of(
    st.just(b"HTTP/1.1 200 OK\r\n"),
    st.integers(100, 599).map(lambda code: f"HTTP/1.1 {code} X\r\n".encode()),
    st.sampled_from(
        [
            b"HTTP/1.1 200 OK\r\n",
            b"HTTP/1.0 200\r\n",
            b"HTTP/1.1 301 Moved\r\n",
            b"HTTP/1.1 999 Odd\r\n",
            b"HTTP/1.1 abc\r\n",
            b"HTTP/2 200\r\n",
            b"ICY 200 OK\r\n",
            b"garbage\r\n",
            b"",
        ]
    ),
)
CODINGS = st.lists(
    st.sampled_from(["gzip", "x-gzip", "deflate", "identity", "br", "zstd", "GZIP", ""]),
    max_size=6,
)
HEADER_VALUES = st.text(
    alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=40
).map(str.encode)
HEADERS = st.lists(
    st.tuples(
        st.sampled_from(
            [
                b"Content-Type",
                b"Location",
                b"Retry-After",
                b"X-Robots-Tag",
                b"Link",
                b"ETag",
                b"Last-Modified",
                b"Cache-Control",
                b"Set-Cookie",
                b"X-Junk",
            ]
        ),
        st.one_of(
            HEADER_VALUES,
            st.sampled_from(
                [b"text/html", b"text/plain", b"/next", b"http://127.0.0.1:1/x", b"javascript:x"]
            ),
        ),
    ),
    max_size=5,
)
BODIES = st.one_of(
    st.binary(max_size=2048),
    st.just(TEXT),
    st.integers(1, 3).map(lambda n: stacked_bomb(GIB // 4, n)),
)


@st.composite
def answers(draw: Callable[..., Any]) -> Answer:
    """An answer as a hostile or broken server might send it."""
    status: bytes = draw(STATUS_LINES)
    headers: list[tuple[bytes, bytes]] = draw(HEADERS)
    if draw(st.booleans()):
        headers.append((b"Content-Type", b"text/html; charset=utf-8"))
    body: bytes = draw(BODIES)
    layers: list[str] = draw(CODINGS)
    if layers and draw(st.booleans()):
        body = _encoded([name.lower() for name in layers], body)  # sometimes true
    if layers:
        headers.append((b"Content-Encoding", ", ".join(layers).encode()))
    framing = draw(
        st.sampled_from(["length", "length", "chunked", "close", "lying-length", "bad-chunks"])
    )
    if framing == "length":
        headers.append((b"Content-Length", str(len(body)).encode()))
    elif framing == "lying-length":
        lie = draw(st.sampled_from([0, len(body) // 2, len(body) + 1000, 10**12, -1]))
        headers.append((b"Content-Length", str(lie).encode()))
    elif framing in ("chunked", "bad-chunks"):
        headers.append((b"Transfer-Encoding", b"chunked"))
        size = draw(st.integers(1, 4096))
        chunks = [body[i : i + size] for i in range(0, len(body), size)]
        body = b"".join(b"%x\r\n%s\r\n" % (len(c), c) for c in chunks) + b"0\r\n\r\n"
        if framing == "bad-chunks":
            body = body.replace(b"\r\n", draw(st.sampled_from([b"\n", b"zz\r\n", b""])), 1)
    head = status + b"".join(name + b": " + value + b"\r\n" for name, value in headers) + b"\r\n"
    wire = head + body
    if draw(st.integers(0, 4)) == 0:  # now and then, the connection drops midway
        wire = wire[: draw(st.integers(0, max(len(wire) - 1, 0)))]
    parts = draw(st.integers(1, 4))
    step = max(len(wire) // parts, 1)
    pieces = tuple(wire[i : i + step] for i in range(0, len(wire), step)) or (b"",)
    pauses = draw(st.lists(st.sampled_from([0.0, 0.0, 0.0, 0.0, 0.01, 0.05]), max_size=len(pieces)))
    if pauses and draw(st.integers(0, 9)) == 0:
        pauses[-1] = STALL  # now and then, one pause past the deadline
    return Answer(pieces, tuple(pauses))


# -- the attack --------------------------------------------------------------------------

ALLOWED_ERRORS = (PolitenessError, httpx.HTTPError)
"""What a robotkit caller is told to expect: a refusal, or an httpx error (network,
timeout, protocol, decoding, including an unsupported coding)."""


@dataclass
class Report:
    """What one answer did to every robotkit reader."""

    errors: dict[str, str] = field(default_factory=dict)
    body_bytes: int = 0
    slowest: float = 0.0
    peak: int = 0


def _timed(report: Report, name: str, call: Callable[[], object]) -> object:
    started = time.monotonic()
    try:
        return call()
    except ALLOWED_ERRORS as error:
        report.errors[name] = type(error).__name__
        return None
    finally:
        report.slowest = max(report.slowest, time.monotonic() - started)


TLS = ssl.create_default_context()
"""One TLS context for every client made here (loading the CA store for each
would cost more than the attack): the server is plain HTTP anyway."""


POLITE: dict[str, Any] = {
    "identity": BOT,
    "policy": PacingPolicy(delay=0.0),
    "limits": FetchLimits(max_body_bytes=CAP, response_timeout=DEADLINE, max_wait=0.0),
    "allow_private": True,
    "check_robots": False,  # the robots fetchers are attacked on their own
}


def _sync_page(url: str) -> httpx.Response:
    transport = PoliteTransport(httpx.HTTPTransport(verify=TLS), **POLITE)
    with PoliteClient(transport=transport) as client:
        return client.fetch(url)


async def _async_page(url: str) -> httpx.Response:
    transport = AsyncPoliteTransport(httpx.AsyncHTTPTransport(verify=TLS), **POLITE)
    async with AsyncPoliteClient(transport=transport) as client:
        return await client.fetch(url)


OPTIONS = RobotsOptions(deadline=DEADLINE)


def _sync_robots(url: str) -> Verdict:
    with httpx.HTTPTransport(verify=TLS) as transport:
        return RobotsChecker(BOT, options=OPTIONS, transport=transport).check(url)


async def _async_robots(url: str) -> Verdict:
    async with httpx.AsyncHTTPTransport(verify=TLS) as transport:
        robots = AsyncRobotsChecker(BOT, options=OPTIONS, transport=transport)
        try:
            return await robots.check(url)
        finally:
            await robots.aclose()


def attack(server: HostileServer, answer: Answer) -> Report:
    """Send ``answer`` to each reader; raise AssertionError when a bound broke."""
    server.answer = answer
    report = Report()
    tracing = not tracemalloc.is_tracing()
    if tracing:
        tracemalloc.start()
    tracemalloc.reset_peak()
    try:
        for name, call in (
            ("sync page", lambda: _sync_page(server.url())),
            ("async page", lambda: asyncio.run(_async_page(server.url()))),
        ):
            response = _timed(report, name, call)
            if isinstance(response, httpx.Response):
                report.body_bytes = max(report.body_bytes, len(response.content))
        for name, check in (
            ("sync robots", lambda: _sync_robots(server.url("/robots.txt"))),
            ("async robots", lambda: asyncio.run(_async_robots(server.url("/robots.txt")))),
        ):
            verdict = _timed(report, name, check)
            # A robots checker answers every fetch with a verdict, never an error.
            assert isinstance(verdict, Verdict), (name, report.errors, answer.describe())
        report.peak = tracemalloc.get_traced_memory()[1]
    finally:
        if tracing:
            tracemalloc.stop()
    assert report.body_bytes <= CAP + SLACK, (report, answer.describe())
    assert report.peak <= MEMORY, (report, answer.describe())
    assert report.slowest <= HOPS * DEADLINE + LATE, (report, answer.describe())
    return report
