"""Values fresh per response: a parameter each response stamps anew into its links.

Many applications stamp into every link a value the response itself minted: a CSRF
token (phpMyAdmin's ``token=``, Moodle's ``sesskey=``, Joomla's form tokens), a
session id minted for each request of a client without cookies (osCommerce's
``osCsid``), a render's time (jQuery's ``_=<ms>``, a live ticker's stamp). Two
fetches of one page then differ in every link, so the pair rules of
:class:`robotkit.url.learned.LearnedRules` need a second fetch of a page under a
new value before they see that the value changes nothing, and that for each
target the crawl reaches through new values (blind9 ``phpmyadmin``: 11 fetches
under four tokens before a page was fetched twice).

The proof needs no fetch. A page stamps one value, not carried from its own
request, into the links of two targets or more (a stamp goes on every link, a
cursor on its one "next" link); a later response of the origin stamps another
value into a link to one of the same targets (the same path and the same other
pairs). A value minted per response is that: one value a response, another the
next. A parameter naming objects is not (``?r=ad9b7dbe`` of a file's revisions,
``?page=2``, a dataset's version): a page linking them links several values of it,
which vetoes the name on the origin for good, and a page naming one object links
its value from the object's own page, which carries it in its URL. Values are
opaque: a token (:func:`robotkit.url.rewrites.is_token`) or a number of nine
digits or more (a Unix time in seconds or milliseconds); a word or a small
number names something. A list's cursor chained into its own links
(``/feed?after=x8Kq2...`` from ``/feed``) is one value a response too: the page's
own target (its URL less the parameter) is left out of the two.

A render's time has a second proof: a graph's zoom links carry ``stop=<now>`` and
``start=<now - period>`` for several periods (Munin's dynazoom), and the next
response's links are the same with every time moved by the seconds between the
renders. The time stamped alone on the page and the times that moved with it are
all fresh (blind9 ``munin``: the zoom page fetched once a render).

The evidence is saved with the crawl's state (:meth:`FreshValues.snapshot`): a
resumed crawl proves a stamp with the responses it had read before, and keeps the
names a page vetoed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from robotkit.base.snapshot import listed, typed
from robotkit.url.normalization import NormalizedURL
from robotkit.url.rewrites import is_token, named_value, param_name, path_segments, query_pairs

__all__ = ["FreshValues", "Learned", "Render", "Stamp", "opaque", "shifted"]

_STAMP_DIGITS = re.compile(r"[0-9]{9,}")
_STAMP_NUMBER = re.compile(r"(?<![0-9])[0-9]{9,}(?![0-9])")
MAX_TARGETS = 256
"""Targets remembered for each parameter of an origin (a bound on memory)."""
MAX_RENDERS = 4
"""Time stamps remembered for each parameter of an origin."""


def opaque(value: str) -> bool:
    """Whether ``value`` is machine-made: a token, not a name of words
    (:func:`robotkit.url.rewrites.named_value`), or a number of nine digits or more."""
    return (is_token(value) and not named_value(value)) or bool(_STAMP_DIGITS.fullmatch(value))


@dataclass(frozen=True)
class Stamp:
    """One response's value of a parameter on a link's target: the evidence kept."""

    value: str
    page: str


@dataclass(frozen=True)
class Render:
    """One response's time stamp and the targets it stamped (the clock's evidence)."""

    value: int
    page: str
    targets: frozenset[str]


@dataclass(frozen=True)
class Learned:
    """A parameter proven fresh per response, with the value that proved it."""

    name: str
    value: str
    proof: str


@dataclass
class _Name:
    """What the crawl saw of one parameter on one origin."""

    vetoed: bool = False
    fresh: bool = False
    stamps: dict[str, Stamp] = field(default_factory=dict)
    renders: list[Render] = field(default_factory=list)


def shifted(target: str, delta: int) -> str:
    """``target`` with each number of nine digits or more moved by ``delta``: the
    same link rendered ``delta`` seconds (or milliseconds) later."""
    return _STAMP_NUMBER.sub(lambda m: str(int(m.group()) + delta), target)


def _values(page: NormalizedURL, links: list[NormalizedURL]) -> dict[str, set[str]]:
    """The values each parameter of the page's same-origin links was linked with."""
    seen: dict[str, set[str]] = {}
    for link in links:
        if link.origin == page.origin:
            for pair in query_pairs(link.query):
                seen.setdefault(param_name(pair), set()).add(pair.partition("=")[2])
    return seen


def _target(url: NormalizedURL, name: str) -> str:
    """``url`` as a target of parameter ``name``: its path and its other pairs,
    sorted."""
    pairs = [pair for pair in query_pairs(url.query) if param_name(pair) != name]
    return f"{url.path}?{'&'.join(sorted(pairs))}"


def _targets(name: str, page: NormalizedURL, links: list[NormalizedURL]) -> set[str]:
    """The targets the page links with parameter ``name`` (:func:`_target`)."""
    return {
        _target(link, name)
        for link in links
        if link.origin == page.origin
        and any(param_name(pair) == name for pair in query_pairs(link.query))
    }


class FreshValues:
    """Parameters learned fresh per response, per origin, from the links pages give."""

    def __init__(self) -> None:
        self._names: dict[tuple[str, str], _Name] = {}

    def snapshot(self) -> list[list[Any]]:
        """What was seen of each parameter of each origin, as JSON: vetoed, learned,
        the stamps per target and the time stamps kept as evidence."""
        return [
            [
                origin,
                name,
                seen.vetoed,
                seen.fresh,
                [[target, s.value, s.page] for target, s in seen.stamps.items()],
                [[r.value, r.page, sorted(r.targets)] for r in seen.renders],
            ]
            for (origin, name), seen in self._names.items()
        ]

    @classmethod
    def restored(cls, entries: Any) -> FreshValues:
        """From :meth:`snapshot`'s entries (inside the caller's ``reading``)."""
        values = cls()
        for origin, name, vetoed, fresh, stamps, renders in listed(entries, "fresh", list):
            values._names[typed(origin, str, "origin"), typed(name, str, "name")] = _Name(
                typed(vetoed, bool, "vetoed"),
                typed(fresh, bool, "fresh"),
                {
                    typed(target, str, "target"): Stamp(
                        typed(value, str, "value"), typed(page, str, "url")
                    )
                    for target, value, page in listed(stamps, "stamp", list)
                },
                [
                    Render(
                        typed(value, int, "time"),
                        typed(page, str, "url"),
                        frozenset(listed(targets, "target", str)),
                    )
                    for value, page, targets in listed(renders, "render", list)
                ],
            )
        return values

    def observe(
        self, page: NormalizedURL, links: list[NormalizedURL], listed: set[tuple[str, str]]
    ) -> list[Learned]:
        """A fetched page's same-origin links: the parameters proven fresh per response
        now, each with its proof (see the module docstring). ``listed`` gains the
        parameters the page linked with several token values (origin, name): they name
        pages, and are never learned, as a stamp or as a session id."""
        origin = str(page.origin)
        own = {seg for seg in path_segments(page.path) if seg}
        own |= {pair.partition("=")[2] for pair in query_pairs(page.query)}
        learned: list[Learned] = []
        for name, values in _values(page, links).items():
            state = self._names.setdefault((origin, name), _Name())
            if len({each for each in values if is_token(each)}) > 1:
                listed.add((origin, name))
            if len(values) > 1:
                state.vetoed = True
                state.stamps.clear()
                state.renders.clear()
            (value,) = values if len(values) == 1 else ("",)
            if state.vetoed or state.fresh or not opaque(value) or value in own:
                continue
            # A list's pages chain a cursor (``?after=x8Kq2...``) into the links to the
            # list itself: the page's own target is no evidence of a stamp.
            targets = _targets(name, page, links)
            if len(targets - {_target(page, name)}) < 2:
                continue
            proof = self._stamp_proof(state, name, Stamp(value, str(page)), targets)
            moved: set[str] = set()
            if proof is None and _STAMP_DIGITS.fullmatch(value):
                proof, moved = self._clocked(
                    state, name, Render(int(value), str(page), frozenset(targets))
                )
            if proof is None:
                continue
            for each in sorted({name} | moved):
                self._names.setdefault((origin, each), _Name()).fresh = True
                if (origin, each) not in listed:
                    line = f"parameter {each} is fresh per response: {proof}"
                    learned.append(Learned(each, value, line))
        return learned

    @staticmethod
    def _stamp_proof(state: _Name, name: str, stamp: Stamp, targets: set[str]) -> str | None:
        """The proof that another response linked one of ``targets`` under another
        value of ``name``, if one did; ``stamp`` is kept as evidence either way."""
        proof = None
        for target in sorted(targets):
            old = state.stamps.get(target)
            if old is not None and old.value != stamp.value and old.page != stamp.page:
                proof = (
                    f"{old.page} linked {target} with {name}={old.value}, "
                    f"{stamp.page} with {stamp.value}"
                )
            if len(state.stamps) < MAX_TARGETS or target in state.stamps:
                state.stamps[target] = stamp
        return proof

    @staticmethod
    def _clocked(state: _Name, name: str, render: Render) -> tuple[str | None, set[str]]:
        """The proof that an earlier response stamped time ``name`` into the same
        targets, every time in them moved by the time between the two renders (a
        graph's zoom links, ``start_epoch=<now - period>&stop_epoch=<now>``), and the
        other parameters that moved with it; ``render`` is kept as evidence."""
        for old in state.renders:
            if old.page == render.page or old.value == render.value:
                continue
            delta = render.value - old.value
            matched = {shifted(t, delta) for t in old.targets} & render.targets
            if matched:
                moved = {
                    param_name(pair)
                    for target in matched
                    for pair in query_pairs(target.partition("?")[2])
                    if _STAMP_DIGITS.fullmatch(pair.partition("=")[2])
                }
                proof = (
                    f"{old.page} and {render.page} stamped {name}={old.value} and "
                    f"{render.value} into the same links, their times moved by {delta}"
                )
                return proof, moved
        state.renders = [*state.renders[-(MAX_RENDERS - 1) :], render]
        return None, set()
