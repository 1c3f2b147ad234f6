"""A robots.txt verdict that explains itself, and the pure function that makes it.

ARCHITECTURE.md: a verdict names the origin's outcome, the HTTP status, and for rules
the matching line's number and text as written in the file.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from robotkit.base.reasons import Decision, Reason
from robotkit.robots.cache import OriginState
from robotkit.robots.rules import RuleRef
from robotkit.robots.status import Hop, RobotsOutcome
from robotkit.url.parse import InvalidURL, parse_url

ROBOTS_PATH = "/robots.txt"

# Enum members bound once: attribute lookups on an Enum class cost on the hot path.
_ALLOW, _DISALLOW = Decision.ALLOW, Decision.DISALLOW
_ALLOWED, _ROBOTS_DISALLOW = Reason.ALLOWED, Reason.ROBOTS_DISALLOW
_RULES, _DEFERRED, _DENY_ALL = RobotsOutcome.RULES, RobotsOutcome.DEFERRED, RobotsOutcome.DENY_ALL
_new_verdict = tuple.__new__  # builds a Verdict from one tuple, skipping NamedTuple's __new__


class Verdict(NamedTuple):
    """Whether a robot may fetch ``url`` now, never, or later, and why.

    An immutable record with named, typed fields. A NamedTuple rather than a
    frozen dataclass because a crawl builds one per URL: a frozen dataclass sets
    each of its 13 fields through ``object.__setattr__`` (about 1.4 µs, a quarter
    of protego's whole decision), a tuple is built in one step.
    """

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
        """The check-url JSON record: ARCHITECTURE.md's fields first, then extras.

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

    ``url`` must be a valid http(s) URL (the engine checks it first). ``now`` is
    not needed today: a state is judged fresh before it is applied.
    """
    return decide_rest(url, parse_url(url).target, state, product_token)


def decide_rest(url: str, rest: str, state: OriginState, product_token: str) -> Verdict:
    """:func:`decide` for a URL already split: ``rest`` is what follows its
    ``scheme://authority``. The hot path of a crawl: one positional build of the
    verdict, enum members bound at import."""
    outcome = state.outcome
    rules = state.rules
    if outcome is _RULES and rules is not None:
        match_rest, crawl_delay, request_rate = rules.for_robot(product_token)
        match = match_rest(rest)
        allowed = match.allowed
        return _new_verdict(
            Verdict,
            (
                url,
                _ALLOW if allowed else _DISALLOW,
                _ALLOWED if allowed else _ROBOTS_DISALLOW,
                state.robots_url,
                state.status,
                outcome,
                match.rule,
                match.group,
                crawl_delay,
                request_rate,
                None,
                state.redirects,
                state.detail,
            ),
        )
    decision, reason, retry_at = _ALLOW, _ALLOWED, None
    if outcome is _DEFERRED:
        decision, reason, retry_at = Decision.DEFER, Reason.ROBOTS_DEFERRED, state.expires_at
    elif outcome is _DENY_ALL and parse_url(url).path != ROBOTS_PATH:
        # The file itself stays fetchable: it is how the robot learns the rules.
        decision, reason = _DISALLOW, Reason.ROBOTS_DENY_ALL
    return Verdict(
        url,
        decision,
        reason,
        state.robots_url,
        state.status,
        outcome,
        retry_at=retry_at,
        redirects=state.redirects,
        detail=state.detail,
    )
