"""Differential test: robotkit's verdicts against protego's over the real corpus.

For every robots.txt in tests/data/robots-top-sites.tar.gz (read in place),
URLs are made from the file's own Allow/Disallow values (wildcards filled in two
ways, plus a child, a query and a sibling) and checked for three robots: one no
group names (the '*' group applies), Googlebot, and Googlebot-News (which protego,
unlike RFC 9309 and Google, lets fall into a "Googlebot" group by prefix).

The expected verdict is protego's own, computed step by step from the raw file so
that each deliberate difference (``rules.DIFFERENCES``) is applied by a separate,
independent transformation here and is counted where it changes a verdict:

1. ``line-breaks``: the file re-split at CR/LF only;
2. ``agent-cut``: user-agent values cut at the first whitespace or '/';
3. ``agent-exact``: protego asked with the exact group name (or '*') instead of
   the robot's token, so that its own substring matching cannot pick another group.

Every file is also asked for ``/robots.txt`` itself (always allowed, by both).

Where none of the three applies, robotkit must equal plain
``Protego.parse(text).can_fetch(url, token)``.
"""

from __future__ import annotations

import itertools
import random
import re
import tarfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from protego import Protego

from robotkit.robots.rules import DIFFERENCES, RobotsRules, decode_body

CORPUS = Path(__file__).resolve().parent / "data" / "robots-top-sites.tar.gz"
AGENTS = ("robotkit-differential", "Googlebot", "Googlebot-News")
RULES_PER_FILE = 2
EXPLAINED_CHECKS_PER_FILE = 3

EXTRA_BREAKS = "\v\f\x1c\x1d\x1e\x85\u2028\u2029"
LINE_END = re.compile(r"\r\n|\r|\n")
RULE_LINE = re.compile(r"^[ \t]*(allow|disallow)[ \t]*[: \t][ \t]*([^#\s]+)", re.I | re.M)
UA_LINE = re.compile(r"^([ \t]*user[- ]?agent[ \t]*(?::|[ \t]))([^#\n]*)", re.I | re.M)
DIRECTIVE_WORD = re.compile(r"^\s*([a-z]+)", re.IGNORECASE)
DISALLOW_SPELLINGS = {"disallow", "dissallow", "dissalow", "disalow", "diasllow", "disallaw"}


def crlf_lines(text: str) -> list[str]:
    return LINE_END.split(text)


def one_line_end(text: str) -> str:
    """Step 1: only CR, LF and CRLF end lines (as LF); the other characters that
    str.splitlines() breaks at become percent-escapes."""
    if any(c in text for c in EXTRA_BREAKS):
        table = str.maketrans({c: "".join(f"%{b:02X}" for b in c.encode()) for c in EXTRA_BREAKS})
        text = text.translate(table)
    return LINE_END.sub("\n", text) if "\r" in text else text


def cut_agents(text: str) -> tuple[str, set[str]]:
    """Step 2: user-agent values cut at whitespace or '/'; also the group names."""
    names: set[str] = set()

    def cut(found: re.Match[str]) -> str:
        written = found.group(2).strip()
        value = re.split(r"[\s/]", written, maxsplit=1)[0]
        name = value.lower()
        names.add(name)
        if name != "*":
            names.add(name.replace("*", ""))
        return found.group(0) if value == written else found.group(1) + " " + value

    text = UA_LINE.sub(cut, text)
    names.discard("")
    return text, names


def protego_choice(names: set[str], token: str) -> str | None:
    """The group protego picks for a token: the longest name found in it at a word
    start, '*' last (the documented behaviour of protego 0.7)."""
    token = token.lower()
    best, score = None, 0
    for name in names:
        if name == "*":
            points = 1
        else:
            points = 0
            at = token.find(name)
            while at != -1:
                if at == 0 or not (token[at - 1].isalnum() or token[at - 1] in "-_"):
                    points = len(name)
                    break
                at = token.find(name, at + 1)
        if points > score:
            best, score = name, points
    return best


def exact_choice(names: set[str], token: str) -> str | None:
    token = token.lower()
    return token if token in names else ("*" if "*" in names else None)


ROBOTS_TXT_PATHS = ("/robots.txt", "/robots.txt?v=1")
ROBOTS_TXT_URLS = frozenset("https://example.com" + path for path in ROBOTS_TXT_PATHS)


def urls_from(text: str, rnd: random.Random) -> list[str]:
    values = [m.group(2) for m in itertools.islice(RULE_LINE.finditer(text), 64)]
    rnd.shuffle(values)
    paths = {"/", *ROBOTS_TXT_PATHS}
    for value in values[:RULES_PER_FILE]:
        base = value.rstrip("$")
        for fill in ("", "x7"):
            path = base.replace("*", fill)
            path = path if path.startswith("/") else "/" + path
            paths.update({path, path + "child", path + "/c?q=1"})
            if len(path) > 1:
                paths.add(path[:-1] + ("z" if path[-1] != "z" else "y"))
    return ["https://example.com" + p for p in sorted(paths)]


@dataclass
class Report:
    files: int = 0
    checks: int = 0
    differences: Counter[str] = field(default_factory=Counter)
    mismatches: list[str] = field(default_factory=list)
    explained: int = 0
    robots_txt_checks: int = 0
    bad_explanations: list[str] = field(default_factory=list)


_single_rule_cache: dict[tuple[bool, str], Protego] = {}


def line_matches(is_allow: bool, line: str, url: str) -> bool:
    """Does this one Allow/Disallow line, as protego reads it, match the URL?"""
    key = (is_allow, line)
    parser = _single_rule_cache.get(key)
    if parser is None:
        # Against "Disallow: /", an Allow line wins exactly where it matches.
        prefix = "user-agent: *\ndisallow: /\n" if is_allow else "user-agent: *\n"
        parser = _single_rule_cache[key] = Protego.parse(prefix + line)
    return parser.can_fetch(url, "*") == is_allow


def check_file(name: str, body: bytes, report: Report) -> None:
    text, _ = decode_body(body)
    rules = RobotsRules.parse(body)
    raw = Protego.parse(text)
    one_break = one_line_end(text)
    step1 = Protego.parse(one_break) if any(c in text for c in EXTRA_BREAKS) else raw
    cut_text, names = cut_agents(one_break)
    step2 = Protego.parse(cut_text) if cut_text != one_break else step1
    lines = crlf_lines(text)
    rnd = random.Random(name)
    explained = 0
    report.files += 1
    # A robot whose group is '*' for both protego and robotkit answers exactly like
    # the first robot (which no group names), so it is checked only where it differs.
    agents = [AGENTS[0]] + [
        a for a in AGENTS[1:] if {exact_choice(names, a), protego_choice(names, a)} != {"*"}
    ]
    for url in urls_from(one_break, rnd):
        for agent in agents:
            report.checks += 1
            report.robots_txt_checks += url in ROBOTS_TXT_URLS
            got = rules.match(url, agent)
            verdicts = {"protego": raw.can_fetch(url, agent)}
            verdicts["line-breaks"] = (
                verdicts["protego"] if step1 is raw else step1.can_fetch(url, agent)
            )
            verdicts["agent-cut"] = (
                verdicts["line-breaks"] if step2 is step1 else step2.can_fetch(url, agent)
            )
            chosen = exact_choice(names, agent)
            if chosen == protego_choice(names, agent):
                verdicts["agent-exact"] = verdicts["agent-cut"]
            else:
                verdicts["agent-exact"] = True if chosen is None else step2.can_fetch(url, chosen)
            steps = list(verdicts.values())
            for (step, verdict), before in zip(list(verdicts.items())[1:], steps, strict=False):
                if verdict != before:
                    report.differences[step] += 1
            group_ok = got.group in (chosen, None) and (chosen is not None or got.group is None)
            if got.allowed != verdicts["agent-exact"] or not group_ok:
                report.mismatches.append(f"{name} {agent} {url}: {got} vs {verdicts}")
            if got.rule is None:
                if not got.allowed:
                    report.bad_explanations.append(f"{name} {agent} {url}: no rule for {got}")
                continue
            line = got.rule.line
            word = DIRECTIVE_WORD.match(got.rule.text)
            kind = word.group(1).lower() if word else ""
            ok = (
                0 < line <= len(lines)
                and lines[line - 1] == got.rule.text
                and (kind == "allow" if got.allowed else kind in DISALLOW_SPELLINGS)
            )
            if ok and explained < EXPLAINED_CHECKS_PER_FILE:
                explained += 1
                report.explained += 1
                ok = line_matches(got.allowed, got.rule.text, url)
            if not ok:
                report.bad_explanations.append(f"{name} {agent} {url}: {got}")


@pytest.fixture(scope="module")
def report() -> Report:
    result = Report()
    with tarfile.open(CORPUS) as archive:
        for member in archive:
            if member.isfile():
                handle = archive.extractfile(member)
                assert handle is not None
                check_file(member.name, handle.read(), result)
    return result


def test_every_file_of_the_corpus_is_checked(report: Report) -> None:
    assert report.files == 4231
    assert report.checks > 40_000


def test_verdicts_equal_protego_except_the_deliberate_differences(report: Report) -> None:
    assert report.mismatches[:10] == []
    assert set(report.differences) <= set(DIFFERENCES)
    # The corpus exercises the differences that matter in practice.
    assert report.differences["agent-exact"] > 100
    assert report.differences["agent-cut"] > 10
    assert report.robots_txt_checks >= 2 * 4231


def test_every_explanation_names_a_matching_line_of_the_file(report: Report) -> None:
    assert report.bad_explanations[:10] == []
    assert report.explained > 4000
