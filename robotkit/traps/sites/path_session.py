"""A session id as the first path segment, new in every response.

What it is
    A shop that keeps visitors apart by writing a session id into the path of
    every link it renders: ``/k3m0a5c2.../catalog/item-4``. A client without
    cookies gets a fresh id on every response, so each page has endless URLs.
    Beside the shop, the same site has pages whose paths hold ids that look just
    as random but are stable names of distinct pages: commits
    (``/commit/3fa9c2e1/``) and user profiles (``/u/9f8a7b6c/profile``).

How it arises
    ASP.NET's cookieless session state rewrites every URL as
    ``/(S(<24 characters>))/page.aspx``; some Java and PHP frameworks and many
    home-grown shops put the id in a path segment instead of ``;jsessionid=`` or
    ``?sid=``, where no parameter name gives it away.

How a naive crawler falls in
    Every response links to every page under an id it has never seen, so every
    page is fetched again after every page, without end. Normalization rules that
    strip known session parameters do not see an unnamed path segment.

What catches it in robotkit
    ``duplicate-url``: a page whose own URL carries a token in its first path
    segment while every link it gives carries one other token there re-issues a
    session id on each response; after two such pages that position is dropped
    from the keys (:mod:`robotkit.url.learned`), so every further URL of a page
    already fetched is a duplicate. A page that links several tokens at one
    position (the commit list) proves they name pages, so the stable ids stay.

Legitimate part: the home page, the catalogue (index and twelve items), help,
news and company pages, six commit pages and five user profiles: 36 pages. Any
URL of one of these pages, with or without a session segment, counts as that
page once. Trap part: every further request for a page already fetched.
"""

from __future__ import annotations

import hashlib
import re
import secrets

from werkzeug import Request, Response

from robotkit.base.reasons import Reason
from robotkit.traps.base import (
    Page,
    RequestContext,
    TrapSite,
    article,
    not_found,
    request_target,
    target_of,
)

SESSION_LENGTH = 24
SESSION_ALPHABET = "abcdefghijklmnopqrstuvwxyz012345"
"""ASP.NET's cookieless ids: 24 characters of lowercase letters and digits 0-5."""


def _stable_id(name: str, length: int = 8) -> str:
    return hashlib.sha256(name.encode()).hexdigest()[:length]


SHOP = (
    "/catalog/",
    *(f"/catalog/item-{n}" for n in range(1, 13)),
    "/help/faq",
    "/help/shipping",
    "/help/returns",
    "/about",
    "/contact",
    *(f"/news/{n}" for n in range(1, 7)),
)
"""Pages whose links carry the session segment."""
COMMITS = tuple(f"/commit/{_stable_id(f'commit {n}')}/" for n in range(1, 7))
USERS = tuple(f"/u/{_stable_id(f'user {n}')}/profile" for n in range(1, 6))
LOOKALIKES = (*COMMITS, *USERS)
"""Pages with stable random-looking ids in their paths: distinct, never sessions."""
LEGIT = frozenset(["/", *SHOP, *LOOKALIKES])
_SESSION = re.compile(rf"^/[{SESSION_ALPHABET}]{{{SESSION_LENGTH}}}(/.*)$")


def new_session() -> str:
    """A fresh id, random per response as on real sites."""
    return "".join(secrets.choice(SESSION_ALPHABET) for _ in range(SESSION_LENGTH))


def strip_session(target: str) -> str:
    """The target without a leading session segment: the page it really is."""
    match = _SESSION.match(target)
    return match[1] if match else target


class PathSession(TrapSite):
    name = "path-session"
    summary = "a fresh session id as the first path segment of every link; stable hex ids beside"
    caught_by = (Reason.DUPLICATE_URL,)

    legitimate_pages = LEGIT

    def is_trap(self, target: str, host: int = 0) -> bool:
        """Session URLs of real pages; :meth:`classify` counts the first request
        of a page as legitimate and the rest as repeats."""
        page = strip_session(target)
        return page != target and page in LEGIT

    def classify(self, target: str, host: int = 0) -> Page:
        """Any session URL of a page names that page."""
        return super().classify(strip_session(target_of(target)), host)

    def page(self, request: Request, ctx: RequestContext) -> Response:
        target = strip_session(request_target(request))
        if target not in LEGIT:
            return not_found()
        session = new_session()
        links = [(f"/{session}{p}", p) for p in SHOP]
        # The code browser is another application: its links have no session.
        links += [(p, p) for p in LOOKALIKES]
        return article(self.name, target, links)
