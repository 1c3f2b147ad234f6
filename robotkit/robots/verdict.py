"""A robots.txt verdict that explains itself, and the pure function that makes it.

DESIGN.md: a verdict names the origin's outcome, the HTTP status, and for rules
the matching line's number and text as written in the file.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from robotkit.reasons import Decision, Reason
from robotkit.robots.cache import OriginState
from robotkit.robots.rules import RuleRef
from robotkit.robots.status import Hop, RobotsOutcome
from robotkit.urls import InvalidURL, split_url

ROBOTS_PATH = "/robots.txt"


@dataclass(frozen=True)
class Verdict:
    """Whether a robot may fetch ``url`` now, never, or later, and why."""

    url: str
    decision: Decision
    reason: Reason
    robots_url: str | None = None
    robots_status: int | None = None
    outcome: RobotsOutcome | None = None
    rule: RuleRef | None = None
    group: str | None = None
    crawl_delay: float | None = None
    request_rate: float | None = None
    """Seconds per request from ``Request-rate`` (1 / rate), or None."""
    retry_at: float | None = None
    """Unix time after which a deferred check may be tried again."""
    redirects: tuple[Hop, ...] = ()
    detail: str = ""

    @property
    def allowed(self) -> bool:
        return self.decision is Decision.ALLOW

    def retry_after(self, now: float) -> float | None:
        """Seconds from ``now`` until :attr:`retry_at` (never negative)."""
        return None if self.retry_at is None else max(0.0, self.retry_at - now)

    def to_json(self, now: float) -> dict[str, object]:
        """The check-url JSON record: DESIGN.md's fields first, then extras.

        ``retry_after`` is rounded up to whole seconds, so waiting that long is
        always enough.
        """
        wait = self.retry_after(now)
        return {
            "url": self.url,
            "allowed": self.allowed,
            "decision": self.decision.value,
            "reason": self.reason.value,
            "robots_url": self.robots_url,
            "robots_status": self.robots_status,
            "rule": None if self.rule is None else {"line": self.rule.line, "text": self.rule.text},
            "crawl_delay": self.crawl_delay,
            "retry_after": None if wait is None else math.ceil(wait),
            "outcome": None if self.outcome is None else self.outcome.value,
            "group": self.group,
            "request_rate": self.request_rate,
            "redirects": [
                {"url": hop.url, "status": hop.status, "location": hop.location}
                for hop in self.redirects
            ],
            "detail": self.detail,
        }


def invalid_verdict(url: str, error: InvalidURL) -> Verdict:
    """An unusable URL is never fetched: disallow, with the reason it fails."""
    return Verdict(url=url, decision=Decision.DISALLOW, reason=error.reason, detail=error.detail)


def decide(url: str, state: OriginState, product_token: str, now: float) -> Verdict:
    """The verdict for ``url`` given its origin's robots.txt ``state``.

    ``url`` must be a valid http(s) URL (the engine checks it first).
    """
    allowed = Verdict(
        url=url,
        decision=Decision.ALLOW,
        reason=Reason.ALLOWED,
        robots_url=state.robots_url,
        robots_status=state.status,
        outcome=state.outcome,
        redirects=state.redirects,
        detail=state.detail,
    )
    if state.outcome is RobotsOutcome.DEFERRED:
        return replace(
            allowed,
            decision=Decision.DEFER,
            reason=Reason.ROBOTS_DEFERRED,
            retry_at=state.expires_at,
        )
    if state.outcome is RobotsOutcome.DENY_ALL and split_url(url).path != ROBOTS_PATH:
        # The file itself stays fetchable: it is how the robot learns the rules.
        return replace(allowed, decision=Decision.DISALLOW, reason=Reason.ROBOTS_DENY_ALL)
    if state.outcome is not RobotsOutcome.RULES or state.rules is None:
        return allowed
    rules = state.rules
    match = rules.match(url, product_token)
    return replace(
        allowed,
        decision=Decision.ALLOW if match.allowed else Decision.DISALLOW,
        reason=Reason.ALLOWED if match.allowed else Reason.ROBOTS_DISALLOW,
        rule=match.rule,
        group=match.group,
        crawl_delay=rules.crawl_delay(product_token),
        request_rate=rules.request_rate(product_token),
    )
