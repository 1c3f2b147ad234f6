"""URL-shape trap rules: trap URLs and their legitimate look-alikes side by side."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robotkit.base.reasons import Reason
from robotkit.triage.guard import (
    Blacklist,
    BlacklistEntry,
    BlacklistKind,
    BlacklistSyntaxError,
    Guard,
    GuardConfig,
    Rule,
    WorkCounter,
    find_repeated_run,
    path_segments,
)
from robotkit.url.normalization import normalize

# (url, expected reason, expected rule) for traps; look-alikes must be allowed.
TRAPS = [
    ("http://ex.com/a/a/a/", Reason.REPEATED_PATH, Rule.REPEATED_PATH),
    ("http://ex.com/a/a/a", Reason.REPEATED_PATH, Rule.REPEATED_PATH),
    ("http://ex.com/x/a/a/a/y", Reason.REPEATED_PATH, Rule.REPEATED_PATH),
    ("http://ex.com/a/b/a/b/a/b", Reason.REPEATED_PATH, Rule.REPEATED_PATH),
    ("http://ex.com/a/b/a/b/a/b/", Reason.REPEATED_PATH, Rule.REPEATED_PATH),
    ("http://ex.com/a/b/c/a/b/c/a/b/c/x", Reason.REPEATED_PATH, Rule.REPEATED_PATH),
    ("http://ex.com/p/q/r/s/p/q/r/s/p/q/r/s", Reason.REPEATED_PATH, Rule.REPEATED_PATH),
    ("http://ex.com/cal/2024/cal/2024/cal/2024/", Reason.REPEATED_PATH, Rule.REPEATED_PATH),
    ("http://ex.com/a//a//a/", Reason.REPEATED_PATH, Rule.REPEATED_PATH),
    ("http://ex.com/ex.com/ex.com/", Reason.REPEATED_PATH, Rule.HOST_IN_PATH),
    ("http://ex.com/x/ex.com/y/ex.com/z", Reason.REPEATED_PATH, Rule.HOST_IN_PATH),
    ("http://www.ex.com/d/ex.com/d/www.ex.com/", Reason.REPEATED_PATH, Rule.HOST_IN_PATH),
    ("http://EX.com/d/Ex.Com/d/ex.com./", Reason.REPEATED_PATH, Rule.HOST_IN_PATH),
    ("http://ex.com/" + "x" * 2100, Reason.URL_TOO_LONG, Rule.URL_TOO_LONG),
    (
        "http://ex.com/" + "/".join(f"d{i}" for i in range(21)),
        Reason.PATH_TOO_DEEP,
        Rule.PATH_TOO_DEEP,
    ),
    (
        "http://ex.com/s?" + "&".join(f"f{i}=1" for i in range(33)),
        Reason.TOO_MANY_PARAMS,
        Rule.TOO_MANY_PARAMS,
    ),
    ("ftp://ex.com/a", Reason.UNSUPPORTED_SCHEME, Rule.URL_SYNTAX),
    ("mailto:someone@ex.com", Reason.UNSUPPORTED_SCHEME, Rule.URL_SYNTAX),
    ("/relative/path", Reason.INVALID_URL, Rule.URL_SYNTAX),
    ("http://[::1/", Reason.INVALID_URL, Rule.URL_SYNTAX),
    ("", Reason.INVALID_URL, Rule.URL_SYNTAX),
]

LOOK_ALIKES = [
    "http://ex.com/2024/01/01/post",
    "http://ex.com/docs/v1/docs/v2/",
    "http://ex.com/a/b/a/",
    "http://ex.com/1/1/",
    "http://ex.com/a/a/",
    "http://ex.com/a/a/b/a/a/",
    "http://ex.com/a/b/a/b/",
    "http://ex.com/a/b/c/a/b/c/",
    "http://ex.com/news/news/2024/news",
    "http://ex.com/tiles/0/0/0.png",
    "http://ex.com/a//b",
    "http://ex.com/worldclock////full.html",
    "http://ex.com/sites/ex.com/files/logo.png",
    "http://ex.com/whois/other.com/other.com",
    "http://ex.com/" + "x" * 2000,
    "http://ex.com/src/main/java/org/apache/commons/lang3/text/translate/Foo.java",
    "http://ex.com/" + "/".join(f"d{i}" for i in range(20)),
    "http://ex.com/s?" + "&".join(f"f{i}=1" for i in range(32)),
    # A faceted search ticking many values of a few array parameters: 79 parameters,
    # 8 distinct names, one finite page.
    "http://ex.com/find?"
    + "&".join(f"{name}[]=v{i}" for name in "abcdefg" for i in range(10))
    + "&"
    + "&".join(f"h[]=w{i}" for i in range(9)),
    "http://ex.com/2011/11/11/",
    "http://ex.com/docs/v1/docs/v2/docs/v3/",
    "http://ex.com/search?q=a+a+a+a&page=1&page=1",
    "https://ex.com:8443/",
    "http://ex.com",
]


@pytest.mark.parametrize(("url", "reason", "rule"), TRAPS)
def test_trap_urls_are_refused(url: str, reason: Reason, rule: Rule) -> None:
    verdict = Guard().check(url)
    assert (verdict.allowed, verdict.reason, verdict.rule) == (False, reason, rule)
    assert verdict.url == url
    assert verdict.detail


@pytest.mark.parametrize("url", LOOK_ALIKES)
def test_legitimate_look_alikes_pass(url: str) -> None:
    verdict = Guard().check(url)
    assert verdict.allowed, verdict
    assert (verdict.reason, verdict.rule, verdict.detail) == (Reason.ALLOWED, None, "")


def test_url_too_long_default_is_2083_characters_of_the_key() -> None:
    base = "http://ex.com/"
    at_limit = base + "x" * (2083 - len(base))
    assert len(at_limit) == 2083 and Guard().check(at_limit).allowed
    verdict = Guard().check(at_limit + "y")
    assert (verdict.reason, verdict.detail) == (Reason.URL_TOO_LONG, "2084 characters > 2083")


def test_fragment_repetition_is_a_trap_in_the_path_only() -> None:
    assert not Guard().check("http://ex.com/a/a/a#frag").allowed
    assert Guard().check("http://ex.com/p#a/a/a").allowed


@pytest.mark.parametrize(
    ("config", "url"),
    [
        (GuardConfig(min_path_repeats=None), "http://ex.com/a/a/a/"),
        (GuardConfig(min_path_repeats=4), "http://ex.com/a/a/a/"),
        (GuardConfig(max_host_in_path=None), "http://ex.com/ex.com/ex.com/"),
        (GuardConfig(max_host_in_path=2), "http://ex.com/ex.com/x/ex.com/"),
        (GuardConfig(max_url_length=None), "http://ex.com/" + "x" * 5000),
        (GuardConfig(max_path_depth=None), "http://ex.com/" + "/".join(map(str, range(40)))),
        (
            GuardConfig(max_query_params=None),
            "http://ex.com/?" + "&".join(f"p{i}=1" for i in range(40)),
        ),
    ],
)
def test_each_rule_can_be_disabled_or_relaxed(config: GuardConfig, url: str) -> None:
    assert not Guard().check(url).allowed
    assert Guard(config).check(url).allowed


@pytest.mark.parametrize(
    ("config", "url", "rule"),
    [
        (GuardConfig(max_path_depth=2), "http://ex.com/a/b/c", Rule.PATH_TOO_DEEP),
        (GuardConfig(min_path_repeats=2), "http://ex.com/1/1/", Rule.REPEATED_PATH),
        (GuardConfig(max_host_in_path=0), "http://ex.com/sites/ex.com/", Rule.HOST_IN_PATH),
        (GuardConfig(max_query_params=1), "http://ex.com/?a=1&b=2", Rule.TOO_MANY_PARAMS),
        (GuardConfig(max_url_length=20), "http://ex.com/abcdefghijk", Rule.URL_TOO_LONG),
    ],
)
def test_limits_can_be_tightened(config: GuardConfig, url: str, rule: Rule) -> None:
    assert Guard().check(url).allowed
    assert Guard(config).check(url).rule is rule


@pytest.mark.parametrize(
    "kwargs",
    [
        {"min_path_repeats": 1},
        {"max_path_depth": -1},
        {"auto_blacklist_after": 0},
        {"auto_blacklist_depth": -1},
        {"max_host_in_path": -1},
    ],
)
def test_nonsense_config_is_rejected(kwargs: dict[str, int]) -> None:
    with pytest.raises(ValueError):
        GuardConfig(**kwargs)


@pytest.mark.parametrize(
    ("path", "segments"),
    [
        ("", []),
        ("/", []),
        ("/a", ["a"]),
        ("/a/", ["a"]),
        ("/a//b/", ["a", "", "b"]),
        ("/a/b/c", ["a", "b", "c"]),
    ],
)
def test_path_segments(path: str, segments: list[str]) -> None:
    assert path_segments(path) == segments


# --------------------------------------------------------------------------------------
# Repeat detection: correct against a brute-force reference, and near-linear work.


def _reference(segments: list[str], repeats: int) -> bool:
    n = len(segments)
    for p in range(1, n // repeats + 1):
        for start in range(0, n - repeats * p + 1):
            unit = segments[start : start + p]
            if all(segments[start + k * p : start + (k + 1) * p] == unit for k in range(repeats)):
                return True
    return False


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["a", "b", "c"]), max_size=40), st.integers(2, 4))
def test_repeat_detection_matches_brute_force(segments: list[str], repeats: int) -> None:
    run = find_repeated_run(segments, repeats)
    assert (run is not None) == _reference(segments, repeats)
    if run is not None:
        p = len(run.unit)
        assert run.repeats >= repeats
        for k in range(run.repeats):
            assert tuple(segments[run.start + k * p : run.start + (k + 1) * p]) == run.unit


def _thue_morse(n: int) -> list[str]:
    """Overlap-free, so cube-free: the worst case, nothing is ever found early."""
    return [str(bin(i).count("1") % 2) for i in range(n)]


def _work(segments: list[str]) -> int:
    work = WorkCounter()
    find_repeated_run(segments, 3, work)
    return work.ops


def test_repeat_detection_work_is_near_linear_on_hostile_paths() -> None:
    for n in (512, 1024, 2048, 4096):
        assert find_repeated_run(_thue_morse(n), 3) is None
        bound = n * (math.log2(n) + 1) ** 2
        assert _work(_thue_morse(n)) <= bound
    # Doubling the input must not quadruple the work (quadratic would give 4x).
    assert _work(_thue_morse(4096)) < 3 * _work(_thue_morse(2048))


@settings(max_examples=50, deadline=None)
@given(st.lists(st.sampled_from(["a", "b", "ab", ""]), min_size=1, max_size=600))
def test_repeat_detection_work_bound_on_random_paths(segments: list[str]) -> None:
    n = len(segments)
    assert _work(segments) <= 4 * n * (math.log2(n) + 1) ** 2


@settings(max_examples=400, deadline=None)
@given(st.text())
def test_check_never_raises_on_arbitrary_text(text: str) -> None:
    verdict = Guard().check(text)
    assert verdict.allowed or verdict.reason is not Reason.ALLOWED


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab/%.:?&#;=x", max_size=300))
def test_check_never_raises_on_hostile_paths(path: str) -> None:
    guard = Guard(GuardConfig(auto_blacklist_after=3))
    guard.check("http://ex.com/" + path)
    guard.report_trap_signal("http://ex.com/" + path, Reason.REPEATED_PATH)


# --------------------------------------------------------------------------------------
# Blacklists

BLACKLIST_TEXT = """\
# trap regions found by hand
host: calendar.ex.com
domain: spam.example
prefix: HTTP://Ex.com/cgi-bin/
regex: [?&]sort=[^&]*&.*sort=
glob: *://*/print/*
prefix: http://ex.com/find?
"""


@pytest.mark.parametrize(
    ("url", "blocked", "source_line"),
    [
        ("http://calendar.ex.com/2024/01", True, 2),
        ("http://CALENDAR.ex.com./", True, 2),
        ("http://www.calendar.ex.com/", False, None),
        ("http://spam.example/", True, 3),
        ("http://a.b.spam.example/x", True, 3),
        ("http://notspam.example/", False, None),
        ("http://spam.example.org/", False, None),
        ("http://ex.com/cgi-bin/cal.pl?d=1", True, 4),
        ("http://ex.com/cgi-binary", False, None),
        ("https://ex.com/cgi-bin/x", False, None),
        ("http://shop.ex/list?sort=a&page=2&sort=b", True, 5),
        ("http://shop.ex/list?sort=a&page=2", False, None),
        ("http://ex.com/print/article-1", True, 6),
        ("http://ex.com/printer/article-1", False, None),
        ("http://ex.com/find?q=1", True, 7),
        ("http://ex.com/find", False, None),
        ("http://ex.com/finder?q=1", False, None),
        ("http://ex.com/go?to=http://ex.com/cgi-bin/x", False, None),
    ],
)
def test_blacklist_file_rules(url: str, blocked: bool, source_line: int | None) -> None:
    guard = Guard(blacklist=Blacklist.from_text(BLACKLIST_TEXT, "bl.txt"))
    verdict = guard.check(url)
    assert verdict.allowed is not blocked
    if blocked:
        assert (verdict.reason, verdict.rule) == (Reason.BLACKLISTED, Rule.BLACKLIST)
        assert f"bl.txt:{source_line}" in verdict.detail


def test_blacklist_from_file_and_code(tmp_path: Path) -> None:
    file = tmp_path / "blacklist.txt"
    file.write_text(BLACKLIST_TEXT, encoding="utf-8")
    blacklist = Blacklist.from_file(file)
    assert len(blacklist) == 6
    blacklist.add(BlacklistEntry(BlacklistKind.HOST, "bad.example"))
    verdict = Guard(blacklist=blacklist).check("http://bad.example/")
    assert verdict.reason is Reason.BLACKLISTED
    assert "host:bad.example (code)" in verdict.detail


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("host: ok.example\nbogus line\n", 2),
        ("url: http://x/\n", 1),
        ("regex: (unclosed\n", 1),
        ("# c\n\ndomain:   \n", 3),
    ],
)
def test_blacklist_syntax_errors_name_the_line(text: str, line: int) -> None:
    with pytest.raises(BlacklistSyntaxError) as info:
        Blacklist.from_text(text, "f.txt")
    assert info.value.line == line
    assert f"f.txt:{line}" in str(info.value)


# --------------------------------------------------------------------------------------
# Automatic blacklisting


def test_region_is_blacklisted_after_enough_distinct_signals() -> None:
    guard = Guard(GuardConfig(auto_blacklist_after=5))
    for i in range(4):
        assert (
            guard.report_trap_signal(f"http://x.ex/cal/{i}/page", Reason.DUPLICATE_CONTENT) is None
        )
        # The same URL again does not count twice.
        assert guard.report_trap_signal(f"http://x.ex/cal/{i}/page", Reason.SOFT_404) is None
    assert guard.signal_count("http://x.ex/cal/anything") == 4
    assert guard.check("http://x.ex/cal/new").allowed
    entry = guard.report_trap_signal("http://x.ex/cal/9/9/9/9", Reason.REPEATED_PATH)
    assert entry is not None
    assert entry.kind is BlacklistKind.AUTO
    assert entry.pattern == "http://x.ex/cal/"
    assert entry.source == (
        "auto: trap signals on 5 paths under http://x.ex/cal/"
        " (4 duplicate-content, 1 repeated-path)"
    )
    verdict = guard.check("http://x.ex/cal/2030/01")
    assert (verdict.allowed, verdict.reason, verdict.rule) == (
        False,
        Reason.BLACKLISTED,
        Rule.AUTO_BLACKLIST,
    )
    assert "trap signals on 5 paths under http://x.ex/cal/" in verdict.detail
    # Neighbours of the region are untouched.
    assert guard.check("http://x.ex/blog/post").allowed
    assert guard.check("http://x.ex/calendar/").allowed
    assert guard.check("http://y.ex/cal/2030/01").allowed
    # Signals after blacklisting add nothing.
    assert guard.report_trap_signal("http://x.ex/cal/more", Reason.SOFT_404) is None


def test_root_pages_count_against_the_host_region() -> None:
    guard = Guard(GuardConfig(auto_blacklist_after=3, auto_blacklist_depth=1))
    for i in range(3):
        entry = guard.report_trap_signal(f"http://x.ex/page-{i}", Reason.DUPLICATE_CONTENT)
    assert entry is not None and entry.pattern == "http://x.ex/"
    assert not guard.check("http://x.ex/about").allowed


def test_facets_of_one_page_blacklist_that_page_s_queries_not_the_host() -> None:
    """A faceted shop page at the root keeps yielding duplicates: its query space is
    blacklisted after 25 signals (the default), and the host's other pages, the page
    itself and a look-alike path stay allowed."""
    guard = Guard()
    entries = []
    for i in range(25):
        url = f"http://x.ex/shop?color={i}&size={i % 3}"
        entries.append(guard.report_trap_signal(url, Reason.DUPLICATE_CONTENT))
    assert entries[:-1] == [None] * 24
    entry = entries[-1]
    assert entry is not None and entry.pattern == "http://x.ex/shop?"
    assert entry.source == (
        "auto: trap signals on 25 URLs under http://x.ex/shop? (25 duplicate-content)"
    )
    verdict = guard.check("http://x.ex/shop?color=99")
    assert (verdict.reason, verdict.rule) == (Reason.BLACKLISTED, Rule.AUTO_BLACKLIST)
    for legit in (
        "http://x.ex/",
        "http://x.ex/shop",
        "http://x.ex/shopping?color=1",
        "http://x.ex/about",
        "http://x.ex/blog/post-1",
        "http://x.ex/search?q=shoes",
    ):
        assert guard.check(legit).allowed, legit
    # The facets counted as one path of the root directory, not 25.
    assert guard.signal_count("http://x.ex/about") == 1


def test_query_signals_in_a_directory_count_distinct_paths() -> None:
    guard = Guard(GuardConfig(auto_blacklist_after=3))
    for i in range(2):
        assert guard.report_trap_signal(f"http://x.ex/p/list?f={i}", Reason.SOFT_404) is None
    assert guard.signal_count("http://x.ex/p/list?f=9") == 2
    assert guard.signal_count("http://x.ex/p/other") == 1
    assert guard.report_trap_signal("http://x.ex/p/a?x=1", Reason.SOFT_404) is None
    entry = guard.report_trap_signal("http://x.ex/p/b", Reason.SOFT_404)
    assert entry is not None and entry.pattern == "http://x.ex/p/"
    assert not guard.check("http://x.ex/p/c").allowed
    assert guard.check("http://x.ex/q/c").allowed


def test_regions_of() -> None:
    guard = Guard()
    assert guard.regions_of(normalize("http://x.ex/a/b?q=1")) == (
        "http://x.ex/a/b?",
        "http://x.ex/a/",
    )
    assert guard.regions_of(normalize("http://x.ex/a/b")) == ("http://x.ex/a/",)
    assert guard.regions_of(normalize("http://x.ex/?q=1")) == ("http://x.ex/?", "http://x.ex/")


def test_auto_blacklist_depth_and_disable() -> None:
    deep = Guard(GuardConfig(auto_blacklist_after=2, auto_blacklist_depth=2))
    deep.report_trap_signal("http://x.ex/a/b/1", Reason.SOFT_404)
    entry = deep.report_trap_signal("http://x.ex/a/b/2", Reason.SOFT_404)
    assert entry is not None and entry.pattern == "http://x.ex/a/b/"
    assert deep.check("http://x.ex/a/c/1").allowed

    off = Guard(GuardConfig(auto_blacklist_after=None))
    for i in range(100):
        assert off.report_trap_signal(f"http://x.ex/a/{i}", Reason.SOFT_404) is None
    assert off.check("http://x.ex/a/0").allowed
    assert off.report_trap_signal("not a url", Reason.SOFT_404) is None
    assert Guard().report_trap_signal("not a url", Reason.SOFT_404) is None


# --------------------------------------------------------------------------------------
# The rules see the normalized key


def test_rules_look_through_dot_segments_and_percent_encoding() -> None:
    verdict = Guard().check("http://ex.com/a/./a/b/../%61/")
    assert verdict.rule is Rule.REPEATED_PATH
    assert verdict.url == "http://ex.com/a/./a/b/../%61/"


def test_tracking_parameters_do_not_count_against_limits() -> None:
    junk = "&".join(f"utm_x{i}=1" for i in range(40))
    assert Guard().check(f"http://ex.com/p?id=1&{junk}").allowed
    assert not Guard().check("http://ex.com/p?" + "&".join(f"k{i}=1" for i in range(40))).allowed


def test_check_accepts_a_normalized_url() -> None:
    norm = normalize("http://ex.com/x/x/x")
    verdict = Guard().check(norm)
    assert (verdict.url, verdict.rule) == ("http://ex.com/x/x/x", Rule.REPEATED_PATH)


def test_blacklist_hosts_are_normalized_like_urls() -> None:
    blacklist = Blacklist.from_text("host: Bücher.Example.\nprefix: HTTP://EX.com:80/a/./b/")
    guard = Guard(blacklist=blacklist)
    assert guard.check("http://xn--bcher-kva.example/").reason is Reason.BLACKLISTED
    assert guard.check("http://ex.com/a/b/c").reason is Reason.BLACKLISTED
    assert guard.check("http://ex.com/a/c").allowed


def test_auto_blacklist_region_keeps_the_port() -> None:
    guard = Guard(GuardConfig(auto_blacklist_after=1))
    entry = guard.report_trap_signal("http://ex.com:8080/cal/1", Reason.SOFT_404)
    assert entry is not None and entry.pattern == "http://ex.com:8080/cal/"
    assert guard.check("http://ex.com/cal/1").allowed
    assert not guard.check("http://ex.com:8080/cal/2").allowed
