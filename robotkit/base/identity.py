"""Who the robot is, said honestly in every request.

A polite robot names itself (RFC 9110 section 10.1.5, User-Agent), gives a way to
reach its operator (RFC 9110 section 10.1.2, From: a mailbox), and never poses as a
browser. The same product token that opens the User-Agent is the name it answers to
in robots.txt (RFC 9309 section 2.2.1).
"""

from __future__ import annotations

import logging
import re
import threading
from dataclasses import dataclass, field

from robotkit._version import __version__
from robotkit.base.errors import UsageError

DEFAULT_ACCEPT = "text/html,application/xhtml+xml;q=0.9,text/plain;q=0.8,*/*;q=0.5"
"""A crawler's Accept: HTML first, anything else acceptable at a lower weight."""

DEFAULT_USER_AGENT = f"robotkit/{__version__}"
"""Names the library and nothing more: robotkit has no page of its own to point to,
and an invented contact URL would not be honest. A robot in production should say
who runs it: ``Identity.build("ExampleBot", "1.0", "https://example.org/bot",
from_="ops@example.org")``."""

# A pragmatic addr-spec check (RFC 5322 section 3.4.1 without comments or quoted
# local parts): one @, a dot-atom local part, a domain with at least one dot.
_EMAIL = re.compile(
    r"^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*"
    r"@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$"
)
_TOKEN_END = re.compile(r"[/\s]")
_CONTACT_URL = re.compile(r"https?://", re.IGNORECASE)

log = logging.getLogger(__name__)
"""Where the no-contact warning goes; with no logging set up, Python prints a
warning on stderr. Silence it with ``log.setLevel(logging.ERROR)``."""
_warned: set[str] = set()
_warned_lock = threading.Lock()
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")
_IDENTIFYING = frozenset({"user-agent", "from"})
# A User-Agent that opens with a browser's product token hides the robot, and
# would also make it answer to the browser's name in robots.txt.
_BROWSER_TOKENS = frozenset({"mozilla", "opera", "chrome", "safari"})


class IdentityError(UsageError):
    """An identity that would not let a site owner tell who the robot is."""


def product_token(user_agent: str) -> str:
    """The robots.txt name of a robot: its User-Agent up to the first ``/`` or space.

    ``ExampleBot/1.0 (+https://example.org/bot)`` answers to ``ExampleBot``
    (RFC 9309 section 2.2.1; matching is case-insensitive and done by the rules).
    """
    stripped = user_agent.strip()
    match = _TOKEN_END.search(stripped)
    return stripped[: match.start()] if match else stripped


def is_valid_email(address: str) -> bool:
    return bool(_EMAIL.match(address)) and len(address) <= 254


@dataclass(frozen=True)
class Identity:
    """The headers by which a site recognises this robot."""

    user_agent: str = DEFAULT_USER_AGENT
    from_: str | None = None
    accept: str = DEFAULT_ACCEPT
    extra_headers: tuple[tuple[str, str], ...] = field(default=())

    def __post_init__(self) -> None:
        if not self.user_agent.strip() or not product_token(self.user_agent):
            raise IdentityError("the User-Agent must start with a product token")
        if product_token(self.user_agent).lower() in _BROWSER_TOKENS:
            raise IdentityError(
                f"the User-Agent {self.user_agent!r} imitates a browser; "
                "a robot must name itself honestly"
            )
        if self.from_ is not None and not is_valid_email(self.from_):
            raise IdentityError(f"From must be a valid email address, not {self.from_!r}")
        values = [self.user_agent, self.accept, *(v for pair in self.extra_headers for v in pair)]
        if any(_CONTROL.search(value) for value in values):
            # A CR or LF would let a value forge extra header lines (RFC 9110 5.5).
            raise IdentityError("header values must not contain control characters")
        for name, _ in self.extra_headers:
            if name.lower() in _IDENTIFYING:
                raise IdentityError(f"{name} is part of the identity; set it through Identity")

    @classmethod
    def build(
        cls,
        product: str,
        version: str | None = None,
        contact_url: str | None = None,
        from_: str | None = None,
    ) -> Identity:
        """``build("ExampleBot", "1.0", "https://example.org/bot")`` gives
        ``ExampleBot/1.0 (+https://example.org/bot)``, the conventional form."""
        ua = product if version is None else f"{product}/{version}"
        if contact_url:
            ua += f" (+{contact_url})"
        return cls(user_agent=ua, from_=from_)

    @property
    def product_token(self) -> str:
        return product_token(self.user_agent)

    @property
    def has_contact(self) -> bool:
        """A site owner can reach the operator: a URL in the User-Agent (the
        ``(+https://...)`` convention) or a From mailbox (RFC 9110 section 10.1.2)."""
        return bool(self.from_) or bool(_CONTACT_URL.search(self.user_agent))

    def headers(self, referer: str | None = None) -> dict[str, str]:
        """The identifying headers of one request; Referer is the page that linked
        to it (RFC 9110 section 10.1.3), so a site can trace how the robot came."""
        headers = {"User-Agent": self.user_agent, "Accept": self.accept}
        if self.from_:
            headers["From"] = self.from_
        if referer:
            headers["Referer"] = referer
        headers.update(self.extra_headers)
        return headers


def warn_if_anonymous(identity: Identity) -> bool:
    """Log a warning, once per User-Agent in a process, when ``identity`` gives a
    site owner no way to reach the operator; True if it did now. A robot without a
    contact leaves a site owner only the choice to block it, and the default
    token is shared by every robotkit user, so a robots.txt group for it would
    bind them all."""
    if identity.has_contact:
        return False
    with _warned_lock:
        if identity.user_agent in _warned:
            return False
        _warned.add(identity.user_agent)
    log.warning(
        "the robot gives no contact: User-Agent %r has no URL and there is no From; "
        "a site owner cannot tell who runs it (set a contact URL in the User-Agent, "
        "or From: --from EMAIL on the command line)",
        identity.user_agent,
    )
    return True
