"""Helpers shared by the blind11 sites, on top of `traps.blind10.common.Base` (a themed
`traps.blind9.common.Pages`: legit pages registered with their renderer on one host, and
`fresh()` tokens from the seed and the request counter)."""

from __future__ import annotations

import posixpath
from urllib.parse import quote

from traps.blind10.common import Base


def num(q: dict[str, str], key: str, default: int = 0) -> int:
    """An integer query value, `default` if absent or not a number."""
    try:
        return int(q.get(key, default))
    except ValueError:
        return default


def rel(frm: str, to: str) -> str:
    """`to` (a path with an optional query) as a link relative to the page at `frm`."""
    path, sep, query = to.partition("?")
    here = frm.split("?")[0].rsplit("/", 1)[0] or "/"
    out = posixpath.relpath(path, here) if path != here else "."
    if path.endswith("/") and not out.endswith("/"):
        out += "/"
    if out == ".":
        out = "./"
    return out + sep + query


def pq(s: str) -> str:
    """Percent-encode a value for a query string (space as %20)."""
    return quote(s, safe="")


__all__ = ["Base", "num", "pq", "rel"]
