"""Numbered pages: many real pages whose text differs only in a number or two.

What it is
    Not a trap at all, but a site that looks like one to a careless trap rule.
    Seven sibling pages titled "p1" to "p7", a chain "chain 1" to "chain 7" where
    each page links only to the next, SKU price lists, one-line build status pages
    ("Build 41 passed") and release notes that differ only in the version. Every
    page is a distinct document a search index or an archive wants; the words
    around the numbers are the same because one template wrote them all. With
    ``count=N`` (registered as ``numbered-200``) the site is a plain list of N
    small pages whose text differs only in the item number.

How it arises
    Templates filled from a database: product and part catalogues, CI dashboards,
    changelogs, ticket trackers, sports results, weather stations, any list of
    records rendered one record per page with a few fields each.

How a naive crawler falls in
    The naive crawler does fine here; the danger is the opposite one. A crawler
    that treats "nearly the same text" as "the same page" (a near-duplicate
    fingerprint, a novelty score) sees page after page that adds only a digit,
    decides the section is a trap, and drops the rest of the chain or list: real
    pages lost, with nothing to show for it in trap requests saved.

What catches it in robotkit
    Nothing does, as it should: digits count in the fingerprints (``p3`` and
    ``p4`` differ), and look-alike pages are only ever demoted, never dropped. A
    region is parked only when its pages keep adding new URLs of their own while
    saying nothing new; a list of siblings linked from one page adds none, and a
    chain of seven stops before the limit of eight.

Legitimate part: every page (``/``, ``/p/1``-``/p/7``, ``/chain/1``-``/chain/7``,
``/sku/1``-``/sku/8``, ``/status/41``-``/status/48`` and ``/releases/2.4.0``-
``/releases/2.4.7``: 39 pages), or with ``count=N`` the home page and ``/n/1``
to ``/n/N``. Trap part: none.
"""

from __future__ import annotations

from werkzeug import Request, Response

from robotkit.base.reasons import Reason
from robotkit.traps.base import RequestContext, TrapSite, html_page, not_found, request_target

SIBLINGS = tuple(f"/p/{n}" for n in range(1, 8))
CHAIN = tuple(f"/chain/{n}" for n in range(1, 8))
SKUS = tuple(f"/sku/{n}" for n in range(1, 9))
BUILDS = tuple(f"/status/{n}" for n in range(41, 49))
RELEASES = tuple(f"/releases/2.4.{n}" for n in range(8))
SECTIONS = (SIBLINGS, CHAIN, SKUS, BUILDS, RELEASES)
HOME = "/"


def _number(target: str) -> str:
    return target.rsplit("/", 1)[1]


def _sibling(target: str) -> Response:
    n = _number(target)
    links = [(HOME, "Home"), *((p, f"p{_number(p)}") for p in SIBLINGS if p != target)]
    return html_page(f"p{n}", [f"This is p{n}."], links)


def _chain(target: str) -> Response:
    n = int(_number(target))
    links = [(HOME, "Home")]
    if n < len(CHAIN):
        links.append((f"/chain/{n + 1}", f"chain {n + 1}"))
    return html_page(f"chain {n}", [f"Chain link {n} of {len(CHAIN)}."], links)


def _sku(target: str) -> Response:
    n = int(_number(target))
    rows = [
        f"SKU {10000 + 10 * n + k}: price {9 + n}.{k}9 EUR, stock {3 * k + n}" for k in range(4)
    ]
    return html_page(f"Price list {n}", rows, [(HOME, "Home")])


def _build(target: str) -> Response:
    n = int(_number(target))
    verdict = "failed" if n % 4 == 0 else "passed"
    return html_page(f"Build {n}", [f"Build {n} {verdict}."], [(HOME, "Home")])


def _release(target: str) -> Response:
    version = _number(target)
    text = f"Release {version}: bug fixes and small improvements. Upgrade from {version}-rc1."
    return html_page(f"Release notes {version}", [text], [(HOME, "Home")])


_RENDER = dict(
    zip(SECTIONS, (_sibling, _chain, _sku, _build, _release), strict=True),
)


class NumberedPages(TrapSite):
    """The mixed site by default; ``count=N`` makes the plain N-page list."""

    caught_by: tuple[Reason, ...] = ()

    def __init__(self, count: int | None = None) -> None:
        if count is not None and not 1 <= count <= 10_000:
            raise ValueError("count must be between 1 and 10000")
        self.count = count
        if count is None:
            self.name = "numbered-pages"
            self.summary = "no trap: p1..p7, chain 1..7, SKU lists, builds, releases (numbers only)"
            pages: list[str] = [HOME, *(p for section in SECTIONS for p in section)]
        else:
            self.name = f"numbered-{count}"
            self.summary = f"no trap: {count} small pages whose text differs only in numbers"
            pages = [HOME, *(f"/n/{n}" for n in range(1, count + 1))]
        self.legitimate_pages = frozenset(pages)

    def is_trap(self, target: str, host: int = 0) -> bool:
        return False

    def page(self, request: Request, ctx: RequestContext) -> Response:
        target = request_target(request)
        if target not in self.legitimate_pages:
            return not_found()
        if self.count is not None:
            return self._plain(target)
        if target == HOME:
            links = [(p, p) for section in SECTIONS for p in section if p not in CHAIN[1:]]
            return html_page("Numbered pages", ["Records, one per page."], links)
        for section, render in _RENDER.items():
            if target in section:
                return render(target)
        return not_found()

    def _plain(self, target: str) -> Response:
        """The plain list: home lists every item; each item links to its
        neighbours, so the list is reachable both ways."""
        assert self.count is not None
        if target == HOME:
            items = [(f"/n/{n}", f"Item {n}") for n in range(1, self.count + 1)]
            return html_page("Items", [f"{self.count} items."], items)
        n = int(_number(target))
        links = [(HOME, "All items")]
        links += [(f"/n/{m}", f"Item {m}") for m in (n - 1, n + 1) if 1 <= m <= self.count]
        return html_page(f"Item {n}", [f"Item {n}: {n % 7 + 1} in stock."], links)
