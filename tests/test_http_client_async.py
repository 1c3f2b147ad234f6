"""The async polite transport over real sockets: per-host pacing without one host
holding up another, and the same checks as the sync face."""

from __future__ import annotations

import asyncio
import gzip
import itertools
import threading
import time
from collections.abc import Callable

import httpx
import pytest
from pytest_httpserver import HTTPServer
from support.servers import KeepAliveTarpit
from support.transports import ALLOW_ALL, MADE_UP, Drip, Events, paths, timed
from werkzeug import Request, Response

from robotkit.base.identity import Identity
from robotkit.base.outcome import Outcome
from robotkit.base.reasons import Reason
from robotkit.http import (
    AddressPolicy,
    AddressRefused,
    AsyncPoliteTransport,
    Disallowed,
    FetchLimits,
    ResponseTooSlow,
    facts,
)
from robotkit.http.client import AsyncPoliteClient
from robotkit.http.validators import ValidatorStore
from robotkit.pacing.pacer import PacingPolicy

BOT = Identity.build("ExampleBot", "2.0", "https://example.org/bot")


def client(delay: float = 0.0, **options: object) -> AsyncPoliteClient:
    options.setdefault("allow_private", True)
    limits = options.pop("limits", FetchLimits(max_wait=5.0))
    transport = AsyncPoliteTransport(
        identity=BOT,
        policy=PacingPolicy(delay=delay, backoff_base=0.1),
        limits=limits,  # type: ignore[arg-type]
        **options,  # type: ignore[arg-type]
    )
    return AsyncPoliteClient(transport=transport)


def test_two_hosts_paced_in_parallel_not_in_series(
    make_server: Callable[[str], HTTPServer],
) -> None:
    """Each host gets 3 requests 0.3 s apart; the hosts' requests interleave, so
    the second host never waits for the first one's gaps."""
    events: Events = []
    servers = [make_server("127.0.0.2"), make_server("127.0.0.3")]
    for server in servers:
        timed(server, events, "/robots.txt", lambda: Response(ALLOW_ALL))
        for n in range(3):
            timed(server, events, f"/p{n}", lambda: Response("ok"))

    async def crawl(http: AsyncPoliteClient, server: HTTPServer) -> None:
        for n in range(3):
            await http.fetch(server.url_for(f"/p{n}"))

    async def main() -> None:
        async with client(delay=0.3) as http:
            await asyncio.gather(*(crawl(http, server) for server in servers))

    asyncio.run(main())
    for server in servers:
        own = [e for e in events if e[0] == server.host]
        assert [path for _, path, _, _ in own] == ["/robots.txt", "/p0", "/p1", "/p2"]
        for (_, _, _, end), (_, _, start, _) in itertools.pairwise(own):
            assert start - end >= 0.3
    # In parallel: each host's first page came before the other host's last one.
    order = [(host, path) for host, path, _, _ in sorted(events, key=lambda e: e[2])]
    assert order.index(("127.0.0.2", "/p0")) < order.index(("127.0.0.3", "/p2"))
    assert order.index(("127.0.0.3", "/p0")) < order.index(("127.0.0.2", "/p2"))
    # and the hosts' request intervals overlap in time
    spans = {
        host: (min(e[2] for e in events if e[0] == host), max(e[3] for e in events if e[0] == host))
        for host in ("127.0.0.2", "127.0.0.3")
    }
    (a0, a1), (b0, b1) = spans.values()
    assert a0 < b1 and b0 < a1


def test_async_headers_304_and_meta(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data(ALLOW_ALL)
    httpserver.expect_oneshot_request("/doc").respond_with_data(
        "<meta name=robots content=noindex>",
        content_type="text/html",
        headers={"ETag": 'W/"v1"'},
    )
    httpserver.expect_oneshot_request(
        "/doc", headers={"If-None-Match": 'W/"v1"'}
    ).respond_with_data("", status=304)

    async def main() -> tuple[httpx.Response, httpx.Response]:
        async with client(validators=ValidatorStore()) as http:
            first = await http.fetch(httpserver.url_for("/doc"), referer="https://a.example/")
            return first, await http.fetch(httpserver.url_for("/doc"))

    first, second = asyncio.run(main())
    httpserver.check_assertions()
    assert facts(first).robots.noindex
    assert facts(second).outcome is Outcome.NOT_MODIFIED
    assert facts(second).validators is not None
    sent = httpserver.log[1][0].headers
    assert sent["User-Agent"] == "ExampleBot/2.0 (+https://example.org/bot)"
    assert sent["Referer"] == "https://a.example/"
    assert "From" not in sent


def test_async_redirect_into_disallowed_and_to_private(
    httpserver: HTTPServer, httpserver2: HTTPServer
) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data("User-agent: *\nDisallow: /no\n")
    httpserver.expect_request("/start").respond_with_data(
        "", status=301, headers={"Location": "/no/way"}
    )
    httpserver2.expect_request("/robots.txt").respond_with_data(ALLOW_ALL)
    httpserver2.expect_request("/go").respond_with_data(
        "", status=307, headers={"Location": httpserver.url_for("/x")}
    )
    public = AddressPolicy(allow_private=True, public_addresses=frozenset({"127.0.0.2"}))

    async def main() -> None:
        async with client() as http:
            with pytest.raises(Disallowed) as caught:
                await http.fetch(httpserver.url_for("/start"))
            assert caught.value.reason is Reason.ROBOTS_DISALLOW
        async with client(addresses=public) as http:
            with pytest.raises(AddressRefused):
                await http.fetch(httpserver2.url_for("/go"))

    asyncio.run(main())
    assert [r.path for r, _ in httpserver.log] == ["/robots.txt", "/start"]


def test_async_drip_cut_off_and_body_cap(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data(ALLOW_ALL)
    drip = Drip()
    httpserver.expect_request("/drip").respond_with_handler(drip)
    httpserver.expect_request("/bomb").respond_with_data(
        gzip.compress(b"a" * 2_000_000), headers={"Content-Encoding": "gzip"}
    )

    async def main() -> httpx.Response:
        limits = FetchLimits(response_timeout=0.5, max_body_bytes=4096)
        async with client(limits=limits) as http:
            with pytest.raises(ResponseTooSlow):
                await http.fetch(httpserver.url_for("/drip"))
            assert not drip.finished  # cut off, not read to the end
            return await http.fetch(httpserver.url_for("/bomb"))

    bomb = asyncio.run(main())
    assert len(bomb.content) == 4096 and facts(bomb).truncated


def test_a_host_held_by_retry_after_does_not_hold_up_another(
    make_server: Callable[[str], HTTPServer],
) -> None:
    """One host is held for 30 s by Retry-After and a request to it is waiting; the
    other host is crawled meanwhile. Server side: the other host served all its
    pages while the held request was still not sent (no wall-clock bound: a wait
    that blocked the event loop would send the held request first)."""
    held_host, free_host = make_server("127.0.0.2"), make_server("127.0.0.3")
    for server in (held_host, free_host):
        server.expect_request("/robots.txt").respond_with_data(ALLOW_ALL)
    held_host.expect_request("/busy").respond_with_data(
        "", status=503, headers={"Retry-After": "30"}
    )
    for n in range(3):
        free_host.expect_request(f"/p{n}").respond_with_data("ok")

    async def main() -> None:
        async with client(limits=FetchLimits(max_wait=60.0)) as http:
            assert (await http.fetch(held_host.url_for("/busy"))).status_code == 503
            held = asyncio.create_task(http.fetch(held_host.url_for("/busy")))
            for n in range(3):
                await http.fetch(free_host.url_for(f"/p{n}"))
            assert not held.done()
            held.cancel()
            with pytest.raises(asyncio.CancelledError):
                await held

    asyncio.run(main())
    assert [r.path for r, _ in held_host.log] == ["/robots.txt", "/busy"]
    assert [r.path for r, _ in free_host.log] == ["/robots.txt", "/p0", "/p1", "/p2"]


def test_global_in_flight_limit_holds_across_hosts(
    make_server: Callable[[str], HTTPServer],
) -> None:
    """``max_in_flight=1``: the two servers never handle two requests at once
    (robots.txt included), counted on the server side."""
    active: list[int] = [0]
    peak: list[int] = [0]
    lock = threading.Lock()

    def handler(request: Request) -> Response:
        with lock:
            active[0] += 1
            peak[0] = max(peak[0], active[0])
        time.sleep(0.05)  # room for a second request to overlap, were one sent
        with lock:
            active[0] -= 1
        return Response(ALLOW_ALL if request.path == "/robots.txt" else "ok")

    servers = [make_server("127.0.0.2"), make_server("127.0.0.3")]
    for server in servers:
        server.expect_request("").respond_with_handler(handler)

    async def main() -> None:
        transport = AsyncPoliteTransport(
            identity=BOT,
            policy=PacingPolicy(delay=0.0, max_in_flight=1),
            allow_private=True,
        )
        async with AsyncPoliteClient(transport=transport) as http:
            await asyncio.gather(
                *(http.fetch(server.url_for(f"/p{n}")) for server in servers for n in range(3))
            )

    asyncio.run(main())
    assert sum(len(server.log) for server in servers) == 8
    assert peak[0] == 1


def test_async_headers_dripped_on_a_reused_connection_are_cut_at_the_deadline() -> None:
    """The async face bounds the whole response with ``asyncio.wait_for``; the same
    keep-alive tarpit as the sync test, same server-side checks."""
    server = KeepAliveTarpit(ALLOW_ALL.encode(), b"ok")

    async def main() -> None:
        async with client(limits=FetchLimits(response_timeout=0.5, max_wait=5.0)) as http:
            assert (await http.fetch(server.url("/page"))).text == "ok"
            with pytest.raises(ResponseTooSlow):
                await http.fetch(server.url("/drip"))

    try:
        asyncio.run(main())
    finally:
        server.close()
    assert server.paths == ["/robots.txt", "/page", "/drip"]
    assert server.connections == 1
    assert not server.drip_finished


def test_async_redirect_to_no_fetchable_url_is_disallowed(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data(ALLOW_ALL)
    httpserver.expect_request("/go").respond_with_data(
        "", status=302, headers={"Location": "javascript:alert(1)"}
    )

    async def main() -> None:
        async with client() as http:
            with pytest.raises(Disallowed) as caught:
                await http.fetch(httpserver.url_for("/go"))
            assert caught.value.reason is Reason.UNSUPPORTED_SCHEME
            assert [hop.url for hop in caught.value.redirects] == [httpserver.url_for("/go")]

    asyncio.run(main())
    assert [r.path for r, _ in httpserver.log] == ["/robots.txt", "/go"]


def test_async_connection_to_an_address_other_than_the_screened_one_is_refused(
    httpserver: HTTPServer,
) -> None:
    """DNS rebinding, async: screened as 127.0.0.2 (public), connected to 127.0.0.1."""
    httpserver.expect_request("/robots.txt").respond_with_data(ALLOW_ALL)
    httpserver.expect_request("/admin").respond_with_data("secret")
    public = AddressPolicy(public_addresses=frozenset({"127.0.0.2"}))

    async def main() -> None:
        for check_robots in (True, False):
            async with client(
                addresses=public,
                resolver=lambda host, port: ["127.0.0.2"],
                check_robots=check_robots,
            ) as http:
                with pytest.raises(AddressRefused):
                    await http.fetch(f"http://localhost:{httpserver.port}/admin")

    asyncio.run(main())
    assert httpserver.log == []


def test_async_robots_txt_hop_is_judged_by_the_transports_resolver(
    make_server: Callable[[str], HTTPServer],
) -> None:
    """The async face resolves a robots.txt redirect hop with the transport's own
    resolver too (here a coroutine): the made-up name is 10.1.2.3 to it only."""
    public = make_server("127.0.0.2")
    public.expect_request("/robots.txt").respond_with_data(
        "", status=302, headers={"Location": f"http://{MADE_UP}:{public.port}/robots.txt"}
    )
    public.expect_request("/page").respond_with_data("public page")
    asked: list[str] = []

    async def resolver(host: str, port: int) -> list[str]:
        asked.append(host)
        return ["10.1.2.3"] if host == MADE_UP else []

    policy = AddressPolicy(allow_private=True, public_addresses=frozenset({"127.0.0.2"}))

    async def main() -> str:
        async with client(addresses=policy, resolver=resolver) as http:
            verdict = facts(await http.fetch(public.url_for("/page"))).verdict
        assert verdict is not None
        return verdict.detail

    assert "redirect from a public address to 10.1.2.3" in asyncio.run(main())
    assert asked == [MADE_UP]
    assert paths(public) == ["/robots.txt", "/page"]


def test_async_robots_txt_redirect_from_public_to_private_refused_and_cached(
    make_server: Callable[[str], HTTPServer],
) -> None:
    """The async face of issue 9, rows 6 and 9: with ``allow_private``, a public
    robots.txt redirecting to a private address is not followed (the canary sees
    nothing); the origin counts as having no file (allow all), and its three
    pages cost one robots.txt request."""
    public, canary = make_server("127.0.0.2"), make_server("127.0.0.3")
    public.expect_request("/robots.txt").respond_with_data(
        "", status=307, headers={"Location": canary.url_for("/robots.txt")}
    )
    public.expect_request("/page").respond_with_data("public page")
    canary.expect_request("/robots.txt").respond_with_data("User-agent: *\nDisallow: /\n")
    policy = AddressPolicy(allow_private=True, public_addresses=frozenset({"127.0.0.2"}))

    async def main() -> list[str]:
        async with client(addresses=policy) as http:
            details = []
            for _ in range(3):
                verdict = facts(await http.fetch(public.url_for("/page"))).verdict
                assert verdict is not None and verdict.reason is Reason.ALLOWED
                details.append(verdict.detail)
            return details

    details = asyncio.run(main())
    assert all("redirect from a public address" in detail for detail in details)
    assert [r.path for r, _ in canary.log] == []
    assert [r.path for r, _ in public.log] == ["/robots.txt", "/page", "/page", "/page"]
