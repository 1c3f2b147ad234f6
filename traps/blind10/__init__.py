"""A tenth held-out set of crawler-trap sites, written blind (see README.md).

Run: python -m traps.blind10.run [--only NAME ...] [-- CRAWLER_CMD ...]
"""

from __future__ import annotations

from traps.blind.kit import Site

from .sites_a import BookStack, Control, Phabricator, XWiki
from .sites_b import ApacheManual, Lemmy, SpringWebFlow
from .sites_c import Coppermine, EPrints, OracleAdf, TikiWiki

SITES: list[type[Site]] = [
    XWiki,
    BookStack,
    Phabricator,
    SpringWebFlow,
    Lemmy,
    ApacheManual,
    Coppermine,
    OracleAdf,
    EPrints,
    TikiWiki,
    Control,
]

__all__ = ["SITES", "Site"]
