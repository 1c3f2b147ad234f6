"""Where one family's proof of barrenness serves another (ARCHITECTURE.md, "The waste
bound").

A family (:func:`robotkit.url.families.waste_family`) is proven barren by its own
last ``run`` pages that taught nothing (:class:`robotkit.triage.waste.WasteLedger`).
Three fetches a family is the bound's second term, paid again for each directory a
parameter appears in. Families are kin when one proof says much of the other, and
then less is asked of the second: the same parameters in another directory (their
*kind*: ``http://h?print``), or the same view of every object under another
directory (``http://h/…/*/embed``); one page that taught nothing there is enough
(blind6 ``mastodon``). Once the kind was proven so in ``run`` directories, a switch
of words (``?lang=de``) in a family of it never fetched is held before its first
page: a language switch on every page of a repository browser cost one fetch in
each of its directories and files, 31 (blind7 ``gitea``).

A family without a query is kin to every family of its origin that ends in the same
*tail*: the segments from its first masked one on, two or more (``*/embed`` of
``/@alice/*/embed``, ``z{n}/{t}/dz/*/{v}`` of a portal page's state URL), whatever the
directories above: the same view or export under another object, the same relative
page under another prefix. A portal links its own state URL from every page, each a
family of the page's directory, proven barren by 3 copies each (blind3 ``portal``:
17 families, 52 trap fetches, 41 now). A proof carried so is vetoed for a family a
page of which taught (its pages are its own), and for the whole tail once ``VETOES``
of its families taught: a tail as wide as ``*/*`` is every page two levels down, and
on an acquisition server the real pages of a year's directory
(``/research/projects/2024/x``) are of a ``*/*`` family whose first page fetched was
a copy; carried after that one page, they waited for good (blind3 ``plone``: 6 of 42
pages lost in a trial, none since its families that teach veto it). A family proven
barren by ``run`` pages of its own neither vetoes nor is vetoed: one page that taught
nothing after its page that taught makes it barren again, as before.

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

from collections import Counter
from typing import Any

from robotkit.base.snapshot import listed, typed
from robotkit.url.template import names_objects

__all__ = ["VETOES", "Kinship", "count", "more"]

VETOES = 2
"""Families of a path tail that taught, before the tail's proof no longer carries
(:meth:`Kinship.barren`): the tail is no copy's, its families have pages of their own."""


def more(shape: str, other: str) -> bool:
    """Whether ``shape`` (parameter names, ``a&b``) has every name of ``other`` and
    more: a page of it says nothing of a URL of ``other``, its shorter member."""
    mine, theirs = set(shape.split("&")) - {""}, set(other.split("&")) - {""}
    return mine > theirs


def _masked(segment: str) -> bool:
    """A path family's segment masked as a number, an id or a name (``{t}``, ``*``)."""
    return segment == "*" or "{" in segment


def kind(family: str) -> str:
    """A family's origin and parameter names, whatever its directory; for a family
    without a query, its origin and its *tail* (the segments from its first masked
    one on, two or more, under at least one directory: ``/…/*/embed``), whatever the
    directories above; else ``""``. One masked segment alone (``/…/*``) is every page
    of every directory: no kin."""
    where, mark, names = family.partition("?")
    origin = "/".join(where.split("/")[:3])
    if mark:
        return origin + mark + names
    segments = where[len(origin) :].split("/")[1:]
    first = next((i for i, s in enumerate(segments) if _masked(s)), 0)
    tail = segments[first:]
    return origin + "/…/" + "/".join(tail) if first and len(tail) >= 2 else ""


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
        self._taught: set[str] = set()
        """Path families a page of which taught: a tail's proof is not theirs."""
        self._vetoes: Counter[str] = Counter()
        """A path tail to its families that taught."""
        self._own: set[str] = set()
        """Path families proven barren by ``run`` pages of their own: a page of one that
        teaches does not veto its tail, and one page that taught nothing after it
        makes it barren again, as before tails were kin (blind3 ``discourse``: the
        ``/last`` alias of every topic, 41 trap fetches, 52 when it was vetoed)."""

    def barren(self, family: str, run: Counter[str] | None, shape: str) -> bool:
        """Whether ``family``, with ``run`` since its last page that taught, is barren
        for ``shape``: ``run`` pages of it, or one while its kind was barren for such a
        shape elsewhere (and, of a path tail, not vetoed)."""
        n = count(run, shape)
        return n >= self.run or (n >= 1 and self._kin(family, shape))

    def _kin(self, family: str, shape: str) -> bool:
        """Whether ``family``'s kind was proven barren for ``shape`` and carries to it."""
        mine = kind(family)
        proven = any(not more(s, shape) for s in self._shapes.get(mine, ()))
        if "?" in family or family in self._own:
            return proven
        return proven and family not in self._taught and self._vetoes[mine] < VETOES

    def note(self, family: str, run: Counter[str], shape: str) -> None:
        """A page of ``family`` that taught nothing, ``run`` counted it: when the
        family is barren for ``shape``, its kind is proven so."""
        if count(run, shape) >= self.run and "?" not in family:
            self._own.add(family)
        if self.barren(family, run, shape) and kind(family):
            self._shapes.setdefault(kind(family), set()).add(shape)
            self._families.setdefault(kind(family), set()).add(family)

    def taught(self, family: str) -> None:
        """A page of ``family`` taught: a path family's own pages are not its tail's
        copies, and its tail counts one family more that teaches."""
        if "?" in family or family in self._taught or family in self._own or not kind(family):
            return
        self._taught.add(family)
        self._vetoes[kind(family)] += 1

    def snapshot(self) -> list[Any]:
        """The vetoes and the families barren by their own pages (the proofs are
        rebuilt from the families' runs)."""
        vetoes = [[k, n] for k, n in sorted(self._vetoes.items())]
        return [sorted(self._taught), vetoes, sorted(self._own)]

    @classmethod
    def restored(cls, data: Any, run: int, families: dict[str, Counter[str]]) -> Kinship:
        """Take back :meth:`snapshot` (a snapshot from before vetoes has none), the
        proofs rebuilt from the ledger's ``families`` and their runs."""
        kin = cls(run)
        taught, vetoes, own = data if data else ([], [], [])
        kin._taught = set(listed(taught, "family", str))
        kin._own = set(listed(own, "family", str))
        kin._vetoes = Counter(
            {
                typed(k, str, "tail"): typed(n, int, "vetoes")
                for k, n in listed(vetoes, "vetoes", list)
            }
        )
        for family, pages in families.items():
            for shape in pages:
                kin.note(family, pages, shape)
        return kin

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
