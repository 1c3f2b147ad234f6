"""Trap sites: small web sites that catch naive crawlers, for tests and teaching.

Each module simulates one kind of trap and explains it in its docstring. Every
site declares a legitimate part (pages a good crawler must fetch) and a trap part,
so a crawl can be scored::

    from robotkit import traps

    with traps.serve(traps.get("calendar")) as site:
        my_crawler.crawl(site.start_url)
        score = site.score()          # from the requests the server saw
        assert score.complete and score.trap_fetched <= 10

Sites listen on loopback addresses only. In pytest, the ``trap_site`` fixture
(:mod:`robotkit.traps.pytest_plugin`) does the same.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from robotkit.traps.base import (
    Page,
    PageKind,
    RequestContext,
    RunningSite,
    Score,
    SeenRequest,
    SiteError,
    TrapSite,
    serve,
    start,
    target_of,
)
from robotkit.traps.calendar import Calendar
from robotkit.traps.canonical_stack import CanonicalStack
from robotkit.traps.click_order_facets import ClickOrderFacets
from robotkit.traps.duplicate_article import DuplicateArticle
from robotkit.traps.facets import Facets
from robotkit.traps.growing_query import GrowingQuery
from robotkit.traps.link_farm import LinkFarm
from robotkit.traps.loop_lookalikes import LoopLookalikes
from robotkit.traps.numbered_pages import NumberedPages
from robotkit.traps.pagination import Pagination
from robotkit.traps.path_session import PathSession
from robotkit.traps.redirect_chain import RedirectChain
from robotkit.traps.redirect_loop import RedirectLoop
from robotkit.traps.related_items import RelatedItems
from robotkit.traps.relative_loop import RelativeLoop
from robotkit.traps.robots_sites import (
    RobotsDenied,
    RobotsHuge,
    RobotsNotFound,
    RobotsRedirects,
    RobotsRules,
    RobotsUnavailable,
)
from robotkit.traps.scope_farm import ScopeFarm
from robotkit.traps.session_ids import SessionIds
from robotkit.traps.slow_paths import SlowPaths
from robotkit.traps.soft_404 import Soft404
from robotkit.traps.symlink_loop import SymlinkLoop
from robotkit.traps.tarpit import Tarpit

__all__ = [
    "SITES",
    "Page",
    "PageKind",
    "RequestContext",
    "RunningSite",
    "Score",
    "SeenRequest",
    "SiteError",
    "TrapSite",
    "UnknownSite",
    "get",
    "names",
    "serve",
    "start",
    "target_of",
]

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


class UnknownSite(KeyError):
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
    lists only the hand-written ones."""
    number = name.removeprefix(GENERATED_PREFIX)
    if number != name and number.isdigit() and number.isascii():
        from robotkit.traps.generated import GeneratedSite

        return GeneratedSite(int(number), **options)
    try:
        factory = SITES[name]
    except KeyError:
        raise UnknownSite(name) from None
    return factory(**options)
