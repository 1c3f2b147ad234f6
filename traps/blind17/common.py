"""Helpers shared by the blind17 sites: blind15's `B15` (blind14's `B14`: blind13's `B13`
on blind12's themed `Base` of registered legit pages with `fresh()` tokens, `tr()` a trap
page with prose seeded by its own target, `thin()` a thin legit page, `copy()` another
page's target answered again as a trap) with this set's seed, blind15's small helpers, and
`made()`: made-up names and numbers seeded by a request target."""

from __future__ import annotations

import random

from traps.blind15.common import (
    B15,
    Reply,
    Req,
    binary,
    day,
    esc,
    h,
    is_day,
    month,
    moved,
    not_found,
    num,
    pq,
    qjoin,
    qlist,
    qpairs,
    qs,
    quote,
    redirect,
    slugs,
    title_of,
    trap,
    ul,
    unquote,
)

SEED = 20261208


class B17(B15):
    """`B15` with this set's seed, and made-up names seeded by a key."""

    def __init__(self, seed: int = SEED) -> None:
        super().__init__(seed)

    def made(self, key: str, n: int, parts: int = 2) -> list[str]:
        """`n` made-up slugs (words joined by '-') seeded by `key`."""
        return [s.lower() for s in slugs(self.key("m" + key), n, self.v, parts)]

    def rr(self, key: str) -> random.Random:
        """A random source seeded by `key` (deterministic)."""
        return random.Random(self.key("r" + key))


__all__ = [
    "B17",
    "Reply",
    "Req",
    "binary",
    "day",
    "esc",
    "h",
    "is_day",
    "month",
    "moved",
    "not_found",
    "num",
    "pq",
    "qjoin",
    "qlist",
    "qpairs",
    "qs",
    "quote",
    "redirect",
    "slugs",
    "title_of",
    "trap",
    "ul",
    "unquote",
]
