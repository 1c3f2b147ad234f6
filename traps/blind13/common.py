"""Helpers shared by the blind13 sites, on top of `traps.blind12.common` (blind10's themed
`Base` of registered legit pages with `fresh()` tokens, `num`, `pq`, `params`, `qpairs`,
`binary`): a `Site` seeded with this set's seed, and a trap answer written by `html`."""

from __future__ import annotations

from traps.blind.kit import Reply, Req, not_found
from traps.blind2.common import esc, qs, trap, ul
from traps.blind12.common import Base, binary, num, pq, qpairs

SEED = 20261204


class B13(Base):
    """`Base` with this set's seed, and `tr()`: a trap page with its own prose."""

    def __init__(self, seed: int = SEED) -> None:
        super().__init__(seed)

    def tr(
        self, req: Req, title: str, links: list[tuple[str, str]], lo: int = 20, hi: int = 70
    ) -> Reply:
        """A trap answer: `title`, `links`, and prose seeded by the request target."""
        return trap(self.html(title, f"t{req.host_index}{req.target}", ul(links), lo, hi))

    def thin(self, title: str, key: str, links: list[tuple[str, str]]) -> str:
        """A thin legit page: a few links and a sentence or two."""
        return self.html(title, key, ul(links), 8, 22)


__all__ = [
    "B13",
    "Reply",
    "Req",
    "binary",
    "esc",
    "not_found",
    "num",
    "pq",
    "qpairs",
    "qs",
    "trap",
    "ul",
]
