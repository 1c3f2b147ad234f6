"""The waste bound on a portal whose every page links its own state URL (blind3
``portal``): one proof of barrenness serves the sibling families, the same tail
under another page's directory (:mod:`robotkit.triage.kinship`). A real loopback
server; the paths are the server's.
"""

from __future__ import annotations

import random

from werkzeug import Request

from robotkit.triage.screening import TriageConfig
from robotkit.triage.waste import BARREN
from tests.test_crawler_waste import vocabulary
from tests.test_crawler_waste_exports import crawl_paths, page

PAGES = 15
STATES = 4
STATE = "/!ut/p/z1/"


def test_a_state_url_proven_barren_under_one_page_makes_each_other_barren_after_one_copy() -> None:
    """A city portal: a guide of 15 pages, each linking the next and four state URLs
    of its own (``<page>/!ut/p/z1/<token>/dz/d5/<token>/``, WebSphere Portal's
    navigational state), the page again. Each page's state URLs are a family of its
    own directory, proven barren by three copies of its own: 45 trap fetches. Kin by
    their tail (``z{n}/{t}/dz/*/{v}``), one page's three prove every page's family
    barren once one of its copies taught nothing, and their other copies wait past
    W: 41, at most W + 3 + 2 a page (the two the crawl reads of each page's state
    URLs as it meets the page, before any family has three), and every page
    fetched."""
    rng = random.Random(24)
    words = vocabulary(rng, 500)
    pages = [f"/city/guide/{'-'.join(rng.sample(words, 2))}" for _ in range(PAGES)]
    texts = {path: " ".join(rng.choices(words, k=60)) for path in pages}

    def state(path: str, n: int) -> str:
        token = "".join(rng.choices("ABCDEFGHJKLMNPQRSTUVWXYZ", k=12))
        return f"{path}{STATE}{token}{n}/dz/d5/L2dBISEvZ0FBIS9nQSEh{n}/"

    def handler(request: Request) -> tuple[str, str] | None:
        path = request.path
        if path == "/":
            return page("City", "the guide of the city", pages[:1]), "text/html"
        own = path.partition(STATE)[0]
        if own not in texts:
            return None
        after = pages[pages.index(own) + 1 :][:1]
        links = ["/", *after, *(state(own, n) for n in range(STATES))]
        return page(own, texts[own], links), "text/html"

    seen = crawl_paths(handler)
    missing = [p for p in pages if p not in seen]
    assert missing == [], missing
    copies = [p for p in seen if STATE in p]
    # The crawl reads two of each page's state URLs as it meets the page, before any
    # family has three: each sibling costs those two, and W once the proof carries.
    bound = TriageConfig().waste_budget + BARREN + 2 * (len(pages) - 1)
    assert len(copies) <= bound, len(copies)
