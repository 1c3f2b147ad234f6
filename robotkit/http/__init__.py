"""The I/O shell: httpx clients and transports, and the robots.txt fetcher
(ARCHITECTURE.md, "The shell"). Every exception a caller must catch is here."""

from __future__ import annotations

from robotkit.http.addresses import AddressPolicy
from robotkit.http.checker import AsyncRobotsChecker, RobotsChecker, RobotsOptions
from robotkit.http.client import AsyncPoliteClient, PoliteClient
from robotkit.http.errors import (
    AddressRefused,
    Deferred,
    Disallowed,
    HostSkipped,
    PolitenessError,
    RedirectRefused,
    ResponseTooSlow,
    UnsupportedEncoding,
    classify_error,
)
from robotkit.http.facts import FetchFacts, facts
from robotkit.http.settings import FetchLimits, PoliteSettings
from robotkit.http.transport import AsyncPoliteTransport, PoliteTransport

__all__ = [
    "AddressPolicy",
    "AddressRefused",
    "AsyncPoliteClient",
    "AsyncPoliteTransport",
    "AsyncRobotsChecker",
    "Deferred",
    "Disallowed",
    "FetchFacts",
    "FetchLimits",
    "HostSkipped",
    "PoliteClient",
    "PoliteSettings",
    "PoliteTransport",
    "PolitenessError",
    "RedirectRefused",
    "ResponseTooSlow",
    "RobotsChecker",
    "RobotsOptions",
    "UnsupportedEncoding",
    "classify_error",
    "facts",
]
