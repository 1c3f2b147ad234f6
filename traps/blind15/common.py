"""Helpers shared by the blind15 sites: blind14's `B14` (blind13's `B13`: blind12's themed
`Base` of registered legit pages with `fresh()` tokens, `tr()` a trap page with prose
seeded by its own target, `thin()` a thin legit page; plus `copy()`, another page's target
answered again as a trap) with this set's seed, and small date and hashing helpers."""

from __future__ import annotations

import datetime as dt
import zlib
from urllib.parse import quote, quote_plus, unquote

from traps.blind.kit import Reply, Req, not_found, redirect, slugs, title_of
from traps.blind2.common import esc, qlist, qs, trap, ul
from traps.blind12.common import binary, num, pq, qpairs
from traps.blind14.common import B14

SEED = 20261206


class B15(B14):
    """`B14` with this set's seed."""

    def __init__(self, seed: int = SEED) -> None:
        super().__init__(seed)


def h(s: str) -> int:
    """A stable number for `s`."""
    return zlib.crc32(s.encode("utf-8"))


def day(iso: str, k: int) -> str:
    """The ISO date `k` days after `iso` (`iso` itself if it is not a date)."""
    try:
        d = dt.date.fromisoformat(iso)
    except ValueError:
        return iso
    try:
        return (d + dt.timedelta(days=k)).isoformat()
    except OverflowError:
        return iso


def is_day(s: str) -> bool:
    """Whether `s` is an ISO date."""
    try:
        dt.date.fromisoformat(s)
    except ValueError:
        return False
    return len(s) == 10


def month(ym: str, k: int) -> str:
    """The month `k` months after `ym` ("YYYY-MM")."""
    y, m = int(ym[:4]), int(ym[5:7])
    n = y * 12 + m - 1 + k
    return f"{max(1, n // 12):04d}-{n % 12 + 1:02d}"


def moved(pairs: list[tuple[str, str]], key: str, value: str) -> list[tuple[str, str]]:
    """`pairs` with `key` removed and appended again with `value` (keys in click order)."""
    return [(k, v) for k, v in pairs if k != key] + [(key, value)]


def qjoin(path: str, pairs: list[tuple[str, str]]) -> str:
    """`path` with the query written from `pairs` (values percent-encoded)."""
    if not pairs:
        return path
    return path + "?" + "&".join(f"{k}={pq(v)}" for k, v in pairs)


__all__ = [
    "B15",
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
    "quote_plus",
    "redirect",
    "slugs",
    "title_of",
    "trap",
    "ul",
    "unquote",
]
