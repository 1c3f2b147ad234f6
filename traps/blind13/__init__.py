"""A thirteenth held-out set of crawler-trap sites, written blind (see README.md).

Run: python -m traps.blind13.run [--only NAME ...] [-- CRAWLER_CMD ...]
"""

from __future__ import annotations

from traps.blind.kit import Site

from .sites_a import Booking, Control, Qa, Stats
from .sites_b import Invidious, Osclass, Pkgsite
from .sites_c import Awstats, OpenProject, Umbraco, Weather

SITES: list[type[Site]] = [
    Qa,
    Stats,
    Booking,
    Osclass,
    Pkgsite,
    Invidious,
    Umbraco,
    OpenProject,
    Awstats,
    Weather,
    Control,
]

__all__ = ["SITES", "Site"]
