"""An eleventh held-out set of crawler-trap sites, written blind (see README.md).

Run: python -m traps.blind11.run [--only NAME ...] [-- CRAWLER_CMD ...]
"""

from __future__ import annotations

from traps.blind.kit import Site

from .sites_a import Cacti, Control, Iis, Mirrorbits
from .sites_b import Gerrit, Indico, NopCommerce
from .sites_c import Atom, Magnolia, MyBB, RequestTracker

SITES: list[type[Site]] = [
    Iis,
    Mirrorbits,
    Cacti,
    Gerrit,
    Indico,
    NopCommerce,
    Atom,
    Magnolia,
    RequestTracker,
    MyBB,
    Control,
]

__all__ = ["SITES", "Site"]
