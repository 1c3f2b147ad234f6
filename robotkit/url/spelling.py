"""One spelling for a URL path: what RFC 3986 makes equivalent, written one way.

A link may escape an unreserved character (``pa%70er``, ``%7E``) or a dot
(``/a/%2E/b``); a browser reads both as the plain form, and so must a crawler, or it
requests one page once per spelling a site happens to write. Pure string functions
that :mod:`robotkit.url.parse` (link resolution) and
:mod:`robotkit.url.normalization` (keys) share.
"""

from __future__ import annotations

import re

__all__ = ["decode_unreserved", "has_dot_segment", "remove_dot_segments"]

_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")


def _unescaped(match: re.Match[str]) -> str:
    char = chr(int(match.group()[1:], 16))
    return char if char in _UNRESERVED else match.group()


def decode_unreserved(path: str) -> str:
    """``path`` with the escapes of unreserved characters decoded (``%7E`` is ``~``,
    ``pa%70er`` is ``paper``): RFC 3986 section 2.3 makes the two spellings one URL,
    and section 6.2.2.2 asks a normalizer to decode them, so the page is requested
    under the one spelling it has, not once per spelling a link wrote."""
    return _ESCAPE.sub(_unescaped, path) if "%" in path else path


_SINGLE_DOT = frozenset({".", "%2e"})
_DOUBLE_DOT = frozenset({"..", ".%2e", "%2e.", "%2e%2e"})


def has_dot_segment(path: str) -> bool:
    """Whether ``path`` may hold a dot segment for :func:`remove_dot_segments` (a
    cheap test: ``/.`` or an escaped dot)."""
    return "/." in path or ("%2" in path and "%2e" in path.lower())


def remove_dot_segments(path: str) -> str:
    """RFC 3986 section 5.2.4 for an absolute path: ``.`` and ``..`` segments resolved,
    ``..`` never climbing above the root; a path ending in a dot segment keeps its
    trailing slash. A dot written escaped (``%2e``, any case) is a dot: the escape
    of an unreserved character is equivalent to it (section 2.3), and a browser's
    URL parser reads ``/a/%2E/b`` as ``/a/b`` (WHATWG URL Standard, "single-dot
    path segment"), so that is what a link means and what a crawler requests."""
    segments = path.split("/")
    out: list[str] = []
    for segment in segments[1:]:
        dot = segment.lower() if "%" in segment else segment
        if dot in _DOUBLE_DOT:
            if out:
                out.pop()
        elif dot not in _SINGLE_DOT:
            out.append(segment)
    last = segments[-1].lower()
    if last in _SINGLE_DOT or last in _DOUBLE_DOT:
        out.append("")
    return "/" + "/".join(out)
