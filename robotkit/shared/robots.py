"""A robots.txt checker whose cache is shared by every worker of a crawl, on Redis.

Each origin's state (:class:`~robotkit.robots.cache.OriginState`, encoded by
:mod:`robotkit.shared.robots_codec`) is stored under the crawl's namespace and
expires when robotkit's own cache would drop it (:func:`robotkit.robots.cache.keep_until`:
the lifetime computed from the response, or longer when a stale copy is still
useful). A worker that finds no fresh state takes the origin's lock (``SET NX PX``,
in the same script that read the state) and fetches; the others wait for the state
it publishes. So all workers together fetch each robots.txt once per lifetime, as
RFC 9309 section 2.4's caching intends, and a deferral (429, 5xx, unreachable)
holds every worker until its retry time.

The fetch itself, the engine's decisions and the in-process cache are those of
:class:`~robotkit.http.robots.RobotsChecker`, which this class extends: a verdict
is the same as a lone checker's. A worker never decides without a state: when
Redis is unreachable, or the lock's holder publishes nothing before
``wait_timeout``, :meth:`SharedRobotsChecker.check` raises (never "allow").

Round trips: none while the in-process copy is fresh; one to read a state another
worker published (a script that reads it, or takes the lock when it is missing or
stale, atomically); two to fetch (that script, then publish-and-unlock).
"""

from __future__ import annotations

import time
import uuid

import httpx
import redis

from robotkit.clock import Clock, system_clock
from robotkit.http.robots import DEFAULT_OPTIONS, RobotsChecker
from robotkit.http.settings import RobotsOptions
from robotkit.identity import Identity
from robotkit.robots.cache import OriginState, keep_until
from robotkit.robots.engine import FetchNeeded
from robotkit.robots.status import Profile
from robotkit.robots.verdict import Verdict
from robotkit.shared.connection import (
    Namespace,
    SharedStateTimeout,
    SharedStateUnavailable,
    talking_to,
)
from robotkit.shared.robots_codec import StateFormatError, decode_state, encode_state
from robotkit.urls import Origin

__all__ = ["LOCK_MARGIN", "POLL_INTERVAL", "SharedRobotsChecker"]

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


class SharedRobotsChecker(RobotsChecker):
    """:class:`~robotkit.http.robots.RobotsChecker` with its cache in Redis too.

    ``wait_timeout`` bounds how long :meth:`check` waits for another worker's fetch
    (by default twice the lock's life, so a dead holder's lock has expired and
    been taken over in the meantime). Thread-safe like its parent.
    """

    def __init__(
        self,
        client: redis.Redis,
        namespace: Namespace,
        identity: Identity | None = None,
        *,
        options: RobotsOptions = DEFAULT_OPTIONS,
        http_client: httpx.Client | None = None,
        transport: httpx.BaseTransport | None = None,
        clock: Clock = system_clock,
        wait_timeout: float | None = None,
    ) -> None:
        super().__init__(
            identity, options=options, client=http_client, transport=transport, clock=clock
        )
        self.engine.keep_text = True
        self.redis = client
        self.namespace = namespace
        self.lock_ttl = options.deadline + LOCK_MARGIN
        self.wait_timeout = 2 * self.lock_ttl if wait_timeout is None else wait_timeout
        self._claim = client.register_script(_CLAIM)
        self._publish = client.register_script(_PUBLISH)
        self._unlock = client.register_script(_UNLOCK)
        self.shared_reads = 0
        """States read from Redis and found fresh (another worker's fetch)."""

    def state_key(self, origin: Origin) -> str:
        return self.namespace.key("robots", str(origin))

    def lock_key(self, origin: Origin) -> str:
        return self.namespace.key("robots-lock", str(origin))

    def check(self, url: str) -> Verdict:
        """The verdict for ``url``: from the in-process cache, the shared one, or a
        fetch that this worker alone makes for all of them."""
        token = self.product_token
        now = self.clock()
        with self._lock:
            event = self.engine.lookup(url, now)
        if isinstance(event, Verdict):
            return event
        if isinstance(event, OriginState):
            return self.engine.decide(url, event, token, now)
        state = self._shared(url, event)
        return self.engine.decide(url, state, token, self.clock())

    def _shared(self, url: str, event: FetchNeeded) -> OriginState:
        origin = event.origin
        keys = [self.state_key(origin), self.lock_key(origin)]
        give_up = time.monotonic() + self.wait_timeout
        trust_stored = True
        while True:
            owner = uuid.uuid4().hex
            now = self.clock()
            args = [repr(now), owner, str(_ms(self.lock_ttl)), "1" if trust_stored else "0"]
            with talking_to(keys[0]):
                text, locked = self._claim(keys=keys, args=args)
            stored = self._decoded(text)
            if text is not None and stored is None and trust_stored:
                trust_stored = False  # another version's entry: fetch ours over it
                continue
            if stored is not None:
                self._adopt(origin, stored, now)
                if not locked and stored.is_fresh(now):
                    self.shared_reads += 1
                    return stored
            if locked:
                return self._fetch_and_publish(url, origin, owner)
            if time.monotonic() >= give_up:
                raise SharedStateTimeout(
                    f"robots.txt of {origin} is being fetched by another worker, "
                    f"and no state came within {self.wait_timeout:g} s"
                )
            time.sleep(POLL_INTERVAL)

    @staticmethod
    def _decoded(text: bytes | None) -> OriginState | None:
        if text is None:
            return None
        try:
            return decode_state(text)
        except StateFormatError:
            return None

    def _adopt(self, origin: Origin, stored: OriginState, now: float) -> None:
        """Keep a shared state in the in-process cache when it is newer than ours:
        fresh, it answers; stale, it is the basis of the next fetch (validators
        for a conditional GET, the unreachable streak)."""
        with self._lock:
            mine = self.engine.state(origin, now)
            if mine is None or mine.fetched_at < stored.fetched_at:
                self.engine.cache.put(origin, stored, now)

    def _fetch_and_publish(self, url: str, origin: Origin, owner: str) -> OriginState:
        state_key, lock_key = self.state_key(origin), self.lock_key(origin)
        try:
            super().check(url)  # the parent's fetch, in-process single flight
            now = self.clock()
            with self._lock:
                state = self.engine.state(origin, now)
            if state is None:  # the cache dropped it at once: nothing to share
                raise SharedStateUnavailable(f"robots.txt of {origin} was fetched but not kept")
            keep = keep_until(state, keep_good_copies=self.options.profile is Profile.RFC9309)
            with talking_to(state_key):
                self._publish(
                    keys=[state_key, lock_key],
                    args=[
                        encode_state(state),
                        repr(state.expires_at),
                        _ms(max(keep - now, 1.0)),
                        owner,
                    ],
                )
            return state
        except BaseException:
            with talking_to(lock_key):
                self._unlock(keys=[lock_key], args=[owner])
            raise


def _ms(seconds: float) -> int:
    return max(1, int(seconds * 1000))
