"""Generated traps made of URL shapes: directory loops, relative and PATH_INFO loops,
redirect loops and lengthening redirect chains.

Each draws its names, period or length, and a legitimate look-alike: the real levels
of a directory before it repeats, a front controller's real routes, a moved page
whose redirect does end.
"""

from __future__ import annotations

from werkzeug import Response

from robotkit.traps.base import RequestContext, html_page, redirect
from robotkit.traps.generated.pages import WORDS, Href, path_of, text_of
from robotkit.traps.generated.plan import Plan
from robotkit.traps.generated.trap import Trap


class SymlinkLoop(Trap):
    """A directory linked into itself with period 1 to 4: autoindex listings with
    relative links and trailing slashes, or folder pages without them."""

    kind = "symlink-loop"

    def __init__(self, plan: Plan, host: int) -> None:
        super().__init__(plan, host)
        rng = plan.rng
        top = plan.name(("files", "pub", "share", "mirror", "srv", "data", "media"))
        self.root = f"/{top}/{rng.choice(WORDS)}"
        self.period = rng.randint(1, 4)
        self.slash = rng.random() < 0.5
        self.cycle = rng.sample(WORDS, self.period)
        levels = [self.root + "".join("/" + s for s in self.cycle[:n]) for n in range(self.period)]
        if self.slash:
            levels = [level + "/" for level in levels]
        self.legit = frozenset(levels)
        slash = "with" if self.slash else "without"
        self.shape = f"period {self.period}, {slash} trailing slash, {self.root}"
        plan.attach(host, Href(levels[0], top.title()))

    def _depth(self, target: str) -> int | None:
        """Levels below the root when ``target`` follows the cycle, else None."""
        if "?" in target or not (target == self.root or target.startswith(self.root + "/")):
            return None
        rest = target[len(self.root) :]
        if self.slash != (target.endswith("/")):
            return None
        segments = [s for s in rest.split("/") if s] if self.slash else rest.split("/")[1:]
        expected = [self.cycle[i % self.period] for i in range(len(segments))]
        return len(segments) if segments == expected else None

    def is_trap(self, target: str, host: int) -> bool:
        depth = self._depth(target) if host == self.host else None
        return depth is not None and depth >= self.period

    def respond(self, target: str, ctx: RequestContext) -> Response | None:
        depth = self._depth(target) if ctx.host == self.host else None
        if depth is None:
            return None
        child = self.cycle[depth % self.period]
        if self.slash:
            links = [("../", "Parent Directory"), (child + "/", child + "/")]
            return html_page(f"Index of {target}", [], links)
        return html_page(f"Folder {target}", [], [(f"{target}/{child}", child)])


class RelativeLoop(Trap):
    """A catch-all below a directory whose template has a relative link to a
    subdirectory: on every page it resolves one level deeper."""

    kind = "relative-loop"

    def __init__(self, plan: Plan, host: int) -> None:
        super().__init__(plan, host)
        rng = plan.rng
        self.dir = f"/{plan.name(('guide', 'wiki', 'kb', 'learn', 'howto', 'portal'))}/"
        self.sub = rng.choice(WORDS) + rng.choice(("/", "/", "/index.html"))
        self.pages = [f"{w}.html" for w in rng.sample(WORDS, rng.randint(1, 2))]
        self.legit = frozenset([self.dir, self.dir + self.sub, *(self.dir + p for p in self.pages)])
        self.shape = f"{self.dir} with href={self.sub!r}"
        plan.attach(host, Href(self.dir, "Guide"))

    def is_trap(self, target: str, host: int) -> bool:
        return host == self.host and target.startswith(self.dir) and target not in self.legit

    def respond(self, target: str, ctx: RequestContext) -> Response | None:
        if ctx.host != self.host or not target.startswith(self.dir):
            return None
        # The catch-all answers unknown paths with the directory's own page.
        shown = target if target in self.legit else self.dir
        links = [(self.sub, "Next section"), *((p, p) for p in self.pages), ("/", "Home")]
        return html_page(shown, text_of(self.seed, self.host, shown, 3), links)


class PathInfoLoop(Trap):
    """A front controller (``/index.php/section``) whose pages link sections
    relatively: ``index.php/about`` below ``/index.php/news/`` is
    ``/index.php/news/index.php/about/``, and the controller still answers."""

    kind = "path-info-loop"

    def __init__(self, plan: Plan, host: int) -> None:
        super().__init__(plan, host)
        rng = plan.rng
        self.script = plan.name(("index.php", "app.php", "main.php", "wiki.cgi", "site.asp"))
        self.sections = rng.sample(WORDS, rng.randint(2, 3))
        self.slash = rng.random() < 0.5
        end = "/" if self.slash else ""
        self.legit = frozenset(f"/{self.script}/{s}{end}" for s in self.sections)
        self.shape = f"/{self.script}/<section>{end}, {len(self.sections)} sections"
        for section in self.sections:
            plan.attach(host, Href(f"/{self.script}/{section}{end}", section.title()))

    def is_trap(self, target: str, host: int) -> bool:
        inside = target.startswith(f"/{self.script}/") and target not in self.legit
        return host == self.host and inside and self._route(target) is not None

    def _route(self, target: str) -> str | None:
        """The section a path shows: the last known one, as PATH_INFO routers do."""
        known = [s for s in path_of(target).split("/") if s in self.sections]
        return known[-1] if known else None

    def respond(self, target: str, ctx: RequestContext) -> Response | None:
        if ctx.host != self.host or not target.startswith(f"/{self.script}/"):
            return None
        section = self._route(target)
        if section is None:
            return None
        end = "/" if self.slash else ""
        links = [(f"{self.script}/{s}{end}", s.title()) for s in self.sections]
        return html_page(section.title(), text_of(self.seed, self.host, section, 4), links)


class RedirectLoop(Trap):
    """Redirects that never reach a page: a ring of 1 to 5 URLs, or a trailing slash
    added and removed; beside it, a moved page whose redirect ends."""

    kind = "redirect-loop"

    def __init__(self, plan: Plan, host: int) -> None:
        super().__init__(plan, host)
        rng = plan.rng
        base = plan.name(("login", "account", "auth", "session", "signin", "out"))
        self.status = rng.choice((301, 302, 307, 308))
        if rng.random() < 0.3:
            page = f"/{base}/{rng.choice(WORDS)}"
            self.ring = [page, page + "/"]
            self.shape = f"trailing slash toggled, {self.status}"
        else:
            self.ring = [f"/{base}/{w}" for w in rng.sample(WORDS, rng.randint(1, 5))]
            self.shape = f"ring of {len(self.ring)}, {self.status}"
        self.home = f"/{base}/{rng.choice(WORDS)}-home"
        self.moved = f"/{base}/start"
        self.legit = frozenset([self.home])
        self.hops = frozenset([self.moved])
        plan.attach(host, Href(self.ring[0], "Sign in"))
        plan.attach(host, Href(self.moved, "Start"))

    def is_trap(self, target: str, host: int) -> bool:
        return host == self.host and target in self.ring

    def respond(self, target: str, ctx: RequestContext) -> Response | None:
        if ctx.host != self.host:
            return None
        if target in self.ring:
            return redirect(self.ring[(self.ring.index(target) + 1) % len(self.ring)], self.status)
        if target == self.moved:
            return redirect(self.home, 301)
        if target == self.home:
            return html_page("Welcome", text_of(self.seed, self.host, target, 3), [("/", "Home")])
        return None


class RedirectChain(Trap):
    """Each redirect lengthens the URL: a segment appended, a parameter appended, or
    a locale prefix inserted again; beside it, a legitimate two-hop chain."""

    kind = "redirect-chain"

    def __init__(self, plan: Plan, host: int) -> None:
        super().__init__(plan, host)
        rng = plan.rng
        base = plan.name(("go", "redirect", "jump", "link", "r", "track"))
        self.root = f"/{base}/{rng.choice(WORDS)}"
        self.style = rng.choice(("segment", "query", "prefix"))
        self.piece = rng.choice(("more", "next", "en", "de", "again", *WORDS[:6]))
        self.shape = f"{self.style} {self.piece!r} added per hop under {self.root}"
        self.final = f"/{base}-{rng.choice(WORDS)}.html"
        self.hops_to = {f"/{base}-old": f"/{base}-older", f"/{base}-older": self.final}
        self.legit = frozenset([self.final])
        self.hops = frozenset(self.hops_to)
        plan.used.update({f"{base}-old", f"{base}-older"})
        plan.attach(host, Href(self.root, "Continue"))
        plan.attach(host, Href(f"/{base}-old", "Read more"))

    def _next(self, target: str) -> str:
        if self.style == "segment":
            return path_of(target).rstrip("/") + f"/{self.piece}"
        if self.style == "query":
            joiner = "&" if "?" in target else "?"
            return f"{target}{joiner}{self.piece}=1"
        rest = target[len(self.root) :]
        return f"{self.root}/{self.piece}{rest}"

    def is_trap(self, target: str, host: int) -> bool:
        return host == self.host and target.startswith(self.root)

    def respond(self, target: str, ctx: RequestContext) -> Response | None:
        if ctx.host != self.host:
            return None
        if target.startswith(self.root):
            return redirect(self._next(target), 302)
        if target in self.hops_to:
            return redirect(self.hops_to[target], 301)
        if target == self.final:
            return html_page("Article", text_of(self.seed, self.host, target, 6), [("/", "Home")])
        return None
