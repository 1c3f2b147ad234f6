"""The trap guard for Scrapy: what a page's links are worth, and which to follow.

Scrapy alone stops traps only with a 2083-character URL limit and w3lib's
canonical form. Here robotkit's :class:`~robotkit.triage.triage.Triage` (the policy its
own crawler uses) judges every response and the requests the spider yields from
it, and a downloader middleware checks each request again just before it is sent:

- meta robots and X-Robots-Tag ``nofollow`` drop the links a page yields;
- the guard's URL rules (too long, too deep, repeated segments, too many
  parameters, blacklists, and the automatic blacklist they feed);
- content signals: exact and near copies, soft 404s (one probe per directory,
  fetched through Scrapy's engine), regions that grow without news, link farms;
  links of a page that only looks like another are demoted (a lower Scrapy
  priority), never dropped;
- a path family the breaker broke off (:mod:`robotkit.scrapy.breaker`) is
  ``slow-path``;
- a request its own class's pages grew past the growth bound is held, and left at the
  end as ``self-growth`` unless a page closer to a root links it
  (:mod:`robotkit.scrapy.growth`).

A dropped link is counted in Scrapy's stats as ``robotkit/disallow/<reason>``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from typing import Any

from scrapy import Request, Spider
from scrapy.crawler import Crawler
from scrapy.http import Response, TextResponse
from scrapy.http.request import NO_CALLBACK

from robotkit.base.identity import product_token
from robotkit.base.reasons import Decision, Reason
from robotkit.page.meta import PageMeta, parse_page
from robotkit.scrapy.errors import Refused
from robotkit.scrapy.robotstxt import ROBOTS_META, header_values
from robotkit.scrapy.state import CrawlState, crawl_state
from robotkit.triage.guard import GuardVerdict, Rule
from robotkit.triage.triage import PageFacts
from robotkit.url.parse import InvalidURL

STREAK_META = "robotkit_streak"
"""How many copies in a row led to a request (robotkit's chain-of-copies rule)."""
DEMOTED_META = "robotkit_demoted"
"""Set on a main-tier request whose referer's fetched children were mostly copies:
it now goes after the main links, as a demoted one (robotkit's crawler moves such
an entry to its demoted tier when it comes up)."""
PROBE_META = "robotkit_soft404_probe"
DEMOTED_PRIORITY = -100
"""Added to a demoted link's priority: served once the main links are done."""
_SHAPE_RULES = frozenset(
    {Rule.URL_TOO_LONG, Rule.PATH_TOO_DEEP, Rule.TOO_MANY_PARAMS, Rule.REPEATED_PATH}
)
_HTML = (b"text/html", b"application/xhtml")


def request_key(state: CrawlState, url: str) -> str:
    """The de-duplication key of ``url``: robotkit's normalized key with what the
    site taught (session ids, pairs that change nothing); the URL itself when it
    cannot be normalized (the robots.txt middleware refuses it later)."""
    try:
        return state.triage.key(state.triage.normalize(url))
    except InvalidURL:
        return url


class TrapGuardSpiderMiddleware:
    """Spider middleware: judges each response and the requests it yields."""

    def __init__(self, crawler: Crawler, state: CrawlState) -> None:
        self.crawler = crawler
        self.state = state
        self.token = product_token(state.settings.user_agent)
        # The pacing holds a host's next page until this middleware judged its last.
        state.judging.attach(crawler)
        state.held.attach(crawler)  # links offered here: the growth bound holds

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> TrapGuardSpiderMiddleware:
        return cls(crawler, crawl_state(crawler))

    async def process_spider_output(
        self, response: Response, result: AsyncIterator[Any], spider: Spider | None = None
    ) -> AsyncIterator[Any]:
        requests: list[Request] = []
        try:
            async for output in result:
                if isinstance(output, Request):
                    requests.append(output)
                else:
                    yield output
            kept = await self._judge(response, requests)
        finally:
            # Judged, or failed on the way: the host's next page may go.
            self.state.judging.done(response.request)
        for request in kept:
            yield request

    def process_spider_exception(
        self, response: Response, exception: Exception, spider: Spider | None = None
    ) -> None:
        """The response will not be judged (HttpErrorMiddleware's HttpError for a
        non-2xx answer, a callback's error): the host's next page may go."""
        self.state.judging.done(response.request)

    async def _judge(self, response: Response, requests: list[Request]) -> list[Request]:
        if response.meta.get(PROBE_META):
            return requests
        text, page = _page(response, self.token)
        if text is not None and self.state.settings.soft404_probes and 200 <= response.status < 300:
            probe = self.state.triage.soft404.needs_probe(response.url)
            if probe is not None:
                await self._probe(probe)
        links = [r.url for r in requests if r.method == "GET"]
        first = response.meta.get("redirect_urls") or [response.url]
        self.state.triage.growth.answered(first[0], response.url)  # its links name it so
        verdict = self.state.triage.judge(
            PageFacts(
                url=first[0],
                final_url=response.url,
                status=response.status,
                text=text,
                links=links,
                canonical=page.canonical if page is not None else None,
                referer=_referer(response),
                streak=int(response.meta.get(STREAK_META, 0)),
                words=page.text if page is not None else None,  # read once, in _page
            ),
            self.state.seen,
        )
        if text is not None:  # a record of its own yields (robotkit.triage.growth)
            self.state.triage.growth.judged(response.url, verdict.words, verdict.shown)
        if page is not None and page.robots.nofollow:
            return self._drop(requests, Reason.NOFOLLOW)
        follow = set(verdict.follow)
        kept: list[Request] = []
        for request in requests:
            if request.method == "GET" and request.url not in follow:
                self._count(verdict.reason or Reason.DUPLICATE_CONTENT)
                continue
            refused = self._screen(request, verdict.streak, response.url)
            if refused is not None:
                self._count(refused)
                continue
            if verdict.streak:
                request = request.replace(priority=request.priority + DEMOTED_PRIORITY)
                request.meta[STREAK_META] = verdict.streak
            kept.append(request)
        if verdict.canonical is not None and verdict.canonical not in follow:
            # The page's canonical form, queued in place of its own (as robotkit's
            # crawler does), for the same callback.
            origin = response.request
            kept.append(
                Request(verdict.canonical)
                if origin is None
                else Request(
                    verdict.canonical,
                    callback=origin.callback,
                    errback=origin.errback,
                    cb_kwargs=origin.cb_kwargs,
                )
            )
        return kept

    def _screen(self, request: Request, streak: int, referer: str) -> Reason | None:
        """Why a request found on a page is not worth sending, or None."""
        triage = self.state.triage
        try:
            norm = triage.normalize(request.url)
        except InvalidURL as error:
            return error.reason
        key = triage.key(norm)
        if key in self.state.seen:
            # The dupefilter drops it (or dont_filter sends it); held as grown, it
            # goes back if this page is closer to a root (robotkit.scrapy.growth).
            self.state.held.again(request.url, key, referer)
            return None
        held = triage.screen(norm, streak, referer)
        if held is None:
            triage.remember(key, streak)
            triage.growth.offered(key, referer, request.url)
            return None
        if isinstance(held, GuardVerdict):
            if held.rule in _SHAPE_RULES:
                triage.shape_signal(norm, held.reason)
            return held.reason
        return held

    async def _probe(self, probe: str) -> None:
        """Fetch a URL that cannot exist, through Scrapy's engine (so robots.txt
        and pacing apply), and teach the soft-404 detector the site's answer."""
        detector = self.state.triage.soft404
        request = Request(
            probe,
            callback=NO_CALLBACK,
            dont_filter=True,
            meta={PROBE_META: True, "handle_httpstatus_all": True, "dont_retry": True},
        )
        try:
            answer = await self.crawler.engine.download_async(request)
        except Exception:  # refused, failed or timed out: no lesson
            detector.record_probe(probe, None)
            return
        body = answer.text if isinstance(answer, TextResponse) else ""
        detector.record_probe(probe, answer.status, body, answer.url)

    def _drop(self, requests: Iterable[Request], reason: Reason) -> list[Request]:
        for _ in requests:
            self._count(reason)
        return []

    def _count(self, reason: Reason) -> None:
        self.state.count(Decision.DISALLOW, reason)


class TrapGuardDownloaderMiddleware:
    """Downloader middleware: the last word before a request is sent (what was
    learned since it was queued may rule it out; redirect hops are judged too)."""

    def __init__(self, state: CrawlState) -> None:
        self.state = state
        # Once more at the last moment, if the pacing held the request back.
        state.last_checks.append(self.check)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> TrapGuardDownloaderMiddleware:
        return cls(crawl_state(crawler))

    def process_request(self, request: Request, spider: Spider | None = None) -> Request | None:
        self.check(request)
        # Under the spelling a page closer to a root linked (robotkit.triage.growth).
        return self.state.held.respelled(request)

    def check(self, request: Request) -> None:
        """Refuse ``request`` if what the crawl learned since it was queued rules
        it out."""
        meta = request.meta
        if meta.get(PROBE_META) or meta.get(ROBOTS_META) or not request.url.startswith("http"):
            return  # a probe or robots.txt is no page of the crawl; data:, file: no URL
        key = request_key(self.state, request.url)
        referer = _referer_of(request)
        reason = self.state.triage.recheck(request.url, key, referer)
        if reason is not None:
            self.state.count(Decision.DISALLOW, reason)
            if reason is Reason.DUPLICATE_URL and self.state.triage.explain(request.url):
                # Its link is one to the page under its key: held as grown, it goes back.
                self.state.held.copied(request.url, referer)
            raise Refused(reason)
        self.state.held.check(request, key, referer)  # grown past the bound: Held
        if not is_demoted(request) and self.state.triage.copies.demote(referer):
            meta[DEMOTED_META] = True


def is_demoted(request: Request) -> bool:
    """Whether ``request`` belongs to the demoted tier: found on a look-alike page,
    or a sibling of copies."""
    return bool(request.meta.get(STREAK_META) or request.meta.get(DEMOTED_META))


def _page(response: Response, token: str) -> tuple[str | None, PageMeta | None]:
    """The decoded text of a text response, and the page's meta when it is HTML."""
    if not isinstance(response, TextResponse):
        return None, None
    text = response.text
    content_type = response.headers.get("Content-Type") or b""
    if not content_type.lower().startswith(_HTML) and text.lstrip()[:1] != "<":
        return text, None
    page = parse_page(
        text,
        response.url,
        token,
        header_values(response, "X-Robots-Tag"),
        header_values(response, "Link"),
        with_text=True,  # its words, for the triage (PageFacts.words): read once
    )
    return text, page


def _referer_of(request: Request) -> str | None:
    value = request.headers.get("Referer")
    return value.decode("latin-1") if value else None


def _referer(response: Response) -> str | None:
    return _referer_of(response.request) if response.request is not None else None
