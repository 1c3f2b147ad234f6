"""A crawl-like process for the SIGKILL test in test_frontier_checkpoint.py.

It grows a frontier deterministically (URL ``n`` is ``http://h{n % 7}.example/p/{n}``
at depth ``n % 4``), serves and marks done three URLs per round, and says on stdout
what it has recorded, one flushed line per fact, so the test can kill it at any
moment and know what must survive. The frontier is prefilled so that a checkpoint
takes far longer than a round of adds.

* ``params PREFILL BATCH``: first, how many URLs it adds before round 1, and per round;
* ``writing G``: it starts writing checkpoint generation G;
* ``checkpoint G N``: checkpoint generation G is on disk, holding the first N URLs;
* ``added N`` (journal mode): the first N URLs are recorded in the journal;
* ``done KEY`` (journal mode): KEY's completion is recorded.

Mode ``disk`` is journal mode with the frontier on disk (a window of 4 URLs per queue).

Bounded: it stops by itself after ROUNDS rounds.
"""

from __future__ import annotations

import sys

from robotkit.frontier.frontier import Frontier
from robotkit.url.parse import Origin

PREFILL = 10_000
BATCH = 50
ROUNDS = 500
HOSTS = 7


ORIGINS = [Origin("http", f"h{i}.example", 80) for i in range(HOSTS)]


def url(n: int) -> str:
    return f"http://h{n % HOSTS}.example/p/{n}"


def add(frontier: Frontier, n: int) -> None:
    frontier.add(url(n), url(n), n % 4, host=ORIGINS[n % HOSTS])


def main() -> None:
    path, mode = sys.argv[1], sys.argv[2]
    frontier = Frontier(max_depth=5, host_budget=100)
    print("params", PREFILL, BATCH, flush=True)
    for n in range(PREFILL):
        add(frontier, n)
    n = PREFILL
    journal = mode in ("journal", "disk")
    if journal:
        frontier.open_journal(path, window=4 if mode == "disk" else None)
        print("checkpoint", frontier.generation, n, flush=True)
    for round_ in range(1, ROUNDS + 1):
        for _ in range(BATCH):
            add(frontier, n)
            n += 1
        if journal:
            print("added", n, flush=True)
        for _ in range(3):
            entry = frontier.next(0.0)
            assert entry is not None
            frontier.mark_done(entry)
            if journal:
                print("done", entry.key, flush=True)
        if not journal or round_ % 5 == 0:
            print("writing", frontier.generation + 1, flush=True)
            print("checkpoint", frontier.checkpoint(path), n, flush=True)


if __name__ == "__main__":
    main()
