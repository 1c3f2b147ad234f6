"""One URL's turn in the reference crawler: fetch it, then decide what it means.

:class:`FetchStep` is the part of :class:`robotkit.crawler.loop.Crawler` that runs per URL
handed out by the frontier: the re-check just before the fetch, the fetch through
the polite client with its retries and deferrals (back into the frontier), the
soft-404 probe a page needs, the triage's verdict, and the links offered back to
the crawler. It keeps no state of its own: what a crawl knows lives in the
crawler (frontier, triage, counters), so the crawl loop and this step share it
without copies.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

import httpx

from robotkit.base.outcome import NetworkErrorKind
from robotkit.base.reasons import Reason
from robotkit.crawler.report import CrawlEvent, EventKind
from robotkit.frontier.frontier import FrontierEntry, Tier
from robotkit.http.client import AsyncPoliteClient
from robotkit.http.errors import (
    Deferred,
    PolitenessError,
    UnsupportedEncoding,
    classify_error,
)
from robotkit.http.facts import FetchFacts
from robotkit.triage.triage import FailureKind, PageFacts
from robotkit.url.parse import InvalidURL

if TYPE_CHECKING:
    from robotkit.crawler.loop import Crawler

__all__ = ["FetchStep"]


class FetchStep:
    """Fetch one URL of ``crawler`` and hand what it found back to it."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler

    async def process(self, entry: FrontierEntry) -> None:
        crawler = self.crawler
        cfg = crawler.config
        crawler.waiting.pop(entry.host, None)
        reason = crawler.triage.recheck(entry.url, entry.key, entry.referer)
        if reason is not None:
            crawler._skip(entry.url, reason, entry.depth, entry.referer)
            crawler._finish(entry)
            return
        if crawler.triage.must_wait(entry.url, entry.key):
            # No novel page vouched for it and its host spent the waste budget.
            crawler.triage.wait(entry.url, entry.key, entry.depth, entry.referer)
            crawler._finish(entry)
            return
        if entry.tier is Tier.MAIN and crawler.triage.copies.demote(entry.referer):
            crawler.frontier.demote(entry)
            return
        assert crawler.client is not None
        began = crawler.clock()
        try:
            response = await crawler.client.fetch(entry.url, referer=entry.referer)
        except Deferred as exc:
            wait = exc.retry_at - crawler.clock()
            if wait <= cfg.max_defer and crawler._retries[entry.key] < cfg.retries:
                crawler._retries[entry.key] += 1
                crawler._requeue(entry, exc.retry_at, f"deferred: {exc.reason}")
                return
            self._refused(entry, exc)
            crawler._finish(entry)
            return
        except PolitenessError as exc:
            self._refused(entry, exc)
            crawler._finish(entry)
            return
        except (httpx.HTTPError, OSError) as exc:
            timeout = classify_error(exc) is NetworkErrorKind.TIMEOUT
            # An answer in an encoding robotkit will not decode is the same answer
            # the next time: reported with its reason, not retried.
            refused = isinstance(exc, UnsupportedEncoding)
            if not timeout and not refused and crawler._retries[entry.key] < cfg.retries:
                crawler._retries[entry.key] += 1
                crawler._requeue(entry, None, "backoff")
                return
            if timeout:
                crawler._signal(crawler.triage.failed(entry.url, FailureKind.TIMEOUT, entry.key))
            why = (
                Reason.RESPONSE_TIMEOUT
                if timeout
                else Reason.UNSUPPORTED_ENCODING
                if refused
                else Reason.NETWORK_ERROR
            )
            crawler._emit(
                CrawlEvent(
                    entry.url,
                    EventKind.FAILED,
                    None,
                    why,
                    entry.depth,
                    entry.referer,
                    crawler.clock(),
                )
            )
            crawler._finish(entry)
            return
        facts = AsyncPoliteClient.facts(response)
        if facts.outcome.is_failure and crawler._retries[entry.key] < cfg.retries:
            when = facts.retry_at
            if when is None:
                when = crawler.frontier.ready_at(entry.host)  # the pacer's backoff
            if when - crawler.clock() <= cfg.max_defer:
                crawler._retries[entry.key] += 1
                crawler._requeue(entry, None, "retry-after")
                return
        await self._page(entry, response, facts, crawler.clock() - began)
        crawler._finish(entry)

    def _refused(self, entry: FrontierEntry, exc: PolitenessError) -> None:
        """A request the transport would not send. With redirect hops behind it,
        the URL itself was fetched: its line carries the last status received."""
        crawler = self.crawler
        if exc.redirects:
            crawler._emit(
                CrawlEvent(
                    entry.url,
                    EventKind.FETCHED,
                    exc.redirects[-1].status,
                    exc.reason,
                    entry.depth,
                    entry.referer,
                    crawler.clock(),
                    final_url=exc.url,
                )
            )
            self._mark_seen(exc.url)
        else:
            crawler._skip(entry.url, exc.reason, entry.depth, entry.referer)

    def _mark_seen(self, url: str) -> None:
        crawler = self.crawler
        with contextlib.suppress(InvalidURL):
            crawler.frontier.seen.add(crawler.triage.key(crawler.triage.normalize(url)))

    async def _page(
        self, entry: FrontierEntry, response: httpx.Response, facts: FetchFacts, elapsed: float
    ) -> None:
        """Fetch the soft-404 probe a page needs, ask the triage what the page means,
        report it and offer its links."""
        crawler = self.crawler
        status = response.status_code
        final = str(response.url)
        redirected = bool(facts.redirects)
        if redirected:
            self._mark_seen(final)
        page = facts.page
        text: str | None = None
        if facts.truncated:
            crawler._signal(crawler.triage.failed(entry.url, FailureKind.OVERSIZE, entry.key))
        elif page is not None:
            text = response.text
            if crawler.config.soft404_probes and 200 <= status < 300:
                probe = crawler.soft404.needs_probe(final)
                if probe is not None:
                    await self._probe(probe, entry)
        links = [link.url for link in page.links] if page is not None else []
        verdict = crawler.triage.judge(
            PageFacts(
                url=entry.url,
                final_url=final,
                status=status,
                text=text,
                links=links,
                canonical=page.canonical if page is not None else None,
                referer=entry.referer,
                streak=crawler.triage.streak_of(entry.key),
                words=page.text if page is not None else None,
                key=entry.key,
                elapsed=elapsed,
            ),
            crawler.frontier.seen,
            crawler.in_scope,
        )
        for line in verdict.signals:
            crawler._signal(line)
        reason = Reason.BODY_TOO_LARGE if facts.truncated else verdict.reason
        crawler._emit(
            CrawlEvent(
                entry.url,
                EventKind.FETCHED,
                status,
                reason,
                entry.depth,
                entry.referer,
                crawler.clock(),
                final_url=final if redirected else None,
            )
        )
        if page is None or not verdict.follow:
            return
        if facts.robots.nofollow:
            for url in links:
                with contextlib.suppress(InvalidURL):
                    key = crawler.triage.key(crawler.triage.normalize(url))
                    if key not in crawler.frontier.seen:
                        crawler._skip(url, Reason.NOFOLLOW, entry.depth + 1, final)
            return
        if verdict.canonical is not None:
            crawler._offer(verdict.canonical, entry.depth, final)
        for url in verdict.follow:
            crawler._offer(url, entry.depth + 1, final, verdict.streak)

    async def _probe(self, probe: str, entry: FrontierEntry) -> None:
        """Fetch a soft-404 probe (a URL that cannot exist) through the same polite
        client, and teach the detector what the site answers."""
        crawler = self.crawler
        assert crawler.client is not None
        status: int | None = None
        final: str | None = None
        body = ""
        try:
            response = await crawler.client.fetch(probe)
        except PolitenessError as exc:
            crawler._skip(probe, exc.reason, entry.depth, None, probe=True)
            crawler.soft404.record_probe(probe, None)
            return
        except (httpx.HTTPError, OSError):
            crawler._emit(
                CrawlEvent(
                    probe,
                    EventKind.FAILED,
                    None,
                    Reason.NETWORK_ERROR,
                    entry.depth,
                    None,
                    crawler.clock(),
                    probe=True,
                )
            )
            crawler.soft404.record_probe(probe, None)
            return
        status, final, body = response.status_code, str(response.url), response.text
        crawler.soft404.record_probe(probe, status, body, final)
        crawler._emit(
            CrawlEvent(
                probe,
                EventKind.FETCHED,
                status,
                None,
                entry.depth,
                None,
                crawler.clock(),
                final_url=final if final != probe else None,
                probe=True,
            )
        )
