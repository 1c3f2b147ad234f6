"""How long a robots.txt answer stays good, and when to ask again.

RFC 9309 section 2.4: crawlers SHOULD NOT use a cached robots.txt for more than
24 hours, and may use standard HTTP caching (RFC 9111) to decide. We take the
freshness lifetime of RFC 9111 section 4.2.1 and clamp it to a floor (so that a
``no-cache`` file is not fetched before every page) and the 24 h ceiling.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from robotkit.base.headervalues import parse_delay_seconds, parse_http_date, parse_retry_after

DEFAULT_MIN_TTL = 60.0
"""Floor of a robots.txt's lifetime: at most one fetch a minute per origin."""

MAX_TTL = 86_400.0
"""Ceiling of a robots.txt's lifetime: RFC 9309 section 2.4's 24 hours."""

DEFAULT_TTL = MAX_TTL
"""Lifetime when the server says nothing (ARCHITECTURE.md: 24 h)."""

BACKOFF_START = 60.0
"""First wait after an unavailable robots.txt without Retry-After."""

BACKOFF_CAP = 86_400.0
"""Longest wait between two attempts on an unavailable robots.txt (and the cap on a
Retry-After): a day, so an origin is re-tried at least daily, like the 24 h
ceiling on a good copy, and the 30-day rule of RFC 9309 2.3.1.4 can be reached."""

_MAX_AGE = re.compile(r"(?:^|,)\s*max-age\s*=\s*\"?(\d+)\"?\s*(?:,|$)", re.IGNORECASE)
_NO_CACHE = re.compile(r"(?:^|,)\s*(?:no-store|no-cache)\b", re.IGNORECASE)


class Headers:
    """Response headers as the core needs them: case-insensitive, repeated list
    fields joined with ``, `` (RFC 9110 section 5.3)."""

    __slots__ = ("_fields",)

    def __init__(self, pairs: Iterable[tuple[str, str]] | Mapping[str, str] = ()) -> None:
        items = pairs.items() if isinstance(pairs, Mapping) else pairs
        fields: dict[str, list[str]] = {}
        for name, value in items:
            fields.setdefault(name.lower(), []).append(value.strip())
        self._fields = fields

    def get(self, name: str) -> str | None:
        values = self._fields.get(name.lower())
        return None if values is None else ", ".join(values)

    def single(self, name: str) -> str | None:
        """A field that must appear once (Date, Expires, ...): None when absent
        or when repeated with different values, which makes it unusable."""
        values = self._fields.get(name.lower())
        if not values or any(value != values[0] for value in values):
            return None
        return values[0]

    def __contains__(self, name: str) -> bool:
        return name.lower() in self._fields

    def __repr__(self) -> str:
        return f"Headers({self._fields!r})"


def clamp(seconds: float, floor: float, ceiling: float = MAX_TTL) -> float:
    return max(floor, min(ceiling, seconds))


def lifetime(headers: Headers, now: float, floor: float = DEFAULT_MIN_TTL) -> float:
    """Seconds a response stays fresh, from its caching headers.

    ``max-age`` less ``Age`` (RFC 9111 sections 4.2.1 and 4.2.3), else ``Expires``
    less ``Date`` (the receipt time when Date is missing or ambiguous; an invalid
    Expires means already stale, section 5.3), else 24 h; ``no-store``/``no-cache`` ask us to
    check every time, which the floor turns into "as often as we allow ourselves".
    """
    control = headers.get("cache-control") or ""
    if _NO_CACHE.search(control):
        return floor
    match = _MAX_AGE.search(control)
    if match:
        age = parse_delay_seconds(headers.single("age")) or 0.0
        return clamp(float(match.group(1)) - age, floor)
    if "expires" in headers:
        # RFC 9111 section 4.2: an Expires that cannot be read (or is repeated
        # with different values) means the response is already stale.
        expires = parse_http_date(headers.single("expires"))
        if expires is None:
            return floor
        # A missing, unreadable or ambiguous Date: use the receipt time
        # (RFC 9110 section 6.6.1).
        date = parse_http_date(headers.single("date"))
        return clamp(expires - (date if date is not None else now), floor)
    return clamp(DEFAULT_TTL, floor)


def retry_after(headers: Headers, now: float) -> float | None:
    """Seconds to wait from a ``Retry-After`` (RFC 9110 section 10.2.3): a number
    of seconds or an HTTP-date; None when absent or unreadable."""
    text = headers.single("retry-after")
    seconds = parse_delay_seconds(text)
    if seconds is not None:
        return seconds
    when = parse_retry_after(text, now)
    return None if when is None else max(0.0, when - now)


def backoff(failures: int) -> float:
    """Wait after ``failures`` consecutive failures without Retry-After: a minute,
    doubling each time, capped at :data:`BACKOFF_CAP`."""
    exponent = min(max(failures, 1) - 1, 32)
    return min(BACKOFF_START * 2.0**exponent, BACKOFF_CAP)


def defer_for(headers: Headers | None, failures: int, now: float, floor: float) -> float:
    """How long to hold an unavailable origin: Retry-After if given, else backoff;
    never less than the floor (a deferral is reported, not retried within a run)
    and never more than :data:`BACKOFF_CAP`."""
    wait = retry_after(headers, now) if headers is not None else None
    if wait is None:
        wait = backoff(failures)
    return clamp(wait, floor, BACKOFF_CAP)


@dataclass(frozen=True)
class Validators:
    """What lets a stale copy be revalidated cheaply (RFC 9110 section 13.1)."""

    etag: str | None = None
    last_modified: str | None = None

    @classmethod
    def from_headers(cls, headers: Headers) -> Validators | None:
        etag, modified = headers.single("etag"), headers.single("last-modified")
        return cls(etag, modified) if etag or modified else None

    def updated(self, headers: Headers) -> Validators:
        """A 304 may carry new validators (RFC 9111 section 4.3.4)."""
        return Validators(
            headers.single("etag") or self.etag,
            headers.single("last-modified") or self.last_modified,
        )

    def conditional_headers(self) -> dict[str, str]:
        """If-None-Match takes precedence when both are sent (RFC 9110 13.2.2)."""
        out: dict[str, str] = {}
        if self.etag:
            out["If-None-Match"] = self.etag
        if self.last_modified:
            out["If-Modified-Since"] = self.last_modified
        return out
