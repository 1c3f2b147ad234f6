"""A ninth held-out set of crawler-trap sites, written blind (see README.md).

Run: python -m traps.blind9.run [--only NAME ...] [-- CRAWLER_CMD ...]
"""

from __future__ import annotations

from traps.blind.kit import Site

from .sites_a import AspNet, OsCommerce, PhpMyAdmin
from .sites_b import Sitecore, Sourcehut, Zope
from .sites_c import Control, Kiwix, Munin, VuFind

SITES: list[type[Site]] = [
    AspNet,
    OsCommerce,
    PhpMyAdmin,
    Sourcehut,
    Sitecore,
    Zope,
    VuFind,
    Munin,
    Kiwix,
    Control,
]

__all__ = ["SITES", "Site"]
