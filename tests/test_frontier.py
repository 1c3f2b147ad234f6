"""Frontier order, fairness across hosts, limits and budgets; the seen sets."""

from __future__ import annotations

import random
from array import array

import pytest

from robotkit.base.clock import ManualClock
from robotkit.base.reasons import Reason
from robotkit.frontier.frontier import (
    AddOutcome,
    BloomSeenSet,
    ExactSeenSet,
    Frontier,
    FrontierEntry,
    SeenSet,
)
from robotkit.frontier.seen import digest64
from robotkit.pacing.pacer import Pacer
from robotkit.pacing.readiness import PacerReadiness
from robotkit.url.parse import InvalidURL, Origin, origin_of

A = origin_of("http://a.example/")
B = origin_of("http://b.example/")
C = origin_of("http://c.example/")


def add(f: Frontier, url: str, depth: int = 0, referer: str | None = None) -> AddOutcome:
    return f.add(url, url, depth, referer).outcome


def drain(f: Frontier, now: float = 0.0) -> list[str]:
    """Serve everything, marking each URL done at once (no pacing)."""
    order = []
    while (entry := f.next(now)) is not None:
        order.append(entry.url)
        f.mark_done(entry)
    return order


def paced() -> tuple[Frontier, Pacer]:
    """A frontier that asks a pacer when a host is ready, as the crawler's does."""
    pacer = Pacer(ManualClock())
    return Frontier(readiness=PacerReadiness(pacer)), pacer


def hold(pacer: Pacer, host: Origin, until: float) -> None:
    pacer.hold((host.host, host.port), until)


# -- order -------------------------------------------------------------------


def test_single_host_is_fifo_within_a_depth_and_breadth_first_across_depths() -> None:
    f = Frontier()
    add(f, "http://a.example/d2", 2)
    add(f, "http://a.example/x", 1)
    add(f, "http://a.example/y", 1)
    add(f, "http://a.example/", 0)
    assert drain(f) == [
        "http://a.example/",
        "http://a.example/x",
        "http://a.example/y",
        "http://a.example/d2",
    ]


def test_lower_depth_first_across_ready_hosts() -> None:
    f = Frontier()
    add(f, "http://a.example/deep", 3)
    add(f, "http://b.example/shallow", 1)
    add(f, "http://c.example/", 0)
    assert drain(f) == [
        "http://c.example/",
        "http://b.example/shallow",
        "http://a.example/deep",
    ]


def test_ready_hosts_are_served_round_robin() -> None:
    f = Frontier()
    for i in range(3):
        add(f, f"http://a.example/{i}", 1)
    for i in range(3):
        add(f, f"http://b.example/{i}", 1)
    assert drain(f) == [
        "http://a.example/0",
        "http://b.example/0",
        "http://a.example/1",
        "http://b.example/1",
        "http://a.example/2",
        "http://b.example/2",
    ]


def test_a_host_is_busy_until_its_url_is_done() -> None:
    f = Frontier()
    add(f, "http://a.example/1")
    add(f, "http://a.example/2")
    first = f.next(0.0)
    assert first is not None and first.url == "http://a.example/1"
    assert f.next(0.0) is None  # one request per host at a time
    assert f.next_ready_time() is None  # nothing is waiting: the host is busy
    assert f.in_flight == 1 and len(f) == 1
    f.mark_done(first)
    second = f.next(0.0)
    assert second is not None and second.url == "http://a.example/2"


def test_a_slow_host_does_not_stall_the_others(clock: ManualClock) -> None:
    f = Frontier(clock=clock)
    t0 = clock()
    add(f, "http://a.example/1")
    add(f, "http://a.example/2")
    for i in range(3):
        add(f, f"http://b.example/{i}", 1)
    got = f.next()
    assert got is not None and got.host == A
    f.mark_done(got, ready_at=t0 + 30)  # a.example wants 30 s between requests
    served = []
    while (entry := f.next()) is not None:
        served.append(entry.url)
        f.mark_done(entry, ready_at=clock() + 1)
        clock.advance(1)
    # b.example's three URLs go out while a.example waits, though a's are shallower.
    assert served == [f"http://b.example/{i}" for i in range(3)]
    assert f.next_ready_time() == t0 + 30
    assert f.next(t0 + 29.9) is None
    later = f.next(t0 + 30)
    assert later is not None and later.url == "http://a.example/2"


def test_next_ready_time_is_the_earliest_sleeping_host() -> None:
    f, pacer = paced()
    assert f.next_ready_time() is None
    add(f, "http://a.example/")
    add(f, "http://b.example/")
    hold(pacer, A, 50.0)
    hold(pacer, B, 20.0)
    assert f.next_ready_time() == 20.0
    assert f.next(19.0) is None
    entry = f.next(20.0)
    assert entry is not None and entry.host == B
    f.mark_done(entry)
    assert f.next_ready_time() == 50.0


def test_among_ready_hosts_of_equal_depth_the_longest_waiting_goes_first() -> None:
    f, pacer = paced()
    add(f, "http://a.example/", 1)
    add(f, "http://b.example/", 1)
    add(f, "http://c.example/", 1)
    hold(pacer, A, 30.0)
    hold(pacer, B, 10.0)
    hold(pacer, C, 20.0)
    assert drain(f, now=100.0) == [
        "http://b.example/",
        "http://c.example/",
        "http://a.example/",
    ]


def test_hosts_ready_at_once_go_by_permitted_time_not_by_when_they_were_noticed() -> None:
    """a.example has been waiting (ready since 10, not yet served) when b.example,
    permitted since 2, is first looked at: b goes first, its permitted time is
    earlier."""
    f, pacer = paced()
    add(f, "http://a.example/", 1)
    add(f, "http://c.example/", 1)
    hold(pacer, A, 10.0)
    hold(pacer, C, 9.0)
    first = f.next(10.0)
    assert first is not None and first.host == C  # a.example is now ready, not served
    f.mark_done(first, ready_at=50.0)
    add(f, "http://b.example/", 1)
    hold(pacer, B, 2.0)
    assert drain(f, now=10.0) == ["http://b.example/", "http://a.example/"]


def test_a_shallower_url_reorders_a_waiting_host() -> None:
    f = Frontier()
    add(f, "http://a.example/deep", 2)
    add(f, "http://b.example/mid", 1)
    assert f.next_ready_time() is not None
    add(f, "http://a.example/shallow", 0)  # found later, closer to a seed
    assert drain(f) == [
        "http://a.example/shallow",
        "http://b.example/mid",
        "http://a.example/deep",
    ]


def test_requeue_puts_the_url_back_at_the_head_from_its_retry_time() -> None:
    f = Frontier()
    add(f, "http://a.example/1")
    add(f, "http://a.example/2")
    entry = f.next(0.0)
    assert entry is not None
    f.requeue(entry, ready_at=120.0)  # 503 with Retry-After: 120
    assert len(f) == 2 and f.in_flight == 0
    assert f.next(119.0) is None
    assert drain(f, 120.0) == ["http://a.example/1", "http://a.example/2"]
    assert f.stats().done == 2


def test_marking_an_entry_not_in_flight_is_an_error() -> None:
    f = Frontier()
    add(f, "http://a.example/")
    stray = FrontierEntry("http://a.example/", "http://a.example/", 0, None, A)
    with pytest.raises(ValueError, match="not in flight"):
        f.mark_done(stray)


def test_next_without_now_or_clock_is_a_clear_error() -> None:
    with pytest.raises(TypeError, match="needs `now`"):
        Frontier().next()


# -- limits, duplicates, budgets ---------------------------------------------------------


def test_depth_limit_refuses_and_does_not_mark_seen() -> None:
    f = Frontier(max_depth=1)
    assert add(f, "http://a.example/x", 2) is AddOutcome.REJECTED
    assert f.add("http://a.example/x", "http://a.example/x", 2).reason is Reason.DEPTH_LIMIT
    # The same URL found closer to a seed is still welcome.
    assert f.add("http://a.example/x", "http://a.example/x", 1).queued
    assert f.stats().rejected == {Reason.DEPTH_LIMIT: 2}


def test_duplicates_by_key_not_by_url() -> None:
    f = Frontier()
    first = f.add("http://a.example/?b=2&a=1", "http://a.example/?a=1&b=2")
    again = f.add("HTTP://A.example/?a=1&b=2", "http://a.example/?a=1&b=2", 1)
    other = f.add("http://a.example/?a=1", "http://a.example/?a=1")
    assert first.queued and other.queued
    assert again.rejected and again.reason is Reason.DUPLICATE_URL
    assert len(f) == 2
    # The original URL is what gets fetched.
    entry = f.next(0.0)
    assert entry is not None and entry.url == "http://a.example/?b=2&a=1"


def test_invalid_urls_are_rejected_not_raised() -> None:
    f = Frontier()
    assert f.add("not a url", "k1").reason is Reason.INVALID_URL
    assert f.add("ftp://a.example/", "k2").reason is Reason.UNSUPPORTED_SCHEME
    assert len(f) == 0 and len(f.seen) == 0


def test_host_budget_parks_and_raising_it_releases_in_order() -> None:
    f = Frontier(host_budget=2)
    results = [f.add(f"http://a.example/{i}", f"a{i}", 1) for i in range(5)]
    assert [r.outcome for r in results] == [AddOutcome.QUEUED] * 2 + [AddOutcome.PARKED] * 3
    assert results[2].reason is Reason.HOST_BUDGET
    assert add(f, "http://b.example/0", 1) is AddOutcome.QUEUED  # per host
    assert f.stats().parked_by_reason == {Reason.HOST_BUDGET: 3}
    # A parked URL is kept: found again, it is a duplicate, not a new URL.
    assert f.add("http://a.example/4", "a4", 1).reason is Reason.DUPLICATE_URL
    assert drain(f) == ["http://a.example/0", "http://b.example/0", "http://a.example/1"]
    assert f.next_ready_time() is None  # parked URLs do not keep a crawl alive
    assert f.set_host_budget(4) == 2
    assert drain(f) == ["http://a.example/2", "http://a.example/3"]
    assert [e.url for e, _ in f.parked()] == ["http://a.example/4"]
    assert f.set_host_budget(None, host=A) == 1
    assert drain(f) == ["http://a.example/4"]
    assert f.stats().parked == 0 and f.stats().done == 6


def test_park_host_holds_queued_and_future_urls_until_unparked() -> None:
    f = Frontier()
    for i in range(3):
        add(f, f"http://a.example/{i}", i)
    add(f, "http://b.example/", 0)
    entry = f.next(0.0)
    assert entry is not None and entry.url == "http://a.example/0"
    assert f.park_host(A, Reason.TRAP_HOST) == 2
    assert f.add("http://a.example/3", "http://a.example/3", 1).reason is Reason.TRAP_HOST
    f.mark_done(entry)
    assert drain(f) == ["http://b.example/"]
    assert f.stats().parked_by_reason == {Reason.TRAP_HOST: 3}
    assert f.unpark_host(A) == 3
    # Breadth-first again: a/3 (depth 1, found last) goes before a/2 (depth 2).
    assert drain(f) == ["http://a.example/1", "http://a.example/3", "http://a.example/2"]


def test_bad_limits_are_refused() -> None:
    with pytest.raises(ValueError):
        Frontier(max_depth=-1)
    with pytest.raises(ValueError):
        Frontier(host_budget=-1)
    with pytest.raises(ValueError):
        Frontier().add("http://a.example/", "k", -1)


def test_stats_counts() -> None:
    f = Frontier(max_depth=0, host_budget=1)
    add(f, "http://a.example/")
    add(f, "http://a.example/")
    add(f, "http://a.example/x")
    add(f, "http://a.example/y", 1)
    entry = f.next(0.0)
    assert entry is not None
    s = f.stats()
    assert (s.queued, s.in_flight, s.parked, s.done, s.hosts, s.seen) == (0, 1, 1, 0, 1, 2)
    assert s.rejected == {Reason.DUPLICATE_URL: 1, Reason.DEPTH_LIMIT: 1}
    assert s.seen_nbytes > 0


def test_an_explicit_host_groups_urls() -> None:
    f = Frontier()
    shard = Origin("https", "shard.example", 443)
    f.add("http://x.example/1", "1", host=shard)
    f.add("http://y.example/2", "2", host=shard)
    first = f.next(0.0)
    assert first is not None and first.host == shard
    assert f.next(0.0) is None


# -- seen sets -----------------------------------------------------------------


@pytest.mark.parametrize("make", [lambda: ExactSeenSet(4), lambda: BloomSeenSet(1000, 0.001)])
def test_seen_set_protocol(make: type[SeenSet]) -> None:
    seen = make()
    assert isinstance(seen, SeenSet)
    assert seen.add("http://a.example/") is True
    assert seen.add("http://a.example/") is False
    assert "http://a.example/" in seen
    assert "http://b.example/" not in seen
    assert 42 not in seen
    assert seen.add("http://a.example/\udcff") is True  # a lone surrogate never raises
    assert len(seen) == 2
    assert seen.nbytes > 0


def test_exact_seen_set_grows_and_stays_exact_and_compact() -> None:
    seen = ExactSeenSet(expected_items=10)
    keys = [f"https://h{i % 7}.example/p/{i}" for i in range(20_000)]
    assert all(seen.add(k) for k in keys)
    assert not any(seen.add(k) for k in keys)
    assert len(seen) == 20_000
    assert all(k in seen for k in keys)
    assert not any(f"https://other.example/{i}" in seen for i in range(20_000))
    assert 8 / ExactSeenSet.MAX_LOAD <= seen.nbytes / len(seen) <= 16


def test_exact_seen_set_presized_is_about_ten_bytes_per_url() -> None:
    seen = ExactSeenSet(expected_items=50_000)
    for i in range(50_000):
        seen.add(f"u{i}")
    assert seen.nbytes / len(seen) == pytest.approx(10.0, abs=0.01)


def _linear_probing_image(digests: list[int], capacity: int) -> bytes:
    """The table an exact seen set has always stored: ``array('Q')`` slots, linear
    probing from ``digest * capacity >> 64``, written out slot by slot."""
    table = array("Q", [0]) * capacity
    for digest in digests:
        i = (digest * capacity) >> 64
        while table[i] not in (0, digest):
            i = (i + 1) % capacity
        table[i] = digest
    return table.tobytes()


def test_exact_seen_set_stores_the_linear_probing_table_it_always_has() -> None:
    """Probing searches the run of full slots in C; the table, and so a
    checkpoint's image, is the one a slot-by-slot probe builds."""
    keys = [f"https://h{i % 7}.example/p/{i}" for i in range(40_000)]
    seen = ExactSeenSet(expected_items=len(keys))  # filled to a load of 0.8
    assert all(seen.add(k) for k in keys)
    assert not any(seen.add(k) for k in keys)
    image = seen.snapshot().blobs[0]
    assert image == _linear_probing_image([digest64(k) for k in keys], len(image) // 8)


def _digests(*values: int) -> bytes:
    return b"".join(v.to_bytes(8, "little") for v in values)


def test_exact_seen_set_probes_past_the_end_and_across_slot_boundaries() -> None:
    last = (1 << 64) - 1  # slot 10 of 11 (digest * 11 >> 64): the run goes on at 0
    # 1 is 01 00 00 00 00 00 00 00: eight zero bytes start inside its slot, not at
    # an empty one; 2 << 32 is the eight bytes that stand across the slots of 1 and 2.
    for values in ([last, last - 1, last - 2], [1, 2, 2 << 32]):
        seen = ExactSeenSet(expected_items=8)  # 11 slots
        seen.add_digests(_digests(*values))
        seen.add_digests(_digests(*values))
        assert len(seen) == 3
        assert seen.snapshot().blobs[0] == _linear_probing_image(values, 11)


def test_exact_seen_set_agrees_with_a_set_on_digests_full_of_zero_bytes() -> None:
    """Digests with many zero bytes (runs that look like empty slots, and like
    other digests across two slots), in a set that grows (two tables at once)."""
    rng = random.Random(7)
    seen = ExactSeenSet(expected_items=8)
    reference: set[int] = set()
    for _ in range(6_000):
        value = int.from_bytes(bytes(rng.choice((0, 0, 0, 1, 255)) for _ in range(8)), "little")
        value = value or 1
        before = len(seen)
        seen.add_digests(_digests(value))
        assert (len(seen) > before) == (value not in reference)
        reference.add(value)
    assert len(seen) == len(reference)


@pytest.mark.parametrize(("rate", "n"), [(0.01, 100_000), (0.05, 20_000)])
def test_bloom_false_positive_rate_is_near_the_configured_rate(rate: float, n: int) -> None:
    seen = BloomSeenSet(expected_items=n, error_rate=rate)
    for i in range(n):
        seen.add(f"https://site.example/page/{i}")
    false_positives = sum(f"https://site.example/other/{i}" in seen for i in range(n))
    measured = false_positives / n
    # Binomial noise is ~3% of the rate (1000 expected hits); allow for rounding.
    assert rate * 0.7 <= measured <= rate * 1.15
    # Every added key is found: a Bloom filter has no false negatives.
    assert all(f"https://site.example/page/{i}" in seen for i in range(0, n, 97))
    assert seen.nbytes / n <= 2.0 if rate == 0.01 else True


def test_bloom_grows_past_its_capacity_within_twice_the_rate() -> None:
    seen = BloomSeenSet(expected_items=5_000, error_rate=0.01)
    for i in range(40_000):
        seen.add(f"k{i}")
    assert len(seen._filters) > 1
    measured = sum(f"q{i}" in seen for i in range(40_000)) / 40_000
    assert measured <= 0.02
    assert len(seen) >= 40_000 * 0.98  # a few new keys were lost as false positives


def test_bloom_rejects_bad_parameters() -> None:
    with pytest.raises(ValueError):
        BloomSeenSet(error_rate=0.0)
    with pytest.raises(ValueError):
        BloomSeenSet(error_rate=1.0)
    with pytest.raises(ValueError):
        BloomSeenSet(expected_items=0)
    with pytest.raises(ValueError):
        ExactSeenSet(expected_items=0)


def test_frontier_with_a_bloom_seen_set() -> None:
    f = Frontier(seen=BloomSeenSet(expected_items=1000, error_rate=0.001))
    assert add(f, "http://a.example/") is AddOutcome.QUEUED
    assert add(f, "http://a.example/", 1) is AddOutcome.REJECTED
    assert f.stats().seen == 1


def test_requeue_on_a_host_parked_meanwhile_parks_the_url() -> None:
    f = Frontier()
    add(f, "http://a.example/1")
    add(f, "http://a.example/2")
    entry = f.next(0.0)
    assert entry is not None
    f.park_host(A)
    f.requeue(entry)
    assert len(f) == 0 and f.next(0.0) is None
    assert [e.url for e, _ in f.parked(A)] == ["http://a.example/1", "http://a.example/2"]
    assert f.unpark_host(A) == 2
    assert drain(f) == ["http://a.example/1", "http://a.example/2"]


@pytest.mark.parametrize(
    "url",
    [
        "http://a.example",
        "http://a.example:8080?x=1",
        "https://a.example.:443/#f",
        "http://a.example:080/",
        "http://a.example:/",
        "http://a.example:0/",
        "http://a.example:65536/",
        "http://a.example/\x00",
        "http://a.example/\x7f",
        "HTTP://A.EXAMPLE/",
        "http://user@a.example/",
        "http://[::1]:8080/",
        "http://[::1/",
        "ftp://a.example/",
    ],
)
def test_origin_of_added_urls_matches_urls_origin_of(url: str) -> None:
    """The frontier remembers origins per URL prefix; it must agree with
    urls.origin_of on every URL, first time and from its memory."""
    try:
        expected: object = origin_of(url)
    except InvalidURL as exc:
        expected = exc.reason
    f = Frontier()
    for n in range(2):
        result = f.add(url, f"{url}#{n}")
        if isinstance(expected, Reason):
            assert result.reason is expected
        else:
            assert result.queued
    if not isinstance(expected, Reason):
        assert [e.host for e in (f.next(0.0),) if e] == [expected]


# -- a host handed to another worker (a crawl shared on Redis) ----------------------


def test_drop_host_forgets_its_urls_and_keeps_the_others() -> None:
    f = Frontier(host_budget=2)
    for url in ("http://a.example/1", "http://a.example/2", "http://a.example/3"):
        add(f, url)  # the third is parked behind the budget
    add(f, "http://b.example/1", 0)
    assert f.queued_of(A) == 3 and f.queued_of(C) == 0
    assert f.drop_host(A) == 3
    assert f.queued_of(A) == 0
    stats = f.stats()
    assert (stats.queued, stats.parked) == (1, 0)
    assert drain(f) == ["http://b.example/1"]
    assert f.drop_host(C) == 0


def test_a_host_in_flight_is_not_dropped() -> None:
    f = Frontier()
    add(f, "http://a.example/1")
    entry = f.next(0.0)
    assert entry is not None
    with pytest.raises(ValueError, match="in flight"):
        f.drop_host(A)


def test_a_url_taken_over_is_queued_again_though_seen() -> None:
    f = Frontier()
    add(f, "http://a.example/1")
    f.drop_host(A)
    assert add(f, "http://a.example/1") is AddOutcome.REJECTED  # seen
    result = f.add("http://a.example/1", "http://a.example/1", 0, None, again=True)
    assert result.queued
    assert drain(f) == ["http://a.example/1"]
