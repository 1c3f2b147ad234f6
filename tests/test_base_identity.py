"""The robot's identity: honest User-Agent, valid From, crawler Accept, Referer."""

from __future__ import annotations

import pytest

from robotkit.base.identity import DEFAULT_ACCEPT, Identity, IdentityError, product_token


def test_build_conventional_user_agent_and_token() -> None:
    identity = Identity.build("ExampleBot", "1.0", "https://example.org/bot", "ops@example.org")
    assert identity.user_agent == "ExampleBot/1.0 (+https://example.org/bot)"
    assert identity.product_token == "ExampleBot"
    assert identity.headers() == {
        "User-Agent": "ExampleBot/1.0 (+https://example.org/bot)",
        "Accept": DEFAULT_ACCEPT,
        "From": "ops@example.org",
    }


def test_default_identity_is_honest_and_accepts_html() -> None:
    identity = Identity()
    assert identity.product_token == "robotkit"
    assert "text/html" in identity.accept
    assert "Mozilla" not in identity.user_agent
    assert "From" not in identity.headers()


@pytest.mark.parametrize(
    "bad", ["", "nobody", "a@b", "a b@example.org", "x@example..org", "@example.org", "a@.org"]
)
def test_malformed_from_is_refused_with_clear_error(bad: str) -> None:
    with pytest.raises(IdentityError, match="From must be a valid email"):
        Identity(from_=bad)


@pytest.mark.parametrize("ua", ["Mozilla/5.0 (X11; Linux x86_64)", "Chrome/120", "  ", "/1.0"])
def test_browser_imitation_and_empty_token_refused(ua: str) -> None:
    with pytest.raises(IdentityError):
        Identity(user_agent=ua)


def test_referer_per_request() -> None:
    identity = Identity.build("ExampleBot", "1.0")
    assert identity.headers(referer="https://example.org/links")["Referer"] == (
        "https://example.org/links"
    )
    assert "Referer" not in identity.headers()


@pytest.mark.parametrize(
    ("ua", "token"),
    [
        ("ExampleBot/1.0 (+https://example.org/bot)", "ExampleBot"),
        ("ExampleBot", "ExampleBot"),
        (" Foo Bar/2", "Foo"),
    ],
)
def test_product_token(ua: str, token: str) -> None:
    assert product_token(ua) == token


def test_header_injection_and_identity_override_refused() -> None:
    with pytest.raises(IdentityError, match="control"):
        Identity(user_agent="ExampleBot/1.0\r\nX-Evil: 1")
    with pytest.raises(IdentityError, match="part of the identity"):
        Identity(extra_headers=(("User-Agent", "Mozilla/5.0"),))
    assert Identity(extra_headers=(("X-Crawl-Job", "42"),)).headers()["X-Crawl-Job"] == "42"
