"""What the reference crawler's parts need of the crawler, as protocols.

:class:`robotkit.crawler.loop.Crawler` implements each of them with public members;
its parts (one URL's fetch, the state directory, the turn of a shared worker) are
written against these and never import the loop, so the modules of
:mod:`robotkit.crawler` import one another in one direction only, imports for type
checkers included.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from typing import TYPE_CHECKING, Any, Protocol

from robotkit.base.clock import Clock
from robotkit.base.reasons import Reason
from robotkit.crawler.config import CrawlConfig
from robotkit.crawler.report import CrawlEvent, CrawlSummary
from robotkit.frontier.frontier import Frontier, FrontierEntry
from robotkit.triage.triage import Triage
from robotkit.triage.waste import Waiting
from robotkit.url.normalization import NormalizedURL

if TYPE_CHECKING:  # the ``redis`` extra: imported only by a crawl shared on Redis
    from robotkit.shared.crawl import SharedCrawl

__all__ = [
    "AdmittingCrawl",
    "CrawlKnowledge",
    "CrawlReports",
    "Decisions",
    "ResumableCrawl",
    "SharedWorkerCrawl",
]


class CrawlKnowledge(Protocol):
    """What a crawl knows: its frontier (replaced on a resume) and its triage."""

    frontier: Frontier
    triage: Triage


class Decisions(Protocol):
    """Where a decision not to fetch, and a trap signal, are reported."""

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
        """Report a decision not to fetch ``url``, now (``copy_rule``: the learned
        copy-family rule that made it a duplicate, with its proof)."""

    def signal(self, line: str | None) -> None:
        """Keep a trap signal (a line for the summary), if there is one."""


class CrawlReports(Decisions, Protocol):
    """Where one URL's fetch (:class:`~robotkit.crawler.fetch.FetchStep`) reports
    what it decided, and hands back the URL and the links it found."""

    def emit(self, event: CrawlEvent) -> None:
        """Report a decision (counted, journaled, passed to the listener)."""

    def finish(self, entry: FrontierEntry) -> None:
        """``entry`` is done with (fetched, failed or given up)."""

    def requeue(self, entry: FrontierEntry, hold: float | None, why: str) -> None:
        """Put ``entry`` back, for ``why``; ``hold``: a time only the crawler knows."""

    def offer(self, url: str, depth: int, referer: str | None, streak: int = 0) -> None:
        """Decide about a link found on a page: queue it or skip it."""

    def queue_again(self, waiting: Waiting) -> None:
        """Queue again a URL that waited on the waste bound and is vouched for now."""

    def in_scope(self, url: str) -> bool:
        """Whether ``url`` is on one of the seeds' hosts."""

    def learned(self, kind: str, fact: dict[str, Any] | None) -> None:
        """A fact just learned at the cost of a request (``soft404``: a directory's
        probe answer), to journal at once; None: nothing learned."""


class AdmittingCrawl(CrawlKnowledge, Decisions, Protocol):
    """What the gate of the frontier (:class:`~robotkit.crawler.admission.Admission`)
    reads of its crawl."""

    @property
    def work(self) -> SharedCrawl | None:
        """This worker's part of a shared crawl (None when the crawl is its own)."""


class SharedWorkerCrawl(CrawlKnowledge, Decisions, Protocol):
    """What the shared-crawl side of the loop (:class:`~robotkit.crawler.turn.SharedTurn`)
    reads and changes of its crawler."""

    clock: Clock

    @property
    def in_flight(self) -> Collection[FrontierEntry]:
        """The entries being fetched now."""

    def admit(
        self, url: str, norm: NormalizedURL, key: str, depth: int, referer: str | None, streak: int
    ) -> None:
        """Screen a URL of one of this crawler's hosts and queue it, or skip it."""


class ResumableCrawl(CrawlKnowledge, Protocol):
    """What a state directory (:class:`~robotkit.crawler.state.CrawlState`) saves of a
    crawl and puts back into it on a resume."""

    config: CrawlConfig
    seeds: list[str]
    summary: CrawlSummary
    retries: Counter[str]

    @property
    def pages(self) -> int:
        """Requests spent on pages so far."""
