"""The rewrites one origin's URLs are known to allow, and the key they give a URL.

A crawl learns them from what a site shows (:mod:`robotkit.url.learned` from pairs of
copies, links and ``rel=canonical``; :mod:`robotkit.url.families` from fetched pages'
texts): a session id as a path segment, parameters whatever their value, exact pairs
that change nothing, parameter order, named prefixes (``/amp/``), letter case, the
tail after a file, a twin host. :class:`Rewrites` keeps them per origin and turns a
normalized URL into its key under them, and says which of them changed a key. Pure: no
I/O.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from robotkit.base.snapshot import listed, typed
from robotkit.url.normalization import NormalizedURL, without_pairs

__all__ = [
    "OriginRules",
    "Rewrites",
    "common_tail",
    "extra_pairs",
    "file_ext",
    "files_of",
    "folder",
    "is_token",
    "own_page",
    "own_template",
    "param_name",
    "path_segments",
    "query_pairs",
    "query_states",
    "section",
    "template_drops",
]

_TOKEN = re.compile(r"[A-Za-z0-9_\-]{8,}")
_FILE = re.compile(r"[^/]*[A-Za-z0-9_\-]\.([A-Za-z][A-Za-z0-9]{1,4})")
_LETTER = re.compile(r"[A-Za-z]")
_DIGIT = re.compile(r"\d")
_SLUG = re.compile(r"(?:[A-Za-z]+|\d+)(?:[-_](?:[A-Za-z]+|\d+))+")
"""Words (letters, or digits) joined by hyphens or underscores: a title's slug."""


def is_token(text: str) -> bool:
    """Whether a path segment or value looks machine-made: 8 or more URL-safe
    characters with both letters and digits (``3fa9c2e1``, ``x7K2q9Lm``), or 20 or
    more of them in any mix. Words, slugs and plain numbers are not tokens: a title
    slug of 20 characters or more (``service-come-capacitor``, ``Albert_Einstein``),
    its words all letters or all digits, names a page as a shorter one does (a
    forum's ``/t/{slug}/147`` beside ``/t/147`` is no session id)."""
    if not _TOKEN.fullmatch(text):
        return False
    if len(text) >= 20:
        return not _SLUG.fullmatch(text)
    return bool(_LETTER.search(text)) and bool(_DIGIT.search(text)) and "-" not in text


_WORD = re.compile(r"[A-Za-z]{3,}")


def named_value(value: str) -> bool:
    """Whether a token-like value is a name made of words (a portlet's id,
    ``com_liferay_asset_publisher_web_portlet_..._INSTANCE_CUE6rifamhFA``): three
    words of letters or more among its ``_``/``-`` parts, and most of its parts. A
    session id is one random run; a name routes the request (blind6 ``liferay``: the
    portlet's id learned as a session id was dropped from its pager's links)."""
    parts = re.split(r"[-_]", value)
    words = sum(1 for part in parts if _WORD.fullmatch(part))
    return words >= 3 and 2 * words > len(parts)


def query_pairs(query: str | None) -> list[str]:
    """The ``name=value`` pairs of a query, in order."""
    return [part for part in (query or "").split("&") if part]


def query_states(query: str | None) -> list[str]:
    """The ``name=value`` pairs of a query, in order, its ``;``-joined display states
    split too (``?p=x;a=log``: HTML 4.01, appendix B.2.2, asks servers to take ``;``
    as ``&``'s other separator)."""
    return [part for part in (query or "").replace(";", "&").split("&") if part]


def param_name(pair: str) -> str:
    """A pair's parameter name, lower case."""
    return pair.partition("=")[0].lower()


def path_segments(path: str) -> list[str]:
    """A path's segments (``/a/b/`` is ``a``, ``b``, ``""``)."""
    return path.split("/")[1:]


def common_tail(one: Sequence[str], two: Sequence[str]) -> int:
    """How many segments two paths share at their end (``a/b/c`` and ``x/b/c``: 2)."""
    tail = 0
    while tail < min(len(one), len(two)) and one[-1 - tail] == two[-1 - tail]:
        tail += 1
    return tail


def folder(segments: Sequence[str]) -> str:
    """Leading segments as a directory prefix (``a``, ``b`` as ``/a/b/``)."""
    return "/" + "".join(f"{segment}/" for segment in segments)


def file_ext(segment: str) -> str | None:
    """The extension of a file-like path segment (``index.html``), lower case."""
    found = _FILE.fullmatch(segment)
    return found.group(1).lower() if found else None


def section(path: str) -> str:
    """The section of the site a path is in: its first directory (``/help/`` of
    ``/help/permit``), or ``/`` for a page at the top. A parameter proven to change
    nothing in one section may translate pages in another (``?lang=`` ignored by the
    home page, honoured by ``/help/``)."""
    segments = path_segments(path)
    return f"/{segments[0]}/" if len(segments) > 1 else "/"


def files_of(where: str) -> str:
    """The pages of section ``where`` whose path names a file, not a directory's index
    (``/cgit/*``): where an object's id proven to change nothing on a file's page holds
    (:meth:`robotkit.url.learned.LearnedRules.names_object`)."""
    return f"{where}*"


def areas(path: str) -> set[str]:
    """The scopes a rule may hold in for a page at ``path``: its section, the page
    itself, and the section's files when it is one (:func:`files_of`)."""
    where = section(path)
    return {where, path} | (set() if path.endswith("/") else {files_of(where)})


def own_page(path: str, pairs: Iterable[str]) -> str:
    """Where a rule proven on one page only holds: its path, and its query's pairs in
    order when the query names the page (a Dataverse dataset,
    ``/dataset.xhtml?persistentId=doi:...``, is one of a script's objects: its
    ``&version=1.0``, a copy of it, is an older version of the next)."""
    query = "&".join(sorted(pairs))
    return f"{path}?{query}" if query else path


def own_template(path: str, names: Iterable[str]) -> str:
    """Where a parameter a canonical URL drops holds when that URL keeps a query: the
    pages of its path with its parameter names (``/index.php?product_id,route``). A
    front controller's product names its list in ``path=`` and its canonical drops
    it, while ``path=`` is what names a category (blind8 ``opencart``)."""
    return f"{path}?{','.join(sorted(set(names)))}"


def template_drops(rules: OriginRules, path: str, names: set[str], params: set[str]) -> bool:
    """Learn ``params`` dropped on the pages of ``path`` whose other parameters are
    ``names`` (:func:`own_template`); returns whether anything was new."""
    where = own_template(path, names)
    new = {n for n in params if where not in rules.scoped.get(n, set())}
    for name in new:
        rules.scoped.setdefault(name, set()).add(where)
    return bool(new)


def extra_pairs(fewer: list[str], more: list[str]) -> set[str]:
    """The pairs ``more`` adds to ``fewer`` when it keeps all of them, else none."""
    rest = list(more)
    for pair in fewer:
        if pair not in rest:
            return set()
        rest.remove(pair)
    return set(rest)


@dataclass
class OriginRules:
    """The rewrites learned for one origin."""

    session_positions: set[int] = field(default_factory=set)
    prefixes: set[str] = field(default_factory=set)
    params: set[str] = field(default_factory=set)
    pairs: set[str] = field(default_factory=set)
    any_order: bool = False
    scoped: dict[str, set[str]] = field(default_factory=dict)
    """A parameter, an exact ``name=value`` pair, or ``name+`` (of a repeated
    parameter only the last value counts) to the sections (:func:`section`) where it
    is dropped: a copy is proven one section at a time."""
    fold_case: bool = False
    cuts: set[str] = field(default_factory=set)
    """Paths of files whose path-info tails are cut (``/library/index.html``)."""
    cut_kinds: set[str] = field(default_factory=set)
    """Static extensions whose every file's tail is cut on this origin."""
    no_cut: set[str] = field(default_factory=set)
    """Files whose tails were shown to name other pages (a front controller)."""
    twin: str | None = None
    """The origin this one is a twin of: its URLs are keyed there."""
    session_tails: set[str] = field(default_factory=set)
    """Folders whose last segment, a token, is a session id (:mod:`robotkit.url.tails`)."""

    def untail(self, segments: list[str]) -> str | None:
        """Empty ``segments``' last one when it is a token in a folder whose last
        segment is a session id; returns that folder, or ``None``."""
        if len(segments) < 2 or not self.session_tails or not is_token(segments[-1]):
            return None
        folder = "/" + "".join(s + "/" for s in segments[:-1])
        if folder not in self.session_tails:
            return None
        segments[-1] = ""
        return folder

    def cut(self, segments: list[str]) -> list[str]:
        """``segments`` without the path-info tail after a file whose tails are cut."""
        cuts, no_cut = self.cuts, self.no_cut
        if self.fold_case:
            cuts, no_cut = {c.lower() for c in cuts}, {c.lower() for c in no_cut}
        for i, segment in enumerate(segments[:-1]):
            kind = file_ext(segment)
            if kind is None:
                continue
            file = "/" + "/".join(segments[: i + 1])
            if file in cuts or (kind in self.cut_kinds and file not in no_cut):
                return segments[: i + 1]
        return segments


class Rewrites:
    """The rewrites learned for each origin, and the key they give."""

    def __init__(self, origins: dict[str, OriginRules] | None = None) -> None:
        self.origins: dict[str, OriginRules] = {} if origins is None else origins

    def __bool__(self) -> bool:
        return bool(self.origins)

    def of(self, norm: NormalizedURL) -> OriginRules:
        """The rules of ``norm``'s origin, new ones if none were learned yet."""
        return self.origins.setdefault(str(norm.origin), OriginRules())

    def spelled(self, norm: NormalizedURL, url: str) -> str:
        """``url`` (spelling ``norm``) as written, less the parameters its origin's
        rules drop whatever their value (a session id, what ``rel=canonical`` left
        out): the spelling to request. A page queued under such a spelling before
        the rule was learned is fetched under its own URL, not the session's, as
        Nutch's normalizers rewrite what they fetch (blind3 ``confluence``: pages
        linked only as ``?src=contextnavpagetreemode`` were fetched so, never as
        themselves)."""
        rules = self.origins.get(str(norm.origin))
        if rules is None or not rules.params or not norm.query:
            return url
        return without_pairs(url, lambda pair: param_name(pair) in rules.params)

    def knows(self, norm: NormalizedURL) -> bool:
        """Whether anything was learned about ``norm``'s origin."""
        return str(norm.origin) in self.origins

    def snapshot(self) -> list[list[Any]]:
        """One row per origin, as JSON."""
        return [
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
                [[name, sorted(where)] for name, where in sorted(rules.scoped.items())],
                sorted(rules.session_tails),
            ]
            for origin, rules in self.origins.items()
        ]

    @classmethod
    def restored(cls, rows: Any) -> Rewrites:
        """:meth:`snapshot`'s rows read back (a row of 6, before the copy families, too);
        to call inside :func:`~robotkit.base.snapshot.reading`."""
        learned: dict[str, OriginRules] = {}
        for origin, positions, prefixes, params, pairs, any_order, *more in listed(
            rows, "origins", list
        ):
            rules = learned[typed(origin, str, "origin")] = OriginRules(
                set(listed(positions, "position", int)),
                set(listed(prefixes, "prefix", str)),
                set(listed(params, "parameter", str)),
                set(listed(pairs, "pair", str)),
                typed(any_order, bool, "any order"),
            )
            if more:
                fold_case, cuts, kinds, no_cut, twin, *scoped = more
                rules.fold_case = typed(fold_case, bool, "fold case")
                rules.cuts = set(listed(cuts, "cut", str))
                rules.cut_kinds = set(listed(kinds, "cut kind", str))
                rules.no_cut = set(listed(no_cut, "cut", str))
                rules.twin = None if twin is None else typed(twin, str, "twin")
                rules.scoped = {
                    typed(name, str, "parameter"): set(listed(where, "section", str))
                    for name, where in (listed(scoped[0], "scoped", list) if scoped else [])
                }
                tails = scoped[1] if len(scoped) > 1 else []  # none saved before
                rules.session_tails = set(listed(tails, "session tail", str))
        return cls(learned)

    def key(self, norm: NormalizedURL) -> str:
        """``norm``'s key with the rules of its origin applied (a twin host's URLs keyed
        on the host it is a twin of)."""
        origin = str(norm.origin)
        rules = self.origins.get(origin)
        if rules is None:
            return norm.key
        if rules.twin is not None:
            origin = rules.twin
            rules = self.origins.get(origin, rules)
        segments = path_segments(norm.path.lower() if rules.fold_case else norm.path)
        if rules.cuts or rules.cut_kinds:
            segments = rules.cut(segments)
        rules.untail(segments)
        for position in sorted(rules.session_positions, reverse=True):
            if position < len(segments) - 1 and is_token(segments[position]):
                del segments[position]
        while len(segments) > 1 and segments[0].lower() in rules.prefixes:
            del segments[0]
        path = "/" + "/".join(segments)
        area = areas(path)  # a rule proven on one page only is that page's
        dropped = rules.pairs | {n for n, where in rules.scoped.items() if area & where}
        # A pair repeated exactly (``?lang=es&lang=es``) names what it names once.
        pairs = list(dict.fromkeys(query_pairs(norm.query)))
        dropped |= _dropped_here(rules, path, pairs)
        pairs = [
            p for p in pairs if param_name(p) not in rules.params | dropped and p not in dropped
        ]
        last = {name[:-1] for name in dropped if name.endswith("+")}
        if last:  # a repeated parameter whose last value is known to count
            names = [param_name(p) for p in pairs]
            pairs = [
                p
                for i, p in enumerate(pairs)
                if names[i] not in last or names[i] not in names[i + 1 :]
            ]
        if rules.any_order:
            pairs.sort()
        query = f"?{'&'.join(pairs)}" if pairs else ""
        return f"{origin}{path}{query}"

    def explain(self, norm: NormalizedURL, proofs: Mapping[str, str]) -> str | None:
        """The rules that change ``norm``'s key, each with its proof (``proofs``: a rule,
        ``origin kind subject``, to the evidence that proved it) where one was kept;
        ``None`` when no rule changes it."""
        origin = str(norm.origin)
        rules = self.origins.get(origin)
        if rules is None:
            return None
        said: list[str] = []
        if rules.twin is not None:
            said.append(proofs.get(f"{origin} twin", f"host twin of {rules.twin}"))
            origin = rules.twin
            rules = self.origins.get(origin, rules)
        if rules.fold_case and norm.path != norm.path.lower():
            said.append(proofs.get(f"{origin} case", "letter case of paths folded"))
        segments = path_segments(norm.path.lower() if rules.fold_case else norm.path)
        cut = rules.cut(segments)
        if len(cut) < len(segments):
            file = "/" + "/".join(cut)
            kind = file_ext(cut[-1]) or ""
            said.append(
                proofs.get(f"{origin} cut {file}")
                or proofs.get(f"{origin} cut .{kind}", f"tail after {file} cut")
            )
        if (folder := rules.untail(cut)) is not None:
            said.append(proofs.get(f"{origin} tail {folder}", f"session id ending {folder}"))
        for position in sorted(rules.session_positions):
            if position < len(cut) - 1 and is_token(cut[position]):
                generic = f"session id in path segment {position + 1}"
                said.append(proofs.get(f"{origin} segment {position}", generic))
        if len(cut) > 1 and cut[0].lower() in rules.prefixes:
            said.append(f"prefix /{cut[0]} names the same page (rel=canonical)")
        path = self.key(norm)[len(origin) :].partition("?")[0]
        where = section(path)
        scoped = {name for name, sections in rules.scoped.items() if areas(path) & sections}
        pairs = query_pairs(norm.query)
        scoped |= _dropped_here(rules, path, pairs)
        for pair in pairs:
            name = param_name(pair)
            if name in rules.params:
                generic = f"parameter {name} ignored"
                said.append(proofs.get(f"{origin} param {name}", generic))
            elif pair in rules.pairs:
                said.append(proofs.get(f"{origin} pair {pair}", f"{pair} changes nothing"))
            elif name in scoped:
                generic = f"parameter {name} ignored in {where}"
                said.append(proofs.get(f"{origin} param {name} {where}", generic))
            elif pair in scoped:
                generic = f"{pair} changes nothing in {where}"
                said.append(proofs.get(f"{origin} pair {pair} {where}", generic))
            elif f"{name}+" in scoped:
                generic = f"only the last {name} counts in {where}"
                said.append(proofs.get(f"{origin} pair {name}+ {where}", generic))
        return "; ".join(dict.fromkeys(said)) or None

    def describe(self, norm: NormalizedURL) -> str:
        """The rules of ``norm``'s origin, for a summary line."""
        rules = self.origins.get(str(norm.origin))
        if rules is None:
            return "nothing"
        parts = []
        if rules.session_positions:
            where = ", ".join(str(p + 1) for p in sorted(rules.session_positions))
            parts.append(f"session id in path segment {where}")
        if rules.session_tails:
            parts.append(f"session id ending {', '.join(sorted(rules.session_tails))}")
        if rules.prefixes:
            parts.append(f"prefixes {', '.join(sorted(rules.prefixes))} name the same page")
        if rules.params:
            parts.append(f"parameters {', '.join(sorted(rules.params))} ignored")
        for name, sections in sorted(rules.scoped.items()):
            if sections:
                what = f"parameter {name} ignored"
                if "=" in name:
                    what = f"parameters {name} change nothing"
                elif name.endswith("+"):
                    what = f"repeated {name[:-1]} ignored but its last value"
                parts.append(f"{what} in {', '.join(sorted(sections))}")
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


def _dropped_here(rules: OriginRules, path: str, pairs: list[str]) -> set[str]:
    """What rules proven on a page's own template or page drop from its query at
    ``path``: the parameters a canonical of its template drops, and the pairs proven
    on the page the rest of the query names (:func:`own_page`)."""
    own = {
        p
        for p in pairs
        if p in rules.scoped and own_page(path, [q for q in pairs if q != p]) in rules.scoped[p]
    }
    return _template_dropped(rules, path, pairs) | own


def _template_dropped(rules: OriginRules, path: str, pairs: list[str]) -> set[str]:
    """The parameters of a query that a canonical URL of its template drops
    (:func:`own_template`: the names left once they are dropped)."""
    names = {param_name(p) for p in pairs}
    learned = {n for n in names if any("?" in where for where in rules.scoped.get(n, ()))}
    template = own_template(path, names - learned)
    return {n for n in learned if template in rules.scoped[n]}
