"""An eighth held-out set of crawler-trap sites, written blind (see README.md).

Run: python -m traps.blind8.run [--only NAME ...] [-- CRAWLER_CMD ...]
"""

from __future__ import annotations

from traps.blind.kit import Site

from .sites_a import Invision, Mailman, OpenCart, VBulletin
from .sites_b import Discuz, Invenio, Nagios, Odoo
from .sites_c import Control, Dataverse, NodeBB, Squarespace

SITES: list[type[Site]] = [
    VBulletin,
    OpenCart,
    Mailman,
    Invision,
    Discuz,
    Invenio,
    Odoo,
    Nagios,
    Squarespace,
    NodeBB,
    Dataverse,
    Control,
]

__all__ = ["SITES", "Site"]
