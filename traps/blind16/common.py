"""Helpers shared by the blind16 sites: blind14's `B14` (blind13's `B13` with `copy()`:
another host's or target's legit page rendered again as a trap; `tr()`, a trap page with
prose seeded by its own target; `thin()`, a thin legit page) with this set's seed, plus
`h()`, a small deterministic number from a string, and `made()`, made-up names."""

from __future__ import annotations

import hashlib

from traps.blind.kit import title_of
from traps.blind14.common import (
    B14,
    Reply,
    Req,
    esc,
    not_found,
    num,
    pq,
    qlist,
    qs,
    quote,
    quote_plus,
    redirect,
    slugs,
    trap,
    ul,
)

SEED = 20261207


def h(s: str, mod: int = 1 << 30) -> int:
    """A deterministic number in [0, mod) from `s`."""
    return int(hashlib.sha1(s.encode()).hexdigest()[:12], 16) % mod


class B16(B14):
    """`B14` with this set's seed, and `made()`: made-up names seeded by a string."""

    def __init__(self, seed: int = SEED) -> None:
        super().__init__(seed)

    def made(self, key: str, n: int = 1) -> list[str]:
        """`n` made-up title-case names (two words each) seeded by `key`."""
        return [title_of(s) for s in slugs(self.key("m" + key), n, self.v, 2)]

    def rich(self, req: Req, title: str, links: list[tuple[str, str]]) -> Reply:
        """A rich trap page: `title`, `links` and long prose seeded by the request."""
        return self.tr(req, title, links, 120, 300)


__all__ = [
    "B16",
    "Reply",
    "Req",
    "esc",
    "h",
    "not_found",
    "num",
    "pq",
    "qlist",
    "qs",
    "quote",
    "quote_plus",
    "redirect",
    "slugs",
    "title_of",
    "trap",
    "ul",
]
