"""A session id in every link: ``;jsessionid=...`` in the path, ``?sid=...`` in the query.

What it is
    The server tracks visitors by writing a session id into every link it renders,
    and a client without cookies gets a fresh id on every response. The pages are
    the same; their URLs never are.

How it arises
    Java servlet containers rewrite URLs with ``;jsessionid=`` when cookies are off
    (``encodeURL``); PHP's ``session.use_trans_sid`` appends ``?PHPSESSID=``; older
    shops and forums add ``?sid=`` themselves. Crawlers rarely keep cookies, so
    they see the rewritten links.

How a naive crawler falls in
    Each response's links are new URLs, so every page is fetched again and again
    under ids that were never seen before.

What catches it in robotkit
    ``duplicate-url``: URL normalization strips known session-id parameters and
    path parameters (``jsessionid``, ``sid``, ``phpsessid`` ...) before the seen
    check, so the second URL of a page is a duplicate. ``duplicate-content`` is
    the fallback.

Legitimate part: the home page, five shop items (links carry ``;jsessionid=``) and
five news pages (links carry ``?sid=``). Any URL of one of these pages, with or
without an id, counts as that page once. Trap part: every further request for a
page already fetched, under whatever session id.
"""

from __future__ import annotations

import re
import secrets

from werkzeug import Request, Response

from robotkit.base.reasons import Reason
from robotkit.traps.base import (
    Page,
    PageKind,
    RequestContext,
    TrapSite,
    article,
    not_found,
    request_target,
    target_of,
)

SHOP = tuple(f"/shop/item-{n}" for n in range(1, 6))
NEWS = tuple(f"/news/{n}" for n in range(1, 6))
LEGIT = frozenset(["/", *SHOP, *NEWS])
_PATH_SESSION = re.compile(r";jsessionid=[^/?]*", re.IGNORECASE)
_QUERY_SESSION = re.compile(r"(^|&)sid=[^&]*", re.IGNORECASE)


def strip_session(target: str) -> str:
    """The target without its session ids: the page it really is."""
    path, _, query = target.partition("?")
    path = _PATH_SESSION.sub("", path)
    query = _QUERY_SESSION.sub("", query).lstrip("&")
    return f"{path}?{query}" if query else path


def has_session(target: str) -> bool:
    return strip_session(target) != target


class SessionIds(TrapSite):
    name = "session-ids"
    summary = "a fresh session id in every link (;jsessionid= in the path, ?sid= in the query)"
    caught_by = (Reason.DUPLICATE_URL,)

    legitimate_pages = LEGIT

    def is_trap(self, target: str, host: int = 0) -> bool:
        """Session URLs are the trap, but each names a legitimate page: see
        :meth:`classify`, which counts the first request of a page as legitimate
        and the rest as repeats."""
        return has_session(target) and strip_session(target) in LEGIT

    def classify(self, target: str, host: int = 0) -> Page:
        page = strip_session(target_of(target))
        if page in LEGIT:
            return Page(PageKind.LEGITIMATE, page)
        return Page(PageKind.OTHER, page)

    def page(self, request: Request, ctx: RequestContext) -> Response:
        target = strip_session(request_target(request))
        if target not in LEGIT:
            return not_found()
        session = secrets.token_hex(8)
        links = [(f"{p};jsessionid={session}", p) for p in SHOP]
        links += [(f"{p}?sid={session}", p) for p in NEWS]
        response = article(self.name, target, links)
        response.set_cookie("JSESSIONID", session, path="/")
        return response
