"""Per-host pacing: when may the next request to a host start?

Pure core (ARCHITECTURE.md): the :class:`Pacer` reads time only from an injected clock and
never sleeps. It answers "when may the next request to host H start", and records
each start and each end; the transports in ``robotkit/http`` do the waiting.

The rules:

* The minimum gap is the largest of the configured delay, the robots.txt
  Crawl-delay and 1 / Request-rate. It runs from the END of one response to the
  START of the next request to the same host (ARCHITECTURE.md, Pacing), so a slow server
  gets more rest, not less; robots.txt fetches count like any other request.
* A Crawl-delay (or 1 / Request-rate) above a ceiling means the host is skipped with
  ``crawl-delay-too-long``: the robot never crawls a host faster than it asked.
* 429 and 503 with Retry-After (RFC 9110 section 10.2.3; RFC 6585 section 4) hold
  the whole host until then. Repeated 5xx, 429 without Retry-After, timeouts and
  connection errors back off exponentially up to a cap; each success steps the
  backoff down one level.
* One request at a time per host by default, and a global limit on requests in
  flight, so a crawler never opens more connections than it meant to.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from robotkit.base.clock import Clock
from robotkit.base.errors import RobotkitError
from robotkit.base.outcome import Outcome
from robotkit.base.reasons import Reason
from robotkit.url.parse import origin_of

HostKey = tuple[str, int]
"""A host as the pacer sees it: (host, port). The scheme is left out on purpose:
http and https on the same host and port are one server to be gentle with."""


def host_key(url: str) -> HostKey:
    """The pacing key of a URL (raises :class:`robotkit.url.parse.InvalidURL`)."""
    return origin_of(url).pacing_key


@dataclass(frozen=True)
class PacingPolicy:
    """How gently to treat every host. Defaults are a crawler's usual manners."""

    delay: float = 1.0
    """Minimum seconds from the end of a response to the next request to that host."""
    max_crawl_delay: float = 30.0
    """A robots.txt Crawl-delay above this skips the host (Nutch uses 30 s too)."""
    per_host_concurrency: int = 1
    """Requests in flight to one host at once."""
    max_in_flight: int = 16
    """Requests in flight across all hosts at once."""
    jitter: float = 0.0
    """Add up to this fraction of the gap at random (0.1 = up to 10 % longer); jitter
    only ever lengthens a gap."""
    backoff_base: float = 2.0
    """Seconds of backoff after the first failure."""
    backoff_factor: float = 2.0
    backoff_max: float = 300.0
    """The cap on exponential backoff."""
    max_hosts: int = 10_000
    """Hosts remembered before the pacer forgets those whose state is back to a new
    host's (idle past their gap, no backoff, hold, robots.txt pace or skip): a long
    crawl over many hosts does not grow the table without end, and forgetting such
    a host changes no answer. Hosts that still carry a rule are always kept."""

    def __post_init__(self) -> None:
        if self.delay < 0 or not math.isfinite(self.delay):
            raise ValueError("delay must be a finite number >= 0")
        if self.max_crawl_delay < 0:
            raise ValueError("max_crawl_delay must be >= 0")
        if self.per_host_concurrency < 1 or self.max_in_flight < 1 or self.max_hosts < 1:
            raise ValueError("concurrency limits must be >= 1")
        if self.jitter < 0:
            raise ValueError("jitter must be >= 0")
        if self.backoff_base < 0 or self.backoff_factor < 1 or self.backoff_max < 0:
            raise ValueError("backoff_base >= 0, backoff_factor >= 1, backoff_max >= 0")

    def backoff(self, failures: int) -> float:
        """Seconds of backoff after ``failures`` failures in a row (0 for none)."""
        if failures <= 0:
            return 0.0
        exponent = min(failures - 1, 64)
        return float(min(self.backoff_max, self.backoff_base * self.backoff_factor**exponent))

    def rest(self, gap: float, jitter_extra: float, failures: int) -> float:
        """Seconds from the end of a response to the next start on its host: the
        gap (with its jitter) or the backoff, whichever is longer. One rule for the
        in-process pacer and the shared one (``robotkit.shared``)."""
        return max(gap + jitter_extra, self.backoff(failures))


def failures_after(failures: int, outcome: Outcome | None) -> int:
    """The failure streak after a request ended with ``outcome``: a failure adds
    one, a success steps back one, a cancelled request (None) says nothing."""
    if outcome is None:
        return failures
    return failures + 1 if outcome.is_failure else max(0, failures - 1)


class PacingError(RobotkitError, RuntimeError):
    """A request was started before the pacer allowed it: a bug in the caller."""


@dataclass
class HostState:
    """What the pacer knows about one host. Read-only for callers."""

    in_flight: int = 0
    last_start: float | None = None
    last_end: float | None = None
    robots_gap: float = 0.0
    jitter_extra: float = 0.0
    failures: int = 0
    hold_until: float = 0.0
    skip_reason: Reason | None = None


@dataclass(frozen=True)
class Ticket:
    """Proof that a request to ``host`` started at ``started``; hand it back to
    :meth:`Pacer.finish` when the response has been read to its end."""

    host: HostKey
    started: float


@dataclass(frozen=True)
class Plan:
    """The pacer's answer to "when may a request to this host start?".

    ``ready_at`` is an absolute time, or None when a slot must first be freed (the
    host's concurrency or the global in-flight limit is reached): wait for a
    :meth:`Pacer.finish`, then ask again.
    """

    ready_at: float | None
    skip_reason: Reason | None = None


class Pacer:
    """Per-host pacing state machine over an injected clock; ``rng`` (seed it in
    tests) draws the jitter."""

    def __init__(
        self,
        clock: Clock,
        policy: PacingPolicy | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.clock = clock
        self.policy = policy or PacingPolicy()
        self.rng = rng or random.Random()
        self._hosts: dict[HostKey, HostState] = {}
        self._in_flight = 0
        self._prune_at = self.policy.max_hosts

    def state(self, host: HostKey) -> HostState:
        state = self._hosts.get(host)
        if state is None:
            if len(self._hosts) >= self._prune_at:
                self._forget_idle()
            state = self._hosts[host] = HostState()
        return state

    def __len__(self) -> int:
        """Hosts the pacer currently remembers."""
        return len(self._hosts)

    def _forget_idle(self) -> None:
        """Drop every host whose state answers exactly as a new host's would. The
        next pruning waits until the table has doubled, so the cost per new host
        stays constant even when most hosts must be kept."""
        now = self.clock()
        for host in [h for h, state in self._hosts.items() if self._is_fresh(state, now)]:
            del self._hosts[host]
        self._prune_at = max(self.policy.max_hosts, 2 * len(self._hosts))

    def _is_fresh(self, state: HostState, now: float) -> bool:
        if state.in_flight or state.failures or state.robots_gap or state.skip_reason is not None:
            return False
        if now < state.hold_until:
            return False
        return state.last_end is None or now >= state.last_end + self.policy.delay + (
            state.jitter_extra
        )

    @property
    def in_flight(self) -> int:
        return self._in_flight

    def apply_robots(
        self,
        host: HostKey,
        crawl_delay: float | None,
        request_interval: float | None = None,
    ) -> Reason | None:
        """Take the robots.txt pace of a host: Crawl-delay seconds and the seconds
        per request of Request-rate. Returns ``crawl-delay-too-long`` (and skips the
        host from then on) when either is above the policy's ceiling."""
        asked = max(_finite_or_zero(crawl_delay), _finite_or_zero(request_interval))
        state = self.state(host)
        if asked > self.policy.max_crawl_delay:
            state.skip_reason = Reason.CRAWL_DELAY_TOO_LONG
            return state.skip_reason
        state.robots_gap = asked
        state.skip_reason = None
        return None

    def gap(self, host: HostKey) -> float:
        """The minimum seconds between the end of one response and the next start."""
        return max(self.policy.delay, self.state(host).robots_gap)

    def plan(self, host: HostKey) -> Plan:
        """When the next request to ``host`` may start, given everything recorded."""
        state = self.state(host)
        if state.skip_reason is not None:
            return Plan(None, state.skip_reason)
        if (
            state.in_flight >= self.policy.per_host_concurrency
            or self._in_flight >= self.policy.max_in_flight
        ):
            return Plan(None)
        gap = self.gap(host)
        ready = state.hold_until
        if state.last_end is not None:
            rest = self.policy.rest(gap, state.jitter_extra, state.failures)
            ready = max(ready, state.last_end + rest)
        if state.last_start is not None and state.in_flight > 0:
            # With several requests per host allowed, starts are still spaced.
            ready = max(ready, state.last_start + gap)
        return Plan(ready)

    def wait_time(self, host: HostKey) -> float | None:
        """Seconds to wait before a request to ``host`` may start (0 = now), or None
        when a slot must first be freed or the host is skipped."""
        plan = self.plan(host)
        if plan.ready_at is None:
            return None
        return max(0.0, plan.ready_at - self.clock())

    def start(self, host: HostKey) -> Ticket:
        """Record that a request to ``host`` starts now. Raises :class:`PacingError`
        if it is too early: the pacer never lets a host be crawled faster than asked."""
        plan = self.plan(host)
        now = self.clock()
        if plan.skip_reason is not None:
            raise PacingError(f"host {host} is skipped: {plan.skip_reason}")
        if plan.ready_at is None:
            raise PacingError(f"no free slot for host {host}")
        if now < plan.ready_at:
            raise PacingError(f"request to {host} started {plan.ready_at - now:.3f}s early")
        state = self.state(host)
        state.in_flight += 1
        state.last_start = now
        self._in_flight += 1
        return Ticket(host, now)

    def finish(
        self, ticket: Ticket, outcome: Outcome | None, retry_at: float | None = None
    ) -> None:
        """Record that the response of ``ticket`` has ended (or failed) now.

        ``retry_at`` is the absolute time from a Retry-After header; on 429 and 503
        (any failure) it holds the whole host until then.
        """
        state = self.state(ticket.host)
        now = self.clock()
        state.in_flight = max(0, state.in_flight - 1)
        self._in_flight = max(0, self._in_flight - 1)
        state.last_end = now if state.last_end is None else max(state.last_end, now)
        state.failures = failures_after(state.failures, outcome)
        if outcome is not None and outcome.is_failure and retry_at is not None:
            state.hold_until = max(state.hold_until, retry_at)
        state.jitter_extra = self.draw_jitter(ticket.host)

    def draw_jitter(self, host: HostKey) -> float:
        """Seconds added at random to the host's next gap (0 without jitter)."""
        jitter = self.policy.jitter
        return self.gap(host) * jitter * self.rng.random() if jitter else 0.0

    def cancel(self, ticket: Ticket) -> None:
        """Release the slot of a request abandoned by the caller (cancelled, or
        interrupted). It may have reached the server, so it counts for spacing like
        any other; it says nothing of the host's health, so backoff is unchanged."""
        self.finish(ticket, None)

    def withdraw(self, ticket: Ticket) -> None:
        """Undo a :meth:`start` whose request was never sent (a shared reservation
        refused it): the slot is freed and nothing is recorded, since the host
        saw nothing. Only right with one request per host, as shared pacing has."""
        state = self.state(ticket.host)
        state.in_flight = max(0, state.in_flight - 1)
        self._in_flight = max(0, self._in_flight - 1)

    def hold(self, host: HostKey, until: float) -> None:
        """Send nothing to ``host`` before ``until`` (e.g. a robots.txt deferral)."""
        state = self.state(host)
        state.hold_until = max(state.hold_until, until)


def _finite_or_zero(value: float | None) -> float:
    if value is None or math.isnan(value) or value < 0:
        return 0.0
    return value
