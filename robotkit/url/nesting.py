"""Return addresses nested in themselves: one page under ever longer keys.

A page that carries in its query where it was reached from (a return address:
``/preferences?referer=/watch?v=X``, ``/login?next=/cart``) and links itself with its
own address as the new value (a "Reset" or "Log in" link on the page itself) makes
``/preferences?referer=/preferences?referer=/watch?v=X``, and from that one more level,
each key new and each URL longer, until the URL is too long to fetch. The value of such
a pair is the script's own path asking again under the same name: it names no other
page than the address inside it, as a directory loop names no other directory than
the one it loops to. So the key keeps the innermost return address
(:func:`unnested`), and each nesting is the page of the address it wraps (blind13
``invidious``: a preferences page under every video and every spelling of one, each
"Reset" one level deeper, 914 trap fetches of 1,245). A return address to another
path (``/toggle_theme?referer=/preferences?referer=…``) or under another name is kept
as it is: only the script nested in itself is a loop. Known, as a directory listing's
sort query is (:mod:`robotkit.url.listing`), not learned: the text of a nested page
may differ by what it echoes of its address, so no copy proves it.

Pure functions, no I/O.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import unquote

__all__ = ["MAX_NESTING", "unnested"]

MAX_NESTING = 64
"""Levels of one return address unwrapped at most (a URL too long ends the rest)."""


def _target(value: str, host: str) -> tuple[str, str] | None:
    """The path and query a pair's value names on ``host`` (a path, or an absolute
    URL of that host), decoded once; ``None`` when it names none with a query."""
    text = unquote(value)
    if text.startswith(("http://", "https://", "//")):
        authority, _, rest = text.partition("//")[2].partition("/")
        if authority.rpartition("@")[2].partition(":")[0].lower() != host:
            return None
        text = "/" + rest
    if not text.startswith("/") or "?" not in text:
        return None
    path, _, query = text.partition("?")
    return path, query.partition("#")[0]


def _inner(path: str, host: str, name: str, value: str) -> str | None:
    """The value of ``name`` in the address ``value`` names, when that address is
    ``path`` again with exactly one pair of ``name``; else ``None``."""
    target = _target(value, host)
    if target is None or target[0] != path:
        return None
    values = [v for n, _, v in (p.partition("=") for p in target[1].split("&")) if n == name]
    return values[0] if len(values) == 1 else None


def unnested(path: str, host: str, query: str, fix: Callable[[str], str]) -> str:
    """``query`` (of ``path`` on ``host``, normalized) with each return address nested
    in the script itself (``referer=/preferences?referer=…`` on ``/preferences``)
    replaced by the innermost address it wraps, spelled by ``fix`` as the rest of the
    query is; the module docstring says why."""
    if path not in unquote(query):
        return query
    pairs = []
    for pair in query.split("&"):
        name, eq, value = pair.partition("=")
        for _ in range(MAX_NESTING if eq else 0):
            inner = _inner(path, host, name, value)
            if inner is None:
                break
            value = fix(inner)
        pairs.append(f"{name}{eq}{value}")
    return "&".join(pairs)
