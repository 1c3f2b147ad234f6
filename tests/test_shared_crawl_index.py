"""The shared crawl's Redis side alone (ARCHITECTURE.md, "The crawl shared by several
workers"), with an injected clock and no HTTP, on one server and on a cluster: claims
come a few per sync from the index of claimable hosts, a dead worker's hosts come back
with their pending URLs, a link is offered once, and the end is seen only when no work
is left anywhere."""

from __future__ import annotations

import asyncio

import pytest
import redis.asyncio.cluster

from robotkit.frontier.events import Tier
from robotkit.shared.connection import Namespace, connect, connect_async
from robotkit.shared.crawl import Offer, SharedCrawl, SyncResult
from robotkit.url.parse import origin_of


def _host(n: int) -> str:
    return f"http://h{n}.example"


async def _crawl(url: str, crawl_id: str, name: str, **options: object) -> SharedCrawl:
    client = await connect_async(url)
    return SharedCrawl(client, Namespace(crawl_id), name, lease=5.0, **options)  # type: ignore[arg-type]


def test_claims_are_capped_and_a_dead_workers_hosts_come_back(
    any_redis_url: str, crawl_id: str
) -> None:
    async def scenario() -> None:
        a = await _crawl(any_redis_url, crawl_id, "a", max_claims=4)
        for n in range(10):  # seeds offered to hosts no one owns
            a.offer(origin_of(_host(n)), f"{_host(n)}/", f"{_host(n)}/", 0, None, 0)
        await a.sync(0.1, idle=True)
        first = await a.sync(0.2, idle=True)
        assert len(first.claims) == 4, "a few hosts per sync, not all at once"
        assert not first.finished
        claim = first.claims[0]
        [seed] = claim.pending
        assert seed.url == f"{claim.host}/" and not claim.inherited
        # a takes a URL on its host, then dies (stops syncing).
        page = f"{claim.host}/p?x=1"
        a.take(claim.host, Offer(page, page, 1, f"{claim.host}/", 0, Tier.DEMOTED, taken=True))
        a.screened(claim.host, seed.key)
        await a.settle()
        b = await _crawl(any_redis_url, crawl_id, "b", max_claims=100)
        taken: dict[str, list[Offer]] = {}
        now = 10.0  # past a's lease
        for _ in range(6):
            result = await b.sync(now, idle=False)
            for c in result.claims:
                taken[str(c.host)] = c.pending
                assert c.inherited == (c.host in {x.host for x in first.claims})
            now += 0.1
        assert set(taken) == {_host(n) for n in range(10)}, "every host with work came back"
        assert taken[str(claim.host)] == [
            Offer(page, page, 1, f"{claim.host}/", 0, Tier.DEMOTED, taken=True)
        ], "the dead worker's pending URL, its record intact"
        # A link offered twice (by anyone) reaches the owner once.
        for _ in range(2):
            a.offer(claim.host, f"{claim.host}/new", f"{claim.host}/new", 2, None, 0)
        a.token = ""  # a is gone; its offers go as a newcomer's would
        await b.sync(now, idle=False)
        drained = []
        for _ in range(3):
            now += 0.1
            result = await b.sync(now, idle=False)
            drained += [o.key for _, offers in result.drained for o in offers]
        assert drained.count(f"{claim.host}/new") <= 1
        # b inherited the host: its links go through the host's seen filter, and a
        # link b offered once is not sent again (the filter has it).
        assert not b.owns(claim.host) and claim.host in b.owned
        before = b.unsent
        for _ in range(3):
            b.offer(claim.host, f"{claim.host}/again", f"{claim.host}/again", 2, None, 0)
        assert b.unsent - before == 1
        await a.client.aclose()
        await b.client.aclose()

    asyncio.run(scenario())


def test_the_end_is_seen_only_when_no_work_is_left(any_redis_url: str, crawl_id: str) -> None:
    async def scenario() -> None:
        a = await _crawl(any_redis_url, crawl_id, "a")
        a.offer(origin_of(_host(1)), f"{_host(1)}/", f"{_host(1)}/", 0, None, 0)
        assert not (await a.sync(0.1, idle=True)).finished  # the offer is announced
        result = await a.sync(0.2, idle=True)
        assert not result.finished and len(result.claims) == 1, "claimed, so not idle"
        host = result.claims[0].host
        assert not (await a.sync(0.3, idle=False)).finished, "busy with its page"
        a.done(host, f"{_host(1)}/")
        a.screened(host, f"{_host(1)}/")
        await a.settle()
        assert (await a.sync(0.4, idle=True)).finished
        late = await _crawl(any_redis_url, crawl_id, "late")
        assert (await late.sync(0.5, idle=True)).finished, "a late worker exits at once"
        await a.client.aclose()
        await late.client.aclose()

    asyncio.run(scenario())


async def _work_through(a: SharedCrawl, result: SyncResult) -> None:
    """What a crawler does with a sync's news, at once: every claimed URL finished,
    every drained link screened (and refused)."""
    for claim in result.claims:
        for offer in claim.pending:
            if offer.taken:
                a.done(claim.host, offer.key)
            else:
                a.screened(claim.host, offer.key)
                a.refuse(claim.host, offer.key)
    for host, offers in result.drained:
        for offer in offers:
            a.screened(host, offer.key)
            a.refuse(host, offer.key)
    await a.settle()


async def _seed_done(a: SharedCrawl, host: str) -> None:
    """``a`` claims ``host`` (a seed offered to it); the seed's end is buffered."""
    seed = origin_of(host)
    a.offer(seed, f"{host}/", f"{host}/", 0, None, 0)
    await a.sync(0.1, idle=False)
    [claim] = (await a.sync(0.2, idle=False)).claims
    assert claim.host == seed
    a.screened(seed, f"{host}/")
    a.done(seed, f"{host}/")


@pytest.mark.parametrize("step", ["sync", "settle"])
def test_a_link_offered_during_a_round_trip_is_sent_with_its_outbox_entry(
    any_redis_url: str, crawl_id: str, step: str
) -> None:
    """The crawler offers links while a sync or a settle waits for Redis. Such an
    offer belongs to the next round: its host's outbox entry (which covers it should
    the worker die) is written before its host script and removed after it. Taken
    into the round already on its way, it was noted a round late and never unnoted,
    and the crawl's end, which needs an empty outbox, never came (a SIGKILL test's
    survivor ran until its timeout)."""

    async def scenario() -> None:
        a = await _crawl(any_redis_url, crawl_id, "a")
        seed, other, late = (origin_of(_host(n)) for n in (1, 2, 3))
        a.offer(seed, f"{seed}/", f"{seed}/", 0, None, 0)
        await a.sync(0.1, idle=True)
        [claim] = (await a.sync(0.2, idle=True)).claims
        assert claim.host == seed
        a.screened(seed, f"{seed}/")
        a.take(seed, Offer(f"{seed}/", f"{seed}/", 0, None, 0, Tier.MAIN, taken=True))
        a.offer(other, f"{other}/", f"{other}/", 1, f"{seed}/", 0)  # noted first
        trips = a.round_trips
        on_its_way = asyncio.ensure_future(
            a.sync(0.3, idle=False) if step == "sync" else a.settle()
        )
        while a.round_trips == trips:  # until the round's first call is sent
            await asyncio.sleep(0)
        assert not on_its_way.done()
        a.offer(late, f"{late}/", f"{late}/", 1, f"{seed}/", 0)
        first = await on_its_way
        assert a.unsent == 1, "the late offer waits for the next round"
        if isinstance(first, SyncResult):
            await _work_through(a, first)
        a.done(seed, f"{seed}/")
        now, results = 0.4, list[SyncResult]()
        while now < 2.0 and not (results and results[-1].finished):
            results.append(await a.sync(now, idle=True))
            await _work_through(a, results[-1])
            now += 0.1
        claimed = {str(c.host) for r in results for c in r.claims}
        assert claimed == {str(other), str(late)}, "both offers reached the index"
        assert results[-1].finished, "no outbox entry is left behind: the crawl ends"
        await a.client.aclose()

    asyncio.run(scenario())


@pytest.mark.parametrize(("hosts", "per_host"), [(1000, 10), (100, 100)])
def test_the_seen_filter_loses_no_link(
    redis_url: str, crawl_id: str, hosts: int, per_host: int
) -> None:
    """Ten links to each of 1,000 hosts, and a hundred to each of 100, all reach their
    hosts. At ten a host the keys fit the first level (256 bits, 30% set when ten
    hashes were used): a filter whose bit positions came from double hashing lost 4
    of those 10,000 (a key whose step falls near a fraction of the level sets two or
    three distinct bits). At a hundred the first levels are full: at 10 hashes a level
    (0.1% wrong when full) these 10,000 offers lost 8 links, each a page the crawl
    would never fetch; at 17 the filter is wrong about once in 10^5 offers."""

    async def scenario() -> None:
        a = await _crawl(redis_url, crawl_id, "a", max_claims=hosts)
        for n in range(hosts):
            host = origin_of(_host(n))
            for i in range(per_host):
                a.offer(host, f"{host}/p/{i}", f"{host}/p/{i}", 1, f"{host}/", 0)
        await a.sync(0.1, idle=False)
        reached, now = 0, 0.2
        while now < 5.0:
            result = await a.sync(now, idle=False)
            reached += sum(len(claim.pending) for claim in result.claims)
            now += 0.1
            if not result.claims and reached:
                break
        assert reached == hosts * per_host
        await a.client.aclose()

    asyncio.run(scenario())


def test_a_settle_with_offers_is_one_round_trip_on_one_server(
    any_redis_url: str, crawl_id: str
) -> None:
    """The outbox note goes first in the pipeline of the page's host scripts on one
    server (Redis runs a pipeline in order: the note is written before the offer
    it covers); on a cluster its node is not the hosts', and it goes first alone."""

    async def scenario() -> None:
        a = await _crawl(any_redis_url, crawl_id, "a")
        seed, other = origin_of(_host(1)), origin_of(_host(2))
        await _seed_done(a, _host(1))
        a.offer(other, f"{other}/", f"{other}/", 1, f"{seed}/", 0)
        trips = a.round_trips
        await a.settle()
        cluster = isinstance(a.client, redis.asyncio.cluster.RedisCluster)
        assert a.round_trips - trips == (2 if cluster else 1)
        claimed: list[str] = []
        now = 0.3
        while now < 2.0 and not claimed:
            result = await a.sync(now, idle=False)
            claimed += [str(c.host) for c in result.claims]
            now += 0.1
        assert claimed == [str(other)], "the offer was noted and reached the index"
        await a.client.aclose()

    asyncio.run(scenario())


def _owned(url: str, crawl_id: str, worker: SharedCrawl, host: str) -> bool:
    """Whether ``worker``'s token has ``host`` in the crawl-wide ``owned`` index."""
    client = connect(url)
    score = client.zscore(Namespace(crawl_id).crawl_key("owned"), f"{worker.token}\0{host}")
    client.close()
    return score is not None


async def _claimed_after_a_dies(b: SharedCrawl) -> list[Offer]:
    """What ``b`` claims in four syncs from a moment past the lease of a worker that
    stopped syncing at 0.3."""
    pending: list[Offer] = []
    now = 10.0
    for _ in range(4):
        pending += [o for c in (await b.sync(now, idle=False)).claims for o in c.pending]
        now += 0.1
    return pending


async def _claim_seed(a: SharedCrawl, host: str) -> None:
    """``a`` claims ``host`` (a seed offered to it) and finishes the seed: the host is
    ``a``'s, at rest."""
    await _seed_done(a, host)
    await a.settle()
    await a.sync(0.3, idle=False)  # busy: the crawl is not over


def test_a_host_at_rest_has_no_owned_entry_and_a_take_writes_it_first(
    any_redis_url: str, crawl_id: str
) -> None:
    """A host with no work is its seen filter alone in Redis (ARCHITECTURE.md, "At
    scale, measured"): no ``owned`` entry. Work taken on it later writes the entry
    before the take, so a kill right after loses nothing."""

    async def scenario() -> None:
        a = await _crawl(any_redis_url, crawl_id, "a")
        host = _host(1)
        await _claim_seed(a, host)
        assert origin_of(host) in a.owned
        assert not _owned(any_redis_url, crawl_id, a, host), "at rest: no owned entry"
        page = f"{host}/p/2"
        a.take(origin_of(host), Offer(page, page, 1, f"{host}/", 0, Tier.MAIN, taken=True))
        await a.settle()
        assert _owned(any_redis_url, crawl_id, a, host), "written with the take"
        # a dies now: its host comes back with the page, through the owned entry.
        b = await _crawl(any_redis_url, crawl_id, "b")
        pending = await _claimed_after_a_dies(b)
        assert [o.key for o in pending] == [page]
        await a.client.aclose()
        await b.client.aclose()

    asyncio.run(scenario())


def test_a_link_to_a_dead_owners_host_at_rest_is_not_lost(
    any_redis_url: str, crawl_id: str
) -> None:
    """The owner of a host at rest is mailed a link and dies before draining it: the
    reaper puts its mail in the index of claimable hosts (a host at rest has no
    ``owned`` entry to bring it back), and another worker claims the link."""

    async def scenario() -> None:
        a = await _crawl(any_redis_url, crawl_id, "a")
        host = _host(1)
        await _claim_seed(a, host)
        b = await _crawl(any_redis_url, crawl_id, "b")
        await b.sync(0.4, idle=False)
        link = f"{host}/new"
        b.offer(origin_of(host), link, link, 2, f"{_host(2)}/", 0)
        await b.settle()
        await b.sync(0.5, idle=False)  # the mail for a, who syncs no more
        assert not _owned(any_redis_url, crawl_id, a, host)
        pending = await _claimed_after_a_dies(b)
        assert [o.key for o in pending] == [link]
        await a.client.aclose()
        await b.client.aclose()

    asyncio.run(scenario())
