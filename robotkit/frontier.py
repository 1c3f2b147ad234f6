"""The frontier: which URL to fetch next, breadth-first and polite to every host.

Shape (as in Heritrix's per-host work queues and Mercator's back-end queues): one
FIFO queue per host (origin: scheme, host, port; RFC 9309 section 2.3 and pacing
both work per origin), split by depth. A host is *sleeping* until the time the
crawler says it may be fetched again (:meth:`Frontier.set_ready_at`), *ready* after
that, and *busy* while one of its URLs is out (one request per host at a time:
DESIGN.md's delay runs from the end of one response to the next request). Among
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

The frontier does no I/O except :meth:`Frontier.checkpoint` and
:meth:`Frontier.restore`, and reads no clock unless one is injected.
"""

from __future__ import annotations

import contextlib
import heapq
import json
import os
import tempfile
from collections import Counter, deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import Enum
from hashlib import sha256
from typing import Any, Final

from robotkit.clock import Clock
from robotkit.reasons import Reason
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


class AddOutcome(str, Enum):
    """What :meth:`Frontier.add` did with a URL."""

    QUEUED = "queued"  # will be served by next()
    PARKED = "parked"  # kept, but held back (host budget, parked host)
    REJECTED = "rejected"  # not kept: duplicate, too deep, invalid

    def __str__(self) -> str:
        return self.value


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
    """Counts for logs and progress bars."""

    queued: int
    in_flight: int
    parked: int
    done: int
    hosts: int
    seen: int
    seen_nbytes: int
    rejected: dict[Reason, int]
    parked_by_reason: dict[Reason, int]


class CheckpointError(ValueError):
    """A checkpoint file that cannot be restored (truncated, corrupt, wrong version)."""


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

    def active(self) -> Iterator[FrontierEntry]:
        """Queued entries in service order, the busy one first."""
        if self.busy is not None:
            yield self.busy
        for depth in sorted(self.queues):
            yield from self.queues[depth]


FORMAT: Final = b"robotkit-frontier"
VERSION: Final = 1


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
                host = origin_of(url)
            except InvalidURL as exc:
                self._rejected[exc.reason] += 1
                return AddResult(AddOutcome.REJECTED, exc.reason)
        if self.max_depth is not None and depth > self.max_depth:
            self._rejected[Reason.DEPTH_LIMIT] += 1
            return TOO_DEEP
        if not self.seen.add(key):
            self._rejected[Reason.DUPLICATE_URL] += 1
            return DUPLICATE
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
            host.busy = entry
            host.version += 1
            self._queued -= 1
            self._in_flight += 1
            return entry
        return None

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
        host.done += 1
        self._done += 1
        if ready_at is not None:
            host.ready_at = ready_at
        self._schedule(host)

    def requeue(self, entry: FrontierEntry, ready_at: float | None = None) -> None:
        """``entry`` could not be fetched now (robots.txt deferred, 429/503): put it
        back at the head of its host's queue, to be served from ``ready_at``."""
        host = self._release_busy(entry)
        if ready_at is not None:
            host.ready_at = ready_at
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
        them again rather than losing them.
        """
        self.generation += 1
        _atomic_write(os.fspath(path), self._encode())
        return self.generation

    def _encode(self) -> Iterator[bytes]:
        snap = self.seen.snapshot()
        hosts = list(self._hosts.values())
        index = {state.origin: i for i, state in enumerate(hosts)}
        header = {
            "generation": self.generation,
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
        yield _line(header)
        for state in hosts:
            origin = state.origin
            yield _line(
                [
                    origin.scheme,
                    origin.host,
                    origin.port,
                    state.ready_at,
                    state.admitted,
                    state.done,
                    None if state.park_reason is None else str(state.park_reason),
                    state.budget,
                ]
            )
        for state in hosts:
            i = index[state.origin]
            for entry in state.active():
                yield _line([i, 0, entry.url, entry.key, entry.depth, entry.referer])
            for entry in state.parked:
                yield _line([i, 1, entry.url, entry.key, entry.depth, entry.referer])
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
            return cls._decode(_verified(data), clock)
        except CheckpointError:
            raise
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise CheckpointError(f"corrupt checkpoint {os.fspath(path)!r}: {exc}") from None

    @classmethod
    def _decode(cls, data: bytes, clock: Clock | None) -> Frontier:
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
        frontier._done = header["done"]
        frontier._rejected = Counter({Reason(k): v for k, v in header["rejected"].items()})
        hosts: list[_Host] = []
        for _ in range(header["hosts"]):
            scheme, name, port, ready_at, admitted, done, reason, budget = json.loads(lines.next())
            state = frontier._host(Origin(scheme, name, port))
            state.ready_at = float(ready_at)
            state.done = done
            state.park_reason = None if reason is None else Reason(reason)
            state.budget = budget
            state.admitted = admitted
            hosts.append(state)
        admitted = [state.admitted for state in hosts]
        for _ in range(header["entries"]):
            i, parked, url, key, depth, referer = json.loads(lines.next())
            state = hosts[i]
            entry = FrontierEntry(url, key, depth, referer, state.origin)
            if parked:
                state.parked.append(entry)
                frontier._parked += 1
            else:
                frontier._enqueue(state, entry)
        if lines.pos != len(data) - len(rest) + entry_end:
            raise CheckpointError("checkpoint entries do not match their count")
        for state, count in zip(hosts, admitted, strict=True):
            state.admitted = count  # _enqueue counted the queued ones again
        return frontier


def _line(value: Any) -> bytes:
    return (
        json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode(
            "utf-8", "surrogatepass"
        )
        + b"\n"
    )


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


TRAILER: Final = b"\nsha256 "
TRAILER_LEN: Final = len(TRAILER) + 64 + 1


def _verified(data: bytes) -> bytes:
    """The checkpoint body, after checking the SHA-256 trailer the writer appended:
    a torn or truncated file is refused instead of restoring half a crawl."""
    body, trailer = data[:-TRAILER_LEN], data[-TRAILER_LEN:]
    if len(data) < TRAILER_LEN or not trailer.startswith(TRAILER) or not trailer.endswith(b"\n"):
        raise CheckpointError("checkpoint has no trailer (truncated?)")
    if sha256(body).hexdigest().encode() != trailer[len(TRAILER) : -1]:
        raise CheckpointError("checkpoint checksum mismatch (corrupt or truncated)")
    return body


def _atomic_write(path: str, chunks: Iterable[bytes]) -> None:
    """Write-temp, fsync, rename, fsync-directory: the POSIX recipe for replacing a
    file so that a crash leaves the old or the new file whole."""
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=os.path.basename(path) + ".", suffix=".tmp")
    try:
        digest = sha256()
        with os.fdopen(fd, "wb") as f:
            for chunk in chunks:
                digest.update(chunk)
                f.write(chunk)
            f.write(TRAILER + digest.hexdigest().encode() + b"\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    dir_fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)
