"""Filters appended in click order: one selection, many URLs.

What it is
    A shop's category listing offers filter links (brand, colour, size, price
    band). Each link appends the clicked filter to the current query, after the
    ones already chosen and after the ``page=`` number, so the same set of
    filters is reached in every order it can be clicked in, and a colour can be
    added twice over (``colour=red&colour=blue``). Every filtered listing shows
    the same few products. Beside it stand query strings that are real pages:
    the unfiltered pagination (``?page=2`` to ``?page=4``, which ends), article
    translations (``?lang=de``) and items addressed by number (``/item?id=101``).

How it arises
    Faceted navigation written as plain links that carry the whole state in the
    query, in the order it was built; multi-select filters that append rather
    than replace; pagination kept across filter clicks.

How a naive crawler falls in
    Each listing offers a dozen new filter URLs; every order of a selection is a
    new URL, and the selections multiply. The crawler fetches thousands of
    listings showing the same products in the same order.

What catches it in robotkit
    ``trap-host``: a filtered listing says nothing its category did not, yet
    links new filter combinations of the same query space (``/shop/shoes?``);
    once eight such pages grew it without news, the region is parked, and the
    filter names that grew it (never ``page``, which novel pages carried) are
    held at once on the sibling category. ``duplicate-url``: normalization sorts
    the query, so click order stops mattering. ``duplicate-content``: a filtered
    listing that shows the same products as one fetched before is a near copy of
    it (its SimHash within three bits), and its links go to the back of the
    queue. The look-alikes stay: the translations and items are novel pages, and
    a category's pagination names new products, so it counts as news.

Legitimate part: the home page, two categories with pages 2-4 each, 24 product
pages, three articles in English and in German, French and Spanish, four items
at ``/item?id=N``: 49 pages. Trap part: a category listing with any filter in
its query.
"""

from __future__ import annotations

import zlib
from urllib.parse import parse_qsl, urlencode

from werkzeug import Request, Response

from robotkit.base.reasons import Reason
from robotkit.traps.base import (
    RequestContext,
    TrapSite,
    article,
    html_page,
    not_found,
    prose,
    request_target,
)

CATEGORIES = ("/shop/shoes", "/shop/bags")
PAGES = 4
PER_PAGE = 3
FILTERS: dict[str, tuple[str, ...]] = {
    "brand": ("acme", "zenith", "orbit"),
    "colour": ("red", "blue", "black"),
    "size": ("s", "m", "l"),
    "price": ("0-50", "50-100"),
}
LANGUAGES = ("de", "fr", "es")
ARTICLES = ("/guides/sizing", "/guides/care", "/guides/returns")
ITEM_IDS = (101, 102, 103, 104)


def _products(category: str) -> list[str]:
    name = category.rsplit("/", 1)[1]
    return [f"/product/{name}-{n}" for n in range(1, PAGES * PER_PAGE + 1)]


PRODUCTS = tuple(p for c in CATEGORIES for p in _products(c))
LISTINGS = tuple(f"{c}?page={n}" for c in CATEGORIES for n in range(2, PAGES + 1))
TRANSLATIONS = tuple(f"{a}?lang={lang}" for a in ARTICLES for lang in LANGUAGES)
ITEMS = tuple(f"/item?id={n}" for n in ITEM_IDS)
LEGIT = frozenset(["/", *CATEGORIES, *LISTINGS, *PRODUCTS, *ARTICLES, *TRANSLATIONS, *ITEMS])


def is_filtered(target: str) -> bool:
    """A category listing with a filter in its query: the trap."""
    path, _, query = target.partition("?")
    return path in CATEGORIES and any(k in FILTERS for k, _ in parse_qsl(query))


def _page_number(pairs: list[tuple[str, str]]) -> int | None:
    """The last ``page=`` value, None when it is not a number."""
    pages = [v for k, v in pairs if k == "page"]
    if not pages:
        return 1
    return int(pages[-1]) if pages[-1].isdigit() else None


class ClickOrderFacets(TrapSite):
    name = "click-order-facets"
    summary = "filters appended in click order with page=; ?lang= and ?id= are real pages"
    caught_by = (Reason.TRAP_HOST, Reason.DUPLICATE_URL, Reason.DUPLICATE_CONTENT)

    legitimate_pages = LEGIT

    def is_trap(self, target: str, host: int = 0) -> bool:
        return is_filtered(target)

    def page(self, request: Request, ctx: RequestContext) -> Response:
        target = request_target(request)
        path, _, query = target.partition("?")
        if path in CATEGORIES:
            return self._listing(path, parse_qsl(query))
        if target not in LEGIT:
            return not_found()
        if target == "/":
            links = [(c, c) for c in CATEGORIES] + [(a, a) for a in ARTICLES]
            return article(self.name, "/", links + [(i, i) for i in ITEMS])
        if path in ARTICLES:
            # A translation is its own text, not a copy of the English one.
            others = [(f"{path}?lang={lang}", lang) for lang in LANGUAGES]
            return article(self.name, target, [(path, "English"), *others])
        return article(self.name, target)

    def _listing(self, category: str, pairs: list[tuple[str, str]]) -> Response:
        number = _page_number(pairs)
        chosen = [(k, v) for k, v in pairs if k in FILTERS]
        if number is None or not 1 <= number <= PAGES:
            return not_found()
        if not chosen and pairs not in ([], [("page", str(number))]):
            return not_found()  # only the plain pages exist without a filter
        products = _products(category)
        if chosen:
            # The same few products for a selection, whatever the click order.
            seed = zlib.crc32(repr(sorted(set(chosen))).encode())
            shown = [products[(seed + k) % len(products)] for k in range(2)]
            text = "Filtered: " + ", ".join(f"{k} {v}" for k, v in sorted(set(chosen))) + "."
        else:
            shown = products[(number - 1) * PER_PAGE : number * PER_PAGE]
            text = prose(f"{self.name} {category} page {number}", 2)
        links = [(p, p.rsplit("/", 1)[1]) for p in shown]
        for n in range(1, PAGES + 1):
            if n != number:
                here = [(k, v) for k, v in pairs if k != "page"]
                href = urlencode([*here, ("page", str(n))]) if chosen or n > 1 else ""
                links.append((f"{category}?{href}" if href else category, f"page {n}"))
        for key, values in FILTERS.items():
            for value in values:
                if (key, value) not in pairs:
                    links.append((f"{category}?{urlencode([*pairs, (key, value)])}", value))
        return html_page(category.rsplit("/", 1)[1].title(), [text], links)
