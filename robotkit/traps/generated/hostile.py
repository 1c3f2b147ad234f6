"""Generated traps that are hostile rather than clumsy: a soft-404 host, a tarpit of
slow endpoints, an in-scope link farm, and a section robots.txt forbids.

Long responses are bounded and end as soon as the site is stopped.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from werkzeug import Response

from robotkit.traps.base import RequestContext, html_page, text_response
from robotkit.traps.generated.pages import WORDS, Href, path_of, rng_for, slug, text_of
from robotkit.traps.generated.plan import Plan
from robotkit.traps.generated.trap import Trap
from robotkit.traps.sites.tarpit import body_of, drip


class Soft404(Trap):
    """The host answers 200 to every unknown path, echoing it, with suggestions that
    are unknown paths too; one dead link leads in."""

    kind = "soft-404"
    catch_all = True

    def __init__(self, plan: Plan, host: int) -> None:
        super().__init__(plan, host)
        rng = plan.rng
        self.title = rng.choice(("Page not found", "Oops!", "Nothing here", "Search results"))
        self.suggest = rng.choice(("/{w}/{t}.html", "/search/{w}-{t}", "/{w}-{t}", "/tag/{w}/{t}"))
        self.shape = f"{self.title!r}, suggestions like {self.suggest}"
        plan.attach(host, Href(f"/{rng.choice(WORDS)}/{slug(rng, 2)}.html", "Old link"))

    def is_trap(self, target: str, host: int) -> bool:
        return host == self.host  # the site asks only for targets nobody else claims

    def respond(self, target: str, ctx: RequestContext) -> Response | None:
        if ctx.host != self.host:
            return None
        rng = rng_for(self.seed, "soft-404", target)
        links = [
            (self.suggest.format(w=rng.choice(WORDS), t=rng.randint(1, 10**6)), "You may like")
            for _ in range(rng.randint(2, 5))
        ]
        text = f"We could not find {path_of(target)}. Try one of these instead."
        return html_page(self.title, [text], [*links, ("/", "Home")])


class Tarpit(Trap):
    """Many download links that stall past 10 s, drip a byte at a time, or send
    10 MiB (with or without ``Content-Length``); a downloads page and a small file
    beside them are legitimate."""

    kind = "tarpit"

    def __init__(self, plan: Plan, host: int) -> None:
        super().__init__(plan, host)
        rng = plan.rng
        self.base = f"/{plan.name(('downloads', 'exports', 'dumps', 'reports', 'logs'))}"
        self.endpoints: dict[str, tuple[str, float]] = {}
        for _ in range(rng.randint(5, 20)):
            name = (
                f"{self.base}/{slug(rng, 2)}.{rng.choice(('zip', 'csv', 'log', 'xml', 'tar.gz'))}"
            )
            mode = rng.choice(("stall", "drip", "huge", "huge-chunked"))
            self.endpoints[name] = (
                mode,
                rng.uniform(11.0, 30.0) if mode == "stall" else rng.uniform(0.3, 1.0),
            )
        self.readme = f"{self.base}/readme.txt"
        self.legit = frozenset([f"{self.base}/", self.readme])
        modes = sorted({m for m, _ in self.endpoints.values()})
        self.shape = f"{len(self.endpoints)} endpoints: {', '.join(modes)}"
        plan.attach(host, Href(f"{self.base}/", "Downloads"))

    def is_trap(self, target: str, host: int) -> bool:
        return host == self.host and path_of(target) in self.endpoints

    def respond(self, target: str, ctx: RequestContext) -> Response | None:
        if ctx.host != self.host:
            return None
        if target == f"{self.base}/":
            links = [
                (self.readme, "readme.txt"),
                *((e, e.rsplit("/", 1)[1]) for e in self.endpoints),
            ]
            return html_page("Downloads", text_of(self.seed, self.host, target, 2), links)
        if target == self.readme:
            return text_response(" ".join(text_of(self.seed, self.host, target, 4)) + "\n")
        endpoint = self.endpoints.get(path_of(target))
        if endpoint is None:
            return None
        mode, parameter = endpoint
        if mode == "stall":
            ctx.stopping.wait(parameter)
            return text_response("ready\n")
        if mode == "drip":
            stream = drip(ctx.stopping, parameter, int(120 / parameter))
            return Response(stream, mimetype="text/html", direct_passthrough=True)
        size = 10 * 1024 * 1024
        response = Response(
            body_of(size, ctx.stopping),
            mimetype="application/octet-stream",
            direct_passthrough=True,
        )
        if mode == "huge":
            response.headers["Content-Length"] = str(size)
        return response


TLDS = ("example", "invalid", "test", "example.com", "example.net")


class LinkFarm(Trap):
    """Random-token pages on the site's own hosts: keyword-stuffed text, most links
    to made-up hosts, the rest to more farm pages on any host of the site."""

    kind = "link-farm"

    def __init__(self, plan: Plan, host: int) -> None:
        super().__init__(plan, host)
        rng = plan.rng
        self.prefix = plan.name(("deals", "offers", "promo", "best", "top", "cheap"))
        self.keywords = rng.sample(WORDS, 3)
        self.hosts = plan.hosts
        self.outbound = rng.uniform(0.6, 0.9)
        self.shape = f"/{self.prefix}/<token> on {plan.hosts} hosts, {self.outbound:.0%} outbound"
        plan.attach(host, Href(self._page(rng_for(plan.seed, "farm-entry")), "Great offer"))

    def _page(self, rng: random.Random) -> str:
        return f"/{self.prefix}/{rng.getrandbits(40):010x}-{self.keywords[0]}.html"

    def is_trap(self, target: str, host: int) -> bool:
        return target.startswith(f"/{self.prefix}/")

    def respond(self, target: str, ctx: RequestContext) -> Response | None:
        if not target.startswith(f"/{self.prefix}/"):
            return None
        rng = rng_for(self.seed, "farm", ctx.host, target)
        phrase = " ".join(self.keywords)
        text = " ".join([f"Best {phrase} cheap {phrase} top {phrase}."] * rng.randint(20, 60))
        links: list[tuple[str, str]] = []
        for _ in range(rng.randint(20, 40)):
            if rng.random() < self.outbound:
                name = f"{rng.choice(self.keywords)}-{rng.choice(WORDS)}{rng.randint(1, 999)}"
                links.append((f"http://{name}.{rng.choice(TLDS)}/", phrase))
            else:
                links.append((ctx.url(self._page(rng), rng.randrange(self.hosts)), phrase))
        return html_page(f"Best {phrase}", [text], links)


class RobotsDisallow(Trap):
    """A section robots.txt forbids, linked from the site and full of links; beside
    it a page just outside the rule and, sometimes, one an ``Allow`` line reopens
    (the longest match wins, RFC 9309 section 2.2.2)."""

    kind = "robots-disallow"

    def __init__(self, plan: Plan, host: int) -> None:
        super().__init__(plan, host)
        rng = plan.rng
        name = plan.name(("private", "admin", "internal", "tmp", "staging", "cart"))
        self.base = f"/{name}/"
        self.outside = f"/{name}-policy.html"
        plan.used.add(f"{name}-policy.html")
        self.allowed = f"{self.base}{rng.choice(WORDS)}.html" if rng.random() < 0.5 else None
        self.legit = frozenset(p for p in (self.outside, self.allowed) if p)
        self.shape = f"Disallow: {self.base}" + (f", Allow: {self.allowed}" if self.allowed else "")
        plan.attach(host, Href(self.base, name.title()))
        for page in sorted(self.legit):
            plan.attach(host, Href(page, page))

    def robots_lines(self, host: int) -> Sequence[str]:
        if host != self.host:
            return ()
        allow = [f"Allow: {self.allowed}"] if self.allowed else []
        return [*allow, f"Disallow: {self.base}"]

    def is_trap(self, target: str, host: int) -> bool:
        return host == self.host and target.startswith(self.base) and target != self.allowed

    def robots_forbids(self, target: str, host: int) -> bool:
        return self.is_trap(target, host)

    def respond(self, target: str, ctx: RequestContext) -> Response | None:
        if ctx.host != self.host:
            return None
        if target in self.legit:
            return html_page(target, text_of(self.seed, self.host, target, 3), [("/", "Home")])
        if not target.startswith(self.base):
            return None
        rng = rng_for(self.seed, "robots", target)
        links = [
            (f"{self.base}{rng.choice(WORDS)}-{rng.randint(1, 10**5)}", "Record") for _ in range(6)
        ]
        return html_page("Internal", ["Staff only."], links)
