"""What we know about each origin's robots.txt, and the bounded store that keeps it.

RFC 9309 section 2.3 scopes a robots.txt to one origin (scheme, host, port), so
that is the key. An entry outlives its freshness: a stale copy with a validator is
kept to be revalidated by a conditional GET (RFC 9309 section 2.4 allows standard
HTTP caching), and a good copy is kept through 30 days of an unreachable server
(RFC 9309 section 2.3.1.4). cachetools' TLRU cache bounds the number of entries
and retires each one when even that use is over.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from cachetools import TLRUCache

from robotkit.robots.freshness import Validators
from robotkit.robots.rules import RobotsRules
from robotkit.robots.status import UNREACHABLE_GRACE, Hop, RobotsOutcome
from robotkit.url.parse import Origin

DEFAULT_CACHE_SIZE = 10_000
"""Origins remembered at once; the least recently used goes first."""

RETAIN = UNREACHABLE_GRACE + 86_400.0
"""How long a stale entry that may still serve is kept past its freshness."""


@dataclass(frozen=True)
class OriginState:
    """The robots.txt answer of one origin, as of ``fetched_at``.

    ``expires_at`` is the end of freshness for a copy, the retry time for a
    deferral. During an unreachable streak ``unreachable_since`` holds the time of
    the first failure and ``last_good`` the last copy the server gave us.
    """

    robots_url: str
    outcome: RobotsOutcome
    status: int | None
    fetched_at: float
    expires_at: float
    origin: Origin | None = None  # None for a local file applied to every origin
    rules: RobotsRules | None = None
    final_url: str | None = None
    redirects: tuple[Hop, ...] = ()
    validators: Validators | None = None
    failures: int = 0
    unreachable_since: float | None = None
    last_good: OriginState | None = None
    detail: str = ""

    def is_fresh(self, now: float) -> bool:
        return now < self.expires_at

    @property
    def unreachable(self) -> bool:
        return self.unreachable_since is not None

    def good_copy(self) -> OriginState | None:
        """The last answer the server itself gave (rules, allow-all or deny-all)."""
        return self.last_good if self.unreachable else self

    def renewed(self, now: float, expires_at: float, validators: Validators | None) -> OriginState:
        """This copy, confirmed unchanged by a 304 (RFC 9111 section 4.3.4)."""
        return replace(
            self,
            fetched_at=now,
            expires_at=expires_at,
            validators=validators,
            failures=0,
            unreachable_since=None,
            last_good=None,
            detail="revalidated (304 Not Modified)",
        )


def keep_until(state: OriginState, *, keep_good_copies: bool) -> float:
    """When an entry stops being useful at all. A fresh-only entry goes at the
    end of its freshness; one that can be revalidated, carries a backoff streak,
    or (rfc9309, ``keep_good_copies``) is a good copy, is kept :data:`RETAIN`
    longer. The in-process cache and a shared one expire entries by this rule."""
    useful_stale = (
        state.validators is not None
        or state.unreachable
        or state.outcome is RobotsOutcome.DEFERRED
        or keep_good_copies
    )
    return state.expires_at + (RETAIN if useful_stale else 0.0)


class _Now:
    """The cache's timer: the time of the current call, set by the caller, so the
    cache reads no clock of its own."""

    def __init__(self) -> None:
        self.value = 0.0

    def __call__(self) -> float:
        return self.value


class RobotsCache:
    """A bounded map from origin to :class:`OriginState` (not thread-safe: the
    sync shell serializes calls with a lock; the async shell runs on one loop)."""

    def __init__(
        self, maxsize: int = DEFAULT_CACHE_SIZE, *, keep_good_copies: bool = False
    ) -> None:
        self._now = _Now()
        self._keep_good = keep_good_copies
        self._entries: TLRUCache[Origin, OriginState] = TLRUCache(
            maxsize, ttu=self._ttu, timer=self._now
        )
        self.front: dict[str, OriginState] = {}
        """``scheme://authority`` as written in a URL -> its origin's state, for
        states that were fresh when remembered: read directly on the hot path
        (one dict probe and a float comparison with ``expires_at``, where the TLRU
        lookup costs several Python calls and the origin key a parse and a hash).
        Written only through :meth:`remember`; emptied whenever an entry changes
        (:meth:`put`, :meth:`pop`, :meth:`clear`), so it never serves a replaced
        state. Every prefix in it was looked up in the TLRU since the last
        change, so the LRU order the next eviction sees is only coarsened:
        origins used since the last change are still kept before the others."""

    def _ttu(self, _key: Origin, state: OriginState, _now: float) -> float:
        return keep_until(state, keep_good_copies=self._keep_good)

    def get(self, origin: Origin, now: float) -> OriginState | None:
        self._now.value = now
        try:  # one lookup (``.get`` would test membership first): the hot path
            return self._entries[origin]
        except KeyError:
            return None

    def put(self, origin: Origin, state: OriginState, now: float) -> None:
        self.front.clear()
        self._now.value = now
        self._entries[origin] = state

    def pop(self, origin: Origin) -> OriginState | None:
        self.front.clear()
        return self._entries.pop(origin, None)

    def remember(self, prefix: str, state: OriginState) -> None:
        """Serve ``state`` from :attr:`front` for URLs that start with ``prefix``
        (their ``scheme://authority``) while it is fresh. Bounded like the cache:
        a crawl spelling one origin in ever new ways (user info, case) empties it."""
        front = self.front
        if len(front) >= self._entries.maxsize:
            front.clear()
        front[prefix] = state

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        self.front.clear()
        self._entries.clear()
