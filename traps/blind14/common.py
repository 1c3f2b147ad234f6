"""Helpers shared by the blind14 sites: blind13's `B13` (blind12's themed `Base` of
registered legit pages with `fresh()` tokens, plus `tr()`, a trap page with prose seeded by
its own target, and `thin()`, a thin legit page) with this set's seed, and `copy()`, which
answers any host's request for another page's target with that page again, as a trap."""

from __future__ import annotations

from urllib.parse import quote, quote_plus

from traps.blind.kit import Reply, Req, not_found, redirect, slugs, title_of
from traps.blind2.common import esc, qlist, qs, trap, ul
from traps.blind12.common import binary, num, pq, qpairs
from traps.blind13.common import B13

SEED = 20261205


class B14(B13):
    """`B13` with this set's seed."""

    def __init__(self, seed: int = SEED) -> None:
        super().__init__(seed)

    def copy(self, req: Req, host: int = 0, target: str | None = None) -> Reply | None:
        """Host `host`'s legit page at `target` (default: this request's target) rendered
        again for this request, answered as a trap; None if there is no such page."""
        fn = self.pages.get((host, req.target if target is None else target))
        return trap(fn(req)) if fn is not None else None


__all__ = [
    "B14",
    "Reply",
    "Req",
    "binary",
    "esc",
    "not_found",
    "num",
    "pq",
    "qlist",
    "qpairs",
    "qs",
    "quote",
    "quote_plus",
    "redirect",
    "slugs",
    "title_of",
    "trap",
    "ul",
]
