"""A URL as it may be shown: its credentials masked (ARCHITECTURE.md, "Shared state").

A Redis URL carries its password (``redis://:secret@host:6379/0``), and whatever
robotkit prints goes to terminals, CI logs and crawl logs. So every message, log
line and ``repr`` that names such a URL shows :func:`masked` of it, never the URL.

This is not the crawler's URL parser (``robotkit.url.parse`` reads http(s) only
and refuses what it cannot read): a URL to mask may have any scheme (``redis``,
``rediss``, ``unix``) and may be malformed, which is exactly when it is printed in
an error. The authority is read as ``urllib.parse.urlsplit`` reads it, and so as
redis-py does: what the client takes for a password is what is masked.
"""

from __future__ import annotations

import re

__all__ = ["MASK", "masked"]

MASK = "***"

_SECRET_PARAMETER = re.compile(r"([?&;](?:password|passwd|pass|pwd)=)[^&;#]*", re.IGNORECASE)
"""A password given as a query parameter (redis-py reads ``?password=``)."""


def masked(url: str) -> str:
    """``url`` with the password of its userinfo (RFC 3986 section 3.2.1, which
    deprecates a password in a URL for this reason) and any ``password=``
    parameter replaced by ``***``; a userinfo without ``:`` is masked whole (a
    lone token may be the secret). A URL without credentials comes back as is."""
    start = url.find("://")
    if start >= 0:
        start += 3
        end = len(url)
        for delimiter in "/?#":
            found = url.find(delimiter, start)
            if 0 <= found < end:
                end = found
        at = url.rfind("@", start, end)
        if at >= 0:
            user, colon, _ = url[start:at].partition(":")
            userinfo = f"{user}:{MASK}" if colon else MASK
            url = f"{url[:start]}{userinfo}{url[at:]}"
    if "=" in url:
        url = _SECRET_PARAMETER.sub(rf"\g<1>{MASK}", url)
    return url
