"""What the frontier holds and the changes it reports, as typed records.

A :class:`FrontierEntry` is a URL waiting in the frontier; a :class:`FrontierSnapshot`
(one :class:`HostRecord` per host) is everything it holds, as a checkpoint keeps it.
Every change the frontier makes is announced as one of the records below, named for
what happened (in the way h11 names the events of an HTTP connection): a subscriber
(:mod:`robotkit.frontier.store`) writes them down, and
:meth:`robotkit.frontier.frontier.Frontier.apply` replays them through the same operations
that made them. Refusals (duplicates, too deep) change nothing and are not reported.
The records are values, never changed once made; they are not frozen only because a
frozen dataclass costs three times as much to build, and a journaled crawl builds
three per URL. Pure data: no I/O, no clock.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from robotkit.base.reasons import Reason
from robotkit.frontier.seen import SeenSnapshot
from robotkit.url.parse import Origin

__all__ = [
    "BudgetSet",
    "Demoted",
    "Done",
    "FrontierEntry",
    "FrontierEvent",
    "FrontierHeader",
    "FrontierSnapshot",
    "HostRecord",
    "Parked",
    "Queued",
    "Released",
    "Requeued",
    "Taken",
    "Tallied",
    "Tier",
]


class Tier(int, Enum):
    """Which queue a URL waits in: links of novel pages, or demoted links, served
    only when no main-tier URL is queued or in flight."""

    MAIN = 0
    DEMOTED = 1


@dataclass(slots=True, unsafe_hash=True)
class FrontierEntry:
    """A URL waiting to be fetched: the URL as found, its de-duplication key, how
    many links away from a seed it is, the page that linked it, its origin, and
    its tier. A value like the records below, and not frozen for the same reason:
    the frontier builds one per URL admitted (a frozen one cost 0.5 µs more)."""

    url: str
    key: str
    depth: int
    referer: str | None
    host: Origin
    tier: Tier = Tier.MAIN


@dataclass(slots=True)
class Queued:
    """A new URL was admitted: queued, or parked behind a budget or a parked host."""

    entry: FrontierEntry


@dataclass(slots=True)
class Taken:
    """:meth:`~robotkit.frontier.frontier.Frontier.next` handed the URL ``key`` out."""

    host: Origin
    key: str


@dataclass(slots=True)
class Done:
    """The URL ``key`` was fetched or given up; its host held until ``hold``."""

    host: Origin
    key: str
    hold: float | None = None


@dataclass(slots=True)
class Requeued:
    """The URL ``key`` went back to the head of its queue, its host held until
    ``hold`` (a deferral, a Retry-After)."""

    host: Origin
    key: str
    hold: float | None = None


@dataclass(slots=True)
class Demoted:
    """The URL ``key``, in flight, moved to the back of the demoted tier."""

    host: Origin
    key: str


@dataclass(slots=True)
class BudgetSet:
    """The URL budget of one host (``host``) or the default (``host`` None) changed."""

    budget: int | None
    host: Origin | None = None


@dataclass(slots=True)
class Parked:
    """Every queued and future URL of ``host`` is held back with ``reason``."""

    host: Origin
    reason: Reason


@dataclass(slots=True)
class Released:
    """``host`` is no longer parked."""

    host: Origin


@dataclass(slots=True)
class Tallied:
    """The owner's counter ``name`` grew by ``n``."""

    name: str
    n: int = 1


@dataclass(frozen=True, slots=True)
class HostRecord:
    """One host in a snapshot: its hold, counts, parking, budget override, queued
    URLs in service order (the one in flight at the head of its queue, or first of
    the parked if its host was parked), parked URLs, and the key in flight."""

    origin: Origin
    hold: float
    admitted: int
    done: int
    park_reason: Reason | None
    budget: int | None
    queued: list[FrontierEntry]
    parked: list[FrontierEntry]
    busy: str | None


@dataclass(frozen=True)
class FrontierHeader:
    """A frontier's own figures, stored with each checkpoint."""

    generation: int
    tallies: dict[str, int]
    max_depth: int | None
    host_budget: int | None
    done: int
    rejected: dict[Reason, int]


@dataclass(frozen=True)
class FrontierSnapshot(FrontierHeader):
    """Everything a frontier holds. ``hosts`` may be produced lazily, one at a time."""

    seen: SeenSnapshot
    host_count: int
    entry_count: int
    hosts: Iterable[HostRecord]


FrontierEvent = Queued | Taken | Done | Requeued | Demoted | BudgetSet | Parked | Released | Tallied
