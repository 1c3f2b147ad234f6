"""robots.txt rules: every decision names the line that decided it.

protego gives no line numbers and leaves to its caller what RFC 9309 asks of a
crawler before parsing. This module does that part and keeps, per group, one index
of the Allow/Disallow lines (:mod:`robotkit.robots.patterns`) so that a verdict
explains itself ("disallowed by line 12, ``Disallow: /private``") at no extra cost.

How it fits together, and why:

* One line tokenizer (``_directive``), tolerant the way protego is (``Disallow /x``
  without a colon, ``User agent``, the common misspellings of Disallow), reads the
  file once and sorts its records into groups as protego does, keeping each
  record's line number and text. Groups that name the same agent are merged, and
  the agent is chosen as RFC 9309 section 2.2.1 and Google say: the exact product
  token, case-insensitively, else ``*``.
* When a group is first consulted, its rules are indexed once, and each decision
  is one pass over that index with protego's precedence (longest pattern, Allow
  wins a tie, first line among equals): the first rule found is both the verdict
  and its explanation, so the two never contradict each other. An earlier design
  asked protego for the verdict and then searched the index again for the line;
  on a file of thousands of wildcard rules that cost two full scans per decision.
* protego still reads each group's Crawl-delay and Request-rate, from the group's
  own records written out as a one-group file, so its substring-based agent
  matching never comes into play. A group is indexed only if a robot asks for it,
  and a hostile file whose thousands of user-agent lines share thousands of rules
  costs linear, not quadratic, time.
* The differential test over the corpus and the property tests compare every
  verdict with protego's own ``can_fetch``.

Deliberate differences from calling protego directly on the file are listed in
``DIFFERENCES``; the differential test over the corpus checks each of them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple
from urllib.parse import quote

from protego import Protego, RequestRate

from robotkit.robots.patterns import RuleIndex, canonical_path, rule_patterns

MAX_ROBOTS_BYTES = 500 * 1024
"""RFC 9309 section 2.5: a crawler must parse at least 500 KiB; we parse exactly that."""

DIFFERENCES: dict[str, str] = {
    "agent-exact": "a group applies to the product token it names exactly "
    "(case-insensitively), else the '*' group; protego also matches a group whose "
    "name is a prefix or a word inside the token (RFC 9309 section 2.2.1, Google)",
    "agent-cut": "a group's user-agent value is cut at its first whitespace or '/', "
    "so 'User-agent: Foo Bar' and 'User-agent: Foo/1.0' name Foo (Google)",
    "line-breaks": "only CR, LF and CRLF end a line (RFC 9309 section 2.2); protego's "
    "str.splitlines() also breaks at VT, FF, FS, GS, RS, NEL, LS and PS",
}
"""Where a verdict differs from ``Protego.parse(text).can_fetch(url, token)``."""

_BOM = b"\xef\xbb\xbf"
_LINE_END = re.compile(r"\r\n|\r|\n")
# Characters other than CR and LF that str.splitlines() treats as line breaks.
_EXTRA_BREAKS = "\v\f\x1c\x1d\x1e\x85\u2028\u2029"
_ENCODE_BREAKS = str.maketrans({c: quote(c) for c in _EXTRA_BREAKS})
_HAS_EXTRA_BREAK = re.compile(f"[{re.escape(_EXTRA_BREAKS)}]").search

# Directive names as protego accepts them (including the misspellings of Disallow it
# tolerates, as Google's parser does), mapped to one canonical spelling each.
_USER_AGENT = "user-agent"
_ALLOW = "allow"
_DISALLOW = "disallow"
_SITE_WIDE = frozenset({"sitemap", "host"})
_FIELDS: dict[str, str] = {
    "user-agent": _USER_AGENT,
    "useragent": _USER_AGENT,
    "user agent": _USER_AGENT,
    "allow": _ALLOW,
    "disallow": _DISALLOW,
    "dissallow": _DISALLOW,
    "dissalow": _DISALLOW,
    "disalow": _DISALLOW,
    "diasllow": _DISALLOW,
    "disallaw": _DISALLOW,
    "sitemap": "sitemap",
    "sitemaps": "sitemap",
    "site-map": "sitemap",
    "crawl-delay": "crawl-delay",
    "crawl delay": "crawl-delay",
    "request-rate": "request-rate",
    "request rate": "request-rate",
    "visit-time": "visit-time",
    "visit time": "visit-time",
    "host": "host",
}
_GROUP_FIELDS = frozenset({_ALLOW, _DISALLOW, "crawl-delay", "request-rate", "visit-time"})
_UNKNOWN = "x-unknown"  # any other "field: value" line; it still ends a group
_AGENT_END = re.compile(r"[\s/]")


@dataclass(frozen=True)
class RuleRef:
    """A line of the robots.txt file, for explanations."""

    line: int  # 1-based line number in the file (after BOM strip)
    text: str  # the line exactly as written (no line terminator)


@dataclass(frozen=True)
class RuleMatch:
    """A verdict and what decided it."""

    allowed: bool
    group: str | None  # user-agent of the group that applied ('*' or the token)
    rule: RuleRef | None  # the Allow/Disallow line that decided; None if none matched


def decode_body(body: bytes | bytearray | memoryview | str) -> tuple[str, bool]:
    """The text of a robots.txt body and whether it was truncated. Never raises.

    RFC 9309 section 2.5 lets a crawler stop at 500 KiB; we cut at the last line
    end within that limit so that a rule is never read half-way. Section 2.2 asks
    for UTF-8: a byte order mark is dropped and invalid bytes become U+FFFD instead
    of failing the whole file (Google's parser is as lenient).
    """
    data = body.encode("utf-8", "surrogatepass") if isinstance(body, str) else bytes(body)
    truncated = len(data) > MAX_ROBOTS_BYTES
    if truncated:
        head = data[:MAX_ROBOTS_BYTES]
        data = head[: max(head.rfind(b"\n"), head.rfind(b"\r")) + 1]
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
    return data.decode("utf-8", "replace"), truncated


def _directive(line: str) -> tuple[str, str] | None:
    """(canonical field, value) of a line, or None when the line is no directive.

    Comments start at ``#`` (RFC 9309 section 2.2). Like protego, a line whose
    field is unknown but reads as ``field: value`` still counts (as ``_UNKNOWN``),
    and a line without a usable colon gets a second chance as ``field value``.
    """
    hash_pos = line.find("#")
    if hash_pos != -1:
        line = line[:hash_pos]
    line = line.strip()
    if not line:
        return None
    unknown_value: str | None = None
    if ":" in line:
        name, raw_value = line.split(":", 1)
        name = name.strip().lower()
        field = _FIELDS.get(name)
        if field is not None:
            return field, raw_value.strip()
        if not raw_value or raw_value[0].isspace():
            return _UNKNOWN, raw_value.strip()
        unknown_value = raw_value.strip()
    words = line.split()
    for count in (1, 2):
        field = _FIELDS.get(" ".join(words[:count]).lower())
        if field is not None:
            return field, " ".join(words[count:])
    return None if unknown_value is None else (_UNKNOWN, unknown_value)


def agent_name(value: str) -> str:
    """The name a ``User-agent`` value gives its group, lowercased; ``""`` names none.

    Cut at the first whitespace or ``/`` (``Foo Bar`` and ``Foo/1.0`` name ``foo``)
    as Google's parser does; a ``*`` inside a name is dropped (``Foobot*`` names
    ``foobot``), as protego does; ``*`` alone is the catch-all group.
    """
    match = _AGENT_END.search(value)
    name = (value[: match.start()] if match else value).lower()
    return name if name == "*" else name.replace("*", "")


def robot_name(user_agent: str) -> str:
    """The robot's name as matched against groups: up to the first ``/`` or
    whitespace, lowercased (RFC 9309 section 2.2.1: case-insensitive)."""
    stripped = user_agent.strip()
    match = _AGENT_END.search(stripped)
    return (stripped[: match.start()] if match else stripped).lower()


_Record = tuple[str, str, int, str]  # (field, value, line number, line as written)


class _CompiledGroup(NamedTuple):
    """What a consulted group needs to answer: its rule index and its pacing, read
    once from protego's parse of the group (it never changes for a parsed file)."""

    rules: RuleIndex[RuleMatch]
    crawl_delay: float | None
    """Seconds between requests (``Crawl-delay``)."""
    request_rate: float | None
    """Seconds per request (1 / ``Request-rate``)."""


def _seconds_per_request(rate: RequestRate | None) -> float | None:
    """``Request-rate: n/s`` as seconds per request. protego accepts only positive
    whole numbers; a ratio too large for a float is as unusable as the infinite
    Crawl-delay protego ignores, so it is ignored too."""
    if rate is None:
        return None
    try:
        return rate.seconds / rate.requests
    except OverflowError:
        return None


def _pacing(records: list[_Record]) -> tuple[float | None, float | None]:
    """(Crawl-delay, seconds per request) of a group, as protego reads its
    records, written as the ``*`` group of a file of their own; none when
    protego cannot parse them (that must not fail the robot)."""
    try:
        engine = Protego.parse(
            "user-agent: *\n"
            + "\n".join(f"{f}: {v}" for f, v, _, _ in records if f not in (_ALLOW, _DISALLOW))
        )
        delay = engine.crawl_delay("*")
        return None if delay is None else float(delay), _seconds_per_request(
            engine.request_rate("*")
        )
    except Exception:
        return None, None


class _Group:
    """One group, after merging every group that names the same agent
    (RFC 9309 section 2.2.1). Its records live in blocks shared by all the agents
    a block names, so that a hostile run of thousands of User-agent lines followed
    by thousands of rules costs linear time and memory, not their product."""

    __slots__ = ("blocks", "name", "no_match", "prepared")

    def __init__(self, name: str) -> None:
        self.name = name
        self.blocks: list[list[_Record]] = []
        self.no_match = RuleMatch(True, name, None)
        self.prepared: _CompiledGroup | None = None

    def prepare(self) -> _CompiledGroup:
        """Built on first use, like protego's own index: a file declares many
        groups and a robot consults one."""
        records = [record for block in self.blocks for record in block]
        entries: list[tuple[str, bool, RuleMatch]] = []
        for field, value, number, line in records:
            if field in (_ALLOW, _DISALLOW):
                is_allow = field == _ALLOW
                match = RuleMatch(is_allow, self.name, RuleRef(number, line))
                entries.extend(
                    (pattern, is_allow, match) for pattern in rule_patterns(is_allow, value)
                )
        self.prepared = _CompiledGroup(RuleIndex(entries), *_pacing(records))
        return self.prepared

    def match(self, rest: str) -> RuleMatch:
        """:meth:`RobotsRules.match_target` once this group is chosen."""
        if _SIMPLE_TARGET(rest) is not None:
            target = path = rest
            if "?" in path:
                path = path.replace("?", "%3F")
            if "&" in path:
                path = path.replace("&", "%26")
        else:
            if "#" in rest:
                rest = rest.partition("#")[0]
            target = rest if rest.startswith("/") else "/" + rest
            path = canonical_path(target)
        if target.startswith(_ROBOTS_TXT) and (
            len(target) == len(_ROBOTS_TXT) or target[len(_ROBOTS_TXT)] in "?;"
        ):
            return _NO_GROUP
        return self.decide(path)

    def decide(self, path: str) -> RuleMatch:
        """The verdict for a normalized path and the line that gave it, in one
        pass over the group's index (protego's precedence: longest pattern,
        Allow wins a tie, then the earlier line)."""
        prepared = self.prepared or self.prepare()
        found = prepared.rules.find(path)
        return self.no_match if found is None else found


# --- the public face ----------------------------------------------------------------

_NO_GROUP = RuleMatch(True, None, None)


def _no_group(rest: str) -> RuleMatch:
    """The matcher of a robot no group applies to: everything allowed."""
    return _NO_GROUP


class GroupRules(NamedTuple):
    """What a robots.txt says to one robot: the rules of the group that applies to
    it (:meth:`RobotsRules.for_robot`). Named apart from :class:`RobotsRules`, the
    whole file."""

    match: Callable[[str], RuleMatch]
    """:meth:`RobotsRules.match_target` for this robot: the part of a URL after
    its authority in, the verdict and its line out."""
    crawl_delay: float | None
    """Seconds between requests (``Crawl-delay``), or None."""
    request_rate: float | None
    """Seconds per request (1 / ``Request-rate``), or None."""


_NO_RULES = GroupRules(_no_group, None, None)
_ROBOTS_TXT = "/robots.txt"
_ABSOLUTE = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*").match
# A path and query that need no work but encoding '?' and '&' (the common shape:
# no escapes, no fragment, no "//" that would read as an authority).
_SIMPLE_TARGET = re.compile(r"/(?!/)[A-Za-z0-9_.~/=&?-]*").fullmatch
_MAX_REMEMBERED_TOKENS = 64


def after_authority(url: str) -> str:
    """What follows ``scheme://authority`` in an absolute URL (RFC 3986 section
    3.2: the authority ends at the first ``/``, ``?`` or ``#``), or ``url`` itself
    when it is a path."""
    found = _ABSOLUTE(url)
    return url[found.end() :] if found else url


def split_target(url: str) -> str:
    """The path and query of an absolute URL, or of a path, starting with ``/``;
    the fragment is never part of what rules match (RFC 9309 section 2.2.2)."""
    target = after_authority(url)
    if "#" in target:
        target = target.partition("#")[0]
    return target if target.startswith("/") else "/" + target


class RobotsRules:
    """A parsed robots.txt, ready to answer for any robot and URL.

    Immutable once parsed, apart from caches filled on first use (the group of a
    product token, a group's protego parse and index); sharing one between
    threads is safe, as two threads filling the same cache build equal values.
    """

    sitemaps: tuple[str, ...]
    truncated: bool
    text: str | None
    """The decoded text the rules were read from, when kept (``keep_text``): what a
    shared cache stores so that another process rebuilds the same rules."""

    def __init__(
        self,
        groups: dict[str, _Group],
        sitemaps: tuple[str, ...],
        truncated: bool,
        text: str | None = None,
    ) -> None:
        self._groups = groups
        self._robots: dict[str, GroupRules] = {}
        self.sitemaps = sitemaps
        self.truncated = truncated
        self.text = text

    def __repr__(self) -> str:
        return f"<RobotsRules groups={list(self._groups)!r} truncated={self.truncated}>"

    @classmethod
    def allow_all(cls) -> RobotsRules:
        """The rules of an empty file: every URL allowed (RFC 9309 section 2.2.2)."""
        return cls({}, (), False)

    @classmethod
    def parse(cls, body: bytes | str, *, keep_text: bool = False) -> RobotsRules:
        """Parse a robots.txt body (bytes as fetched, or text). Never raises.

        Groups follow protego's reading: a user-agent line after any other record
        starts a new group (RFC 9309 section 2.1); Sitemap and Host stand outside
        groups; records before the first user-agent line belong to no group.
        """
        text, truncated = decode_body(body)
        return cls.from_text(text, truncated, keep_text=keep_text)

    @classmethod
    def from_text(cls, text: str, truncated: bool, *, keep_text: bool = False) -> RobotsRules:
        """The rules of text already decoded and cut (:func:`decode_body`), such as
        :attr:`text`: no second cut or decoding, so the rules are the same."""
        groups: dict[str, _Group] = {}
        sitemaps: list[str] = []
        block: list[_Record] | None = None  # the records of the current group
        previous_field: str | None = None
        extra_breaks = _HAS_EXTRA_BREAK(text) is not None
        for number, line in enumerate(_LINE_END.split(text), 1):
            directive = _directive(line)
            if directive is None:
                continue
            field, value = directive
            if field == _USER_AGENT and previous_field not in (None, _USER_AGENT):
                block = None
            if field not in _SITE_WIDE:
                previous_field = field
            if not value:
                continue
            if extra_breaks:
                value = value.translate(_ENCODE_BREAKS)
            if field == _USER_AGENT:
                name = agent_name(value)
                if name:
                    if block is None:
                        block = []
                    group = groups.get(name)
                    if group is None:
                        group = groups[name] = _Group(name)
                    if not group.blocks or group.blocks[-1] is not block:
                        group.blocks.append(block)
            elif field in _GROUP_FIELDS:
                if block is not None:
                    block.append((field, value, number, line))
            elif field == "sitemap":
                sitemaps.append(value)
        return cls(groups, tuple(sitemaps), truncated, text if keep_text else None)

    @property
    def groups(self) -> tuple[str, ...]:
        """The agent names of the (merged) groups, lowercased, in file order."""
        return tuple(self._groups)

    def _group(self, product_token: str) -> _Group | None:
        """RFC 9309 section 2.2.1: the group naming the token (case-insensitively),
        else the ``*`` group, else none."""
        name = robot_name(product_token)
        return self._groups.get(name) or self._groups.get("*")

    def match(self, url: str, product_token: str) -> RuleMatch:
        """The verdict for ``url`` (absolute, or a path with its query) and the line
        that decided it. ``/robots.txt`` itself is always allowed (RFC 9309 2.2.2)."""
        return self.match_target(after_authority(url), product_token)

    def for_robot(self, product_token: str) -> GroupRules:
        """What this file says to the robot: the group that applies (RFC 9309
        section 2.2.1), as a matcher, and its pacing. Remembered per token, so a
        caller deciding many URLs for one robot pays the choice once."""
        try:
            return self._robots[product_token]
        except KeyError:
            pass
        if len(self._robots) >= _MAX_REMEMBERED_TOKENS:
            self._robots.clear()
        group = self._group(product_token)
        if group is None:
            robot = _NO_RULES
        else:
            prepared = group.prepared or group.prepare()
            robot = GroupRules(group.match, prepared.crawl_delay, prepared.request_rate)
        self._robots[product_token] = robot
        return robot

    def match_target(self, rest: str, product_token: str) -> RuleMatch:
        """:meth:`match` for what follows ``scheme://authority`` in the URL (path,
        query, fragment; possibly empty), for a caller that has split the URL
        already: the engine's hot path, which must not parse a URL twice."""
        try:
            robot = self._robots[product_token]
        except KeyError:
            robot = self.for_robot(product_token)
        return robot.match(rest)

    def pacing(self, product_token: str) -> tuple[float | None, float | None]:
        """(:meth:`crawl_delay`, :meth:`request_rate`) in one step."""
        robot = self.for_robot(product_token)
        return robot.crawl_delay, robot.request_rate

    def crawl_delay(self, product_token: str) -> float | None:
        """Seconds to wait between requests, as the group that applies asks."""
        return self.pacing(product_token)[0]

    def request_rate(self, product_token: str) -> float | None:
        """``Request-rate: n/s`` of the group that applies, as seconds per request."""
        return self.pacing(product_token)[1]
