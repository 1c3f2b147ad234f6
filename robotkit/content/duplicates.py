"""Duplicate content: a page already seen under another URL, exactly or nearly
(:class:`ContentIndex`), so its links are dropped or deprioritized."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from robotkit.base.reasons import CodeEnum, Reason
from robotkit.base.snapshot import header, listed, opened, reading, typed
from robotkit.content.fingerprints import (
    MAX_TEXT_CHARS,
    Fingerprint,
    PageText,
    Reading,
    SimHashIndex,
    fingerprint,
)

# --------------------------------------------------------------------------------------
# Duplicate content


class MatchKind(CodeEnum):
    NEW = "new"
    EXACT = "exact"
    """Same normalized visible text as a page already seen under another URL."""
    NEAR = "near"
    """SimHash within ``max_distance`` of a page seen under another URL."""


class LinkAction(CodeEnum):
    """What the crawler should do with the links of a page."""

    FOLLOW = "follow"
    DEPRIORITIZE = "deprioritize"
    DROP = "drop"


@dataclass(frozen=True)
class ContentConfig:
    """Defaults: ``max_distance`` 3 bits of 64, the threshold Manku et al. found
    best for web pages; 3-word shingles; exact duplicates' links dropped (they were
    all seen with the first copy), near duplicates' links deprioritized (a template
    page with a small change may still link somewhere new); digits masked in the
    SimHash (see :func:`fingerprint`), so pages differing only in numbers are near
    duplicates at distance 0, never exact ones."""

    max_distance: int = 3
    shingle_size: int = 3
    on_exact: LinkAction = LinkAction.DROP
    on_near: LinkAction = LinkAction.DEPRIORITIZE
    mask_digits: bool = True
    max_chars: int = MAX_TEXT_CHARS

    def __post_init__(self) -> None:
        if not 0 <= self.max_distance <= 15:
            raise ValueError("max_distance must be between 0 and 15")
        if self.shingle_size < 1:
            raise ValueError("shingle_size must be >= 1")


@dataclass(frozen=True)
class ContentMatch:
    """The verdict on one page's content: ``reason`` is ``duplicate-content`` for an
    exact or near duplicate of ``duplicate_of`` (a URL as added), else ``None``."""

    url: str
    kind: MatchKind
    fingerprint: Fingerprint
    links: LinkAction
    duplicate_of: str | None = None
    distance: int = 0

    @property
    def reason(self) -> Reason | None:
        return None if self.kind is MatchKind.NEW else Reason.DUPLICATE_CONTENT

    @property
    def is_novel(self) -> bool:
        return self.kind is MatchKind.NEW


class ContentIndex:
    """Remembers the fingerprint of every page added and says whether a new page
    repeats one already seen under another URL. Adding the same URL again (a
    re-fetch) is never a duplicate of itself."""

    def __init__(self, config: ContentConfig | None = None) -> None:
        self.config = config if config is not None else ContentConfig()
        self._exact: dict[int, str] = {}
        self._near = SimHashIndex(self.config.max_distance)

    def __len__(self) -> int:
        return len(self._exact)

    def fingerprint(self, text_or_html: str | PageText) -> Fingerprint:
        cfg = self.config
        return fingerprint(
            text_or_html, cfg.shingle_size, max_chars=cfg.max_chars, mask_digits=cfg.mask_digits
        )

    def lookup(self, url: str, text_or_html: str | PageText) -> ContentMatch:
        """The verdict without remembering the page."""
        return self._match(url, self.fingerprint(text_or_html))

    @property
    def reading(self) -> Reading:
        """How this index reads a page, for :func:`fingerprint_readings` (which computes it
        with other readings of the same page at once)."""
        return (frozenset(), self.config.mask_digits, self.config.shingle_size)

    def add(self, url: str, text_or_html: str | PageText) -> ContentMatch:
        """The verdict, remembering the page if its content is new."""
        return self.add_fingerprint(url, self.fingerprint(text_or_html))

    def add_fingerprint(self, url: str, fp: Fingerprint) -> ContentMatch:
        """:meth:`add` for a page fingerprinted already, by :attr:`reading`."""
        match = self._match(url, fp)
        if match.kind is MatchKind.NEW:
            fp = match.fingerprint
            if self._exact.setdefault(fp.exact, url) == url:
                self._near.add(fp.simhash, url)
        return match

    def prefer(self, url: str, fp: Fingerprint) -> None:
        """Make ``url`` the page its text names from now on: the shorter, canonical
        member of a copy family fetched after one of its copies, so later copies are
        duplicates of the page, not of the copy."""
        if self._exact.get(fp.exact) != url:
            self._exact[fp.exact] = url
            self._near.add(fp.simhash, url)

    def _match(self, url: str, fp: Fingerprint) -> ContentMatch:
        first = self._exact.get(fp.exact)
        if first is not None and first != url:
            return ContentMatch(url, MatchKind.EXACT, fp, self.config.on_exact, first)
        best: tuple[int, str] | None = None
        for other, distance in self._near.near(fp.simhash):
            if other != url and (best is None or distance < best[0]):
                best = (distance, other)
        if best is not None:
            return ContentMatch(url, MatchKind.NEAR, fp, self.config.on_near, best[1], best[0])
        return ContentMatch(url, MatchKind.NEW, fp, LinkAction.FOLLOW)

    def snapshot(self) -> dict[str, Any]:
        """The pages remembered, as JSON (the config is not state: it is given again
        to :meth:`restore`), so a resumed crawl still knows every page it saw."""
        return {
            **header("content-index", 1),
            "exact": [[value, url] for value, url in self._exact.items()],
            "near": [[value, url] for value, url in self._near.items()],
        }

    @classmethod
    def restore(cls, data: Any, config: ContentConfig | None = None) -> ContentIndex:
        """The index :meth:`snapshot` described; :class:`SnapshotError` if ``data``
        is not one."""
        with reading("content index"):
            data = opened(data, "content-index", 1)
            index = cls(config)
            for value, url in listed(data["exact"], "exact", list):
                index._exact[typed(value, int, "exact hash")] = typed(url, str, "url")
            for value, url in listed(data["near"], "near", list):
                index._near.add(typed(value, int, "simhash"), typed(url, str, "url"))
        return index
