"""The leases a worker of a shared crawl keeps on its hosts (one server): the owner's
next request to a host starts without a round trip while the lease its finish kept
covers it, and no other worker ever holds the host at the same time; a worker that
asks for a kept host gets it at the owner's next finish, a host given back is free
at once, and a finish answered after its host was let go is not trusted. Every
round trip is counted at the server (``INFO commandstats``)."""

from __future__ import annotations

import asyncio

from redis.asyncio import Redis

from robotkit.base.clock import ManualClock
from robotkit.base.outcome import Outcome
from robotkit.pacing.pacer import Pacer, PacingPolicy
from robotkit.shared import Namespace
from robotkit.shared.connection import connect_async
from robotkit.shared.crawl import SharedCrawl
from robotkit.shared.leases import KEPT_WINDOW
from robotkit.shared.pacing import AsyncSharedPacer, FinishCarry
from robotkit.url.parse import origin_of

SEED = "http://h1.example/"
HOST = origin_of(SEED).pacing_key


async def _setup(
    redis_url: str, crawl_id: str, clock: ManualClock
) -> tuple[SharedCrawl, AsyncSharedPacer, AsyncSharedPacer, FinishCarry]:
    """Worker "a"'s crawl and pacer (sharing a carry whose finishes only round trips
    send), owning h1.example after its first sync; and another worker's pacer."""
    client = await connect_async(redis_url)
    ns = Namespace(crawl_id)
    carry = FinishCarry(wait=3600.0)
    crawl = SharedCrawl(client, ns, "a", lease=5.0, carry=carry)
    policy = PacingPolicy(delay=1.0)
    mine = AsyncSharedPacer(Pacer(clock, policy), client, ns, carry=carry)
    theirs = AsyncSharedPacer(Pacer(clock, policy), client, ns)
    crawl.offer(origin_of(SEED), SEED, SEED, 0, None, 0)
    for _ in range(3):  # the offer noted, then claimed
        if origin_of(SEED) in crawl.owned:
            break
        await crawl.sync(clock(), idle=False)
    assert origin_of(SEED) in crawl.owned
    return crawl, mine, theirs, carry


async def _scripts_run(client: Redis) -> int:
    """Script calls the server has run so far."""
    stats = await client.info("commandstats")
    return sum(stats.get(f"cmdstat_{name}", {}).get("calls", 0) for name in ("evalsha", "eval"))


async def _page(crawl: SharedCrawl, pacer: AsyncSharedPacer, outcome: Outcome = Outcome.OK) -> None:
    """One request to the host through ``pacer``, its finish sent with a settle."""
    slot = await pacer.reserve(HOST)
    assert slot.ticket is not None
    await pacer.finish(slot.ticket, outcome)
    await crawl.settle()


def test_the_owners_next_request_needs_no_round_trip_while_its_kept_lease_covers_it(
    redis_url: str, crawl_id: str, clock: ManualClock
) -> None:
    async def scenario() -> None:
        crawl, mine, theirs, carry = await _setup(redis_url, crawl_id, clock)
        await _page(crawl, mine)
        assert HOST in carry.kept.held, "Redis answered that the lease is kept"
        before = await _scripts_run(crawl.client)
        clock.advance(0.5)
        early = await mine.reserve(HOST)
        assert early.ticket is None and early.wait == 0.5, "the delay, told without Redis"
        clock.advance(0.5)
        slot = await mine.reserve(HOST)
        assert slot.ticket is not None
        assert await _scripts_run(crawl.client) == before, "neither went to Redis"
        busy = await theirs.reserve(HOST)
        assert busy.busy, "the kept lease covers the request in Redis, for every worker"
        await crawl.client.aclose()

    asyncio.run(scenario())


def test_past_the_window_the_owner_asks_redis_again(
    redis_url: str, crawl_id: str, clock: ManualClock
) -> None:
    async def scenario() -> None:
        crawl, mine, _, _ = await _setup(redis_url, crawl_id, clock)
        await _page(crawl, mine)
        clock.advance(1.0 + KEPT_WINDOW + 0.01)
        before = await _scripts_run(crawl.client)
        slot = await mine.reserve(HOST)
        assert slot.ticket is not None, "its own lease, past the window: granted by Redis"
        assert await _scripts_run(crawl.client) - before == 1
        await crawl.client.aclose()

    asyncio.run(scenario())


def test_a_worker_asking_for_a_kept_host_gets_it_at_the_owners_next_finish(
    redis_url: str, crawl_id: str, clock: ManualClock
) -> None:
    """A redirect to another worker's host, or the other scheme of the same server:
    it waits for the request the owner may start without asking, then the owner's
    finish lets the lease go instead of keeping it."""

    async def scenario() -> None:
        crawl, mine, theirs, carry = await _setup(redis_url, crawl_id, clock)
        await _page(crawl, mine)
        clock.advance(1.0)
        assert (await theirs.reserve(HOST)).busy
        await _page(crawl, mine)
        assert HOST not in carry.kept.held, "wanted: not kept"
        clock.advance(1.0)
        assert (await theirs.reserve(HOST)).ticket is not None
        assert (await mine.reserve(HOST)).busy, "the owner asks Redis now, and waits"
        await crawl.client.aclose()

    asyncio.run(scenario())


def test_a_host_given_back_is_free_for_the_next_owner_at_once(
    redis_url: str, crawl_id: str, clock: ManualClock
) -> None:
    async def scenario() -> None:
        crawl, mine, theirs, carry = await _setup(redis_url, crawl_id, clock)
        await _page(crawl, mine)
        crawl.release(origin_of(SEED))
        await crawl.settle()
        assert HOST not in carry.kept.held
        clock.advance(1.0)
        assert (await theirs.reserve(HOST)).ticket is not None
        await crawl.client.aclose()

    asyncio.run(scenario())


def test_a_finish_answered_after_its_host_was_given_back_is_not_trusted(
    redis_url: str, crawl_id: str, clock: ManualClock
) -> None:
    async def scenario() -> None:
        crawl, mine, theirs, carry = await _setup(redis_url, crawl_id, clock)
        slot = await mine.reserve(HOST)
        assert slot.ticket is not None
        await mine.finish(slot.ticket, Outcome.OK)  # carried, not sent
        crawl.release(origin_of(SEED))
        await crawl.settle()  # the finish keeps the lease, the release frees it
        assert HOST not in carry.kept.held
        clock.advance(1.0)
        assert (await theirs.reserve(HOST)).ticket is not None
        await crawl.client.aclose()

    asyncio.run(scenario())


def test_a_host_held_by_retry_after_keeps_no_lease(
    redis_url: str, crawl_id: str, clock: ManualClock
) -> None:
    """RFC 9110 section 10.2.3: the hold is Redis' to give out, to the owner too."""

    async def scenario() -> None:
        crawl, mine, _, carry = await _setup(redis_url, crawl_id, clock)
        slot = await mine.reserve(HOST)
        assert slot.ticket is not None
        await mine.finish(slot.ticket, Outcome.RATE_LIMITED, retry_at=clock() + 30.0)
        await crawl.settle()
        assert HOST not in carry.kept.held
        clock.advance(5.0)
        wait = await mine.reserve(HOST)
        assert wait.ticket is None and wait.held and wait.wait == 25.0
        await crawl.client.aclose()

    asyncio.run(scenario())
