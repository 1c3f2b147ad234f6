"""What a response says, as robotkit read it: :class:`FetchFacts`, handed back in
``response.extensions["robotkit"]`` by both polite transports."""

from __future__ import annotations

from dataclasses import dataclass

import httpx

from robotkit.base.outcome import Outcome
from robotkit.page.directives import RobotsDirectives
from robotkit.page.meta import PageMeta
from robotkit.robots.freshness import Validators
from robotkit.robots.status import Hop
from robotkit.robots.verdict import Verdict

EXTENSION = "robotkit"
"""The key of :class:`FetchFacts` in ``response.extensions``."""


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
