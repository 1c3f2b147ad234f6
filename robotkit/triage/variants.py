"""A path's variants: the pairs of adjacent words each path showed under its queries,
and those only its views showed, for the waste bound (ARCHITECTURE.md, "The waste
bound"; :class:`robotkit.triage.waste.WasteLedger`).

A *variant* (another query on a path judged before) *repeats* its path when fewer than
``VARIANT_NEW`` of its pairs were not shown under the path's other queries: a print
form, a re-sized list, an export. A *view* of a page (its query with more states,
SMF's ``action=printpage;topic=58.0`` of ``topic=58.0``) keeps its pairs apart: a
page that repeats only what a view showed (a thread's second page after the print
view that showed every post) is a page a page links, no evidence about its family.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from itertools import pairwise
from typing import Any

from robotkit.base.snapshot import listed, typed
from robotkit.url.normalization import NormalizedURL
from robotkit.url.rewrites import query_states

__all__ = ["PATH_BITS", "VARIANT_NEW", "PathPairs", "pairs", "repeats", "with_more"]

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


def with_more(norm: NormalizedURL, referer: NormalizedURL | None) -> bool:
    """Whether ``norm`` is its ``referer``'s URL with more states in its query (every
    pair of the referer's and more: ``action=printpage;topic=58.0`` of
    ``topic=58.0``; ``;`` as ``&``, HTML 4.01 appendix B.2.2)."""
    if referer is None or (referer.origin, referer.path) != (norm.origin, norm.path):
        return False
    return set(query_states(referer.query)) < set(query_states(norm.query))


class PathPairs:
    """Each judged page's origin and path (any query) to the pairs of words shown under
    it (``PATH_BITS``); where a view said more, the pairs its other pages showed, and
    the pages so viewed."""

    def __init__(self, max_remembered: int) -> None:
        self.max_remembered = max_remembered
        self.paths: dict[str, int] = {}
        self.plain: dict[str, int] = {}
        self.viewed: set[str] = set()

    def variant(
        self, norm: NormalizedURL, words: Sequence[str], referer: NormalizedURL | None = None
    ) -> tuple[bool, bool, bool]:
        """Whether a page is a *variant* (another query on a path judged before),
        whether it then *repeats* its path (fewer than ``VARIANT_NEW`` of its pairs were
        not shown under the path's other queries), and whether it repeats it only by
        what a *view* of the page that linked it showed. Pairs, not words: a
        translation, the next page of a list, another version's notes or a product
        under ``?id=`` say new things in words a site uses everywhere. Remembers the
        page's pairs. A view is a page of its path whose query is its ``referer``'s
        with more (:func:`with_more`) that does not repeat its path; a toggle
        appended to the query, a print form without the navigation, repeats it and
        is a copy like any.

        A print form or an "all posts" view shows every page of a thread (SMF's
        ``action=printpage``, phpBB's ``view=print``, vBulletin's ``printthread.php``;
        read first, it taught them); the thread's second page, read after it
        through the first page's link, is a page a page links, as a canonical page
        read after its copy is, and proves nothing of its family: two such made the
        topics' form unproven and the real second pages of the later topics waited
        for good (blind5 ``smf``: 7 of 46 pages). Not another view of the page
        (SMF's ``;all``, a copy of the print view), nor a page linked by another page
        than the one viewed."""
        path, of = f"{norm.origin}{norm.path}", "" if referer is None else str(referer)
        shown = self.paths.get(path)
        mine = pairs(words, PATH_BITS)
        variant = shown is not None and bool(norm.query)
        repeated = variant and repeats(shown or 0, mine)
        more = variant and with_more(norm, referer)
        plain = self.plain.get(path, shown or 0)
        if path in self.plain or (more and len(self.plain) < self.max_remembered):
            self.plain[path] = plain if more and not repeated else plain | mine
            if more and not repeated and len(self.viewed) < self.max_remembered:
                self.viewed.add(of)
        if shown is not None or len(self.paths) < self.max_remembered:
            self.paths[path] = (shown or 0) | mine
        after = repeated and not more and of in self.viewed
        return variant, repeated, after and not repeats(plain, mine)

    def snapshot(self) -> list[Any]:
        return [
            sorted([path, format(bits, "x")] for path, bits in self.paths.items()),
            sorted([path, format(bits, "x")] for path, bits in self.plain.items()),
            sorted(self.viewed),
        ]

    @classmethod
    def restored(cls, paths: Any, views: Any, max_remembered: int) -> PathPairs:
        """Take back :meth:`snapshot`'s first list and the other two (``views``; inside
        the caller's ``reading``); a snapshot from before views were kept has none."""
        mine = cls(max_remembered)
        plain, viewed = views if views else ([], [])
        for into, entries, what in ((mine.paths, paths, "paths"), (mine.plain, plain, "plain")):
            for path, bits in listed(entries, what, list):
                into[typed(path, str, "path")] = int(typed(bits, str, "bits"), 16)
        mine.viewed = set(listed(viewed, "viewed", str))
        return mine
