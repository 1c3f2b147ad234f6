"""Where a crawl's URLs grow, and which regions and path families it closes.

Two bookkeepers of the trap policy (ARCHITECTURE.md, "Trap policy"), both pure:

- **Growth.** A *region* is a page's query space (``/shop/shoes?``) or an origin and
  its first path segment (``/cal``, ``/{tok}`` for random-looking directories). A
  region whose pages keep adding new URLs of the same region while saying nothing
  new is growing without end (a calendar, a facet space, a link farm; not a link
  naming only the page's own values, another action on its objects): after
  ``growth_limit`` such pages, if they outnumber the region's news, it is parked.
  The parameter names that grew a parked query space (never one a novel page of it
  carried) are then held on the sibling lists of the same section. Of a front
  controller's space (``index.php?route=product/category``), only the routes that
  grew it are held: its lists' sorts park it, not its products (blind8 ``opencart``);
  of a route that grew it by its views alone (a category's sorts), only its views. A
  script's handler (``a=commit``, ``Action=PublicFAQZoom``) is a route too
  (:mod:`robotkit.triage.routes`): only the handlers that grew its space 4 times and
  more often than they were news are held, and each other handler is judged on its
  own from then on, its views held once they grew it so (a repository browser's views
  at a commit's hash, never its pages at the head), its records let in until 8
  of them each led on to the next (a period's arrow). A shop's page kind
  (``main_page=product_info``) is a route, a page listing 8 pages of another route
  of its space lists items whose links are no growth, and a let-in route is held
  whole after 4 pages that never said anything, or 4 records its own records led
  to (:meth:`Route.judged`). The pages real pages still lead into a parked space
  are let in (:mod:`robotkit.triage.entries`).
- **The breaker.** A *path family* (``/reports/``) whose responses time out,
  overflow the body cap or come slowly with nothing novel ``breaker_failures``
  times is broken off, so a tarpit with
  many slow endpoints costs two deadlines, not one per endpoint; the rest of the
  host goes on.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from robotkit.base.reasons import CodeEnum, Reason
from robotkit.base.snapshot import header, listed, opened, reading, typed
from robotkit.triage.entries import Entries
from robotkit.triage.routes import (
    Route,
    RouteLists,
    restored_routes,
    restored_shapes,
    route_of,
    route_shape,
    saved_routes,
)
from robotkit.url.normalization import NormalizedURL
from robotkit.url.rewrites import param_name, query_pairs

__all__ = ["FailureKind", "Regions", "family_of", "other_template", "region_of", "renamed"]

_DIGITS = re.compile(r"\d+")
_REGION_TOKEN = re.compile(r"(?=[a-z0-9]*[0-9])(?=[a-z0-9]*[a-z])[a-z0-9]{5,}|[\w\-]{20,}", re.I)
"""A first path segment that names a region by shape, not by name: letters mixed
with digits (``3byuna``, ``x7k2q9``) or a long opaque run (a session id)."""


LIST_ITEMS = 8
"""Pages of another region a page links before it is a list of that region's items
(as many as the growth a region is parked after)."""
SHORT_LIST = 4
"""Pages of other regions, in all, a page links before its region's pages are judged
by their items too (:meth:`Regions.listed_before`), when they list some."""
MAX_LISTS = 200_000
"""Lists remembered (a bound on memory)."""
LISTS_KEPT = 1000
"""Item sets kept per list region (a bound on memory and on the time a check takes)."""


class FailureKind(CodeEnum):
    """A fetch that cost its full bound without yielding a page."""

    TIMEOUT = "timeout"
    OVERSIZE = "oversize"
    SLOW = "slow"
    """An answer that came, slowly, and was not novel."""


def _display_state(query: str) -> bool:
    """Whether a query is a view in a display state: pairs joined by ``;`` alone
    (SMF's ``topic=55.0;prev_next=prev``; ``;`` is HTML 4's other separator)."""
    return ";" in query and "&" not in query


def region_of(norm: NormalizedURL) -> str:
    """The region a URL grows in. With a query: the query space of its page
    (``/shop/shoes?``, numbers in the path as ``{n}``), so facets of one list and
    the pagination of another are two regions, and a calendar's months one; a query
    joined by ``;`` alone is a view in a display state, and the states of a view's first
    name are a region of their own (``/index.php?board;``). Without:
    its origin and first path segment (digit runs as ``{n}``, random-looking tokens
    as ``{tok}``, so a farm's random directories are one region)."""
    if norm.query:
        page = f"{norm.origin}{_DIGITS.sub('{n}', norm.path)}?"
        if _display_state(norm.query):
            # SMF's ``?topic=55.0;prev_next=prev``, ``?board=1.0;sort=subject;desc``,
            # ``;wap2``: a view (its first pair) in a display state (the pairs after
            # ";"). The states of a view grow in a region of their own, so they park
            # apart from the script's real views.
            return f"{page}{norm.query.partition(';')[0].partition('=')[0].lower()};"
        return page
    first = norm.path[1:].split("/", 1)[0]
    if first:
        first = "{tok}" if _REGION_TOKEN.fullmatch(first) else _DIGITS.sub("{n}", first)
    return f"{norm.origin}/{first}"


def other_template(page: NormalizedURL, link: NormalizedURL) -> bool:
    """Whether a link of a page's query space is a page of another template of its
    script: a front controller (``index.php?id=``) serves a news list
    (``id&categories``) and its items (``id&news&controller&action``) in one query
    space. A link that adds two names or more and drops one of the page's is such an
    item; a facet, a sort, a page number or a toggle adds a name or changes values,
    and still grows the space."""
    own, theirs = _query_names(page), _query_names(link)
    return len(theirs - own) >= 2 and bool(own - theirs)


def renamed(page: NormalizedURL, link: NormalizedURL) -> bool:
    """Whether a link of a page's query space names nothing the page does not: its
    path, and no value its query lacks (``?p=docs&edit=notes.txt`` on
    ``?p=docs&view=notes.txt``; ``;``-joined states too). Another action on the
    page's own objects, as many as the script has actions, is no growth: a calendar's
    next month, a facet, a sort name a value more (blind2 ``filemgr``: file views
    linking their edit form parked the whole script, and 22 of its 40 pages)."""
    return link.path == page.path and not _values(link) - _values(page)


def _query_names(norm: NormalizedURL) -> set[str]:
    return {param_name(pair) for pair in query_pairs(norm.query)}


def _values(norm: NormalizedURL) -> Counter[str]:
    """The values of a query's pairs, each as often as it comes (``?c=1&f=1`` names 1
    twice: one filter more than ``?c=1``)."""
    return Counter(
        part.partition("=")[2] for part in (norm.query or "").replace(";", "&").split("&")
    )


def family_of(norm: NormalizedURL) -> str:
    """The path family a breaker counts in: the directory of a path with two or more
    segments (``/reports/7`` is in ``/reports/``), else the path's template
    (``/slow?id=3`` and ``/slow?id=4`` are one family, ``/about`` another)."""
    path = norm.path
    head = path.rpartition("/")[0]
    if head:
        return f"{norm.origin}{_DIGITS.sub('{n}', head)}/"
    return f"{norm.origin}{_DIGITS.sub('{n}', path)}"


def _names(norm: NormalizedURL) -> set[str]:
    """The parameter names of a URL's query; of a ``;``-joined view, those of its
    state (``sort``, ``desc`` of ``board=1.0;sort=subject;desc``), never the view's."""
    query = norm.query or ""
    if _display_state(query):
        return {part.partition("=")[0] for part in query.split(";")[1:] if part}
    return {part.partition("=")[0] for part in query.split("&") if part}


def _section(norm: NormalizedURL) -> str:
    """Where a parked query space's filters are known: the origin and first path
    segment (``/shop/shoes?`` teaches ``/shop/bags?``)."""
    return f"{norm.origin}/{norm.path[1:].split('/', 1)[0]}"


@dataclass
class _Counts:
    news: int = 0
    growth: int = 0
    news_names: set[str] = field(default_factory=set)
    growth_names: set[str] = field(default_factory=set)
    routes: dict[str, Route] = field(default_factory=dict)
    """Of a front controller's space, its routes (``""``: pages without one)."""


class Regions:
    """The growth of each region and the failures of each path family; see the
    module docstring."""

    def __init__(self, growth_limit: int = 8, breaker_failures: int = 2) -> None:
        self.growth_limit = growth_limit
        self.breaker_failures = breaker_failures
        self._counts: dict[str, _Counts] = {}
        self._parked: dict[str, str] = {}
        self._routes: dict[str, dict[str, set[frozenset[str]]]] = {}
        """Of a parked front controller's space, the routes that grew it, each with
        the shapes of it still let in: only they are held (with the names that grew
        it), never the script's other routes."""
        self._held_names: dict[str, set[str]] = {}
        self._failures: Counter[str] = Counter()
        self._broken: dict[str, str] = {}
        self._lists: set[tuple[str, str]] = set()
        self._listing: set[str] = set()
        """Regions a page of which listed another region's items."""
        self._short: set[str] = set()
        """Regions a page of which linked ``SHORT_LIST`` pages of other regions."""
        self._item_sets: dict[str, list[frozenset[int]]] = {}
        """Per list region, the sets of items its pages listed (a hash each)."""
        self.entries = Entries()
        self.route_lists = RouteLists()

    @property
    def parked(self) -> dict[str, str]:
        """Parked regions, each with the line that says why."""
        return dict(self._parked)

    @property
    def broken(self) -> dict[str, str]:
        """Broken-off path families, each with the line that says why."""
        return dict(self._broken)

    def held(self, norm: NormalizedURL, region: str) -> Reason | None:
        """Why a URL in ``region`` is not to be fetched, or ``None``."""
        if self._trapped(norm, region) and not (norm.query and self._admits(norm, region)):
            return Reason.TRAP_HOST
        if self._broken and family_of(norm) in self._broken:
            return Reason.SLOW_PATH
        return None

    def admitted(self, norm: NormalizedURL, region: str) -> bool:
        """Whether a URL is a next page an entry named (of a parked space, or of a page
        with one pager): the waste bound holds it only by its own pages."""
        paged = self.entries.paged(norm)
        return paged or (self.entries.named(norm) and self._trapped(norm, region))

    def _admits(self, norm: NormalizedURL, region: str) -> bool:
        """Whether a URL with a query its region would hold is let in: an entry of it
        (:mod:`robotkit.triage.entries`), or a deep link from a static page."""
        if self.entries.admits(norm):
            return True
        counts = self._counts.get(region, _Counts())
        grown = (names for route in counts.routes.values() for names in route.growth)
        return self.entries.deep(norm, grown, counts.growth_names - counts.news_names)

    def _trapped(self, norm: NormalizedURL, region: str) -> bool:
        """Whether a URL is in a parked region or carries a name held on its section."""
        if self._held_names and norm.query:
            names = self._held_names.get(_section(norm))
            if names and names & _names(norm):
                return True
        if not self._parked or region not in self._parked:
            return False
        routes, route = self._routes.get(region), route_of(norm)
        if routes is None or route is None:
            return True
        shapes = routes.get(route)
        return shapes is not None and route_shape(norm, _names(norm)) not in shapes

    def defer(self, norm: NormalizedURL) -> bool:
        """Whether a URL of the main tier that a parked space would hold waits for the
        demoted tier before it is rechecked: a sibling of a page of the space that a
        page of another region linked, but fewer than the entries ask for yet. The
        tag searches every entry links are read in any order with the parking;
        served after the main tier, the URL meets all the pages that link it (blind7
        ``movabletype``). Only the order changes."""
        return self._trapped(norm, region_of(norm)) and self.entries.defer(norm)

    def list_of(self, url: str, region: str, links: Iterable[str]) -> None:
        """Remember the regions a page at ``url`` (of ``region``) lists: the other
        regions it links ``LIST_ITEMS`` pages of or more."""
        counts = Counter(other for other in links if other != region)
        for other, n in counts.items():
            if n >= LIST_ITEMS and len(self._lists) < MAX_LISTS:
                self._lists.add((url, other))
                self._listing.add(region)
        if counts.total() >= SHORT_LIST and len(self._short) < MAX_LISTS:
            self._short.add(region)

    def listed_before(self, region: str, items: Iterable[str], short: bool = False) -> bool:
        """Whether ``region`` is a list region (a page of it listed ``LIST_ITEMS`` pages
        of another region or more: its pages are worth their items), or for a ``short``
        list's state one a page of which linked ``SHORT_LIST`` pages of other regions,
        and a page of it listed all these items (its links into other regions) before:
        the same list re-sorted or filtered, an empty result. Remembers them."""
        if region not in self._listing and not (short and region in self._short):
            return False
        mine = frozenset(
            int.from_bytes(hashlib.blake2b(i.encode(), digest_size=8).digest(), "big")
            for i in items
        )
        if not mine and region not in self._listing:
            return False  # a short list's page listing nothing: not judged by its items
        lists = self._item_sets.setdefault(region, [])
        if any(mine <= earlier for earlier in lists):
            return True
        if len(lists) < LISTS_KEPT:
            lists.append(mine)
        return False

    def listed(self, referer: str | None, region: str) -> bool:
        """Whether a page of ``region`` is an item of a list kept in another region:
        its referer there linked ``LIST_ITEMS`` pages of ``region`` or more. Such an
        item's links into its own region are no growth of it (blind3 ``wayback``:
        an archive's capture lists, one per archived URL, all listed by the
        collection's index, were parked as a calendar is). A page linked by a page
        of its own region, or by one linking a few of it (a "related searches" box
        on every article) still counts, and so do the views a page lists of itself
        (its own path under other queries: facets, sorts)."""
        return referer is not None and (referer, region) in self._lists

    def count(
        self,
        norm: NormalizedURL,
        region: str,
        news: bool,
        grows: bool,
        referer: NormalizedURL | None = None,
        links: Iterable[tuple[str, NormalizedURL | None]] = (),
    ) -> str | None:
        """Count one fetched page of ``region`` (linked by ``referer``, linking
        ``links``): ``news`` when it was novel or led to new pages elsewhere,
        ``grows`` when it added new URLs of its own region. Returns a summary line
        when the region gets parked."""
        targets = [(n, region_of(n)) for _, n in links if n is not None] if news else []
        self.entries.fetched(norm, region, referer, targets, news)
        self.route_lists.note(norm, (n for _, n in links if n is not None), LIST_ITEMS)
        if region in self._parked:
            return self._count_route(norm, region, news, grows, referer)
        grows = grows and not self.route_lists.item(norm, referer)
        counts = self._counts.setdefault(region, _Counts())
        if not (news or grows):
            return None
        own = _names(norm)  # a page's names, read once for the region and its route
        counts.routes.setdefault(route_of(norm) or "", Route()).note(route_shape(norm, own), news)
        if news:
            counts.news += 1
            counts.news_names |= own
            return None
        counts.growth += 1
        counts.growth_names |= own
        if counts.growth < self.growth_limit or counts.growth <= counts.news:
            return None
        detail = (
            f"{counts.growth} pages of {region} added new URLs of it and nothing new "
            f"({counts.news} novel): region parked"
        )
        grown = {r: c for r, c in counts.routes.items() if c.growth}
        if "" not in grown:
            # A front controller (``index.php?route=product/category&path=20``): its
            # lists' sorts and page sizes grew it, not its products and brands; nor
            # its categories, when their sorts alone did.
            views = counts.growth_names - counts.news_names
            self._routes[region] = {
                r: c.spared(views) for r, c in grown.items() if c.grew(self.growth_limit // 2)
            }
            detail += f"; routes {', '.join(sorted(self._routes[region]))} held"
        self._parked[region] = detail
        names = counts.growth_names - counts.news_names
        if names:
            # The same filters on a sibling list grow the same way: they are held at
            # once there (never a name a novel page of the region carried).
            self._held_names.setdefault(_section(norm), set()).update(names)
            detail += f"; parameters {', '.join(sorted(names))} held under it"
        return detail

    def _count_route(
        self,
        norm: NormalizedURL,
        region: str,
        news: bool,
        grows: bool,
        referer: NormalizedURL | None,
    ) -> str | None:
        """Count a page of a parked space's route (:meth:`Route.judged`)."""
        routes, route = self._routes.get(region), route_of(norm)
        if routes is None or route is None:
            return None
        mine = self._counts[region].routes.setdefault(route, Route())
        shape = route_shape(norm, _names(norm))
        step = referer is not None and route_of(referer) == route  # a record's next record
        held = mine.judged(shape, news, grows, routes.get(route), self.growth_limit, step)
        if held is None:
            return None
        routes[route] = held
        return f"route {route} of {region} held{' but for its records' if held else ''}"

    def failed(self, norm: NormalizedURL, kind: FailureKind) -> str | None:
        """Count a timeout or an oversize body against the URL's path family;
        returns a summary line when the family gets broken off."""
        family = family_of(norm)
        self._failures[family] += 1
        if family in self._broken or self._failures[family] < self.breaker_failures:
            return None
        detail = f"{self._failures[family]} {kind} answers under {family}: path family broken off"
        self._broken[family] = detail
        return detail

    def snapshot(self) -> dict[str, Any]:
        """What was counted and closed, as JSON, for a resumed crawl."""
        return {
            **header("regions", 1),
            "counts": _saved_counts(self._counts),
            "parked": sorted(self._parked.items()),
            "routes": [
                [
                    r,
                    [
                        [route, sorted(sorted(g) for g in shapes)]
                        for route, shapes in routes.items()
                    ],
                ]
                for r, routes in self._routes.items()
            ],
            "held_names": [[s, sorted(names)] for s, names in self._held_names.items()],
            "failures": sorted(self._failures.items()),
            "broken": sorted(self._broken.items()),
            "lists": sorted(self._lists),
            "listing": sorted(self._listing),
            "short": sorted(self._short),
            "item_sets": [
                [region, [sorted(items) for items in lists]]
                for region, lists in self._item_sets.items()
            ],
            "entries": self.entries.snapshot(),
            "route_lists": sorted(self.route_lists.lists),
        }

    def restore(self, data: Any) -> None:
        """Take back :meth:`snapshot`; :class:`~robotkit.base.snapshot.SnapshotError` for
        bad data, leaving these regions as they were."""
        with reading("regions"):
            data = opened(data, "regions", 1)
            counts = {
                typed(r, str, "region"): _Counts(
                    typed(news, int, "count"),
                    typed(growth, int, "count"),
                    set(listed(news_names, "name", str)),
                    set(listed(growth_names, "name", str)),
                    restored_routes(more[0] if more else []),  # none before routes were kept
                )
                for r, news, growth, news_names, growth_names, *more in listed(
                    data["counts"], "counts", list
                )
            }
            routes = {
                typed(r, str, "region"): {
                    typed(route, str, "route"): restored_shapes(shapes)
                    for route, shapes in listed(held, "routes", list)
                }
                for r, held in listed(data.get("routes", []), "routes", list)
            }
            parked = {typed(r, str, "region"): typed(d, str, "detail") for r, d in data["parked"]}
            held = {
                typed(s, str, "section"): set(listed(names, "name", str))
                for s, names in data["held_names"]
            }
            failures = Counter(
                {typed(f, str, "family"): typed(n, int, "count") for f, n in data["failures"]}
            )
            broken = {typed(f, str, "family"): typed(d, str, "detail") for f, d in data["broken"]}
            # A snapshot from before lists were remembered has none.
            lists = {
                (typed(url, str, "url"), typed(region, str, "region"))
                for url, region in listed(data.get("lists", []), "lists", list)
            }
            listing = set(listed(data.get("listing", []), "region", str))
            short = set(listed(data.get("short", []), "region", str))
            item_sets = {
                typed(region, str, "region"): [
                    frozenset(listed(items, "item", int)) for items in listed(sets, "sets", list)
                ]
                for region, sets in listed(data.get("item_sets", []), "item_sets", list)
            }
            route_lists = RouteLists.restored(data.get("route_lists", []))  # none before
            entries = Entries()
            if "entries" in data:  # a snapshot from before entries were kept has none
                entries.restore(data["entries"])
        self._lists, self._listing, self._item_sets = lists, listing, item_sets
        self._short = short
        self.entries, self.route_lists = entries, route_lists
        self._counts, self._parked, self._held_names = counts, parked, held
        self._routes = routes
        self._failures, self._broken = failures, broken


def _saved_counts(counts: dict[str, _Counts]) -> list[Any]:
    """The regions' counts, and their routes', as a :meth:`Regions.snapshot` has them."""
    return [
        [r, c.news, c.growth, sorted(c.news_names), sorted(c.growth_names), saved_routes(c.routes)]
        for r, c in counts.items()
    ]
