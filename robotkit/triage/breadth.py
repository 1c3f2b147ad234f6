"""The breadth of a class of records, for the growth bound (:mod:`robotkit.triage.growth`):
whether the pages of a URL class keep minting new URLs instead of linking what the crawl
already knows (ARCHITECTURE.md, "Trap policy", "A kind that keeps minting").

A real site is finite: its records link each other, and once the crawl has read a few
dozen of a kind, most of what they link is known (a wiki's article links 27 to 33 known
pages for each new one, blind2 ``wiki``; a shop's product its related products, a blog's
post its archive and tags, blind8 ``squarespace``). A site making up records from their
names never closes: each record links new records of its own and of other kinds, and
hardly any record it showed before (blind15 ``metacpan``: a made-up distribution links
two new records for one known, a module three for none; ``hnews`` a story six for three;
``dictionary`` a word two for a quarter; blind16 ``pmwiki``, ``pawtucket``,
``tripadvisor``). Its pages yield (each links a new page of another class), so the growth
bound takes every link for a root, and its prose in the site's words is new by word
pairs, so the waste bound counts it as teaching: the crawls ran to the page cap.

A *kind* of page is its URL class and its query's names; a kind *mints* once
``BREADTH`` of its pages were read and they linked more new URLs than known ones, links
showing the page's own object (:func:`~robotkit.triage.moves.viewed`,
:func:`~robotkit.triage.moves.aside`) and the seeds' links (a site's navigation, on every
page) left out. A page read while its kind mints is a *minter*: its links to pages of
another class or kind are no roots by it, they wait (``Growth._step`` in
:mod:`robotkit.triage.growth`); its moves (a pager, a view) are counted as any page's;
and a URL also linked by a page that is no minter (an index, a list, the home, a record
read before its kind minted) is not held by it. Real kinds mint too, where each page
links new variants of itself (blind2 ``phpbb``'s topics by URL class: 229 new links to
155 known over 34 pages; blind13 ``qa``, blind14 ``recipes``): their pagers go on as
moves, and their records are listed by indexes that are no minters.

Pure, with no clock: counts of the links offered.
"""

from __future__ import annotations

from typing import Any

from robotkit.base.snapshot import listed as typed_list
from robotkit.base.snapshot import typed
from robotkit.triage.moves import aside, growth_class, viewed
from robotkit.url.normalization import NormalizedURL
from robotkit.url.rewrites import param_name, query_states

__all__ = ["BREADTH", "Breadth", "own_view"]

BREADTH = 32
"""Pages of a class read before its links are weighed: a real kind of record whose
first pages each link new ones (a wiki's first articles, blind10 ``tikiwiki``: 2 new
and 2 known a page over its first 12) has linked what it has by then."""


def own_view(page: NormalizedURL, link: NormalizedURL, new: bool) -> bool:
    """Whether ``link`` shows ``page``'s own object: a view of it
    (:func:`~robotkit.triage.moves.viewed`), or, new, a record beside the object the
    page views (:func:`~robotkit.triage.moves.aside`). Such a link neither makes the
    page yield (:class:`robotkit.triage.growth.Growth`) nor counts in its kind's
    breadth; one answer serves both."""
    return viewed(page, link) or (new and aside(page, link) is not None)


def _kind(page: NormalizedURL) -> str:
    """A page's kind: its URL class and its query's names (a front controller's template:
    a forum's ``index.php?topic=`` apart from its ``?board=``, blind5 ``smf``, whose board
    pages were read among its topics' and their links held)."""
    names = sorted({param_name(pair) for pair in query_states(page.query)})
    return "|".join(map(str, growth_class(page))) + "?" + "&".join(names)


class Breadth:
    """Per kind of page, the pages read and the new and known URLs they linked; the
    pages read while their kind minted. Each of the three tables holds at most
    ``max_remembered`` entries (a hostile site's made-up query names make kinds too)."""

    def __init__(self, max_remembered: int = 200_000) -> None:
        self.max_remembered = max_remembered
        self._counts: dict[str, list[int]] = {}  # class: [pages, new, known]
        self._read: dict[str, bool] = {}  # a page read: whether it is a minter
        self._nav: set[str] = set()  # URLs a seed linked: a site's navigation
        self._last = ("", "")  # the last referer and its kind

    def linked(
        self, key: str, referer: str, page: NormalizedURL, new: bool, own: bool, seed: bool = False
    ) -> None:
        """A link under ``key`` offered by ``referer`` (parsed: ``page``, a ``seed``: its
        links are the site's navigation), ``new`` to the crawl or known, ``own`` when it
        shows the page's own object (:func:`own_view`)."""
        if seed and len(self._nav) < self.max_remembered:
            self._nav.add(key)
        if self._last[0] != referer:  # a page's links are offered one after another
            self._last = (referer, _kind(page))
        kind = self._last[1]
        counts = self._counts.get(kind)
        if counts is None:
            if len(self._counts) >= self.max_remembered:
                return
            counts = self._counts[kind] = [0, 0, 0]
        if referer not in self._read and len(self._read) < self.max_remembered:
            self._read[referer] = self.mints(kind)
            counts[0] += 1
        if key == referer or own:
            return
        if new:
            counts[1] += 1
        elif key not in self._nav:
            counts[2] += 1

    def mints(self, kind: str) -> bool:
        """Whether the pages of ``kind`` keep minting new URLs."""
        pages, new, known = self._counts.get(kind, (0, 0, 0))
        return pages >= BREADTH and new > known

    def minter(self, referer: str) -> bool:
        """Whether the page under ``referer`` was read while its kind minted."""
        return self._read.get(referer, False)

    def snapshot(self) -> dict[str, Any]:
        return {
            "counts": sorted([k, *n] for k, n in self._counts.items()),
            "read": sorted([k, v] for k, v in self._read.items()),
            "nav": sorted(self._nav),
        }

    def restore(self, data: dict[str, Any]) -> None:
        """Take back :meth:`snapshot`'s fields (none: a snapshot from before)."""
        self._counts = {
            typed(k, str, "class"): [typed(n, int, "count") for n in rest]
            for k, *rest in typed_list(data.get("counts", []), "counts", list)
        }
        self._read = {
            typed(k, str, "key"): typed(v, bool, "minter")
            for k, v in typed_list(data.get("read", []), "read", list)
        }
        self._nav = set(typed_list(data.get("nav", []), "key", str))
