"""A second held-out set of crawler-trap sites, written blind (see README.md).

Run: python -m traps.blind2.run [--only NAME ...] [-- CRAWLER_CMD ...]
"""

from __future__ import annotations

from traps.blind.kit import Site

from .sites_a import PhpBB, Trac, Wiki, WordPress
from .sites_b import Cgit, Events, Grafana, Magento
from .sites_c import Control, Drupal, FileManager, Spellings, Tracking

SITES: list[type[Site]] = [
    Wiki,
    WordPress,
    PhpBB,
    Trac,
    Cgit,
    Grafana,
    Magento,
    Events,
    Spellings,
    Tracking,
    Drupal,
    FileManager,
    Control,
]

__all__ = ["SITES", "Site"]
