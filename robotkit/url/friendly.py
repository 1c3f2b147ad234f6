"""Friendly URLs that name their object in the query: ``showthread.php?101-title``.

vBulletin spells a thread three ways, by its "friendly URL" setting: basic
(``/showthread.php?101-title``), advanced (``/showthread.php/101-title``) and
rewritten (``/threads/101-title``). In the basic form the object's name is a pair
with no value, a number and a slug, and the display states follow it
(``&mode=threaded``, ``&sort=title&order=desc``). Read as a parameter name, the
slug made each thread a waste family of its own, and every thread paid for its
display modes (blind8 ``vbulletin``). The waste bound counts such a URL in its
advanced form, the object's name a path segment after the script.
"""

from __future__ import annotations

import re
from dataclasses import replace

from robotkit.url.normalization import NormalizedURL
from robotkit.url.rewrites import file_ext, query_pairs

__all__ = ["as_path"]

_OBJECT = re.compile(r"\d+-[A-Za-z0-9][\w%-]*(?:/[\w%-]+)*")
"""A pair with no value naming an object by number and slug (``101-title``, with a
page after it: ``101-title/page2``)."""


def as_path(norm: NormalizedURL) -> NormalizedURL:
    """``norm`` with the object a script's query names by a pair with no value moved
    into the path (``/showthread.php/101-title?mode=threaded`` for
    ``/showthread.php?101-title&mode=threaded``); any other URL as it is."""
    pairs = query_pairs(norm.query)
    named = [i for i, pair in enumerate(pairs) if _OBJECT.fullmatch(pair)]
    if len(named) != 1 or file_ext(norm.path.rpartition("/")[2]) is None:
        return norm
    name = pairs.pop(named[0])
    path, query = f"{norm.path}/{name}", "&".join(pairs) or None
    key = f"{norm.origin}{path}" + (f"?{query}" if query else "")
    return replace(norm, key=key, path=path, query=query)
