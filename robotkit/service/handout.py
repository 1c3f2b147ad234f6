"""Handing out URLs (GetURLs) and ending their fetches.

A URL is handed out only when its origin's robots.txt allows it and its host's
pacing slot is due (:class:`robotkit.pacing.Pacer`: the delay from the end of one
response to the next request, Crawl-delay, Request-rate, Retry-After, backoff, and
the queue's ``SetDelay``). One URL per host is out at a time: the next one comes
after the first is reported back and the delay has passed. An origin whose
robots.txt is unknown gets a fetch (the shell runs it, in the host's pacing slot
too); a URL not reported back within its lease goes back to the queue. With a
:class:`Gate` (several nodes), the host's shared slot must be free too.
"""

from __future__ import annotations

import contextlib
import heapq
import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol

from robotkit.base.outcome import Outcome
from robotkit.base.reasons import Decision, Reason
from robotkit.frontier.frontier import FrontierEntry
from robotkit.pacing.pacer import HostKey
from robotkit.robots.verdict import Verdict
from robotkit.service.crawls import RECHECK, Crawl, Crawls
from robotkit.service.records import Queue, URLRecord, URLState, crawl_id

__all__ = [
    "DEFAULT_LEASE",
    "DEFERRED_RETRY",
    "Gate",
    "Handout",
    "RobotsFetch",
    "RobotsOracle",
    "Taken",
]

DEFAULT_LEASE = 30.0
"""Seconds a URL handed out stays out when GetURLs leaves ``delay_requestable`` at 0."""
DEFERRED_RETRY = 60.0
"""Seconds a robots.txt deferral holds its host when it names no time."""

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


@dataclass(frozen=True, slots=True)
class RobotsFetch:
    """A robots.txt fetch the shell must run for ``entry``'s origin, through the
    core's pacer (each hop in its host's slot, as any request); the entry is held
    until :meth:`Handout.robots_done`."""

    crawl: str
    entry: FrontierEntry


@dataclass(slots=True)
class Taken:
    """What one GetURLs call hands out, and the robots.txt fetches it needs."""

    handed: list[URLRecord] = field(default_factory=list)
    fetches: list[RobotsFetch] = field(default_factory=list)


@dataclass(slots=True)
class _Ask:
    """One GetURLs call's parameters and what it has handed out so far."""

    robots: RobotsOracle
    now: float
    lease: float
    key: str
    max_queues: int
    max_per_queue: int
    taken: Taken = field(default_factory=Taken)
    used: dict[Queue, int] = field(default_factory=dict)

    def full(self) -> bool:
        used, per_queue = self.used, self.max_per_queue
        return (
            bool(self.max_queues)
            and len(used) >= self.max_queues
            and all(per_queue and n >= per_queue for n in used.values())
        )

    def passes(self, queue: Queue) -> bool:
        """May this call take a URL of ``queue`` (its key, limit and the call's)?"""
        count = self.used.get(queue, 0)
        return not (
            (self.key and queue.key != self.key)
            or (queue.limit is not None and queue.done + queue.in_flight >= queue.limit)
            or (self.max_per_queue and count >= self.max_per_queue)
            or (self.max_queues and not count and len(self.used) >= self.max_queues)
        )


class Handout:
    """GetURLs over ``crawls``: the hand-out, the leases, the end of each fetch.
    ``lease``: seconds a URL stays out when GetURLs asks for no
    ``delay_requestable``; ``gate``: the shared slot of several nodes."""

    def __init__(
        self, crawls: Crawls, *, lease: float = DEFAULT_LEASE, gate: Gate | None = None
    ) -> None:
        self.crawls = crawls
        self.clock = crawls.clock
        self.pacer = crawls.pacer
        self.gate = gate
        self.lease = lease
        self.active = True
        self.robots_fetches = 0
        self.leases: list[tuple[float, int, str, str]] = []
        self.seq = itertools.count()

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
        self.expire(now)
        self.crawls.unblock(now)
        ask = _Ask(robots, now, lease if lease > 0 else self.lease, key, max_queues, max_per_queue)
        if not self.active:
            return ask.taken
        known = self.crawls.crawls
        names = list(known) if crawls is None else [crawl_id(c) for c in crawls]
        for name in names:
            crawl = known.get(name)
            if crawl is None:
                continue
            self.crawls.release_due(crawl, now)
            aside: list[FrontierEntry] = []
            try:
                self._take_from(crawl, ask, aside)
            finally:
                for entry in aside:
                    crawl.frontier.requeue(entry)
            if ask.full():
                break
        return ask.taken

    def _take_from(self, crawl: Crawl, ask: _Ask, aside: list[FrontierEntry]) -> None:
        frontier, now = crawl.frontier, ask.now
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
            if not ask.passes(record.queue):
                record.pending += 1
                aside.append(entry)
                continue
            self._offer(crawl, record, entry, ask, aside)

    def _offer(
        self, crawl: Crawl, record: URLRecord, entry: FrontierEntry, ask: _Ask,
        aside: list[FrontierEntry],
    ) -> None:  # fmt: skip
        """The frontier's next entry of a queue the call may take from: handed out,
        refused, or put back for its time."""
        frontier, pacer, now = crawl.frontier, self.pacer, ask.now
        host = entry.host.pacing_key
        plan = pacer.plan(host)
        if plan.skip_reason is not None:
            self.crawls.drop(crawl, record, plan.skip_reason)
            frontier.mark_done(entry)
            return
        verdict = ask.robots(entry.url)
        if verdict is None:
            record.pending += 1
            if plan.ready_at is None or plan.ready_at > now:
                aside.append(entry)
                return
            ask.taken.fetches.append(RobotsFetch(crawl.name, entry))
            self.robots_fetches += 1
            return
        decision = verdict.decision
        if decision is Decision.DISALLOW:
            self.crawls.drop(crawl, record, verdict.reason)
            frontier.mark_done(entry)
            return
        if decision is Decision.DEFER:
            record.pending += 1
            record.reason = verdict.reason
            until = verdict.retry_at if verdict.retry_at is not None else now + DEFERRED_RETRY
            pacer.hold(host, until)
            frontier.requeue(entry, until)
            return
        if verdict.crawl_delay is not None or verdict.request_rate is not None:
            skip = pacer.apply_robots(host, verdict.crawl_delay, verdict.request_rate)
            if skip is not None:
                self.crawls.drop(crawl, record, skip)
                frontier.mark_done(entry)
                return
        if self.crawls.ready_at(crawl, entry.host) > now:
            record.pending += 1
            frontier.requeue(entry)  # placed at its time by the readiness
            return
        ticket = pacer.start(host)
        if self.gate is not None:
            gate_ticket, wait = self.gate.reserve(host)
            if gate_ticket is None:  # another node has the host out, or it is not due
                pacer.withdraw(ticket)
                record.pending += 1
                frontier.requeue(entry, now + max(min(wait, RECHECK), 0.01))
                return
            record.gate_ticket = gate_ticket
        record.ticket = ticket
        record.entry = entry
        record.reason = None
        record.lease_until = until = now + ask.lease
        heapq.heappush(self.leases, (until, next(self.seq), crawl.name, record.key))
        self.crawls.move(record, URLState.IN_FLIGHT)
        queue = record.queue
        queue.last_handout = now
        ask.used[queue] = ask.used.get(queue, 0) + 1
        ask.taken.handed.append(record)

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
        crawl = self.crawls.crawls.get(fetch.crawl)
        if crawl is None or crawl.frontier is None:
            return
        record = crawl.records.get(fetch.entry.key)
        if record is not None and hold is not None:
            record.reason = Reason.ROBOTS_DEFERRED
        with contextlib.suppress(ValueError):  # the host was dropped meanwhile (DeleteQueue)
            crawl.frontier.requeue(fetch.entry, hold)

    def hold(self, host: HostKey, until: float) -> None:
        """A Retry-After reported outside a fetch: nothing goes to the host before."""
        self.pacer.hold(host, until)
        if self.gate is not None:
            self.gate.hold(host, until)

    def finish(
        self, crawl: Crawl, record: URLRecord, outcome: Outcome | None, retry_at: float | None
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

    def cancel(self, record: URLRecord) -> None:
        """Give back the slots of a record in flight whose fetch will not be
        reported (its lease ended, its crawl was deleted): nothing was learned."""
        if record.ticket is not None:
            self.pacer.cancel(record.ticket)
        if record.gate_ticket is not None and self.gate is not None:
            self.gate.finish(record.gate_ticket, None, None)

    def expire(self, now: float) -> None:
        """URLs out past their lease go back to their queue's head."""
        leases = self.leases
        while leases and leases[0][0] <= now:
            until, _, name, key = heapq.heappop(leases)
            crawl = self.crawls.crawls.get(name)
            record = None if crawl is None else crawl.records.get(key)
            if crawl is None or record is None or record.state is not URLState.IN_FLIGHT:
                continue
            if record.lease_until != until or record.entry is None:
                continue
            self.cancel(record)
            crawl.frontier.requeue(record.entry)
            record.entry = record.ticket = record.gate_ticket = None
            record.pending += 1
            record.reason = Reason.LEASE_EXPIRED
            self.crawls.move(record, URLState.QUEUED)

    def next_time(self) -> float | None:
        """The earliest time a GetURLs could hand out something new, for a shell
        that waits; None when nothing is queued."""
        crawls = self.crawls.crawls.values()
        times = [t for c in crawls if (t := c.frontier.next_ready_time()) is not None]
        times += [c.later[0][0] for c in crawls if c.later]
        if self.leases:
            times.append(self.leases[0][0])
        return min(times) if times else None
