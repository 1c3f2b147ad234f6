"""Directory listings' display options: the same listing under another query.

Apache's mod_autoindex links each column header of a listing to the same directory
with a query that re-sorts it (``?C=M;O=A``: column Name, Modified, Size or
Description; order Ascending or Descending), and reads three more display options
(``F=`` format, ``V=`` version sort, ``P=`` a pattern that shows a subset of the same
entries). Source: Apache HTTP Server 2.4 documentation, mod_autoindex, "Autoindex
Request Query Arguments". Every such URL shows entries of the listing without the
query, so the key drops it, as it drops a session id: the crawler knows the server's
convention instead of fetching one variant per column to learn it.

nginx's fancyindex module writes the same arguments joined by ``&`` (``?C=M&O=D``;
its column headers, under every directory of a download site: blind11
``mirrorbits``, 146 trap fetches), and mod_autoindex reads both separators.

Only the exact shapes the two servers write are recognised (upper-case names, ``;``
or ``&`` between pairs, a directory path ending in ``/``, at least one ``C=`` or
``O=``), so ``?C=red``, ``?c=M&o=A`` or ``/page?C=M;O=A`` keep their query.
"""

from __future__ import annotations

import re

_PAIR = r"(?:C=[NMSD]|O=[AD]|F=[012]|V=[01]|P=[^;&=#]*)"
_AUTOINDEX_QUERY = re.compile(rf"{_PAIR}(?:;{_PAIR})*|{_PAIR}(?:&{_PAIR})*")


def is_listing_display_query(path: str, query: str) -> bool:
    """True when ``query`` only re-displays the directory listing at ``path``
    (mod_autoindex's sort and display arguments on a path ending in ``/``)."""
    return (
        path.endswith("/")
        and ("C=" in query or "O=" in query)
        and _AUTOINDEX_QUERY.fullmatch(query) is not None
        and any(p[:2] in ("C=", "O=") for p in re.split("[;&]", query))
    )
