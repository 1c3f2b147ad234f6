"""A return address nested in its own script (``/preferences?referer=/preferences?
referer=/watch?v=X``) is keyed as the address it wraps (``robotkit.url.nesting``);
a return address to another path or under another name keeps its key."""

from __future__ import annotations

from urllib.parse import quote, unquote

import pytest

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


@pytest.mark.parametrize(
    "target",
    [
        f"/toggle_theme?referer={quote(nested('/preferences', 'referer', 1), safe='')}",
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
