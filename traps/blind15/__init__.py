"""A fifteenth held-out set of crawler-trap sites, written blind (see README.md).

Run: python -m traps.blind15.run [--only NAME ...] [-- CRAWLER_CMD ...]
"""

from __future__ import annotations

from traps.blind.kit import Site

from .sites_a import Aleph, Control, Flights, Hnews
from .sites_b import Jobs, Livescore, Prometheus
from .sites_c import Chessdb, Currency, Dictionary, Metacpan

SITES: list[type[Site]] = [
    Hnews,
    Aleph,
    Flights,
    Jobs,
    Livescore,
    Prometheus,
    Metacpan,
    Chessdb,
    Dictionary,
    Currency,
    Control,
]

__all__ = ["SITES", "Site"]
