"""Helpers shared by the blind5 sites (on top of `traps.blind.kit` and
`traps.blind2.common`): a site base class whose legit pages are declared by their
canonical request target."""

from __future__ import annotations

from traps.blind.kit import Reply, Req, Site
from traps.blind2.common import trap


class Canon(Site):
    """A site whose legit pages are registered by exact request target: a page fetched
    at its registered target is legit, the same content at any other target is a trap."""

    def build(self) -> None:
        self.canon: dict[str, str] = {}
        self.setup()

    def setup(self) -> None:
        raise NotImplementedError

    def reg(self, pid: str, target: str) -> str:
        """Declare `target` as the canonical URL of legit page `pid`; returns target."""
        assert target not in self.canon or self.canon[target] == pid, target
        self.canon[target] = pid
        self.legit.add(pid)
        return target

    def serve(self, req: Req, body: str) -> Reply:
        """Legit if the request is a registered canonical target, else a trap."""
        pid = self.canon.get(req.target)
        return self.legit_page(pid, body) if pid else trap(body)
