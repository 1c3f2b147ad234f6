"""A fifth held-out set of crawler-trap sites, written blind (see README.md).

Run: python -m traps.blind5.run [--only NAME ...] [-- CRAWLER_CMD ...]
"""

from __future__ import annotations

from traps.blind.kit import Site

from .sites_a import Fossil, HgWeb, OpenGrok, Redmine
from .sites_b import SMF, DSpace, Moodle, WooCommerce
from .sites_c import AEM, Control, Domino, Tarpit

SITES: list[type[Site]] = [
    HgWeb,
    Fossil,
    Redmine,
    OpenGrok,
    WooCommerce,
    DSpace,
    SMF,
    Moodle,
    AEM,
    Tarpit,
    Domino,
    Control,
]

__all__ = ["SITES", "Site"]
