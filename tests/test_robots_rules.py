"""robots.txt rules: verdicts, their explanations, and what protego leaves to us."""

from __future__ import annotations

import pytest
from protego import Protego

import robotkit.robots
from robotkit.robots import (
    MAX_ROBOTS_BYTES,
    GroupRules,
    RobotsRules,
    RuleMatch,
    RuleRef,
    decode_body,
)
from robotkit.robots.patterns import canonical_path, canonical_pattern, pattern_matches

EXAMPLE = b"""# example.org robots.txt
User-agent: *
Disallow: /private/
Allow: /private/press/   # the press kit is public
Disallow: /*.pdf$
Crawl-delay: 4

User-agent: FooBot
Disallow: /
"""


def rules_of(text: str) -> RobotsRules:
    return RobotsRules.parse(text.encode())


# --- explanations ----------------------------------------------------------------


def test_a_verdict_names_the_deciding_line_as_written() -> None:
    rules = RobotsRules.parse(EXAMPLE)
    assert rules.match("https://example.org/private/cv.html", "ExampleBot") == RuleMatch(
        False, "*", RuleRef(3, "Disallow: /private/")
    )
    press = rules.match("https://example.org/private/press/kit.zip", "ExampleBot")
    assert press == RuleMatch(
        True, "*", RuleRef(4, "Allow: /private/press/   # the press kit is public")
    )


def test_an_allowed_url_that_no_rule_matches_has_no_rule() -> None:
    rules = RobotsRules.parse(EXAMPLE)
    assert rules.match("https://example.org/about", "ExampleBot") == RuleMatch(True, "*", None)


def test_line_numbers_count_every_line_end_kind() -> None:
    """CRLF, a lone CR and LF each end one line (RFC 9309 section 2.2)."""
    body = b"User-agent: *\r\n\r\nDisallow: /a\rDisallow: /b\nDisallow: /c"
    rules = RobotsRules.parse(body)
    assert rules.match("/a", "x").rule == RuleRef(3, "Disallow: /a")
    assert rules.match("/b", "x").rule == RuleRef(4, "Disallow: /b")
    assert rules.match("/c", "x").rule == RuleRef(5, "Disallow: /c")


def test_a_form_feed_does_not_end_a_line() -> None:
    """protego's str.splitlines() would split here; the line numbers of an editor
    (and RFC 9309) do not. A deliberate difference."""
    body = b"User-agent: *\nDisallow: /a\x0cb\nDisallow: /c\n"
    rules = RobotsRules.parse(body)
    assert rules.match("/c", "x").rule == RuleRef(3, "Disallow: /c")
    assert rules.match("/a%0Cb", "x").rule == RuleRef(2, "Disallow: /a\x0cb")
    assert rules.match("/a", "x").allowed
    assert not Protego.parse(body.decode()).can_fetch("/a", "x")  # protego: line "/a"


def test_merged_groups_keep_each_line_number() -> None:
    rules = rules_of(
        "User-agent: foo\nDisallow: /one\n\nUser-agent: *\nDisallow: /\n\n"
        "User-agent: FOO\nDisallow: /two\n"
    )
    assert rules.match("/one", "foo").rule == RuleRef(2, "Disallow: /one")
    assert rules.match("/two", "foo").rule == RuleRef(8, "Disallow: /two")
    assert rules.match("/three", "foo") == RuleMatch(True, "foo", None)


def test_one_group_for_several_agents() -> None:
    rules = rules_of("User-agent: a\nUser-agent: b\nDisallow: /x\n")
    assert rules.match("/x", "a") == RuleMatch(False, "a", RuleRef(3, "Disallow: /x"))
    assert rules.match("/x", "b") == RuleMatch(False, "b", RuleRef(3, "Disallow: /x"))
    assert rules.match("/x", "c") == RuleMatch(True, None, None)


# --- precedence: RFC 9309 section 2.2.2 -----------------------------------------------


def test_the_longest_match_decides() -> None:
    rules = rules_of("User-agent: *\nAllow: /a\nDisallow: /a/b\nAllow: /a/b/c\n")
    assert rules.match("/a/x", "r").rule == RuleRef(2, "Allow: /a")
    assert rules.match("/a/b/x", "r") == RuleMatch(False, "*", RuleRef(3, "Disallow: /a/b"))
    assert rules.match("/a/b/c/d", "r") == RuleMatch(True, "*", RuleRef(4, "Allow: /a/b/c"))


def test_allow_wins_a_tie_and_is_named() -> None:
    rules = rules_of("User-agent: *\nDisallow: /page\nAllow: /page\n")
    assert rules.match("/page", "r") == RuleMatch(True, "*", RuleRef(3, "Allow: /page"))
    wild = rules_of("User-agent: *\nDisallow: /*.x\nAllow: /a*x\n")  # both 4 octets
    assert wild.match("/a.x", "r") == RuleMatch(True, "*", RuleRef(3, "Allow: /a*x"))


def test_the_first_of_equal_rules_is_named() -> None:
    rules = rules_of("User-agent: *\nDisallow: /a*\nDisallow: /*b\nDisallow: /ab\n")
    assert rules.match("/ab", "r").rule == RuleRef(2, "Disallow: /a*")


def test_a_longer_wildcard_beats_a_shorter_prefix() -> None:
    rules = rules_of("User-agent: *\nAllow: /shop\nDisallow: /*?sort=\n")
    assert rules.match("/shop?sort=asc", "r").rule == RuleRef(3, "Disallow: /*?sort=")
    assert rules.match("/shop?page=2", "r").rule == RuleRef(2, "Allow: /shop")


# --- special characters: RFC 9309 section 2.2.3 ---------------------------------------


@pytest.mark.parametrize(
    ("pattern", "path", "matches"),
    [
        ("/*.pdf$", "/a/b.pdf", True),
        ("/*.pdf$", "/a/b.pdf?x=1", False),
        ("/*.pdf$", "/a/b.pdfx", False),
        ("/*.pdf", "/a/b.pdfx", True),
        ("/a$", "/a", True),
        ("/a$", "/ab", False),
        ("/a*b*c", "/a-c-b-c", True),
        ("/a*b*c", "/a-c-b", False),
        ("/a**b", "/a-b", True),
        ("*", "/anything", True),
        ("/x*$", "/x", True),
        ("/a$b", "/a$b", True),  # a '$' inside is a literal dollar sign
        ("/a$b", "/a", False),
        ("/*a*a*a*a*a*b", "/" + "a" * 200, False),
        ("/*a*a*a*a*a*b", "/" + "a" * 200 + "b", True),
    ],
)
def test_wildcards_and_anchors(pattern: str, path: str, matches: bool) -> None:
    rules = rules_of(f"User-agent: *\nDisallow: {pattern}\n")
    got = rules.match(path, "r")
    assert got.allowed is not matches
    assert (got.rule is not None) is matches
    assert pattern_matches(canonical_pattern(pattern), canonical_path(path)) is matches


def test_percent_encoding_is_normalized_on_both_sides() -> None:
    """RFC 9309 section 2.2.2: compare octets; unreserved escapes are decoded,
    non-ASCII is percent-encoded as UTF-8."""
    rules = rules_of("User-agent: *\nDisallow: /%7Euser\nDisallow: /café\nDisallow: /a%2Fb\n")
    assert rules.match("/~user/x", "r").rule == RuleRef(2, "Disallow: /%7Euser")
    assert rules.match("/caf%C3%A9/menu", "r").rule == RuleRef(3, "Disallow: /café")
    assert rules.match("/a%2fb", "r").rule == RuleRef(4, "Disallow: /a%2Fb")
    assert rules.match("/a/b", "r").allowed  # an escaped '/' is not a '/'


def test_allowing_index_html_allows_its_directory() -> None:
    """protego and Google treat ``Allow: /d/index.html`` as also allowing ``/d/``."""
    rules = rules_of("User-agent: *\nDisallow: /d/\nAllow: /d/index.html\n")
    assert rules.match("/d/", "r") == RuleMatch(True, "*", RuleRef(3, "Allow: /d/index.html"))
    assert not rules.match("/d/other", "r").allowed


def test_the_fragment_is_ignored_and_the_query_matched() -> None:
    rules = rules_of("User-agent: *\nDisallow: /p?secret\n")
    assert not rules.match("https://e.org/p?secret=1#top", "r").allowed
    assert rules.match("https://e.org/p#?secret", "r").allowed
    assert rules.match("https://e.org/p", "r").allowed


@pytest.mark.parametrize(
    "url", ["https://e.org/a/b?c=d", "/a/b?c=d", "https://e.org:8080/a/b?c=d", "a/b?c=d"]
)
def test_absolute_urls_and_paths_are_the_same(url: str) -> None:
    rules = rules_of("User-agent: *\nDisallow: /a/b?c\n")
    assert rules.match(url, "r") == RuleMatch(False, "*", RuleRef(2, "Disallow: /a/b?c"))


def test_a_path_starting_with_two_slashes_is_a_path() -> None:
    rules = rules_of("User-agent: *\nDisallow: //x\n")
    assert not rules.match("https://e.org//x/y", "r").allowed
    assert not rules.match("//x/y", "r").allowed


# --- robots.txt itself: RFC 9309 section 2.2.2 ----------------------------------------


@pytest.mark.parametrize("url", ["/robots.txt", "https://e.org/robots.txt", "/robots.txt?v=2"])
def test_robots_txt_is_always_allowed(url: str) -> None:
    rules = rules_of("User-agent: *\nDisallow: /\nDisallow: /robots.txt\n")
    assert rules.match(url, "r") == RuleMatch(True, None, None)


def test_only_robots_txt_itself_is_exempt() -> None:
    rules = rules_of("User-agent: *\nDisallow: /\n")
    assert not rules.match("/robots.txt.bak", "r").allowed
    assert not rules.match("/robots.txt/x", "r").allowed
    assert not rules.match("/x/robots.txt", "r").allowed


# --- which group applies: RFC 9309 section 2.2.1 --------------------------------------


def test_user_agent_value_is_cut_at_its_first_space() -> None:
    """``User-agent: Foo Bar`` names Foo, as Google reads it; protego would need
    the robot to be called "foo bar"."""
    text = "User-agent: Foo Bar\nDisallow: /foo-only\n\nUser-agent: *\nDisallow: /all\n"
    rules = rules_of(text)
    assert rules.match("/foo-only", "Foo") == RuleMatch(
        False, "foo", RuleRef(2, "Disallow: /foo-only")
    )
    assert rules.match("/all", "Foo").allowed  # Foo's own group replaces '*'
    assert rules.match("/foo-only", "Bar").allowed  # Bar falls to '*'
    assert not rules.match("/all", "Bar").allowed
    assert Protego.parse(text).can_fetch("/foo-only", "Foo")  # protego misses it


def test_user_agent_value_is_cut_at_a_slash() -> None:
    rules = rules_of("User-agent: FooBot/2.1\nDisallow: /\n")
    assert not rules.match("/x", "FooBot").allowed


def test_product_tokens_match_case_insensitively() -> None:
    rules = rules_of("User-agent: FooBot\nDisallow: /\n")
    for token in ("FooBot", "foobot", "FOOBOT", "FooBot/1.0 (+https://foo.example/bot)"):
        assert rules.match("/x", token) == RuleMatch(False, "foobot", RuleRef(2, "Disallow: /"))


def test_a_group_applies_to_its_exact_token_only() -> None:
    """Google's reading: "Foo" is not "FooBot" nor "Foo-News"; protego matches a
    group whose name starts the token. A deliberate difference."""
    text = "User-agent: Foo\nDisallow: /\n\nUser-agent: *\nAllow: /\n"
    rules = rules_of(text)
    for token in ("FooBot", "Foo-News", "MyFoo"):
        assert rules.match("/x", token) == RuleMatch(True, "*", RuleRef(5, "Allow: /"))
    assert not Protego.parse(text).can_fetch("/x", "Foo-News")  # protego: Foo's group


def test_no_group_for_the_robot_and_no_star_group_allows_all() -> None:
    rules = rules_of("User-agent: OtherBot\nDisallow: /\n")
    assert rules.match("/x", "MyBot") == RuleMatch(True, None, None)


def test_an_asterisk_in_a_name_is_dropped() -> None:
    rules = rules_of("User-agent: FooBot*\nDisallow: /\n")
    assert not rules.match("/x", "FooBot").allowed


def test_rules_before_any_user_agent_apply_to_nobody() -> None:
    rules = rules_of("Disallow: /x\nUser-agent: *\nDisallow: /y\n")
    assert rules.match("/x", "r").allowed
    assert not rules.match("/y", "r").allowed


def test_a_user_agent_after_rules_starts_a_new_group() -> None:
    rules = rules_of("User-agent: a\nDisallow: /a\nUser-agent: b\nDisallow: /b\n")
    assert rules.match("/b", "a").allowed
    assert not rules.match("/b", "b").allowed
    assert rules.match("/a", "b").allowed


def test_lenient_directives_as_protego_reads_them() -> None:
    """No colon, a space in the field name, the common misspellings of Disallow."""
    rules = rules_of("user agent *\nDisallow /one\nDissallow: /two\nDISALLOW : /three\n")
    assert rules.match("/one", "r").rule == RuleRef(2, "Disallow /one")
    assert rules.match("/two", "r").rule == RuleRef(3, "Dissallow: /two")
    assert rules.match("/three", "r").rule == RuleRef(4, "DISALLOW : /three")


def test_an_empty_disallow_allows_everything() -> None:
    rules = rules_of("User-agent: *\nDisallow:\n")
    assert rules.match("/x", "r") == RuleMatch(True, "*", None)


def test_groups_lists_merged_names_in_file_order() -> None:
    rules = rules_of("User-agent: B\nUser-agent: a\nDisallow: /\nUser-agent: b\nAllow: /\n")
    assert rules.groups == ("b", "a")


# --- crawl-delay, request-rate, sitemaps ----------------------------------------------


def test_crawl_delay_of_the_group_that_applies() -> None:
    rules = rules_of(
        "User-agent: *\nCrawl-delay: 2.5\n\nUser-agent: slow\nCrawl-delay: 10\n\n"
        "User-agent: none\nDisallow: /\n"
    )
    assert rules.crawl_delay("r") == 2.5
    assert rules.crawl_delay("Slow") == 10.0
    assert rules.crawl_delay("none") is None  # its own group says nothing
    assert RobotsRules.allow_all().crawl_delay("r") is None


@pytest.mark.parametrize("value", ["-1", "soon", "inf", "nan", ""])
def test_a_malformed_crawl_delay_is_ignored(value: str) -> None:
    assert rules_of(f"User-agent: *\nCrawl-delay: {value}\n").crawl_delay("r") is None


@pytest.mark.parametrize(
    ("value", "seconds"),
    [("1/10", 10.0), ("1/10s", 10.0), ("3/1m", 20.0), ("2/1h 0800-1700", 1800.0)],
)
def test_request_rate_is_seconds_per_request(value: str, seconds: float) -> None:
    rules = rules_of(f"User-agent: *\nRequest-rate: {value}\n")
    assert rules.request_rate("r") == seconds


@pytest.mark.parametrize("value", ["0/10", "1/0", "fast", ""])
def test_a_malformed_request_rate_is_ignored(value: str) -> None:
    assert rules_of(f"User-agent: *\nRequest-rate: {value}\n").request_rate("r") is None


def test_a_request_rate_too_large_for_a_float_is_ignored() -> None:
    rules = rules_of("User-agent: *\nRequest-rate: 1/" + "9" * 400 + "\nDisallow: /x\n")
    assert rules.request_rate("r") is None
    assert not rules.match("/x", "r").allowed


def test_for_robot_is_the_group_that_applies_with_its_pacing() -> None:
    rules = RobotsRules.parse(EXAMPLE)
    example = rules.for_robot("ExampleBot/2.0")
    assert isinstance(example, GroupRules) and not hasattr(robotkit.robots, "RobotRules")
    assert (example.crawl_delay, example.request_rate) == (4.0, None)
    assert example.match("/private/cv.html?x=1#top") == rules.match(
        "https://example.org/private/cv.html?x=1", "ExampleBot"
    )
    assert example.match("/private/press/kit.zip").rule == RuleRef(
        4, "Allow: /private/press/   # the press kit is public"
    )
    assert not rules.for_robot("foobot").match("/anything").allowed
    assert rules.for_robot("foobot").crawl_delay is None
    nobody = RobotsRules.parse(b"User-agent: FooBot\nDisallow: /\n").for_robot("other")
    assert nobody.match("/x") == RuleMatch(True, None, None) and nobody.crawl_delay is None


@pytest.mark.parametrize("name", robotkit.robots.__all__)
def test_the_package_exports_resolve(name: str) -> None:
    assert getattr(robotkit.robots, name) is not None


def test_sitemaps_are_listed_whatever_the_group() -> None:
    rules = rules_of(
        "Sitemap: https://e.org/a.xml\nUser-agent: x\nDisallow: /\n"
        "Sitemap: https://e.org/b.xml # second\n"
    )
    assert rules.sitemaps == ("https://e.org/a.xml", "https://e.org/b.xml")


def test_allow_all_is_an_empty_file() -> None:
    rules = RobotsRules.allow_all()
    assert rules.match("/anything", "r") == RuleMatch(True, None, None)
    assert (rules.sitemaps, rules.truncated, rules.groups) == ((), False, ())
    assert rules.request_rate("r") is None


# --- the body: BOM, encoding, size ----------------------------------------------------


def test_a_utf8_bom_is_stripped() -> None:
    body = b"\xef\xbb\xbfUser-agent: *\nDisallow: /x\n"
    rules = RobotsRules.parse(body)
    assert rules.match("/x", "r") == RuleMatch(False, "*", RuleRef(2, "Disallow: /x"))
    # Without the strip, the first line is no User-agent line and nothing applies.
    assert Protego.parse(body.decode("utf-8")).can_fetch("/x", "r")


def test_invalid_utf8_is_decoded_leniently() -> None:
    body = b"User-agent: *\n# caf\xe9 \xff\xfe\nDisallow: /caf\xe9\nDisallow: /ok\n"
    rules = RobotsRules.parse(body)
    assert rules.match("/ok", "r").rule == RuleRef(4, "Disallow: /ok")
    assert rules.match("/caf%EF%BF%BD", "r").rule == RuleRef(3, "Disallow: /caf\ufffd")
    assert decode_body(body) == (body.decode("utf-8", "replace"), False)


def test_text_and_bytes_give_the_same_rules() -> None:
    text = EXAMPLE.decode()
    for url in ("/private/x", "/private/press/y", "/a.pdf", "/"):
        assert rules_of(text).match(url, "r") == RobotsRules.parse(EXAMPLE).match(url, "r")


def test_a_600_kib_file_is_cut_at_500_kib() -> None:
    """RFC 9309 section 2.5: the first 500 KiB are parsed, cut at the last full
    line; a rule past the limit, or straddling it, does not apply."""
    head = b"User-agent: *\nDisallow: /early\n"
    filler = b"# " + b"x" * 97 + b"\n"  # 100-byte comment lines
    body = head + filler * ((MAX_ROBOTS_BYTES - len(head)) // 100)
    straddle = b"Disallow: /straddle-long-path\n"
    pad = MAX_ROBOTS_BYTES - len(body) - 10  # the limit falls inside the next line
    body += b"#" * (pad - 1) + b"\n" + straddle
    body += b"Disallow: /late\n" + filler * 1100
    assert len(body) > 600 * 1024
    rules = RobotsRules.parse(body)
    assert rules.truncated
    assert not rules.match("/early", "r").allowed
    assert rules.match("/late", "r").allowed
    assert rules.match("/straddle-long-path", "r").allowed
    assert rules.match("/straddle", "r").allowed  # no half-read rule
    assert not Protego.parse(body.decode()).can_fetch("/late", "r")  # protego reads it all


def test_decode_body_limits() -> None:
    exact = b"a\n" * (MAX_ROBOTS_BYTES // 2)
    assert decode_body(exact) == (exact.decode(), False)
    text, truncated = decode_body(exact + b"b")
    assert truncated and text == exact.decode()
    assert decode_body(b"x" * (MAX_ROBOTS_BYTES + 1)) == ("", True)  # no full line
    assert decode_body(b"\xef\xbb\xbf") == ("", False)
    assert decode_body(b"") == ("", False)
    assert decode_body(bytearray(b"\xef\xbb\xbfa\n")) == ("a\n", False)
    assert decode_body("caf\u00e9\ud800\n") == ("caf\u00e9\ufffd\ufffd\ufffd\n", False)
