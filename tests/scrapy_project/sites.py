"""Small pytest-httpserver sites whose every request is logged with its arrival
time, for server-side assertions on what a Scrapy crawl sent."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

RobotsAnswer = Callable[[int], Response]
"""The robots.txt answer to the n-th robots.txt request (0 first)."""


@dataclass(frozen=True)
class Seen:
    path: str
    time: float
    headers: dict[str, str]


@dataclass
class PageSite:
    """``/`` links ``/p0`` ... ``/p{n-1}`` and ``/private/x``; robots.txt answers
    as ``robots`` says."""

    server: HTTPServer
    robots: RobotsAnswer
    pages: int = 4
    first: dict[str, Response] = field(default_factory=dict)
    """A page's first answer, when it is not the page (a 503 with Retry-After)."""
    seen: list[Seen] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.server.expect_request("/robots.txt").respond_with_handler(self._robots)
        self.server.no_handler_status_code = 404
        self.server.expect_request("/").respond_with_handler(self._page)
        self.server.expect_request("/private/x").respond_with_handler(self._page)
        for i in range(self.pages):
            self.server.expect_request(f"/p{i}").respond_with_handler(self._page)

    @property
    def url(self) -> str:
        return self.server.url_for("/")

    def page_paths(self) -> list[str]:
        return [s.path for s in self.seen if s.path != "/robots.txt"]

    def times(self, path: str | None = None) -> list[float]:
        return [s.time for s in self.seen if path is None or s.path == path]

    def _log(self, request: Request) -> None:
        self.seen.append(Seen(request.path, time.time(), dict(request.headers.items())))

    def _robots(self, request: Request) -> Response:
        self._log(request)
        return self.robots(sum(s.path == "/robots.txt" for s in self.seen) - 1)

    def _page(self, request: Request) -> Response:
        self._log(request)
        first = self.first.pop(request.path, None)
        if first is not None:
            return first
        links = "".join(f'<a href="/p{i}">p{i}</a> ' for i in range(self.pages))
        # The host in the text: five sites of their own, not twins of one site (which
        # the crawl would learn and fetch once).
        text = f"{request.host} {request.path}"
        body = f"<html><body><p>{text}</p>{links}<a href='/private/x'>x</a></body></html>"
        return Response(body, content_type="text/html")


def robots_text(text: str, status: int = 200, **headers: str) -> RobotsAnswer:
    """Always the same answer."""
    return lambda n: Response(text, status, headers, content_type="text/plain")


def robots_then(first: Response, then: RobotsAnswer) -> RobotsAnswer:
    """``first`` for the first request, ``then`` afterwards."""
    return lambda n: first if n == 0 else then(n)


DETOUR_LINKS: dict[str, list[str]] = {
    "/": ["/moved", "/missing", "/huge", "/dropped", "/raises", "/after"],
    "/target": ["/p0", "/p1"],
    "/dropped": ["/p3"],
    "/raises": ["/p4"],
    "/after": [],
    "/p0": [],
    "/p1": [],
}


@dataclass
class DetourSite:
    """``/`` links one page for each way a response can miss the spider: a
    redirect (``/moved`` to ``/target``), a 404 (HttpErrorMiddleware), a body past
    ``DOWNLOAD_MAXSIZE`` (``/huge``), and the two pages the test components of
    ``detours.py`` drop; then ``/after``. ``/target`` links ``/p0`` and ``/p1``;
    the links of the pages no spider sees (``/p2`` to ``/p4``) are never
    followed. Anything else is a 404 (the soft-404 probes)."""

    server: HTTPServer
    huge: int = 200_000
    seen: list[Seen] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.server.expect_request(re.compile("/.*")).respond_with_handler(self._answer)

    @property
    def url(self) -> str:
        return self.server.url_for("/")

    def paths(self) -> list[str]:
        return [s.path for s in self.seen]

    def _answer(self, request: Request) -> Response:
        self.seen.append(Seen(request.path, time.time(), dict(request.headers.items())))
        path = request.path
        if path == "/robots.txt":
            return Response("User-agent: *\nAllow: /\n", content_type="text/plain")
        if path == "/moved":
            return Response("", 301, {"Location": "/target"})
        if path == "/missing":
            return Response(_links(["/p2"]), 404, content_type="text/html")
        if path == "/huge":
            return Response("x" * self.huge, content_type="text/html")
        if path in DETOUR_LINKS:
            return Response(_links(DETOUR_LINKS[path]), content_type="text/html")
        return Response("not found", 404, content_type="text/plain")


def _links(paths: list[str]) -> str:
    return "<html><body>" + "".join(f'<a href="{p}">{p}</a> ' for p in paths) + "</body></html>"
