"""The reference polite crawler: robotkit's components composed into a crawl.

Breadth-first over the seeds' hosts, one request at a time per host, every request
through :class:`~robotkit.http.transport.AsyncPoliteTransport` (identity headers,
robots.txt verdict, pacing, Retry-After, backoff, body cap, response deadline,
redirect cap, SSRF guard). What this module adds is only the order of the steps and
the bookkeeping; every rule lives in its own module:

==========================  ====================================================
step                        decided by
==========================  ====================================================
de-duplication key          :func:`robotkit.url.normalization.normalize`
seen set, BFS, depth limit  :class:`robotkit.frontier.frontier.Frontier` (both tiers)
when a host is ready        the client's pacer, asked by the frontier
                            (:class:`robotkit.pacing.readiness.PacerReadiness`)
URL-shape traps, blacklist  :class:`robotkit.triage.guard.Guard` (also on redirect hops)
robots.txt, pacing, limits  the polite transport (:mod:`robotkit.http`)
what a page means          :class:`robotkit.triage.triage.Triage` (duplicates, soft
                            404s, growing regions, learned URL rules, breaker)
meta robots, X-Robots-Tag   :mod:`robotkit.page.meta` (read by the transport)
==========================  ====================================================

The crawl loop is here; one URL's fetch and what follows it (retries, deferrals,
probes, the triage's verdict) is :class:`robotkit.crawler.fetch.FetchStep`; the gate
of the frontier (scope, seen, screening) is
:class:`robotkit.crawler.admission.Admission`; the tasks in flight are
:class:`robotkit.crawler.tasks.InFlight`; the configuration and the polite client
are in :mod:`robotkit.crawler.config`, events in :mod:`robotkit.crawler.report`, the
state directory in :mod:`robotkit.crawler.state`. Those parts see the crawler only
through the protocols of :mod:`robotkit.crawler.ports`, implemented here with
public methods, and never import this module.

Links of a page the triage judged novel go to the main tier; links of a page that
only looks like another go to the demoted tier of the same frontier, served when
the main tier is empty and idle, until it is empty or the triage parks their
region. The crawler asks the triage about every URL twice: when it is found, and
just before it is fetched (what was learned in between may rule it out).

Every decision is reported as a :class:`CrawlEvent` (one JSON line in
``robotkit crawl --output``).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import httpx

from robotkit.base.clock import Clock, system_clock
from robotkit.base.identity import Identity
from robotkit.base.reasons import Reason
from robotkit.content import ContentIndex, Soft404Detector
from robotkit.crawler.admission import Admission
from robotkit.crawler.config import CrawlConfig, is_loopback_url, polite_client
from robotkit.crawler.fetch import FetchContext, FetchStep
from robotkit.crawler.report import CrawlEvent, CrawlSummary, EventKind
from robotkit.crawler.state import CrawlState
from robotkit.crawler.tasks import InFlight
from robotkit.frontier.frontier import Frontier, FrontierEntry, Tier
from robotkit.http.client import AsyncPoliteClient
from robotkit.pacing.readiness import PacerReadiness
from robotkit.triage.guard import Guard
from robotkit.triage.triage import Triage
from robotkit.triage.waste import Waiting
from robotkit.url.normalization import NormalizedURL
from robotkit.url.parse import Origin

if TYPE_CHECKING:  # the ``redis`` extra: imported only by a crawl shared on Redis
    from robotkit.crawler.turn import SharedTurn
    from robotkit.shared.crawl import SharedCrawl
    from robotkit.shared.state import SharedState

__all__ = [
    "CrawlConfig",
    "CrawlEvent",
    "CrawlSummary",
    "Crawler",
    "EventKind",
    "Tier",
    "crawl",
    "is_loopback_url",
]


class Crawler:
    """A breadth-first polite crawl of ``seeds``' hosts.

    ``on_event`` receives each :class:`CrawlEvent` as it is decided. ``state_dir``
    (a directory, or a :class:`~robotkit.crawler.state.CrawlState` for its options)
    makes the crawl resumable and locks the directory: the frontier, the counters
    and what the crawl learned are kept there, and a crawler started on a
    directory that holds a crawl continues it (nothing recorded is fetched again,
    no trap is paid for twice). What a page means is decided by ``triage``
    (:class:`robotkit.triage.triage.Triage`, built over ``guard``). ``transport`` replaces
    the inner httpx transport (tests, proxies); ``clock`` is the wall clock.

    ``shared`` (a :class:`~robotkit.shared.state.SharedState`) makes this crawler
    one worker of a crawl shared on Redis (ARCHITECTURE.md, "Shared state"): the
    robots.txt cache and the pacing are the transport's shared ones, and the
    frontier is spread over the workers, each host owned by one of them
    (:class:`~robotkit.shared.crawl.SharedCrawl`). ``worker`` names this worker
    (a random id by default); ``owner_lease``: how long its hosts stay its own
    without a renewal (a killed worker's hosts go to others after that).

    Its parts see it through protocols (:mod:`robotkit.crawler.ports`): one URL's
    fetch reports with :meth:`emit`, :meth:`skip`, :meth:`signal`, :meth:`finish`,
    :meth:`requeue` and :meth:`offer`; a shared worker's turn reads
    :attr:`in_flight` and screens links with :meth:`admit`.
    """

    def __init__(
        self,
        seeds: Sequence[str],
        config: CrawlConfig | None = None,
        *,
        identity: Identity | None = None,
        guard: Guard | None = None,
        on_event: Callable[[CrawlEvent], None] | None = None,
        state_dir: str | os.PathLike[str] | CrawlState | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        clock: Clock = system_clock,
        shared: SharedState | None = None,
        worker: str | None = None,
        owner_lease: float | None = None,
    ) -> None:
        if shared is not None and state_dir is not None:
            raise ValueError("a crawl shared on Redis keeps its state there, not in --state")
        self.config = config if config is not None else CrawlConfig()
        self.identity = identity if identity is not None else Identity()
        self.guard = guard if guard is not None else Guard()
        self.triage = Triage(self.guard, self.config.triage)
        self.clock = clock
        self.on_event = on_event
        self.state = CrawlState.of(state_dir)
        self.summary = CrawlSummary()
        self.seeds = list(seeds)
        """The seeds (a resume puts the recorded ones here)."""
        self.retries: Counter[str] = Counter()
        """How often each URL key was tried again."""
        self._inner = transport
        self._admission = Admission(self)
        self.frontier = Frontier(self.config.max_depth, self.config.host_budget)
        """Both tiers' URLs, one seen set; it asks the client's pacer when a host is
        ready (wired in :meth:`run`, after a resume may have replaced it)."""
        self._tasks = InFlight(self._failed)
        self._stopping = False
        self._since_checkpoint = 0
        self._failure: BaseException | None = None
        self.waiting: dict[Origin, str] = {}
        """Hosts held back and why (``pacing``, ``retry-after``, ``deferred``), for a
        live display."""
        self.client: AsyncPoliteClient | None = None
        self._fetch: FetchStep | None = None
        self.shared = shared
        self.worker = worker if worker is not None else os.urandom(6).hex()
        self._owner_lease = owner_lease
        self._turn: SharedTurn | None = None

    # -- public -------------------------------------------------------------------

    @property
    def work(self) -> SharedCrawl | None:
        """This worker's part of a shared crawl (None when the crawl is its own)."""
        return None if self._turn is None else self._turn.work

    @property
    def content(self) -> ContentIndex:
        """The triage's index of page fingerprints."""
        return self.triage.content

    @property
    def soft404(self) -> Soft404Detector:
        """The triage's soft-404 detector (its probes are fetched here)."""
        return self.triage.soft404

    @property
    def pages(self) -> int:
        """Requests spent on pages so far (fetched or failed; probes not counted)."""
        return self.summary.fetched + self.summary.failed

    @property
    def in_flight(self) -> Collection[FrontierEntry]:
        """The entries being fetched now."""
        return self._tasks.entries

    def stop(self) -> None:
        """Stop soon (Ctrl-C): no new requests; requests in flight are abandoned
        and stay queued, so a resumed crawl fetches them."""
        self._stopping = True
        self.summary.interrupted = True
        self._tasks.cancel()
        self._tasks.wake()

    async def run(self) -> CrawlSummary:
        """Crawl until nothing is left, the page budget is spent, or :meth:`stop`."""
        self.summary.started = self.clock()
        if self.state is not None:
            self.state.open(self)
        self.client = client = polite_client(
            self.config,
            self._inner,
            identity=self.identity,
            guard=self.triage.request_check,
            scope=self.in_scope,
            clock=self.clock,
            shared=self.shared,
        )
        self.frontier.readiness = PacerReadiness(client.polite.pacer)
        context = FetchContext(
            self.frontier, self.triage, client, self.clock, self.config, self.retries
        )
        self._fetch = FetchStep(context, self)
        try:
            self._join()
            for seed in self.seeds:
                self.offer(seed, 0, None, seed=True)
            await self._loop()
            if self._turn is not None:
                await self._turn.settled()
            if self._failure is not None:
                raise self._failure
            if not self._stopping and not self.summary.budget_spent:
                self._report_parked()
                self._admission.report_waiting()
        finally:
            await self._tasks.close()
            if self._turn is not None:  # its hosts back at once (SharedTurn.leave)
                await self._turn.leave()
            self._save_state()
            if self.state is not None:
                self.state.close(self)
            await client.aclose()
            stats = self.frontier.stats()
            self.summary.queued_left = stats.queued
            self.summary.parked_left = stats.parked
            self.summary.ended = self.clock()
        return self.summary

    def in_scope(self, url: str) -> bool:
        """Whether ``url`` is on one of the seeds' hosts."""
        return self._admission.in_scope(url)

    # -- a worker of a shared crawl ---------------------------------------------------

    def _join(self) -> None:
        """Take this crawler's part of the shared crawl, if it has one."""
        if self.shared is None:
            return
        from robotkit.crawler.turn import SharedTurn
        from robotkit.shared.crawl import DEFAULT_OWNER_LEASE, SharedCrawl

        lease = DEFAULT_OWNER_LEASE if self._owner_lease is None else self._owner_lease
        work = SharedCrawl(
            self.shared.async_client(),
            self.shared.namespace,
            self.worker,
            lease=lease,
            carry=self.shared.finishes,  # a page's pacer finish rides on its settle
        )
        self._turn = SharedTurn(self, work)

    # -- the loop -----------------------------------------------------------------

    async def _loop(self) -> None:
        cfg = self.config
        while not self._stopping:
            budget = cfg.max_pages - self.pages - len(self._tasks)
            if self._turn is not None and await self._turn():
                return  # every worker of the shared crawl is done
            if budget > 0 and len(self._tasks) < cfg.concurrency:
                entry = self.frontier.next(self.clock())
                if entry is not None:
                    self._tasks.start(entry, self._process(entry))
                    continue
            if budget <= 0 and not self._tasks:
                self.summary.budget_spent = True
                return
            when = self.frontier.next_ready_time() if budget > 0 else None
            if self._turn is not None:
                poll = self._turn.next_sync
                when = poll if when is None else min(when, poll)
            elif when is None and not self._tasks:
                return  # nothing left anywhere
            await self._tasks.sleep(when, self.clock())

    async def _process(self, entry: FrontierEntry) -> None:
        assert self._fetch is not None
        self.waiting.pop(entry.host, None)
        await self._fetch.process(entry)
        if self._turn is not None:
            await self._turn.settle()  # the page's end and its links, in one step

    def _failed(self, failure: BaseException) -> None:
        """A fetch raised: a bug, not a site's doing. Stop the crawl; run() raises it."""
        self._failure = failure
        self.stop()
        self.summary.interrupted = False

    # -- the protocol of its parts (robotkit.crawler.ports) -----------------------------

    def emit(self, event: CrawlEvent) -> None:
        """Report a decision: counted, journaled in the state directory, passed on."""
        self.summary.count(event)
        if self.state is not None:
            self.state.record(self, event)
        if self.on_event is not None:
            self.on_event(event)

    def skip(
        self,
        url: str,
        reason: Reason,
        depth: int,
        referer: str | None,
        *,
        probe: bool = False,
        copy_rule: str | None = None,
    ) -> None:
        """Report a decision not to fetch ``url``, now."""
        self.emit(CrawlEvent.skipped(url, reason, depth, referer, self.clock(), probe, copy_rule))

    def learned(self, kind: str, fact: dict[str, Any] | None) -> None:
        """Journal a fact just learned in the state directory: a crawl killed before
        its next checkpoint does not pay for it again (ARCHITECTURE.md, "State and
        resume")."""
        if fact is not None and self.state is not None:
            self.state.learned(kind, fact)

    def signal(self, line: str | None) -> None:
        """Keep a trap signal for the summary, if there is one."""
        if line is not None:
            self.summary.trap_signals.append(line)

    def offer(
        self, url: str, depth: int, referer: str | None, streak: int = 0, *, seed: bool = False
    ) -> None:
        """Decide about a URL found on a page (or a seed): skip it, or queue it
        (:meth:`robotkit.crawler.admission.Admission.offer`)."""
        self._admission.offer(url, depth, referer, streak, seed=seed)

    def admit(
        self, url: str, norm: NormalizedURL, key: str, depth: int, referer: str | None, streak: int
    ) -> None:
        """Screen a URL of one of this crawler's hosts and queue it, or skip it."""
        self._admission.admit(url, norm, key, depth, referer, streak)

    def queue_again(self, waiting: Waiting) -> None:
        """Queue again a URL that waited on the waste bound and is vouched for now
        (:meth:`robotkit.crawler.admission.Admission.queue_again`)."""
        self._admission.queue_again(waiting)

    def finish(self, entry: FrontierEntry) -> None:
        """``entry`` is done with: its host may be served again; a checkpoint when due."""
        self.frontier.mark_done(entry)
        if self.work is not None:
            self.work.done(entry.host, entry.key)
        self._admission.settle_waste(entry.host)
        self.waiting[entry.host] = "pacing"
        self._since_checkpoint += 1
        if self._since_checkpoint >= self.config.checkpoint_every:
            self._save_state()

    def requeue(self, entry: FrontierEntry, hold: float | None, why: str) -> None:
        """Put ``entry`` back; ``hold``: a time only the crawler knows (a robots.txt
        deferral), kept by the frontier; the pacer's own holds it asks for."""
        self.frontier.requeue(entry, hold)
        self.waiting[entry.host] = why

    def _report_parked(self) -> None:
        """At the natural end, URLs held back in a parked trap region are decided:
        skipped with the region's reason (host-budget ones were reported when
        parked)."""
        for entry, reason in self.frontier.parked():
            if reason is not Reason.HOST_BUDGET:
                self.skip(entry.url, reason, entry.depth, entry.referer)

    def _save_state(self) -> None:
        self._since_checkpoint = 0
        if self.state is not None:
            self.state.save(self)


async def crawl(
    seeds: Iterable[str],
    config: CrawlConfig | None = None,
    **options: Any,
) -> tuple[CrawlSummary, list[CrawlEvent]]:
    """Crawl and collect every event: the short form for scripts and tests."""
    events: list[CrawlEvent] = []
    crawler = Crawler(list(seeds), config, on_event=events.append, **options)
    summary = await crawler.run()
    return summary, events
