"""The URL Frontier service's core: one object over the crawls, queues and URL
records of a node, built on robotkit's frontier, pacer and guard.

Pure (ARCHITECTURE.md): no I/O and no clock of its own. Time comes from the injected
clock; robots.txt verdicts come from an oracle the shell passes in (a cached verdict,
or None when the origin's robots.txt must be fetched first). It is made of one part
per concept, each in its module:

* :mod:`~robotkit.service.records`: a URL's record, its state and queue;
* :mod:`~robotkit.service.crawls`: the crawls, their queues and queue settings,
  when a host may be served, and every change of a record;
* :mod:`~robotkit.service.intake`: PutURLs, discovered URLs and reports;
* :mod:`~robotkit.service.handout`: GetURLs, robots.txt and pacing, the leases;
* :mod:`~robotkit.service.inventory`: GetURLStatus, ListURLs, CountURLs, PurgeURLs,
  DeleteQueue, DeleteCrawl.
"""

from __future__ import annotations

from collections.abc import Callable

from robotkit.base.clock import Clock
from robotkit.pacing.pacer import Pacer
from robotkit.service.crawls import MAX_REFUSED, Crawl, Crawls
from robotkit.service.handout import (
    DEFAULT_LEASE,
    Gate,
    Handout,
    RobotsFetch,
    RobotsOracle,
    Taken,
)
from robotkit.service.intake import Claims, Intake
from robotkit.service.inventory import Inventory
from robotkit.service.records import (
    DEFAULT_CRAWL,
    Ack,
    Incoming,
    Queue,
    URLRecord,
    URLState,
    crawl_id,
)
from robotkit.triage.guard import Guard

__all__ = [
    "DEFAULT_CRAWL",
    "DEFAULT_LEASE",
    "Ack",
    "Claims",
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


class ServiceCore:
    """Every crawl of one service node over one pacer (politeness is per host across
    crawls). ``guard``: makes each crawl's guard. ``lease``: seconds a URL stays out
    when GetURLs asks for no ``delay_requestable``. ``gate``: the shared slot of
    several nodes; ``claims``: which node queues a URL put on several."""

    def __init__(
        self,
        clock: Clock,
        pacer: Pacer,
        *,
        guard: Callable[[], Guard] = Guard,
        lease: float = DEFAULT_LEASE,
        max_refused: int = MAX_REFUSED,
        gate: Gate | None = None,
        claims: Claims | None = None,
    ) -> None:
        self.clock = clock
        self.pacer = pacer
        self.gate = gate
        self.registry = Crawls(clock, pacer, guard=guard, max_refused=max_refused)
        self.handout = Handout(self.registry, lease=lease, gate=gate)
        self.intake = Intake(self.registry, self.handout, claims)
        self.inventory = Inventory(self.registry, self.handout)
        self.lease = lease
        # The protocol's calls, each answered by the part that owns its concept.
        self.put = self.intake.put
        self.restore = self.intake.restore
        self.take = self.handout.take
        self.robots_done = self.handout.robots_done
        self.next_time = self.handout.next_time
        self.block = self.registry.block
        self.set_delay = self.registry.set_delay
        self.set_limit = self.registry.set_limit
        self.status = self.inventory.status
        self.records = self.inventory.records
        self.purge = self.inventory.purge
        self.delete_queue = self.inventory.delete_queue
        self.delete_crawl = self.inventory.delete_crawl

    @property
    def crawls(self) -> dict[str, Crawl]:
        return self.registry.crawls

    @property
    def active(self) -> bool:
        """SetActive: an inactive node hands out nothing (PutURLs still takes URLs)."""
        return self.handout.active

    @active.setter
    def active(self, value: bool) -> None:
        self.handout.active = value

    @property
    def robots_fetches(self) -> int:
        return self.handout.robots_fetches
