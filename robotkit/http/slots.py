"""Waiting for a host's pacing slot, and giving it back when the body is done.

The pacer (:mod:`robotkit.pacing`) says when a host may have its next request; the
waiters here do the waiting, thread-safe for the sync face and on the event loop
for the async one. A slot is given back when its response stream is closed, once,
however often it is closed: only then has the response ended, and the host's gap
is measured from that end.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator

import httpx

from robotkit.http.core import PolitenessCore
from robotkit.pacing import HostKey, Ticket


class SyncSlots:
    """Waits for pacing slots with a condition variable: thread-safe."""

    def __init__(self, core: PolitenessCore) -> None:
        self.core = core
        self.cond = threading.Condition()

    def acquire(self, url: str, key: HostKey) -> tuple[Ticket, float]:
        begun = time.monotonic()
        with self.cond:
            while True:
                wait = self.core.slot_wait(url, key)
                if wait == 0.0:
                    return self.core.pacer.start(key), time.monotonic() - begun
                self.cond.wait(timeout=wait)

    def release(
        self,
        ticket: Ticket,
        status: int | None,
        headers: httpx.Headers | None,
        error: BaseException | None = None,
    ) -> float | None:
        with self.cond:
            retry_at = self.core.ended(ticket, status, headers, error)
            self.cond.notify_all()
        return retry_at


class AsyncSlots:
    """Waits for pacing slots on the event loop. Waiting for one host never holds up
    another: a waiter sleeps until its host's time, or, when its host (or the
    global in-flight limit) is full, until that host (or any host) frees a slot;
    a release wakes only those waiters."""

    def __init__(self, core: PolitenessCore) -> None:
        self.core = core
        self._freed: dict[HostKey | None, asyncio.Event] = {}

    async def acquire(self, url: str, key: HostKey) -> tuple[Ticket, float]:
        begun = time.monotonic()
        core = self.core
        while True:
            wait = core.slot_wait(url, key)
            if wait == 0.0:
                return core.pacer.start(key), time.monotonic() - begun
            if wait is not None:
                await asyncio.sleep(wait)
                continue
            host_full = core.pacer.state(key).in_flight >= core.pacer.policy.per_host_concurrency
            which = key if host_full else None
            event = self._freed.get(which)
            if event is None:
                event = self._freed[which] = asyncio.Event()
            await event.wait()

    def release(
        self,
        ticket: Ticket,
        status: int | None,
        headers: httpx.Headers | None,
        error: BaseException | None = None,
    ) -> float | None:
        retry_at = self.core.ended(ticket, status, headers, error)
        for which in (ticket.host, None):
            event = self._freed.pop(which, None)
            if event is not None:
                event.set()
        return retry_at


class ReleaseOnce:
    """Gives a pacing slot back exactly once, however often a stream is closed."""

    def __init__(self, release: Callable[[], object]) -> None:
        self.release: Callable[[], object] | None = release

    def release_once(self) -> None:
        if self.release is not None:
            release, self.release = self.release, None
            release()


class ReleasingStream(ReleaseOnce, httpx.SyncByteStream):
    def __init__(self, inner: httpx.SyncByteStream, release: Callable[[], object]) -> None:
        super().__init__(release)
        self.inner = inner

    def __iter__(self) -> Iterator[bytes]:
        yield from self.inner

    def close(self) -> None:
        try:
            self.inner.close()
        finally:
            self.release_once()


class AsyncReleasingStream(ReleaseOnce, httpx.AsyncByteStream):
    def __init__(self, inner: httpx.AsyncByteStream, release: Callable[[], object]) -> None:
        super().__init__(release)
        self.inner = inner

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self.inner:
            yield chunk

    async def aclose(self) -> None:
        try:
            await self.inner.aclose()
        finally:
            self.release_once()


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
