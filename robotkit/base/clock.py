"""Time as an injected dependency.

The core never reads a clock of its own (ARCHITECTURE.md, sans-I/O): every rule that
depends on time takes a ``Clock``, a callable returning Unix seconds as a float.
Production code passes :func:`system_clock`; tests pass a :class:`ManualClock` and
move it forward instead of sleeping.
"""

from __future__ import annotations

import time
from collections.abc import Callable

Clock = Callable[[], float]
"""Returns the current time in Unix seconds. Wall time, because HTTP dates
(Retry-After, Expires, Date) are wall time and must be compared with it."""


def system_clock() -> float:
    """The real wall clock."""
    return time.time()


class ManualClock:
    """A clock that moves only when told to: for tests and simulations."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("a clock does not go backwards")
        self.now += seconds
