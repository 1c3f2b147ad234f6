"""Self-grown URLs: a bound on a class of URLs that its own pages keep extending
(ARCHITECTURE.md, "The waste bound", "Self-grown URLs").

The waste ledger (:mod:`robotkit.triage.waste`) bounds pages that teach nothing. A trap
page that writes prose seeded by its own URL teaches by every measure of words, and
vouches for its links, so a space its pages keep extending is never bounded by it
(blind13 ``qa``: tag intersections ``/questions/tagged/a+b+c`` growing by one tag a
click, each with ``?tab=`` and ``&page=N``; ``weather``: dates along endless
previous/next arrows, each with ``?units=``: both crawls ran to the page cap). This
bound does not read the pages' words, only where their URLs came from:

- A URL's *class* is its origin, its first path segment, its number of segments and
  its script's name (:mod:`robotkit.triage.moves`, where what follows is computed):
  ``/history/{view}/{station}/date/{day}`` with any query.
- A link is *self-grown* when it is of its page's class and carries parameters (a
  query, or a segment with a digit or a joined value: ``a+b``, ``m@v1.2.3``,
  :func:`~robotkit.triage.moves.parametric`), or is a plain record beside it (its
  last segment switched, blind13 ``pkgsite``). Its *move* is where it differs from
  its page: the path segments and the query names whose values differ (:func:`move`).
  A *counter* move changes one place from a value with a digit to another (a date, a
  page number, a cursor). Another kind of page is no move: another template of a
  query (names added and others dropped: an article of a category), a word switched
  with anything else (a commit of a list of commits, a publisher's dataset).
- A URL linked by a page of another class or kind, or by a seed, is a *root*: a page
  outside the class vouches for it. So is a link of a page that *yields*: that linked
  a new URL of another class (a list's new items: a pager's next page lists new
  posts), or that showed words its host never showed, or is a copy of a page that did
  (a record of its own: :meth:`GrowthGate.judged`).
- A page that linked a new *record* of its class (a number of its path switched for a
  word: a month's thread, :func:`listed`) is an *index*: its links start their chains
  again, one step from it as from a root (blind14 ``hyperkitty``: the month reached
  by an arrow, its second page and its threads, 11 of 35 real pages held without it;
  the arrows' trap months list none and stay bounded).
- *Across classes*: a link of a page that yields, or of another class or kind, is a
  root for its own class's chain, but not when both pages carry parameters and the
  page showed no words of its own: a chain of such pages is followed ``HOPS``
  classes from a page that vouches (one without parameters, a seed, a record), and
  the next class waits (blind14 ``osm``: a map's query lists made-up features, each
  linking its history, a query near it and a changeset, an endless graph whose pages
  each linked new pages of other classes). A part of a page's object, its path with
  segments more (an event's contributions), crosses nothing. A link showing its
  page's own state in another view (:func:`projected`: the page's query pairs, a
  board's train on the board's date, its journeys at its date and time; or a part
  of its object, a train's carriages) makes the page yield by nothing and goes on
  the page's chain where it was (blind14 ``timetable``: every board, train and
  journey yielded by such links, so its date arrows were never counted).
- *Breadth*: a page read while its kind (class and query names) keeps minting new
  URLs, more than it links known ones (:mod:`robotkit.triage.breadth`), is no root for
  its links of another class or kind: they wait unless a page that is no minter links
  them; its moves are counted as any page's (blind16 ``pmwiki``: made-up WikiWords).
- From a root, a chain of self-grown links repeating one move (or fewer of its
  places: a list's third page after ``tab=newest&page=2``) is followed
  ``COUNTER_STEPS`` steps of a counter (real months along an arrow, a feed's cursor
  pages) or ``OTHER_STEPS`` of another move (a tag joined to the tags, a view or a
  unit switched); a chain that changes its move (a date stepped on a units variant,
  a page number on a tag's sort) or goes further is *deep*: its URL waits, and is
  left once the crawl has nothing else queued (``self-growth``), unless a page closer
  to a root links it meanwhile.

In a crawl shared on Redis a host's next owner (a worker's budget spent, a host given
back, a kill) gets URLs whose linkers it never read: each queued record carries the
chain its referer is at (:meth:`GrowthGate.chain`, :meth:`GrowthGate.carried`), and
their pages do not yield by words the host showed the last owner, which the next one
is still learning (ARCHITECTURE.md, "The growth bound across workers").

Each URL's state is the best over the pages that linked it (the first ``LINKERS``),
read when its turn comes, once those pages' links were all offered (a page's yield is
known only then); under the spelling a site's own pages link, when the queued one is
deep by every link of its own (a station's month first queued under a "Nearby" link's
lower-case alias). Pure: :class:`GrowthGate` reads URLs through the screening's parser
and keys. All of it is saved with the triage's snapshot (:meth:`GrowthGate.snapshot`):
a resumed crawl takes no URL it had queued for a root, and loses none it held.

Why this module is a little over 500 lines: the breadth of a class is a module of its
own (:mod:`robotkit.triage.breadth`); what is here is its place in a chain's step.
"""

from __future__ import annotations

from collections.abc import Callable, Set
from dataclasses import dataclass
from typing import Any

from robotkit.base.snapshot import header, opened, reading, typed
from robotkit.base.snapshot import listed as typed_list
from robotkit.triage.breadth import Breadth, own_view
from robotkit.triage.chains import Chain
from robotkit.triage.moves import aside, crossed, growth_class, listed, move, neighbour, viewed
from robotkit.triage.waste import Waiting, word_bag
from robotkit.url.normalization import NormalizedURL

__all__ = [
    "COUNTER_STEPS",
    "OTHER_STEPS",
    "Growth",
    "GrowthGate",
]

COUNTER_STEPS = 7
"""Steps of one counter move from a root: a real month two arrows back (blind13
``weather``), a feed's fourth cursor page listing its items inline (the first blind
set's ``cursor``: 2 of 23 pages lost at 2), a chain of seven pages each linking only
the next (gauntlet ``numbered-pages``: 2 lost at 4; a region is parked after 8 pages
that grew it, ``TriageConfig.growth_limit``, and a chain of seven stops before it)."""

OWN_WORDS = 5
"""Words its host never showed that make a page yield (``TriageConfig.min_own_words``):
a record of its own, each product of a chain of related products."""

OTHER_STEPS = 1
"""Steps of one move that is no counter: a view or a filter of a root's page."""

FANS = 2
"""New records beside it a page links for them to be moves (:func:`beside`): one is a
sequence's next (blind8 ``squarespace``'s thin events, each linking the next: 1 of 12
held when it counted), several an importer graph (blind13 ``pkgsite``)."""

HOPS = 2
"""Classes a chain of pages with parameters crosses from a page that vouches (one
without parameters, a seed, a record with words of its own): a map view's query of
features, then a feature it lists; that feature's own query or changeset waits
(blind14 ``osm``: 1 lost 8 of 32 real pages, a changeset's elements; 3 let its
made-up graph run to the page cap)."""

DEEP = 1 << 20
"""A chain's length once it changed its move: deep whatever its count."""

LINKERS = 16
"""Pages remembered per URL as linking it: the first ones, then a later one takes the
place of the farthest from a root when it is closer."""


@dataclass(frozen=True)
class _State:
    move: str | None
    steps: int
    hops: int = 0
    """The classes its chain crossed since a page that vouches (``HOPS``)."""


_ROOT = _State(None, 0)


def _rank(state: _State) -> tuple[bool, int, int]:
    """The order of chains: not deep first, then fewer classes crossed, fewer steps."""
    return state.steps >= DEEP, state.hops, state.steps


class Growth:
    """Each URL's chain of self-grown links from a root, and the URLs held as deep."""

    def __init__(self, max_remembered: int = 200_000) -> None:
        self.max_remembered = max_remembered
        self._linkers: dict[str, list[tuple[str, NormalizedURL, str | None]]] = {}
        self.spelled: dict[str, str] = {}
        """A URL to request under the spelling a page closer to a root linked it by
        (blind13 ``weather``: a station's month first queued under the lower-case
        spelling of a "Nearby" link, an alias, then linked by its own station's month)."""
        self._states: dict[str, _State] = {}
        self._yields: set[str] = set()
        self._own: set[str] = set()  # pages that showed words of their own
        self._lists: set[str] = set()  # indexes: pages that listed a new record
        self._fans: dict[str, int] = {}  # new records beside it a page linked (``FANS``)
        self._roots: set[str] = set()  # seeds
        self.breadth = Breadth(max_remembered)  # classes that keep minting new URLs
        self.held: dict[str, tuple[Waiting, NormalizedURL]] = {}

    def linked(
        self,
        key: str,
        link: NormalizedURL,
        referer: str | None,
        page: NormalizedURL | None,
        new: bool = True,
        url: str | None = None,
    ) -> None:
        """``link`` (queued under ``key``) linked by ``referer`` (parsed: ``page``, under
        its key ``referer``; None for a seed), ``new`` to the crawl or known (linked as
        ``url``)."""
        kind = growth_class(link)
        if referer is None or page is None:
            self._roots.add(key)
            return
        own = own_view(page, link, new)
        self.breadth.linked(key, referer, page, new, own, referer in self._roots)
        if new and kind != growth_class(page) and not own:
            self._yields.add(referer)  # a new URL of another class: the page yields
        elif new and listed(page, link) and len(self._lists) < self.max_remembered:
            self._lists.add(referer)  # a new record: the page is an index
        if new and neighbour(page, link) and len(self._fans) < self.max_remembered:
            self._fans[referer] = self._fans.get(referer, 0) + 1
        known = self._linkers.setdefault(key, [])
        entry = (referer, page, None if new else url)
        if len(known) < LINKERS and len(self._linkers) < self.max_remembered:
            known.append(entry)
        elif known:  # full: the new page takes the place of the farthest from a root
            ranks = [_rank(self._step(r, p, link)) for r, p, _ in known]
            worst = max(range(len(known)), key=ranks.__getitem__)
            if _rank(self._step(referer, page, link)) < ranks[worst]:
                known[worst] = entry

    def state(self, key: str, link: NormalizedURL) -> _State:
        """The best chain to ``link`` over the pages that linked it (remembered as the
        state of ``key`` once it is fetched)."""
        best = _ROOT if key in self._roots else None  # by the spelling queued
        other, spelling = None, None  # by another spelling
        for referer, page, url in self._linkers.get(key, ()):
            mine = self._step(referer, page, link)
            if url is None and (best is None or _rank(mine) < _rank(best)):
                best = mine
            elif url is not None and (other is None or _rank(mine) < _rank(other)):
                other, spelling = mine, url
        # Only a spelling deep by every link of its own (a "Nearby" alias) gives way:
        # a site's own pages link a page under the spelling they serve it by.
        if other is not None and best is not None and other.steps < DEEP <= best.steps:
            if spelling is not None and len(self.spelled) < self.max_remembered:
                self.spelled[key] = spelling
            best = other
        if other is not None and best is not None and _rank(other) < _rank(best):
            best = other
        return best or other or _ROOT

    def _step(self, referer: str, page: NormalizedURL, link: NormalizedURL) -> _State:
        """The chain to ``link`` through ``page``: a root when it is of another class or
        kind, or when the page yields (a pager listing new posts goes on); one step from
        a root when the page is a root or an index (a month listing new threads); else
        one step more of the page's move (or of fewer of its places: a list's third page after its
        second, ``page=3`` after ``tab=newest&page=2``); else deep. Across classes, a
        root that counts the classes crossed, deep past ``HOPS``, or the page's own
        chain for a view of its state (:func:`projected`); a root whatever it crossed
        after a page with words of its own; deep from a page of a class that mints."""
        moved = move(page, link) or aside(page, link)
        if moved and self._fans.get(referer, 0) < FANS and neighbour(page, link):
            moved = None  # a sequence's next record, no graph: an event's "Next event"
        theirs = self._states.get(referer, _ROOT)
        if referer in self._own:
            return _ROOT  # a record of its own vouches for its links
        minter = self.breadth.minter(referer)  # a record of a class that mints
        if moved is None or (referer in self._yields and not minter):
            if minter:
                return _State(None, DEEP, theirs.hops)
            hops = theirs.hops + crossed(page, link)
            if hops > HOPS:
                return _State(None, DEEP, hops)
            other = growth_class(link) != growth_class(page)
            if other and viewed(page, link):  # its chain goes on in that view
                return _State(theirs.move, theirs.steps, hops)
            return _State(None, 0, hops)
        where, counter = moved
        if theirs.steps == 0 or referer in self._lists:
            return _State(where, 1, theirs.hops)
        along = set(where.split(",")) <= set((theirs.move or "").split(","))
        steps = theirs.steps + 1 if along else DEEP
        limit = COUNTER_STEPS if counter else OTHER_STEPS
        return _State(where, steps if steps <= limit else DEEP, theirs.hops)

    def deep(self, key: str, link: NormalizedURL, asked: NormalizedURL | None = None) -> bool:
        """Whether ``link``'s turn came while it is deep (it waits); else its state is
        remembered, for the links of its page (``asked``, under its own spelling's key:
        a rule learned since re-keys the page, not the referer its links name)."""
        mine = self.state(key, link)
        if mine.steps < DEEP and len(self._states) < self.max_remembered:
            self._states[(asked or link).key] = mine
        return mine.steps >= DEEP

    def yields(self, key: str) -> None:
        """The page under ``key`` yields by words of its own: its links are roots."""
        if len(self._yields) < self.max_remembered:
            self._yields.add(key)
            self._own.add(key)

    def answered(self, asked: str, final: str) -> None:
        """The page asked for under the key ``asked`` answered as ``final`` (a redirect):
        its links name it so (``@master`` to a pseudo-version, blind13 ``pkgsite``)."""
        mine = self._states.get(asked)
        if mine is not None and final != asked and len(self._states) < self.max_remembered:
            self._states[final] = mine

    def hold(self, waiting: Waiting, link: NormalizedURL) -> None:
        self.held[waiting.key] = (waiting, link)

    def chain(self, referer: str) -> Chain | None:
        """The chain of the page under the key ``referer``, for another worker
        (:meth:`GrowthGate.chain`); None for a root that neither yields nor lists."""
        mine = self._states.get(referer, _ROOT)
        found = Chain(mine.steps, mine.move, referer in self._yields, referer in self._lists)
        return found if mine.steps or found.yields or found.index else None

    def read(self, referer: str) -> bool:
        """Whether this worker knows the chain of the page under ``referer``."""
        return referer in self._states

    def carried(self, referer: str, chain: Chain) -> None:
        """The chain of the page under ``referer`` as another worker knew it."""
        if len(self._states) < self.max_remembered:
            self._states.setdefault(referer, _State(chain.move, chain.steps))
        if chain.yields:
            self.yields(referer)
        if chain.index and len(self._lists) < self.max_remembered:
            self._lists.add(referer)

    def again(self, key: str, link: NormalizedURL, url: str) -> Waiting | None:
        """A held URL linked again: given back (under the spelling ``url`` of the new
        link) when it is no longer deep."""
        if key not in self.held or self.state(key, link).steps >= DEEP:
            return None
        back = self.held.pop(key)[0]
        return Waiting(url, back.key, back.depth, back.referer, back.region)

    def leave(self) -> tuple[list[Waiting], list[Waiting]]:
        """What is still held once the crawl has nothing else queued: the URLs no
        longer deep (a page closer to a root linked them since), to queue again, and
        those left for good."""
        again = [w for w, link in self.held.values() if self.state(w.key, link).steps < DEEP]
        left = [w for w, _ in self.held.values() if w not in again]
        self.held = {}
        return again, left

    def snapshot(self) -> dict[str, Any]:
        """The linkers, states, yields (and of them the pages with words of their own),
        indexes, roots and held URLs as JSON (a page as its URL), for a resumed crawl:
        without them the URLs queued before are roots again, and those held are lost."""
        return {
            "linkers": [
                [key, [[ref, page.original, url] for ref, page, url in known]]
                for key, known in self._linkers.items()
            ],
            "spelled": [[key, url] for key, url in self.spelled.items()],
            "states": [[key, s.move, s.steps, s.hops] for key, s in self._states.items()],
            "yields": sorted(self._yields),
            "own": sorted(self._own),
            "lists": sorted(self._lists),
            "fans": sorted(self._fans.items()),
            "roots": sorted(self._roots),
            "held": [waiting.saved() for waiting, _ in self.held.values()],
            "breadth": self.breadth.snapshot(),
        }

    def restore(self, data: dict[str, Any], parse: Callable[[str], NormalizedURL | None]) -> None:
        """Take back :meth:`snapshot`'s fields, each URL read by ``parse`` (inside the
        caller's ``reading``; a URL it no longer reads is left out)."""
        linkers: dict[str, list[tuple[str, NormalizedURL, str | None]]] = {}
        for key, known in typed_list(data["linkers"], "linkers", list):
            entries = linkers.setdefault(typed(key, str, "key"), [])
            for ref, url, spelling in typed_list(known, "linker", list):
                page = parse(typed(url, str, "url"))
                spelled = None if spelling is None else typed(spelling, str, "url")
                if page is not None:
                    entries.append((typed(ref, str, "key"), page, spelled))
        states = {
            typed(k, str, "key"): _State(
                None if m is None else typed(m, str, "move"),
                typed(n, int, "steps"),
                typed(h, int, "hops"),
            )
            for k, m, n, h in typed_list(data["states"], "states", list)
        }
        held = [Waiting.restored(entry) for entry in typed_list(data["held"], "held", list)]
        self._linkers, self._states = linkers, states
        self.spelled = {typed(k, str, "key"): typed(u, str, "url") for k, u in data["spelled"]}
        self._yields = set(typed_list(data["yields"], "key", str))
        self._own = set(typed_list(data["own"], "key", str))
        self._lists = set(typed_list(data["lists"], "key", str))
        self._fans = {typed(k, str, "key"): typed(n, int, "fans") for k, n in data.get("fans", [])}
        self._roots = set(typed_list(data["roots"], "key", str))
        self.held = {w.key: (w, link) for w in held if (link := parse(w.key)) is not None}
        self.breadth.restore(data.get("breadth", {}))


class GrowthGate:
    """:class:`Growth` as the screening asks it, by URLs and keys: ``parse`` and ``key``
    are the screening's own (its normalization policy and learned rules)."""

    def __init__(
        self,
        max_remembered: int,
        parse: Callable[[str], NormalizedURL | None],
        key: Callable[[NormalizedURL], str],
    ) -> None:
        self.core = Growth(max_remembered)
        self._parse, self._key = parse, key
        self._records: set[str] = set()  # the texts that brought words of their own
        self._carried: set[str] = set()  # links of pages another worker read
        self._foreign: set[str] = set()  # the pages another worker read

    def offered(
        self, key: str, referer: str | None, url: str | None = None, new: bool = True
    ) -> NormalizedURL | None:
        """A link to ``key`` (as ``url``) by ``referer``: queued (``new``) or known. A new
        link a learned rule re-keys (``/dashboard/EGHI`` under a folded case) is no new
        page: its page does not yield by it."""
        link, page = self._parse(key), self._parse(referer) if referer else None
        spelled = self._parse(url) if new and url is not None else None
        fresh = new and (spelled is None or spelled.key == key)
        if link is not None:
            ref = page.key if page is not None else None
            self.core.linked(key, link, ref, page, fresh, None if new else url)
        return link

    def again(self, url: str, key: str, referer: str | None) -> Waiting | None:
        """A known URL linked again: given back if it was held and is no longer deep."""
        link = self.offered(key, referer, url, new=False)
        return None if link is None else self.core.again(key, link, url)

    def copied(self, url: str, referer: str | None) -> Waiting | None:
        """A queued URL skipped as a copy of the page under its key now: its link is one
        to that page, under its spelling (a station's month queued under its own
        spelling and a "Nearby" link's lower-case one is fetched under its own, blind13
        ``weather``); the page is given back if it was held and is no longer deep."""
        norm = self._parse(url)
        return None if norm is None else self.again(url, self._key(norm), referer)

    def waits(self, url: str, key: str) -> bool:
        """Whether a queued URL's turn came while it is deep; else its state is kept, under
        the spelling it is requested by too (:meth:`respelled`)."""
        link = self._parse(key)
        if link is None or self.core.deep(key, link, self._parse(url)):
            return link is not None
        other = self._parse(self.core.spelled.get(key, ""))
        if other is not None:  # its links name it under that spelling
            self.core.deep(key, link, other)
        return False

    def hold(self, waiting: Waiting) -> None:
        """Hold a URL :meth:`waits` said is deep; given back or left (:meth:`leave`)."""
        link = self._parse(waiting.key)
        if link is not None:
            self.core.hold(waiting, link)

    def respelled(self, url: str) -> str:
        """A queued URL's spelling to request: the one a page closer to a root linked,
        when that chain was the shorter."""
        norm = self._parse(url)
        spelled = self.core.spelled.pop(self._key(norm), None) if norm is not None else None
        return url if spelled is None or self._parse(spelled) is None else spelled

    def answered(self, url: str, final: str) -> None:
        """A page asked for as ``url`` answered as ``final`` (a redirect): its links name
        it so."""
        asked, answer = self._parse(url), self._parse(final)
        if asked is not None and answer is not None:
            self.core.answered(asked.key, answer.key)

    def judged(self, url: str, words: Set[str], shown: int) -> None:
        """A page read as ``url`` with ``words`` (numbers left out), ``shown`` of them
        words its host never showed (the count of the vocabulary the triage's news
        keeps per host, :class:`~robotkit.triage.triage.PageVerdict`): it yields when it
        shows ``OWN_WORDS``, or is a copy of a page that did (a product in a chain of
        related products, each a record of its own, read after its copy under a
        collection's path; a page writing prose in the site's words brings none once
        the host has shown them)."""
        norm = self._parse(url)
        if norm is None:
            return
        bag = word_bag(words)  # a copy of a page that yielded yields as it did
        # A step of a chain another worker read shows words its host showed that
        # worker, not this one: it is no record of its own by them.
        mine_only = norm.key not in self._carried
        if shown >= OWN_WORDS and mine_only and len(self._records) < self.core.max_remembered:
            self._records.add(bag)
        if bag in self._records:
            self.core.yields(norm.key)

    def chain(self, referer: str | None, key: str) -> Chain | None:
        """In a crawl shared on Redis, the chain ``referer`` is at, carried by the record
        of its link to ``key``: the worker that screens or fetches the link (the host's
        next owner) did not fetch the page, and without it would take the link for a
        root, the chain begun again at each hand-over. None when the link is of
        another class (no step of a chain) or the page is a plain root."""
        page = self._kin(referer, key)
        return None if page is None else self.core.chain(page.key)

    def carried(self, key: str, referer: str | None, chain: Chain | None) -> None:
        """A link to ``key`` came from another worker's record with its referer's
        ``chain`` (:meth:`chain`). When the referer is a page of its class that another
        worker read, its steps are counted on from there, and its page, read while this
        worker is still learning the words its host showed the other, does not yield
        by them: else the chain would begin again at each hand-over."""
        page = self._kin(referer, key)
        if page is None:
            return
        if page.key not in self._foreign and self.core.read(page.key):
            return  # this worker's own page (its link to a host it inherited)
        if len(self._carried) < self.core.max_remembered:
            self._foreign.add(page.key)
            self._carried.add(key)
        if chain is not None:
            self.core.carried(page.key, chain)

    def _kin(self, referer: str | None, key: str) -> NormalizedURL | None:
        """``referer``, parsed, when the link to ``key`` is of its class (may be a step
        of its chain); else None."""
        page, link = self._parse(referer) if referer else None, self._parse(key)
        if page is None or link is None or growth_class(page) != growth_class(link):
            return None
        return page

    def leave(self) -> tuple[list[Waiting], list[Waiting]]:
        return self.core.leave()

    def snapshot(self) -> dict[str, Any]:
        """What the bound learned, as a part of the triage's snapshot."""
        return {**header("growth", 1), **self.core.snapshot(), "records": sorted(self._records)}

    def restored(self, data: Any) -> GrowthGate:
        """A new gate reading URLs as this one does, from :meth:`snapshot` (None: a
        snapshot from before the bound was saved, nothing learned);
        :class:`~robotkit.base.snapshot.SnapshotError` for bad data."""
        gate = GrowthGate(self.core.max_remembered, self._parse, self._key)
        if data is not None:
            with reading("growth"):
                data = opened(data, "growth", 1)
                gate.core.restore(data, self._parse)
                gate._records = set(typed_list(data["records"], "record", str))
        return gate
