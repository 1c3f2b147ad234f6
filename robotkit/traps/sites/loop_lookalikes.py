"""Two loops that hide from simple rules, beside real pages that look like loops.

What it is
    A directory loop of period four without trailing slashes: the page at
    ``/tree/a`` links to ``a/b``, which resolves to ``/tree/a/b`` (a relative
    reference is resolved against the page's own URL, RFC 3986 section 5.2),
    and so on round ``a, b, c, d``: ``/tree/a/b/c/d/a/b/c/d/...``, each level the
    page of its place in the cycle. And a PATH_INFO loop: a PHP front controller
    answers ``/forum/index.php/anything`` with the forum page, whose relative
    menu link ``index.php/section/`` then resolves one level deeper every time:
    ``/forum/index.php/section/index.php/section/...``. Beside them stand real
    pages with repeated segments: date permalinks (``/2011/11/11/``), docs that
    nest versions (``/docs/v1/docs/v2/docs/v3/``), and one long faceted search
    with 79 parameters under 8 names (``brand[]=...`` repeated).

How it arises
    A link written relative (``href="a/b"``) where an absolute one was meant, on
    a server that maps any path below a folder to a page (rewrite rules, a
    symlink); Apache's ``AcceptPathInfo`` passing ``/index.php/...`` to a
    script that ignores it, with relative links in the template. The look-alikes
    are ordinary: blogs with day archives, documentation mirrors, PHP-style
    array parameters from multi-select search forms.

How a naive crawler falls in
    Every level of a loop is a new URL with a 200 and the same relative link,
    without end. A crawler whose loop rules are blunt (a segment repeated three
    times, too many parameters) falls the other way: it refuses
    ``/2011/11/11/`` and the long search page, which are real.

What catches it in robotkit
    ``duplicate-content``: each loop level repeats the text of a level above it,
    so it is an exact copy, and of its links only those its original did not
    have at the same place are kept: the next lap is dropped. Behind it,
    ``repeated-path`` refuses a fourth repeat of any period (a third for links of
    copies). The look-alikes pass: ``11/11/11`` is two repeats, ``docs/v1/docs/v2``
    none, and ``too-many-params`` counts distinct names, not the 79 values of
    eight array parameters.

Legitimate part: the home page, the tree's first lap (``/tree/a`` to
``/tree/a/b/c/d``), the forum (``/forum/index.php`` and five topics), eleven
date archive and permalink pages, four docs pages and two search pages: 28
pages. Trap part: deeper tree levels and any ``/forum/index.php/...`` path.
"""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode

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

CYCLE = ("a", "b", "c", "d")
TREE = "/tree"
TREE_LAP = tuple(TREE + "".join(f"/{s}" for s in CYCLE[: n + 1]) for n in range(len(CYCLE)))
FORUM = "/forum/index.php"
TOPICS = tuple(f"{FORUM}?topic={n}" for n in range(1, 6))
DATES = (
    "/2011/",
    "/2011/11/",
    "/2011/11/11/",
    "/2011/11/11/eleven-eleven",
    "/2011/11/11/party-photos",
    "/2011/11/11/11-11-11-checklist",
    "/2012/12/12/",
    "/2012/12/12/end-of-the-calendar",
    "/2022/02/22/",
    "/2022/02/22/twosday",
    "/2020/02/02/palindrome-day",
)
DOCS = ("/docs/", "/docs/v1/", "/docs/v1/docs/v2/", "/docs/v1/docs/v2/docs/v3/")
FACETS: dict[str, int] = {
    "q": 1,
    "brand[]": 20,
    "colour[]": 15,
    "size[]": 15,
    "material[]": 10,
    "feature[]": 8,
    "price[]": 6,
    "rating[]": 4,
}
"""Name and count of the long search's parameters: 79 in all, under 8 names."""
SEARCH_PAIRS = tuple(
    (name, "shoes" if name == "q" else f"{name[:-2]}-{n}")
    for name, count in FACETS.items()
    for n in range(1, count + 1)
)
LONG_SEARCH = "/search?" + urlencode(SEARCH_PAIRS, safe="[]")
SEARCH = ("/search", LONG_SEARCH)
LEGIT = frozenset(["/", *TREE_LAP, FORUM, *TOPICS, *DATES, *DOCS, *SEARCH])


def tree_level(target: str) -> int | None:
    """How many segments below ``/tree`` a target is, if it follows the cycle."""
    if not target.startswith(TREE + "/"):
        return None
    segments = target[len(TREE) + 1 :].split("/")
    expected = [CYCLE[i % len(CYCLE)] for i in range(len(segments))]
    return len(segments) if segments == expected else None


def is_long_search(target: str) -> bool:
    """The long search in any spelling: escaped brackets, any parameter order."""
    path, _, query = target.partition("?")
    return path == "/search" and sorted(parse_qsl(query)) == sorted(SEARCH_PAIRS)


class LoopLookalikes(TrapSite):
    name = "loop-lookalikes"
    summary = (
        "period-4 loop without slashes, a PATH_INFO loop; 11/11/11, docs/v1/docs/v2, 79 params"
    )
    caught_by = (Reason.DUPLICATE_CONTENT,)

    legitimate_pages = LEGIT

    def is_trap(self, target: str, host: int = 0) -> bool:
        level = tree_level(target)
        return (level is not None and level > len(CYCLE)) or target.startswith(FORUM + "/")

    def classify(self, target: str, host: int = 0) -> Page:
        """The long search page counts once, however its query is spelled."""
        target = target_of(target)
        return super().classify(LONG_SEARCH if is_long_search(target) else target, host)

    def page(self, request: Request, ctx: RequestContext) -> Response:
        target = request_target(request)
        if target == "/":
            dates = ["/2011/", "/2012/12/12/", "/2022/02/22/", "/2020/02/02/palindrome-day"]
            entries = [TREE_LAP[0], FORUM, *dates, "/docs/"]
            return article(self.name, "/", [(e, e) for e in [*entries, "/search"]])
        level = tree_level(target)
        if level is not None:
            # Served without a trailing slash, like a file; the link is relative.
            place = TREE_LAP[(level - 1) % len(CYCLE)]
            child = CYCLE[level % len(CYCLE)]
            return article(
                self.name, place, [(f"{CYCLE[(level - 1) % len(CYCLE)]}/{child}", child)]
            )
        if target == FORUM or target.startswith(FORUM + "/"):
            # The front controller ignores PATH_INFO: every such path is the forum.
            menu = [("index.php/section/", "Section"), *((t[len("/forum/") :], t) for t in TOPICS)]
            return article(self.name, FORUM, menu)
        if target in TOPICS:
            return article(self.name, target, [("index.php", "Forum")])
        if is_long_search(target):
            return article(self.name, LONG_SEARCH)
        if target not in LEGIT:
            return not_found()
        return article(self.name, target, self._children(target))

    def _children(self, target: str) -> list[tuple[str, str]]:
        """Links down the date archive and the docs, and to the long search."""
        if target == "/search":
            return [(LONG_SEARCH, "Shoes, every filter")]
        pool = DATES if target in DATES else DOCS
        below = [p for p in pool if p != target and p.startswith(target)]
        direct = [p for p in below if not any(q != p and p.startswith(q) for q in below)]
        return [(p, p) for p in direct]
