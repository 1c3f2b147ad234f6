"""What a list's links count as when the trap policy asks whether a list state
listed anything new (ARCHITECTURE.md, "The waste bound": a list state listing only
items an earlier list of its region listed taught nothing, whatever prose it writes).
Pure: no I/O.

- :func:`item_region`: the region a list's link is counted in. Pages at the site
  root are one region of items, as a directory's pages are.
- :func:`returns_to`: a link carrying the page's own address (a return address) is
  an action on the page, no item of it.
- :func:`leads_nowhere`: whether a page taught nothing by what it links.
"""

from __future__ import annotations

from collections.abc import Container, Sequence
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl, unquote

from robotkit.url.normalization import NormalizedURL
from robotkit.url.template import counter_step, has_parameters

if TYPE_CHECKING:
    from robotkit.triage.screening import Screening

__all__ = ["item_region", "leads_nowhere", "returns_to"]


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
    no new page (blind4 ``dokuwiki``'s diffs). A page of a path region saying nothing
    new to it (no words, no passage) and linking no URL the crawl has not met: an
    archive's message permalinks, each a message its thread showed (blind8
    ``mailman``). Not a page like its siblings (``news`` too, as a copy): one that
    differs by a number proves nothing of its family (gauntlet ``numbered-pages``)."""
    kept = (n for n in same_origin if triage.region(n) != region and not returns_to(n, norm))
    if triage.regions.listed_before(region, map(triage.key, kept)) and has_parameters(norm):
        return True
    met = not (hub or news or norm.query) and all(triage.key(n) in seen for n in same_origin)
    return met or (not hub and counter_step(norm, ref))
