"""A path's variants: the pairs of adjacent words each path showed under its queries,
for the waste bound (ARCHITECTURE.md, "The waste
bound"; :class:`robotkit.triage.waste.WasteLedger`).

A *variant* (another query on a path judged before) *repeats* its path when fewer than
``VARIANT_NEW`` of its pairs were not shown under the path's other queries: a print
form, a re-sized list, an export.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from itertools import pairwise
from typing import Any

from robotkit.base.snapshot import listed, typed
from robotkit.url.normalization import NormalizedURL

__all__ = ["PATH_BITS", "VARIANT_NEW", "PathPairs", "pairs", "repeats"]

VARIANT_NEW = 5
"""Pairs of adjacent words new to its path a variant must show to teach something."""
PATH_BITS = 4096
"""Bits of the set, per path, of the pairs of words shown under it (each pair sets
one bit by its hash): 512 bytes a path, whatever its pages. A pair whose bit a
different pair set counts as shown, so new pairs are undercounted a little on a
path with many variants, never overcounted."""


def pairs(words: Sequence[str], bits: int) -> int:
    """The pairs of adjacent words of a page, each setting one of ``bits`` bits."""
    mine = 0
    for a, b in pairwise(words):
        pair = hashlib.blake2b(f"{a} {b}".encode(), digest_size=4).digest()
        mine |= 1 << (int.from_bytes(pair, "big") % bits)
    return mine


def repeats(shown: int, mine: int, bits: int = PATH_BITS) -> bool:
    """Whether a page's pairs (``mine``, bits) show fewer than ``VARIANT_NEW`` new to
    its path's (``shown``). New bits undercount new pairs as the set fills (a pair
    whose bit another pair set counts as shown): scaled by the share of bits still
    free, the count is the pairs' own. A front controller serves a whole site under
    one path (``/index.php?topic=…``): 40 pages filled 96% of the bits, and each
    later page "repeated" it (blind5 ``smf``: the real second pages of long topics)."""
    fill, new = shown.bit_count(), (mine & ~shown).bit_count()
    return new * bits < VARIANT_NEW * (bits - fill)


class PathPairs:
    """Each judged page's origin and path (any query) to the pairs of words shown under
    it (``PATH_BITS``)."""

    def __init__(self, max_remembered: int) -> None:
        self.max_remembered = max_remembered
        self.paths: dict[str, int] = {}

    def variant(self, norm: NormalizedURL, words: Sequence[str]) -> tuple[bool, bool]:
        """Whether a page is a *variant* (another query on a path judged before)
        and whether it then *repeats* its path: fewer than ``VARIANT_NEW`` of its
        pairs of adjacent words were not shown under the path's other queries (a
        print form, whose only new pairs are where the navigation was cut out; a
        re-sized list). Pairs, not words: a translation, the next page of a list,
        another version's notes or a product under ``?id=`` say new things in words
        a site uses everywhere. Remembers the page's pairs."""
        path = f"{norm.origin}{norm.path}"
        shown = self.paths.get(path)
        mine = pairs(words, PATH_BITS)
        variant = shown is not None and bool(norm.query)
        repeated = variant and repeats(shown or 0, mine)
        if shown is not None or len(self.paths) < self.max_remembered:
            self.paths[path] = (shown or 0) | mine
        return variant, repeated

    def snapshot(self) -> list[list[str]]:
        return sorted([path, format(bits, "x")] for path, bits in self.paths.items())

    @classmethod
    def restored(cls, entries: Any, max_remembered: int) -> PathPairs:
        """Take back :meth:`snapshot` (inside the caller's ``reading``)."""
        mine = cls(max_remembered)
        for path, bits in listed(entries, "paths", list):
            mine.paths[typed(path, str, "path")] = int(typed(bits, str, "bits"), 16)
        return mine
