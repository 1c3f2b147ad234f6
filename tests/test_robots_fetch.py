"""The robots.txt fetcher over real sockets, asserting what the servers saw.

Time is a ManualClock (cache expiry without sleeping); only the drip-feeding
servers sleep, and no assertion depends on how long anything took.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from email.utils import formatdate
from typing import Any

import httpx
import pytest
from pytest_httpserver import HTTPServer
from support.servers import KeepAliveTarpit, closed_port, read_head
from werkzeug import Request, Response

from robotkit.base.clock import ManualClock
from robotkit.base.identity import Identity
from robotkit.base.reasons import Decision, Reason
from robotkit.http.checker import AsyncRobotsChecker, RobotsChecker, RobotsOptions
from robotkit.robots.status import Profile, RobotsOutcome
from robotkit.robots.verdict import Verdict

BOT = Identity.build("ExampleBot", "1.0", "https://example.org/bot", from_="ops@example.org")
RULES = "User-agent: *\nDisallow: /private\n"
DAY = 86_400.0


@pytest.fixture(scope="module")
def _second_host() -> Iterator[HTTPServer]:
    server = HTTPServer(host="127.0.0.2", port=0)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def httpserver2(_second_host: HTTPServer) -> Iterator[HTTPServer]:
    """127.0.0.2, started once for this module (stopping a server costs 0.5 s)."""
    yield _second_host
    _second_host.clear()


def robots_hits(server: HTTPServer) -> list[Request]:
    return [request for request, _ in server.log if request.path == "/robots.txt"]


def sync_checker(clock: ManualClock, **options: Any) -> RobotsChecker:
    return RobotsChecker(BOT, clock=clock, options=RobotsOptions(**options))


def check_async(clock: ManualClock, urls: list[str], **options: Any) -> list[Verdict]:
    async def run() -> list[Verdict]:
        async with AsyncRobotsChecker(
            BOT, clock=clock, options=RobotsOptions(**options)
        ) as checker:
            return list(await asyncio.gather(*(checker.check(url) for url in urls)))

    return asyncio.run(run())


def http_date(when: float) -> str:
    return formatdate(when, usegmt=True)


# -- status table, both profiles -------------------------------------------------

RULES_ROW = (Decision.DISALLOW, Reason.ROBOTS_DISALLOW, RobotsOutcome.RULES)
ALLOW_ROW = (Decision.ALLOW, Reason.ALLOWED, RobotsOutcome.ALLOW_ALL)
DENY_ROW = (Decision.DISALLOW, Reason.ROBOTS_DENY_ALL, RobotsOutcome.DENY_ALL)
DEFER_ROW = (Decision.DEFER, Reason.ROBOTS_DEFERRED, RobotsOutcome.DEFERRED)
# ARCHITECTURE.md's table, written out: status -> (classic, rfc9309)
TABLE = {
    200: (RULES_ROW, RULES_ROW),
    206: (RULES_ROW, RULES_ROW),
    400: (ALLOW_ROW, ALLOW_ROW),
    401: (DENY_ROW, ALLOW_ROW),
    403: (DENY_ROW, ALLOW_ROW),
    404: (ALLOW_ROW, ALLOW_ROW),
    410: (ALLOW_ROW, ALLOW_ROW),
    451: (ALLOW_ROW, ALLOW_ROW),
    429: (DEFER_ROW, DEFER_ROW),
    500: (DEFER_ROW, DEFER_ROW),
    502: (DEFER_ROW, DEFER_ROW),
    503: (DEFER_ROW, DEFER_ROW),
}
STATUS_ROWS = [
    (status, profile, *rows[index])
    for status, rows in TABLE.items()
    for index, profile in enumerate((Profile.CLASSIC, Profile.RFC9309))
]


@pytest.mark.parametrize(("status", "profile", "decision", "reason", "outcome"), STATUS_ROWS)
def test_status_row(
    httpserver: HTTPServer,
    clock: ManualClock,
    status: int,
    profile: Profile,
    decision: Decision,
    reason: Reason,
    outcome: RobotsOutcome,
) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data(RULES, status=status)
    with sync_checker(clock, profile=profile) as checker:
        verdict = checker.check(httpserver.url_for("/private/page"))
        again = checker.check(httpserver.url_for("/other"))
    assert (verdict.decision, verdict.reason, verdict.outcome) == (decision, reason, outcome)
    assert verdict.robots_status == status
    assert again.outcome is outcome
    assert len(robots_hits(httpserver)) == 1  # the second check used the cache


@pytest.mark.parametrize("status", [429, 503])
@pytest.mark.parametrize("as_date", [False, True])
def test_retry_after_seconds_and_date(
    httpserver: HTTPServer, clock: ManualClock, status: int, as_date: bool
) -> None:
    value = http_date(clock.now + 3600) if as_date else "3600"
    httpserver.expect_request("/robots.txt").respond_with_data(
        "busy", status=status, headers={"Retry-After": value}
    )
    with sync_checker(clock) as checker:
        url = httpserver.url_for("/a")
        verdict = checker.check(url)
        assert verdict.decision is Decision.DEFER
        assert verdict.retry_after(clock.now) == 3600
        assert verdict.to_json(clock.now)["retry_after"] == 3600
        clock.advance(3599)
        assert checker.check(url).retry_after(clock.now) == 1  # held, not re-fetched
        assert len(robots_hits(httpserver)) == 1
        clock.advance(2)
        checker.check(url)
    assert len(robots_hits(httpserver)) == 2


def test_deferral_without_retry_after_backs_off(httpserver: HTTPServer, clock: ManualClock) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data("down", status=500)
    with sync_checker(clock) as checker:
        url = httpserver.url_for("/a")
        waits = []
        for _ in range(3):
            verdict = checker.check(url)
            waits.append(verdict.retry_after(clock.now))
            clock.advance(verdict.retry_after(clock.now) or 0)
    assert waits == [60, 120, 240]
    assert len(robots_hits(httpserver)) == 3


@pytest.mark.parametrize("profile", list(Profile))
def test_connection_refused_defers(clock: ManualClock, profile: Profile) -> None:
    url = f"http://127.0.0.1:{closed_port()}/page"
    with sync_checker(clock, profile=profile) as checker:
        verdict = checker.check(url)
    assert verdict.decision is Decision.DEFER and verdict.reason is Reason.ROBOTS_DEFERRED
    assert verdict.robots_status is None and "network-error" in verdict.detail
    (async_verdict,) = check_async(clock, [url], profile=profile)
    assert async_verdict.decision is Decision.DEFER and async_verdict.robots_status is None


# -- drip-feeding and stalled servers -------------------------------------------


class RawServer:
    """A socket server that misbehaves on purpose: ``talk(conn, stop)`` answers."""

    def __init__(self, talk: Callable[[socket.socket, threading.Event], None]) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen()
        self.sock.settimeout(0.05)
        self.stop = threading.Event()
        self.requests: list[bytes] = []
        self.talk = talk
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}"

    def _serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            threading.Thread(target=self._handle, args=(conn,), daemon=True).start()

    def _handle(self, conn: socket.socket) -> None:
        with conn:
            data = read_head(conn)
            if b"\r\n\r\n" not in data:
                return
            self.requests.append(data)
            with contextlib.suppress(OSError):
                self.talk(conn, self.stop)

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        self.sock.close()


def drip(payload: bytes) -> Callable[[socket.socket, threading.Event], None]:
    def talk(conn: socket.socket, stop: threading.Event) -> None:
        for byte in payload:
            conn.sendall(bytes([byte]))
            if stop.wait(0.05):
                return

    return talk


DRIP_BODY = b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n" + b"#" * 100_000
DRIP_HEADERS = b"HTTP/1.1 200 OK\r\n" + b"X-Slow: " + b"a" * 100_000


@pytest.fixture(params=[DRIP_BODY, DRIP_HEADERS], ids=["body", "headers"])
def dripping(request: pytest.FixtureRequest) -> Iterator[RawServer]:
    server = RawServer(drip(request.param))
    yield server
    server.close()


@pytest.mark.parametrize("profile", list(Profile))
def test_drip_feeding_server_is_cut_at_deadline_sync(
    dripping: RawServer, clock: ManualClock, profile: Profile
) -> None:
    with sync_checker(clock, deadline=0.5, profile=profile) as checker:
        verdict = checker.check(dripping.url + "/page")
    assert verdict.decision is Decision.DEFER
    assert verdict.robots_status is None and "timeout" in verdict.detail
    assert len(dripping.requests) == 1


def test_drip_feeding_server_is_cut_at_deadline_async(
    dripping: RawServer, clock: ManualClock
) -> None:
    (verdict,) = check_async(clock, [dripping.url + "/page"], deadline=0.5)
    assert verdict.decision is Decision.DEFER
    assert verdict.robots_status is None and "timeout" in verdict.detail


def test_stalled_server_times_out(clock: ManualClock) -> None:
    server = RawServer(lambda conn, stop: stop.wait(10) and None)
    try:
        with sync_checker(clock, deadline=0.3) as checker:
            verdict = checker.check(server.url + "/")
    finally:
        server.close()
    assert verdict.decision is Decision.DEFER and "timeout" in verdict.detail


# -- redirects ----------------------------------------------------------------------


def build_chain(hops: int, a: HTTPServer, b: HTTPServer, final_body: str = RULES) -> list[str]:
    """robots.txt on ``a`` redirects ``hops`` times, alternating hosts; returns
    the URLs requested in order."""
    servers = [a, b]
    urls = [a.url_for("/robots.txt")]
    for hop in range(1, hops + 1):
        server = servers[hop % 2]
        urls.append(server.url_for(f"/hop{hop}"))
    for index, _url in enumerate(urls):
        server = servers[index % 2]
        path = "/robots.txt" if index == 0 else f"/hop{index}"
        if index < hops:
            server.expect_request(path).respond_with_data(
                "", status=301 if index % 2 else 302, headers={"Location": urls[index + 1]}
            )
        else:
            server.expect_request(path).respond_with_data(final_body)
    return urls


@pytest.mark.parametrize(
    ("hops", "profile"),
    [(hops, Profile.CLASSIC if hops % 2 else Profile.RFC9309) for hops in (1, 2, 3, 4)]
    + [(5, profile) for profile in Profile],
)
def test_redirect_chains_across_hosts(
    httpserver: HTTPServer,
    httpserver2: HTTPServer,
    clock: ManualClock,
    hops: int,
    profile: Profile,
) -> None:
    urls = build_chain(hops, httpserver, httpserver2)
    with sync_checker(clock, profile=profile) as checker:
        verdict = checker.check(httpserver.url_for("/private/x"))
    assert verdict.reason is Reason.ROBOTS_DISALLOW
    assert verdict.robots_status == 200
    assert verdict.robots_url == httpserver.url_for("/robots.txt")
    assert [hop.url for hop in verdict.redirects] == urls[:-1]
    seen = [r.url for r, _ in httpserver.log] + [r.url for r, _ in httpserver2.log]
    assert sorted(seen) == sorted(urls)
    # every hop carried the robot's identity
    assert all(r.headers["User-Agent"] == BOT.user_agent for r, _ in httpserver2.log)


@pytest.mark.parametrize("profile", list(Profile))
def test_sixth_redirect_counts_as_404(
    httpserver: HTTPServer, httpserver2: HTTPServer, clock: ManualClock, profile: Profile
) -> None:
    urls = build_chain(6, httpserver, httpserver2)
    (verdict,) = check_async(clock, [httpserver.url_for("/private/x")], profile=profile)
    assert verdict.decision is Decision.ALLOW
    assert verdict.outcome is RobotsOutcome.ALLOW_ALL
    assert len(verdict.redirects) == 6 and "more than 5" in verdict.detail
    seen = {r.url for r, _ in httpserver.log} | {r.url for r, _ in httpserver2.log}
    assert urls[-1] not in seen  # the 6th target was never fetched
    assert seen == set(urls[:-1])


@pytest.mark.parametrize("profile", list(Profile))
def test_redirect_loop_counts_as_404(
    httpserver: HTTPServer, httpserver2: HTTPServer, clock: ManualClock, profile: Profile
) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data(
        "", status=301, headers={"Location": httpserver2.url_for("/loop")}
    )
    httpserver2.expect_request("/loop").respond_with_data(
        "", status=308, headers={"Location": httpserver.url_for("/robots.txt")}
    )
    with sync_checker(clock, profile=profile) as checker:
        verdict = checker.check(httpserver.url_for("/private"))
    assert verdict.decision is Decision.ALLOW and verdict.outcome is RobotsOutcome.ALLOW_ALL
    assert "loop" in verdict.detail and verdict.robots_status == 308
    assert len(httpserver.log) == 1 and len(httpserver2.log) == 1


@pytest.mark.parametrize("location", ["javascript:x", "mailto:ops"])
def test_a_location_httpx_cannot_follow_is_a_failed_fetch_not_a_traceback(
    httpserver: HTTPServer, clock: ManualClock, location: str
) -> None:
    """httpx refuses a scheme without a host while reading the answer, even not
    following it (InvalidURL, where an unparsable one is its RemoteProtocolError).
    Both checkers give a verdict: the origin is unreachable, its pages deferred
    (RFC 9309 section 2.3.1.4; found by the HTTP fuzz test)."""
    httpserver.expect_request("/robots.txt").respond_with_data(
        "", status=301, headers={"Location": location}
    )
    url = httpserver.url_for("/private")
    with sync_checker(clock) as checker:
        verdict = checker.check(url)
    (again,) = check_async(clock, [url])
    for answer in (verdict, again):
        assert answer.outcome is RobotsOutcome.DEFERRED, answer.detail
        assert "network-error" in answer.detail and not answer.redirects, answer.detail
    assert len(httpserver.log) == 2


def test_rules_apply_to_the_original_origin(
    httpserver: HTTPServer, httpserver2: HTTPServer, clock: ManualClock
) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data(
        "", status=301, headers={"Location": httpserver2.url_for("/robots.txt")}
    )
    httpserver2.expect_request("/robots.txt").respond_with_data(RULES)
    with sync_checker(clock) as checker:
        assert checker.check(httpserver.url_for("/private")).reason is Reason.ROBOTS_DISALLOW
        # the target origin has its own entry: its robots.txt is fetched for itself
        assert checker.check(httpserver2.url_for("/private")).redirects == ()
    assert len(robots_hits(httpserver2)) == 2


# -- bodies: size, BOM, encoding -------------------------------------------------


def big_robots() -> bytes:
    head = b"User-agent: *\nDisallow: /early\n"
    filler = b"# " + b"x" * 98 + b"\n"
    body = head + filler * (600 * 1024 // len(filler))
    assert len(body) > 590 * 1024
    return body + b"Disallow: /late\n"


def test_600_kib_robots_rules_past_500_kib_do_not_apply(
    httpserver: HTTPServer, clock: ManualClock, tmp_path: object
) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data(big_robots())
    with sync_checker(clock) as checker:
        early = checker.check(httpserver.url_for("/early"))
        late = checker.check(httpserver.url_for("/late"))
    assert early.reason is Reason.ROBOTS_DISALLOW
    assert late.decision is Decision.ALLOW
    assert "500 KiB" in late.detail
    assert len(robots_hits(httpserver)) == 1
    (async_late,) = check_async(clock, [httpserver.url_for("/late")])
    assert async_late.decision is Decision.ALLOW


def test_big_local_file_is_cut_too(tmp_path: pytest.TempPathFactory) -> None:
    path = tmp_path / "robots.txt"  # type: ignore[operator]
    path.write_bytes(big_robots())
    checker = RobotsChecker.from_file(path, BOT)
    assert checker.check("http://any.test/early").reason is Reason.ROBOTS_DISALLOW
    late = checker.check("http://other.test/late")
    assert late.decision is Decision.ALLOW and late.robots_status is None
    assert late.robots_url is not None and late.robots_url.startswith("file://")


def test_bom_is_stripped(httpserver: HTTPServer, clock: ManualClock) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data(
        b"\xef\xbb\xbfUser-agent: ExampleBot\nDisallow: /bom\n"
    )
    with sync_checker(clock) as checker:
        verdict = checker.check(httpserver.url_for("/bom"))
    assert verdict.reason is Reason.ROBOTS_DISALLOW
    assert verdict.rule is not None and verdict.rule.line == 2


def test_invalid_utf8_is_decoded_leniently(httpserver: HTTPServer, clock: ManualClock) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data(
        b"User-agent: *\nDisallow: /caf\xe9\xff\nDisallow: /x\n"
    )
    with sync_checker(clock) as checker:
        verdict = checker.check(httpserver.url_for("/x/1"))
    assert verdict.reason is Reason.ROBOTS_DISALLOW
    assert verdict.rule is not None and verdict.rule.line == 3


# -- freshness with the injected clock ---------------------------------------------


def assert_fetched_again_after(
    httpserver: HTTPServer, clock: ManualClock, lifetime: float, **options: Any
) -> None:
    """The robots.txt copy serves until just before ``lifetime`` seconds have
    passed (one fetch, server-side) and is fetched again just after."""
    with sync_checker(clock, **options) as checker:
        checker.check(httpserver.url_for("/"))
        clock.advance(lifetime - 1)
        checker.check(httpserver.url_for("/"))
        assert len(robots_hits(httpserver)) == 1
        clock.advance(2)
        checker.check(httpserver.url_for("/"))
    assert len(robots_hits(httpserver)) == 2


def test_expiry_by_max_age(httpserver: HTTPServer, clock: ManualClock) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data(
        RULES, headers={"Cache-Control": "max-age=300"}
    )
    assert_fetched_again_after(httpserver, clock, 300)


def test_expiry_by_expires(httpserver: HTTPServer, clock: ManualClock) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data(
        RULES, headers={"Date": http_date(clock.now), "Expires": http_date(clock.now + 600)}
    )
    assert_fetched_again_after(httpserver, clock, 600)


@pytest.mark.parametrize(
    ("cache_control", "min_ttl", "lifetime"),
    [("max-age=5", 60.0, 60.0), ("no-cache", 120.0, 120.0), ("max-age=999999", 60.0, DAY)],
)
def test_floor_and_ceiling(
    httpserver: HTTPServer,
    clock: ManualClock,
    cache_control: str,
    min_ttl: float,
    lifetime: float,
) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data(
        RULES, headers={"Cache-Control": cache_control}
    )
    assert_fetched_again_after(httpserver, clock, lifetime, min_ttl=min_ttl)


def test_304_revalidation_renews_the_copy(httpserver: HTTPServer, clock: ManualClock) -> None:
    modified = http_date(clock.now - DAY)

    def handler(request: Request) -> Response:
        if request.headers.get("If-None-Match") == '"v1"':
            return Response(status=304, headers={"Cache-Control": "max-age=600", "ETag": '"v1"'})
        return Response(
            RULES,
            headers={"ETag": '"v1"', "Last-Modified": modified, "Cache-Control": "max-age=100"},
        )

    httpserver.expect_request("/robots.txt").respond_with_handler(handler)
    with sync_checker(clock) as checker:
        url = httpserver.url_for("/private")
        assert checker.check(url).reason is Reason.ROBOTS_DISALLOW
        clock.advance(101)
        renewed = checker.check(url)
        assert renewed.reason is Reason.ROBOTS_DISALLOW and "304" in renewed.detail
        hits = robots_hits(httpserver)
        assert len(hits) == 2
        assert "If-None-Match" not in hits[0].headers
        assert hits[1].headers["If-None-Match"] == '"v1"'
        assert hits[1].headers["If-Modified-Since"] == modified
        clock.advance(599)  # the 304's own max-age is the new lifetime
        checker.check(url)
        assert len(robots_hits(httpserver)) == 2
        clock.advance(2)
        checker.check(url)
    assert len(robots_hits(httpserver)) == 3


class Flaky:
    """200 with rules first, then 503 forever."""

    def __init__(self, good: bool = True) -> None:
        self.good = good

    def __call__(self, request: Request) -> Response:
        if self.good:
            self.good = False
            return Response(RULES, headers={"Cache-Control": "max-age=100"})
        return Response("down", status=503)


@pytest.mark.parametrize(
    ("profile", "had_copy", "decision", "outcome"),
    [
        (Profile.RFC9309, True, Decision.DISALLOW, RobotsOutcome.RULES),
        (Profile.RFC9309, False, Decision.ALLOW, RobotsOutcome.ALLOW_ALL),
        (Profile.CLASSIC, True, Decision.DEFER, RobotsOutcome.DEFERRED),
    ],
)
def test_thirty_days_unreachable(
    httpserver: HTTPServer,
    clock: ManualClock,
    profile: Profile,
    had_copy: bool,
    decision: Decision,
    outcome: RobotsOutcome,
) -> None:
    httpserver.expect_request("/robots.txt").respond_with_handler(Flaky(had_copy))
    url = httpserver.url_for("/private")
    with sync_checker(clock, profile=profile) as checker:
        first = checker.check(url)
        assert first.decision is (Decision.DISALLOW if had_copy else Decision.DEFER)
        clock.advance(101)
        assert checker.check(url).decision is Decision.DEFER  # unreachable: defer
        clock.advance(29 * DAY)
        assert checker.check(url).decision is Decision.DEFER  # still within 30 days
        clock.advance(DAY)
        late = checker.check(url)
    assert (late.decision, late.outcome) == (decision, outcome)
    assert late.robots_status == 503
    assert len(robots_hits(httpserver)) == 4


# -- one fetch per origin, origins in parallel ------------------------------------


def gated(gate: threading.Event) -> Callable[[Request], Response]:
    def handler(request: Request) -> Response:
        gate.wait(5)
        return Response(RULES)

    return handler


def test_100_threads_on_one_origin_share_one_fetch(
    httpserver: HTTPServer, clock: ManualClock
) -> None:
    gate = threading.Event()
    httpserver.expect_request("/robots.txt").respond_with_handler(gated(gate))
    verdicts: list[Verdict] = []
    barrier = threading.Barrier(101)
    with sync_checker(clock) as checker:

        def work(n: int) -> None:
            barrier.wait()
            verdicts.append(checker.check(httpserver.url_for(f"/private/{n}")))

        threads = [threading.Thread(target=work, args=(n,)) for n in range(100)]
        for thread in threads:
            thread.start()
        barrier.wait()
        gate.set()
        for thread in threads:
            thread.join()
    assert len(verdicts) == 100
    assert {v.reason for v in verdicts} == {Reason.ROBOTS_DISALLOW}
    assert len(robots_hits(httpserver)) == 1


def test_100_tasks_on_one_origin_share_one_fetch(
    httpserver: HTTPServer, clock: ManualClock
) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data(RULES)
    urls = [httpserver.url_for(f"/private/{n}") for n in range(100)]
    verdicts = check_async(clock, urls)
    assert [v.url for v in verdicts] == urls
    assert {v.reason for v in verdicts} == {Reason.ROBOTS_DISALLOW}
    assert len(robots_hits(httpserver)) == 1


class SlowAndFast:
    """Origin ``slow`` answers its robots.txt only once the check on origin
    ``fast`` has finished (or ``patience`` has run out): ``waited`` then records
    whether the fast one got through while the slow one was in flight."""

    def __init__(self, slow: HTTPServer, fast: HTTPServer, patience: float = 5.0) -> None:
        self.arrived, self.fast_done = threading.Event(), threading.Event()
        self.waited: list[bool] = []
        self.patience = patience
        self.slow_url, self.fast_url = slow.url_for("/"), fast.url_for("/")
        slow.expect_request("/robots.txt").respond_with_handler(self._slow)
        fast.expect_request("/robots.txt").respond_with_data(RULES)

    def _slow(self, request: Request) -> Response:
        self.arrived.set()
        self.waited.append(self.fast_done.wait(self.patience))
        return Response(RULES)


def test_a_slow_origin_does_not_delay_another_sync(
    httpserver: HTTPServer, httpserver2: HTTPServer, clock: ManualClock
) -> None:
    pair = SlowAndFast(httpserver, httpserver2)
    order: list[str] = []
    with sync_checker(clock) as checker:

        def check_slow() -> None:
            checker.check(pair.slow_url)
            order.append("slow")

        thread = threading.Thread(target=check_slow)
        thread.start()
        assert pair.arrived.wait(5)  # the slow fetch is in flight
        checker.check(pair.fast_url)
        order.append("fast")
        pair.fast_done.set()
        thread.join()
    assert order == ["fast", "slow"]
    assert pair.waited == [True]


async def check_pair(pair: SlowAndFast, clock: ManualClock, max_parallel: int) -> list[str]:
    order: list[str] = []
    options = RobotsOptions(max_parallel=max_parallel)
    async with AsyncRobotsChecker(BOT, clock=clock, options=options) as checker:

        async def one(url: str, name: str) -> None:
            await checker.check(url)
            order.append(name)
            if name == "fast":
                pair.fast_done.set()

        await asyncio.gather(one(pair.slow_url, "slow"), one(pair.fast_url, "fast"))
    return order


def test_a_slow_origin_does_not_delay_another_async(
    httpserver: HTTPServer, httpserver2: HTTPServer, clock: ManualClock
) -> None:
    pair = SlowAndFast(httpserver, httpserver2)
    assert asyncio.run(check_pair(pair, clock, max_parallel=10)) == ["fast", "slow"]
    assert pair.waited == [True]


def test_parallel_limit_one_serializes_origins(
    httpserver: HTTPServer, httpserver2: HTTPServer, clock: ManualClock
) -> None:
    """The counter-test: with max_parallel=1 the slow fetch does hold the other."""
    pair = SlowAndFast(httpserver, httpserver2, patience=0.3)
    assert asyncio.run(check_pair(pair, clock, max_parallel=1)) == ["slow", "fast"]
    assert pair.waited == [False]


# -- identity and embedding ------------------------------------------------------------


def test_identifying_headers(httpserver: HTTPServer, clock: ManualClock) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data(RULES)
    with sync_checker(clock) as checker:
        checker.check(httpserver.url_for("/"))
    check_async(clock, [httpserver.url_for("/")])
    hits = robots_hits(httpserver)
    assert len(hits) == 2  # one sync fetch, one async
    for request in hits:
        assert request.headers["User-Agent"] == "ExampleBot/1.0 (+https://example.org/bot)"
        assert request.headers["From"] == "ops@example.org"
        assert request.headers["Accept"] == BOT.accept


def test_callers_client_is_used_and_left_open(httpserver: HTTPServer, clock: ManualClock) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data(RULES)
    seen: list[str] = []
    client = httpx.Client(event_hooks={"request": [lambda request: seen.append(str(request.url))]})
    with RobotsChecker(BOT, client=client, clock=clock) as checker:
        checker.check(httpserver.url_for("/private"))
    assert seen == [httpserver.url_for("/robots.txt")]
    assert not client.is_closed
    client.close()


class HeldTransport(httpx.BaseTransport):
    """A caller's pacing transport: holds each request before sending it."""

    def __init__(self, hold: float) -> None:
        self.hold, self.inner = hold, httpx.HTTPTransport()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        threading.Event().wait(self.hold)
        return self.inner.handle_request(request)


class AsyncHeldTransport(httpx.AsyncBaseTransport):
    def __init__(self, hold: float) -> None:
        self.hold, self.inner = hold, httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        await asyncio.sleep(self.hold)
        return await self.inner.handle_async_request(request)


def test_deadline_starts_at_network_io_not_at_a_pacing_wait(
    httpserver: HTTPServer, clock: ManualClock
) -> None:
    """Holding the request longer than the deadline must not time it out: the
    wait is the robot's own pacing, not the server's slowness."""
    httpserver.expect_request("/robots.txt").respond_with_data(RULES)
    url = httpserver.url_for("/private")
    options = RobotsOptions(deadline=0.5)
    held = HeldTransport(0.8)
    with RobotsChecker(BOT, transport=held, options=options, clock=clock) as sync:
        assert sync.check(url).reason is Reason.ROBOTS_DISALLOW
    # the caller's transport is left open: the caller's own client still uses it
    httpserver.expect_request("/page").respond_with_data("page")
    with httpx.Client(transport=held.inner) as client:
        assert client.get(httpserver.url_for("/page")).text == "page"

    async def run() -> Verdict:
        transport = AsyncHeldTransport(0.8)
        async with AsyncRobotsChecker(
            BOT, transport=transport, options=options, clock=clock
        ) as checker:
            return await checker.check(url)

    assert asyncio.run(run()).reason is Reason.ROBOTS_DISALLOW
    assert len(robots_hits(httpserver)) == 2


class DripStream(httpx.SyncByteStream, httpx.AsyncByteStream):
    """A body that never ends, one byte at a time, from a transport that is not
    httpcore (so no trace events, no socket to shut)."""

    def __iter__(self) -> Iterator[bytes]:
        while True:
            threading.Event().wait(0.02)
            yield b"#"

    async def __aiter__(self) -> AsyncIterator[bytes]:
        while True:
            await asyncio.sleep(0.02)
            yield b"#"


def test_deadline_holds_on_a_transport_without_trace_events(clock: ManualClock) -> None:
    transport = httpx.MockTransport(lambda request: httpx.Response(200, stream=DripStream()))
    options = RobotsOptions(deadline=0.3)
    with RobotsChecker(BOT, transport=transport, options=options, clock=clock) as checker:
        verdict = checker.check("http://mock.test/page")
    assert verdict.decision is Decision.DEFER and "timeout" in verdict.detail

    async def run() -> Verdict:
        async with AsyncRobotsChecker(
            BOT, transport=transport, options=options, clock=clock
        ) as checker:
            return await checker.check("http://mock.test/page")

    verdict = asyncio.run(run())
    assert verdict.decision is Decision.DEFER and "timeout" in verdict.detail


# -- the deadline on a reused keep-alive connection ---------------------------------


@pytest.mark.parametrize("given", ["", "transport", "client"])
def test_headers_dripped_on_a_reused_connection_are_cut_at_the_deadline(
    clock: ManualClock, given: str
) -> None:
    """The total deadline holds when the robots.txt is fetched again (expired) on
    the reused keep-alive connection (no new socket for the watchdog to shut) and
    the server drips the status line and headers: each socket read is cut to the
    time left. Server side: one connection served both fetches, and the 10 s drip
    never reached its end."""
    server = KeepAliveTarpit(RULES.encode())
    transport = httpx.HTTPTransport() if given == "transport" else None
    client = httpx.Client() if given == "client" else None
    try:
        with RobotsChecker(
            BOT,
            transport=transport,
            client=client,
            clock=clock,
            options=RobotsOptions(deadline=0.5),
        ) as checker:
            assert checker.check(server.url("/private")).reason is Reason.ROBOTS_DISALLOW
            clock.advance(DAY + 1)
            verdict = checker.check(server.url("/page"))
    finally:
        for given_object in (transport, client):
            if given_object is not None:
                given_object.close()
        server.close()
    assert verdict.decision is Decision.DEFER and "timeout" in verdict.detail
    assert server.paths == ["/robots.txt", "/robots.txt"]
    assert server.connections == 1
    assert not server.drip_finished


def test_headers_dripped_on_a_reused_connection_are_cut_at_the_deadline_async(
    clock: ManualClock,
) -> None:
    """The async face: the deadline (``asyncio.wait_for`` from the first network
    event) holds on a reused keep-alive connection too; checked server-side."""
    server = KeepAliveTarpit(RULES.encode())

    async def run() -> Verdict:
        options = RobotsOptions(deadline=0.5)
        async with AsyncRobotsChecker(BOT, clock=clock, options=options) as checker:
            first = await checker.check(server.url("/private"))
            assert first.reason is Reason.ROBOTS_DISALLOW
            clock.advance(DAY + 1)
            return await checker.check(server.url("/page"))

    try:
        verdict = asyncio.run(run())
    finally:
        server.close()
    assert verdict.decision is Decision.DEFER and "timeout" in verdict.detail
    assert server.paths == ["/robots.txt", "/robots.txt"]
    assert server.connections == 1
    assert not server.drip_finished
