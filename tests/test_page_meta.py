"""Meta robots, X-Robots-Tag and link extraction (pure)."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from support.bombs import hostile_pages

from robotkit.page.directives import (
    RobotsDirectives,
    parse_date,
    parse_directives,
    parse_x_robots_tag,
)
from robotkit.page.markup import MAX_DEPTH, MAX_NODES, bounded
from robotkit.page.meta import MAX_LINKS, link_header_canonical, parse_page, resolve_link

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
<area href="map.html"><iframe src="//cdn.example/i"></iframe>
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
        "https://cdn.example/i",
    ]
    assert [link.tag for link in page.links][:2] == ["link", "a"]
    assert len(page.followable_links()) == 7
    followed = [link.url for link in page.followable_links(honour_rel_nofollow=True)]
    assert "https://example.org/paid" not in followed and len(followed) == 6


def test_frames_come_from_a_frameset() -> None:
    """HTML5 ignores a ``<frame>`` outside ``<frameset>`` (the stdlib parser, which
    builds no tree, used to report one in ``<body>``); in a frameset it counts."""
    frames = '<html><frameset><frame src="a.html"><frame src="/b.html"></frameset></html>'
    page = parse_page(frames, "http://e.org/d/", BOT)
    assert [(link.url, link.tag) for link in page.links] == [
        ("http://e.org/d/a.html", "frame"),
        ("http://e.org/b.html", "frame"),
    ]
    stray = parse_page('<body><frame src="x.html"><a href="/a">a</a>', "http://e.org/", BOT)
    assert [link.url for link in stray.links] == ["http://e.org/a"]


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


def test_html5_answers_where_html_parser_differed() -> None:
    """Where the WHATWG parsing algorithm and ``html.parser`` disagree, the HTML5
    answer is what browsers (and so site authors) see."""
    # A named reference without ";" followed by "=" stays as written in an
    # attribute (html.parser turned "&copy=2" into "©=2").
    page = parse_page('<a href="/a?x=1&copy=2&amp;y=3">a</a>', "http://e.org/", BOT)
    assert [link.url for link in page.links] == ["http://e.org/a?x=1&copy=2&y=3"]
    # <base> late in the body still sets the document's base URL: the first one
    # with an href counts wherever it is.
    late = parse_page(
        '<a href="x">x</a><p><base href="/b/"><base href="/c/">', "http://e.org/", BOT
    )
    assert late.base_url == "http://e.org/b/" and late.links[0].url == "http://e.org/b/x"
    # An unclosed <a> is closed by the next one; a link inside a comment or a
    # script is no link; an unclosed tag at the end of the input is dropped.
    tricky = '<a href="/1">one<a href="/2">two<!-- <a href="/c"> --><script>"<a href=/s>"</script>'
    links = [link.url for link in parse_page(tricky + '<a href="/end"', "http://e.org/", BOT).links]
    assert links == ["http://e.org/1", "http://e.org/2"]


def test_title_and_canonical_from_html() -> None:
    html = """<html><head><title>  A \n  page &amp; more </title>
    <base href="/dir/"><link rel="Canonical" href="main.html"><link rel=canonical href=/other>
    </head><body><a rel="canonical" href="/not-this">x</a><title>second</title></body>"""
    page = parse_page(html, "http://e.org/x?session=1", BOT)
    assert page.title == "A page & more"
    assert page.canonical == "http://e.org/dir/main.html"  # the first, against <base>
    bare = parse_page("<p>no head", "http://e.org/", BOT)
    assert bare.title is None and bare.canonical is None


def test_canonical_link_header_wins_over_the_markup() -> None:
    html = '<link rel="canonical" href="/from-html">'
    header = ['</style.css>; rel=preload, <https://e.org/from-header>; rel="canonical"']
    page = parse_page(html, "https://e.org/a", BOT, link_header=header)
    assert page.canonical == "https://e.org/from-header"
    assert parse_page(html, "https://e.org/a", BOT).canonical == "https://e.org/from-html"


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        (['<../b>; rel="canonical"'], "http://e.org/b"),
        (["<http://e.org/c>;rel=canonical;title=x"], "http://e.org/c"),
        (['<http://e.org/c>; rel="alternate canonical"'], "http://e.org/c"),
        (['<http://e.org/c>; anchor="#x"; rel="canonical"'], None),  # about another resource
        (['<http://e.org/c>; rel="next"; rel="canonical"'], None),  # only the first rel counts
        (
            ['<mailto:a@e.org>; rel="canonical"', '<http://e.org/d>; rel="canonical"'],
            "http://e.org/d",
        ),
        (["garbage", "<unterminated; rel=canonical", ""], None),
    ],
)
def test_link_header_canonical(values: list[str], expected: str | None) -> None:
    assert link_header_canonical(values, "http://e.org/a/x") == expected


# Pages that made parsers quadratic, 2 MiB each (and the 64 KiB page that took
# html.parser 25 s): each must be parsed well within the time limit; the old
# parser timed out on every one.
HOSTILE = {"a-space-64k": "<a " * 21845, **hostile_pages()}
NO_LINKS = ("a-space-64k", "a-space", "void-tags", "comments", "nul", "words")


@pytest.mark.timeout(20)
@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_markup_is_parsed_in_linear_time(name: str) -> None:
    links = [link.url for link in parse_page(HOSTILE[name], "http://e.org/", BOT).links]
    if name == "links":
        assert len(links) == MAX_LINKS
    elif name == "attributes":
        assert links == ["http://e.org/many"]
    else:
        assert links == ([] if name in NO_LINKS else ["http://e.org/deep"])


def test_bounded_markup_keeps_real_pages_and_links_deep_down() -> None:
    """Real pages pass unchanged; in a hostile one, what is dropped is ordinary
    nesting and, past the node budget, the rest of the tags."""
    page = "<html><head><title>t</title></head><body>" + "<div><p>x</p></div>" * 500
    assert bounded(page) == page
    deep = bounded("<div>" * 300 + '<a href="/x">x</a>' + "</div>" * 300)
    assert deep.count("<div>") == MAX_DEPTH and '<a href="/x">' in deep
    many = bounded("<br>" * (MAX_NODES + 10) + '<a href="/late">l</a>')
    assert many.count("<br>") == MAX_NODES and "/late" not in many
    assert bounded("a\0b") == "ab"


def test_links_per_page_are_capped() -> None:
    html = "".join(f'<a href="/p{i}">x</a>' for i in range(MAX_LINKS + 5))
    links = parse_page(html, "http://e.org/", BOT).links
    assert len(links) == MAX_LINKS and links[-1].url == f"http://e.org/p{MAX_LINKS - 1}"


def test_same_page_fragments_count_toward_the_cap_though_they_are_no_links() -> None:
    html = '<a href="#top">t</a>' * (MAX_LINKS - 2) + '<a href=" #x">x</a><a href="/a">a</a>'
    links = parse_page(html + '<a href="/late">l</a>', "http://e.org/", BOT).links
    assert [link.url for link in links] == ["http://e.org/a"]


def test_parse_page_with_text_gives_the_visible_words_of_the_same_tree() -> None:
    """One HTML5 parse serves links, meta robots and the words the content rules
    fingerprint; the words are what a reader sees (no script, style or comment)."""
    from robotkit.content.fingerprints import visible_words

    html = (
        "<html><head><title>Caf&eacute; MENU</title><style>p{x:1}</style></head><body>"
        "<script>var hidden = 1;</script><!-- not this --><p>Open 9&ndash;17, "
        "<a href='/a'>Daily</a> specials</p><noscript>enable js</noscript></body></html>"
    )
    page = parse_page(html, "http://x.example/", "examplebot", with_text=True)
    assert page.text is not None
    assert page.text.words == ["café", "menu", "open", "9", "17", "daily", "specials"]
    assert page.text.words == visible_words(html)
    assert page.text.title == "café menu"
    assert [link.url for link in page.links] == ["http://x.example/a"]
    assert parse_page(html, "http://x.example/", "examplebot").text is None


def test_a_pages_shortlink_is_the_page_not_a_link_to_follow() -> None:
    """``<link rel="shortlink">`` (WordPress ``/?p=12``, Drupal ``/node/12``) names a
    shorter URL of the page itself: read as such, and not among its links."""
    html = (
        '<html><head><link rel="shortlink" href="/node/12">'
        '<link rel="canonical" href="/news/harbour"></head>'
        '<body><a href="/node/13">other</a></body></html>'
    )
    page = parse_page(html, "http://e.org/news/harbour", BOT)
    assert page.shortlink == "http://e.org/node/12"
    assert [link.url for link in page.links] == [
        "http://e.org/news/harbour",
        "http://e.org/node/13",
    ]
    assert parse_page("<a href='/x'>x</a>", "http://e.org/", BOT).shortlink is None
