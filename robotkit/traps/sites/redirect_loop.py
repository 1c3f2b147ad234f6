"""A redirect loop: A redirects to B, B redirects to A.

What it is
    Redirects that never reach a page: ``/loop/a`` -> ``/loop/b`` -> ``/loop/a``,
    a page that redirects to itself, and a ring of five (``/loop/ring/0`` -> ``1``
    -> ... -> ``4`` -> ``0``).

How it arises
    Two rewrite rules that undo each other (add a trailing slash / remove it, force
    ``www`` / strip it), a login redirect whose target itself needs login, a
    canonicalization rule that points at its own URL.

How a naive crawler falls in
    An HTTP client told to follow redirects follows them forever, or until its own
    limit, while each hop costs a request (RFC 9110 section 15.4 leaves the limit
    to the client).

What catches it in robotkit
    ``redirect-loop``: a chain that comes back to a URL it already visited is
    abandoned before that URL is requested again, so each loop costs one request
    per URL in it (2 + 1 + 5 = 8 here). ``redirect-limit`` (more than 5 hops)
    stops a loop longer than that first.

Legitimate part: the home page, four pages, and ``/new-home.html``, reached through
one legitimate permanent redirect from ``/old-home.html`` (neither trap nor page:
a crawler must follow good redirects). Trap part: everything under ``/loop/``.
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

PAGES = ("/news.html", "/team.html", "/history.html", "/contact.html")
LEGIT = frozenset(["/", *PAGES, "/new-home.html"])
RING = 5
LOOPS = {"/loop/a": "/loop/b", "/loop/b": "/loop/a", "/loop/self": "/loop/self"}
LOOPS.update({f"/loop/ring/{n}": f"/loop/ring/{(n + 1) % RING}" for n in range(RING)})


class RedirectLoop(TrapSite):
    name = "redirect-loop"
    summary = "redirects that never end: /loop/a <-> /loop/b, a self-redirect, a ring of 5"
    caught_by = (Reason.REDIRECT_LOOP,)

    legitimate_pages = LEGIT

    def is_trap(self, target: str, host: int = 0) -> bool:
        return target in LOOPS

    def page(self, request: Request, ctx: RequestContext) -> Response:
        target = request_target(request)
        if target == "/":
            links = [(p, p) for p in PAGES] + [("/old-home.html", "Old home")]
            links += [("/loop/a", "A"), ("/loop/self", "Self"), ("/loop/ring/0", "Ring")]
            return article(self.name, "/", links)
        if target == "/old-home.html":
            return redirect("/new-home.html", 301)
        if target in LOOPS:
            return redirect(LOOPS[target], 301 if target == "/loop/self" else 302)
        if target in LEGIT:
            return article(self.name, target)
        return not_found()
