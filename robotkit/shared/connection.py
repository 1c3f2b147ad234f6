"""How robotkit talks to Redis: one connection, one key namespace, one error.

Every key a crawl writes starts with ``robotkit:{crawl id}:``, so several crawls
share one Redis without seeing each other's state, and a crawl's keys can be found
(and removed) by their prefix. A lost or unreachable Redis is one exception,
:class:`SharedStateUnavailable`, whatever redis-py raised: a worker that cannot
read the shared state must stop, never go on as if the state were empty (that
would mean "allow" and "no delay" on a host other workers are pacing).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import redis
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError
from redis.retry import Retry

__all__ = [
    "DEFAULT_SOCKET_TIMEOUT",
    "Namespace",
    "SharedStateTimeout",
    "SharedStateUnavailable",
    "connect",
    "talking_to",
]

DEFAULT_SOCKET_TIMEOUT = 5.0
"""Seconds one Redis call may take before the state counts as unavailable: a local
Redis answers in well under a millisecond, so this only ever fires on a fault."""


class SharedStateUnavailable(RuntimeError):
    """The shared state could not be read or written (Redis unreachable, gone
    mid-crawl, or answering nonsense). The caller must not guess the state."""


class SharedStateTimeout(SharedStateUnavailable):
    """Another worker holds a lock on a piece of state and did not publish it in
    time (it may be slow or dead); the state is still unknown."""


@dataclass(frozen=True)
class Namespace:
    """The key prefix of one crawl: ``robotkit:{crawl_id}:``."""

    crawl_id: str

    def __post_init__(self) -> None:
        if not self.crawl_id or any(c.isspace() or c == ":" for c in self.crawl_id):
            raise ValueError("a crawl id is a non-empty word without spaces or ':'")

    def key(self, *parts: str) -> str:
        return ":".join(("robotkit", self.crawl_id, *parts))


RETRIES = 3
"""Retries of a call that lost its connection, with backoff from 8 ms to 0.5 s:
a Redis restarting or a dropped connection costs a worker under a second, and a
Redis that is gone is reported within about one (redis-py's default backoff would
take several seconds)."""


def connect(url: str, *, socket_timeout: float = DEFAULT_SOCKET_TIMEOUT) -> redis.Redis:
    """A client for ``url`` (``redis://host:port/db``), checked with a PING so that
    an unreachable server is reported at start, not at the first request."""
    try:
        client = redis.Redis.from_url(
            url,
            socket_timeout=socket_timeout,
            socket_connect_timeout=socket_timeout,
            retry=Retry(ExponentialBackoff(), RETRIES),
        )
    except ValueError as error:
        raise SharedStateUnavailable(f"not a Redis URL: {url!r} ({error})") from None
    with talking_to(url):
        client.ping()
    return client


@contextmanager
def talking_to(what: str) -> Iterator[None]:
    """Turn any redis-py error inside the block into :class:`SharedStateUnavailable`
    naming ``what`` (a URL or a key); nothing else is caught."""
    try:
        yield
    except (RedisConnectionError, RedisTimeoutError) as error:
        raise SharedStateUnavailable(f"Redis unreachable ({what}): {error}") from error
    except RedisError as error:
        raise SharedStateUnavailable(f"Redis error ({what}): {error}") from error
