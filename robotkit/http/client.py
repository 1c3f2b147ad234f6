"""Thin polite clients: ``httpx.Client`` / ``httpx.AsyncClient`` over the polite
transports, with redirects on (each hop is judged by the transport) and the robot's
identity as default headers. Everything httpx offers still works; :meth:`fetch`
adds the one thing a crawler passes per request, the Referer.

What a request can raise (:mod:`robotkit.http.errors`): every refusal is a
:class:`PolitenessError`, which is an ``httpx.RequestError``, so one
``except httpx.HTTPError`` handles refusals, network errors and, after
``raise_for_status()``, error statuses alike. A repeated GET is an ordinary GET
(status 200, full body) unless the client was made with ``conditional=True``.
"""

from __future__ import annotations

from typing import Any, TypeVar

import httpx

from robotkit.base.identity import Identity
from robotkit.http.core import refused_redirect
from robotkit.http.errors import Disallowed
from robotkit.http.facts import FetchFacts, facts
from robotkit.http.settings import GuardHook
from robotkit.http.slots import SharedPoliteness
from robotkit.http.transport import AsyncPoliteTransport, PoliteTransport
from robotkit.http.validators import ValidatorStore
from robotkit.pacing.pacer import PacingPolicy
from robotkit.triage.guard import Guard
from robotkit.url.parse import InvalidURL, parse_url

_Polite = TypeVar("_Polite", PoliteTransport, AsyncPoliteTransport)


def _default_transport(
    kind: type[_Polite],
    identity: Identity | None,
    delay: float | None,
    allow_private: bool,
    guard: GuardHook | None,
    conditional: bool,
    shared: SharedPoliteness | None,
) -> _Polite:
    """The transport a thin client builds when none is given: the trap guard on."""
    return kind(
        identity=identity,
        policy=None if delay is None else PacingPolicy(delay=delay),
        allow_private=allow_private,
        guard=Guard() if guard is None else guard,
        validators=ValidatorStore() if conditional else None,
        shared=shared,
    )


_RAISES = """

    Raises (all ``httpx.RequestError``): :class:`Disallowed` (robots.txt, the trap
    guard, a malformed URL or redirect target), :class:`Deferred` (robots.txt or
    the host says not now; ``retry_at``), :class:`HostSkipped`,
    :class:`RedirectRefused`, :class:`AddressRefused` (private address),
    :class:`ResponseTooSlow` (the response's total deadline), and httpx's own
    network errors. Statuses are returned, not raised, as in httpx."""


def _client_options(
    polite: PoliteTransport | AsyncPoliteTransport, kwargs: dict[str, Any]
) -> dict[str, Any]:
    """httpx settings under a polite transport: redirects followed (each hop judged
    by the transport), with httpx's own cap one above the transport's, so that the
    transport's clearer :class:`RedirectRefused` fires first."""
    kwargs.setdefault("follow_redirects", True)
    kwargs.setdefault("max_redirects", polite.core.limits.max_redirects + 1)
    kwargs.setdefault("headers", polite.identity.headers())
    return kwargs


def _checked(url: str) -> str:
    """``url`` as robotkit's parser reads it (httpx reads some URLs otherwise); else
    :class:`Disallowed` (``invalid-url`` or ``unsupported-scheme``) naming the URL as
    given, before httpx reshapes it."""
    try:
        return parse_url(url).href
    except InvalidURL as error:
        raise Disallowed(url, error.reason, error.detail) from None


def _referer(referer: str | None) -> dict[str, str] | None:
    """RFC 9110 section 10.1.3: the page on which the link was found."""
    return {"Referer": referer} if referer else None


class PoliteClient(httpx.Client):
    """``PoliteClient(identity)`` fetches politely with default settings;
    ``PoliteClient(transport=PoliteTransport(...))`` with yours.

    ``delay``, ``allow_private``, ``guard`` and ``shared`` (a
    ``robotkit.shared.SharedState``: pace and share robots.txt with other
    workers) are shortcuts for the transport's
    settings when no transport is given; the trap guard is on by default (a fresh
    :class:`robotkit.triage.guard.Guard`), because a robot that follows links needs it on
    every request and every redirect hop. ``conditional=True`` makes a refetch of a
    URL conditional (If-None-Match / If-Modified-Since from the last 200): the
    answer may then be a 304 without a body, so it is for callers that keep the
    bodies themselves; off by default. Other keyword arguments go to
    ``httpx.Client``.
    """

    def __init__(
        self,
        identity: Identity | None = None,
        *,
        transport: PoliteTransport | None = None,
        delay: float | None = None,
        allow_private: bool = False,
        guard: GuardHook | None = None,
        conditional: bool = False,
        shared: SharedPoliteness | None = None,
        **kwargs: Any,
    ) -> None:
        self.polite = transport or _default_transport(
            PoliteTransport, identity, delay, allow_private, guard, conditional, shared
        )
        super().__init__(transport=self.polite, **_client_options(self.polite, kwargs))

    def fetch(self, url: str, *, referer: str | None = None, **kwargs: Any) -> httpx.Response:
        """GET ``url`` as found on the page ``referer``; a malformed URL raises
        :class:`Disallowed` before anything is sent."""
        return self.get(_checked(url), headers=_referer(referer), **kwargs)

    def send(self, request: httpx.Request, *args: Any, **kwargs: Any) -> httpx.Response:
        """httpx's send; a redirect to no fetchable URL raises :class:`Disallowed`."""
        try:
            return super().send(request, *args, **kwargs)
        except httpx.InvalidURL as error:
            refused = refused_redirect(request, error)
            if refused is None:
                raise
            raise refused from None

    @staticmethod
    def facts(response: httpx.Response) -> FetchFacts:
        return facts(response)


class AsyncPoliteClient(httpx.AsyncClient):
    """The async :class:`PoliteClient`, over :class:`AsyncPoliteTransport`."""

    def __init__(
        self,
        identity: Identity | None = None,
        *,
        transport: AsyncPoliteTransport | None = None,
        delay: float | None = None,
        allow_private: bool = False,
        guard: GuardHook | None = None,
        conditional: bool = False,
        shared: SharedPoliteness | None = None,
        **kwargs: Any,
    ) -> None:
        self.polite = transport or _default_transport(
            AsyncPoliteTransport, identity, delay, allow_private, guard, conditional, shared
        )
        super().__init__(transport=self.polite, **_client_options(self.polite, kwargs))

    async def fetch(self, url: str, *, referer: str | None = None, **kwargs: Any) -> httpx.Response:
        """GET ``url`` as found on the page ``referer``; a malformed URL raises
        :class:`Disallowed` before anything is sent."""
        return await self.get(_checked(url), headers=_referer(referer), **kwargs)

    async def send(self, request: httpx.Request, *args: Any, **kwargs: Any) -> httpx.Response:
        """httpx's send; a redirect to no fetchable URL raises :class:`Disallowed`."""
        try:
            return await super().send(request, *args, **kwargs)
        except httpx.InvalidURL as error:
            refused = refused_redirect(request, error)
            if refused is None:
                raise
            raise refused from None

    @staticmethod
    def facts(response: httpx.Response) -> FetchFacts:
        return facts(response)


# Each request method says what it raises (help(), IDEs); one text, not four copies.
_REQUESTING = (PoliteClient.fetch, PoliteClient.send, AsyncPoliteClient.fetch)
for _method in (*_REQUESTING, AsyncPoliteClient.send):
    _method.__doc__ = (_method.__doc__ or "") + _RAISES
