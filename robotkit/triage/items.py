"""What a list's links count as when the trap policy asks whether a list state
listed anything new (ARCHITECTURE.md, "The waste bound": a list state listing only
items an earlier list of its region listed taught nothing, whatever prose it writes).
Pure: no I/O.

- :func:`item_region`: the region a list's link is counted in. Pages at the site
  root are one region of items, as a directory's pages are.
- :func:`returns_to`: a link carrying the page's own address (a return address) is
  an action on the page, no item of it.
"""

from __future__ import annotations

from urllib.parse import parse_qsl, unquote

from robotkit.url.normalization import NormalizedURL

__all__ = ["item_region", "returns_to"]


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
