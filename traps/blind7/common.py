"""Helpers shared by the blind7 sites, on top of `traps.blind6.common.Hosted` (legit
pages declared by their exact canonical request target on a given host)."""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import urlencode

from traps.blind.kit import Reply
from traps.blind2.common import trap
from traps.blind6.common import Hosted

Pairs = Sequence[tuple[str, str]]


def href(path: str, pairs: Pairs = (), safe: str = "") -> str:
    """`path` with `pairs` as its query, in the given order (None values dropped)."""
    items = [(k, v) for k, v in pairs if v is not None]
    return path + ("?" + urlencode(items, safe=safe) if items else "")


def without(pairs: Pairs, *keys: str) -> list[tuple[str, str]]:
    """`pairs` minus every pair whose key is in `keys`."""
    return [(k, v) for k, v in pairs if k not in keys]


def setp(pairs: Pairs, key: str, value: str) -> list[tuple[str, str]]:
    """`pairs` with `key` set to `value`: replaced in place, or appended."""
    out = list(pairs)
    for i, (k, _) in enumerate(out):
        if k == key:
            out[i] = (key, value)
            return out
    return [*out, (key, value)]


def data(body: str, ctype: str) -> Reply:
    """A non-HTML answer in the trap space (feeds, exports)."""
    rep = trap(body)
    rep.ctype = ctype
    return rep


__all__ = ["Hosted", "Pairs", "data", "href", "setp", "without"]
