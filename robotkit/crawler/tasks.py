"""The fetches a crawl has under way, one asyncio task each, and the event that wakes
its loop: when a fetch ends, when the crawl stops, or when a time waited for comes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection, Coroutine
from typing import Any

from robotkit.frontier.frontier import FrontierEntry

__all__ = ["InFlight"]


class InFlight:
    """Tasks started with :meth:`start`, each fetching one frontier entry.
    ``on_failure`` receives the exception of a task that raised (a bug, not a
    site's doing: the crawler stops)."""

    def __init__(self, on_failure: Callable[[BaseException], None]) -> None:
        self._tasks: dict[asyncio.Task[None], FrontierEntry] = {}
        self._wake = asyncio.Event()
        self._on_failure = on_failure

    def __len__(self) -> int:
        return len(self._tasks)

    @property
    def entries(self) -> Collection[FrontierEntry]:
        """The entries being fetched now."""
        return self._tasks.values()

    def start(self, entry: FrontierEntry, fetch: Coroutine[Any, Any, None]) -> None:
        """Run ``fetch`` (of ``entry``) as a task of its own."""
        task = asyncio.create_task(fetch)
        self._tasks[task] = entry
        task.add_done_callback(self._done)

    def wake(self) -> None:
        """End the current :meth:`sleep` now."""
        self._wake.set()

    async def sleep(self, until: float | None, now: float) -> None:
        """Wait until a task ends or :meth:`wake`, or until ``until`` if given (a
        time of the clock whose reading is ``now``)."""
        self._wake.clear()
        # A timer that sets the wake event, not wait_for: wait_for makes a task
        # for every wait, and a paced crawl waits once or more a page.
        timer = None
        if until is not None:
            wait = max(until - now, 0.0) + 0.001
            timer = asyncio.get_running_loop().call_later(wait, self._wake.set)
        try:
            await self._wake.wait()
        finally:
            if timer is not None:
                timer.cancel()

    def cancel(self) -> None:
        """Cancel every task (they end at their next await)."""
        for task in self._tasks:
            task.cancel()

    async def close(self) -> None:
        """Cancel every task and wait until they have ended."""
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.pop(task, None)
        self._wake.set()
        if not task.cancelled() and (failure := task.exception()) is not None:
            self._on_failure(failure)
