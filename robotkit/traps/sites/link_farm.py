"""A link farm across many hosts.

What it is
    A ring of hosts (here 127.0.0.2 to 127.0.0.20) whose pages are the same thin
    "best deals" text and link to many pages on the other hosts. Every host has as
    many pages as you ask for (``/p/1``, ``/p/2``, ...), and the links mix hosts so
    the farm looks like a web of independent sites.

How it arises
    Spam link farms and doorway pages built to game ranking, parked domains,
    wildcard DNS (``*.example.com`` answering for any subdomain) and
    auto-generated subdomain-per-user sites.

How a naive crawler falls in
    A crawler that follows external links and budgets per host meets a new host at
    every step: each host stays under its budget while the farm as a whole eats
    the crawl.

What catches it in robotkit
    ``off-scope``: ``robotkit crawl`` stays on its seeds' hosts, so not one farm
    page is fetched. A crawler that does follow other hosts needs the novelty
    tracker (a host whose pages are nearly all duplicates is parked as
    ``trap-host``), ``duplicate-content`` and a ``host-budget``.

Legitimate part: the home page and five pages on the main host (127.0.0.1); the
home page also links to three "partner" hosts of the farm. Trap part: every page
on a farm host.
"""

from __future__ import annotations

import random

from werkzeug import Request, Response

from robotkit.base.reasons import Reason
from robotkit.traps.base import (
    RequestContext,
    TrapSite,
    article,
    html_page,
    not_found,
    request_target,
)

PAGES = ("/about.html", "/services.html", "/clients.html", "/careers.html", "/press.html")
LEGIT = frozenset(["/", *PAGES])
LINKS_PER_PAGE = 12


class LinkFarm(TrapSite):
    name = "link-farm"
    summary = "19 hosts (127.0.0.2-20) of identical pages linking to each other"
    caught_by = (Reason.OFF_SCOPE,)

    def __init__(self, farm_hosts: int = 19, first_host: int = 2) -> None:
        if not 1 <= farm_hosts <= 250 or first_host + farm_hosts > 256:
            raise ValueError("the farm must fit in 127.0.0.2-127.0.0.255")
        self.extra_hosts = tuple(f"127.0.0.{first_host + i}" for i in range(farm_hosts))

    legitimate_pages = LEGIT

    def is_trap(self, target: str, host: int = 0) -> bool:
        return host != 0 and target != "/robots.txt"

    def page(self, request: Request, ctx: RequestContext) -> Response:
        target = request_target(request)
        farm = len(ctx.base_urls) - 1
        if ctx.host == 0:
            if target == "/":
                partners = [(ctx.url("/", h), f"Partner {h}") for h in range(1, min(farm, 3) + 1)]
                return article(self.name, "/", [*((p, p) for p in PAGES), *partners])
            return article(self.name, target) if target in PAGES else not_found()
        # A farm page: the same thin text everywhere, links spread over the farm,
        # chosen from (host, page) so each URL always shows the same links.
        rng = random.Random(f"{ctx.host} {target}")
        links = []
        for _ in range(LINKS_PER_PAGE):
            host = rng.randint(1, farm)
            page = rng.randint(1, 10**6)
            links.append((ctx.url(f"/p/{page}", host), "Best deals"))
        text = "Best deals on everything. Click the links below for the best deals."
        return html_page("Best deals", [text], links)
