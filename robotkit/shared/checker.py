"""A robots.txt checker whose cache is shared by every worker of a crawl, on Redis.

Each origin's state (:class:`~robotkit.robots.cache.OriginState`, encoded by
:mod:`robotkit.shared.codec`) is stored under the crawl's namespace and
expires when robotkit's own cache would drop it (:func:`robotkit.robots.cache.keep_until`:
the lifetime computed from the response, or longer when a stale copy is still
useful). A worker that finds no fresh state takes the origin's lock (``SET NX PX``,
in the same script that read the state) and fetches; the others wait for the state
it publishes. So all workers together fetch each robots.txt once per lifetime, as
RFC 9309 section 2.4's caching intends, and a deferral (429, 5xx, unreachable)
holds every worker until its retry time.

The fetch itself, the engine's decisions and the in-process cache are those of
:class:`~robotkit.http.checker.RobotsChecker`, which this class extends: a verdict
is the same as a lone checker's. A worker never decides without a state: when
Redis is unreachable, or the lock's holder publishes nothing before
``wait_timeout``, :meth:`SharedRobotsChecker.check` raises (never "allow").

:class:`AsyncSharedRobotsChecker` is the same over
:class:`~robotkit.http.checker.AsyncRobotsChecker`: both plan their scripts and read
the answers with the same pure code (:class:`Claiming`), and differ only in how a
script is called and how they wait.

A fetcher of its own (the Scrapy add-on fetches through Scrapy's engine) runs the
same claim with :class:`SharedRobotsCache` over its engine and :func:`claim_async`.

Round trips: none while the in-process copy is fresh; one to read a state another
worker published (a script that reads it, or takes the lock when it is missing or
stale, atomically); two to fetch (that script, then publish-and-unlock).
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import httpx

from robotkit.base.clock import Clock, system_clock
from robotkit.base.identity import Identity
from robotkit.http.checker import DEFAULT_OPTIONS, AsyncRobotsChecker, RobotsChecker
from robotkit.http.settings import RobotsOptions
from robotkit.robots.cache import OriginState, keep_until
from robotkit.robots.engine import FetchNeeded, RobotsEngine
from robotkit.robots.status import Profile
from robotkit.robots.verdict import Verdict
from robotkit.shared.codec import StateFormatError, decode_state, encode_state
from robotkit.shared.connection import (
    AsyncClientSource,
    AsyncScripts,
    Namespace,
    ScriptCall,
    Scripts,
    SharedStateTimeout,
    SharedStateUnavailable,
    SyncClient,
)
from robotkit.url.parse import Origin

__all__ = [
    "LOCK_MARGIN",
    "POLL_INTERVAL",
    "AsyncSharedRobotsChecker",
    "Claiming",
    "Next",
    "SharedRobotsCache",
    "SharedRobotsChecker",
    "claim_async",
]

LOCK_MARGIN = 30.0
"""Seconds a fetch lock outlives the fetch's own deadline: room for a pacing wait
before the GET. A lock whose holder died frees itself after that."""

POLL_INTERVAL = 0.05
"""Seconds between two reads of a state another worker is fetching."""

# One origin's shared state is a hash: ``state`` (the JSON) and ``expires_at`` (the
# end of its freshness), so that Redis itself can tell a fresh state from a stale one.

# KEYS[1] state, KEYS[2] lock; ARGV now, lock token, lock ms, trust the stored state.
# Returns {state or nil, 1 if this caller now holds the lock}: a fresh state is
# returned without locking; otherwise the lock is tried, in the same atomic step,
# so no worker can fetch a state another has just published.
_CLAIM = """
local h = redis.call('HMGET', KEYS[1], 'expires_at', 'state')
if ARGV[4] == '1' and h[1] and tonumber(h[1]) > tonumber(ARGV[1]) then return {h[2], 0} end
local locked = redis.call('SET', KEYS[2], ARGV[2], 'NX', 'PX', ARGV[3])
return {h[2], locked and 1 or 0}
"""

# KEYS[1] state, KEYS[2] lock; ARGV state text, its end of freshness, its life in ms,
# lock token: store the state and free the lock if it is still ours.
_PUBLISH = """
redis.call('HSET', KEYS[1], 'state', ARGV[1], 'expires_at', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
if redis.call('GET', KEYS[2]) == ARGV[4] then redis.call('DEL', KEYS[2]) end
return 1
"""

# KEYS[1] lock; ARGV token: free the lock only if it is still ours.
_UNLOCK = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class Next(enum.Enum):
    """What a claim's answer asks of the checker when it brings no state to use."""

    AGAIN = "again"
    """Claim again at once (the stored entry was another version's: fetch over it)."""
    FETCH = "fetch"
    """This worker holds the lock: fetch, then publish."""
    WAIT = "wait"
    """Another worker is fetching: wait a poll interval, then claim again."""


class Claiming:
    """One checker's claims on an origin's shared state until it has one: the
    script to run next, and the reading of its answer. Pure but for the
    in-process cache it updates (``adopt``), so both faces share it."""

    def __init__(self, checker: _SharedRobots, origin: Origin) -> None:
        self.checker = checker
        self.origin = origin
        self.keys = (checker.state_key(origin), checker.lock_key(origin))
        self.give_up = time.monotonic() + checker.wait_timeout
        self.trust_stored = True
        self.owner = ""
        self.now = 0.0

    def call(self) -> ScriptCall:
        self.owner = uuid.uuid4().hex
        self.now = self.checker.clock()
        ttl = str(_ms(self.checker.lock_ttl))
        args = (repr(self.now), self.owner, ttl, "1" if self.trust_stored else "0")
        return ScriptCall(_CLAIM, self.keys, args)

    def answer(self, result: Sequence[Any]) -> OriginState | Next:
        """A fresh shared state, or what to do next; raises
        :class:`SharedStateTimeout` past the checker's ``wait_timeout``."""
        text, locked = result
        stored = _decoded(text)
        if text is not None and stored is None and self.trust_stored:
            self.trust_stored = False  # another version's entry: fetch ours over it
            return Next.AGAIN
        if stored is not None:
            self.checker.adopt(self.origin, stored, self.now)
            if not locked and stored.is_fresh(self.now):
                self.checker.shared_reads += 1
                return stored
        if locked:
            return Next.FETCH
        if time.monotonic() >= self.give_up:
            raise SharedStateTimeout(
                f"robots.txt of {self.origin} is being fetched by another worker, "
                f"and no state came within {self.checker.wait_timeout:g} s"
            )
        return Next.WAIT

    def publishing(self) -> tuple[OriginState, ScriptCall]:
        """The state this worker has just fetched (from its in-process cache), and
        the script that shares it and frees the lock."""
        checker = self.checker
        now = checker.clock()
        with checker.engine_lock():
            state = checker.engine.state(self.origin, now)
        if state is None:  # the cache dropped it at once: nothing to share
            raise SharedStateUnavailable(f"robots.txt of {self.origin} was fetched but not kept")
        keep = keep_until(state, keep_good_copies=checker.options.profile is Profile.RFC9309)
        life = str(_ms(max(keep - now, 1.0)))
        args = (encode_state(state), repr(state.expires_at), life, self.owner)
        return state, ScriptCall(_PUBLISH, self.keys, args)

    def unlocking(self) -> ScriptCall:
        return ScriptCall(_UNLOCK, self.keys[1:], (self.owner,))


class _SharedRobots:
    """What both shared checkers add to their parent: the keys, the lock's life,
    the in-process cache's use. Mixed in before the parent checker."""

    engine: RobotsEngine
    clock: Clock
    options: RobotsOptions
    identity: Identity

    def _share(self, namespace: Namespace, wait_timeout: float | None) -> None:
        self.engine.keep_text = True
        self.namespace = namespace
        self.lock_ttl = self.options.deadline + LOCK_MARGIN
        self.wait_timeout = 2 * self.lock_ttl if wait_timeout is None else wait_timeout
        self.shared_reads = 0
        """States read from Redis and found fresh (another worker's fetch)."""

    def state_key(self, origin: Origin) -> str:
        # The state and its lock share the origin's hash tag: one slot on a cluster.
        return self.namespace.host_key(str(origin), "robots")

    def lock_key(self, origin: Origin) -> str:
        return self.namespace.host_key(str(origin), "robots-lock")

    def engine_lock(self) -> contextlib.AbstractContextManager[object]:
        """The lock around the engine's cache (none on one event loop)."""
        return contextlib.nullcontext()

    def cached(self, url: str) -> Verdict | FetchNeeded:
        """The verdict from the in-process cache, or the fetch it lacks."""
        now = self.clock()
        with self.engine_lock():
            event = self.engine.lookup(url, now)
        if isinstance(event, OriginState):
            return self.engine.decide(url, event, self.identity.product_token, now)
        return event

    def decide(self, url: str, state: OriginState) -> Verdict:
        return self.engine.decide(url, state, self.identity.product_token, self.clock())

    def adopt(self, origin: Origin, stored: OriginState, now: float) -> None:
        """Keep a shared state in the in-process cache when it is newer than ours:
        fresh, it answers; stale, it is the basis of the next fetch (validators
        for a conditional GET, the unreachable streak)."""
        with self.engine_lock():
            mine = self.engine.state(origin, now)
            if mine is None or mine.fetched_at < stored.fetched_at:
                self.engine.cache.put(origin, stored, now)


class SharedRobotsCache(_SharedRobots):
    """The shared side of a robots.txt cache alone, over any engine: for a fetcher
    that is not robotkit's httpx checker (the Scrapy add-on fetches through
    Scrapy's engine). :class:`Claiming` plans its scripts and :func:`claim_async`
    runs them; ``options`` gives the profile and the fetch deadline (the lock's
    life), as for the checkers."""

    def __init__(
        self,
        engine: RobotsEngine,
        namespace: Namespace,
        *,
        options: RobotsOptions = DEFAULT_OPTIONS,
        clock: Clock = system_clock,
        wait_timeout: float | None = None,
    ) -> None:
        self.engine = engine
        self.options = options
        self.clock = clock
        self._share(namespace, wait_timeout)


class SharedRobotsChecker(_SharedRobots, RobotsChecker):
    """:class:`~robotkit.http.checker.RobotsChecker` with its cache in Redis too.

    ``wait_timeout`` bounds how long :meth:`check` waits for another worker's fetch
    (by default twice the lock's life, so a dead holder's lock has expired and
    been taken over in the meantime). Thread-safe like its parent.
    """

    def __init__(
        self,
        client: SyncClient,
        namespace: Namespace,
        identity: Identity | None = None,
        *,
        options: RobotsOptions = DEFAULT_OPTIONS,
        http_client: httpx.Client | None = None,
        transport: httpx.BaseTransport | None = None,
        clock: Clock = system_clock,
        wait_timeout: float | None = None,
    ) -> None:
        RobotsChecker.__init__(
            self, identity, options=options, client=http_client, transport=transport, clock=clock
        )
        self._share(namespace, wait_timeout)
        self.redis = client
        self.scripts = Scripts(client)

    def engine_lock(self) -> contextlib.AbstractContextManager[object]:
        return self._lock

    def check(self, url: str) -> Verdict:
        """The verdict for ``url``: from the in-process cache, the shared one, or a
        fetch that this worker alone makes for all of them."""
        known = self.cached(url)
        if isinstance(known, Verdict):
            return known
        return self.decide(url, self._shared(url, Claiming(self, known.origin)))

    def _shared(self, url: str, claiming: Claiming) -> OriginState:
        while True:
            answer = claiming.answer(self.scripts.run(claiming.call()))
            if isinstance(answer, OriginState):
                return answer
            if answer is Next.FETCH:
                return self._fetch_and_publish(url, claiming)
            if answer is Next.WAIT:
                time.sleep(POLL_INTERVAL)

    def _fetch_and_publish(self, url: str, claiming: Claiming) -> OriginState:
        try:
            RobotsChecker.check(self, url)  # the parent's fetch, in-process single flight
            state, publish = claiming.publishing()
            self.scripts.run(publish)
            return state
        except BaseException:
            self.scripts.run(claiming.unlocking())
            raise


class AsyncSharedRobotsChecker(_SharedRobots, AsyncRobotsChecker):
    """:class:`SharedRobotsChecker` for asyncio, over
    :class:`~robotkit.http.checker.AsyncRobotsChecker`. ``client`` is an asyncio
    client or a function giving the running loop's (``SharedState.async_client``)."""

    def __init__(
        self,
        client: AsyncClientSource,
        namespace: Namespace,
        identity: Identity | None = None,
        *,
        options: RobotsOptions = DEFAULT_OPTIONS,
        http_client: httpx.AsyncClient | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        clock: Clock = system_clock,
        wait_timeout: float | None = None,
    ) -> None:
        AsyncRobotsChecker.__init__(
            self, identity, options=options, client=http_client, transport=transport, clock=clock
        )
        self._share(namespace, wait_timeout)
        self.scripts = AsyncScripts(client)

    async def check(self, url: str) -> Verdict:
        """:meth:`SharedRobotsChecker.check`, awaited."""
        known = self.cached(url)
        if isinstance(known, Verdict):
            return known
        return self.decide(url, await self._shared(url, Claiming(self, known.origin)))

    async def _shared(self, url: str, claiming: Claiming) -> OriginState:
        async def fetch() -> None:
            await AsyncRobotsChecker.check(self, url)  # the parent's fetch, single flight

        return await claim_async(self.scripts, claiming, fetch)


async def claim_async(
    scripts: AsyncScripts, claiming: Claiming, fetch: Callable[[], Awaitable[object]]
) -> OriginState:
    """Run ``claiming`` until its origin has a state: a fresh one another worker
    published, or the one ``fetch`` puts in the engine's cache while this worker
    holds the lock (then published, and the lock freed; freed too when the fetch
    fails). Any async fetcher can use it: :class:`AsyncSharedRobotsChecker` fetches
    with httpx, the Scrapy add-on through Scrapy's engine."""
    while True:
        answer = claiming.answer(await scripts.run(claiming.call()))
        if isinstance(answer, OriginState):
            return answer
        if answer is Next.FETCH:
            try:
                await fetch()
                state, publish = claiming.publishing()
                await scripts.run(publish)
                return state
            except BaseException:
                await scripts.run(claiming.unlocking())
                raise
        if answer is Next.WAIT:
            await asyncio.sleep(POLL_INTERVAL)


def _decoded(text: bytes | None) -> OriginState | None:
    if text is None:
        return None
    try:
        return decode_state(text)
    except StateFormatError:
        return None


def _ms(seconds: float) -> int:
    return max(1, int(seconds * 1000))
