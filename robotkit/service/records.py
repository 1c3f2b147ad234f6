"""What the service knows of each URL: its record, its state, the queue it belongs
to, and the protocol's words for them (the crawl id, the acknowledgement of a put).

A record is created by PutURLs (:mod:`~robotkit.service.intake`), moved between
states by the hand-out and the reports (:mod:`~robotkit.service.handout`), and read,
counted and forgotten by :mod:`~robotkit.service.inventory`. The protocol's queue
is a set of hosts: its key is the client's, or by default the host (``host`` or
``host:port``); politeness is per host whatever the key.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from robotkit.base.reasons import CodeEnum, Reason
from robotkit.frontier.frontier import FrontierEntry
from robotkit.pacing.pacer import Ticket
from robotkit.url.parse import Origin

__all__ = [
    "DEFAULT_CRAWL",
    "Ack",
    "Incoming",
    "Queue",
    "URLRecord",
    "URLState",
    "crawl_id",
    "default_key",
    "frozen",
]

DEFAULT_CRAWL = "DEFAULT"
"""The crawl of an empty crawl id, as the protocol says."""


def crawl_id(value: str) -> str:
    """The protocol's crawl id: an empty or blank one is ``DEFAULT``."""
    return value if value.strip() else DEFAULT_CRAWL


class Ack(CodeEnum):
    """The answer to one URL of PutURLs (the protocol's ``AckMessage.Status``)."""

    OK = "ok"
    SKIPPED = "skipped"
    """Refused for good: do not send it again (invalid, a trap shape, blacklisted)."""
    FAIL = "fail"
    """Not taken now (unknown crawl on a stopping service...): may be sent again."""


class URLState(CodeEnum):
    QUEUED = "queued"
    IN_FLIGHT = "in-flight"
    WAITING = "waiting"  # a refetch date in the future
    DONE = "done"
    REFUSED = "refused"


@dataclass(frozen=True, slots=True)
class Incoming:
    """One URL of PutURLs: discovered (``known`` False) or a fetch reported back."""

    url: str
    queue_key: str = ""
    metadata: Mapping[str, Sequence[str]] = field(default_factory=dict)
    known: bool = False
    refetch_from: int = 0


@dataclass(eq=False, slots=True)
class Queue:
    """A queue of one crawl: its hosts, the client's settings and the counts."""

    key: str
    crawl: str
    origins: set[Origin] = field(default_factory=set)
    delay: float | None = None  # SetDelay; None: the service's default
    blocked_until: float = 0.0  # BlockQueueUntil
    limit: int | None = None  # SetCrawlLimit
    last_handout: float = -math.inf
    queued: int = 0  # queued and waiting
    in_flight: int = 0
    done: int = 0

    @property
    def active(self) -> bool:
        return self.queued + self.in_flight > 0

    def count(self, old: URLState | None, new: URLState | None) -> None:
        """One record of the queue moved from ``old`` to ``new`` (None: from or to
        nowhere)."""
        if old is URLState.QUEUED or old is URLState.WAITING:
            self.queued -= 1
        elif old is URLState.IN_FLIGHT:
            self.in_flight -= 1
        elif old is URLState.DONE:
            self.done -= 1
        if new is URLState.QUEUED or new is URLState.WAITING:
            self.queued += 1
        elif new is URLState.IN_FLIGHT:
            self.in_flight += 1
        elif new is URLState.DONE:
            self.done += 1


@dataclass(eq=False, slots=True)
class URLRecord:
    """What the service knows of one URL of a crawl."""

    url: str  # as the client gave it: what is handed out
    key: str  # the de-duplication key
    queue: Queue
    origin: Origin | None
    created: int
    metadata: dict[str, tuple[str, ...]]
    depth: int = 0
    state: URLState = URLState.QUEUED
    reason: Reason | None = None
    refetch_from: int = 0
    pending: int = 0  # entries of the frontier for this record (stale ones are skipped)
    entry: FrontierEntry | None = None  # while in flight
    ticket: Ticket | None = None  # while in flight
    gate_ticket: object | None = None  # while in flight, with a gate
    lease_until: float = 0.0
    copy: bool = False  # reported as an exact copy of another page


def default_key(origin: Origin) -> str:
    """A queue's default key: the host, with its port unless it is the scheme's."""
    host, port = origin.scope_key
    host = f"[{host}]" if ":" in host else host
    return host if port is None else f"{host}:{port}"


def frozen(metadata: Mapping[str, Sequence[str]]) -> dict[str, tuple[str, ...]]:
    """The client's metadata as the record keeps it (one shared empty dict)."""
    return {k: tuple(v) for k, v in metadata.items()} if metadata else _EMPTY


_EMPTY: dict[str, tuple[str, ...]] = {}
