"""The one handle on a crawl's shared state that a user passes around.

``SharedState.connect(url, crawl_id)`` checks the Redis at once (one clear
:class:`~robotkit.shared.connection.SharedStateUnavailable` when it cannot be
reached) and makes what the transports and the crawler need on that crawl's
namespace: pacers, robots.txt checkers and slots, sync and async. A polite
transport given ``shared=state`` takes its slots and its robots checker from here
(ARCHITECTURE.md, "Shared state").

redis-py's asyncio clients are bound to the event loop of their first call, so
:meth:`SharedState.async_client` keeps one per loop; the async pacers and checkers
ask it for the running loop's client at each call, and may therefore be built
before any loop runs.
"""

from __future__ import annotations

import asyncio
import re
import threading
import weakref
from typing import Any

import redis.cluster

from robotkit.base.identity import Identity
from robotkit.http.core import PolitenessCore
from robotkit.pacing.pacer import Pacer
from robotkit.shared.checker import AsyncSharedRobotsChecker, SharedRobotsChecker
from robotkit.shared.connection import (
    AsyncClient,
    Namespace,
    SyncClient,
    async_client,
    connect,
    talking_to,
)
from robotkit.shared.pacing import DEFAULT_LEASE, AsyncSharedPacer, FinishCarry, SharedPacer
from robotkit.shared.slots import SharedAsyncSlots, SharedSyncSlots
from robotkit.url.redact import masked

__all__ = ["CLEAR_BATCH", "SharedState"]

CLEAR_BATCH = 500
"""Keys asked for per SCAN and removed per DEL by :meth:`SharedState.clear`: a
crawl's keys go without blocking Redis for long on one command."""


class SharedState:
    """A crawl's politeness state in Redis: ``url``, ``namespace`` (the crawl
    id's key prefix), the sync ``client`` (of one server or of a cluster: the async
    clients follow it) and the pacers' in-flight ``lease`` (seconds a dead worker's
    reservation holds its host)."""

    def __init__(
        self,
        url: str,
        namespace: Namespace,
        client: SyncClient,
        *,
        lease: float | None = None,
    ) -> None:
        self.url = url
        self.namespace = namespace
        self.client = client
        self.cluster = isinstance(client, redis.cluster.RedisCluster)
        self.lease = DEFAULT_LEASE if lease is None else lease
        if self.lease <= 0:
            raise ValueError("lease must be > 0")
        self.finishes = FinishCarry()
        """The async pacers' finishes, carried on a shared crawl's round trips when
        the crawl turns it on (one crawl, one event loop)."""
        self._loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, AsyncClient]
        self._loops = weakref.WeakKeyDictionary()
        self._loops_lock = threading.Lock()

    def __repr__(self) -> str:
        """The URL with its password masked: a repr ends up in logs and tracebacks."""
        return f"SharedState({masked(self.url)!r}, crawl_id={self.namespace.crawl_id!r})"

    @classmethod
    def connect(
        cls, url: str, crawl_id: str = "default", *, lease: float | None = None
    ) -> SharedState:
        """The state of crawl ``crawl_id`` on the Redis at ``url``, checked with a
        PING: an unreachable Redis raises ``SharedStateUnavailable`` now, in one
        line, rather than at the first request."""
        return cls(url, Namespace(crawl_id), connect(url), lease=lease)

    def async_client(self) -> AsyncClient:
        """The asyncio client of the running event loop (made at its first use,
        with :func:`~robotkit.shared.connection.connect`'s timeouts and retries)."""
        loop = asyncio.get_running_loop()
        with self._loops_lock:
            client = self._loops.get(loop)
            if client is None:
                client = self._loops[loop] = async_client(self.url, cluster=self.cluster)
            return client

    # -- what the transports and the crawler are made of ------------------------

    def pacer(self, pacer: Pacer) -> SharedPacer:
        return SharedPacer(pacer, self.client, self.namespace, lease=self.lease)

    def async_pacer(self, pacer: Pacer) -> AsyncSharedPacer:
        return AsyncSharedPacer(
            pacer, self.async_client, self.namespace, lease=self.lease, carry=self.finishes
        )

    def robots_checker(
        self, identity: Identity | None = None, **options: Any
    ) -> SharedRobotsChecker:
        """A :class:`SharedRobotsChecker` on this crawl; ``options`` are its own
        keywords (``options``, ``http_client``, ``transport``, ``clock``,
        ``wait_timeout``)."""
        return SharedRobotsChecker(self.client, self.namespace, identity, **options)

    def async_robots_checker(
        self, identity: Identity | None = None, **options: Any
    ) -> AsyncSharedRobotsChecker:
        """An :class:`AsyncSharedRobotsChecker` on this crawl, over the running
        loop's client at each call; ``options`` as :meth:`robots_checker`'s."""
        return AsyncSharedRobotsChecker(self.async_client, self.namespace, identity, **options)

    def sync_slots(self, core: PolitenessCore) -> SharedSyncSlots:
        """A sync transport's slots, over its core's in-process pacer."""
        return SharedSyncSlots(core, self.pacer(core.pacer))

    def async_slots(self, core: PolitenessCore) -> SharedAsyncSlots:
        """An async transport's slots, over its core's in-process pacer."""
        return SharedAsyncSlots(core, self.async_pacer(core.pacer))

    # -- housekeeping ------------------------------------------------------------

    def clear(self) -> int:
        """Remove every key of this crawl (and no other crawl's); returns how many.
        For a crawl that is over: workers still running would lose their state."""
        pattern = _glob_escape(self.namespace.key("")) + "*"
        removed = 0
        with talking_to(pattern):
            batch: list[bytes] = []
            for key in self.client.scan_iter(match=pattern, count=CLEAR_BATCH):
                batch.append(key)
                if len(batch) >= CLEAR_BATCH:
                    removed += int(self.client.delete(*batch))
                    batch = []
            if batch:
                removed += int(self.client.delete(*batch))
        return removed

    def close(self) -> None:
        """Close the sync client; asyncio clients of loops that are gone are
        dropped (their connections died with their loop)."""
        self.client.close()
        with self._loops_lock:
            self._loops.clear()

    async def aclose(self) -> None:
        """Close the running loop's asyncio client (the sync one stays open)."""
        with self._loops_lock:
            client = self._loops.pop(asyncio.get_running_loop(), None)
        if client is not None:
            await client.aclose()

    def __enter__(self) -> SharedState:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _glob_escape(text: str) -> str:
    """``text`` matched literally by a Redis glob pattern (a crawl id may hold
    ``*``, ``?`` or brackets)."""
    return re.sub(r"([\\*?\[\]])", r"\\\1", text)
