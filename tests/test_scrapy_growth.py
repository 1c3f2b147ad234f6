"""The growth bound (:mod:`robotkit.triage.growth`) in a Scrapy crawl with the add-on
(:mod:`robotkit.scrapy.growth`): a class of URLs its own pages keep extending is
followed a few steps from the pages outside it, and the rest is left, counted as
``robotkit/disallow/self-growth``. A real Scrapy crawl in a child process
(tests/scrapy_project/run_spider.py) of a loopback server; the paths are the server's.
"""

from __future__ import annotations

import sys
from pathlib import Path

from robotkit.triage.growth import COUNTER_STEPS
from tests.test_crawler_growth import GROWN_FETCHES, arrows, weather_site
from tests.test_crawler_waste_exports import served

sys.path.insert(0, str(Path(__file__).parent / "scrapy_project"))
from run_spider import ADDON, ROBOT, crawl

PAGE_CAP = 2 * GROWN_FETCHES
"""Scrapy's own page cap (``CLOSESPIDER_PAGECOUNT``): where the crawl stopped without
the bound."""


def test_a_scrapy_crawl_of_endless_date_arrows_ends_by_itself_with_its_real_months() -> None:
    """The weather archive (blind13 ``weather``): every page writes prose of its own and
    links the previous and next dates, other views and units without end. The add-on's
    other trap rules never stop it; the growth bound follows each station's arrows a
    few steps, so the crawl ends by itself, every real month fetched, and the chains
    held are reported as ``self-growth``."""
    handler, real = weather_site()
    with served(handler) as (home, seen):
        stats = crawl([home], {**ROBOT, **ADDON, "CLOSESPIDER_PAGECOUNT": PAGE_CAP})
    assert stats["finish_reason"] == "finished"
    assert real <= set(seen), sorted(real - set(seen))
    assert max(map(arrows, seen)) <= COUNTER_STEPS
    assert len(seen) < GROWN_FETCHES
    assert stats["robotkit/disallow/self-growth"] > 0
    assert "Traceback" not in stats["stderr"]
