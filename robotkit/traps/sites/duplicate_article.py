"""The same article under many URLs.

What it is
    One article answers at its canonical URL and at many others: a print view
    (``?print=1``, ``/print/...``), an AMP copy, a date-based path, a trailing
    slash, different letter case, a legacy ``/index.php?p=N``, and endless
    tracking parameters (``?utm_source=...&utm_campaign=...``) with fresh values
    in every share link. Every copy carries ``<link rel="canonical">``.

How it arises
    CMSs expose the same content through several routes; newsletters and share
    buttons add tracking parameters; servers that ignore case or a trailing slash.

How a naive crawler falls in
    Each variant is a distinct URL with a 200; the share links are new on every
    page view, so the variants never run out.

What catches it in robotkit
    ``duplicate-url`` (normalization strips tracking parameters such as ``utm_*``
    and ``fbclid``) and ``duplicate-content`` (the same text under another URL).

Legitimate part: the home page and four articles at their canonical URLs. Trap
part: every other URL of an article.
"""

from __future__ import annotations

import re
import secrets

from werkzeug import Request, Response

from robotkit.base.reasons import Reason
from robotkit.traps.base import RequestContext, TrapSite, article, not_found, request_target

SLUGS = ("robots-history", "polite-crawling", "crawl-budgets", "url-normalization")
CANONICAL = tuple(f"/articles/{slug}" for slug in SLUGS)
LEGIT = frozenset(["/", *CANONICAL])
_VARIANTS = (
    re.compile(r"^/articles/([a-z-]+)/?(?:\?.*)?$"),
    re.compile(r"^/(?:print|amp)/articles/([a-z-]+)$"),
    re.compile(r"^/\d{4}/\d{2}/([a-z-]+)$"),
    re.compile(r"^/articles/([a-z-]+)/amp$"),
)
_LEGACY = re.compile(r"^/index\.php\?p=(\d+)$")


def slug_of(target: str) -> str | None:
    """Which article a URL shows, whatever its form; None if it is not one."""
    legacy = _LEGACY.match(target)
    if legacy:
        number = int(legacy[1])
        return SLUGS[number - 1] if 1 <= number <= len(SLUGS) else None
    lowered = target.lower()
    for pattern in _VARIANTS:
        match = pattern.match(lowered)
        if match and match[1] in SLUGS:
            return match[1]
    return None


def variants(slug: str) -> list[str]:
    """The other URLs of an article, with fresh tracking values each time."""
    number = SLUGS.index(slug) + 1
    token = secrets.token_hex(4)
    return [
        f"/articles/{slug}?print=1",
        f"/print/articles/{slug}",
        f"/amp/articles/{slug}",
        f"/articles/{slug}/amp",
        f"/2024/05/{slug}",
        f"/articles/{slug}/",
        f"/Articles/{slug.title()}",
        f"/index.php?p={number}",
        f"/articles/{slug}?utm_source=share&utm_medium=email&utm_campaign={token}",
        f"/articles/{slug}?fbclid={token}",
    ]


class DuplicateArticle(TrapSite):
    name = "duplicate-article"
    summary = "one article under many URLs: print, AMP, dated path, case, utm_* and fbclid"
    caught_by = (Reason.DUPLICATE_URL, Reason.DUPLICATE_CONTENT)

    legitimate_pages = LEGIT

    def is_trap(self, target: str, host: int = 0) -> bool:
        return target not in LEGIT and slug_of(target) is not None

    def page(self, request: Request, ctx: RequestContext) -> Response:
        target = request_target(request)
        if target == "/":
            return article(self.name, "/", [(c, c) for c in CANONICAL])
        slug = slug_of(target)
        if slug is None:
            return not_found()
        canonical = f"/articles/{slug}"
        links = [(v, "Share / other view") for v in variants(slug)]
        # rel=canonical (RFC 6596) names the one URL the copies stand for.
        return article(self.name, canonical, links, canonical=ctx.url(canonical))
