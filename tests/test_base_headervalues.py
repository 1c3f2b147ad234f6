"""HTTP-date, delay-seconds and Retry-After: one parser, defined answers for garbage."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from robotkit.base.headervalues import parse_delay_seconds, parse_http_date, parse_retry_after

NOW = 1_700_000_000.0


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Sun, 06 Nov 1994 08:49:37 GMT", 784111777.0),  # IMF-fixdate
        ("Sunday, 06-Nov-94 08:49:37 GMT", 784111777.0),  # obsolete RFC 850 form
        ("Sun Nov  6 08:49:37 1994", 784111777.0),  # obsolete asctime form, means GMT
        ("yesterday", None),
        ("", None),
        (None, None),
    ],
)
def test_http_date(text: str | None, expected: float | None) -> None:
    assert parse_http_date(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("120", 120.0), (" 0 ", 0.0), ("¹", None), ("٣", None), ("-1", None), ("1.5", None)],
)
def test_delay_seconds_are_ascii_digits_only(text: str, expected: float | None) -> None:
    assert parse_delay_seconds(text) == expected


def test_absurd_delay_seconds_read_as_infinity_not_an_error() -> None:
    assert parse_delay_seconds("9" * 400) == float("inf")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("30", NOW + 30),
        ("1.5", NOW + 1.5),
        ("Tue, 14 Nov 2023 22:13:40 GMT", NOW + 20),
        ("Mon, 01 Jan 2001 00:00:00 GMT", NOW),  # a past date means now
        ("-5", None),
        ("nan", None),
        ("soon", None),
        ("", None),
    ],
)
def test_retry_after(value: str, expected: float | None) -> None:
    assert parse_retry_after(value, NOW) == expected


@given(st.text())
def test_hostile_values_never_raise(text: str) -> None:
    parse_http_date(text)
    parse_delay_seconds(text)
    parse_retry_after(text, NOW)
