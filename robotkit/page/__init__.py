"""A fetched page read once: a bounded markup check, then links, meta robots, canonical
and main text."""

from __future__ import annotations

from robotkit.page.directives import RobotsDirectives, parse_x_robots_tag
from robotkit.page.meta import PageMeta, parse_page

__all__ = [
    "PageMeta",
    "RobotsDirectives",
    "parse_page",
    "parse_x_robots_tag",
]
