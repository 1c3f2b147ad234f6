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

from typing import Any

from robotkit.base.snapshot import listed, typed
from robotkit.url.normalization import NormalizedURL
from robotkit.url.rewrites import param_name, query_pairs, query_states

__all__ = ["Versions"]

MAX_PAGES = 200_000
"""Pages remembered as having had a version read as their copy (a bound on memory)."""


def _numbered(query: str | None) -> list[tuple[str, str]]:
    """The parameters of a query, ``;``-joined states too, whose value is a number."""
    parts = query_states(query)
    return [(param_name(p), p.partition("=")[2]) for p in parts if p.partition("=")[2].isdigit()]


class Versions:
    """What a crawl saw of pages' numbered versions; see the module docstring."""

    def __init__(self) -> None:
        self._names: set[tuple[str, str]] = set()
        """Parameters a page linked on its own path with several numbers."""
        self._read: set[str] = set()
        """Pages one of whose numbered versions was read as a copy of them."""
        self._first: set[str] = set()
        """A page's key and the pair of the lowest number it linked on its own path
        beside higher ones (``/c/1 page=1`` of ``?page=1`` and ``?page=2``)."""

    def observe_links(self, page: NormalizedURL, links: list[NormalizedURL]) -> None:
        """Remember the parameters ``page`` links on its own path with two numbers or
        more: its revisions, its pages."""
        numbers: dict[str, set[str]] = {}
        for link in links:
            if (link.origin, link.path) == (page.origin, page.path):
                for name, value in _numbered(link.query):
                    numbers.setdefault(name, set()).add(value)
        origin = str(page.origin)
        several = {name: seen for name, seen in numbers.items() if len(seen) > 1}
        self._names.update((origin, name) for name in several)
        for name, seen in several.items():
            if len(self._first) < MAX_PAGES:
                self._first.add(f"{page.key} {name}={min(seen, key=int)}")

    def versioned(self, origin: str, pair: str) -> bool:
        """Whether ``pair`` (or one of its ``;``-joined states) gives a number to a
        parameter some page of ``origin`` linked on its own path with two numbers or
        more."""
        return any((origin, name) in self._names for name, _ in _numbered(pair))

    def scope(self, page: NormalizedURL, pair: str, where: str, bare: NormalizedURL) -> str:
        """Where ``pair``, added to ``bare`` at ``page``'s path with one text, changes
        nothing (:meth:`robotkit.url.learned.LearnedRules.learn_pair`): in its section
        ``where``, unless it selects one of the page's numbered versions and is the
        first so read (:meth:`own_version`): then on that page only."""
        own = bare.key not in self._read and self.versioned(str(page.origin), pair)
        return page.path if own and f"{bare.key} {pair}" not in self._first else where

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
            "first": sorted(self._first),
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
        versions._first = set(listed(data.get("first", []), "first", str))
        return versions
