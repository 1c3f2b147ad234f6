"""One crawl shared by several workers, on Redis: who owns which host, what is
waiting for each host, what was seen, and when the crawl is over.

Each host has one *owner* at a time, a worker holding it under a lease it renews
at every :meth:`SharedCrawl.sync`. The owner alone fetches the host's URLs and
decides about them with its own triage, so everything robotkit learns about a
site (its trap regions, its learned URL rules, its copies and soft 404s, the
automatic blacklist) decides what *all* workers fetch of it, without shipping
that state through Redis; and one request at a time per host follows from it
(the shared pacer enforces it as well). Hosts are spread over the live workers,
about as many per worker; a worker that holds more than its share gives the
idle ones back.

What must survive a worker is in Redis (ARCHITECTURE.md, "Shared state"):

* ``seen:{host}``: the keys of the host's URLs ever admitted or refused, so a link
  found by any worker is offered once, and a new owner knows what was done;
* ``inbox:{host}``: links to the host found by other workers, waiting for its
  owner (who screens them: the finder does not know the owner's site);
* ``drained:{host}``: links the owner took out of the inbox and has not screened
  yet; apart from ``pending`` so that screening a link never touches a URL the
  owner had taken on under the same key;
* ``pending:{host}``: the host's URLs its owner took on and has not finished
  (queued, parked or in flight). A finished URL leaves it in the same script that
  records the links its page gave, so a page and its links are one step;
* ``owners``: host to ``worker until``. A worker killed with SIGKILL stops
  renewing; once its leases run out another worker claims its hosts and takes on
  their pending URLs (the ones in flight at the kill are fetched again).

The crawl is over when every live worker is idle (nothing queued or in flight of
its own), no inbox holds a link and no host with pending URLs is without an
owner; the worker that sees it sets ``finished`` and every worker exits. Time is
the injected clock's (passed into every script). The frontier, the seen sets and
``finished`` stay until :func:`robotkit.shared.state.SharedState.clear` (``robotkit
crawl --redis-clear``); the worker table expires by itself.

Round trips: one :meth:`settle` per page (its end, its links), one :meth:`sync`
per poll interval (renew, claim, drain), plus the pacer's two.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

import redis.asyncio

from robotkit.frontier.events import Tier
from robotkit.shared.connection import Namespace, talking_to
from robotkit.url.parse import Origin, origin_of

__all__ = [
    "DEFAULT_OWNER_LEASE",
    "Claim",
    "Offer",
    "SharedCrawl",
    "SyncResult",
]

DEFAULT_OWNER_LEASE = 15.0
"""Seconds a worker keeps a host without renewing (it renews at every sync, a few
times a second): a killed worker's hosts go to others after at most this."""

GRACE = 60.0
"""Seconds the worker table outlives its last heartbeat before Redis drops it."""

# Lua helpers shared by the scripts. ARGV[1] is always the key prefix.
_COMMON = """
local ns = ARGV[1]
local function k(...) return ns .. table.concat({...}, ':') end
local function owner_of(h, now)
  local o = redis.call('HGET', k('owners'), h)
  if not o then return nil end
  local sp = string.find(o, ' ', 1, true)
  if tonumber(string.sub(o, sp + 1)) < now then return nil end
  return string.sub(o, 1, sp - 1)
end
"""

# A worker's buffered actions, in order (``apply``):
#   ["done", host, key]            the URL is finished: out of pending
#   ["screened", host, key]        a drained link was screened: out of drained
#   ["take", host, key, record]    the owner took the URL on (pending, seen)
#   ["seen", host, key]            the owner refused it: seen, nothing to do
#   ["offer", host, key, record]   a link to another worker's host: to its inbox,
#                                  unless its key was seen already
#   ["release", host]              the worker gives the host back
_APPLY = """
local function apply(me, actions)
  for _, a in ipairs(cjson.decode(actions)) do
    local op, h = a[1], a[2]
    if op == 'done' then
      redis.call('HDEL', k('pending', h), a[3])
    elseif op == 'screened' then
      redis.call('HDEL', k('drained', h), a[3])
    elseif op == 'take' then
      redis.call('SADD', k('seen', h), a[3])
      redis.call('HSET', k('pending', h), a[3], a[4])
      redis.call('SADD', k('hosts'), h)
    elseif op == 'seen' then
      redis.call('SADD', k('seen', h), a[3])
    elseif op == 'offer' then
      if redis.call('SADD', k('seen', h), a[3]) == 1 then
        redis.call('RPUSH', k('inbox', h), a[4])
        redis.call('INCR', k('inboxed'))
        redis.call('SADD', k('hosts'), h)
      end
    elseif op == 'release' then
      local o = redis.call('HGET', k('owners'), h)
      if o and string.sub(o, 1, #me + 1) == me .. ' ' then redis.call('HDEL', k('owners'), h) end
      redis.call('SREM', k('owned', me), h)
    end
  end
end
"""

# ARGV: prefix, worker, actions.
_SETTLE = _COMMON + _APPLY + "apply(ARGV[2], ARGV[3])\nreturn 1\n"

# ARGV: prefix, now, worker, lease, max drained per host, idle ('1' or '0'), grace ms,
# actions: the worker's buffered actions first, then the sync.
# Returns {finished, lost hosts, claims {host, pending records, seen keys}...,
#          drained {host, records}..., hosts over the share}.
_SYNC = (
    _COMMON
    + _APPLY
    + """
apply(ARGV[3], ARGV[8])
local now, me, lease = tonumber(ARGV[2]), ARGV[3], tonumber(ARGV[4])
local max_drain, idle, grace = tonumber(ARGV[5]), ARGV[6], tonumber(ARGV[7])
if redis.call('EXISTS', k('finished')) == 1 then return {1, {}, {}, {}, 0} end
local workers = k('workers')
for _, w in ipairs(redis.call('ZRANGEBYSCORE', workers, '-inf', '(' .. now)) do
  redis.call('HDEL', k('idle'), w)
end
redis.call('ZREMRANGEBYSCORE', workers, '-inf', '(' .. now)
redis.call('ZADD', workers, now + lease, me)
local mine = k('owned', me)
local owned, lost = {}, {}
for _, h in ipairs(redis.call('SMEMBERS', mine)) do
  local o = redis.call('HGET', k('owners'), h)
  if o and string.sub(o, 1, #me + 1) == me .. ' ' then
    redis.call('HSET', k('owners'), h, me .. ' ' .. (now + lease))
    owned[#owned + 1] = h
  else
    redis.call('SREM', mine, h)
    lost[#lost + 1] = h
  end
end
local live = redis.call('ZCARD', workers)
local share = math.max(1, math.ceil(redis.call('SCARD', k('hosts')) / live))
local claims = {}
if #owned < share then
  for _, h in ipairs(redis.call('SMEMBERS', k('hosts'))) do
    if #owned >= share then break end
    if not owner_of(h, now) and (redis.call('LLEN', k('inbox', h)) > 0
        or redis.call('HLEN', k('pending', h)) > 0
        or redis.call('HLEN', k('drained', h)) > 0) then
      redis.call('HSET', k('owners'), h, me .. ' ' .. (now + lease))
      redis.call('SADD', mine, h)
      owned[#owned + 1] = h
      claims[#claims + 1] = {h, redis.call('HVALS', k('pending', h)),
                             redis.call('HVALS', k('drained', h)),
                             redis.call('SMEMBERS', k('seen', h))}
    end
  end
end
local drained = {}
for _, h in ipairs(owned) do
  local inbox = k('inbox', h)
  local items = redis.call('LRANGE', inbox, 0, max_drain - 1)
  if #items > 0 then
    redis.call('LTRIM', inbox, #items, -1)
    redis.call('DECRBY', k('inboxed'), #items)
    for _, item in ipairs(items) do
      redis.call('HSET', k('drained', h), cjson.decode(item)[2], item)
    end
    drained[#drained + 1] = {h, items}
  end
end
if #claims > 0 or #drained > 0 then idle = '0' end
redis.call('HSET', k('idle'), me, idle)
for _, key in ipairs({workers, k('idle'), mine}) do
  redis.call('PEXPIRE', key, math.ceil((lease * 1000) + grace))
end
redis.call('PEXPIRE', k('owners'), math.ceil((lease * 1000) + grace))
local finished = 0
if idle == '1' and tonumber(redis.call('GET', k('inboxed')) or '0') <= 0 then
  finished = 1
  for _, w in ipairs(redis.call('ZRANGE', workers, 0, -1)) do
    if redis.call('HGET', k('idle'), w) ~= '1' then finished = 0 break end
  end
  if finished == 1 then
    for _, h in ipairs(redis.call('SMEMBERS', k('hosts'))) do
      if not owner_of(h, now) and (redis.call('HLEN', k('pending', h)) > 0
          or redis.call('HLEN', k('drained', h)) > 0) then
        finished = 0 break
      end
    end
  end
  if finished == 1 then redis.call('SET', k('finished'), '1') end
end
return {finished, lost, claims, drained, #owned - share}
"""
)

# ARGV: prefix, worker: the worker leaves (its hosts are free at once).
_LEAVE = (
    _COMMON
    + """
local me = ARGV[2]
for _, h in ipairs(redis.call('SMEMBERS', k('owned', me))) do
  local o = redis.call('HGET', k('owners'), h)
  if o and string.sub(o, 1, #me + 1) == me .. ' ' then redis.call('HDEL', k('owners'), h) end
end
redis.call('DEL', k('owned', me))
redis.call('ZREM', k('workers'), me)
redis.call('HDEL', k('idle'), me)
return 1
"""
)


@dataclass(frozen=True, slots=True)
class Offer:
    """A URL on its way to its host's owner, as kept in Redis: found at ``depth``
    on ``referer`` by a page ``streak`` copies deep (:meth:`robotkit.triage.triage.Triage.screen`),
    or (``taken``) already screened and queued in ``tier`` by an owner."""

    url: str
    key: str
    depth: int
    referer: str | None
    streak: int = 0
    tier: Tier = Tier.MAIN
    taken: bool = False

    def record(self) -> str:
        # The key is second: the scripts read it with cjson to index ``pending``.
        return json.dumps(
            [self.url, self.key, self.depth, self.referer, self.streak, int(self.tier), self.taken]
        )

    @classmethod
    def of_record(cls, text: bytes | str) -> Offer:
        url, key, depth, referer, streak, tier, taken = json.loads(text)
        return cls(url, key, int(depth), referer, int(streak), Tier(int(tier)), bool(taken))


@dataclass(frozen=True)
class Claim:
    """A host this worker now owns: the URLs its last owner had taken on or had
    not screened yet (``pending``), and every key seen of it so far."""

    host: Origin
    pending: list[Offer]
    seen: list[str]


@dataclass(frozen=True)
class SyncResult:
    """What :meth:`SharedCrawl.sync` found: whether the crawl is over, the hosts
    lost (another worker took them over: this one stalled past its lease), the
    hosts claimed, the links drained from the owned hosts' inboxes, and how many
    owned hosts are over the worker's fair share."""

    finished: bool
    lost: list[Origin] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)
    drained: list[tuple[Origin, list[Offer]]] = field(default_factory=list)
    excess: int = 0


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


class SharedCrawl:
    """One worker's view of a crawl shared on Redis (module docstring).

    Actions are buffered (:meth:`done`, :meth:`take`, :meth:`refuse`, :meth:`offer`,
    :meth:`release`) and sent in order by :meth:`settle`; :meth:`sync` and
    :meth:`settle` never overlap, so Redis sees a worker's steps in the order it
    took them.
    """

    def __init__(
        self,
        client: redis.asyncio.Redis,
        namespace: Namespace,
        worker: str,
        *,
        lease: float = DEFAULT_OWNER_LEASE,
        max_drain: int = 500,
    ) -> None:
        if lease <= 0 or max_drain < 1:
            raise ValueError("lease must be > 0 and max_drain >= 1")
        self.client = client
        self.namespace = namespace
        self.worker = worker
        self.lease = lease
        self.max_drain = max_drain
        self.owned: set[Origin] = set()
        self._prefix = namespace.key("")
        self._sync = client.register_script(_SYNC)
        self._settle = client.register_script(_SETTLE)
        self._leave = client.register_script(_LEAVE)
        self._actions: list[list[Any]] = []
        self._turn = asyncio.Lock()  # one round trip at a time: Redis sees them in order
        self.round_trips = 0

    @staticmethod
    def host_name(origin: Origin) -> str:
        return str(origin)

    # -- buffered actions ---------------------------------------------------------

    def owns(self, origin: Origin) -> bool:
        return origin in self.owned

    def done(self, host: Origin, key: str) -> None:
        """The URL ``key`` of ``host`` is finished (fetched, failed or given up)."""
        self._actions.append(["done", self.host_name(host), key])

    def screened(self, host: Origin, key: str) -> None:
        """A link drained from ``host``'s inbox (under the finder's ``key``) was
        screened here: queued, refused or a duplicate, it is out of the inbox's
        keeping."""
        self._actions.append(["screened", self.host_name(host), key])

    def take(
        self,
        host: Origin,
        url: str,
        key: str,
        depth: int,
        referer: str | None,
        streak: int,
        tier: Tier,
    ) -> None:
        """This worker took on a URL of its own host (queued or parked)."""
        offer = Offer(url, key, depth, referer, streak, tier, taken=True)
        self._actions.append(["take", self.host_name(host), key, offer.record()])

    def refuse(self, host: Origin, key: str) -> None:
        """This worker refused a URL of its own host: seen, nothing to do."""
        self._actions.append(["seen", self.host_name(host), key])

    def offer(
        self, host: Origin, url: str, key: str, depth: int, referer: str | None, streak: int
    ) -> None:
        """A link to a host this worker does not own, for its owner to screen."""
        offer = Offer(url, key, depth, referer, streak)
        self._actions.append(["offer", self.host_name(host), key, offer.record()])

    def release(self, host: Origin) -> None:
        self.owned.discard(host)
        self._actions.append(["release", self.host_name(host)])

    @property
    def unsent(self) -> int:
        return len(self._actions)

    # -- round trips --------------------------------------------------------------

    async def settle(self) -> None:
        """Send the buffered actions (one round trip; none if there are none)."""
        async with self._turn:
            await self._send()

    async def _send(self) -> None:
        if not self._actions:
            return
        self.round_trips += 1
        with talking_to(self._prefix):
            await self._settle(keys=[], args=[self._prefix, self.worker, self._take_actions()])

    def _take_actions(self) -> str:
        actions, self._actions = self._actions, []
        return json.dumps(actions)

    async def sync(self, now: float, *, idle: bool, grace: float = GRACE) -> SyncResult:
        """Send the buffered actions, renew this worker and its hosts, claim free
        hosts up to its share, take in the links other workers left for its hosts,
        and see whether the crawl is over (it is, only when this worker is ``idle``
        too): one round trip."""
        async with self._turn:
            self.round_trips += 1
            return await self._synced(now, idle, grace)

    async def _synced(self, now: float, idle: bool, grace: float) -> SyncResult:
        args = [
            self._prefix,
            repr(now),
            self.worker,
            repr(self.lease),
            str(self.max_drain),
            "1" if idle else "0",
            str(int(grace * 1000)),
            self._take_actions(),
        ]
        with talking_to(self._prefix):
            finished, lost, claims, drained, excess = await self._sync(keys=[], args=args)
        result = SyncResult(
            bool(int(finished)),
            [origin_of(_text(h)) for h in lost],
            [
                Claim(
                    origin_of(_text(h)),
                    [Offer.of_record(r) for r in (*pending, *drained_before)],
                    [_text(s) for s in seen],
                )
                for h, pending, drained_before, seen in claims
            ],
            [(origin_of(_text(h)), [Offer.of_record(r) for r in items]) for h, items in drained],
            int(excess),
        )
        self.owned.difference_update(result.lost)
        self.owned.update(claim.host for claim in result.claims)
        return result

    async def leave(self) -> None:
        """Send what is buffered and give every host back at once."""
        async with self._turn:
            await self._send()
            self.round_trips += 1
            with talking_to(self._prefix):
                await self._leave(keys=[], args=[self._prefix, self.worker])
        self.owned.clear()
