"""Politeness shared by every worker of a crawl, on Redis.

In one process, robotkit keeps its politeness facts in memory. Several workers
crawling together must share them, or each host gets N workers' worth of requests
and each robots.txt N fetches. This package keeps those facts in Redis, behind the
same small interfaces, while every decision stays in the pure core:

* :mod:`~robotkit.shared.connection`: the client, the crawl's key namespace
  (``robotkit:{crawl id}:...``) and :class:`SharedStateUnavailable`, the one error
  for a Redis that cannot be reached (a worker then stops; it never guesses
  "allow" or "no delay");
* :mod:`~robotkit.shared.pacing`: :class:`SharedPacer`, each request reserving its
  host's next slot atomically (one Lua script), holds and backoff shared;
* :mod:`~robotkit.shared.checker`: :class:`SharedRobotsChecker`, one robots.txt
  cache for all workers, with a cross-process single flight (a lock key);
* :mod:`~robotkit.shared.codec`: an origin's robots.txt state as JSON;
* :mod:`~robotkit.shared.slots`: a polite transport's slots, also reserved in Redis;
* :mod:`~robotkit.shared.state`: :class:`SharedState`, the one handle a user
  passes around (``PoliteTransport(shared=state)``, ``Crawler(shared=state)``),
  sync and async;
* :mod:`~robotkit.shared.crawl`: :class:`~robotkit.shared.crawl.SharedCrawl`, one
  crawl spread over workers: hosts owned by live workers, inboxes, unfinished URLs,
  per-host Bloom seen filters (its Lua in :mod:`~robotkit.shared.crawl_scripts`,
  its records of URLs in :mod:`~robotkit.shared.records`).

Time is always the injected clock's, never Redis'. Every key expires, except a
shared crawl's, which :meth:`SharedState.clear` removes. Keys carry Redis Cluster
hash tags, and :func:`connect` gives a cluster client for a cluster's node.
This is the shell's layer: it does I/O (Redis, and the robots.txt fetch through
:mod:`robotkit.http`); the core never imports it. Needs the ``redis`` extra
(``pip install 'robotkit[redis]'``).
"""

from __future__ import annotations

from robotkit.shared.checker import AsyncSharedRobotsChecker, SharedRobotsChecker
from robotkit.shared.connection import (
    Namespace,
    SharedStateTimeout,
    SharedStateUnavailable,
    connect,
    connect_async,
)
from robotkit.shared.pacing import AsyncSharedPacer, Reservation, SharedPacer, SharedTicket
from robotkit.shared.slots import SharedAsyncSlots, SharedSyncSlots
from robotkit.shared.state import SharedState

__all__ = [
    "AsyncSharedPacer",
    "AsyncSharedRobotsChecker",
    "Namespace",
    "Reservation",
    "SharedAsyncSlots",
    "SharedPacer",
    "SharedRobotsChecker",
    "SharedState",
    "SharedStateTimeout",
    "SharedStateUnavailable",
    "SharedSyncSlots",
    "SharedTicket",
    "connect",
    "connect_async",
]
