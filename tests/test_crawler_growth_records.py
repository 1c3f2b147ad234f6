"""Self-grown records beside records (:mod:`robotkit.triage.moves`, ARCHITECTURE.md
"Self-grown records"): a plain link of its page's class with only the path's last
segment switched (another record beside it) is a move of one step, so an endless graph
of made-up records each listing others ends by itself, while real siblings writing
prose of their own (a wiki's pages, each linking the next) are crawled whole. A real
loopback server for the crawl; the pure rule beside it."""

from __future__ import annotations

import random

import pytest
from werkzeug import Request

from robotkit.triage.moves import move
from robotkit.url.normalization import normalize
from tests.test_crawler_waste import vocabulary
from tests.test_crawler_waste_exports import crawl_paths
from tests.test_crawler_waste_listing import SPENT

MODULES = ("harbour", "ledger", "quay", "tackle")


def _page(title: str, prose: str, links: list[tuple[str, str]]) -> str:
    anchors = " ".join(f'<a href="{href}">{text}</a>' for href, text in links)
    return (
        f"<html><head><title>{title}</title></head><body><nav>{anchors}</nav>"
        f"<main><h1>{title}</h1><p>{prose}</p></main></body></html>"
    )


def test_an_endless_graph_of_made_up_records_beside_records_ends_with_its_real_pages() -> None:
    """A Go package site: each module's "Imported by" tab lists modules of other people,
    ``/ext/<name>``, each listing its own importers, made-up names without end, no
    digit nor query in any of them; every importer page writes prose in the site's
    words, soon fewer than ``OWN_WORDS`` its host never showed. Its links were no
    self-grown links (no parameters), so each was a root and the crawl ran to its page
    cap (blind13 ``pkgsite``: 1,472 trap fetches; here 400 of 400). Now an importer
    listed by an importer is a step, and the next one waits."""
    rng = random.Random(13)
    words = vocabulary(rng, 400)  # the site's words: soon a page says few it never said
    own = vocabulary(random.Random(130), 3000)  # the real modules' own prose
    real = {"/", "/about"} | {f"/mod/{m}" for m in MODULES}

    def importers(path: str) -> list[tuple[str, str]]:
        seeded = random.Random(path)
        names = ("-".join(seeded.choices(words, k=3)) for _ in range(3))
        return [(f"/ext/{name}", "importer") for name in names]

    def handler(request: Request) -> tuple[str, str] | None:
        path, tab = request.path, request.args.get("tab", "")
        if path == "/":
            links = [("/about", "About")] + [(f"/mod/{m}", m) for m in MODULES]
            return _page("Packages", " ".join(own[:60]), links), "text/html"
        if path == "/about":
            return _page("About", " ".join(own[60:120]), [("/", "Home")]), "text/html"
        name = path.removeprefix("/mod/")
        if name in MODULES and not tab:
            k = 200 + 100 * MODULES.index(name)
            links = [("/", "Home"), (f"{path}?tab=importedby", "Imported by")]
            return _page(f"Module {name}", " ".join(own[k : k + 80]), links), "text/html"
        if name in MODULES and tab == "importedby":
            prose = " ".join(random.Random(path).choices(words, k=40))
            return _page("Imported by", prose, importers(path)), "text/html"
        if path.startswith("/ext/") and path.count("/") == 2 and not tab:
            prose = " ".join(random.Random(path).choices(words, k=40))
            title = f"{path.removeprefix('/ext/')} ({len(path) % 97} importers)"
            return _page(title, prose, [("/", "Home"), *importers(path)]), "text/html"
        return None

    seen = crawl_paths(handler)
    assert real <= set(seen), sorted(real - set(seen))
    assert len(seen) < 300  # 400, the page cap, before


@pytest.mark.parametrize("thin", [False, True])
def test_a_sequence_of_sibling_pages_is_crawled_whole(thin: bool) -> None:
    """A wiki: the home page links its main page, and each page links only the next and
    the previous one, ``/wiki/<title>`` beside ``/wiki/<title>``, twenty steps from a
    root. With prose of its own (words its host never showed) each page yields and its
    links are roots; thin, in the site's few words, each links one new record at a
    time, a sequence, no graph (``FANS``): 17 of 21 were held when every such link
    was a move (blind8 ``squarespace``'s events chained by "Next event": 1 of 12)."""
    rng = random.Random(14)
    own = vocabulary(rng, 4000)
    titles = ["Main"] + ["_".join(rng.sample(own, 2)).title() for _ in range(20)]
    texts = {t: " ".join(own[20 + 60 * i : 80 + 60 * i]) for i, t in enumerate(titles)}
    if thin:
        texts = {t: " ".join(random.Random(t).choices(own[:50], k=60)) for t in titles}

    def handler(request: Request) -> tuple[str, str] | None:
        path = request.path
        if path == "/":
            return _page("Wiki", "a wiki of the orchard", [("/wiki/Main", "Main")]), "text/html"
        title = path.removeprefix("/wiki/")
        if title not in texts:
            return None
        i = titles.index(title)
        links = [(f"/wiki/{t}", t) for t in titles[max(i - 1, 0) : i + 2] if t != title]
        return _page(title, texts[title], [("/", "Home"), *links]), "text/html"

    seen = crawl_paths(handler, SPENT)
    missing = [t for t in titles if f"/wiki/{t}" not in seen]
    assert missing == [], missing


def test_a_record_beside_a_record_is_a_move_of_its_last_segment() -> None:
    """``/github.com/a`` linking ``/github.com/b``: a move of segment 1, no counter.
    Not with a query on either, another parent folder or the same record."""
    a = normalize("http://h/github.com/harbour-quay")
    assert move(a, normalize("http://h/github.com/ledger-tackle")) == ("1", False)
    assert move(normalize("http://h/docs/lib/a.html"), normalize("http://h/docs/lib/b.html")) == (
        "2",
        False,
    )
    assert move(a, normalize("http://h/github.com/ledger-tackle?tab=versions")) is None
    assert move(normalize("http://h/docs/lib/a"), normalize("http://h/docs/api/b")) is None
    assert move(a, normalize("http://h/github.com/Harbour-Quay")) is None
    assert move(normalize("http://h/wiki/A"), normalize("http://h/blog/B")) is None
