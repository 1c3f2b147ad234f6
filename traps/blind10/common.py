"""Helpers shared by the blind10 sites, on top of `traps.blind9.common.Pages` (legit pages
registered with their renderer on one host; `fresh()` tokens from the seed and the request
counter): a themed page shell, and an HTML trap answer."""

from __future__ import annotations

from traps.blind.kit import doc
from traps.blind.kit import words_for as wf
from traps.blind2.common import esc, prose
from traps.blind9.common import Pages


class Base(Pages):
    """`Pages` with a vocabulary (`theme`), a brand for titles and `make()` for setup."""

    theme = "docs"
    brand = "Site"

    def setup(self) -> None:
        self.v = wf(self.theme)
        self.make()

    def make(self) -> None:
        raise NotImplementedError

    def html(self, title: str, key: str, body: str, lo: int = 60, hi: int = 160) -> str:
        """A page: heading, `body` (links), then prose seeded by `key`."""
        text = prose(self, key, self.v, lo, hi)
        return doc(f"{title} - {self.brand}", f"<h1>{esc(title)}</h1>\n{body}\n{text}")
