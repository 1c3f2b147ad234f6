"""The politeness core: every decision both polite transports share, as sans-I/O
coroutines.

:meth:`PolitenessCore.before` and :meth:`PolitenessCore.respond` are generators
that yield what they need done (:class:`Resolve` a host, get a :class:`Robots`
verdict, :class:`Sleep`, :class:`Parse` a page) and take the answer back: the sync
transport carries a step out blocking, the async one on the event loop, and the
decisions are written once, in the manner of h11. Nothing here opens a socket or
sleeps; time comes from the settings' clock.

Redirects: httpx follows them and sends each hop through the transport, so every
hop passes every check, exactly like a first request; the core keeps the chain in
the request's extensions (httpx hands the same extensions dict to each hop),
enforces its own hop cap and refuses loops.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass

import httpx

from robotkit.base.headervalues import parse_retry_after
from robotkit.base.outcome import Outcome, classify_status
from robotkit.base.reasons import Decision, Reason
from robotkit.http.addresses import RedirectChain
from robotkit.http.decoding import ACCEPT_ENCODING, CappedBody
from robotkit.http.errors import (
    Deferred,
    Disallowed,
    HostSkipped,
    PolitenessError,
    RedirectRefused,
)
from robotkit.http.facts import EXTENSION, FetchFacts
from robotkit.http.settings import PoliteSettings
from robotkit.pacing.pacer import HostKey, host_key
from robotkit.page.directives import parse_x_robots_tag
from robotkit.page.meta import PageMeta, parse_page
from robotkit.robots.status import Hop
from robotkit.robots.verdict import Verdict
from robotkit.triage.guard import Guard
from robotkit.url.parse import InvalidURL

CHAIN = "robotkit.chain"
"""The key of a request's :class:`RedirectChain` in its extensions."""
FOLLOWED = frozenset({301, 302, 303, 307, 308})
"""The redirects httpx follows (RFC 9110 section 15.4; 300 and 305 are not)."""

OFF_LOOP = 64 * 1024
"""Characters of HTML from which the async transport parses in a worker thread."""


@dataclass(frozen=True)
class Resolve:
    """Resolve ``host`` (the answer: its addresses, or the resolver's error)."""

    host: str
    port: int


@dataclass(frozen=True)
class Robots:
    """Get the robots.txt verdict for ``url``."""

    url: str


@dataclass(frozen=True)
class Sleep:
    seconds: float


@dataclass(frozen=True)
class Parse:
    """Read meta robots and links of an HTML page: linear in its size, but up to
    two seconds of CPU for a hostile 8 MiB page (the crawler's body cap), so the
    async face runs it off the loop."""

    html: str
    url: str
    product_token: str
    x_robots_tag: list[str]
    link_header: list[str]
    read_text: bool = False
    """Also the page's visible words, from the same tree."""

    def run(self) -> PageMeta:
        return parse_page(
            self.html,
            self.url,
            self.product_token,
            self.x_robots_tag,
            self.link_header,
            with_text=self.read_text,
        )


Step = Resolve | Robots | Sleep | Parse


@dataclass(frozen=True)
class Cleared:
    """A request that passed every check, ready for its pacing slot."""

    url: str
    key: HostKey
    chain: RedirectChain
    verdict: Verdict | None
    conditional: bool
    is_hop: bool


def refused_redirect(request: httpx.Request, error: Exception) -> Disallowed | None:
    """The verdict on a redirect httpx could not follow because its Location is no
    fetchable URL (``javascript:``, ``mailto:``, a broken one): httpx raises
    :class:`httpx.InvalidURL`, which is not an :class:`httpx.HTTPError`, so a
    crawler would not expect it. None when ``request`` was not being redirected."""
    chain = request.extensions.get(CHAIN)
    if not isinstance(chain, RedirectChain) or chain.pending is None or not chain.hops:
        return None
    target = chain.pending
    try:
        host_key(target)
    except InvalidURL as bad:
        return Disallowed(target, bad.reason, bad.detail, redirects=tuple(chain.hops))
    return Disallowed(target, Reason.INVALID_URL, str(error), redirects=tuple(chain.hops))


class PolitenessCore:
    """Every decision both transports share; no sockets, no sleeping."""

    def __init__(self, settings: PoliteSettings) -> None:
        self.settings = settings
        self.identity = settings.identity
        self.clock = settings.clock
        self.pacer = settings.pacer
        self.limits = settings.limits
        self.screen = settings.screen

    # -- before sending ---------------------------------------------------------

    def open(self, request: httpx.Request) -> tuple[str, HostKey, RedirectChain, bool]:
        """Start judging ``request``: its URL, host key, chain and whether it is a
        redirect hop; refuses invalid URLs, loops and too many hops."""
        url = str(request.url)
        chain = request.extensions.get(CHAIN)
        is_hop = isinstance(chain, RedirectChain) and chain.pending is not None
        if not isinstance(chain, RedirectChain) or not is_hop:
            chain = RedirectChain()
            request.extensions[CHAIN] = chain
        chain.pending = None
        redirects = tuple(chain.hops)
        if is_hop:
            if len(chain.hops) > self.limits.max_redirects:
                raise RedirectRefused(
                    url,
                    Reason.REDIRECT_LIMIT,
                    f"more than {self.limits.max_redirects} redirects",
                    redirects=redirects,
                )
            if any(hop.url == url for hop in chain.hops):
                raise RedirectRefused(url, Reason.REDIRECT_LOOP, redirects=redirects)
        try:
            key = host_key(url)
        except InvalidURL as error:
            raise Disallowed(url, error.reason, error.detail, redirects=redirects) from None
        guard = self.settings.guard
        verdict = (
            None if guard is None else guard.check(url) if isinstance(guard, Guard) else guard(url)
        )
        if verdict is not None and not verdict.allowed:
            raise Disallowed(
                url, verdict.reason, verdict.detail, verdict=verdict, redirects=redirects
            )
        scope = self.settings.scope
        if scope is not None and not scope(url):
            raise Disallowed(url, Reason.OFF_SCOPE, redirects=redirects)
        return url, key, chain, is_hop

    def judge_robots(self, url: str, verdict: Verdict, chain: RedirectChain) -> float | None:
        """None to go ahead, else seconds to wait before asking again; raises when
        the verdict says never, or later and the caller will not wait."""
        redirects = tuple(chain.hops)
        if verdict.decision is Decision.DISALLOW:
            raise Disallowed(
                url, verdict.reason, verdict.detail, verdict=verdict, redirects=redirects
            )
        if verdict.decision is Decision.DEFER:
            now = self.clock()
            retry_at = (
                verdict.retry_at if verdict.retry_at is not None else now + self.limits.max_wait
            )
            wait = retry_at - now
            if not self.limits.wait_deferred or wait > self.limits.max_wait:
                raise Deferred(
                    url,
                    verdict.reason,
                    retry_at,
                    verdict.detail,
                    verdict=verdict,
                    redirects=redirects,
                )
            return max(wait, 0.0)
        return None

    def apply_pace(
        self, url: str, key: HostKey, verdict: Verdict | None, chain: RedirectChain
    ) -> None:
        if verdict is None:
            return
        skipped = self.pacer.apply_robots(key, verdict.crawl_delay, verdict.request_rate)
        if skipped is not None:
            detail = (
                f"Crawl-delay {verdict.crawl_delay} s above {self.pacer.policy.max_crawl_delay} s"
            )
            raise HostSkipped(url, skipped, detail, verdict=verdict, redirects=tuple(chain.hops))

    def prepare_headers(self, request: httpx.Request, url: str) -> bool:
        """Identity headers (RFC 9110 sections 10.1.2, 10.1.5), and conditional ones
        on a refetch (section 13.1); True if conditional."""
        headers = request.headers
        for name, value in self.identity.headers().items():
            if name.lower() == "accept" and headers.get("accept", "*/*") != "*/*":
                continue  # the caller asked for something specific
            headers[name] = value
        headers["Accept-Encoding"] = ACCEPT_ENCODING
        if request.method not in ("GET", "HEAD"):
            return False
        if "if-none-match" in headers or "if-modified-since" in headers:
            return True
        conditional = self.settings.validators.conditional_headers(url)
        headers.update(conditional)
        return bool(conditional)

    def slot_wait(self, url: str, key: HostKey) -> float | None:
        """Seconds to wait for ``key``'s slot (None: until one is freed); raises
        when the host is skipped or the wait is longer than ``max_wait``."""
        plan = self.pacer.plan(key)
        if plan.skip_reason is not None:
            raise HostSkipped(url, plan.skip_reason)
        if plan.ready_at is None:
            return None
        held = self.pacer.state(key).hold_until >= plan.ready_at
        return self.wait_until(url, plan.ready_at, held)

    def wait_until(self, url: str, ready_at: float, held: bool) -> float:
        """Seconds from now to ``ready_at``, or :class:`Deferred` when that is longer
        than ``max_wait`` (``rate-limited`` when a hold sets the time, else
        ``host-backoff``). One rule for the in-process pacer and a shared one."""
        wait = ready_at - self.clock()
        if wait > self.limits.max_wait:
            reason = Reason.RATE_LIMITED if held else Reason.HOST_BACKOFF
            raise Deferred(url, reason, ready_at, f"host busy for {wait:.1f} s")
        return max(wait, 0.0)

    def ending(
        self, status: int | None, headers: httpx.Headers | None, error: BaseException | None
    ) -> tuple[Outcome | None, float | None]:
        """How a response ended, for the pacer (in-process or shared): its outcome
        (None for a cancellation or an interrupt, not the host's fault) and the
        Retry-After time of a 429 or 503 (RFC 9110 section 10.2.3; RFC 6585
        section 4). Status None is a network failure."""
        if error is not None and (
            not isinstance(error, Exception) or isinstance(error, PolitenessError)
        ):
            # Interrupted, or refused by us at connect time: not the host's doing.
            return None, None
        if status is None or headers is None:
            return Outcome.NETWORK_ERROR, None
        retry_at = None
        if status in (429, 503):
            retry_at = parse_retry_after(headers.get("retry-after"), self.clock())
        return classify_status(status), retry_at

    def deadline_timeouts(self, request: httpx.Request, remaining: float) -> None:
        """Bound each socket operation by the time left for the whole response."""
        current = request.extensions.get("timeout", {})
        request.extensions["timeout"] = {
            name: remaining if current.get(name) is None else min(current[name], remaining)
            for name in ("connect", "read", "write", "pool")
        }

    def screen_request(
        self, request: httpx.Request, key: HostKey, chain: RedirectChain, is_hop: bool
    ) -> Generator[Step, object, None]:
        """Resolve the request's host and refuse a non-public address (SSRF)."""
        resolved = yield Resolve(key[0], key[1])
        self.screen.judge(str(request.url), key[0], resolved, chain, is_hop, request)

    def before(
        self, request: httpx.Request, check_robots: bool
    ) -> Generator[Step, object, Cleared]:
        """Every check before a request may be sent, as a sans-I/O coroutine: it
        yields what it needs the shell to do (resolve a host, get a robots.txt
        verdict, sleep) and gets the result sent back, so the sync and async
        transports drive one piece of logic."""
        url, key, chain, is_hop = self.open(request)
        yield from self.screen_request(request, key, chain, is_hop)
        verdict: Verdict | None = None
        while check_robots:
            answer = yield Robots(url)
            assert isinstance(answer, Verdict)
            verdict = answer
            wait = self.judge_robots(url, verdict, chain)
            if wait is None:
                break
            yield Sleep(wait)
        self.apply_pace(url, key, verdict, chain)
        conditional = self.prepare_headers(request, url)
        return Cleared(url, key, chain, verdict, conditional, is_hop)

    # -- after receiving --------------------------------------------------------

    def respond(
        self,
        request: httpx.Request,
        ready: Cleared,
        inner: httpx.Response,
        body: CappedBody,
        retry_at: float | None,
        started: float,
        waited: float,
    ) -> Generator[Step, object, httpx.Response]:
        """The response handed back, with its facts; a sans-I/O coroutine that
        yields a :class:`Parse` step for an HTML page."""
        url, chain = ready.url, ready.chain
        status = inner.status_code
        content = body.content()
        headers = httpx.Headers(inner.headers)
        # Every coding is undone (an unknown one was refused): the content is
        # plain, and httpx must not try to decode it again.
        if "content-encoding" in headers:
            del headers["content-encoding"]
        if "transfer-encoding" in headers:
            del headers["transfer-encoding"]
        headers["content-length"] = str(len(content))
        redirects = tuple(chain.hops)
        location = inner.headers.get("location")
        if status in FOLLOWED and location is not None:
            # Even an empty Location is followed by httpx (to this very URL): a
            # hop, so that the loop is seen.
            chain.hops.append(Hop(url, status, location))
            try:
                chain.pending = str(request.url.join(location))
            except httpx.InvalidURL:
                chain.pending = location  # httpx refuses to follow it, clearly
        validators = self.settings.validators.record(url, status, inner.headers.multi_items())
        response = httpx.Response(
            status,
            headers=headers,
            content=content,
            request=request,
            extensions={
                k: v for k, v in inner.extensions.items() if k in ("http_version", "reason_phrase")
            },
        )
        token = self.identity.product_token
        tags = inner.headers.get_list("x-robots-tag")
        page = None
        content_type = headers.get("content-type", "").lower()
        if self.settings.parse_html and status == 200 and "html" in content_type and content:
            links = inner.headers.get_list("link")
            parsed = yield Parse(response.text, url, token, tags, links, self.settings.read_text)
            assert isinstance(parsed, PageMeta)
            page = parsed
            directives = page.robots
        else:
            directives = parse_x_robots_tag(tags).for_robot(token)
        response.extensions[EXTENSION] = FetchFacts(
            url=url,
            status=status,
            outcome=classify_status(status),
            verdict=ready.verdict,
            redirects=redirects,
            referer=request.headers.get("referer"),
            conditional=ready.conditional,
            validators=validators,
            truncated=body.truncated,
            body_bytes=len(content),
            robots=directives,
            page=page,
            retry_at=retry_at,
            started=started,
            ended=self.clock(),
            waited=waited,
        )
        return response
