"""A twelfth held-out set of crawler-trap sites, written blind (see README.md).

Run: python -m traps.blind12.run [--only NAME ...] [-- CRAWLER_CMD ...]
"""

from __future__ import annotations

from traps.blind.kit import Site

from .sites_a import Control, Evergreen, Matomo, Nextcloud
from .sites_b import Flarum, Sylius, WebSvn
from .sites_c import ArcGis, Hugo, Pleroma, Znuny

SITES: list[type[Site]] = [
    Matomo,
    Nextcloud,
    Evergreen,
    Flarum,
    Sylius,
    WebSvn,
    ArcGis,
    Znuny,
    Hugo,
    Pleroma,
    Control,
]

__all__ = ["SITES", "Site"]
