"""A URL refused for a nested return address leaves its page to other links (real
sockets). The guard judges the link as spelled (``nested-return``), while its key is
the page of the address it wraps: a home linked first under a nested ``from=`` and
later plainly is fetched (blind14 ``realestate``: one home lost when the refusal took
the key)."""

from __future__ import annotations

from urllib.parse import quote

from werkzeug import Request

from tests.test_crawler_waste_exports import crawl_paths, page

TEXTS = {
    "1": "a terraced house near the harbour with a garden and two bedrooms",
    "2": "a detached cottage by the river meadow with an orchard and a barn",
}


def test_a_page_first_linked_under_a_nested_return_address_is_fetched_when_linked_plainly() -> None:
    def handler(request: Request) -> tuple[str, str] | None:
        path = request.path
        if path == "/":
            return page("Homes", "homes for sale", ["/homes/1?from=%2F", "/list"]), "text/html"
        if path == "/list":
            return page("All homes", "every home we sell", ["/homes/2?from=%2F"]), "text/html"
        home = path.removeprefix("/homes/")
        if home not in TEXTS:
            return None
        here = quote(request.full_path.rstrip("?"), safe="")
        similar = [f"/homes/{other}?from={here}" for other in TEXTS if other != home]
        return page(f"Home {home}", TEXTS[home], similar), "text/html"

    seen = crawl_paths(handler)
    assert "/homes/2?from=%2F" in seen, seen
    assert not [path for path in seen if path.count("%3F")], seen
