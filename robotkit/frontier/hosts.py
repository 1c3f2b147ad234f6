"""One host's queues in the frontier, and the table of all hosts in time.

:class:`HostQueues` holds one origin's URLs: a FIFO per slot (tier and depth in one
integer, so the head is the main tier's shallowest URL: breadth-first, demoted
links after every main-tier one), the URLs parked behind a budget or a parked
host, and the one URL in flight (one request per host at a time).
:class:`HostTable` holds every host and the counts across them, and orders the
hosts that have URLs and none in flight: per tier, a heap of hosts sleeping until
their time and a heap of ready hosts by head depth, then by how long they have been
ready (so ready hosts are served round robin and a slow host never stalls the
others). Heap items carry the host's version; a host rescheduled since is stale
and skipped. Pure: no I/O, no
clock; the hot paths are written out, since a crawl runs them per URL.
"""

from __future__ import annotations

import heapq
from collections import Counter, deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Final

from robotkit.base.reasons import Reason
from robotkit.frontier.events import FrontierEntry, HostRecord, Tier
from robotkit.frontier.lanes import Lane, LaneRows, SpillLane, first, remove_key
from robotkit.pacing.readiness import Readiness
from robotkit.url.parse import Origin

__all__ = [
    "MAIN",
    "TIER_STEP",
    "UNLIMITED",
    "HostQueues",
    "HostTable",
    "adopt_host",
    "in_flight_again",
    "load_host",
    "slot_of",
]

UNLIMITED = -1
"""A per-host budget that overrides the default with none."""

MAIN: Final = Tier.MAIN  # read per URL: a module name is cheaper than an enum's attribute

TIER_STEP: Final = 1 << 40
"""Slot = depth + tier * TIER_STEP: one integer orders tier, then depth."""


def slot_of(entry: FrontierEntry) -> int:
    return entry.depth + entry.tier * TIER_STEP


@dataclass(eq=False, slots=True)
class HostQueues:
    origin: Origin
    queues: dict[int, Lane] = field(default_factory=dict)  # by slot
    parked: Lane = field(default_factory=deque)
    hold: float = 0.0  # the frontier's own hold (requeue after a deferral)
    admitted: int = 0  # queued + in flight + done: what the budget counts
    done: int = 0
    busy: FrontierEntry | None = None
    park_reason: Reason | None = None
    budget: int | None = None  # per-host override (UNLIMITED: none); None: the default
    version: int = 0  # bumped on every reschedule: older heap items are stale

    def drop_lane(self, where: int) -> None:
        """Forget the (empty) lane of slot ``where``."""
        lane = self.queues.pop(where)
        if isinstance(lane, SpillLane):
            lane.discard()

    def take(self, key: str) -> FrontierEntry | None:
        """Take the queued entry with ``key`` out of its queue (a replayed
        :class:`~robotkit.frontier.events.Taken`), or None if it is not queued.
        The heads are looked at first: a replayed URL is almost always one."""
        for where, lane in self.queues.items():
            if first(lane).key == key:
                return self._take_from(where, key)
        for where in list(self.queues):
            entry = self._take_from(where, key)
            if entry is not None:
                return entry
        return None

    def _take_from(self, where: int, key: str) -> FrontierEntry | None:
        lane = self.queues[where]
        entry = remove_key(lane, key)
        if entry is not None and not lane:
            self.drop_lane(where)
        return entry

    def take_parked(self, key: str) -> FrontierEntry | None:
        return remove_key(self.parked, key)

    def record(self) -> HostRecord:
        """This host as a checkpoint keeps it (see :meth:`persisted`)."""
        queued, parked, admitted = self.persisted()
        busy = None if self.busy is None else self.busy.key
        return HostRecord(
            self.origin,
            self.hold,
            admitted,
            self.done,
            self.park_reason,
            self.budget,
            queued,
            parked,
            busy,
        )

    def persisted(self) -> tuple[list[FrontierEntry], list[FrontierEntry], int]:
        """What a checkpoint keeps: queued entries in service order, parked ones,
        and the admitted count. The URL in flight is lost with the process, so it
        is kept at the head of its queue (where a requeue and a replay put it) or,
        if its host was parked meanwhile, as the first parked one (as a replay of
        the parking would place it)."""
        busy = self.busy
        parked = list(self.parked)
        busy_parked, admitted = self.busy_place()
        if busy is not None and busy_parked:
            parked.insert(0, busy)
            busy = None
        queued: list[FrontierEntry] = []
        heads = set(self.queues)
        if busy is not None:
            heads.add(slot_of(busy))
        for where in sorted(heads):
            if busy is not None and slot_of(busy) == where:
                queued.append(busy)
            queued.extend(self.queues.get(where, ()))
        return queued, parked, admitted

    def busy_place(self) -> tuple[bool, int]:
        """Where a checkpoint keeps the URL in flight (True: first of the parked,
        its host being parked; False: at the head of its queue), and the admitted
        count that goes with it."""
        if self.busy is not None and self.park_reason is not None:
            return True, self.admitted - 1
        return False, self.admitted


class HostTable:
    """Every host's queues, their schedule and the counts across them: the
    frontier's mechanics, with no policy (depth, seen set, budgets are decided by
    :class:`robotkit.frontier.frontier.Frontier`) and no events. ``readiness``: who says
    when a host may be fetched again, asked each time a host is placed in time."""

    def __init__(self, readiness: Readiness | None = None) -> None:
        self.readiness = readiness
        self.spill: LaneRows | None = None  # where lanes spill to (None: all in memory)
        self.hosts: dict[Origin, HostQueues] = {}
        self.queued = self.in_flight = self.parked = self.done = 0
        self.main_active = 0  # main-tier URLs queued or in flight
        # Per tier: (ready_at, seq, version, host), hosts waiting for their time...
        self._sleeping: tuple[list[tuple[float, int, int, HostQueues]], ...] = ([], [])
        # ... and (head slot, ready_at, seq, version, host), hosts ready now.
        self._ready: tuple[list[tuple[int, float, int, int, HostQueues]], ...] = ([], [])
        self._seq = 0

    def host(self, origin: Origin) -> HostQueues:
        host = self.hosts.get(origin)
        if host is None:
            host = self.hosts[origin] = HostQueues(origin, parked=self.lane(origin))
        return host

    def lane(self, origin: Origin) -> Lane:
        """A new, empty lane for one of ``origin``'s queues."""
        return deque() if self.spill is None else self.spill.lane(origin)

    def ready_time(self, host: HostQueues) -> float:
        """The host's own hold, or its owner's answer if later."""
        if self.readiness is None:
            return host.hold
        return max(host.hold, self.readiness.ready_at(host.origin))

    def reschedule(self, host: HostQueues) -> None:
        """(Re)place a host in time; every older schedule item goes stale."""
        host.version += 1
        if host.busy is None and host.queues:
            readiness = self.readiness
            when = host.hold
            if readiness is not None:
                when = max(when, readiness.ready_at(host.origin))
            self._seq += 1
            sleeping = self._sleeping[min(host.queues) >= TIER_STEP]
            heapq.heappush(sleeping, (when, self._seq, host.version, host))

    def enqueue(self, host: HostQueues, entry: FrontierEntry, front: bool = False) -> None:
        """Queue ``entry``: at the back as newly admitted, or (``front``) at the head
        as the URL that was in flight."""
        queues = host.queues
        slot = entry.depth + TIER_STEP if entry.tier else entry.depth
        bucket = queues.get(slot)
        was_head: int | None = slot  # a queue of its own slot already: not a new head
        if bucket is None:
            was_head = min(queues) if queues else None
            bucket = queues[slot] = deque() if self.spill is None else self.spill.lane(host.origin)
        if front:
            bucket.appendleft(entry)
        else:
            bucket.append(entry)
            host.admitted += 1
            if not entry.tier:
                self.main_active += 1
        self.queued += 1
        if was_head is None or slot < was_head:
            self.reschedule(host)

    def park(self, host: HostQueues, entry: FrontierEntry) -> None:
        host.parked.append(entry)
        self.parked += 1

    def next(self, now: float) -> FrontierEntry | None:
        """Take the next URL to serve at ``now`` out of its queue, or None. The
        demoted tier is served only when no main-tier URL is queued or out."""
        host = self._pop(0, now)
        if host is None and self.main_active == 0:
            host = self._pop(1, now)
        if host is None:
            return None
        queues = host.queues
        slot = min(queues)
        bucket = queues[slot]
        entry = bucket.popleft()
        if not bucket:
            host.drop_lane(slot)
        self.take(host, entry)
        return entry

    def _pop(self, tier: int, now: float) -> HostQueues | None:
        """The ready host of ``tier`` to serve at ``now``. The owner of readiness is
        asked again when a host's time comes: it may have moved the time on since."""
        sleeping, ready = self._sleeping[tier], self._ready[tier]
        readiness = self.readiness
        while sleeping and sleeping[0][0] <= now:
            when, _, version, host = heapq.heappop(sleeping)
            if version != host.version:
                continue
            self._seq += 1
            if readiness is not None:
                when = max(host.hold, readiness.ready_at(host.origin))
                if when > now:
                    heapq.heappush(sleeping, (when, self._seq, version, host))
                    continue
            heapq.heappush(ready, (min(host.queues), when, self._seq, version, host))
        while ready:
            item = heapq.heappop(ready)
            if item[3] == item[4].version:
                return item[4]
        return None

    def next_time(self) -> float | None:
        """The earliest time :meth:`next` can serve a URL, or None if none waits."""
        when = self._next_time(0)
        if when is None and self.main_active == 0:
            when = self._next_time(1)
        return when

    def _next_time(self, tier: int) -> float | None:
        ready, sleeping = self._ready[tier], self._sleeping[tier]
        while ready and ready[0][3] != ready[0][4].version:
            heapq.heappop(ready)
        while sleeping:
            when, seq, version, host = sleeping[0]
            if version != host.version:
                heapq.heappop(sleeping)
                continue
            later = self.ready_time(host)
            if later <= when:
                break
            heapq.heapreplace(sleeping, (later, seq, version, host))
        if ready:
            return ready[0][1]
        if sleeping:
            return sleeping[0][0]
        return None

    def take(self, host: HostQueues, entry: FrontierEntry) -> None:
        """``entry``, already out of its queue, is in flight."""
        host.busy = entry
        host.version += 1
        self.queued -= 1
        self.in_flight += 1

    def release_busy(self, entry: FrontierEntry) -> HostQueues:
        host = self.hosts.get(entry.host)
        if host is None or host.busy is None or host.busy.key != entry.key:
            raise ValueError(f"not in flight: {entry.url!r}")
        host.busy = None
        self.in_flight -= 1
        return host

    def finish(self, host: HostQueues, hold: float | None) -> None:
        """A URL of ``host`` is done (already out of flight)."""
        host.done += 1
        self.done += 1
        if hold is not None:
            host.hold = hold
        self.reschedule(host)

    def put_back(self, host: HostQueues, entry: FrontierEntry, front: bool) -> None:
        """``entry``, out of flight, waits again: at the head of its queue
        (``front``) or at the back (a move to another tier), or first of the parked
        if its host was parked meanwhile."""
        if host.park_reason is not None:
            host.parked.appendleft(entry)
            host.admitted -= 1
            self.parked += 1
            self.main_active -= entry.tier is MAIN
        elif front:
            self.enqueue(host, entry, front=True)
        else:
            host.admitted -= 1  # enqueue counts it again
            self.enqueue(host, entry)
        self.reschedule(host)

    def park_all(self, host: HostQueues) -> int:
        """Move every queued URL of ``host`` to the front of its parked, in
        service order (on disk: into a fresh lane, the rare cost of a trap)."""
        moved = [entry for where in sorted(host.queues) for entry in host.queues[where]]
        if isinstance(host.parked, SpillLane):
            kept = list(host.parked)
            host.parked.discard()
            host.parked = self.lane(host.origin)
            for entry in [*moved, *kept]:
                host.parked.append(entry)
        else:
            host.parked.extendleft(reversed(moved))
        for where in list(host.queues):
            host.drop_lane(where)
        host.admitted -= len(moved)
        self.queued -= len(moved)
        self.parked += len(moved)
        self.main_active -= sum(entry.tier is MAIN for entry in moved)
        self.reschedule(host)
        return len(moved)

    def release(self, host: HostQueues, budget: int | None) -> int:
        """Queue parked URLs of an unparked ``host`` while they fit ``budget``."""
        if host.park_reason is not None:
            return 0
        released = 0
        while host.parked and (budget is None or host.admitted < budget):
            self.enqueue(host, host.parked.popleft())
            self.parked -= 1
            released += 1
        return released

    def drop(self, origin: Origin) -> int:
        """Forget a host that is not in flight: its queued and parked URLs go (their
        owner keeps them elsewhere). Returns how many URLs went."""
        host = self.hosts.get(origin)
        if host is None:
            return 0
        if host.busy is not None:
            raise ValueError(f"in flight: {host.busy.url!r}")
        queued = sum(len(lane) for lane in host.queues.values())
        self.queued -= queued
        self.parked -= len(host.parked)
        self.main_active -= sum(len(lane) for slot, lane in host.queues.items() if slot < TIER_STEP)
        host.version += 1  # every schedule item of the host goes stale
        del self.hosts[origin]
        for where in list(host.queues):
            host.drop_lane(where)
        if isinstance(host.parked, SpillLane):
            host.parked.discard()
        return queued + len(host.parked)

    def parked_entries(self, origin: Origin | None) -> Iterator[tuple[FrontierEntry, Reason]]:
        """Parked URLs (of one host or all) with the reason they are held."""
        hosts = self.hosts.values() if origin is None else [self.host(origin)]
        for host in hosts:
            reason = host.park_reason or Reason.HOST_BUDGET
            for entry in host.parked:
                yield entry, reason

    def waiting_counts(self) -> tuple[dict[Reason, int], int]:
        """Parked URLs by reason, and queued URLs of the demoted tier."""
        parked: Counter[Reason] = Counter()
        demoted = 0
        for host in self.hosts.values():
            if host.parked:
                parked[host.park_reason or Reason.HOST_BUDGET] += len(host.parked)
            demoted += sum(len(q) for slot, q in host.queues.items() if slot >= TIER_STEP)
        return dict(parked), demoted

    # -- restore and replay -------------------------------------------------------

    def busy_with(self, origin: Origin, key: str) -> FrontierEntry | None:
        busy = self.host(origin).busy
        return busy if busy is not None and busy.key == key else None

    def take_key(self, origin: Origin, key: str) -> None:
        """Replay of a URL handed out: take ``key``, wherever it is queued."""
        host = self.host(origin)
        entry = host.take(key)
        if entry is not None:
            self.take(host, entry)

    def finish_key(self, origin: Origin, key: str, hold: float | None) -> None:
        """Replay of a URL done that was not in flight here (taken before the
        checkpoint, or parked since): take it out of its queue and finish it."""
        host = self.host(origin)
        entry = host.take(key)
        if entry is not None:
            self.queued -= 1
            self.main_active -= entry.tier is MAIN
        elif host.take_parked(key) is not None:
            self.parked -= 1
            host.admitted += 1  # it was admitted before its host was parked
        self.finish(host, hold)


# -- restoring a host (a checkpoint read back) ------------------------------------------


def load_host(table: HostTable, record: HostRecord) -> None:
    """Restore one host of a whole-file checkpoint into ``table``."""
    host = table.host(record.origin)
    host.hold, host.done, host.budget = record.hold, record.done, record.budget
    host.park_reason = record.park_reason
    for entry in record.queued:
        table.enqueue(host, entry)
    for entry in record.parked:
        host.parked.append(entry)
    host.admitted = record.admitted  # enqueue counted the queued ones again
    table.parked += len(record.parked)
    if record.busy is not None:
        in_flight_again(table, host, record.busy)


def adopt_host(table: HostTable, host: HostQueues, busy: FrontierEntry | None) -> None:
    """Count a host restored with its lanes already filled (a frontier on disk),
    and put ``busy``, in flight at the checkpoint, back in flight."""
    for slot, lane in host.queues.items():
        table.queued += len(lane)
        if slot < TIER_STEP:
            table.main_active += len(lane)
    table.parked += len(host.parked)
    if busy is not None:
        if host.park_reason is not None:
            host.parked.appendleft(busy)
            table.parked += 1
        else:
            slot = slot_of(busy)
            if slot not in host.queues:
                host.queues[slot] = table.lane(host.origin)
            host.queues[slot].appendleft(busy)
            table.queued += 1
            table.main_active += busy.tier is MAIN
        in_flight_again(table, host, busy.key)
    table.reschedule(host)


def in_flight_again(table: HostTable, host: HostQueues, key: str) -> None:
    """Restore: the URL ``key`` was in flight at the checkpoint, stored as the
    head of its queue or, its host parked, as the first parked one. It is in
    flight again until the replay finishes it, or the restore requeues it."""
    entry = host.take(key)
    if entry is None and host.parked and first(host.parked).key == key:
        entry = host.parked.popleft()
        table.parked -= 1
        table.queued += 1  # take() counts it out of the queued
        table.main_active += entry.tier is MAIN
        host.admitted += 1  # it was admitted before its host was parked
    if entry is None:
        raise ValueError(f"in-flight URL {key!r} is not among its host's URLs")
    table.take(host, entry)
