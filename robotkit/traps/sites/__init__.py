"""The hand-written trap sites, one trap kind a module, and their registry by name.

Each module simulates one kind of trap and explains it in its docstring; :data:`SITES`
names them for ``robotkit demo``, ``robotkit traps`` and the gauntlet. ``generated-N``
names the site the generator draws from seed N (:mod:`robotkit.traps.generated`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from robotkit.base.errors import UsageError
from robotkit.traps.base import TrapSite
from robotkit.traps.sites.calendar import Calendar
from robotkit.traps.sites.canonical_stack import CanonicalStack
from robotkit.traps.sites.click_order_facets import ClickOrderFacets
from robotkit.traps.sites.duplicate_article import DuplicateArticle
from robotkit.traps.sites.facets import Facets
from robotkit.traps.sites.growing_query import GrowingQuery
from robotkit.traps.sites.link_farm import LinkFarm
from robotkit.traps.sites.loop_lookalikes import LoopLookalikes
from robotkit.traps.sites.numbered_pages import NumberedPages
from robotkit.traps.sites.pagination import Pagination
from robotkit.traps.sites.path_session import PathSession
from robotkit.traps.sites.redirect_chain import RedirectChain
from robotkit.traps.sites.redirect_loop import RedirectLoop
from robotkit.traps.sites.related_items import RelatedItems
from robotkit.traps.sites.relative_loop import RelativeLoop
from robotkit.traps.sites.robots_sites import (
    RobotsDenied,
    RobotsHuge,
    RobotsNotFound,
    RobotsRedirects,
    RobotsRules,
    RobotsUnavailable,
)
from robotkit.traps.sites.scope_farm import ScopeFarm
from robotkit.traps.sites.session_ids import SessionIds
from robotkit.traps.sites.slow_paths import SlowPaths
from robotkit.traps.sites.soft_404 import Soft404
from robotkit.traps.sites.symlink_loop import SymlinkLoop
from robotkit.traps.sites.tarpit import Tarpit

__all__ = ["GENERATED_PREFIX", "SITES", "UnknownSite", "get", "names"]

SITES: dict[str, Callable[..., TrapSite]] = {
    "symlink-loop-1": partial(SymlinkLoop, 1),
    "symlink-loop-2": partial(SymlinkLoop, 2),
    "symlink-loop-3": partial(SymlinkLoop, 3),
    "relative-loop": RelativeLoop,
    "calendar": Calendar,
    "session-ids": SessionIds,
    "growing-query": GrowingQuery,
    "facets": Facets,
    "soft-404": Soft404,
    "redirect-loop": RedirectLoop,
    "redirect-chain": RedirectChain,
    "pagination": Pagination,
    "duplicate-article": DuplicateArticle,
    "tarpit": Tarpit,
    "link-farm": LinkFarm,
    "robots-rules": RobotsRules,
    "robots-404": RobotsNotFound,
    "robots-401": partial(RobotsDenied, 401),
    "robots-403": partial(RobotsDenied, 403),
    "robots-503": partial(RobotsUnavailable, 503, 3600),
    "robots-500": partial(RobotsUnavailable, 500, None),
    "robots-429": partial(RobotsUnavailable, 429, 120),
    "robots-3xx": partial(RobotsRedirects, 3),
    "robots-3xx-too-many": partial(RobotsRedirects, 6),
    "robots-huge": RobotsHuge,
    "numbered-pages": NumberedPages,
    "numbered-200": partial(NumberedPages, count=200),
    "path-session": PathSession,
    "click-order-facets": ClickOrderFacets,
    "canonical-stack": CanonicalStack,
    "slow-paths": SlowPaths,
    "scope-farm": ScopeFarm,
    "loop-lookalikes": LoopLookalikes,
    "related-items": RelatedItems,
}
"""Every site by name; the factories take the site's options as keywords."""


class UnknownSite(UsageError, KeyError):
    """No trap site has that name."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name

    def __str__(self) -> str:
        return f"unknown trap site {self.name!r} (see `robotkit traps list`)"


def names() -> list[str]:
    """Site names in a stable order, for listings and ``pytest.mark.parametrize``."""
    return list(SITES)


GENERATED_PREFIX = "generated-"


def get(name: str, **options: Any) -> TrapSite:
    """A new site by name; ``options`` go to its constructor (e.g. ``profile`` for
    ``robots-403``, ``farm_hosts`` for ``link-farm``, ``drip_interval`` for
    ``tarpit``, ``stall`` for ``slow-paths``). ``generated-N`` is the site the
    generator draws from seed N (:mod:`robotkit.traps.generated`); :func:`names`
    lists only the hand-written ones. ``apache-*`` are served by a real Apache httpd
    (:mod:`robotkit.traps.real`), which :func:`names` leaves out too."""
    number = name.removeprefix(GENERATED_PREFIX)
    if number != name and number.isdigit() and number.isascii():
        from robotkit.traps.generated import GeneratedSite

        return GeneratedSite(int(number), **options)
    factory = SITES.get(name)
    if factory is None:
        from robotkit.traps.real import REAL_SITES

        factory = REAL_SITES.get(name)
    if factory is None:
        raise UnknownSite(name)
    return factory(**options)
