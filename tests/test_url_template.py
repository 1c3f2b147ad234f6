"""URL templates: the variable parts of a URL named, so one page kind's URLs share a name."""

from __future__ import annotations

import pytest

from robotkit.url.template import url_template


@pytest.mark.parametrize(
    ("url", "template"),
    [
        ("http://x.example/item/42?page=3", "http://x.example/item/{n}?page={n}"),
        ("http://X.example/item/43?page=4", "http://x.example/item/{n}?page={n}"),
        ("http://x.example/cal?year=2024&month=5", "http://x.example/cal?month={n}&year={n}"),
        ("http://x.example/p/page-12.html", "http://x.example/p/page-{n}.html"),
        (
            "http://x.example/o/123e4567-e89b-12d3-a456-426614174000",
            "http://x.example/o/{id}",
        ),
        ("http://x.example/c/9f86d081884c7d65", "http://x.example/c/{id}"),
        ("http://x.example/search?q=red+shoes", "http://x.example/search?q={v}"),
        ("http://x.example/about", "http://x.example/about"),
        ("http://x.example/list?flag", "http://x.example/list?flag"),
        ("nonsense", None),
    ],
)
def test_url_template(url: str, template: str | None) -> None:
    assert url_template(url) == template
