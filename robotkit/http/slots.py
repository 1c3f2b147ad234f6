"""Waiting for a host's pacing slot, and giving it back when the body is done.

The pacer (:mod:`robotkit.pacing.pacer`) says when a host may have its next request; the
waiters here do the waiting, thread-safe for the sync face and on the event loop
for the async one. A slot is given back when its response stream is closed, once,
however often it is closed: only then has the response ended, and the host's gap
is measured from that end.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Protocol

import httpx

from robotkit.base.clock import Clock
from robotkit.base.identity import Identity
from robotkit.base.outcome import Outcome
from robotkit.http.checker import AsyncRobotsChecker, RobotsChecker
from robotkit.http.core import PolitenessCore
from robotkit.http.settings import RobotsOptions
from robotkit.pacing.pacer import HostKey, Ticket


class SyncSlots:
    """Waits for pacing slots with a condition variable: thread-safe.

    :meth:`grant` and :meth:`finish` are where a shared pacer joins in
    (``robotkit.shared``): the in-process pacer's decisions stay here."""

    def __init__(self, core: PolitenessCore) -> None:
        self.core = core
        self.cond = threading.Condition()

    def acquire(self, url: str, key: HostKey) -> tuple[Ticket, float]:
        begun = time.monotonic()
        with self.cond:
            while True:
                wait = self.core.slot_wait(url, key)
                if wait == 0.0:
                    granted = self.grant(url, key)
                    if isinstance(granted, Ticket):
                        return granted, time.monotonic() - begun
                    wait = granted
                self.cond.wait(timeout=wait)

    def grant(self, url: str, key: HostKey) -> Ticket | float:
        """The slot the in-process pacer says is free now (called holding the
        condition), or seconds to wait before asking again."""
        return self.core.pacer.start(key)

    def release(
        self,
        ticket: Ticket,
        status: int | None,
        headers: httpx.Headers | None,
        error: BaseException | None = None,
    ) -> float | None:
        outcome, retry_at = self.core.ending(status, headers, error)
        self.finish(ticket, outcome, retry_at)
        return retry_at

    def finish(self, ticket: Ticket, outcome: Outcome | None, retry_at: float | None) -> None:
        with self.cond:
            self.core.pacer.finish(ticket, outcome, retry_at)
            self.cond.notify_all()


class AsyncSlots:
    """Waits for pacing slots on the event loop. Waiting for one host never holds up
    another: a waiter sleeps until its host's time, or, when its host (or the
    global in-flight limit) is full, until that host (or any host) frees a slot;
    a release wakes only those waiters. :meth:`grant` and :meth:`finish` are where
    a shared pacer joins in."""

    def __init__(self, core: PolitenessCore) -> None:
        self.core = core
        self._freed: dict[HostKey | None, asyncio.Event] = {}

    async def acquire(self, url: str, key: HostKey) -> tuple[Ticket, float]:
        begun = time.monotonic()
        core = self.core
        while True:
            wait = core.slot_wait(url, key)
            if wait == 0.0:
                granted = await self.grant(url, key)
                if isinstance(granted, Ticket):
                    return granted, time.monotonic() - begun
                wait = granted
            if wait is not None:
                await asyncio.sleep(wait)
                continue
            host_full = core.pacer.state(key).in_flight >= core.pacer.policy.per_host_concurrency
            which = key if host_full else None
            event = self._freed.get(which)
            if event is None:
                event = self._freed[which] = asyncio.Event()
            await event.wait()

    async def grant(self, url: str, key: HostKey) -> Ticket | float:
        """The slot the in-process pacer says is free now, or seconds to wait."""
        return self.core.pacer.start(key)

    async def release(
        self,
        ticket: Ticket,
        status: int | None,
        headers: httpx.Headers | None,
        error: BaseException | None = None,
    ) -> float | None:
        outcome, retry_at = self.core.ending(status, headers, error)
        await self.finish(ticket, outcome, retry_at)
        return retry_at

    async def finish(self, ticket: Ticket, outcome: Outcome | None, retry_at: float | None) -> None:
        self.core.pacer.finish(ticket, outcome, retry_at)
        self.wake(ticket.host)

    def wake(self, host: HostKey) -> None:
        """Wake the waiters for ``host``'s slot and for any slot."""
        for which in (host, None):
            event = self._freed.pop(which, None)
            if event is not None:
                event.set()


class SharedPoliteness(Protocol):
    """What a polite transport asks of a state shared with other workers
    (``robotkit.shared.SharedState``, ARCHITECTURE.md "Shared state"): slots that
    also reserve the host for all workers, and a robots.txt checker whose cache
    they all share. A protocol, so the shell never imports Redis."""

    def sync_slots(self, core: PolitenessCore) -> SyncSlots: ...

    def async_slots(self, core: PolitenessCore) -> AsyncSlots: ...

    def robots_checker(
        self,
        identity: Identity | None = None,
        *,
        options: RobotsOptions = ...,
        transport: httpx.BaseTransport | None = None,
        clock: Clock = ...,
    ) -> RobotsChecker: ...

    def async_robots_checker(
        self,
        identity: Identity | None = None,
        *,
        options: RobotsOptions = ...,
        transport: httpx.AsyncBaseTransport | None = None,
        clock: Clock = ...,
    ) -> AsyncRobotsChecker: ...


class ReleasingStream(httpx.SyncByteStream):
    """Gives a pacing slot back exactly once, however often the stream is closed."""

    def __init__(self, inner: httpx.SyncByteStream, release: Callable[[], object]) -> None:
        self.inner = inner
        self.release: Callable[[], object] | None = release

    def release_once(self) -> None:
        if self.release is not None:
            release, self.release = self.release, None
            release()

    def __iter__(self) -> Iterator[bytes]:
        yield from self.inner

    def close(self) -> None:
        try:
            self.inner.close()
        finally:
            self.release_once()


class AsyncReleasingStream(httpx.AsyncByteStream):
    """:class:`ReleasingStream` whose release is awaited (a shared pacer's is a
    Redis call)."""

    def __init__(
        self, inner: httpx.AsyncByteStream, release: Callable[[], Awaitable[object]]
    ) -> None:
        self.inner = inner
        self.release: Callable[[], Awaitable[object]] | None = release

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self.inner:
            yield chunk

    async def aclose(self) -> None:
        try:
            await self.inner.aclose()
        finally:
            if self.release is not None:
                release, self.release = self.release, None
                await release()


def with_stream(
    response: httpx.Response, stream: httpx.SyncByteStream | httpx.AsyncByteStream
) -> httpx.Response:
    """``response`` with its body read from ``stream`` instead."""
    return httpx.Response(
        response.status_code,
        headers=response.headers,
        stream=stream,
        extensions=response.extensions,
    )
