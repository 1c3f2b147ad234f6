"""Return addresses nested in return addresses: one page under ever longer URLs.

A page that carries in its query where it was reached from (a return address:
``/preferences?referer=/watch?v=X``, ``/login?next=/cart``, ASP.NET's ``returnUrl``,
SharePoint's ``Source``, ``goto``, ``redirect_to``, Plone's ``came_from``) and links a
page with its own address as the new value (a "Reset" or "Log in" link, a salary page
under a job linking other careers' "back" to itself) makes
``/preferences?referer=/preferences?referer=/watch?v=X``, and from that one more level,
each key new and each URL longer, until the URL is too long to fetch. A return address
wrapping another under its own name names no other page than the one it wraps, as a
directory loop names no other directory than the one it loops to: the nesting is the
click path that reached it. So the key keeps the innermost return address
(:func:`unnested`; blind13 ``invidious``: a preferences page under every video and
every spelling of one, each "Reset" one level deeper, 914 trap fetches of 1,245), and
the guard refuses a URL whose return address wraps another (:func:`nesting`,
:class:`robotkit.triage.guard.Rule` ``NESTED_RETURN``; blind15 ``jobs``: salary pages
linking three more careers each with ``returnUrl=`` themselves, 803 of 1,463 trap
fetches, each a career at a new level). A return address is recognised by its shape,
not its name: the value is an address of the URL's own host with a query, and the
address carries a pair of the same name whose value is an address again; a return
address under another name, to another host or without a query is kept as it is.
Known, as a directory listing's sort query is (:mod:`robotkit.url.listing`), not
learned: the text of a nested page may differ by what it echoes of its address, so no
copy proves it.

Pure functions, no I/O.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import unquote

__all__ = ["MAX_NESTING", "nesting", "unnested"]

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


def _inner(host: str, name: str, value: str) -> str | None:
    """The value of ``name`` in the address ``value`` names, when that address has
    exactly one pair of ``name`` and it is an address too (a return address nested in
    a return address); else ``None``."""
    target = _target(value, host)
    if target is None:
        return None
    values = [v for n, _, v in (p.partition("=") for p in target[1].split("&")) if n == name]
    if len(values) != 1 or not unquote(values[0]).startswith(("/", "http://", "https://")):
        return None  # a search for an address's text (``q=/search?q=x``) wraps none
    return values[0]


def unnested(host: str, query: str, fix: Callable[[str], str]) -> str:
    """``query`` (on ``host``, normalized) with each return address nested in a return
    address of its name (``referer=/preferences?referer=…``) replaced by the innermost
    address it wraps, spelled by ``fix`` as the rest of the query is; the module
    docstring says why."""
    return _unwrapped(host, query, fix)[0]


def nesting(host: str, query: str) -> int:
    """How many return addresses of ``query`` (on ``host``, as linked) one of its
    pairs wraps in its own, the most of any pair: 0 for ``next=/cart``, 1 for
    ``next=/login?next=/cart``."""
    return _unwrapped(host, query, str)[1]


def _unwrapped(host: str, query: str, fix: Callable[[str], str]) -> tuple[str, int]:
    """:func:`unnested`'s query and :func:`nesting`'s count, in one walk."""
    if "?" not in unquote(query):
        return query, 0
    pairs, deepest = [], 0
    for pair in query.split("&"):
        name, eq, value = pair.partition("=")
        levels = 0
        for _ in range(MAX_NESTING if eq else 0):
            inner = _inner(host, name, value)
            if inner is None:
                break
            value, levels = fix(inner), levels + 1
        pairs.append(f"{name}{eq}{value}")
        deepest = max(deepest, levels)
    return "&".join(pairs), deepest
