"""One host's queues in the frontier, and the schedule of hosts in time.

:class:`HostQueues` holds one origin's URLs: a FIFO per (tier, depth), so the
head is the main tier's shallowest URL (breadth-first; demoted links after every
main-tier one), the URLs parked behind a budget or a parked host, and the one URL
in flight (one request per host at a time). :class:`Schedule` orders the hosts
that have URLs and none in flight: per tier, a heap of hosts sleeping until their
time and a heap of ready hosts by head depth, then by how long they have been
ready (so ready hosts are served round robin and a slow host never stalls the
others). Heap items carry the host's version; a host rescheduled since is stale
and skipped. Pure: no I/O, no clock.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from robotkit.frontier_events import FrontierEntry, Tier
from robotkit.reasons import Reason
from robotkit.urls import Origin

__all__ = ["UNLIMITED", "HostQueues", "Schedule"]

UNLIMITED = -1
"""A per-host budget that overrides the default with none."""

Head = tuple[int, int]  # (tier, depth)


@dataclass(eq=False, slots=True)
class HostQueues:
    origin: Origin
    queues: dict[Head, deque[FrontierEntry]] = field(default_factory=dict)
    parked: deque[FrontierEntry] = field(default_factory=deque)
    hold: float = 0.0  # the frontier's own hold (requeue after a deferral)
    admitted: int = 0  # queued + in flight + done: what the budget counts
    done: int = 0
    busy: FrontierEntry | None = None
    park_reason: Reason | None = None
    budget: int | None = None  # per-host override (UNLIMITED: none); None: the default
    version: int = 0  # bumped on every reschedule: older heap items are stale

    def head(self) -> Head:
        return min(self.queues)

    def push(self, entry: FrontierEntry, front: bool = False) -> None:
        where = (entry.tier, entry.depth)
        bucket = self.queues.get(where)
        if bucket is None:
            bucket = self.queues[where] = deque()
        if front:
            bucket.appendleft(entry)
        else:
            bucket.append(entry)

    def pop_head(self) -> FrontierEntry:
        where = min(self.queues)
        bucket = self.queues[where]
        entry = bucket.popleft()
        if not bucket:
            del self.queues[where]
        return entry

    def take(self, key: str) -> FrontierEntry | None:
        """Take the queued entry with ``key`` out of its queue (a replayed
        :class:`~robotkit.frontier_events.Taken`), or None if it is not queued."""
        for where, bucket in self.queues.items():
            for i, entry in enumerate(bucket):
                if entry.key == key:
                    del bucket[i]
                    if not bucket:
                        del self.queues[where]
                    return entry
        return None

    def take_parked(self, key: str) -> FrontierEntry | None:
        for i, entry in enumerate(self.parked):
            if entry.key == key:
                del self.parked[i]
                return entry
        return None

    def park_all(self) -> list[FrontierEntry]:
        """Move every queued URL to the front of the parked, in service order;
        return them."""
        moved = [entry for where in sorted(self.queues) for entry in self.queues[where]]
        self.parked.extendleft(reversed(moved))
        self.queues.clear()
        return moved

    def persisted(self) -> tuple[list[FrontierEntry], list[FrontierEntry], int]:
        """What a checkpoint keeps: queued entries in service order, parked ones,
        and the admitted count. The URL in flight is lost with the process, so it
        is kept at the head of its queue (where a requeue and a replay put it) or,
        if its host was parked meanwhile, as the first parked one (as a replay of
        the parking would place it)."""
        busy = self.busy
        parked = list(self.parked)
        admitted = self.admitted
        if busy is not None and self.park_reason is not None:
            parked.insert(0, busy)
            admitted -= 1
            busy = None
        queued: list[FrontierEntry] = []
        heads = set(self.queues)
        if busy is not None:
            heads.add((busy.tier, busy.depth))
        for where in sorted(heads):
            if busy is not None and (busy.tier, busy.depth) == where:
                queued.append(busy)
            queued.extend(self.queues.get(where, ()))
        return queued, parked, admitted


class Schedule:
    """Hosts waiting for their time and hosts ready now, one pair of heaps per tier."""

    __slots__ = ("_ready", "_seq", "_sleeping")

    def __init__(self) -> None:
        # (ready_at, seq, version, host): hosts waiting for their permitted time.
        self._sleeping: tuple[list[tuple[float, int, int, HostQueues]], ...] = ([], [])
        # (head depth, ready_at, seq, version, host): hosts that may be served now.
        self._ready: tuple[list[tuple[int, float, int, int, HostQueues]], ...] = ([], [])
        self._seq = 0

    def place(self, host: HostQueues, when: float) -> None:
        """(Re)place ``host``, whose head is queued, to be ready at ``when``."""
        self._seq += 1
        tier, _ = host.head()
        heapq.heappush(self._sleeping[tier], (when, self._seq, host.version, host))

    def pop(
        self, tier: Tier, now: float, ready_at: Callable[[HostQueues], float] | None
    ) -> HostQueues | None:
        """The ready host of ``tier`` to serve at ``now``, or None. ``ready_at``, if
        given, is asked again when a host's time comes: its owner may have moved
        the time on since the host was placed."""
        sleeping, ready = self._sleeping[tier], self._ready[tier]
        while sleeping and sleeping[0][0] <= now:
            when, _, version, host = heapq.heappop(sleeping)
            if version != host.version:
                continue
            if ready_at is not None:
                when = ready_at(host)
                if when > now:
                    self._seq += 1
                    heapq.heappush(sleeping, (when, self._seq, version, host))
                    continue
            self._seq += 1
            heapq.heappush(ready, (host.head()[1], when, self._seq, version, host))
        while ready:
            item = heapq.heappop(ready)
            if item[3] == item[4].version:
                return item[4]
        return None

    def next_time(self, tier: Tier, ready_at: Callable[[HostQueues], float] | None) -> float | None:
        """The earliest time a host of ``tier`` is ready, or None if none waits
        (``ready_at`` as for :meth:`pop`: a sleeping host's time is asked again)."""
        ready, sleeping = self._ready[tier], self._sleeping[tier]
        while ready and ready[0][3] != ready[0][4].version:
            heapq.heappop(ready)
        while sleeping:
            when, seq, version, host = sleeping[0]
            if version != host.version:
                heapq.heappop(sleeping)
                continue
            later = when if ready_at is None else ready_at(host)
            if later <= when:
                break
            heapq.heapreplace(sleeping, (later, seq, version, host))
        if ready:
            return ready[0][1]
        if sleeping:
            return sleeping[0][0]
        return None
