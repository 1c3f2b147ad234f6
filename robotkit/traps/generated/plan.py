"""The plan of a generated site while it is drawn: hosts, legitimate pages, legitimate
redirects, and the path names already taken.

Sections of the legitimate part and traps both draw from one :class:`Plan`, so no
two of them claim the same first path segment and every trap's entry link lands on
a page that exists.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from robotkit.traps.generated.pages import Href, PageSpec


@dataclass
class Plan:
    seed: int
    rng: random.Random
    hosts: int
    """How many hosts the site has (the main host and its sisters)."""
    pages: dict[tuple[int, str], PageSpec] = field(default_factory=dict)
    redirects: dict[tuple[int, str], str] = field(default_factory=dict)
    """Legitimate redirects, ``(host, source) -> target``: hops, not pages."""
    menus: dict[int, list[Href]] = field(default_factory=dict)
    """Each host's navigation menu, shown on every page of that host."""
    used: set[str] = field(default_factory=set)
    related: str | None = None
    """The index of the site's related-items section, if it has one."""

    def name(self, pool: Sequence[str]) -> str:
        """A first path segment from ``pool`` that nothing else uses yet."""
        free = [p for p in pool if p not in self.used]
        choice = self.rng.choice(free) if free else f"{self.rng.choice(pool)}{len(self.used)}"
        while choice in self.used:
            choice += "x"
        self.used.add(choice)
        return choice

    def add(self, host: int, target: str, spec: PageSpec) -> None:
        if (host, target) in self.pages:
            raise ValueError(f"page drawn twice: host {host} {target}")
        self.pages[(host, target)] = spec

    def menu(self, host: int, link: Href) -> None:
        self.menus.setdefault(host, []).append(link)

    @property
    def count(self) -> int:
        return len(self.pages)

    def attach(self, host: int, link: Href) -> None:
        """Put ``link`` on one legitimate page of ``host``, drawn: where a real site
        would have it (a menu, a post, a footer)."""
        candidates = sorted(t for h, t in self.pages if h == host)
        target = self.rng.choice(candidates)
        self.pages[(host, target)] = self.pages[(host, target)].with_links(link)
