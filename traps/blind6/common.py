"""Helpers shared by the blind6 sites, on top of `traps.blind5.common.Canon`: legit pages
declared by their exact canonical request target on a given host, and a query parser that
also splits on ';' (as Foswiki and gitweb write their links)."""

from __future__ import annotations

import re
from urllib.parse import quote, unquote_plus

from traps.blind.kit import Reply, Req
from traps.blind2.common import trap
from traps.blind5.common import Canon


class Hosted(Canon):
    """`Canon` with per-host targets: page `pid` is legit only at `target` on host `host`;
    the same content on another host or at another target is a trap."""

    def reg(self, pid: str, target: str, host: int = 0) -> str:
        super().reg(pid, f"{host}|{target}")
        return target

    def pid_of(self, req: Req) -> str | None:
        return self.canon.get(f"{req.host_index}|{req.target}")

    def serve(self, req: Req, body: str) -> Reply:
        pid = self.pid_of(req)
        return self.legit_page(pid, body) if pid else trap(body)

    def url(self, host: int, target: str) -> str:
        """An absolute link to `target` on host `host`."""
        return self.bases[host] + target


def params(query: str) -> dict[str, str]:
    """The query as a dict, split on '&' and ';' (last value wins)."""
    out: dict[str, str] = {}
    for part in re.split(r"[&;]", query):
        if part:
            k, _, v = part.partition("=")
            out[unquote_plus(k)] = unquote_plus(v)
    return out


def enc(s: str) -> str:
    """Percent-encode a value for a query string."""
    return quote(s, safe="")


def pairs(spec: str) -> list[tuple[str, str]]:
    """Links written compactly: 'href label words | href label | ...'."""
    out = []
    for item in spec.split(" | "):
        href, _, label = item.strip().partition(" ")
        out.append((href, label))
    return out
