"""One small connection pool per origin: the polite transports' default inner transport.

A polite robot sends one request at a time to a host, so what it needs from a pool
is one kept-alive connection per host, reused from one request to the next.
httpx's single pool serves that badly on a crawl of many hosts: it keeps 20 idle
connections in all by default (a crawl of 50 hosts opens a new connection for
almost every request, a new TCP handshake for the server each time), and it walks
every connection it holds to place each request, so its cost per request grows
with the number of hosts. Here each origin (scheme, host, port; RFC 6454) has its
own httpx transport with at most ``per_host`` connections: placing a request looks
at that origin's pool only. Pools are kept for the ``max_hosts`` origins used last;
an older one is closed once no response of it is still open.
"""

from __future__ import annotations

import ssl
from collections import OrderedDict
from collections.abc import Callable
from itertools import islice
from typing import Generic, TypeVar

import httpx

from robotkit.http.slots import AsyncReleasingStream, ReleasingStream, with_stream
from robotkit.http.sockets import guard_connections

__all__ = ["DEFAULT_MAX_HOSTS", "AsyncPerHostTransport", "PerHostTransport"]

DEFAULT_MAX_HOSTS = 512
"""Origins whose pool (and kept-alive connection) is kept: more than a crawl's
concurrency, so a host's connection outlives the turns of the others."""

_T = TypeVar("_T", httpx.HTTPTransport, httpx.AsyncHTTPTransport)
OriginKey = tuple[bytes, bytes, int | None]


class _Pools(Generic[_T]):
    """The origin -> transport table, least recently used first, with the count
    of open responses of each (a pool is closed only when it has none)."""

    def __init__(self, make: Callable[[ssl.SSLContext], _T], max_hosts: int) -> None:
        if max_hosts < 1:
            raise ValueError("max_hosts must be >= 1")
        self.make: Callable[[ssl.SSLContext], _T] = make
        self._tls: ssl.SSLContext | None = None
        self.max_hosts = max_hosts
        self.pools: OrderedDict[OriginKey, _T] = OrderedDict()
        self.open: dict[OriginKey, int] = {}

    def take(self, url: httpx.URL) -> tuple[OriginKey, _T, list[_T]]:
        """The pool for ``url``'s origin, counted as in use, and the pools that
        fell out of the table and may be closed now."""
        key = (url.raw_scheme, url.raw_host, url.port)
        pool = self.pools.get(key)
        if pool is None:
            if self._tls is None:
                # One TLS context for every origin: loading the CA bundle takes tens
                # of milliseconds, and it is the same bundle for all of them.
                self._tls = httpx.create_ssl_context()
            pool = self.pools[key] = self.make(self._tls)
            guard_connections(pool)
        else:
            self.pools.move_to_end(key)
        self.open[key] = self.open.get(key, 0) + 1
        closable = []
        excess = len(self.pools) - self.max_hosts
        if excess > 0:  # only then: the table is not walked on every request
            for old in list(islice(self.pools, excess)):
                if not self.open.get(old):
                    closable.append(self.pools.pop(old))
        return key, pool, closable

    def give_back(self, key: OriginKey) -> None:
        left = self.open[key] - 1
        if left:
            self.open[key] = left
        else:
            del self.open[key]

    def all(self) -> list[_T]:
        pools = list(self.pools.values())
        self.pools.clear()
        return pools


def _limits(per_host: int) -> httpx.Limits:
    if per_host < 1:
        raise ValueError("per_host must be >= 1")
    return httpx.Limits(max_connections=per_host, max_keepalive_connections=per_host)


class PerHostTransport(httpx.BaseTransport):
    """Sync face: one ``httpx.HTTPTransport`` per origin (module docstring)."""

    def __init__(self, *, per_host: int = 2, max_hosts: int = DEFAULT_MAX_HOSTS) -> None:
        limits = _limits(per_host)
        self._pools = _Pools(lambda tls: httpx.HTTPTransport(verify=tls, limits=limits), max_hosts)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        key, pool, closable = self._pools.take(request.url)
        for old in closable:
            old.close()
        try:
            response = pool.handle_request(request)
        except BaseException:
            self._pools.give_back(key)
            raise
        assert isinstance(response.stream, httpx.SyncByteStream)
        stream = ReleasingStream(response.stream, lambda: self._pools.give_back(key))
        return with_stream(response, stream)

    def close(self) -> None:
        for pool in self._pools.all():
            pool.close()


class AsyncPerHostTransport(httpx.AsyncBaseTransport):
    """Async face: one ``httpx.AsyncHTTPTransport`` per origin (module docstring)."""

    def __init__(self, *, per_host: int = 2, max_hosts: int = DEFAULT_MAX_HOSTS) -> None:
        limits = _limits(per_host)
        self._pools = _Pools(
            lambda tls: httpx.AsyncHTTPTransport(verify=tls, limits=limits), max_hosts
        )

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        key, pool, closable = self._pools.take(request.url)
        for old in closable:
            await old.aclose()
        try:
            response = await pool.handle_async_request(request)
        except BaseException:
            self._pools.give_back(key)
            raise
        assert isinstance(response.stream, httpx.AsyncByteStream)

        async def give_back() -> None:
            self._pools.give_back(key)

        return with_stream(response, AsyncReleasingStream(response.stream, give_back))

    async def aclose(self) -> None:
        for pool in self._pools.all():
            await pool.aclose()
