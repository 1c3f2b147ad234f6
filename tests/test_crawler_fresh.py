"""Crawls of sites whose every response stamps new values into its links (real sockets).

The rule (``robotkit.url.fresh``) is unit-tested in tests/test_url_fresh.py; these
crawls show what it saves: one fetch a page however many tokens or render times its
links were stamped with.
"""

from __future__ import annotations

import itertools
import random
import re

from werkzeug import Request

from tests.test_crawler_waste import vocabulary
from tests.test_crawler_waste_exports import crawl_paths, page

ROUTES = ("databases", "status", "variables", "processes", "plugins", "engines")


def test_a_csrf_token_in_every_link_costs_no_page_a_second_fetch() -> None:
    """Two instances of an admin tool; every response links each route under a CSRF
    token of its own (phpMyAdmin's ``token=``, Moodle's ``sesskey=``), and the
    server answers any token. Each route's page is fetched once: the token is proven
    fresh per response from the links of the first pages (blind9 ``phpmyadmin``),
    where the copies of one route under two tokens came one per instance too late.
    The route fetched under a token is fetched once more as itself, the canonical
    member of its spellings."""
    rng = random.Random(25)
    words = vocabulary(rng, 400)
    texts = {r: " ".join(rng.choices(words, k=40)) for r in ROUTES}
    tokens = (f"{rng.getrandbits(64):016x}" for _ in itertools.count())

    def nav(instance: str) -> list[str]:
        token = next(tokens)
        return [f"/{instance}/index.php?route={r}&token={token}" for r in ROUTES]

    def handler(request: Request) -> tuple[str, str] | None:
        path, query = request.path, request.args
        if path == "/":
            return page("Demo", "the demo server", ["/a/", "/b/"]), "text/html"
        found = re.fullmatch(r"/([ab])/(index\.php)?", path)
        if found is None:
            return None
        instance, script = found.groups()
        if script is None:
            return page(
                f"Instance {instance}", f"welcome to {instance}", nav(instance)
            ), "text/html"
        route = query.get("route", "")
        if route not in texts:
            return None
        text = f"{instance} {texts[route]}"
        return page(f"{instance} {route}", text, nav(instance)), "text/html"

    seen = crawl_paths(handler)
    tools = [path for path in seen if "/index.php" in path]
    routes = sorted({re.sub(r"&token=\w+", "", path) for path in tools})
    assert len(routes) == 2 * len(ROUTES), routes
    assert len(tools) <= len(routes) + 1, tools  # the first under a token, then itself


def test_zoom_links_stamped_with_each_render_time_cost_one_fetch() -> None:
    """A monitoring site's graph pages link their day, week and month graphs to one
    zoom page with ``start=<now - period>&stop=<now>`` read from the clock at each
    render (Munin's dynazoom); the zoom page serves any query. Every graph page is
    fetched and the zoom page once or twice, not once a render (blind9 ``munin``)."""
    rng = random.Random(9)
    words = vocabulary(rng, 400)
    graphs = [f"/graphs/{name}.html" for name in rng.sample(words, 10)]
    clock = itertools.count(1_796_000_000, 27)

    def zoom() -> list[str]:
        now = next(clock)
        return [
            f"/zoom.html?size=800&start={now - span}&stop={now}"
            for span in (86400, 604800, 2678400)
        ]

    def handler(request: Request) -> tuple[str, str] | None:
        if request.path == "/":
            return page("Overview", "five hosts", graphs), "text/html"
        if request.path in graphs:
            text = f"{request.path} " + " ".join(rng.choices(words, k=40))
            return page(request.path, text, ["/", *zoom()]), "text/html"
        if request.path == "/zoom.html":
            start, stop = int(request.args.get("start", 0)), int(request.args.get("stop", 0))
            out = f"/zoom.html?size=800&start={2 * start - stop}&stop={2 * stop - start}"
            return page("Zoom", "zooming", [out]), "text/html"
        return None

    seen = crawl_paths(handler)
    assert [g for g in graphs if g not in seen] == []
    zooms = [path for path in seen if path.startswith("/zoom.html")]
    assert len(zooms) <= 3, zooms
