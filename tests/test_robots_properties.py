"""Properties of the robots.txt rules: total on any input, equal to protego on
generated files, and linear on hostile ones.

Speed is asserted as growth, never as wall-clock: the same work is timed at size n
and 4n in this process (CPU time, best of several runs), and a linear algorithm
grows about 4 times where a quadratic one grows 16 times.
"""

from __future__ import annotations

import gc
import re
import time
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from protego import Protego

from robotkit.robots.patterns import (
    _PATH_KEEP,
    _normalize,
    canonical_path,
    canonical_pattern,
    pattern_matches,
)
from robotkit.robots.rules import RobotsRules, RuleMatch

# --- total: any input gets an answer ---------------------------------------------

LINES = st.sampled_from(
    [
        b"User-agent: *",
        b"User-agent: FooBot",
        b"User-agent: foobot extra",
        b"user agent bar/1.0",
        b"Disallow: /",
        b"Disallow: /a*b$",
        b"Allow: /a",
        b"Allow: /a/index.html",
        b"Dissallow /x",
        b"Disallow: /%",
        b"Disallow: /%zz%2f%C3%A9",
        b"Crawl-delay: 3",
        b"Crawl-delay: 1e999",
        b"Request-rate: 1/5m 0900-1700",
        b"Request-rate: 99999999999999999999/1",
        b"Sitemap: https://e.org/s.xml",
        b"# comment: Disallow: /",
        b"\xef\xbb\xbf",
        b"\xff\xfe\x00",
        b"\x0c\x85\xe2\x80\xa8",
    ]
)
BODIES = st.one_of(
    st.binary(max_size=600),
    st.lists(st.one_of(LINES, st.binary(max_size=12)), max_size=25).flatmap(
        lambda lines: st.sampled_from([b"\n", b"\r\n", b"\r", b"\x0b"]).map(
            lambda end: end.join(lines)
        )
    ),
)
URLS = st.one_of(
    st.text(max_size=40),
    st.text(alphabet="/a*b$?%=&#;:.~é\t\ud800", max_size=20).map(lambda s: "/" + s),
    st.sampled_from(["https://e.org/a?b#c", "http://[::1/x", "//a/b", "", "/robots.txt"]),
)
TOKENS = st.one_of(st.text(max_size=12), st.sampled_from(["FooBot", "foobot/2", "*", "bar"]))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(BODIES, URLS, TOKENS)
def test_any_body_url_and_token_get_an_answer(body: bytes, url: str, token: str) -> None:
    for rules in (RobotsRules.parse(body), RobotsRules.parse(body.decode("latin-1"))):
        got = rules.match(url, token)
        assert isinstance(got, RuleMatch)
        # A disallowed URL always names its line, and an explanation never
        # contradicts the verdict it explains.
        assert got.allowed or got.rule is not None
        if got.rule is not None:
            field = got.rule.text.split(":")[0].split()[0].lower()
            assert (field == "allow") is got.allowed
        delay = rules.crawl_delay(token)
        assert delay is None or delay >= 0
        rate = rules.request_rate(token)
        assert rate is None or rate > 0
        assert all(isinstance(s, str) for s in rules.sitemaps)


# --- equal to protego where no deliberate difference applies --------------------

NAMES = ("alpha", "beta")  # no name is part of another; "gamma" has no group
PATTERN_ALPHABET = "/ab*$%?=&.é~"
PATTERNS = st.text(alphabet=PATTERN_ALPHABET, min_size=1, max_size=8)
PATHS = st.text(alphabet="/ab$%?=&.é~2F", max_size=10).map(lambda s: "/" + s)
GROUP = st.tuples(
    st.lists(st.sampled_from(("*", *NAMES)), min_size=1, max_size=2),
    st.lists(st.tuples(st.booleans(), PATTERNS), max_size=6),
)


def write(groups: list[tuple[list[str], list[tuple[bool, str]]]]) -> str:
    lines = []
    for agents, rules in groups:
        lines += [f"User-agent: {agent}" for agent in agents]
        lines += [f"{'Allow' if allow else 'Disallow'}: {value}" for allow, value in rules]
        lines.append("")
    return "\n".join(lines)


_single: dict[str, Protego] = {}


def line_matches(line: str, url: str) -> bool:
    """Whether one Allow/Disallow line, read by protego alone, matches the URL."""
    if line not in _single:
        base = "Disallow: /\n" if line.lower().startswith("allow") else ""
        _single[line] = Protego.parse(f"User-agent: *\n{base}{line}\n")
    return _single[line].can_fetch(url, "x") is line.lower().startswith("allow")


def paths_from(groups: list[tuple[list[str], list[tuple[bool, str]]]], fill: str) -> list[str]:
    """Paths that the rules themselves match, or nearly: each pattern with its
    wildcards filled in, its anchor dropped, and a suffix."""
    paths = []
    for _, rules in groups:
        for _, value in rules:
            path = value.replace("*", fill).rstrip("$")
            paths += [path, path + fill]
    return [p if p.startswith("/") else "/" + p for p in paths]


@settings(max_examples=500, deadline=None)
@given(
    st.lists(GROUP, min_size=1, max_size=4),
    st.lists(PATHS, max_size=4),
    st.text(alphabet=PATTERN_ALPHABET.replace("*", ""), max_size=3),
)
def test_verdicts_equal_protego_and_name_a_matching_line(
    groups: list[tuple[list[str], list[tuple[bool, str]]]], paths: list[str], fill: str
) -> None:
    paths = paths + paths_from(groups, fill)
    text = write(groups)
    ours = RobotsRules.parse(text)
    theirs = Protego.parse(text)
    for token in (*NAMES, "gamma"):
        group = ours._group(token)
        for path in paths:
            url = "https://example.org" + path
            expected = theirs.can_fetch(url, token)
            got = ours.match(url, token)
            assert got.allowed is expected, (text, url, token)
            if got.rule is not None:
                assert text.split("\n")[got.rule.line - 1] == got.rule.text
                assert line_matches(got.rule.text, url), (text, url, got)
            else:
                assert got.allowed
            # The group's own one-pass decision on a normalized path, too.
            fallback = True if group is None else group.decide(canonical_path(path)).allowed
            assert fallback is expected, (text, path, token)


AGENT_SPELLINGS = st.sampled_from(["User-agent", "useragent", "user agent", "USER-AGENT"])
FIELD_SPELLINGS = st.sampled_from(
    [
        "Allow", "allow", "Disallow", "dissallow", "DISALLOW", "Crawl-delay", "crawl delay",
        "Sitemap", "Host", "Noindex", "Disallow/x", "Allow:x",
    ]
)  # fmt: skip
SEPARATORS = st.sampled_from([":", ": ", " : ", " ", ":\t", "\t", ""])
ODD_LINES = st.lists(
    st.one_of(
        # user-agent values without space or '/', where no deliberate difference applies
        st.tuples(AGENT_SPELLINGS, SEPARATORS, st.sampled_from(["*", *NAMES, "gamma"])),
        st.tuples(FIELD_SPELLINGS, SEPARATORS, st.text(alphabet="/ab:*$#= 1", max_size=8)),
        st.sampled_from(["", "# comment", "   ", "User-agent: *", "Disallow: /a"]).map(
            lambda line: (line, "", "")
        ),
    ).map("".join),
    max_size=14,
)


@settings(max_examples=400, deadline=None)
@given(ODD_LINES, st.lists(PATHS, max_size=3), st.text(alphabet="ab:", max_size=2))
def test_odd_lines_are_read_as_protego_reads_them(
    lines: list[str], paths: list[str], fill: str
) -> None:
    """Our tokenizer must see the same records and groups as protego's, whatever
    the spelling, separator or stray colon (user-agent values here have no space
    or '/', so no deliberate difference applies)."""
    text = "\n".join(lines)
    ours = RobotsRules.parse(text)
    theirs = Protego.parse(text)
    values = [line.split(":", 1)[-1].strip() for line in lines]
    paths = paths + ["/" + v.replace("*", fill).lstrip("/") for v in values]
    for token in (*NAMES, "gamma"):
        for path in paths:
            got = ours.match(path, token)
            # protego reads its argument as a URL: a bare "///a" would be a
            # network-path reference (RFC 3986 section 4.2) whose path is "/a".
            url = "https://example.org" + path
            assert got.allowed is theirs.can_fetch(url, token), (text, path, token)
            assert got.allowed or got.rule is not None
        assert ours.crawl_delay(token) == theirs.crawl_delay(token), (text, token)
    assert ours.sitemaps == tuple(theirs.sitemaps)


def reference_match(pattern: str, path: str) -> bool:
    """RFC 9309 section 2.2.3 as a regular expression (fine on short strings)."""
    anchored = pattern.endswith("$")
    body = pattern[:-1] if anchored else pattern
    regex = ".*".join(re.escape(part) for part in body.split("*")) + (r"\Z" if anchored else "")
    return re.match(regex, path, re.DOTALL) is not None


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="ab*$/", min_size=1, max_size=10), st.text(alphabet="ab$/", max_size=12))
def test_pattern_matching_is_the_rfc_semantics(pattern: str, path: str) -> None:
    if "$" in pattern[:-1]:
        pattern = pattern[:-1].replace("$", "") + pattern[-1]
    assert pattern_matches(pattern, path) is reference_match(pattern, path)


# --- linear on hostile input -----------------------------------------------------


class CountingStr(str):
    """A path that counts the substring searches made in it."""

    finds = 0

    def find(self, *args: object) -> int:  # type: ignore[override]
        CountingStr.finds += 1
        return super().find(*args)  # type: ignore[arg-type]


def test_wildcard_matching_searches_each_part_once() -> None:
    """No backtracking: at most one search per part of /*a*a*...*a*b."""
    for parts in (10, 100, 1000):
        pattern = canonical_pattern("/" + "*a" * parts + "*b")
        for path in ("/" + "a" * 3000, "/" + "a" * 3000 + "b", "/" + "ab" * 1500):
            CountingStr.finds = 0
            pattern_matches(pattern, CountingStr(path))
            assert CountingStr.finds <= parts + 1


HOSTILE_WILDCARDS = 26_000


def hostile_wildcard_file() -> str:
    """Issue 9, row 5: 26,000 lines ``Disallow: *a<i>*b`` (509 KB, under the
    500 KiB cut), every one a wildcard rule that may match anywhere in a path."""
    return "User-agent: *\n" + "".join(f"Disallow: *a{i}*b\n" for i in range(HOSTILE_WILDCARDS))


def test_many_wildcard_rules_are_not_all_tried_on_a_long_path() -> None:
    """A decision on a 2 KB path searches it for a handful of rules, not for all
    26,000 (the old code searched every one of them, twice counting protego's
    own scan), and still names the longest matching line."""
    rules = RobotsRules.parse(hostile_wildcard_file())
    group = rules._group("ExampleBot")
    assert group is not None
    for i in (0, 7, 123, 25_999):
        piece = f"a{i}"
        path = "/" + piece * (2000 // len(piece)) + "b"
        CountingStr.finds = 0
        got = group.decide(CountingStr(path))
        assert CountingStr.finds <= 40, (i, CountingStr.finds)
        assert not got.allowed and got.rule is not None
        assert got.rule.text == f"Disallow: *{piece}*b"
        assert got.rule.line == i + 2
        CountingStr.finds = 0
        assert group.decide(CountingStr("/" + "a" * 2000)).allowed  # no "b": no rule
        assert CountingStr.finds <= 40


@pytest.mark.timeout(30)
def test_decisions_on_a_file_of_many_wildcards_stay_cheap() -> None:
    """The whole decision, through the public API, on 300 distinct 2 KB URLs. The
    old code spent 0.3-0.5 s on each (protego's scan, then ours): 90 s or more.
    The timeout is generous; the timing itself is in benchmarks/bench_robots.py."""
    rules = RobotsRules.parse(hostile_wildcard_file())
    protego = Protego.parse(hostile_wildcard_file())
    for i in range(0, HOSTILE_WILDCARDS, HOSTILE_WILDCARDS // 300):
        piece = f"a{i}"
        url = "https://example.org/" + piece * (2000 // len(piece)) + "b"
        got = rules.match(url, "ExampleBot")
        assert got.rule is not None and got.rule.line == i + 2
    for url in ("https://example.org/a0xb", "https://example.org/xa0", "https://example.org/"):
        assert rules.match(url, "ExampleBot").allowed is protego.can_fetch(url, "ExampleBot")


def cpu_time(work: Callable[[], object], runs: int = 3) -> float:
    """The least CPU time of ``runs`` runs, the collector off (a collection landing in
    one run is not the work's)."""
    best = float("inf")
    collecting = gc.isenabled()
    gc.disable()
    try:
        for _ in range(runs):
            start = time.process_time()
            work()
            best = min(best, time.process_time() - start)
    finally:
        if collecting:
            gc.enable()
    return best


def growth(make: Callable[[int], Callable[[], object]], n: int) -> float:
    """How much longer the work takes at 4n than at n: the lesser of two measures, so
    that a busy machine's one slow run (the suite on two cores) reads as noise, while
    quadratic work (16) stays over ``LINEAR`` in both."""
    small, large = make(n), make(4 * n)
    small()  # warm up
    return min(cpu_time(large) / max(cpu_time(small), 1e-6) for _ in range(2))


LINEAR = 9.0  # about 4 for linear work; 16 for quadratic


def test_protego_matcher_is_linear_on_many_stars() -> None:
    """protego 0.7 finds the parts left to right; an older regex translation of
    /*a*a*...*b backtracked catastrophically. This pins the version we rely on."""

    def make(n: int) -> Callable[[], object]:
        parser = Protego.parse(f"User-agent: *\nDisallow: /{'*a' * n}*b\n")
        url = "/" + "a" * (2 * n)
        return lambda: [parser.can_fetch(url, "x") for _ in range(20)]

    assert growth(make, 1000) < LINEAR


def hostile(n: int) -> list[bytes]:
    return [
        # many stars in many rules
        b"User-agent: *\n" + b"".join(b"Disallow: /*a*a*a*a*a*a*a*a*%d*b\n" % i for i in range(n)),
        # one very long line
        b"User-agent: *\nDisallow: /" + b"ab*" * (20 * n) + b"c$\n",
        # a huge number of plain rules
        b"User-agent: *\n" + b"".join(b"Allow: /p%d/\nDisallow: /p%d\n" % (i, i) for i in range(n)),
        # thousands of agents sharing thousands of rules (quadratic for protego)
        b"".join(b"User-agent: bot%d\n" % i for i in range(n))
        + b"User-agent: *\n"
        + b"".join(b"Disallow: /r%d/x\n" % i for i in range(n)),
    ]


def test_parsing_and_matching_are_linear_on_hostile_files() -> None:
    urls = ["/" + "a" * 500, "/p7/x", "/r3/x?q", "/" + "ab" * 300 + "c"]
    for which in range(len(hostile(1))):

        def make(n: int, which: int = which) -> Callable[[], object]:
            body = hostile(n)[which]

            def work() -> object:
                rules = RobotsRules.parse(body)
                return [rules.match(url, token) for url in urls for token in ("bot1", "x")]

            return work

        assert growth(make, 500) < LINEAR, which


def test_hostile_files_still_get_the_right_verdicts() -> None:
    many_stars, long_line, many_rules, many_agents = (RobotsRules.parse(b) for b in hostile(300))
    assert not many_stars.match("/" + "a" * 9 + "299" + "b", "x").allowed
    assert many_stars.match("/" + "a" * 9, "x").allowed
    assert not long_line.match("/" + "ab" * 6000 + "c", "x").allowed
    assert many_rules.match("/p7/", "x").rule is not None and many_rules.match("/p7/", "x").allowed
    assert not many_rules.match("/p7x", "x").allowed
    assert not many_agents.match("/r299/x", "bot17").allowed
    assert many_agents.match("/r299/x", "bot17").group == "bot17"


@settings(max_examples=500, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                *("%", "%2F", "%2f", "%25", "%7E", "%7e", "%41", "%3d", "%0A", "%2A", "%e9"),
                *("%C3%A9", "%4", "2F", "a", "/", "~", "=", "?", "&", "*", " ", "\t", "\n", "\x01"),
            ]
        ),
        max_size=8,
    )
)
def test_the_ascii_escape_fast_path_equals_the_byte_round_trip(pieces: list[str]) -> None:
    path = "/" + "".join(pieces)
    general = path
    for char in "\t\r\n":
        general = general.replace(char, "")
    assert canonical_path(path) == _normalize(general, _PATH_KEEP, "/%=")
