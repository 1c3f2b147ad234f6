"""A page's numbered versions: the parameters that select them, and which pages have
had one of them read as a copy of themselves.

A wiki topic links its revisions on its own path (``?rev=1``, ``?rev=2``,
``?rev=3``); the one that is the topic itself, its current revision, differs from
topic to topic. A copy among them proves nothing of the other topics' versions, as
the copies of other pages do (:meth:`robotkit.url.learned.LearnedRules.learn_pair`,
the waste bound's families): blind6 ``foswiki`` lost its 12 older revisions to
``?rev=2`` and ``?rev=1`` learned, from topics of two revisions and of one, to change
nothing in all of ``/bin/``. A page is one of its versions, so a second copy among
one page's versions (a dashboard's time ranges, all one text) is evidence as any
copy. A page that is the *lowest* of the numbers it links (a list's or a topic's
``?page=1`` beside ``?page=2``) is its first page, not its current revision: the first
page's number is the same on every page, so its copy proves the pair in the section
as any copy does (blind8 ``nodebb``: each topic's ``?page=1`` fetched, 19 copies).
Pure: no I/O.
"""

from __future__ import annotations

import re
from typing import Any

from robotkit.base.snapshot import listed, typed
from robotkit.url.normalization import NormalizedURL
from robotkit.url.rewrites import own_page, param_name, query_pairs, query_states

__all__ = ["Versions"]

_NUMBER = re.compile(r"\d+(?:\.\d+)*")
"""A version's number: ``3``, or dotted, ``1.0``, ``2.3.1`` (a dataset's major and
minor version on Dataverse, a release's number)."""
MAX_PAGES = 200_000
"""Pages remembered as having had a version read as their copy (a bound on memory)."""


def _order(number: str) -> tuple[int, ...]:
    """A version number's place among others: ``1.10`` after ``1.9``."""
    return tuple(int(part) for part in number.split("."))


def _numbered(query: str | None) -> list[tuple[str, str]]:
    """The parameters of a query, ``;``-joined states too, whose value is a number,
    dotted ones too (a dataset's ``version=1.0``, ``version=2.0``)."""
    parts = query_states(query)
    return [(param_name(p), v) for p in parts if _NUMBER.fullmatch(v := p.partition("=")[2])]


class Versions:
    """What a crawl saw of pages' numbered versions; see the module docstring."""

    def __init__(self) -> None:
        self._names: set[tuple[str, str]] = set()
        """Parameters a page linked on its own path with several numbers."""
        self._read: set[str] = set()
        """Pages one of whose numbered versions was read as a copy of them."""
        self._linked: dict[tuple[str, str, str], frozenset[str]] = {}
        """Per origin, page (:func:`~robotkit.url.rewrites.own_page`) and parameter, the
        numbers the page linked on its own path."""
        self._alike: dict[tuple[str, str, str, frozenset[str]], set[str]] = {}
        """Pairs read as a page's own version, by origin, path, parameter and the
        numbers the page linked: the page itself on every page so linking them."""

    def observe_links(
        self, page: NormalizedURL, links: list[NormalizedURL]
    ) -> list[tuple[str, str]]:
        """Remember the parameters ``page`` links on its own path with two numbers or
        more (its revisions, its pages), and the numbers it links. Returns the pairs
        that are ``page`` itself, each with the page: read so on a page of its path
        that linked the same numbers (:meth:`scope`)."""
        numbers: dict[str, set[str]] = {}
        for link in links:
            if (link.origin, link.path) == (page.origin, page.path):
                for name, value in _numbered(link.query):
                    numbers.setdefault(name, set()).add(value)
        origin = str(page.origin)
        self._names.update((origin, name) for name, seen in numbers.items() if len(seen) > 1)
        area = own_page(page.path, query_pairs(page.query))
        found: list[tuple[str, str]] = []
        for name, seen in numbers.items():
            if len(self._linked) < MAX_PAGES:
                self._linked[origin, area, name] = frozenset(seen)
            alike = self._alike.get((origin, page.path, name, frozenset(seen)), set())
            found += [(pair, area) for pair in sorted(alike)]
        return found

    def versioned(self, origin: str, pair: str) -> bool:
        """Whether ``pair`` (or one of its ``;``-joined states) gives a number to a
        parameter some page of ``origin`` linked on its own path with two numbers or
        more."""
        return any((origin, name) in self._names for name, _ in _numbered(pair))

    def scope(self, page: NormalizedURL, pair: str, where: str, bare: NormalizedURL) -> set[str]:
        """Where ``pair``, added to ``bare`` at ``page``'s path with one text, changes
        nothing (:meth:`robotkit.url.learned.LearnedRules.learn_pair`): in its section
        ``where``, unless it selects one of the page's numbered versions and is the
        first so read (:meth:`own_version`): then on that page, and on the pages of
        its path that linked the same numbers of it. Which version is the page differs
        from page to page, but not between pages linking the same versions: the
        latest of them, a default language (TYPO3's ``L=0`` beside ``L=1`` on every
        page), a list's first page; a dataset of one version and one of two are not
        alike (blind8 ``dataverse``, blind4 ``typo3``: a copy fetched a page). The
        lowest of the numbers the page linked is its first page, in its section."""
        origin = str(page.origin)
        area = own_page(page.path, query_pairs(bare.query))
        if (
            bare.key in self._read
            or not self.versioned(origin, pair)
            or self._first(origin, area, pair)
        ):
            return {where}
        areas = {area}
        for name, _ in _numbered(pair):
            seen = self._linked.get((origin, area, name))
            if seen is None:
                continue
            self._alike.setdefault((origin, page.path, name, seen), set()).add(pair)
            areas |= {
                other
                for (o, other, n), numbers in self._linked.items()
                if (o, n, numbers) == (origin, name, seen) and other.partition("?")[0] == page.path
            }
        return areas

    def _first(self, origin: str, area: str, pair: str) -> bool:
        """Whether ``pair`` is the lowest of the numbers its page (``area``) linked on its
        own path beside higher ones (``?page=1`` of ``?page=1`` and ``?page=2``)."""
        name = param_name(pair)
        seen = self._linked.get((origin, area, name))
        return seen is not None and len(seen) > 1 and pair == f"{name}={min(seen, key=_order)}"

    def own_version(self, norm: NormalizedURL, page: NormalizedURL | None) -> bool:
        """Whether ``norm``, read as a copy of ``page``, is ``page`` under a pair more
        that selects one of its numbered versions, the first such copy of that page:
        its own number (a topic's current revision ``?rev=3``), which proves no form
        nor family of the others. Remembers it."""
        if page is None or (page.origin, page.path) != (norm.origin, norm.path):
            return False
        added = set(query_pairs(norm.query)) - set(query_pairs(page.query))
        origin = str(norm.origin)
        if page.key in self._read or not any(self.versioned(origin, pair) for pair in added):
            return False
        if len(self._read) < MAX_PAGES:
            self._read.add(page.key)
        return True

    def snapshot(self) -> dict[str, Any]:
        return {
            "names": sorted([o, n] for o, n in self._names),
            "read": sorted(self._read),
            "linked": [[o, a, n, sorted(v)] for (o, a, n), v in self._linked.items()],
            "alike": [
                [o, p, n, sorted(v), sorted(pairs)] for (o, p, n, v), pairs in self._alike.items()
            ],
        }

    @classmethod
    def restored(cls, data: Any) -> Versions:
        """The versions of a :meth:`snapshot` (``{}`` from before they were kept);
        :class:`~robotkit.base.snapshot.SnapshotError` for bad data."""
        versions = cls()
        versions._names = {
            (typed(o, str, "origin"), typed(n, str, "name"))
            for o, n in listed(data.get("names", []), "names", list)
        }
        versions._read = set(listed(data.get("read", []), "read", str))
        for o, a, n, v in listed(data.get("linked", []), "linked", list):
            key = (typed(o, str, "origin"), typed(a, str, "page"), typed(n, str, "name"))
            versions._linked[key] = frozenset(listed(v, "number", str))
        for o, p, n, v, pairs in listed(data.get("alike", []), "alike", list):
            numbers = frozenset(listed(v, "number", str))
            key4 = (typed(o, str, "origin"), typed(p, str, "path"), typed(n, str, "name"), numbers)
            versions._alike[key4] = set(listed(pairs, "pair", str))
        return versions
