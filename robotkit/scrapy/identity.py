"""An honest identity for a Scrapy crawl: User-Agent checked, From sent.

The User-Agent is Scrapy's own ``USER_AGENT``; at start it must pass robotkit's
:class:`~robotkit.base.identity.Identity` check (a product token, no browser
imitation, RFC 9110 section 10.1.5), and ``ROBOTKIT_FROM`` must be a mailbox
(RFC 9110 section 10.1.2). A robot that gives no contact gets a warning, and so
does one that keeps Scrapy's default User-Agent, which names Scrapy's site
rather than the operator. From goes on every request, robots.txt included; the
Referer stays Scrapy's (its RefererMiddleware and ``REFERER_POLICY``).
"""

from __future__ import annotations

import logging

from scrapy import Request, Spider
from scrapy.crawler import Crawler
from scrapy.exceptions import UsageError
from scrapy.settings import default_settings

from robotkit.base.identity import Identity, IdentityError, warn_if_anonymous
from robotkit.scrapy.state import crawl_state

log = logging.getLogger(__name__)


def check_identity(user_agent: str, from_: str | None) -> Identity:
    """The crawl's identity, or a UsageError saying what a site owner would miss."""
    try:
        identity = Identity(user_agent=user_agent, from_=from_)
    except IdentityError as error:
        raise UsageError(f"robotkit: {error}") from None
    if user_agent == default_settings.USER_AGENT:
        log.warning(
            "USER_AGENT is Scrapy's default %r: it points to Scrapy's site, not to "
            "whoever runs this robot; set USER_AGENT (and ROBOTKIT_FROM)",
            user_agent,
        )
    warn_if_anonymous(identity)
    return identity


class IdentityMiddleware:
    """Downloader middleware: checks the identity at start, adds From."""

    def __init__(self, identity: Identity) -> None:
        self.identity = identity

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> IdentityMiddleware:
        cfg = crawl_state(crawler).settings
        return cls(check_identity(cfg.user_agent, cfg.from_))

    def process_request(self, request: Request, spider: Spider | None = None) -> None:
        if self.identity.from_ and b"From" not in request.headers:
            request.headers[b"From"] = self.identity.from_
