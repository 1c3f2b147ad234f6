"""A worker's pacer finishes carried on its shared crawl's round trips (one server):
a finish is not a round trip of its own, yet it reaches Redis with the next round
trip the worker makes, or alone at the event loop's next turn: the host's next
ready time is in Redis from then on, under the lease the worker keeps (its kept
leases: test_shared_kept.py)."""

from __future__ import annotations

import asyncio

from robotkit.base.clock import ManualClock
from robotkit.base.outcome import Outcome
from robotkit.pacing.pacer import Pacer, PacingPolicy
from robotkit.shared import Namespace
from robotkit.shared.connection import connect_async
from robotkit.shared.crawl import SharedCrawl
from robotkit.shared.pacing import AsyncSharedPacer, FinishCarry, pace_key
from robotkit.url.parse import origin_of

HOST = ("h1.example", 80)
OTHER = ("h2.example", 80)


async def _setup(
    redis_url: str, crawl_id: str, clock: ManualClock, wait: float = 3600.0
) -> tuple[SharedCrawl, AsyncSharedPacer, AsyncSharedPacer, FinishCarry]:
    """A crawl and a pacer sharing a carry whose finishes are sent alone after
    ``wait`` seconds (by default never within a test: only the round trips send
    them)."""
    client = await connect_async(redis_url)
    ns = Namespace(crawl_id)
    carry = FinishCarry(wait=wait)
    crawl = SharedCrawl(client, ns, "a", lease=5.0, carry=carry)
    policy = PacingPolicy(delay=1.0)
    mine = AsyncSharedPacer(Pacer(clock, policy), client, ns, carry=carry)
    theirs = AsyncSharedPacer(Pacer(clock, policy), client, ns)
    return crawl, mine, theirs, carry


async def _recorded(
    crawl: SharedCrawl, carry: FinishCarry, host: tuple[str, int], *, kept: bool = True
) -> float:
    """The ready time the host's finish left in Redis, read there, and whose lease
    the host is under: the worker's own, kept, unless another asked for the host."""
    fields = await crawl.client.hgetall(pace_key(crawl.namespace, host))
    owner = fields.get(b"owner")
    assert owner == (carry.kept.owner.encode() if kept else None)
    return float(fields[b"ready"])


def test_a_finish_rides_on_the_settle_that_follows_the_page(
    redis_url: str, crawl_id: str, clock: ManualClock
) -> None:
    async def scenario() -> None:
        crawl, mine, theirs, carry = await _setup(redis_url, crawl_id, clock)
        assert carry.riding, "a crawl on one server turns the carry on"
        slot = await mine.reserve(HOST)
        assert slot.ticket is not None
        await mine.finish(slot.ticket, Outcome.OK)
        assert len(carry.calls) == 1, "not sent yet: it waits for the page's settle"
        assert (await theirs.reserve(HOST)).busy, "the lease holds until it is sent"
        seed = origin_of("http://h1.example")
        crawl.offer(seed, "http://h1.example/", "http://h1.example/", 0, None, 0)
        trips = crawl.round_trips
        await crawl.sync(0.1, idle=False)  # the crawl script, the finish before it
        assert crawl.round_trips - trips == 2 and not carry.calls
        # Another worker asked meanwhile: the finish let the lease go.
        assert await _recorded(crawl, carry, HOST, kept=False) == clock() + 1.0
        clock.advance(1.0)
        again = await theirs.reserve(HOST)
        assert again.ticket is not None, "the finish reached Redis: the host is free"
        await theirs.finish(again.ticket, Outcome.OK)
        await crawl.client.aclose()

    asyncio.run(scenario())


def test_a_finish_no_round_trip_takes_is_sent_alone(
    redis_url: str, crawl_id: str, clock: ManualClock
) -> None:
    async def scenario() -> None:
        crawl, mine, _, carry = await _setup(redis_url, crawl_id, clock, wait=0.0)
        slot = await mine.reserve(HOST)
        assert slot.ticket is not None
        await mine.finish(slot.ticket, Outcome.OK)
        for _ in range(10):  # the event loop's next turns, no time passing
            if not carry.calls:
                break
            await asyncio.sleep(0)
        await carry.sent()
        assert not carry.calls
        assert await _recorded(crawl, carry, HOST) == clock() + 1.0
        await crawl.client.aclose()

    asyncio.run(scenario())


def test_a_reservation_carries_the_finishes_before_it(
    redis_url: str, crawl_id: str, clock: ManualClock
) -> None:
    """A robots.txt fetch's finish goes with the page's reservation of the same host,
    before it: the page finds its host free of the robots.txt request's lease."""

    async def scenario() -> None:
        crawl, mine, theirs, carry = await _setup(redis_url, crawl_id, clock)
        slot = await mine.reserve(HOST)
        assert slot.ticket is not None
        await mine.finish(slot.ticket, Outcome.OK)
        other = await mine.reserve(OTHER)
        assert other.ticket is not None and not carry.calls
        assert await _recorded(crawl, carry, HOST) == clock() + 1.0, "sent with the reservation"
        clock.advance(1.0)
        leave = crawl.leave()
        await mine.finish(other.ticket, Outcome.OK)
        await leave
        assert not carry.riding, "once the worker has left, a finish is its own round trip"
        assert (await theirs.reserve(HOST)).ticket is not None, "its kept leases let go"
        await crawl.client.aclose()

    asyncio.run(scenario())


def test_on_a_cluster_nothing_is_carried(
    redis_cluster_url: str, crawl_id: str, clock: ManualClock
) -> None:
    async def scenario() -> None:
        crawl, mine, theirs, carry = await _setup(redis_cluster_url, crawl_id, clock)
        assert not carry.riding
        slot = await mine.reserve(HOST)
        assert slot.ticket is not None
        await mine.finish(slot.ticket, Outcome.OK)
        assert not carry.calls
        clock.advance(1.0)
        assert (await theirs.reserve(HOST)).ticket is not None
        await crawl.client.aclose()

    asyncio.run(scenario())


def test_a_reservation_boards_the_settle_waiting_for_it(
    redis_url: str, crawl_id: str, clock: ManualClock
) -> None:
    """A page's settle waits for the next reservation (``SharedTurn``): the carry's
    ``boarding`` hook starts it as the reservation is sent, before the reservation
    takes the finishes, so both go in one write; what it sent is in Redis."""

    async def scenario() -> None:
        crawl, mine, _, carry = await _setup(redis_url, crawl_id, clock)
        await crawl.sync(0.0, idle=False)
        order: list[str] = []
        settles: list[asyncio.Future[None]] = []

        def board() -> None:
            order.append(f"board, {len(carry.calls)} carried")
            settles.append(asyncio.ensure_future(crawl.settle()))

        carry.boarding = board
        slot = await mine.reserve(HOST)
        assert slot.ticket is not None
        await mine.finish(slot.ticket, Outcome.OK)
        seed = origin_of("http://h3.example")
        crawl.offer(seed, "http://h3.example/", "http://h3.example/", 0, None, 0)
        assert crawl.unsent == 1
        other = await mine.reserve(OTHER)
        assert other.ticket is not None
        assert order == ["board, 0 carried", "board, 1 carried"]
        await asyncio.gather(*settles)
        assert crawl.unsent == 0 and not carry.calls, "the settle and the finish were sent"
        assert await _recorded(crawl, carry, HOST) == clock() + 1.0
        carry.boarding = None
        await mine.finish(other.ticket, Outcome.OK)
        await crawl.leave()
        await crawl.client.aclose()

    asyncio.run(scenario())
