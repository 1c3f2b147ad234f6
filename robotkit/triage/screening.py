"""The triage's first half: the checks on a URL before it is fetched, and the limits
(:class:`TriageConfig`) both halves read.

A link found on a page is *screened* before it is queued and *rechecked* just before
it is fetched (what was learned in between may rule it out); every request and
redirect hop of the crawl passes :meth:`Screening.request_check`. The rules are
:mod:`robotkit.triage.triage`'s (its docstring and ARCHITECTURE.md's trap policy table say
why each exists); :class:`robotkit.triage.triage.Triage` is a :class:`Screening` that also
judges fetched pages.
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass

from robotkit.base.reasons import Reason
from robotkit.triage.copies import Copies
from robotkit.triage.growth import GrowthGate
from robotkit.triage.guard import Guard, GuardVerdict, Rule, find_repeated_run, path_segments
from robotkit.triage.regions import FailureKind, Regions, region_of
from robotkit.triage.waste import Waiting, WasteLedger
from robotkit.url.families import path_info_tail
from robotkit.url.friendly import as_path
from robotkit.url.learned import LearnedRules
from robotkit.url.normalization import (
    NormalizedURL,
    normalize,
    normalize_or_none,
    request_form,
)
from robotkit.url.parse import InvalidURL
from robotkit.url.template import query_form
from robotkit.url.waste import waste_family, waste_shape

__all__ = ["Screening", "TriageConfig", "waste_of"]


@dataclass(frozen=True)
class TriageConfig:
    """The triage's limits; the defaults are ``robotkit crawl``'s.

    - ``max_streak`` 6: a link found behind six pages in a row that added nothing
      new is dropped. Real sites chain a few look-alike pages ("part 1" ... "part 7",
      an archive's "older" links); six copies in a row feeding new URLs is a loop.
    - ``growth_limit`` 8: non-novel pages of one region that brought new URLs of
      that region, before the region is parked (and only while they outnumber the
      region's novel pages).
    - ``similar_distance`` 10: SimHash bits within which a page is *like* the page
      that linked it or a recent page of its template (an empty calendar month, a
      re-sorted list). Only demotes.
    - ``breaker_failures`` 2: timeouts or oversize bodies in one path family before
      the family is broken off. Nutch's fetcher gives up a whole host after too many
      errors; a family is narrower, so other parts of the host go on.
    - ``min_new_words`` 3: a page is novel only if it brings at least three words
      (and a tenth of its own) that its region has not shown; numbers do not count.
      "Events in June" after "Events in May" does not; an article does.
    - ``min_own_words`` 5: a page with at least five words new to its region is
      novel however long it is (no tenth asked). A product,
      post or question drawn by a long template has a name and a few terms of its
      own, far under a tenth of its words; it is news even when it is *like* its
      siblings by SimHash (likeness only demotes its links).
    - ``min_passage`` 8 runs of ``passage_words`` 2: a page of a path region whose
      text outside its links has eight pairs of words in a row that its region
      never showed (a new sentence of nine words, digits masked) is novel, whatever
      its vocabulary: a forum post or a README written in the words of its site
      says something new, where a list of known items re-sorted or cut to another
      subset makes a new pair only where two items meet. In a query space (a
      program's view of its parameters) new words are still asked for: a search
      page may write text made up for its query.
    - ``farm_hosts`` 8, ``farm_novelty`` 0.3: a page linking at least this many hosts
      that no earlier page of its origin linked, with fewer than 30% words new to
      the origin and fewer than ``min_own_words`` of them, is a link-farm page. A
      documentation page that links thirty projects and brings words of its own is
      not.
    - ``waste_budget`` 10: fetches of a host that nothing vouched for and that
      taught nothing (net of those that taught something) before the URLs nothing
      vouches for wait (:mod:`robotkit.triage.waste`). A real site wastes a few
      fetches on error pages and print forms; a trap the rules do not know wastes
      one per URL. The pass rule of a trap site allows 20 trap fetches in all, so
      the budget leaves room for the copies real pages link.
    - ``slow_response`` 1 s: a response that took this long is slow; a slow one
      that is not novel counts against its path family as a timeout does. A
      healthy server answers in milliseconds, and an honest slow page (an archive
      built on request) brings text of its own.
    """

    max_streak: int = 6
    growth_limit: int = 8
    similar_distance: int = 10
    breaker_failures: int = 2
    farm_hosts: int = 8
    farm_novelty: float = 0.3
    min_new_words: int = 3
    min_own_words: int = 5
    max_remembered_pages: int = 200_000
    template_window: int = 20
    max_vocabulary: int = 50_000
    passage_words: int = 2
    min_passage: int = 8
    waste_budget: int = 10
    slow_response: float = 1.0

    def __post_init__(self) -> None:
        if self.max_streak < 1 or self.growth_limit < 1 or self.breaker_failures < 1:
            raise ValueError("max_streak, growth_limit and breaker_failures must be >= 1")
        if not 0 <= self.similar_distance <= 32:
            raise ValueError("similar_distance must be between 0 and 32")
        if self.waste_budget < 0 or self.slow_response <= 0:
            raise ValueError("waste_budget must be >= 0, slow_response > 0")


class Screening:
    """What the crawl learned that rules URLs out, and the checks that read it."""

    def __init__(self, guard: Guard | None = None, config: TriageConfig | None = None) -> None:
        self.guard = guard if guard is not None else Guard()
        self.config = config if config is not None else TriageConfig()
        self.rules = LearnedRules()
        self._streak: dict[str, int] = {}
        self.regions = Regions(self.config.growth_limit, self.config.breaker_failures)
        self._fetched_keys: set[str] = set()
        self._fetched_spellings: set[str] = set()
        """The fetched pages' own keys, before learned rules."""
        self._fetched: dict[str, list[str]] = {}
        """Per origin, the URLs fetched there (their keys change as rules are learned)."""
        self.copies = Copies(self.config.max_remembered_pages)
        self.waste = WasteLedger(self.config.waste_budget, self.config.max_remembered_pages)
        self.growth = GrowthGate(self.config.max_remembered_pages, self._parse, self.key)

    # -- keys -------------------------------------------------------------------------

    def normalize(self, url: str) -> NormalizedURL:
        """:func:`robotkit.url.normalization.normalize` with the guard's policy; raises
        :class:`InvalidURL`."""
        return normalize(url, self.guard.policy)

    def request_form(self, url: str, norm: NormalizedURL) -> str:
        """:func:`robotkit.url.normalization.request_form` with the guard's policy: the
        spelling of a queued URL (``norm``, as normalized already) to request, less the
        parameters its key drops, known or learned."""
        return self.rules.spelled(norm, request_form(url, norm.origin.host, self.guard.policy))

    def asked(self, url: str) -> str:
        """The spelling to request a queued URL under now: a parameter learned since
        it was queued to name no other page is left out (:meth:`request_form`)."""
        norm = self._parse(url)
        return url if norm is None else self.rules.spelled(norm, url)

    def _parse(self, url: str) -> NormalizedURL | None:
        """:meth:`normalize`, or ``None``: the same policy as the crawler's keys."""
        return normalize_or_none(url, self.guard.policy)

    def key(self, norm: NormalizedURL) -> str:
        """The de-duplication key of a URL once what the site taught is applied."""
        return self.rules.apply(norm)

    def _reduces(self, norm: NormalizedURL, other: str | None) -> bool:
        """Whether ``norm`` is the shorter, canonical spelling of the page fetched as
        ``other`` (:meth:`robotkit.url.learned.LearnedRules.prefers`)."""
        old = self._parse(other) if other is not None else None
        return old is not None and self.rules.prefers(norm, old)

    def _note_fetched(self, url: str, norm: NormalizedURL | None) -> None:
        if norm is None:
            return
        self._fetched.setdefault(str(norm.origin), []).append(url)
        self._fetched_keys.add(self.key(norm))
        self._fetched_spellings.add(norm.key)

    def _rekey(self, norm: NormalizedURL) -> None:
        """A rule was learned on this origin: its fetched pages are known under new keys too."""
        for url in self._fetched.get(str(norm.origin), ()):
            other = self._parse(url)
            if other is not None:
                self._fetched_keys.add(self.key(other))

    def _same(self, url: str | None, other: str) -> bool:
        a, b = self._parse(url) if url else None, self._parse(other)
        return a is not None and b is not None and self.key(a) == self.key(b)

    def region(self, norm: NormalizedURL) -> str:
        """:func:`region_of` the URL as its key names it (a learned session segment
        no longer makes a region of its own)."""
        if self.rules.knows(norm):
            learned = self._parse(self.key(norm))
            if learned is not None:
                return region_of(learned)
        return region_of(norm)

    # -- offering a URL ---------------------------------------------------------------

    def screen(
        self, norm: NormalizedURL, streak: int = 0, referer: str | None = None
    ) -> GuardVerdict | Reason | None:
        """Why a URL found on a page should not be queued, or ``None``: the guard's
        verdict on its shape, a parked region, a broken path family, a chain of
        copies too long, or a link of a form known to be a copy of its page."""
        verdict = self._shape(norm, streak, referer)
        if not verdict.allowed:
            return verdict
        return self._held(norm, streak, referer)

    def request_check(self, url: str) -> GuardVerdict:
        """The guard as the polite transport should apply it to every request and
        redirect hop of the crawl: the URL rules with the extra repeat a link of a
        novel page gets (the crawler screened the URL itself already; a redirect
        chain that keeps growing its path still stops, one hop later)."""
        try:
            norm = self.normalize(url)
        except InvalidURL as exc:
            return GuardVerdict(url, False, exc.reason, Rule.URL_SYNTAX, exc.detail)
        return self._shape(norm, 0)

    def _shape(self, norm: NormalizedURL, streak: int, referer: str | None = None) -> GuardVerdict:
        """The guard's verdict, with one repeat more allowed to a link of a novel
        page: ``/manual/v2/manual/v2/manual/v2/`` in a site's own menu may be a real
        page, while a loop reaches its third repeat only through copies of copies
        (whose links are dropped or carry a streak)."""
        verdict = self.guard.check(norm, referer)
        limit = self.guard.config.min_path_repeats
        if verdict.allowed or verdict.rule is not Rule.REPEATED_PATH or streak or limit is None:
            return verdict
        segments = [seg for seg in path_segments(norm.path) if seg]
        if find_repeated_run(segments, limit + 1) is None:
            return GuardVerdict(verdict.url, True, Reason.ALLOWED)
        return verdict

    def _held(self, norm: NormalizedURL, streak: int, referer: str | None) -> Reason | None:
        if self.copies.known_copy(norm, referer):
            return Reason.DUPLICATE_URL
        held = self.regions.held(norm, self.region(norm))
        if held is not None:
            return held
        if streak > self.config.max_streak:
            return Reason.DUPLICATE_CONTENT
        return None

    def demote(self, url: str, referer: str | None) -> bool:
        """Whether a URL of the main tier should wait for the demoted tier: a child of
        a page whose children were mostly copies (:meth:`Copies.demote`), or a path
        with a tail after a static file (``/lib/index.html/a.html``), which a server
        with Apache's ``AcceptPathInfo On`` answers with the file itself. Served
        later, such a copy meets its file fetched already and is the duplicate, not
        the file. Only the order changes."""
        if self.copies.demote(referer):
            return True
        norm = self._parse(url)
        return norm is not None and path_info_tail(norm)

    def remember(self, key: str, streak: int, referer: str | None = None) -> None:
        """Record the streak a queued URL carries, and whether the page that linked
        it (``referer``, as fetched) vouches for it (:mod:`robotkit.triage.waste`)."""
        if streak:
            self._streak[key] = streak
        self.waste.offered(key, referer)

    def linked_again(self, url: str, key: str, referer: str | None) -> Waiting | None:
        """A known URL linked again: vouched for if ``referer`` taught something; the
        waiting record to queue again if it waited (:meth:`WasteLedger.linked_again`)."""
        norm = self._parse(url)
        return None if norm is None else self.waste.linked_again(str(norm.origin), key, referer)

    def copied(self, url: str, key: str) -> Waiting | None:
        """A queued URL (``key``: its key when queued) skipped at the recheck as a copy
        of the page under its key now: a page that taught linked the copy, so the page
        is vouched for, and given back if it waits (:meth:`WasteLedger.copied`)."""
        norm = self._parse(url)
        if norm is None:
            return None
        now = self.key(norm)
        page = self._parse(now)
        host = str(page.origin) if page is not None else str(norm.origin)
        return self.waste.copied(host, key, now)

    def leave(self, host: str) -> tuple[list[Waiting], list[Waiting]]:
        """What still waits on ``host`` once the crawl has nothing else queued: the
        URLs to queue again, those whose key under the rules learned since they
        waited (a session parameter dropped) a page that taught something linked and
        no fetch covered; and those left for good (``waste-budget``). A URL of a
        barren family would only wait again (it counts as unvouched whoever linked
        it), so it is left: giving it back would turn the end of the crawl into a
        loop. One given back is vouched for: it waits again only if its family turned
        barren meanwhile, and is then left at the next end."""
        again: list[Waiting] = []
        left: list[Waiting] = []
        for waiting in self.waste.abandon(host):
            norm = self._parse(waiting.url)
            key = self.key(norm) if norm is not None else waiting.key
            family, shape, form = waste_of(norm)
            if (
                key not in self._fetched_keys
                and self.waste.vouched(key)
                and not self.waste.held(family, shape, form)
            ):
                self.waste.vouch(waiting.key)
                again.append(waiting)
            else:
                left.append(waiting)
        return again, left

    def must_wait(self, url: str, key: str) -> bool:
        """Whether a queued URL waits now: no novel page vouched for it (a parked space's
        next page, by its own pages: ``Regions.admitted``) and its host spent the budget."""
        norm = self._parse(url)
        fam = (*waste_of(norm), norm is not None and self.regions.admitted(norm, self.region(norm)))
        return norm is not None and self.waste.must_wait(str(norm.origin), key, *fam)

    def wait(self, url: str, key: str, depth: int, referer: str | None) -> None:
        """Hold a URL :meth:`must_wait` said waits; the ledger gives it back."""
        norm = self._parse(url)
        if norm is not None:
            waiting = Waiting(url, key, depth, referer, self.region(norm))
            self.waste.hold(str(norm.origin), waiting)

    def streak_of(self, key: str) -> int:
        return self._streak.get(key, 0)

    def recheck(
        self, url: str, key: str, referer: str | None = None, queued: Container[str] = ()
    ) -> Reason | None:
        """Just before a queued URL is fetched: what was learned since it was queued
        may rule it out (a grown blacklist, a parked region, a broken family, a
        session segment learned, so the URL is a page already fetched). ``queued``
        holds the keys the frontier has seen: a URL whose key a copy-family rule
        changed since it was queued (``key``, its key then) is a copy of the page
        queued under its new key, fetched or not (a twin host's page is fetched on
        the first host at the same moment)."""
        try:
            norm = self.normalize(url)
        except InvalidURL as exc:
            return exc.reason
        streak = self.streak_of(key)
        verdict = self._shape(norm, streak)
        if not verdict.allowed:
            return verdict.reason
        held = self._held(norm, streak, referer)
        if held is not None:
            return held
        if self.rules and self._copy(norm, key, queued):
            return Reason.DUPLICATE_URL
        return None

    def _copy(self, norm: NormalizedURL, queued_as: str, queued: Container[str]) -> bool:
        """Whether the learned rules make ``norm`` a page already fetched or queued
        under another key. The canonical member of a copy family (the spelling the
        rules leave as it is) is still fetched once when only its copies were: it is
        the page, they the duplicates."""
        key = self.key(norm)
        if key != norm.key and key != queued_as and key in queued:
            return True
        if key not in self._fetched_keys:
            return False
        return key != norm.key or key in self._fetched_spellings

    def explain(self, url: str) -> str | None:
        """The learned copy-family rule, with its proof, that makes ``url`` a copy of a
        page fetched or queued, for the ``copy_rule`` field of its skip record."""
        norm = self._parse(url)
        return None if norm is None else self.rules.explain(norm)

    def shape_signal(self, norm: NormalizedURL, reason: Reason) -> str | None:
        """A URL refused on its shape counts towards the guard's automatic blacklist (a
        loop keeps producing such URLs); a summary line when a region gets blacklisted."""
        entry = self.guard.report_trap_signal(norm, reason)
        return None if entry is None else f"blacklisted {entry.pattern}: {entry.source}"

    # -- a failed fetch ---------------------------------------------------------------

    def slow(self, asked: NormalizedURL, elapsed: float | None, novel: bool) -> list[str]:
        """A slow answer that brought nothing novel counts against its path family,
        as a timeout does: a family of slow pages that teach nothing is broken off
        before each costs its full wait."""
        if novel or elapsed is None or elapsed < self.config.slow_response:
            return []
        line = self.regions.failed(asked, FailureKind.SLOW)
        return [] if line is None else [line]

    def failed(self, url: str, kind: FailureKind, key: str | None = None) -> str | None:
        """A fetch that timed out or overflowed: the breaker counts it against the
        URL's path family, and it taught nothing (``key``: the key it was fetched
        under); returns a summary line when the family is broken off."""
        norm = self._parse(url)
        if norm is None:
            return None
        self.count_waste(norm, url, key, False, evidence=False)
        return self.regions.failed(norm, kind)

    def count_waste(
        self,
        asked: NormalizedURL,
        url: str,
        key: str | None,
        taught: bool,
        evidence: bool,
        seed: bool = False,
        vouches: bool = True,
        paged: str | None = None,
    ) -> None:
        """A fetch of ``asked`` (``url`` as fetched, under ``key``, a page of the list
        ``paged``) for the waste bound: ``taught`` or not, ``evidence`` about its family or
        not; a ``seed``'s links stay vouched for, not a page's that ``vouches`` not."""
        family, shape, form = waste_of(asked)
        counted = (family, evidence, seed, shape, form, vouches, paged)
        self.waste.fetched(str(asked.origin), self.region(asked), url, key, taught, *counted)

    def _same_path(self, url: str | None, norm: NormalizedURL) -> bool:
        """Whether ``url`` has ``norm``'s origin and path (under another query)."""
        other = self._parse(url) if url else None
        return other is not None and (other.origin, other.path) == (norm.origin, norm.path)


def waste_of(norm: NormalizedURL | None) -> tuple[str | None, str, str]:
    """A URL's family, parameter names and query form, as the waste bound counts them
    (:func:`robotkit.url.waste.waste_family`, ``waste_shape``,
    :func:`robotkit.url.template.query_form`)."""
    if norm is None:
        return None, "", ""
    norm = as_path(norm)  # ``showthread.php?101-title&mode=`` as ``showthread.php/101-title?mode=``
    return waste_family(norm), waste_shape(norm), query_form(norm)
