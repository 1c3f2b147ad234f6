"""A worker process for the shared-state tests (test_shared_*.py): it joins a crawl
on Redis and does one job, then prints what it did as one JSON line.

* ``pace REDIS CRAWL URL N DELAY``: fetch URL N times through a
  :class:`~robotkit.shared.SharedPacer` (system clock), asking again after each wait;
* ``robots REDIS CRAWL URL``: check URL with a
  :class:`~robotkit.shared.SharedRobotsChecker` and print its verdict.
"""

from __future__ import annotations

import json
import sys
import time

import httpx

from robotkit.base.clock import system_clock
from robotkit.base.outcome import Outcome
from robotkit.pacing.pacer import Pacer, PacingPolicy, host_key
from robotkit.shared import Namespace, SharedPacer, SharedRobotsChecker, connect


def pace(url: str, count: int, delay: float, pacer: SharedPacer) -> dict[str, object]:
    host = host_key(url)
    spans = []
    with httpx.Client() as client:
        while len(spans) < count:
            slot = pacer.reserve(host)
            if slot.ticket is None:
                time.sleep(min(slot.wait, delay))
                continue
            client.get(url)
            spans.append((slot.ticket.started, system_clock()))
            pacer.finish(slot.ticket, Outcome.OK)
    return {"spans": spans}


def main(argv: list[str]) -> None:
    job, url_redis, crawl = argv[0], argv[1], argv[2]
    client, namespace = connect(url_redis), Namespace(crawl)
    if job == "pace":
        url, count, delay = argv[3], int(argv[4]), float(argv[5])
        shared = SharedPacer(Pacer(system_clock, PacingPolicy(delay=delay)), client, namespace)
        print(json.dumps(pace(url, count, delay, shared)), flush=True)
    elif job == "robots":
        with SharedRobotsChecker(client, namespace) as checker:
            verdict = checker.check(argv[3])
            print(json.dumps({"allowed": verdict.allowed, "fetches": checker.fetches}))
    else:
        raise SystemExit(f"unknown job {job!r}")


if __name__ == "__main__":
    main(sys.argv[1:])
