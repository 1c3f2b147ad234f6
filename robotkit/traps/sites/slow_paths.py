"""Many slow endpoints: a tarpit spread over two path families.

What it is
    A site whose report pages (``/reports/1`` to ``/reports/24``) each stall: the
    server holds the request and sends nothing for a minute. Its exports
    (``/exports/1.csv`` to ``/exports/8.csv``) are 10 MiB each. Around them are
    thirty ordinary fast pages, and a yearly archive whose pages are slow but
    honest: they take a second or two and then answer.

How it arises
    Reports computed on request against a database that has gone slow, an
    export endpoint that dumps a whole table, an overloaded back end behind a
    healthy front end. Each endpoint alone is what the single tarpit of the
    ``tarpit`` site shows; here there are dozens, all linked.

How a naive crawler falls in
    One at a time per host, each slow endpoint costs the whole response
    deadline: with a 10 s deadline, 24 reports cost four minutes and the
    exports 80 MiB, while the fast pages wait behind them. A crawler without a
    total deadline waits a minute per report.

What catches it in robotkit
    ``slow-path``: the triage's breaker counts timeouts and oversize bodies per
    path family (``/reports/``, ``/exports/``); after two, the rest of the family
    is skipped unfetched while the host's other pages go on. The two answers that
    tripped it are ``response-timeout`` and ``body-too-large``. Reports that
    answer inside the deadline (a ``stall`` under 10 s) trip it too once they
    come slowly (1 s or more) with nothing novel: then no ``response-timeout``. The response
    deadline is 10 s by default (Nutch's), so the archive's slow pages, which
    answer well inside it, are fetched and never trip the breaker.

Legitimate part: the home page, company pages, the docs and news sections with
their pages, the report and export indexes, and three archive pages that answer
after ``slow_legit`` seconds: 30 pages. Trap part: every report (stalled for
``stall`` seconds, or until the site stops) and every export (``huge_bytes``
bytes). The delays are constructor options so tests can shrink them.
"""

from __future__ import annotations

from werkzeug import Request, Response

from robotkit.base.reasons import Reason
from robotkit.traps.base import RequestContext, TrapSite, article, not_found, request_target
from robotkit.traps.sites.tarpit import body_of

REPORTS = tuple(f"/reports/{n}" for n in range(1, 25))
EXPORTS = tuple(f"/exports/{n}.csv" for n in range(1, 9))
TRAPS = frozenset([*REPORTS, *EXPORTS])
TRAP_FAMILIES = ("/reports/", "/exports/")
"""Path prefixes whose pages (the indexes aside) are slow or oversize."""
DOCS = ("/docs/", *(f"/docs/page-{n}" for n in range(1, 11)))
NEWS = ("/news/", *(f"/news/{n}" for n in range(1, 11)))
SLOW_LEGIT = tuple(f"/archive/{year}" for year in (2019, 2020, 2021))
"""Legitimate pages that answer after ``slow_legit`` seconds."""
INDEXES = {"/reports/": REPORTS, "/exports/": EXPORTS, "/docs/": DOCS[1:], "/news/": NEWS[1:]}
FAST = ("/", "/about", "/contact", *DOCS, *NEWS, "/reports/", "/exports/")
LEGIT = frozenset([*FAST, *SLOW_LEGIT])
DEADLINE = 10.0
"""robotkit's default response deadline (``CrawlConfig.response_timeout``)."""


class SlowPaths(TrapSite):
    name = "slow-paths"
    summary = "24 stalled /reports/N and 8 huge /exports/N.csv among 30 pages (3 slow but fine)"
    caught_by: tuple[Reason, ...] = (
        Reason.SLOW_PATH,
        Reason.RESPONSE_TIMEOUT,
        Reason.BODY_TOO_LARGE,
    )

    legitimate_pages = LEGIT
    slow_pages = frozenset(SLOW_LEGIT)
    """Declared for tests: legitimate pages that answer slowly."""

    def __init__(
        self,
        stall: float = 60.0,
        slow_legit: float = 1.2,
        huge_bytes: int = 10 * 1024 * 1024,
    ) -> None:
        if stall < 0 or slow_legit < 0 or huge_bytes < 0:
            raise ValueError("delays and sizes must not be negative")
        self.stall = stall
        self.slow_legit = slow_legit
        if stall < DEADLINE:
            # Reports that answer inside the deadline never time out: their family
            # is broken off as slow answers that teach nothing.
            self.caught_by = (Reason.SLOW_PATH, Reason.BODY_TOO_LARGE)
        self.huge_bytes = huge_bytes

    def is_trap(self, target: str, host: int = 0) -> bool:
        return target.split("?", 1)[0] in TRAPS

    def page(self, request: Request, ctx: RequestContext) -> Response:
        target = request_target(request)
        path = target.split("?", 1)[0]
        if path in REPORTS:
            # Held in one wait that the site's stop ends at once.
            ctx.stopping.wait(self.stall)
            return article(self.name, path)
        if path in EXPORTS:
            stream = body_of(self.huge_bytes, ctx.stopping)
            response = Response(stream, mimetype="text/csv", direct_passthrough=True)
            response.headers["Content-Length"] = str(self.huge_bytes)
            return response
        if target not in LEGIT:
            return not_found()
        if target in SLOW_LEGIT:
            ctx.stopping.wait(self.slow_legit)
            return article(self.name, target)
        if target == "/":
            sections = ["/about", "/contact", *INDEXES, *SLOW_LEGIT]
            return article(self.name, "/", [(s, s) for s in sections])
        return article(self.name, target, [(p, p) for p in INDEXES.get(target, ())])
