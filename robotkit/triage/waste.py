"""The waste bound: what a crawl may spend on fetches that teach it nothing.

The trap rules recognise the trap kinds they were written for; this ledger bounds
the ones they do not know, by construction (ARCHITECTURE.md, "Trap policy", "The
waste bound"):

- A fetch *taught nothing* (is *waste*) when it showed no text its host had not
  shown: an exact or echoed copy, a near (SimHash) copy of its own path under other
  parameters, a *variant* that repeats its path (:meth:`WasteLedger.variant`), the
  same words as an earlier page in another order (a re-sorted listing), a page only
  like its siblings with no words of its own, a soft 404, a link-farm page, a
  non-canonical form, a view of the page that linked it, or of a page it is a path
  under, restating it (:meth:`PagePairs.restates`); or an error status, a timeout, an oversize body.
  Every other fetch taught something. The triage judges which; the ledger counts.
- A URL is *vouched for* when the page that first linked it taught something (not
  by SimHash alone: ``vouches``) or was a seed (or it is a seed itself), and its *family*
  (:func:`robotkit.url.waste.waste_family`: the URLs of one directory with the
  same parameter names) is not *barren*. A family
  is barren while the last ``BARREN`` of its pages fetched taught nothing: a
  cache-buster, a toggle or a sort switch that every page links is vouched for
  only until it has proven itself a copy that many times. Pages with every
  parameter name of a URL and more (a *shape* beyond its own) say nothing of it:
  the page with a toggle alone (``?viewPanel=2``) is not condemned by its copies
  under a time picker's extra parameters (``?from=…&to=…&viewPanel=2``), as of a
  copy family the shorter member is the page
  (:func:`robotkit.url.families.reduces`); a toggle barren alone is still barren
  appended to more parameters. Likewise a page that teaches does not end the run
  of pages with a shape beyond its own. A fetch that is no ``evidence`` (an error,
  a page only like its siblings, a canonical page linked by another page and
  read after its copy) counts neither way in its family's run: the last is
  one fetch at most for each copy of it fetched before. Nor does a list's first
  page that taught nothing when it links a further page of its list (its end:
  :func:`robotkit.url.template.list_end`): a stale count of replies or results
  offers one page past the last (phpBB's resync problem), so each list ends in an
  empty page, and three lists so ended made the real later pages of every other
  list of the script barren. A list's second such page is evidence. A parked list's
  own next page (``own``: :meth:`~robotkit.triage.regions.Regions.admitted`) is held
  for its family only once a page of its very shape taught nothing since the family's
  last page that taught: the list's sorts and switches say nothing of its pages.
- Per host, a balance: each unvouched fetch that taught nothing adds one, each
  unvouched fetch that taught something takes one off (never below zero). While
  the balance is at ``budget`` or above, an unvouched URL is not fetched: it waits.
  An unvouched fetch that teaches brings the balance down and lets waiting URLs go
  (the least wasteful region's first); once the crawl has nothing else queued,
  what still waits is left for good (``waste-budget``). Vouched fetches neither
  spend nor earn: a real page linked by a real page says nothing about the pages
  only wasted ones link. A URL first linked only by wasted pages and linked again
  by a page that taught is vouched for from then on (and no longer waits).

So on every host, unvouched fetches that taught nothing are at most ``budget``
plus the unvouched fetches that taught something (the invariant a property test
checks), and vouched ones that taught nothing at most ``BARREN`` per family plus
those a family with a page that taught something links.

Pure: the crawler owns the queue; the ledger keeps the waiting URLs as plain
records so that the frontier layer stays above it.

Why this module is a little over 500 lines: what a fetch taught, proven from the
ledger's own memory of pages and paths, and what it costs are one account.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from robotkit.base.snapshot import header, listed, opened, reading, typed
from robotkit.triage.forms import FormRuns
from robotkit.triage.kinship import Kinship, more
from robotkit.triage.variants import PATH_BITS, VARIANT_NEW, PathPairs, pairs, repeats
from robotkit.url.normalization import NormalizedURL
from robotkit.url.template import url_template
from robotkit.url.views import owners

__all__ = ["BARREN", "PAGE_BITS", "PATH_BITS", "VARIANT_NEW", "PagePairs", "Waiting", "WasteLedger"]

BARREN = 3
"""Pages of one family fetched in a row that taught nothing, before the family's
other URLs are vouched for by nothing (as many as a parameter's values asked to
prove a copy family, :data:`robotkit.url.families.PARAM_VALUES`)."""


PAGE_BITS = 1024
"""Bits of the set, per page, of its pairs of words outside links, for the pages its
links lead to (:meth:`PagePairs.restates`): 128 bytes a page."""


def word_bag(words: Iterable[str]) -> str:
    """A page's words in any order, as a short digest (:meth:`WasteLedger.shown_before`,
    and the self-growth bound's records, :mod:`robotkit.triage.growth`)."""
    return hashlib.blake2b("\x00".join(sorted(words)).encode(), digest_size=12).hexdigest()


@dataclass(frozen=True)
class Waiting:
    """An unvouched URL held back by the waste bound, as the frontier had it."""

    url: str
    key: str
    depth: int
    referer: str | None
    region: str

    def saved(self) -> list[Any]:
        """As an entry of a snapshot."""
        return [self.url, self.key, self.depth, self.referer, self.region]

    @classmethod
    def restored(cls, entry: Any) -> Waiting:
        """From :meth:`saved`'s entry (inside the caller's ``reading``)."""
        url, key, depth, referer, region = typed(entry, list, "waiting")
        referer = None if referer is None else typed(referer, str, "referer")
        return cls(typed(url, str, "url"), typed(key, str, "key"), typed(depth, int, "depth"),
                   referer, typed(region, str, "region"))  # fmt: skip


@dataclass
class _Host:
    balance: int = 0
    """Unvouched wasted fetches less unvouched fetches that taught something, never
    below zero."""
    wasted: int = 0
    taught: int = 0
    unvouched_wasted: int = 0
    unvouched_taught: int = 0
    waiting: dict[str, Waiting] = field(default_factory=dict)


class PagePairs:
    """The pairs of words each judged page showed outside its links, and the URL
    templates it lists: what tells a view restating the page that linked it."""

    def __init__(self, max_remembered: int) -> None:
        self.max_remembered = max_remembered
        self._pages: dict[str, tuple[int, frozenset[str]]] = {}

    def restates(
        self,
        url: str,
        referer: str | None,
        prose: Sequence[str],
        links: Iterable[str] = (),
        of: NormalizedURL | None = None,
    ) -> str | None:
        """Whether the page of ``url`` *restates* the page that linked it
        (``referer``): its words outside links (``prose``, a page's own
        sentences) show fewer than ``VARIANT_NEW`` pairs of adjacent words that page
        did not, and that page was no list of it (linked no other URL of ``url``'s
        template). A toot's embed or boosts page is the toot page again, and a
        file's annotated view the file page again, where a toot is one of twenty its
        profile lists (blind6 ``mastodon``, blind5 ``hgweb``). Pairs, not a SimHash:
        a view in another chrome (an embed without the site's navigation) is far from
        its page by SimHash bits. Remembers the page's pairs and the templates it
        lists (``links``, two URLs of one template or more). Else, the nearest page
        that ``url`` (parsed: ``of``) is a path under that it restates so
        (:func:`~robotkit.url.views.owners`; an object's export linked by a list of
        the objects, blind8 ``invenio``): returns the page restated, or None."""
        mine = pairs(prose, PAGE_BITS)
        count = Counter(url_template(link) for link in links)
        lists = frozenset(t for t, n in count.items() if t is not None and n > 1)
        above = owners(of) if of is not None else []
        pages = [p for p in (referer, *above) if p is not None and p in self._pages]
        if url in self._pages or len(self._pages) < self.max_remembered:
            self._pages[url] = (mine, lists)
        template = url_template(url)
        for page in pages if mine else ():
            theirs = self._pages[page]
            if template not in theirs[1] and repeats(theirs[0], mine, PAGE_BITS):
                return page
        return None

    def snapshot(self) -> list[list[Any]]:
        return sorted(
            [url, format(bits, "x"), sorted(lists)] for url, (bits, lists) in self._pages.items()
        )

    @classmethod
    def restored(cls, entries: Any, max_remembered: int) -> PagePairs:
        """Take back :meth:`snapshot` (inside the caller's ``reading``); a snapshot
        from before pages were remembered has none."""
        pages = cls(max_remembered)
        for url, bits, lists in listed(entries, "pages", list):
            pages._pages[typed(url, str, "url")] = (
                int(typed(bits, str, "bits"), 16),
                frozenset(listed(lists, "template", str)),
            )
        return pages


class WasteLedger:
    """Per host and per region, the fetches that taught nothing; which URLs are
    vouched for; which wait. See the module docstring."""

    def __init__(self, budget: int = 20, max_remembered: int = 200_000) -> None:
        if budget < 0:
            raise ValueError("the waste budget must be >= 0")
        self.budget = budget
        self.max_remembered = max_remembered
        self._hosts: dict[str, _Host] = {}
        self.regions: Counter[str] = Counter()
        """Wasted fetches per region (never decreases): the order waiting URLs go in."""
        self._wasted_pages: set[str] = set()
        """URLs of fetched pages that taught nothing: their links are unvouched."""
        self._unvouched: set[str] = set()
        self._vouched: set[str] = set()
        """Keys a page that taught linked (under the rules of the moment): a URL
        waiting under an older key is given back when its key now is one of them."""
        self._word_bags: dict[str, set[str]] = {}
        self._families: dict[str, Counter[str]] = {}
        """A family to the shapes (parameter names, ``from&to&viewPanel``) of its
        pages fetched since the last that taught something."""
        self.forms = FormRuns(BARREN, max_remembered)  # each query form's last pages
        self.kin = Kinship(BARREN)  # where one family's proof serves another
        self.paths = PathPairs(max_remembered)  # each path's word pairs, and its views'
        self.pages = PagePairs(max_remembered)
        self._ended: set[str] = set()  # lists whose first page past the end was read

    # -- vouching ---------------------------------------------------------------------

    def vouches(self, referer: str | None) -> bool:
        """Whether a link found on ``referer`` is vouched for: a seed (no referer), or
        a link of a page that taught something (or was never judged)."""
        return referer is None or referer not in self._wasted_pages

    def offered(self, key: str, referer: str | None) -> None:
        """A URL queued under ``key``, first linked from ``referer``."""
        if not self.vouches(referer):
            if len(self._unvouched) < self.max_remembered:
                self._unvouched.add(key)
        elif len(self._vouched) < self.max_remembered:
            self._vouched.add(key)

    def unvouched(
        self, key: str, family: str | None = None, shape: str = "", form: str = ""
    ) -> bool:
        """Whether ``key``'s URL is unvouched: linked first by a wasted page, or held."""
        return key in self._unvouched or self.held(family, shape, form)

    def held(self, family: str | None, shape: str = "", form: str = "") -> bool:
        """Whether a URL of ``family``, ``shape`` and ``form`` is vouched for by nothing
        whoever linked it: barren and not of a proven form, of a form copying a
        proven one, or carried by its kin (:mod:`robotkit.triage.kinship`)."""
        if family is None or self.forms.held(self.barren(family, shape), family, form):
            return family is not None
        return family not in self._families and self.kin.carried(family, shape, form)

    def barren(self, family: str | None, shape: str = "") -> bool:
        """Whether, of the pages of ``family`` fetched since the last that taught, the
        last ``BARREN`` with no shape beyond ``shape`` (all its parameter names and
        more) taught nothing, or its last one did while a kin family was proven
        barren or its host known (:meth:`~robotkit.triage.kinship.Kinship.barren`)."""
        return family is not None and self.kin.barren(
            family, self._families.get(family), shape, self.forms.fresh
        )

    def linked_again(self, host: str, key: str, referer: str | None) -> Waiting | None:
        """A URL already known under ``key`` linked again from ``referer``: when that
        page taught something, the URL is vouched for from now on (a story first
        met through a copy, then listed by its section), and if it waits, it is
        given back (returned) to be queued again."""
        return self._vouch_for(host, key) if self.vouches(referer) else None

    def copied(self, host: str, old: str, new: str) -> Waiting | None:
        """The URL queued under ``old`` turned out, under a rule learned since, to be a
        copy of the URL of ``new`` on ``host`` (a twin host's page re-keyed onto the
        first host's): when a page that taught linked the copy, that vouches for the
        page it copies, as a link to the page itself would; if it waits, it is given
        back (returned) to be queued again."""
        return self._vouch_for(host, new) if old != new and old in self._vouched else None

    def _vouch_for(self, host: str, key: str) -> Waiting | None:
        """A page that taught linked the URL of ``key`` (or a copy of it): vouched for
        from now on; its waiting record, if it waits on ``host``."""
        if len(self._vouched) < self.max_remembered:
            self._vouched.add(key)
        if key not in self._unvouched:
            return None
        self._unvouched.discard(key)
        book = self._hosts.get(host)
        return None if book is None else book.waiting.pop(key, None)

    # -- fetches ----------------------------------------------------------------------

    def shown_before(self, host: str, *readings: Iterable[str]) -> bool:
        """Whether ``host`` showed a page of exactly the words of one of ``readings``
        before, in any order (a listing re-sorted by another column), remembering them.
        Numbers count: "Build 41 passed" and "Build 42 passed" are two pages."""
        bags = self._word_bags.setdefault(host, set())
        mine = {word_bag(words) for words in readings}
        if not mine.isdisjoint(bags):
            return True
        if len(bags) + len(mine) <= self.max_remembered:
            bags |= mine
        return False

    def variant(
        self, norm: NormalizedURL, words: Sequence[str], referer: NormalizedURL | None = None
    ) -> tuple[bool, bool, bool]:
        """Whether a page is a *variant*, *repeats* its path, and repeats only what a
        view of a page showed (:meth:`~robotkit.triage.variants.PathPairs.variant`)."""
        return self.paths.variant(norm, words, referer)

    def fetched(
        self,
        host: str,
        region: str,
        url: str,
        key: str | None,
        taught: bool,
        family: str | None = None,
        evidence: bool = True,
        seed: bool = False,
        shape: str = "",
        form: str = "",
        vouches: bool = True,
        paged: str | None = None,
    ) -> None:
        """Count one fetch of ``host``: ``taught`` or not. ``url`` is the page its links
        name as their referer; ``key`` the key it was fetched under; ``family`` its
        family, which a page is ``evidence`` about (an error or a timeout is not);
        ``shape`` its parameter names, ``form`` its query form; one that ``vouches`` not
        (taught by SimHash alone) vouches for no link (blind5 ``hgweb``).

        The first page of a list ``paged`` that taught nothing is its end, no evidence
        (:func:`~robotkit.url.template.list_end`; the module docstring).

        A ``seed`` that taught nothing still vouches for its links: the user named its
        host, and a seed is a copy only of another seed (two names of one site, the
        second fetched first). Its links are the host's own pages, which the twin
        rule, not the waste bound, tells from their copies."""
        book = self._hosts.setdefault(host, _Host())
        unvouched = key is not None and self.unvouched(key, family, shape, form)
        # Let through by its proven form, a barren family's page earns (blind4 viewvc).
        earns = unvouched or (key is not None and self.barren(family, shape))
        ends = paged if evidence and not taught and paged not in self._ended else None
        if ends is not None and len(self._ended) < self.max_remembered:  # blind2 phpbb
            self._ended.add(ends)
            evidence = False
        if (
            evidence
            and family is not None
            and (family in self._families or len(self._families) < self.max_remembered)
        ):
            self.forms.fetched(family, form, taught)
            run = self._families.setdefault(family, Counter())
            if taught:
                # Not of the pages of a shape beyond its own: a panel that teaches
                # says nothing of its copies under a time picker's parameters.
                for theirs in [theirs for theirs in run if not more(theirs, shape)]:
                    del run[theirs]
            else:
                run[shape] += 1
                self.kin.note(family, run, shape)
        if taught:
            book.taught += 1
            book.unvouched_taught += earns
            if earns:
                book.balance = max(0, book.balance - 1)
        else:
            book.wasted += 1
            book.unvouched_wasted += unvouched
            book.balance += unvouched
            self.regions[region] += 1
        if not (seed or (taught and vouches)) and len(self._wasted_pages) < self.max_remembered:
            self._wasted_pages.add(url)

    def must_wait(
        self, host: str, key: str, family: str | None = None, shape: str = "", form: str = "",
        own: bool = False,
    ) -> bool:  # fmt: skip
        """Whether the URL under ``key`` is to wait instead of being fetched now; a list's
        ``own`` next page only once a page of its very shape taught nothing (``named``)."""
        if not self.unvouched(key, family, shape, form):
            return False
        run = self._families.get(family or "", Counter())
        if own and key not in self._unvouched and not run[shape]:
            return False
        book = self._hosts.get(host)
        return book is not None and book.balance >= self.budget

    def hold(self, host: str, waiting: Waiting) -> None:
        """Keep a URL that must wait."""
        self._hosts.setdefault(host, _Host()).waiting[waiting.key] = waiting

    def release(self, host: str) -> list[Waiting]:
        """The waiting URLs of ``host`` that may go now (as many as the balance
        allows), least wasteful region first, then shallowest, then oldest."""
        book = self._hosts.get(host)
        if book is None or not book.waiting:
            return []
        room = self.budget - book.balance
        if room <= 0:
            return []
        order = sorted(
            enumerate(book.waiting.values()),
            key=lambda item: (self.regions[item[1].region], item[1].depth, item[0]),
        )
        going = [w for _, w in order[:room]]
        for w in going:
            del book.waiting[w.key]
        return going

    def abandon(self, host: str) -> list[Waiting]:
        """Everything still waiting on ``host`` (the crawl has nothing else queued): left
        for good."""
        book = self._hosts.get(host)
        if book is None or not book.waiting:
            return []
        left = list(book.waiting.values())
        book.waiting.clear()
        return left

    def vouched(self, key: str) -> bool:
        """Whether a page that taught something linked the URL of ``key``."""
        return key in self._vouched

    def vouch(self, key: str) -> None:
        """The URL queued under ``key`` is vouched for from now on."""
        self._unvouched.discard(key)

    def waiting_hosts(self) -> list[str]:
        return [host for host, book in self._hosts.items() if book.waiting]

    def waiting(self, host: str) -> int:
        book = self._hosts.get(host)
        return 0 if book is None else len(book.waiting)

    def counts(self, host: str) -> tuple[int, int, int, int]:
        """``(wasted, taught, unvouched wasted, unvouched taught)`` fetches of ``host``."""
        book = self._hosts.get(host, _Host())
        return book.wasted, book.taught, book.unvouched_wasted, book.unvouched_taught

    # -- state ------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        return {
            **header("waste", 1),
            "hosts": [
                [
                    host,
                    [b.balance, b.wasted, b.taught, b.unvouched_wasted, b.unvouched_taught],
                    [w.saved() for w in b.waiting.values()],
                ]
                for host, b in self._hosts.items()
            ],
            "regions": sorted(self.regions.items()),
            "wasted_pages": sorted(self._wasted_pages),
            "unvouched": sorted(self._unvouched),
            "vouched": sorted(self._vouched),
            "word_bags": [[host, sorted(bags)] for host, bags in self._word_bags.items()],
            "families": _saved_families(self._families),
            "paths": self.paths.snapshot()[0],
            "pages": self.pages.snapshot(),
            "forms": self.forms.snapshot(),
            "ended": sorted(self._ended),
            "views": self.paths.snapshot()[1:],
        }

    def restore(self, data: Any) -> None:
        """Take back :meth:`snapshot`; :class:`~robotkit.base.snapshot.SnapshotError`
        for bad data, leaving the ledger as it was."""
        with reading("waste"):
            data = opened(data, "waste", 1)
            hosts = _read_hosts(data["hosts"])
            regions = Counter(
                {typed(r, str, "region"): typed(n, int, "count") for r, n in data["regions"]}
            )
            wasted_pages = set(listed(data["wasted_pages"], "url", str))
            unvouched = set(listed(data["unvouched"], "key", str))
            # A snapshot from before links were vouched for again has none.
            vouched = set(listed(data.get("vouched", []), "key", str))
            bags = {
                typed(host, str, "host"): set(listed(b, "bag", str))
                for host, b in listed(data["word_bags"], "word_bags", list)
            }
            families = _read_families(data.get("families", []))
            forms = FormRuns.restored(data.get("forms", []), BARREN, self.max_remembered)
            paths = PathPairs.restored(
                data.get("paths", []), data.get("views", []), self.max_remembered
            )
            pages = PagePairs.restored(data.get("pages", []), self.max_remembered)
            ended = set(listed(data.get("ended", []), "list", str))
        self._hosts, self.regions, self._word_bags = hosts, regions, bags
        self._families, self.kin, self.forms = families, Kinship.noted(families, BARREN), forms
        self.paths, self.pages, self._ended = paths, pages, ended
        self._wasted_pages, self._unvouched, self._vouched = wasted_pages, unvouched, vouched


def _read_hosts(entries: Any) -> dict[str, _Host]:
    """The per-host books of a :meth:`WasteLedger.snapshot`, waiting URLs included."""
    hosts: dict[str, _Host] = {}
    for host, numbers, waiting in listed(entries, "hosts", list):
        balance, wasted, taught, u_wasted, u_taught = listed(numbers, "counts", int)
        book = _Host(balance, wasted, taught, u_wasted, u_taught)
        for w in map(Waiting.restored, listed(waiting, "waiting", list)):
            book.waiting[w.key] = w
        hosts[typed(host, str, "host")] = book
    return hosts


def _saved_families(families: dict[str, Counter[str]]) -> list[Any]:
    """The families' runs as a :meth:`WasteLedger.snapshot` has them."""
    return sorted([f, [list(item) for item in sorted(run.items())]] for f, run in families.items())


def _read_families(entries: Any) -> dict[str, Counter[str]]:
    """The families' runs of a :meth:`WasteLedger.snapshot`; a snapshot from before
    shapes counted a family's pages as one number."""
    return {
        typed(f, str, "family"): Counter(
            {"": typed(run, int, "count")}
            if not isinstance(run, list)
            else {
                typed(sh, str, "shape"): typed(n, int, "count")
                for sh, n in listed(run, "run", list)
            }
        )
        for f, run in listed(entries, "families", list)
    }
