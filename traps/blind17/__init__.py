"""A seventeenth held-out set of crawler-trap sites, written blind (see README.md).

Run: python -m traps.blind17.run [--only NAME ...] [-- CRAWLER_CMD ...]
"""

from __future__ import annotations

from traps.blind.kit import Site

from .sites_a import Control, Debbugs, Koji, Launchpad
from .sites_b import Emuseum, Flickr, Shaarli
from .sites_c import Auction, Moviedb, Sourceforge, Yellowpages

SITES: list[type[Site]] = [
    Koji,
    Launchpad,
    Debbugs,
    Emuseum,
    Flickr,
    Shaarli,
    Yellowpages,
    Sourceforge,
    Moviedb,
    Auction,
    Control,
]

__all__ = ["SITES", "Site"]
