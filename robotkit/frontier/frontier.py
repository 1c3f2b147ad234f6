"""The frontier: which URL to fetch next, breadth-first and polite to every host.

Shape (as in Heritrix's per-host work queues and Mercator's back-end queues): one
FIFO queue per host (origin: scheme, host, port; RFC 9309 section 2.3 and pacing
both work per origin), split by tier and depth (:mod:`robotkit.frontier.hosts`). A
host is *sleeping* until its owner of readiness says it may be fetched again (a
:class:`~robotkit.pacing.readiness.Readiness`, asked, never copied; and the frontier's
own hold after a requeue), *ready* after that, and *busy* while one of its URLs is
out (one request per host at a time: ARCHITECTURE.md's delay runs from the end of
one response to the next request). Among ready hosts the lowest depth goes first
(breadth-first over the whole crawl), then the host that has been ready the
longest, so one slow host never stalls the others. Demoted URLs
(:class:`~robotkit.frontier.events.Tier`) share the seen set, the budgets and the
parking, and are served only when no main-tier URL is queued or in flight.

Rules, each with a reason code from :mod:`robotkit.base.reasons`:

* ``depth-limit``: a URL deeper than ``max_depth`` is refused and *not* recorded as
  seen, since the same URL may later be found closer to a seed.
* ``duplicate-url``: the seen set already holds its key.
* ``host-budget``: past ``host_budget`` URLs admitted for a host, further URLs are
  parked, not dropped; raising the budget releases them in order.
* :meth:`Frontier.park_host`: the guard parks a trap region's remaining URLs with its
  own reason (``trap-host``); :meth:`Frontier.unpark_host` releases them.

Every change is announced as a typed record (:mod:`robotkit.frontier.events`) to
an attached store; the frontier itself does no I/O. :meth:`Frontier.checkpoint`,
:meth:`Frontier.open_journal` and :meth:`Frontier.restore` hand the work to
:mod:`robotkit.frontier.store` (a whole file) or :mod:`robotkit.frontier.disk` (a
frontier on disk). It reads no clock unless one is injected. It is not
thread-safe: one crawl loop owns it.

How the frontier is kept (stores, checkpoints, the journal, the frontier on disk)
is :class:`robotkit.frontier.persistence.Persistence`, which it inherits; what
it answers is :mod:`robotkit.frontier.results`; replaying what was recorded is
:mod:`robotkit.frontier.replay`.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import replace

from robotkit.base.clock import Clock
from robotkit.base.reasons import Reason
from robotkit.frontier.disk import DiskStore
from robotkit.frontier.durable import CheckpointError
from robotkit.frontier.events import (
    BudgetSet,
    Demoted,
    Done,
    FrontierEntry,
    FrontierEvent,
    Parked,
    Queued,
    Released,
    Requeued,
    Taken,
    Tallied,
    Tier,
)
from robotkit.frontier.hosts import MAIN, UNLIMITED, HostQueues, HostTable
from robotkit.frontier.persistence import Persistence
from robotkit.frontier.replay import apply, restore
from robotkit.frontier.results import (
    DUPLICATE,
    QUEUED,
    TOO_DEEP,
    AddOutcome,
    AddResult,
    FrontierStats,
)
from robotkit.frontier.seen import BloomSeenSet, ExactSeenSet, SeenSet, seen_set_for
from robotkit.frontier.store import FrontierStore
from robotkit.pacing.readiness import Readiness
from robotkit.url.parse import InvalidURL, Origin, origin_of

__all__ = [
    "AddOutcome",
    "AddResult",
    "BloomSeenSet",
    "CheckpointError",
    "ExactSeenSet",
    "Frontier",
    "FrontierEntry",
    "FrontierStats",
    "SeenSet",
    "Tier",
]


class Frontier(Persistence):
    """Breadth-first, per-host, polite URL frontier (see the module docstring).

    ``max_depth``: seeds are depth 0; deeper URLs are refused (``None``: no limit).
    ``host_budget``: URLs admitted per host before more are parked (``None``: no
    limit). ``seen``: an :class:`ExactSeenSet` by default; pass a
    :class:`BloomSeenSet` to trade a small loss of pages for memory. ``clock``: used
    by :meth:`next` when it is not given ``now``. ``readiness``: who says when a
    host may be fetched again (the crawler's pacer); without one, only the holds
    given to :meth:`mark_done` and :meth:`requeue` count.
    """

    def __init__(
        self,
        max_depth: int | None = None,
        host_budget: int | None = None,
        *,
        seen: SeenSet | None = None,
        clock: Clock | None = None,
        readiness: Readiness | None = None,
        expected_urls: int | None = None,
    ) -> None:
        if max_depth is not None and max_depth < 0:
            raise ValueError("max_depth must be at least 0")
        if host_budget is not None and host_budget < 0:
            raise ValueError("host_budget must be at least 0")
        self.max_depth = max_depth
        self.host_budget = host_budget
        self.seen: SeenSet = seen if seen is not None else seen_set_for(expected_urls)
        self._clock = clock
        self.table = HostTable(readiness)
        self.rejected: Counter[Reason] = Counter()
        self.generation = 0  # checkpoints written or restored so far
        self.tallies: Counter[str] = Counter()
        self._sink: Callable[[FrontierEvent], None] | None = None
        self._store: FrontierStore | None = None
        self._store_path: str | None = None  # the checkpoint path the journal continues
        self.resume_mark: str | None = None  # the store's mark of what restore() replayed
        self._disk: DiskStore | None = None  # the database of a frontier on disk

    @property
    def readiness(self) -> Readiness | None:
        """The owner of host readiness the frontier asks (None: holds only)."""
        return self.table.readiness

    @readiness.setter
    def readiness(self, readiness: Readiness | None) -> None:
        self.table.readiness = readiness

    # -- adding and serving -----------------------------------------------------

    def add(
        self,
        url: str,
        key: str,
        depth: int = 0,
        referer: str | None = None,
        *,
        host: Origin | None = None,
        tier: Tier = Tier.MAIN,
        again: bool = False,
    ) -> AddResult:
        """Offer a URL found at ``depth`` (seeds: 0) with its normalized ``key``.

        ``host`` defaults to the origin of ``url``; a URL with no usable origin is
        rejected as ``invalid-url`` or ``unsupported-scheme``, never raised.
        ``again``: a URL admitted before and not finished (a host of a shared crawl
        taken over from another worker), queued even though its key is seen.
        """
        if depth < 0:
            raise ValueError("depth must be at least 0")
        if host is None:
            try:
                host = origin_of(url)
            except InvalidURL as exc:
                self.rejected[exc.reason] += 1
                return AddResult(AddOutcome.REJECTED, exc.reason)
        if self.max_depth is not None and depth > self.max_depth:
            self.rejected[Reason.DEPTH_LIMIT] += 1
            return TOO_DEEP
        if not self.seen.add(key) and not again:
            self.rejected[Reason.DUPLICATE_URL] += 1
            return DUPLICATE
        entry = FrontierEntry(url, key, depth, referer, host, tier)
        if self._sink is not None:
            self._sink(Queued(entry))
        table = self.table
        state = table.hosts.get(host)
        if state is None:
            state = table.host(host)
        if state.park_reason is not None:
            table.park(state, entry)
            return AddResult(AddOutcome.PARKED, state.park_reason)
        budget = self.host_budget if state.budget is None else self._budget(state)
        if budget is not None and state.admitted >= budget:
            table.park(state, entry)
            return AddResult(AddOutcome.PARKED, Reason.HOST_BUDGET)
        table.enqueue(state, entry)
        return QUEUED

    def next(self, now: float | None = None) -> FrontierEntry | None:
        """The next URL to fetch at time ``now``, or None if no host may be served.

        Its host is busy until :meth:`mark_done`, :meth:`requeue` or :meth:`demote`.
        """
        if now is None:
            if self._clock is None:
                raise TypeError("Frontier.next() needs `now` or a frontier built with a clock")
            now = self._clock()
        entry = self.table.next(now)
        if entry is not None and self._sink is not None:
            self._sink(Taken(entry.host, entry.key))
        return entry

    def next_ready_time(self) -> float | None:
        """The earliest time :meth:`next` can return a URL (a time not after the
        last ``now`` means at once), or None if nothing is waiting: every host is
        busy, parked or empty. A crawler sleeps until then."""
        return self.table.next_time()

    def ready_at(self, host: Origin) -> float:
        """When ``host`` may be served: its hold, or its owner's answer if later."""
        return self.table.ready_time(self.table.hosts.get(host) or HostQueues(host))

    def mark_done(self, entry: FrontierEntry, ready_at: float | None = None) -> None:
        """``entry`` was fetched (or given up): its host may be served again, not
        before ``ready_at`` if given (a hold of the frontier's own)."""
        host = self.table.release_busy(entry)
        if self._sink is not None:
            self._sink(Done(entry.host, entry.key, ready_at))
        self.table.main_active -= entry.tier is MAIN
        self.table.finish(host, ready_at)

    def requeue(self, entry: FrontierEntry, ready_at: float | None = None) -> None:
        """``entry`` could not be fetched now (robots.txt deferred, 429/503): put it
        back at the head of its host's queue, its host held until ``ready_at``."""
        host = self.table.release_busy(entry)
        if self._sink is not None:
            self._sink(Requeued(entry.host, entry.key, ready_at))
        if ready_at is not None:
            host.hold = ready_at
        self.table.put_back(host, entry, front=True)

    def demote(self, entry: FrontierEntry) -> FrontierEntry:
        """Move ``entry``, in flight, to the back of the demoted tier (its referer
        turned out to be a copy); it stays admitted. Returns the demoted entry."""
        host = self.table.release_busy(entry)
        if self._sink is not None:
            self._sink(Demoted(entry.host, entry.key))
        moved = replace(entry, tier=Tier.DEMOTED)
        self.table.main_active -= entry.tier is MAIN
        self.table.put_back(host, moved, front=False)
        return moved

    # -- budgets and parking ----------------------------------------------------

    def budget_of(self, host: Origin) -> int | None:
        """The budget in force for ``host`` (None: unlimited)."""
        state = self.table.hosts.get(host)
        return self.host_budget if state is None else self._budget(state)

    def _budget(self, state: HostQueues) -> int | None:
        if state.budget is None:
            return self.host_budget
        return None if state.budget == UNLIMITED else state.budget

    def set_host_budget(self, budget: int | None, host: Origin | None = None) -> int:
        """Change the budget of every host (``host=None``) or of one host (which then
        keeps its own budget; ``None`` means unlimited), and release parked URLs that
        now fit. Returns how many were released."""
        if budget is not None and budget < 0:
            raise ValueError("budget must be at least 0")
        if self._sink is not None:
            self._sink(BudgetSet(budget, host))
        if host is None:
            self.host_budget = budget
            targets = list(self.table.hosts.values())
        else:
            state = self.table.host(host)
            state.budget = UNLIMITED if budget is None else budget
            targets = [state]
        return sum(self.table.release(s, self._budget(s)) for s in targets)

    def park_host(self, host: Origin, reason: Reason = Reason.TRAP_HOST) -> int:
        """Hold back every queued and future URL of ``host`` (both tiers) with
        ``reason`` (e.g. the guard found a trap region). Returns how many queued
        URLs were parked; the one in flight, if any, is not recalled."""
        if self._sink is not None:
            self._sink(Parked(host, reason))
        state = self.table.host(host)
        state.park_reason = reason
        return self.table.park_all(state)

    def unpark_host(self, host: Origin) -> int:
        """Undo :meth:`park_host`; parked URLs return within the host's budget."""
        if self._sink is not None:
            self._sink(Released(host))
        state = self.table.host(host)
        state.park_reason = None
        return self.table.release(state, self._budget(state))

    def queued_of(self, host: Origin) -> int:
        """URLs of ``host`` queued or parked (not the one in flight)."""
        state = self.table.hosts.get(host)
        if state is None:
            return 0
        return sum(len(bucket) for bucket in state.queues.values()) + len(state.parked)

    def drop_host(self, host: Origin) -> int:
        """Forget ``host``'s queued and parked URLs, none of them in flight: in a
        crawl shared on Redis (:mod:`robotkit.shared.crawl`) another worker takes
        the host over, and its URLs are kept there. Not journaled: a shared crawl
        keeps its frontier in Redis, not in a state directory."""
        if self._store is not None or self._disk is not None:
            raise ValueError("a journaled frontier cannot drop a host")
        return self.table.drop(host)

    def parked(self, host: Origin | None = None) -> Iterator[tuple[FrontierEntry, Reason]]:
        """Parked URLs (of one host or all) with the reason they are held."""
        return self.table.parked_entries(host)

    # -- reporting --------------------------------------------------------------

    def __len__(self) -> int:
        """URLs queued for :meth:`next` (both tiers): not in flight, not parked."""
        return self.table.queued

    @property
    def in_flight(self) -> int:
        return self.table.in_flight

    def stats(self) -> FrontierStats:
        table = self.table
        parked, demoted = table.waiting_counts()
        return FrontierStats(
            queued=table.queued,
            in_flight=table.in_flight,
            parked=table.parked,
            done=table.done,
            hosts=len(table.hosts),
            seen=len(self.seen),
            seen_nbytes=self.seen.nbytes,
            rejected=dict(self.rejected),
            parked_by_reason=parked,
            demoted=demoted,
        )

    def tally(self, name: str, n: int = 1) -> None:
        """Add ``n`` to the counter ``name`` in :attr:`tallies`: counts the owner
        keeps in step with the frontier (pages fetched, requests spent), recorded
        and checkpointed with it, so a killed crawl knows what it spent."""
        if self._sink is not None:
            self._sink(Tallied(name, n))
        self.tallies[name] += n

    # -- replay ------------------------------------------------------------------

    def apply(self, event: FrontierEvent) -> None:
        """Replay a recorded change through the operation that made it (a store
        rebuilding the frontier; see :mod:`robotkit.frontier.replay`)."""
        apply(self, event)

    @classmethod
    def restore(cls, path: str | os.PathLike[str], *, clock: Clock | None = None) -> Frontier:
        """Rebuild the frontier a checkpoint and its journal hold; raise
        :class:`CheckpointError` if they are not whole and valid. From a database
        (a frontier on disk) it reads one row per host, not the queues, and stays
        on disk."""
        return restore(cls, path, clock)
