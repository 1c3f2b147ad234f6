"""A shop's front controller naming its page kind by a word (Zen Cart's
``index.php?main_page=product_info``): its page kinds are routes
(:mod:`robotkit.triage.routes`), and a list's items of another route are no growth
of the space (blind16 ``zencart``: six products lost to the parking of the whole
shop, no trap fetched).
Pure: :class:`~robotkit.triage.regions.Regions` fed the pages a crawl would count."""

from __future__ import annotations

import json

from robotkit.triage.regions import Regions, region_of
from robotkit.triage.routes import route_of
from robotkit.url.normalization import NormalizedURL, normalize

SHOP = "http://shop.test/index.php?main_page="
REGION = "http://shop.test/index.php?"


def url(query: str) -> NormalizedURL:
    return normalize(f"{SHOP}{query}")


def product(n: int, path: str = "1_1") -> NormalizedURL:
    return url(f"product_info&cPath={path}&products_id={n}")


def links(*pages: NormalizedURL) -> list[tuple[str, NormalizedURL | None]]:
    return [(str(page), page) for page in pages]


def test_a_page_kind_named_by_a_word_is_a_route() -> None:
    """``main_page=product_info`` names the page's kind; a number is no kind."""
    assert route_of(product(1)) == "main_page=product_info"
    assert route_of(url("7&cPath=1")) is None
    assert region_of(product(1)) == REGION


def test_the_items_a_list_of_another_route_lists_do_not_grow_its_space() -> None:
    """Products the "new products" list names, each linking its "also purchased", are
    records of the shop: eight of them grow nothing; the same eight reached from one
    another do."""
    regions = Regions()
    listing = url("products_new")
    items = [product(n) for n in range(1, 9)]
    regions.count(listing, REGION, True, True, None, links(*items))
    for n, page in enumerate(items, 1):
        assert regions.count(page, REGION, False, True, listing, links(product(n + 20))) is None
    assert REGION not in regions.parked
    again = Regions()  # the lists are kept with a resumed crawl
    again.restore(json.loads(json.dumps(regions.snapshot())))
    assert again.route_lists.item(items[0], listing)
    chained = Regions()
    chained.count(listing, REGION, True, True, None, links(*items))
    for n, page in enumerate(items, 1):
        chained.count(page, REGION, False, True, product(n + 1), links(product(n + 20)))
    assert REGION in chained.parked
