"""A relative-link loop: ``href="sub/"`` on every page.

What it is
    A page template carries a relative link such as ``<a href="sub/">``. On
    ``/guide/`` it means ``/guide/sub/``, as intended; but the template is on every
    page, so on ``/guide/sub/`` it means ``/guide/sub/sub/``, and so on
    (RFC 3986 section 5.2 resolves a relative reference against the page's own URL).

How it arises
    A relative link written where an absolute one (``/guide/sub/``) was meant, on a
    server with a catch-all rewrite rule (front controller, ``try_files ...
    /index.php``) that answers any path below ``/guide/`` with the guide page instead
    of a 404.

How a naive crawler falls in
    Each resolved link is a new URL that answers 200 with a page holding the same
    relative links, one level deeper each time.

What catches it in robotkit
    ``soft-404``, in the demo: the crawler asks the site for a URL in ``/guide/``
    that cannot exist (a probe), the catch-all answers it with the guide template,
    and every deeper page that looks like that answer is a not-found page in
    disguise whose links are dropped. Behind it: ``duplicate-content`` (the
    template again), ``repeated-path`` (``sub/sub/sub/``) and ``path-too-deep``.

Legitimate part: the home page, ``/guide/`` and its real pages (``sub/``,
``install.html``, ``config.html``) and ``/about.html``. Trap part: any other path
below ``/guide/``, which the catch-all answers.
"""

from __future__ import annotations

from werkzeug import Request, Response

from robotkit.base.reasons import Reason
from robotkit.traps.base import RequestContext, TrapSite, article, request_target

GUIDE = "/guide/"
GUIDE_LINKS = (("sub/", "Subsection"), ("install.html", "Install"), ("config.html", "Config"))
LEGIT = frozenset(["/", "/about.html", GUIDE, *(GUIDE + href for href, _ in GUIDE_LINKS)])


class RelativeLoop(TrapSite):
    name = "relative-loop"
    summary = 'a relative link href="sub/" on every page: /guide/sub/sub/sub/...'
    caught_by = (Reason.SOFT_404,)

    legitimate_pages = LEGIT

    def is_trap(self, target: str, host: int = 0) -> bool:
        return target.startswith(GUIDE) and target not in LEGIT

    def page(self, request: Request, ctx: RequestContext) -> Response:
        target = request_target(request)
        if target == "/":
            return article(self.name, "/", [(GUIDE, "Guide"), ("/about.html", "About")])
        if target.startswith(GUIDE):
            # The catch-all: every path below /guide/ gets the template, whose
            # links are relative; only the real pages get their own text.
            key = target if target in LEGIT else GUIDE
            return article(self.name, key, GUIDE_LINKS)
        return article(self.name, target)
