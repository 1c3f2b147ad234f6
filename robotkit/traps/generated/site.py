""":class:`GeneratedSite`: a trap site drawn from a seed, with its ground truth."""

from __future__ import annotations

import random

from werkzeug import Request, Response

from robotkit.traps.base import (
    ALLOW_ALL_ROBOTS,
    Page,
    PageKind,
    RequestContext,
    TrapSite,
    not_found,
    page_key,
    redirect,
    request_target,
    target_of,
    text_response,
)
from robotkit.traps.generated import legit
from robotkit.traps.generated.endless import (
    Calendar,
    DuplicateForms,
    EndlessPagination,
    Facets,
    GrowingQuery,
    SessionIds,
)
from robotkit.traps.generated.hostile import LinkFarm, RobotsDisallow, Soft404, Tarpit
from robotkit.traps.generated.loops import (
    PathInfoLoop,
    RedirectChain,
    RedirectLoop,
    RelativeLoop,
    SymlinkLoop,
)
from robotkit.traps.generated.pages import render, server_form
from robotkit.traps.generated.plan import Plan
from robotkit.traps.generated.trap import Trap

KINDS: tuple[type[Trap], ...] = (
    SymlinkLoop,
    RelativeLoop,
    PathInfoLoop,
    RedirectLoop,
    RedirectChain,
    Calendar,
    EndlessPagination,
    GrowingQuery,
    Facets,
    SessionIds,
    DuplicateForms,
    Soft404,
    Tarpit,
    LinkFarm,
    RobotsDisallow,
)
"""Every trap family the generator draws from."""

SISTER_ADDRESSES = tuple(f"127.0.0.{n}" for n in range(2, 10))


class GeneratedSite(TrapSite):
    """A site drawn from ``seed``: 30 to 60 legitimate pages on two to four hosts (and
    in half the sites a related-items section of 40 to 150 more), and one or two
    traps. The same seed gives the same site, byte for byte;
    ``with_traps=False`` draws the same legitimate part alone (a baseline)."""

    caught_by = ()
    start_path = "/"

    def __init__(self, seed: int, *, with_traps: bool = True) -> None:
        self.seed = seed
        self.name = f"generated-{seed}"
        rng = random.Random(seed)
        hosts = rng.randint(2, 4)
        self.extra_hosts = tuple(sorted(rng.sample(SISTER_ADDRESSES, hosts - 1)))
        plan = Plan(seed=seed, rng=rng, hosts=hosts)
        legit.draw(plan)
        kinds = rng.sample(KINDS, rng.randint(1, 2)) if with_traps else []
        self.traps: tuple[Trap, ...] = tuple(kind(plan, rng.randrange(hosts)) for kind in kinds)
        self.pages = dict(plan.pages)
        self.related = plan.related
        """The index of the related-items section, if the site has one."""
        self.redirects = dict(plan.redirects)
        pairs = set(self.pages) | {(t.host, p) for t in self.traps for p in t.legit}
        self.legitimate_pages = frozenset(p for h, p in pairs if h == 0)
        self.legitimate_elsewhere = frozenset((h, p) for h, p in pairs if h != 0)
        drawn = "; ".join(t.describe() for t in self.traps) or "no trap"
        self.summary = f"{hosts} hosts, {len(pairs)} pages; {drawn}"

    @property
    def seed_paths(self) -> tuple[tuple[int, str], ...]:
        return tuple((host, "/") for host in range(1 + len(self.extra_hosts)))

    # -- ground truth ------------------------------------------------------------

    def classify(self, target: str, host: int = 0) -> Page:
        target = server_form(target_of(target))
        if (host, target) in self.pages or any(
            t.host == host and target in t.legit for t in self.traps
        ):
            return Page(PageKind.LEGITIMATE, page_key(host, target))
        for trap in self.traps:
            key = trap.legit_key(target, host)
            if key is not None:
                return Page(PageKind.LEGITIMATE, page_key(host, key))
        if self.is_trap(target, host):
            return Page(PageKind.TRAP, target)
        return Page(PageKind.OTHER, target)

    def is_trap(self, target: str, host: int = 0) -> bool:
        target = server_form(target_of(target))
        if any(t.is_trap(target, host) for t in self.traps if not t.catch_all):
            return True
        if target == "/robots.txt" or (host, target) in self.redirects:
            return False
        if any(t.host == host and target in t.hops for t in self.traps):
            return False
        if (host, target) in self.pages or any(t.legit_key(target, host) for t in self.traps):
            return False
        return any(t.catch_all and t.is_trap(target, host) for t in self.traps)

    def robots_forbids(self, target: str, host: int = 0) -> bool:
        target = server_form(target_of(target))
        return any(t.robots_forbids(target, host) for t in self.traps)

    # -- serving -----------------------------------------------------------------

    def robots_txt(self, request: Request, ctx: RequestContext) -> Response:
        lines = [line for t in self.traps for line in t.robots_lines(ctx.host)]
        if not lines:
            return text_response(ALLOW_ALL_ROBOTS)
        return text_response("User-agent: *\n" + "\n".join(lines) + "\n")

    def page(self, request: Request, ctx: RequestContext) -> Response:
        target = server_form(request_target(request))
        spec = self.pages.get((ctx.host, target))
        if spec is not None:
            return render(spec, ctx, target)
        if (ctx.host, target) in self.redirects:
            return redirect(self.redirects[(ctx.host, target)], 301)
        for trap in sorted(self.traps, key=lambda t: t.catch_all):
            response = trap.respond(target, ctx)
            if response is not None:
                return response
        return not_found()
