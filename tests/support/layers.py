"""The layer table of ARCHITECTURE.md ("Packages and layers"), which the import tests
enforce."""

from __future__ import annotations

LAYERS = (
    "base",
    "url",
    "robots",
    "pacing",
    "content",
    "page",
    "triage",
    "frontier",
    "http",
    "shared",
    "crawler",
    "scrapy",
    "traps",
    "cli",
)
"""The packages in import order: a module imports only modules of its own package or
of packages before it here, imports for type checkers included (a circle hidden
under ``if TYPE_CHECKING:`` is still a circle in the design). The first eight are
the pure core: no I/O but files (``frontier``), no network, no clock of their own."""

CORE = LAYERS[: LAYERS.index("frontier") + 1]
