"""Polite httpx transports: every request judged, paced and bounded.

Pass :class:`PoliteTransport` (sync) or :class:`AsyncPoliteTransport` (async) to any
``httpx.Client`` / ``httpx.AsyncClient`` and each request, before it is sent:

1. is checked by the trap guard and the optional scope hook;
2. has its host resolved, and is refused if the address is private, loopback or
   link-local (unless ``allow_private``), and always when a redirect chain that
   began at a public address turns to such an address (SSRF);
3. gets its robots.txt verdict (RFC 9309): disallowed is never sent
   (:class:`Disallowed`), deferred raises :class:`Deferred` or waits if asked;
4. waits for a slot from its host's pacer (:mod:`robotkit.pacing`).

It goes out with the robot's honest identity (RFC 9110 sections 10.1.2, 10.1.5)
and, on a refetch when the caller gave a :class:`ValidatorStore`, If-None-Match /
If-Modified-Since (RFC 9110 section 13.1). The
body is read here, bounded in bytes (decoded bytes, through every stacked coding:
:mod:`robotkit.http.decoding`) and in total time (a drip-feeding tarpit is cut
off), and the response comes back with
:class:`FetchFacts` in ``response.extensions["robotkit"]``.

Redirects: httpx follows them and sends each hop through this transport, so every
hop passes all the checks above, exactly like a first request; the transport keeps
the chain in the request's extensions (httpx hands the same extensions dict to each
hop), enforces its own hop cap and refuses loops. The caller keeps httpx's
``response.history`` and gets the chain in :attr:`FetchFacts.redirects`.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import inspect
import ipaddress
import socket
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

import httpcore
import httpx

from robotkit.clock import Clock, system_clock
from robotkit.guard import Guard, GuardVerdict
from robotkit.headervalues import parse_retry_after
from robotkit.http import errors
from robotkit.http.decoding import ACCEPT_ENCODING, CappedBody
from robotkit.http.robots import AsyncRobotsChecker, RobotsChecker, RobotsOptions
from robotkit.http.validators import ValidatorStore
from robotkit.identity import Identity, warn_if_anonymous
from robotkit.meta import PageMeta, RobotsDirectives, parse_page, parse_x_robots_tag
from robotkit.outcome import NetworkErrorKind, Outcome, classify_status
from robotkit.pacing import HostKey, Pacer, PacingPolicy, Ticket, host_key
from robotkit.reasons import Decision, Reason
from robotkit.robots.freshness import Validators
from robotkit.robots.status import Hop
from robotkit.robots.verdict import Verdict
from robotkit.urls import InvalidURL

_T = TypeVar("_T")

EXTENSION = "robotkit"
"""The key of :class:`FetchFacts` in ``response.extensions``."""
_CHAIN = "robotkit.chain"
_FOLLOWED = frozenset({301, 302, 303, 307, 308})
"""The redirects httpx follows (RFC 9110 section 15.4; 300 and 305 are not)."""

DEFAULT_MAX_BODY = 10 * 1024 * 1024
DEFAULT_RESPONSE_TIMEOUT = 30.0
DEFAULT_MAX_REDIRECTS = 5
DEFAULT_MAX_WAIT = 60.0

# The exception family (:mod:`robotkit.http.errors`), importable from here as before.
AddressRefused = errors.AddressRefused
Deferred = errors.Deferred
Disallowed = errors.Disallowed
HostSkipped = errors.HostSkipped
PolitenessError = errors.PolitenessError
RedirectRefused = errors.RedirectRefused
ResponseTooSlow = errors.ResponseTooSlow


def classify_error(error: BaseException) -> NetworkErrorKind:
    """What kind of network failure an httpx/OS exception is."""
    if isinstance(error, (httpx.TimeoutException, TimeoutError)):
        return NetworkErrorKind.TIMEOUT
    text = str(error).lower()
    if (
        isinstance(error, socket.gaierror)
        or isinstance(error.__cause__, (socket.gaierror, UnicodeError))
        or any(
            marker in text
            for marker in ("name or service", "nodename", "getaddrinfo", "name resolution")
        )
    ):
        return NetworkErrorKind.DNS
    if "ssl" in text or "certificate" in text or "tls" in text:
        return NetworkErrorKind.TLS
    if isinstance(error, (httpx.ConnectError, ConnectionError)):
        return NetworkErrorKind.CONNECT
    if isinstance(error, httpx.ProtocolError):
        return NetworkErrorKind.PROTOCOL
    return NetworkErrorKind.OTHER


# --------------------------------------------------------------------------------------
# Configuration


@dataclass(frozen=True)
class FetchLimits:
    """Bounds on one fetch; defaults suit a general web crawler."""

    max_body_bytes: int = DEFAULT_MAX_BODY
    """Body bytes kept (after decoding); the rest is not read, the body is marked
    truncated."""
    response_timeout: float = DEFAULT_RESPONSE_TIMEOUT
    """Seconds from sending the request to the end of the body."""
    max_redirects: int = DEFAULT_MAX_REDIRECTS
    max_wait: float = DEFAULT_MAX_WAIT
    """The longest the transport sleeps for a pacing slot or a deferral; a longer
    wait raises :class:`Deferred` with the time to come back."""
    wait_deferred: bool = False
    """Wait out a robots.txt deferral (up to ``max_wait``) instead of raising."""

    def __post_init__(self) -> None:
        if self.max_body_bytes < 0 or self.response_timeout <= 0 or self.max_redirects < 0:
            raise ValueError("limits must be positive")


@dataclass(frozen=True)
class AddressPolicy:
    """Which addresses a request may go to (server-side request forgery guard)."""

    allow_private: bool = False
    """Allow private, loopback and link-local targets (crawling an intranet or
    localhost on purpose). A redirect from a public address to such a target is
    refused even then."""
    public_addresses: frozenset[str] = frozenset()
    """Addresses to treat as public (tests mark 127.0.0.x servers this way)."""

    def is_public(self, address: str) -> bool:
        if address in self.public_addresses:
            return True
        try:
            ip = ipaddress.ip_address(address.split("%", 1)[0])
        except ValueError:
            return False
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        return ip.is_global and not ip.is_multicast


Resolver = Callable[[str, int], Sequence[str]]
AsyncResolver = Callable[[str, int], Sequence[str] | Awaitable[Sequence[str]]]
GuardHook = Guard | Callable[[str], GuardVerdict | None]
ScopeHook = Callable[[str], bool]


def system_resolver(host: str, port: int) -> list[str]:
    """The addresses the system resolver gives for ``host``."""
    return _addresses(socket.getaddrinfo(host, port, type=socket.SOCK_STREAM))


def _addresses(infos: Sequence[tuple[Any, ...]]) -> list[str]:
    """The distinct addresses of ``getaddrinfo`` results."""
    return sorted({str(info[4][0]) for info in infos})


def _literal(host: str) -> list[str] | None:
    try:
        return [str(ipaddress.ip_address(host.strip("[]")))]
    except ValueError:
        return None


# --------------------------------------------------------------------------------------
# Facts returned with every response


@dataclass(frozen=True)
class FetchFacts:
    """What robotkit knows about one response, in ``response.extensions["robotkit"]``."""

    url: str
    status: int
    outcome: Outcome
    verdict: Verdict | None
    """The robots.txt verdict that let the request go (None when robots.txt is off)."""
    redirects: tuple[Hop, ...]
    """The redirect hops that led to this response, oldest first."""
    referer: str | None
    conditional: bool
    """If-None-Match / If-Modified-Since were sent."""
    validators: Validators | None
    """The ETag / Last-Modified now held for the URL (on a 304: the stored ones)."""
    truncated: bool
    """The body was cut at ``max_body_bytes``."""
    body_bytes: int
    robots: RobotsDirectives
    """X-Robots-Tag and meta robots that apply to this robot."""
    page: PageMeta | None
    """Meta robots and links, for an HTML page."""
    retry_at: float | None
    """From Retry-After on 429 / 503."""
    started: float
    ended: float
    waited: float
    """Seconds spent waiting for the host's pacing slot."""

    @property
    def is_success(self) -> bool:
        return self.outcome in (Outcome.OK, Outcome.NOT_MODIFIED)


def facts(response: httpx.Response) -> FetchFacts:
    """The :class:`FetchFacts` of a response that came through a polite transport."""
    found = response.extensions.get(EXTENSION)
    if not isinstance(found, FetchFacts):
        raise ValueError("this response did not come through a robotkit polite transport")
    return found


def refused_redirect(request: httpx.Request, error: Exception) -> Disallowed | None:
    """The verdict on a redirect httpx could not follow because its Location is no
    fetchable URL (``javascript:``, ``mailto:``, a broken one): httpx raises
    :class:`httpx.InvalidURL`, which is not an :class:`httpx.HTTPError`, so a
    crawler would not expect it. None when ``request`` was not being redirected."""
    chain = request.extensions.get(_CHAIN)
    if not isinstance(chain, _Chain) or chain.pending is None or not chain.hops:
        return None
    target = chain.pending
    try:
        host_key(target)
    except InvalidURL as bad:
        return Disallowed(target, bad.reason, bad.detail, redirects=tuple(chain.hops))
    return Disallowed(target, Reason.INVALID_URL, str(error), redirects=tuple(chain.hops))


# --------------------------------------------------------------------------------------
# The shared, I/O-free part of both transports


@dataclass
class _Chain:
    """The redirect chain of one logical request, kept in its extensions."""

    hops: list[Hop] = field(default_factory=list)
    pending: str | None = None
    public_start: bool = False


@dataclass(frozen=True)
class _Resolve:
    host: str
    port: int


@dataclass(frozen=True)
class _Robots:
    url: str


@dataclass(frozen=True)
class _Sleep:
    seconds: float


@dataclass(frozen=True)
class _Parse:
    """Read meta robots and links of an HTML page: linear in its size, but up to
    a second for a hostile 2 MiB page, so the async face runs it off the loop."""

    html: str
    url: str
    product_token: str
    x_robots_tag: list[str]
    link_header: list[str]

    def run(self) -> PageMeta:
        return parse_page(
            self.html, self.url, self.product_token, self.x_robots_tag, self.link_header
        )


OFF_LOOP = 64 * 1024
"""Characters of HTML from which the async transport parses in a worker thread."""

_Step = _Resolve | _Robots | _Sleep | _Parse


@dataclass(frozen=True)
class _Prepared:
    """A request that passed every check, ready for its pacing slot."""

    url: str
    key: HostKey
    chain: _Chain
    verdict: Verdict | None
    conditional: bool
    is_hop: bool


class _Core:
    """Every decision both transports share; no sockets, no sleeping."""

    def __init__(
        self,
        identity: Identity | None,
        pacer: Pacer | None,
        policy: PacingPolicy | None,
        limits: FetchLimits | None,
        addresses: AddressPolicy | None,
        guard: GuardHook | None,
        scope: ScopeHook | None,
        validators: ValidatorStore | None,
        clock: Clock,
        parse_html: bool,
    ) -> None:
        self.identity = identity if identity is not None else Identity()
        warn_if_anonymous(self.identity)
        self.clock = clock
        self.pacer = pacer if pacer is not None else Pacer(clock, policy)
        self.limits = limits if limits is not None else FetchLimits()
        self.addresses = addresses if addresses is not None else AddressPolicy()
        self.guard = guard
        self.scope = scope
        # No store, no conditional requests: a 304 only goes to a caller who asked.
        self.validators = validators if validators is not None else ValidatorStore(max_urls=0)
        self.parse_html = parse_html

    # -- before sending ---------------------------------------------------------

    def open(self, request: httpx.Request) -> tuple[str, HostKey, _Chain, bool]:
        """Start judging ``request``: its URL, host key, chain and whether it is a
        redirect hop; refuses invalid URLs, loops and too many hops."""
        url = str(request.url)
        chain = request.extensions.get(_CHAIN)
        is_hop = isinstance(chain, _Chain) and chain.pending is not None
        if not isinstance(chain, _Chain) or not is_hop:
            chain = _Chain()
            request.extensions[_CHAIN] = chain
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
        guard = self.guard
        verdict = (
            None if guard is None else guard.check(url) if isinstance(guard, Guard) else guard(url)
        )
        if verdict is not None and not verdict.allowed:
            raise Disallowed(
                url, verdict.reason, verdict.detail, verdict=verdict, redirects=redirects
            )
        if self.scope is not None and not self.scope(url):
            raise Disallowed(url, Reason.OFF_SCOPE, redirects=redirects)
        return url, key, chain, is_hop

    def judge_addresses(
        self, url: str, addresses: Sequence[str], chain: _Chain, is_hop: bool
    ) -> None:
        """Refuse non-public targets (SSRF), RFC 6890 special-purpose ranges."""
        public = bool(addresses) and all(self.addresses.is_public(a) for a in addresses)
        if not is_hop:
            chain.public_start = public
        if public:
            return
        shown = ", ".join(addresses) or "no address"
        if is_hop and chain.public_start:
            detail = f"redirect from a public address to {shown}"
        elif not self.addresses.allow_private:
            detail = f"{shown} is not public (allow_private=True to crawl it)"
        else:
            return
        raise AddressRefused(url, Reason.PRIVATE_ADDRESS, detail, redirects=tuple(chain.hops))

    def peer_judge(self, url: str, chain: _Chain, is_hop: bool) -> Callable[[str], None]:
        """The address check again, on the address a new connection really reached:
        the resolver may answer differently at connect time than it did when the
        request was screened (DNS rebinding), and only the peer address is sure."""
        return lambda address: self.judge_addresses(url, [address], chain, is_hop)

    def judge_robots(self, url: str, verdict: Verdict, chain: _Chain) -> float | None:
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

    def apply_pace(self, url: str, key: HostKey, verdict: Verdict | None, chain: _Chain) -> None:
        if verdict is None:
            return
        skipped = self.pacer.apply_robots(key, verdict.crawl_delay, verdict.request_rate)
        if skipped is not None:
            detail = (
                f"Crawl-delay {verdict.crawl_delay} s above {self.pacer.policy.max_crawl_delay} s"
            )
            raise HostSkipped(url, skipped, detail, verdict=verdict, redirects=tuple(chain.hops))

    def prepare_headers(self, request: httpx.Request, url: str) -> bool:
        """Identity headers, and conditional ones on a refetch; True if conditional."""
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
        conditional = self.validators.conditional_headers(url)
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
        wait = plan.ready_at - self.clock()
        if wait > self.limits.max_wait:
            held = self.pacer.state(key).hold_until >= plan.ready_at
            reason = Reason.RATE_LIMITED if held else Reason.HOST_BACKOFF
            raise Deferred(url, reason, plan.ready_at, f"host busy for {wait:.1f} s")
        return max(wait, 0.0)

    def ended(
        self,
        ticket: Ticket,
        status: int | None,
        headers: httpx.Headers | None,
        error: BaseException | None = None,
    ) -> float | None:
        """Record the end of a response: status None is a network failure, unless
        ``error`` is a cancellation or an interrupt (not the host's fault)."""
        if error is not None and (
            not isinstance(error, Exception) or isinstance(error, PolitenessError)
        ):
            # Interrupted, or refused by us at connect time: not the host's doing.
            self.pacer.cancel(ticket)
            return None
        if status is None or headers is None:
            self.pacer.finish(ticket, Outcome.NETWORK_ERROR)
            return None
        retry_at = None
        if status in (429, 503):
            retry_at = parse_retry_after(headers.get("retry-after"), self.clock())
        self.pacer.finish(ticket, classify_status(status), retry_at)
        return retry_at

    def deadline_timeouts(self, request: httpx.Request, remaining: float) -> None:
        """Bound each socket operation by the time left for the whole response."""
        current = request.extensions.get("timeout", {})
        request.extensions["timeout"] = {
            name: remaining if current.get(name) is None else min(current[name], remaining)
            for name in ("connect", "read", "write", "pool")
        }

    def screen(
        self,
        request: httpx.Request,
        key: HostKey | None = None,
        chain: _Chain | None = None,
        is_hop: bool = False,
    ) -> Generator[_Step, object, None]:
        """Resolve the request's host and refuse a non-public address (SSRF). Alone,
        it guards the robots.txt fetches, whose redirects may lead anywhere."""
        url = str(request.url)
        key = key if key is not None else host_key(url)
        addresses = _literal(key[0])
        if addresses is None:
            resolved = yield _Resolve(key[0], key[1])
            if isinstance(resolved, (OSError, UnicodeError)):
                message = f"cannot resolve {key[0]}: {resolved}"
                raise httpx.ConnectError(message, request=request) from resolved
            addresses = list(resolved)  # type: ignore[call-overload]
        self.judge_addresses(url, addresses, chain or _Chain(), is_hop)

    def before(
        self, request: httpx.Request, check_robots: bool
    ) -> Generator[_Step, object, _Prepared]:
        """Every check before a request may be sent, as a sans-I/O coroutine: it
        yields what it needs the shell to do (resolve a host, get a robots.txt
        verdict, sleep) and gets the result sent back, so the sync and async
        transports drive one piece of logic."""
        url, key, chain, is_hop = self.open(request)
        yield from self.screen(request, key, chain, is_hop)
        verdict: Verdict | None = None
        while check_robots:
            answer = yield _Robots(url)
            assert isinstance(answer, Verdict)
            verdict = answer
            wait = self.judge_robots(url, verdict, chain)
            if wait is None:
                break
            yield _Sleep(wait)
        self.apply_pace(url, key, verdict, chain)
        conditional = self.prepare_headers(request, url)
        return _Prepared(url, key, chain, verdict, conditional, is_hop)

    # -- after receiving --------------------------------------------------------

    def respond(
        self,
        request: httpx.Request,
        ready: _Prepared,
        inner: httpx.Response,
        body: CappedBody,
        retry_at: float | None,
        started: float,
        waited: float,
    ) -> Generator[_Step, object, httpx.Response]:
        """The response handed back, with its facts; a sans-I/O coroutine that
        yields a :class:`_Parse` step for an HTML page."""
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
        if status in _FOLLOWED and location is not None:
            # Even an empty Location is followed by httpx (to this very URL): a
            # hop, so that the loop is seen.
            chain.hops.append(Hop(url, status, location))
            try:
                chain.pending = str(request.url.join(location))
            except httpx.InvalidURL:
                chain.pending = location  # httpx refuses to follow it, clearly
        validators = self.validators.record(url, status, inner.headers.multi_items())
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
        if self.parse_html and status == 200 and "html" in content_type and content:
            links = inner.headers.get_list("link")
            parsed = yield _Parse(response.text, url, token, tags, links)
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


_CORE_DOC = """
    Arguments (all optional): ``inner`` the transport that really sends (default a
    plain ``httpx`` one); ``identity``; ``policy`` (pacing) or a shared ``pacer``;
    ``limits``; ``addresses`` (SSRF policy) or just ``allow_private``;
    ``robots_options`` (profile, min TTL, deadline) for our own robots checker,
    whose robots.txt fetches are paced like every other request, or ``robots`` a
    checker of yours (its fetches are then yours to pace); ``check_robots=False``
    to skip robots.txt
    (only for sites you own); ``guard`` a :class:`robotkit.guard.Guard` or any
    ``(url) -> GuardVerdict | None``; ``scope`` a ``(url) -> bool``; ``validators``
    a :class:`ValidatorStore` to make refetches conditional (none by default: a
    304 has no body, so only a caller who keeps bodies should ask for one);
    ``clock``; ``resolver`` ``(host, port) -> addresses``; ``parse_html`` to read
    meta robots and links of HTML pages.
"""


class _PoliteBase:
    """What the sync and async polite transports share: the core and its settings."""

    core: _Core

    def _setup(
        self,
        identity: Identity | None,
        policy: PacingPolicy | None,
        pacer: Pacer | None,
        limits: FetchLimits | None,
        addresses: AddressPolicy | None,
        allow_private: bool,
        guard: GuardHook | None,
        scope: ScopeHook | None,
        validators: ValidatorStore | None,
        clock: Clock,
        parse_html: bool,
    ) -> None:
        if addresses is None:
            addresses = AddressPolicy(allow_private=allow_private)
        self.core = _Core(
            identity,
            pacer,
            policy,
            limits,
            addresses,
            guard,
            scope,
            validators,
            clock,
            parse_html,
        )

    @property
    def pacer(self) -> Pacer:
        return self.core.pacer

    @property
    def identity(self) -> Identity:
        return self.core.identity


def _wrapped(
    response: httpx.Response, stream: httpx.SyncByteStream | httpx.AsyncByteStream
) -> httpx.Response:
    return httpx.Response(
        response.status_code,
        headers=response.headers,
        stream=stream,
        extensions=response.extensions,
    )


def _too_slow(request: httpx.Request, timeout: float) -> ResponseTooSlow:
    return ResponseTooSlow(f"no complete response within {timeout:g} s", request=request)


# --------------------------------------------------------------------------------------
# Sync


class _SyncSlots:
    """Waits for pacing slots with a condition variable: thread-safe."""

    def __init__(self, core: _Core) -> None:
        self.core = core
        self.cond = threading.Condition()

    def acquire(self, url: str, key: HostKey) -> tuple[Ticket, float]:
        begun = time.monotonic()
        with self.cond:
            while True:
                wait = self.core.slot_wait(url, key)
                if wait == 0.0:
                    return self.core.pacer.start(key), time.monotonic() - begun
                self.cond.wait(timeout=wait)

    def release(
        self,
        ticket: Ticket,
        status: int | None,
        headers: httpx.Headers | None,
        error: BaseException | None = None,
    ) -> float | None:
        with self.cond:
            retry_at = self.core.ended(ticket, status, headers, error)
            self.cond.notify_all()
        return retry_at


class _ReleaseOnce:
    """Gives a pacing slot back exactly once, however often a stream is closed."""

    def __init__(self, release: Callable[[], object]) -> None:
        self.release: Callable[[], object] | None = release

    def release_once(self) -> None:
        if self.release is not None:
            release, self.release = self.release, None
            release()


class _ReleasingStream(_ReleaseOnce, httpx.SyncByteStream):
    def __init__(self, inner: httpx.SyncByteStream, release: Callable[[], object]) -> None:
        super().__init__(release)
        self.inner = inner

    def __iter__(self) -> Iterator[bytes]:
        yield from self.inner

    def close(self) -> None:
        try:
            self.inner.close()
        finally:
            self.release_once()


class PacedTransport(httpx.BaseTransport):
    """Pacing only: each request waits for its host's slot, and the slot is given
    back (the end recorded) when the response is closed. The robots.txt fetches of
    a :class:`PoliteTransport` go through one, so they count in the host's pace."""

    def __init__(
        self,
        inner: httpx.BaseTransport,
        slots: _SyncSlots,
        screen: Callable[[httpx.Request], None] | None = None,
    ) -> None:
        self.inner = inner
        self.slots = slots
        self.screen = screen

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        url = str(request.url)
        if self.screen is not None:
            self.screen(request)
        ticket, _ = self.slots.acquire(url, host_key(url))
        checking = _PEER_CHECK.set(self.slots.core.peer_judge(url, _Chain(), False))
        try:
            response = self.inner.handle_request(request)
        except BaseException as error:
            self.slots.release(ticket, None, None, error)
            raise
        finally:
            _PEER_CHECK.reset(checking)
        assert isinstance(response.stream, httpx.SyncByteStream)
        release = partial(self.slots.release, ticket, response.status_code, response.headers)
        return _wrapped(response, _ReleasingStream(response.stream, release))

    def close(self) -> None:
        """The inner transport belongs to the polite transport, which closes it."""


_PEER_CHECK: contextvars.ContextVar[Callable[[str], None] | None] = contextvars.ContextVar(
    "robotkit_peer_check", default=None
)
"""Judges the address a new connection of the current request reached (set by
the transports around the inner call; sync threads and async tasks each see
their own)."""


def _check_peer(stream: httpcore.NetworkStream | httpcore.AsyncNetworkStream) -> None:
    """Run the current request's address check on the peer of a fresh connection;
    raises :class:`AddressRefused` (the caller closes the stream)."""
    check = _PEER_CHECK.get()
    if check is not None:
        peer = stream.get_extra_info("server_addr")
        if isinstance(peer, tuple) and peer:
            check(str(peer[0]))


_DEADLINE = threading.local()
"""``at``: the ``time.monotonic()`` by which the response this thread is reading
must be complete, or None. Sync httpcore reads in the caller's thread, so a
thread-local reaches every socket operation of exactly that request."""


def _bounded(timeout: float | None) -> float | None:
    """A socket operation's timeout cut to the time left before this thread's
    response deadline, so that no number of slow reads (a server dripping its
    headers on a reused keep-alive connection) can outlast the deadline."""
    deadline: float | None = getattr(_DEADLINE, "at", None)
    if deadline is None:
        return timeout
    left = deadline - time.monotonic()
    if left <= 0:
        raise httpcore.ReadTimeout("the response deadline has passed")
    return left if timeout is None else min(timeout, left)


class _DeadlineStream(httpcore.NetworkStream):
    """A network stream whose every read and write ends by the response deadline."""

    def __init__(self, inner: httpcore.NetworkStream) -> None:
        self.inner = inner

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self.inner.read(max_bytes, _bounded(timeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self.inner.write(buffer, _bounded(timeout))

    def close(self) -> None:
        self.inner.close()

    def start_tls(
        self,
        ssl_context: Any,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore.NetworkStream:
        upgraded = self.inner.start_tls(ssl_context, server_hostname, _bounded(timeout))
        return _DeadlineStream(upgraded)

    def get_extra_info(self, info: str) -> Any:
        return self.inner.get_extra_info(info)


class _DeadlineBackend(httpcore.NetworkBackend):
    """httpcore's network backend, with the streams it opens bounded by the
    deadline of the response being read (outside a polite request: unchanged)."""

    def __init__(self, inner: httpcore.NetworkBackend) -> None:
        self.inner = inner

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Any = None,
    ) -> httpcore.NetworkStream:
        stream = self.inner.connect_tcp(
            host, port, _bounded(timeout), local_address, socket_options
        )
        try:
            _check_peer(stream)
        except BaseException:
            stream.close()
            raise
        return _DeadlineStream(stream)

    def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Any = None
    ) -> httpcore.NetworkStream:
        return _DeadlineStream(
            self.inner.connect_unix_socket(path, _bounded(timeout), socket_options)
        )

    def sleep(self, seconds: float) -> None:
        self.inner.sleep(seconds)


class _CheckedAsyncBackend(httpcore.AsyncNetworkBackend):
    """httpcore's async network backend, with each new connection's peer address
    judged (the async face bounds time with ``asyncio.wait_for`` instead)."""

    def __init__(self, inner: httpcore.AsyncNetworkBackend) -> None:
        self.inner = inner

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Any = None,
    ) -> httpcore.AsyncNetworkStream:
        stream = await self.inner.connect_tcp(host, port, timeout, local_address, socket_options)
        try:
            _check_peer(stream)
        except BaseException:
            await stream.aclose()
            raise
        return stream

    async def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Any = None
    ) -> httpcore.AsyncNetworkStream:
        return await self.inner.connect_unix_socket(path, timeout, socket_options)

    async def sleep(self, seconds: float) -> None:
        await self.inner.sleep(seconds)


def _guard_connections(transport: httpx.BaseTransport | httpx.AsyncBaseTransport) -> None:
    """Put :class:`_DeadlineBackend` (sync) or :class:`_CheckedAsyncBackend` under
    an httpx transport's connection pool (httpx has no public hook for it); other
    transports keep the watchdog and the screening before the request only."""
    pool = getattr(transport, "_pool", None)
    backend = getattr(pool, "_network_backend", None)
    if isinstance(backend, httpcore.NetworkBackend) and not isinstance(backend, _DeadlineBackend):
        pool._network_backend = _DeadlineBackend(backend)  # type: ignore[union-attr]
    elif isinstance(backend, httpcore.AsyncNetworkBackend) and not isinstance(
        backend, _CheckedAsyncBackend
    ):
        pool._network_backend = _CheckedAsyncBackend(backend)  # type: ignore[union-attr]


class _Watchdog:
    """Shuts the sockets of a request down at its deadline, so that a server
    dripping headers or body cannot hold a blocking read past it."""

    def __init__(self, seconds: float) -> None:
        self.fired = threading.Event()
        self.sockets: list[socket.socket] = []
        self.timer = threading.Timer(max(seconds, 0.0), self._fire)
        self.timer.daemon = True

    def trace(self, name: str, info: dict[str, Any]) -> None:
        if name.endswith(("connect_tcp.complete", "start_tls.complete")):
            self.watch(info.get("return_value"))

    def watch(self, stream: Any) -> None:
        sock = stream.get_extra_info("socket") if stream is not None else None
        if isinstance(sock, socket.socket):
            self.sockets.append(sock)
            if self.fired.is_set():
                self._fire()

    def _fire(self) -> None:
        self.fired.set()
        for sock in self.sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    def __enter__(self) -> _Watchdog:
        self.timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.timer.cancel()


class PoliteTransport(_PoliteBase, httpx.BaseTransport):
    """A sync httpx transport that fetches only what a polite robot may, when it may."""

    __doc__ = (__doc__ or "") + _CORE_DOC

    def __init__(
        self,
        inner: httpx.BaseTransport | None = None,
        *,
        identity: Identity | None = None,
        policy: PacingPolicy | None = None,
        pacer: Pacer | None = None,
        limits: FetchLimits | None = None,
        addresses: AddressPolicy | None = None,
        allow_private: bool = False,
        robots: RobotsChecker | None = None,
        robots_options: RobotsOptions | None = None,
        check_robots: bool = True,
        guard: GuardHook | None = None,
        scope: ScopeHook | None = None,
        validators: ValidatorStore | None = None,
        clock: Clock = system_clock,
        resolver: Resolver = system_resolver,
        parse_html: bool = True,
    ) -> None:
        self._setup(
            identity,
            policy,
            pacer,
            limits,
            addresses,
            allow_private,
            guard,
            scope,
            validators,
            clock,
            parse_html,
        )
        self.inner = inner if inner is not None else httpx.HTTPTransport()
        _guard_connections(self.inner)
        self.slots = _SyncSlots(self.core)
        self.resolver = resolver
        self.robots_transport = PacedTransport(
            self.inner, self.slots, lambda request: self._drive(self.core.screen(request))
        )
        self._own_robots = robots is None and check_robots
        self.robots = robots
        if self._own_robots:
            self.robots = RobotsChecker(
                self.core.identity,
                options=robots_options or RobotsOptions(),
                transport=self.robots_transport,
                clock=clock,
            )

    def _drive(self, steps: Generator[_Step, object, _T]) -> _T:
        """Carry out what a core coroutine asks for, blocking."""
        answer: object = None
        try:
            while True:
                step = steps.send(answer)
                if isinstance(step, _Resolve):
                    try:
                        answer = self.resolver(step.host, step.port)
                    except (OSError, UnicodeError) as error:  # "a..b": an empty IDNA label
                        answer = error
                elif isinstance(step, _Robots):
                    assert self.robots is not None
                    answer = self.robots.check(step.url)
                elif isinstance(step, _Parse):
                    answer = step.run()
                else:
                    time.sleep(step.seconds)
                    answer = None
        except StopIteration as done:
            result: _T = done.value
            return result

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        core = self.core
        ready = self._drive(core.before(request, self.robots is not None))
        ticket, waited = self.slots.acquire(ready.url, ready.key)
        started = core.clock()
        status: int | None = None
        headers: httpx.Headers | None = None
        timeout = core.limits.response_timeout
        deadline = time.monotonic() + timeout
        core.deadline_timeouts(request, timeout)
        user_trace = request.extensions.get("trace")
        with _Watchdog(timeout) as watchdog:

            def trace(name: str, info: dict[str, Any]) -> None:
                watchdog.trace(name, info)
                if user_trace is not None:
                    user_trace(name, info)

            request.extensions["trace"] = trace
            outer_deadline, _DEADLINE.at = getattr(_DEADLINE, "at", None), deadline
            checking = _PEER_CHECK.set(core.peer_judge(ready.url, ready.chain, ready.is_hop))
            try:
                inner = self.inner.handle_request(request)
                try:
                    watchdog.watch(inner.extensions.get("network_stream"))
                    status, headers = inner.status_code, inner.headers
                    body = CappedBody(
                        headers.get_list("content-encoding"), core.limits.max_body_bytes, request
                    )
                    assert isinstance(inner.stream, httpx.SyncByteStream)
                    for chunk in inner.stream:
                        if watchdog.fired.is_set() or time.monotonic() > deadline:
                            break
                        if not body.feed(chunk):
                            break
                    # A cut socket may look like the end of a close-delimited body.
                    if watchdog.fired.is_set() or time.monotonic() > deadline:
                        raise _too_slow(request, timeout)
                finally:
                    inner.close()
            except BaseException as error:
                answered = isinstance(error, httpx.DecodingError)
                self.slots.release(ticket, status if answered else None, headers, error)
                late = isinstance(error, httpx.TimeoutException) and time.monotonic() >= deadline
                if (watchdog.fired.is_set() or late) and not isinstance(error, ResponseTooSlow):
                    raise _too_slow(request, timeout) from error
                raise
            finally:
                _DEADLINE.at = outer_deadline
                _PEER_CHECK.reset(checking)
                request.extensions.pop("trace", None)
                if user_trace is not None:
                    request.extensions["trace"] = user_trace
        retry_at = self.slots.release(ticket, status, headers)
        return self._drive(core.respond(request, ready, inner, body, retry_at, started, waited))

    def close(self) -> None:
        if self._own_robots and self.robots is not None:
            self.robots.close()
        self.inner.close()


# --------------------------------------------------------------------------------------
# Async


class _AsyncSlots:
    """Waits for pacing slots on the event loop. Waiting for one host never holds up
    another: a waiter sleeps until its host's time, or, when its host (or the
    global in-flight limit) is full, until that host (or any host) frees a slot;
    a release wakes only those waiters."""

    def __init__(self, core: _Core) -> None:
        self.core = core
        self._freed: dict[HostKey | None, asyncio.Event] = {}

    async def acquire(self, url: str, key: HostKey) -> tuple[Ticket, float]:
        begun = time.monotonic()
        core = self.core
        while True:
            wait = core.slot_wait(url, key)
            if wait == 0.0:
                return core.pacer.start(key), time.monotonic() - begun
            if wait is not None:
                await asyncio.sleep(wait)
                continue
            host_full = core.pacer.state(key).in_flight >= core.pacer.policy.per_host_concurrency
            which = key if host_full else None
            event = self._freed.get(which)
            if event is None:
                event = self._freed[which] = asyncio.Event()
            await event.wait()

    def release(
        self,
        ticket: Ticket,
        status: int | None,
        headers: httpx.Headers | None,
        error: BaseException | None = None,
    ) -> float | None:
        retry_at = self.core.ended(ticket, status, headers, error)
        for which in (ticket.host, None):
            event = self._freed.pop(which, None)
            if event is not None:
                event.set()
        return retry_at


class _AsyncReleasingStream(_ReleaseOnce, httpx.AsyncByteStream):
    def __init__(self, inner: httpx.AsyncByteStream, release: Callable[[], object]) -> None:
        super().__init__(release)
        self.inner = inner

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self.inner:
            yield chunk

    async def aclose(self) -> None:
        try:
            await self.inner.aclose()
        finally:
            self.release_once()


class AsyncPacedTransport(httpx.AsyncBaseTransport):
    """The async :class:`PacedTransport`."""

    def __init__(
        self,
        inner: httpx.AsyncBaseTransport,
        slots: _AsyncSlots,
        screen: Callable[[httpx.Request], Awaitable[None]] | None = None,
    ) -> None:
        self.inner = inner
        self.slots = slots
        self.screen = screen

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        url = str(request.url)
        if self.screen is not None:
            await self.screen(request)
        ticket, _ = await self.slots.acquire(url, host_key(url))
        checking = _PEER_CHECK.set(self.slots.core.peer_judge(url, _Chain(), False))
        try:
            response = await self.inner.handle_async_request(request)
        except BaseException as error:
            self.slots.release(ticket, None, None, error)
            raise
        finally:
            _PEER_CHECK.reset(checking)
        assert isinstance(response.stream, httpx.AsyncByteStream)
        release = partial(self.slots.release, ticket, response.status_code, response.headers)
        return _wrapped(response, _AsyncReleasingStream(response.stream, release))

    async def aclose(self) -> None:
        """The inner transport belongs to the polite transport, which closes it."""


class AsyncPoliteTransport(_PoliteBase, httpx.AsyncBaseTransport):
    """The async :class:`PoliteTransport`: same checks, same core; the total time
    of a response is enforced by ``asyncio.wait_for``."""

    __doc__ = (__doc__ or "") + _CORE_DOC

    def __init__(
        self,
        inner: httpx.AsyncBaseTransport | None = None,
        *,
        identity: Identity | None = None,
        policy: PacingPolicy | None = None,
        pacer: Pacer | None = None,
        limits: FetchLimits | None = None,
        addresses: AddressPolicy | None = None,
        allow_private: bool = False,
        robots: AsyncRobotsChecker | None = None,
        robots_options: RobotsOptions | None = None,
        check_robots: bool = True,
        guard: GuardHook | None = None,
        scope: ScopeHook | None = None,
        validators: ValidatorStore | None = None,
        clock: Clock = system_clock,
        resolver: AsyncResolver | None = None,
        parse_html: bool = True,
    ) -> None:
        self._setup(
            identity,
            policy,
            pacer,
            limits,
            addresses,
            allow_private,
            guard,
            scope,
            validators,
            clock,
            parse_html,
        )
        self.inner = inner if inner is not None else httpx.AsyncHTTPTransport()
        _guard_connections(self.inner)
        self.slots = _AsyncSlots(self.core)
        self.resolver = resolver
        self.robots_transport = AsyncPacedTransport(
            self.inner, self.slots, lambda request: self._drive(self.core.screen(request))
        )
        self._own_robots = robots is None and check_robots
        self.robots = robots
        if self._own_robots:
            self.robots = AsyncRobotsChecker(
                self.core.identity,
                options=robots_options or RobotsOptions(),
                transport=self.robots_transport,
                clock=clock,
            )

    async def _resolve(self, host: str, port: int) -> Sequence[str]:
        if self.resolver is None:
            loop = asyncio.get_running_loop()
            return _addresses(await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM))
        result = self.resolver(host, port)
        return await result if inspect.isawaitable(result) else result

    async def _drive(self, steps: Generator[_Step, object, _T]) -> _T:
        """Carry out what a core coroutine asks for, on the event loop."""
        answer: object = None
        try:
            while True:
                step = steps.send(answer)
                if isinstance(step, _Resolve):
                    try:
                        answer = await self._resolve(step.host, step.port)
                    except (OSError, UnicodeError) as error:  # "a..b": an empty IDNA label
                        answer = error
                elif isinstance(step, _Robots):
                    assert self.robots is not None
                    answer = await self.robots.check(step.url)
                elif isinstance(step, _Parse):
                    big = len(step.html) > OFF_LOOP
                    answer = await asyncio.to_thread(step.run) if big else step.run()
                else:
                    await asyncio.sleep(step.seconds)
                    answer = None
        except StopIteration as done:
            result: _T = done.value
            return result

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        core = self.core
        ready = await self._drive(core.before(request, self.robots is not None))
        ticket, waited = await self.slots.acquire(ready.url, ready.key)
        started = core.clock()
        timeout = core.limits.response_timeout
        core.deadline_timeouts(request, timeout)
        received: list[httpx.Response] = []
        bodies: list[CappedBody] = []

        async def fetch() -> None:
            inner = await self.inner.handle_async_request(request)
            received.append(inner)
            try:
                encoding = inner.headers.get_list("content-encoding")
                body = CappedBody(encoding, core.limits.max_body_bytes, request)
                bodies.append(body)
                assert isinstance(inner.stream, httpx.AsyncByteStream)
                async for chunk in inner.stream:
                    if not body.feed(chunk):
                        break
            finally:
                await inner.aclose()

        checking = _PEER_CHECK.set(core.peer_judge(ready.url, ready.chain, ready.is_hop))
        try:
            await asyncio.wait_for(fetch(), timeout)
        except BaseException as error:
            answered = bool(received) and isinstance(error, httpx.DecodingError)
            status = received[0].status_code if answered else None
            answer = received[0].headers if answered else None
            self.slots.release(ticket, status, answer, error)
            if isinstance(error, asyncio.TimeoutError):
                raise _too_slow(request, timeout) from None
            raise
        finally:
            _PEER_CHECK.reset(checking)
        inner, body = received[0], bodies[0]
        retry_at = self.slots.release(ticket, inner.status_code, inner.headers)
        responding = core.respond(request, ready, inner, body, retry_at, started, waited)
        return await self._drive(responding)

    async def aclose(self) -> None:
        if self._own_robots and self.robots is not None:
            await self.robots.aclose()
        await self.inner.aclose()
