"""Serving a trap site: on a loopback address only, in a thread of this process,
with every request the server saw kept for scoring (:class:`RunningSite`)."""

from __future__ import annotations

import ipaddress
import logging
import re
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Protocol, runtime_checkable
from urllib.parse import urlsplit

from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from robotkit.base.errors import UnavailableError
from robotkit.traps.base import (
    Page,
    RequestContext,
    Score,
    SeenRequest,
    TrapSite,
    request_target,
    target_of,
)

_ANY_PATH = re.compile(".*")

SERVER_POLL_SECONDS = 0.05
"""How often a server thread checks for shutdown: werkzeug's default of 0.5 s would
make every stopped site cost half a second."""


class _SiteServer(HTTPServer):
    """pytest-httpserver's server, threaded (a drip response must not block the
    site), quick to stop, and without its unbounded request log."""

    def __init__(self, host: str, port: int) -> None:
        super().__init__(host=host, port=port, threaded=True)

    def thread_target(self) -> None:
        assert self.server is not None
        self.server.serve_forever(poll_interval=SERVER_POLL_SECONDS)

    def application(self, request: Request) -> Response:
        request.get_data()  # drain a request body, as the parent class does
        response: Response = self.dispatch(request)
        return response


class SiteError(UnavailableError):
    """A site cannot be served as asked (address not loopback, port taken)."""


def check_loopback(host: str) -> str:
    """Trap sites are hostile on purpose: they only ever listen on loopback."""
    if host == "localhost":
        return "127.0.0.1"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        raise SiteError(f"not an IP address: {host!r}") from None
    if not address.is_loopback:
        raise SiteError(f"trap sites listen on loopback addresses only, not {host}")
    return host


def _port_free(host: str, port: int) -> bool:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def _quiet_werkzeug() -> None:
    """werkzeug logs every request at INFO to stderr unless told otherwise; a crawl
    makes thousands. Leave the level alone if the application set one."""
    logger = logging.getLogger("werkzeug")
    if logger.level == logging.NOTSET:
        logger.setLevel(logging.WARNING)


def _base_url(host: str, port: int) -> str:
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


@dataclass
class RunningSite:
    """A site being served: its URLs, what the server saw, and the score of a crawl."""

    site: TrapSite
    base_urls: tuple[str, ...]
    requests_seen: deque[SeenRequest]
    stopping: threading.Event = field(default_factory=threading.Event)
    errors: list[BaseException] = field(default_factory=list)
    on_request: Callable[[SeenRequest, int], None] | None = None
    """Called after each answer with the request and the status (for a live log)."""
    _servers: list[_SiteServer] = field(default_factory=list, repr=False)

    @property
    def base_url(self) -> str:
        """The main host, e.g. ``http://127.0.0.1:8765``."""
        return self.base_urls[0]

    @property
    def start_url(self) -> str:
        """The seed a crawl starts from (the first of :attr:`seed_urls`)."""
        return self.url(self.site.start_path)

    @property
    def seed_urls(self) -> list[str]:
        """Every seed a crawl of the whole site needs, one per host to be crawled."""
        return [self.url(target, host) for host, target in self.site.seed_paths]

    def url(self, target: str = "/", host: int = 0) -> str:
        return self.base_urls[host] + target

    def legitimate_urls(self) -> list[str]:
        """Absolute URLs of the legitimate part, on every host, sorted."""
        pairs = [(0, t) for t in self.site.legitimate_pages]
        pairs += self.site.legitimate_elsewhere
        return sorted(self.url(target, host) for host, target in pairs)

    def host_of(self, url: str) -> int | None:
        """Index of the site host a URL points at, or None when it is elsewhere."""
        parts = urlsplit(url)
        origin = f"{parts.scheme}://{parts.netloc}".lower()
        for index, base in enumerate(self.base_urls):
            if base.lower() == origin:
                return index
        return None

    def classify(self, url: str) -> Page | None:
        """Classify an absolute URL; None when it is not on this site."""
        host = self.host_of(url)
        return None if host is None else self.site.classify(target_of(url), host)

    def score(self, fetched_urls: Iterable[str] | None = None) -> Score:
        """Score a crawl from the URLs it fetched, in order; by default from the
        requests the server saw, which no crawler can misreport."""
        if fetched_urls is None:
            pairs = [(r.host, r.target) for r in list(self.requests_seen)]
            return self.site.score(pairs)
        pairs = []
        off_site = 0
        for url in fetched_urls:
            host = self.host_of(url)
            if host is None:
                off_site += 1
            else:
                pairs.append((host, target_of(url)))
        return replace(self.site.score(pairs), off_site=off_site)

    def settle(self) -> None:
        """Make :attr:`requests_seen` hold every request the server answered. The
        in-process server records a request before it answers, so there is nothing
        to wait for; a real server's log is complete once it has stopped, so there
        this stops the server (call it when the crawl is over, before scoring)."""

    def check(self) -> None:
        """Raise the first error a handler hit (a bug in the site, not the crawler)."""
        if self.errors:
            raise self.errors[0]

    def _app(self, host: int) -> Callable[[Request], Response]:
        ctx = RequestContext(host=host, base_urls=self.base_urls, stopping=self.stopping)

        def app(request: Request) -> Response:
            seen = SeenRequest(
                host=host,
                method=request.method,
                target=request_target(request),
                headers=dict(request.headers.items()),
                time=time.time(),
            )
            self.requests_seen.append(seen)
            try:
                response = self.site.handle(request, ctx)
            except Exception as exc:  # a site bug: answer 500, report at check()
                self.errors.append(exc)
                response = Response("internal error in trap site\n", 500, mimetype="text/plain")
            if self.on_request is not None:
                self.on_request(seen, response.status_code)
            return response

        return app

    def stop(self) -> None:
        """Stop every host at once (in parallel: each stop waits for a poll)."""
        self.stopping.set()
        threads = [threading.Thread(target=s.stop) for s in self._servers if s.is_running()]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()


@runtime_checkable
class ServesItself(Protocol):
    """A site with a server of its own (a real Apache httpd, :mod:`robotkit.traps.real`)
    instead of a handler served in this process by :func:`start`."""

    def start_server(self, host: str, port: int, log_limit: int | None) -> RunningSite:
        """Start the site's server and return it running."""
        ...


def start(
    site: TrapSite, host: str = "127.0.0.1", port: int = 0, log_limit: int | None = None
) -> RunningSite:
    """Serve ``site`` on ``host`` (and its extra hosts) and return at once; call
    :meth:`RunningSite.stop` when done. Extra hosts get the same port when it is
    free there, so URLs differ only by address."""
    if isinstance(site, ServesItself):
        return site.start_server(host, port, log_limit)
    addresses = [check_loopback(host)] + [check_loopback(h) for h in site.extra_hosts]
    if len(set(addresses)) != len(addresses):
        raise SiteError(f"{site.name} needs distinct hosts, got {', '.join(addresses)}")
    if port and not _port_free(addresses[0], port):
        raise SiteError(f"port {port} is not free on {addresses[0]}")
    _quiet_werkzeug()
    servers: list[_SiteServer] = []
    try:
        for address in addresses:
            wanted = servers[0].port if servers else port
            if not _port_free(address, wanted):
                wanted = 0
            server = _SiteServer(address, wanted)
            server.start()
            servers.append(server)
    except BaseException:
        for server in servers:
            server.stop()
        raise
    running = RunningSite(
        site=site,
        base_urls=tuple(_base_url(s.host, s.port) for s in servers),
        requests_seen=deque(maxlen=log_limit),
        _servers=servers,
    )
    for index, server in enumerate(servers):
        server.expect_request(_ANY_PATH).respond_with_handler(running._app(index))
    return running


@contextmanager
def serve(site: TrapSite, host: str = "127.0.0.1", port: int = 0) -> Iterator[RunningSite]:
    """Serve ``site`` for the duration of a ``with`` block."""
    running = start(site, host, port)
    try:
        yield running
    finally:
        running.stop()
