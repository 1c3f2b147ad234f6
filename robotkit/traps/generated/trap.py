"""What every generated trap declares: its kind and drawn shape, the host it lives on,
the legitimate look-alike pages it brings, and how it answers and classifies.

A trap is drawn from the site's :class:`~robotkit.traps.generated.plan.Plan` (so its
paths never clash with the legitimate part) and places its entry link on a page of
its host. It answers the requests it owns and leaves the rest to the site.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import ClassVar

from werkzeug import Response

from robotkit.traps.base import RequestContext
from robotkit.traps.generated.plan import Plan

MAX_LEGIT = 6
"""At most this many legitimate pages per trap, so a site stays within 60 pages."""


class Trap(ABC):
    kind: ClassVar[str]
    """The trap's family, e.g. ``symlink-loop``; :attr:`shape` says how it was drawn."""
    catch_all: ClassVar[bool] = False
    """Answers every request nobody else claims on its host (a soft-404 site)."""

    def __init__(self, plan: Plan, host: int) -> None:
        self.seed = plan.seed
        self.host = host
        self.shape = ""
        self.legit: frozenset[str] = frozenset()
        """Targets on :attr:`host` that are legitimate pages this trap serves."""
        self.hops: frozenset[str] = frozenset()
        """Targets on :attr:`host` it answers that are neither page nor trap: the hops
        of a legitimate redirect."""

    @abstractmethod
    def respond(self, target: str, ctx: RequestContext) -> Response | None:
        """The answer to ``target`` on ``ctx.host``, or None when it is not ours."""

    @abstractmethod
    def is_trap(self, target: str, host: int) -> bool:
        """Whether ``target`` on ``host`` is a page of the trap."""

    def legit_key(self, target: str, host: int) -> str | None:
        """The legitimate page ``target`` is another URL of (session ids), if any."""
        return None

    def robots_lines(self, host: int) -> Sequence[str]:
        """robots.txt lines for ``host`` (after ``User-agent: *``)."""
        return ()

    def robots_forbids(self, target: str, host: int) -> bool:
        """Whether this trap's :meth:`robots_lines` forbid ``target`` on ``host``."""
        return False

    def describe(self) -> str:
        return f"{self.kind} ({self.shape})" if self.shape else self.kind
