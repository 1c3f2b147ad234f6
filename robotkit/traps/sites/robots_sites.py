"""Robots.txt sites: one per answer in ARCHITECTURE.md's status table.

What they are
    The same small site (eight pages, some under ``/private/``, one PDF) whose
    ``/robots.txt`` answers differently: 200 with rules, 404, 401, 403, 503 with
    ``Retry-After``, 500, 429 with ``Retry-After``, a chain of redirects across two
    hosts (3 hops, or 6 which is one too many), and a 600 KiB file with a rule past
    the 500 KiB cut.

How they arise
    Every one is common on the real web: missing files (404), robots.txt behind a
    login or a firewall (401/403), overloaded or maintenance servers (503, 500),
    rate limits that cover robots.txt too (429), sites that moved (redirects,
    often to another host), generated files that list every product (huge).

How a naive crawler falls in
    It treats any error as "no robots.txt, crawl everything" (wrong for 5xx:
    RFC 9309 section 2.3.1.4 says assume complete disallow), gives up on redirects,
    or parses the whole huge file and so obeys (or chokes on) rules past the limit
    RFC 9309 section 2.5 lets it stop at.

What catches it in robotkit
    The robots engine: ``robots-disallow`` for rules, ``robots-deny-all`` for
    401/403 in the ``classic`` profile, ``robots-deferred`` for 5xx and 429,
    redirects followed up to 5 hops (a 6th makes it "as 404", allow all), and every
    body cut at 500 KiB at the last full line.

Legitimate part: the pages the robots.txt answer allows (for 401/403 with the
``rfc9309`` profile: all of them). Trap part: the pages it forbids (for 5xx: all
of them, until the retry time).
"""

from __future__ import annotations

from werkzeug import Request, Response

from robotkit.base.reasons import Reason
from robotkit.traps.base import (
    RequestContext,
    TrapSite,
    article,
    not_found,
    redirect,
    request_target,
    text_response,
)

PAGES = (
    "/",
    "/about.html",
    "/docs/guide.html",
    "/docs/faq.html",
    "/private/account.html",
    "/private/admin.html",
    "/private/press/release.html",
    "/files/report.pdf",
)
ALL = frozenset(PAGES)
RULES = """# robotkit trap site: rules a crawler must obey
User-agent: *
Disallow: /private/
Allow: /private/press/
Disallow: /*.pdf$
"""
FORBIDDEN_BY_RULES = frozenset(
    ["/private/account.html", "/private/admin.html", "/files/report.pdf"]
)
NONE: frozenset[str] = frozenset()
PROFILES = ("classic", "rfc9309")
MAX_REDIRECTS = 5
"""ARCHITECTURE.md: follow up to 5 hops; a 6th hop is treated as a 404 (allow all)."""
ROBOTS_LIMIT = 500 * 1024
"""ARCHITECTURE.md and RFC 9309 section 2.5: a body is cut at 500 KiB."""


class RobotsSite(TrapSite):
    """The shared site; subclasses say how robots.txt answers and what it forbids."""

    extra_pages: tuple[str, ...] = ()

    def __init__(self, forbidden: frozenset[str]) -> None:
        self.forbidden = forbidden
        self.pages = (*PAGES, *self.extra_pages)
        self.legitimate_pages = frozenset(self.pages) - forbidden

    def is_trap(self, target: str, host: int = 0) -> bool:
        return self.robots_forbids(target, host)

    def robots_forbids(self, target: str, host: int = 0) -> bool:
        return host == 0 and target in self.forbidden

    def page(self, request: Request, ctx: RequestContext) -> Response:
        target = request_target(request)
        if ctx.host != 0 or target not in self.pages:
            return not_found()
        links = [(p, p) for p in self.pages if p != "/"] if target == "/" else []
        return article(self.name, target, links)


class RobotsRules(RobotsSite):
    name = "robots-rules"
    summary = "robots.txt 200: Disallow /private/ (but Allow /private/press/) and *.pdf$"
    caught_by = (Reason.ROBOTS_DISALLOW,)

    def __init__(self) -> None:
        super().__init__(FORBIDDEN_BY_RULES)

    def robots_txt(self, request: Request, ctx: RequestContext) -> Response:
        return text_response(RULES)


class RobotsNotFound(RobotsSite):
    name = "robots-404"
    summary = "robots.txt 404: no rules, everything may be crawled (no trap part)"
    caught_by = ()

    def __init__(self) -> None:
        super().__init__(NONE)

    def robots_txt(self, request: Request, ctx: RequestContext) -> Response:
        return not_found()


class RobotsDenied(RobotsSite):
    """401 or 403: ``classic`` denies all (the project brief), ``rfc9309`` allows
    all (RFC 9309 section 2.3.1.3 treats every 4xx as unavailable)."""

    caught_by = (Reason.ROBOTS_DENY_ALL,)

    def __init__(self, status: int = 403, profile: str = "classic") -> None:
        if status not in (401, 403):
            raise ValueError("status must be 401 or 403")
        if profile not in PROFILES:
            raise ValueError(f"profile must be one of {', '.join(PROFILES)}")
        super().__init__(ALL if profile == "classic" else NONE)
        self.status = status
        self.profile = profile
        self.name = f"robots-{status}"
        self.summary = f"robots.txt {status}: classic profile denies all, rfc9309 allows all"

    def robots_txt(self, request: Request, ctx: RequestContext) -> Response:
        headers = {"WWW-Authenticate": 'Basic realm="staff"'} if self.status == 401 else {}
        return text_response("denied\n", self.status, headers)


class RobotsUnavailable(RobotsSite):
    """5xx or 429: nothing on the origin may be fetched now (RFC 9309 section
    2.3.1.4); retry at ``Retry-After`` (RFC 9110 section 10.2.3) or after backoff."""

    caught_by = (Reason.ROBOTS_DEFERRED,)

    def __init__(self, status: int = 503, retry_after: int | None = 3600) -> None:
        if status != 429 and not 500 <= status <= 599:
            raise ValueError("status must be 429 or 5xx")
        super().__init__(ALL)
        self.status = status
        self.retry_after = retry_after
        self.name = f"robots-{status}"
        wait = f" with Retry-After: {retry_after}" if retry_after is not None else ""
        self.summary = f"robots.txt {status}{wait}: nothing may be crawled now"

    def robots_txt(self, request: Request, ctx: RequestContext) -> Response:
        headers = {} if self.retry_after is None else {"Retry-After": str(self.retry_after)}
        return text_response("unavailable\n", self.status, headers)


class RobotsRedirects(RobotsSite):
    """robots.txt redirects ``hops`` times, alternating between the main host and
    a second one; the last hop answers the rules. The rules still apply to the
    original origin (RFC 9309 section 2.3.1.2)."""

    caught_by: tuple[Reason, ...] = (Reason.ROBOTS_DISALLOW,)
    STATUSES = (301, 302, 307, 308)

    def __init__(self, hops: int = 3, second_host: str = "127.0.0.2") -> None:
        if hops < 1:
            raise ValueError("hops must be at least 1")
        obeyed = hops <= MAX_REDIRECTS
        super().__init__(FORBIDDEN_BY_RULES if obeyed else NONE)
        self.hops = hops
        self.extra_hosts = (second_host,)
        self.name = "robots-3xx" if obeyed else "robots-3xx-too-many"
        self.caught_by = (Reason.ROBOTS_DISALLOW,) if obeyed else ()
        outcome = "rules obeyed" if obeyed else "one too many: as 404, allow all"
        self.summary = f"robots.txt redirects {hops} times across two hosts ({outcome})"

    def _location(self, hop: int, ctx: RequestContext) -> str:
        return ctx.url(f"/robots-moved-{hop}.txt", hop % 2)

    def handle(self, request: Request, ctx: RequestContext) -> Response:
        target = request_target(request)
        hop = 0 if (target == "/robots.txt" and ctx.host == 0) else None
        for n in range(1, self.hops + 1):
            if target == f"/robots-moved-{n}.txt" and ctx.host == n % 2:
                hop = n
        if hop is None:
            return self.page(request, ctx)
        if hop == self.hops:
            return text_response(RULES)
        status = self.STATUSES[hop % len(self.STATUSES)]
        return redirect(self._location(hop + 1, ctx), status)


class RobotsHuge(RobotsSite):
    """A robots.txt over 500 KiB: the rules at the top apply, the ``Disallow`` past
    the cut does not exist for a crawler that cuts as ARCHITECTURE.md says, so the page
    it names is legitimate."""

    name = "robots-huge"
    summary = "a 600 KiB robots.txt with Disallow: /past-the-cut/ after the 500 KiB cut"
    caught_by = (Reason.ROBOTS_DISALLOW,)
    extra_pages = ("/past-the-cut/secret.html",)

    def __init__(self, size: int = 600 * 1024) -> None:
        if size < ROBOTS_LIMIT + 1024:
            raise ValueError(f"size must be over {ROBOTS_LIMIT} bytes and a line")
        super().__init__(FORBIDDEN_BY_RULES)
        lines = [RULES, "# a generated list of old archive pages\n"]
        length = sum(len(line) for line in lines)
        number = 0
        while length < size:
            line = f"Disallow: /archive/item-{number:07d}.html\n"
            lines.append(line)
            length += len(line)
            number += 1
        lines.append("Disallow: /past-the-cut/\n")
        self.body = "".join(lines).encode()

    def robots_txt(self, request: Request, ctx: RequestContext) -> Response:
        return Response(self.body, mimetype="text/plain")
