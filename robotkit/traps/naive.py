"""A naive breadth-first crawler: the baseline every trap-site score is compared with.

It is what a first crawler looks like: ``httpx.AsyncClient`` with redirects followed
(httpx's limit of 20), a 2 s per-operation timeout, a seen set of exact URL strings
(fragment dropped), links taken with the extractor robotkit uses
(:func:`robotkit.page.meta.parse_page`), every loopback link followed whatever its host,
robots.txt ignored, no delay. It has no URL normalization, no trap rules, no
content fingerprints, no total response deadline and no body cap, so a drip-feeding
server holds it for as long as it drips: callers cut it off with a wall-clock limit.
"""

from __future__ import annotations

import ipaddress
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit

import httpx

from robotkit.page.meta import parse_page

TIMEOUT = 2.0
"""httpx's per-operation timeout (connect, each read): a drip resets it."""


@dataclass(frozen=True)
class NaiveRun:
    fetched: int
    """Requests made (redirect hops inside one request not counted)."""
    ended: Literal["done", "budget"]
    """``done``: nothing left to fetch; ``budget``: the page budget was spent."""


def is_loopback(url: str) -> bool:
    try:
        return ipaddress.ip_address(urlsplit(url).hostname or "").is_loopback
    except ValueError:
        return False


async def naive_crawl(seeds: Sequence[str], budget: int) -> NaiveRun:
    """Breadth-first from ``seeds``, exact-string seen set, every loopback link, no
    manners; at most ``budget`` requests."""
    queue = deque(dict.fromkeys(seeds))
    seen = set(queue)
    fetched = 0
    async with httpx.AsyncClient(follow_redirects=True, timeout=TIMEOUT) as client:
        while queue and fetched < budget:
            url = queue.popleft()
            fetched += 1
            try:
                response = await client.get(url)
            except httpx.HTTPError:
                continue
            if "html" not in response.headers.get("content-type", ""):
                continue
            for link in parse_page(response.text, str(response.url), "naivebot").links:
                if link.url not in seen and is_loopback(link.url):
                    seen.add(link.url)
                    queue.append(link.url)
    return NaiveRun(fetched, "budget" if queue else "done")
