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
- :func:`acts_only`: whether a page's new pages elsewhere are all actions on it (its
  own query on another path: the form that submits its state).
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterable, Sequence
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl, unquote

from robotkit.triage.regions import other_template
from robotkit.url.normalization import NormalizedURL
from robotkit.url.rewrites import is_token, query_pairs
from robotkit.url.template import counter_step, has_parameters

if TYPE_CHECKING:
    from robotkit.triage.screening import Screening

_WORD = re.compile(r"[A-Za-z]")
"""A letter: an entry's name is a word, not a number."""

__all__ = ["acts_only", "entries_of", "item_region", "leads_nowhere", "returns_to"]


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
    counter's next or previous value (``?rev=41`` linked by ``?rev=42``) leading to
    no new page (blind4 ``dokuwiki``'s diffs), its own form on another path none
    (:func:`acts_only`: blind13 ``booking``'s steppers). A page of a path region saying nothing
    new to it (no words, no passage) and linking no URL the crawl has not met: an
    archive's message permalinks, each a message its thread showed (blind8
    ``mailman``). Not a page like its siblings (``news`` too, as a copy): one that
    differs by a number proves nothing of its family (gauntlet ``numbered-pages``)."""
    kept = (n for n in same_origin if triage.region(n) != region and not returns_to(n, norm))
    if triage.regions.listed_before(region, map(triage.key, kept)) and has_parameters(norm):
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
    its own reservation, so none led nowhere, 346 steps fetched). A link the crawl
    has not met (``seen``) under its key is new: a page fetched under a key a rule
    learned since (a session id dropped) counts as new, so the page led somewhere."""
    mine = sorted(query_pairs(page.query))
    for link in links:
        if triage.key(link) in seen:
            continue
        if link.path == page.path and not other_template(page, link):
            continue  # another query of its own: its region's growth, judged apart
        if link.path == page.path or sorted(query_pairs(link.query)) != mine:
            return False
    return True
