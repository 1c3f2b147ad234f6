"""A sixth held-out set of crawler-trap sites, written blind (see README.md).

Run: python -m traps.blind6.run [--only NAME ...] [-- CRAWLER_CMD ...]
"""

from __future__ import annotations

from traps.blind.kit import Site

from .sites_a import Blogger, Foswiki, Liferay, Wicket
from .sites_b import OJS, Control, Gitweb, Mastodon
from .sites_c import CKAN, Buildbot, Jira, MoinMoin

SITES: list[type[Site]] = [
    Blogger,
    Liferay,
    Wicket,
    Foswiki,
    Mastodon,
    OJS,
    Gitweb,
    CKAN,
    Buildbot,
    Jira,
    MoinMoin,
    Control,
]

__all__ = ["SITES", "Site"]
