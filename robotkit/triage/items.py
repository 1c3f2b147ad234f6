"""What a list's links count as when the trap policy asks whether a list state
listed anything new (ARCHITECTURE.md, "The waste bound": a list state listing only
items an earlier list of its region listed taught nothing, whatever prose it writes).
Pure: no I/O.

- :func:`item_region`: the region a list's link is counted in. Pages at the site
  root are one region of items, as a directory's pages are.
- :func:`returns_to`: a link carrying the page's own address (a return address) is
  an action on the page, no item of it.
- :func:`entries_of`: a directory page's links under its own path are its entries.
- :func:`leads_nowhere`: whether a page taught nothing by what it links.
- :func:`restyled`, :func:`restyles`: a part or a view of the page that linked it
  (a post's number, the page under another template), which taught nothing when it
  links nothing that page did not.
- :func:`templated`: a template's alias appended to a directory index's path that
  links nothing its page did not, a proof of its copy form.
- :func:`acts_only`: whether a page's new pages elsewhere are all actions on it (its
  own query on another path: the form that submits its state).
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterable, Sequence
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl, unquote

from robotkit.triage.regions import other_template
from robotkit.url.normalization import NormalizedURL, normalize_or_none
from robotkit.url.rewrites import is_token, param_name, query_pairs
from robotkit.url.template import counter_step, has_parameters, structured_state
from robotkit.url.views import numbered

if TYPE_CHECKING:
    from robotkit.triage.screening import Screening

_WORD = re.compile(r"[A-Za-z]")
"""A letter: an entry's name is a word, not a number."""
_DIGIT = re.compile(r"\d")
"""A digit: a pair valued by a number names a page or a version, no template."""
_TARGET = re.compile(r"[A-Za-z]{2,}\d{1,3}")
"""A word with a number at its end, a build target's name (``amd64``, ``arm64``,
``win32``): still a word, where ``v2`` or ``r5`` names a version."""
_SUFFIX = re.compile(r"[A-Za-z]+/?")
"""A word appended to a directory index's path: a template's alias (``/visit/amp``)."""

__all__ = [
    "acts_only",
    "entries_of",
    "item_region",
    "leads_nowhere",
    "restyled",
    "returns_to",
    "templated",
]


def item_region(norm: NormalizedURL, region: str) -> str:
    """The region a list's link is counted in (``region`` is its own): pages at the
    site root (``/<slug>``, no query) are one region of items, as a directory's
    pages are (blind11 ``nopcommerce``: products at ``/<product>`` listed by
    ``/<category>`` and its filter states)."""
    if norm.query or "/" in norm.path[1:] or norm.path == "/":
        return region
    return f"{norm.origin}/*"


def returns_to(link: NormalizedURL, page: NormalizedURL) -> bool:
    """Whether a link carries the page's own address as a parameter's value (a
    return address: ``/login?returnUrl=%2Fshoes%3Fspecs%3D1``): an action on the
    page, no item of it, however many states the page has (blind11 ``nopcommerce``)."""
    if not link.query:
        return False
    here = unquote(f"{page.path}?{page.query}" if page.query else page.path)
    return any(value in (here, unquote(page.key)) for _, value in parse_qsl(link.query))


def restyled(
    page: NormalizedURL,
    referer: NormalizedURL | None,
    passage: bool,
    links: Iterable[NormalizedURL] = (),
) -> bool:
    """Whether a page is a part or a view of the page that linked it, which the crawl
    asks to have linked nothing new: a number under it whose only news is a
    ``passage`` (a post's number under its discussion, Flarum's ``/d/<id>-<slug>/<n>``:
    blind12 ``flarum``), or the page under another template (:func:`restyles`)."""
    return (passage and numbered(page, referer)) or restyles(page, referer, links)


def restyles(
    page: NormalizedURL, referer: NormalizedURL | None, links: Iterable[NormalizedURL] = ()
) -> bool:
    """Whether a page is its referer's on its path with query pairs added, each valued
    by a word, one of a menu of them (``/visit/?altTemplate=Print`` of ``/visit/``,
    linking ``?altTemplate=Amp``, ``?altTemplate=JsonLd``): the referer's page under
    another template or display. Linking nothing its referer did not, it taught
    nothing, whatever prose it writes (blind13 ``umbraco``: six templates under every
    page, each rendering its page with prose of its own). A word may end in a number,
    a build target's name (:func:`_named`: pkg.go.dev's ``?GOOS=linux&GOARCH=amd64``,
    each package under four build contexts: blind13 ``pkgsite``). Not a pair valued by a
    number, a page or a version of the page (a topic's ``&start=10`` shows other posts
    and links the same pager: blind2 ``phpbb``); nor a pair of one value, a tab of the
    page's own (a user's ``?tab=questions``, linking the questions the profile listed:
    blind13 ``qa``, 3 such tabs waited for good in a trial); nor the page without the
    pairs, read from its view's link."""
    if referer is None or not page.query:
        return False
    if (page.origin, page.path) != (referer.origin, referer.path):
        return False
    mine, theirs = set(query_pairs(page.query)), set(query_pairs(referer.query))
    added = mine - theirs
    if not theirs < mine or not all(map(_named, added)):
        return False
    names = {param_name(pair) for pair in added}
    menu = (
        pair
        for link in links
        if (link.origin, link.path) == (page.origin, page.path)
        for pair in query_pairs(link.query)
    )
    return any(param_name(pair) in names and pair not in mine for pair in menu)


def _named(pair: str) -> bool:
    """Whether a query pair is valued by a word: no digit, or a build target's name
    (``GOARCH=amd64``: pkg.go.dev's build contexts, blind13 ``pkgsite``)."""
    name, _, value = pair.partition("=")
    return not _DIGIT.search(name) and (not _DIGIT.search(value) or bool(_TARGET.fullmatch(value)))


def templated(
    triage: Screening, page: NormalizedURL, links: Sequence[str], linker: str | None
) -> bool:
    """Whether a page is its referer's path, a directory's index, with a word appended
    (``/visit/sitemap`` of ``/visit/``) and links nothing its referer did not: the
    referer under another template (Umbraco's ContentFinderByUrlAndTemplate), with
    prose of its own. Its form (``/{s}/sitemap``) is then a copy form of its page
    (:mod:`robotkit.triage.copies`), as a print form copying the page is: twice so,
    and the form is known on every other page (blind13 ``umbraco``: six templates
    under every page, the three suffixes 104 trap fetches). A real child named by a
    word (``/trees/apple`` of ``/trees/``) has a name of its own, no form of others."""
    referer = normalize_or_none(linker) if linker is not None else None
    if referer is None or page.query or referer.query or page.origin != referer.origin:
        return False
    base = referer.path
    rest = page.path[len(base) :] if base.endswith("/") and page.path.startswith(base) else ""
    if not _SUFFIX.fullmatch(rest):
        return False
    return triage.copies.relinks(page, links, linker)


def entries_of(page: NormalizedURL, links: Iterable[NormalizedURL]) -> list[NormalizedURL]:
    """A page's links that are its entries: paths under its own without a query,
    named by a word (``/src/main/cmd/ledger/main.go`` of ``/src/main/cmd/ledger``), of
    a page without one. A directory is worth its entries, as a list is worth its
    items: a repository browser's directories, each only like its siblings, taught
    nothing, and their files waited for good once the budget was spent (blind7
    ``gitea``: 5 of 49 pages). Not entries named by a number, a calendar's months
    (first blind set, ``calendar``: 31 trap fetches, 177 with them); nor under a
    query, where a look-alike linking fresh URLs is a cache-buster's copy
    (``cachebuster``); nor under a token (:func:`~robotkit.url.rewrites.is_token`),
    a tree at a revision (``/file/3fa9c2e1/docs/``), the tree again under another
    revision (blind5 ``hgweb``: 122 trap fetches, 157 with them); nor an entry named
    as the page, a loop's copy (``/section/x/amp/amp/``: blind4 ``amp``, 52 to 55)."""
    base = page.path.rstrip("/") + "/"
    if page.query or any(is_token(segment) for segment in base.split("/")):
        return []
    own = base[:-1].rpartition("/")[2]
    names = ((n, n.path.rstrip("/").rpartition("/")[2]) for n in links if not n.query)
    return [
        n
        for n, name in names
        if n.path.startswith(base) and n.path != base and _WORD.search(name) and name != own
    ]


def leads_nowhere(
    triage: Screening,
    norm: NormalizedURL,
    region: str,
    same_origin: Sequence[NormalizedURL],
    ref: NormalizedURL | None,
    hub: bool,
    seen: Container[str],
    news: bool,
) -> bool:
    """Whether a page taught nothing by what it links, whatever prose it writes
    (ARCHITECTURE.md, "The waste bound"). A list is worth its items: a view of a list
    (another sort, filter, tag set or empty result, by its parameters) listing only
    items an earlier list of its region listed (blind4 ``askbot``'s list states). A
    counter's next or previous value (``?rev=41`` linked by ``?rev=42``; a stepper's
    doubled or halved one, :func:`~robotkit.url.template.counter_step`) leading to
    no new page (blind4 ``dokuwiki``'s diffs), its own form on another path none
    (:func:`acts_only`: blind13 ``booking``'s steppers). A page of a path region saying nothing
    new to it (no words, no passage) and linking no URL the crawl has not met: an
    archive's message permalinks, each a message its thread showed (blind8
    ``mailman``). Not a page like its siblings (``news`` too, as a copy): one that
    differs by a number proves nothing of its family (gauntlet ``numbered-pages``)."""
    kept = (n for n in same_origin if triage.region(n) != region and not returns_to(n, norm))
    items = map(triage.key, kept)
    if triage.regions.listed_before(region, items, structured_state(norm)) and has_parameters(norm):
        return True
    met = not (hub or news or norm.query) and all(triage.key(n) in seen for n in same_origin)
    if not counter_step(norm, ref):
        return met
    return met or not hub or acts_only(triage, norm, region, same_origin, seen)


def acts_only(
    triage: Screening,
    page: NormalizedURL,
    region: str,
    links: Iterable[NormalizedURL],
    seen: Container[str],
) -> bool:
    """Whether the new pages a page links out of its region are all actions on it:
    its own query on another path (a booking engine's ``/reserve?<the page's query>``
    of ``/select?checkin=…&nights=2``, the form that submits the page's state), no
    page of its own (blind13 ``booking``: each step of the occupancy steppers linked
    its own reservation, so none led nowhere, 346 steps fetched); or a link taking the
    page's own address back (:func:`returns_to`: a recipe plugin's unit converter,
    ``/convert/?amount=2&from=cup&to=ml&return=<the step>``, an action on the step as a
    login's ``returnUrl=`` is: blind14 ``recipes``, whose servings steps each linked
    their own converter page). A link the crawl
    has not met (``seen``) under its key is new: a page fetched under a key a rule
    learned since (a session id dropped) counts as new, so the page led somewhere."""
    mine = sorted(query_pairs(page.query))
    for link in links:
        if triage.key(link) in seen:
            continue
        if link.path == page.path and not other_template(page, link):
            continue  # another query of its own: its region's growth, judged apart
        if returns_to(link, page):
            continue  # a converter taking the step's address back (blind14 recipes)
        if link.path == page.path or sorted(query_pairs(link.query)) != mine:
            return False
    return True
