"""What a parked query space still lets in: the pages real pages lead into it.

A region is parked (:mod:`robotkit.triage.regions`) when its pages keep adding URLs of
it and saying nothing new: a catalogue's sorts, page sizes and stacked facets. Its
real list pages are of the same query space, and the order of a crawl decides
whether they come before the parking or after: a list's second page and a tag list
linked from every record were lost because the facets of the first list were
fetched first (blind7 ``blacklight``, ``prestashop``, ``omeka``, ``movabletype``).
A parked region's growth is its pages linking each other; two kinds of links into it
are evidence of their own, and are still followed:

- **Next pages.** A page that was news (novel, or a list of new items) and names its
  own next pages (its query with one numbered pair more, ``page=2``, ``page=3``, or
  a number larger, ``page=3`` on ``page=2``; a name whose numbers include the next
  one, so no page size, ``per_page=20``) vouches for them, when the page is an entry
  of its list: without a query, linked by a page of another path, or itself a next
  page so let in. A facet or sort of a list, linked by the list's own path, is no
  entry: its pages stay parked. Outside a parked space too, the waste bound holds a
  next page only by its own pages when its page has one pager, no select
  (:func:`one_pager`). A pager by offset (Solr's and Google's ``start=``,
  Elasticsearch's ``from=``, Django REST framework's ``offset=``, a portal's
  ``index=``; SQL's ``OFFSET``) numbers the next page by the first record it shows,
  the page's offset (0 without the pair) plus the records the page lists: a name
  whose forward steps are the records the page lists (the most pages of one other
  region it links, 2 at least) and the next multiples of them in order (Google's
  ``start=10``, ``20``, ``30`` on ten results) names next pages too (blind14
  ``realestate``: each region's ``&index=4`` after four homes, two homes only
  there, held with the filters that parked the searches). A filter valued by a
  small number (``minBedrooms=1..4``) steps by 1 too, and page sizes skip
  multiples (``per_page=10``, ``20``, ``50``): neither is one.
- **Siblings linked from outside.** A URL with the names of a page of the region
  fetched (no exact copy) and another value of one of them (``?tags=lens`` beside
  ``?tags=lamp``; a tag search beside the seed's, its other values the same), that
  ``LINKED_BY`` pages of other regions that were news linked, is another page of a
  form the region serves: a tag every entry of it links. Met in the main tier while
  fewer (but one) linked it, it waits once for the demoted tier, where the pages
  that link it have been read (:meth:`Entries.defer`, asked by the crawler before
  the recheck). Links from inside the region (a facet's
  facets), forms never fetched (an advanced search) and a search one or two articles
  suggest (blind ``related``) stay parked.
- **Canonical members.** A URL whose pairs are all of a page of its path fetched
  under more (``?v=X`` of the playlist player's ``?v=X&list=L&index=10``), of a set
  of names a page of its path that was news had (``?v``), is the page that spelling
  spelled: of a copy family the shorter member is the page and the longer its copy
  (:func:`robotkit.url.families.reduces`), and a spelling read first is no reason to
  leave the page itself (blind13 ``invidious``: three videos reached first through
  the endless player, whose "next" links parked the watch page's space, were held).
  One fetch at most for each page of the space fetched.
- **Deep links from a static page.** A URL a page without a query of another region
  that was news linked (a static page outside the script: a report generator's month
  page linking the script's summary of that month), with every pair of a page of its
  path that was news and names more (that page's object with a qualifier), of a form
  the space never grew by (no set of its names a growing page of it had) and carrying
  none of the names that grew it, is the record that page is about, not a view of the
  space's (:meth:`Entries.deep`; blind13 ``awstats``: each site's real monthly
  summaries ``awstats.pl?config=<site>&month=07&year=2026``, linked only by
  Webalizer's ``usage_202607.html``, were held once the summaries' report and
  language views parked the script, 12 of 33 pages). A search a glossary term
  suggests (``/search?q=``, blind ``related``) is of the form that grew its space; a
  record's author search (``?q=<name>&search_field=author``, blind7 ``blacklight``),
  an event's display options (blind11 ``indico``) and a hotel's booking form (blind10
  ``webflow``) name no news page's pairs and more: all stay parked (in a trial
  without that test, they cost 3, 60 and 5 trap fetches and 3 real pages).

None holds for a query of a query builder's numbered clauses (``filter_1=``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import partial
from typing import Any

from robotkit.base.snapshot import header, listed, opened, reading, typed
from robotkit.url.normalization import NormalizedURL
from robotkit.url.rewrites import param_name, query_pairs

__all__ = ["Entries", "next_pages", "offset_pages", "one_pager", "pager_step", "sibling"]

MAX_ENTRIES = 200_000
"""Next pages and links from outside remembered (a bound on memory)."""
_ORDINAL = re.compile(r"\d")
"""A digit in a parameter's name: the Nth clause of a query builder (DSpace's
``filter_1``, Omeka's ``advanced[0][terms]``), whose first step is a facet of a
search, not a list of its own: its siblings and pages stay parked (blind5
``dspace``: an item's author and subject searches, copies of the subject browse
pages, and their next pages, 4 trap fetches in a trial)."""
_MONTH = re.compile(r"(\d{4})-(0[1-9]|1[0-2])(?:-01)?")
"""A month as ISO 8601 writes it, ``YYYY-MM``, or by its first day, ``YYYY-MM-01``, as
a report of a month period does (Matomo's ``period=month&date=2026-10-01``)."""
_MONTH_LEN = len("2027-02")
LINKED_BY = 3
"""Pages of other regions that must link a sibling: a tag every entry of it links,
not the searches one article suggests (blind ``related``)."""
MAX_FORMS = 200
"""Queries fetched kept per path and set of names (a bound on the time a check takes)."""


def _pairs(norm: NormalizedURL) -> Counter[str]:
    return Counter(query_pairs(norm.query))


def _one_change(old: Counter[str], new: Counter[str]) -> tuple[str, str] | None:
    """The one pair ``new`` has in place of one of ``old`` (``""`` for none), or
    ``None`` when they differ otherwise."""
    added, removed = new - old, old - new
    if sum(added.values()) != 1 or sum(removed.values()) > 1:
        return None
    return next(iter(removed), ""), next(iter(added))


def _renumbered(page: NormalizedURL, link: NormalizedURL) -> tuple[str, str | None, str] | None:
    """The one pair ``link`` has in place of ``page``'s of its name, or beside
    ``page``'s pairs, when the path and the other pairs are the same: its name,
    ``page``'s value (``None`` when it lacks the name) and the link's."""
    if link.origin != page.origin or link.path != page.path:
        return None
    change = _one_change(_pairs(page), _pairs(link))
    if change is None:
        return None
    old, new = change
    name, _, value = new.partition("=")
    old_name, _, old_value = old.partition("=")
    if old and old_name != name:
        return None
    return name, old_value if old else None, value


def pager_step(page: NormalizedURL, link: NormalizedURL) -> tuple[str, int, int] | None:
    """How ``link`` pages on from ``page``: the name of its one numbered pair that
    ``page`` lacks or has with a smaller number (of a month, the month after; of a
    month by its first day, the one before too), the number ``page`` is at (1 when
    it lacks it) and the link's, when the path and the other pairs are the same."""
    change = _renumbered(page, link)
    if change is None:
        return None
    name, old_value, value = change
    number, was = _ordinal(value), _ordinal(old_value or "")
    if number is None or (old_value is not None and was is None):
        return None
    # A first page is at 1; ``page=1`` on it is the pager's second page if it counts
    # from 0 (:func:`next_pages` tells).
    at = was if was is not None else 0 if number == 1 else 1
    if not value.isdigit():
        # A calendar's next month, never its next year; a report's period (a month
        # by its first day) both ways; spelled as the page's month is.
        step = number - at if len(value) == _MONTH_LEN else abs(number - at)
        return (name, at, number) if len(value) == len(old_value or "") and step == 1 else None
    return (name, at, number) if number > at else None


def _ordinal(value: str) -> int | None:
    """A pager's number: digits, or a month written as ISO 8601 does (``2027-02``,
    ``2027-02-01``), counted in months: a calendar's "Next month" is its next page
    (blind13 ``booking``'s real March of its engine). A month by its first day is a
    report's period (Matomo's ``period=month&date=``), whose real months lie in the
    past: its "previous period", the month before, is a next page too (blind12
    ``matomo``: each site's July to October overviews, held with the segments and
    periods that parked the dashboard). A month view (``YYYY-MM``) looks ahead: an
    availability calendar's months before it are past, each new dates to book
    (blind13 ``booking``: 159 trap fetches in a trial that took them); else
    ``None``."""
    if value.isdigit():
        return int(value)
    month = _MONTH.fullmatch(value)
    return int(month[1]) * 12 + int(month[2]) - 1 if month else None


def next_pages(page: NormalizedURL, links: Iterable[NormalizedURL]) -> list[NormalizedURL]:
    """The pages ahead that ``page``'s pager names: the links that page on by a name
    whose numbers include the next one (``page=2`` on a first page; a pager names a
    few pages ahead, ``page=3`` too). A page size (``per_page=20``, ``50``) names no
    next page. A first page whose pager names ``page=1`` alone, its "Next", counts
    from 0 (Evergreen's TPAC results, Drupal's pager: ``?page=1`` is the second page);
    one naming ``page=2`` too counts from 1, and ``page=1`` is itself (blind12
    ``evergreen``: four subjects' real second pages, and the records only they list,
    held with the sorts that parked the results). A page has one pager: several names
    each added at 1 alone are switches (MediaWiki's recent changes,
    ``hidebots=1``, ``hideanons=1``, ``hideminor=1``: blind2 ``wiki``, 6 trap
    fetches in a trial that took them), and none is a next page."""
    steps: dict[str, list[tuple[int, int, NormalizedURL]]] = {}
    for link in links:
        step = pager_step(page, link)
        if step is not None:
            steps.setdefault(step[0], []).append((step[1], abs(step[2] - step[1]), link))
    lone = sum(len(ahead) == 1 and not ahead[0][0] for ahead in steps.values())
    return [
        link
        for ahead in steps.values()
        for at, _, link in ahead
        if any(n == 1 for _, n, _ in ahead) and (at or (len(ahead) == 1 and lone == 1))
    ]


def offset_pages(
    page: NormalizedURL, links: Iterable[tuple[NormalizedURL, str]], region: str
) -> list[NormalizedURL]:
    """The pages ahead that ``page``'s pager by offset names (the module docstring,
    "Next pages"): of ``links`` (each with its region), those of a numbered name
    of the page (0 when it lacks it) whose steps are the records it lists times 1,
    2, 3 and so on, each once; none when it lists fewer than 2 records."""
    links = list(links)
    listed = Counter(other for _, other in {(link.key, other) for link, other in links})
    listed.pop(region, None)
    items = max(listed.values(), default=0)
    if items < 2:
        return []
    steps: dict[str, list[tuple[int, NormalizedURL]]] = {}
    for link, _ in links:
        change = _renumbered(page, link)
        if change is None or not change[2].isdigit() or not (change[1] or "0").isdigit():
            continue
        step = int(change[2]) - int(change[1] or "0")
        if step > 0:
            steps.setdefault(change[0], []).append((step, link))
    return [
        link
        for ahead in steps.values()
        if sorted(step for step, _ in ahead) == [items * k for k in range(1, len(ahead) + 1)]
        for _, link in ahead
    ]


def one_pager(
    page: NormalizedURL, ahead: Sequence[NormalizedURL], links: Iterable[NormalizedURL]
) -> bool:
    """Whether the next pages ``page`` names (``ahead``) are a pager's, past telling
    from a select's: all by one name, and no link gives that name a number at or
    below the page's own (1 when it lacks it). A list's first page names 2, 3 and on
    and nothing before; a filter or sort select numbered like a pager names every
    value on every page (nopCommerce's ``ms=1`` and ``ms=2`` of two manufacturers,
    ``specs=1..8`` on each category, blind11 ``nopcommerce``: 446 trap fetches in a
    trial that took every next page named for a page of the list's own). A later
    page, which links back, is no such page: its next pages are named as before."""
    names = {change[0] for change in map(partial(_renumbered, page), ahead) if change}
    if len(names) != 1:
        return False
    name = names.pop()
    for link in links:
        change = _renumbered(page, link)
        if change is not None and change[0] == name:
            number, at = _ordinal(change[2]), _ordinal(change[1] or "") or 1
            if number is None or number <= at:
                return False
    return True


def sibling(page: Counter[str], link: Counter[str]) -> bool:
    """Whether two queries have the same names and differ by the value of one."""
    change = _one_change(page, link)
    return change is not None and param_name(change[0]) == param_name(change[1])


def _clause(norm: NormalizedURL) -> bool:
    """Whether a query names a query builder's numbered clause (``filter_1=``)."""
    return any(_ORDINAL.search(param_name(pair)) for pair in query_pairs(norm.query))


def _form(norm: NormalizedURL) -> str:
    """A query's path and sorted names: where its siblings are looked for."""
    names = sorted(param_name(pair) for pair in query_pairs(norm.query))
    return f"{norm.origin}{norm.path}?{'&'.join(names)}"


class Entries:
    """The next pages named, the links from outside counted and the queries fetched
    of the crawl's regions; see the module docstring."""

    def __init__(self) -> None:
        self._next: set[str] = set()
        self._outside: Counter[str] = Counter()
        """Per URL with a query, the pages of other regions that were news and linked it."""
        self._deferred: set[str] = set()
        """Siblings sent to wait for the demoted tier, once."""
        self._known: dict[str, list[Counter[str]]] = {}
        self._spelled: dict[str, list[Counter[str]]] = {}
        """:attr:`_known` by origin and path: the queries fetched there."""
        self._news: set[str] = set()
        """The forms (:func:`_form`) of the pages that were news."""
        self._deep: set[str] = set()
        """URLs with a query a page without one of another region that was news linked."""
        self._records: dict[str, list[Counter[str]]] = {}
        """Per path, the queries of its pages that were news."""
        self._paged: set[str] = set()
        """Next pages a page with one pager named (:func:`one_pager`)."""

    def fetched(
        self,
        norm: NormalizedURL,
        region: str,
        referer: NormalizedURL | None,
        links: Iterable[tuple[NormalizedURL, str]],
        news: bool,
    ) -> None:
        """A page of ``region`` fetched (no exact copy), with its links and their
        regions: remember its query; when it was news, the links it makes into other
        regions, and its next pages when it is an entry of its list."""
        if norm.query:
            kept = self._known.setdefault(_form(norm), [])
            if len(kept) < MAX_FORMS:
                kept.append(_pairs(norm))
                self._spelled.setdefault(f"{norm.origin}{norm.path}", []).append(kept[-1])
        if news and norm.query:
            records = self._records.setdefault(f"{norm.origin}{norm.path}", [])
            if len(records) < MAX_FORMS:
                records.append(_pairs(norm))
        if not news or len(self._next) + len(self._outside) + len(self._news) >= MAX_ENTRIES:
            return
        if norm.query:
            self._news.add(_form(norm))
        outside = {link.key for link, other in links if link.query and other != region}
        self._outside.update(outside)
        if not norm.query:
            self._deep |= outside
        entry = not norm.query or norm.key in self._next
        entry = entry or (referer is not None and referer.path != norm.path)
        if entry and not _clause(norm):
            linked = [n for n, _ in links]
            ahead = next_pages(norm, linked) + offset_pages(norm, links, region)
            self._next.update(link.key for link in ahead)
            if one_pager(norm, ahead, linked):
                self._paged.update(link.key for link in ahead)

    def named(self, norm: NormalizedURL) -> bool:
        """Whether an entry of its list that was news named the URL as its next page
        (the module docstring, "Next pages"). In a parked space
        (:meth:`~robotkit.triage.regions.Regions.admitted`), linked by a page that
        taught, the waste bound holds such a page for its family's sake only once a
        page of its very shape (another next page) taught nothing since the family's
        last page that taught (:meth:`~robotkit.triage.waste.WasteLedger.must_wait`,
        ``own``). A pager's next page is the list's own page (RFC 8288's
        ``rel="next"``; Google's guide to paginated content), and the sorts, switches
        and facets that parked the space, other states of the list, say nothing of
        its pages: they made the results' family barren, and two subjects' second
        pages and the four records only they list waited for good (blind12
        ``evergreen``). Only in a parked space: a sort select numbered like a pager
        (nopCommerce's ``orderby=5``, ``6``, ``10``) let by on every list cost 446
        trap fetches (blind11 ``nopcommerce``) in a trial that so vouched for every
        next page named; outside a parked space only a page with one pager vouches
        so (:meth:`paged`)."""
        return norm.key in self._next

    def paged(self, norm: NormalizedURL) -> bool:
        """Whether an entry that was news and has one pager (:func:`one_pager`) named
        the URL as its next page: held for its family's sake, parked space or not, only
        once a page of its very shape taught nothing, as :meth:`named`. A thread's
        second page is the thread's own (RFC 8288's ``rel="next"``), and the
        permalinks that copy its first page say nothing of it: they made the
        threads' family barren, and three threads' second pages waited for good
        (blind11 ``mybb``)."""
        return norm.key in self._paged

    def admits(self, norm: NormalizedURL) -> bool:
        """Whether a URL of a parked region is let in: a next page an entry named,
        a sibling of a page of it fetched that ``LINKED_BY`` pages of other
        regions that were news linked, or the canonical member of a page of it
        fetched (:meth:`_canonical`)."""
        if self.named(norm) or self._canonical(norm):
            return True
        return self._outside[norm.key] >= LINKED_BY and self._sibling(norm)

    def _canonical(self, norm: NormalizedURL) -> bool:
        """Whether a query of a form that was news has its pairs all in a query of its
        path fetched with more (the module docstring, "Canonical members")."""
        if _form(norm) not in self._news:
            return False
        mine = _pairs(norm)
        spelled = self._spelled.get(f"{norm.origin}{norm.path}", ())
        return any(page != mine and not mine - page for page in spelled)

    def deep(self, norm: NormalizedURL, grown: Iterable[frozenset[str]], held: set[str]) -> bool:
        """Whether a URL of a parked region is a deep link from a static page: a page
        without a query of another region that was news linked it; it has every pair
        of a page of its path that was news and names more (the object that page
        named, with a qualifier: ``config=x&month=07&year=2026`` of ``config=x``);
        its names are none of the sets the region grew by (``grown``) and carry none
        of the names held on it (``held``), nor a numbered clause."""
        if norm.key not in self._deep or _clause(norm):
            return False
        mine = _pairs(norm)
        names = frozenset(param_name(pair) for pair in mine)
        if names & held or names in set(grown):
            return False
        records = self._records.get(f"{norm.origin}{norm.path}", ())
        return any(not page - mine and names > {param_name(p) for p in page} for page in records)

    def defer(self, norm: NormalizedURL) -> bool:
        """Whether a URL of a parked region waits for the demoted tier (once) before
        it is decided: a sibling of a page of it fetched that fewer than
        ``LINKED_BY`` pages of other regions linked yet, but one at least."""
        linked = self._outside[norm.key]
        if not 0 < linked < LINKED_BY or norm.key in self._deferred:
            return False
        if len(self._deferred) >= MAX_ENTRIES or not self._sibling(norm):
            return False
        self._deferred.add(norm.key)
        return True

    def _sibling(self, norm: NormalizedURL) -> bool:
        """Whether a query of no numbered clause is a sibling of one fetched."""
        if _clause(norm):
            return False
        mine = _pairs(norm)
        return any(sibling(page, mine) for page in self._known.get(_form(norm), ()))

    def snapshot(self) -> dict[str, Any]:
        """What was learned, as JSON, for a resumed crawl."""
        return {
            **header("entries", 1),
            "next": sorted(self._next),
            "outside": sorted(self._outside.items()),
            "deferred": sorted(self._deferred),
            "news": sorted(self._news),
            "deep": sorted(self._deep),
            "paged": sorted(self._paged),
            "records": _listed(self._records),
            "known": _listed(self._known),
        }

    def restore(self, data: Any) -> None:
        """Take back :meth:`snapshot`; :class:`~robotkit.base.snapshot.SnapshotError`
        for bad data, leaving these entries as they were."""
        with reading("entries"):
            data = opened(data, "entries", 1)
            nexts = set(listed(data["next"], "url", str))
            outside = Counter(
                {typed(url, str, "url"): typed(n, int, "count") for url, n in data["outside"]}
            )
            deferred = set(listed(data["deferred"], "url", str))
            news = set(listed(data.get("news", []), "form", str))  # none before they counted
            deep = set(listed(data.get("deep", []), "url", str))  # none before deep links
            paged = set(listed(data.get("paged", []), "url", str))  # none before one pager
            records = _queries(data.get("records", []), "path")
            known = _queries(data["known"], "form")
        self._next, self._outside, self._known = nexts, outside, known
        self._deferred, self._news, self._deep, self._records = deferred, news, deep, records
        self._paged = paged
        self._spelled = {}
        for form, pages in known.items():
            self._spelled.setdefault(form.rpartition("?")[0], []).extend(pages)


def _listed(queries: dict[str, list[Counter[str]]]) -> list[Any]:
    """Queries by path or form as JSON: :func:`_queries` reads them back."""
    return [[key, [sorted(page.elements()) for page in pages]] for key, pages in queries.items()]


def _queries(data: Any, what: str) -> dict[str, list[Counter[str]]]:
    """A snapshot's queries by ``what`` (a path or a form), each a list of pairs."""
    return {
        typed(key, str, what): [
            Counter(listed(page, "pair", str)) for page in listed(pages, "pages", list)
        ]
        for key, pages in listed(data, what, list)
    }
