"""robots.txt rules: protego decides, every decision names the line that decided it.

protego parses the records and matches paths; it gives no line numbers and leaves
to its caller what RFC 9309 asks of a crawler before parsing. This module does that
part and keeps, per group, an index of the Allow/Disallow lines so that a verdict
explains itself ("disallowed by line 12, ``Disallow: /private``") at almost no cost.

How the two fit together, and why:

* One line tokenizer (``_directive``), tolerant the way protego is (``Disallow /x``
  without a colon, ``User agent``, the common misspellings of Disallow), reads the
  file once and sorts its records into groups as protego does, keeping each
  record's line number and text. Groups that name the same agent are merged, and
  the agent is chosen as RFC 9309 section 2.2.1 and Google say: the exact product
  token, case-insensitively, else ``*``.
* protego parses and matches: when a group is first consulted, its own records are
  written out as a one-group robots.txt and handed to protego. protego thus sees
  exactly the records the explanation index sees, whatever its tokenizer would make
  of odd lines, and its substring-based agent matching never comes into play. A
  group is parsed only if a robot asks for it, and a hostile file whose thousands
  of user-agent lines share thousands of rules costs linear, not quadratic, time.
* protego's verdict is final. The explanation is then looked up only among the
  rules of the verdict's kind (Allow rules for an allowed URL, Disallow rules for a
  disallowed one), with protego's precedence (longest pattern, Allow wins ties,
  first line wins among equals), so explanation and verdict never contradict each
  other. The lookup is a few dict probes for plain prefixes plus a scan of the
  wildcard rules; the ``RuleMatch`` answers are built once per line, at index time.
  This relies on no protego internals: if protego's matching changed, verdicts
  would follow it and the differential test would show where the explanations no
  longer do.

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


# --- patterns and paths -----------------------------------------------------------
#
# RFC 9309 section 2.2.2 compares octets after percent-encoding normalization. We
# normalize paths and patterns the way protego does, so that the line we name is
# the one protego's precedence picked: escapes are decoded except %2F and %25 (and
# %2A in patterns, where a literal '*' would become a wildcard), then everything but
# unreserved characters, '/', '%', '=' (and '*' in patterns) is encoded again.

_ESCAPE = re.compile(rb"%([0-9A-Fa-f]{2})")
_PATH_KEEP = frozenset({b"2F", b"25"})
_PATTERN_KEEP = frozenset({b"2F", b"25", b"2A"})
_PLAIN_PATTERN = re.compile(r"[A-Za-z0-9_.~/=*-]+\$?").fullmatch
_PLAIN_PATH = re.compile(r"/[A-Za-z0-9_.~/=-]*").fullmatch
_ALWAYS_SAFE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-~/=")
# ASCII without '%': one translate() encodes what needs encoding; TAB, CR and LF
# are dropped, as urllib.parse.urlsplit (used by protego) drops them.
_ASCII_QUOTE = str.maketrans(
    {
        **{chr(i): f"%{i:02X}" for i in range(128) if chr(i) not in _ALWAYS_SAFE},
        "\t": None,
        "\r": None,
        "\n": None,
    }
)
_SIMPLE_ASCII = re.compile(r"[^%\x80-\U0010ffff]*").fullmatch


def _normalize(text: str, keep: frozenset[bytes], safe: str) -> str:
    def unescape(match: re.Match[bytes]) -> bytes:
        code = match.group(1).upper()
        return b"%" + code if code in keep else bytes.fromhex(code.decode())

    raw = _ESCAPE.sub(unescape, text.encode("utf-8", "surrogatepass"))
    return quote(raw.decode("utf-8", "replace"), safe=safe)


def _ascii_escape(code: int) -> str:
    """What ``_normalize`` makes of the escape of ASCII ``code`` in a path."""
    char = chr(code)
    if f"{code:02X}".encode() in _PATH_KEEP or char not in _ALWAYS_SAFE:
        return f"%{code:02X}"
    return char


# Every spelling of an ASCII escape ("%7e", "%7E") and what it normalizes to.
_ASCII_ESCAPES: dict[str, str] = {
    f"{high}{low}": _ascii_escape(code)
    for code in range(128)
    for high in {f"{code:02X}"[0], f"{code:02x}"[0]}
    for low in {f"{code:02X}"[1], f"{code:02x}"[1]}
}
_HEX = frozenset("0123456789ABCDEFabcdef")


def _canonical_ascii(path: str) -> str | None:
    """``_normalize`` of an ASCII path whose escapes are all ASCII, without its
    byte round trip (a path like ``/%7Euser/`` is common); None for an escape
    of a non-ASCII byte, whose meaning depends on the bytes around it."""
    parts = path.split("%")
    out = [parts[0].translate(_ASCII_QUOTE)]
    for part in parts[1:]:
        code = _ASCII_ESCAPES.get(part[:2])
        if code is not None:
            out.append(code + part[2:].translate(_ASCII_QUOTE))
        elif len(part) >= 2 and part[0] in _HEX and part[1] in _HEX:
            return None
        else:  # a "%" that starts no escape stays as it is
            out.append("%" + part.translate(_ASCII_QUOTE))
    return "".join(out)


def canonical_path(path: str) -> str:
    """A path and query (starting with ``/``) in the form patterns are compared to."""
    if _PLAIN_PATH(path):
        return path
    if _SIMPLE_ASCII(path):
        return path.translate(_ASCII_QUOTE)
    for char in "\t\r\n":
        path = path.replace(char, "")
    if path.isascii():
        canonical = _canonical_ascii(path)
        if canonical is not None:
            return canonical
    return _normalize(path, _PATH_KEEP, "/%=")


def canonical_pattern(value: str) -> str:
    """An Allow/Disallow value normalized like a path; a final ``$`` stays an anchor
    (RFC 9309 section 2.2.3) and any other ``$`` is a literal dollar sign."""
    if _PLAIN_PATTERN(value):
        return value
    if value.startswith(("https://", "http://")):
        # A rule written as a URL by mistake matches paths containing that URL.
        value = "/" + value
    anchor = "$" if value.endswith("$") else ""
    if anchor:
        value = value[:-1]
    return _normalize(value, _PATTERN_KEEP, "/%*=") + anchor


def rule_patterns(allow: bool, value: str) -> list[str]:
    """The normalized patterns protego derives from one Allow/Disallow value.

    Besides the value itself: when it contains ``$``, the same value with every
    ``$`` literal (protego matches both readings); for an Allow ending in
    ``/index.html``, the directory itself, anchored (Google does the same).
    """
    patterns = rule_patterns(allow, value.replace("$", "%24")) if "$" in value else []
    pattern = canonical_pattern(value)
    if pattern:
        patterns.append(pattern)
        if allow and pattern.endswith("/index.html"):
            patterns.append(pattern[: -len("index.html")] + "$")
    return patterns


def _split_wildcards(pattern: str) -> tuple[str, tuple[str, ...], str, bool]:
    """A pattern with ``*`` as (first part, middle parts, last part, anchored);
    runs of ``*`` count as one."""
    anchored = pattern.endswith("$")
    parts = (pattern[:-1] if anchored else pattern).split("*")
    return parts[0], tuple(p for p in parts[1:-1] if p), parts[-1], anchored


def pattern_matches(pattern: str, path: str) -> bool:
    """RFC 9309 section 2.2.3: ``*`` is any run of characters, a final ``$`` ends
    the path; otherwise a pattern matches a prefix. Both sides are normalized."""
    return _Index([(pattern, 0, RuleMatch(True, None, None))]).find(path) is not None


# --- the per-group explanation index ----------------------------------------------


_HEAD = 2  # see _Index.heads
_MAX_MERGED = 10_000  # see _Index.wild_by_head
# A rule's precedence as one int, smaller first: the longer pattern, then the
# earlier one. One int comparison is cheaper than a tuple's on the hot path.
_ORDER_BITS = 32
_NOT_FOUND = 1 << 62  # ranks below every real rank


def _rank(length: int, order: int) -> int:
    return (-length << _ORDER_BITS) + order


def _length_of(rank: int) -> int:
    return -(rank >> _ORDER_BITS)


_Hit = tuple[int, RuleMatch]  # (rank, what to answer)
# (first part, middle parts, last part, anchored, hit) of a pattern with '*'
_Wildcard = tuple[int, str, int, tuple[str, ...], str, bool, _Hit]


class _Index:
    """The rules of one kind (Allow or Disallow) of one group, ready to name the
    rule protego's precedence picks for a path: the longest pattern, and among
    patterns of equal length the earliest line (RFC 9309 section 2.2.2)."""

    __slots__ = ("anchored", "heads", "prefixes", "short", "wild_any", "wild_by_head")

    def __init__(self, entries: list[tuple[str, int, RuleMatch]]) -> None:
        self.prefixes: dict[str, _Hit] = {}
        self.anchored: dict[str, _Hit] = {}
        wildcards: list[_Wildcard] = []
        for pattern, order, match in entries:
            hit = (_rank(len(pattern), order), match)
            if "*" in pattern:
                first, middle, last, anchored = _split_wildcards(pattern)
                wildcards.append((hit[0], first, len(first), middle, last, anchored, hit))
            elif pattern.endswith("$"):
                self.anchored.setdefault(pattern[:-1], hit)
            else:
                self.prefixes.setdefault(pattern, hit)
        # A path need only try the patterns that begin as it begins: plain
        # patterns and wildcards are filed by their first _HEAD characters (a
        # handful per head, where a file may have dozens in all). For plain
        # patterns only the distinct lengths are kept, longest first.
        heads: dict[str, set[int]] = {}
        for pattern in self.prefixes:
            if len(pattern) >= _HEAD:
                heads.setdefault(pattern[:_HEAD], set()).add(len(pattern))
        self.heads = {head: sorted(lengths, reverse=True) for head, lengths in heads.items()}
        self.short = any(len(pattern) < _HEAD for pattern in self.prefixes)
        # Wildcards likewise, each list in precedence order; those whose literal
        # start is shorter than a head ("/*.pdf$") may match any path, so they
        # are merged into every head's list, unless a hostile file would make
        # that product large: then every path scans them all.
        wildcards.sort()  # by rank, unique per pattern
        anywhere = [w for w in wildcards if w[2] < _HEAD]
        filed: dict[str, list[_Wildcard]] = {}
        for wildcard in wildcards:
            if wildcard[2] >= _HEAD:
                filed.setdefault(wildcard[1][:_HEAD], []).append(wildcard)
        self.wild_by_head: dict[str, tuple[_Wildcard, ...]] = {}
        if len(filed) * len(anywhere) <= _MAX_MERGED:
            self.wild_by_head = {h: tuple(sorted(ws + anywhere)) for h, ws in filed.items()}
            self.wild_any = tuple(anywhere)
        else:
            self.wild_any = tuple(wildcards)

    def find(self, path: str) -> _Hit | None:
        """The deciding rule among these for ``path``: a plain pattern matches only
        as a prefix, so one dict probe per candidate length finds the longest;
        exact (``$``) patterns are one probe; wildcards are scanned in
        precedence order only while they could still beat what was found."""
        best: _Hit | None = None
        prefixes = self.prefixes
        head = path[:_HEAD]
        lengths = self.heads.get(head)
        if lengths is not None:
            for length in lengths:  # longest first; a longer one just misses
                best = prefixes.get(path[:length])
                if best is not None:
                    break
        if best is None and self.short:
            best = prefixes.get(path[:1])
        if self.anchored:
            hit = self.anchored.get(path)
            if hit is not None and (best is None or hit[0] < best[0]):
                best = hit
        # Linear time: each literal part is found left to right and never
        # revisited (leftmost placement leaves the most room for the parts after
        # it), so patterns like /*a*a*a*b cannot backtrack. The first wildcard
        # that matches is the best one, and it beats ``best`` (ranked above).
        best_rank = _NOT_FOUND if best is None else best[0]
        for rank, first, pos, middle, last, anchored, hit in self.wild_by_head.get(
            head, self.wild_any
        ):
            if rank > best_rank:
                break
            if not path.startswith(first):
                continue
            for part in middle:
                pos = path.find(part, pos)
                if pos == -1:
                    break
                pos += len(part)
            if pos == -1:
                continue
            if (
                path.endswith(last) and len(path) - len(last) >= pos
                if anchored
                else path.find(last, pos) != -1
            ):
                return hit
        return best


_Record = tuple[str, str, int, str]  # (field, value, line number, line as written)


class _Prepared(NamedTuple):
    """What a consulted group needs to answer: protego's parse of its records (None
    if protego could not parse them), the explanation index of each kind, and the
    group's pacing, read once from protego (it never changes for a parsed file)."""

    engine: Protego | None
    disallow: _Index
    allow: _Index
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


class _Group:
    """One group, after merging every group that names the same agent
    (RFC 9309 section 2.2.1). Its records live in blocks shared by all the agents
    a block names, so that a hostile run of thousands of User-agent lines followed
    by thousands of rules costs linear time and memory, not their product."""

    __slots__ = ("blocks", "name", "no_match", "prepared", "unexplained")

    def __init__(self, name: str) -> None:
        self.name = name
        self.blocks: list[list[_Record]] = []
        self.no_match = RuleMatch(True, name, None)
        self.unexplained = RuleMatch(False, name, None)
        self.prepared: _Prepared | None = None

    def prepare(self) -> _Prepared:
        """Built on first use, like protego's own index: a file declares many
        groups and a robot consults one. protego parses this group's records alone,
        written as the ``*`` group of a file of their own."""
        records = [record for block in self.blocks for record in block]
        engine: Protego | None
        try:
            engine = Protego.parse(
                "user-agent: *\n" + "\n".join(f"{f}: {v}" for f, v, _, _ in records)
            )
        except Exception:  # protego failing must not fail the robot: see decide()
            engine = None
        entries: tuple[list[tuple[str, int, RuleMatch]], ...] = ([], [])
        order = 0
        for field, value, number, line in records:
            if field in (_ALLOW, _DISALLOW):
                is_allow = field == _ALLOW
                match = RuleMatch(is_allow, self.name, RuleRef(number, line))
                for pattern in rule_patterns(is_allow, value):
                    entries[is_allow].append((pattern, order, match))
                    order += 1
        delay = None if engine is None else engine.crawl_delay("*")
        self.prepared = _Prepared(
            engine,
            _Index(entries[0]),
            _Index(entries[1]),
            None if delay is None else float(delay),
            None if engine is None else _seconds_per_request(engine.request_rate("*")),
        )
        return self.prepared

    def match(self, rest: str) -> RuleMatch:
        """:meth:`RobotsRules.match_target` once this group is chosen: protego
        decides, the index of the verdict's kind names the line."""
        if _SIMPLE_TARGET(rest) is not None:
            target = probe = path = rest
            if "?" in path:
                path = path.replace("?", "%3F")
            if "&" in path:
                path = path.replace("&", "%26")
        else:
            if "#" in rest:
                rest = rest.partition("#")[0]
            target = rest if rest.startswith("/") else "/" + rest
            path = canonical_path(target)
            # A path that starts with "//" would read as an authority on its own.
            probe = target if target[1:2] != "/" else "http://robotkit.invalid" + target
        if target.startswith(_ROBOTS_TXT) and (
            len(target) == len(_ROBOTS_TXT) or target[len(_ROBOTS_TXT)] in "?;"
        ):
            return _NO_GROUP
        prepared = self.prepared or self.prepare()
        engine = prepared.engine
        if engine is None:
            return self.decide(path)
        try:
            allowed = engine.can_fetch(probe, "*")
        except Exception:  # a URL protego cannot digest: our own index decides
            return self.decide(path)
        hit = (prepared.allow if allowed else prepared.disallow).find(path)
        if hit is not None:
            return hit[1]
        return self.no_match if allowed else self.unexplained

    def decide(self, path: str) -> RuleMatch:
        """Our own verdict with protego's precedence (longest match, Allow wins a
        tie); used only where protego cannot answer."""
        prepared = self.prepared or self.prepare()
        allow = prepared.allow.find(path)
        disallow = prepared.disallow.find(path)
        if disallow is None:
            return self.no_match if allow is None else allow[1]
        if allow is not None and _length_of(allow[0]) >= _length_of(disallow[0]):
            return allow[1]
        return disallow[1]


# --- the public face ----------------------------------------------------------------

_NO_GROUP = RuleMatch(True, None, None)


def _no_group(rest: str) -> RuleMatch:
    """The matcher of a robot no group applies to: everything allowed."""
    return _NO_GROUP


class RobotRules(NamedTuple):
    """What a robots.txt says to one robot (:meth:`RobotsRules.for_robot`)."""

    match: Callable[[str], RuleMatch]
    """:meth:`RobotsRules.match_target` for this robot: the part of a URL after
    its authority in, the verdict and its line out."""
    crawl_delay: float | None
    """Seconds between requests (``Crawl-delay``), or None."""
    request_rate: float | None
    """Seconds per request (1 / ``Request-rate``), or None."""


_NO_RULES = RobotRules(_no_group, None, None)
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

    def __init__(
        self, groups: dict[str, _Group], sitemaps: tuple[str, ...], truncated: bool
    ) -> None:
        self._groups = groups
        self._robots: dict[str, RobotRules] = {}
        self.sitemaps = sitemaps
        self.truncated = truncated

    def __repr__(self) -> str:
        return f"<RobotsRules groups={list(self._groups)!r} truncated={self.truncated}>"

    @classmethod
    def allow_all(cls) -> RobotsRules:
        """The rules of an empty file: every URL allowed (RFC 9309 section 2.2.2)."""
        return cls({}, (), False)

    @classmethod
    def parse(cls, body: bytes | str) -> RobotsRules:
        """Parse a robots.txt body (bytes as fetched, or text). Never raises.

        Groups follow protego's reading: a user-agent line after any other record
        starts a new group (RFC 9309 section 2.1); Sitemap and Host stand outside
        groups; records before the first user-agent line belong to no group.
        """
        text, truncated = decode_body(body)
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
        return cls(groups, tuple(sitemaps), truncated)

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

    def for_robot(self, product_token: str) -> RobotRules:
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
            robot = RobotRules(group.match, prepared.crawl_delay, prepared.request_rate)
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
