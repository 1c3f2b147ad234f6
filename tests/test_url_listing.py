"""A directory listing's sort and display query (Apache mod_autoindex, nginx's
fancyindex) is dropped from the key; look-alikes of another shape keep theirs."""

from __future__ import annotations

import pytest

from robotkit.url.listing import is_listing_display_query
from robotkit.url.normalization import NormalizePolicy, normalize_key


@pytest.mark.parametrize(
    "url",
    [
        "http://h/docs/?C=M;O=A",
        "http://h/docs/?C=N;O=D",
        "http://h/docs/?O=D;C=S",
        "http://h/docs/?C=D;O=A;F=2;V=1",
        "http://h/docs/?C=M;O=A;P=*.html",
        "http://h/docs/?C=S",
        "http://h/docs/?C=M&O=D",  # nginx's fancyindex joins them with &
    ],
)
def test_a_listing_sort_query_is_dropped(url: str) -> None:
    assert normalize_key(url) == "http://h/docs/"


@pytest.mark.parametrize(
    "url",
    [
        "http://h/docs/?C=red",  # another value
        "http://h/docs/?c=M;o=A",  # Apache writes the names in upper case
        "http://h/docs/?C=M&O=A;F=1",  # and one separator or the other, not both
        "http://h/page?C=M;O=A",  # not a directory
        "http://h/docs/?C=M;O=A;page=2",  # another parameter beside
        "http://h/docs/?F=1",  # a display option alone, no sort
        "http://h/docs/?P=*.txt",
    ],
)
def test_a_look_alike_keeps_its_query(url: str) -> None:
    assert "?" in normalize_key(url)


def test_the_policy_can_keep_it() -> None:
    policy = NormalizePolicy(strip_listing_sort=False)
    assert normalize_key("http://h/docs/?C=M;O=A", policy) == "http://h/docs/?C=M;O=A"


def test_the_rule_reads_the_path_and_query() -> None:
    assert is_listing_display_query("/", "C=N;O=D")
    assert not is_listing_display_query("/x", "C=N;O=D")
    assert not is_listing_display_query("/", "C=NN;O=D")
