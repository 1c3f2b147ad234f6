"""Issue 10: the frontier's typed events and its store seam, tiers in one frontier,
and readiness asked of its owner (the pacer) instead of copied in."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from robotkit.base.clock import ManualClock
from robotkit.base.outcome import Outcome
from robotkit.base.reasons import Reason
from robotkit.frontier.events import (
    BudgetSet,
    Demoted,
    Done,
    FrontierEvent,
    FrontierSnapshot,
    Parked,
    Queued,
    Released,
    Requeued,
    Taken,
    Tallied,
)
from robotkit.frontier.frontier import Frontier, FrontierEntry, Tier
from robotkit.frontier.store import FrontierStore, decode_event, encode_event
from robotkit.pacing.pacer import Pacer, PacingPolicy
from robotkit.pacing.readiness import PacerReadiness
from robotkit.url.parse import origin_of

A = origin_of("http://a.example/")
B = origin_of("http://b.example/")


class ListStore:
    """The smallest :class:`FrontierStore`: the events in a list, as a store on
    another backend would keep them."""

    def __init__(self) -> None:
        self.events: list[FrontierEvent] = []
        self.snapshots: list[FrontierSnapshot] = []

    def record(self, event: FrontierEvent) -> None:
        self.events.append(event)

    def compact(self, snapshot: FrontierSnapshot) -> None:
        self.snapshots.append(snapshot)
        self.events.clear()

    def close(self) -> None:
        pass


def take(f: Frontier, now: float = 0.0) -> FrontierEntry:
    entry = f.next(now)
    assert entry is not None
    return entry


def state_of(f: Frontier) -> list[tuple[object, ...]]:
    """What a checkpoint would keep of each host, in a comparable form."""
    return [
        (h.origin, [e.key for e in h.queued], [e.key for e in h.parked], h.admitted, h.hold)
        for h in f.snapshot().hosts
    ]


def test_every_change_is_one_typed_event_and_replaying_them_rebuilds_the_frontier() -> None:
    store: FrontierStore = ListStore()
    f = Frontier(host_budget=2)
    f.attach(store)
    f.add("http://a.example/1", "a1")
    f.add("http://a.example/2", "a2", 1)
    f.add("http://a.example/3", "a3", 1)  # over budget: parked
    f.add("http://a.example/1", "a1")  # duplicate: no event
    f.add("http://b.example/", "b", tier=Tier.DEMOTED)
    one = take(f)
    f.mark_done(one, ready_at=5.0)
    two = take(f, 5.0)
    f.requeue(two, ready_at=9.0)
    f.set_host_budget(3, host=A)
    f.park_host(A, Reason.TRAP_HOST)
    f.unpark_host(A)
    f.tally("fetched")
    two = take(f, 9.0)
    f.demote(two)
    assert isinstance(store, ListStore)
    assert [type(e) for e in store.events] == [
        Queued,
        Queued,
        Queued,
        Queued,
        Taken,
        Done,
        Taken,
        Requeued,
        BudgetSet,
        Parked,
        Released,
        Tallied,
        Taken,
        Demoted,
    ]
    assert store.events[5] == Done(A, "a1", 5.0)
    assert store.events[9] == Parked(A, Reason.TRAP_HOST)
    # Each event survives its journal encoding unchanged.
    assert [decode_event(encode_event(e)) for e in store.events] == store.events
    g = Frontier(host_budget=2)
    for event in store.events:
        g.apply(event)
    assert state_of(g) == state_of(f)
    # Refusals change nothing, so they are no events: only their count differs.
    assert replace(g.stats(), rejected={}) == replace(f.stats(), rejected={})
    assert g.tallies == f.tallies


def test_the_demoted_tier_waits_until_the_main_tier_is_empty_and_idle() -> None:
    f = Frontier()
    f.add("http://b.example/low", "low", 0, tier=Tier.DEMOTED)
    f.add("http://a.example/1", "a1", 3)
    f.add("http://a.example/2", "a2", 3)
    first = take(f)
    assert first.key == "a1"  # deeper, but main tier
    assert f.next(0.0) is None  # a2 waits for its host; the demoted tier stays shut
    assert f.next_ready_time() is None
    f.mark_done(first)
    second = take(f)
    assert second.key == "a2"
    assert f.next(0.0) is None  # a2 is still in flight
    f.mark_done(second)
    low = take(f)
    assert (low.key, low.tier) == ("low", Tier.DEMOTED)


def test_tiers_share_one_seen_set_one_budget_and_one_park() -> None:
    f = Frontier(host_budget=2)
    assert f.add("http://a.example/x", "x").queued
    assert f.add("http://a.example/x", "x", tier=Tier.DEMOTED).reason is Reason.DUPLICATE_URL
    assert f.add("http://a.example/y", "y", tier=Tier.DEMOTED).queued
    assert f.add("http://a.example/z", "z", tier=Tier.DEMOTED).reason is Reason.HOST_BUDGET
    assert f.park_host(A) == 2  # both tiers' queued URLs
    assert f.stats().parked_by_reason == {Reason.TRAP_HOST: 3}
    assert f.unpark_host(A) == 2
    served = []
    while (entry := f.next(0.0)) is not None:
        served.append((entry.key, entry.tier))
        f.mark_done(entry)
    assert served == [("x", Tier.MAIN), ("y", Tier.DEMOTED)]
    assert [(e.key, why) for e, why in f.parked()] == [("z", Reason.HOST_BUDGET)]


def test_demote_moves_a_url_in_flight_to_the_back_of_the_demoted_tier(tmp_path: Path) -> None:
    f = Frontier()
    f.add("http://a.example/1", "a1")
    f.add("http://a.example/2", "a2", tier=Tier.DEMOTED)
    f.open_journal(tmp_path / "f")
    moved = f.demote(take(f))
    assert moved.tier is Tier.DEMOTED and f.stats().demoted == 2 and f.stats().done == 0
    g = Frontier.restore(tmp_path / "f")  # from the journal
    f.close_journal()
    f.checkpoint(tmp_path / "c")
    h = Frontier.restore(tmp_path / "c")  # from a checkpoint
    for frontier in (f, g, h):
        served = []
        while (entry := frontier.next(0.0)) is not None:
            served.append((entry.key, entry.tier))
            frontier.mark_done(entry)
        assert served == [("a2", Tier.DEMOTED), ("a1", Tier.DEMOTED)]


def test_the_frontier_asks_the_pacer_and_never_serves_a_host_before_its_slot() -> None:
    clock = ManualClock()
    pacer = Pacer(clock, PacingPolicy(delay=10.0))
    f = Frontier(clock=clock, readiness=PacerReadiness(pacer))
    for i in range(2):
        f.add(f"http://a.example/{i}", f"a{i}")
    f.add("http://b.example/", "b")
    first = take(f, clock())
    ticket = pacer.start((A.host, A.port))
    clock.advance(2.0)
    pacer.finish(ticket, Outcome.OK)  # the response to a.example ended at t0 + 2
    f.mark_done(first)  # no time copied in: the frontier asks the pacer
    t0 = clock() - 2.0
    assert f.ready_at(A) == t0 + 12.0
    assert take(f).host == B  # b.example is ready; a.example is not
    assert f.next() is None
    assert f.next_ready_time() == t0 + 12.0
    # The pacer's answer moves on (a Retry-After hold): the frontier follows it.
    pacer.hold((A.host, A.port), t0 + 30.0)
    assert f.next_ready_time() == t0 + 30.0
    assert f.next(t0 + 29.0) is None
    assert take(f, t0 + 30.0).key == "a1"
