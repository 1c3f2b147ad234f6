"""The metadata keys a URL Frontier client speaks to robotkit's service, and their
reading (pure: no I/O, no clock).

The URL Frontier protocol carries a URL, a queue key and free metadata
(``map<string, StringList>``); it has no field for what a fetch gave. robotkit
reads the keys below, all under the ``robotkit.`` prefix, from the metadata of a
``KnownURLItem`` (a fetch reported back) or a ``DiscoveredURLItem`` (a link found).
Every other key is the client's own: kept and handed back unchanged with the URL.

A value that cannot be read (a status that is not a number, a fingerprint that is
not hexadecimal) is ignored as if absent, never an error: the report still ends the
fetch, and counts as an ending with nothing known (as a cancelled request).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from robotkit.base.headervalues import parse_retry_after
from robotkit.base.outcome import Outcome, classify_status

__all__ = [
    "ERROR",
    "FETCHED_AT",
    "FINAL_URL",
    "FINGERPRINT",
    "PARENT",
    "REASON",
    "RETRY_AFTER",
    "STATE",
    "STATUS",
    "Metadata",
    "Report",
    "fingerprint_value",
    "first",
    "read_report",
]

Metadata = Mapping[str, Sequence[str]]
"""A URL's metadata as the protocol carries it: each key has a list of strings."""

# -- what a client sends with a KnownURLItem (a fetch reported back) -------------------

STATUS = "robotkit.status"
"""The HTTP status code of the final response, after redirects (``"200"``)."""
ERROR = "robotkit.error"
"""No HTTP answer came: one of ``dns``, ``connect``, ``tls``, ``timeout``, ``protocol``,
``other`` (:class:`~robotkit.base.outcome.NetworkErrorKind`); any other value counts
as ``other``. A network error backs the host off, like a 5xx."""
RETRY_AFTER = "robotkit.retry_after"
"""The ``Retry-After`` header of a 429 or 503 as received: seconds or an HTTP date
(RFC 9110 section 10.2.3). It holds the whole host until then."""
FINAL_URL = "robotkit.final_url"
"""The URL after redirects, when it differs: its key is marked seen, so a link to it
is not handed out again."""
FETCHED_AT = "robotkit.fetched_at"
"""Unix seconds when the response ended (informational: the delay is counted from
the report's arrival, which is never earlier)."""
FINGERPRINT = "robotkit.fingerprint"
"""The page's content fingerprint, computed by the client: ``robotkit.content.fingerprint``
of the HTML as fetched, written ``f"{fp.exact:016x}:{fp.simhash:016x}"``. An exact
copy of a page already reported is counted and its links are refused
(``duplicate-content``)."""

# -- what a client sends with a DiscoveredURLItem (a link found) -----------------------

PARENT = "robotkit.parent"
"""The URL of the page the link was found on: the link's depth is its page's plus
one (breadth-first order), and a link of a copy is refused."""

# -- what the service adds in GetURLStatus and ListURLs --------------------------------

STATE = "robotkit.state"
"""``queued``, ``in-flight``, ``waiting`` (a refetch date or a block), ``done`` or
``refused``."""
REASON = "robotkit.reason"
"""Why a URL is refused, skipped or held: a reason code of
:class:`robotkit.base.reasons.Reason` (``robots-disallow``, ``repeated-path``...)."""


def first(metadata: Metadata, key: str) -> str | None:
    """The first value of ``key``, stripped, or None when absent or empty."""
    values = metadata.get(key)
    if not values:
        return None
    value = values[0].strip()
    return value or None


@dataclass(frozen=True, slots=True)
class Report:
    """What a client's report of a fetch says, read once.

    ``outcome`` None: nothing known of the fetch (no status and no error), which
    ends it as a cancellation would: it counts for spacing, not for backoff.
    """

    outcome: Outcome | None
    status: int | None = None
    retry_at: float | None = None
    final_url: str | None = None
    fetched_at: float | None = None
    fingerprint: int | None = None


def _int(text: str | None) -> int | None:
    if text is None:
        return None
    try:
        value = int(text)
    except ValueError:
        return None
    return value if 100 <= value <= 999 else None


def _float(text: str | None) -> float | None:
    if text is None:
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) and value >= 0 else None


def fingerprint_value(text: str | None) -> int | None:
    """The exact hash of a :data:`FINGERPRINT` value, or None when unreadable."""
    if text is None:
        return None
    exact = text.partition(":")[0]
    if not 1 <= len(exact) <= 16:
        return None
    try:
        return int(exact, 16)
    except ValueError:
        return None


def read_report(metadata: Metadata, now: float) -> Report:
    """Read a fetch report. ``now`` dates a Retry-After given in seconds."""
    status = _int(first(metadata, STATUS))
    outcome: Outcome | None
    retry_at = None
    if status is not None:
        outcome = classify_status(status)
        if status in (429, 503):
            retry_at = parse_retry_after(first(metadata, RETRY_AFTER), now)
    elif first(metadata, ERROR) is not None:
        outcome = Outcome.NETWORK_ERROR
    else:
        outcome = None
    return Report(
        outcome,
        status,
        retry_at,
        first(metadata, FINAL_URL),
        _float(first(metadata, FETCHED_AT)),
        fingerprint_value(first(metadata, FINGERPRINT)),
    )
