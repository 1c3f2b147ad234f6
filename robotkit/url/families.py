"""Copy families learned from content: the DUST rules of Bar-Yossef, Keidar and
Schonfeld ("Do not crawl in the DUST", WWW 2007).

Every fetched page's main text is remembered under its URL (:meth:`CopyFamilies.observe`),
and when URLs that differ in one way keep returning one text, the rewrite that maps one
onto the other is learned for the whole origin (into its
:class:`~robotkit.url.rewrites.OriginRules`), so every queued and future member of the
family has the key of the page already fetched. Each rewrite needs proof and is vetoed
by one counter-example (two spellings of the family with different texts):

- a parameter whatever its value: 3 values of it on one page gave one text, none
  another (``?page=2`` and ``?lang=fr`` are vetoed by their first differing page);
- letter case in paths: 2 spellings that differ only in case (a case-sensitive server
  vetoes);
- the tail after a file-like segment (``x.html/anything`` served as ``x.html``,
  Apache's ``AcceptPathInfo``): 2 tails; a front controller ``index.php/section``
  vetoes; 2 static files so proven extend it to every ``.html`` of the origin;
- a host onto its twin: 2 paths with one text on both; one path with two texts vetoes.

A rewrite learned and later contradicted is withdrawn. The evidence (texts grouped by
the one way their URLs differ, proof counts, vetoes) and the proof of every rule
(these and :mod:`robotkit.url.learned`'s, for the skip records) are kept here. Pure:
no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from robotkit.base.snapshot import listed, typed
from robotkit.url.normalization import NormalizedURL
from robotkit.url.rewrites import (
    OriginRules,
    Rewrites,
    extra_pairs,
    file_ext,
    files_of,
    param_name,
    path_segments,
    query_pairs,
    section,
)
from robotkit.url.waste import STATIC

__all__ = [
    "CASE_VARIANTS",
    "MAX_TEXTS",
    "PARAM_VALUES",
    "STATIC_FILES",
    "TAILS",
    "TWIN_PATHS",
    "CopyFamilies",
    "elsewhere",
    "path_info_tail",
    "reduces",
]


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


def _pair(pair: str) -> str:
    """A ``name=value`` pair as parameter names are compared (:func:`param_name`)."""
    return f"{param_name(pair)}={pair.partition('=')[2]}"


def _target(norm: NormalizedURL) -> str:
    return norm.path + (f"?{norm.query}" if norm.query else "")


def path_info_tail(norm: NormalizedURL) -> bool:
    """Whether ``norm``'s path goes on after a static file (``/a/x.html/b``): a
    spelling only path info makes a page of (Apache ``AcceptPathInfo On``)."""
    segments = path_segments(norm.path)
    return any(file_ext(segment) in STATIC for segment in segments[:-1])


def elsewhere(copy: NormalizedURL, old: NormalizedURL | None) -> bool:
    """Whether ``copy`` is ``old``'s path and query on another origin: the page a second
    host serves again (a mirror, a second instance of one application serving every
    object of the first). Which of the two hosts is the page's own the text cannot
    tell, and each host's own pages are the host's (the twin rule maps one host onto
    the other only once two paths prove it): read second, the page is no evidence
    against its family on its host (blind13 ``invidious``: the second instance's
    videos, read first, made the first instance's family of videos barren, and 8 of its
    16 videos waited for good)."""
    return old is not None and copy.origin != old.origin and _target(copy) == _target(old)


def reduces(short: NormalizedURL, long: NormalizedURL) -> bool:
    """Whether ``short`` is the shorter, canonical spelling of ``long`` in a copy
    family: the file ``long`` adds a path-info tail to (``/a/x.html`` of
    ``/a/x.html/b``), or the same path with fewer parameters. Of two such URLs with
    one text, ``short`` is the page and ``long`` the copy."""
    if short.origin != long.origin or len(short.key) >= len(long.key):
        return False
    if short.path == long.path:
        return extra_pairs(query_pairs(short.query), query_pairs(long.query)) != set()
    last = short.path.rpartition("/")[2]
    return (
        short.query == long.query
        and file_ext(last) is not None
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
    no_pair: set[str] = field(default_factory=set)
    """``origin name=value section``: an exact pair shown to change a page's text there
    (``L=1`` on a translated page), never learned to change nothing there."""
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


class CopyFamilies:
    """The copy families' evidence, learning into ``rewrites``; see the module
    docstring."""

    def __init__(self, rewrites: Rewrites, max_texts: int = MAX_TEXTS) -> None:
        self.rewrites = rewrites
        self.max_texts = max_texts
        self._evidence = _Evidence()

    @property
    def proofs(self) -> dict[str, str]:
        """A learned rewrite (``origin kind subject``) to the evidence that proved it."""
        return self._evidence.proofs

    def snapshot(self) -> dict[str, Any]:
        """The evidence as JSON."""
        return {name: _encoded(getattr(self._evidence, name)) for name in _Evidence.__annotations__}

    @classmethod
    def restored(cls, data: Any, rewrites: Rewrites, max_texts: int) -> CopyFamilies:
        """:meth:`snapshot` read back, learning into ``rewrites``; to call inside
        :func:`~robotkit.base.snapshot.reading` (``KeyError`` for an unknown field)."""
        families = cls(rewrites, max_texts)
        evidence = families._evidence
        for name, value in typed(data, dict, "evidence").items():
            if name not in _Evidence.__annotations__:
                raise KeyError(name)
            setattr(evidence, name, _decoded(value, type(getattr(evidence, name)), name))
        return families

    def observe(self, norm: NormalizedURL, text: int) -> list[str]:
        """A fetched page's main text (an exact hash of what a reader sees, so links
        that carry fresh tokens do not make two fetches of one page differ) under its
        URL: learn, or veto, the copy-family rewrites of the module docstring.
        Returns a line for each rewrite learned or withdrawn now."""
        ev = self._evidence
        if norm.key in ev.texts or len(ev.texts) >= self.max_texts:
            return []
        ev.texts[norm.key] = text
        origin = str(norm.origin)
        return [
            *self._observe_params(origin, norm, text),
            *self._observe_case(origin, norm, text),
            *self._observe_tails(origin, norm, text),
            *self._observe_host(origin, norm, text),
        ]

    def _prove(self, proof: str, line: str) -> list[str]:
        self._evidence.proofs[proof] = line
        return [line]

    def _withdraw(self, proof: str, why: str) -> list[str]:
        """A counter-example to a rewrite learned earlier: the rewrite goes."""
        line = self._evidence.proofs.pop(proof, None)
        return [] if line is None else [f"withdrawn ({why}): {line}"]

    def _observe_params(self, origin: str, norm: NormalizedURL, text: int) -> list[str]:
        ev = self._evidence
        pairs = query_pairs(norm.query)
        names = [param_name(p) for p in pairs]
        where = section(norm.path)
        found: list[str] = []
        for j, pair in enumerate(pairs):
            name = names[j]
            if names.count(name) > 1 or f"{origin} {name} {where}" in ev.no_param:
                continue
            rest = pairs[:j] + pairs[j + 1 :]
            base = norm.path + (f"?{'&'.join(rest)}" if rest else "")
            values = ev.values.setdefault(f"{origin} {name} {base}", {})
            values[pair.partition("=")[2]] = text
            bare = ev.texts.get(f"{origin}{base}")
            if bare not in (None, text):
                found += self._disprove_pair(origin, pair, norm.path)
            if len(set(values.values())) > 1 or bare not in (None, text):
                found += self._veto_param(origin, name, where, f"{base} changes with {name}")
            elif len(values) >= PARAM_VALUES:
                shown = ", ".join(sorted(values)[:PARAM_VALUES])
                found += self._learn_param(
                    norm, name, f"{len(values)} values ({shown}) of {base} gave one text"
                )
            elif bare is not None:
                shown = f"{_target(norm)} gave the text of {base}"
                found += self._extend_param(norm, name, shown) or self._extend_pair(
                    norm, pair, shown
                )
            ev.bases.setdefault(f"{origin}{base}", set()).add(name)
        # This page may be the bare form of pages with one parameter more.
        base = _target(norm)
        for name in sorted(ev.bases.get(norm.key, ())):
            for value, other in ev.values[f"{origin} {name} {base}"].items():
                if other != text:
                    found += self._disprove_pair(origin, f"{name}={value}", norm.path)
            if f"{origin} {name} {where}" in ev.no_param:
                continue
            if set(ev.values[f"{origin} {name} {base}"].values()) != {text}:
                found += self._veto_param(origin, name, where, f"{base} differs with {name}")
            else:
                found += self._extend_param(norm, name, f"{base} gave the text of its ?{name}=")
        return found

    def _learn_param(self, norm: NormalizedURL, name: str, evidence: str) -> list[str]:
        """Values enough of ``name`` on one page gave one text: ``name`` is dropped in
        that page's section (another section re-checks it, :meth:`_extend_param`)."""
        origin, where = str(norm.origin), section(norm.path)
        sections = self.rewrites.of(norm).scoped.setdefault(name, set())
        if where in sections:
            return []
        sections.add(where)
        line = f"parameter {name} dropped whatever its value in {where} on {origin}: {evidence}"
        return self._prove(f"{origin} param {name} {where}", line)

    def _extend_param(self, norm: NormalizedURL, name: str, evidence: str) -> list[str]:
        """A page with ``name`` and without it gave one text in a section ``name`` was
        not proven in, while another section proved it: the proof extends here. One
        page of the section is fetched for it, never the section blindly."""
        rules = self.rewrites.origins.get(str(norm.origin))
        # Proven in a section, not only on a canonical's template (``own_template``).
        shown = [s for s in rules.scoped.get(name, ()) if section(s) == s] if rules else []
        if not shown:
            return []
        return self._learn_param(norm, name, f"as in {', '.join(sorted(shown))}, {evidence}")

    def _extend_pair(self, norm: NormalizedURL, pair: str, evidence: str) -> list[str]:
        """As :meth:`_extend_param`, for an exact pair learned to change nothing
        (:meth:`robotkit.url.learned.LearnedRules.learn_pair`) in another section."""
        origin, where = str(norm.origin), section(norm.path)
        rules = self.rewrites.origins.get(origin)
        scopes = rules.scoped.get(pair, set()) if rules is not None else set()
        if where in scopes or not any(section(s) == s for s in scopes):
            return []  # proven in no section, only on pages: a version of each (foswiki)
        shown = ", ".join(sorted(scopes))
        scopes.add(where)
        line = f"{pair} changes nothing in {where} on {origin}: as in {shown}, {evidence}"
        return self._prove(f"{origin} pair {pair} {where}", line)

    def disproved(self, origin: str, pair: str, where: str) -> bool:
        """Whether a fetch under ``pair`` gave other text than its page without it in
        section ``where``: a copy elsewhere then proves nothing of ``pair`` there."""
        return f"{origin} {_pair(pair)} {where}" in self._evidence.no_pair

    def _disprove_pair(self, origin: str, pair: str, path: str) -> list[str]:
        """``pair`` changed a page's text at ``path``: a rule that it changes nothing in
        its section (from an untranslated page, ``?id=2&L=1`` as ``?id=2``) goes, and
        the section's files' (:func:`~robotkit.url.rewrites.files_of`) when ``path`` is
        a file: a commit's own page (``commit/?id=<sha>``) says nothing of the files
        the commit did not touch."""
        where = section(path)
        scopes = {where} | (set() if path.endswith("/") else {files_of(where)})
        self._evidence.no_pair.update(f"{origin} {_pair(pair)} {s}" for s in scopes)
        rules = self.rewrites.origins.get(origin)
        found: list[str] = []
        if rules is not None:
            for learned in [p for p in rules.scoped if _pair(p) == _pair(pair)]:
                rules.scoped[learned] -= scopes
                found += self._withdraw(f"{origin} pair {learned} {where}", f"{pair} changed")
        return found

    def _veto_param(self, origin: str, name: str, where: str, why: str) -> list[str]:
        """``name`` changes a page's text in section ``where``: never dropped there."""
        self._evidence.no_param.add(f"{origin} {name} {where}")
        proof = f"{origin} param {name} {where}"
        if proof not in self._evidence.proofs:
            return []
        self.rewrites.origins[origin].scoped.get(name, set()).discard(where)
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
                self.rewrites.origins[origin].fold_case = False
                return self._withdraw(f"{origin} case", f"{norm.path} differs by case")
            return []
        ev.case_proofs[origin] = ev.case_proofs.get(origin, 0) + 1
        rules = self.rewrites.of(norm)
        if ev.case_proofs[origin] < CASE_VARIANTS or rules.fold_case:
            return []
        rules.fold_case = True
        shown = ", ".join(sorted(spellings))
        line = f"letter case of paths folded on {origin}: {shown} gave one text"
        return self._prove(f"{origin} case", line)

    def _observe_tails(self, origin: str, norm: NormalizedURL, text: int) -> list[str]:
        ev = self._evidence
        query = f"?{norm.query}" if norm.query else ""
        segments = path_segments(norm.path)
        found: list[str] = []
        for i, segment in enumerate(segments):
            kind = file_ext(segment)
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
        rules = self.rewrites.origins.get(origin) or OriginRules()
        own = tails.get("")
        texts = set(tails.values())
        if (own is None and len(texts) > 1) or (own is not None and texts != {own}):
            rules = self.rewrites.of(norm)
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
        rules = self.rewrites.of(norm)
        rules.cuts.add(file)
        shown = ", ".join(same[:TAILS])
        found = self._prove(
            f"{origin} cut {file}",
            f"tail after {file} cut on {origin}: {shown} served as {file}",
        )
        if kind not in STATIC:
            return found
        files = self._evidence.cut_files.setdefault(f"{origin} {kind}", set())
        files.add(file)
        vetoed = any(file_ext(f.rpartition("/")[2]) == kind for f in rules.no_cut)
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
        origins = self.rewrites.origins
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
                    if origins.get(a, OriginRules()).twin == b:
                        origins[a].twin = None
                        found += self._withdraw(f"{a} twin", f"{target} differs")
                continue
            paths = ev.twin_proofs.setdefault(pair, set())
            paths.add(target)
            rules = self.rewrites.of(norm)
            mine = origins.get(other)
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
