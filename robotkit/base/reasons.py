"""The one place where decisions and reason codes are defined.

Reason codes are part of the command-line contract (ARCHITECTURE.md): scripts outside
this repository match on them, so a code is added when needed and never renamed.
"""

from __future__ import annotations

from enum import Enum


class CodeEnum(str, Enum):
    """An enum whose members are stable codes: ``str()`` and f-strings give the
    code itself (``robots-disallow``), as logs, tables and JSON print it."""

    def __str__(self) -> str:
        return str(self.value)


class Decision(CodeEnum):
    """What the robot may do with a URL: fetch it now, never, or later."""

    ALLOW = "allow"
    DISALLOW = "disallow"
    DEFER = "defer"


class Reason(CodeEnum):
    """Why a decision was taken; the value is the stable code printed and logged."""

    ALLOWED = "allowed"

    # robots.txt (RFC 9309 and ARCHITECTURE.md's status table)
    ROBOTS_DISALLOW = "robots-disallow"
    ROBOTS_DENY_ALL = "robots-deny-all"
    ROBOTS_DEFERRED = "robots-deferred"
    CRAWL_DELAY_TOO_LONG = "crawl-delay-too-long"

    # URL validity
    INVALID_URL = "invalid-url"
    UNSUPPORTED_SCHEME = "unsupported-scheme"

    # URL-shape trap rules (guard)
    URL_TOO_LONG = "url-too-long"
    PATH_TOO_DEEP = "path-too-deep"
    REPEATED_PATH = "repeated-path"
    TOO_MANY_PARAMS = "too-many-params"
    BLACKLISTED = "blacklisted"

    # content and crawl-level trap signals
    DUPLICATE_URL = "duplicate-url"
    DUPLICATE_CONTENT = "duplicate-content"
    SOFT_404 = "soft-404"
    TRAP_HOST = "trap-host"
    SLOW_PATH = "slow-path"
    """A path family whose responses kept timing out or overflowing the body cap."""
    WASTE_BUDGET = "waste-budget"
    """A URL no novel page vouched for, left when its host's fetches that taught
    nothing had spent the waste budget (ARCHITECTURE.md, "Trap policy")."""
    SELF_GROWTH = "self-growth"
    """A URL its own class's pages grew from a root further than a few steps of one
    move, left when the crawl had nothing else queued (ARCHITECTURE.md, "The waste
    bound")."""

    # crawl scope and budgets
    DEPTH_LIMIT = "depth-limit"
    HOST_BUDGET = "host-budget"
    NOFOLLOW = "nofollow"
    OFF_SCOPE = "off-scope"

    # fetching (client)
    REDIRECT_LIMIT = "redirect-limit"
    REDIRECT_LOOP = "redirect-loop"
    PRIVATE_ADDRESS = "private-address"
    BODY_TOO_LARGE = "body-too-large"
    UNSUPPORTED_ENCODING = "unsupported-encoding"
    RESPONSE_TIMEOUT = "response-timeout"
    NETWORK_ERROR = "network-error"
    RATE_LIMITED = "rate-limited"
    HOST_BACKOFF = "host-backoff"

    # the URL Frontier service (robotkit.service)
    QUEUE_BLOCKED = "queue-blocked"
    """A queue held by ``BlockQueueUntil`` until its time."""
    LEASE_EXPIRED = "lease-expired"
    """A URL handed out and not reported back within its ``delay_requestable``."""
