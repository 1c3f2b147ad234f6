"""What the transport tests share: the robot, a robots.txt that allows all, and
servers that record when they answered or drip their body."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from robotkit.base.identity import Identity

BOT = Identity.build("ExampleBot", "1.0", "https://example.org/bot", from_="bot@example.org")
ALLOW_ALL = "User-agent: *\nDisallow:\n"

Events = list[tuple[str, str, float, float]]


def timed(server: HTTPServer, events: Events, path: str, respond: Callable[[], Response]) -> None:
    """Serve ``path``, recording (host, path, start, end) as the server saw them."""

    def handler(request: Request) -> Response:
        start = time.monotonic()
        response = respond()
        events.append((server.host, request.path, start, time.monotonic()))
        return response

    server.expect_request(path).respond_with_handler(handler)


def paths(server: HTTPServer) -> list[str]:
    return [request.path for request, _ in server.log]


class Drip:
    """A tarpit: one byte every 50 ms for 5 s. ``finished`` is set only if the
    server got to send its last byte, i.e. the client did not cut it off."""

    def __init__(self) -> None:
        self.finished = False

    def __call__(self, request: Request) -> Response:
        def body() -> Iterator[bytes]:
            for _ in range(100):
                time.sleep(0.05)
                yield b"."
            self.finished = True

        return Response(body(), content_type="text/plain")


MADE_UP = "robots.made-up.test"
"""A name no real resolver knows: only a custom resolver can give it an address."""
