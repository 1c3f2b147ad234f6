"""The waste bound's evidence per query form: which forms of a family are its real
members (ARCHITECTURE.md, "The waste bound").

A family (:func:`robotkit.url.waste.waste_family`) is named by its parameter
names, so the pages one name leads to under different values are one family: a
forum's topic pages (``topic=40.10``) beside the post permalinks that copy them
(``topic=40.msg1004``), a glossary's entries (``eid=530&displayformat=dictionary``)
beside their other display formats. Three copies of one form in a row made the
family barren, and the real pages of the other form waited for good (blind5
``moodle``: 4 of its 14 entries).

A *form* (:func:`robotkit.url.template.query_form`) is the query with its numbers
and tokens masked and its words kept. Its own last ``BARREN`` pages are its evidence:

- A form that names objects (a number masked: ``topic={n}.{n}``) whose
  last ``BARREN`` pages all taught is *proven* (as much evidence for it as makes a
  family barren): its pages are vouched for however barren its family is. A form
  of words alone (``do=backlink``, ``print=1``) is one view of every page, what the
  family's barrenness is for, and proves nothing;
  nor does a form adding pairs to another of its family, a view of a page (blind5
  ``domino``: a document's sections expanded, ``&ExpandSection=1,3``, 50 more trap
  fetches when they proved themselves).
- A form that names an object where every form of the family of its parameter
  names fetched has a word (``album={n}&pid={n}`` beside ``album=lastup&pid={n}``)
  is *tried* while its last ``TRIAL * BARREN`` pages taught at least as often as
  not: the family's barrenness is the other forms' evidence, and a form never
  fetched could not prove itself once it was barren (blind10 ``coppermine``: a
  gallery's pictures behind the meta albums' copies of them).
- A form that *extends* a proven one (its pairs and ``;`` display states and more:
  ``topic={n}.{n};all`` of ``topic={n}.{n}``) whose last ``BARREN`` pages taught
  nothing is *held* however alive its family is: as of a copy family, the shorter
  is the page and the longer its copy.

Pure, and bounded: at most ``max_remembered`` forms are kept.
"""

from __future__ import annotations

from typing import Any

from robotkit.base.snapshot import listed, typed
from robotkit.url.rewrites import param_name, query_states
from robotkit.url.template import names_objects

__all__ = ["TRIAL", "FormRuns", "extends"]

TRIAL = 3
"""A form's pages remembered, in runs of ``BARREN``: a tried form is judged on its
last ``TRIAL * BARREN`` pages, a proven one on its last ``BARREN``."""


def extends(form: str, other: str) -> bool:
    """Whether ``form`` has the pairs and display states (``;``-joined, HTML 4's other
    separator) of ``other`` and more."""
    return _parts(other) < _parts(form)


def _objects(form: str) -> int:
    """How many numbers or ids a form masks: the objects its pages name."""
    return form.count("{n}")


def _names(form: str) -> list[str]:
    return [param_name(pair) for pair in query_states(form)]


def _parts(form: str) -> set[str]:
    return set(query_states(form))


class FormRuns:
    """Per family, each query form's last pages fetched: ``t`` for one that taught,
    ``-`` for one that did not."""

    def __init__(self, run: int, max_remembered: int = 200_000) -> None:
        self.run = run
        self.max_remembered = max_remembered
        self._runs: dict[str, dict[str, str]] = {}
        self._count = 0

    def fetched(self, family: str, form: str, taught: bool) -> None:
        """One page of ``family`` with the query ``form`` that is evidence about it."""
        forms = self._runs.setdefault(family, {})
        if form not in forms:
            if self._count >= self.max_remembered:
                return
            self._count += 1
        forms[form] = (forms.get(form, "") + "-t"[taught])[-self.run * TRIAL :]

    def held(self, barren: bool, family: str | None, form: str) -> bool:
        """Whether a URL of ``family`` and ``form`` is vouched for by nothing whoever
        linked it: its family is ``barren`` (for its shape) and its form neither
        proven nor tried, or its form copies a proven one."""
        if barren and not (self.proven(family, form) or self.trying(family, form)):
            return True
        return self.copies(family, form)

    def fresh(self, family: str) -> int:
        """For a family none of whose pages among its forms' last remembered taught,
        the pages that taught nothing that prove it barren on a host known to make
        traps (:meth:`~robotkit.triage.kinship.Kinship.known`): 1 when its forms are
        of words alone (a menu, ``?mode=list``), 2 when one names objects; else 0. A
        source browser's file revisions (``ring.c?r=06f74efc``) are objects, and the
        first fetched is the file's head, a copy of its page: held after it, a real
        older revision waited for good (blind5 ``opengrok``, in a trial)."""
        runs = self._runs.get(family, {})
        if any("t" in run for run in runs.values()):
            return 0
        return 2 if any(names_objects(form) for form in runs) else 1

    def trying(self, family: str | None, form: str | None) -> bool:
        """Whether ``form`` names an object where every other form of its parameter
        names fetched in ``family`` has a word (a number for a word; one at least),
        and its own last ``TRIAL * BARREN`` pages taught at least as often as not
        (none fetched yet, or ``tt--``): the family's barrenness is the other forms'
        evidence, not its own, so its pages go until most are copies. A gallery's
        pictures (``album={n}&pid={n}``) share a script and its parameters with the
        meta albums' copies of them (``album=lastup&pid={n}``), which made the family
        barren before one picture was asked for (blind10 ``coppermine``); a picture
        under another album's number (``album=4&pid=15``) is a copy of the form's
        own, and two of them in 3 left each album's last picture waiting; a
        picture's full size (``pid={n}&fullsize=1``) is of other names, no word form
        of it. A form whose first page is a copy is done at once. A form of other
        parameters (a history's ``rev1=&rev2=&viewer=changes`` beside
        ``viewer=history``) is no object of theirs: one view more."""
        if family is None or form is None:
            return False
        runs = self._runs.get(family, {})
        run = runs.get(form, "")
        if run.count("-") > run.count("t"):
            return False
        names = _names(form)
        others = [o for o in runs if o != form and _names(o) == names]
        return bool(others) and all(_objects(form) > _objects(other) for other in others)

    def proven(self, family: str | None, form: str | None) -> bool:
        """Whether ``form`` names objects and its last pages in ``family`` all taught
        (as many as make a family barren): its pages are the family's real members,
        whatever copies under its other forms did. Not a form that adds pairs to
        another of the family: a view of a page (Domino's
        ``?OpenDocument&ExpandSection=1,3``), not an object."""
        if form is None or not names_objects(form) or self._run(family, form) != "t" * self.run:
            return False
        return not any(extends(form, other) for other in self._runs.get(family or "", {}))

    def copies(self, family: str | None, form: str | None) -> bool:
        """Whether ``form``'s last pages in ``family`` all taught nothing and it extends
        a proven form of the family (``topic={n}.{n};all`` of ``topic={n}.{n}``)."""
        run = self._run(family, form)
        if form is None or len(run) < self.run or "t" in run:
            return False
        forms = self._runs.get(family or "", {})
        return any(extends(form, other) and self.proven(family, other) for other in forms)

    def _run(self, family: str | None, form: str | None) -> str:
        if family is None or form is None:
            return ""
        return self._runs.get(family, {}).get(form, "")[-self.run :]

    def snapshot(self) -> list[list[Any]]:
        return sorted(
            [family, sorted([form, run] for form, run in forms.items())]
            for family, forms in self._runs.items()
        )

    @classmethod
    def restored(cls, entries: Any, run: int, max_remembered: int) -> FormRuns:
        """The runs of a :meth:`snapshot` (``[]`` from before forms were counted);
        :class:`~robotkit.base.snapshot.SnapshotError` for bad data."""
        forms = cls(run, max_remembered)
        forms._runs = {
            typed(family, str, "family"): {
                typed(form, str, "form"): typed(mark, str, "run")
                for form, mark in listed(entries_of, "forms", list)
            }
            for family, entries_of in listed(entries, "forms", list)
        }
        forms._count = sum(len(of) for of in forms._runs.values())
        return forms
