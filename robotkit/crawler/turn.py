"""A reference crawler as one worker of a crawl shared on Redis.

:class:`SharedTurn` is the part of :class:`robotkit.crawler.loop.Crawler` that talks to
the shared crawl (:class:`robotkit.shared.crawl.SharedCrawl`, ARCHITECTURE.md
"Shared state") between fetches: a few times a second it renews this worker's
hosts, takes over the hosts it claims (their unfinished URLs queued again, each at
the chain of self-grown links its record carries; what was seen of them stays in
Redis, where links to an inherited host are checked),
screens the links other workers found for its hosts, and
gives hosts back when it holds more than its share. Like
:class:`robotkit.crawler.fetch.FetchStep` it keeps no state of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Set

from robotkit.crawler.ports import SharedWorkerCrawl
from robotkit.frontier.events import Tier
from robotkit.shared.connection import SharedStateUnavailable
from robotkit.shared.crawl import Claim, Offer, SharedCrawl
from robotkit.url.parse import InvalidURL, Origin, origin_of

__all__ = ["SETTLE_WAIT", "SYNC_EVERY", "SharedTurn"]

SYNC_EVERY = 0.1
"""Seconds between two syncs of a busy worker: how soon links found by other
workers reach their host's owner. An idle worker syncs as often, looking for the
crawl's end."""

SETTLE_WAIT = 0.04
"""Seconds a page's settle waits for the next reservation or sync to go with, in
their write (one write and one wake-up for both), before it is sent alone. Less
than the pacer's finish carry (``CARRY_WAIT``): the finish rides on the settle when
no reservation comes first."""


class SharedTurn:
    """The shared-crawl side of ``crawler``'s loop."""

    def __init__(self, crawler: SharedWorkerCrawl, work: SharedCrawl) -> None:
        self.crawler = crawler
        self.work = work
        self.synced = float("-inf")
        self.finished = False
        self._settling: set[asyncio.Future[None]] = set()
        self._failure: BaseException | None = None
        self._waiting: asyncio.TimerHandle | None = None  # a settle waiting to ride
        self._carry = work.carry
        if self._carry is not None:
            self._carry.boarding = self._settle_now

    @property
    def next_sync(self) -> float:
        return self.synced + SYNC_EVERY

    async def settle(self) -> None:
        """Send what a finished page left buffered: with a sync when one is due
        (the same round trip), else in the background with the next reservation
        (the pacer's carry calls :meth:`_settle_now` as it sends one), or alone
        after ``SETTLE_WAIT`` seconds: one write and one wake-up of the event loop
        for the settle and the reservation, where the page's settle alone took one
        of each. The settles still reach Redis in order
        (:class:`~robotkit.shared.crawl.SharedCrawl` sends one round at a time), and
        one that fails is raised at the loop's next turn (:meth:`settled`). Where
        nothing rides (a cluster) the settle starts at once."""
        self._raise_failure()
        if self.crawler.clock() >= self.next_sync:
            await self()
            return
        if self._carry is None:
            self._settle_now()
        elif self._waiting is None:
            loop = asyncio.get_running_loop()
            self._waiting = loop.call_later(SETTLE_WAIT, self._settle_now)

    def _settle_now(self) -> None:
        """Start the settle waiting (or any actions buffered), in the background."""
        self._stop_waiting()
        if not self.work.unsent:
            return
        settling = asyncio.ensure_future(self.work.settle())
        self._settling.add(settling)
        settling.add_done_callback(self._settled)

    def _stop_waiting(self) -> None:
        """The settle waiting goes now with something else: its own timer is off."""
        if self._waiting is not None:
            self._waiting.cancel()
            self._waiting = None

    def _settled(self, settling: asyncio.Future[None]) -> None:
        self._settling.discard(settling)
        if not settling.cancelled() and settling.exception() is not None:
            self._failure = self._failure or settling.exception()

    def _raise_failure(self) -> None:
        if self._failure is not None:
            raise self._failure

    async def settled(self) -> None:
        """Send the settle waiting, wait for the settles under way; raise one that
        failed."""
        self._settle_now()
        while self._settling:
            await asyncio.gather(*self._settling, return_exceptions=True)
        self._raise_failure()

    async def leave(self) -> None:
        """Wait for the settles under way and give this worker's hosts back at once
        (a clean end, a stop, a failure): what it had not finished waits in Redis
        for the others. Redis failing here is not raised: the crawl's own is."""
        if self._carry is not None and self._carry.boarding == self._settle_now:
            self._carry.boarding = None
        self._hand_back(self.work.owned)
        with contextlib.suppress(SharedStateUnavailable):
            await self.settled()
        with contextlib.suppress(SharedStateUnavailable):
            await self.work.leave()

    async def __call__(self) -> bool:
        """Sync when it is time; True when the whole shared crawl is over."""
        self._raise_failure()
        crawler = self.crawler
        now = crawler.clock()
        if now < self.next_sync or self.finished:
            return self.finished
        # Idle: nothing of its own queued or in flight. A worker whose page budget
        # is spent is not idle while its hosts have work: it leaves, and others
        # take them over; the crawl is not over.
        idle = not crawler.in_flight and crawler.frontier.next_ready_time() is None
        self.synced = now
        self._stop_waiting()  # the sync sends what the settle waited with
        result = await self.work.sync(now, idle=idle)
        if result.finished:
            self.finished = True
            return True
        for host in result.lost:
            # Another worker took the host over (this one stalled past its lease):
            # its URLs are that worker's now. One in flight stays and is finished.
            with contextlib.suppress(ValueError):
                crawler.frontier.drop_host(host)
            if self._carry is not None:  # its finish frees the lease kept on the host
                self._carry.kept.forget([host.pacing_key])
        for claim in result.claims:
            self._take_over(claim)
        for host, offers in result.drained:
            for offer in offers:
                self._screen(host, offer)
        if result.excess > 0:
            self._give_back(result.excess)
        return False

    def _take_over(self, claim: Claim) -> None:
        """Queue what the host's last owner had taken on and not finished, and
        screen what it had not screened."""
        crawler = self.crawler
        for offer in claim.pending:
            if offer.taken:
                crawler.triage.remember(offer.key, offer.streak, offer.referer)
                # Linked by its referer, at the chain the last owner knew it at.
                crawler.triage.growth.carried(offer.key, offer.referer, offer.chain)
                crawler.triage.growth.offered(offer.key, offer.referer, offer.url)
                crawler.frontier.add(
                    offer.url,
                    offer.key,
                    offer.depth,
                    offer.referer,
                    host=claim.host,
                    tier=offer.tier,
                    again=True,
                )
            else:
                self._screen(claim.host, offer)

    def _screen(self, host: Origin, offer: Offer) -> None:
        """A link another worker found for one of this worker's hosts: out of the
        inbox record, then judged here, where the host's site is known."""
        crawler = self.crawler
        self.work.screened(host, offer.key)
        try:
            norm = crawler.triage.normalize(offer.url)
        except InvalidURL as exc:  # the finder parsed it: only a new rule can refuse it
            crawler.skip(offer.url, exc.reason, offer.depth, offer.referer)
            return
        key = crawler.triage.key(norm)
        # Its referer may be a page another worker fetched: its chain came with it.
        crawler.triage.growth.carried(key, offer.referer, offer.chain)
        crawler.admit(offer.url, norm, key, offer.depth, offer.referer, offer.streak)

    def _give_back(self, count: int) -> None:
        """Give back up to ``count`` hosts with nothing in flight, the ones with the
        least queued first (least learned state lost)."""
        crawler = self.crawler
        busy = {entry.host for entry in crawler.in_flight}
        idle = sorted(
            (host for host in self.work.owned if host not in busy),
            key=crawler.frontier.queued_of,
        )
        for host in idle[:count]:
            self._hand_back({host})
            self.work.release(host)
            crawler.frontier.drop_host(host)

    def _hand_back(self, hosts: Set[Origin]) -> None:
        """The URLs held as grown (:mod:`robotkit.triage.growth`) on ``hosts``, given
        to another worker, go back to Redis as taken on, each with its referer's chain:
        the next owner holds them, gives them back when a page closer to a root links
        them, or reports them at its end. Not this worker: it no longer reads the
        host's pages."""
        growth = self.crawler.triage.growth
        for key, (held, _) in list(growth.core.held.items()):
            host = origin_of(held.url)
            if host in hosts:
                del growth.core.held[key]
                chain = growth.chain(held.referer, key)
                offer = Offer(held.url, key, held.depth, held.referer, 0, Tier.MAIN, True, chain)
                self.work.take(host, offer)
