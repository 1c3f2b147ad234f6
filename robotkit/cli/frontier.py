"""``robotkit frontier serve``: a URL Frontier service (gRPC, the crawler-commons API
v2) that is polite by itself (docs/frontier-service.md).

It runs until interrupted (SIGINT or SIGTERM), then stops cleanly with status 0. It
prints one line on stderr when it listens (``robotkit: frontier listening on
HOST:PORT``), so a script that asked for port 0 learns the port.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
from typing import Any

from robotkit.base.errors import RobotkitError
from robotkit.base.identity import Identity, IdentityError
from robotkit.cli import EXIT_USAGE, error, non_negative, positive
from robotkit.cli.check_url import add_identity_options
from robotkit.http.checker import RobotsOptions
from robotkit.robots.status import Profile
from robotkit.url.hosts import is_loopback_host

COMPACT_EVERY = 1.0
"""Seconds between two looks at whether the ``--state`` journal is due a compaction."""

__all__ = ["register"]


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "frontier",
        help="a polite URL Frontier service (gRPC) for crawlers in any language",
        description="Serve the URL Frontier API (crawler-commons, v2) over gRPC. URLs "
        "are normalized and screened at PutURLs; GetURLs hands a URL out only when "
        "robots.txt allows it and its host's delay has passed.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True
    serve = actions.add_parser(
        "serve",
        help="run the service until interrupted",
        description="Run the service until interrupted (exit status 0; 2 bad usage "
        "or an address that cannot be listened on).",
    )
    serve.add_argument(
        "--listen", required=True, metavar="HOST:PORT", help="address to serve gRPC on"
    )
    add_identity_options(serve)
    serve.add_argument(
        "--delay",
        type=non_negative,
        default=1.0,
        metavar="SECONDS",
        help="seconds from the end of a response to the next request to the host (default 1)",
    )
    serve.add_argument(
        "--lease",
        type=positive,
        default=30.0,
        metavar="SECONDS",
        help="how long a URL handed out stays out when GetURLs gives no "
        "delay_requestable (default 30)",
    )
    serve.add_argument(
        "--allow-private",
        action="store_true",
        help="fetch robots.txt from private and loopback addresses too (implied when "
        "--listen is a loopback address)",
    )
    serve.add_argument(
        "--state",
        metavar="DIR",
        help="keep the URLs here: every change journaled as it happens, read back at "
        "start, so a killed node loses none (docs/frontier-service.md says what is kept)",
    )
    serve.add_argument(
        "--redis",
        metavar="URL",
        help="share pacing, robots.txt and the node list with the other nodes started "
        "with the same Redis (the redis extra); ListNodes lists them",
    )
    parser.set_defaults(handler=run)
    serve.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from robotkit.service.server import FrontierServer, ServiceConfig, parse_listen

    try:
        host, port = parse_listen(args.listen)
        identity = Identity(user_agent=args.user_agent, from_=args.from_)
    except (IdentityError, RobotkitError) as exc:
        error(str(exc))
        return EXIT_USAGE
    config = ServiceConfig(
        identity=identity,
        robots=RobotsOptions(profile=Profile(args.profile), min_ttl=args.robots_min_ttl),
        delay=args.delay,
        lease=args.lease,
        # A service on loopback serves this machine's crawlers only: they may crawl
        # this machine's sites, as `robotkit crawl` may a loopback seed.
        allow_private=args.allow_private or is_loopback_host(host),
    )
    shared = None
    try:
        if args.redis:
            from robotkit.service.shared import NAMESPACE
            from robotkit.shared import SharedState

            shared = SharedState.connect(args.redis, NAMESPACE)
        server = FrontierServer(config, shared=shared)
        kept = None
        if args.state:
            from robotkit.service.state import NodeState

            kept = NodeState(args.state)
            kept.open(server.core)
        code = asyncio.run(_serve(server, host, port, kept))
        if kept is not None:
            kept.close(server.core)
        return code
    except (RobotkitError, OSError) as exc:
        error(str(exc))
        return EXIT_USAGE
    except ModuleNotFoundError as missing:
        if missing.name != "redis":
            raise
        error("--redis needs the redis extra: pip install 'robotkit[redis]'")
        return EXIT_USAGE
    finally:
        if shared is not None:
            shared.close()


async def _serve(server: Any, host: str, port: int, kept: Any = None) -> int:
    from robotkit.service.server import running

    stop = asyncio.Event()
    if kept is not None:
        compacting = asyncio.create_task(_compact(kept, server.core, stop))
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    async with running(server, host, port) as bound:
        shown = f"[{host}]" if ":" in host else host
        print(f"robotkit: frontier listening on {shown}:{bound}", file=sys.stderr, flush=True)
        await stop.wait()
    if kept is not None:
        await compacting
    return 0


async def _compact(kept: Any, core: Any, stop: asyncio.Event) -> None:
    """Compact the ``--state`` journal once a second when it is due, on the event
    loop that runs every RPC (the core is never read while it changes)."""
    while not stop.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=COMPACT_EVERY)
        if not stop.is_set():
            kept.compact_if_due(core)
