"""Held-out crawler-trap sites, written blind (see README.md).

Run: python -m traps.blind.run [--only NAME ...] [-- CRAWLER_CMD ...]
"""

from __future__ import annotations

from .kit import Site
from .sites_a import AutoIndex, CacheBuster, Caseless, PathInfo, Session
from .sites_b import Calendar, Cursor, Facets, Mirror, Replies
from .sites_c import Churn, Control, Related, Soft404, SortView, Tags, Toggles

SITES: list[type[Site]] = [
    AutoIndex,
    PathInfo,
    Caseless,
    CacheBuster,
    Session,
    Replies,
    Cursor,
    Mirror,
    Facets,
    Calendar,
    Related,
    Tags,
    Toggles,
    SortView,
    Churn,
    Soft404,
    Control,
]

__all__ = ["SITES", "Site"]
