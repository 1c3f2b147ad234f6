"""Views of a page: the same resource with more, which says nothing the page did not.

A page's annotated view, print form or tag filter is the page again under a longer
URL, not a sibling record of its template: the waste bound counts such views in
their family's proof (ARCHITECTURE.md, "The waste bound"; blind5 ``aem``).
"""

from __future__ import annotations

import re

from robotkit.url.normalization import NormalizedURL

__all__ = ["SELECTORS", "numbered", "owners", "states", "under", "views"]

SELECTORS = re.compile(r"[^.]+(?:\.[A-Za-z][\w\-]*)+\.[A-Za-z][A-Za-z0-9]{1,5}")
"""A page name with selectors between its name and its extension (``en.print.html``,
``page.tag-a.sort-date.html``): Apache Sling decomposes a URL into a resource path,
selectors and an extension, and serves the resource for any selectors."""


_FORMAT = re.compile(r"\.[A-Za-z][A-Za-z0-9]{1,5}")
"""A format's extension appended to a page's name (``.atom``, ``.json``, ``.pdf``)."""


def states(page: NormalizedURL, of: NormalizedURL | None) -> bool:
    """Whether ``page`` is the page of ``of`` with path parameters after its name
    (``/index.php/a-fonds;isad`` of ``/index.php/a-fonds``): RFC 3986 section 3.3 leaves
    ``;`` to the application, and an archive's front controller names the display
    standard of a description so (AtoM's ``;isad``, ``;dc``, ``;rad``, ``;mods``),
    the same record in each (blind11 ``atom``)."""
    return _after(page, of, ";")


def under(page: NormalizedURL, of: NormalizedURL | None) -> bool:
    """Whether ``page`` is a path under the page ``of`` (``/src/f/annotate`` of
    ``/src/f``) on its origin; never under a directory's index (``/docs/``), whose
    files are its content."""
    return _after(page, of, "/")


def _after(page: NormalizedURL, of: NormalizedURL | None, separator: str) -> bool:
    """Whether ``page``'s path is the path of the page ``of`` (no directory's index),
    on its origin, then ``separator`` and more."""
    return (
        of is not None
        and page.origin == of.origin
        and not of.path.endswith("/")
        and page.path.startswith(of.path + separator)
    )


def numbered(page: NormalizedURL, of: NormalizedURL | None) -> bool:
    """Whether ``page`` is a number under the page ``of`` (:func:`under`): a post's
    number under its discussion (``/d/7-title/3`` of ``/d/7-title``), a part of the
    page; not a named object under its index (``/wiki/Calibration`` of ``/wiki``)."""
    return of is not None and under(page, of) and page.path[len(of.path) + 1 :].isdigit()


def views(page: NormalizedURL, of: NormalizedURL | None) -> bool:
    """Whether ``page`` is a view of the resource ``of`` names: its path under
    another query (a toggle, a cache-buster) or with path parameters
    (:func:`states`), a path under it (``/src/f/annotate`` of
    ``/src/f``; not under a directory's index, ``/docs/``, whose files are its
    content), its name with selectors before the extension (``en.print.html`` of
    ``en.html``), or with an extension where it has none: another format of it
    (``/issues/7.atom`` of ``/issues/7``, the format suffix of a Rails route). Another
    directory's page of the same name (another version, a translation) is none."""
    if of is None or page.origin != of.origin:
        return False
    if page.path == of.path or states(page, of):
        return True  # its path under another query, or with path parameters
    if under(page, of):
        return True  # not a directory's index: what is under it is its content
    here, _, leaf = page.path.rpartition("/")
    there, _, name = of.path.rpartition("/")
    stem, dot, ext = name.partition(".")
    if not dot:
        format_ = leaf[len(name) :] if name and leaf.startswith(name) else ""
        return here == there and _FORMAT.fullmatch(format_) is not None
    return (
        here == there
        and SELECTORS.fullmatch(leaf) is not None
        and leaf.startswith(stem + ".")
        and leaf.endswith("." + ext)
    )


def owners(page: NormalizedURL) -> list[str]:
    """The pages ``page`` is a path under, nearest first, under its query and without
    it (``/record/7?ln=en`` of ``/record/7/export/hx?ln=en``): an object's tabs and
    exports are views of the object page, whichever page linked them (a result list
    links each record's BibTeX export beside the record, blind8 ``invenio``). Never a
    directory's index (``/docs/``), whose files are its content."""
    segments = page.path.split("/")
    queries = [f"?{page.query}", ""] if page.query else [""]
    prefixes = ["/".join(segments[:i]) for i in range(len(segments) - 1, 1, -1)]
    return [f"{page.origin}{prefix}{query}" for prefix in prefixes for query in queries]
