"""The polite clients behave as code written for httpx expects: a repeated GET is a
GET, and every refusal is caught by ``except httpx.HTTPError``."""

from __future__ import annotations

import asyncio
import logging

import httpx
import pytest
from pytest_httpserver import HTTPServer

import robotkit
from robotkit import AsyncPoliteClient, Identity, PoliteClient, ValidatorStore
from robotkit.http import facts

BOT = Identity.build("ExampleBot", "1.0", "https://example.org/bot", from_="bot@example.org")
VALIDATORS = {"ETag": '"v1"', "Last-Modified": "Tue, 14 Nov 2023 22:13:20 GMT"}


def serve_doc(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data("User-agent: *\nDisallow: /no\n")
    httpserver.expect_request("/doc").respond_with_data("body", headers=VALIDATORS)


def conditional_requests(httpserver: HTTPServer) -> list[bool]:
    return [
        "If-None-Match" in request.headers or "If-Modified-Since" in request.headers
        for request, _ in httpserver.log
        if request.path == "/doc"
    ]


def test_a_repeated_get_is_an_ordinary_get(httpserver: HTTPServer) -> None:
    serve_doc(httpserver)
    with PoliteClient(BOT, delay=0, allow_private=True) as http:
        for _ in range(2):
            response = http.get(httpserver.url_for("/doc"))
            response.raise_for_status()
            assert (response.status_code, response.text) == (200, "body")
    assert conditional_requests(httpserver) == [False, False]


def test_conditional_refetch_only_when_asked(httpserver: HTTPServer) -> None:
    serve_doc(httpserver)
    with PoliteClient(BOT, delay=0, allow_private=True, conditional=True) as http:
        http.fetch(httpserver.url_for("/doc"))
        second = http.fetch(httpserver.url_for("/doc"))
    assert conditional_requests(httpserver) == [False, True]
    assert facts(second).conditional


def test_async_client_is_unconditional_by_default(httpserver: HTTPServer) -> None:
    serve_doc(httpserver)

    async def twice() -> list[str]:
        async with AsyncPoliteClient(BOT, delay=0, allow_private=True) as http:
            return [(await http.get(httpserver.url_for("/doc"))).text for _ in range(2)]

    assert asyncio.run(twice()) == ["body", "body"]
    assert conditional_requests(httpserver) == [False, False]


def test_a_store_of_size_zero_stores_nothing() -> None:
    store = ValidatorStore(max_urls=0)
    found = store.record("http://a.org/", 200, [("ETag", '"1"')])
    assert found is not None and found.etag == '"1"'  # read, not kept
    assert len(store) == 0 and store.conditional_headers("http://a.org/") == {}
    with pytest.raises(ValueError, match="0 stores nothing"):
        ValidatorStore(max_urls=-1)


FAMILY = [
    "PolitenessError",
    "Disallowed",
    "Deferred",
    "HostSkipped",
    "RedirectRefused",
    "AddressRefused",
    "ResponseTooSlow",
]


@pytest.mark.parametrize("name", FAMILY)
def test_every_refusal_is_an_exported_httpx_request_error(name: str) -> None:
    assert name in robotkit.__all__
    assert issubclass(getattr(robotkit, name), httpx.RequestError)


def test_except_httpx_error_catches_a_robots_refusal(httpserver: HTTPServer) -> None:
    serve_doc(httpserver)
    with PoliteClient(BOT, delay=0, allow_private=True) as http:
        try:
            http.get(httpserver.url_for("/no/page"))
        except httpx.HTTPError as caught:
            error: httpx.HTTPError = caught
        else:
            pytest.fail("a disallowed URL was fetched")
    assert isinstance(error, robotkit.Disallowed)
    assert error.reason is robotkit.Reason.ROBOTS_DISALLOW
    assert "/no/page" not in [request.path for request, _ in httpserver.log]


def test_except_httpx_error_catches_a_private_address(httpserver: HTTPServer) -> None:
    with PoliteClient(BOT) as http, pytest.raises(httpx.RequestError) as caught:
        http.get(httpserver.url_for("/doc"))
    assert isinstance(caught.value, robotkit.AddressRefused)
    assert httpserver.log == []


def test_client_methods_say_what_they_raise() -> None:
    for method in (PoliteClient.fetch, PoliteClient.send, AsyncPoliteClient.fetch):
        assert "Raises" in (method.__doc__ or "") and "Deferred" in (method.__doc__ or "")


def test_a_robot_without_contact_is_warned_once_in_the_log(
    caplog: pytest.LogCaptureFixture,
) -> None:
    anonymous = Identity(user_agent="NoContactBot/1.0")
    with caplog.at_level(logging.WARNING, logger="robotkit.base.identity"):
        for _ in range(2):
            PoliteClient(anonymous).close()
        PoliteClient(BOT).close()
    warned = [r for r in caplog.records if "no contact" in r.getMessage()]
    assert len(warned) == 1 and "NoContactBot/1.0" in warned[0].getMessage()
    assert BOT.has_contact and not anonymous.has_contact
