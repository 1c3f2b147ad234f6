"""A lean asyncio path for robotkit's script calls on one Redis server.

A worker of a shared crawl makes a few script calls a page (the reservation, the
page's host scripts, the syncs), and redis-py's asyncio client spent more of its CPU
on each than Redis spent running it: about 170 µs a round trip on loopback (the pool,
the retry wrapper, a timeout per read, its stream reader, per-argument encoding)
against about 60 µs for the same EVALSHA written and parsed with hiredis. The shared
crawl's CPU a page was 1.8 times a crawl without sharing (ARCHITECTURE.md, "CPU per
page, alone and shared"), and this was the largest part of the difference.

:class:`Wire` speaks RESP itself, on one connection per client: every call packed by
hiredis, the batches of one turn of the event loop written at once, in order (as a
pipeline is: a worker killed while sending leaves a prefix run), the replies parsed
by hiredis and handed to their batch in order (Redis answers in the order it reads).
Calls of several tasks share the connection, so they are pipelined with each other,
and Redis runs each batch's calls in order. It keeps redis-py's behaviour where it
matters: the client's retries with backoff on a lost connection or a timeout, the
socket timeouts, AUTH and SELECT from the URL, redis-py's exceptions (so
:func:`~robotkit.shared.connection.talking_to` turns them into
:class:`~robotkit.shared.connection.SharedStateUnavailable`). Only a
plain TCP client made by :func:`~robotkit.shared.connection.async_client` has one
(:class:`WiredPool`, closed with the client); TLS, Unix sockets, a cluster and clients
made elsewhere go through redis-py.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Sequence
from typing import Any

import hiredis
import redis.asyncio
from redis.exceptions import AuthenticationError, NoScriptError, RedisError, ResponseError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

__all__ = ["Command", "Wire", "WiredPool"]

Command = Sequence[str | bytes | int]
"""One Redis command, its name first."""


def _error(reply: hiredis.ReplyError) -> RedisError:
    """redis-py's exception for an error reply (the ones robotkit tells apart)."""
    message = str(reply)
    if message.startswith("NOSCRIPT"):
        return NoScriptError(message)
    if message.startswith(("NOAUTH", "WRONGPASS", "NOPERM")):
        return AuthenticationError(message)
    return ResponseError(message)


class _Batch:
    """The replies one call of :meth:`Wire.execute` waits for."""

    __slots__ = ("future", "replies", "size")

    def __init__(self, future: asyncio.Future[list[Any]], size: int) -> None:
        self.future = future
        self.size = size
        self.replies: list[Any] = []


class _Link(asyncio.Protocol):
    """One connection: the batches waiting for replies, in the order they were
    written. A lost connection fails every batch still waiting."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.transport: asyncio.Transport | None = None
        self.closed = False
        self.reader = hiredis.Reader()
        self.waiting: deque[_Batch] = deque()
        self.outgoing: list[bytes] = []
        self.flushing = False

    @property
    def alive(self) -> bool:
        transport = self.transport
        return not self.closed and transport is not None and not transport.is_closing()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.reader.feed(data)
        waiting = self.waiting
        while True:
            try:
                reply = self.reader.gets()
            except hiredis.ProtocolError as error:
                self.fail(RedisConnectionError(f"Protocol error from {self.where}: {error}"))
                return
            if reply is False:
                return
            if not waiting:  # nothing asked: the stream is out of step
                self.fail(RedisConnectionError(f"Unexpected reply from {self.where}"))
                return
            batch = waiting[0]
            if isinstance(reply, hiredis.ReplyError):
                reply = _error(reply)
            batch.replies.append(reply)
            if len(batch.replies) == batch.size:
                waiting.popleft()
                if not batch.future.done():  # its caller may have been cancelled
                    batch.future.set_result(batch.replies)

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self._fail_waiting(RedisConnectionError(f"Connection to {self.where} lost: {exc}"))

    def fail(self, error: Exception) -> None:
        """Close the connection and fail what waits on it with ``error``."""
        self.closed = True
        if self.transport is not None:
            self.transport.abort()
        self._fail_waiting(error)

    def _fail_waiting(self, error: Exception) -> None:
        while self.waiting:
            batch = self.waiting.popleft()
            if not batch.future.done():
                batch.future.set_exception(error)

    def send(self, commands: Sequence[Command]) -> asyncio.Future[list[Any]]:
        """Queue ``commands`` for this turn of the event loop's write; the future of
        their replies. Every batch of one turn goes in one write (one system call,
        and most often one wake-up for all their replies), each batch whole."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[list[Any]] = loop.create_future()
        self.waiting.append(_Batch(future, len(commands)))
        pack = hiredis.pack_command  # its stub types the tuple as of one item
        self.outgoing += [pack(tuple(c)) for c in commands]  # type: ignore[arg-type]
        if not self.flushing:
            self.flushing = True
            loop.call_soon(self.flush)
        return future

    def flush(self) -> None:
        self.flushing = False
        data, self.outgoing = b"".join(self.outgoing), []
        if self.alive:
            assert self.transport is not None
            self.transport.write(data)


class Wire:
    """Script calls to one Redis server over a connection of its own (module
    docstring). ``options`` are a redis-py pool's connection keywords (host, port,
    db, username, password, timeouts, retry)."""

    def __init__(self, options: dict[str, Any]) -> None:
        self.host = str(options.get("host", "localhost"))
        self.port = int(options.get("port", 6379))
        self.db = int(options.get("db") or 0)
        self.username: str | None = options.get("username")
        self.password: str | None = options.get("password")
        self.timeout: float | None = options.get("socket_timeout")
        self.connect_timeout: float | None = options.get("socket_connect_timeout")
        self.retry = options.get("retry")
        self.where = f"{self.host}:{self.port}"
        self._link: _Link | None = None
        self._opening = asyncio.Lock()

    async def execute(self, commands: Sequence[Command]) -> list[Any]:
        """The replies of ``commands``, written at once and run by Redis in order;
        an error reply is its exception in the list, not raised. A lost connection
        or a timeout is retried as the client's retry says, then raised."""
        if not commands:
            return []
        if self.retry is None:
            return await self._execute(commands)
        result: list[Any] = await self.retry.call_with_retry(
            lambda: self._execute(commands), self._dropped
        )
        return result

    async def _dropped(self, error: Exception) -> None:
        self.close()

    async def _execute(self, commands: Sequence[Command]) -> list[Any]:
        link = self._link
        if link is None or not link.alive:
            link = await self._open()
        future = link.send(commands)
        if self.timeout is None:
            return await future
        timer = asyncio.get_running_loop().call_later(self.timeout, self._expire, link, future)
        try:
            return await future
        finally:
            timer.cancel()

    def _expire(self, link: _Link, future: asyncio.Future[list[Any]]) -> None:
        if not future.done():
            link.fail(RedisTimeoutError(f"Timeout reading from {self.where}"))

    async def _open(self) -> _Link:
        async with self._opening:
            link = self._link
            if link is not None and link.alive:
                return link
            loop = asyncio.get_running_loop()
            link = _Link(self.where)
            try:
                await asyncio.wait_for(
                    loop.create_connection(lambda: link, self.host, self.port),
                    self.connect_timeout,
                )
            except (OSError, asyncio.TimeoutError) as error:
                raise RedisConnectionError(f"Error connecting to {self.where}: {error}") from None
            hello: list[Command] = []
            if self.password is not None:
                user = [self.username] if self.username else []
                hello.append(["AUTH", *user, self.password])
            if self.db:
                hello.append(["SELECT", self.db])
            if hello:
                for reply in await link.send(hello):
                    if isinstance(reply, Exception):
                        link.fail(reply)
                        raise reply
            self._link = link
            return link

    def close(self) -> None:
        """Close the connection (the next call opens another)."""
        link, self._link = self._link, None
        if link is not None and link.transport is not None:
            link.closed = True
            link.transport.close()


class WiredPool(redis.asyncio.ConnectionPool):
    """A redis-py pool that also keeps the client's :class:`Wire` (made at its
    first use, for a plain TCP connection only) and closes it with the pool."""

    _wire: Wire | None = None
    _wired = False

    def wire(self) -> Wire | None:
        if not self._wired:
            self._wired = True
            if self.connection_class is redis.asyncio.Connection:
                self._wire = Wire(self.connection_kwargs)
        return self._wire

    async def disconnect(self, inuse_connections: bool = True) -> None:
        if self._wire is not None:
            self._wire.close()
        await super().disconnect(inuse_connections)
