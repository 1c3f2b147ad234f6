"""Meta robots, X-Robots-Tag and link extraction (pure)."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from robotkit.meta import (
    RobotsDirectives,
    parse_date,
    parse_directives,
    parse_page,
    parse_x_robots_tag,
    resolve_link,
)

BOT = "ExampleBot"
T2010 = datetime(2010, 6, 25, 15, 0, tzinfo=timezone.utc).timestamp()


@pytest.mark.parametrize(
    ("content", "noindex", "nofollow"),
    [
        ("all", False, False),
        ("index, follow", False, False),
        ("none", True, True),
        ("NOINDEX", True, False),
        ("NoIndex,NoFollow", True, True),
        (" nofollow ", False, True),
        ("all, noindex", True, False),  # most restrictive wins
    ],
)
def test_basic_directives(content: str, noindex: bool, nofollow: bool) -> None:
    directives = parse_directives(content)
    assert (directives.noindex, directives.nofollow) == (noindex, nofollow)


def test_valued_directives_and_flags() -> None:
    d = parse_directives(
        "noarchive, nosnippet, max-snippet:20, max-image-preview:LARGE, max-video-preview:-1"
    )
    assert d.noarchive and d.nosnippet and not d.noindex
    assert (d.max_snippet, d.max_image_preview, d.max_video_preview) == (20, "large", -1)
    assert parse_directives("nocache").noarchive
    assert parse_directives("max-snippet: nonsense, frobnicate").unknown == (
        "max-snippet:nonsense",
        "frobnicate",
    )


@pytest.mark.parametrize(
    "date",
    [
        "25 Jun 2010 15:00:00 GMT",
        "Friday, 25-Jun-2010 15:00:00 GMT",
        "Fri, 25 Jun 2010 15:00:00 GMT",
        "2010-06-25T15:00:00Z",
        "2010-06-25T15:00:00+00:00",
    ],
)
def test_unavailable_after_dates(date: str) -> None:
    assert parse_date(date) == T2010
    d = parse_directives(f"unavailable_after: {date}, nofollow")
    assert d.unavailable_after == T2010
    assert d.nofollow and not d.unknown
    assert d.is_unavailable(T2010 + 1) and not d.is_unavailable(T2010 - 1)


def test_unreadable_date_is_ignored() -> None:
    assert parse_directives("unavailable_after: someday").unavailable_after is None


def test_x_robots_tag_generic_and_robot_specific() -> None:
    tags = parse_x_robots_tag(["noarchive", "examplebot: nofollow", "otherbot: noindex"])
    assert tags.for_robot(BOT) == RobotsDirectives(noarchive=True, nofollow=True)
    assert tags.for_robot("OtherBot") == RobotsDirectives(noarchive=True, noindex=True)
    assert tags.for_robot("thirdbot") == RobotsDirectives(noarchive=True)


def test_x_robots_tag_colons_in_directives_are_not_robot_names() -> None:
    tags = parse_x_robots_tag(
        ["max-snippet:20", "unavailable_after: 25 Jun 2010 15:00:00 GMT", "MAX-IMAGE-PREVIEW: none"]
    )
    assert tags.by_agent == {}
    assert tags.generic.max_snippet == 20
    assert tags.generic.unavailable_after == T2010
    assert tags.generic.max_image_preview == "none"


def test_x_robots_tag_robot_with_valued_directive_and_folded_header() -> None:
    tags = parse_x_robots_tag(
        ["ExampleBot: unavailable_after: Friday, 25-Jun-2010 15:00:00 GMT, max-snippet:5"]
    )
    own = tags.for_robot(BOT)
    assert own.unavailable_after == T2010 and own.max_snippet == 5
    assert tags.generic == RobotsDirectives()
    folded = parse_x_robots_tag(["noindex, otherbot: nofollow, examplebot: noarchive"])
    assert folded.for_robot(BOT) == RobotsDirectives(noindex=True, noarchive=True)
    assert folded.for_robot("otherbot") == RobotsDirectives(noindex=True, nofollow=True)


def test_most_restrictive_values_win() -> None:
    merged = parse_x_robots_tag(
        ["max-snippet:50, max-image-preview:large", "max-snippet:-1", "max-snippet:10"]
    ).generic
    assert merged.max_snippet == 10
    assert parse_directives("max-snippet:-1, max-snippet:0").max_snippet == 0
    a = parse_directives("max-image-preview:standard, unavailable_after: 2030-01-01T00:00:00Z")
    b = parse_directives("max-image-preview:large, unavailable_after: 2010-06-25T15:00:00Z")
    both = a.merge(b)
    assert both.max_image_preview == "standard"
    assert both.unavailable_after == T2010


PAGE = """<!doctype html><html><head>
<META NAME="Robots" CONTENT="noarchive">
<meta name="ExampleBot" content="max-snippet:30">
<meta name="otherbot" content="noindex">
<meta name="description" content="none">
<base href="/section/">
<link rel="stylesheet" href="style.css">
</head><body>
<a href="page1.html#top">one</a>
<a href="https://other.example/x?q=1&amp;r=2">two</a>
<a rel="nofollow ugc" href="/paid">paid</a>
<a href="javascript:void(0)">js</a><a href="mailto:a@b.org">mail</a><a href="#frag">f</a>
<a href="  /spaced\n ">sp</a><a>no href</a>
<area href="map.html"><frame src="frame.html"><iframe src="//cdn.example/i"></iframe>
<a href="page1.html">again</a><a href="http://[bad">bad</a>
</body></html>"""


def test_parse_page_meta_and_links() -> None:
    page = parse_page(PAGE, "https://example.org/dir/index.html", BOT)
    assert page.robots == RobotsDirectives(noarchive=True, max_snippet=30)
    assert page.base_url == "https://example.org/section/"
    assert [link.url for link in page.links] == [
        "https://example.org/section/style.css",
        "https://example.org/section/page1.html",
        "https://other.example/x?q=1&r=2",
        "https://example.org/paid",
        "https://example.org/spaced",
        "https://example.org/section/map.html",
        "https://example.org/section/frame.html",
        "https://cdn.example/i",
    ]
    assert [link.tag for link in page.links][:2] == ["link", "a"]
    assert len(page.followable_links()) == 8
    followed = [link.url for link in page.followable_links(honour_rel_nofollow=True)]
    assert "https://example.org/paid" not in followed and len(followed) == 7


def test_page_level_nofollow_from_meta_or_header() -> None:
    html = '<meta name="robots" content="nofollow"><a href="/a">a</a>'
    page = parse_page(html, "http://example.org/", BOT)
    assert page.robots.nofollow and page.links and page.followable_links() == ()
    plain = '<a href="/a">a</a>'
    assert parse_page(plain, "http://example.org/", BOT).followable_links()
    by_header = parse_page(plain, "http://example.org/", BOT, ["examplebot: nofollow"])
    assert by_header.followable_links() == ()
    other = parse_page(plain, "http://example.org/", BOT, ["otherbot: nofollow"])
    assert other.followable_links()
    meta_for_us = '<meta name="EXAMPLEBOT" content="none"><a href="/a">a</a>'
    assert parse_page(meta_for_us, "http://example.org/", BOT).robots.noindex
    twice = '<meta name="robots" content="noindex" name="otherbot"><a href="/a">a</a>'
    assert parse_page(twice, "http://example.org/", BOT).robots.noindex  # first name counts


def test_malformed_html_does_not_raise() -> None:
    junk = "<a href='/x'<<meta name=robots content=noindex><a href=/y>" + "<div" * 1000
    page = parse_page(junk, "http://example.org/", BOT)
    assert "http://example.org/y" in [link.url for link in page.links]


def test_resolve_link() -> None:
    assert resolve_link("http://a.org/b/c", "../d") == "http://a.org/d"
    assert resolve_link("http://a.org/b/c", "?q") == "http://a.org/b/c?q"
    assert resolve_link("http://a.org/", "HTTP://B.org") == "http://B.org/"
    for skipped in ("javascript:alert(1)", "mailto:x@y.org", "data:text/html,hi", "tel:1", ""):
        assert resolve_link("http://a.org/", skipped) is None
