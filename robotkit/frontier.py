"""The frontier: which URL to fetch next, breadth-first and polite to every host.

Shape (as in Heritrix's per-host work queues and Mercator's back-end queues): one
FIFO queue per host (origin: scheme, host, port; RFC 9309 section 2.3 and pacing
both work per origin), split by depth. A host is *sleeping* until the time the
crawler says it may be fetched again (:meth:`Frontier.set_ready_at`), *ready* after
that, and *busy* while one of its URLs is out (one request per host at a time:
ARCHITECTURE.md's delay runs from the end of one response to the next request). Among
ready hosts the lowest depth goes first (breadth-first over the whole crawl), then
the host that has been ready the longest, so one slow host never stalls the others
and ready hosts are served round robin.

Rules, each with a reason code from :mod:`robotkit.reasons`:

* ``depth-limit``: a URL deeper than ``max_depth`` is refused and *not* recorded as
  seen, since the same URL may later be found closer to a seed.
* ``duplicate-url``: the seen set already holds its key.
* ``host-budget``: past ``host_budget`` URLs admitted for a host, further URLs are
  parked, not dropped; raising the budget releases them in order.
* :meth:`Frontier.park_host`: the guard parks a trap region's remaining URLs with its
  own reason (``trap-host``); :meth:`Frontier.unpark_host` releases them.

Persistence: :meth:`Frontier.checkpoint` writes the whole frontier atomically and
:meth:`Frontier.restore` reads it back; :meth:`Frontier.open_journal` adds an
append-only log of every change in between (each record checksummed, see
:mod:`robotkit.durable`), so a killed crawl loses nothing it recorded, and
:meth:`Frontier.tally` keeps the owner's counters just as durable. Those are the
frontier's only I/O; it reads no clock unless one is injected. It is not
thread-safe: one crawl loop (threads or asyncio tasks reporting back to it) owns it.

Longer than most modules (about 900 lines) on purpose: every operation, its
journal record, its replay and the checkpoint codec must agree on the same
private per-host state, and they change together.
"""

from __future__ import annotations

import heapq
import json
import os
import re
from collections import Counter, deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Final

from robotkit.clock import Clock
from robotkit.durable import (
    CheckpointError,
    Journal,
    atomic_write,
    encode_line,
    new_journal_id,
    verified,
)
from robotkit.reasons import CodeEnum, Reason
from robotkit.seen import (
    BloomSeenSet,
    ExactSeenSet,
    SeenSet,
    SeenSnapshot,
    seen_set_from_snapshot,
)
from robotkit.urls import InvalidURL, Origin, origin_of

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
]


@dataclass(frozen=True, slots=True)
class FrontierEntry:
    """A URL waiting to be fetched: the URL as found, its de-duplication key, how
    many links away from a seed it is, the page that linked it, and its origin."""

    url: str
    key: str
    depth: int
    referer: str | None
    host: Origin


class AddOutcome(CodeEnum):
    """What :meth:`Frontier.add` did with a URL."""

    QUEUED = "queued"  # will be served by next()
    PARKED = "parked"  # kept, but held back (host budget, parked host)
    REJECTED = "rejected"  # not kept: duplicate, too deep, invalid


@dataclass(frozen=True, slots=True)
class AddResult:
    """The outcome of :meth:`Frontier.add` and, unless queued, the reason code."""

    outcome: AddOutcome
    reason: Reason | None = None

    @property
    def queued(self) -> bool:
        return self.outcome is AddOutcome.QUEUED

    @property
    def parked(self) -> bool:
        return self.outcome is AddOutcome.PARKED

    @property
    def rejected(self) -> bool:
        return self.outcome is AddOutcome.REJECTED


QUEUED: Final = AddResult(AddOutcome.QUEUED)
DUPLICATE: Final = AddResult(AddOutcome.REJECTED, Reason.DUPLICATE_URL)
TOO_DEEP: Final = AddResult(AddOutcome.REJECTED, Reason.DEPTH_LIMIT)


@dataclass(frozen=True)
class FrontierStats:
    """Counts for logs and progress bars. After :meth:`Frontier.restore` with a
    journal, ``rejected`` holds the refusals counted up to the last checkpoint only:
    refusals change nothing else, so they are not journaled."""

    queued: int
    in_flight: int
    parked: int
    done: int
    hosts: int
    seen: int
    seen_nbytes: int
    rejected: dict[Reason, int]
    parked_by_reason: dict[Reason, int]


_UNLIMITED: Final = -1


@dataclass(eq=False, slots=True)
class _Host:
    origin: Origin
    queues: dict[int, deque[FrontierEntry]] = field(default_factory=dict)
    parked: deque[FrontierEntry] = field(default_factory=deque)
    queued: int = 0
    ready_at: float = 0.0
    admitted: int = 0  # queued + in flight + done: what the budget counts
    done: int = 0
    busy: FrontierEntry | None = None
    park_reason: Reason | None = None
    budget: int | None = None  # per-host override (_UNLIMITED: none); None: the default
    version: int = 0  # bumped on every reschedule: older heap items are stale

    def head_depth(self) -> int:
        return min(self.queues)

    def push(self, entry: FrontierEntry, front: bool = False) -> None:
        bucket = self.queues.get(entry.depth)
        if bucket is None:
            bucket = self.queues[entry.depth] = deque()
        if front:
            bucket.appendleft(entry)
        else:
            bucket.append(entry)
        self.queued += 1

    def pop_head(self) -> FrontierEntry:
        depth = self.head_depth()
        bucket = self.queues[depth]
        entry = bucket.popleft()
        if not bucket:
            del self.queues[depth]
        self.queued -= 1
        return entry

    def take(self, key: str) -> FrontierEntry | None:
        """Take the queued entry with ``key`` out of its queue (journal replay of
        :meth:`Frontier.next`), or None if it is not queued."""
        for depth, bucket in self.queues.items():
            for i, entry in enumerate(bucket):
                if entry.key == key:
                    del bucket[i]
                    if not bucket:
                        del self.queues[depth]
                    self.queued -= 1
                    return entry
        return None

    def remove(self, key: str) -> AddOutcome | None:
        """Take an entry out by key (journal replay of a URL done); say whether it
        was queued or parked (a host parked while the URL was in flight)."""
        if self.take(key) is not None:
            return AddOutcome.QUEUED
        for i, entry in enumerate(self.parked):
            if entry.key == key:
                del self.parked[i]
                return AddOutcome.PARKED
        return None

    def persisted(self) -> tuple[list[FrontierEntry], list[FrontierEntry], int]:
        """What a checkpoint keeps: queued entries in service order, parked ones,
        and the admitted count. The URL in flight is lost with the process, so it
        is kept at the head of its depth's queue (where :meth:`Frontier.requeue` and a
        journal replay put it; the service order is by depth first) or, if its host
        was parked meanwhile, as the first parked one (as a journal replay of the
        parking would place it)."""
        busy = self.busy
        parked = list(self.parked)
        admitted = self.admitted
        if busy is not None and self.park_reason is not None:
            parked.insert(0, busy)
            admitted -= 1
            busy = None
        queued: list[FrontierEntry] = []
        for depth in sorted({*self.queues, *(() if busy is None else (busy.depth,))}):
            if busy is not None and busy.depth == depth:
                queued.append(busy)
            queued.extend(self.queues.get(depth, ()))
        return queued, parked, admitted


_PLAIN_PREFIX: Final = re.compile(r"https?://[a-z0-9.-]+(?::[0-9]{1,5})?(?=[/?#]|\Z)")
_ORIGIN_CACHE: Final = 65_536

FORMAT: Final = b"robotkit-frontier"
VERSION: Final = 2  # 2: tallies, and the id of the journal that continues it
JOURNAL_MAGIC: Final = b"robotkit-frontier-journal"


class Frontier:
    """Breadth-first, per-host, polite URL frontier (see the module docstring).

    ``max_depth``: seeds are depth 0; deeper URLs are refused (``None``: no limit).
    ``host_budget``: URLs admitted per host before more are parked (``None``: no
    limit). ``seen``: an :class:`ExactSeenSet` by default; pass a
    :class:`BloomSeenSet` to trade a small loss of pages for memory. ``clock``: used
    by :meth:`next` when it is not given ``now``.
    """

    def __init__(
        self,
        max_depth: int | None = None,
        host_budget: int | None = None,
        *,
        seen: SeenSet | None = None,
        clock: Clock | None = None,
    ) -> None:
        if max_depth is not None and max_depth < 0:
            raise ValueError("max_depth must be at least 0")
        if host_budget is not None and host_budget < 0:
            raise ValueError("host_budget must be at least 0")
        self.max_depth = max_depth
        self.host_budget = host_budget
        self.seen: SeenSet = seen if seen is not None else ExactSeenSet()
        self._clock = clock
        self._hosts: dict[Origin, _Host] = {}
        # (ready_at, seq, version, host): hosts waiting for their permitted time.
        self._sleeping: list[tuple[float, int, int, _Host]] = []
        # (head depth, ready_at, seq, version, host): hosts that may be served now.
        self._ready: list[tuple[int, float, int, int, _Host]] = []
        self._seq = 0
        self._queued = 0
        self._in_flight = 0
        self._parked = 0
        self._done = 0
        self._rejected: Counter[Reason] = Counter()
        self.generation = 0  # checkpoints written or restored so far
        self.tallies: Counter[str] = Counter()
        self._journal: Journal | None = None
        self._journal_of: str | None = None  # the checkpoint path the journal continues
        self._restored_journal: str | None = None  # the journal id restore() replayed
        self._origins: dict[str, Origin] = {}

    # -- adding ---------------------------------------------------------------

    def add(
        self,
        url: str,
        key: str,
        depth: int = 0,
        referer: str | None = None,
        *,
        host: Origin | None = None,
    ) -> AddResult:
        """Offer a URL found at ``depth`` (seeds: 0) with its normalized ``key``.

        ``host`` defaults to the origin of ``url``; a URL with no usable origin is
        rejected as ``invalid-url`` or ``unsupported-scheme``, never raised.
        """
        if depth < 0:
            raise ValueError("depth must be at least 0")
        if host is None:
            try:
                host = self._origin_of(url)
            except InvalidURL as exc:
                self._rejected[exc.reason] += 1
                return AddResult(AddOutcome.REJECTED, exc.reason)
        if self.max_depth is not None and depth > self.max_depth:
            self._rejected[Reason.DEPTH_LIMIT] += 1
            return TOO_DEEP
        if not self.seen.add(key):
            self._rejected[Reason.DUPLICATE_URL] += 1
            return DUPLICATE
        if self._journal is not None:
            self._journal.write(["a", *_origin_list(host), url, key, depth, referer])
        return self._admit(self._host(host), FrontierEntry(url, key, depth, referer, host))

    def _admit(self, host: _Host, entry: FrontierEntry) -> AddResult:
        if host.park_reason is not None:
            host.parked.append(entry)
            self._parked += 1
            return AddResult(AddOutcome.PARKED, host.park_reason)
        budget = self.budget_of(host.origin)
        if budget is not None and host.admitted >= budget:
            host.parked.append(entry)
            self._parked += 1
            return AddResult(AddOutcome.PARKED, Reason.HOST_BUDGET)
        self._enqueue(host, entry)
        return QUEUED

    def _enqueue(self, host: _Host, entry: FrontierEntry, front: bool = False) -> None:
        was_head = host.head_depth() if host.queues else None
        host.push(entry, front)
        if not front:
            host.admitted += 1
        self._queued += 1
        if was_head is None or entry.depth < was_head:
            self._schedule(host)

    def _origin_of(self, url: str) -> Origin:
        """:func:`origin_of`, remembered per plain ``scheme://host[:port]`` prefix.

        Parsing a whole URL for its origin costs more than the rest of
        :meth:`add`; a printable URL whose authority is plain lowercase
        ``host[:port]`` gets the same origin (or the same error) as every other
        URL with that prefix, so the answer is kept for them.
        """
        match = _PLAIN_PREFIX.match(url) if url.isprintable() else None
        if match is None:
            return origin_of(url)
        prefix = match.group()
        origin = self._origins.get(prefix)
        if origin is None:
            origin = origin_of(url)
            if len(self._origins) >= _ORIGIN_CACHE:
                self._origins.clear()
            self._origins[prefix] = origin
        return origin

    def _host(self, origin: Origin) -> _Host:
        host = self._hosts.get(origin)
        if host is None:
            host = self._hosts[origin] = _Host(origin)
        return host

    # -- scheduling -----------------------------------------------------------

    def _schedule(self, host: _Host) -> None:
        """(Re)place a host in the sleeping heap; every older heap item goes stale."""
        host.version += 1
        if host.busy is None and host.queues:
            self._seq += 1
            heapq.heappush(self._sleeping, (host.ready_at, self._seq, host.version, host))

    def _promote(self, now: float) -> None:
        sleeping, ready = self._sleeping, self._ready
        while sleeping and sleeping[0][0] <= now:
            ready_at, _, version, host = heapq.heappop(sleeping)
            if version == host.version:
                self._seq += 1
                heapq.heappush(ready, (host.head_depth(), ready_at, self._seq, version, host))

    def _now(self, now: float | None) -> float:
        if now is not None:
            return now
        if self._clock is None:
            raise TypeError("Frontier.next() needs `now` or a frontier built with a clock")
        return self._clock()

    def next(self, now: float | None = None) -> FrontierEntry | None:
        """The next URL to fetch at time ``now``, or None if no host may be served.

        Its host is busy until :meth:`mark_done` or :meth:`requeue` is called.
        """
        self._promote(self._now(now))
        ready = self._ready
        while ready:
            _, _, _, version, host = heapq.heappop(ready)
            if version != host.version:
                continue
            entry = host.pop_head()
            self._take(host, entry)
            return entry
        return None

    def _in_flight_again(self, host: _Host, key: str) -> None:
        """Restore: the URL ``key`` was in flight at the checkpoint, stored as the
        head of its queue or, its host parked, as the first parked one
        (:meth:`_Host.persisted`). It is in flight again until the journal's
        replay finishes it, or :meth:`restore` requeues it."""
        entry = host.take(key)
        if entry is None and host.parked and host.parked[0].key == key:
            entry = host.parked.popleft()
            self._parked -= 1
            self._queued += 1  # _take counts it out of the queued
            host.admitted += 1  # it was admitted before its host was parked
        if entry is None:
            raise CheckpointError(f"in-flight URL {key!r} is not among its host's URLs")
        self._take(host, entry)

    def _take(self, host: _Host, entry: FrontierEntry) -> None:
        """``entry``, already out of its queue, is in flight. Journaled, so that a
        replay knows which URL was out when its host was parked or its budget
        changed, exactly as the live frontier did."""
        if self._journal is not None:
            self._journal.write(["n", *_origin_list(host.origin), entry.key])
        host.busy = entry
        host.version += 1
        self._queued -= 1
        self._in_flight += 1

    def next_ready_time(self) -> float | None:
        """The earliest time :meth:`next` can return a URL (a time not after the
        last ``now`` means at once), or None if nothing is waiting: every host is
        busy, parked or empty. A crawler sleeps until then."""
        ready, sleeping = self._ready, self._sleeping
        while ready and ready[0][3] != ready[0][4].version:
            heapq.heappop(ready)
        while sleeping and sleeping[0][2] != sleeping[0][3].version:
            heapq.heappop(sleeping)
        if self._ready:
            return self._ready[0][1]
        if self._sleeping:
            return self._sleeping[0][0]
        return None

    def set_ready_at(self, host: Origin, when: float) -> None:
        """The crawler's pacing says ``host`` may not be fetched before ``when``."""
        if self._journal is not None:
            self._journal.write(["t", *_origin_list(host), when])
        state = self._host(host)
        state.ready_at = when
        if state.busy is None and state.queues:
            self._schedule(state)

    def ready_at(self, host: Origin) -> float:
        state = self._hosts.get(host)
        return state.ready_at if state is not None else 0.0

    def _release_busy(self, entry: FrontierEntry) -> _Host:
        host = self._hosts.get(entry.host)
        if host is None or host.busy is None or host.busy.key != entry.key:
            raise ValueError(f"not in flight: {entry.url!r}")
        host.busy = None
        self._in_flight -= 1
        return host

    def mark_done(self, entry: FrontierEntry, ready_at: float | None = None) -> None:
        """``entry`` was fetched (or given up): its host may be served again, from
        ``ready_at`` if given."""
        host = self._release_busy(entry)
        if self._journal is not None:
            self._journal.write(["d", *_origin_list(entry.host), entry.key, ready_at])
        self._finish(host, ready_at)

    def _finish(self, host: _Host, ready_at: float | None) -> None:
        host.done += 1
        self._done += 1
        if ready_at is not None:
            host.ready_at = ready_at
        self._schedule(host)

    def requeue(self, entry: FrontierEntry, ready_at: float | None = None) -> None:
        """``entry`` could not be fetched now (robots.txt deferred, 429/503): put it
        back at the head of its host's queue, to be served from ``ready_at``."""
        host = self._release_busy(entry)
        if self._journal is not None:
            self._journal.write(["r", *_origin_list(entry.host), entry.key, ready_at])
        if ready_at is not None:
            host.ready_at = ready_at
        if host.park_reason is not None:  # parked while in flight: joins the parked
            host.parked.appendleft(entry)
            host.admitted -= 1
            self._parked += 1
            return
        self._enqueue(host, entry, front=True)
        self._schedule(host)

    # -- budgets and parking --------------------------------------------------

    def budget_of(self, host: Origin) -> int | None:
        """The budget in force for ``host`` (None: unlimited)."""
        state = self._hosts.get(host)
        if state is None or state.budget is None:
            return self.host_budget
        return None if state.budget == _UNLIMITED else state.budget

    def set_host_budget(self, budget: int | None, host: Origin | None = None) -> int:
        """Change the budget of every host (``host=None``) or of one host (which then
        keeps its own budget; ``None`` means unlimited), and release parked URLs that
        now fit. Returns how many were released."""
        if budget is not None and budget < 0:
            raise ValueError("budget must be at least 0")
        if self._journal is not None:
            self._journal.write(["b", budget, None if host is None else _origin_list(host)])
        if host is None:
            self.host_budget = budget
            targets = list(self._hosts.values())
        else:
            state = self._host(host)
            state.budget = _UNLIMITED if budget is None else budget
            targets = [state]
        return sum(self._release(state) for state in targets)

    def park_host(self, host: Origin, reason: Reason = Reason.TRAP_HOST) -> int:
        """Hold back every queued and future URL of ``host`` with ``reason`` (e.g. the
        guard found a trap region). Returns how many queued URLs were parked; the
        one in flight, if any, is not recalled."""
        if self._journal is not None:
            self._journal.write(["p", *_origin_list(host), str(reason)])
        state = self._host(host)
        state.park_reason = reason
        moved = 0
        for depth in sorted(state.queues, reverse=True):
            bucket = state.queues[depth]
            while bucket:
                state.parked.appendleft(bucket.pop())
                moved += 1
        state.queues.clear()
        state.queued = 0
        state.admitted -= moved
        self._queued -= moved
        self._parked += moved
        self._schedule(state)
        return moved

    def unpark_host(self, host: Origin) -> int:
        """Undo :meth:`park_host`; parked URLs return within the host's budget."""
        if self._journal is not None:
            self._journal.write(["u", *_origin_list(host)])
        state = self._host(host)
        state.park_reason = None
        return self._release(state)

    def _release(self, host: _Host) -> int:
        if host.park_reason is not None:
            return 0
        budget = self.budget_of(host.origin)
        released = 0
        while host.parked and (budget is None or host.admitted < budget):
            self._enqueue(host, host.parked.popleft())
            self._parked -= 1
            released += 1
        return released

    def parked(self, host: Origin | None = None) -> Iterator[tuple[FrontierEntry, Reason]]:
        """Parked URLs (of one host or all) with the reason they are held."""
        states = self._hosts.values() if host is None else [self._host(host)]
        for state in states:
            reason = state.park_reason or Reason.HOST_BUDGET
            for entry in state.parked:
                yield entry, reason

    # -- reporting ------------------------------------------------------------

    def __len__(self) -> int:
        """URLs queued for :meth:`next`: not those in flight, not parked ones."""
        return self._queued

    @property
    def in_flight(self) -> int:
        return self._in_flight

    def stats(self) -> FrontierStats:
        parked: Counter[Reason] = Counter()
        for state in self._hosts.values():
            if state.parked:
                parked[state.park_reason or Reason.HOST_BUDGET] += len(state.parked)
        return FrontierStats(
            queued=self._queued,
            in_flight=self._in_flight,
            parked=self._parked,
            done=self._done,
            hosts=len(self._hosts),
            seen=len(self.seen),
            seen_nbytes=self.seen.nbytes,
            rejected=dict(self._rejected),
            parked_by_reason=dict(parked),
        )

    # -- checkpoint -----------------------------------------------------------

    def checkpoint(self, path: str | os.PathLike[str]) -> int:
        """Write the whole frontier to ``path`` atomically; return its generation.

        Written to a temporary file in the same directory, flushed and fsynced,
        renamed over ``path`` with :func:`os.replace`, then the directory is
        fsynced: after a crash (even SIGKILL or power loss) ``path`` holds either
        the previous checkpoint or this one, never a part. URLs in flight are
        stored as queued, at the head of their host, so a resumed crawl fetches
        them again rather than losing them. A temporary file a killed process left
        behind (``<path>.<random>.tmp``) is removed by the next checkpoint to
        ``path``. With a journal open on ``path``, the checkpoint compacts it: a
        fresh journal follows.
        """
        path = os.path.abspath(os.fspath(path))
        journal = self._journal
        if journal is None or self._journal_of != path:
            self.generation += 1
            atomic_write(path, self._encode(None, None))
            return self.generation
        ident = new_journal_id()
        self.generation += 1
        atomic_write(path, self._encode(ident, journal.ident))
        self._journal = Journal.start(
            _journal_path(path), JOURNAL_MAGIC, self.generation, ident, journal.sync
        )
        journal.close()
        return self.generation

    # -- journal ----------------------------------------------------------------

    def open_journal(self, path: str | os.PathLike[str], *, sync: bool = False) -> None:
        """Record every change between checkpoints in ``<path>.journal``.

        Writes a checkpoint to ``path`` and a fresh journal, then appends one line
        per URL queued or parked, per URL taken, done or requeued, per pacing,
        budget or parking change, and per :meth:`tally`. A URL taken but never
        finished when the process died is requeued by :meth:`restore`: delivery
        is at least once. Each line carries a CRC-32 and is flushed to the
        operating system before the call returns, so a killed process (SIGKILL
        included) loses nothing that was recorded; ``sync=True`` also fsyncs each
        line, for power loss, at the cost of a disk flush per URL. Each checkpoint
        to ``path`` starts a fresh journal; :meth:`restore` replays the journal
        that belongs to its checkpoint. Refusals (duplicates, depth limit) are not
        journaled: only their counts in :meth:`stats` can be behind after a
        restore.

        On a path that holds no checkpoint yet, the (empty) journal is written
        first: a process killed in between leaves no checkpoint, so nothing to
        resume. On an existing checkpoint (a resume), the new checkpoint is
        written first and names the journal it replaces, the one :meth:`restore`
        replayed.
        """
        self.close_journal()
        path = os.path.abspath(os.fspath(path))
        ident = new_journal_id()
        self.generation += 1
        journal_path = _journal_path(path)
        if os.path.exists(path):
            atomic_write(path, self._encode(ident, self._restored_journal))
            self._journal = Journal.start(journal_path, JOURNAL_MAGIC, self.generation, ident, sync)
        else:
            self._journal = Journal.start(journal_path, JOURNAL_MAGIC, self.generation, ident, sync)
            atomic_write(path, self._encode(ident, None))
        self._journal_of = path

    def close_journal(self) -> None:
        if self._journal is not None:
            self._journal.close()
            self._journal = None

    def tally(self, name: str, n: int = 1) -> None:
        """Add ``n`` to the counter ``name`` in :attr:`tallies`: counts the owner
        keeps in step with the frontier (pages fetched, requests spent), journaled
        and checkpointed with it, so a killed crawl knows what it spent."""
        if self._journal is not None:
            self._journal.write(["c", name, n])
        self.tallies[name] += n

    def _replay(self, record: list[Any]) -> None:
        op = record[0]
        if op == "a":
            _, scheme, name, port, url, key, depth, referer = record
            self.add(url, key, depth, referer, host=Origin(scheme, name, port))
        elif op == "n":
            _, scheme, name, port, key = record
            state = self._host(Origin(scheme, name, port))
            entry = state.take(key)
            if entry is not None:
                self._take(state, entry)
        elif op == "r":
            _, scheme, name, port, key, ready_at = record
            state = self._host(Origin(scheme, name, port))
            if state.busy is not None and state.busy.key == key:
                self.requeue(state.busy, ready_at)
            elif ready_at is not None:  # taken before the checkpoint: already queued
                self.set_ready_at(state.origin, ready_at)
        elif op == "d":
            _, scheme, name, port, key, ready_at = record
            state = self._host(Origin(scheme, name, port))
            if state.busy is not None and state.busy.key == key:
                self.mark_done(state.busy, ready_at)
                return
            removed = state.remove(key)
            if removed is AddOutcome.QUEUED:
                self._queued -= 1
            elif removed is AddOutcome.PARKED:
                self._parked -= 1
                state.admitted += 1  # it was admitted before its host was parked
            self._finish(state, ready_at)
        elif op == "t":
            _, scheme, name, port, when = record
            self.set_ready_at(Origin(scheme, name, port), when)
        elif op == "b":
            _, budget, origin = record
            self.set_host_budget(budget, None if origin is None else Origin(*origin))
        elif op == "p":
            _, scheme, name, port, reason = record
            self.park_host(Origin(scheme, name, port), Reason(reason))
        elif op == "u":
            _, scheme, name, port = record
            self.unpark_host(Origin(scheme, name, port))
        elif op == "c":
            _, tally, n = record
            self.tally(str(tally), int(n))
        else:
            raise CheckpointError(f"unknown journal record {op!r}")

    def _encode(self, journal: str | None, replaced: str | None) -> Iterator[bytes]:
        """The checkpoint's lines; ``journal``: the id of the journal that will
        continue it; ``replaced``: the id of the journal it compacts."""
        snap = self.seen.snapshot()
        hosts = list(self._hosts.values())
        header = {
            "generation": self.generation,
            "journal": journal,
            "replaced": replaced,
            "tallies": dict(self.tallies),
            "max_depth": self.max_depth,
            "host_budget": self.host_budget,
            "done": self._done,
            "rejected": {str(reason): n for reason, n in self._rejected.items()},
            "hosts": len(hosts),
            "entries": self._queued + self._in_flight + self._parked,
            "seen": {
                "kind": snap.kind,
                "count": snap.count,
                "expected_items": snap.expected_items,
                "error_rate": snap.error_rate,
                "byteorder": snap.byteorder,
                "blobs": [len(blob) for blob in snap.blobs],
            },
        }
        yield FORMAT + b" %d\n" % VERSION
        yield encode_line(header)
        for state in hosts:
            # One line per host: json's C encoder makes one big list far cheaper
            # than a line per URL. A key equal to its URL is stored as null.
            queued, parked, admitted = state.persisted()
            yield encode_line(
                [
                    *_origin_list(state.origin),
                    state.ready_at,
                    admitted,
                    state.done,
                    None if state.park_reason is None else str(state.park_reason),
                    state.budget,
                    [_entry_list(entry) for entry in queued],
                    [_entry_list(entry) for entry in parked],
                    # Which of those is in flight: the journal that follows may
                    # finish, requeue or park it as the live frontier did.
                    None if state.busy is None else state.busy.key,
                ]
            )
        yield from snap.blobs

    @classmethod
    def restore(
        cls,
        path: str | os.PathLike[str],
        *,
        clock: Clock | None = None,
    ) -> Frontier:
        """Rebuild the frontier :meth:`checkpoint` wrote; raise
        :class:`CheckpointError` if the file is not a whole, valid checkpoint."""
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as exc:
            raise CheckpointError(f"cannot read checkpoint {os.fspath(path)!r}: {exc}") from None
        try:
            frontier, replaced = cls._decode(verified(data), clock)
            journal = _journal_path(path)
            ident = frontier._restored_journal
            for record in Journal.records(journal, JOURNAL_MAGIC, ident, replaced, str(path)):
                if not isinstance(record, list) or not record:
                    raise CheckpointError(f"journal {journal}: a record is not a list")
                frontier._replay(record)
            # What was in flight when the process died was never finished: it goes
            # back to the head of its queue (or to the parked), as a checkpoint
            # would have stored it.
            for state in list(frontier._hosts.values()):
                if state.busy is not None:
                    frontier.requeue(state.busy)
        except CheckpointError:
            raise
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise CheckpointError(f"corrupt checkpoint {os.fspath(path)!r}: {exc}") from None
        return frontier

    @classmethod
    def _decode(cls, data: bytes, clock: Clock | None) -> tuple[Frontier, str | None]:
        """The checkpoint in ``data``, and the id of the journal it replaced."""
        lines = _Lines(data)
        magic, _, version = lines.next().partition(b" ")
        if magic != FORMAT:
            raise CheckpointError("not a robotkit frontier checkpoint")
        if int(version) != VERSION:
            raise CheckpointError(
                f"checkpoint version {int(version)} (this robotkit reads {VERSION})"
            )
        header = json.loads(lines.next())
        meta = header["seen"]
        blobs = []
        rest = data[lines.pos :]
        entry_end = len(rest) - sum(meta["blobs"])
        offset = entry_end
        for size in meta["blobs"]:
            blobs.append(rest[offset : offset + size])
            offset += size
        snap = SeenSnapshot(
            meta["kind"],
            meta["count"],
            meta["expected_items"],
            meta["error_rate"],
            meta["byteorder"],
            tuple(blobs),
        )
        frontier = cls(header["max_depth"], header["host_budget"], clock=clock)
        frontier.seen = seen_set_from_snapshot(snap)
        frontier.generation = header["generation"]
        frontier.tallies = Counter({str(k): int(v) for k, v in header["tallies"].items()})
        frontier._restored_journal = header["journal"]
        frontier._done = header["done"]
        frontier._rejected = Counter({Reason(k): v for k, v in header["rejected"].items()})
        entries = 0
        for _ in range(header["hosts"]):
            (scheme, name, port, ready_at, admitted, done, reason, budget, active, parked, busy) = (
                json.loads(lines.next())
            )
            state = frontier._host(Origin(scheme, name, port))
            state.ready_at = float(ready_at)
            state.done = done
            state.park_reason = None if reason is None else Reason(reason)
            state.budget = budget
            for url, key, depth, referer in active:
                frontier._enqueue(
                    state,
                    FrontierEntry(url, url if key is None else key, depth, referer, state.origin),
                )
            for url, key, depth, referer in parked:
                state.parked.append(
                    FrontierEntry(url, url if key is None else key, depth, referer, state.origin)
                )
            state.admitted = admitted  # _enqueue counted the queued ones again
            frontier._parked += len(parked)
            entries += len(active) + len(parked)
            if busy is not None:
                frontier._in_flight_again(state, busy)
        if entries != header["entries"] or lines.pos != len(data) - len(rest) + entry_end:
            raise CheckpointError("checkpoint entries do not match their count")
        return frontier, header["replaced"]


def _origin_list(origin: Origin) -> list[Any]:
    return [origin.scheme, origin.host, origin.port]


def _entry_list(entry: FrontierEntry) -> list[Any]:
    return [entry.url, None if entry.key == entry.url else entry.key, entry.depth, entry.referer]


def _journal_path(checkpoint_path: str | os.PathLike[str]) -> str:
    return os.fspath(checkpoint_path) + ".journal"


class _Lines:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def next(self) -> bytes:
        end = self.data.find(b"\n", self.pos)
        if end < 0:
            raise CheckpointError("checkpoint ends in the middle of a line")
        line = self.data[self.pos : end]
        self.pos = end + 1
        return line
