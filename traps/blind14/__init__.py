"""A fourteenth held-out set of crawler-trap sites, written blind (see README.md).

Run: python -m traps.blind14.run [--only NAME ...] [-- CRAWLER_CMD ...]
"""

from __future__ import annotations

from traps.blind.kit import Site

from .sites_a import Arxiv, Control, Pypi, Webtrees
from .sites_b import Gallery3, Realestate, Timetable
from .sites_c import Hyperkitty, Irclog, Osm, Recipes

SITES: list[type[Site]] = [
    Pypi,
    Arxiv,
    Webtrees,
    Gallery3,
    Timetable,
    Realestate,
    Hyperkitty,
    Irclog,
    Recipes,
    Osm,
    Control,
]

__all__ = ["SITES", "Site"]
