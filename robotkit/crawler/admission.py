"""Deciding about a URL found on a page (or a seed): skip it with a reason, or queue
it in the frontier's main or demoted tier.

A URL off the seeds' hosts, seen already, or held by the triage's screening is
skipped; in a crawl shared on Redis, a URL of a host another worker owns goes to
that worker, which screens it as its own (:meth:`Admission.admit`). What the crawl
knows (frontier, triage, this worker's part of a shared crawl) is read from the
crawler through :class:`robotkit.crawler.ports.AdmittingCrawl` each time, since a
resume replaces the frontier and a shared crawl is joined only when the crawl runs.
"""

from __future__ import annotations

from robotkit.base.reasons import Reason
from robotkit.crawler.ports import AdmittingCrawl
from robotkit.frontier.frontier import Tier
from robotkit.triage.guard import SPELLING_RULES, GuardVerdict, Rule
from robotkit.triage.waste import Waiting
from robotkit.url.normalization import NormalizedURL
from robotkit.url.parse import InvalidURL, Origin, origin_of

__all__ = ["Admission"]

# URL-shape rules whose refusals count as trap signals towards the auto-blacklist.
_SHAPE_RULES = frozenset(
    {Rule.URL_TOO_LONG, Rule.PATH_TOO_DEEP, Rule.TOO_MANY_PARAMS, Rule.REPEATED_PATH}
)


class Admission:
    """The gate of ``crawl``'s frontier; the crawl's scope is the hosts of the URLs
    offered as seeds."""

    def __init__(self, crawl: AdmittingCrawl) -> None:
        self.crawl = crawl
        self._scope: set[tuple[str, int | None]] = set()

    def in_scope(self, url: str) -> bool:
        """Whether ``url`` is on one of the seeds' hosts."""
        try:
            return origin_of(url).scope_key in self._scope
        except InvalidURL:
            return False

    def offer(
        self, url: str, depth: int, referer: str | None, streak: int = 0, *, seed: bool = False
    ) -> None:
        """Decide about a URL found on a page (or a seed): skip it with a reason, or
        queue it, in the main tier when nothing but novel pages lead to it
        (``streak`` 0), else in the demoted tier."""
        crawl = self.crawl
        try:
            norm = crawl.triage.normalize(url)
        except InvalidURL as exc:
            crawl.skip(url, exc.reason, depth, referer)
            return
        if seed:
            self._scope.add(norm.origin.scope_key)
        key = crawl.triage.key(norm)
        seen = crawl.frontier.seen
        if not self.in_scope(url):
            if seen.add(key):
                crawl.skip(url, Reason.OFF_SCOPE, depth, referer)
            return
        work = crawl.work
        if work is not None and not work.owns(norm.origin):
            # Another worker's host (or nobody's yet): its owner screens the link, at
            # the chain of self-grown links its referer is at (robotkit.triage.growth).
            chain = crawl.triage.growth.chain(referer, key)
            work.offer(norm.origin, url, key, depth, referer, streak, chain)
            return
        self.admit(url, norm, key, depth, referer, streak)

    def admit(
        self, url: str, norm: NormalizedURL, key: str, depth: int, referer: str | None, streak: int
    ) -> None:
        """Screen a URL of one of this crawler's hosts and queue it, or skip it."""
        crawl = self.crawl
        seen = crawl.frontier.seen
        work = crawl.work
        if key in seen:
            # Held as grown (robotkit.triage.growth), or waiting on the waste bound.
            back = crawl.triage.growth.again(url, key, referer)
            back = back or crawl.triage.linked_again(url, key, referer)
            if back is not None:
                # It waited on the waste bound; a page that taught vouches for it now.
                self.queue_again(back)
            # Report the duplicates that normalization caught (session ids,
            # tracking parameters); a plain link seen again is not news.
            if url != key:
                rule = crawl.triage.explain(url)
                crawl.skip(url, Reason.DUPLICATE_URL, depth, referer, copy_rule=rule)
            return
        held = crawl.triage.screen(norm, streak, referer)
        if held is not None:
            if not isinstance(held, GuardVerdict) or held.rule not in SPELLING_RULES:
                seen.add(key)
                if work is not None:
                    work.refuse(norm.origin, key)
            if isinstance(held, GuardVerdict):
                if held.rule in _SHAPE_RULES:
                    crawl.signal(crawl.triage.shape_signal(norm, held.reason))
                held = held.reason
            crawl.skip(url, held, depth, referer)
            return
        crawl.triage.remember(key, streak, referer)
        crawl.triage.growth.offered(key, referer, url)
        tier = Tier.DEMOTED if streak else Tier.MAIN
        # Requested without the parameters its key drops (a tracking parameter).
        asked = crawl.triage.request_form(url, norm)
        result = crawl.frontier.add(asked, key, depth, referer, host=norm.origin, tier=tier)
        if work is not None and not result.rejected:
            # The redis extra, loaded with the shared crawl: never imported by a lone one.
            from robotkit.shared.records import Offer

            chain = crawl.triage.growth.chain(referer, key)  # for the host's next owner
            taken = Offer(asked, key, depth, referer, streak, tier, taken=True, chain=chain)
            work.take(norm.origin, taken)
        if result.reason is not None and not (result.reason is Reason.DUPLICATE_URL and url == key):
            crawl.skip(url, result.reason, depth, referer)

    # -- the waste bound (robotkit.triage.waste) ----------------------------------------

    def settle_waste(self, host: Origin) -> None:
        """After a fetch of ``host``: URLs waiting on the waste bound go back to the
        frontier as far as the balance allows. Once the whole crawl has nothing else
        queued or in flight (its natural end), each host's waiting URLs that a page
        that taught vouches for under the rules learned since go back, and the others
        are left (``waste-budget``). Not per host: a host whose queue is empty may
        still be taught by another host's fetch (a twin host's rule re-keys its
        copies onto this host's waiting pages, and their links vouch for them)."""
        crawl = self.crawl
        ledger, name = crawl.triage.waste, str(host)
        for going in ledger.release(name):
            self.queue_again(going, Tier.DEMOTED)
        if len(crawl.frontier) or crawl.frontier.in_flight:
            return
        grown, deep = crawl.triage.growth.leave()
        for held in deep:
            crawl.skip(held.url, Reason.SELF_GROWTH, held.depth, held.referer)
        for closer in grown:  # a page closer to a root linked it since
            self.queue_again(closer)
        if grown:
            return
        for waiting in ledger.waiting_hosts():
            again, gone = crawl.triage.leave(waiting)
            for back in again:
                self.queue_again(back)
            for left in gone:
                crawl.skip(left.url, Reason.WASTE_BUDGET, left.depth, left.referer)

    def queue_again(self, back: Waiting, tier: Tier = Tier.MAIN) -> None:
        """Queue again a URL that waited on the waste bound and is vouched for now."""
        host = self.crawl.triage.normalize(back.url).origin
        self.crawl.frontier.add(
            back.url, back.key, back.depth, back.referer, host=host, tier=tier, again=True
        )

    def report_waiting(self) -> None:
        """At the natural end, URLs still waiting on the waste bound are left."""
        ledger = self.crawl.triage.waste
        for held in self.crawl.triage.growth.leave()[1]:
            self.crawl.skip(held.url, Reason.SELF_GROWTH, held.depth, held.referer)
        for host in ledger.waiting_hosts():
            for left in ledger.abandon(host):
                self.crawl.skip(left.url, Reason.WASTE_BUDGET, left.depth, left.referer)
