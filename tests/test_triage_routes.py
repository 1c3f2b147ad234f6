"""A front controller's routes (``robotkit.triage.regions``): a shop served as
``/index.php?route=<controller>/<action>&...`` is one query space, and the sorts and
page sizes of its category lists park it; the routes that grew it are held, never
the script's other routes, its products and brands (blind8 ``opencart``: 20 of 38
pages lost, products and brands never seen among them). The crawl driver of
``tests/test_triage.py``."""

from __future__ import annotations

import json

from robotkit.base.reasons import Reason
from robotkit.triage.regions import Regions, region_of
from robotkit.triage.routes import route_of
from robotkit.url.learned import LearnedRules
from robotkit.url.normalization import normalize
from tests.test_triage import SITE, Crawl, html

SHOP = f"{SITE}/index.php?route=shop"
PRODUCTS = range(1, 13)
SORTS = {"name": "alphabet", "price": "cheapest", "rating": "stars", "model": "make", "date": "new"}
STATES = {
    **SORTS,
    "asc": "rising",
    "desc": "falling",
    "25": "small",
    "50": "medium",
    "100": "large",
}


def shop(url: str) -> tuple[str, list[str]]:
    """The home page features products 1 to 8 after its one category; the category
    lists them and links its sorts and page sizes, then its two subcategories (of
    the same links); a sort or page size links its pages 2 and 3, which link nothing;
    a product links the next product (related) and its brand, a brand its first
    product. Pages say no word of their own but a name, as a shop's pages often do."""
    if url == f"{SITE}/":
        links = [
            f"{SHOP}/category&path=1",
            *(f"{SHOP}/product&product_id={n}" for n in range(1, 9)),
        ]
        return html("Shop", "the shop of outdoor clothing", links), links
    query = url.partition("?")[2]
    pairs = dict(pair.partition("=")[::2] for pair in query.split("&"))
    if pairs["route"] == "shop/product":
        n = int(pairs["product_id"])
        links = [f"{SHOP}/brand&brand_id={n % 3}"]
        links += [f"{SHOP}/product&product_id={n + 1}"] if n + 1 in PRODUCTS else []
        return html("Product", f"jacket {n}", links), links
    if pairs["route"] == "shop/brand":
        links = [f"{SHOP}/product&product_id=1"]
        return html("Brand", f"brand {pairs['brand_id']}", links), links
    if set(pairs) == {"route", "path"}:
        path = pairs["path"]
        states = [f"{url}&sort={k}&order={o}" for k in SORTS for o in ("asc", "desc")]
        states += [f"{url}&limit={k}" for k in (25, 50, 100)]
        links = states + [f"{SHOP}/product&product_id={n}" for n in range(1, 9)]
        links += [f"{SHOP}/category&path={path}_{k}" for k in (1, 2) if "_" not in path]
        return html("Category", "jackets by " + " ".join(STATES.values()), links), links
    links = [] if "page" in pairs else [f"{url}&page={k}" for k in (2, 3)]
    state = " ".join(STATES.get(value, "") for value in pairs.values())
    return html("Category", f"jackets {state}", links), links


def test_a_parked_front_controller_holds_the_routes_that_grew_it_only() -> None:
    """The category's sorts park ``/index.php?``: its other sorts and page sizes stay
    held, and the products only products link and the brands are still fetched; so
    are its subcategories, of the shape of the category, whose sorts alone grew the
    space."""
    crawl = Crawl()
    crawl.run(shop, f"{SITE}/", budget=200)
    parked = crawl.triage.regions.parked[f"{SITE}/index.php?"]
    assert "routes route=shop/category held" in parked
    assert Reason.TRAP_HOST in crawl.refused.values()
    fetched = {crawl.triage.key(crawl.triage.normalize(url)) for url in crawl.fetched}
    for n in PRODUCTS:
        assert crawl.triage.key(normalize(f"{SHOP}/product&product_id={n}")) in fetched
    for b in range(3):
        assert crawl.triage.key(normalize(f"{SHOP}/brand&brand_id={b}")) in fetched
    assert sum("sort=" in url for url in crawl.fetched) <= 8
    assert not any("limit=" in url for url in crawl.fetched)
    assert {f"{SHOP}/category&path=1_{k}" for k in (1, 2)} <= set(crawl.fetched)
    # What was held is kept with a resumed crawl.
    again = Regions()
    again.restore(json.loads(json.dumps(crawl.triage.regions.snapshot())))
    assert again.snapshot() == crawl.triage.regions.snapshot()
    sort = normalize(f"{SHOP}/category&path=1_2&sort=name&order=asc")
    assert again.held(sort, region_of(sort)) is Reason.TRAP_HOST
    assert again.held(normalize(f"{SHOP}/product&product_id=99"), region_of(sort)) is None


def test_a_route_is_words_joined_by_slashes() -> None:
    """A controller and its action (``route=product/category``, Yii's ``r=site/page``);
    not a path of numbers, a URL, nor a plain word."""
    assert route_of(normalize(f"{SITE}/index.php?path=20&route=product/category")) == (
        "route=product/category"
    )
    assert route_of(normalize(f"{SITE}/index.php?r=site/page&view=about")) == "r=site/page"
    assert route_of(normalize(f"{SITE}/index.php?q=node/12")) is None
    assert route_of(normalize(f"{SITE}/go?url=http://example.com/a/b")) is None
    assert route_of(normalize(f"{SITE}/index.php?option=com_content")) is None


def test_a_canonical_keeping_a_query_drops_parameters_on_its_template_only() -> None:
    """A product listed from a category (``&path=20&product_id=49``) names its
    canonical ``route=product/product&product_id=49``: ``path=`` is dropped from the
    script's product pages, never from its categories, which ``path=`` names."""
    rules = LearnedRules()
    script = f"{SITE}/index.php?route=product/"
    copy = normalize(f"{script}product&path=20&product_id=49")
    assert rules.learn_canonical(copy, normalize(f"{script}product&product_id=49"))
    other = normalize(f"{script}product&path=30_31&product_id=50")
    assert rules.apply(other) == rules.apply(normalize(f"{script}product&product_id=50"))
    assert rules.explain(other) is not None
    category = normalize(f"{script}category&path=30_31")
    assert rules.apply(category) == category.key
    # A canonical without a query names the page by its path: the parameter goes
    # on the whole origin, as before.
    assert rules.learn_canonical(normalize(f"{SITE}/story?share=tw"), normalize(f"{SITE}/story"))
    assert rules.apply(normalize(f"{SITE}/index.php?share=fb&x=1")) == f"{SITE}/index.php?x=1"
