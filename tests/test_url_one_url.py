"""One URL, one answer: awkward URLs walked through every entry point that reads one.

Each URL below is read by the parser (``urls.parse_url``, ``urls.origin_of``), by
normalization (``normalize`` and ``robotkit normalize``), as a link on a page
(``meta.parse_page``), by the trap guard, by the robots.txt checker
(``robotkit check-url --robots-file``) and, when it points at the loopback server, by
a real fetch through ``PoliteClient``. Every one must give the same validity, the same
origin and the same key, and the server must see the parsed path.
"""

from __future__ import annotations

import html
import json
import re

import pytest
from pytest_httpserver import HTTPServer

from robotkit.base.identity import Identity
from robotkit.base.reasons import Reason
from robotkit.cli import main
from robotkit.http.client import PoliteClient
from robotkit.page.meta import parse_page
from robotkit.robots.engine import FetchNeeded, RobotsEngine
from robotkit.robots.verdict import Verdict
from robotkit.triage.guard import Guard
from robotkit.url.normalization import normalize
from robotkit.url.parse import InvalidURL, origin_of, parse_url

BOT = Identity.build("ExampleBot", "1.0", "https://example.org/bot", from_="bot@example.org")
PAGE = "http://page.test/dir/index.html"

#: (URL, its origin or None when no entry point may accept it, its key).
AWKWARD: list[tuple[str, str | None, str | None]] = [
    ("http:///93.184.216.34/a", "http://93.184.216.34", "http://93.184.216.34/a"),
    ("http:\\\\example.com\\a", "http://example.com", "http://example.com/a"),
    ("HTTP://EXAMPLE.com:80/a/../b", "http://example.com", "http://example.com/b"),
    ("http://ex ample.com/", None, None),
    ("http://[::1]:80/", "http://[::1]", "http://[::1]/"),
    ("http://example.com:0/", None, None),
    ("http://example.com:65536/", None, None),
    ("http://xn--nxasmq6b.com/", "http://xn--nxasmq6b.com", "http://xn--nxasmq6b.com/"),
    ("http://xn--a.com/", None, None),
    ("http://例え.jp/", "http://xn--r8jz45g.jp", "http://xn--r8jz45g.jp/"),
    ("http://0x7f.1/", "http://127.0.0.1", "http://127.0.0.1/"),
    ("http://256.1.1.1.1/", None, None),
    ("https://example.com/%zz", "https://example.com", "https://example.com/%25zz"),
    ("http://user:pw@host/", "http://host", "http://user:pw@host/"),
    ("http://exa\tmple.com/pa\nth?q=\r1", "http://example.com", "http://example.com/path?q=1"),
    ("  http://example.com/x  ", "http://example.com", "http://example.com/x"),
    ("http://example.com/a b", "http://example.com", "http://example.com/a%20b"),
    ("http://example.com/a\x1bb", None, None),
    ("http://Example.COM./", "http://example.com", "http://example.com/"),
    ("https://example.com:443/?b=1&a=2#top", "https://example.com", "https://example.com/?a=2&b=1"),
    ("http://[::1/", None, None),
    ("ftp://example.com/", None, None),
    ("http://", None, None),
    ("", None, None),
]

#: Relative references: no absolute URL, but a link on :data:`PAGE` to this URL.
RELATIVE = [
    ("//example.com/a", "http://example.com/a"),
    ("\\\\example.com\\a", "http://example.com/a"),
    ("../up", "http://page.test/up"),
    ("http:same-scheme", "http://page.test/dir/same-scheme"),
    ("?q=1", "http://page.test/dir/index.html?q=1"),
]


def _origin(url: str) -> str | None:
    try:
        return str(origin_of(url))
    except InvalidURL:
        return None


def _key(url: str) -> str | None:
    try:
        return normalize(url).key
    except InvalidURL:
        return None


def _links(href: str) -> list[str]:
    page = parse_page(f'<a href="{html.escape(href)}">x</a>', PAGE, "examplebot")
    return [link.url for link in page.links]


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> list[dict[str, object]]:
    main(list(argv))
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


@pytest.mark.parametrize(("url", "origin", "key"), AWKWARD)
def test_one_answer_everywhere(url: str, origin: str | None, key: str | None) -> None:
    assert (_origin(url), _key(url)) == (origin, key)
    if origin is not None:
        parsed = parse_url(url)
        assert str(parsed.origin) == origin and _origin(parsed.href) == origin
        assert _key(parsed.href) == key  # the URL fetched has the URL's key
        # A URL parsed once gives its origin without being parsed again.
        assert origin_of(parsed) == origin_of(normalize(url)) == parsed.origin
    # Links: an absolute href is the same URL, or no link at all.
    links = _links(url)
    if origin is None:
        assert links == []
    else:
        assert [(_origin(link), _key(link)) for link in links] == [(origin, key)]
    # The robots engine asks for the origin's robots.txt, or refuses with the reason.
    asked = RobotsEngine().check(url, "examplebot", 0.0)
    if origin is None:
        assert isinstance(asked, Verdict) and asked.reason is Guard().check(url).reason
    else:
        assert isinstance(asked, FetchNeeded) and asked.url == f"{origin}/robots.txt"
    # The guard refuses what cannot be parsed, with the parser's reason.
    verdict = Guard().check(url)
    if origin is None:
        assert verdict.reason in (Reason.INVALID_URL, Reason.UNSUPPORTED_SCHEME)
    else:
        assert verdict.allowed, verdict


@pytest.mark.parametrize(("href", "absolute"), RELATIVE)
def test_a_relative_link_resolves_to_one_url(href: str, absolute: str) -> None:
    assert _links(href) == [absolute]
    if not href.startswith("http:"):  # WHATWG reads "http:x" alone as host x
        assert _origin(href) is None and _key(href) is None


def test_the_commands_agree_with_the_library(
    capsys: pytest.CaptureFixture[str], tmp_path: pytest.TempPathFactory
) -> None:
    robots = tmp_path / "robots.txt"  # type: ignore[operator]
    robots.write_text("User-agent: *\nDisallow: /b\n")
    urls = [url for url, _, _ in AWKWARD if url.strip()]
    normalized = _cli(capsys, "normalize", "--json", *urls)
    checked = _cli(capsys, "check-url", "--json", "--robots-file", str(robots), *urls)
    for url, record, verdict in zip(urls, normalized, checked, strict=True):
        origin, key = next((o, k) for u, o, k in AWKWARD if u == url)
        assert record["normalized"] == key, url
        if origin is None:
            assert verdict["reason"] in ("invalid-url", "unsupported-scheme"), url
            assert verdict["reason"] == record["reason"], url
        else:
            assert verdict["reason"] not in ("invalid-url", "unsupported-scheme"), url
    # The robots.txt rule is matched against the parsed path.
    by_url = dict(zip(urls, checked, strict=True))
    assert by_url["HTTP://EXAMPLE.com:80/a/../b"]["reason"] == "robots-disallow"
    assert by_url["http:\\\\example.com\\a"]["reason"] == "allowed"


#: URLs of the loopback server, ``{port}`` filled in, with the target it must see.
FETCHED = [
    ("http:///127.0.0.1:{port}/a", "/a"),
    ("http:\\\\127.0.0.1:{port}\\b\\c", "/b/c"),
    ("HTTP://127.0.0.1:{port}/d/../e", "/e"),
    ("http://0x7f.1:{port}/f?x=1", "/f?x=1"),
    ("http://127.0.0.1:{port}/g\t/h\n", "/g/h"),
    ("http://127.0.0.1:{port}/%zz", "/%zz"),
    ("http://127.0.0.1:{port}/i j", "/i%20j"),
]


def test_the_server_sees_the_parsed_path(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data("User-agent: *\nDisallow:\n")
    httpserver.expect_request(re.compile("^/(?!robots)")).respond_with_data("ok")
    urls = [(url.format(port=httpserver.port), target) for url, target in FETCHED]
    with PoliteClient(BOT, allow_private=True, delay=0.0) as client:
        for url, target in urls:
            assert parse_url(url).target == target
            assert client.fetch(url).status_code == 200, url
    seen = [request.environ["RAW_URI"] for request, _ in httpserver.log]
    assert seen == ["/robots.txt", *(target for _, target in urls)]
