"""URL rules a crawl learns from a site: session segments, ignorable parameters, order.

:func:`robotkit.url.normalization.normalize` knows the session and tracking parameters every
crawler knows (``jsessionid``, ``utm_*``). Sites invent their own: a session id as a
path segment (``/x8Kq2.../catalog``), a share parameter (``?share=tw``), ``/amp/`` and
``/print/`` forms of every article. :class:`LearnedRules` learns them from evidence
the site gives, one origin at a time:

- two URLs whose pages are exactly the same and that differ only in one path segment
  or one parameter value, both random-looking tokens: that segment position or that
  parameter is a session id (never a page's id: different pages never have the same
  text);
- pages whose own URL carries a token at some path position while every link they
  give carries one *other* token there (a session id re-issued on each response):
  twice seen, that position is a session id. A page that links several tokens at
  that position (a list of commits) proves it names pages, and vetoes it;
- two such URLs that differ only in the order of their parameters: order does not
  matter on this origin;
- two such URLs where one has parameters the other lacks: those exact pairs
  (``a=1``, never ``a`` with any value: ``?page=1`` may be the list itself while
  ``?page=2`` is not) change nothing on this origin;
- a page whose ``rel=canonical`` (RFC 6596) drops parameters or leading path segments
  of its own URL: those parameters and prefixes name the same page.

:meth:`LearnedRules.apply` turns a normalized URL into its key under what was
learned. Pure: no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from robotkit.base.snapshot import header, listed, opened, reading, typed
from robotkit.url.normalization import NormalizedURL, normalize
from robotkit.url.parse import InvalidURL

__all__ = ["LearnedRules", "is_token"]

_TOKEN = re.compile(r"[A-Za-z0-9_\-]{8,}")
_LETTER = re.compile(r"[A-Za-z]")
_DIGIT = re.compile(r"\d")


def is_token(text: str) -> bool:
    """Whether a path segment or value looks machine-made: 8 or more URL-safe
    characters with both letters and digits (``3fa9c2e1``, ``x7K2q9Lm``), or 20 or
    more of them in any mix. Words, slugs and plain numbers are not tokens."""
    if not _TOKEN.fullmatch(text):
        return False
    if len(text) >= 20:
        return True
    return bool(_LETTER.search(text)) and bool(_DIGIT.search(text)) and "-" not in text


def _pairs(query: str | None) -> list[str]:
    return [part for part in (query or "").split("&") if part]


def _name(pair: str) -> str:
    return pair.partition("=")[0].lower()


def _segments(path: str) -> list[str]:
    return path.split("/")[1:]


def _extra_pairs(fewer: list[str], more: list[str]) -> set[str]:
    """The pairs ``more`` adds to ``fewer`` when it keeps all of them, else none."""
    rest = list(more)
    for pair in fewer:
        if pair not in rest:
            return set()
        rest.remove(pair)
    return set(rest)


@dataclass
class _OriginRules:
    session_positions: set[int] = field(default_factory=set)
    prefixes: set[str] = field(default_factory=set)
    params: set[str] = field(default_factory=set)
    pairs: set[str] = field(default_factory=set)
    any_order: bool = False


class LearnedRules:
    """What one crawl learned about its sites' URLs, per origin."""

    def __init__(self) -> None:
        self._rules: dict[str, _OriginRules] = {}
        self._reissued: dict[tuple[str, int], int] = {}
        self._vetoed: set[tuple[str, int]] = set()

    def __bool__(self) -> bool:
        return bool(self._rules)

    def snapshot(self) -> dict[str, Any]:
        """What was learned, as JSON, for a resumed crawl."""
        return {
            **header("url-rules", 1),
            "origins": [
                [
                    origin,
                    sorted(rules.session_positions),
                    sorted(rules.prefixes),
                    sorted(rules.params),
                    sorted(rules.pairs),
                    rules.any_order,
                ]
                for origin, rules in self._rules.items()
            ],
            "reissued": [[origin, position, n] for (origin, position), n in self._reissued.items()],
            "vetoed": [[origin, position] for origin, position in sorted(self._vetoed)],
        }

    def restore(self, data: Any) -> None:
        """Take back :meth:`snapshot`; :class:`~robotkit.base.snapshot.SnapshotError` for
        bad data."""
        with reading("url rules"):
            data = opened(data, "url-rules", 1)
            learned: dict[str, _OriginRules] = {}
            for origin, positions, prefixes, params, pairs, any_order in listed(
                data["origins"], "origins", list
            ):
                learned[typed(origin, str, "origin")] = _OriginRules(
                    set(listed(positions, "position", int)),
                    set(listed(prefixes, "prefix", str)),
                    set(listed(params, "parameter", str)),
                    set(listed(pairs, "pair", str)),
                    typed(any_order, bool, "any order"),
                )
            reissued = {
                (typed(o, str, "origin"), typed(p, int, "position")): typed(n, int, "count")
                for o, p, n in listed(data["reissued"], "reissued", list)
            }
            vetoed = {
                (typed(o, str, "origin"), typed(p, int, "position"))
                for o, p in listed(data["vetoed"], "vetoed", list)
            }
        self._rules, self._reissued, self._vetoed = learned, reissued, vetoed

    def knows(self, norm: NormalizedURL) -> bool:
        """Whether anything was learned about ``norm``'s origin."""
        return str(norm.origin) in self._rules

    def apply(self, norm: NormalizedURL) -> str:
        """``norm``'s key with the learned rules of its origin applied."""
        rules = self._rules.get(str(norm.origin))
        if rules is None:
            return norm.key
        segments = _segments(norm.path)
        for position in sorted(rules.session_positions, reverse=True):
            if position < len(segments) - 1 and is_token(segments[position]):
                del segments[position]
        while len(segments) > 1 and segments[0].lower() in rules.prefixes:
            del segments[0]
        path = "/" + "/".join(segments)
        pairs = [
            p for p in _pairs(norm.query) if _name(p) not in rules.params and p not in rules.pairs
        ]
        if rules.any_order:
            pairs.sort()
        query = f"?{'&'.join(pairs)}" if pairs else ""
        return f"{norm.origin}{path}{query}"

    def describe(self, norm: NormalizedURL) -> str:
        """The rules of ``norm``'s origin, for a summary line."""
        rules = self._rules.get(str(norm.origin))
        if rules is None:
            return "nothing"
        parts = []
        if rules.session_positions:
            where = ", ".join(str(p + 1) for p in sorted(rules.session_positions))
            parts.append(f"session id in path segment {where}")
        if rules.prefixes:
            parts.append(f"prefixes {', '.join(sorted(rules.prefixes))} name the same page")
        if rules.params:
            parts.append(f"parameters {', '.join(sorted(rules.params))} ignored")
        if rules.pairs:
            parts.append(f"parameters {', '.join(sorted(rules.pairs))} change nothing")
        if rules.any_order:
            parts.append("parameter order ignored")
        return "; ".join(parts)

    def _for(self, norm: NormalizedURL) -> _OriginRules:
        return self._rules.setdefault(str(norm.origin), _OriginRules())

    def learn_pair(self, url: str, other: str) -> bool:
        """Two URLs of one origin whose pages are exactly the same: learn a session
        segment, a session parameter or that order does not matter, when that is
        the only difference. Returns whether anything new was learned."""
        try:
            a, b = normalize(url), normalize(other)
        except InvalidURL:
            return False
        if a.origin != b.origin or self.apply(a) == self.apply(b):
            return False
        seg_a, seg_b = _segments(a.path), _segments(b.path)
        if a.query == b.query and len(seg_a) == len(seg_b):
            differ = [i for i, (x, y) in enumerate(zip(seg_a, seg_b, strict=True)) if x != y]
            if len(differ) == 1 and is_token(seg_a[differ[0]]) and is_token(seg_b[differ[0]]):
                rules = self._for(a)
                rules.session_positions.add(differ[0])
                return True
            return False
        if a.path != b.path:
            return False
        pairs_a, pairs_b = _pairs(a.query), _pairs(b.query)
        if sorted(pairs_a) == sorted(pairs_b):
            self._for(a).any_order = True
            return True
        extra = _extra_pairs(pairs_a, pairs_b) or _extra_pairs(pairs_b, pairs_a)
        if extra:
            self._for(a).pairs.update(extra)
            return True
        if [_name(p) for p in pairs_a] != [_name(p) for p in pairs_b]:
            return False
        differ = [i for i, (x, y) in enumerate(zip(pairs_a, pairs_b, strict=True)) if x != y]
        if len(differ) != 1:
            return False
        value_a = pairs_a[differ[0]].partition("=")[2]
        value_b = pairs_b[differ[0]].partition("=")[2]
        if is_token(value_a) and is_token(value_b):
            self._for(a).params.add(_name(pairs_a[differ[0]]))
            return True
        return False

    def observe_links(self, page: NormalizedURL, links: list[NormalizedURL]) -> bool:
        """Look for a session id re-issued in every link (see the module docstring);
        returns whether a session position was learned now."""
        own = _segments(page.path)
        origin = str(page.origin)
        learned = False
        for position, segment in enumerate(own[:-1]):
            if not is_token(segment) or (origin, position) in self._vetoed:
                continue
            values = set()
            for link in links:
                if link.origin != page.origin:
                    continue
                theirs = _segments(link.path)
                if position < len(theirs) - 1 and is_token(theirs[position]):
                    values.add(theirs[position])
            if len(values) > 1:
                self._vetoed.add((origin, position))
                continue
            if not values or segment in values:
                continue
            count = self._reissued.get((origin, position), 0) + 1
            self._reissued[origin, position] = count
            if count >= 2 and position not in self._for(page).session_positions:
                self._for(page).session_positions.add(position)
                learned = True
        return learned

    def learn_canonical(self, page: NormalizedURL, canonical: NormalizedURL) -> bool:
        """A page whose canonical URL is its own URL less some leading path segments
        and some parameters: those name the same page on this origin (``/amp/x`` and
        ``/print/x?share=tw`` are ``/x``). Returns whether anything new was learned."""
        if page.origin != canonical.origin:
            return False
        seg_page, seg_canon = _segments(page.path), _segments(canonical.path)
        extra = len(seg_page) - len(seg_canon)
        if extra < 0 or seg_page[extra:] != seg_canon:
            return False
        prefixes = {seg.lower() for seg in seg_page[:extra] if seg and not is_token(seg)}
        if len(prefixes) != extra:
            return False  # an empty or token-like prefix is not a named form
        canon_pairs = set(_pairs(canonical.query))
        page_pairs = _pairs(page.query)
        if not canon_pairs <= set(page_pairs):
            return False
        params = {_name(p) for p in page_pairs if p not in canon_pairs}
        if params & {_name(p) for p in canon_pairs}:
            return False  # a value changed, not a parameter dropped
        if not prefixes and not params:
            return False
        rules = self._for(page)
        before = (len(rules.prefixes), len(rules.params))
        rules.prefixes |= prefixes
        rules.params |= params
        return (len(rules.prefixes), len(rules.params)) != before
