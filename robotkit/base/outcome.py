"""What became of one fetch, as data a crawler can branch on.

The classes follow RFC 9110 section 15 (status codes) from a robot's point of view:
what to do next with the URL and with the host, not what the server meant in detail.
Pure: no I/O; the shell maps its exceptions to :class:`NetworkErrorKind`.
"""

from __future__ import annotations

from robotkit.base.reasons import CodeEnum


class Outcome(CodeEnum):
    """The class of a fetch result; the value is a stable code for logs."""

    OK = "ok"
    """2xx: content to use."""
    NOT_MODIFIED = "not-modified"
    """304 after a conditional request: the stored copy is still good (a success)."""
    REDIRECT = "redirect"
    """3xx other than 304: the content is elsewhere."""
    GONE = "gone"
    """404 or 410: drop the URL."""
    DENIED = "denied"
    """401 or 403: the robot is not welcome here."""
    RATE_LIMITED = "rate-limited"
    """429 (RFC 6585 section 4): slow down, honour Retry-After."""
    SERVER_ERROR = "server-error"
    """5xx: try later, back off from the host."""
    CLIENT_ERROR = "client-error"
    """Any other 4xx (400, 405, 451, ...): the request will not work as sent."""
    NETWORK_ERROR = "network-error"
    """No HTTP answer at all: DNS, connect, TLS, timeout, broken protocol."""

    @property
    def is_success(self) -> bool:
        """The host answered properly: a success relaxes the host's backoff."""
        return self not in _FAILURES

    @property
    def is_failure(self) -> bool:
        """The host is struggling or unreachable: back off from it."""
        return self in _FAILURES


_FAILURES = frozenset({Outcome.RATE_LIMITED, Outcome.SERVER_ERROR, Outcome.NETWORK_ERROR})


class NetworkErrorKind(CodeEnum):
    """Why no HTTP answer came."""

    DNS = "dns"
    CONNECT = "connect"
    TLS = "tls"
    TIMEOUT = "timeout"
    PROTOCOL = "protocol"
    OTHER = "other"


def classify_status(status: int) -> Outcome:
    """The outcome of an HTTP answer with this status code (RFC 9110 section 15)."""
    if status == 304:
        return Outcome.NOT_MODIFIED
    if 200 <= status < 300:
        return Outcome.OK
    if 300 <= status < 400:
        return Outcome.REDIRECT
    if status in (404, 410):
        return Outcome.GONE
    if status in (401, 403):
        return Outcome.DENIED
    if status == 429:
        return Outcome.RATE_LIMITED
    if status >= 500:
        return Outcome.SERVER_ERROR
    return Outcome.CLIENT_ERROR
