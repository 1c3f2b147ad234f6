"""A page's chain of self-grown links as another worker of a crawl shared on Redis gets
it (:mod:`robotkit.triage.growth`, ARCHITECTURE.md, "The growth bound across workers").

A host's next owner gets queued URLs whose referers it never read: each record carries
the chain its referer is at (:attr:`robotkit.shared.records.Offer.chain`), a
:class:`Chain`, and this module is the one place that writes it as text and reads it
back (``steps flags move``: flags 1 when the page yields, 2 when it is an index). Pure.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Chain"]


@dataclass(frozen=True, slots=True)
class Chain:
    """The chain a page is at: ``steps`` along its ``move`` from a root, whether the
    page ``yields`` (its links are roots) and whether it is an ``index`` (its links
    start their chains again one step from it)."""

    steps: int
    move: str | None = None
    yields: bool = False
    index: bool = False

    def packed(self) -> str:
        """As text, for a record: ``steps flags move`` (no spaces in the steps and the
        flags; the move is the rest)."""
        return f"{self.steps} {int(self.yields) + 2 * int(self.index)} {self.move or ''}"

    @classmethod
    def unpacked(cls, text: str) -> Chain:
        """A chain :meth:`packed` wrote; ``ValueError`` for other text."""
        steps, flags, move = text.split(" ", 2)
        return cls(int(steps), move or None, bool(int(flags) & 1), bool(int(flags) & 2))
