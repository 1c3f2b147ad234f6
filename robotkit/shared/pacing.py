"""Per-host pacing shared by every worker of a crawl, on Redis.

The decisions stay in the pure core (:mod:`robotkit.pacing.pacer`): the gap (delay,
Crawl-delay, 1 / Request-rate), its jitter, the backoff after failures and the
failure streak are the :class:`~robotkit.pacing.pacer.Pacer`'s and its policy's rules.
Only the facts several workers must agree on live in Redis, one hash per host:

* ``ready``: the earliest start of the next request (the end of the last response
  plus its rest, as the worker that saw that end computed it);
* ``hold``: a Retry-After or robots.txt deferral hold;
* ``failures``: the host's failure streak, for the backoff;
* ``busy`` and ``owner``: the lease of the one request in flight to the host.

A request *reserves* its host with one Lua script, so reading those fields and
taking the lease is one atomic step (one round trip): all workers together never
start a request to a host before its ready time, nor while another is in flight.
Finishing is a second script that frees the lease and records the next ready time,
the streak and any hold: its own round trip, or, for a worker of a shared crawl on
one server, carried (:class:`FinishCarry`) in the pipeline of the round trip the
worker makes next anyway (the page's host scripts, or its next reservation).

A worker of a shared crawl owns its hosts: no other worker requests them. So its
finish *keeps* the lease for the next request, and that request, when it starts in a
short window after its ready time, needs no round trip: the lease in Redis covers it
as a fresh reservation would (:mod:`robotkit.shared.leases`).

Time is the injected clock's (passed to every script), not Redis' TIME, so tests
drive it with :class:`robotkit.base.clock.ManualClock`; workers on several machines
need synchronised clocks (NTP), as HTTP dates already do. A lease outlives a dead
worker by at most ``lease`` seconds: it must exceed the longest request (the
response deadline) plus a gap. Every key expires once its times have passed.
One request at a time per host is the shared rule (``per_host_concurrency`` 1).
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from robotkit.base.outcome import Outcome
from robotkit.base.reasons import Reason
from robotkit.pacing.pacer import HostKey, Pacer, failures_after
from robotkit.shared.connection import (
    AsyncClientSource,
    AsyncScripts,
    Namespace,
    Runner,
    ScriptCall,
    Scripts,
    SyncClient,
    talking_to,
)
from robotkit.shared.leases import KeptLease, KeptLeases

__all__ = [
    "DEFAULT_LEASE",
    "AsyncSharedPacer",
    "FinishCarry",
    "Reservation",
    "Reserving",
    "SharedPacer",
    "SharedTicket",
]

DEFAULT_LEASE = 120.0
"""Seconds a reservation holds its host when its worker never finishes it (killed):
longer than any response deadline robotkit uses, plus the largest gap."""

GRACE = 60.0
"""Seconds a host's key outlives the last time it holds, before it expires."""

# Keeps a host's key until its latest time (ready, hold or lease) plus the grace.
_KEEP = """
local function keep(key, now, grace)
  local t = redis.call('HMGET', key, 'ready', 'hold', 'busy')
  local last = math.max(tonumber(t[1]) or 0, tonumber(t[2]) or 0, tonumber(t[3]) or 0, now)
  redis.call('PEXPIRE', key, math.ceil((last - now + grace) * 1000))
end
local function f(x) return string.format('%.6f', x) end
"""

# KEYS[1] host; ARGV now, lease, owner, grace.
# Returns {state, seconds, failures, held}: state 0 busy elsewhere, 1 wait, 2 granted;
# held 1 when the wait is a hold (Retry-After, a deferral), not the gap or backoff.
# A lease of the same owner is its own kept lease (KeptLeases), not a busy host. A
# lease of another owner is flagged ``want``: if it is kept, its owner's next finish
# lets it go instead of keeping it again.
_RESERVE = (
    _KEEP
    + """
local now = tonumber(ARGV[1])
local h = redis.call('HMGET', KEYS[1], 'ready', 'hold', 'busy', 'failures', 'owner')
local failures = h[4] or '0'
local busy = tonumber(h[3]) or 0
if busy > now and h[5] ~= ARGV[3] then
  redis.call('HSET', KEYS[1], 'want', '1')
  return {0, f(busy - now), failures, 0}
end
local hold = tonumber(h[2]) or 0
local ready = math.max(tonumber(h[1]) or 0, hold)
local held = hold >= ready and 1 or 0
if ready > now then return {1, f(ready - now), failures, held} end
redis.call('HSET', KEYS[1], 'busy', f(now + tonumber(ARGV[2])), 'owner', ARGV[3])
keep(KEYS[1], now, tonumber(ARGV[4]))
return {2, '0', failures, 0}
"""
)

# KEYS[1] host; ARGV now, owner, ready, failures, hold, grace, kept lease's end (0: none).
# Returns 1 when the lease is kept (the host free of any other lease, and no other
# worker wanting it since the last finish), else 0.
_FINISH = (
    _KEEP
    + """
local now = tonumber(ARGV[1])
if redis.call('HGET', KEYS[1], 'owner') == ARGV[2] then
  redis.call('HDEL', KEYS[1], 'busy', 'owner')
end
local h = redis.call('HMGET', KEYS[1], 'ready', 'hold', 'busy')
redis.call('HSET', KEYS[1],
  'ready', f(math.max(tonumber(h[1]) or 0, tonumber(ARGV[3]))),
  'hold', f(math.max(tonumber(h[2]) or 0, tonumber(ARGV[5]))),
  'failures', ARGV[4])
local kept = 0
local till = tonumber(ARGV[7])
if till > 0 and redis.call('HDEL', KEYS[1], 'want') == 0 and (tonumber(h[3]) or 0) <= now then
  redis.call('HSET', KEYS[1], 'busy', f(till), 'owner', ARGV[2])
  kept = 1
end
keep(KEYS[1], now, tonumber(ARGV[6]))
return kept
"""
)

# KEYS[1] host; ARGV owner. Frees the owner's kept lease (the key keeps its expiry,
# which the lease's end set).
_LET_GO = """
if redis.call('HGET', KEYS[1], 'owner') == ARGV[1] then
  redis.call('HDEL', KEYS[1], 'busy', 'owner')
end
return 1
"""

# KEYS[1] host; ARGV now, until, grace.
_HOLD = (
    _KEEP
    + """
local h = redis.call('HGET', KEYS[1], 'hold')
redis.call('HSET', KEYS[1], 'hold', f(math.max(tonumber(h) or 0, tonumber(ARGV[2]))))
keep(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[3]))
return 1
"""
)


@dataclass(frozen=True)
class SharedTicket:
    """A granted reservation: the request to ``host`` may start now (``started``).
    Hand it back to :meth:`SharedPacer.finish` when the response has ended."""

    host: HostKey
    started: float
    owner: str
    failures: int


@dataclass(frozen=True)
class Reservation:
    """The answer to a reservation: a ticket, or how long to wait before asking
    again (``busy`` when a request to the host is in flight on some worker: the
    wait is then the rest of its lease, an upper bound; ask sooner if you like),
    or the reason the host is skipped (``crawl-delay-too-long``)."""

    ticket: SharedTicket | None
    wait: float = 0.0
    busy: bool = False
    skip_reason: Reason | None = None
    held: bool = False
    """The wait is a hold (Retry-After, a robots.txt deferral), not the gap or
    backoff: the reason a caller gives when it will not wait that long."""


@dataclass(frozen=True)
class Reserving:
    """A reservation about to be asked: the script to run, and how to read its
    answer (pure, so the sync and async pacers share it)."""

    host: HostKey
    now: float
    owner: str
    call: ScriptCall

    def answer(self, result: Sequence[object]) -> Reservation:
        state, seconds, failures, held = (str(_text(x)) for x in result)
        streak = int(failures)
        if int(state) == 2:
            return Reservation(SharedTicket(self.host, self.now, self.owner, streak))
        return Reservation(None, wait=float(seconds), busy=int(state) == 0, held=held == "1")


def _text(value: object) -> object:
    return value.decode() if isinstance(value, bytes) else value


def pace_key(namespace: Namespace, host: HostKey) -> str:
    """The key of ``host``'s pacing hash."""
    return namespace.key("pace", f"{host[0]}:{host[1]}")


class _Plans:
    """What both pacers plan without I/O: the keys, the scripts' arguments (from
    the core's rules) and the reading of their answers."""

    def __init__(
        self, pacer: Pacer, namespace: Namespace, lease: float, kept: KeptLeases | None = None
    ) -> None:
        if pacer.policy.per_host_concurrency != 1:
            raise ValueError("shared pacing allows one request at a time per host")
        if lease <= 0:
            raise ValueError("lease must be > 0")
        self.pacer = pacer
        self.namespace = namespace
        self.lease = lease
        self.kept = kept

    def key(self, host: HostKey) -> str:
        return pace_key(self.namespace, host)

    def reserving(self, host: HostKey) -> Reserving | Reservation:
        """The reservation to ask Redis for, or the answer at once when the host
        is skipped (its Crawl-delay, applied on the in-process pacer) or its
        kept lease gives it (:class:`KeptLeases`)."""
        skip = self.pacer.state(host).skip_reason
        if skip is not None:
            return Reservation(None, skip_reason=skip)
        now = self.pacer.clock()
        kept = self.kept
        if kept is not None and kept.on:
            local = kept.grant(host, now, self.lease)
            if isinstance(local, KeptLease):
                return Reservation(SharedTicket(host, now, kept.owner, local.failures))
            if local is not None:
                return Reservation(None, wait=local)
            owner = kept.owner
        else:
            owner = uuid.uuid4().hex
        args = (repr(now), repr(self.lease), owner, repr(GRACE))
        return Reserving(host, now, owner, ScriptCall(_RESERVE, (self.key(host),), args))

    def finishing(
        self, ticket: SharedTicket, outcome: Outcome | None, retry_at: float | None
    ) -> ScriptCall:
        """The end of ``ticket``'s response, now: the next start waits the rest the
        core computes (``PacingPolicy.rest``); a failure with ``retry_at`` holds the
        host (RFC 9110 section 10.2.3)."""
        host = ticket.host
        now = self.pacer.clock()
        failures = failures_after(ticket.failures, outcome)
        rest = self.pacer.policy.rest(self.pacer.gap(host), self.pacer.draw_jitter(host), failures)
        failed = outcome is not None and outcome.is_failure
        hold = retry_at if failed and retry_at is not None else 0.0
        ready = now + rest
        till, answered = 0.0, None
        if self.kept is not None:
            till, answered = self.kept.keeping(host, ready, self.lease, failures, bool(hold))
        args = (repr(now), ticket.owner, repr(ready), str(failures), repr(hold), repr(GRACE),
                repr(till))  # fmt: skip
        return ScriptCall(_FINISH, (self.key(host),), args, answered)

    def holding(self, host: HostKey, until: float) -> ScriptCall:
        args = (repr(self.pacer.clock()), repr(until), repr(GRACE))
        return ScriptCall(_HOLD, (self.key(host),), args)


CARRY_WAIT = 0.05
"""Seconds a carried finish waits for a round trip to ride on before it is sent
alone: a page's settle follows its finish within milliseconds, and until it is sent
only another worker's request to the host (a robots.txt fetch) waits, as it waits
for any request in flight (``BUSY_POLL``)."""


class FinishCarry:
    """Finishes waiting to ride on this worker's next round trip instead of making
    one each. A shared crawl on one server turns it on (``riding``,
    :class:`~robotkit.shared.crawl.SharedCrawl`): the settle that follows a page
    sends the page's finish in the pipeline of its host scripts, and a reservation
    sends the finishes before it in its own (a robots.txt fetch's, before the page's
    reservation of the same host). Whatever no round trip took within ``wait``
    seconds is sent alone then. Off (the default), a finish is its own round trip.

    A finish carried a moment longer only holds its host's lease a moment longer,
    on the worker that owns the host; a worker killed before sending it leaves the
    lease to expire, as one killed mid-request does."""

    def __init__(self, wait: float = CARRY_WAIT) -> None:
        self.riding = False
        self.wait = wait
        self.calls: list[ScriptCall] = []
        self.kept = KeptLeases()
        """The leases the async pacers keep, when a shared crawl turns them on."""
        self.boarding: Callable[[], None] | None = None
        """Called by a reservation about to be sent, when riding: a settle waiting for
        a round trip to ride on starts then, and goes in the reservation's write
        (:class:`~robotkit.crawler.turn.SharedTurn`)."""
        self._sending: set[asyncio.Future[Any]] = set()
        self._timer: asyncio.TimerHandle | None = None

    def let_go(self, namespace: Namespace, hosts: Iterable[HostKey]) -> None:
        """Forget the leases kept on ``hosts`` and free in Redis, with the next round
        trip, those it may hold (a host given back; every host, leaving)."""
        self.calls += [
            ScriptCall(_LET_GO, (pace_key(namespace, host),), (self.kept.owner,))
            for host in self.kept.forget(hosts)
        ]

    def stop(self, namespace: Namespace) -> None:
        """A worker leaving: no finish rides or keeps a lease from now on, and the
        leases kept go with its last round trip."""
        self.riding = self.kept.on = False
        self.let_go(namespace, self.kept.hosts())

    def take(self) -> list[ScriptCall]:
        """The finishes waiting, out of the carry: the caller sends them (the timer
        that would send them alone is stopped: a wake-up of the event loop a page
        saved)."""
        calls, self.calls = self.calls, []
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        return calls

    def add(self, call: ScriptCall, runner: Runner) -> None:
        self.calls.append(call)
        if self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(self.wait, self._send_left, runner)

    def _send_left(self, runner: Runner) -> None:
        self._timer = None
        calls = self.take()
        if calls:
            task = asyncio.ensure_future(runner.many(calls))
            self._sending.add(task)
            task.add_done_callback(self._sent)

    def _sent(self, task: asyncio.Future[Any]) -> None:
        # A fault here reaches the worker at its next call to Redis; the finishes
        # lost with it leave their leases to expire.
        self._sending.discard(task)
        if not task.cancelled():
            task.exception()

    async def sent(self) -> None:
        """Wait for the finishes sent alone (before an event loop closes)."""
        while self._sending:
            await asyncio.gather(*self._sending, return_exceptions=True)


class SharedPacer(_Plans):
    """A :class:`~robotkit.pacing.pacer.Pacer`'s rules over per-host state in Redis.

    ``pacer`` supplies the clock, the policy and what robots.txt asked of each
    host (:meth:`~robotkit.pacing.pacer.Pacer.apply_robots` on it, as usual: every worker
    reads the same shared robots.txt, so all apply the same Crawl-delay).
    """

    def __init__(
        self,
        pacer: Pacer,
        client: SyncClient,
        namespace: Namespace,
        *,
        lease: float = DEFAULT_LEASE,
    ) -> None:
        super().__init__(pacer, namespace, lease)
        self.client = client
        self.scripts = Scripts(client)

    def reserve(self, host: HostKey) -> Reservation:
        """Take the host's next slot if it is due now (one round trip)."""
        plan = self.reserving(host)
        if isinstance(plan, Reservation):
            return plan
        return plan.answer(self.scripts.run(plan.call))

    def finish(
        self, ticket: SharedTicket, outcome: Outcome | None, retry_at: float | None = None
    ) -> None:
        """Record that the response of ``ticket`` has ended now (one round trip).
        ``outcome`` None is a cancelled request: it counts for spacing, not for
        the host's health."""
        self.scripts.run(self.finishing(ticket, outcome, retry_at))

    def cancel(self, ticket: SharedTicket) -> None:
        """Give back the slot of a request abandoned by the caller."""
        self.finish(ticket, None)

    def hold(self, host: HostKey, until: float) -> None:
        """Send nothing to ``host`` before ``until``, from any worker (one round trip)."""
        self.scripts.run(self.holding(host, until))


class AsyncSharedPacer(_Plans):
    """:class:`SharedPacer` for asyncio: the same plans, awaited. ``client`` is an
    asyncio client or a function giving the running loop's
    (``SharedState.async_client``)."""

    def __init__(
        self,
        pacer: Pacer,
        client: AsyncClientSource,
        namespace: Namespace,
        *,
        lease: float = DEFAULT_LEASE,
        carry: FinishCarry | None = None,
    ) -> None:
        super().__init__(pacer, namespace, lease, carry.kept if carry is not None else None)
        self.scripts = AsyncScripts(client)
        self.carry = carry
        self._giving_back: set[asyncio.Future[None]] = set()

    async def reserve(self, host: HostKey) -> Reservation:
        """:meth:`SharedPacer.reserve`, awaited; with the carried finishes in the
        same pipeline, before it."""
        plan = self.reserving(host)
        if isinstance(plan, Reservation):
            return plan
        carry = self.carry
        carried: list[ScriptCall] = []
        if carry is not None:
            if carry.riding and carry.boarding is not None:
                carry.boarding()
            carried = carry.take()
        if not carried:
            return plan.answer(await self.scripts.run(plan.call))
        with talking_to(plan.call.keys[0]):
            results = await self.scripts.runner().many([*carried, plan.call])
        return plan.answer(results[-1])

    async def reserve_shielded(self, host: HostKey) -> Reservation:
        """:meth:`reserve`, shielded from a cancellation of the caller: a caller
        cancelled while the script runs must not leave the host leased to no one
        (for ``lease`` seconds, for every worker), so a slot granted then is given
        back."""
        reserving = asyncio.ensure_future(self.reserve(host))
        try:
            return await asyncio.shield(reserving)
        except asyncio.CancelledError:
            reserving.add_done_callback(self._give_back)
            raise

    def _give_back(self, reserving: asyncio.Future[Reservation]) -> None:
        if reserving.cancelled() or reserving.exception() is not None:
            return
        ticket = reserving.result().ticket
        if ticket is not None:
            task = asyncio.ensure_future(self.cancel(ticket))
            self._giving_back.add(task)
            task.add_done_callback(self._giving_back.discard)

    async def finish(
        self, ticket: SharedTicket, outcome: Outcome | None, retry_at: float | None = None
    ) -> None:
        """:meth:`SharedPacer.finish`, awaited; only put in the carry when it rides."""
        call = self.finishing(ticket, outcome, retry_at)
        if self.carry is not None and self.carry.riding:
            self.carry.add(call, self.scripts.runner())
            return
        await self.scripts.run(call)

    async def cancel(self, ticket: SharedTicket) -> None:
        await self.finish(ticket, None)

    async def hold(self, host: HostKey, until: float) -> None:
        await self.scripts.run(self.holding(host, until))
