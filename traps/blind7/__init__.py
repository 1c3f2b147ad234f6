"""A seventh held-out set of crawler-trap sites, written blind (see README.md).

Run: python -m traps.blind7.run [--only NAME ...] [-- CRAWLER_CMD ...]
"""

from __future__ import annotations

from traps.blind.kit import Site

from .sites_a import Blacklight, ColdFusion, Mantis, MDot
from .sites_b import Javadoc, MovableType, PrestaShop, XenForo
from .sites_c import Control, Gitea, Omeka, Roundup

SITES: list[type[Site]] = [
    ColdFusion,
    Mantis,
    MDot,
    Blacklight,
    Javadoc,
    XenForo,
    PrestaShop,
    MovableType,
    Gitea,
    Roundup,
    Omeka,
    Control,
]

__all__ = ["SITES", "Site"]
