"""Pacing core: gaps, robots.txt pace, Retry-After, backoff, limits - on a ManualClock."""

from __future__ import annotations

import random

import pytest

from robotkit.base.clock import ManualClock
from robotkit.base.headervalues import parse_retry_after
from robotkit.base.outcome import Outcome, classify_status
from robotkit.base.reasons import Reason
from robotkit.pacing.pacer import (
    Pacer,
    PacingError,
    PacingPolicy,
    host_key,
)

H = ("example.org", 443)
H2 = ("example.net", 443)


def make(clock: ManualClock, **policy: float) -> Pacer:
    return Pacer(clock, PacingPolicy(**policy))  # type: ignore[arg-type]


def test_host_key_is_host_and_port() -> None:
    assert host_key("https://Example.ORG/a") == ("example.org", 443)
    assert host_key("http://example.org:8080/") == ("example.org", 8080)


def test_gap_runs_from_end_of_response_to_next_start(clock: ManualClock) -> None:
    pacer = make(clock, delay=2.0)
    assert pacer.wait_time(H) == 0.0
    ticket = pacer.start(H)
    clock.advance(5.0)  # a slow response: the gap starts only when it ends
    pacer.finish(ticket, Outcome.OK)
    assert pacer.wait_time(H) == pytest.approx(2.0)
    clock.advance(1.9)
    with pytest.raises(PacingError):
        pacer.start(H)
    clock.advance(0.1)
    pacer.start(H)


def test_one_request_at_a_time_per_host_and_hosts_independent(clock: ManualClock) -> None:
    pacer = make(clock, delay=1.0)
    pacer.start(H)
    assert pacer.wait_time(H) is None  # busy: wait for a finish
    assert pacer.wait_time(H2) == 0.0  # another host is not held up
    pacer.start(H2)
    assert pacer.in_flight == 2


def test_global_in_flight_limit(clock: ManualClock) -> None:
    pacer = Pacer(clock, PacingPolicy(max_in_flight=1))
    ticket = pacer.start(H)
    assert pacer.plan(H2).ready_at is None
    pacer.finish(ticket, Outcome.OK)
    assert pacer.wait_time(H2) == 0.0


def test_per_host_concurrency_still_spaces_starts(clock: ManualClock) -> None:
    pacer = Pacer(clock, PacingPolicy(delay=1.0, per_host_concurrency=2))
    pacer.start(H)
    assert pacer.wait_time(H) == pytest.approx(1.0)
    clock.advance(1.0)
    pacer.start(H)
    assert pacer.wait_time(H) is None


@pytest.mark.parametrize(
    ("delay", "crawl_delay", "interval", "expected"),
    [(1.0, 3.0, None, 3.0), (1.0, None, 5.0, 5.0), (4.0, 3.0, 2.0, 4.0), (1.0, 2.0, 6.0, 6.0)],
)
def test_gap_is_largest_of_delay_crawl_delay_and_request_rate(
    clock: ManualClock,
    delay: float,
    crawl_delay: float | None,
    interval: float | None,
    expected: float,
) -> None:
    pacer = make(clock, delay=delay)
    assert pacer.apply_robots(H, crawl_delay, interval) is None
    assert pacer.gap(H) == expected
    pacer.finish(pacer.start(H), Outcome.OK)
    assert pacer.wait_time(H) == pytest.approx(expected)


def test_crawl_delay_above_ceiling_skips_host(clock: ManualClock) -> None:
    pacer = make(clock, max_crawl_delay=10.0)
    assert pacer.apply_robots(H, 11.0) is Reason.CRAWL_DELAY_TOO_LONG
    assert pacer.plan(H).skip_reason is Reason.CRAWL_DELAY_TOO_LONG
    assert pacer.wait_time(H) is None
    with pytest.raises(PacingError):
        pacer.start(H)
    assert pacer.apply_robots(H, None, 3600.0) is Reason.CRAWL_DELAY_TOO_LONG
    assert pacer.apply_robots(H, float("inf")) is Reason.CRAWL_DELAY_TOO_LONG
    assert pacer.apply_robots(H, 10.0) is None  # a new robots.txt may lift it
    assert pacer.wait_time(H) == 0.0


def test_retry_after_holds_the_whole_host(clock: ManualClock) -> None:
    pacer = make(clock, delay=1.0)
    ticket = pacer.start(H)
    retry_at = parse_retry_after("120", clock())
    pacer.finish(ticket, classify_status(429), retry_at)
    assert pacer.wait_time(H) == pytest.approx(120.0)
    clock.advance(119)
    assert pacer.wait_time(H) == pytest.approx(1.0)


def test_backoff_grows_exponentially_is_capped_and_success_relaxes_it(
    clock: ManualClock,
) -> None:
    pacer = make(clock, delay=1.0, backoff_base=2.0, backoff_factor=2.0, backoff_max=10.0)
    waits = []
    for _ in range(5):
        clock.advance(pacer.wait_time(H) or 0.0)
        pacer.finish(pacer.start(H), Outcome.SERVER_ERROR)
        waits.append(pacer.wait_time(H))
    assert waits == [2.0, 4.0, 8.0, 10.0, 10.0]
    clock.advance(10.0)
    pacer.finish(pacer.start(H), Outcome.OK)
    assert pacer.state(H).failures == 4
    assert pacer.wait_time(H) == pytest.approx(10.0)  # relaxed one level, 2*2**3 capped
    for _ in range(4):
        clock.advance(pacer.wait_time(H) or 0.0)
        pacer.finish(pacer.start(H), Outcome.NOT_MODIFIED)
    assert pacer.wait_time(H) == pytest.approx(1.0)


def test_jitter_only_lengthens_gap_and_is_reproducible(clock: ManualClock) -> None:
    def gaps(seed: int) -> list[float]:
        c = ManualClock()
        pacer = Pacer(c, PacingPolicy(delay=1.0, jitter=0.5), random.Random(seed))
        out = []
        for _ in range(20):
            pacer.finish(pacer.start(H), Outcome.OK)
            wait = pacer.wait_time(H) or 0.0
            out.append(wait)
            c.advance(wait)
        return out

    first = gaps(7)
    assert first == gaps(7)
    assert all(1.0 <= g <= 1.5 for g in first)
    assert len(set(first)) > 1


def test_retry_after_parsing() -> None:
    now = 1_700_000_000.0
    assert parse_retry_after("30", now) == now + 30
    assert parse_retry_after(" 0 ", now) == now
    assert parse_retry_after("Tue, 14 Nov 2023 22:13:40 GMT", now) == now + 20
    assert parse_retry_after("Mon, 01 Jan 2001 00:00:00 GMT", now) == now  # past: now
    for junk in ("", "soon", "-5", "nan", "inf", None):
        assert parse_retry_after(junk, now) is None


@pytest.mark.parametrize(
    ("status", "outcome"),
    [
        (200, Outcome.OK),
        (204, Outcome.OK),
        (301, Outcome.REDIRECT),
        (304, Outcome.NOT_MODIFIED),
        (404, Outcome.GONE),
        (410, Outcome.GONE),
        (401, Outcome.DENIED),
        (403, Outcome.DENIED),
        (429, Outcome.RATE_LIMITED),
        (500, Outcome.SERVER_ERROR),
        (503, Outcome.SERVER_ERROR),
        (400, Outcome.CLIENT_ERROR),
    ],
)
def test_classify_status(status: int, outcome: Outcome) -> None:
    assert classify_status(status) is outcome


def test_policy_rejects_nonsense() -> None:
    with pytest.raises(ValueError):
        PacingPolicy(delay=-1)
    with pytest.raises(ValueError):
        PacingPolicy(max_in_flight=0)


def test_cancel_frees_slot_counts_for_spacing_but_not_health(clock: ManualClock) -> None:
    pacer = make(clock, delay=1.0)
    pacer.finish(pacer.start(H), Outcome.SERVER_ERROR)
    clock.advance(pacer.wait_time(H) or 0.0)
    pacer.cancel(pacer.start(H))
    assert pacer.state(H).failures == 1 and pacer.in_flight == 0
    assert pacer.wait_time(H) == pytest.approx(2.0)  # still backed off from the end


def test_withdraw_frees_the_slot_and_records_nothing(clock: ManualClock) -> None:
    """A start a shared reservation refused: the host saw nothing, so no gap."""
    pacer = make(clock, delay=1.0, max_in_flight=1)
    ticket = pacer.start(H)
    assert pacer.wait_time(H2) is None  # the one global slot is taken
    pacer.withdraw(ticket)
    assert pacer.in_flight == 0 and pacer.state(H).in_flight == 0
    assert pacer.wait_time(H) == 0.0 and pacer.wait_time(H2) == 0.0
    assert pacer.state(H).last_end is None


def test_host_table_forgets_only_hosts_back_to_a_new_hosts_state() -> None:
    idle = [(f"idle{n}.example", 80) for n in range(3)]
    failing, slow, busy = ("fail.example", 80), ("slow.example", 80), ("busy.example", 80)
    held = ("held.example", 80)
    kept = (failing, slow, busy, held)
    newcomer = ("new.example", 80)

    def seven_hosts(clock: ManualClock) -> Pacer:
        pacer = Pacer(clock, PacingPolicy(delay=1.0, max_hosts=7))
        for host in idle:
            pacer.finish(pacer.start(host), Outcome.OK)
        pacer.finish(pacer.start(failing), Outcome.SERVER_ERROR)
        assert pacer.apply_robots(slow, 20.0) is None
        pacer.finish(pacer.start(slow), Outcome.OK)
        pacer.start(busy)
        pacer.hold(held, clock() + 60.0)  # e.g. its robots.txt was deferred
        assert len(pacer) == 7
        return pacer

    within_gap = seven_hosts(ManualClock())
    within_gap.state(newcomer)
    assert len(within_gap) == 8  # every idle host is still inside its gap: all kept

    clock = ManualClock()
    pacer = seven_hosts(clock)
    clock.advance(1.0)  # the idle hosts' gaps are over; the others still carry a rule
    before = {host: pacer.wait_time(host) for host in kept}
    pacer.state(newcomer)
    assert set(pacer._hosts) == {*kept, newcomer}
    assert {host: pacer.wait_time(host) for host in kept} == before
    assert pacer.gap(slow) == 20.0 and pacer.state(failing).failures == 1
    assert pacer.in_flight == 1 and pacer.state(busy).in_flight == 1
    assert pacer.wait_time(idle[0]) == 0.0  # a forgotten host is a new host again
