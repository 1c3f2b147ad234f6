"""Several service nodes on one Redis (``robotkit frontier serve --redis URL``).

Each node keeps its own queues; what they share is what politeness needs, who owns
each URL, and what ``ListNodes`` shows, through :mod:`robotkit.shared`:

* **pacing**: a URL is handed out only when the host's slot in Redis is taken too
  (:class:`~robotkit.shared.SharedPacer`, one request at a time per host across
  every node, the delay from the end of one response to the next start), and
  the report frees it; a Retry-After reported to one node holds the host on all;
* **robots.txt**: one cache for all nodes, fetched once per origin (the shared
  robots checker behind the polite transport's shared slots);
* **URLs**: a new discovered URL is queued only by the node that claims it first
  (:class:`SharedClaims`, ``SET NX`` per crawl and URL key), so a URL put on two
  nodes is handed out once;
* **the nodes**: each node announces its address every few seconds under a
  deadline; ``ListNodes`` lists the nodes whose deadline has not passed.

The state lives under the namespace ``robotkit:frontier:`` (hosts are hosts
whatever the crawl), so every node of a cluster must use the same Redis. Time is
the injected clock's, as everywhere in robotkit (nodes need synchronised clocks).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import redis

from robotkit.base.clock import Clock
from robotkit.base.outcome import Outcome
from robotkit.pacing.pacer import HostKey
from robotkit.shared import SharedPacer, SharedState, SharedStateUnavailable, SharedTicket

__all__ = ["NAMESPACE", "NODE_TTL", "NodeRegistry", "SharedClaims", "SharedGate"]

NAMESPACE = "frontier"
"""The crawl id of the service's shared state in Redis."""
NODE_TTL = 10.0
"""Seconds a node stays listed after its last announcement (it announces every third)."""


class SharedGate:
    """The core's :class:`~robotkit.service.handout.Gate` over a :class:`SharedPacer`."""

    def __init__(self, pacer: SharedPacer) -> None:
        self.pacer = pacer

    def reserve(self, host: HostKey) -> tuple[object | None, float]:
        reservation = self.pacer.reserve(host)
        return reservation.ticket, reservation.wait

    def finish(self, ticket: object, outcome: Outcome | None, retry_at: float | None) -> None:
        assert isinstance(ticket, SharedTicket)
        self.pacer.finish(ticket, outcome, retry_at)

    def hold(self, host: HostKey, until: float) -> None:
        self.pacer.hold(host, until)


class SharedClaims:
    """The core's :class:`~robotkit.service.intake.Claims` in Redis: one key per URL
    (``url:{crawl}:{key}``, the node's id as value, no expiry), taken with
    ``SET NX``; the node that set it first owns the URL."""

    def __init__(self, state: SharedState, node: str) -> None:
        self.client = state.client
        self.namespace = state.namespace
        self.node = node

    def claim(self, crawl: str, key: str) -> bool:
        name = self.namespace.key("url", crawl, key)
        with talking_to(name):
            pipe = self.client.pipeline(transaction=False)
            pipe.set(name, self.node, nx=True)
            pipe.get(name)
            taken, owner = pipe.execute()
        return bool(taken) or owner == self.node.encode()


@contextmanager
def talking_to(key: str) -> Iterator[None]:
    """A Redis error is :class:`SharedStateUnavailable`, as everywhere in robotkit."""
    try:
        yield
    except redis.RedisError as error:
        raise SharedStateUnavailable(f"Redis error ({key}): {error}") from error


class NodeRegistry:
    """The live nodes of a cluster: a sorted set of addresses scored by deadline."""

    def __init__(self, state: SharedState, clock: Clock, ttl: float = NODE_TTL) -> None:
        self.client = state.client
        self.key = state.namespace.key("nodes")
        self.clock = clock
        self.ttl = ttl

    def announce(self, node: str) -> None:
        now = self.clock()
        with talking_to(self.key):
            pipe = self.client.pipeline()
            pipe.zadd(self.key, {node: now + self.ttl})
            pipe.zremrangebyscore(self.key, "-inf", now)
            pipe.execute()

    def leave(self, node: str) -> None:
        with talking_to(self.key):
            self.client.zrem(self.key, node)

    def nodes(self) -> list[str]:
        with talking_to(self.key):
            found = self.client.zrangebyscore(self.key, self.clock(), "+inf")
        return sorted(n.decode() if isinstance(n, bytes) else str(n) for n in found)
