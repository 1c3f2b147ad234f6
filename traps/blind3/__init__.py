"""A third held-out set of crawler-trap sites, written blind (see README.md).

Run: python -m traps.blind3.run [--only NAME ...] [-- CRAWLER_CMD ...]
"""

from __future__ import annotations

from traps.blind.kit import Site

from .sites_a import Bugzilla, Confluence, Discourse, Jenkins
from .sites_b import DjangoAdmin, Plone, Portal, Struts
from .sites_c import Control, Piwigo, ReadTheDocs, Wayback

SITES: list[type[Site]] = [
    Jenkins,
    Discourse,
    Bugzilla,
    Confluence,
    Plone,
    Struts,
    Portal,
    DjangoAdmin,
    ReadTheDocs,
    Piwigo,
    Wayback,
    Control,
]

__all__ = ["SITES", "Site"]
