"""A sixteenth held-out set of crawler-trap sites, written blind (see README.md).

Run: python -m traps.blind16.run [--only NAME ...] [-- CRAWLER_CMD ...]
"""

from __future__ import annotations

from traps.blind.kit import Site

from .sites_a import Control, Kibana, Pawtucket, Zabbix
from .sites_b import Curlie, Tripadvisor, Zencart
from .sites_c import Fluxbb, Flyspray, Marcinfo, Pmwiki

SITES: list[type[Site]] = [
    Kibana,
    Zabbix,
    Pawtucket,
    Tripadvisor,
    Curlie,
    Zencart,
    Flyspray,
    Marcinfo,
    Pmwiki,
    Fluxbb,
    Control,
]

__all__ = ["SITES", "Site"]
