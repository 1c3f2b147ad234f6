"""The URL Frontier service's core: crawls, queues and URL records over robotkit's
frontier, pacer and guard.

Pure (ARCHITECTURE.md): no I/O and no clock of its own. Time comes from the injected
clock; robots.txt verdicts come from an oracle the shell passes in (a cached verdict,
or None when the origin's robots.txt must be fetched first). What it decides:

* **PutURLs.** A discovered URL is normalized (:func:`robotkit.url.normalize`) and
  run through the crawl's :class:`~robotkit.triage.Guard` (URL shapes, blacklist); a
  refused one is acknowledged ``SKIPPED`` and kept, with its reason, for
  ``GetURLStatus`` (a bounded table). A URL whose key is known is ``OK`` and not
  queued twice. A link's depth is its page's plus one (:data:`~robotkit.service.
  metadata.PARENT`), so the frontier (:class:`robotkit.frontier.frontier.Frontier`)
  serves breadth-first. A known URL (a fetch reported back) ends its fetch: the
  report feeds the pacer (status, Retry-After) and the host may be served again
  after its delay.
* **GetURLs.** A URL is handed out only when its origin's robots.txt allows it and
  its host's pacing slot is due (:class:`robotkit.pacing.Pacer`: the delay from the
  end of one response to the next request, Crawl-delay, Request-rate, Retry-After,
  backoff, and the queue's ``SetDelay``). One URL per host is out at a time: the
  next one comes after the first is reported back and the delay has passed. An
  origin whose robots.txt is unknown gets a fetch (the shell runs it, in the host's
  pacing slot too); a URL not reported back within its lease goes back to the queue.

The protocol's queue is a set of hosts: its key is the client's, or by default the
host (``host`` or ``host:port``); politeness is per host whatever the key.
"""

from __future__ import annotations

import contextlib
import heapq
import itertools
import math
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from robotkit.base.clock import Clock
from robotkit.base.outcome import Outcome
from robotkit.base.reasons import CodeEnum, Decision, Reason
from robotkit.frontier.frontier import Frontier, FrontierEntry
from robotkit.pacing.pacer import HostKey, Pacer, Ticket
from robotkit.robots.verdict import Verdict
from robotkit.service import metadata as meta
from robotkit.triage.guard import Guard
from robotkit.url.normalization import NormalizedURL, normalize
from robotkit.url.parse import InvalidURL, Origin

__all__ = [
    "DEFAULT_CRAWL",
    "DEFAULT_LEASE",
    "Ack",
    "Crawl",
    "Gate",
    "Incoming",
    "Queue",
    "RobotsFetch",
    "RobotsOracle",
    "ServiceCore",
    "Taken",
    "URLRecord",
    "URLState",
    "crawl_id",
]

DEFAULT_CRAWL = "DEFAULT"
"""The crawl of an empty crawl id, as the protocol says."""
DEFAULT_LEASE = 30.0
"""Seconds a URL handed out stays out when GetURLs leaves ``delay_requestable`` at 0."""
RECHECK = 0.25
"""Seconds after which a host busy in another crawl of the service is asked again."""
DEFERRED_RETRY = 60.0
"""Seconds a robots.txt deferral holds its host when it names no time."""
MAX_REFUSED = 100_000
"""Refused URLs remembered per crawl for GetURLStatus (the oldest go first)."""

RobotsOracle = Callable[[str], "Verdict | None"]
"""The robots.txt verdict for a URL when its origin's answer is cached and fresh,
else None (the shell's :meth:`robotkit.http.AsyncRobotsChecker.known`)."""


class Gate(Protocol):
    """A second say on a host's slot, beyond the in-process pacer: the slot of the
    host in a pacing state several service nodes share (the shell's
    :class:`robotkit.shared.SharedPacer`). Asked after the pacer agreed."""

    def reserve(self, host: HostKey) -> tuple[object | None, float]:
        """A ticket for the host now, or None and the seconds to wait."""
        ...

    def finish(self, ticket: object, outcome: Outcome | None, retry_at: float | None) -> None: ...

    def hold(self, host: HostKey, until: float) -> None: ...


def crawl_id(value: str) -> str:
    """The protocol's crawl id: an empty or blank one is ``DEFAULT``."""
    return value if value.strip() else DEFAULT_CRAWL


class Ack(CodeEnum):
    """The answer to one URL of PutURLs (the protocol's ``AckMessage.Status``)."""

    OK = "ok"
    SKIPPED = "skipped"
    """Refused for good: do not send it again (invalid, a trap shape, blacklisted)."""
    FAIL = "fail"
    """Not taken now (unknown crawl on a stopping service...): may be sent again."""


class URLState(CodeEnum):
    QUEUED = "queued"
    IN_FLIGHT = "in-flight"
    WAITING = "waiting"  # a refetch date in the future
    DONE = "done"
    REFUSED = "refused"


@dataclass(frozen=True, slots=True)
class Incoming:
    """One URL of PutURLs: discovered (``known`` False) or a fetch reported back."""

    url: str
    queue_key: str = ""
    metadata: Mapping[str, Sequence[str]] = field(default_factory=dict)
    known: bool = False
    refetch_from: int = 0


@dataclass(eq=False, slots=True)
class Queue:
    """A queue of one crawl: its hosts, the client's settings and the counts."""

    key: str
    crawl: str
    origins: set[Origin] = field(default_factory=set)
    delay: float | None = None  # SetDelay; None: the service's default
    blocked_until: float = 0.0  # BlockQueueUntil
    limit: int | None = None  # SetCrawlLimit
    last_handout: float = -math.inf
    queued: int = 0  # queued and waiting
    in_flight: int = 0
    done: int = 0

    @property
    def active(self) -> bool:
        return self.queued + self.in_flight > 0


@dataclass(eq=False, slots=True)
class URLRecord:
    """What the service knows of one URL of a crawl."""

    url: str  # as the client gave it: what is handed out
    key: str  # the de-duplication key
    queue: Queue
    origin: Origin | None
    created: int
    metadata: dict[str, tuple[str, ...]]
    depth: int = 0
    state: URLState = URLState.QUEUED
    reason: Reason | None = None
    refetch_from: int = 0
    pending: int = 0  # entries of the frontier for this record (stale ones are skipped)
    entry: FrontierEntry | None = None  # while in flight
    ticket: Ticket | None = None  # while in flight
    gate_ticket: object | None = None  # while in flight, with a gate
    lease_until: float = 0.0
    copy: bool = False  # reported as an exact copy of another page


@dataclass(frozen=True, slots=True)
class RobotsFetch:
    """A robots.txt fetch the shell must run for ``entry``'s origin, through the
    core's pacer (each hop in its host's slot, as any request); the entry is held
    until :meth:`ServiceCore.robots_done`."""

    crawl: str
    entry: FrontierEntry


@dataclass(slots=True)
class Taken:
    """What one GetURLs call hands out, and the robots.txt fetches it needs."""

    handed: list[URLRecord] = field(default_factory=list)
    fetches: list[RobotsFetch] = field(default_factory=list)


class _Readiness:
    """When a host may be served: its pacer's answer, the queue's own delay (SetDelay)
    after its last hand-out; a host busy elsewhere is asked again shortly."""

    __slots__ = ("core", "crawl")

    def __init__(self, core: ServiceCore, crawl: Crawl) -> None:
        self.core = core
        self.crawl = crawl

    def ready_at(self, origin: Origin) -> float:
        return self.core.ready_at(self.crawl, origin)


class Crawl:
    """One crawl id: its frontier, records, queues and guard."""

    def __init__(self, core: ServiceCore, name: str, guard: Guard) -> None:
        self.name = name
        self.guard = guard
        self.frontier = Frontier(readiness=_Readiness(core, self))
        self.records: dict[str, URLRecord] = {}
        self.refused: OrderedDict[str, URLRecord] = OrderedDict()
        self.queues: dict[str, Queue] = {}
        self.by_origin: dict[Origin, Queue] = {}
        self.later: list[tuple[int, int, str]] = []  # (refetch date, seq, key)
        self.fingerprints: dict[int, str] = {}  # exact hash -> first URL key
        self.copies = 0


class ServiceCore:
    """Every crawl of one service node over one pacer (politeness is per host across
    crawls). ``guard``: makes each crawl's guard. ``lease``: seconds a URL stays out
    when GetURLs asks for no ``delay_requestable``."""

    def __init__(
        self,
        clock: Clock,
        pacer: Pacer,
        *,
        guard: Callable[[], Guard] = Guard,
        lease: float = DEFAULT_LEASE,
        max_refused: int = MAX_REFUSED,
        gate: Gate | None = None,
    ) -> None:
        self.clock = clock
        self.pacer = pacer
        self.gate = gate
        self.make_guard = guard
        self.lease = lease
        self.max_refused = max_refused
        self.crawls: dict[str, Crawl] = {}
        self.active = True
        self.default_queue_delay: float | None = None
        self._leases: list[tuple[float, int, str, str]] = []
        self._blocks: list[tuple[float, int, str, str]] = []
        self._seq = itertools.count()
        self.robots_fetches = 0

    # -- crawls and queues ----------------------------------------------------------

    def crawl(self, name: str) -> Crawl:
        crawl = self.crawls.get(name)
        if crawl is None:
            crawl = self.crawls[name] = Crawl(self, name, self.make_guard())
        return crawl

    def _queue_for(self, crawl: Crawl, origin: Origin, key: str) -> Queue:
        """An origin belongs to one queue: the one its first URL named."""
        queue = crawl.by_origin.get(origin)
        if queue is not None:
            return queue
        key = key or _default_key(origin)
        queue = crawl.queues.get(key)
        if queue is None:
            queue = crawl.queues[key] = Queue(key, crawl.name)
        queue.origins.add(origin)
        crawl.by_origin[origin] = queue
        if queue.blocked_until > self.clock():
            crawl.frontier.park_host(origin, Reason.QUEUE_BLOCKED)
        return queue

    def ready_at(self, crawl: Crawl, origin: Origin) -> float:
        plan = self.pacer.plan(origin.pacing_key)
        if plan.skip_reason is not None:
            return 0.0  # served at once, and refused at the hand-out
        if plan.ready_at is None:
            return self.clock() + RECHECK
        ready = plan.ready_at
        queue = crawl.by_origin.get(origin)
        if queue is not None:
            delay = queue.delay if queue.delay is not None else self.default_queue_delay
            if delay:
                ready = max(ready, queue.last_handout + delay)
        return ready

    # -- state changes ---------------------------------------------------------------

    @staticmethod
    def _move(record: URLRecord, state: URLState) -> None:
        queue = record.queue
        old = record.state
        if old is URLState.QUEUED or old is URLState.WAITING:
            queue.queued -= 1
        elif old is URLState.IN_FLIGHT:
            queue.in_flight -= 1
        elif old is URLState.DONE:
            queue.done -= 1
        if state is URLState.QUEUED or state is URLState.WAITING:
            queue.queued += 1
        elif state is URLState.IN_FLIGHT:
            queue.in_flight += 1
        elif state is URLState.DONE:
            queue.done += 1
        record.state = state

    def _refuse(
        self, crawl: Crawl, url: str, key: str | None, reason: Reason, queue_key: str = ""
    ) -> Ack:
        """Remember a refused URL (bounded) and answer SKIPPED."""
        table = crawl.refused
        name = key if key is not None else url
        if name not in table:
            queue = Queue(queue_key, crawl.name)  # a refused URL is in no queue
            record = URLRecord(url, name, queue, None, int(self.clock()), {})
            record.state = URLState.REFUSED
            record.reason = reason
            table[name] = record
            if len(table) > self.max_refused:
                table.popitem(last=False)
        return Ack.SKIPPED

    def _drop_record(self, crawl: Crawl, record: URLRecord, reason: Reason) -> None:
        """A record leaves the frontier's work for good (refused after queuing:
        robots.txt, a skipped host, a copy's link): it becomes a refused record."""
        self._move(record, URLState.REFUSED)
        record.reason = reason
        crawl.records.pop(record.key, None)
        crawl.refused[record.key] = record
        if len(crawl.refused) > self.max_refused:
            crawl.refused.popitem(last=False)

    def _enqueue(self, crawl: Crawl, record: URLRecord, referer: str | None = None) -> None:
        if record.pending > 0:
            return  # an entry is still in the frontier: it will serve this record
        result = crawl.frontier.add(
            record.url,
            record.key,
            record.depth,
            referer,
            host=record.origin,
            again=True,
        )
        if not result.rejected:
            record.pending += 1
        if result.parked:
            record.reason = result.reason

    # -- PutURLs ---------------------------------------------------------------------

    def put(self, crawl_name: str, item: Incoming) -> Ack:
        """Take one URL of PutURLs (see the module docstring)."""
        crawl = self.crawl(crawl_id(crawl_name))
        try:
            norm = normalize(item.url)
        except InvalidURL as error:
            return self._refuse(crawl, item.url, None, error.reason, item.queue_key)
        record = crawl.records.get(norm.key)
        if item.known:
            return self._known(crawl, record, norm, item)
        if record is not None:
            return Ack.OK  # a duplicate: known already, not queued twice
        if norm.key in crawl.refused:
            return Ack.SKIPPED
        verdict = crawl.guard.check(norm)
        if not verdict.allowed:
            return self._refuse(crawl, item.url, norm.key, verdict.reason, item.queue_key)
        depth, referer = 0, meta.first(item.metadata, meta.PARENT)
        if referer is not None:
            parent = _record_of(crawl, referer)
            if parent is not None:
                if parent.copy:
                    return self._refuse(
                        crawl, item.url, norm.key, Reason.DUPLICATE_CONTENT, item.queue_key
                    )
                depth = parent.depth + 1
        record = self._new_record(crawl, norm, item, depth)
        self._move(record, URLState.QUEUED)
        self._enqueue(crawl, record, referer)
        return Ack.OK

    def _new_record(
        self, crawl: Crawl, norm: NormalizedURL, item: Incoming, depth: int
    ) -> URLRecord:
        queue = self._queue_for(crawl, norm.origin, item.queue_key)
        key = item.url if norm.key == item.url else norm.key  # one string when equal
        record = URLRecord(
            item.url, key, queue, norm.origin, int(self.clock()), _frozen(item.metadata), depth,
            URLState.DONE,
        )  # fmt: skip
        queue.done += 1  # _move_new moves it to its first state
        crawl.records[key] = record
        return record

    def _known(
        self, crawl: Crawl, record: URLRecord | None, norm: NormalizedURL, item: Incoming
    ) -> Ack:
        now = self.clock()
        report = meta.read_report(item.metadata, now)
        if record is None:
            if norm.key in crawl.refused:
                return Ack.SKIPPED
            record = self._new_record(crawl, norm, item, 0)
        else:
            record.metadata = _frozen(item.metadata)
        if record.state is URLState.IN_FLIGHT:
            self._finish(crawl, record, report.outcome, report.retry_at)
        elif report.retry_at is not None:
            self.pacer.hold(norm.origin.pacing_key, report.retry_at)
            if self.gate is not None:
                self.gate.hold(norm.origin.pacing_key, report.retry_at)
        if report.final_url is not None:
            with contextlib.suppress(InvalidURL):
                crawl.frontier.seen.add(normalize(report.final_url).key)
        if report.fingerprint is not None:
            first = crawl.fingerprints.setdefault(report.fingerprint, record.key)
            if first != record.key:
                record.copy = True
                crawl.copies += 1
                crawl.guard.report_trap_signal(norm, Reason.DUPLICATE_CONTENT)
        record.refetch_from = item.refetch_from
        if item.refetch_from > 0:
            self._move(record, URLState.WAITING)
            heapq.heappush(crawl.later, (item.refetch_from, next(self._seq), record.key))
        else:
            self._move(record, URLState.DONE)
        return Ack.OK

    def _finish(
        self,
        crawl: Crawl,
        record: URLRecord,
        outcome: Outcome | None,
        retry_at: float | None,
    ) -> None:
        """End the fetch of a record in flight: the pacer learns how it ended, the
        host may be served again after its delay."""
        if record.ticket is not None:
            self.pacer.finish(record.ticket, outcome, retry_at)
        if record.gate_ticket is not None and self.gate is not None:
            self.gate.finish(record.gate_ticket, outcome, retry_at)
        if record.entry is not None:
            crawl.frontier.mark_done(record.entry)
        record.entry = record.ticket = record.gate_ticket = None

    def restore(
        self,
        crawl_name: str,
        url: str,
        queue_key: str,
        metadata: Mapping[str, Sequence[str]],
        *,
        depth: int,
        state: URLState,
        refetch_from: int,
        created: int,
    ) -> bool:
        """Put back a URL a saved node held (:mod:`robotkit.service.state`): a URL
        that was out is queued again. False when the URL is no longer valid."""
        crawl = self.crawl(crawl_id(crawl_name))
        try:
            norm = normalize(url)
        except InvalidURL:
            return False
        if norm.key in crawl.records:
            return True
        record = self._new_record(crawl, norm, Incoming(url, queue_key, metadata), depth)
        record.created, record.refetch_from = created, refetch_from
        if state is URLState.DONE:
            return True
        if state is URLState.WAITING and refetch_from > 0:
            self._move(record, URLState.WAITING)
            heapq.heappush(crawl.later, (refetch_from, next(self._seq), record.key))
        else:
            self._move(record, URLState.QUEUED)
            self._enqueue(crawl, record)
        return True

    # -- GetURLs ---------------------------------------------------------------------

    def take(
        self,
        robots: RobotsOracle,
        crawls: Iterable[str] | None = None,
        *,
        max_queues: int = 0,
        max_per_queue: int = 0,
        key: str = "",
        lease: float = 0.0,
    ) -> Taken:
        """Hand out the URLs that are due (see the module docstring). ``crawls``
        None: every crawl. 0 for ``max_queues`` or ``max_per_queue``: no limit."""
        now = self.clock()
        self._expire(now)
        self._unblock(now)
        taken = Taken()
        if not self.active:
            return taken
        lease = lease if lease > 0 else self.lease
        names = list(self.crawls) if crawls is None else [crawl_id(c) for c in crawls]
        used: dict[Queue, int] = {}
        for name in names:
            crawl = self.crawls.get(name)
            if crawl is None:
                continue
            self._release_due(crawl, now)
            aside: list[FrontierEntry] = []
            try:
                self._take_from(crawl, robots, now, lease, taken, used, aside, key,
                                max_queues, max_per_queue)  # fmt: skip
            finally:
                for entry in aside:
                    crawl.frontier.requeue(entry)
            if (
                max_queues
                and len(used) >= max_queues
                and all(max_per_queue and n >= max_per_queue for n in used.values())
            ):
                break
        return taken

    def _take_from(
        self,
        crawl: Crawl,
        robots: RobotsOracle,
        now: float,
        lease: float,
        taken: Taken,
        used: dict[Queue, int],
        aside: list[FrontierEntry],
        key: str,
        max_queues: int,
        max_per_queue: int,
    ) -> None:
        frontier, pacer = crawl.frontier, self.pacer
        while True:
            entry = frontier.next(now)
            if entry is None:
                return
            record = crawl.records.get(entry.key)
            if record is not None:
                record.pending = max(0, record.pending - 1)
            if record is None or record.state is not URLState.QUEUED:
                frontier.mark_done(entry)  # a stale entry: deleted, done or out already
                continue
            queue = record.queue
            count = used.get(queue, 0)
            if (
                (key and queue.key != key)
                or (queue.limit is not None and queue.done + queue.in_flight >= queue.limit)
                or (max_per_queue and count >= max_per_queue)
                or (max_queues and not count and len(used) >= max_queues)
            ):
                record.pending += 1
                aside.append(entry)
                continue
            host = entry.host.pacing_key
            plan = pacer.plan(host)
            if plan.skip_reason is not None:
                self._drop_record(crawl, record, plan.skip_reason)
                frontier.mark_done(entry)
                continue
            verdict = robots(entry.url)
            if verdict is None:
                record.pending += 1
                if plan.ready_at is None or plan.ready_at > now:
                    aside.append(entry)
                    continue
                taken.fetches.append(RobotsFetch(crawl.name, entry))
                self.robots_fetches += 1
                continue
            decision = verdict.decision
            if decision is Decision.DISALLOW:
                self._drop_record(crawl, record, verdict.reason)
                frontier.mark_done(entry)
                continue
            if decision is Decision.DEFER:
                record.pending += 1
                record.reason = verdict.reason
                until = verdict.retry_at if verdict.retry_at is not None else now + DEFERRED_RETRY
                pacer.hold(host, until)
                frontier.requeue(entry, until)
                continue
            if verdict.crawl_delay is not None or verdict.request_rate is not None:
                skip = pacer.apply_robots(host, verdict.crawl_delay, verdict.request_rate)
                if skip is not None:
                    self._drop_record(crawl, record, skip)
                    frontier.mark_done(entry)
                    continue
            if self.ready_at(crawl, entry.host) > now:
                record.pending += 1
                frontier.requeue(entry)  # placed at its time by the readiness
                continue
            ticket = pacer.start(host)
            if self.gate is not None:
                gate_ticket, wait = self.gate.reserve(host)
                if gate_ticket is None:  # another node has the host out, or it is not due
                    pacer.withdraw(ticket)
                    record.pending += 1
                    frontier.requeue(entry, now + max(min(wait, RECHECK), 0.01))
                    continue
                record.gate_ticket = gate_ticket
            record.ticket = ticket
            record.entry = entry
            record.reason = None
            record.lease_until = until = now + lease
            heapq.heappush(self._leases, (until, next(self._seq), crawl.name, record.key))
            self._move(record, URLState.IN_FLIGHT)
            queue.last_handout = now
            used[queue] = count + 1
            taken.handed.append(record)

    def robots_done(self, fetch: RobotsFetch, verdict: Verdict | None) -> None:
        """The shell's robots.txt fetch for ``fetch`` ended with ``verdict`` (None: it
        failed in a way robotkit does not classify): the entry waits for its turn
        again, after the host's delay (the fetch went through the pacer), or held
        until the deferral's retry time."""
        now = self.clock()
        hold = None
        if verdict is None:
            hold = now + DEFERRED_RETRY
        elif verdict.decision is Decision.DEFER:
            hold = verdict.retry_at if verdict.retry_at is not None else now + DEFERRED_RETRY
        if hold is not None:
            self.pacer.hold(fetch.entry.host.pacing_key, hold)
        crawl = self.crawls.get(fetch.crawl)
        if crawl is None or crawl.frontier is None:
            return
        record = crawl.records.get(fetch.entry.key)
        if record is not None and hold is not None:
            record.reason = Reason.ROBOTS_DEFERRED
        with contextlib.suppress(ValueError):  # the host was dropped meanwhile (DeleteQueue)
            crawl.frontier.requeue(fetch.entry, hold)

    def _expire(self, now: float) -> None:
        """URLs out past their lease go back to their queue's head."""
        leases = self._leases
        while leases and leases[0][0] <= now:
            until, _, name, key = heapq.heappop(leases)
            crawl = self.crawls.get(name)
            record = None if crawl is None else crawl.records.get(key)
            if crawl is None or record is None or record.state is not URLState.IN_FLIGHT:
                continue
            if record.lease_until != until or record.entry is None:
                continue
            if record.ticket is not None:
                self.pacer.cancel(record.ticket)
            if record.gate_ticket is not None and self.gate is not None:
                self.gate.finish(record.gate_ticket, None, None)
            crawl.frontier.requeue(record.entry)
            record.entry = record.ticket = record.gate_ticket = None
            record.pending += 1
            record.reason = Reason.LEASE_EXPIRED
            self._move(record, URLState.QUEUED)

    def _release_due(self, crawl: Crawl, now: float) -> None:
        """URLs whose refetch date has come are queued again."""
        later = crawl.later
        while later and later[0][0] <= now:
            when, _, key = heapq.heappop(later)
            record = crawl.records.get(key)
            if record is None or record.state is not URLState.WAITING:
                continue
            if record.refetch_from != when:
                continue
            self._move(record, URLState.QUEUED)
            self._enqueue(crawl, record)

    def next_time(self) -> float | None:
        """The earliest time a GetURLs could hand out something new, for a shell
        that waits; None when nothing is queued."""
        times = [t for c in self.crawls.values() if (t := c.frontier.next_ready_time()) is not None]
        times += [c.later[0][0] for c in self.crawls.values() if c.later]
        if self._leases:
            times.append(self._leases[0][0])
        return min(times) if times else None

    # -- queue settings --------------------------------------------------------------

    def block(self, crawl_name: str, key: str, until: float) -> None:
        """BlockQueueUntil: nothing of the queue goes out before ``until`` (0 unblocks)."""
        crawl = self.crawls.get(crawl_id(crawl_name))
        queue = None if crawl is None else crawl.queues.get(key)
        if crawl is None or queue is None:
            return
        queue.blocked_until = until
        if until > self.clock():
            for origin in queue.origins:
                crawl.frontier.park_host(origin, Reason.QUEUE_BLOCKED)
            heapq.heappush(self._blocks, (until, next(self._seq), crawl.name, key))
        else:
            for origin in queue.origins:
                crawl.frontier.unpark_host(origin)

    def _unblock(self, now: float) -> None:
        blocks = self._blocks
        while blocks and blocks[0][0] <= now:
            until, _, name, key = heapq.heappop(blocks)
            crawl = self.crawls.get(name)
            queue = None if crawl is None else crawl.queues.get(key)
            if crawl is not None and queue is not None and queue.blocked_until == until:
                for origin in queue.origins:
                    crawl.frontier.unpark_host(origin)

    def set_delay(self, crawl_name: str, key: str, delay: float) -> None:
        """SetDelay: seconds between two hand-outs of the queue, on top of the host's
        pacing (an empty key: every queue's default)."""
        if not key:
            self.default_queue_delay = delay
            return
        crawl = self.crawls.get(crawl_id(crawl_name))
        queue = None if crawl is None else crawl.queues.get(key)
        if queue is not None:
            queue.delay = delay

    def set_limit(self, crawl_name: str, key: str, limit: int) -> None:
        """SetCrawlLimit: URLs of the queue fetched at most (0: no limit); once as
        many are done or out, the rest stay queued and are not handed out."""
        crawl = self.crawls.get(crawl_id(crawl_name))
        queue = None if crawl is None else crawl.queues.get(key)
        if queue is not None:
            queue.limit = limit or None

    # -- deleting ----------------------------------------------------------------------

    def delete_queue(self, crawl_name: str, key: str) -> int:
        """DeleteQueue: the queue's URLs are forgotten; returns how many were active."""
        crawl = self.crawls.get(crawl_id(crawl_name))
        queue = None if crawl is None else crawl.queues.get(key)
        if crawl is None or queue is None:
            return 0
        active = queue.queued + queue.in_flight
        for record in [r for r in crawl.records.values() if r.queue is queue]:
            if record.state is URLState.IN_FLIGHT:
                self._finish(crawl, record, None, None)
            del crawl.records[record.key]
        for origin in queue.origins:
            # A robots.txt fetch may hold the host: its stale entries are skipped later.
            with contextlib.suppress(ValueError):
                crawl.frontier.drop_host(origin)
            del crawl.by_origin[origin]
        del crawl.queues[key]
        return active

    def delete_crawl(self, crawl_name: str) -> int:
        """DeleteCrawl: returns how many URLs the crawl held (refused ones aside)."""
        crawl = self.crawls.pop(crawl_id(crawl_name), None)
        if crawl is None:
            return 0
        for record in crawl.records.values():
            if record.state is URLState.IN_FLIGHT:
                if record.ticket is not None:
                    self.pacer.cancel(record.ticket)
                if record.gate_ticket is not None and self.gate is not None:
                    self.gate.finish(record.gate_ticket, None, None)
        return len(crawl.records)

    def purge(self, crawl_name: str, key: str, days: int) -> int:
        """PurgeURLs: forget the finished URLs (done, not waiting for a refetch)
        created more than ``days`` days ago; returns how many."""
        crawl = self.crawls.get(crawl_id(crawl_name))
        if crawl is None:
            return 0
        cutoff = self.clock() - days * 86400
        gone = [
            r
            for r in crawl.records.values()
            if r.state is URLState.DONE and r.created <= cutoff and (not key or r.queue.key == key)
        ]
        for record in gone:
            record.queue.done -= 1
            del crawl.records[record.key]
        return len(gone)

    # -- reading -----------------------------------------------------------------------

    def status(self, crawl_name: str, url: str) -> URLRecord | None:
        """GetURLStatus: the record of ``url`` (refused ones too), or None."""
        crawl = self.crawls.get(crawl_id(crawl_name))
        if crawl is None:
            return None
        record = _record_of(crawl, url)
        if record is None:
            record = crawl.refused.get(url)
        return record

    def records(
        self, crawl_name: str, key: str = "", text: str | None = None, ignore_case: bool = False
    ) -> Iterator[URLRecord]:
        """ListURLs and CountURLs: a crawl's URLs (queued, out, waiting or done; not
        the refused), of one queue if ``key``, containing ``text`` if given."""
        crawl = self.crawls.get(crawl_id(crawl_name))
        if crawl is None:
            return
        if text is not None and ignore_case:
            text = text.lower()
        for record in list(crawl.records.values()):
            if key and record.queue.key != key:
                continue
            if text:
                url = record.url.lower() if ignore_case else record.url
                if text not in url:
                    continue
            yield record


def _default_key(origin: Origin) -> str:
    """A queue's default key: the host, with its port unless it is the scheme's."""
    host, port = origin.scope_key
    host = f"[{host}]" if ":" in host else host
    return host if port is None else f"{host}:{port}"


def _frozen(metadata: Mapping[str, Sequence[str]]) -> dict[str, tuple[str, ...]]:
    return {k: tuple(v) for k, v in metadata.items()} if metadata else _EMPTY


_EMPTY: dict[str, tuple[str, ...]] = {}


def _record_of(crawl: Crawl, url: str) -> URLRecord | None:
    try:
        key = normalize(url).key
    except InvalidURL:
        return None
    return crawl.records.get(key)
