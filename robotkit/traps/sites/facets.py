"""A facet and sort explosion: every combination of filters and sort orders is a URL.

What it is
    A shop list with facets (color, size) and sort controls (sort key, order, view).
    Each control is a link that adds or changes one parameter, kept in the order the
    visitor clicked, so the same selection has many URLs, and the selections
    multiply: 6 colors x 5 sizes x 5 sort keys x 3 orders x 3 views, times every
    order of the parameters, is tens of thousands of URLs over ten products.

How it arises
    Faceted navigation on e-commerce and search sites (Google's guidance on
    "faceted navigation" calls it the main source of crawl waste), with filter
    links that are plain ``<a href>`` rather than forms.

How a naive crawler falls in
    Each list page offers a dozen new combinations; the crawler fetches them all and
    sees the same ten products, re-sorted.

What catches it in robotkit
    ``trap-host``: a filtered or re-sorted list says nothing its list did not, yet
    links new combinations of the same page's query space (``/shop?``); once six
    such pages grew the region without a novel page among them, the region is
    parked and its other URLs are skipped. ``duplicate-content`` flags the copies
    fetched on the way, and two copies that differ only in a pair (``view=grid``)
    teach that the pair changes nothing: ``duplicate-url``. Normalization sorts
    parameters, so click order alone never makes a new URL. Behind them:
    ``too-many-params`` for a URL with more than 32 parameter names, and
    ``host-budget`` when it is set.

Legitimate part: the home page, ``/shop`` without parameters and the ten product
pages. Trap part: ``/shop`` with any query.
"""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode

from werkzeug import Request, Response

from robotkit.base.reasons import Reason
from robotkit.traps.base import (
    RequestContext,
    TrapSite,
    article,
    html_page,
    not_found,
    request_target,
)

PRODUCTS = tuple(f"/shop/item-{n}" for n in range(1, 11))
LEGIT = frozenset(["/", "/shop", *PRODUCTS])
FACETS: dict[str, tuple[str, ...]] = {
    "color": ("red", "green", "blue", "black", "white", "grey"),
    "size": ("xs", "s", "m", "l", "xl"),
    "sort": ("price", "name", "rating", "date", "popularity"),
    "order": ("asc", "desc", "random"),
    "view": ("grid", "list", "compact"),
}


def with_param(pairs: list[tuple[str, str]], key: str, value: str) -> str:
    """Set ``key`` to ``value`` keeping the click order: a changed parameter moves
    to the end, as many shop templates do."""
    kept = [(k, v) for k, v in pairs if k != key]
    return "/shop?" + urlencode([*kept, (key, value)])


class Facets(TrapSite):
    name = "facets"
    summary = "facet and sort links: color x size x sort x order x view, in any order"
    caught_by = (Reason.TRAP_HOST, Reason.DUPLICATE_CONTENT, Reason.DUPLICATE_URL)

    legitimate_pages = LEGIT

    def is_trap(self, target: str, host: int = 0) -> bool:
        return target.startswith("/shop?")

    def page(self, request: Request, ctx: RequestContext) -> Response:
        target = request_target(request)
        if target == "/":
            return article(self.name, "/", [("/shop", "Shop")])
        if target in PRODUCTS:
            return article(self.name, target, [("/shop", "Shop")])
        path, _, query = target.partition("?")
        if path != "/shop":
            return not_found()
        pairs = parse_qsl(query)
        chosen = dict(pairs)
        items = list(PRODUCTS)
        if chosen.get("order") == "desc":
            items.reverse()
        links = [(item, f"Product {item.rsplit('-', 1)[1]}") for item in items]
        for key, values in FACETS.items():
            links += [(with_param(pairs, key, v), f"{key}: {v}") for v in values]
        selection = ", ".join(f"{k}={v}" for k, v in pairs) or "none"
        return html_page("Shop", [f"Ten products. Filters: {selection}."], links)
