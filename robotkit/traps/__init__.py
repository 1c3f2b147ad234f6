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

from typing import TYPE_CHECKING

from robotkit.base.lazy import lazy_exports

TRAP_STACK = ("pytest_httpserver", "werkzeug")
"""The server stack of the ``traps`` extra: a missing one of these modules means
"install robotkit[traps]", not a bug."""

# Loaded on first use (PEP 562): the constant above must import without the
# ``traps`` extra, for the ``pytest11`` entry point (:mod:`robotkit.traps.fixture`)
# and the command line, which say what to install instead of failing.
_EXPORTS = {
    **dict.fromkeys(
        (
            "Page",
            "PageKind",
            "RequestContext",
            "Score",
            "SeenRequest",
            "TrapSite",
            "target_of",
        ),
        "robotkit.traps.base",
    ),
    **dict.fromkeys(("RunningSite", "SiteError", "serve", "start"), "robotkit.traps.server"),
    **dict.fromkeys(
        ("GENERATED_PREFIX", "SITES", "UnknownSite", "get", "names"), "robotkit.traps.sites"
    ),
}

__all__ = [
    "GENERATED_PREFIX",
    "SITES",
    "TRAP_STACK",
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

if TYPE_CHECKING:
    from robotkit.traps.base import (
        Page,
        PageKind,
        RequestContext,
        Score,
        SeenRequest,
        TrapSite,
        target_of,
    )
    from robotkit.traps.server import RunningSite, SiteError, serve, start
    from robotkit.traps.sites import GENERATED_PREFIX, SITES, UnknownSite, get, names


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, __all__)
