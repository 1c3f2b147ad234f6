"""One crawl shared by several workers, on Redis: who owns which host, what is
waiting for each host, what was seen, and when the crawl is over.

Each host has one *owner* at a time, a worker alive in the worker table (it renews
its lease at every :meth:`SharedCrawl.sync`). The owner alone fetches the host's
URLs and decides about them with its own triage, so everything robotkit learns
about a site (its trap regions, its learned URL rules, its copies and soft 404s,
the automatic blacklist) decides what *all* workers fetch of it, without shipping
that state through Redis; and one request at a time per host follows from it (the
shared pacer enforces it as well). Hosts are spread over the live workers, about as
many per worker; a worker that holds more than its share gives the idle ones back.

Per host, under the host's hash tag (ARCHITECTURE.md, "The crawl shared by several
workers"): its owner, the seen filter (a Bloom filter: a link found by any worker is
offered once), the inbox (links found by other workers, for the owner to screen),
the drained links (out of the inbox, not screened yet) and the pending URLs (taken
on and not finished). Crawl-wide, under the crawl's tag: the worker table, the index
of claimable hosts, which worker may own which host, the hosts with mail for each
owner, the hosts each worker is offering to, and ``finished``. A host script and the
crawl script never run as one; the order of the calls keeps every host with work
reachable from the crawl-wide index whatever instant a worker is killed at.

Round trips per page: one host script per host the page touched (pipelined), with
the crawl script that notes its offers (and the hosts at rest it gives work) first in
the same pipeline on one server, before it on a cluster; per sync, the crawl script
and then the host scripts of its claims and drains. A host at rest (no work) has no
entry in the crawl-wide index: its seen filter is all it costs.

The Lua lives apart in :mod:`robotkit.shared.crawl_scripts`, the records it keeps in
:mod:`robotkit.shared.records`.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

from robotkit.frontier.seen import digest96
from robotkit.shared import crawl_scripts
from robotkit.shared.connection import AsyncClient, Namespace, Runner, ScriptCall, talking_to
from robotkit.shared.pacing import FinishCarry
from robotkit.shared.records import Offer, offer_of, offers_of, short, text_of
from robotkit.triage.chains import Chain
from robotkit.url.parse import Origin, origin_of

__all__ = [
    "CRAWL_KEYS",
    "DEFAULT_OWNER_LEASE",
    "HOST_KEYS",
    "Claim",
    "Offer",
    "SharedCrawl",
    "SyncResult",
]

DEFAULT_OWNER_LEASE = 15.0
"""Seconds a worker stays alive without syncing (it syncs a few times a second): a
killed worker's hosts go to others after at most this."""

GRACE = 60.0
"""Kept for callers of :meth:`SharedCrawl.sync`; the worker table no longer expires
(a crawl's keys go with ``SharedState.clear``)."""

MAX_CLAIMS = 32
"""Hosts one sync may claim: a worker joining a crawl of a million hosts takes them
a few dozen at a time, each sync's Redis time bounded."""

MAX_MAIL = 64
"""Hosts whose inbox one sync drains; the rest wait for the next sync."""

MAX_CHECKS = 16
"""Hosts a dead worker was offering to, looked at again per sync."""

REAP = 256
"""Entries of dead workers moved back to the index per sync."""

CRAWL_KEYS = ("workers", "idle", "load", "loadsum", "free", "from", "check", "owned", "mail",
               "outbox", "dead", "finished", "seq")  # fmt: skip
HOST_KEYS = ("s", "q", "i", "d")  # seen (and the header: owner...), pending, inbox, drained


def hashes(key: str, digest: int | None = None) -> tuple[int, int, int]:
    """The three 32-bit hashes the seen filter's Lua derives its bit positions from
    (triple hashing: bit j of a key from ``h1 + j h2 + j(j-1)/2 h3``; the second odd),
    out of the key's ``digest`` (:func:`~robotkit.frontier.seen.digest96`) when known."""
    if digest is None:
        digest = digest96(key)
    return digest & 0xFFFFFFFF, (digest >> 32 & 0xFFFFFFFF) | 1, digest >> 64


@dataclass(frozen=True)
class Claim:
    """A host this worker now owns: the URLs its last owner had taken on or had
    not screened yet (``pending``). ``inherited``: the host had an owner before, so
    what was seen of it is known in Redis only (links to it go through its seen
    filter there, :meth:`SharedCrawl.owns`)."""

    host: Origin
    pending: list[Offer]
    inherited: bool = False


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


def _index_news(host: str, taken: _Round, token: str, result: Any) -> list[list[str]]:
    """What the crawl-wide index must learn from one host script of the round
    ``taken`` (sent with the next crawl script; until then the host is in this
    worker's outbox or owned entries, which a reaper turns back into index entries)."""
    owner, first, work = text_of(result[0]), int(result[1]), int(result[2])
    post = []
    if first:
        if owner == "":
            post.append(["free", host, ""])
        elif owner == token:
            post.append(["remail", host])
        else:
            post.append(["mail", host, owner])
    if host in taken.offered:
        post.append(["unout", host])
    if host in taken.released:
        post.append(["unown", host])
        if work and owner == "":
            post.append(["free", host, ""])
    return post


def _status_news(host: str, answer: Any, token: str) -> list[list[str]]:
    """What the index must learn from a host looked at again (a dead finder's)."""
    owner, inbox, work = text_of(answer[0]), int(answer[1]), int(answer[2])
    post = []
    if owner == "" and work:
        post.append(["free", host, ""])
    elif owner and inbox:
        post.append(["remail", host] if owner == token else ["mail", host, owner])
    post.append(["unout", host])
    return post


def _host_calls(
    namespace: Namespace, token: str, taken: _Round
) -> tuple[list[str], list[ScriptCall]]:
    """A round's actions as one host script per host (under the ``token`` the worker
    has now: the sync that opens a round may give it a new one)."""
    hosts = list(taken.actions)
    calls = [
        ScriptCall(crawl_scripts.HOST, _keys(namespace, h, *HOST_KEYS), [token, json.dumps(a)])
        for h, a in taken.actions.items()
    ]
    return hosts, calls


def _keys(namespace: Namespace, host: str, *names: str) -> list[str]:
    return [namespace.host_key(host, name) for name in names]


@dataclass(frozen=True)
class _Round:
    """The buffered actions one round sends, taken out of the buffer at once and
    before the round's first call: the hosts offered to (noted in the outbox by the
    crawl script that opens the round) are exactly the hosts of the offers its host
    scripts carry. An action buffered while the round waits for Redis is the next
    round's; sent in this one, its host was noted a round late and never unnoted."""

    actions: dict[str, list[list[Any]]]
    offered: set[str]
    released: set[str]
    owning: set[str]  # hosts at rest taken work on: their ``owned`` entries go first


class SharedCrawl:
    """One worker's view of a crawl shared on Redis (module docstring).

    Actions are buffered (:meth:`done`, :meth:`take`, :meth:`refuse`, :meth:`offer`,
    :meth:`release`) and sent in order by :meth:`settle`; :meth:`sync` and
    :meth:`settle` never overlap, so Redis sees a worker's steps in the order it
    took them.
    """

    def __init__(
        self,
        client: AsyncClient,
        namespace: Namespace,
        worker: str,
        *,
        lease: float = DEFAULT_OWNER_LEASE,
        max_drain: int = 500,
        max_claims: int = MAX_CLAIMS,
        carry: FinishCarry | None = None,
    ) -> None:
        if lease <= 0 or max_drain < 1 or max_claims < 1:
            raise ValueError("lease must be > 0, max_drain and max_claims >= 1")
        self.client = client
        self.namespace = namespace
        self.worker = worker
        self.lease = lease
        self.max_drain = max_drain
        self.max_claims = max_claims
        self.owned: set[Origin] = set()
        self.inherited: dict[Origin, set[int]] = {}
        """Ours, their seen filter in Redis alone (:meth:`owns`): each with the digests
        of the links offered to it, in its filter since (most links are found again)."""
        self.token = ""  # this life's name in the worker table (given by the first sync)
        self._runner = Runner(client)
        # On one server the pacer's finishes ride on this worker's round trips, and
        # keep the leases of the hosts it alone requests (not on a cluster).
        self.carry = carry if carry is not None and not self._runner.cluster else None
        if self.carry is not None:
            self.carry.riding = self.carry.kept.on = True
        self._crawl_keys = [namespace.crawl_key(name) for name in CRAWL_KEYS]
        self._actions: dict[str, list[list[Any]]] = {}  # per host, in order
        self._offered: set[str] = set()  # hosts of the buffered offers
        self._post: list[list[str]] = []  # for the next crawl script
        self._lost: set[Origin] = set()
        self._releasing: set[str] = set()  # hosts given back in the buffered actions
        self._resting: set[str] = set()  # ours with no work: no ``owned`` entry
        self._owning: set[str] = set()  # of those, taken work on in the buffered actions
        self._turn = asyncio.Lock()  # one round trip at a time: Redis sees them in order
        self.round_trips = 0

    @staticmethod
    def host_name(origin: Origin) -> str:
        return str(origin)

    # -- buffered actions ---------------------------------------------------------

    def owns(self, origin: Origin) -> bool:
        """Whether links to ``origin`` are screened here at once: it is ours and we
        know all seen of it. An inherited host is ours too, but its links go through
        its seen filter in Redis first (as offers, back with the next sync)."""
        return origin in self.owned and origin not in self.inherited

    def _add(self, host: Origin, action: list[Any]) -> None:
        self._actions.setdefault(self.host_name(host), []).append(action)

    def done(self, host: Origin, key: str) -> None:
        """The URL ``key`` of ``host`` is finished (fetched, failed or given up)."""
        self._add(host, ["d", short(self.host_name(host), key)])

    def screened(self, host: Origin, key: str) -> None:
        """A link drained from ``host``'s inbox (under the finder's ``key``) was
        screened here: queued, refused or a duplicate, it is out of the inbox's
        keeping."""
        self._add(host, ["s", short(self.host_name(host), key)])

    def take(self, host: Origin, offer: Offer) -> None:
        """This worker took on a URL of its own host (queued or parked): ``offer``,
        ``taken``."""
        name, key = self.host_name(host), offer.key
        self._add(host, ["t", short(name, key), *hashes(key), offer.record(name)])
        if name in self._resting:  # its ``owned`` entry is written before the take
            self._resting.discard(name)
            self._owning.add(name)

    def refuse(self, host: Origin, key: str) -> None:
        """This worker refused a URL of its own host: seen, nothing to do."""
        self._add(host, ["r", *hashes(key)])

    def offer(
        self,
        host: Origin,
        url: str,
        key: str,
        depth: int,
        referer: str | None,
        streak: int,
        chain: Chain | None = None,
    ) -> None:
        """A link to a host this worker does not own, for its owner to screen (none
        when the host is an inherited one of ours and the link was offered to it
        already), a step of ``chain`` (:attr:`Offer.chain`)."""
        digest = digest96(key)
        offered = self.inherited.get(host)
        if offered is not None:
            if digest in offered:
                return
            offered.add(digest)
        name = self.host_name(host)
        record = Offer(url, key, depth, referer, streak, chain=chain).record(name)
        self._add(host, ["o", short(name, key), *hashes(key, digest), record])
        self._offered.add(name)

    def release(self, host: Origin) -> None:
        """Give ``host`` back, and its kept lease unless the server's other scheme is
        still ours (nothing of it is in flight here: SharedTurn)."""
        self.owned.discard(host)
        self.inherited.pop(host, None)
        if self.carry is not None and all(o.pacing_key != host.pacing_key for o in self.owned):
            self.carry.let_go(self.namespace, [host.pacing_key])
        self._add(host, ["x"])
        self._releasing.add(self.host_name(host))
        self._resting.discard(self.host_name(host))

    @property
    def unsent(self) -> int:
        return sum(len(actions) for actions in self._actions.values())

    # -- round trips --------------------------------------------------------------

    def _take_round(self) -> _Round:
        """The buffered actions, out of the buffer (:class:`_Round`)."""
        taken = _Round(self._actions, self._offered, self._releasing, self._owning)
        self._actions, self._offered, self._releasing, self._owning = {}, set(), set(), set()
        return taken

    def _crawl_call(
        self, mode: str, now: float = 0.0, idle: bool = False, taken: _Round | None = None
    ) -> ScriptCall:
        args = [mode, self.token, repr(now), repr(self.lease), "1" if idle else "0",
                str(len(self.owned)), str(self.max_claims), str(MAX_CHECKS), str(MAX_MAIL),
                str(REAP), json.dumps(self._post),
                json.dumps(sorted(taken.offered) if taken else []),
                json.dumps(sorted(taken.owning) if taken else [])]  # fmt: skip
        self._post = []
        return ScriptCall(crawl_scripts.CRAWL, self._crawl_keys, args)

    def _carried(self) -> list[ScriptCall]:
        return self.carry.take() if self.carry is not None else []

    async def _flush(
        self,
        hosts: list[str],
        calls: list[ScriptCall],
        taken: _Round,
        ahead: list[ScriptCall] | None = None,
    ) -> list[Any]:
        """Run a round's host ``calls`` (``ahead`` first, in the same pipeline on one
        server) and learn from their answers; the answers past the hosts' are
        returned."""
        ahead = ahead or []
        runs = await self._runner.many([*ahead, *calls], whole=len(ahead))
        results = runs[len(ahead) :]
        for host, result in zip(hosts, results[: len(hosts)], strict=False):
            origin, owner = origin_of(host), text_of(result[0])
            if origin in self.owned and owner != self.token:
                self._lost.add(origin)  # another worker took it over
            self._post += _index_news(host, taken, self.token, result)
            # At rest: its ``owned`` entry goes (unless actions for it were buffered
            # meanwhile: a take among them was not noted, so it waits a round).
            idle = host not in self._resting and host not in self._actions
            if idle and owner == self.token and int(result[2]) == 0:
                self._resting.add(host)
                self._post.append(["unown", host])
        return results[len(hosts) :]

    async def settle(self) -> None:
        """Send the buffered actions: the crawl script noting the hosts offered to
        (when there are offers), then the host scripts."""
        async with self._turn:
            await self._send()

    async def _send(self) -> None:
        ahead = self._carried()
        if not self._actions:
            if ahead:
                self.round_trips += 1
                with talking_to(self.namespace.key("")):
                    await self._runner.many(ahead)
            return
        taken = self._take_round()
        with talking_to(self.namespace.key("")):
            if taken.offered or taken.owning:
                # Before the first sync there is no token: the crawl script puts the
                # hosts in ``check`` instead, where any worker's sync looks at them.
                # On one server the note goes first in the host scripts' pipeline:
                # Redis runs it first, and a worker killed while sending leaves a
                # prefix run. A cluster's node for it is not the hosts'.
                note = self._crawl_call("note", taken=taken)
                if self._runner.cluster:
                    self.round_trips += 1
                    await self._runner.one(note)
                else:
                    ahead.append(note)
            hosts, calls = _host_calls(self.namespace, self.token, taken)
            self.round_trips += 1
            await self._flush(hosts, calls, taken, ahead)

    async def sync(self, now: float, *, idle: bool, grace: float = GRACE) -> SyncResult:
        """Send the buffered actions, renew this worker, claim free hosts up to its
        share (a few per sync), take in the links other workers left for its hosts,
        and see whether the crawl is over (it is, only when this worker is ``idle``
        too): the crawl script, then one round of host scripts."""
        async with self._turn:
            with talking_to(self.namespace.key("")):
                return await self._synced(now, idle)

    async def _synced(self, now: float, idle: bool) -> SyncResult:
        taken = self._take_round()
        self.round_trips += 1
        crawl = self._crawl_call("sync", now, idle, taken)
        answer = (await self._runner.many([*self._carried(), crawl]))[-1]
        finished, token, lost_all, claims, checks, mails, excess = answer
        self.token = text_of(token)
        if int(finished):
            self._actions.clear()
            self._offered.clear()
            return SyncResult(True)
        lost = set(self._lost)
        self._lost.clear()
        if int(lost_all):
            lost |= self.owned
        self.owned -= lost
        for origin in lost:
            self.inherited.pop(origin, None)
        self._resting.difference_update(map(str, lost))
        hosts, calls = _host_calls(self.namespace, self.token, taken)
        claimed = [(text_of(h), text_of(f)) for h, f in claims]
        checked = [text_of(h) for h in checks]
        mailed = [text_of(h) for h in mails]
        self._resting.difference_update(mailed)  # popping the mail wrote ``owned``
        calls += [
            ScriptCall(crawl_scripts.CLAIM, _keys(self.namespace, h, *HOST_KEYS), [self.token, f])
            for h, f in claimed
        ]
        calls += [
            ScriptCall(crawl_scripts.DRAIN, _keys(self.namespace, h, "s", "i", "d"),
                  [self.token, str(self.max_drain)])
            for h in mailed
        ]  # fmt: skip
        status = crawl_scripts.STATUS
        calls += [ScriptCall(status, _keys(self.namespace, h, *HOST_KEYS), []) for h in checked]
        if calls:
            self.round_trips += 1
        rest = await self._flush(hosts, calls, taken)
        result = SyncResult(False, sorted(lost, key=str), excess=int(excess))
        for (host, _), answer in zip(claimed, rest, strict=False):
            self._claimed(host, answer, result)
        rest = rest[len(claimed) :]
        for host, answer in zip(mailed, rest, strict=False):
            if int(answer[0]) == 1:
                offers = [offer_of(host, item) for item in answer[1]]
                if offers:
                    result.drained.append((origin_of(host), offers))
                if int(answer[2]) > 0:
                    self._post.append(["remail", host])
        for host, answer in zip(checked, rest[len(mailed) :], strict=False):
            self._post += _status_news(host, answer, self.token)
        return result

    def _claimed(self, host: str, answer: Any, result: SyncResult) -> None:
        state = int(answer[0])
        if state == 1:
            origin = origin_of(host)
            pending = offers_of(host, answer[2]) + offers_of(host, answer[3])
            inherited = bool(int(answer[1]))
            self.owned.add(origin)
            if inherited:
                self.inherited[origin] = set()
            result.claims.append(Claim(origin, pending, inherited))
        elif state == 0:
            owner = text_of(answer[1])
            self._post.append(["verify", host, owner] if owner else ["unown", host])

    async def leave(self) -> None:
        """Send what is buffered and leave the worker table: this worker's hosts go
        back to the index at the next sync of any other worker."""
        async with self._turn:
            if self.carry is not None:  # from now on a finish is its own round trip
                self.carry.stop(self.namespace)  # and keeps no lease
                await self.carry.sent()
            await self._send()
            if self.token:
                self.round_trips += 1
                with talking_to(self.namespace.key("")):
                    await self._runner.one(self._crawl_call("leave"))
        self.owned.clear()
        self.inherited.clear()
        self._resting.clear()
