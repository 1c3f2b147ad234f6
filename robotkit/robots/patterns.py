"""Allow/Disallow patterns against paths: normalization, precedence, and the index.

RFC 9309 section 2.2.2 says how a rule's pattern is compared with a URL's path and
query; section 2.2.3 gives ``*`` and ``$`` their meaning. Both sides are
normalized here the way protego does, and :class:`RuleIndex` holds the rules of
one group, built once, so that a single pass over it gives both the verdict and
the line that decided it (the longest pattern wins, Allow wins a tie of equal
length, then the earlier line: protego's precedence).

A hostile file may carry tens of thousands of wildcard rules; trying each one on
a 2 KB URL costs far more than the decision is worth. Past a few dozen, each
wildcard rule is filed under a short piece of text it cannot match without
(:class:`_Grams`), and a path is tried only against the rules whose piece occurs
in it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import chain
from typing import Generic, TypeVar
from urllib.parse import quote

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
    return RuleIndex([(pattern, True, True)]).find(path) is not None


# --- the per-group index ----------------------------------------------------------

T = TypeVar("T")

_HEAD = 2  # see RuleIndex.heads
_MAX_MERGED = 10_000  # see RuleIndex.wild_by_head
_FEW_WILDCARDS = 32  # a list this long is scanned as it is; a longer one is filtered
_GRAM = 3  # see _Grams
# A rule's precedence as one int, smaller first: the longer pattern, then Allow
# before Disallow, then the earlier line. One int comparison is cheaper than a
# tuple's on the hot path.
_ORDER_BITS = 32
_KIND_BIT = 1 << _ORDER_BITS
_NOT_FOUND = 1 << 62  # ranks below every real rank


def _rank(length: int, allow: bool, order: int) -> int:
    return (-length << (_ORDER_BITS + 1)) + (0 if allow else _KIND_BIT) + order


# (rank, first part, its length, middle parts, last part, anchored, payload) of a
# pattern with '*'; ranks are unique, so sorting never compares the payloads.
_Wildcard = tuple[int, str, int, tuple[str, ...], str, bool, T]


class _Grams(Generic[T]):
    """Which wildcard rules could match a path, without trying them all.

    Every literal part of a wildcard rule must occur in a path it matches, so each
    rule is filed under one piece of its literals: a run of :data:`_GRAM`
    characters (or a whole shorter literal), the piece fewest other rules share.
    A path is then tried only against the rules filed under pieces it contains:
    finding those costs a set of the path's pieces of each filed length (at most
    :data:`_GRAM` lengths), however many rules the file has.
    """

    __slots__ = ("always", "by_piece", "lengths")

    def __init__(self, wildcards: Sequence[_Wildcard[T]]) -> None:
        pieces_of: list[set[str]] = []
        for wildcard in wildcards:
            pieces: set[str] = set()
            for literal in (wildcard[1], *wildcard[3], wildcard[4]):
                if len(literal) > _GRAM:
                    pieces.update(literal[i : i + _GRAM] for i in range(len(literal) - _GRAM + 1))
                elif literal:
                    pieces.add(literal)
            pieces_of.append(pieces)
        shared = Counter(piece for pieces in pieces_of for piece in pieces)
        filed: dict[str, list[_Wildcard[T]]] = {}
        always: list[_Wildcard[T]] = []  # no literal at all ("*"): may match anything
        for wildcard, pieces in zip(wildcards, pieces_of, strict=True):
            if pieces:
                piece = min(pieces, key=lambda p: (shared[p], -len(p), p))
                filed.setdefault(piece, []).append(wildcard)
            else:
                always.append(wildcard)
        self.always = tuple(always)
        self.by_piece = {piece: tuple(rules) for piece, rules in filed.items()}
        self.lengths = sorted({len(piece) for piece in filed})

    def candidates(self, path: str) -> list[_Wildcard[T]]:
        """The rules worth trying on ``path``, in precedence order."""
        by_piece = self.by_piece
        found: list[tuple[_Wildcard[T], ...]] = [self.always]
        for length in self.lengths:
            pieces = {path[i : i + length] for i in range(len(path) - length + 1)}
            found.extend(by_piece[p] for p in pieces.intersection(by_piece))
        return sorted(chain.from_iterable(found))


class RuleIndex(Generic[T]):
    """The Allow and Disallow rules of one group, ready to name the rule
    protego's precedence picks for a path: the longest pattern, Allow before
    Disallow at equal length, then the earliest line (RFC 9309 section 2.2.2).
    One pass decides: the first rule found in that order is the verdict and its
    explanation at once."""

    __slots__ = ("anchored", "grams", "heads", "prefixes", "short", "wild_any", "wild_by_head")

    def __init__(self, entries: Iterable[tuple[str, bool, T]]) -> None:
        """``entries``: (normalized pattern, is Allow, what to answer) in file order."""
        ranked = sorted(
            (_rank(len(pattern), allow, order), pattern, payload)
            for order, (pattern, allow, payload) in enumerate(entries)
        )
        self.prefixes: dict[str, tuple[int, T]] = {}
        self.anchored: dict[str, tuple[int, T]] = {}
        wildcards: list[_Wildcard[T]] = []
        for rank, pattern, payload in ranked:  # best first: setdefault keeps the best
            if "*" in pattern:
                first, middle, last, anchored = _split_wildcards(pattern)
                wildcards.append((rank, first, len(first), middle, last, anchored, payload))
            elif pattern.endswith("$"):
                self.anchored.setdefault(pattern[:-1], (rank, payload))
            else:
                self.prefixes.setdefault(pattern, (rank, payload))
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
        # that product large: then every path scans them all (filtered by
        # _Grams when there are many).
        anywhere = [w for w in wildcards if w[2] < _HEAD]
        filed: dict[str, list[_Wildcard[T]]] = {}
        for wildcard in wildcards:
            if wildcard[2] >= _HEAD:
                filed.setdefault(wildcard[1][:_HEAD], []).append(wildcard)
        self.wild_by_head: dict[str, tuple[_Wildcard[T], ...]] = {}
        if len(filed) * len(anywhere) <= _MAX_MERGED:
            self.wild_by_head = {h: tuple(sorted(ws + anywhere)) for h, ws in filed.items()}
            self.wild_any = tuple(anywhere)
        else:
            self.wild_any = tuple(wildcards)
        self.grams = _Grams(wildcards) if len(wildcards) > _FEW_WILDCARDS else None

    def wildcards_for(self, path: str) -> Sequence[_Wildcard[T]]:
        """The wildcard rules :meth:`find` may try on ``path``, in precedence order:
        those filed under its head, or, when they are many, only the ones whose
        literal piece occurs in it."""
        wildcards = self.wild_by_head.get(path[:_HEAD], self.wild_any)
        if len(wildcards) > _FEW_WILDCARDS and self.grams is not None:
            return self.grams.candidates(path)
        return wildcards

    def find(self, path: str) -> T | None:
        """What the deciding rule answers for ``path``, or None when no rule
        matches: a plain pattern matches only as a prefix, so one dict probe per
        candidate length finds the longest; exact (``$``) patterns are one probe;
        wildcards are tried in precedence order only while they could still beat
        what was found."""
        best: tuple[int, T] | None = None
        prefixes = self.prefixes
        lengths = self.heads.get(path[:_HEAD])
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
        for rank, first, pos, middle, last, anchored, payload in self.wildcards_for(path):
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
                return payload
        return None if best is None else best[1]
