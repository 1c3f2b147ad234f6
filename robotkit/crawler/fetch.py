"""One URL's turn in the reference crawler: fetch it, then decide what it means.

:class:`FetchStep` runs per URL handed out by the frontier: the re-check just before
the fetch, the fetch through the polite client with its retries and deferrals (back
into the frontier), the soft-404 probe a page needs, the triage's verdict, and the
links offered back to the crawler. It keeps no state of its own: it works with what
the crawl knows, handed to it as a :class:`FetchContext` (frontier, triage, client,
clock, configuration, retry counts), and reports through the crawler's public
protocol (:class:`robotkit.crawler.ports.CrawlReports`: emit, skip, signal, finish,
requeue, offer), so the crawl loop and this step share the crawl without copies and
this module never imports the loop.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from dataclasses import dataclass

import httpx

from robotkit.base.clock import Clock
from robotkit.base.outcome import NetworkErrorKind
from robotkit.base.reasons import Reason
from robotkit.crawler.config import CrawlConfig
from robotkit.crawler.ports import CrawlReports
from robotkit.crawler.report import CrawlEvent, EventKind
from robotkit.frontier.frontier import Frontier, FrontierEntry, Tier
from robotkit.http.client import AsyncPoliteClient
from robotkit.http.errors import (
    Deferred,
    PolitenessError,
    UnsupportedEncoding,
    classify_error,
)
from robotkit.http.facts import FetchFacts
from robotkit.triage.triage import FailureKind, PageFacts, Triage
from robotkit.triage.waste import Waiting
from robotkit.url.normalization import normalize_or_none
from robotkit.url.parse import InvalidURL

__all__ = ["FetchContext", "FetchStep"]


@dataclass(frozen=True)
class FetchContext:
    """What one URL's fetch works with, shared with the crawl that made it (none of
    it copied): ``retries`` counts the tries again of each URL key."""

    frontier: Frontier
    triage: Triage
    client: AsyncPoliteClient
    clock: Clock
    config: CrawlConfig
    retries: Counter[str]


class FetchStep:
    """Fetch one URL at a time with ``context`` and report to ``crawl``."""

    def __init__(self, context: FetchContext, crawl: CrawlReports) -> None:
        self.context = context
        self.crawl = crawl

    async def process(self, entry: FrontierEntry) -> None:
        ctx, crawl = self.context, self.crawl
        cfg = ctx.config
        norm = normalize_or_none(entry.url, ctx.triage.guard.policy)
        if entry.tier is Tier.MAIN and norm is not None and ctx.triage.regions.defer(norm):
            # A URL of a parked space that pages of other regions began to link: it
            # is rechecked after the main tier, once the pages that link it were read.
            ctx.frontier.demote(entry)
            return
        reason = ctx.triage.recheck(entry.url, entry.key, entry.referer, ctx.frontier.seen)
        if reason is not None:
            rule = ctx.triage.explain(entry.url) if reason is Reason.DUPLICATE_URL else None
            crawl.skip(entry.url, reason, entry.depth, entry.referer, copy_rule=rule)
            # Its link is one to the page: held as grown, or waiting on the waste bound.
            back = ctx.triage.growth.copied(entry.url, entry.referer) if rule else None
            back = back or (ctx.triage.copied(entry.url, entry.key) if rule else None)
            if back is not None:
                # The page it copies waited on the waste bound; its link vouches for it.
                crawl.queue_again(back)
            crawl.finish(entry)
            return
        if ctx.triage.growth.waits(entry.url, entry.key):
            # Grown by its own class's pages past a few steps (robotkit.triage.growth).
            ctx.triage.growth.hold(Waiting(entry.url, entry.key, entry.depth, entry.referer, ""))
            crawl.finish(entry)
            return
        if ctx.triage.must_wait(entry.url, entry.key):
            # No novel page vouched for it and its host spent the waste budget.
            ctx.triage.wait(entry.url, entry.key, entry.depth, entry.referer)
            crawl.finish(entry)
            return
        if entry.tier is Tier.MAIN and ctx.triage.demote(entry.url, entry.referer):
            ctx.frontier.demote(entry)
            return
        # A session parameter learned since it was queued is left out of the request.
        entry.url = ctx.triage.asked(ctx.triage.growth.respelled(entry.url))
        began = ctx.clock()
        try:
            response = await ctx.client.fetch(entry.url, referer=entry.referer)
        except Deferred as exc:
            wait, deferral = exc.retry_at - ctx.clock(), f"deferred: {exc.reason}"
            if wait <= cfg.max_defer and self._retry(entry, exc.retry_at, deferral):
                return
            self._refused(entry, exc)
            crawl.finish(entry)
            return
        except PolitenessError as exc:
            self._refused(entry, exc)
            crawl.finish(entry)
            return
        except (httpx.HTTPError, OSError) as exc:
            timeout = classify_error(exc) is NetworkErrorKind.TIMEOUT
            # An answer in an encoding robotkit will not decode is the same answer
            # the next time: reported with its reason, not retried.
            refused = isinstance(exc, UnsupportedEncoding)
            if not timeout and not refused and self._retry(entry, None, "backoff"):
                return
            if timeout:
                crawl.signal(ctx.triage.failed(entry.url, FailureKind.TIMEOUT, entry.key))
            why = (
                Reason.RESPONSE_TIMEOUT
                if timeout
                else Reason.UNSUPPORTED_ENCODING
                if refused
                else Reason.NETWORK_ERROR
            )
            self._emit(entry.url, EventKind.FAILED, None, why, entry.depth, entry.referer)
            crawl.finish(entry)
            return
        facts = AsyncPoliteClient.facts(response)
        if facts.outcome.is_failure and self._tries_left(entry):
            when = facts.retry_at
            if when is None:
                when = ctx.frontier.ready_at(entry.host)  # the pacer's backoff
            if when - ctx.clock() <= cfg.max_defer:
                self._retry(entry, None, "retry-after")
                return
        await self._page(entry, response, facts, ctx.clock() - began)
        crawl.finish(entry)

    def _tries_left(self, entry: FrontierEntry) -> bool:
        return self.context.retries[entry.key] < self.context.config.retries

    def _retry(self, entry: FrontierEntry, hold: float | None, why: str) -> bool:
        """Put ``entry`` back for another try, for ``why``, if it has tries left;
        False when it has none."""
        if not self._tries_left(entry):
            return False
        self.context.retries[entry.key] += 1
        self.crawl.requeue(entry, hold, why)
        return True

    def _emit(
        self,
        url: str,
        kind: EventKind,
        status: int | None,
        reason: Reason | None,
        depth: int,
        referer: str | None,
        *,
        final_url: str | None = None,
        probe: bool = False,
    ) -> None:
        """Report an event of now."""
        self.crawl.emit(
            CrawlEvent(
                url,
                kind,
                status,
                reason,
                depth,
                referer,
                self.context.clock(),
                final_url=final_url,
                probe=probe,
            )
        )

    def _refused(self, entry: FrontierEntry, exc: PolitenessError) -> None:
        """A request the transport would not send. With redirect hops behind it,
        the URL itself was fetched: its line carries the last status received."""
        if exc.redirects:
            status = exc.redirects[-1].status
            self._emit(
                entry.url,
                EventKind.FETCHED,
                status,
                exc.reason,
                entry.depth,
                entry.referer,
                final_url=exc.url,
            )
            self._mark_seen(exc.url)
        else:
            self.crawl.skip(entry.url, exc.reason, entry.depth, entry.referer)

    def _key(self, url: str) -> str:
        """``url``'s key under what the crawl learned; raises :class:`InvalidURL`."""
        triage = self.context.triage
        return triage.key(triage.normalize(url))

    def _mark_seen(self, url: str) -> None:
        with contextlib.suppress(InvalidURL):
            self.context.frontier.seen.add(self._key(url))

    async def _page(
        self, entry: FrontierEntry, response: httpx.Response, facts: FetchFacts, elapsed: float
    ) -> None:
        """Fetch the soft-404 probe a page needs, ask the triage what the page means,
        report it and offer its links."""
        ctx, crawl = self.context, self.crawl
        status = response.status_code
        final = str(response.url)
        ctx.triage.growth.answered(entry.url, final)  # its links name it so
        redirected = bool(facts.redirects)
        if redirected:
            self._mark_seen(final)
        page = facts.page
        text: str | None = None
        if facts.truncated:
            crawl.signal(ctx.triage.failed(entry.url, FailureKind.OVERSIZE, entry.key))
        elif page is not None:
            text = response.text
            if ctx.config.soft404_probes and 200 <= status < 300:
                probe = ctx.triage.soft404.needs_probe(final)
                if probe is not None:
                    await self._probe(probe, entry)
        links = [link.url for link in page.links] if page is not None else []
        if page is not None and page.shortlink is not None:
            # The page's own shorter URL (rel=shortlink) is this page: never fetched.
            self._mark_seen(page.shortlink)
        verdict = ctx.triage.judge(
            PageFacts(
                url=entry.url,
                final_url=final,
                status=status,
                text=text,
                links=links,
                canonical=page.canonical if page is not None else None,
                referer=entry.referer,
                streak=ctx.triage.streak_of(entry.key),
                words=page.text if page is not None else None,
                key=entry.key,
                elapsed=elapsed,
                cut=facts.truncated,
            ),
            ctx.frontier.seen,
            crawl.in_scope,
        )
        for line in verdict.signals:
            crawl.signal(line)
        if text is not None:  # a record of its own yields (robotkit.triage.growth)
            ctx.triage.growth.judged(final, verdict.words, verdict.shown)
        reason = Reason.BODY_TOO_LARGE if facts.truncated else verdict.reason
        self._emit(
            entry.url,
            EventKind.FETCHED,
            status,
            reason,
            entry.depth,
            entry.referer,
            final_url=final if redirected else None,
        )
        if page is None or not verdict.follow:
            return
        if facts.robots.nofollow:
            for url in links:
                with contextlib.suppress(InvalidURL):
                    if self._key(url) not in ctx.frontier.seen:
                        crawl.skip(url, Reason.NOFOLLOW, entry.depth + 1, final)
            return
        if verdict.canonical is not None:
            crawl.offer(verdict.canonical, entry.depth, final)
        for url in verdict.follow:
            crawl.offer(url, entry.depth + 1, final, verdict.streak)

    async def _probe(self, probe: str, entry: FrontierEntry) -> None:
        """Fetch a soft-404 probe (a URL that cannot exist) through the same polite
        client, and teach the detector what the site answers."""
        soft404 = self.context.triage.soft404
        try:
            response = await self.context.client.fetch(probe)
        except PolitenessError as exc:
            self.crawl.skip(probe, exc.reason, entry.depth, None, probe=True)
            soft404.record_probe(probe, None)
            return
        except (httpx.HTTPError, OSError):
            self._emit(
                probe, EventKind.FAILED, None, Reason.NETWORK_ERROR, entry.depth, None, probe=True
            )
            soft404.record_probe(probe, None)
            return
        status, final, body = response.status_code, str(response.url), response.text
        self.crawl.learned("soft404", soft404.record_probe(probe, status, body, final))
        self._emit(
            probe,
            EventKind.FETCHED,
            status,
            None,
            entry.depth,
            None,
            final_url=final if final != probe else None,
            probe=True,
        )
