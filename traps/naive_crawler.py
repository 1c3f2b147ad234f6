"""The naive crawler: what a first crawler looks like, and where the course starts.

    python traps/naive_crawler.py URL... --max-pages 1000

It crawls breadth-first from the URLs, keeps a seen set of exact URL strings, follows
every link to a loopback address, ignores robots.txt and waits for nothing. The crawl
itself is :func:`robotkit.traps.naive.naive_crawl` (robotkit/traps/naive.py, sixty
lines): the same code the bench (``robotkit traps bench``) compares robotkit with, so
the scorecards in traps/README.md and in the bench are one crawler's.

Run it through the gauntlet and read why it fails each site:

    python -m pytest traps/ \
        --crawler 'python traps/naive_crawler.py {seeds} --max-pages {max_pages}'

Then copy this file and make it pass, one trap at a time (traps/README.md).
"""

from __future__ import annotations

import argparse
import asyncio

from robotkit.traps.naive import naive_crawl


def main() -> int:
    parser = argparse.ArgumentParser(description="A naive breadth-first crawler.")
    parser.add_argument("seeds", nargs="+", metavar="URL", help="start URLs")
    parser.add_argument("--max-pages", type=int, default=1000, help="requests at most")
    args = parser.parse_args()
    run = asyncio.run(naive_crawl(args.seeds, args.max_pages))
    print(f"{run.fetched} requests, ended: {run.ended}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
