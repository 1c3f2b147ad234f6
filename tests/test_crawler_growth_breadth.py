"""A class that keeps minting (:mod:`robotkit.triage.breadth`): a site making up records of
two kinds, each linking new records of the other, is crawled until each kind has shown
it never closes, then its records' links wait; a real kind of record, linking what the
crawl knows, is read whole. A real loopback server for the crawl; the pure count beside
it."""

from __future__ import annotations

import random

from werkzeug import Request

from robotkit.triage.breadth import BREADTH, Breadth, own_view
from robotkit.url.normalization import normalize
from tests.test_crawler_growth_records import _page
from tests.test_crawler_waste import vocabulary
from tests.test_crawler_waste_exports import crawl_paths

RECORDS = ("harbour", "ledger", "quay", "tackle")


def test_made_up_records_of_two_kinds_linking_each_other_end_with_the_real_pages() -> None:
    """Each record ``/story/<name>`` links two made-up submitters ``/user/<name>``, each
    linking two made-up stories, in the site's words: every page links new pages of
    another class, so it yielded and its links were roots; the crawl ran to its page
    cap (blind15 ``hnews``, blind16 ``pmwiki``, ``tripadvisor``; here 400 of 400)."""
    rng = random.Random(16)
    words = vocabulary(rng, 400)
    own = vocabulary(random.Random(160), 3000)
    real = {"/", "/about"} | {f"/story/{r}" for r in RECORDS}
    stories = [(f"/story/{r}", r) for r in RECORDS]
    fixed = {
        "/": _page("Index", " ".join(own[:60]), [("/about", "About"), *stories]),
        "/about": _page("About", " ".join(own[60:120]), [("/", "Home")]),
    }

    def handler(request: Request) -> tuple[str, str] | None:
        path = request.path
        if path in fixed:
            return fixed[path], "text/html"
        parts = path.strip("/").split("/")
        if len(parts) != 2 or parts[0] not in {"story", "user"}:
            return None
        kind, name = parts
        seeded = random.Random(path)
        other = "user" if kind == "story" else "story"
        made = ["-".join(seeded.choices(words, k=3)) for _ in range(2)]
        links = [("/", "Home"), ("/about", "About")] + [(f"/{other}/{m}", m) for m in made]
        if name in RECORDS:
            k = 200 + 100 * RECORDS.index(name)
            return _page(f"Story {name}", " ".join(own[k : k + 80]), links), "text/html"
        prose = " ".join(seeded.choices(words, k=40))
        return _page(f"{kind} {name}", prose, links), "text/html"

    seen = crawl_paths(handler)
    assert real <= set(seen), sorted(real - set(seen))
    assert len(seen) < 200  # 400, the page cap, before


def _read(breadth: Breadth, page: str, links: list[str], known: set[str]) -> None:
    norm = normalize(page)
    for url in links:
        link, new = normalize(url), url not in known
        breadth.linked(link.key, norm.key, norm, new, own_view(norm, link, new))
        known.add(url)


def test_a_kind_of_record_linking_what_the_crawl_knows_does_not_mint() -> None:
    """A wiki's articles each link one new article and several known ones: the class
    never mints, however many of its pages are read (blind2 ``wiki``: 27 to 33 known
    links an article); articles each linking only new ones do, after ``BREADTH``."""
    breadth, known = Breadth(), set[str]()
    articles = [f"http://h/wiki/A{n}" for n in range(3 * BREADTH)]
    for n, page in enumerate(articles[:-1]):
        _read(breadth, page, [articles[n + 1], *articles[max(0, n - 3) : n]], known)
    assert not any(breadth.minter(normalize(page).key) for page in articles)
    breadth, known = Breadth(), set[str]()
    for n in range(2 * BREADTH):
        _read(breadth, f"http://h/wiki/B{n}", [f"http://h/wiki/B{n}-{k}" for k in "xy"], known)
    assert not breadth.minter(normalize("http://h/wiki/B0").key)
    assert breadth.minter(normalize(f"http://h/wiki/B{BREADTH}").key)
