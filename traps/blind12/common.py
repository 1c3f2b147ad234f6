"""Helpers shared by the blind12 sites, on top of `traps.blind10.common.Base` (a themed
`traps.blind9.common.Pages`: legit pages registered with their renderer on one host, and
`fresh()` tokens from the seed and the request counter), blind11's small helpers (`num`,
`pq`, `rel`) and blind6's `params` (a query split on '&' and ';')."""

from __future__ import annotations

from traps.blind.kit import OTHER, Reply
from traps.blind6.common import params
from traps.blind11.common import Base, num, pq, rel


def binary(name: str) -> Reply:
    """A download (not HTML, not scored): the file `name`'s bytes."""
    return Reply(
        ("%PDF-1.4 " + name).encode(),
        OTHER,
        None,
        ctype="application/octet-stream",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


def qpairs(query: str) -> list[tuple[str, str]]:
    """The query as (key, value) pairs in order, split on '&' and ';', values raw."""
    out = []
    for part in query.replace(";", "&").split("&"):
        if part:
            k, _, v = part.partition("=")
            out.append((k, v))
    return out


__all__ = ["Base", "binary", "num", "params", "pq", "qpairs", "rel"]
