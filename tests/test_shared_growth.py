"""The growth bound (:mod:`robotkit.triage.growth`) across the workers of a crawl shared
on Redis: a host handed over mid-chain keeps counting its chains' steps, since each
queued record carries the chain its referer is at
(:attr:`robotkit.shared.records.Offer.chain`), and the next owner's first pages of those
chains do not yield by the words the host showed the last one. A real loopback server
and the test Redis; the paths are the server's.
"""

from __future__ import annotations

import asyncio

import pytest

from robotkit.frontier.events import Tier
from robotkit.shared.records import Offer
from robotkit.triage.chains import Chain
from robotkit.triage.growth import COUNTER_STEPS
from tests.test_crawler_growth import GROWN_FETCHES, arrows, weather_site
from tests.test_crawler_waste_exports import served
from tests.test_shared_crawl import _config, _workers

HANDED_OVER = 20
"""Pages the first worker fetches before its budget is spent and it hands the host
over: its station months' arrows are a few steps along then."""


def test_a_host_handed_over_mid_chain_keeps_its_growth_bound(redis_url: str, crawl_id: str) -> None:
    """The weather archive (``tests/test_crawler_growth.py``) crawled by two workers, one
    after the other so that the host changes hands mid-chain: the first spends its page
    budget and leaves, the second claims the host with the URLs the first had queued.
    Each station's months are followed no further along the arrows than one worker
    alone follows them, every real page is fetched, and the crawl ends by itself. When
    a queued URL's linker was unknown to the worker that fetched it, each was a root:
    every chain under way began again (about 400 fetches, months nine arrows out).
    The order the second worker reads the records in is Redis' hash order, random per
    server: the bound holds in any."""
    handler, real = weather_site()
    config = _config(delay=0.0, max_pages=10 * GROWN_FETCHES)
    with served(handler) as (home, seen):
        [(first, _)] = asyncio.run(_workers(redis_url, crawl_id, [home], 1, [HANDED_OVER], config))
        [(second, _)] = asyncio.run(_workers(redis_url, crawl_id, [home], 1, base=config))
    assert first.summary.budget_spent and second.summary.fetched > 0
    assert real <= set(seen), sorted(real - set(seen))
    assert max(map(arrows, seen)) <= COUNTER_STEPS
    assert len(seen) < GROWN_FETCHES


HOST = "http://h.example"
STEP = Offer(f"{HOST}/m/2026-9", f"{HOST}/m/2026-9", 3, f"{HOST}/m/2026-10", 0, Tier.MAIN)


def test_a_record_carries_its_referers_chain_and_no_byte_more_without_one() -> None:
    plain = STEP.record(HOST)
    assert Offer.of_record(HOST, STEP.key, plain) == STEP
    chain = Chain(1, "1")
    chained = Offer(STEP.url, STEP.key, 3, STEP.referer, 0, Tier.MAIN, taken=True, chain=chain)
    assert Offer.of_record(HOST, STEP.key, chained.record(HOST)) == chained
    assert len(chained.record(HOST)) == len(plain) + len("\0" + chain.packed())


@pytest.mark.parametrize(
    ("text", "chain"),
    [
        ("1 0 1", Chain(1, "1")),
        ("3 1 0", Chain(3, "0", yields=True)),
        ("0 2 ", Chain(0, index=True)),
        ("2 3 1,q:page", Chain(2, "1,q:page", yields=True, index=True)),
    ],
)
def test_a_records_chain_is_typed_and_written_as_the_workers_wrote_it(
    text: str, chain: Chain
) -> None:
    """A record's chain is a :class:`~robotkit.triage.chains.Chain`, read from and
    written as the text the workers of a crawl have written it in (``steps flags
    move``): a record queued by a worker of the last version is read by this one."""
    record = f"{STEP.record(HOST)}\0{text}"
    offer = Offer.of_record(HOST, STEP.key, record)
    assert offer.chain == chain
    assert offer.record(HOST) == record
