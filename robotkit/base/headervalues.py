"""Values of the HTTP header fields that carry time: HTTP-dates and delay-seconds.

One parser for every room that reads them (robots.txt freshness, pacing's
Retry-After, meta robots' ``unavailable_after``), so that hostile values get the same
defined answer everywhere: None for garbage, never an exception.
"""

from __future__ import annotations

import math
import re
from datetime import timezone
from email.utils import parsedate_to_datetime

# RFC 9110 section 10.2.3 / RFC 9111 section 1.2.2: delay-seconds = 1*DIGIT, and
# DIGIT is ASCII only (str.isdigit would also accept "¹" or "٣").
_DELAY_SECONDS = re.compile(r"[0-9]+")


def parse_http_date(text: str | None) -> float | None:
    """An HTTP-date (RFC 9110 section 5.6.7) as Unix seconds, or None if invalid.

    The obsolete RFC 850 and asctime forms are accepted, as section 5.6.7 asks of
    recipients; they carry no zone and mean GMT.
    """
    if not text:
        return None
    try:
        parsed = parsedate_to_datetime(text.strip())
        if parsed.tzinfo is None:
            parsed = parsed.replace(tzinfo=timezone.utc)
        return parsed.timestamp()
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


def parse_delay_seconds(text: str | None) -> float | None:
    """delay-seconds: ASCII digits only; absurdly many of them read as infinity
    (a float of a digit string never overflows), never an error."""
    if text is None:
        return None
    stripped = text.strip()
    return float(stripped) if _DELAY_SECONDS.fullmatch(stripped) else None


def parse_retry_after(value: str | None, now: float) -> float | None:
    """The absolute time a Retry-After header asks to wait for, or None.

    RFC 9110 section 10.2.3: either delay-seconds or an HTTP-date; a date in the
    past means "now". A decimal such as ``1.5`` is not RFC syntax but common
    enough to honour when sane. Garbage is ignored (None): a crawler cannot tell
    what was meant, and its own backoff still applies.
    """
    if value is None or not value.strip():
        return None
    seconds = parse_delay_seconds(value)
    if seconds is None:
        try:
            seconds = float(value.strip())
        except ValueError:
            when = parse_http_date(value)
            return None if when is None else max(now, when)
        if not math.isfinite(seconds) or seconds < 0:
            return None
    return now + seconds
