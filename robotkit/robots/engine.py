"""The sans-I/O robots.txt engine: facts in, verdicts or "fetch this" out.

In the style of h11, the engine never touches a socket or a clock. ``check`` gives
a :class:`Verdict` when the origin's answer is known and fresh, else a
:class:`FetchNeeded`. The shell performs that one GET (no automatic redirects),
and hands the :class:`RobotsResponse` to ``receive``, which answers either the
next :class:`FetchNeeded` (a redirect to follow) or the origin's new
:class:`OriginState`; ``decide`` then turns that state into the verdict. One
engine serves the sync and async shells, or any crawler's own fetcher.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from robotkit.robots import freshness
from robotkit.robots.cache import DEFAULT_CACHE_SIZE, OriginState, RobotsCache
from robotkit.robots.freshness import Headers, Validators
from robotkit.robots.rules import RobotsRules
from robotkit.robots.status import (
    MAX_REDIRECTS,
    UNREACHABLE_GRACE,
    FetchFailure,
    Hop,
    Profile,
    RobotsOutcome,
    classify,
    is_redirect,
)
from robotkit.robots.verdict import Verdict, decide, decide_rest, invalid_verdict
from robotkit.url.parse import InvalidURL, Origin, origin_of, parse_url, resolve

_AUTHORITY_FROM = len("https://")
"""Where a hot URL's authority ends is looked for from here on: a valid URL is
``http://`` or ``https://`` with a non-empty host, so no ``/`` at or after this
index can belong to the scheme, and none before it can end the authority."""


def _hot_prefix(url: str) -> str | None:
    """The ``scheme://authority`` of ``url`` when that prefix alone decides whether
    the URL is valid and what its origin is, else None.

    That holds when the URL has a path (the authority ends at its first ``/``,
    RFC 3986 section 3.2, and holds no ``?`` or ``#`` that would end it sooner),
    no control or other unprintable character anywhere, and no trailing space
    (the parser strips, and rejects control characters wherever they are), and
    nothing the parser rewrites in the path (see :func:`_as_parsed`).
    The prefix is cut at the first ``/`` from :data:`_AUTHORITY_FROM`; where that
    is not where the authority ends, the prefix itself is no valid URL, and only
    valid prefixes are remembered. Only such prefixes enter the cache's front, and
    :meth:`RobotsEngine.check` relies on that: the same cut of any URL gives a
    prefix that either is one of them or is in no front at all.
    """
    end = url.find("/", _AUTHORITY_FROM)
    if end < 0 or not _as_parsed(url):
        return None
    prefix = url[:end]
    return None if "?" in prefix or "#" in prefix else prefix


def _as_parsed(url: str) -> bool:
    """Whether the text after the authority is already the parsed request target
    (:attr:`robotkit.url.parse.ParsedURL.target`, up to escapes the matcher makes anyway):
    no control or unprintable character, no trailing space, no ``\\`` and no dot
    segment. Then the raw text may be matched as it is."""
    return url.isprintable() and url[-1] != " " and "/." not in url and "\\" not in url


def _origin_of_prefix(prefix: str) -> Origin | None:
    """:func:`robotkit.url.parse.origin_of` of ``scheme://authority`` (the parser's own
    cache remembers it: a crawl checks many URLs of few origins); None when invalid,
    for the caller to raise the error for the whole URL."""
    try:
        return origin_of(prefix)
    except InvalidURL:
        return None


@dataclass(frozen=True)
class FetchNeeded:
    """Ask the shell for one GET of ``url`` with ``headers`` (conditional headers
    when revalidating), without following redirects."""

    origin: Origin
    url: str
    headers: Mapping[str, str] = field(default_factory=dict)
    redirects: tuple[Hop, ...] = ()
    basis: OriginState | None = None
    """The stale entry this fetch replaces (validators, backoff streak)."""

    @property
    def robots_url(self) -> str:
        return self.origin.robots_url


@dataclass(frozen=True)
class RobotsResponse:
    """The facts of one answer: an HTTP status with headers and (at most 500 KiB
    of) body, or a failure to get any answer."""

    status: int | None
    headers: Headers = field(default_factory=Headers)
    body: bytes = b""
    failure: FetchFailure | None = None
    detail: str = ""

    @classmethod
    def http(
        cls,
        status: int,
        headers: Iterable[tuple[str, str]] | Mapping[str, str] = (),
        body: bytes = b"",
    ) -> RobotsResponse:
        return cls(status=status, headers=Headers(headers), body=body)

    @classmethod
    def failed(cls, failure: FetchFailure, detail: str = "") -> RobotsResponse:
        return cls(status=None, failure=failure, detail=detail or failure.value)


class RobotsEngine:
    """robots.txt decisions for many origins, with their cache.

    ``min_ttl`` is the freshness floor (ARCHITECTURE.md, ``--robots-min-ttl``); it also
    bounds how soon a deferred origin is asked again.
    """

    def __init__(
        self,
        *,
        profile: Profile = Profile.CLASSIC,
        min_ttl: float = freshness.DEFAULT_MIN_TTL,
        cache_size: int = DEFAULT_CACHE_SIZE,
        fixed: OriginState | None = None,
    ) -> None:
        """``fixed`` answers every origin from one state (a local file, see
        :func:`file_state`) and never asks for a fetch."""
        if min_ttl < 0:
            raise ValueError("min_ttl must not be negative")
        self.profile = profile
        self.min_ttl = min(min_ttl, freshness.MAX_TTL)
        self.cache = RobotsCache(cache_size, keep_good_copies=profile is Profile.RFC9309)
        self._front = self.cache.front  # the same dict, for one attribute less
        self.fixed = fixed
        self.keep_text = False
        """Keep each parsed file's text in its rules (:attr:`RobotsRules.text`), for a
        cache shared with other processes; off by default, to save the memory."""

    # -- the three steps -------------------------------------------------------

    def check(self, url: str, product_token: str, now: float) -> Verdict | FetchNeeded:
        """A verdict from what is known, or the fetch that must come first."""
        # The hot path: the origin's fresh state in the cache's front, found by
        # the URL's scheme://authority in one dict probe (see _hot_prefix).
        end = url.find("/", _AUTHORITY_FROM)
        if end > 0:
            state = self._front.get(url[:end])
            if state is not None and now < state.expires_at and _as_parsed(url):
                return decide_rest(url, url[end:], state, product_token)
        found = self.lookup(url, now)
        if isinstance(found, OriginState):
            return decide(url, found, product_token, now)
        return found

    def lookup(self, url: str, now: float) -> OriginState | FetchNeeded | Verdict:
        """The fresh state of ``url``'s origin, the fetch it needs, or the
        verdict of an invalid URL. The part of :meth:`check` that touches the
        cache: a threaded shell holds its lock for this step only."""
        prefix = _hot_prefix(url)
        origin: Origin | None = None
        if prefix is not None:
            state = self._front.get(prefix)
            if state is not None and now < state.expires_at:
                return state
            origin = _origin_of_prefix(prefix)
            if origin is None:  # no valid URL: never remembered, the URL says why
                prefix = None
        if origin is None:
            try:
                origin = origin_of(url)
            except InvalidURL as error:
                return invalid_verdict(url, error)
        state = self.fixed if self.fixed is not None else self.cache.get(origin, now)
        if state is not None and state.is_fresh(now):
            if prefix is not None:
                self.cache.remember(prefix, state)
            return state
        return self._request(origin, origin.robots_url, (), state)

    def receive(
        self, request: FetchNeeded, response: RobotsResponse, now: float
    ) -> FetchNeeded | OriginState:
        """Take the answer to ``request``: the next hop to fetch, or the origin's
        new state (already stored in the cache)."""
        state = self._interpret(request, response, now)
        if isinstance(state, FetchNeeded):
            return state
        if state.origin is not None:
            self.cache.put(state.origin, state, now)
        return state

    def refuse(self, request: FetchNeeded, reason: str, now: float) -> OriginState:
        """Take the shell's refusal to send ``request``, a redirect hop (its
        address policy forbids the target: RFC 9309 section 2.3.1.2 lets a
        crawler stop following). Like a loop or an unusable target, the file
        counts as missing (allow all); the answer is cached like any other, so
        the origin's next pages do not fetch its robots.txt again."""
        if not request.redirects:
            raise ValueError("only a redirect hop can be refused; the first request is the page's")
        last = request.redirects[-1]
        state = self._answer(
            request,
            last.status,
            RobotsOutcome.ALLOW_ALL,
            RobotsResponse.http(last.status),
            now,
            detail=f"redirect to {request.url} not followed ({reason}); as 404",
        )
        if state.origin is not None:
            self.cache.put(state.origin, state, now)
        return state

    @staticmethod
    def decide(url: str, state: OriginState, product_token: str, now: float) -> Verdict:
        """The verdict for ``url`` from a state ``receive`` returned (or a file's)."""
        return decide(url, state, product_token, now)

    def state(self, origin: Origin, now: float) -> OriginState | None:
        """What is cached for ``origin`` (fresh or not)."""
        return self.cache.get(origin, now)

    # -- internals -------------------------------------------------------------

    def _request(
        self, origin: Origin, url: str, redirects: tuple[Hop, ...], basis: OriginState | None
    ) -> FetchNeeded:
        copy = basis.good_copy() if basis is not None else None
        headers: dict[str, str] = {}
        if copy is not None and copy.validators is not None and copy.final_url == url:
            headers = copy.validators.conditional_headers()
        return FetchNeeded(origin, url, headers, redirects, basis)

    def _interpret(
        self, request: FetchNeeded, response: RobotsResponse, now: float
    ) -> FetchNeeded | OriginState:
        if response.failure is not None or response.status is None:
            return self._unreachable(request, response, now)
        status = response.status
        location = response.headers.single("location")
        if is_redirect(status) and location and location.strip():
            return self._follow(request, status, location.strip(), now)
        basis = request.basis
        copy = basis.good_copy() if basis is not None else None
        if status == 304 and copy is not None and copy.validators is not None and request.headers:
            expires = now + freshness.lifetime(response.headers, now, self.min_ttl)
            return copy.renewed(now, expires, copy.validators.updated(response.headers))
        outcome = classify(status, self.profile)
        if outcome is RobotsOutcome.DEFERRED:
            return self._unreachable(request, response, now)
        return self._answer(request, status, outcome, response, now)

    def _answer(
        self,
        request: FetchNeeded,
        status: int,
        outcome: RobotsOutcome,
        response: RobotsResponse,
        now: float,
        redirects: tuple[Hop, ...] | None = None,
        detail: str = "",
    ) -> OriginState:
        """The server answered for itself: store what it said."""
        rules = (
            RobotsRules.parse(response.body, keep_text=self.keep_text)
            if outcome is RobotsOutcome.RULES
            else None
        )
        if not detail:
            detail = f"HTTP {status}"
            if rules is not None and rules.truncated:
                detail += "; body cut at 500 KiB"
        return OriginState(
            origin=request.origin,
            robots_url=request.robots_url,
            outcome=outcome,
            status=status,
            fetched_at=now,
            expires_at=now + freshness.lifetime(response.headers, now, self.min_ttl),
            rules=rules,
            final_url=request.url,
            redirects=request.redirects if redirects is None else redirects,
            validators=Validators.from_headers(response.headers)
            if outcome is RobotsOutcome.RULES
            else None,
            detail=detail,
        )

    def _follow(
        self, request: FetchNeeded, status: int, location: str, now: float
    ) -> FetchNeeded | OriginState:
        """RFC 9309 section 2.3.1.2: follow up to five redirects, to any host; the
        rules still govern the original origin. A loop, a 6th redirect or an
        unusable target count as "no file" (allow all), like a 404."""
        joined = resolve(request.url, location)
        target = location if joined is None else joined
        chain = (*request.redirects, Hop(request.url, status, target))
        visited = {request.robots_url, request.url, *(hop.url for hop in request.redirects)}
        problem = ""
        try:
            target = parse_url(target).href
        except InvalidURL as error:
            problem = f"redirect to an unusable URL ({error.detail})"
        if not problem and target in visited:
            problem = "redirect loop"
        elif not problem and len(chain) > MAX_REDIRECTS:
            problem = f"more than {MAX_REDIRECTS} redirects"
        if problem:
            as_404 = RobotsResponse.http(status)
            return self._answer(
                request, status, RobotsOutcome.ALLOW_ALL, as_404, now, chain, problem
            )
        return self._request(request.origin, target, chain, request.basis)

    def _unreachable(
        self, request: FetchNeeded, response: RobotsResponse, now: float
    ) -> OriginState:
        """429, 5xx, network error or timeout: defer the whole origin until
        Retry-After or the next backoff step (RFC 9309 section 2.3.1.4). In the
        rfc9309 profile, once the streak has lasted 30 days, fall back to the
        last good copy, or to allow-all when there is none."""
        basis = request.basis
        in_streak = basis is not None and basis.unreachable
        failures = (basis.failures if basis is not None and in_streak else 0) + 1
        since = basis.unreachable_since if basis is not None and in_streak else now
        assert since is not None
        last_good = basis.good_copy() if basis is not None else None
        headers = response.headers if response.failure is None else None
        hold = freshness.defer_for(headers, failures, now, self.min_ttl)
        what = response.detail if response.failure is not None else f"HTTP {response.status}"
        deferred = OriginState(
            origin=request.origin,
            robots_url=request.robots_url,
            outcome=RobotsOutcome.DEFERRED,
            status=response.status,
            fetched_at=now,
            expires_at=now + hold,
            final_url=request.url,
            redirects=request.redirects,
            failures=failures,
            unreachable_since=since,
            last_good=last_good,
            detail=f"unavailable ({what})",
        )
        if self.profile is not Profile.RFC9309 or now - since < UNREACHABLE_GRACE:
            return deferred
        if last_good is not None:
            return replace(
                deferred,
                outcome=last_good.outcome,
                rules=last_good.rules,
                redirects=last_good.redirects,
                detail=f"unavailable for 30+ days ({what}); using the last good copy",
            )
        return replace(
            deferred,
            outcome=RobotsOutcome.ALLOW_ALL,
            detail=f"unavailable for 30+ days ({what}); no copy, allow all",
        )


def file_state(rules: RobotsRules, source: str) -> OriginState:
    """A local robots.txt (``--robots-file``) applied to every origin: no status,
    never stale."""
    return OriginState(
        robots_url=source,
        outcome=RobotsOutcome.RULES,
        status=None,
        fetched_at=0.0,
        expires_at=float("inf"),
        rules=rules,
        detail="local file" + ("; cut at 500 KiB" if rules.truncated else ""),
    )
