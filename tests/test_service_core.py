"""The URL Frontier service's core on an injected clock: no sockets, no sleeps.

robots.txt verdicts come from a table (what the shell's cache would answer); the
pacer, the frontier and the guard are robotkit's own.
"""

from __future__ import annotations

import pytest

from robotkit.base.clock import ManualClock
from robotkit.base.reasons import Decision, Reason
from robotkit.pacing.pacer import Pacer, PacingPolicy
from robotkit.robots.verdict import Verdict
from robotkit.service import metadata as meta
from robotkit.service.core import Ack, Incoming, ServiceCore, URLState
from robotkit.shared import SharedStateUnavailable

DELAY = 2.0
A, B = "http://a.example", "http://b.example"


class Robots:
    """Verdicts by origin prefix: allow unless told otherwise; None = not fetched."""

    def __init__(self) -> None:
        self.rules: dict[str, Verdict | None] = {}

    def __call__(self, url: str) -> Verdict | None:
        for prefix, verdict in self.rules.items():
            if url.startswith(prefix):
                return verdict._replace(url=url) if verdict is not None else None
        return Verdict(url, Decision.ALLOW, Reason.ALLOWED)


@pytest.fixture
def core(clock: ManualClock) -> ServiceCore:
    policy = PacingPolicy(delay=DELAY, max_in_flight=1 << 20)
    return ServiceCore(clock, Pacer(clock, policy), lease=30)


@pytest.fixture
def robots() -> Robots:
    return Robots()


def put(core: ServiceCore, *urls: str, crawl: str = "", **metadata: str) -> list[Ack]:
    extra = {k.replace("_", "."): [v] for k, v in metadata.items()}
    return [core.put(crawl, Incoming(url, metadata=extra)) for url in urls]


def report(core: ServiceCore, url: str, status: int = 200, refetch: int = 0, **extra: str) -> Ack:
    metadata = {meta.STATUS: [str(status)], **{k: [v] for k, v in extra.items()}}
    return core.put("", Incoming(url, metadata=metadata, known=True, refetch_from=refetch))


def take(core: ServiceCore, robots: Robots, **params: object) -> list[str]:
    return [record.url for record in core.take(robots, **params).handed]  # type: ignore[arg-type]


def test_one_url_per_host_is_out_and_the_next_waits_for_the_delay(
    core: ServiceCore, robots: Robots, clock: ManualClock
) -> None:
    put(core, f"{A}/1", f"{A}/2", f"{B}/1")
    assert sorted(take(core, robots)) == [f"{A}/1", f"{B}/1"]
    assert take(core, robots) == []  # both hosts have a URL out
    clock.advance(20)
    assert take(core, robots) == []  # out until reported (or the lease ends)
    report(core, f"{A}/1")
    clock.advance(DELAY - 0.01)
    assert take(core, robots) == []
    clock.advance(0.01)
    assert take(core, robots) == [f"{A}/2"]


def test_crawl_delay_raises_the_gap_and_a_too_long_one_skips_the_host(
    core: ServiceCore, robots: Robots, clock: ManualClock
) -> None:
    robots.rules[A] = Verdict("", Decision.ALLOW, Reason.ALLOWED, crawl_delay=10)
    robots.rules[B] = Verdict("", Decision.ALLOW, Reason.ALLOWED, crawl_delay=3600)
    put(core, f"{A}/1", f"{A}/2", f"{B}/1")
    assert take(core, robots) == [f"{A}/1"]
    report(core, f"{A}/1")
    clock.advance(9.9)
    assert take(core, robots) == []
    clock.advance(0.1)
    assert take(core, robots) == [f"{A}/2"]
    skipped = core.status("", f"{B}/1")
    assert skipped is not None and skipped.reason is Reason.CRAWL_DELAY_TOO_LONG


def test_disallowed_and_unknown_robots(core: ServiceCore, robots: Robots) -> None:
    robots.rules[f"{A}/private"] = Verdict("", Decision.DISALLOW, Reason.ROBOTS_DISALLOW)
    robots.rules[B] = None
    put(core, f"{A}/private/x", f"{A}/open", f"{B}/1")
    taken = core.take(robots)
    assert [r.url for r in taken.handed] == [f"{A}/open"]
    assert [f.entry.url for f in taken.fetches] == [f"{B}/1"]
    refused = core.status("", f"{A}/private/x")
    assert refused is not None and refused.state is URLState.REFUSED
    assert refused.reason is Reason.ROBOTS_DISALLOW
    # The fetch is out: B's entry is held, not fetched twice.
    assert core.take(robots).fetches == []


def test_a_robots_deferral_holds_the_host_until_its_retry_time(
    core: ServiceCore, robots: Robots, clock: ManualClock
) -> None:
    robots.rules[A] = None
    put(core, f"{A}/1")
    (fetch,) = core.take(robots).fetches
    deferred = Verdict(f"{A}/1", Decision.DEFER, Reason.ROBOTS_DEFERRED, retry_at=clock() + 600)
    core.robots_done(fetch, deferred)
    robots.rules[A] = deferred
    clock.advance(599)
    assert core.take(robots).handed == []
    record = core.status("", f"{A}/1")
    assert record is not None and record.reason is Reason.ROBOTS_DEFERRED
    clock.advance(1)
    del robots.rules[A]
    assert take(core, robots) == [f"{A}/1"]


def test_a_url_not_reported_within_its_lease_goes_back(
    core: ServiceCore, robots: Robots, clock: ManualClock
) -> None:
    put(core, f"{A}/1")
    assert take(core, robots, lease=5) == [f"{A}/1"]
    clock.advance(4.9)
    assert take(core, robots) == []
    clock.advance(0.1)
    assert take(core, robots) == []  # back in the queue; the end of the lease is the fetch's
    assert core.status("", f"{A}/1").reason is Reason.LEASE_EXPIRED  # type: ignore[union-attr]
    clock.advance(DELAY)
    assert take(core, robots) == [f"{A}/1"]


def test_retry_after_in_a_report_holds_the_host(
    core: ServiceCore, robots: Robots, clock: ManualClock
) -> None:
    put(core, f"{A}/1", f"{A}/2")
    take(core, robots)
    report(core, f"{A}/1", 503, **{meta.RETRY_AFTER: "120"})
    clock.advance(119)
    assert take(core, robots) == []
    clock.advance(1)
    assert take(core, robots) == [f"{A}/2"]


def test_refetch_date_and_done(core: ServiceCore, robots: Robots, clock: ManualClock) -> None:
    put(core, f"{A}/1")
    take(core, robots)
    assert report(core, f"{A}/1", refetch=int(clock()) + 50) is Ack.OK
    assert core.status("", f"{A}/1").state is URLState.WAITING  # type: ignore[union-attr]
    clock.advance(49)
    assert take(core, robots) == []
    clock.advance(1)
    assert take(core, robots) == [f"{A}/1"]
    report(core, f"{A}/1")
    clock.advance(3600)
    assert take(core, robots) == []
    assert core.status("", f"{A}/1").state is URLState.DONE  # type: ignore[union-attr]


def test_links_are_served_breadth_first_and_links_of_a_copy_are_refused(
    core: ServiceCore, robots: Robots, clock: ManualClock
) -> None:
    put(core, f"{A}/seed")
    take(core, robots)
    report(core, f"{A}/seed", **{meta.FINGERPRINT: "00000000000000aa:0"})
    put(core, f"{A}/deep", robotkit_parent=f"{A}/seed")
    put(core, f"{A}/seed2")  # a second seed, put later, still goes first
    clock.advance(DELAY)
    assert take(core, robots) == [f"{A}/seed2"]
    report(core, f"{A}/seed2", **{meta.FINGERPRINT: "00000000000000aa:0"})
    assert core.crawls["DEFAULT"].copies == 1
    assert put(core, f"{A}/from-copy", robotkit_parent=f"{A}/seed2") == [Ack.SKIPPED]
    refused = core.status("", f"{A}/from-copy")
    assert refused is not None and refused.reason is Reason.DUPLICATE_CONTENT
    clock.advance(DELAY)
    assert take(core, robots) == [f"{A}/deep"]
    assert core.status("", f"{A}/deep").depth == 1  # type: ignore[union-attr]


def test_guard_and_duplicates_at_put(core: ServiceCore) -> None:
    acks = put(core, f"{A}/x", f"{A}/x#f", f"{A}/a/b/a/b/a/b", "javascript:void(0)", "")
    assert acks == [Ack.OK, Ack.OK, Ack.SKIPPED, Ack.SKIPPED, Ack.SKIPPED]
    assert core.crawls["DEFAULT"].queues["a.example"].queued == 1
    shape = core.status("", f"{A}/a/b/a/b/a/b")
    assert shape is not None and shape.reason is Reason.REPEATED_PATH
    invalid = core.status("", "javascript:void(0)")
    assert invalid is not None and invalid.reason is Reason.UNSUPPORTED_SCHEME


def test_a_refused_url_is_found_by_the_url_put_and_any_spelling_of_its_key(
    core: ServiceCore,
) -> None:
    # Kept under its key, which is not the URL as put (host case, query order).
    url = "http://A.example/a/b/a/b/a/b?y=2&x=1"
    assert put(core, url) == [Ack.SKIPPED]
    for spelling in (url, "http://a.example/a/b/a/b/a/b?x=1&y=2"):
        refused = core.status("", spelling)
        assert refused is not None and refused.reason is Reason.REPEATED_PATH, spelling


def test_queue_limits_and_key_of_getparams(core: ServiceCore, robots: Robots) -> None:
    hosts = [f"http://h{i}.example" for i in range(5)]
    put(core, *(f"{h}/{n}" for h in hosts for n in range(2)))
    assert len(take(core, robots, max_queues=2)) == 2
    assert take(core, robots, key="h4.example") == ["http://h4.example/0"]
    assert len(take(core, robots, max_queues=0)) == 2  # the other two hosts
    assert take(core, robots) == []


def test_a_queue_key_groups_hosts_and_max_urls_per_queue_counts_them(
    core: ServiceCore, robots: Robots
) -> None:
    for host in ("http://x.shop.example", "http://y.shop.example", "http://z.shop.example"):
        core.put("", Incoming(f"{host}/", queue_key="shop.example"))
    assert len(take(core, robots, max_per_queue=2)) == 2
    assert len(take(core, robots, max_per_queue=2)) == 1


def test_block_set_delay_and_limit(core: ServiceCore, robots: Robots, clock: ManualClock) -> None:
    put(core, f"{A}/1", f"{A}/2", f"{A}/3", f"{B}/1")
    core.block("", "a.example", clock() + 100)
    assert take(core, robots) == [f"{B}/1"]
    report(core, f"{B}/1")
    core.block("", "a.example", 0)
    assert take(core, robots) == [f"{A}/1"]
    report(core, f"{A}/1")
    core.set_delay("", "a.example", 30)
    clock.advance(DELAY)
    assert take(core, robots) == []
    clock.advance(30 - DELAY)
    assert take(core, robots) == [f"{A}/2"]
    report(core, f"{A}/2")
    core.set_limit("", "a.example", 2)
    clock.advance(60)
    assert take(core, robots) == []  # two fetched already: the third stays queued
    core.set_limit("", "a.example", 0)
    assert take(core, robots) == [f"{A}/3"]


def test_delete_queue_and_crawl_free_the_hosts(
    core: ServiceCore, robots: Robots, clock: ManualClock
) -> None:
    put(core, f"{A}/1", f"{A}/2", f"{B}/1", crawl="c1")
    put(core, f"{A}/1", crawl="c2")
    assert sorted(take(core, robots, crawls=["c1"])) == [f"{A}/1", f"{B}/1"]
    assert core.delete_queue("c1", "a.example") == 2
    assert core.delete_queue("c1", "no-such-queue") == 0
    clock.advance(DELAY)  # A's URL out was given up when its queue went
    assert take(core, robots, crawls=["c2"]) == [f"{A}/1"]
    assert core.delete_crawl("c1") == 1
    assert core.delete_crawl("c1") == 0
    assert sorted(core.crawls) == ["c2"]


class Owners:
    """The claims of a cluster as a table: the first node to ask owns the key."""

    def __init__(self, node: str) -> None:
        self.node = node
        self.owners: dict[tuple[str, str], str] = {}
        self.down = False

    def claim(self, crawl: str, key: str) -> bool:
        if self.down:
            raise SharedStateUnavailable("Redis is gone")
        return self.owners.setdefault((crawl, key), self.node) == self.node


def test_a_url_another_node_owns_is_acknowledged_and_not_queued(
    clock: ManualClock, robots: Robots
) -> None:
    owners = Owners("here")
    owners.owners[("DEFAULT", "http://a.example/theirs")] = "there"
    core = ServiceCore(clock, Pacer(clock), claims=owners)
    assert put(core, f"{A}/theirs", f"{A}/mine", f"{A}/mine") == [Ack.OK] * 3
    assert core.status("", f"{A}/theirs") is None
    assert take(core, robots) == [f"{A}/mine"]
    owners.down = True
    assert put(core, f"{B}/1") == [Ack.FAIL]  # may be sent again
    owners.down = False
    assert put(core, f"{B}/1") == [Ack.OK]
    assert take(core, robots) == [f"{B}/1"]
