"""Politeness shared by several Scrapy processes, on Redis (``ROBOTKIT_REDIS_URL``).

Each process keeps its in-process pacer and robots.txt engine, and every decision
stays theirs; what all processes must agree on lives in Redis, through
:mod:`robotkit.shared` (ARCHITECTURE.md, "Shared state"):

- pacing: when the in-process pacer says a request may start, the host is also
  reserved in Redis (:class:`~robotkit.shared.pacing.AsyncSharedPacer`), so all
  processes together send one request at a time per host, never before its
  ready time, hold or backoff; a refused reservation gives the in-process slot
  back unrecorded (nothing was sent);
- robots.txt: before an origin's robots.txt is fetched, the shared claim reads a
  fresh state another process published or takes the origin's lock
  (:class:`~robotkit.shared.checker.Claiming`); the lock's holder fetches through
  Scrapy and publishes the state, the others adopt it.

redis.asyncio runs on asyncio, so the shared state needs Scrapy's asyncio
reactor (its default). A Redis that cannot be reached at start stops the crawl
with one line; one lost mid-crawl refuses requests (:class:`SharedStateLost`),
never fetches on a guess.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager

from scrapy.exceptions import UsageError
from scrapy.utils.asyncio import is_asyncio_available

from robotkit.base.clock import Clock
from robotkit.base.outcome import Outcome
from robotkit.http.settings import RobotsOptions
from robotkit.pacing.pacer import HostKey, Pacer, Ticket
from robotkit.robots.engine import RobotsEngine
from robotkit.scrapy.errors import Refused, SharedStateLost, Waiting
from robotkit.scrapy.settings import RobotkitSettings
from robotkit.shared import SharedState, SharedStateUnavailable, SharedTicket
from robotkit.shared.checker import Claiming, SharedRobotsCache, claim_async
from robotkit.shared.connection import AsyncScripts
from robotkit.shared.slots import BUSY_POLL
from robotkit.url.parse import Origin

log = logging.getLogger(__name__)


def connect(settings: RobotkitSettings) -> SharedState:
    """The crawl's shared state, checked now: no asyncio reactor, a bad URL or
    crawl id, or a Redis that does not answer stops the crawl at start, in one line."""
    url = settings.redis_url or ""
    if not is_asyncio_available():
        raise UsageError(
            "ROBOTKIT_REDIS_URL needs Scrapy's asyncio reactor (TWISTED_REACTOR = "
            "'twisted.internet.asyncioreactor.AsyncioSelectorReactor'): "
            "robotkit talks to Redis with redis.asyncio"
        )
    try:
        return SharedState.connect(url, settings.crawl_id)
    except ValueError as error:  # the crawl id
        raise UsageError(f"ROBOTKIT_CRAWL_ID: {error}") from None
    except SharedStateUnavailable as error:
        raise UsageError(f"ROBOTKIT_REDIS_URL: {error}") from None


class SharedPoliteness:
    """One Scrapy crawl's side of the shared state: its host reservations and its
    claims on robots.txt, over the crawl's in-process pacer and engine."""

    def __init__(
        self, shared: SharedState, pacer: Pacer, engine: RobotsEngine, clock: Clock
    ) -> None:
        self.shared = shared
        self.pacer = shared.async_pacer(pacer)
        self.scripts = AsyncScripts(shared.async_client)
        # The fetch lock lives for robotkit's robots.txt deadline (the add-on's too)
        # plus room for a pacing wait before the GET.
        options = RobotsOptions(profile=engine.profile, min_ttl=engine.min_ttl)
        self.robots = SharedRobotsCache(engine, shared.namespace, options=options, clock=clock)

    async def reserve(self, host: HostKey, ticket: Ticket) -> SharedTicket | Waiting:
        """The host reserved in Redis too, now that the in-process pacer gave
        ``ticket``; or how long to wait before asking again. Unless granted, the
        in-process slot is given back unrecorded: nothing was sent."""
        granted = False
        try:
            with lost_refuses(f"a request to {host[0]}:{host[1]}"):
                reservation = await self.pacer.reserve_shielded(host)
            if reservation.ticket is not None:
                granted = True
                return reservation.ticket
            if reservation.skip_reason is not None:
                raise Refused(reservation.skip_reason)
            if reservation.busy:  # in flight elsewhere: it may end any moment
                return Waiting(min(reservation.wait, BUSY_POLL), held=False)
            return Waiting(reservation.wait, reservation.held)
        finally:
            if not granted:
                self.pacer.pacer.withdraw(ticket)

    async def finish(
        self, ticket: SharedTicket, outcome: Outcome | None, retry_at: float | None
    ) -> None:
        """The end of ``ticket``'s response, for every process. Redis lost: logged;
        the host stays leased in Redis until the lease runs out."""
        try:
            with lost_refuses(f"the end of a request to {ticket.host[0]}:{ticket.host[1]}"):
                await self.pacer.finish(ticket, outcome, retry_at)
        except SharedStateLost:
            pass

    async def claim_robots(self, origin: Origin, fetch: Callable[[], Awaitable[object]]) -> None:
        """Make the engine's cache hold ``origin``'s robots.txt state: one another
        process published, or the one ``fetch`` gets while this process holds the
        origin's lock (then published for the others)."""
        with lost_refuses(f"robots.txt of {origin}"):
            await claim_async(self.scripts, Claiming(self.robots, origin), fetch)


@contextmanager
def lost_refuses(what: str) -> Iterator[None]:
    """A Redis gone inside the block refuses ``what`` (logged, then
    :class:`SharedStateLost`): without the shared state nothing is fetched."""
    try:
        yield
    except SharedStateUnavailable as error:
        log.error("robotkit: shared state unavailable, %s refused: %s", what, error)
        raise SharedStateLost(str(error)) from error
