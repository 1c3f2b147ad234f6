"""Page triage: what a crawl learns from each page, and which URLs it still fetches.

The crawler (:mod:`robotkit.crawler.loop`) keeps the loop and the fetch; every decision
about *what a page means* lives here (the checks on a URL before its fetch in
:mod:`robotkit.triage.screening`, the measures of a page's news in
:mod:`robotkit.triage.news`), as a pure state machine fed with facts (a URL offered, a
page fetched, a fetch that failed) and answering with verdicts. No I/O, no clock:
the soft-404 probes it asks for are fetched by the crawler.

The policy is **coverage first** (ARCHITECTURE.md, "Trap policy"): losing a real
page is worse than fetching a few trap pages, so a URL is dropped unfetched only on
evidence that its region *grows*, never on likeness alone.

- A page is a *copy* when it repeats one already seen: the same text under another
  URL (exact or SimHash near duplicate), the same text once the words of its own URL
  are removed (``Index of /a/b/a/``), a soft 404, or a page within a few SimHash
  bits of the page that linked it or of a recent page of its URL template. It is
  *novel* when it is no copy and brings words its region has not shown (three, and
  a tenth of its own), or when it shows five such words, however long the rest:
  then it is novel even when only *like* its siblings. One template writes most
  of a catalog's product, a blog's post or a Q&A site's question; the name and
  terms of its own are few, yet it is a record of its own, where a calendar's next
  month or another facet order brings none. In a path region, a new passage (a
  sentence outside links the region never showed) makes it novel too, as five new
  words do: a site written in few words still says new things.
- Links of a page that is no copy go to the main tier. An exact copy keeps only the
  links its original did not have at the same place (:mod:`robotkit.triage.copies`); a
  soft 404 leads nowhere. Links of a page that is only *like* another are demoted,
  never dropped: the demoted tier is served once the main tier is empty, until it
  is empty.
- A URL carries the number of copies between it and the last page that was none
  (its *streak*); past ``max_streak`` it is a chain of copies feeding copies and is
  dropped.
- A *region* (an origin and its first path segment, or one page's query space)
  whose pages keep adding new URLs of the same region without news (a novel page,
  or new pages of other regions) is growing without adding anything: once that
  happened ``growth_limit`` times, and more often than the region gave news, the
  region is parked (:mod:`robotkit.triage.regions`). A finite list of look-alike
  pages (200 price lists, seven "p1"..."p7" pages) adds no new URLs of its own
  region and is fetched whole; a catalog whose items link other items at random
  does, but each item is news; a calendar, a facet space or an endless
  pagination grows without news, and stops.
- What a site teaches about its URLs (:class:`~robotkit.url.learned.LearnedRules`):
  a path segment or parameter that changes on every link while the page behind it
  stays the same is a session id; parameters in another order are one page;
  ``rel=canonical`` names the form to keep.
- A page that links copies of itself (print, AMP, dated and share forms of an
  article) teaches the *form* of those links relative to the page (``/print{path}``,
  ``{path}/amp``): once a form was a copy twice (or once, with ``rel=canonical``
  saying so), links of that form on other pages are ``duplicate-url`` unfetched, and
  a page whose fetched children were mostly copies has its other children served
  after everything else.
- A path family whose responses time out or overflow the body cap twice is broken
  off (``slow-path``, :mod:`robotkit.triage.regions`); other URLs of the host go on.
- A page linking many hosts never linked before, with little vocabulary the host has
  not shown (under 30% of its words, fewer than ``min_own_words``), is a link-farm
  page; one that brings new text is none, however many hosts it links (a library).
- Whatever kind of trap it is, its waste is bounded (:mod:`robotkit.triage.waste`):
  past ``waste_budget`` unvouched fetches of a host that taught nothing, the URLs
  nothing vouches for (no page that taught linked them first, or their family's
  last pages were all copies) wait, and are left once nothing else is queued. A
  number under the page that linked it that links only what that page linked, with no
  news but a passage (no word new to its region, no new page of another region, no
  list), taught nothing: forum software shows a discussion again under a post's
  number (Flarum's ``/d/<id>-<slug>/<n>``), and a passage written there for the URL
  says nothing of the discussion.
- A path family whose answers are slow and not novel is broken off as a family
  of timeouts is (``slow_response``).
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Sequence, Set
from dataclasses import dataclass
from typing import Any

from robotkit.base.reasons import Reason
from robotkit.base.snapshot import header, listed, opened, pairs, reading, typed
from robotkit.content import (
    ContentConfig,
    ContentIndex,
    LinkAction,
    MatchKind,
    PageText,
    Soft404Detector,
    echo_free_reading,
    fingerprint_readings,
    prose_words,
    unechoed,
)
from robotkit.triage.guard import Guard
from robotkit.triage.items import entries_of, item_region, leads_nowhere, restyled, templated
from robotkit.triage.news import PageNews
from robotkit.triage.regions import (
    LIST_ITEMS,
    FailureKind,
    other_template,
    region_of,
    renamed,
)
from robotkit.triage.routes import dispatched
from robotkit.triage.screening import Screening, TriageConfig
from robotkit.url.families import elsewhere
from robotkit.url.learned import nested_copy, query_alias
from robotkit.url.normalization import NormalizedURL
from robotkit.url.objects import default_object
from robotkit.url.substitution import at_home
from robotkit.url.template import has_parameters, list_end
from robotkit.url.views import states
from robotkit.url.views import views as is_view

__all__ = ["FailureKind", "PageFacts", "PageVerdict", "Triage", "TriageConfig", "region_of"]


@dataclass(frozen=True)
class PageFacts:
    """What the crawler knows about one fetched page."""

    url: str
    """The URL as fetched (before redirects)."""
    final_url: str
    status: int
    text: str | None
    """The decoded body of an HTML or text page; ``None`` for anything else or for a
    body cut at the cap."""
    links: Sequence[str] = ()
    """Absolute URLs of the page's links, in document order."""
    canonical: str | None = None
    """The page's ``rel=canonical`` URL (HTML or ``Link`` header), absolute."""
    referer: str | None = None
    streak: int = 0
    words: PageText | None = None
    """The page's visible words when the fetch read them already
    (``parse_page(..., with_text=True)``); else they are read from ``text``."""
    key: str | None = None
    """The key the URL was queued under (the waste bound's vouching reads it)."""
    elapsed: float | None = None
    """Seconds from the request to the end of the body, by the crawl's clock."""
    cut: bool = False
    """The body was cut at the cap (counted as a failure already)."""


@dataclass(frozen=True)
class PageVerdict:
    """What a page taught: ``reason`` flags the fetched page itself (``duplicate-
    content``, ``soft-404``, ``trap-host``) or is ``None``; ``links`` says what to do
    with its links; ``streak`` is what its links carry; ``signals`` are lines for the
    crawl summary."""

    reason: Reason | None
    links: LinkAction
    novel: bool
    streak: int
    follow: tuple[str, ...] = ()
    """The links to offer: all of them, or for a copy only those its original did
    not have in the same place."""
    signals: tuple[str, ...] = ()
    canonical: str | None = None
    """A canonical URL in scope to queue in place of this page's own form."""
    taught: bool = True
    """Whether the fetch taught the crawl something (:mod:`robotkit.triage.waste`):
    links of a page that did not are not vouched for."""
    words: Set[str] = frozenset()
    """Its words but numbers, ``shown`` of them new to its host (the news' count, before
    the page): the self-growth bound's (:meth:`~robotkit.triage.growth.GrowthGate.judged`)."""
    shown: int = 0


class Triage(Screening):
    """The crawl's learned state and its decisions; see the module docstring. The
    checks before a fetch are :class:`~robotkit.triage.screening.Screening`'s; this class
    adds what a fetched page means.

    ``guard`` runs the URL-shape rules; ``seen`` answers whether a key is known to
    the frontier (to tell a page that adds new URLs from one that does not)."""

    def __init__(
        self,
        guard: Guard | None = None,
        config: TriageConfig | None = None,
        *,
        content: ContentIndex | None = None,
        soft404: Soft404Detector | None = None,
    ) -> None:
        super().__init__(guard, config)
        # Digits count: "page 3" and "page 4" are different pages.
        self.content = content or ContentIndex(ContentConfig(mask_digits=False))
        self.soft404 = soft404 if soft404 is not None else Soft404Detector()
        self._echoes: dict[int, str] = {}
        self.news = PageNews(self.config)
        self._farms: set[str] = set()

    # -- a fetched page ---------------------------------------------------------------

    def judge(self, page: PageFacts, seen: Container[str], in_scope: Any = None) -> PageVerdict:
        """What a fetched page means for its links; see the module docstring.

        ``seen`` holds the keys already known to the frontier; ``in_scope`` (a
        callable on a URL) says which links are the crawl's own."""
        final = page.final_url
        norm = self._parse(final)
        asked = self._parse(page.url) or norm
        self._note_fetched(final, norm)
        signals: list[str] = []
        if page.text is None or not 200 <= page.status < 300 or norm is None:
            # Error pages, bodies cut at the cap and non-HTML carry no evidence
            # about copies: their links are offered as they are. An error taught
            # nothing; a body cut at the cap was counted as it failed.
            error = not 200 <= page.status < 300
            if asked is not None and error:
                self.count_waste(asked, final, page.key, False, evidence=False)
                signals += self.slow(asked, page.elapsed, False)
            # Another format of a page judged under another query (``?format=csv``) or of
            # the page linking it (``/issues/7.atom`` of ``/issues/7``) shows nothing a
            # crawler of pages reads: it repeats its page, and is evidence of its family.
            ref = self._parse(page.referer) if page.referer else None
            export = asked is not None and not (error or page.cut)
            if export and asked is not None:
                export = self.waste.variant(asked, ())[0] or is_view(asked, ref)
            if export and asked is not None:
                self.count_waste(asked, final, page.key, False, evidence=True)
            follow = tuple(page.links)
            verdict = (None, LinkAction.FOLLOW, True, page.streak, follow, tuple(signals))
            return PageVerdict(*verdict, taught=not (error or export))
        # Each link parsed once, for every rule below that reads it.
        parsed = [(link, self._parse(link)) for link in page.links]
        same_origin = [n for _, n in parsed if n is not None and n.origin == norm.origin]
        observed = self.rules.observe_links(norm, same_origin)
        if observed | self.rules.learn_minted(asked, norm, page.referer):
            signals.append(f"learned from {final}: {self.rules.describe(norm)}")
            self._rekey(norm)
        canonical = self._canonical(page, norm, in_scope)
        # Read once, for every content rule below.
        text = page.words if page.words is not None else PageText.of(page.text)
        soft = self.soft404.classify(norm, page.status, text, norm)
        # Both fingerprints the triage reads, from one hashing of the page's words.
        plain, echo = fingerprint_readings(text, [self.content.reading, echo_free_reading(norm)])
        reason: Reason | None = None
        copy_of: str | None = None
        canonical_member = near = echoed = vouching = shorter = False
        if soft is not None:
            reason, action = soft, LinkAction.DROP
        else:
            match = self.content.add_fingerprint(final, plain)
            first = self._echoes.setdefault(echo.exact, final)
            learned = self.rules.observe(norm, plain.exact, text.words)
            if learned:
                signals.extend(f"learned from {final}: {line}" for line in learned)
                self._rekey(norm)
            if match.kind is MatchKind.EXACT and self._reduces(norm, match.duplicate_of):
                # The shorter, canonical member of a copy family reached after one of
                # its copies (``x.html`` after ``x.html/``): it is the page, and the
                # copy was the duplicate (ARCHITECTURE.md, "Trap policy").
                self.content.prefer(final, plain)
                self._echoes[echo.exact] = final
                canonical_member, action = True, LinkAction.FOLLOW
                vouching = nested_copy(norm, self._parse(match.duplicate_of or ""))
                vouching = vouching and self.waste.vouches(match.duplicate_of)
            elif match.kind is MatchKind.EXACT:
                reason, action = Reason.DUPLICATE_CONTENT, LinkAction.DROP
                copy_of = match.duplicate_of
                if match.duplicate_of is not None and self.rules.learn_pair(
                    final, match.duplicate_of
                ):
                    signals.append(f"learned from {final}: {self.rules.describe(norm)}")
                    self._rekey(norm)
            elif match.is_novel and first != final:
                # Only the echoed URL differs: ``Index of /a/b/c/a/``.
                reason, action = Reason.DUPLICATE_CONTENT, LinkAction.DROP
                copy_of, echoed, shorter = first, True, self._reduces(norm, first)
            elif match.kind is MatchKind.NEAR:
                reason, action = Reason.DUPLICATE_CONTENT, LinkAction.DEPRIORITIZE
                near = self._same_path(match.duplicate_of, norm)  # a toggle, a cache-buster
                shorter = self._reduces(norm, match.duplicate_of)
            elif self.news.like_others(final, page.referer, echo.simhash):
                action = LinkAction.DEPRIORITIZE
            else:
                action = LinkAction.FOLLOW
        if canonical is not None and action is LinkAction.FOLLOW:
            # A non-canonical form of a page: its canonical form is what counts.
            action = LinkAction.DEPRIORITIZE
        self.news.remember(final, echo.simhash)
        words = {w for w in text.words if not w.isdigit()}
        # Nothing but numbers and a word or two new to its region: a listing of
        # look-alikes is still fetched whole, but such pages cannot keep a growing
        # region alive.
        region = self.region(norm)
        says_more, own, new = self.news.says_more(region, words)
        prose = prose_words(page.text or "")  # its own sentences, for two rules below
        said_new = self.news.new_passage(region, prose)  # a query space's too: ``bare``
        passage = said_new and not has_parameters(norm)  # a path's parameters: a query
        shaped, host_new = self.news.farm_page(norm, words, parsed, in_scope)  # new to its host
        if shaped and action is LinkAction.FOLLOW:
            action = LinkAction.DEPRIORITIZE
            reason = Reason.TRAP_HOST
            if str(norm.origin) not in self._farms:
                self._farms.add(str(norm.origin))
                signals.append(f"link-farm pages on {norm.origin}, first {final}")
        copy, farm = action is not LinkAction.FOLLOW, reason is Reason.TRAP_HOST
        # A product, post or question of one template is near its siblings by
        # SimHash; with words of its own it is still news, and only its links are
        # demoted. Exact copies, soft 404s, farm pages and non-canonical forms never.
        alike = action is LinkAction.DEPRIORITIZE and canonical is None
        novel = says_more and (not copy or (own and alike and not farm))
        novel = novel or (canonical_member and not copy)
        excused = novel  # by words: a tarpit's stalled reports write a sentence each
        novel = novel or (passage and (not copy or (alike and not farm)))
        ref = self._parse(page.referer) if page.referer else None
        mine = self._same(copy_of, page.referer or "")  # a copy of the page linking it
        itself = mine and self.rules.versions.own_version(norm, ref)  # its own version
        old = self._parse(copy_of) if copy_of else None
        twin = elsewhere(norm, old)  # a second host's copy read first (blind13 invidious)
        if page.referer is not None:  # proof 2: the site itself says so (RFC 6596)
            proof = int((mine and not itself) or templated(self, norm, page.links, page.referer))
            proof = 2 if canonical is not None and self._same(canonical, page.referer) else proof
            self.copies.record(norm, page.referer, copy, proof, copy_of is not None and not twin)
        fresh, hub = _links_news(self, norm, parsed, seen, in_scope)
        grows = fresh > 0
        views = (item_region(n, self.region(n)) for n in dispatched(norm, same_origin))
        self.regions.list_of(final, region, views)
        nowhere = leads_nowhere(self, norm, region, same_origin, ref, hub, seen, novel or copy)
        # A hub (a list of new items) restarts the count of copies in a row, however alike.
        streak = 0 if not copy or hub else page.streak + 1
        if action is not LinkAction.DROP:
            grows = grows and not self.regions.listed(page.referer, region)
            grown = self.regions.count(norm, region, novel or hub, grows, ref, parsed)
            if grown is not None:
                signals.append(grown)
        follow = self._follow(final, norm, page.links, action, copy_of)
        # The waste bound's measure: a page showing text its host had not shown taught
        # something; an exact copy, a soft 404, a farm page, the same words re-sorted did not.
        assert asked is not None
        # So are those words but for the ones its URL echoes (blind12 pleroma's notices).
        shown = self.waste.shown_before(str(asked.origin), text.words, unechoed(text.words, norm))
        # A non-canonical form fetched first with new text taught; its canonical did not.
        wasted = shown or soft is not None or copy_of is not None
        # A page only like its siblings, or echoing its URL's number, taught nothing but
        # proves nothing of its family unless a variant, or a view of its referer's page.
        variant, repeats, viewed = self.waste.variant(asked, text.words, ref)  # blind5 smf
        restated = _restates(self, page, asked, prose, grows or hub)  # a view saying
        said = restated is not None  # what it said is it again (an owner's: a view)
        wasted = wasted or near or repeats or nowhere or (said and is_view(asked, ref))
        wasted = wasted or (said and restated != page.referer)
        lists = hub or fresh >= LIST_ITEMS  # a class tree listing its release's pages
        # A number or view under its linker, linking only what it linked (flarum, umbraco).
        retold = restyled(asked, ref, said_new and not new, same_origin) and not lists
        wasted = wasted or (retold and self.copies.relinks(norm, page.links, page.referer))
        wasted = self.news.retells(asked, said_new, new, fresh) or wasted
        # Not "alone": a non-canonical form seen first, nor a listing of new entries.
        entries = (self.key(n) for n in entries_of(norm, same_origin))
        listing = any(k not in seen and k not in self._fetched_keys for k in entries)
        alone = not (wasted or novel or listing or action is LinkAction.FOLLOW or canonical)
        taught = not (wasted or alone or farm)
        # Unlike the others by SimHash alone (no word or passage new to its region, no new
        # page of another region, no list of its own): vouches for nothing (blind5 hgweb).
        bare = taught and not (new or novel or said_new or lists or canonical is not None)
        # The shorter, canonical member reached after its copy (``/display/x`` after
        # ``/display/x?src=nav``) through another page's link taught nothing, but is a
        # page pages link, no evidence against its family (blind3 ``confluence``); through
        # its copy's own link (``rel=canonical``) it is evidence. So after a near or
        # echoed copy (blind6 liferay's ?redirect=, blind10 coppermine).
        linked = (canonical_member or shorter) and not self._reduces(norm, page.referer)
        # A script's query form alone read after the clean path it mounts the object at
        # (``tiki-index.php?page=X`` after ``/X``; not a view, ``&printable=yes``): the
        # object under its other name, no evidence against its family (blind10 tikiwiki).
        alias = old is not None and "&" not in (norm.query or "&") and query_alias(old, norm)
        linked = linked or at_home(norm, old, ref) or alias or twin
        linked = linked or default_object(self.rules.listed, norm, old)  # ``commit/?id=<head>``
        view = alone and (said or self.news.viewed(norm, ref, page.referer, echo.simhash))
        view = view or (echoed and (said or states(asked, ref)))  # ``;isad``: blind11 atom
        evidence = (variant or view or not (alone or echoed)) and not (linked or itself or viewed)
        seed = page.referer is None or vouching or (twin and self.waste.vouches(copy_of))
        ends = list_end(asked, ref, same_origin)
        ends = ends if self.waste.vouches(page.referer) else None  # after a page that taught
        self.count_waste(asked, final, page.key, taught, evidence, seed, not bare, ends)
        signals += self.slow(asked, page.elapsed, excused)
        told = (reason, action, novel, streak, follow, tuple(signals), canonical, taught)
        return PageVerdict(*told, words, host_new)

    def _follow(
        self,
        url: str,
        norm: NormalizedURL,
        links: Sequence[str],
        action: LinkAction,
        copy_of: str | None,
    ) -> tuple[str, ...]:
        """Which links of a page to offer: all of them; for an exact copy only those
        its original did not have at the same place (:mod:`robotkit.triage.copies`); none
        for a soft 404."""
        if action is not LinkAction.DROP:
            self.copies.original(url, norm, links)
            return tuple(links)
        return self.copies.follow(url, norm, links, copy_of)

    def _canonical(self, page: PageFacts, norm: NormalizedURL, in_scope: Any) -> str | None:
        """The page's canonical URL when it names another page in scope on the same
        origin; what the difference teaches is learned."""
        target = self._parse(page.canonical) if page.canonical is not None else None
        if target is None or target.origin != norm.origin:
            return None
        if in_scope is not None and not in_scope(page.canonical):
            return None
        if self.key(target) == self.key(norm):
            return None
        if self.rules.learn_canonical(norm, target):
            self._rekey(norm)
        return page.canonical

    # -- state ------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """Everything the triage learned, as JSON, so that a resumed crawl spends no
        more on traps than one that was never interrupted."""
        return {
            **header("triage", 1),
            "content": self.content.snapshot(),
            "soft404": self.soft404.snapshot(),
            "guard": self.guard.snapshot(),
            "rules": self.rules.snapshot(),
            "streak": sorted(self._streak.items()),
            "regions": self.regions.snapshot(),
            "echoes": sorted(self._echoes.items()),
            "fetched": sorted(self._fetched.items()),
            "copies": self.copies.snapshot(),
            **self.news.snapshot(),
            "farms": sorted(self._farms),
            "waste": self.waste.snapshot(),
            "growth": self.growth.snapshot(),
        }

    def restore(self, data: Any) -> None:
        """Take back :meth:`snapshot` (the configuration stays this triage's own);
        :class:`~robotkit.base.snapshot.SnapshotError` for bad data, leaving this triage
        as it was."""
        fresh = Triage(self.guard, self.config)
        fresh._load(data, self)
        self.__dict__.update(fresh.__dict__)

    def _load(self, data: Any, current: Triage) -> None:
        """Fill this new triage from :meth:`snapshot` data, with ``current``'s
        configurations; the guard's learned state goes to the shared guard."""
        with reading("triage"):
            data = opened(data, "triage", 1)
            self.content = ContentIndex.restore(data["content"], current.content.config)
            self.soft404 = Soft404Detector.restore(data["soft404"], current.soft404.config)
            self.rules.restore(data["rules"])
            self._streak = {k: typed(v, int, "streak") for k, v in pairs(data, "streak", str)}
            self.regions.restore(data["regions"])
            self._echoes = {k: typed(v, str, "url") for k, v in pairs(data, "echoes", int)}
            self._fetched = {k: listed(v, "url", str) for k, v in pairs(data, "fetched", str)}
            self.copies.restore(data["copies"])
            self.news.restore(data)
            self._farms = set(listed(data["farms"], "farms", str))
            if "waste" in data:  # a snapshot from before the waste bound has none
                self.waste.restore(data["waste"])
            self.growth = current.growth.restored(data.get("growth"))  # reads as current
            self.guard.restore_learned(data["guard"])
        fetched = [
            norm
            for urls in self._fetched.values()
            for norm in map(self._parse, urls)
            if norm is not None
        ]
        self._fetched_keys = {self.key(norm) for norm in fetched}
        self._fetched_spellings = {norm.key for norm in fetched}


def _links_news(
    triage: Triage,
    page: NormalizedURL,
    links: Iterable[tuple[str, NormalizedURL | None]],
    seen: Container[str],
    in_scope: Any,
) -> tuple[int, bool]:
    """What a page's links add: how many new URLs of its own region (it *grows*),
    and new pages of other regions in scope or of another template of its script
    (``hub``)."""
    region = triage.region(page)
    grows, hub = 0, False
    for link, other in links:
        if other is None or (key := triage.key(other)) in seen or key in triage._fetched_keys:
            continue
        if triage.region(other) == region and not other_template(page, other):
            grows += not renamed(page, other)  # another action is no growth
        elif in_scope is None or in_scope(link):
            hub = True
            break
    return grows, hub


def _restates(
    triage: Triage, page: PageFacts, of: NormalizedURL, prose: list[str], leads: bool
) -> str | None:
    """The page that linked a page, or that it (``of``) is a path under, that it restates
    when it links nothing new (:meth:`~robotkit.triage.waste.PagePairs.restates`)."""
    said = triage.waste.pages.restates(page.final_url, page.referer, prose, page.links, of)
    return None if leads else said
