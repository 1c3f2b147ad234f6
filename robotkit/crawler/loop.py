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
probes, the triage's verdict) is :class:`robotkit.crawler.fetch.FetchStep`; events
are in :mod:`robotkit.crawler.report`, the state directory in
:mod:`robotkit.crawler.state`.

Links of a page the triage judged novel go to the main tier; links of a page that
only looks like another go to the demoted tier of the same frontier, served when
the main tier is empty and idle, until it is empty or the triage parks their
region. The crawler asks the triage about every URL twice: when it is found, and
just before it is fetched (what was learned in between may rule it out).

Every decision is reported as a :class:`CrawlEvent` (one JSON line in
``robotkit crawl --output``).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import os
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import httpx

from robotkit.base.clock import Clock, system_clock
from robotkit.base.identity import Identity
from robotkit.base.reasons import Reason
from robotkit.base.snapshot import listed, reading, typed
from robotkit.content import ContentIndex, Soft404Detector
from robotkit.crawler.fetch import FetchStep
from robotkit.crawler.report import CrawlEvent, CrawlSummary, EventKind
from robotkit.crawler.state import CrawlState
from robotkit.frontier.frontier import Frontier, FrontierEntry, Tier
from robotkit.http.checker import RobotsOptions
from robotkit.http.client import AsyncPoliteClient
from robotkit.http.settings import CRAWL_MAX_BODY
from robotkit.http.transport import (
    AddressPolicy,
    AsyncPoliteTransport,
    FetchLimits,
)
from robotkit.pacing.pacer import PacingPolicy
from robotkit.pacing.readiness import PacerReadiness
from robotkit.triage.guard import Guard, GuardVerdict, Rule
from robotkit.triage.triage import Triage, TriageConfig
from robotkit.url.normalization import NormalizedURL, normalize
from robotkit.url.parse import InvalidURL, Origin, origin_of

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

# URL-shape rules whose refusals count as trap signals towards the auto-blacklist.
_SHAPE_RULES = frozenset(
    {Rule.URL_TOO_LONG, Rule.PATH_TOO_DEEP, Rule.TOO_MANY_PARAMS, Rule.REPEATED_PATH}
)


@dataclass(frozen=True)
class CrawlConfig:
    """How a crawl behaves; the defaults are ``robotkit crawl``'s.

    ``max_defer``: the longest the crawl waits for a host that asked it to come back
    later (robots.txt 5xx, 429/503 Retry-After, backoff); a longer wait skips the URL
    with the deferral's reason, so a crawl always ends by itself. ``retries``: how
    often a URL that got 429/5xx or a network error is tried again (Scrapy's default
    is 2). ``response_timeout`` 10 s: the total deadline of one response, body
    included, as Nutch's ``http.timeout``; a tarpit costs at most that per URL, and
    the triage's breaker stops a path family after two. ``triage``: the trap
    policy's limits (:class:`robotkit.triage.triage.TriageConfig`).
    """

    max_pages: int = 1000
    max_depth: int | None = None
    delay: float = 1.0
    robots: RobotsOptions = field(default_factory=RobotsOptions)
    allow_private: bool = False
    response_timeout: float = 10.0
    max_body_bytes: int = CRAWL_MAX_BODY
    max_defer: float = 30.0
    concurrency: int = 16
    host_budget: int | None = None
    soft404_probes: bool = True
    retries: int = 2
    checkpoint_every: int = 50
    triage: TriageConfig = field(default_factory=TriageConfig)

    def __post_init__(self) -> None:
        if self.max_pages < 0:
            raise ValueError("max_pages must be >= 0")
        if self.max_depth is not None and self.max_depth < 0:
            raise ValueError("max_depth must be >= 0")
        if self.delay < 0 or self.max_defer < 0 or self.response_timeout <= 0:
            raise ValueError("delay and max_defer must be >= 0, response_timeout > 0")
        if self.concurrency < 1 or self.retries < 0:
            raise ValueError("concurrency must be >= 1, retries >= 0")


def is_loopback_url(url: str) -> bool:
    """Whether ``url`` names a loopback address literally (127.0.0.0/8, ``[::1]``
    or ``localhost``): no resolver is involved, so there is nothing to forge."""
    try:
        host = normalize(url).host
    except InvalidURL:
        return False
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


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
        self._inner = transport
        self._seeds = list(seeds)
        self._scope: set[tuple[str, int | None]] = set()
        cfg = self.config
        self.frontier = Frontier(cfg.max_depth, cfg.host_budget)
        """Both tiers' URLs, one seen set; it asks the client's pacer when a host is
        ready (wired in :meth:`run`, after a resume may have replaced it)."""
        self._tasks: dict[asyncio.Task[None], FrontierEntry] = {}
        self._stopping = False
        self._retries: Counter[str] = Counter()
        self._since_checkpoint = 0
        self._wake: asyncio.Event | None = None
        self._failure: BaseException | None = None
        self.waiting: dict[Origin, str] = {}
        """Hosts held back and why (``pacing``, ``retry-after``, ``deferred``), for a
        live display."""
        self.client: AsyncPoliteClient | None = None
        self._fetch = FetchStep(self)
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

    def stop(self) -> None:
        """Stop soon (Ctrl-C): no new requests; requests in flight are abandoned
        and stay queued, so a resumed crawl fetches them."""
        self._stopping = True
        self.summary.interrupted = True
        for task in self._tasks:
            task.cancel()
        if self._wake is not None:
            self._wake.set()

    async def run(self) -> CrawlSummary:
        """Crawl until nothing is left, the page budget is spent, or :meth:`stop`."""
        self._wake = asyncio.Event()
        self.summary.started = self.clock()
        self._open_state()
        self.client = self._make_client()
        self.frontier.readiness = PacerReadiness(self.client.polite.pacer)
        try:
            self._join()
            for seed in self._seeds:
                self._offer(seed, 0, None, seed=True)
            await self._loop()
            if self._failure is not None:
                raise self._failure
            if not self._stopping and not self.summary.budget_spent:
                self._report_parked()
                self._report_waiting()
        finally:
            for task in list(self._tasks):
                task.cancel()
            if self._tasks:
                await asyncio.gather(*self._tasks, return_exceptions=True)
            await self._leave()
            self._save_state()
            if self.state is not None:
                self.state.close(self)
            await self.client.aclose()
            stats = self.frontier.stats()
            self.summary.queued_left = stats.queued
            self.summary.parked_left = stats.parked
            self.summary.ended = self.clock()
        return self.summary

    # -- setup --------------------------------------------------------------------

    def _join(self) -> None:
        """Take this crawler's part of the shared crawl, if it has one."""
        if self.shared is None:
            return
        from robotkit.crawler.turn import SharedTurn
        from robotkit.shared.crawl import DEFAULT_OWNER_LEASE, SharedCrawl

        lease = DEFAULT_OWNER_LEASE if self._owner_lease is None else self._owner_lease
        work = SharedCrawl(
            self.shared.async_client(), self.shared.namespace, self.worker, lease=lease
        )
        self._turn = SharedTurn(self, work)

    async def _leave(self) -> None:
        """Give this worker's hosts back at once (a clean end, a stop, a failure):
        what it had not finished waits in Redis for the others."""
        if self.work is None:
            return
        from robotkit.shared.connection import SharedStateUnavailable

        with contextlib.suppress(SharedStateUnavailable):  # the failure is raised already
            await self.work.leave()

    def _make_client(self) -> AsyncPoliteClient:
        cfg = self.config
        policy = PacingPolicy(delay=cfg.delay, max_in_flight=cfg.concurrency)
        # The transport may wait out any pace a host can ask for (the delay, a
        # Crawl-delay up to its ceiling); longer holds come back to the crawler.
        wait = max(cfg.max_defer, cfg.delay, policy.max_crawl_delay) + 1.0
        shared: dict[str, Any] = {} if self.shared is None else {"shared": self.shared}
        transport = AsyncPoliteTransport(
            self._inner,
            **shared,
            identity=self.identity,
            policy=policy,
            limits=FetchLimits(
                max_body_bytes=cfg.max_body_bytes,
                response_timeout=cfg.response_timeout,
                max_wait=wait,
            ),
            addresses=AddressPolicy(allow_private=cfg.allow_private),
            robots_options=cfg.robots,
            guard=self.triage.request_check,
            scope=self.in_scope,
            clock=self.clock,
            read_text=True,  # the triage's content rules read the words of every page
        )
        return AsyncPoliteClient(transport=transport, timeout=cfg.response_timeout)

    def in_scope(self, url: str) -> bool:
        """Whether ``url`` is on one of the seeds' hosts."""
        try:
            return origin_of(url).scope_key in self._scope
        except InvalidURL:
            return False

    # -- the loop -----------------------------------------------------------------

    async def _loop(self) -> None:
        cfg = self.config
        assert self._wake is not None
        while not self._stopping:
            budget = cfg.max_pages - self.pages - len(self._tasks)
            if self._turn is not None and await self._turn():
                return  # every worker of the shared crawl is done
            if budget > 0 and len(self._tasks) < cfg.concurrency:
                entry = self.frontier.next(self.clock())
                if entry is not None:
                    task = asyncio.create_task(self._process(entry))
                    self._tasks[task] = entry
                    task.add_done_callback(self._done)
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
            self._wake.clear()
            # A timer that sets the wake event, not wait_for: wait_for makes a task
            # for every wait, and a paced crawl waits once or more a page.
            timer = None
            if when is not None:
                wait = max(when - self.clock(), 0.0) + 0.001
                timer = asyncio.get_running_loop().call_later(wait, self._wake.set)
            try:
                await self._wake.wait()
            finally:
                if timer is not None:
                    timer.cancel()

    async def _process(self, entry: FrontierEntry) -> None:
        await self._fetch.process(entry)
        if self._turn is not None:
            await self._turn.settle()  # the page's end and its links, in one step

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.pop(task, None)
        if self._wake is not None:
            self._wake.set()
        if not task.cancelled() and task.exception() is not None:
            # A bug, not a site's doing: stop the crawl and let run() raise it.
            self._failure = task.exception()
            self.stop()
            self.summary.interrupted = False

    # -- deciding about URLs ------------------------------------------------------

    def _emit(self, event: CrawlEvent) -> None:
        self.summary.count(event)
        if self.state is not None:
            self.state.record(self, event)
        if self.on_event is not None:
            self.on_event(event)

    def _skip(
        self, url: str, reason: Reason, depth: int, referer: str | None, **extra: Any
    ) -> None:
        self._emit(
            CrawlEvent(url, EventKind.SKIPPED, None, reason, depth, referer, self.clock(), **extra)
        )

    def _offer(
        self, url: str, depth: int, referer: str | None, streak: int = 0, *, seed: bool = False
    ) -> None:
        """Decide about a URL found on a page (or a seed): skip it with a reason, or
        queue it, in the main tier when nothing but novel pages lead to it
        (``streak`` 0), else in the demoted tier."""
        try:
            norm = self.triage.normalize(url)
        except InvalidURL as exc:
            self._skip(url, exc.reason, depth, referer)
            return
        if seed:
            self._scope.add(norm.origin.scope_key)
        key = self.triage.key(norm)
        seen = self.frontier.seen
        if not self.in_scope(url):
            if seen.add(key):
                self._skip(url, Reason.OFF_SCOPE, depth, referer)
            return
        work = self.work
        if work is not None and not work.owns(norm.origin):
            # Another worker's host (or nobody's yet): its owner screens the link.
            work.offer(norm.origin, url, key, depth, referer, streak)
            return
        self._admit(url, norm, key, depth, referer, streak)

    def _admit(
        self,
        url: str,
        norm: NormalizedURL,
        key: str,
        depth: int,
        referer: str | None,
        streak: int,
    ) -> None:
        """Screen a URL of one of this crawler's hosts and queue it, or skip it."""
        seen = self.frontier.seen
        work = self.work
        if key in seen:
            # Report the duplicates that normalization caught (session ids,
            # tracking parameters); a plain link seen again is not news.
            if url != key:
                self._skip(url, Reason.DUPLICATE_URL, depth, referer)
            return
        held = self.triage.screen(norm, streak, referer)
        if held is not None:
            seen.add(key)
            if work is not None:
                work.refuse(norm.origin, key)
            if isinstance(held, GuardVerdict):
                if held.rule in _SHAPE_RULES:
                    self._signal(self.triage.shape_signal(norm, held.reason))
                held = held.reason
            self._skip(url, held, depth, referer)
            return
        self.triage.remember(key, streak, referer)
        tier = Tier.DEMOTED if streak else Tier.MAIN
        result = self.frontier.add(url, key, depth, referer, host=norm.origin, tier=tier)
        if work is not None and not result.rejected:
            work.take(norm.origin, url, key, depth, referer, streak, tier)
        if result.reason is not None and not (result.reason is Reason.DUPLICATE_URL and url == key):
            self._skip(url, result.reason, depth, referer)

    def _report_parked(self) -> None:
        """At the natural end, URLs held back in a parked trap region are decided:
        skipped with the region's reason (host-budget ones were reported when
        parked)."""
        for entry, reason in self.frontier.parked():
            if reason is not Reason.HOST_BUDGET:
                self._skip(entry.url, reason, entry.depth, entry.referer)

    def _report_waiting(self) -> None:
        """At the natural end, URLs still waiting on the waste bound are left."""
        for host in self.triage.waste.waiting_hosts():
            for left in self.triage.waste.abandon(host):
                self._skip(left.url, Reason.WASTE_BUDGET, left.depth, left.referer)

    def _settle_waste(self, host: Origin) -> None:
        """After a fetch of ``host``: URLs waiting on the waste bound go back to the
        frontier as far as the balance allows; once the host has nothing else
        queued, those still waiting are left (``waste-budget``)."""
        ledger = self.triage.waste
        name = str(host)
        if not ledger.waiting(name):
            return
        for going in ledger.release(name):
            url, key, depth, referer = going.url, going.key, going.depth, going.referer
            self.frontier.add(url, key, depth, referer, host=host, tier=Tier.DEMOTED, again=True)
        if self.frontier.queued_of(host) == 0:
            for left in ledger.abandon(name):
                self._skip(left.url, Reason.WASTE_BUDGET, left.depth, left.referer)

    def _signal(self, line: str | None) -> None:
        if line is not None:
            self.summary.trap_signals.append(line)

    def _finish(self, entry: FrontierEntry) -> None:
        self.frontier.mark_done(entry)
        if self.work is not None:
            self.work.done(entry.host, entry.key)
        self._settle_waste(entry.host)
        self.waiting[entry.host] = "pacing"
        self._since_checkpoint += 1
        if self._since_checkpoint >= self.config.checkpoint_every:
            self._save_state()

    def _requeue(self, entry: FrontierEntry, hold: float | None, why: str) -> None:
        """Put ``entry`` back; ``hold``: a time only the crawler knows (a robots.txt
        deferral), kept by the frontier; the pacer's own holds it asks for."""
        self.frontier.requeue(entry, hold)
        self.waiting[entry.host] = why

    # -- state --------------------------------------------------------------------

    def _open_state(self) -> None:
        if self.state is not None:
            self.state.open(self)

    def _save_state(self) -> None:
        self._since_checkpoint = 0
        if self.state is not None:
            self.state.save(self)

    def _learned_snapshot(self) -> dict[str, Any]:
        """Everything the crawl learned from pages, as JSON, for the state directory."""
        return {
            "triage": self.triage.snapshot(),
            "retries": [[key, n] for key, n in self._retries.items()],
        }

    def _learned_restore(self, data: dict[str, Any]) -> None:
        """Take back :meth:`_learned_snapshot`; raises
        :class:`~robotkit.base.snapshot.SnapshotError` for bad data."""
        with reading("crawler"):
            self.triage.restore(data["triage"])
            self._retries = Counter(
                {
                    typed(key, str, "key"): typed(n, int, "retries")
                    for key, n in listed(data["retries"], "retries", list)
                }
            )


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
