"""A fourth held-out set of crawler-trap sites, written blind (see README.md).

Run: python -m traps.blind4.run [--only NAME ...] [-- CRAWLER_CMD ...]
"""

from __future__ import annotations

from traps.blind.kit import Site

from .sites_a import DokuWiki, GitLab, ViewVC
from .sites_b import Joomla, SharePoint, Shopify, Typo3
from .sites_c import AmpTwins, Askbot, Control, Koha, MapServer

SITES: list[type[Site]] = [
    GitLab,
    ViewVC,
    DokuWiki,
    Joomla,
    SharePoint,
    Shopify,
    Typo3,
    MapServer,
    AmpTwins,
    Askbot,
    Koha,
    Control,
]

__all__ = ["SITES", "Site"]
