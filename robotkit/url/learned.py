"""URL rules a crawl learns from a site: session segments, ignorable parameters, order.

:func:`robotkit.url.normalization.normalize` knows the session and tracking parameters every
crawler knows (``jsessionid``, ``utm_*``). Sites invent their own: a session id as a
path segment (``/x8Kq2.../catalog``), a share parameter (``?share=tw``), ``/amp/`` and
``/print/`` forms of every article. :class:`LearnedRules` learns them from evidence
the site gives, one origin at a time:

- two URLs whose pages are exactly the same and that differ only in one path segment
  or one parameter value, both random-looking tokens: that segment position or that
  parameter is a session id (never a page's id: different pages never have the same
  text; never a parameter a page linked with several token values, a history's
  revisions: a session id is one value a visit);
- pages whose own URL carries a token at some path position while every link they
  give carries one *other* token there (a session id re-issued on each response):
  twice seen, that position is a session id. A page that links several tokens at
  that position (a list of commits) proves it names pages, and vetoes it;
- a parameter each response stamps anew into its links, a CSRF token or a render's
  time (:mod:`robotkit.url.fresh`): proven from two responses' links, no fetch;
- two such URLs that differ only in the order of their parameters: order does not
  matter on this origin;
- two such URLs where one has parameters the other lacks: those exact pairs
  (``a=1``, never ``a`` with any value: ``?page=1`` may be the list itself while
  ``?page=2`` is not) change nothing on this origin;
- a page whose ``rel=canonical`` (RFC 6596) drops parameters or leading path segments
  of its own URL: those parameters and prefixes name the same page
  (:mod:`robotkit.url.canonical`);
- a token a form's redirects mint for each visit (:mod:`robotkit.url.minted`);
- **copy families** (:meth:`LearnedRules.observe`): fetched pages' texts, when URLs
  that differ in one way keep returning one text (:mod:`robotkit.url.families`), or
  one directory under two names (:mod:`robotkit.url.substitution`).

What is learned is kept per origin as :mod:`robotkit.url.rewrites`;
:meth:`LearnedRules.apply` turns a normalized URL into its key under it. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from urllib.parse import unquote

from robotkit.base.snapshot import header, listed, opened, reading, typed
from robotkit.url.canonical import learn_from_canonical
from robotkit.url.families import MAX_TEXTS, CopyFamilies, reduces
from robotkit.url.fresh import FreshValues
from robotkit.url.minted import Minted
from robotkit.url.normalization import NormalizedURL, normalize, normalize_or_none
from robotkit.url.objects import object_scopes
from robotkit.url.parse import InvalidURL
from robotkit.url.rewrites import (
    Rewrites,
    common_tail,
    extra_pairs,
    is_token,
    named_value,
    param_name,
    path_segments,
    query_pairs,
    section,
)
from robotkit.url.substitution import Substitutions, listing_text, moved
from robotkit.url.tails import SessionTails
from robotkit.url.versions import Versions

__all__ = ["LearnedRules", "nested_alias", "nested_copy", "numbered_alias", "query_alias"]


def nested_alias(short: NormalizedURL, long: NormalizedURL) -> bool:
    """Whether ``long`` is ``short``'s item path under leading segments of a list it
    was reached from: ``/collections/c/products/p`` of ``/products/p`` (Shopify,
    Magento's category paths), the same query. A store or a CMS serves an item
    under the path of any list that shows it, and the bare path is the page (DUST's
    "drop a path token", the longer form the copy); ``short`` has two segments or
    more, so a bare file name (``index.html``) is no item (blind4 ``shopify``)."""
    a, b = path_segments(short.path), path_segments(long.path)
    return (
        short.origin == long.origin
        and short.query == long.query
        and len([seg for seg in a if seg]) >= 2
        and len(b) > len(a)
        and b[len(b) - len(a) :] == a
    )


def nested_copy(norm: NormalizedURL, copy: NormalizedURL | None) -> bool:
    """Whether ``norm`` is an item's own path read after its ``copy`` under a list's
    leading segments (:func:`nested_alias`). When that copy
    taught, the page vouches for its links as the copy did: they are the copy's
    links in the item's own spelling (blind4 ``shopify``: ``/products/p``, read
    after ``/collections/c/products/p``, links the other products' bare paths). A
    numbered object read after its word-named alias does not: its relative steps
    (``previousBuild/``) are the alias's chain again (blind3 ``jenkins``)."""
    return copy is not None and nested_alias(norm, copy)


def query_alias(short: NormalizedURL, long: NormalizedURL) -> bool:
    """Whether ``long`` asks a script by query for the object ``short`` names in its
    path: ``/wicket/bookmarkable/...ObjectPage?acc=1987.042`` of ``/object/1987.042``,
    ``/w/index.php?title=Harbour`` of ``/wiki/Harbour``, ``/index.php?q=node/12`` of
    ``/node/12``. A site mounts its pages at clean paths and keeps the script's query
    form working; the clean path is the page (DUST's rewrite of a query value into
    the path), so a clean path read after its query form is no copy and proves
    nothing against its family (blind6 ``wicket``: objects read after their
    ``bookmarkable`` forms made the family of the other objects barren, 6 of 36
    pages lost). Nor does the query form read after its clean path: the object again
    under the other name every object has (Tiki's ``tiki-index.php?page=X`` of its SEF
    ``/X``; blind10 ``tikiwiki``: 5 of 34 pages waited for good)."""
    if short.origin != long.origin or short.query or not long.query or short.path == long.path:
        return False
    segments = [seg for seg in path_segments(short.path) if seg]
    if not segments:
        return False
    named = {unquote(pair.partition("=")[2]) for pair in query_pairs(long.query)}
    return unquote(segments[-1]) in named or unquote("/".join(segments)) in named


def numbered_alias(short: NormalizedURL, long: NormalizedURL) -> bool:
    """Whether ``long`` reaches by word-named segments the object ``short`` names by
    a number or id in the same place: ``/job/x/lastBuild/`` or
    ``/job/x/lastBuild/previousBuild/console`` of ``/job/x/280/console``, or by a
    page number (``/t/x/245/last`` of ``/t/x/245?page=2``). A site's permalinks and
    relative steps ("latest", "previous", "last") are aliases of its numbered
    objects and pages, never the other way round, so of the two with one text the
    numbered one is the page even when an alias was fetched first (blind3
    ``jenkins``: builds reached first through ``previousBuild/`` chains were the
    copies, and the job page's link form to them was learned as one; ``discourse``:
    a topic's second page, read after its ``last`` alias, made its family barren).
    So is a query naming the object by number where ``long``'s names it by a word
    (:func:`_query_numbered`)."""
    if short.origin != long.origin:
        return False
    a, b = path_segments(short.path), path_segments(long.path)
    if short.path == long.path and short.query and long.query:
        return _query_numbered(query_pairs(short.query), query_pairs(long.query))
    if short.query != long.query:
        pairs = query_pairs(short.query)
        numbered = len(pairs) == 1 and pairs[0].partition("=")[2].isdigit()
        a = a[:-1] if a[-1:] == [""] else a
        b = b[:-1] if b[-1:] == [""] else b
        return (
            numbered
            and not long.query
            and len(b) > len(a)
            and b[: len(a)] == a
            and all(seg.isalpha() for seg in b[len(a) :])
        )
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = common_tail(a[head:], b[head:])
    own, alias = a[head : len(a) - tail], b[head : len(b) - tail]
    return (
        len(own) == 1
        and (own[0].isdigit() or is_token(own[0]))
        and bool(alias)
        and all(seg.isalpha() for seg in alias)
    )


def _values(pairs: Sequence[str]) -> dict[str, str] | None:
    """A query's values by name; None when a name repeats."""
    values = dict(pair.partition("=")[::2] for pair in pairs)
    return values if len(values) == len(pairs) else None


def _query_numbered(short: Sequence[str], long: Sequence[str]) -> bool:
    """Whether the query ``long`` names by a word (``album=lastup``) what ``short``
    names by a number in the same parameter (``album=2``), its other pairs all in
    ``long``: a listing context (a gallery's meta album, a "recent" list) showing an
    object under the object's own query. The numbered one is the page, whichever was
    fetched first (blind10 ``coppermine``: each picture shown first under a meta album
    made the pictures' own form a copy)."""
    mine, theirs = _values(short), _values(long)
    if mine is None or theirs is None or not mine.keys() <= theirs.keys():
        return False
    renamed = [name for name in mine if mine[name] != theirs[name]]
    return bool(renamed) and all(
        (mine[name].isdigit() or is_token(mine[name])) and theirs[name].isalpha()
        for name in renamed
    )


class LearnedRules:
    """What one crawl learned about its sites' URLs, per origin."""

    def __init__(self, max_texts: int = MAX_TEXTS) -> None:
        self._rules = Rewrites()
        self._reissued: dict[tuple[str, int], int] = {}
        self._vetoed: set[tuple[str, int]] = set()
        self.listed: set[tuple[str, str]] = set()  # params linked with several token values
        self.versions = Versions()  # pages' numbered versions
        self.fresh = FreshValues()  # parameters stamped anew by each response
        self.minted = Minted()  # tokens a form's redirects mint for each visit
        self.tails = SessionTails()  # folders whose last segment is a session id
        self._families = CopyFamilies(self._rules, max_texts)
        self._paths = Substitutions(max_texts)

    def __bool__(self) -> bool:
        return bool(self._rules)

    @property
    def max_texts(self) -> int:
        """Pages whose text is remembered for the copy families (a bound on memory)."""
        return self._families.max_texts

    @max_texts.setter
    def max_texts(self, value: int) -> None:
        self._families.max_texts = value

    def snapshot(self) -> dict[str, Any]:
        """What was learned and the copy families' evidence, as JSON, for a resume."""
        return {
            **header("url-rules", 2),
            "origins": self._rules.snapshot(),
            "reissued": [[origin, position, n] for (origin, position), n in self._reissued.items()],
            "vetoed": [[origin, position] for origin, position in sorted(self._vetoed)],
            "listed": [[origin, name] for origin, name in sorted(self.listed)],
            "versions": self.versions.snapshot(),
            "evidence": self._families.snapshot(),
            "substitutions": self._paths.snapshot(),
            "minted": self.minted.snapshot(),
            "fresh": self.fresh.snapshot(),
            "tails": self.tails.snapshot(),
        }

    def restore(self, data: Any) -> None:
        """Take back :meth:`snapshot` (version 1 too); ``SnapshotError`` for bad data."""
        with reading("url rules"):
            data = opened(data, "url-rules", 1 if data.get("version") == 1 else 2)
            rules = Rewrites.restored(data["origins"])
            reissued = {
                (typed(o, str, "origin"), typed(p, int, "position")): typed(n, int, "count")
                for o, p, n in listed(data["reissued"], "reissued", list)
            }
            vetoed = {
                (typed(o, str, "origin"), typed(p, int, "position"))
                for o, p in listed(data["vetoed"], "vetoed", list)
            }
            listed_params = {
                (typed(o, str, "origin"), typed(n, str, "name"))
                for o, n in listed(data.get("listed", []), "listed", list)
            }
            versions = Versions.restored(data.get("versions", {}))
            families = CopyFamilies.restored(data.get("evidence", {}), rules, self.max_texts)
            self._paths.restore(data.get("substitutions", []))
            minted = Minted.restored(data.get("minted", []))  # none saved before
            fresh = FreshValues.restored(data.get("fresh", []))  # none saved before
            tails = SessionTails.restored(data.get("tails", {}))  # none saved before
        self._rules, self._reissued, self._vetoed, self.minted = rules, reissued, vetoed, minted
        self.listed, self.versions, self.fresh = listed_params, versions, fresh
        self._families, self.tails = families, tails

    def knows(self, norm: NormalizedURL) -> bool:
        """Whether anything was learned about ``norm``'s origin."""
        return self._rules.knows(norm)

    def apply(self, norm: NormalizedURL) -> str:
        """``norm``'s key under its origin's learned rules (a twin host's on its twin)."""
        return self._rules.key(moved(norm, self._paths.rewrite(str(norm.origin), norm.path)))

    def spelled(self, norm: NormalizedURL, url: str) -> str:
        """``url`` less the parameters its origin drops (:meth:`Rewrites.spelled`)."""
        return self._rules.spelled(norm, url)

    def explain(self, norm: NormalizedURL) -> str | None:
        """The learned rules that change ``norm``'s key, each with its proof where one
        was kept, for the record of a URL skipped as ``duplicate-url``; ``None`` when
        no learned rule changes it."""
        alias = self._paths.explain(str(norm.origin), norm.path)
        rest = self._rules.explain(norm, self._families.proofs)
        return "; ".join(line for line in (alias, rest) if line) or None

    def describe(self, norm: NormalizedURL) -> str:
        """The rules of ``norm``'s origin, for a summary line."""
        return self._rules.describe(norm)

    def observe(self, norm: NormalizedURL, text: int, words: Sequence[str] = ()) -> list[str]:
        """A fetched page's main text (an exact hash of what a reader sees) under its
        URL: learn, or veto, the copy-family rewrites
        (:meth:`robotkit.url.families.CopyFamilies.observe`). Returns a line for each
        rewrite learned or withdrawn now. A listing's ``words`` prove directory aliases
        (:mod:`robotkit.url.substitution`)."""
        listing = listing_text(norm.path, words) if norm.path.endswith("/") else None
        target = norm.path + (f"?{norm.query}" if norm.query else "")
        origin = str(norm.origin)
        aliases = self._paths.observe(origin, target, listing or text, listing is not None)
        if aliases:
            self._rules.of(norm)  # the origin's keys are rebuilt from now on
        return [*aliases, *self._families.observe(norm, text)]

    def prefers(self, short: NormalizedURL, long: NormalizedURL) -> bool:
        """Whether ``short`` is the page and ``long`` its copy: the shorter member of a
        copy family (:func:`robotkit.url.families.reduces`), ``long`` under a learned
        directory alias of ``short``'s path, or a word-named alias of the object
        ``short`` names by number (:func:`numbered_alias`), or ``short`` under a list's
        leading segments (:func:`nested_alias`), or a script's query asking for the
        object ``short`` names in its path (:func:`query_alias`)."""
        aliased = self._paths.rewrite(str(long.origin), long.path) == short.path != long.path
        return (
            reduces(short, long)
            or (aliased and short.query == long.query)
            or numbered_alias(short, long)
            or nested_alias(short, long)
            or query_alias(short, long)
        )

    def _may_be_session(self, origin: str, name: str) -> bool:
        """Whether no page linked several token values of parameter ``name`` on ``origin``."""
        return (origin, name) not in self.listed

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
        if self.tails.learn(a, b, self._rules, self._families.proofs):
            return True
        seg_a, seg_b = path_segments(a.path), path_segments(b.path)
        if a.query == b.query and abs(len(seg_a) - len(seg_b)) == 1:
            # One spelling has a token segment more (``/docs/x8Kq2.../guide``).
            longer, shorter = (seg_a, seg_b) if len(seg_a) > len(seg_b) else (seg_b, seg_a)
            for i in range(len(longer) - 1):
                if longer[:i] + longer[i + 1 :] == shorter and is_token(longer[i]):
                    self._rules.of(a).session_positions.add(i)
                    proof = f"session id in path segment {i + 1}: {url} and {other}"
                    self._families.proofs[f"{a.origin} segment {i}"] = proof + same
                    return True
            return False
        if a.query == b.query and len(seg_a) == len(seg_b):
            differ = [i for i, (x, y) in enumerate(zip(seg_a, seg_b, strict=True)) if x != y]
            if len(differ) == 1 and is_token(seg_a[differ[0]]) and is_token(seg_b[differ[0]]):
                rules = self._rules.of(a)
                rules.session_positions.add(differ[0])
                proof = f"session id in path segment {differ[0] + 1}: {url} and {other}"
                self._families.proofs[f"{a.origin} segment {differ[0]}"] = proof + same
                return True
            return False
        if a.path != b.path:
            return False
        pairs_a, pairs_b = query_pairs(a.query), query_pairs(b.query)
        if sorted(pairs_a) == sorted(pairs_b):
            self._rules.of(a).any_order = True
            return True
        fewer = pairs_a if extra_pairs(pairs_a, pairs_b) else pairs_b
        extra = extra_pairs(pairs_a, pairs_b) or extra_pairs(pairs_b, pairs_a)
        # A parameter repeated (``?lang=es&lang=de``) proves nothing of its one value,
        # only, when the spelling with its last value is the copy, that the last counts.
        repeated = {param_name(p) for p in extra} & {param_name(q) for q in fewer}
        more = pairs_b if fewer is pairs_a else pairs_a
        if repeated and repeated == {param_name(p) for p in extra}:
            values = {n: [p for p in more if param_name(p) == n] for n in repeated}
            last = {n for n, pairs in values.items() if pairs[-1] in fewer and len(set(pairs)) > 1}
            if last != repeated:
                return False
            for name in sorted(last):
                self._rules.of(a).scoped.setdefault(name + "+", set()).add(section(a.path))
                line = f"only the last {name} counts in {section(a.path)}: {url} and {other}"
                self._families.proofs[f"{a.origin} pair {name}+ {section(a.path)}"] = line + same
            return True
        extra -= {p for p in extra if param_name(p) in repeated}
        # A pair that changed another page's text here (a language whose translated
        # pages differ, whose untranslated ones fall back) is no copy form.
        where = section(a.path)
        scopes = object_scopes(self.listed, str(a.origin), extra, where)  # an id: on files
        extra -= {p for p in extra if self._families.disproved(str(a.origin), p, scopes[p])}
        if extra:
            # A token value added (``?sid=x8Kq2...``) is a session parameter, whatever
            # its next value; any other pair changes nothing as it is, in the section
            # it was seen in (:func:`~robotkit.url.rewrites.section`).
            origin = str(a.origin)
            tokens = {
                param_name(p)
                for p in extra
                if is_token(p.partition("=")[2])
                and not named_value(p.partition("=")[2])
                and self._may_be_session(origin, param_name(p))
            }
            self._rules.of(a).params.update(tokens)
            for p in extra:
                if param_name(p) not in tokens:
                    scope = self.versions.scope(a, p, scopes[p], a if fewer is pairs_a else b)
                    self._rules.of(a).scoped.setdefault(p, set()).update(scope)
            for p in extra:
                name = param_name(p)
                what = f"param {name}" if name in tokens else f"pair {p} {where}"
                line = (
                    f"parameter {name} is a session id"
                    if name in tokens
                    else f"{p} changes nothing"
                )
                self._families.proofs[f"{a.origin} {what}"] = f"{line}: {url} and {other}{same}"
            return True
        if [param_name(p) for p in pairs_a] != [param_name(p) for p in pairs_b]:
            return False
        differ = [i for i, (x, y) in enumerate(zip(pairs_a, pairs_b, strict=True)) if x != y]
        if len(differ) != 1:
            return False
        value_a = pairs_a[differ[0]].partition("=")[2]
        value_b = pairs_b[differ[0]].partition("=")[2]
        name = param_name(pairs_a[differ[0]])
        if (
            is_token(value_a)
            and is_token(value_b)
            and not (named_value(value_a) or named_value(value_b))
            and self._may_be_session(str(a.origin), name)
        ):
            self._rules.of(a).params.add(name)
            line = f"parameter {name} is a session id: {url} and {other}{same}"
            self._families.proofs[f"{a.origin} param {name}"] = line
            return True
        return False

    def observe_links(self, page: NormalizedURL, links: list[NormalizedURL]) -> bool:
        """Look for a session id re-issued in every link, or a value each response
        stamps anew (see the module docstring); returns whether one was learned now."""
        own = path_segments(page.path)
        origin = str(page.origin)
        # A session id is one value a visit: a page linking several token values of a
        # parameter (a history's revisions, ``?r=ad9b7dbe``, ``?r=06f74efc``) lists
        # pages by it, and it is never learned as a session id on the origin.
        fresh = self.fresh.observe(page, links, self.listed)
        for each in fresh:
            self._rules.of(page).params.add(each.name)
            self._families.proofs[f"{origin} param {each.name}"] = each.proof
        learned = bool(fresh)
        self.tails.observe_links(links, self._rules)
        for pair, area in self.versions.observe_links(page, links):
            self._rules.of(page).scoped.setdefault(pair, set()).add(area)
        for position, segment in enumerate(own[:-1]):
            if not is_token(segment) or (origin, position) in self._vetoed:
                continue
            values = set()
            for link in links:
                if link.origin != page.origin:
                    continue
                theirs = path_segments(link.path)
                if position < len(theirs) - 1 and is_token(theirs[position]):
                    values.add(theirs[position])
            if len(values) > 1:
                self._vetoed.add((origin, position))
                continue
            if not values or segment in values:
                continue
            count = self._reissued.get((origin, position), 0) + 1
            self._reissued[origin, position] = count
            if count >= 2 and self._session_segment(page, position):
                learned = True
        return learned

    def learn_minted(
        self, asked: NormalizedURL | None, final: NormalizedURL, referer: str | None
    ) -> bool:
        """Learn the place of a token a form's redirects mint for each visit
        (:mod:`robotkit.url.minted`) as a session id on ``final``'s origin, unless a page
        linked several tokens there (a list of commits names pages by them). Returns
        whether it is new."""
        ref = normalize_or_none(referer) if referer else None
        proven = None if asked is None else self.minted.observe(asked, final, ref)
        return proven is not None and self._session_segment(final, *proven)

    def _session_segment(self, norm: NormalizedURL, position: int, proof: str = "") -> bool:
        """Learn path segment ``position`` a session id on ``norm``'s origin (with its
        ``proof``, for the record of a URL it re-keys), unless a page linked several
        tokens there (vetoed) or it is known; returns whether it is new."""
        positions = self._rules.of(norm).session_positions
        if position in positions or (str(norm.origin), position) in self._vetoed:
            return False
        positions.add(position)
        if proof:
            self._families.proofs[f"{norm.origin} segment {position}"] = proof
        return True

    def learn_canonical(self, page: NormalizedURL, canonical: NormalizedURL) -> bool:
        """What a page's canonical URL says of its origin's URLs
        (:mod:`robotkit.url.canonical`); returns whether anything new was learned."""
        return learn_from_canonical(self._rules, page, canonical)
