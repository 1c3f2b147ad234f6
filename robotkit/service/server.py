"""The gRPC shell of the URL Frontier service: each RPC of the ``urlfrontier`` API
translated to one call of :class:`~robotkit.service.core.ServiceCore`, and the
robots.txt fetches the core asks for, run through robotkit's fetcher.

One asyncio event loop owns everything (``grpc.aio``): the core is never touched
from two threads, and robots.txt fetches run beside the RPCs as tasks of the same
loop. Bad input gets a defined answer: an invalid URL is acknowledged ``SKIPPED``,
an unknown crawl has nothing to give (an empty stream, zero counts, ``NOT_FOUND``
for GetURLStatus), a PutURLs stream cut in the middle keeps what came before.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import threading
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import grpc

from robotkit.base.clock import Clock, system_clock
from robotkit.base.errors import UnavailableError, UsageError
from robotkit.base.identity import Identity
from robotkit.http.checker import AsyncRobotsChecker, RobotsOptions
from robotkit.http.transport import AsyncPoliteTransport
from robotkit.pacing.pacer import Pacer, PacingPolicy
from robotkit.robots.verdict import Verdict
from robotkit.service import metadata as meta
from robotkit.service.core import (
    Ack,
    Incoming,
    RobotsFetch,
    ServiceCore,
    URLRecord,
    URLState,
    crawl_id,
)
from robotkit.service.proto import urlfrontier_pb2 as pb
from robotkit.service.proto import urlfrontier_pb2_grpc as pb_grpc
from robotkit.triage.guard import Guard, GuardConfig

if TYPE_CHECKING:
    from robotkit.service.shared import NodeRegistry
    from robotkit.shared import SharedState

__all__ = [
    "FrontierServer",
    "RunningService",
    "ServiceConfig",
    "parse_listen",
    "running",
    "serve",
]

_T = TypeVar("_T")

log = logging.getLogger("robotkit.service")

ROBOTS_WAIT = 2.0
"""Seconds a GetURLs that had nothing to give waits for the robots.txt fetches it
started, before looking again (a crawler's first call then gets URLs)."""

_add_servicer: Callable[[Any, Any], None] = pb_grpc.add_URLFrontierServicer_to_server

_ACK = {Ack.OK: pb.AckMessage.OK, Ack.SKIPPED: pb.AckMessage.SKIPPED, Ack.FAIL: pb.AckMessage.FAIL}


@dataclass(frozen=True)
class ServiceConfig:
    """What ``robotkit frontier serve`` sets."""

    identity: Identity = field(default_factory=Identity)
    robots: RobotsOptions = field(default_factory=RobotsOptions)
    delay: float = 1.0
    """Seconds from the end of a response to the next request to the same host."""
    lease: float = 30.0
    """Seconds a URL handed out stays out when GetURLs gives no ``delay_requestable``."""
    guard: GuardConfig = field(default_factory=GuardConfig)
    allow_private: bool = False
    """Fetch robots.txt from private and loopback addresses too (off by default: a
    client must not make the service reach into its own network)."""


def parse_listen(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6); raises :class:`UsageError`."""
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise UsageError(f"--listen must be HOST:PORT, not {text!r}")
    return host.strip("[]"), int(port)


def _record_info(record: URLRecord, crawl: str, extra: bool = False) -> pb.URLInfo:
    info = pb.URLInfo(url=record.url, key=record.queue.key, crawlID=crawl)
    for name, values in record.metadata.items():
        info.metadata[name].values.extend(values)
    if extra:
        info.metadata[meta.STATE].values.append(record.state.value)
        if record.reason is not None:
            info.metadata[meta.REASON].values.append(record.reason.value)
    return info


def _status_item(record: URLRecord, crawl: str) -> pb.URLItem:
    """A record as GetURLStatus and ListURLs show it: a known item, with robotkit's
    state and reason in its metadata, and its refetch date (0: done or never)."""
    known = pb.KnownURLItem(info=_record_info(record, crawl, extra=True))
    if record.state in (URLState.QUEUED, URLState.WAITING):
        known.refetchable_from_date = record.refetch_from
    return pb.URLItem(known=known, ID=record.url, creation_date=record.created)


class FrontierServer(pb_grpc.URLFrontierServicer):
    """The servicer: one node of the service (several share a crawl on Redis)."""

    def __init__(
        self,
        config: ServiceConfig | None = None,
        *,
        clock: Clock = system_clock,
        checker: AsyncRobotsChecker | None = None,
        node: str = "",
        shared: SharedState | None = None,
    ) -> None:
        config = config if config is not None else ServiceConfig()
        self.config = config
        policy = PacingPolicy(delay=config.delay, max_in_flight=1 << 30, max_hosts=1 << 20)
        self.pacer = Pacer(clock, policy)
        guard_config = config.guard
        self.shared = shared
        self.registry: NodeRegistry | None = None
        gate = claims = None
        if shared is not None:  # the redis extra, imported only for a cluster
            from robotkit.service.shared import NodeRegistry, SharedClaims, SharedGate

            gate = SharedGate(shared.pacer(self.pacer))
            claims = SharedClaims(shared, node or secrets.token_hex(8))
            self.registry = NodeRegistry(shared, clock)
        self.core = ServiceCore(
            clock, self.pacer, guard=lambda: Guard(guard_config), lease=config.lease, gate=gate,
            claims=claims,
        )  # fmt: skip
        # robots.txt is fetched through a polite transport over the service's own
        # pacer: every hop of a fetch (redirects too) waits for its host's slot and
        # counts for the host's delay, as a page does.
        self.transport = AsyncPoliteTransport(
            identity=config.identity,
            pacer=self.pacer,
            robots_options=config.robots,
            allow_private=config.allow_private,
            clock=clock,
            shared=shared,
        )
        robots = self.transport.robots
        assert robots is not None
        self.checker = checker or robots
        self.node = node
        self._tasks: set[asyncio.Task[None]] = set()

    def started(self, address: str) -> None:
        """Called once listening: a node of a cluster announces itself from now on."""
        self.node = self.node or address
        if self.registry is not None:
            self.registry.announce(self.node)
            task = asyncio.get_running_loop().create_task(self._announce())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _announce(self) -> None:
        assert self.registry is not None
        while True:
            await asyncio.sleep(self.registry.ttl / 3)
            try:
                self.registry.announce(self.node)
            except UnavailableError as error:
                log.warning("cannot announce this node: %s", error)

    # -- robots.txt --------------------------------------------------------------------

    def _known(self, url: str) -> Verdict | None:
        return self.checker.known(url)

    def _start(self, fetches: Iterable[RobotsFetch]) -> list[asyncio.Task[None]]:
        started = []
        for fetch in fetches:
            task = asyncio.get_running_loop().create_task(self._robots(fetch))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            started.append(task)
        return started

    async def _robots(self, fetch: RobotsFetch) -> None:
        verdict: Verdict | None = None
        try:
            verdict = await self.checker.check(fetch.entry.url)
        except asyncio.CancelledError:
            raise
        except Exception as error:  # an answer robotkit does not classify: held, logged
            log.warning("robots.txt of %s: %s", fetch.entry.host, error)
        finally:
            self.core.robots_done(fetch, verdict)

    async def close(self) -> None:
        if self.registry is not None:
            with contextlib.suppress(UnavailableError):
                self.registry.leave(self.node)
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.checker.aclose()
        await self.transport.aclose()

    # -- the two main RPCs ---------------------------------------------------------------

    async def GetURLs(self, request: pb.GetParams, context: Any) -> AsyncIterator[pb.URLInfo]:
        crawls = None if request.WhichOneof("item") == "anyCrawlID" else [request.crawlID]

        def take() -> list[URLRecord]:
            taken = self.core.take(
                self._known,
                crawls,
                max_queues=request.max_queues,
                max_per_queue=request.max_urls_per_queue,
                key=request.key,
                lease=float(request.delay_requestable),
            )
            pending.extend(self._start(taken.fetches))
            return taken.handed

        pending: list[asyncio.Task[None]] = []
        handed = take()
        if not handed and pending:
            await asyncio.wait(pending, timeout=ROBOTS_WAIT)
            handed = take()
        for record in handed:
            yield _record_info(record, record.queue.crawl)

    async def PutURLs(
        self, request_iterator: AsyncIterator[pb.URLItem], context: Any
    ) -> AsyncIterator[pb.AckMessage]:
        try:
            async for item in request_iterator:
                yield pb.AckMessage(ID=item.ID or _url_of(item), status=_ACK[self._put(item)])
        except asyncio.CancelledError:
            raise
        except grpc.RpcError:
            log.info("a PutURLs stream was cut; the URLs before the cut are kept")

    def _put(self, item: pb.URLItem) -> Ack:
        which = item.WhichOneof("item")
        if which == "discovered":
            info = item.discovered.info
            return self.core.put(info.crawlID, _incoming(info))
        if which == "known":
            info = item.known.info
            incoming = _incoming(info, known=True, refetch=item.known.refetchable_from_date)
            return self.core.put(info.crawlID, incoming)
        return Ack.SKIPPED  # neither: nothing to take

    async def PutDiscovered(
        self, request_iterator: AsyncIterator[pb.DiscoveredBatch], context: Any
    ) -> AsyncIterator[pb.BatchAck]:
        try:
            async for batch in request_iterator:
                statuses = [
                    _ACK[self.core.put(info.crawlID, _incoming(info))] for info in batch.items
                ]
                yield pb.BatchAck(ID=batch.ID, statuses=statuses)
        except asyncio.CancelledError:
            raise
        except grpc.RpcError:
            log.info("a PutDiscovered stream was cut; the batches before the cut are kept")

    # -- crawls, queues and settings -----------------------------------------------------

    async def ListNodes(self, request: pb.Empty, context: Any) -> pb.StringList:
        if self.registry is None:
            return pb.StringList(values=[self.node])
        try:
            return pb.StringList(values=self.registry.nodes())
        except UnavailableError as error:
            await context.abort(grpc.StatusCode.UNAVAILABLE, str(error))
            raise  # abort raises; this line is for the type checker

    async def ListCrawls(self, request: pb.Local, context: Any) -> pb.StringList:
        return pb.StringList(values=sorted(self.core.crawls))

    async def DeleteCrawl(self, request: pb.DeleteCrawlMessage, context: Any) -> pb.Long:
        return pb.Long(value=self.core.delete_crawl(request.value))

    async def ListQueues(self, request: pb.Pagination, context: Any) -> pb.QueueList:
        name = crawl_id(request.crawlID)
        crawl = self.core.crawls.get(name)
        now = self.core.clock()
        keys: list[str] = []
        if crawl is not None:
            keys = sorted(
                q.key
                for q in crawl.queues.values()
                if request.include_inactive or (q.active and q.blocked_until <= now)
            )
        size = request.size or 100
        page = keys[request.start : request.start + size]
        return pb.QueueList(
            values=page, total=len(keys), start=request.start, size=len(page), crawlID=name
        )

    async def GetStats(self, request: pb.QueueWithinCrawlParams, context: Any) -> pb.Stats:
        name = crawl_id(request.crawlID)
        crawl = self.core.crawls.get(name)
        stats = pb.Stats(crawlID=name)
        if crawl is None:
            return stats
        queues = [q for q in crawl.queues.values() if not request.key or q.key == request.key]
        stats.size = sum(q.queued for q in queues)
        stats.inProcess = sum(q.in_flight for q in queues)
        stats.numberOfQueues = len(queues)
        stats.counts["completed"] = sum(q.done for q in queues)
        stats.counts["active_queues"] = sum(q.active for q in queues)
        if not request.key:
            stats.counts["refused"] = len(crawl.refused)
            stats.counts["duplicate_content"] = crawl.copies
            stats.counts["robots_fetches"] = self.checker.fetches
        return stats

    async def DeleteQueue(self, request: pb.QueueWithinCrawlParams, context: Any) -> pb.Long:
        return pb.Long(value=self.core.delete_queue(request.crawlID, request.key))

    async def BlockQueueUntil(self, request: pb.BlockQueueParams, context: Any) -> pb.Empty:
        self.core.block(request.crawlID, request.key, float(request.time))
        return pb.Empty()

    async def SetActive(self, request: pb.Active, context: Any) -> pb.Empty:
        self.core.active = request.state
        return pb.Empty()

    async def GetActive(self, request: pb.Local, context: Any) -> pb.Boolean:
        return pb.Boolean(state=self.core.active)

    async def SetDelay(self, request: pb.QueueDelayParams, context: Any) -> pb.Empty:
        self.core.set_delay(request.crawlID, request.key, float(request.delay_requestable))
        return pb.Empty()

    async def SetLogLevel(self, request: pb.LogLevelParams, context: Any) -> pb.Empty:
        level = pb.LogLevelParams.Level.Name(request.level)
        python_level = {"TRACE": "DEBUG", "WARN": "WARNING"}.get(level, level)
        logging.getLogger(request.package or "robotkit").setLevel(python_level)
        return pb.Empty()

    async def SetCrawlLimit(self, request: pb.CrawlLimitParams, context: Any) -> pb.Empty:
        self.core.set_limit(request.crawlID, request.key, request.limit)
        return pb.Empty()

    # -- URLs ------------------------------------------------------------------------------

    async def GetURLStatus(self, request: pb.URLStatusRequest, context: Any) -> pb.URLItem:
        name = crawl_id(request.crawlID)
        record = self.core.status(name, request.url)
        if record is None or (request.key and record.queue.key != request.key):
            await context.abort(
                grpc.StatusCode.NOT_FOUND, f"{request.url!r} is not in crawl {name}"
            )
        assert record is not None
        return _status_item(record, name)

    async def ListURLs(self, request: pb.ListUrlParams, context: Any) -> AsyncIterator[pb.URLItem]:
        name = crawl_id(request.crawlID)
        text = request.filter if request.HasField("filter") else None
        size = request.size or 100
        records = self.core.records(name, request.key, text, request.ignoreCase)
        for index, record in enumerate(records):
            if index >= request.start + size:
                break
            if index >= request.start:
                yield _status_item(record, name)

    async def CountURLs(self, request: pb.CountUrlParams, context: Any) -> pb.Long:
        text = request.filter if request.HasField("filter") else None
        records = self.core.records(request.crawlID, request.key, text, request.ignoreCase)
        return pb.Long(value=sum(1 for _ in records))

    async def PurgeURLs(self, request: pb.PurgeUrlParams, context: Any) -> pb.Long:
        return pb.Long(value=self.core.purge(request.crawlID, request.key, request.days))


def _url_of(item: pb.URLItem) -> str:
    which = item.WhichOneof("item")
    if which == "discovered":
        return str(item.discovered.info.url)
    if which == "known":
        return str(item.known.info.url)
    return ""


def _incoming(info: pb.URLInfo, known: bool = False, refetch: int = 0) -> Incoming:
    metadata = {name: list(values.values) for name, values in info.metadata.items()}
    return Incoming(info.url, info.key, metadata, known, refetch)


async def serve(server: FrontierServer, host: str, port: int) -> tuple[grpc.aio.Server, int]:
    """Start a gRPC server for ``server`` on ``host:port`` (0: any free port); returns
    it and the port it listens on. Raises :class:`UsageError` if it cannot listen."""
    grpc_server = grpc.aio.server()
    _add_servicer(server, grpc_server)
    address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    try:
        bound = grpc_server.add_insecure_port(address)
    except RuntimeError as error:
        raise UsageError(f"cannot listen on {address}: {error}") from None
    if not bound:
        raise UsageError(f"cannot listen on {address}")
    await grpc_server.start()
    return grpc_server, bound


@contextlib.asynccontextmanager
async def running(
    server: FrontierServer, host: str = "127.0.0.1", port: int = 0
) -> AsyncIterator[int]:
    """Serve for the duration of an ``async with``; yields the port."""
    grpc_server, bound = await serve(server, host, port)
    shown = f"[{host}]" if ":" in host else host
    server.started(f"{shown}:{bound}")
    try:
        yield bound
    finally:
        await grpc_server.stop(grace=None)
        await server.close()


class RunningService:
    """A service node served by its own event loop in a background thread (tests,
    benchmarks, and programs that are not asyncio): :attr:`port`, :meth:`call` to run
    a function on the loop (the core is the loop's alone), :meth:`stop`."""

    def __init__(self, server: FrontierServer, host: str = "127.0.0.1", port: int = 0) -> None:
        self.server = server
        self.host = host
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._stopping: asyncio.Event | None = None
        self._error: BaseException | None = None
        self.port = 0
        self._thread = threading.Thread(
            target=self._run, args=(host, port), name="robotkit-frontier", daemon=True
        )
        self._thread.start()
        self._ready.wait()
        if self._error is not None:
            raise self._error

    @property
    def address(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"

    def _run(self, host: str, port: int) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_until_complete(self._main(host, port))
        self._loop.close()

    async def _main(self, host: str, port: int) -> None:
        self._stopping = asyncio.Event()
        try:
            async with running(self.server, host, port) as bound:
                self.port = bound
                self._ready.set()
                await self._stopping.wait()
        except BaseException as error:
            self._error = error
            self._ready.set()

    def call(self, function: Callable[[], _T]) -> _T:
        """Run ``function`` on the service's loop and return its result."""

        async def run() -> _T:
            return function()

        return asyncio.run_coroutine_threadsafe(run(), self._loop).result()

    def stop(self) -> None:
        if self._stopping is not None and self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._stopping.set)
        self._thread.join()

    def __enter__(self) -> RunningService:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
