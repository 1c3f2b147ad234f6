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
  of its own URL: those parameters and prefixes name the same page;
- **copy families** (:meth:`LearnedRules.observe`, the DUST rules of Bar-Yossef,
  Keidar and Schonfeld, "Do not crawl in the DUST", WWW 2007): every fetched page's
  main text is remembered under its URL, and when URLs that differ in one way keep
  returning one text, the rewrite that maps one onto the other is learned for the
  whole origin, so every queued and future member of the family has the key of the
  page already fetched. Each rewrite needs proof and is vetoed by one counter-example
  (two spellings of the family with different texts): a parameter whatever its value
  (3 values of it on one page gave one text, none another; ``?page=2`` and ``?lang=fr``
  are vetoed by their first differing page), letter case in paths (2 spellings that
  differ only in case; a case-sensitive server vetoes), the tail after a file-like
  segment (``x.html/anything`` served as ``x.html``, Apache's ``AcceptPathInfo``: 2
  tails; a front controller ``index.php/section`` vetoes; 2 static files so proven
  extend it to every ``.html`` of the origin), and a host onto its twin (2 paths
  with one text on both; one path with two texts vetoes).

:meth:`LearnedRules.apply` turns a normalized URL into its key under what was
learned. Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from robotkit.base.snapshot import header, listed, opened, reading, typed
from robotkit.url.normalization import NormalizedURL, normalize
from robotkit.url.parse import InvalidURL
from robotkit.url.substitution import Substitutions, listing_text

__all__ = ["LearnedRules", "is_token", "path_info_tail", "reduces"]

_TOKEN = re.compile(r"[A-Za-z0-9_\-]{8,}")
_FILE = re.compile(r"[^/]*[A-Za-z0-9_\-]\.([A-Za-z][A-Za-z0-9]{1,4})")
_STATIC = frozenset({"html", "htm", "shtml", "xhtml"})
"""Extensions of static files: a server that serves ``a.html/x`` as ``a.html`` for two
such files does it for all (Apache ``AcceptPathInfo On``); scripts (``.php``, ``.cgi``)
route their path info and are proven one by one."""

PARAM_VALUES = 3
"""Values of one parameter that must give one page's text before the parameter is
dropped whatever its value."""
CASE_VARIANTS = 2
"""Paths differing only in letter case, each with its twin's text, before case is
folded on the origin."""
TAILS = 2
"""Tails after a file-like segment served as the file itself before the tail is cut."""
STATIC_FILES = 2
"""Static files whose tails were cut before every file of that kind is cut."""
TWIN_PATHS = 2
"""Paths with one text on two hosts before the later host is mapped onto the first."""
MAX_TEXTS = 200_000
"""Pages whose text is remembered for the copy families (a bound on memory)."""
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


def _file_ext(segment: str) -> str | None:
    """The extension of a file-like path segment (``index.html``), lower case."""
    found = _FILE.fullmatch(segment)
    return found.group(1).lower() if found else None


def _target(norm: NormalizedURL) -> str:
    return norm.path + (f"?{norm.query}" if norm.query else "")


def path_info_tail(norm: NormalizedURL) -> bool:
    """Whether ``norm``'s path goes on after a static file (``/a/x.html/b``): a
    spelling only path info makes a page of (Apache ``AcceptPathInfo On``)."""
    segments = _segments(norm.path)
    return any(_file_ext(segment) in _STATIC for segment in segments[:-1])


def reduces(short: NormalizedURL, long: NormalizedURL) -> bool:
    """Whether ``short`` is the shorter, canonical spelling of ``long`` in a copy
    family: the file ``long`` adds a path-info tail to (``/a/x.html`` of
    ``/a/x.html/b``), or the same path with fewer parameters. Of two such URLs with
    one text, ``short`` is the page and ``long`` the copy."""
    if short.origin != long.origin or len(short.key) >= len(long.key):
        return False
    if short.path == long.path:
        return _extra_pairs(_pairs(short.query), _pairs(long.query)) != set()
    last = short.path.rpartition("/")[2]
    return (
        short.query == long.query
        and _file_ext(last) is not None
        and long.path.startswith(short.path + "/")
    )


def _encoded(value: Any) -> Any:
    """An evidence field as JSON: sets as sorted lists, dictionaries as pairs."""
    if isinstance(value, set):
        return sorted(value)
    if isinstance(value, dict):
        return [[key, _encoded(item)] for key, item in value.items()]
    return value


def _decoded(value: Any, kind: type, what: str) -> Any:
    """:func:`_encoded`'s inverse for a field whose empty value is of ``kind``: the
    values of its dictionaries read back by their JSON type."""
    if kind is set:
        return set(listed(value, what, str))
    decoded: dict[str, Any] = {}
    for key, item in listed(value, what, list):
        if isinstance(item, list):
            item = (
                {typed(k, str, what): v for k, v in item}
                if item and isinstance(item[0], list)
                else set(listed(item, what, str))
            )
        decoded[typed(key, str, what)] = item
    return decoded


def _cut(segments: list[str], rules: _OriginRules) -> list[str]:
    """``segments`` without the path-info tail after a file whose tails are cut."""
    cuts, no_cut = rules.cuts, rules.no_cut
    if rules.fold_case:
        cuts, no_cut = {c.lower() for c in cuts}, {c.lower() for c in no_cut}
    for i, segment in enumerate(segments[:-1]):
        kind = _file_ext(segment)
        if kind is None:
            continue
        file = "/" + "/".join(segments[: i + 1])
        if file in cuts or (kind in rules.cut_kinds and file not in no_cut):
            return segments[: i + 1]
    return segments


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
    fold_case: bool = False
    cuts: set[str] = field(default_factory=set)
    """Paths of files whose path-info tails are cut (``/library/index.html``)."""
    cut_kinds: set[str] = field(default_factory=set)
    """Static extensions whose every file's tail is cut on this origin."""
    no_cut: set[str] = field(default_factory=set)
    """Files whose tails were shown to name other pages (a front controller)."""
    twin: str | None = None
    """The origin this one is a twin of: its URLs are keyed there."""


@dataclass
class _Evidence:
    """What the copy families are learned from: the main text (an exact hash) of each
    fetched page, grouped by the one way its URL may differ from others'."""

    texts: dict[str, int] = field(default_factory=dict)
    """A normalized key (before learned rules) to its page's text hash."""
    values: dict[str, dict[str, int]] = field(default_factory=dict)
    """``origin name base`` to the text hash under each value of parameter ``name``
    on the URL ``base`` (the page's key without that parameter)."""
    bases: dict[str, set[str]] = field(default_factory=dict)
    """A page's key to the parameters seen added to it (in :attr:`values`)."""
    no_param: set[str] = field(default_factory=set)
    """``origin name`` pairs shown to change a page's text."""
    cases: dict[str, dict[str, int]] = field(default_factory=dict)
    """A lower-case key to the text hash under each spelling of its path."""
    case_proofs: dict[str, int] = field(default_factory=dict)
    no_case: set[str] = field(default_factory=set)
    tails: dict[str, dict[str, int]] = field(default_factory=dict)
    """A file's URL (``origin/path``) with its query to the text hash under each tail
    after it (``""``: the file itself)."""
    cut_files: dict[str, set[str]] = field(default_factory=dict)
    """An origin and a static extension to the files proven to have cut tails."""
    hosts: dict[str, dict[str, int]] = field(default_factory=dict)
    """A path and query to the text hash on each origin that served it."""
    twin_proofs: dict[str, set[str]] = field(default_factory=dict)
    """``origin target`` to the paths that gave one text on both."""
    no_twin: set[str] = field(default_factory=set)
    proofs: dict[str, str] = field(default_factory=dict)
    """A learned rewrite (``origin kind subject``) to the evidence that proved it, for
    the skip records."""


class LearnedRules:
    """What one crawl learned about its sites' URLs, per origin."""

    def __init__(self, max_texts: int = MAX_TEXTS) -> None:
        self._rules: dict[str, _OriginRules] = {}
        self._reissued: dict[tuple[str, int], int] = {}
        self._vetoed: set[tuple[str, int]] = set()
        self._evidence = _Evidence()
        self.max_texts = max_texts
        self._paths = Substitutions(max_texts)  # directory aliases (url.substitution)

    def __bool__(self) -> bool:
        return bool(self._rules)

    def snapshot(self) -> dict[str, Any]:
        """What was learned, and the copy families' evidence, as JSON, for a resumed
        crawl."""
        return {
            **header("url-rules", 2),
            "origins": [
                [
                    origin,
                    sorted(rules.session_positions),
                    sorted(rules.prefixes),
                    sorted(rules.params),
                    sorted(rules.pairs),
                    rules.any_order,
                    rules.fold_case,
                    sorted(rules.cuts),
                    sorted(rules.cut_kinds),
                    sorted(rules.no_cut),
                    rules.twin,
                ]
                for origin, rules in self._rules.items()
            ],
            "reissued": [[origin, position, n] for (origin, position), n in self._reissued.items()],
            "vetoed": [[origin, position] for origin, position in sorted(self._vetoed)],
            "evidence": {
                name: _encoded(getattr(self._evidence, name)) for name in _Evidence.__annotations__
            },
            "substitutions": self._paths.snapshot(),
        }

    def restore(self, data: Any) -> None:
        """Take back :meth:`snapshot` (version 1, before the copy families, too);
        :class:`~robotkit.base.snapshot.SnapshotError` for bad data."""
        with reading("url rules"):
            data = opened(data, "url-rules", 1 if data.get("version") == 1 else 2)
            learned: dict[str, _OriginRules] = {}
            for origin, positions, prefixes, params, pairs, any_order, *more in listed(
                data["origins"], "origins", list
            ):
                rules = learned[typed(origin, str, "origin")] = _OriginRules(
                    set(listed(positions, "position", int)),
                    set(listed(prefixes, "prefix", str)),
                    set(listed(params, "parameter", str)),
                    set(listed(pairs, "pair", str)),
                    typed(any_order, bool, "any order"),
                )
                if more:
                    fold_case, cuts, kinds, no_cut, twin = more
                    rules.fold_case = typed(fold_case, bool, "fold case")
                    rules.cuts = set(listed(cuts, "cut", str))
                    rules.cut_kinds = set(listed(kinds, "cut kind", str))
                    rules.no_cut = set(listed(no_cut, "cut", str))
                    rules.twin = None if twin is None else typed(twin, str, "twin")
            reissued = {
                (typed(o, str, "origin"), typed(p, int, "position")): typed(n, int, "count")
                for o, p, n in listed(data["reissued"], "reissued", list)
            }
            vetoed = {
                (typed(o, str, "origin"), typed(p, int, "position"))
                for o, p in listed(data["vetoed"], "vetoed", list)
            }
            evidence = _Evidence()
            for name, value in typed(data.get("evidence", {}), dict, "evidence").items():
                if name not in _Evidence.__annotations__:
                    raise KeyError(name)
                setattr(evidence, name, _decoded(value, type(getattr(evidence, name)), name))
            self._paths.restore(data.get("substitutions", []))
        self._rules, self._reissued, self._vetoed = learned, reissued, vetoed
        self._evidence = evidence

    def knows(self, norm: NormalizedURL) -> bool:
        """Whether anything was learned about ``norm``'s origin."""
        return str(norm.origin) in self._rules

    def apply(self, norm: NormalizedURL) -> str:
        """``norm``'s key with the learned rules of its origin applied (a twin host's
        URLs keyed on the host it is a twin of)."""
        origin = str(norm.origin)
        rules = self._rules.get(origin)
        if rules is None:
            return norm.key
        path = self._paths.rewrite(origin, norm.path)
        if rules.twin is not None:
            origin = rules.twin
            rules = self._rules.get(origin, rules)
        segments = _segments(path.lower() if rules.fold_case else path)
        if rules.cuts or rules.cut_kinds:
            segments = _cut(segments, rules)
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
        return f"{origin}{path}{query}"

    def explain(self, norm: NormalizedURL) -> str | None:
        """The learned rules that change ``norm``'s key, each with its proof where one
        was kept, for the record of a URL skipped as ``duplicate-url``; ``None`` when
        no learned rule changes it."""
        origin = str(norm.origin)
        rules = self._rules.get(origin)
        if rules is None:
            return None
        proofs = self._evidence.proofs
        said: list[str] = [line for line in [self._paths.explain(origin, norm.path)] if line]
        if rules.twin is not None:
            said.append(proofs.get(f"{origin} twin", f"host twin of {rules.twin}"))
            origin = rules.twin
            rules = self._rules.get(origin, rules)
        if rules.fold_case and norm.path != norm.path.lower():
            said.append(proofs.get(f"{origin} case", "letter case of paths folded"))
        segments = _segments(norm.path.lower() if rules.fold_case else norm.path)
        cut = _cut(segments, rules)
        if len(cut) < len(segments):
            file = "/" + "/".join(cut)
            kind = _file_ext(cut[-1]) or ""
            said.append(
                proofs.get(f"{origin} cut {file}")
                or proofs.get(f"{origin} cut .{kind}", f"tail after {file} cut")
            )
        for position in sorted(rules.session_positions):
            if position < len(cut) - 1 and is_token(cut[position]):
                generic = f"session id in path segment {position + 1}"
                said.append(proofs.get(f"{origin} segment {position}", generic))
        if len(cut) > 1 and cut[0].lower() in rules.prefixes:
            said.append(f"prefix /{cut[0]} names the same page (rel=canonical)")
        for pair in _pairs(norm.query):
            name = _name(pair)
            if name in rules.params:
                generic = f"parameter {name} ignored"
                said.append(proofs.get(f"{origin} param {name}", generic))
            elif pair in rules.pairs:
                said.append(proofs.get(f"{origin} pair {pair}", f"{pair} changes nothing"))
        return "; ".join(dict.fromkeys(said)) or None

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
        if rules.fold_case:
            parts.append("letter case of paths ignored")
        if rules.cuts:
            parts.append(f"tails after {', '.join(sorted(rules.cuts))} cut")
        if rules.cut_kinds:
            kinds = ", ".join(f".{kind}" for kind in sorted(rules.cut_kinds))
            parts.append(f"tails after every {kinds} file cut")
        if rules.twin is not None:
            parts.append(f"a twin of {rules.twin}")
        return "; ".join(parts)

    def _for(self, norm: NormalizedURL) -> _OriginRules:
        return self._rules.setdefault(str(norm.origin), _OriginRules())

    # -- copy families (DUST) ------------------------------------------------------

    def observe(self, norm: NormalizedURL, text: int, words: Sequence[str] = ()) -> list[str]:
        """A fetched page's main text (an exact hash of what a reader sees, so links
        that carry fresh tokens do not make two fetches of one page differ) under its
        URL: learn, or veto, the copy-family rewrites of the module docstring.
        Returns a line for each rewrite learned or withdrawn now. ``words``, a
        listing's, prove directory aliases (:mod:`robotkit.url.substitution`)."""
        ev = self._evidence
        if norm.key in ev.texts or len(ev.texts) >= self.max_texts:
            return []
        ev.texts[norm.key] = text
        origin = str(norm.origin)
        listing = listing_text(norm.path, words) if norm.path.endswith("/") else None
        aliases = self._paths.observe(origin, _target(norm), listing or text, bool(listing))
        if aliases:
            self._for(norm)
        return [
            *aliases,
            *self._observe_params(origin, norm, text),
            *self._observe_case(origin, norm, text),
            *self._observe_tails(origin, norm, text),
            *self._observe_host(origin, norm, text),
        ]

    def prefers(self, short: NormalizedURL, long: NormalizedURL) -> bool:
        """Whether ``short`` is the page and ``long`` its copy: :func:`reduces`, or
        ``long`` under a learned directory alias of ``short``'s path."""
        origin = str(long.origin)
        aliased = self._paths.rewrite(origin, long.path) == short.path != long.path
        return reduces(short, long) or (aliased and short.query == long.query)

    def _prove(self, proof: str, line: str) -> list[str]:
        self._evidence.proofs[proof] = line
        return [line]

    def _withdraw(self, proof: str, why: str) -> list[str]:
        """A counter-example to a rewrite learned earlier: the rewrite goes."""
        line = self._evidence.proofs.pop(proof, None)
        return [] if line is None else [f"withdrawn ({why}): {line}"]

    def _observe_params(self, origin: str, norm: NormalizedURL, text: int) -> list[str]:
        ev = self._evidence
        pairs = _pairs(norm.query)
        names = [_name(p) for p in pairs]
        found: list[str] = []
        for j, pair in enumerate(pairs):
            name = names[j]
            if names.count(name) > 1 or f"{origin} {name}" in ev.no_param:
                continue
            rest = pairs[:j] + pairs[j + 1 :]
            base = norm.path + (f"?{'&'.join(rest)}" if rest else "")
            values = ev.values.setdefault(f"{origin} {name} {base}", {})
            values[pair.partition("=")[2]] = text
            bare = ev.texts.get(f"{origin}{base}")
            if len(set(values.values())) > 1 or bare not in (None, text):
                found += self._veto_param(origin, name, f"{base} changes with {name}")
            elif len(values) >= PARAM_VALUES and name not in self._for(norm).params:
                self._for(norm).params.add(name)
                shown = ", ".join(sorted(values)[:PARAM_VALUES])
                line = (
                    f"parameter {name} dropped whatever its value on {origin}: "
                    f"{len(values)} values ({shown}) of {base} gave one text"
                )
                found += self._prove(f"{origin} param {name}", line)
            ev.bases.setdefault(f"{origin}{base}", set()).add(name)
        # This page may be the bare form of pages with one parameter more.
        base = _target(norm)
        for name in sorted(ev.bases.get(norm.key, ())):
            if set(ev.values[f"{origin} {name} {base}"].values()) != {text}:
                found += self._veto_param(origin, name, f"{base} differs with {name}")
        return found

    def _veto_param(self, origin: str, name: str, why: str) -> list[str]:
        self._evidence.no_param.add(f"{origin} {name}")
        proof = f"{origin} param {name}"
        if proof not in self._evidence.proofs:
            return []
        self._rules[origin].params.discard(name)
        return self._withdraw(proof, why)

    def _observe_case(self, origin: str, norm: NormalizedURL, text: int) -> list[str]:
        ev = self._evidence
        query = f"?{norm.query}" if norm.query else ""
        spellings = ev.cases.setdefault(f"{origin}{norm.path.lower()}{query}", {})
        others = set(spellings.values())
        spellings[norm.path] = text
        if not others or origin in ev.no_case:
            return []
        if others != {text}:
            ev.no_case.add(origin)
            if f"{origin} case" in ev.proofs:
                self._rules[origin].fold_case = False
                return self._withdraw(f"{origin} case", f"{norm.path} differs by case")
            return []
        ev.case_proofs[origin] = ev.case_proofs.get(origin, 0) + 1
        rules = self._for(norm)
        if ev.case_proofs[origin] < CASE_VARIANTS or rules.fold_case:
            return []
        rules.fold_case = True
        shown = ", ".join(sorted(spellings))
        line = f"letter case of paths folded on {origin}: {shown} gave one text"
        return self._prove(f"{origin} case", line)

    def _observe_tails(self, origin: str, norm: NormalizedURL, text: int) -> list[str]:
        ev = self._evidence
        query = f"?{norm.query}" if norm.query else ""
        segments = _segments(norm.path)
        found: list[str] = []
        for i, segment in enumerate(segments):
            kind = _file_ext(segment)
            if kind is None:
                continue
            file = "/" + "/".join(segments[: i + 1])
            tails = ev.tails.setdefault(f"{origin}{file}{query}", {})
            tails[norm.path[len(file) :]] = text
            found += self._judge_file(origin, norm, file, kind, tails)
        return found

    def _judge_file(
        self, origin: str, norm: NormalizedURL, file: str, kind: str, tails: dict[str, int]
    ) -> list[str]:
        """Whether the tails after ``file`` name the file itself (proof) or other pages
        (a veto: a front controller's ``index.php/section``)."""
        rules = self._rules.get(origin) or _OriginRules()
        own = tails.get("")
        texts = set(tails.values())
        if (own is None and len(texts) > 1) or (own is not None and texts != {own}):
            rules = self._for(norm)
            if file in rules.no_cut:
                return []
            rules.no_cut.add(file)
            rules.cuts.discard(file)
            found = self._withdraw(f"{origin} cut {file}", f"a tail of {file} differs")
            if kind in rules.cut_kinds:
                rules.cut_kinds.discard(kind)
                found += self._withdraw(f"{origin} cut .{kind}", f"a tail of {file} differs")
            return found
        same = sorted(tail for tail in tails if tail)
        if own is None or len(same) < TAILS or file in rules.cuts:
            return []
        rules = self._for(norm)
        rules.cuts.add(file)
        shown = ", ".join(same[:TAILS])
        found = self._prove(
            f"{origin} cut {file}",
            f"tail after {file} cut on {origin}: {shown} served as {file}",
        )
        if kind not in _STATIC:
            return found
        files = self._evidence.cut_files.setdefault(f"{origin} {kind}", set())
        files.add(file)
        vetoed = any(_file_ext(f.rpartition("/")[2]) == kind for f in rules.no_cut)
        if len(files) >= STATIC_FILES and kind not in rules.cut_kinds and not vetoed:
            rules.cut_kinds.add(kind)
            line = (
                f"tail after every .{kind} file cut on {origin}: "
                f"{', '.join(sorted(files))} served their tails as themselves"
            )
            found += self._prove(f"{origin} cut .{kind}", line)
        return found

    def _observe_host(self, origin: str, norm: NormalizedURL, text: int) -> list[str]:
        ev = self._evidence
        target = _target(norm)
        hosts = ev.hosts.setdefault(target, {})
        if origin in hosts:
            return []
        found: list[str] = []
        for other, theirs in list(hosts.items()):
            pair = f"{origin} {other}"
            if theirs != text:
                ev.no_twin.update({pair, f"{other} {origin}"})
                for a, b in ((origin, other), (other, origin)):
                    if self._rules.get(a, _OriginRules()).twin == b:
                        self._rules[a].twin = None
                        found += self._withdraw(f"{a} twin", f"{target} differs")
                continue
            paths = ev.twin_proofs.setdefault(pair, set())
            paths.add(target)
            rules = self._for(norm)
            mine = self._rules.get(other)
            if (
                len(paths) >= TWIN_PATHS
                and pair not in ev.no_twin
                and rules.twin is None
                and (mine is None or mine.twin is None)
            ):
                rules.twin = other
                shown = ", ".join(sorted(paths)[:TWIN_PATHS])
                line = f"host {origin} is a twin of {other}: {shown} gave one text on both"
                found += self._prove(f"{origin} twin", line)
        hosts[origin] = text
        return found

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
        same = " gave one text"
        seg_a, seg_b = _segments(a.path), _segments(b.path)
        if a.query == b.query and abs(len(seg_a) - len(seg_b)) == 1:
            # One spelling has a token segment more (``/docs/x8Kq2.../guide``).
            longer, shorter = (seg_a, seg_b) if len(seg_a) > len(seg_b) else (seg_b, seg_a)
            for i in range(len(longer) - 1):
                if longer[:i] + longer[i + 1 :] == shorter and is_token(longer[i]):
                    self._for(a).session_positions.add(i)
                    proof = f"session id in path segment {i + 1}: {url} and {other}"
                    self._evidence.proofs[f"{a.origin} segment {i}"] = proof + same
                    return True
            return False
        if a.query == b.query and len(seg_a) == len(seg_b):
            differ = [i for i, (x, y) in enumerate(zip(seg_a, seg_b, strict=True)) if x != y]
            if len(differ) == 1 and is_token(seg_a[differ[0]]) and is_token(seg_b[differ[0]]):
                rules = self._for(a)
                rules.session_positions.add(differ[0])
                proof = f"session id in path segment {differ[0] + 1}: {url} and {other}"
                self._evidence.proofs[f"{a.origin} segment {differ[0]}"] = proof + same
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
            # A token value added (``?sid=x8Kq2...``) is a session parameter, whatever
            # its next value; any other pair changes nothing as it is.
            tokens = {_name(p) for p in extra if is_token(p.partition("=")[2])}
            self._for(a).params.update(tokens)
            self._for(a).pairs.update(p for p in extra if _name(p) not in tokens)
            for p in extra:
                name = _name(p)
                what = f"param {name}" if name in tokens else f"pair {p}"
                line = (
                    f"parameter {name} is a session id"
                    if name in tokens
                    else f"{p} changes nothing"
                )
                self._evidence.proofs[f"{a.origin} {what}"] = f"{line}: {url} and {other}{same}"
            return True
        if [_name(p) for p in pairs_a] != [_name(p) for p in pairs_b]:
            return False
        differ = [i for i, (x, y) in enumerate(zip(pairs_a, pairs_b, strict=True)) if x != y]
        if len(differ) != 1:
            return False
        value_a = pairs_a[differ[0]].partition("=")[2]
        value_b = pairs_b[differ[0]].partition("=")[2]
        if is_token(value_a) and is_token(value_b):
            name = _name(pairs_a[differ[0]])
            self._for(a).params.add(name)
            line = f"parameter {name} is a session id: {url} and {other}{same}"
            self._evidence.proofs[f"{a.origin} param {name}"] = line
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
