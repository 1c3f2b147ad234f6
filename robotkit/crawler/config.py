"""How a crawl behaves (:class:`CrawlConfig`), and the polite client it fetches with.

Apart from the loop so that every part of the crawler (the loop, one URL's fetch,
the protocols between them) can read the configuration without importing the loop.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import httpx

from robotkit.base.clock import Clock
from robotkit.base.identity import Identity
from robotkit.http.checker import RobotsOptions
from robotkit.http.client import AsyncPoliteClient
from robotkit.http.settings import CRAWL_MAX_BODY, GuardHook
from robotkit.http.transport import AddressPolicy, AsyncPoliteTransport, FetchLimits
from robotkit.pacing.pacer import PacingPolicy
from robotkit.triage.triage import TriageConfig
from robotkit.url.normalization import normalize
from robotkit.url.parse import InvalidURL

if TYPE_CHECKING:  # the ``redis`` extra: imported only by a crawl shared on Redis
    from robotkit.shared.state import SharedState

__all__ = ["CrawlConfig", "is_loopback_url", "polite_client"]


@dataclass(frozen=True)
class CrawlConfig:
    """How a crawl behaves; the defaults are ``robotkit crawl``'s.

    ``max_defer``: the longest the crawl waits for a host that asked it to come back
    later (robots.txt 5xx, 429/503 Retry-After, backoff); a longer wait skips the URL
    with the deferral's reason, so a crawl always ends by itself. ``retries``: how
    often a URL that got 429/5xx or a network error is tried again (Scrapy's default
    is 2). ``response_timeout`` 10 s: the total deadline of one response, body
    included, as Nutch's ``http.timeout``; a tarpit costs at most that per URL, and
    the triage's breaker stops a path family after two. ``triage``: the trap
    policy's limits (:class:`robotkit.triage.triage.TriageConfig`).
    """

    max_pages: int = 1000
    max_depth: int | None = None
    delay: float = 1.0
    robots: RobotsOptions = field(default_factory=RobotsOptions)
    allow_private: bool = False
    response_timeout: float = 10.0
    max_body_bytes: int = CRAWL_MAX_BODY
    max_defer: float = 30.0
    concurrency: int = 16
    host_budget: int | None = None
    soft404_probes: bool = True
    retries: int = 2
    checkpoint_every: int = 50
    triage: TriageConfig = field(default_factory=TriageConfig)

    def __post_init__(self) -> None:
        if self.max_pages < 0:
            raise ValueError("max_pages must be >= 0")
        if self.max_depth is not None and self.max_depth < 0:
            raise ValueError("max_depth must be >= 0")
        if self.delay < 0 or self.max_defer < 0 or self.response_timeout <= 0:
            raise ValueError("delay and max_defer must be >= 0, response_timeout > 0")
        if self.concurrency < 1 or self.retries < 0:
            raise ValueError("concurrency must be >= 1, retries >= 0")


def is_loopback_url(url: str) -> bool:
    """Whether ``url`` names a loopback address literally (127.0.0.0/8, ``[::1]``
    or ``localhost``): no resolver is involved, so there is nothing to forge."""
    try:
        host = normalize(url).host
    except InvalidURL:
        return False
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def polite_client(
    config: CrawlConfig,
    inner: httpx.AsyncBaseTransport | None,
    *,
    identity: Identity,
    guard: GuardHook,
    scope: Callable[[str], bool],
    clock: Clock,
    shared: SharedState | None,
) -> AsyncPoliteClient:
    """The client a crawl fetches every page and probe with: ``inner`` (the httpx
    transport, None for the network) under the polite transport, paced by
    ``config``, checking each request with ``guard`` and each redirect hop against
    ``scope``; its robots.txt cache and pacing on Redis when ``shared`` is given."""
    policy = PacingPolicy(delay=config.delay, max_in_flight=config.concurrency)
    # The transport may wait out any pace a host can ask for (the delay, a
    # Crawl-delay up to its ceiling); longer holds come back to the crawler.
    wait = max(config.max_defer, config.delay, policy.max_crawl_delay) + 1.0
    on_redis: dict[str, Any] = {} if shared is None else {"shared": shared}
    transport = AsyncPoliteTransport(
        inner,
        **on_redis,
        identity=identity,
        policy=policy,
        limits=FetchLimits(
            max_body_bytes=config.max_body_bytes,
            response_timeout=config.response_timeout,
            max_wait=wait,
        ),
        addresses=AddressPolicy(allow_private=config.allow_private),
        robots_options=config.robots,
        guard=guard,
        scope=scope,
        clock=clock,
        read_text=True,  # the triage's content rules read the words of every page
    )
    return AsyncPoliteClient(transport=transport, timeout=config.response_timeout)
