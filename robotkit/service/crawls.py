"""The crawls of a service node and their queues: which queue a host belongs to,
when a host may be served (its pacer and the queue's own delay), the queue
settings (SetDelay, BlockQueueUntil, SetCrawlLimit), and the bookkeeping every
change of a record goes through (its state and the queue's counts, its frontier
entry, the bounded table of refused URLs).
"""

from __future__ import annotations

import heapq
import itertools
from collections import OrderedDict
from collections.abc import Callable
from typing import Protocol

from robotkit.base.clock import Clock
from robotkit.base.reasons import Reason
from robotkit.frontier.frontier import Frontier
from robotkit.pacing.pacer import Pacer
from robotkit.service.records import (
    Incoming,
    Queue,
    URLRecord,
    URLState,
    crawl_id,
    default_key,
    frozen,
)
from robotkit.triage.guard import Guard
from robotkit.url.normalization import NormalizedURL, normalize
from robotkit.url.parse import InvalidURL, Origin

__all__ = ["MAX_REFUSED", "RECHECK", "Changes", "Crawl", "Crawls"]

RECHECK = 0.25
"""Seconds after which a host busy in another crawl of the service is asked again."""
MAX_REFUSED = 100_000
"""Refused URLs remembered per crawl for GetURLStatus (the oldest go first)."""


_OUT_OR_QUEUED = frozenset({URLState.QUEUED, URLState.IN_FLIGHT})


class Changes(Protocol):
    """Told of every change of a record that a restart must see (a node's journal,
    :mod:`robotkit.service.state`): not the hand-out of a queued URL, nor its
    return at the end of a lease (a URL out is queued again at a restart)."""

    def changed(self, record: URLRecord) -> None:
        """``record`` was created, or its state or metadata changed."""
        ...

    def forgotten(self, crawl: str, key: str) -> None:
        """The record ``key`` of ``crawl`` is gone (refused, purged, deleted)."""
        ...

    def dropped(self, crawl: str) -> None:
        """The crawl is gone with all its records (DeleteCrawl)."""
        ...


class _Readiness:
    """When a host may be served: its pacer's answer, the queue's own delay (SetDelay)
    after its last hand-out; a host busy elsewhere is asked again shortly."""

    __slots__ = ("crawl", "crawls")

    def __init__(self, crawls: Crawls, crawl: Crawl) -> None:
        self.crawls = crawls
        self.crawl = crawl

    def ready_at(self, origin: Origin) -> float:
        return self.crawls.ready_at(self.crawl, origin)


class Crawl:
    """One crawl id: its frontier, records, queues and guard."""

    def __init__(self, crawls: Crawls, name: str, guard: Guard) -> None:
        self.name = name
        self.guard = guard
        self.frontier = Frontier(readiness=_Readiness(crawls, self))
        self.records: dict[str, URLRecord] = {}
        self.refused: OrderedDict[str, URLRecord] = OrderedDict()
        self.queues: dict[str, Queue] = {}
        self.by_origin: dict[Origin, Queue] = {}
        self.later: list[tuple[int, int, str]] = []  # (refetch date, seq, key)
        self.fingerprints: dict[int, str] = {}  # exact hash -> first URL key
        self.copies = 0

    def record_of(self, url: str) -> URLRecord | None:
        """The record of ``url`` (any spelling of its key), or None."""
        try:
            key = normalize(url).key
        except InvalidURL:
            return None
        return self.records.get(key)


class Crawls:
    """Every crawl of one node over one pacer (politeness is per host across crawls).
    ``guard`` makes each crawl's guard."""

    def __init__(
        self,
        clock: Clock,
        pacer: Pacer,
        *,
        guard: Callable[[], Guard] = Guard,
        max_refused: int = MAX_REFUSED,
    ) -> None:
        self.clock = clock
        self.pacer = pacer
        self.make_guard = guard
        self.max_refused = max_refused
        self.crawls: dict[str, Crawl] = {}
        self.default_queue_delay: float | None = None
        self.blocks: list[tuple[float, int, str, str]] = []
        self.seq = itertools.count()
        self.changes: Changes | None = None

    def crawl(self, name: str) -> Crawl:
        """The crawl ``name``, made on first use."""
        crawl = self.crawls.get(name)
        if crawl is None:
            crawl = self.crawls[name] = Crawl(self, name, self.make_guard())
        return crawl

    def find(self, crawl_name: str) -> Crawl | None:
        """The crawl of a protocol crawl id (empty: ``DEFAULT``), if it exists."""
        return self.crawls.get(crawl_id(crawl_name))

    def queue(self, crawl_name: str, key: str) -> tuple[Crawl, Queue] | None:
        crawl = self.find(crawl_name)
        queue = None if crawl is None else crawl.queues.get(key)
        return None if crawl is None or queue is None else (crawl, queue)

    def queue_for(self, crawl: Crawl, origin: Origin, key: str) -> Queue:
        """An origin belongs to one queue: the one its first URL named."""
        queue = crawl.by_origin.get(origin)
        if queue is not None:
            return queue
        key = key or default_key(origin)
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

    # -- records ---------------------------------------------------------------------

    def move(self, record: URLRecord, state: URLState) -> None:
        """A record changes state (or, to the same state, its metadata): its queue's
        counts follow, and :attr:`changes` is told."""
        old = record.state
        record.queue.count(old, state)
        record.state = state
        changes = self.changes
        if changes is None or (old in _OUT_OR_QUEUED and state in _OUT_OR_QUEUED):
            return
        if state is URLState.REFUSED:
            changes.forgotten(record.queue.crawl, record.key)
        else:
            changes.changed(record)

    def forget(self, crawl: Crawl, record: URLRecord) -> None:
        """A record leaves the crawl without a trace (PurgeURLs, DeleteQueue)."""
        record.queue.count(record.state, None)
        del crawl.records[record.key]
        if self.changes is not None:
            self.changes.forgotten(crawl.name, record.key)

    def remove(self, crawl_name: str) -> Crawl | None:
        """The crawl leaves the node with its records (DeleteCrawl)."""
        crawl = self.crawls.pop(crawl_id(crawl_name), None)
        if crawl is not None and self.changes is not None:
            self.changes.dropped(crawl.name)
        return crawl

    def new_record(
        self, crawl: Crawl, norm: NormalizedURL, item: Incoming, depth: int
    ) -> URLRecord:
        """A record for a URL the crawl did not know, counted as done until its
        first :meth:`move`."""
        queue = self.queue_for(crawl, norm.origin, item.queue_key)
        key = item.url if norm.key == item.url else norm.key  # one string when equal
        record = URLRecord(
            item.url, key, queue, norm.origin, int(self.clock()), frozen(item.metadata), depth,
            URLState.DONE,
        )  # fmt: skip
        queue.done += 1
        crawl.records[key] = record
        return record

    def refuse(
        self, crawl: Crawl, url: str, key: str | None, reason: Reason, queue_key: str
    ) -> None:
        """Remember a URL refused at PutURLs (bounded), for GetURLStatus."""
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

    def drop(self, crawl: Crawl, record: URLRecord, reason: Reason) -> None:
        """A record leaves the frontier's work for good (refused after queuing:
        robots.txt, a skipped host, a copy's link): it becomes a refused record."""
        self.move(record, URLState.REFUSED)
        record.reason = reason
        crawl.records.pop(record.key, None)
        crawl.refused[record.key] = record
        if len(crawl.refused) > self.max_refused:
            crawl.refused.popitem(last=False)

    def enqueue(self, crawl: Crawl, record: URLRecord, referer: str | None = None) -> None:
        """Give a queued record an entry in the crawl's frontier, unless it has one."""
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

    def wait_for(self, crawl: Crawl, record: URLRecord, date: int) -> None:
        """The record waits for its refetch date (``date`` > 0)."""
        record.refetch_from = date
        self.move(record, URLState.WAITING)
        heapq.heappush(crawl.later, (date, next(self.seq), record.key))

    def release_due(self, crawl: Crawl, now: float) -> None:
        """URLs whose refetch date has come are queued again."""
        later = crawl.later
        while later and later[0][0] <= now:
            when, _, key = heapq.heappop(later)
            record = crawl.records.get(key)
            if record is None or record.state is not URLState.WAITING:
                continue
            if record.refetch_from != when:
                continue
            self.move(record, URLState.QUEUED)
            self.enqueue(crawl, record)

    # -- queue settings --------------------------------------------------------------

    def block(self, crawl_name: str, key: str, until: float) -> None:
        """BlockQueueUntil: nothing of the queue goes out before ``until`` (0 unblocks)."""
        found = self.queue(crawl_name, key)
        if found is None:
            return
        crawl, queue = found
        queue.blocked_until = until
        if until > self.clock():
            for origin in queue.origins:
                crawl.frontier.park_host(origin, Reason.QUEUE_BLOCKED)
            heapq.heappush(self.blocks, (until, next(self.seq), crawl.name, key))
        else:
            for origin in queue.origins:
                crawl.frontier.unpark_host(origin)

    def unblock(self, now: float) -> None:
        """The queues whose block has ended are served again."""
        blocks = self.blocks
        while blocks and blocks[0][0] <= now:
            until, _, name, key = heapq.heappop(blocks)
            found = self.queue(name, key)
            if found is not None and found[1].blocked_until == until:
                for origin in found[1].origins:
                    found[0].frontier.unpark_host(origin)

    def set_delay(self, crawl_name: str, key: str, delay: float) -> None:
        """SetDelay: seconds between two hand-outs of the queue, on top of the host's
        pacing (an empty key: every queue's default)."""
        if not key:
            self.default_queue_delay = delay
            return
        found = self.queue(crawl_name, key)
        if found is not None:
            found[1].delay = delay

    def set_limit(self, crawl_name: str, key: str, limit: int) -> None:
        """SetCrawlLimit: URLs of the queue fetched at most (0: no limit); once as
        many are done or out, the rest stay queued and are not handed out."""
        found = self.queue(crawl_name, key)
        if found is not None:
            found[1].limit = limit or None
