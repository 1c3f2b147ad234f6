"""A script's handlers and routes: which template of a script a query asks for.

One script often serves a whole site, the page it renders named in its query: a front
controller's route (OpenCart's ``index.php?route=product/category``), or a handler
under a dispatch name (Matomo's ``module=CoreHome&action=index``, Znuny's
``Action=PublicFAQZoom``, gitweb's ``a=commit``). :mod:`robotkit.triage.regions`
counts a parked query space's growth per route, so that the views that grew it are
held and the script's other pages are not (ARCHITECTURE.md, "Trap policy").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from robotkit.base.snapshot import listed, typed
from robotkit.url.handlers import at_revision, handler_pairs
from robotkit.url.normalization import NormalizedURL
from robotkit.url.rewrites import query_states

__all__ = [
    "AT_REVISION",
    "ROUTE_PAGES",
    "Route",
    "RouteLists",
    "dispatched",
    "restored_routes",
    "restored_shapes",
    "route_of",
    "route_shape",
    "saved_routes",
]

_ROUTE = re.compile(r"[a-z_]+(?:[.\-][a-z_]+)*(?:/[a-z_]+(?:[.\-][a-z_]+)*)+", re.I)
"""A front controller's route: words joined by ``/`` (OpenCart's
``route=product/category``, Yii's ``r=site/page``), a controller and its action."""


_PAGE_KINDS = frozenset({"main_page"})
"""Names of the parameter naming, by a word, the kind of page a shop's front
controller renders: Zen Cart's ``index.php?main_page=product_info`` (one directory
per page kind under its ``includes/modules/pages/``), a route as a handler is. Not
a component (Joomla's ``option=com_content``): its view names the page."""
_WORD = re.compile(r"[a-z][a-z_]*", re.I)
"""A page kind's name: a word, never a number or an id."""


def route_of(norm: NormalizedURL) -> str | None:
    """The handler pairs of a script's query (``a=shortlog``,
    ``action=index&module=CoreHome``), else the route pair of a front controller's
    (``route=product/product``), the first one, or ``None``."""
    handler = handler_pairs(norm)
    if handler:  # a file's path is no route (gitweb's ``a=blob;f=src/io.c``)
        return "&".join(sorted(handler, key=str.lower))
    pairs = query_states(norm.query)
    route = next((pair for pair in pairs if _ROUTE.fullmatch(pair.partition("=")[2])), None)
    return route or next((pair for pair in pairs if _page_kind(pair)), None)


def _page_kind(pair: str) -> bool:
    """Whether a pair names a front controller's page kind (:data:`_PAGE_KINDS`)."""
    name, _, value = pair.partition("=")
    return name.lower() in _PAGE_KINDS and _WORD.fullmatch(value) is not None


def dispatched(page: NormalizedURL, links: Iterable[NormalizedURL]) -> Iterator[NormalizedURL]:
    """The links of a page that may be items of a list: to another path, or to its own
    path asking the script for another handler (``/otrs/public.pl`` linking
    ``?Action=PublicFAQZoom;ItemID=23``): a page of the application, no view of the
    page (a facet, a sort), and an item when a page lists many (blind12 ``znuny``: the
    FAQ's home lists 14 articles). The page's own route is read once, not once a link:
    a query-addressed page links its own path many times."""
    mine = route_of(page)
    for link in links:
        route = route_of(link) if link.path == page.path else None
        if link.path != page.path or (route is not None and route != mine):
            yield link


AT_REVISION = "@"
"""The mark a route's page carries among its names when its query names a commit by
its hash (:func:`robotkit.url.handlers.at_revision`): a view of that commit."""


def route_shape(norm: NormalizedURL, names: set[str]) -> frozenset[str]:
    """The shape of a route's page: its parameter names, marked :data:`AT_REVISION`
    at a commit's hash (gitweb's ``a=blob;f=io.c;h=…;hb=<hash>``), so that the view
    at a commit and the record at the head (``a=blob;f=io.c;hb=HEAD``) are two."""
    return frozenset(names | {AT_REVISION}) if at_revision(norm) else frozenset(names)


ROUTE_PAGES = 64
"""Growing pages remembered per route (a bound on memory)."""


@dataclass
class Route:
    """The pages of one route or handler of a script's space: how many were news, and
    the parameter names of each that grew it."""

    shapes: set[frozenset[str]] = field(default_factory=set)
    """The parameter names of its pages that were news, each set once."""
    news: int = 0
    growth: list[frozenset[str]] = field(default_factory=list)
    chain: int = 0
    """Pages of its shapes let in, once held, that were news and grew it."""
    stale: int = 0
    """Pages of its news's shapes let in, the route not held, that a page of it
    linked and that grew it, saying nothing new."""

    def note(self, names: set[str] | frozenset[str], news: bool) -> None:
        """Count a page of the route: news, or growth."""
        if news:
            self.news += 1
            if len(self.shapes) < ROUTE_PAGES:
                self.shapes.add(frozenset(names))
        elif len(self.growth) < ROUTE_PAGES:
            self.growth.append(frozenset(names))

    def judged(
        self,
        shape: frozenset[str],
        news: bool,
        grows: bool,
        held: set[frozenset[str]] | None,
        limit: int,
        step: bool = False,
    ) -> set[frozenset[str]] | None:
        """Judge a page of the route once its space is parked, the route let in
        (``held`` ``None``) or held but for the shapes ``held``: the shapes let in
        from now on when that changes, else ``None``. A route let in is held for its
        views (pages of shapes none of its news pages had) once they grew it as
        :meth:`grew` says, with ``limit // 2``: the shapes of its news, its records,
        are still let in. A record's page that was news and named new pages of the
        space counts as a step: a record names others as an aside, a counter (a
        period's "previous" arrow, each page novel by its words) its next one on every
        page, and after ``limit`` steps the route is held whole (blind12 ``matomo``).
        Two kinds of page a route let in says nothing by are held whole after
        ``limit // 2`` of them, as a space is parked on its own count: the pages of a
        route none of whose pages was ever news, neither news nor growing (a shop's
        "Write a review" and "Tell a friend" forms, one per product: an action on a
        record, no record), and the records that were no news, grew it, and were
        linked by a record of the route (a ``step``: "Customers who bought this also
        purchased", each under a longer category path), once more than its news. A
        record a list of another route listed (a category's products) is no step, and
        is let in however many."""
        if held is not None:
            self.chain += bool(held and news and grows)
            return set() if held and self.chain >= limit else None
        if not (news or grows or self.shapes):  # blind16 zencart's review forms
            self.note(shape, False)
            return set() if self.grew(limit // 2) else None
        if news or not grows or shape in self.shapes:
            if news:  # a record of a shape that was news, growing or not, is no view
                self.note(shape, True)
            elif grows and step:  # blind16 zencart's "also purchased", cPath nested
                self.stale += 1
                return set() if limit // 2 <= self.stale > self.news else None
            return None
        self.note(shape, False)
        return set(self.shapes) | self.heads() if self.grew(limit // 2) else None

    def heads(self) -> set[frozenset[str]]:
        """The shapes of its growing pages at the head, when its views at a commit's
        hash grew it too: gitweb's blob at ``HEAD`` is the record, the blob at each
        commit a view of that commit (as in every repository browser: hgweb's
        ``tip``, ViewVC's and WebSVN's ``HEAD``); held with them, the real blobs were
        lost (blind6 ``gitweb``)."""
        if not any(AT_REVISION in names for names in self.growth):
            return set()
        return {names for names in self.growth if AT_REVISION not in names}

    def grew(self, limit: int) -> bool:
        """Whether the route grew ``limit`` times or more, and more often than it was
        news: as a space is parked, on a route's own count."""
        return len(self.growth) >= limit and len(self.growth) > self.news

    def spared(self, views: set[str]) -> set[frozenset[str]]:
        """The shapes of the route still let in once the space is parked: those of
        its news (a category's ``path=``), when the route's pages are objects and
        its views (``views``, the names that grew the space) grew it: its other
        growing pages (subcategories) were no more than its news. None of a
        calendar's months, growing with the names of its first."""
        plain = sum(1 for names in self.growth if not names & views)
        return set(self.shapes) if views and plain <= self.news else set()


MAX_ROUTE_LISTS = 200_000
"""Route lists remembered (a bound on memory)."""


@dataclass
class RouteLists:
    """The pages of a script's space that list the pages of another of its routes: a
    shop's "new products" (``main_page=products_new``) listing its products
    (``main_page=product_info``), an index of articles. Such a list's items are records
    of the script, not views of its pages: their links into the space (a product's
    "Write a review", its "also purchased") are no growth of it, as a list's items in
    another region are not (:meth:`robotkit.triage.regions.Regions.listed`; blind16
    ``zencart``: the products its "new products" list named, each linking its forms
    and "also purchased", parked the shop, none of its pages a trap). A page at a
    commit's hash is no record (:data:`AT_REVISION`): a repository's summary lists
    its commits, views of them (blind6 ``gitweb``: 3 blobs at ``HEAD`` lost in a
    trial that took them for records)."""

    lists: set[tuple[str, str]] = field(default_factory=set)
    """Pairs of a list page's key and the route it lists."""

    def note(self, page: NormalizedURL, links: Iterable[NormalizedURL], items: int) -> None:
        """Remember the routes of its own script ``page`` links ``items`` pages of or
        more, but its own."""
        mine = route_of(page)
        counts: dict[str, set[str]] = {}
        for link in links:
            route = route_of(link) if link.path == page.path and link.query else None
            if route is not None and route != mine and not at_revision(link):
                counts.setdefault(route, set()).add(link.key)
        for route, keys in counts.items():
            if len(keys) >= items and len(self.lists) < MAX_ROUTE_LISTS:
                self.lists.add((page.key, route))

    @classmethod
    def restored(cls, data: Any) -> RouteLists:
        """The route lists of a snapshot (the sorted :attr:`lists`)."""
        pairs = listed(data, "route_lists", list)
        return cls({(typed(url, str, "url"), typed(route, str, "route")) for url, route in pairs})

    def item(self, norm: NormalizedURL, referer: NormalizedURL | None) -> bool:
        """Whether a page is an item of a list of its route: its referer listed it."""
        if referer is None or not self.lists:
            return False
        route = route_of(norm)
        return route is not None and (referer.key, route) in self.lists


def saved_routes(routes: dict[str, Route]) -> list[Any]:
    """A space's routes as a snapshot has them (:func:`restored_routes` reads them)."""
    return [
        [
            route,
            n.news,
            [sorted(g) for g in n.growth],
            sorted(sorted(g) for g in n.shapes),
            n.chain,
            n.stale,
        ]
        for route, n in routes.items()
    ]


def restored_shapes(data: Any) -> set[frozenset[str]]:
    """Sets of parameter names of a snapshot."""
    return {frozenset(listed(names, "name", str)) for names in listed(data, "shapes", list)}


def restored_routes(data: Any) -> dict[str, Route]:
    """The routes of a snapshot's counts (:func:`saved_routes`)."""
    return {
        typed(r, str, "route"): Route(
            restored_shapes(shapes),
            typed(news, int, "count"),
            [frozenset(listed(names, "name", str)) for names in listed(growth, "growth", list)],
            typed(more[0], int, "count") if more else 0,  # none before chains were kept
            typed(more[1], int, "count") if more[1:] else 0,  # none before stale records
        )
        for r, news, growth, shapes, *more in listed(data, "routes", list)
    }
