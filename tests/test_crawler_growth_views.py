"""Made-up records listed by their own views (:func:`robotkit.triage.moves.aside`,
:func:`~robotkit.triage.moves.named`): a record's part (``/rec/<name>/related``) or its
page under another section (``/requires/rec/<name>``) listing new records beside the
record is a step of the record's own chain, so an endless graph of made-up records
whose views list more ends by itself. A real loopback server for the crawl; the pure
rules beside it."""

from __future__ import annotations

import random

import pytest
from werkzeug import Request

from robotkit.triage.moves import aside, named
from robotkit.url.normalization import normalize
from tests.test_crawler_growth_records import _page
from tests.test_crawler_waste import vocabulary
from tests.test_crawler_waste_exports import crawl_paths

RECORDS = ("harbour", "ledger", "quay", "tackle")


@pytest.mark.parametrize("view", ["/rec/{}/related", "/requires/rec/{}"])
def test_made_up_records_listed_by_their_own_views_end_with_the_real_pages(view: str) -> None:
    """A package index: each distribution ``/rec/<name>`` links its own view (its
    related records, or its reverse dependencies under another section), which lists
    three made-up records ``/rec/<name>``, each with its view listing three more, in
    the site's words. Each view linked new pages of another class, so it yielded and
    its records were roots: the crawl ran to its page cap (blind15 ``metacpan``,
    ``dictionary``; here 400 of 400)."""
    rng = random.Random(15)
    words = vocabulary(rng, 400)
    own = vocabulary(random.Random(150), 3000)
    real = {"/", "/about"} | {f"/rec/{r}" for r in RECORDS} | {view.format(r) for r in RECORDS}

    def listed(path: str) -> list[tuple[str, str]]:
        seeded = random.Random(path)
        names = ("-".join(seeded.choices(words, k=3)) for _ in range(3))
        return [(f"/rec/{name}", "record") for name in names]

    def handler(request: Request) -> tuple[str, str] | None:
        path = request.path
        if path == "/":
            links = [("/about", "About")] + [(f"/rec/{r}", r) for r in RECORDS]
            return _page("Index", " ".join(own[:60]), links), "text/html"
        if path == "/about":
            return _page("About", " ".join(own[60:120]), [("/", "Home")]), "text/html"
        prose = " ".join(random.Random(path).choices(words, k=40))
        parts = path.strip("/").split("/")
        if len(parts) == 2 and parts[0] == "rec":
            name = parts[1]
            k = 200 + 100 * RECORDS.index(name) if name in RECORDS else 0
            text = " ".join(own[k : k + 80]) if name in RECORDS else prose
            links = [("/", "Home"), (view.format(name), "Related")]
            return _page(f"Record {name}", text, links), "text/html"
        if path.rstrip("/") in {view.format(p) for p in (parts[-1], parts[1])}:
            return _page("Related", prose, [("/", "Home"), *listed(path)]), "text/html"
        return None

    seen = crawl_paths(handler)
    assert real <= set(seen), sorted(real - set(seen))
    assert len(seen) < 300  # 400, the page cap, before


def test_a_link_beside_the_object_a_page_views_is_a_move() -> None:
    """``/rec/a/related`` or ``/requires/rec/a`` linking ``/rec/b``: a move of the last
    segment of the record viewed. Not a link with parameters, nor the page's own object,
    nor a record of another parent."""
    b = normalize("http://h/rec/b")
    assert aside(normalize("http://h/rec/a/related"), b) == ("1", False)
    assert aside(normalize("http://h/requires/rec/a"), b) == ("1", False)
    assert aside(normalize("http://h/rec/a/related"), normalize("http://h/rec/a")) is None
    assert aside(normalize("http://h/rec/a/related"), normalize("http://h/rec/b?p=2")) is None
    assert aside(normalize("http://h/list/a/related"), b) is None
    assert named(normalize("http://h/dist/Foo-Bar"), normalize("http://h/pod/Foo::Bar"))
    assert named(normalize("http://h/requires/dist/A"), normalize("http://h/dist/A"))
    assert not named(normalize("http://h/dist/Foo-Bar"), normalize("http://h/dist/Foo-Bar/x"))
    assert not named(normalize("http://h/dist/Foo"), normalize("http://h/pod/Bar"))
