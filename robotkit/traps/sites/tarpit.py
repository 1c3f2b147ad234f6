"""A tarpit: responses that drip, stall, or never stop growing.

What it is
    Pages that hold a crawler's connection: ``/slow`` sends its headers, then one
    byte every half second for hours; ``/stall`` sends nothing for a minute;
    ``/huge`` is a 10 MiB body with an honest ``Content-Length``, and
    ``/huge-chunked`` the same body streamed without one, so its size is known only
    by counting.

How it arises
    Deliberate tarpits against scrapers and spam bots (LaBrea, endlessh-style HTTP
    tarpits), overloaded servers, endless generated downloads, log files and dumps
    linked from a page.

How a naive crawler falls in
    A per-read timeout restarts with every byte, so a drip never times out; a
    client that buffers whole bodies reads 10 MiB (or fills its memory) before it
    looks at the size.

What catches it in robotkit
    ``response-timeout`` (a total deadline for the whole response, which a drip
    cannot stretch) and ``body-too-large`` (a size cap checked against
    ``Content-Length`` and again while streaming).

Legitimate part: the home page and four pages. Trap part: ``/slow``, ``/stall``,
``/huge`` and ``/huge-chunked``. Bodies are generated lazily, never held in memory,
and every long response ends when the site is stopped.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

from werkzeug import Request, Response

from robotkit.base.reasons import Reason
from robotkit.traps.base import RequestContext, TrapSite, article, not_found, request_target

PAGES = ("/about.html", "/menu.html", "/opening-hours.html", "/location.html")
LEGIT = frozenset(["/", *PAGES])
TRAPS = frozenset(["/slow", "/stall", "/huge", "/huge-chunked"])
CHUNK = 64 * 1024
_FILLER = (b"<p>" + b"tarpit " * 20 + b"</p>\n") * (CHUNK // 100)


def drip(stopping: threading.Event, interval: float, count: int) -> Iterator[bytes]:
    """One byte per ``interval`` seconds, ``count`` times, unless the site stops."""
    yield b"<!doctype html><html><body><p>"
    for _ in range(count):
        if stopping.wait(interval):
            return
        yield b"."


def body_of(size: int, stopping: threading.Event) -> Iterator[bytes]:
    """``size`` bytes in 64 KiB chunks, generated as they are sent."""
    sent = 0
    while sent < size and not stopping.is_set():
        chunk = _FILLER[: min(CHUNK, size - sent)]
        sent += len(chunk)
        yield chunk


class Tarpit(TrapSite):
    name = "tarpit"
    summary = "a slow drip (1 byte / 0.5 s), a stall, and 10 MiB bodies with and without length"
    caught_by = (Reason.RESPONSE_TIMEOUT, Reason.BODY_TOO_LARGE)

    def __init__(
        self,
        drip_interval: float = 0.5,
        drip_bytes: int = 100_000,
        stall_seconds: float = 60.0,
        huge_bytes: int = 10 * 1024 * 1024,
    ) -> None:
        self.drip_interval = drip_interval
        self.drip_bytes = drip_bytes
        self.stall_seconds = stall_seconds
        self.huge_bytes = huge_bytes

    legitimate_pages = LEGIT

    def is_trap(self, target: str, host: int = 0) -> bool:
        return target.split("?", 1)[0] in TRAPS

    def page(self, request: Request, ctx: RequestContext) -> Response:
        target = request_target(request)
        path = target.split("?", 1)[0]
        if target == "/":
            return article(self.name, "/", [*((p, p) for p in PAGES), *((t, t) for t in TRAPS)])
        if target in PAGES:
            return article(self.name, target)
        if path == "/slow":
            stream = drip(ctx.stopping, self.drip_interval, self.drip_bytes)
            return Response(stream, mimetype="text/html", direct_passthrough=True)
        if path == "/stall":
            ctx.stopping.wait(self.stall_seconds)
            return article(self.name, "/stall")
        if path in ("/huge", "/huge-chunked"):
            stream = body_of(self.huge_bytes, ctx.stopping)
            response = Response(stream, mimetype="text/html", direct_passthrough=True)
            if path == "/huge":
                response.headers["Content-Length"] = str(self.huge_bytes)
            return response
        return not_found()
