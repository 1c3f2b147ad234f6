"""The polite transports and clients over real sockets: what the server saw.

Times are read on the server side (same process, ``time.monotonic``). A gap is
asserted only as a lower bound set by our own delay, never as a wall-clock ceiling.
"""

from __future__ import annotations

import dataclasses
import gzip
import inspect
import itertools
import threading
import time
from collections.abc import Callable, Iterator

import httpx
import pytest
from pytest_httpserver import HTTPServer
from support.servers import KeepAliveTarpit
from support.transports import ALLOW_ALL, BOT, MADE_UP, Drip, Events, paths, timed
from werkzeug import Request, Response

from robotkit.base.clock import ManualClock
from robotkit.base.outcome import NetworkErrorKind, Outcome
from robotkit.base.reasons import Reason
from robotkit.http import (
    AddressPolicy,
    AddressRefused,
    AsyncPoliteTransport,
    Deferred,
    Disallowed,
    FetchLimits,
    HostSkipped,
    PoliteSettings,
    PoliteTransport,
    RedirectRefused,
    ResponseTooSlow,
    classify_error,
    facts,
)
from robotkit.http.checker import RobotsOptions
from robotkit.http.client import PoliteClient
from robotkit.http.settings import DEFAULT_MAX_BODY
from robotkit.http.validators import ValidatorStore
from robotkit.pacing.pacer import PacingPolicy
from robotkit.robots.status import RobotsOutcome
from robotkit.triage.guard import GuardVerdict


def client(delay: float = 0.0, backoff: float = 0.1, **options: object) -> PoliteClient:
    """A polite client for loopback servers; backoff kept short for test speed."""
    limits = options.pop("limits", FetchLimits(max_wait=5.0))
    options.setdefault("allow_private", True)
    transport = PoliteTransport(
        identity=BOT,
        policy=PacingPolicy(delay=delay, backoff_base=backoff),
        limits=limits,  # type: ignore[arg-type]
        **options,  # type: ignore[arg-type]
    )
    return PoliteClient(transport=transport)


def calendar_guard(url: str) -> GuardVerdict | None:
    """A guard hook that calls any URL with "calendar" in it a trap."""
    if "calendar" in url:
        return GuardVerdict(url, False, Reason.REPEATED_PATH, detail="test")
    return None


def test_exact_identity_headers_and_robots_first(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data(ALLOW_ALL)
    httpserver.expect_request("/page").respond_with_data("ok")
    with client() as http:
        response = http.fetch(httpserver.url_for("/page"), referer="https://example.org/from")
    assert response.status_code == 200
    assert paths(httpserver) == ["/robots.txt", "/page"]
    sent = httpserver.log[1][0].headers
    assert sent["User-Agent"] == "ExampleBot/1.0 (+https://example.org/bot)"
    assert sent["From"] == "bot@example.org"
    assert sent["Accept"].startswith("text/html")
    assert sent["Referer"] == "https://example.org/from"
    assert sent["Accept-Encoding"] == "gzip, deflate"
    assert "python-httpx" not in str(sent)
    robots_headers = httpserver.log[0][0].headers
    assert robots_headers["User-Agent"] == sent["User-Agent"]
    assert "Referer" not in robots_headers


def test_gaps_to_one_host_at_least_the_delay_robots_txt_included(httpserver: HTTPServer) -> None:
    events: Events = []
    timed(httpserver, events, "/robots.txt", lambda: Response(ALLOW_ALL))
    for n in range(3):
        timed(httpserver, events, f"/p{n}", lambda: Response("ok"))
    with client(delay=0.2) as http:
        for n in range(3):
            http.fetch(httpserver.url_for(f"/p{n}"))
    assert [path for _, path, _, _ in events] == ["/robots.txt", "/p0", "/p1", "/p2"]
    for (_, _, _, end), (_, _, start, _) in itertools.pairwise(events):
        assert start - end >= 0.2


def test_crawl_delay_raises_the_gap(httpserver: HTTPServer) -> None:
    events: Events = []
    timed(httpserver, events, "/robots.txt", lambda: Response("User-agent: *\nCrawl-delay: 0.3\n"))
    timed(httpserver, events, "/a", lambda: Response("a"))
    timed(httpserver, events, "/b", lambda: Response("b"))
    with client(delay=0.05) as http:
        http.fetch(httpserver.url_for("/a"))
        http.fetch(httpserver.url_for("/b"))
        assert http.polite.pacer.gap((httpserver.host, httpserver.port)) == 0.3
    assert events[2][2] - events[1][3] >= 0.3


def test_crawl_delay_above_ceiling_skips_host(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data("User-agent: *\nCrawl-delay: 90\n")
    with client() as http, pytest.raises(HostSkipped) as caught:
        http.fetch(httpserver.url_for("/page"))
    assert caught.value.reason is Reason.CRAWL_DELAY_TOO_LONG
    assert paths(httpserver) == ["/robots.txt"]


@pytest.mark.parametrize("status", [429, 503])
def test_retry_after_holds_the_host(httpserver: HTTPServer, status: int) -> None:
    events: Events = []
    timed(httpserver, events, "/robots.txt", lambda: Response(ALLOW_ALL))
    timed(
        httpserver,
        events,
        "/page",
        lambda: Response("slow down", status=status, headers={"Retry-After": "1"}),
    )
    timed(httpserver, events, "/other", lambda: Response("ok"))
    with client() as http:
        first = http.fetch(httpserver.url_for("/page"))
        assert facts(first).retry_at is not None
        assert facts(first).outcome is (
            Outcome.RATE_LIMITED if status == 429 else Outcome.SERVER_ERROR
        )
        second = http.fetch(httpserver.url_for("/other"))  # the whole host is held
    assert second.status_code == 200
    assert [path for _, path, _, _ in events] == ["/robots.txt", "/page", "/other"]
    assert events[2][2] - events[1][3] >= 1.0


def test_retry_after_longer_than_max_wait_defers(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data(ALLOW_ALL)
    httpserver.expect_request("/page").respond_with_data(
        "busy", status=503, headers={"Retry-After": "3600"}
    )
    with client() as http:
        assert http.fetch(httpserver.url_for("/page")).status_code == 503
        with pytest.raises(Deferred) as caught:
            http.fetch(httpserver.url_for("/page"))
    assert caught.value.reason is Reason.RATE_LIMITED
    assert caught.value.retry_at >= time.time() + 3500
    assert paths(httpserver).count("/page") == 1


def test_conditional_refetch_and_304(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data(ALLOW_ALL)
    modified = "Tue, 14 Nov 2023 22:13:20 GMT"
    httpserver.expect_oneshot_request("/doc").respond_with_data(
        "v1", headers={"ETag": '"abc"', "Last-Modified": modified}
    )
    httpserver.expect_oneshot_request(
        "/doc", headers={"If-None-Match": '"abc"', "If-Modified-Since": modified}
    ).respond_with_data("", status=304)
    with client(validators=ValidatorStore()) as http:
        first = http.fetch(httpserver.url_for("/doc"))
        assert not facts(first).conditional
        second = http.fetch(httpserver.url_for("/doc"))
    httpserver.check_assertions()
    assert second.status_code == 304
    found = facts(second)
    assert found.conditional and found.is_success
    assert found.outcome is Outcome.NOT_MODIFIED
    assert found.validators is not None
    assert (found.validators.etag, found.validators.last_modified) == ('"abc"', modified)


def test_disallowed_url_is_never_sent(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data(
        "User-agent: examplebot\nDisallow: /private\n"
    )
    with client() as http, pytest.raises(Disallowed) as caught:
        http.fetch(httpserver.url_for("/private/x"))
    assert caught.value.reason is Reason.ROBOTS_DISALLOW
    assert caught.value.verdict is not None
    assert paths(httpserver) == ["/robots.txt"]


def test_deferred_robots_raises_with_retry_time(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data("", status=503)
    with client() as http, pytest.raises(Deferred) as caught:
        http.fetch(httpserver.url_for("/page"))
    assert caught.value.reason is Reason.ROBOTS_DEFERRED
    assert caught.value.retry_at > time.time()
    assert "/page" not in paths(httpserver)


def test_redirect_into_disallowed_path_not_followed(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data(
        "User-agent: *\nDisallow: /private\n"
    )
    httpserver.expect_request("/start").respond_with_data(
        "", status=302, headers={"Location": "/private/secret"}
    )
    with client() as http, pytest.raises(Disallowed) as caught:
        http.fetch(httpserver.url_for("/start"))
    assert caught.value.reason is Reason.ROBOTS_DISALLOW
    assert [hop.url for hop in caught.value.redirects] == [httpserver.url_for("/start")]
    assert paths(httpserver) == ["/robots.txt", "/start"]


def test_redirect_hops_are_judged_by_the_guard_and_the_scope(
    httpserver: HTTPServer, httpserver2: HTTPServer
) -> None:
    """Like a first request, a redirect target is refused by the trap guard or the
    scope, and never sent."""

    httpserver.expect_request("/robots.txt").respond_with_data(ALLOW_ALL)
    httpserver.expect_request("/to-trap").respond_with_data(
        "", status=302, headers={"Location": "/calendar/2024"}
    )
    httpserver.expect_request("/to-other-host").respond_with_data(
        "", status=302, headers={"Location": httpserver2.url_for("/x")}
    )
    in_scope = httpserver.url_for("/")
    with client(guard=calendar_guard, scope=lambda url: url.startswith(in_scope)) as http:
        with pytest.raises(Disallowed) as trap:
            http.fetch(httpserver.url_for("/to-trap"))
        assert trap.value.reason is Reason.REPEATED_PATH
        with pytest.raises(Disallowed) as scope:
            http.fetch(httpserver.url_for("/to-other-host"))
        assert scope.value.reason is Reason.OFF_SCOPE
        assert [hop.url for hop in scope.value.redirects] == [httpserver.url_for("/to-other-host")]
    assert paths(httpserver) == ["/robots.txt", "/to-trap", "/to-other-host"]
    assert paths(httpserver2) == []


def test_redirect_chain_recorded_and_loops_and_limit_refused(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data(ALLOW_ALL)
    for src, dst in (("/a", "/b"), ("/b", "/c"), ("/loop", "/loop2"), ("/loop2", "/loop")):
        httpserver.expect_request(src).respond_with_data("", status=301, headers={"Location": dst})
    httpserver.expect_request("/c").respond_with_data("end")
    for n in range(8):
        httpserver.expect_request(f"/r{n}").respond_with_data(
            "", status=302, headers={"Location": f"/r{n + 1}"}
        )
    with client() as http:
        response = http.fetch(httpserver.url_for("/a"))
        assert response.status_code == 200
        assert [(hop.url, hop.status) for hop in facts(response).redirects] == [
            (httpserver.url_for("/a"), 301),
            (httpserver.url_for("/b"), 301),
        ]
        with pytest.raises(RedirectRefused) as loop:
            http.fetch(httpserver.url_for("/loop"))
        assert loop.value.reason is Reason.REDIRECT_LOOP
        with pytest.raises(RedirectRefused) as limit:
            http.fetch(httpserver.url_for("/r0"))
        assert limit.value.reason is Reason.REDIRECT_LIMIT
    assert "/r5" in paths(httpserver) and "/r6" not in paths(httpserver)


def test_redirect_to_itself_by_an_empty_location_is_a_loop(httpserver: HTTPServer) -> None:
    """httpx follows an empty Location to the same URL; that is a loop, refused
    before the second request is sent."""
    httpserver.expect_request("/robots.txt").respond_with_data(ALLOW_ALL)
    httpserver.expect_request("/self").respond_with_data("", status=302, headers={"Location": ""})
    with client() as http, pytest.raises(RedirectRefused) as caught:
        http.fetch(httpserver.url_for("/self"))
    assert caught.value.reason is Reason.REDIRECT_LOOP
    assert [hop.url for hop in caught.value.redirects] == [httpserver.url_for("/self")]
    assert paths(httpserver) == ["/robots.txt", "/self"]


def test_redirect_to_loopback_from_public_host_refused(
    httpserver: HTTPServer, httpserver2: HTTPServer
) -> None:
    """127.0.0.2 is marked public; it redirects to 127.0.0.1, which is not."""
    httpserver2.expect_request("/robots.txt").respond_with_data(ALLOW_ALL)
    target = httpserver.url_for("/admin")
    httpserver2.expect_request("/go").respond_with_data(
        "", status=302, headers={"Location": target}
    )
    httpserver.expect_request("/robots.txt").respond_with_data(ALLOW_ALL)
    httpserver.expect_request("/admin").respond_with_data("secret")
    for allow_private in (False, True):
        addresses = AddressPolicy(
            allow_private=allow_private, public_addresses=frozenset({"127.0.0.2"})
        )
        with client(addresses=addresses) as http, pytest.raises(AddressRefused) as caught:
            http.fetch(httpserver2.url_for("/go"))
        assert caught.value.reason is Reason.PRIVATE_ADDRESS
    assert paths(httpserver) == []  # not even its robots.txt
    assert paths(httpserver2).count("/go") == 2


def test_private_address_refused_by_default(httpserver: HTTPServer) -> None:
    with client(allow_private=False) as http, pytest.raises(AddressRefused):
        http.fetch(httpserver.url_for("/"))
    assert paths(httpserver) == []


def test_guard_hook_and_scope(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data(ALLOW_ALL)
    with client(guard=calendar_guard, scope=lambda url: "/out" not in url) as http:
        with pytest.raises(Disallowed) as trap:
            http.fetch(httpserver.url_for("/calendar/2024"))
        assert trap.value.reason is Reason.REPEATED_PATH
        with pytest.raises(Disallowed) as scope:
            http.fetch(httpserver.url_for("/out"))
        assert scope.value.reason is Reason.OFF_SCOPE
    assert paths(httpserver) == []


def test_endless_body_is_cut_at_the_default_cap_and_not_read_further(
    httpserver: HTTPServer,
) -> None:
    """A body far above the default 10 MiB cap: the response holds exactly the cap,
    is marked truncated, and the server was never made to send it all."""
    total = 64 * 1024 * 1024
    sent: list[int] = []

    def endless(request: Request) -> Response:
        def body() -> Iterator[bytes]:
            chunk = b"y" * 65536
            for _ in range(total // len(chunk)):
                sent.append(len(chunk))
                yield chunk

        return Response(body(), content_type="application/octet-stream")

    httpserver.expect_request("/robots.txt").respond_with_data(ALLOW_ALL)
    httpserver.expect_request("/huge").respond_with_handler(endless)
    with client(limits=FetchLimits()) as http:
        huge = http.fetch(httpserver.url_for("/huge"))
    assert len(huge.content) == DEFAULT_MAX_BODY == 10 * 1024 * 1024
    assert facts(huge).truncated and facts(huge).body_bytes == DEFAULT_MAX_BODY
    assert sum(sent) < total


def test_body_cap_and_gzip_bomb(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data(ALLOW_ALL)
    httpserver.expect_request("/big").respond_with_data(b"x" * 1_000_000)
    bomb = gzip.compress(b"\0" * 5_000_000)
    httpserver.expect_request("/bomb").respond_with_data(bomb, headers={"Content-Encoding": "gzip"})
    httpserver.expect_request("/small").respond_with_data(
        gzip.compress(b"hello"), headers={"Content-Encoding": "gzip"}
    )
    with client(limits=FetchLimits(max_body_bytes=1000)) as http:
        big = http.fetch(httpserver.url_for("/big"))
        bombed = http.fetch(httpserver.url_for("/bomb"))
        small = http.fetch(httpserver.url_for("/small"))
    assert big.content == b"x" * 1000 and facts(big).truncated
    assert len(bombed.content) == 1000 and facts(bombed).truncated
    assert small.content == b"hello" and not facts(small).truncated


def test_drip_feeding_server_cut_off(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data(ALLOW_ALL)
    drip = Drip()
    httpserver.expect_request("/drip").respond_with_handler(drip)
    httpserver.expect_request("/after").respond_with_data("fine")
    with client(limits=FetchLimits(response_timeout=0.5)) as http:
        with pytest.raises(ResponseTooSlow):
            http.fetch(httpserver.url_for("/drip"))
        assert not drip.finished  # cut off, not read to the end and then refused
        state = http.polite.pacer.state((httpserver.host, httpserver.port))
        assert state.failures == 1 and state.in_flight == 0
        assert http.fetch(httpserver.url_for("/after"), timeout=5).text == "fine"


def test_meta_robots_and_x_robots_tag_on_response(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data(ALLOW_ALL)
    html = (
        '<html><head><meta name="robots" content="noarchive, max-snippet:20">'
        '<meta name="examplebot" content="noindex"></head>'
        '<body><a href="/next">next</a></body></html>'
    )
    httpserver.expect_request("/page").respond_with_data(
        html,
        content_type="text/html; charset=utf-8",
        headers={"X-Robots-Tag": "examplebot: nofollow"},
    )
    httpserver.expect_request("/doc.pdf").respond_with_data(
        b"%PDF", content_type="application/pdf", headers={"X-Robots-Tag": "noindex"}
    )
    with client() as http:
        page = facts(http.fetch(httpserver.url_for("/page")))
        pdf = facts(http.fetch(httpserver.url_for("/doc.pdf")))
    assert page.robots.noindex and page.robots.nofollow and page.robots.noarchive
    assert page.robots.max_snippet == 20
    assert page.page is not None
    assert [link.url for link in page.page.links] == [httpserver.url_for("/next")]
    assert page.page.followable_links() == ()
    assert pdf.robots.noindex and pdf.page is None


def test_plain_httpx_client_with_polite_transport(httpserver: HTTPServer) -> None:
    """Any httpx user gets politeness by passing the transport."""
    httpserver.expect_request("/robots.txt").respond_with_data(ALLOW_ALL)
    httpserver.expect_request("/x").respond_with_data("x")
    transport = PoliteTransport(identity=BOT, allow_private=True, policy=PacingPolicy(delay=0))
    with httpx.Client(transport=transport) as http:
        response = http.get(httpserver.url_for("/x"))
    assert facts(response).outcome is Outcome.OK
    assert httpserver.log[1][0].headers["User-Agent"].startswith("ExampleBot/1.0")


def test_network_error_backs_off() -> None:
    with client(check_robots=False) as http:
        with pytest.raises(httpx.ConnectError):
            http.fetch("http://127.0.0.1:9/")  # discard port: nothing listens
        state = http.polite.pacer.state(("127.0.0.1", 9))
        assert state.in_flight == 0 and state.failures == 1
    with client() as http, pytest.raises(Deferred) as caught:
        http.fetch("http://127.0.0.1:9/")  # robots.txt unreachable: defer
    assert caught.value.reason is Reason.ROBOTS_DEFERRED


def test_deferred_robots_waited_out_when_asked(httpserver: HTTPServer) -> None:
    events: Events = []
    answers = iter([Response("", status=503, headers={"Retry-After": "1"})])
    timed(httpserver, events, "/robots.txt", lambda: next(answers, Response(ALLOW_ALL)))
    timed(httpserver, events, "/page", lambda: Response("ok"))

    limits = FetchLimits(wait_deferred=True, max_wait=5.0)
    with client(robots_options=RobotsOptions(min_ttl=0), limits=limits) as http:
        assert http.fetch(httpserver.url_for("/page")).text == "ok"
    assert [path for _, path, _, _ in events] == ["/robots.txt", "/robots.txt", "/page"]
    assert events[1][2] - events[0][3] >= 1.0


def test_network_errors_are_classified() -> None:
    request = httpx.Request("GET", "http://example.org/")
    assert classify_error(ResponseTooSlow("slow", request=request)) is NetworkErrorKind.TIMEOUT
    assert classify_error(httpx.ConnectError("[Errno 111] refused")) is NetworkErrorKind.CONNECT
    dns = httpx.ConnectError("[Errno -2] Name or service not known")
    assert classify_error(dns) is NetworkErrorKind.DNS
    tls = httpx.ConnectError("[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed")
    assert classify_error(tls) is NetworkErrorKind.TLS
    assert classify_error(httpx.RemoteProtocolError("bad")) is NetworkErrorKind.PROTOCOL


def test_threads_share_one_slot_per_host(httpserver: HTTPServer) -> None:
    """Four threads on one host: the server never sees two requests at once, and
    every gap is at least the delay."""
    events: Events = []
    timed(httpserver, events, "/robots.txt", lambda: Response(ALLOW_ALL))
    for n in range(4):
        timed(httpserver, events, f"/t{n}", lambda: Response("ok"))
    with client(delay=0.1) as http:
        threads = [
            threading.Thread(target=http.fetch, args=(httpserver.url_for(f"/t{n}"),))
            for n in range(4)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    ordered = sorted(events, key=lambda e: e[2])
    assert len(ordered) == 5
    for (_, _, _, end), (_, _, start, _) in itertools.pairwise(ordered):
        assert start - end >= 0.1


def test_validator_store_is_bounded_and_forgets_gone_urls() -> None:
    store = ValidatorStore(max_urls=2)
    etag = [("ETag", '"1"')]
    for url in ("http://a.org/1", "http://a.org/2", "http://a.org/3"):
        store.record(url, 200, etag)
    assert len(store) == 2 and store.get("http://a.org/1") is None
    assert store.conditional_headers("http://a.org/3") == {"If-None-Match": '"1"'}
    updated = store.record("http://a.org/3", 304, [("ETag", '"2"')])
    assert updated is not None and updated.etag == '"2"'
    store.record("http://a.org/3", 410, [])
    assert store.get("http://a.org/3") is None
    store.record("http://a.org/2", 200, [])  # a new copy without validators
    assert store.get("http://a.org/2") is None


def test_robots_txt_redirect_to_loopback_refused(
    httpserver: HTTPServer, httpserver2: HTTPServer
) -> None:
    """The robots.txt fetch follows redirects itself; they are screened too. A
    refused hop counts as a missing file (allow all, like a redirect loop) and
    is cached: five pages of the public origin cost one robots.txt request, and
    each page says what happened to robots.txt, not that its own address is
    private (issue 9, row 9)."""
    httpserver2.expect_request("/robots.txt").respond_with_data(
        "", status=301, headers={"Location": httpserver.url_for("/robots.txt")}
    )
    httpserver2.expect_request("/page").respond_with_data("public page")
    httpserver.expect_request("/robots.txt").respond_with_data("User-agent: *\nDisallow: /\n")
    public = AddressPolicy(public_addresses=frozenset({"127.0.0.2"}))
    with client(addresses=public) as http:
        for _ in range(5):
            verdict = facts(http.fetch(httpserver2.url_for("/page"))).verdict
            assert verdict is not None
            assert verdict.reason is Reason.ALLOWED
            assert verdict.outcome is RobotsOutcome.ALLOW_ALL
            assert verdict.robots_status == 301
            assert "not followed" in verdict.detail and "127.0.0.1" in verdict.detail
            assert [hop.url for hop in verdict.redirects] == [httpserver2.url_for("/robots.txt")]
    assert paths(httpserver) == []
    assert paths(httpserver2) == ["/robots.txt"] + ["/page"] * 5


def test_robots_txt_redirect_from_public_to_private_refused_even_when_allowed(
    make_server: Callable[[str], HTTPServer],
) -> None:
    """With ``allow_private``, a page redirect from a public address to a private
    one is still refused; a robots.txt redirect obeys the same rule (issue 9, row
    6). 127.0.0.2 counts as public and redirects its robots.txt to the canary on
    127.0.0.3, which must see no request at all. A private origin's own
    robots.txt may still redirect to another private one."""
    public, canary, private = (make_server(f"127.0.0.{n}") for n in (2, 3, 4))
    public.expect_request("/robots.txt").respond_with_data(
        "", status=302, headers={"Location": canary.url_for("/robots.txt")}
    )
    public.expect_request("/page").respond_with_data("public page")
    private.expect_request("/robots.txt").respond_with_data(
        "", status=302, headers={"Location": canary.url_for("/robots.txt")}
    )
    private.expect_request("/page").respond_with_data("private page")
    canary.expect_request("/robots.txt").respond_with_data("User-agent: *\nDisallow: /page\n")
    policy = AddressPolicy(allow_private=True, public_addresses=frozenset({"127.0.0.2"}))
    with client(addresses=policy) as http:
        verdict = facts(http.fetch(public.url_for("/page"))).verdict
        assert verdict is not None and verdict.outcome is RobotsOutcome.ALLOW_ALL
        assert "redirect from a public address" in verdict.detail
        with pytest.raises(Disallowed):  # private to private: followed, obeyed
            http.fetch(private.url_for("/page"))
    assert paths(public) == ["/robots.txt", "/page"]
    assert paths(canary) == ["/robots.txt"]  # from the private origin only
    assert paths(private) == ["/robots.txt"]


def test_robots_txt_hop_is_judged_by_the_transports_resolver(
    make_server: Callable[[str], HTTPServer],
) -> None:
    """The robots.txt fetch resolves a redirect hop with the transport's own
    ``resolver=`` (issue 10): a public origin (127.0.0.2) redirects its robots.txt
    to a made-up name that the custom resolver maps to 10.1.2.3. The hop is
    refused as a turn from a public to a private address, with the address only
    that resolver knows; with the system resolver the name would not resolve and
    the origin would be deferred instead."""
    public = make_server("127.0.0.2")
    public.expect_request("/robots.txt").respond_with_data(
        "", status=302, headers={"Location": f"http://{MADE_UP}:{public.port}/robots.txt"}
    )
    public.expect_request("/page").respond_with_data("public page")
    asked: list[tuple[str, int]] = []

    def resolver(host: str, port: int) -> list[str]:
        asked.append((host, port))
        return ["10.1.2.3"] if host == MADE_UP else []

    policy = AddressPolicy(allow_private=True, public_addresses=frozenset({"127.0.0.2"}))
    with client(addresses=policy, resolver=resolver) as http:
        verdict = facts(http.fetch(public.url_for("/page"))).verdict
    assert verdict is not None and verdict.outcome is RobotsOutcome.ALLOW_ALL
    assert "redirect from a public address to 10.1.2.3" in verdict.detail
    assert asked == [(MADE_UP, public.port)]
    assert paths(public) == ["/robots.txt", "/page"]


def test_robots_txt_hop_connection_is_judged_again(
    make_server: Callable[[str], HTTPServer], httpserver: HTTPServer
) -> None:
    """DNS rebinding on a robots.txt redirect hop: the resolver says ``localhost``
    is 127.0.0.3 (public) when the hop is screened, but the connection reaches
    the canary on 127.0.0.1, which is private. With ``allow_private`` the turn
    from the public origin to it is still refused at connect time; the canary
    sees nothing."""
    public = make_server("127.0.0.2")
    public.expect_request("/robots.txt").respond_with_data(
        "", status=302, headers={"Location": f"http://localhost:{httpserver.port}/robots.txt"}
    )
    public.expect_request("/page").respond_with_data("public page")
    httpserver.expect_request("/robots.txt").respond_with_data("User-agent: *\nDisallow: /\n")
    policy = AddressPolicy(
        allow_private=True, public_addresses=frozenset({"127.0.0.2", "127.0.0.3"})
    )
    with client(addresses=policy, resolver=lambda host, port: ["127.0.0.3"]) as http:
        verdict = facts(http.fetch(public.url_for("/page"))).verdict
    assert verdict is not None and verdict.outcome is RobotsOutcome.ALLOW_ALL
    assert "redirect from a public address to 127.0.0.1" in verdict.detail
    assert paths(httpserver) == []
    assert paths(public) == ["/robots.txt", "/page"]


def test_thin_client_has_the_trap_guard_on_by_default(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data(ALLOW_ALL)
    httpserver.expect_request("/cal/2024/").respond_with_data("fine")
    with PoliteClient(BOT, delay=0.0, allow_private=True) as http:
        assert http.fetch(httpserver.url_for("/cal/2024/")).status_code == 200
        with pytest.raises(Disallowed) as caught:
            http.fetch(httpserver.url_for("/cal/cal/cal/2024/"))
    assert caught.value.reason is Reason.REPEATED_PATH
    assert paths(httpserver) == ["/robots.txt", "/cal/2024/"]  # the trap URL was never sent


def test_headers_dripped_on_a_reused_connection_are_cut_at_the_deadline() -> None:
    """The total deadline holds even when the connection was reused (no new socket
    to watch) and the server drips the status line and headers: each read is cut
    to the time left. Server side: one connection served all three requests, and
    the drip (10 s long) never reached its end."""
    server = KeepAliveTarpit(ALLOW_ALL.encode(), b"ok")
    try:
        with client(limits=FetchLimits(response_timeout=0.5, max_wait=5.0)) as http:
            assert http.fetch(server.url("/page")).text == "ok"
            with pytest.raises(ResponseTooSlow):
                http.fetch(server.url("/drip"))
            state = http.polite.pacer.state(("127.0.0.1", server.port))
            assert state.failures == 1 and state.in_flight == 0
    finally:
        server.close()
    assert server.paths == ["/robots.txt", "/page", "/drip"]
    assert server.connections == 1
    assert not server.drip_finished


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("not a url", Reason.INVALID_URL),
        ("http://", Reason.INVALID_URL),
        ("http://[bad/", Reason.INVALID_URL),
        ("http://exa mple.com/", Reason.INVALID_URL),
        ("http://example.org:99999/", Reason.INVALID_URL),
        ("http://\x00x/", Reason.INVALID_URL),
        ("", Reason.INVALID_URL),
        ("ftp://example.org/", Reason.UNSUPPORTED_SCHEME),
        ("javascript:alert(1)", Reason.UNSUPPORTED_SCHEME),
    ],
)
def test_malformed_url_is_refused_with_its_reason(
    httpserver: HTTPServer, url: str, reason: Reason
) -> None:
    with client() as http, pytest.raises(Disallowed) as caught:
        http.fetch(url)
    assert caught.value.reason is reason
    assert caught.value.url == url  # as given, not as httpx reshaped it
    assert paths(httpserver) == []


def test_host_with_an_empty_label_is_a_dns_error_not_a_traceback() -> None:
    """``a..b`` passes URL parsing but cannot be IDNA-encoded for the resolver."""
    with client() as http, pytest.raises(httpx.ConnectError) as caught:
        http.fetch("http://a..b/")
    assert classify_error(caught.value) is NetworkErrorKind.DNS


@pytest.mark.parametrize("location", ["javascript:alert(1)", "mailto:ops@example.org"])
def test_redirect_to_no_fetchable_url_is_disallowed(httpserver: HTTPServer, location: str) -> None:
    """httpx raises InvalidURL (not an HTTPError) on such a Location; the client
    turns it into a verdict a crawler expects, with the chain."""
    httpserver.expect_request("/robots.txt").respond_with_data(ALLOW_ALL)
    httpserver.expect_request("/go").respond_with_data(
        "", status=302, headers={"Location": location}
    )
    with client() as http, pytest.raises(Disallowed) as caught:
        http.fetch(httpserver.url_for("/go"))
    assert caught.value.reason is Reason.UNSUPPORTED_SCHEME
    assert caught.value.url == location
    assert [hop.url for hop in caught.value.redirects] == [httpserver.url_for("/go")]
    assert paths(httpserver) == ["/robots.txt", "/go"]


def test_connection_to_an_address_other_than_the_screened_one_is_refused(
    httpserver: HTTPServer,
) -> None:
    """DNS rebinding: the resolver hook says ``localhost`` is 127.0.0.2 (marked
    public) when the request is screened, but the connection reaches 127.0.0.1.
    The peer address is judged again at connect time; the server sees nothing,
    robots.txt included."""
    httpserver.expect_request("/robots.txt").respond_with_data(ALLOW_ALL)
    httpserver.expect_request("/admin").respond_with_data("secret")
    public = AddressPolicy(public_addresses=frozenset({"127.0.0.2"}))
    for check_robots in (True, False):  # the robots.txt fetch, then the page itself
        with (
            client(
                addresses=public,
                resolver=lambda host, port: ["127.0.0.2"],
                check_robots=check_robots,
            ) as http,
            pytest.raises(AddressRefused),
        ):
            http.fetch(f"http://localhost:{httpserver.port}/admin")
    assert paths(httpserver) == []


@pytest.mark.parametrize("face", [PoliteTransport, AsyncPoliteTransport])
def test_every_setting_is_a_keyword_of_both_faces(face: type) -> None:
    """The transports' keywords make one PoliteSettings by name: a setting missing
    from a face's signature would silently keep its default there."""
    settings = set(inspect.signature(PoliteSettings.build).parameters)
    assert settings <= set(inspect.signature(face.__init__).parameters)


def test_keywords_become_the_transports_settings() -> None:
    clock = ManualClock(1000.0)
    limits = FetchLimits(max_redirects=2)
    policy = AddressPolicy(public_addresses=frozenset({"127.0.0.9"}))
    transport = PoliteTransport(
        identity=BOT, limits=limits, addresses=policy, clock=clock, parse_html=False
    )
    settings = transport.settings
    assert settings.identity is BOT and settings.limits is limits and settings.clock is clock
    assert settings.screen.policy is policy and transport.address_screen is settings.screen
    assert not settings.parse_html and settings.check_robots
    assert transport.pacer.clock is clock
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.parse_html = True  # type: ignore[misc]
    transport.close()
