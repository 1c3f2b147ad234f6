"""How a polite transport behaves: one frozen settings object.

The public constructors (:class:`~robotkit.http.transport.PoliteTransport`,
:class:`~robotkit.http.transport.AsyncPoliteTransport`, the clients) keep their
keyword arguments, as httpx's do; :meth:`PoliteSettings.build` turns them into one
value, with every default filled in, that the core and both faces read. One value
instead of a keyword chain passed on by position: a setting added here reaches
every face, and none can be passed in the wrong place.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from robotkit.base.clock import Clock, system_clock
from robotkit.base.identity import Identity, warn_if_anonymous
from robotkit.http.addresses import AddressPolicy, AddressScreen, AsyncResolver
from robotkit.http.validators import ValidatorStore
from robotkit.pacing.pacer import Pacer, PacingPolicy
from robotkit.robots.cache import DEFAULT_CACHE_SIZE
from robotkit.robots.freshness import DEFAULT_MIN_TTL
from robotkit.robots.status import Profile
from robotkit.triage.guard import Guard, GuardVerdict

MIB = 1024 * 1024

DEFAULT_MAX_BODY = 10 * MIB
"""Body bytes a polite transport keeps by default: room for any page or document a
general client asks for, and still a bound on what one response can cost."""

CRAWL_MAX_BODY = 8 * MIB
"""Body bytes the reference crawler keeps per page by default (``robotkit crawl
--max-body``). Nutch keeps 1 MiB by default, Googlebot reads the first 15 MB of an
HTML file. 2 MiB cut real pages: a 2.5 MB table of contents lost every link past
the cut. 8 MiB holds real pages of a few megabytes, and a bigger page stays cheap
to read: the markup is bounded to :data:`robotkit.page.markup.MAX_NODES` elements,
links to :data:`robotkit.page.meta.MAX_LINKS`, the text the fingerprints read to
:data:`robotkit.content.fingerprints.MAX_TEXT_CHARS`. (robots.txt has its own,
500 KiB, set by RFC 9309 section 2.5: :data:`robotkit.robots.rules.MAX_ROBOTS_BYTES`.)"""

DEFAULT_RESPONSE_TIMEOUT = 30.0
DEFAULT_MAX_REDIRECTS = 5
DEFAULT_MAX_WAIT = 60.0

DEFAULT_DEADLINE = 10.0
"""Seconds one robots.txt fetch (all its redirects included) may take in total."""

DEFAULT_MAX_PARALLEL = 10
"""robots.txt fetches for different origins in flight at once."""


@dataclass(frozen=True)
class RobotsOptions:
    """How a checker treats robots.txt: one value to share between the CLI, the
    polite client and the crawler."""

    profile: Profile = Profile.CLASSIC
    min_ttl: float = DEFAULT_MIN_TTL
    """Freshness floor in seconds (``--robots-min-ttl``)."""
    deadline: float = DEFAULT_DEADLINE
    """Total seconds one fetch, redirects included, may take (``--timeout``)."""
    max_parallel: int = DEFAULT_MAX_PARALLEL
    """Fetches for different origins in flight at once."""
    cache_size: int = DEFAULT_CACHE_SIZE
    """Origins remembered at once."""

    def __post_init__(self) -> None:
        if not self.deadline > 0:
            raise ValueError("deadline must be positive")
        if self.max_parallel < 1:
            raise ValueError("max_parallel must be at least 1")
        if not self.min_ttl >= 0:
            raise ValueError("min_ttl must not be negative")


GuardHook = Guard | Callable[[str], GuardVerdict | None]
ScopeHook = Callable[[str], bool]


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
    wait raises :class:`~robotkit.http.errors.Deferred` with the time to come back."""
    wait_deferred: bool = False
    """Wait out a robots.txt deferral (up to ``max_wait``) instead of raising."""

    def __post_init__(self) -> None:
        if self.max_body_bytes < 0 or self.response_timeout <= 0 or self.max_redirects < 0:
            raise ValueError("limits must be positive")


@dataclass(frozen=True)
class PoliteSettings:
    """Everything a polite transport decides by, defaults filled in."""

    identity: Identity
    pacer: Pacer
    """Shared with the caller when given, so several transports pace together."""
    limits: FetchLimits
    screen: AddressScreen
    """The address policy with the resolver, for pages and robots.txt alike."""
    guard: GuardHook | None
    scope: ScopeHook | None
    validators: ValidatorStore
    """No store given, no conditional requests: a 304 has no body, so only a
    caller who keeps bodies should get one."""
    clock: Clock
    parse_html: bool
    read_text: bool
    check_robots: bool
    robots_options: RobotsOptions

    @classmethod
    def build(
        cls,
        *,
        identity: Identity | None = None,
        policy: PacingPolicy | None = None,
        pacer: Pacer | None = None,
        limits: FetchLimits | None = None,
        addresses: AddressPolicy | None = None,
        allow_private: bool = False,
        guard: GuardHook | None = None,
        scope: ScopeHook | None = None,
        validators: ValidatorStore | None = None,
        clock: Clock = system_clock,
        resolver: AsyncResolver | None = None,
        parse_html: bool = True,
        read_text: bool = False,
        check_robots: bool = True,
        robots_options: RobotsOptions | None = None,
    ) -> PoliteSettings:
        """The settings the transports' keyword arguments describe (``addresses``
        wins over ``allow_private``, ``pacer`` over ``policy``); warns once when
        the identity gives no contact."""
        identity = identity if identity is not None else Identity()
        warn_if_anonymous(identity)
        policy_ = addresses if addresses is not None else AddressPolicy(allow_private)
        return cls(
            identity=identity,
            pacer=pacer if pacer is not None else Pacer(clock, policy),
            limits=limits if limits is not None else FetchLimits(),
            screen=AddressScreen(policy_, resolver),
            guard=guard,
            scope=scope,
            validators=validators if validators is not None else ValidatorStore(max_urls=0),
            clock=clock,
            parse_html=parse_html,
            read_text=read_text,
            check_robots=check_robots,
            robots_options=robots_options if robots_options is not None else RobotsOptions(),
        )

    @classmethod
    def from_arguments(cls, arguments: Mapping[str, Any]) -> PoliteSettings:
        """:meth:`build` from a transport constructor's own arguments (its
        ``locals()``), taken by name: both faces take the same keywords, typed in
        their signatures, and one more list of them here could drift apart."""
        names = inspect.signature(cls.build).parameters
        return cls.build(**{name: arguments[name] for name in names if name in arguments})
