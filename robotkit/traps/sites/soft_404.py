"""A soft-404 site: every path answers 200, with fresh links.

What it is
    The server never says 404. Any URL, real or not, gets a 200 page ("Sorry, we
    could not find that page ... you may like:") with links to other URLs that do
    not exist either, made up on every response.

How it arises
    CMS themes and single-page-app hosts that route every unknown path to a friendly
    page with status 200; "related searches" or "suggested pages" widgets that turn
    the missing path into new search links.

How a naive crawler falls in
    It trusts the status code, stores every page and follows its suggestions, which
    are new on every response.

What catches it in robotkit
    ``soft-404``: fetch a URL that cannot exist and compare: pages that look like
    that answer (same title and much the same text) are not-found pages in
    disguise, and their links are dropped. ``duplicate-content`` is the fallback.

Legitimate part: the home page and five real pages. Trap part: every other path,
including one dead link on the home page (``/old-page.html``).
"""

from __future__ import annotations

import secrets

from werkzeug import Request, Response

from robotkit.base.reasons import Reason
from robotkit.traps.base import RequestContext, TrapSite, article, html_page, request_target

PAGES = (
    "/about.html",
    "/products.html",
    "/contact.html",
    "/blog/first-post.html",
    "/blog/second-post.html",
)
LEGIT = frozenset(["/", *PAGES])


class Soft404(TrapSite):
    name = "soft-404"
    summary = "any path answers 200 'not found' with fresh links to more missing pages"
    caught_by = (Reason.SOFT_404,)

    legitimate_pages = LEGIT

    def is_trap(self, target: str, host: int = 0) -> bool:
        return target not in LEGIT and target != "/robots.txt"

    def page(self, request: Request, ctx: RequestContext) -> Response:
        target = request_target(request)
        if target == "/":
            return article(self.name, "/", [*((p, p) for p in PAGES), ("/old-page.html", "Old")])
        if target in PAGES:
            return article(self.name, target)
        suggestions = [f"/suggest/{secrets.token_hex(4)}.html" for _ in range(3)]
        return html_page(
            "Sorry, we could not find that page",
            ["The page you asked for is not here. You may like these instead:"],
            [(s, s) for s in suggestions],
        )
