"""A URL's template: its variable parts (numbers, ids, query values) replaced, so
that the URLs one page kind is served under share one name (``/item/{n}?page={n}``).

The triage counts what a template's pages add (:mod:`robotkit.triage.news`) and
compares a link's template with its page's (:mod:`robotkit.triage.copies`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import pairwise
from urllib.parse import unquote

from robotkit.url.normalization import NormalizedURL, normalize_or_none
from robotkit.url.rewrites import param_name, query_pairs

_DIGITS = re.compile(r"\d+")
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I)
_HEX_ID = re.compile(r"\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b", re.I)
_ALNUM = re.compile(r"[A-Za-z0-9]*\d[A-Za-z0-9]*")
_WORD_NUMBER = re.compile(r"([A-Za-z]*[G-Zg-z][A-Za-z]*)\d+")
_PATH_PARAMETER = re.compile(r"/[A-Za-z_][\w-]*[:=][^/]+(?=/|$)")
"""A path segment that is a parameter, ``name:value`` or ``name=value``."""
_COMMA_PARAMETER = re.compile(r"/[A-Za-z_]\w*,[^/,]+(?=/|$)")
"""A path segment ``name,value``: a parameter when the path has two of them or more
(Osclass's ``/search/category,bikes/sOrder,dt_pub_date``), where one alone may be a
title with a comma (``/wiki/Paris,_France``)."""


def _template_text(text: str) -> str:
    text = _UUID.sub("{id}", text)
    text = _HEX_ID.sub("{id}", text)
    return _DIGITS.sub("{n}", text)


def url_template(url: str | NormalizedURL) -> str | None:
    """The URL with its variable parts replaced: digit runs by ``{n}``, UUIDs and
    long hex ids by ``{id}``, query values by ``{n}`` or ``{v}``, query names sorted
    (``http://x/item/42?page=3`` is ``http://x/item/{n}?page={n}``). ``None`` for an
    invalid URL."""
    norm = normalize_or_none(url)
    if norm is None:
        return None
    path = _template_text(norm.path)
    if not norm.query:
        return f"{norm.origin}{path}"
    names = []
    for part in norm.query.split("&"):
        name, sep, value = part.partition("=")
        if sep:
            value = "{n}" if value.isdigit() else "{v}"
        names.append(f"{_template_text(name)}{sep}{value}")
    return f"{norm.origin}{path}?{'&'.join(sorted(names))}"


def has_parameters(norm: NormalizedURL) -> bool:
    """Whether a URL carries parameters: a query, or a path segment ``name:value`` or
    ``name=value`` (path parameters, RFC 3986 section 3.3: Askbot's
    ``/questions/scope:all/sort:age-asc/tags:a,b/``, a store's ``/color=red/``)."""
    if norm.query or _PATH_PARAMETER.search(norm.path) is not None:
        return True
    return len(_COMMA_PARAMETER.findall(norm.path)) >= 2


def structured_state(norm: NormalizedURL) -> bool:
    """Whether a URL writes a list's whole state in a structure of its own: path
    parameters without a query (Osclass's ``/search/category,bikes/region,north``,
    Askbot's ``/questions/scope:all/sort:age-asc/``), or a query value that is a JSON
    object or array (OpenProject's ``query_props={"t":"id:asc","f":[...]}``). A search
    or a filter builder writes so; a translation or a toggle (``?lang=de``) is a pair."""
    if not norm.query:
        return has_parameters(norm)
    return any(unquote(value).lstrip()[:1] in ("{", "[") for value in _values(norm.query))


def _values(query: str) -> list[str]:
    """A query's values, undecoded (``+`` kept)."""
    return [pair.partition("=")[2] for pair in query.split("&")]


def counter_step(norm: NormalizedURL, referer: NormalizedURL | None) -> bool:
    """Whether ``norm`` is its referer's URL with one number of its query moved by
    one (a counter's next or previous: ``rev=41`` on ``rev=42``), or doubled or halved
    (a stepper's scale: a recipe plugin's servings adjuster, ``servings=8`` on
    ``servings=4``, beside its ``-`` and ``+``)."""
    if referer is None or referer.origin != norm.origin or referer.path != norm.path:
        return False
    mine, theirs = query_pairs(norm.query), query_pairs(referer.query)
    if len(mine) != len(theirs) or not mine:
        return False
    changed = [(a, b) for a, b in zip(sorted(mine), sorted(theirs), strict=True) if a != b]
    if len(changed) != 1:
        return False
    ((a, b),) = changed
    (name_a, _, va), (name_b, _, vb) = a.partition("="), b.partition("=")
    if name_a != name_b or not (va.isdigit() and vb.isdigit()):
        return False
    low, high = sorted((int(va), int(vb)))
    return high - low == 1 or high == 2 * low


def paged_list(norm: NormalizedURL, referer: NormalizedURL | None) -> str | None:
    """The list ``norm`` is a page of when it is its referer's URL with one number
    added or moved (``t=107&start=10`` on ``t=107``, ``start=20`` on ``start=10``): that
    URL without the number's pair (origin, path and the other pairs sorted), else None.
    A list's offset or page number (phpBB's ``start=``, MediaWiki's ``offset=``,
    RFC 5005 section 3's paged feeds) is the pair a "next" link adds or moves."""
    step = _paged(norm, referer)
    return None if step is None else step[0]


def _paged(
    norm: NormalizedURL, referer: NormalizedURL | None
) -> tuple[str, int, int | None] | None:
    """:func:`paged_list`'s list, with the number's value here and at the referer (None
    where it was added)."""
    if referer is None or referer.origin != norm.origin or referer.path != norm.path:
        return None
    mine, theirs = query_pairs(norm.query), query_pairs(referer.query)
    moved = [pair for pair in mine if pair not in theirs]
    if len(moved) != 1:
        return None
    name, value = param_name(moved[0]), moved[0].partition("=")[2]
    rest = sorted(pair for pair in mine if pair != moved[0])
    if not value.isdigit() or rest != sorted(p for p in theirs if param_name(p) != name):
        return None
    was = [p.partition("=")[2] for p in theirs if param_name(p) == name]
    before = int(was[0]) if len(was) == 1 and was[0].isdigit() else None
    return f"{norm.origin}{norm.path}?{'&'.join(rest)}", int(value), before


def _listed(norm: NormalizedURL) -> str:
    """A URL as :func:`paged_list` names a list: its pairs sorted."""
    return f"{norm.origin}{norm.path}?{'&'.join(sorted(query_pairs(norm.query)))}"


def list_end(
    norm: NormalizedURL, referer: NormalizedURL | None, links: Iterable[NormalizedURL]
) -> str | None:
    """The list ``norm`` is a page of (:func:`paged_list`) when it is a pager's: the
    values of the number it links for its list, its own and its referer's are at one
    step (``start=10, 20, 30``) and one lies beyond it, away from its referer (the
    next offset: ``t=107&start=20`` on ``t=107&start=10``), else None. A filter's menu
    of values is at no one step (MediaWiki's ``days=1|3|7|14|30``, ``limit=50|100|250``:
    blind2 ``wiki``), and a toggle (``print=1``, ``hideanons=1``) leads back or nowhere.
    And a pager links its list's first page (the list's URL): where two numbers step at
    once (DokuWiki's diffs, ``rev2[0]=…&rev2[1]=…``), each page would be a list of its
    own, and each of them its end (blind4 ``dokuwiki``: 38 trap fetches)."""
    step = _paged(norm, referer)
    if step is None:
        return None
    key, mine, before = step
    if not any(_listed(link) == key for link in links):
        return None  # a pager links its list's first page
    values = {s[1] for link in links if (s := _paged(link, norm)) is not None and s[0] == key}
    down = before is not None and before > mine
    if not any(v < mine if down else v > mine for v in values):
        return None
    points = sorted(values | {mine} | (set() if before is None else {before}))
    return key if len({b - a for a, b in pairwise(points)}) == 1 else None


def query_form(norm: NormalizedURL) -> str:
    """A URL's query with its values' numbers and ids masked and its words kept, pairs
    sorted (``eid={n}&mode=dictionary``; ``topic={n}.msg{n}`` beside ``topic={n}.{n}``):
    the pages one link of a template leads to, where :func:`url_template` masks every
    value. ``""`` without a query."""
    return "&".join(sorted(_ALNUM.sub(_mask, pair) for pair in query_pairs(norm.query)))


def _mask(match: re.Match[str]) -> str:
    """A run of letters and digits with a digit, as a number: a word's digits
    (``msg1004`` as ``msg{n}``) or a whole token (``06f74efc``, ``a1a2``, ``1893``: hex
    digits are a number in another base, and a token split at its digits would make
    a form of each value)."""
    word = _WORD_NUMBER.fullmatch(match.group())
    return f"{word.group(1)}{{n}}" if word else "{n}"


def names_objects(form: str) -> bool:
    """Whether a :func:`query_form` masks a number or an id: its URLs name objects
    (``eid={n}``), not one view of every page (``print=1``)."""
    return "{n}" in form
