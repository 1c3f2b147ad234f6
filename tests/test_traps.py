"""The trap sites: each serves its legitimate part, its trap part really is a trap,
the robots.txt sites answer as ARCHITECTURE.md's table needs, and the pytest plugin and
the CLI work. Real sockets on loopback throughout; assertions on what the server saw.
"""

from __future__ import annotations

import html
import re
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
import tracemalloc
from collections import deque
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import httpx
import pytest

from robotkit import traps
from robotkit.cli import main
from robotkit.http.checker import RobotsChecker, RobotsOptions
from robotkit.robots.status import Profile
from robotkit.traps import PageKind, RunningSite
from robotkit.traps.sites.robots_sites import ROBOTS_LIMIT, RULES, RobotsSite
from robotkit.traps.sites.session_ids import strip_session

HREF = re.compile(r'href="([^"]*)"')

ROBOTS_STATUS = {
    "robots-404": 404,
    "robots-401": 401,
    "robots-403": 403,
    "robots-503": 503,
    "robots-500": 500,
    "robots-429": 429,
    "robots-3xx": 301,
    "robots-3xx-too-many": 301,
}
"""The first answer to /robots.txt; every other site answers 200."""

ENDLESS = [
    "symlink-loop-1",
    "symlink-loop-2",
    "symlink-loop-3",
    "relative-loop",
    "calendar",
    "growing-query",
    "facets",
    "soft-404",
    "pagination",
    "duplicate-article",
    "link-farm",
    "click-order-facets",
    "canonical-stack",
    "scope-farm",
    "loop-lookalikes",
]
"""Sites whose trap part is an endless supply of new linked URLs."""


@pytest.fixture(scope="module")
def client() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=5) as c:
        yield c


@pytest.fixture
def running() -> Iterator[Callable[..., RunningSite]]:
    """Serve sites through the public ``serve`` API (the plugin is tested apart)."""
    started: list[RunningSite] = []

    def start(name: str, **options: object) -> RunningSite:
        site = traps.start(traps.get(name, **options))
        started.append(site)
        return site

    yield start
    for site in started:
        site.stop()
        site.check()


def kind(site: RunningSite, url: str) -> PageKind:
    page = site.classify(url)
    assert page is not None, f"{url} is not on the site"
    return page.kind


def links_of(url: str, body: str) -> list[str]:
    return [urljoin(url, html.unescape(h)) for h in HREF.findall(body)]


def test_registry_names_are_the_sites_names() -> None:
    assert len(traps.names()) >= 20
    for name in traps.names():
        site = traps.get(name)
        assert site.name == name
        assert site.summary and site.legitimate_pages is not None
        assert type(site).__doc__ or sys.modules[type(site).__module__].__doc__
    with pytest.raises(traps.UnknownSite):
        traps.get("no-such-site")


@pytest.mark.parametrize("name", traps.names())
def test_site_docstring_teaches_the_trap_and_names_the_rules_that_catch_it(name: str) -> None:
    """For a student: what it is, how it arises, how a naive crawler falls in, and
    what catches it, naming every rule in ``caught_by`` (which the crawl tests
    compare with the reasons the crawler really gave)."""
    site = traps.get(name)
    doc = sys.modules[type(site).__module__].__doc__ or ""
    sections = re.split(
        r"^(What it is|What they are|How it arises|How they arise|How a naive crawler falls in|"
        r"What catches it in robotkit)$",
        doc,
        flags=re.MULTILINE,
    )
    titles = sections[1::2]
    assert titles[0] in ("What it is", "What they are"), titles
    assert titles[1] in ("How it arises", "How they arise"), titles
    assert titles[2:] == [
        "How a naive crawler falls in",
        "What catches it in robotkit",
    ], titles
    assert all(len(text.split()) >= 10 for text in sections[2::2]), "a section is too thin"
    catches = sections[-1]
    for reason in site.caught_by:
        assert f"``{reason.value}``" in catches, (name, reason.value)
    words = " ".join(doc.split())
    assert "Legitimate part" in words and "Trap part" in words


@pytest.mark.parametrize("name", traps.names())
def test_site_serves_start_page_robots_and_every_legitimate_page(
    name: str, running: Callable[..., RunningSite], client: httpx.Client
) -> None:
    site = running(name)
    start = client.get(site.start_url)
    assert start.status_code == 200
    assert client.get(site.url("/robots.txt")).status_code == ROBOTS_STATUS.get(name, 200)

    bodies: dict[str, str] = {}
    for url in site.legitimate_urls():
        response = client.get(url)
        assert response.status_code == 200, url
        bodies[url] = response.text
        page = site.classify(url)
        assert page is not None and page.kind is PageKind.LEGITIMATE
    assert len(set(bodies.values())) == len(bodies), "legitimate pages must differ"

    score = site.score()  # from the server's log: start page, robots.txt, legit pages
    assert score.complete and score.missing == ()
    assert score.legit_found == len(site.site.legitimate_pages)
    # The start page was fetched twice (a repeat) or is forbidden by robots.txt.
    assert score.trap_fetched == 1
    assert score.repeats == (1 if site.start_url in bodies else 0)
    seen = {r.target for r in site.requests_seen}
    assert "/robots.txt" in seen and {urlsplit(u).path for u in bodies} <= {
        t.split("?")[0] for t in seen
    }


@pytest.mark.parametrize("name", ENDLESS)
def test_trap_part_keeps_generating_new_urls(
    name: str, running: Callable[..., RunningSite], client: httpx.Client
) -> None:
    """Crawl breadth-first, naively, for a bounded number of trap fetches: new
    trap URLs must still be waiting at the end, and every one answered 200."""
    site = running(name)
    budget = 25
    queue = deque([site.start_url])
    queued = {site.start_url}
    trap_fetched: list[str] = []
    while queue and len(trap_fetched) < budget:
        url = queue.popleft()
        response = client.get(url)
        page = site.classify(url)
        assert page is not None
        if page.kind is PageKind.TRAP:
            assert response.status_code == 200, url
            trap_fetched.append(url)
        for link in links_of(url, response.text):
            if link not in queued and site.classify(link) is not None:
                queued.add(link)
                queue.append(link)
    waiting = [u for u in queue if kind(site, u) is PageKind.TRAP]
    assert len(set(trap_fetched)) == budget
    assert waiting, "the trap ran out of URLs"
    assert site.score().trap_fetched >= budget


def test_symlink_loops_repeat_their_period_with_and_without_slash(
    running: Callable[..., RunningSite], client: httpx.Client
) -> None:
    site = running("symlink-loop-3")
    deep_slash = site.url("/files/loop/a/b/c/a/b/c/a/")
    deep_plain = site.url("/pages/loop/a/b/c/a/b/c/a")
    assert client.get(deep_slash).status_code == 200
    assert client.get(deep_plain).status_code == 200
    assert client.get(site.url("/files/loop/a/c/")).status_code == 404  # off the cycle
    assert kind(site, deep_slash) is PageKind.TRAP
    assert kind(site, site.url("/files/loop/a/b/")) is PageKind.LEGITIMATE
    assert kind(site, site.url("/files/loop/a/b/c/")) is PageKind.TRAP


def test_session_ids_are_fresh_in_every_response_and_repeats_are_wasted(
    running: Callable[..., RunningSite], client: httpx.Client
) -> None:
    site = running("session-ids")
    first = links_of(site.start_url, client.get(site.start_url).text)
    second = links_of(site.start_url, client.get(site.start_url).text)
    with_ids = [u for u in first if ";jsessionid=" in u or "sid=" in u]
    assert len(with_ids) == 10
    assert set(first).isdisjoint(set(second) - {site.url("/")})
    assert {strip_session(urlsplit(u).path) for u in first} == {
        strip_session(urlsplit(u).path) for u in second
    }
    # A naive crawler fetches both sets: the second is ten wasted requests.
    for url in with_ids + [u for u in second if u not in first and u != site.url("/")]:
        assert client.get(url).status_code == 200
    score = site.score()
    assert score.legit_found == 11
    assert score.repeats == score.trap_fetched == 1 + 10  # home twice, items twice


def test_redirect_loop_never_reaches_a_page(
    running: Callable[..., RunningSite], client: httpx.Client
) -> None:
    site = running("redirect-loop")
    for start, period in (("/loop/a", 2), ("/loop/self", 1), ("/loop/ring/0", 5)):
        url = site.url(start)
        chain = []
        for _ in range(12):
            response = client.get(url)
            assert response.is_redirect, url
            url = urljoin(url, response.headers["location"])
            chain.append(urlsplit(url).path)
        assert len(set(chain)) == period
    good = client.get(site.url("/old-home.html"), follow_redirects=True)
    assert good.status_code == 200 and urlsplit(str(good.url)).path == "/new-home.html"
    assert kind(site, site.url("/old-home.html")) is PageKind.OTHER
    assert site.score().trap_fetched == 36


def test_redirect_chain_lengthens_the_url_at_every_hop(
    running: Callable[..., RunningSite], client: httpx.Client
) -> None:
    site = running("redirect-chain")
    url = site.url("/go/start")
    lengths = []
    for _ in range(15):
        response = client.get(url)
        assert response.status_code == 302
        url = urljoin(url, response.headers["location"])
        lengths.append(len(url))
    assert lengths == sorted(set(lengths))
    final = client.get(site.url("/moved.html"), follow_redirects=True)
    assert final.status_code == 200 and len(final.history) == 2
    assert urlsplit(str(final.url)).path == "/final.html"


def test_pagination_past_the_end_is_empty_but_has_a_next_link(
    running: Callable[..., RunningSite], client: httpx.Client
) -> None:
    site = running("pagination")
    far = client.get(site.url("/list?page=400"))
    assert far.status_code == 200 and "No more results" in far.text
    assert "/list?page=401" in far.text and "/item/" not in far.text
    assert "/item/9" in client.get(site.url("/list?page=5")).text


def test_duplicate_article_variants_show_the_canonical_text(
    running: Callable[..., RunningSite], client: httpx.Client
) -> None:
    site = running("duplicate-article")
    canonical = client.get(site.url("/articles/robots-history")).text
    text = re.search(r"<p>(.*?)</p>", canonical)
    assert text
    home = site.url("/articles/robots-history")
    links = links_of(site.start_url, canonical)
    variants = [u for u in links if "robots-history" in u.lower() and u != home]
    variants += [site.url("/index.php?p=1")]
    assert len(variants) >= 10
    for url in variants:
        response = client.get(url)
        assert response.status_code == 200 and text[1] in response.text, url
        assert f'rel="canonical" href="{home}"' in response.text
        assert kind(site, url) is PageKind.TRAP


def test_soft_404_answers_anything_with_200_and_fresh_links(
    running: Callable[..., RunningSite], client: httpx.Client
) -> None:
    site = running("soft-404")
    one = client.get(site.url("/surely/not/here-42"))
    two = client.get(site.url("/surely/not/here-42"))
    assert one.status_code == two.status_code == 200
    assert set(HREF.findall(one.text)).isdisjoint(HREF.findall(two.text))


def test_tarpit_drips_one_byte_at_a_time(
    running: Callable[..., RunningSite],
) -> None:
    site = running("tarpit", drip_interval=0.05)
    timeout = httpx.Timeout(5.0)
    with (
        httpx.Client(timeout=timeout) as client,
        client.stream("GET", site.url("/slow")) as response,
    ):
        assert response.status_code == 200
        assert "content-length" not in response.headers
        chunks = []
        for chunk in response.iter_raw():
            chunks.append(chunk)
            if len(chunks) == 4:
                break
    prefix, drips = chunks[0], b"".join(chunks[1:])
    assert prefix.startswith(b"<!doctype html>")
    assert set(drips) == {ord(".")}
    # 100,000 dots are on offer; a server that sent them at once would fill reads.
    assert 3 <= len(drips) < 1000, "a drip, not a body"


def test_tarpit_stall_holds_the_answer_until_the_site_stops(
    running: Callable[..., RunningSite],
) -> None:
    site = running("tarpit", stall_seconds=120)
    with (
        httpx.Client(timeout=httpx.Timeout(5.0, read=0.3)) as client,
        pytest.raises(httpx.ReadTimeout),
    ):
        client.get(site.url("/stall"))
    # Stopping the site releases a stalled answer instead of waiting 120 s out.
    answers: list[int] = []
    waiter = threading.Thread(
        target=lambda: answers.append(httpx.get(site.url("/stall"), timeout=30).status_code)
    )
    waiter.start()
    for _ in range(500):
        if sum(r.target == "/stall" for r in site.requests_seen) == 2:
            break
        time.sleep(0.01)
    site.stop()
    waiter.join(timeout=30)
    assert answers == [200]


@pytest.mark.parametrize("path", ["/huge", "/huge-chunked"])
def test_tarpit_huge_body_is_streamed_not_built(
    path: str, running: Callable[..., RunningSite]
) -> None:
    """Read 10 MiB into one reused buffer over a raw socket, so that any memory
    peak traced in this process is the server's."""
    site = running("tarpit")
    size = 10 * 1024 * 1024
    address = urlsplit(site.base_url)
    assert address.hostname and address.port
    buffer = bytearray(64 * 1024)
    head = b""
    received = 0
    tracemalloc.start()
    try:
        with socket.create_connection((address.hostname, address.port), timeout=5) as sock:
            request = f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            sock.sendall(request.encode())
            while count := sock.recv_into(buffer):
                if len(head) < 4096:
                    head += bytes(buffer[:count])[: 4096 - len(head)]
                received += count
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    headers, _, _ = head.partition(b"\r\n\r\n")
    body = received - len(headers) - 4
    assert headers.startswith(b"HTTP/1.1 200")
    if path == "/huge":
        assert f"Content-Length: {size}".encode() in headers and body == size
    else:
        assert b"Transfer-Encoding: chunked" in headers and body > size
        assert b"Content-Length" not in headers
    assert peak < size // 8, "the body was held in memory"


def test_link_farm_spans_many_hosts(
    running: Callable[..., RunningSite], client: httpx.Client
) -> None:
    site = running("link-farm")
    assert len(site.base_urls) == 20
    assert {urlsplit(b).hostname for b in site.base_urls} == {f"127.0.0.{n}" for n in range(1, 21)}
    hosts: set[int] = set()
    frontier = [u for u in links_of(site.start_url, client.get(site.start_url).text)]
    for url in frontier[:40]:
        host = site.host_of(url)
        if host is None or host == 0:
            continue
        for link in links_of(url, client.get(url).text):
            linked = site.host_of(link)
            assert linked is not None and linked > 0
            hosts.add(linked)
    assert len(hosts) >= 10
    farm_requests = [r for r in site.requests_seen if r.host > 0]
    assert len({r.host for r in farm_requests}) == 3  # the three partners
    assert site.score().trap_fetched == 3


def test_robots_sites_answer_their_status(
    running: Callable[..., RunningSite], client: httpx.Client
) -> None:
    rules = client.get(running("robots-rules").url("/robots.txt"))
    assert rules.status_code == 200 and rules.text == RULES
    unauthorized = client.get(running("robots-401").url("/robots.txt"))
    assert unauthorized.status_code == 401 and "www-authenticate" in unauthorized.headers
    unavailable = client.get(running("robots-503").url("/robots.txt"))
    assert unavailable.status_code == 503 and unavailable.headers["retry-after"] == "3600"
    assert "retry-after" not in client.get(running("robots-500").url("/robots.txt")).headers


@pytest.mark.parametrize(("name", "hops"), [("robots-3xx", 3), ("robots-3xx-too-many", 6)])
def test_robots_redirect_chain_crosses_hosts(
    name: str, hops: int, running: Callable[..., RunningSite], client: httpx.Client
) -> None:
    site = running(name)
    response = client.get(site.url("/robots.txt"), follow_redirects=True)
    assert response.status_code == 200 and response.text == RULES
    assert len(response.history) == hops
    hosts = {urlsplit(str(r.url)).hostname for r in response.history}
    assert hosts == {"127.0.0.1", "127.0.0.2"}
    private = site.classify(site.url("/private/admin.html"))
    assert private is not None
    assert private.kind is (PageKind.TRAP if hops <= 5 else PageKind.LEGITIMATE)


def test_robots_huge_has_a_rule_past_the_cut(
    running: Callable[..., RunningSite], client: httpx.Client
) -> None:
    site = running("robots-huge")
    body = client.get(site.url("/robots.txt")).content
    assert len(body) > ROBOTS_LIMIT
    assert body.startswith(RULES.encode())
    assert body.index(b"Disallow: /past-the-cut/") > ROBOTS_LIMIT
    assert kind(site, site.url("/past-the-cut/secret.html")) is PageKind.LEGITIMATE
    assert kind(site, site.url("/private/admin.html")) is PageKind.TRAP


def test_robots_deny_sites_depend_on_the_profile() -> None:
    classic = traps.get("robots-403")
    rfc = traps.get("robots-403", profile="rfc9309")
    assert classic.legitimate_pages == frozenset() and classic.is_trap("/about.html")
    assert len(rfc.legitimate_pages) == 8 and not rfc.is_trap("/about.html")
    assert traps.get("robots-503").legitimate_pages == frozenset()


ROBOTS_CASES = [(n, "classic") for n in traps.names() if n.startswith("robots-")] + [
    ("robots-401", "rfc9309"),
    ("robots-403", "rfc9309"),
]


@pytest.mark.parametrize(("name", "profile"), ROBOTS_CASES)
def test_robots_sites_declare_what_the_robots_engine_decides(name: str, profile: str) -> None:
    """The declared parts agree with robotkit's own robots.txt verdicts: legitimate
    pages are allowed, trap pages are disallowed or deferred."""
    options = {"profile": profile} if profile == "rfc9309" else {}
    site = traps.get(name, **options)
    assert isinstance(site, RobotsSite)
    with (
        traps.serve(site) as running,
        RobotsChecker(options=RobotsOptions(profile=Profile(profile))) as checker,
    ):
        verdicts = {t: checker.check(running.url(t)) for t in sorted(site.pages)}
        assert running.requests_seen[0].target == "/robots.txt"
        assert running.requests_seen[0].headers["User-Agent"] == checker.identity.user_agent
    for target, verdict in verdicts.items():
        legit = site.classify(target).kind is PageKind.LEGITIMATE
        assert verdict.allowed == legit, (target, verdict.reason)


def test_score_from_reported_urls_counts_off_site_and_repeats(
    running: Callable[..., RunningSite],
) -> None:
    site = running("calendar")
    fetched = [
        site.url("/"),
        site.url("/cal/2024/05/"),
        site.url("/cal/2024/07/"),
        site.url("/cal/2024/08/#top"),
        site.url("/"),
        "http://127.0.0.9:1/elsewhere",
    ]
    score = site.score(fetched)
    assert (score.legit_found, score.trap_fetched, score.repeats, score.off_site) == (2, 3, 1, 1)
    assert not score.complete and len(score.missing) == len(site.site.legitimate_pages) - 2
    assert score.trap_targets == ("/cal/2024/07/", "/cal/2024/08/", "/")


def test_sites_listen_on_loopback_only() -> None:
    with pytest.raises(traps.SiteError):
        traps.start(traps.get("calendar"), host="0.0.0.0")
    with pytest.raises(traps.SiteError):
        traps.start(traps.get("calendar"), host="example.org")


def test_trap_site_fixture_serves_and_logs(trap_site: Callable[..., RunningSite]) -> None:
    site = trap_site("robots-403", profile="rfc9309")
    response = httpx.get(site.start_url, headers={"User-Agent": "FixtureBot/1.0"})
    assert response.status_code == 200
    assert site.requests_seen[-1].headers["User-Agent"] == "FixtureBot/1.0"
    assert site.score().complete is False and site.score().legit_found == 1


def test_plugin_is_registered_for_other_projects(tmp_path: Path) -> None:
    """A fresh pytest process, no conftest: the entry point provides the fixture."""
    test_file = tmp_path / "test_other_crawler.py"
    test_file.write_text(
        textwrap.dedent(
            """
            import httpx

            def test_uses_fixture(trap_site):
                site = trap_site("pagination")
                assert httpx.get(site.start_url).status_code == 200
                assert site.score().legit_found == 1
            """
        )
    )
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(test_file)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 passed" in result.stdout


def test_cli_traps_list_names_every_site(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["traps", "list"]) == 0
    out = capsys.readouterr().out
    for name in traps.names():
        assert name in out
    # The rules column lists every rule of caught_by.
    assert re.search(r"duplicate-article .*duplicate-url, duplicate-content", out), out


def test_cli_traps_serve_rejects_unknown_names_and_foreign_hosts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["traps", "serve", "no-such-site"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown trap site" in err
    assert main(["traps", "serve", "calendar", "--host", "192.0.2.1"]) == 2
    assert "loopback" in capsys.readouterr().err


def test_cli_traps_serve_runs_until_ctrl_c() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "robotkit", "traps", "serve", "growing-query"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        url = None
        for line in process.stdout:
            match = re.search(r"listening on (http://127\.0\.0\.1:\d+)/", line)
            if match:
                url = match[1]
                break
        assert url, "no URL printed"
        assert httpx.get(url + "/news/2", timeout=5).status_code == 200
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0
    assert "Traceback" not in err
    assert "GET /news/2 -> 200" in err
    assert "stopped" in out
