"""A return address nested in a return address of its name (``/preferences?referer=
/preferences?referer=/watch?v=X``, ``/salaries?returnUrl=/other/salaries?returnUrl=
/viewjob?jk=1``) is keyed as the innermost address it wraps (``robotkit.url.nesting``);
a return address under another name, to another host or with no query keeps its key."""

from __future__ import annotations

from urllib.parse import quote, unquote

import pytest

from robotkit.url.nesting import nesting
from robotkit.url.normalization import normalize_key

INNER = "/watch?v=X&t=42s"


def nested(path: str, name: str, levels: int) -> str:
    """``path`` with its return address ``name`` wrapped in itself ``levels`` times."""
    target = INNER
    for _ in range(levels):
        target = f"{path}?{name}={quote(target, safe='')}"
    return target


@pytest.mark.parametrize("levels", [2, 3, 8])
def test_a_return_address_nested_in_itself_is_the_page_it_wraps(levels: int) -> None:
    page = normalize_key("http://h" + nested("/preferences", "referer", 1))
    assert normalize_key("http://h" + nested("/preferences", "referer", levels)) == page
    absolute = f"http://h/login?next={quote('http://h' + nested('/login', 'next', 1), safe='')}"
    assert normalize_key(absolute) == normalize_key("http://h" + nested("/login", "next", 1))


def test_a_return_address_nested_in_another_scripts_is_the_page_it_wraps() -> None:
    """The nesting need not be the script's own (blind15 ``jobs``: a salary page
    under a job links other careers' salary pages with itself as ``returnUrl``)."""
    outer = f"/toggle_theme?referer={quote(nested('/preferences', 'referer', 2), safe='')}"
    assert normalize_key("http://h" + outer) == normalize_key(
        f"http://h/toggle_theme?referer={quote(INNER, safe='')}"
    )


@pytest.mark.parametrize(
    ("target", "levels"),
    [
        (nested("/preferences", "referer", 1), 0),
        (nested("/preferences", "referer", 2), 1),
        (nested("/preferences", "referer", 5), 4),
        (f"/a?back={quote(nested('/preferences', 'referer', 3), safe='')}", 0),
        ("/search?q=%2Fsearch%3Fq%3Dx", 0),
    ],
)
def test_nesting_counts_the_return_addresses_a_pair_wraps_in_its_own(
    target: str, levels: int
) -> None:
    assert nesting("h", target.partition("?")[2]) == levels


@pytest.mark.parametrize(
    "target",
    [
        f"/preferences?back={quote(nested('/preferences', 'referer', 1), safe='')}",
        f"/preferences?referer={quote('http://other' + nested('/preferences', 'referer', 1))}",
        "/search?q=%2Fsearch",  # no query inside
        nested("/preferences", "referer", 1),
    ],
)
def test_another_return_address_keeps_its_key(target: str) -> None:
    """Nothing is unwrapped: as many addresses in the key as in the URL."""
    assert decoded(normalize_key("http://h" + target)).count("?") == decoded(target).count("?")


def decoded(text: str) -> str:
    """``text`` percent-decoded until it no longer changes."""
    while (plain := unquote(text)) != text:
        text = plain
    return text
