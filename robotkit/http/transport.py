"""Polite httpx transports: every request judged, paced and bounded.

Pass :class:`PoliteTransport` (sync) or :class:`AsyncPoliteTransport` (async) to any
``httpx.Client`` / ``httpx.AsyncClient`` and each request, before it is sent:

1. is checked by the trap guard and the optional scope hook;
2. has its host resolved, and is refused if the address is private, loopback or
   link-local (unless ``allow_private``), and always when a redirect chain that
   began at a public address turns to such an address (SSRF,
   :mod:`robotkit.http.addresses`);
3. gets its robots.txt verdict (RFC 9309): disallowed is never sent
   (:class:`Disallowed`), deferred raises :class:`Deferred` or waits if asked;
4. waits for a slot from its host's pacer (:mod:`robotkit.pacing.pacer`).

It goes out with the robot's honest identity and, on a refetch when the caller
gave a :class:`ValidatorStore`, If-None-Match / If-Modified-Since. The body is read
here, bounded in bytes (decoded bytes, through every stacked coding:
:mod:`robotkit.http.decoding`) and in total time (a drip-feeding tarpit is cut
off: :mod:`robotkit.http.sockets`), and the response comes back with
:class:`FetchFacts` in ``response.extensions["robotkit"]``.

The decisions are :class:`~robotkit.http.core.PolitenessCore`'s, shared by both
faces; this module only carries them out, blocking or on the event loop. The
caller keeps httpx's ``response.history`` and gets the redirect chain in
:attr:`FetchFacts.redirects`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Generator
from functools import partial
from typing import Any, TypeVar

import httpx

from robotkit.base.clock import Clock, system_clock
from robotkit.base.identity import Identity
from robotkit.http.addresses import (
    AddressPolicy,
    AddressScreen,
    AsyncResolver,
    Resolver,
    system_resolver,
)
from robotkit.http.checker import AsyncRobotsChecker, RobotsChecker, RobotsOptions
from robotkit.http.core import OFF_LOOP, Cleared, Parse, PolitenessCore, Resolve, Robots, Step
from robotkit.http.decoding import CappedBody
from robotkit.http.errors import (
    AddressRefused,
    Deferred,
    Disallowed,
    HostSkipped,
    PolitenessError,
    RedirectRefused,
    ResponseTooSlow,
    classify_error,
)
from robotkit.http.facts import EXTENSION, FetchFacts, facts
from robotkit.http.pools import AsyncPerHostTransport, PerHostTransport
from robotkit.http.settings import (
    DEFAULT_MAX_BODY,
    DEFAULT_MAX_REDIRECTS,
    DEFAULT_MAX_WAIT,
    DEFAULT_RESPONSE_TIMEOUT,
    FetchLimits,
    GuardHook,
    PoliteSettings,
    ScopeHook,
)
from robotkit.http.slots import (
    AsyncReleasingStream,
    AsyncSlots,
    ReleasingStream,
    SharedPoliteness,
    SyncSlots,
    with_stream,
)
from robotkit.http.sockets import Watchdog, guard_connections, peer_check, set_deadline
from robotkit.http.sockets import deadline as thread_deadline
from robotkit.http.validators import ValidatorStore
from robotkit.pacing.pacer import Pacer, PacingPolicy, host_key

# Names that lived here before the shell was split by concern stay importable.
__all__ = [
    "DEFAULT_MAX_BODY",
    "DEFAULT_MAX_REDIRECTS",
    "DEFAULT_MAX_WAIT",
    "DEFAULT_RESPONSE_TIMEOUT",
    "EXTENSION",
    "AddressPolicy",
    "AddressRefused",
    "AsyncPacedTransport",
    "AsyncPoliteTransport",
    "AsyncResolver",
    "Deferred",
    "Disallowed",
    "FetchFacts",
    "FetchLimits",
    "GuardHook",
    "HostSkipped",
    "PacedTransport",
    "PoliteTransport",
    "PolitenessError",
    "RedirectRefused",
    "Resolver",
    "ResponseTooSlow",
    "ScopeHook",
    "classify_error",
    "facts",
    "system_resolver",
]

_T = TypeVar("_T")

_CORE_DOC = """
    Arguments (all optional): ``inner`` the transport that really sends (default
    one small ``httpx`` pool per origin, :mod:`robotkit.http.pools`);
    ``identity``; ``policy`` (pacing) or a shared ``pacer``;
    ``limits``; ``addresses`` (SSRF policy) or just ``allow_private``;
    ``robots_options`` (profile, min TTL, deadline) for our own robots checker,
    whose robots.txt fetches are paced like every other request and judged by the
    same address policy and resolver, or ``robots`` a checker of yours (its
    fetches are then yours to pace); ``check_robots=False`` to skip robots.txt
    (only for sites you own); ``guard`` a :class:`robotkit.triage.guard.Guard` or any
    ``(url) -> GuardVerdict | None``; ``scope`` a ``(url) -> bool``; ``validators``
    a :class:`ValidatorStore` to make refetches conditional (none by default: a
    304 has no body, so only a caller who keeps bodies should ask for one);
    ``clock``; ``resolver`` ``(host, port) -> addresses``; ``parse_html`` to read
    meta robots and links of HTML pages, ``read_text`` to read their visible words
    from the same parse too (``FetchFacts.page.text``, for content fingerprints).
    They make one :class:`PoliteSettings` (``transport.settings``). ``shared``, a
    ``robotkit.shared.SharedState``, paces every request (robots.txt included)
    with all the workers on that state, one request at a time per host, and
    shares our own robots checker's cache with them; a lost Redis raises
    ``SharedStateUnavailable`` (ARCHITECTURE.md, "Shared state").
"""


class _PoliteBase:
    """What the sync and async polite transports share: the core and its settings."""

    core: PolitenessCore

    @property
    def settings(self) -> PoliteSettings:
        return self.core.settings

    @property
    def address_screen(self) -> AddressScreen:
        """The address policy and resolver; a robots checker over this transport
        judges its redirect hops by it too."""
        return self.core.screen

    @property
    def pacer(self) -> Pacer:
        return self.core.pacer

    @property
    def identity(self) -> Identity:
        return self.core.identity


def _too_slow(request: httpx.Request, timeout: float) -> ResponseTooSlow:
    return ResponseTooSlow(f"no complete response within {timeout:g} s", request=request)


# --------------------------------------------------------------------------------------
# Sync


class PacedTransport(httpx.BaseTransport):
    """Pacing only: each request waits for its host's slot, and the slot is given
    back (the end recorded) when the response is closed. The robots.txt fetches of
    a :class:`PoliteTransport` go through one, so they count in the host's pace;
    the robots checker screens their addresses (``address_screen``) itself."""

    def __init__(self, inner: httpx.BaseTransport, slots: SyncSlots) -> None:
        self.inner = inner
        self.slots = slots
        self.address_screen = slots.core.screen

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        url = str(request.url)
        ticket, _ = self.slots.acquire(url, host_key(url))
        try:
            response = self.inner.handle_request(request)
        except BaseException as error:
            self.slots.release(ticket, None, None, error)
            raise
        assert isinstance(response.stream, httpx.SyncByteStream)
        release = partial(self.slots.release, ticket, response.status_code, response.headers)
        return with_stream(response, ReleasingStream(response.stream, release))

    def close(self) -> None:
        """The inner transport belongs to the polite transport, which closes it."""


class PoliteTransport(_PoliteBase, httpx.BaseTransport):
    """A sync httpx transport that fetches only what a polite robot may, when it may."""

    __doc__ = (__doc__ or "") + _CORE_DOC

    def __init__(
        self,
        inner: httpx.BaseTransport | None = None,
        *,
        identity: Identity | None = None,
        policy: PacingPolicy | None = None,
        pacer: Pacer | None = None,
        limits: FetchLimits | None = None,
        addresses: AddressPolicy | None = None,
        allow_private: bool = False,
        robots: RobotsChecker | None = None,
        robots_options: RobotsOptions | None = None,
        check_robots: bool = True,
        guard: GuardHook | None = None,
        scope: ScopeHook | None = None,
        validators: ValidatorStore | None = None,
        clock: Clock = system_clock,
        resolver: Resolver = system_resolver,
        parse_html: bool = True,
        read_text: bool = False,
        shared: SharedPoliteness | None = None,
    ) -> None:
        settings = PoliteSettings.from_arguments(locals())
        self.core = PolitenessCore(settings)
        self.inner = inner if inner is not None else PerHostTransport()
        guard_connections(self.inner)
        self.slots = SyncSlots(self.core) if shared is None else shared.sync_slots(self.core)
        self.robots_transport = PacedTransport(self.inner, self.slots)
        self._own_robots = robots is None and check_robots
        self.robots = robots
        if self._own_robots:
            checker = RobotsChecker if shared is None else shared.robots_checker
            self.robots = checker(
                settings.identity,
                options=settings.robots_options,
                transport=self.robots_transport,
                clock=clock,
            )

    def _drive(self, steps: Generator[Step, object, _T]) -> _T:
        """Carry out what a core coroutine asks for, blocking."""
        answer: object = None
        try:
            while True:
                step = steps.send(answer)
                if isinstance(step, Resolve):
                    answer = self.core.screen.resolve(step.host, step.port)
                elif isinstance(step, Robots):
                    assert self.robots is not None
                    answer = self.robots.check(step.url)
                elif isinstance(step, Parse):
                    answer = step.run()
                else:
                    time.sleep(step.seconds)
                    answer = None
        except StopIteration as done:
            result: _T = done.value
            return result

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        core = self.core
        ready: Cleared = self._drive(core.before(request, self.robots is not None))
        ticket, waited = self.slots.acquire(ready.url, ready.key)
        started = core.clock()
        status: int | None = None
        headers: httpx.Headers | None = None
        timeout = core.limits.response_timeout
        deadline = time.monotonic() + timeout
        core.deadline_timeouts(request, timeout)
        user_trace = request.extensions.get("trace")
        judge = core.screen.policy.peer_judge(ready.url, ready.chain, ready.is_hop)
        with Watchdog() as watchdog, peer_check(judge):
            watchdog.arm(timeout)

            def trace(name: str, info: dict[str, Any]) -> None:
                watchdog.trace(name, info)
                if user_trace is not None:
                    user_trace(name, info)

            request.extensions["trace"] = trace
            outer_deadline = thread_deadline()
            set_deadline(deadline)
            try:
                inner = self.inner.handle_request(request)
                try:
                    watchdog.watch(inner.extensions.get("network_stream"))
                    status, headers = inner.status_code, inner.headers
                    body = CappedBody(
                        headers.get_list("content-encoding"), core.limits.max_body_bytes, request
                    )
                    assert isinstance(inner.stream, httpx.SyncByteStream)
                    for chunk in inner.stream:
                        if watchdog.fired.is_set() or time.monotonic() > deadline:
                            break
                        if not body.feed(chunk):
                            break
                    # A cut socket may look like the end of a close-delimited body.
                    if watchdog.fired.is_set() or time.monotonic() > deadline:
                        raise _too_slow(request, timeout)
                finally:
                    inner.close()
            except BaseException as error:
                answered = isinstance(error, httpx.DecodingError)
                self.slots.release(ticket, status if answered else None, headers, error)
                late = isinstance(error, httpx.TimeoutException) and time.monotonic() >= deadline
                if (watchdog.fired.is_set() or late) and not isinstance(error, ResponseTooSlow):
                    raise _too_slow(request, timeout) from error
                raise
            finally:
                set_deadline(outer_deadline)
                request.extensions.pop("trace", None)
                if user_trace is not None:
                    request.extensions["trace"] = user_trace
        retry_at = self.slots.release(ticket, status, headers)
        return self._drive(core.respond(request, ready, inner, body, retry_at, started, waited))

    def close(self) -> None:
        if self._own_robots and self.robots is not None:
            self.robots.close()
        self.inner.close()


# --------------------------------------------------------------------------------------
# Async


class AsyncPacedTransport(httpx.AsyncBaseTransport):
    """The async :class:`PacedTransport`."""

    def __init__(self, inner: httpx.AsyncBaseTransport, slots: AsyncSlots) -> None:
        self.inner = inner
        self.slots = slots
        self.address_screen = slots.core.screen

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        url = str(request.url)
        ticket, _ = await self.slots.acquire(url, host_key(url))
        try:
            response = await self.inner.handle_async_request(request)
        except BaseException as error:
            await self.slots.release(ticket, None, None, error)
            raise
        assert isinstance(response.stream, httpx.AsyncByteStream)
        release = partial(self.slots.release, ticket, response.status_code, response.headers)
        return with_stream(response, AsyncReleasingStream(response.stream, release))

    async def aclose(self) -> None:
        """The inner transport belongs to the polite transport, which closes it."""


class AsyncPoliteTransport(_PoliteBase, httpx.AsyncBaseTransport):
    """The async :class:`PoliteTransport`: same checks, same core; the total time
    of a response is enforced by ``asyncio.wait_for``."""

    __doc__ = (__doc__ or "") + _CORE_DOC

    def __init__(
        self,
        inner: httpx.AsyncBaseTransport | None = None,
        *,
        identity: Identity | None = None,
        policy: PacingPolicy | None = None,
        pacer: Pacer | None = None,
        limits: FetchLimits | None = None,
        addresses: AddressPolicy | None = None,
        allow_private: bool = False,
        robots: AsyncRobotsChecker | None = None,
        robots_options: RobotsOptions | None = None,
        check_robots: bool = True,
        guard: GuardHook | None = None,
        scope: ScopeHook | None = None,
        validators: ValidatorStore | None = None,
        clock: Clock = system_clock,
        resolver: AsyncResolver | None = None,
        parse_html: bool = True,
        read_text: bool = False,
        shared: SharedPoliteness | None = None,
    ) -> None:
        settings = PoliteSettings.from_arguments(locals())
        self.core = PolitenessCore(settings)
        self.inner = inner if inner is not None else AsyncPerHostTransport()
        guard_connections(self.inner)
        self.slots = AsyncSlots(self.core) if shared is None else shared.async_slots(self.core)
        self.robots_transport = AsyncPacedTransport(self.inner, self.slots)
        self._own_robots = robots is None and check_robots
        self.robots = robots
        if self._own_robots:
            checker = AsyncRobotsChecker if shared is None else shared.async_robots_checker
            self.robots = checker(
                settings.identity,
                options=settings.robots_options,
                transport=self.robots_transport,
                clock=clock,
            )

    async def _drive(self, steps: Generator[Step, object, _T]) -> _T:
        """Carry out what a core coroutine asks for, on the event loop."""
        answer: object = None
        try:
            while True:
                step = steps.send(answer)
                if isinstance(step, Resolve):
                    answer = await self.core.screen.aresolve(step.host, step.port)
                elif isinstance(step, Robots):
                    assert self.robots is not None
                    answer = await self.robots.check(step.url)
                elif isinstance(step, Parse):
                    big = len(step.html) > OFF_LOOP
                    answer = await asyncio.to_thread(step.run) if big else step.run()
                else:
                    await asyncio.sleep(step.seconds)
                    answer = None
        except StopIteration as done:
            result: _T = done.value
            return result

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        core = self.core
        ready: Cleared = await self._drive(core.before(request, self.robots is not None))
        ticket, waited = await self.slots.acquire(ready.url, ready.key)
        started = core.clock()
        timeout = core.limits.response_timeout
        core.deadline_timeouts(request, timeout)
        received: list[httpx.Response] = []
        bodies: list[CappedBody] = []

        async def fetch() -> None:
            inner = await self.inner.handle_async_request(request)
            received.append(inner)
            try:
                encoding = inner.headers.get_list("content-encoding")
                body = CappedBody(encoding, core.limits.max_body_bytes, request)
                bodies.append(body)
                assert isinstance(inner.stream, httpx.AsyncByteStream)
                async for chunk in inner.stream:
                    if not body.feed(chunk):
                        break
            finally:
                await inner.aclose()

        judge = core.screen.policy.peer_judge(ready.url, ready.chain, ready.is_hop)
        try:
            with peer_check(judge):
                await asyncio.wait_for(fetch(), timeout)
        except BaseException as error:
            answered = bool(received) and isinstance(error, httpx.DecodingError)
            status = received[0].status_code if answered else None
            answer = received[0].headers if answered else None
            await self.slots.release(ticket, status, answer, error)
            if isinstance(error, asyncio.TimeoutError):
                raise _too_slow(request, timeout) from None
            raise
        inner, body = received[0], bodies[0]
        retry_at = await self.slots.release(ticket, inner.status_code, inner.headers)
        responding = core.respond(request, ready, inner, body, retry_at, started, waited)
        return await self._drive(responding)

    async def aclose(self) -> None:
        if self._own_robots and self.robots is not None:
            await self.robots.aclose()
        await self.inner.aclose()
