"""What the frontier answers: the outcome of an add, and its counts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from robotkit.base.reasons import CodeEnum, Reason

__all__ = ["DUPLICATE", "QUEUED", "TOO_DEEP", "AddOutcome", "AddResult", "FrontierStats"]


class AddOutcome(CodeEnum):
    """What :meth:`Frontier.add` did with a URL."""

    QUEUED = "queued"  # will be served by next()
    PARKED = "parked"  # kept, but held back (host budget, parked host)
    REJECTED = "rejected"  # not kept: duplicate, too deep, invalid


@dataclass(frozen=True, slots=True)
class AddResult:
    """The outcome of :meth:`Frontier.add` and, unless queued, the reason code."""

    outcome: AddOutcome
    reason: Reason | None = None

    @property
    def queued(self) -> bool:
        return self.outcome is AddOutcome.QUEUED

    @property
    def parked(self) -> bool:
        return self.outcome is AddOutcome.PARKED

    @property
    def rejected(self) -> bool:
        return self.outcome is AddOutcome.REJECTED


QUEUED: Final = AddResult(AddOutcome.QUEUED)
DUPLICATE: Final = AddResult(AddOutcome.REJECTED, Reason.DUPLICATE_URL)
TOO_DEEP: Final = AddResult(AddOutcome.REJECTED, Reason.DEPTH_LIMIT)


@dataclass(frozen=True)
class FrontierStats:
    """Counts for logs and progress bars. After :meth:`Frontier.restore` with a
    journal, ``rejected`` holds the refusals counted up to the last checkpoint only:
    refusals change nothing else, so they are not journaled. ``queued`` counts both
    tiers; ``demoted`` the demoted tier's part of it."""

    queued: int
    in_flight: int
    parked: int
    done: int
    hosts: int
    seen: int
    seen_nbytes: int
    rejected: dict[Reason, int]
    parked_by_reason: dict[Reason, int]
    demoted: int = 0
