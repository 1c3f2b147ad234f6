"""Values fresh per response (``robotkit.url.fresh``): stamps, render times, look-alikes.

Pure: pages and the links they give in, parameters learned out. The crawls over real
sockets are in tests/test_crawler_fresh.py.
"""

from __future__ import annotations

import itertools
import json

from robotkit.url.fresh import FreshValues, shifted
from robotkit.url.learned import LearnedRules
from robotkit.url.normalization import NormalizedURL, normalize

SITE = "http://admin.test"
ROUTES = ("/server/databases", "/server/status", "/server/variables")


def links(*urls: str) -> list[NormalizedURL]:
    return [normalize(SITE + url) for url in urls]


def stamped(token: str, *extra: str) -> list[NormalizedURL]:
    """An admin tool's navigation: every route under the response's CSRF token."""
    return links(*(f"/index.php?route={r}&token={token}" for r in ROUTES), *extra)


def names(fresh: FreshValues, page: str, given: list[NormalizedURL]) -> list[str]:
    return [learned.name for learned in fresh.observe(normalize(SITE + page), given, set())]


def test_a_token_each_response_stamps_anew_is_fresh_before_a_second_fetch() -> None:
    """phpMyAdmin stamps a new CSRF token into every link of every response: the
    home page links each route under one token, the first route's page links the
    same routes under another. Two responses, one value each on the same targets,
    prove the token fresh per response, and it is dropped from keys before any page
    is fetched twice (blind9 ``phpmyadmin``: 11 fetches under four tokens)."""
    fresh = FreshValues()
    assert names(fresh, "/", stamped("68dc2f6b55385cef")) == []
    page = f"/index.php?route={ROUTES[0]}&token=68dc2f6b55385cef"
    assert names(fresh, page, stamped("3fdf19fb606d3147")) == ["token"]

    rules = LearnedRules()
    rules.observe_links(normalize(SITE + "/"), stamped("68dc2f6b55385cef"))
    assert rules.observe_links(normalize(SITE + page), stamped("3fdf19fb606d3147"))
    key = rules.apply(normalize(f"{SITE}/index.php?route=/server/status&token=Q7r2Xk4Wm1a9"))
    assert key == f"{SITE}/index.php?route=/server/status"
    assert "fresh per response" in (rules.explain(normalize(SITE + page)) or "")
    back = LearnedRules()  # a resumed crawl keeps the rule
    back.restore(json.loads(json.dumps(rules.snapshot())))
    assert back.apply(normalize(SITE + page)) == f"{SITE}/index.php?route={ROUTES[0]}"


def test_a_render_time_and_the_times_that_move_with_it_are_fresh() -> None:
    """Munin's plugin pages link their day and week graphs to dynazoom with
    ``start_epoch=<now - period>&stop_epoch=<now>`` taken from the clock at each
    render: the next page's links are the same with every time moved by the seconds
    between the renders. ``stop_epoch`` is one value a page, ``start_epoch`` two; both
    are fresh (blind9 ``munin``: 14 zoom pages fetched, one now)."""

    def zoom(now: int) -> list[NormalizedURL]:
        spans = (86400, 604800)
        return links(
            *(f"/dynazoom.html?size=800&start_epoch={now - s}&stop_epoch={now}" for s in spans)
        )

    fresh = FreshValues()
    assert names(fresh, "/gate/cpu.html", zoom(1796000198)) == []
    assert names(fresh, "/gate/load.html", zoom(1796000225)) == ["start_epoch", "stop_epoch"]
    assert shifted("/z?a=1796000198&b=12", 27) == "/z?a=1796000225&b=12"


def test_names_of_objects_are_not_fresh() -> None:
    """The look-alikes: a history listing a file's revisions (several values on one
    page veto the name for good), each file's page linking its own head revision
    (other targets on each page), a value the page carries from its own URL (an
    object's pages passing its id on), a cursor chained into the list's own links
    (``/feed?after=``), a small number and a word (a page, a view)."""
    fresh = FreshValues()
    history = [f"/xref/ring.c?r={r}&v=1" for r in ("ad9b7dbe", "06f74efc")]
    assert names(fresh, "/history/ring.c", links(*history, "/raw/ring.c?r=ad9b7dbe")) == []
    for view, rev in (("blame", "3eb5cbdc"), ("log", "c639114d")):
        given = links(f"/xref/ring.c?r={rev}", f"/raw/ring.c?r={rev}")
        assert names(fresh, f"/{view}/ring.c", given) == []
        assert names(FreshValues(), f"/{view}/ring.c", given) == []  # one page, no proof

    heads = FreshValues()
    for file, rev in (("a.c", "ad9b7dbe"), ("b.c", "06f74efc")):
        given = links(f"/xref/{file}?r={rev}", f"/raw/{file}?r={rev}")
        assert names(heads, f"/xref/{file}", given) == []

    carried = FreshValues()
    for item in ("x8Kq2Lm9Zp", "Q7r2Xk4Wm1"):
        given = links(f"/review?item={item}", f"/cart?item={item}", f"/tell?item={item}")
        assert names(carried, f"/product?item={item}", given) == []
        assert names(carried, f"/products/{item}", given) == []

    cursor = FreshValues()
    pages = ("", "x8Kq2Lm9Zp", "Q7r2Xk4Wm1", "Zt5Yp3Rk8Q")
    for here, after in itertools.pairwise(pages):
        url = f"/feed?after={here}" if here else "/feed"
        given = links(f"/feed?after={after}", f"/feed?after={after}&limit=50")
        assert names(cursor, url, given) == []

    small = FreshValues()
    for page, n in (("/a", "2"), ("/b", "3"), ("/c", "grid"), ("/d", "list")):
        assert names(small, page, links(f"/l?p={n}", f"/m?p={n}")) == []
