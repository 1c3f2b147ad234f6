"""The politeness state that the add-on's pieces share within one Scrapy crawl.

The robots.txt middleware, the pacing middleware, the trap guard and the
dupefilter are separate Scrapy components, but they must agree: the pacing of a
host takes the Crawl-delay the robots.txt verdict found, the guard's triage needs
the keys the dupefilter has seen. So one :class:`CrawlState` is built per crawler
(on first use, by whichever piece comes first) and every piece reads it.
Each piece also works alone: it builds the state it needs itself.
With ``ROBOTKIT_REDIS_URL`` the state also holds the crawl's side of the shared
state (:mod:`robotkit.scrapy.shared`), connected once, at start.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.exceptions import UsageError
from scrapy.statscollectors import StatsCollector

from robotkit.base.clock import Clock, system_clock
from robotkit.base.reasons import Decision, Reason
from robotkit.pacing.pacer import Pacer, PacingPolicy
from robotkit.robots.engine import RobotsEngine
from robotkit.scrapy.growth import HeldRequests
from robotkit.scrapy.judging import Judging
from robotkit.scrapy.settings import RobotkitSettings
from robotkit.triage.guard import Guard
from robotkit.triage.triage import Triage

if TYPE_CHECKING:  # robotkit.scrapy.shared needs the redis extra
    from robotkit.scrapy.shared import SharedPoliteness

log = logging.getLogger(__name__)

STATS_PREFIX = "robotkit"


@dataclass
class CrawlState:
    """One crawl's robots.txt cache, pacer, triage and seen keys."""

    settings: RobotkitSettings
    stats: StatsCollector | None
    clock: Clock = system_clock
    engine: RobotsEngine = field(init=False)
    pacer: Pacer = field(init=False)
    triage: Triage = field(init=False)
    held: HeldRequests = field(init=False)
    """The requests past the growth bound (:mod:`robotkit.scrapy.growth`)."""
    seen: set[str] = field(default_factory=set)
    """Normalized keys of every request the dupefilter let through."""
    last_checks: list[Callable[[Request], None]] = field(default_factory=list)
    """Run by the pacing before each wait for the host and just before a request
    starts (each raises to refuse it): Scrapy pulls many requests into its
    downloader at once, and one may wait there for its host while the crawl learns
    that it leads into a trap."""
    judging: Judging = field(default_factory=Judging)
    """Per host, the page sent out last and not judged yet: the pacing holds the
    host's next page until the trap guard has judged it."""
    shared: SharedPoliteness | None = None
    """With ``ROBOTKIT_REDIS_URL``: the host reservations and robots.txt claims
    shared with the crawl's other processes (:mod:`robotkit.scrapy.shared`)."""

    def __post_init__(self) -> None:
        cfg = self.settings
        self.engine = RobotsEngine(profile=cfg.profile, min_ttl=cfg.robots_min_ttl)
        self.pacer = Pacer(
            self.clock,
            PacingPolicy(delay=cfg.delay, max_crawl_delay=cfg.max_crawl_delay),
        )
        self.triage = Triage(Guard(cfg.guard, cfg.blacklist))
        self.held = HeldRequests(
            self.triage.growth, lambda reason: self.count(Decision.DISALLOW, reason)
        )

    def count(self, decision: Decision, reason: Reason) -> None:
        """Scrapy stats count verdicts by decision and reason:
        ``robotkit/disallow/robots-disallow``, ``robotkit/allow/allowed``, ..."""
        if self.stats is not None:
            self.stats.inc_value(f"{STATS_PREFIX}/{decision.value}/{reason.value}")


_states: weakref.WeakKeyDictionary[Crawler, CrawlState] = weakref.WeakKeyDictionary()


def crawl_state(crawler: Crawler) -> CrawlState:
    """The state of ``crawler``'s crawl, built on first use."""
    state = _states.get(crawler)
    if state is None:
        settings = RobotkitSettings.from_scrapy(crawler.settings)
        state = CrawlState(settings, crawler.stats)
        if settings.redis_url:
            state.shared = _shared(state)
        _states[crawler] = state
    return state


def _shared(state: CrawlState) -> SharedPoliteness:
    """The shared side of ``state``'s crawl, on a Redis checked now (an error
    stops the crawl at start: never a crawl that only believes it shares)."""
    try:
        from robotkit.scrapy.shared import SharedPoliteness, connect
    except ModuleNotFoundError as error:
        raise UsageError(
            f"ROBOTKIT_REDIS_URL needs the redis extra: pip install 'robotkit[redis]' ({error})"
        ) from None
    shared = connect(state.settings)
    log.info("robotkit: politeness shared on Redis as crawl %r", shared.namespace.crawl_id)
    return SharedPoliteness(shared, state.pacer, state.engine, state.clock)
