"""Guards at the socket level, under httpcore: a response deadline no slow read can
outlast, and the address check on the peer a new connection really reached.

httpx bounds each socket operation, not a whole response: a server that drips one
byte per read timeout (a tarpit) holds a request for ever. So the sync face sets a
deadline for the response being read in this thread, and every read and write of
the connection pool's streams is cut to the time left (:class:`DeadlineBackend`);
a watchdog shuts the request's sockets at the deadline for a read already blocked.
The async face bounds time with ``asyncio.wait_for`` and only needs the peer check
(:class:`CheckedAsyncBackend`). httpx has no public hook for a network backend,
so :func:`guard_connections` puts one under a transport's pool when it can.
"""

from __future__ import annotations

import contextlib
import contextvars
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpcore
import httpx

PeerJudge = Callable[[str], None]
"""Judges the address a connection reached; raises to refuse it."""

_PEER_CHECK: contextvars.ContextVar[PeerJudge | None] = contextvars.ContextVar(
    "robotkit_peer_check", default=None
)
"""The current request's peer judge (sync threads and async tasks each see their
own)."""


@contextlib.contextmanager
def peer_check(judge: PeerJudge) -> Iterator[None]:
    """Judge the peer of every connection opened inside this block with ``judge``."""
    token = _PEER_CHECK.set(judge)
    try:
        yield
    finally:
        _PEER_CHECK.reset(token)


def check_peer(stream: httpcore.NetworkStream | httpcore.AsyncNetworkStream) -> None:
    """Run the current request's address check on the peer of a fresh connection;
    raises :class:`robotkit.http.errors.AddressRefused` (the caller closes the
    stream)."""
    check = _PEER_CHECK.get()
    if check is not None:
        peer = stream.get_extra_info("server_addr")
        if isinstance(peer, tuple) and peer:
            check(str(peer[0]))


_DEADLINE = threading.local()
"""``at``: the ``time.monotonic()`` by which the response this thread is reading
must be complete, or None. Sync httpcore reads in the caller's thread, so a
thread-local reaches every socket operation of exactly that request."""


def deadline() -> float | None:
    """This thread's response deadline (``time.monotonic()``), or None."""
    at: float | None = getattr(_DEADLINE, "at", None)
    return at


def set_deadline(at: float | None) -> None:
    """Set (or, with None, clear) this thread's response deadline."""
    _DEADLINE.at = at


def bounded(timeout: float | None) -> float | None:
    """A socket operation's timeout cut to the time left before this thread's
    response deadline, so that no number of slow reads (a server dripping its
    headers on a reused keep-alive connection) can outlast the deadline."""
    at = deadline()
    if at is None:
        return timeout
    left = at - time.monotonic()
    if left <= 0:
        raise httpcore.ReadTimeout("the response deadline has passed")
    return left if timeout is None else min(timeout, left)


class DeadlineStream(httpcore.NetworkStream):
    """A network stream whose every read and write ends by the response deadline."""

    def __init__(self, inner: httpcore.NetworkStream) -> None:
        self.inner = inner

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self.inner.read(max_bytes, bounded(timeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self.inner.write(buffer, bounded(timeout))

    def close(self) -> None:
        self.inner.close()

    def start_tls(
        self,
        ssl_context: Any,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore.NetworkStream:
        upgraded = self.inner.start_tls(ssl_context, server_hostname, bounded(timeout))
        return DeadlineStream(upgraded)

    def get_extra_info(self, info: str) -> Any:
        return self.inner.get_extra_info(info)


class DeadlineBackend(httpcore.NetworkBackend):
    """httpcore's network backend, with the streams it opens bounded by the
    deadline of the response being read and each new connection's peer judged
    (outside a polite request: unchanged)."""

    def __init__(self, inner: httpcore.NetworkBackend) -> None:
        self.inner = inner

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Any = None,
    ) -> httpcore.NetworkStream:
        stream = self.inner.connect_tcp(host, port, bounded(timeout), local_address, socket_options)
        try:
            check_peer(stream)
        except BaseException:
            stream.close()
            raise
        return DeadlineStream(stream)

    def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Any = None
    ) -> httpcore.NetworkStream:
        return DeadlineStream(
            self.inner.connect_unix_socket(path, bounded(timeout), socket_options)
        )

    def sleep(self, seconds: float) -> None:
        self.inner.sleep(seconds)


class CheckedAsyncBackend(httpcore.AsyncNetworkBackend):
    """httpcore's async network backend, with each new connection's peer address
    judged (the async face bounds time with ``asyncio.wait_for`` instead)."""

    def __init__(self, inner: httpcore.AsyncNetworkBackend) -> None:
        self.inner = inner

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Any = None,
    ) -> httpcore.AsyncNetworkStream:
        stream = await self.inner.connect_tcp(host, port, timeout, local_address, socket_options)
        try:
            check_peer(stream)
        except BaseException:
            await stream.aclose()
            raise
        return stream

    async def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Any = None
    ) -> httpcore.AsyncNetworkStream:
        return await self.inner.connect_unix_socket(path, timeout, socket_options)

    async def sleep(self, seconds: float) -> None:
        await self.inner.sleep(seconds)


def guard_connections(transport: httpx.BaseTransport | httpx.AsyncBaseTransport) -> None:
    """Put :class:`DeadlineBackend` (sync) or :class:`CheckedAsyncBackend` under
    an httpx transport's connection pool (httpx has no public hook for it); other
    transports keep the watchdog and the screening before the request only."""
    pool = getattr(transport, "_pool", None)
    backend = getattr(pool, "_network_backend", None)
    if isinstance(backend, httpcore.NetworkBackend) and not isinstance(backend, DeadlineBackend):
        pool._network_backend = DeadlineBackend(backend)  # type: ignore[union-attr]
    elif isinstance(backend, httpcore.AsyncNetworkBackend) and not isinstance(
        backend, CheckedAsyncBackend
    ):
        pool._network_backend = CheckedAsyncBackend(backend)  # type: ignore[union-attr]


class Watchdog:
    """Shuts the sockets of a request down at its deadline, so that a server
    dripping headers or body cannot hold a blocking read past it. Armed when the
    deadline starts (:meth:`arm`); told to :meth:`stand_down` once the answer is
    complete, after which it leaves the connection alone (it may go back to the
    pool for keep-alive)."""

    def __init__(self) -> None:
        self.fired = threading.Event()
        self.sockets: list[socket.socket] = []
        self.timer: threading.Timer | None = None
        self._settle = threading.Lock()
        self._stood_down = False

    @property
    def armed(self) -> bool:
        return self.timer is not None

    def arm(self, seconds: float) -> None:
        """Fire in ``seconds`` (once: a second call changes nothing)."""
        if self.timer is None:
            self.timer = threading.Timer(max(seconds, 0.0), self._fire)
            self.timer.daemon = True
            self.timer.start()

    def trace(self, name: str, info: dict[str, Any]) -> None:
        if name.endswith(("connect_tcp.complete", "start_tls.complete")):
            self.watch(info.get("return_value"))

    def watch(self, stream: Any) -> None:
        sock = stream.get_extra_info("socket") if stream is not None else None
        if isinstance(sock, socket.socket):
            self.sockets.append(sock)
            if self.fired.is_set():
                self._fire()

    def stand_down(self) -> bool:
        """The answer is complete: never fire from now on. False when it already
        fired (the answer may be cut short)."""
        with self._settle:
            self._stood_down = not self.fired.is_set()
            return self._stood_down

    def _fire(self) -> None:
        with self._settle:
            if self._stood_down:
                return
            self.fired.set()
        for sock in self.sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    def __enter__(self) -> Watchdog:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.timer is not None:
            self.timer.cancel()
