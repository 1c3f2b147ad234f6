"""The exceptions of the polite clients and transports: one family under httpx's,
and the one reading of any network error (:func:`classify_error`).

Code written for httpx catches ``httpx.HTTPError`` (or ``httpx.RequestError``) around
a request; a request robotkit refused to send must not slip past that handler, so
:class:`PolitenessError` is an ``httpx.RequestError``: like a connection error, the
request never got an answer. The subclasses say why, each with a stable reason
code. :class:`ResponseTooSlow` is the one raised after sending (an
``httpx.ReadTimeout``).

    httpx.HTTPError
    └── httpx.RequestError
        ├── PolitenessError        refused before sending; .reason, .verdict, .redirects
        │   ├── Disallowed         never: robots.txt, trap guard, scope, unusable URL
        │   ├── Deferred           not now: .retry_at (Unix seconds)
        │   ├── HostSkipped        the whole host is skipped (Crawl-delay too long)
        │   ├── RedirectRefused    too many redirect hops, or a loop
        │   └── AddressRefused     a private, loopback or link-local address (SSRF)
        ├── httpx.TimeoutException
        │   └── ResponseTooSlow    the whole response took longer than its deadline
        └── httpx.DecodingError
            └── UnsupportedEncoding  a Content-Encoding robotkit does not decode
"""

from __future__ import annotations

import socket

import httpx

from robotkit.base.errors import RobotkitError
from robotkit.base.outcome import NetworkErrorKind
from robotkit.base.reasons import Reason
from robotkit.robots.status import Hop
from robotkit.robots.verdict import Verdict
from robotkit.triage.guard import GuardVerdict
from robotkit.url.redact import masked


class PolitenessError(httpx.RequestError, RobotkitError):
    """robotkit refused to send a request; ``reason`` is the stable code and
    ``verdict`` the decision that refused it (robots.txt, guard, ...)."""

    def __init__(
        self,
        url: str,
        reason: Reason,
        detail: str = "",
        *,
        verdict: Verdict | GuardVerdict | None = None,
        redirects: tuple[Hop, ...] = (),
        request: httpx.Request | None = None,
    ) -> None:
        shown = masked(url)  # a message may reach a log; ``url`` keeps it as given
        super().__init__(f"{reason}: {shown}" + (f" ({detail})" if detail else ""), request=request)
        self.url = url
        self.reason = reason
        self.detail = detail
        self.verdict = verdict
        self.redirects = redirects


class Disallowed(PolitenessError):
    """Never fetch this URL: robots.txt, the trap guard or the scope says no, or
    the URL is not one a robot can fetch (``invalid-url``, ``unsupported-scheme``)."""


class Deferred(PolitenessError):
    """Not now: retry at ``retry_at`` (Unix seconds)."""

    def __init__(
        self,
        url: str,
        reason: Reason,
        retry_at: float,
        detail: str = "",
        *,
        verdict: Verdict | None = None,
        redirects: tuple[Hop, ...] = (),
        request: httpx.Request | None = None,
    ) -> None:
        super().__init__(url, reason, detail, verdict=verdict, redirects=redirects, request=request)
        self.retry_at = retry_at


class HostSkipped(PolitenessError):
    """The whole host is skipped, e.g. its Crawl-delay is above the ceiling."""


class RedirectRefused(PolitenessError):
    """Too many redirect hops, or a loop."""


class AddressRefused(PolitenessError):
    """The host resolves to a private, loopback or link-local address (SSRF)."""


class ResponseTooSlow(httpx.ReadTimeout, RobotkitError):
    """The response took longer in total than the limit (a drip-feeding tarpit)."""


class UnsupportedEncoding(httpx.DecodingError, RobotkitError):
    """A ``Content-Encoding`` robotkit does not decode (or too many stacked), so
    the body was not read (:mod:`robotkit.http.decoding`). ``reason`` is
    ``unsupported-encoding``: the same answer the next time, so not worth a retry."""

    reason = Reason.UNSUPPORTED_ENCODING

    def __init__(self, message: str, *, request: httpx.Request | None = None) -> None:
        super().__init__(message, request=request)


def classify_error(error: BaseException) -> NetworkErrorKind:
    """What kind of network failure an httpx/OS exception is: the one place the
    shell reads them (the transports' callers, the robots.txt fetcher and the
    crawler all ask here)."""
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
