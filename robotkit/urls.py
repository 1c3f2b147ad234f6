"""URLs as a robot needs them: validity, origin keys and the robots.txt URL.

Pure functions, no I/O. Normalization for de-duplication lives here too (see
:func:`normalize`); robots.txt matching never uses it (DESIGN.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import SplitResult, urlsplit

from robotkit.reasons import Reason

SUPPORTED_SCHEMES = ("http", "https")
DEFAULT_PORTS = {"http": 80, "https": 443}


class InvalidURL(ValueError):
    """A URL the robot cannot fetch; ``reason`` is ``invalid-url`` or
    ``unsupported-scheme``."""

    def __init__(self, url: str, reason: Reason, detail: str) -> None:
        super().__init__(f"{detail}: {url!r}")
        self.url = url
        self.reason = reason
        self.detail = detail


@dataclass(frozen=True, order=True)
class Origin:
    """The key of a robots.txt file and of a cache entry: RFC 9309 section 2.3
    scopes a robots.txt to one scheme, host and port."""

    scheme: str
    host: str
    port: int

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        if DEFAULT_PORTS.get(self.scheme) == self.port:
            return f"{self.scheme}://{host}"
        return f"{self.scheme}://{host}:{self.port}"

    @property
    def robots_url(self) -> str:
        """RFC 9309 section 2.3: the file lives at ``/robots.txt`` of the origin."""
        return f"{self}/robots.txt"


def split_url(url: str) -> SplitResult:
    """Split an absolute http(s) URL, or raise :class:`InvalidURL` saying why."""
    if not isinstance(url, str):
        raise InvalidURL(repr(url), Reason.INVALID_URL, "not a string")
    text = url.strip()
    if not text:
        raise InvalidURL(url, Reason.INVALID_URL, "empty URL")
    if any(ord(c) < 0x20 or c == "\x7f" for c in text):
        raise InvalidURL(url, Reason.INVALID_URL, "control character in URL")
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as exc:
        raise InvalidURL(url, Reason.INVALID_URL, str(exc)) from None
    if not parts.scheme:
        raise InvalidURL(url, Reason.INVALID_URL, "not an absolute URL")
    scheme = parts.scheme.lower()
    if scheme not in SUPPORTED_SCHEMES:
        raise InvalidURL(url, Reason.UNSUPPORTED_SCHEME, f"unsupported scheme {scheme!r}")
    if not parts.hostname:
        raise InvalidURL(url, Reason.INVALID_URL, "no host")
    if port == 0:
        raise InvalidURL(url, Reason.INVALID_URL, "port 0")
    if any(c in parts.hostname for c in " <>\"{}|\\^`%"):
        raise InvalidURL(url, Reason.INVALID_URL, "invalid character in host")
    return parts


def origin_of(url: str) -> Origin:
    """The (scheme, host, port) of a URL, host lowercased and default port filled in."""
    parts = split_url(url)
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").rstrip(".").lower()
    return Origin(scheme, host, parts.port or DEFAULT_PORTS[scheme])


def robots_url(url: str) -> str:
    """The robots.txt URL that governs ``url``."""
    return origin_of(url).robots_url


def path_and_query(url: str) -> str:
    """What robots.txt rules are matched against: the path (``/`` if empty) and the
    query, exactly as written (RFC 9309 section 2.2.2 leaves normalization of
    percent-encoding to the matcher)."""
    parts = split_url(url)
    path = parts.path or "/"
    return f"{path}?{parts.query}" if parts.query else path
