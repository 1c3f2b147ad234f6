"""A fetched page read once: a bounded markup check, then links, meta robots, canonical
and main text."""

from __future__ import annotations

from robotkit.page.meta import PageMeta, RobotsDirectives, parse_page, parse_x_robots_tag

__all__ = [
    "PageMeta",
    "RobotsDirectives",
    "parse_page",
    "parse_x_robots_tag",
]
