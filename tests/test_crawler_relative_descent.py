"""Relative links on directory pages served without their slash (real sockets): each
``Top/Sub`` link resolves beside its page, one level deeper per click, and every page
there is a category of its own words (blind16 ``curlie``: its "@" links ran the crawl
to the page cap). The crawl follows such a run two descents deep and ends by itself,
with every real category fetched."""

from __future__ import annotations

import random

from werkzeug import Request

from tests.test_crawler_waste import vocabulary
from tests.test_crawler_waste_exports import crawl_paths, page

NAMES = ["Arts", "Music", "Jazz", "Sports", "Golf", "Science", "Rivers", "Birds"]
WORDS = vocabulary(random.Random(63), 600)


def test_relative_links_beside_their_pages_stop_two_descents_deep() -> None:
    def handler(request: Request) -> tuple[str, str] | None:
        path = request.path
        if path == "/":
            return page("Directory", "the directory", [f"/en/{n}" for n in NAMES]), "text/html"
        name = path.rpartition("/")[2]
        if not path.startswith("/en/") or name not in NAMES:
            return None
        i = NAMES.index(name)
        rng = random.Random(path)
        text = " ".join(rng.choices(WORDS, k=90))
        related = [f"{NAMES[(i + k) % 8]}/{NAMES[(i + k + 1) % 8]}" for k in (3, 5)]
        return page(name, text, related), "text/html"

    seen = crawl_paths(handler)
    assert {f"/en/{n}" for n in NAMES} <= set(seen), seen
    assert max(path.count("/") for path in seen) <= 4, seen
