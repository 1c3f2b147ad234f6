"""The robots.txt fetcher: the thin I/O shell around :class:`RobotsEngine`.

It performs the GETs the engine asks for, one hop at a time (so the engine sees
every redirect), with the robot's identifying headers, a body cut at 500 KiB, and
a total deadline per fetch that a drip-feeding server cannot stretch. Concurrent
checks on one origin share one fetch; fetches for different origins run in
parallel, up to ``max_parallel`` at once. Inside a polite transport, each redirect
hop is judged by the transport's address rule for page redirects, with its
resolver, before it is sent and again on the address its connection reached; a
hop it refuses is an answer like any other, cached. The sync and async faces differ only
in how they wait.

(Why this module is a little over 500 lines: it is one concept, the fetcher, with
a sync and an async face over the same helpers; its address rule, socket guards
and settings already live in :mod:`~robotkit.http.addresses`,
:mod:`~robotkit.http.sockets` and :mod:`~robotkit.http.settings`.)
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import time
from concurrent.futures import Future
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

import httpx

from robotkit.base.clock import Clock, system_clock
from robotkit.base.identity import Identity
from robotkit.base.outcome import NetworkErrorKind
from robotkit.http.addresses import ChainJudge
from robotkit.http.decoding import ACCEPT_ENCODING, CappedBody
from robotkit.http.errors import AddressRefused, PolitenessError, classify_error
from robotkit.http.settings import DEFAULT_DEADLINE, DEFAULT_MAX_PARALLEL, RobotsOptions
from robotkit.http.sockets import Watchdog, guard_connections, peer_check, set_deadline
from robotkit.http.sockets import deadline as thread_deadline
from robotkit.robots.cache import OriginState
from robotkit.robots.engine import FetchNeeded, RobotsEngine, RobotsResponse, file_state
from robotkit.robots.rules import MAX_ROBOTS_BYTES, RobotsRules
from robotkit.robots.status import FetchFailure
from robotkit.robots.verdict import Verdict
from robotkit.url.parse import Origin

__all__ = [
    "DEFAULT_DEADLINE",
    "DEFAULT_MAX_PARALLEL",
    "READ_LIMIT",
    "AsyncRobotsChecker",
    "RobotsChecker",
    "RobotsOptions",
]

DEFAULT_OPTIONS = RobotsOptions()

READ_LIMIT = MAX_ROBOTS_BYTES + 1
"""Bytes read from a body: the 500 KiB kept, and one more to know it was cut."""


def _answer(response: httpx.Response, body: bytes) -> RobotsResponse:
    return RobotsResponse.http(response.status_code, response.headers.multi_items(), body)


def _failure(error: BaseException) -> RobotsResponse:
    """Map an httpx/OS error to the facts the engine needs."""
    timeout = classify_error(error) is NetworkErrorKind.TIMEOUT
    kind = FetchFailure.TIMEOUT if timeout else FetchFailure.NETWORK_ERROR
    text = str(error) or type(error).__name__
    return RobotsResponse.failed(kind, f"{kind.value}: {text}")


def _timed_out(deadline: float) -> RobotsResponse:
    return RobotsResponse.failed(
        FetchFailure.TIMEOUT, f"timeout: no complete answer within {deadline:g} s"
    )


def _body(response: httpx.Response) -> CappedBody | None:
    """Where to collect the body, or None when it is not worth reading: only a
    2xx body is parsed. Read raw and decoded here, so that the 500 KiB cut
    bounds the decoded bytes of any stack of codings (a 1.8 KB gzip-of-gzip
    decodes to gigabytes); an unknown coding raises ``UnsupportedEncoding``."""
    if not 200 <= response.status_code < 300:
        return None
    return CappedBody(response.headers.get_list("content-encoding"), READ_LIMIT, response.request)


_ClientT = TypeVar("_ClientT", httpx.Client, httpx.AsyncClient)


def _needs(client: _ClientT | None) -> _ClientT:
    if client is None:  # only a file-backed checker has none, and it never fetches
        raise RuntimeError("this robots checker reads a local file and never fetches")
    return client


class _Deadline:
    """The total deadline of one robots.txt fetch, redirects included. It starts
    at the first network I/O, not before: a caller's pacing transport may hold
    the request for the host's crawl delay first, and that wait is ours, not the
    server's."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.at: float | None = None

    def start(self, now: float) -> float:
        if self.at is None:
            self.at = now + self.seconds
        return self.at

    def expired(self, now: float) -> bool:
        return self.at is not None and now >= self.at


def _read_file(path: str | os.PathLike[str]) -> OriginState:
    """A local robots.txt, cut like a fetched one (reads at most 500 KiB + 1)."""
    source = Path(path)
    with source.open("rb") as handle:
        data = handle.read(READ_LIMIT)
    return file_state(RobotsRules.parse(data), source.resolve().as_uri())


def _peer_checking(
    event: FetchNeeded, hops: ChainJudge | None
) -> contextlib.AbstractContextManager[None]:
    """Inside a polite transport: judge the address each connection of this hop
    reaches, with the chain (DNS rebinding); elsewhere nothing."""
    if hops is None:
        return contextlib.nullcontext()
    return peer_check(hops.peer_judge(event.url, bool(event.redirects)))


def _refused_hop(event: FetchNeeded, error: Exception) -> str | None:
    """The detail of the transport's refusal of a redirect hop's address, or None
    when ``error`` is something else or the refused request was the first (the
    page's own origin: that refusal is the page's too)."""
    if isinstance(error, AddressRefused) and event.redirects:
        return error.detail
    return None


_C = TypeVar("_C", bound="_Base")


class _Base:
    def __init__(
        self,
        identity: Identity | None = None,
        *,
        options: RobotsOptions = DEFAULT_OPTIONS,
        clock: Clock = system_clock,
        _fixed: OriginState | None = None,
    ) -> None:
        self.identity = identity if identity is not None else Identity()
        self.options = options
        self.engine = RobotsEngine(
            profile=options.profile,
            min_ttl=options.min_ttl,
            cache_size=options.cache_size,
            fixed=_fixed,
        )
        self.clock = clock
        self.fetches = 0
        """robots.txt GETs sent so far (each redirect hop counts)."""

    @classmethod
    def from_file(
        cls: type[_C],
        path: str | os.PathLike[str],
        identity: Identity | None = None,
        *,
        clock: Clock = system_clock,
    ) -> _C:
        """A checker that answers every URL, whatever its origin, from a local
        robots.txt (no network). Raises ``OSError`` when the file cannot be read."""
        return cls(identity, clock=clock, _fixed=_read_file(path))

    @property
    def product_token(self) -> str:
        return self.identity.product_token

    def _headers(self, request: FetchNeeded) -> dict[str, str]:
        # Only the codings we decode under the cut (httpx would offer more).
        return {**self.identity.headers(), "Accept-Encoding": ACCEPT_ENCODING, **request.headers}


class RobotsChecker(_Base):
    """Sync robots.txt verdicts over an ``httpx.Client`` (given, or our own).

    Thread-safe: call :meth:`check` from many threads; one fetch per origin.
    A client passed in is used as is (its transport may pace requests) and not
    closed by :meth:`close`; redirects are followed here, never by httpx.
    """

    def __init__(
        self,
        identity: Identity | None = None,
        *,
        options: RobotsOptions = DEFAULT_OPTIONS,
        client: httpx.Client | None = None,
        transport: httpx.BaseTransport | None = None,
        clock: Clock = system_clock,
        _fixed: OriginState | None = None,
    ) -> None:
        super().__init__(identity, options=options, clock=clock, _fixed=_fixed)
        # A client or transport the caller gave stays the caller's to close; a
        # file-backed checker never fetches, so it makes no client at all.
        self._own_client = client is None and transport is None
        self._client = client
        if _fixed is None:
            # Every socket read and write of our fetches is cut to the time left
            # before the deadline (transport's deadline-bounded network backend):
            # the only bound on a reused keep-alive connection, whose socket the
            # watchdog never sees. Outside our fetches the backend changes nothing,
            # so a caller's client or transport may keep serving its other requests.
            if client is None:
                inner = transport if transport is not None else httpx.HTTPTransport()
                guard_connections(inner)
                self._client = httpx.Client(transport=inner)
            else:
                given = getattr(client, "_transport", None)  # httpx has no public hook
                if isinstance(given, httpx.BaseTransport):
                    guard_connections(given)
        self._screen = ChainJudge.screen_of(client, transport)
        self._lock = threading.Lock()
        self._inflight: dict[Origin, Future[OriginState]] = {}
        self._slots = threading.BoundedSemaphore(options.max_parallel)

    def check(self, url: str) -> Verdict:
        """The verdict for ``url``, fetching its robots.txt first if needed."""
        token = self.product_token
        now = self.clock()
        with self._lock:
            event = self.engine.lookup(url, now)
            future: Future[OriginState] | None = None
            owner = False
            if isinstance(event, FetchNeeded):
                future = self._inflight.get(event.origin)
                owner = future is None
                if future is None:
                    future = self._inflight[event.origin] = Future()
        # Matching runs outside the lock: threads only queue for the cache.
        if isinstance(event, Verdict):
            return event
        if isinstance(event, OriginState):
            return self.engine.decide(url, event, token, now)
        assert future is not None
        if owner:
            try:
                with self._slots:
                    future.set_result(self._fetch(event))
            except BaseException as error:
                future.set_exception(error)
                raise
            finally:
                with self._lock:
                    del self._inflight[event.origin]
        return self.engine.decide(url, future.result(), token, self.clock())

    def _fetch(self, event: FetchNeeded) -> OriginState:
        deadline = _Deadline(self.options.deadline)
        hops = None if self._screen is None else ChainJudge(self._screen)
        while True:
            refused = None
            try:
                if hops is not None:
                    hops.check(event.url, bool(event.redirects))
                response = self._get(event, deadline, hops)
            except httpx.ConnectError as error:  # the hop's host has no address
                response = _failure(error)
            except Exception as error:
                refused = _refused_hop(event, error)
                if refused is None:
                    raise
            with self._lock:
                result: FetchNeeded | OriginState
                if refused is not None:
                    result = self.engine.refuse(event, refused, self.clock())
                else:
                    result = self.engine.receive(event, response, self.clock())
            if isinstance(result, OriginState):
                return result
            event = result

    def _get(
        self, event: FetchNeeded, deadline: _Deadline, hops: ChainJudge | None
    ) -> RobotsResponse:
        """One GET. From the first network I/O, a watchdog shuts the socket at
        the deadline, so neither a stalled nor a dripping server (headers or
        body) can hold us longer. On a reused keep-alive connection (no new
        socket to shut) every socket operation is cut to the time left, through
        the transport's deadline-bounded backend (our own transport, a given
        ``httpx.HTTPTransport``, or a polite transport's). Elsewhere (a transport
        that is not httpcore) the deadline is checked between chunks and no single
        read may wait longer than the whole deadline."""
        if deadline.expired(time.monotonic()):
            return _timed_out(deadline.seconds)
        watchdog = Watchdog()

        def arm() -> None:
            if not watchdog.armed:
                now = time.monotonic()
                # Called in this thread by httpcore before its first socket
                # operation: from here on each read and write is bounded.
                at = deadline.start(now)
                set_deadline(at)
                watchdog.arm(at - now)

        def trace(name: str, info: dict[str, Any]) -> None:
            watchdog.trace(name, info)
            arm()

        with self._lock:
            self.fetches += 1
        outer_deadline = thread_deadline()
        checking = _peer_checking(event, hops)
        try:
            with (
                watchdog,
                checking,
                _needs(self._client).stream(
                    "GET",
                    event.url,
                    headers=self._headers(event),
                    follow_redirects=False,
                    timeout=httpx.Timeout(deadline.seconds),
                    extensions={"trace": trace},
                ) as response,
            ):
                arm()  # a transport that emits no trace events: the deadline starts now
                body = _body(response)
                if body is not None:
                    for chunk in response.iter_raw():
                        more = body.feed(chunk)
                        if watchdog.fired.is_set() or deadline.expired(time.monotonic()):
                            return _timed_out(deadline.seconds)
                        if not more:
                            break
                # From here the connection may go back to the pool (keep-alive).
                if not watchdog.stand_down():
                    return _timed_out(deadline.seconds)
                return _answer(response, b"" if body is None else body.content())
        except PolitenessError:
            raise  # refused by our own pacing, not a failure of the site
        except (httpx.HTTPError, httpx.InvalidURL, OSError) as error:
            # InvalidURL: a Location httpx cannot complete (``javascript:x``, a scheme
            # and no host), which it raises as such where it raises RemoteProtocolError
            # ("Invalid URL in location header") for the ones it cannot parse: both
            # are the same failure of the answer.
            late = watchdog.fired.is_set() or deadline.expired(time.monotonic())
            return _timed_out(deadline.seconds) if late else _failure(error)
        finally:
            set_deadline(outer_deadline)

    def close(self) -> None:
        if self._own_client and self._client is not None:
            self._client.close()

    def __enter__(self) -> RobotsChecker:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


class AsyncRobotsChecker(_Base):
    """Async robots.txt verdicts over an ``httpx.AsyncClient`` (given, or our own).

    Concurrent ``await check(url)`` calls on one origin share one fetch; at most
    ``max_parallel`` fetches run at once, and the deadline is enforced by
    ``asyncio.wait_for`` around each fetch. Use it from one event loop.
    """

    def __init__(
        self,
        identity: Identity | None = None,
        *,
        options: RobotsOptions = DEFAULT_OPTIONS,
        client: httpx.AsyncClient | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        clock: Clock = system_clock,
        _fixed: OriginState | None = None,
    ) -> None:
        super().__init__(identity, options=options, clock=clock, _fixed=_fixed)
        self._own_client = client is None and transport is None
        self._client = client
        if client is None and _fixed is None:
            self._client = httpx.AsyncClient(transport=transport)
        self._screen = ChainJudge.screen_of(client, transport)
        self._inflight: dict[Origin, asyncio.Future[OriginState]] = {}
        self._slots: asyncio.Semaphore | None = None

    def known(self, url: str) -> Verdict | None:
        """The verdict for ``url`` when it needs no fetch (its origin's answer is
        cached and fresh, or the URL is invalid), else None: a caller checking
        many URLs need not start a task for each one."""
        event = self.engine.check(url, self.product_token, self.clock())
        return event if isinstance(event, Verdict) else None

    async def check(self, url: str) -> Verdict:
        """The verdict for ``url``, fetching its robots.txt first if needed."""
        token = self.product_token
        event = self.engine.check(url, token, self.clock())
        if isinstance(event, Verdict):
            return event
        future = self._inflight.get(event.origin)
        if future is None:
            future = self._inflight[event.origin] = asyncio.get_running_loop().create_future()
            try:
                future.set_result(await self._fetch(event))
            except asyncio.CancelledError:
                future.cancel()
                raise
            except BaseException as error:
                future.set_exception(error)
                future.exception()  # retrieved: the owner re-raises it below
                raise
            finally:
                del self._inflight[event.origin]
        state = await asyncio.shield(future)
        return self.engine.decide(url, state, token, self.clock())

    async def _fetch(self, event: FetchNeeded) -> OriginState:
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.options.max_parallel)
        async with self._slots:
            deadline = _Deadline(self.options.deadline)
            hops = None if self._screen is None else ChainJudge(self._screen)
            while True:
                refused = None
                try:
                    if hops is not None:
                        await hops.acheck(event.url, bool(event.redirects))
                    response = await self._get_within(event, deadline, hops)
                except httpx.ConnectError as error:  # the hop's host has no address
                    response = _failure(error)
                except Exception as error:
                    refused = _refused_hop(event, error)
                    if refused is None:
                        raise
                result: FetchNeeded | OriginState
                if refused is not None:
                    result = self.engine.refuse(event, refused, self.clock())
                else:
                    result = self.engine.receive(event, response, self.clock())
                if isinstance(result, OriginState):
                    return result
                event = result

    async def _get_within(
        self, event: FetchNeeded, deadline: _Deadline, hops: ChainJudge | None
    ) -> RobotsResponse:
        """One GET under the fetch's deadline, which starts at the first network
        I/O (a trace event), so a pacing transport's wait does not count."""
        loop = asyncio.get_running_loop()
        if deadline.expired(loop.time()):
            return _timed_out(deadline.seconds)
        started = asyncio.Event()

        async def trace(name: str, info: dict[str, Any]) -> None:
            started.set()

        task = asyncio.ensure_future(self._get(event, trace, hops))
        waiter = asyncio.ensure_future(started.wait())
        try:
            await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
            if not task.done():
                remaining = deadline.start(loop.time()) - loop.time()
                return await asyncio.wait_for(task, max(remaining, 0.0))
            return task.result()
        except asyncio.TimeoutError:
            return _timed_out(deadline.seconds)
        finally:
            waiter.cancel()
            task.cancel()

    async def _get(self, event: FetchNeeded, trace: Any, hops: ChainJudge | None) -> RobotsResponse:
        self.fetches += 1
        checking = _peer_checking(event, hops)
        try:
            with checking:
                async with _needs(self._client).stream(
                    "GET",
                    event.url,
                    headers=self._headers(event),
                    follow_redirects=False,
                    timeout=httpx.Timeout(self.options.deadline),
                    extensions={"trace": trace},
                ) as response:
                    # A transport that emits no trace events: the deadline starts now.
                    await trace("robotkit.response_headers", {})
                    body = _body(response)
                    if body is not None:
                        async for chunk in response.aiter_raw():
                            if not body.feed(chunk):
                                break
                    return _answer(response, b"" if body is None else body.content())
        except PolitenessError:
            raise  # refused by our own pacing or address rule, not a failure of the site
        except (httpx.HTTPError, httpx.InvalidURL, OSError) as error:  # as RobotsChecker._get
            return _failure(error)

    async def aclose(self) -> None:
        if self._own_client and self._client is not None:
            await self._client.aclose()

    async def __aenter__(self) -> AsyncRobotsChecker:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()
