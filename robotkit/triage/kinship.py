"""Where one family's proof of barrenness serves another (ARCHITECTURE.md, "The waste
bound").

A family (:func:`robotkit.url.waste.waste_family`) is proven barren by its own
last ``run`` pages that taught nothing (:class:`robotkit.triage.waste.WasteLedger`).
Three fetches a family is the bound's second term, paid again for each directory a
parameter appears in. Families are kin when one proof says much of the other, and
then less is asked of the second: the same parameters in another directory (their
*kind*: ``http://h?print``), or the same view of every object under another
directory (``http://h/…/*/embed``); one page that taught nothing there is enough
(blind6 ``mastodon``). Once the kind was proven so in ``run`` directories, a switch
of words (``?lang=de``) in a family of it never fetched is held before its first
page: a language switch on every page of a repository browser cost one fetch in
each of its directories and files, 31 (blind7 ``gitea``). And *another view of the
same objects* (``/Record/*/TOC`` beside ``/Record/*/Holdings``, one object slot) is
kin once a view of the slot was proven barren by a full run: a catalogue links each
record's holdings, contents, citation and comments, each view a family of its own
that paid 3 fetches (blind9 ``vufind`` 37 to 33 trap fetches, blind7 ``blacklight``
34 to 29).

And a *host known to make traps of its parameters* (:meth:`Kinship.known`): once two
query families of an origin were proven barren by full runs, a query family of it
none of whose pages taught is barren after one page that taught nothing (its forms
of words alone, a menu) or two (a form naming objects), not three: a shop's list
paid 3 fetches for each of its sort, size, mode, price and store menus (blind2
``magento``).

Another kin was tried and dropped: *another menu of the same page* (a query family of
a directory where another was proven barren by a full run, re-checked by one page
when its queries were of words alone). It saved 10 fetches on blind2 ``magento``,
but a tag filter (``/items/browse?tags=keepers``) is a query of words in the
directory of the browse page's output formats, and a real tag page was held after
one tag page that taught nothing (blind7 ``omeka``: one more trap fetch, and the tag
pages at risk).

Pure: the ledger asks, and tells each proof.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

from robotkit.url.template import names_objects

__all__ = ["KNOWN", "Kinship", "count", "more"]

KNOWN = 2
"""Query families of one origin proven barren by full runs of their own, after which
the origin is known to make traps of its parameters: a query family of it none of
whose pages taught is proven barren by fewer pages
(:meth:`~robotkit.triage.forms.FormRuns.fresh`)."""


def more(shape: str, other: str) -> bool:
    """Whether ``shape`` (parameter names, ``a&b``) has every name of ``other`` and
    more: a page of it says nothing of a URL of ``other``, its shorter member."""
    mine, theirs = set(shape.split("&")) - {""}, set(other.split("&")) - {""}
    return mine > theirs


_OBJECT_VIEW = re.compile(r"/\*/([A-Za-z][\w\-]*)$")
"""A family's tail that names one view of every object of a directory
(``/*/embed`` of ``/@alice/*/embed``): a word, not a masked number or selectors; its
last, as objects masked above it (``/books/*/page/*/revisions/*/changes``) are not."""


def _origin(family: str) -> str:
    """A family's origin (``http://h:8080``)."""
    return "/".join(family.split("/")[:3])


def kind(family: str) -> str:
    """A family's origin and parameter names, whatever its directory; for a family
    without a query, its origin and the view it names under a masked object
    (``/*/embed``), or its selectors (``*.{s}``: ``x.print.html``, ``x.tag-a.html``),
    whatever the directory above; else ``""``. A page's selector views are one kind
    at every depth: each directory's paid 3 fetches (blind5 ``aem``: 30 trap fetches,
    26 now)."""
    where, mark, names = family.partition("?")
    origin = _origin(where)
    if mark:
        return origin + mark + names
    view = _object_view(where)
    if view:
        return origin + "/…" + view.group(0)
    return origin + "/…/*.{s}" if where.endswith("/*.{s}") else ""


def slot(family: str) -> str:
    """For a family without a query naming one view of every object of a directory
    (``/Record/*/Holdings``), the object slot it fills, whatever the view
    (``/Record/*/…``); else ``""``. A record's other views (``/TOC``, ``/Cite``)
    are as likely copies as the one proven so, and a real one (a record's change
    page beside its empty history, blind3 ``django``) teaches on its first page."""
    view = None if "?" in family else _object_view(family)
    return family[: view.start()] + "/*/…" if view else ""


def _object_view(where: str) -> re.Match[str] | None:
    """The view a family's path (``where``, origin included) ends with under a masked
    object (``/*/embed``), if it names one."""
    return _OBJECT_VIEW.search(where, len(_origin(where)))


def count(run: Counter[str] | None, shape: str) -> int:
    """A family's pages since the last that taught (``run``, their shapes) with no
    shape beyond ``shape``: those that say something of a URL of it."""
    return sum(n for theirs, n in (run or {}).items() if not more(theirs, shape))


class Kinship:
    """The families proven barren, by kind; see the module docstring."""

    def __init__(self, run: int) -> None:
        self.run = run
        self._shapes: dict[str, set[str]] = {}
        """A kind to the shapes its families were barren for."""
        self._families: dict[str, set[str]] = {}
        """A kind to its families that were barren."""
        self._slots: set[str] = set()
        """Object slots (:func:`slot`) one view of which was barren by a full run."""
        self._params: dict[str, set[str]] = {}
        """An origin to its query families barren by a full run of their own."""

    @classmethod
    def noted(cls, families: dict[str, Counter[str]], run: int) -> Kinship:
        """The kinship of ``families``, each with its run of pages (a restored ledger)."""
        kin = cls(run)
        for family, pages in families.items():
            for shape in pages:
                kin.note(family, pages, shape)
        return kin

    def barren(
        self,
        family: str,
        run: Counter[str] | None,
        shape: str,
        fresh: Callable[[str], int] | None = None,
    ) -> bool:
        """Whether ``family``, with ``run`` since its last page that taught, is barren
        for ``shape``: ``run`` pages of it, or one while its kind was barren for such a
        shape elsewhere or another view of its object slot by a full run, or
        ``fresh(family)`` (none of its pages taught: the pages that prove it, 1 or 2)
        while its origin is :meth:`known` to make traps. ``fresh`` is asked only then:
        this runs for every URL the crawl screens."""
        n = count(run, shape)
        kin = any(not more(s, shape) for s in self._shapes.get(kind(family), ()))
        known = fresh is not None and n >= 1 and self.known(family) and 0 < fresh(family) <= n
        return n >= self.run or known or (n >= 1 and (kin or slot(family) in self._slots))

    def known(self, family: str) -> bool:
        """Whether ``family`` is a query family whose origin proved ``KNOWN`` other
        query families barren by full runs: a host that made traps of two parameters
        makes traps of the next one, and each paid 3 fetches (blind2 ``magento``'s
        ``?limit``, ``?mode``, ``?dir``, ``?order``, ``?country``, ``?___store``: 66
        trap fetches, 60 with it; blind3 ``piwigo`` 42 to 37). Not a family without a
        query: a directory's pages (Plone's ``/research/projects/2025/*``) are its
        real children beside the chrome's copies under every folder (``sitemap``,
        ``contact-info``), and one copy fetched first held the children (blind3
        ``plone``: 6 pages lost in a trial)."""
        if "?" not in family:
            return False
        proven = self._params.get(_origin(family), ())
        return len(proven) - (family in proven) >= KNOWN

    def note(self, family: str, run: Counter[str], shape: str) -> None:
        """A page of ``family`` that taught nothing, ``run`` counted it: when the
        family is barren for ``shape``, its kind is proven so, and by a full run (not
        a kin's one page), its object slot."""
        if count(run, shape) >= self.run:
            if "?" in family:
                self._params.setdefault(_origin(family), set()).add(family)
            if filled := slot(family):
                self._slots.add(filled)
        if self.barren(family, run, shape) and kind(family):
            self._shapes.setdefault(kind(family), set()).add(shape)
            self._families.setdefault(kind(family), set()).add(family)

    def carried(self, family: str, shape: str, form: str) -> bool:
        """Whether a URL of ``family``, never fetched, and of the query ``form`` is held
        before its first page: its form is of words alone (a switch, ``lang=de``) and
        its kind was barren for such a shape in ``run`` directories or more. Not a
        form naming objects: a repository browser's trees at a commit (``tree/?id=``)
        were barren in three directories before its commits (``commit/?id=``), one
        family of its top directory, were ever fetched (blind2 ``cgit``: 14 commits
        lost in a trial)."""
        if not form or names_objects(form) or len(self._families.get(kind(family), ())) < self.run:
            return False
        return any(not more(s, shape) for s in self._shapes.get(kind(family), ()))
