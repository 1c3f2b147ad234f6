"""How robotkit talks to Redis: one connection, one key namespace, one error.

Every key a crawl writes starts with ``robotkit:<crawl id>:``, so several crawls
share one Redis without seeing each other's state, and a crawl's keys can be found
(and removed) by their prefix. Keys carry a Redis Cluster hash tag: a host's keys
``{<origin>}``, the crawl-wide ones ``{<crawl id>}``, so every script touches one
slot (ARCHITECTURE.md, "The crawl shared by several workers"). The same URL reaches
a single server or a member of a cluster: :func:`connect` asks the node which.

A lost or unreachable Redis is one exception, :class:`SharedStateUnavailable`,
whatever redis-py raised: a worker that cannot
read the shared state must stop, never go on as if the state were empty (that
would mean "allow" and "no delay" on a host other workers are pacing).
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import redis
import redis.asyncio
import redis.asyncio.cluster
import redis.cluster
from redis.asyncio.retry import Retry as AsyncRetry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError
from redis.retry import Retry

from robotkit.base.errors import UnavailableError
from robotkit.shared.wire import Command, Wire, WiredPool
from robotkit.url.redact import masked

__all__ = [
    "CLUSTER_CALLS",
    "DEFAULT_SOCKET_TIMEOUT",
    "AsyncClient",
    "AsyncClientSource",
    "AsyncScripts",
    "Namespace",
    "Runner",
    "ScriptCall",
    "Scripts",
    "SharedStateTimeout",
    "SharedStateUnavailable",
    "SyncClient",
    "async_client",
    "connect",
    "connect_async",
    "talking_to",
]

DEFAULT_SOCKET_TIMEOUT = 5.0
"""Seconds one Redis call may take before the state counts as unavailable: a local
Redis answers in well under a millisecond, so this only ever fires on a fault."""


class SharedStateUnavailable(UnavailableError):
    """The shared state could not be read or written (Redis unreachable, gone
    mid-crawl, or answering nonsense). The caller must not guess the state."""


class SharedStateTimeout(SharedStateUnavailable):
    """Another worker holds a lock on a piece of state and did not publish it in
    time (it may be slow or dead); the state is still unknown."""


SyncClient = redis.Redis | redis.cluster.RedisCluster
"""A client of one server or of a cluster: robotkit uses only what both have."""

AsyncClient = redis.asyncio.Redis | redis.asyncio.cluster.RedisCluster


@dataclass(frozen=True)
class Namespace:
    """The key prefix of one crawl: ``robotkit:<crawl_id>:``."""

    crawl_id: str

    def __post_init__(self) -> None:
        if not self.crawl_id or any(c.isspace() or c in ":{}" for c in self.crawl_id):
            raise ValueError("a crawl id is a non-empty word without spaces, ':' or braces")

    def key(self, *parts: str) -> str:
        return ":".join(("robotkit", self.crawl_id, *parts))

    def crawl_key(self, name: str) -> str:
        """A crawl-wide key: all of them share the slot of the tag ``{<crawl id>}``."""
        return self.key("{" + self.crawl_id + "}", name)

    def host_key(self, host: str, name: str) -> str:
        """A key of one host (an origin's text): all of them share the host's slot,
        so one script may touch them all on a Redis Cluster."""
        return self.key("{" + host + "}", name)


RETRIES = 3
"""Retries of a call that lost its connection, with backoff from 8 ms to 0.5 s:
a Redis restarting or a dropped connection costs a worker under a second, and a
Redis that is gone is reported within about one (redis-py's default backoff would
take several seconds)."""


def _options(socket_timeout: float) -> dict[str, Any]:
    """The timeouts of every client, sync or async: one place for both faces."""
    return {"socket_timeout": socket_timeout, "socket_connect_timeout": socket_timeout}


def _not_a_url(url: str, error: ValueError) -> SharedStateUnavailable:
    return SharedStateUnavailable(f"not a Redis URL: {masked(url)!r} ({error})")


def connect(url: str, *, socket_timeout: float = DEFAULT_SOCKET_TIMEOUT) -> SyncClient:
    """A client for ``url`` (``redis://host:port/db``), checked with a PING so that
    an unreachable server is reported at start, not at the first request. When the
    node is a member of a Redis Cluster (``INFO cluster``), a cluster client that
    found the other nodes from it."""
    try:
        client = redis.Redis.from_url(
            url, retry=Retry(ExponentialBackoff(), RETRIES), **_options(socket_timeout)
        )
    except ValueError as error:
        raise _not_a_url(url, error) from None
    with talking_to(url):
        client.ping()
        clustered = is_cluster(client)
    if not clustered:
        return client
    client.close()
    with talking_to(url):
        cluster = redis.cluster.RedisCluster.from_url(
            _cluster_url(url),
            retry=Retry(ExponentialBackoff(), RETRIES),
            **_options(socket_timeout),
        )
        cluster.ping()
    return cluster


def is_cluster(client: redis.Redis) -> bool:
    """Whether the node ``client`` talks to runs in cluster mode."""
    return bool(int(client.info("cluster").get("cluster_enabled", 0)))


def _cluster_url(url: str) -> str:
    """``url`` without its database: a cluster has only database 0, and redis-py's
    cluster client refuses the ``db`` argument even when it is 0."""
    base, _, db = url.rpartition("/")
    if base.count("/") >= 2 and db.isdigit():
        if db != "0":
            raise SharedStateUnavailable(f"a Redis Cluster has only database 0: {url!r}")
        return base
    return url


def async_client(
    url: str, *, socket_timeout: float = DEFAULT_SOCKET_TIMEOUT, cluster: bool = False
) -> AsyncClient:
    """An asyncio client for ``url`` with :func:`connect`'s timeouts and retries,
    not yet connected: redis-py binds an async client to the event loop of its
    first call, so each loop needs its own (``SharedState.async_client``).
    ``cluster``: the node is a cluster's (what :func:`connect` found). A single
    server's client has a :class:`~robotkit.shared.wire.Wire` for the script calls
    (in its pool, closed with it)."""
    try:
        if cluster:
            return redis.asyncio.cluster.RedisCluster.from_url(
                _cluster_url(url),
                retry=AsyncRetry(ExponentialBackoff(), RETRIES),
                **_options(socket_timeout),
            )
        pool = WiredPool.from_url(
            url, retry=AsyncRetry(ExponentialBackoff(), RETRIES), **_options(socket_timeout)
        )
        return redis.asyncio.Redis.from_pool(pool)
    except ValueError as error:
        raise _not_a_url(url, error) from None


async def connect_async(url: str, *, socket_timeout: float = DEFAULT_SOCKET_TIMEOUT) -> AsyncClient:
    """:func:`async_client`, checked with a PING like :func:`connect` (a cluster's
    node gets a cluster client)."""
    client: AsyncClient = async_client(url, socket_timeout=socket_timeout)
    assert isinstance(client, redis.asyncio.Redis)
    with talking_to(url):
        await client.ping()
        clustered = bool(int((await client.info("cluster")).get("cluster_enabled", 0)))
    if not clustered:
        return client
    await client.aclose()
    client = async_client(url, socket_timeout=socket_timeout, cluster=True)
    with talking_to(url):
        await client.ping()
    return client


@contextmanager
def talking_to(what: str) -> Iterator[None]:
    """Turn any redis-py error inside the block into :class:`SharedStateUnavailable`
    naming ``what`` (a URL, its password masked, or a key); nothing else is caught."""
    try:
        yield
    except (RedisConnectionError, RedisTimeoutError) as error:
        raise SharedStateUnavailable(f"Redis unreachable ({masked(what)}): {error}") from error
    except RedisError as error:
        raise SharedStateUnavailable(f"Redis error ({masked(what)}): {error}") from error


@dataclass(frozen=True)
class ScriptCall:
    """One Lua script to run on some keys: what a sync and an async caller send
    alike, planned by pure code, so the two faces differ only in how they call."""

    script: str
    keys: Sequence[str]
    args: Sequence[str]
    answered: Callable[[Any], None] | None = field(default=None, compare=False, repr=False)
    """Told the call's answer, whoever sent it: a call carried on another's round
    trip (:class:`~robotkit.shared.pacing.FinishCarry`) still reaches its planner."""


def _answered(call: ScriptCall, result: Any) -> Any:
    if call.answered is not None:
        call.answered(result)
    return result


CLUSTER_CALLS = 16
"""Script calls in flight at once on a cluster."""


@functools.cache
def sha_of(script: str) -> str:
    """A script's SHA1, as EVALSHA names it: computed once per script text."""
    return hashlib.sha1(script.encode()).hexdigest()


def _evalsha(call: ScriptCall) -> Command:
    return ["EVALSHA", sha_of(call.script), len(call.keys), *call.keys, *call.args]


class Runner:
    """Runs :class:`ScriptCall` s on an asyncio client by SHA, loading a script the
    server does not know yet. Several at once: one pipeline on a single server (one
    round trip, run in order), calls in parallel on a cluster (redis-py's cluster
    pipeline refuses EVALSHA; each call names one slot's keys, so order can only
    matter per slot). On a client of :func:`async_client`'s, a single server's calls
    go by its :class:`~robotkit.shared.wire.Wire`."""

    def __init__(self, client: AsyncClient) -> None:
        self.client = client
        self.cluster = isinstance(client, redis.asyncio.cluster.RedisCluster)
        pool = getattr(client, "connection_pool", None)
        self.wire: Wire | None = pool.wire() if isinstance(pool, WiredPool) else None

    async def one(self, call: ScriptCall) -> Any:
        return _answered(call, await self._one(call))

    async def _one(self, call: ScriptCall) -> Any:
        if self.wire is not None:
            (result,) = await self.wire.execute([_evalsha(call)])
            if isinstance(result, NoScriptError):  # loaded and run in one round trip
                result = (await self.wire.execute([["SCRIPT", "LOAD", call.script],
                                                   _evalsha(call)]))[1]  # fmt: skip
            if isinstance(result, Exception):
                raise result
            return result
        sha, words = sha_of(call.script), [*call.keys, *call.args]
        try:
            return await self.client.evalsha(sha, len(call.keys), *words)
        except NoScriptError:
            await self.client.script_load(call.script)
            return await self.client.evalsha(sha, len(call.keys), *words)

    async def many(self, calls: Sequence[ScriptCall], *, whole: int = 0) -> list[Any]:
        """Run ``calls``; on one server the first ``whole`` go with their text (EVAL),
        so that a server that lost its scripts (a restart) still runs them before the
        rest: a call refused as unknown is sent again after the others ran."""
        if not calls:
            return []
        if self.cluster or len(calls) == 1:
            # At most CLUSTER_CALLS at once: redis-py's cluster client has a bounded
            # pool per node, and a burst past it fails rather than waits.
            results: list[Any] = []
            for at in range(0, len(calls), CLUSTER_CALLS):
                batch = calls[at : at + CLUSTER_CALLS]
                results += await asyncio.gather(*(self.one(call) for call in batch))
            return results
        commands: list[Command] = [
            ["EVAL", call.script, len(call.keys), *call.keys, *call.args]
            if n < whole
            else _evalsha(call)
            for n, call in enumerate(calls)
        ]
        if self.wire is not None:
            results = await self.wire.execute(commands)
        else:
            pipe = self.client.pipeline(transaction=False)
            for command in commands:
                pipe.execute_command(*command)
            results = await pipe.execute(raise_on_error=False)
        for n, result in enumerate(results):
            if isinstance(result, NoScriptError):  # not run: safe to send again
                results[n] = await self._one(calls[n])
            elif isinstance(result, Exception):
                raise result
        return [_answered(call, result) for call, result in zip(calls, results, strict=True)]


class Scripts:
    """Runs :class:`ScriptCall` s on a sync client, each script registered once
    (its SHA computed once)."""

    def __init__(self, client: SyncClient) -> None:
        self.client = client
        self._registered: dict[str, Any] = {}

    def run(self, call: ScriptCall) -> Any:
        script = self._registered.get(call.script)
        if script is None:
            script = self._registered[call.script] = self.client.register_script(call.script)
        with talking_to(call.keys[0]):
            return _answered(call, script(keys=list(call.keys), args=list(call.args)))


AsyncClientSource = AsyncClient | Callable[[], AsyncClient]
"""An asyncio client, or a function giving the one of the running event loop."""


class AsyncScripts:
    """Runs :class:`ScriptCall` s on an asyncio client (:class:`Runner`); ``client``
    may be a function returning the running loop's client (redis-py async clients
    are bound to a loop). Which it is is decided once, and the runner is kept for
    as long as the client is the same: redis-py's client classes make an
    ``isinstance`` check cost tens of microseconds, twice a page."""

    def __init__(self, client: AsyncClientSource) -> None:
        self._fixed: AsyncClient | None = None
        self._source: Callable[[], AsyncClient] | None = None
        if isinstance(client, redis.asyncio.Redis | redis.asyncio.cluster.RedisCluster):
            self._fixed = client
        else:
            self._source = client
        self._runner: Runner | None = None

    @property
    def client(self) -> AsyncClient:
        if self._fixed is not None:
            return self._fixed
        assert self._source is not None
        return self._source()

    def runner(self) -> Runner:
        """The runner of the current client."""
        client, runner = self.client, self._runner
        if runner is None or runner.client is not client:
            runner = self._runner = Runner(client)
        return runner

    async def run(self, call: ScriptCall) -> Any:
        with talking_to(call.keys[0]):
            return await self.runner().one(call)
