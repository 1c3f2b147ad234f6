"""A redirect chain that lengthens the URL: every hop appends a segment.

What it is
    ``/go/start`` redirects to ``/go/start/more``, which redirects to
    ``/go/start/more/more``, and so on: no URL repeats, so a loop check alone never
    fires, and the URL grows with every hop.

How it arises
    A rewrite rule that appends instead of replacing (``RewriteRule ^(.*)$
    $1/more``, a locale prefix added to a URL that already has one), or a "add a
    trailing segment" canonicalization that matches its own output.

How a naive crawler falls in
    It follows the redirects and, if it has a hop limit, often saves the last
    location as a new URL to crawl, which starts a fresh chain from there.

What catches it in robotkit
    ``repeated-path``: the trap guard checks every redirect location before it is
    requested, and ``/go/start/more/more/more`` repeats a segment three times, so
    the chain is cut after three requests and the location is not queued.
    ``redirect-limit`` (more than 5 hops) and ``url-too-long`` stop chains that
    grow without repeating a segment.

Legitimate part: the home page, four pages, and ``/final.html``, reached through a
short legitimate chain ``/moved.html`` -> ``/moved-again.html`` -> ``/final.html``
(the hops are neither trap nor page). Trap part: everything under ``/go/``.
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
)

PAGES = ("/products.html", "/pricing.html", "/docs.html", "/blog.html")
LEGIT = frozenset(["/", *PAGES, "/final.html"])
GOOD_CHAIN = {"/moved.html": "/moved-again.html", "/moved-again.html": "/final.html"}
TRAP_ROOT = "/go/start"


class RedirectChain(TrapSite):
    name = "redirect-chain"
    summary = "each redirect appends a segment: /go/start -> /go/start/more -> .../more/more"
    caught_by = (Reason.REPEATED_PATH,)

    legitimate_pages = LEGIT

    def is_trap(self, target: str, host: int = 0) -> bool:
        return target.startswith("/go/")

    def page(self, request: Request, ctx: RequestContext) -> Response:
        target = request_target(request)
        if target == "/":
            links = [(p, p) for p in PAGES] + [("/moved.html", "Moved"), (TRAP_ROOT, "Go")]
            return article(self.name, "/", links)
        if target in GOOD_CHAIN:
            return redirect(GOOD_CHAIN[target], 301)
        if target.startswith(TRAP_ROOT):
            return redirect(target.split("?", 1)[0] + "/more", 302)
        if target in LEGIT:
            return article(self.name, target)
        return not_found()
