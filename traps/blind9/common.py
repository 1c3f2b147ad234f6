"""Helpers shared by the blind9 sites, on top of `traps.blind6.common.Hosted`: legit pages
registered together with the function that renders them, and deterministic fresh tokens."""

from __future__ import annotations

from collections.abc import Callable

from traps.blind.kit import Reply, Req, not_found
from traps.blind6.common import Hosted

Render = Callable[[Req], str]


class Pages(Hosted):
    """`Hosted` whose legit pages are added with a renderer: a request for a registered
    (host, target) is answered by it; any other request goes to `rest()`."""

    def build(self) -> None:
        self.pages: dict[tuple[int, str], Render] = {}
        super().build()

    def add(self, pid: str, target: str, fn: Render, host: int = 0) -> str:
        self.reg(pid, target, host)
        self.pages[(host, target)] = fn
        return target

    def handle(self, req: Req) -> Reply:
        fn = self.pages.get((req.host_index, req.target))
        if fn is not None:
            return self.serve(req, fn(req))
        return self.rest(req)

    def rest(self, req: Req) -> Reply:
        """Requests that are not a legit page's canonical target."""
        return not_found()

    def fresh(self, n: int, alphabet: str = "0123456789abcdef") -> str:
        """A token minted for this response (deterministic: seed and request counter)."""
        return self.token(n, alphabet)
