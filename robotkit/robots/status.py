"""What a robots.txt answer means for its origin: ARCHITECTURE.md's status table.

Two profiles differ only in this table. ``classic`` (the default) denies all on
401/403, the conservative reading most crawlers (Scrapy, Heritrix, Nutch) share;
``rfc9309`` allows all on every 4xx (RFC 9309 section 2.3.1.3) and, after 30 days
of an unreachable file, uses the last good copy or allows all (section 2.3.1.4).
"""

from __future__ import annotations

from dataclasses import dataclass

from robotkit.base.reasons import CodeEnum

MAX_REDIRECTS = 5
"""RFC 9309 section 2.3.1.2: crawlers SHOULD follow at least five consecutive
redirects; a 6th or a loop is treated as if the file were not there (404)."""

UNREACHABLE_GRACE = 30 * 86_400.0
"""RFC 9309 section 2.3.1.4: after 30 days unreachable, stop deferring."""


class Profile(CodeEnum):
    """Which status table applies; parsing and matching are the same in both."""

    CLASSIC = "classic"
    RFC9309 = "rfc9309"


class RobotsOutcome(CodeEnum):
    """What one origin's robots.txt answer amounts to."""

    RULES = "rules"  # a file was read: obey its rules
    ALLOW_ALL = "allow-all"  # no usable file (4xx, redirect loop, ...): no restriction
    DENY_ALL = "deny-all"  # access to the file itself denied (classic 401/403)
    DEFERRED = "deferred"  # server unavailable: nothing on the origin for now


class FetchFailure(CodeEnum):
    """Why no HTTP answer came: both count as "unreachable" (RFC 9309 2.3.1.4)."""

    NETWORK_ERROR = "network-error"
    TIMEOUT = "timeout"


@dataclass(frozen=True)
class Hop:
    """One followed redirect: the URL requested and the 3xx status it answered."""

    url: str
    status: int
    location: str


def is_redirect(status: int) -> bool:
    """The statuses that carry a Location to follow (RFC 9110 section 15.4)."""
    return status in (301, 302, 303, 307, 308)


def classify(status: int, profile: Profile) -> RobotsOutcome:
    """The outcome of a final (non-followed) HTTP status, per ARCHITECTURE.md's table.

    A 3xx that is not followed (no Location, 300, an unexpected 304) counts as a
    missing file, like the redirect loop and the 6th hop do.
    """
    if 200 <= status < 300:
        return RobotsOutcome.RULES
    if status in (401, 403):
        return RobotsOutcome.DENY_ALL if profile is Profile.CLASSIC else RobotsOutcome.ALLOW_ALL
    if status == 429 or status >= 500:
        # 429 says "come back later", not "there is no file": although RFC 9309
        # section 2.3.1.3 files it with the other 4xx, ARCHITECTURE.md (like Google)
        # treats it as unreachable (section 2.3.1.4) in both profiles.
        return RobotsOutcome.DEFERRED
    if 300 <= status < 500:
        return RobotsOutcome.ALLOW_ALL
    # 1xx never reaches us as a final answer; anything odd is not a file.
    return RobotsOutcome.DEFERRED
