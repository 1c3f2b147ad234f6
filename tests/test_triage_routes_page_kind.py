"""A shop's front controller naming its page kind by a word (Zen Cart's
``index.php?main_page=product_info``): its page kinds are routes
(:mod:`robotkit.triage.routes`), a list's items of another route are no growth of
the space, and once the space is parked a route that never said anything, or a
record its own records lead on to, is held after ``growth_limit // 2`` pages (blind16
``zencart``: six products lost to the parking of the whole shop, no trap fetched).
Pure: :class:`~robotkit.triage.regions.Regions` fed the pages a crawl would count."""

from __future__ import annotations

import json

from robotkit.base.reasons import Reason
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


def parked() -> Regions:
    """A shop parked by its categories' sorts, a product news before."""
    regions = Regions()
    regions.count(product(1), REGION, True, True, None, links(product(2)))
    for n in range(8):
        page = url(f"index&cPath=1&sort={n}")
        regions.count(page, REGION, False, True, None, links(url(f"index&cPath=1&sort={n + 1}")))
    assert "routes main_page=index held" in regions.parked[REGION]
    return regions


def test_a_route_that_never_said_anything_is_held_after_half_the_limit() -> None:
    """A product's "Write a review" form, one per product, neither news nor growing:
    four are fetched, the fifth held; the products are not."""
    regions = parked()
    for n in range(1, 4):
        form = url(f"product_reviews_write&products_id={n}")
        assert regions.held(form, REGION) is None
        assert regions.count(form, REGION, False, False, product(n)) is None
    last = url("product_reviews_write&products_id=4")
    assert regions.count(last, REGION, False, False, product(4)) is not None
    form = url("product_reviews_write&products_id=5")
    assert regions.held(form, REGION) is Reason.TRAP_HOST
    assert regions.held(product(9), REGION) is None


def test_records_its_own_records_lead_on_to_are_held_after_half_the_limit() -> None:
    """Products a category lists, growing and saying nothing, are let in however many;
    products an "also purchased" link of a product leads to, each under a longer
    ``cPath``, are held after four."""
    regions = parked()
    category = url("index&cPath=1_1")
    for n in range(2, 10):
        assert regions.held(product(n), REGION) is None
        assert regions.count(product(n), REGION, False, True, category, links()) is None
    held = None
    path = "1_1"
    for n in range(10, 14):
        path += "_1"
        assert regions.held(product(n, path), REGION) is None
        held = regions.count(product(n, path), REGION, False, True, product(n - 1), links())
    assert held == f"route main_page=product_info of {REGION} held"
    assert regions.held(product(20), REGION) is Reason.TRAP_HOST
    again = Regions()
    again.restore(json.loads(json.dumps(regions.snapshot())))
    assert again.snapshot() == regions.snapshot()
