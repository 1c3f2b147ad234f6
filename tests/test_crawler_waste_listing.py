"""The waste bound on a repository browser's tree (blind7 ``gitea``): a directory
page, only like its siblings, is worth the entries it lists. A real loopback server;
the paths are the server's.
"""

from __future__ import annotations

import random

from werkzeug import Request

from robotkit.crawler.loop import CrawlConfig
from robotkit.triage.items import entries_of
from robotkit.triage.screening import TriageConfig
from robotkit.url.normalization import normalize
from tests.test_crawler_waste import CONFIG, vocabulary
from tests.test_crawler_waste_exports import crawl_paths, page

SPENT = CrawlConfig(
    max_pages=CONFIG.max_pages,
    delay=CONFIG.delay,
    allow_private=True,
    response_timeout=CONFIG.response_timeout,
    max_defer=CONFIG.max_defer,
    triage=TriageConfig(waste_budget=0),
)
"""A host whose waste budget is spent: a URL first linked by a page that taught
nothing waits, and is left at the end."""


def test_a_directory_like_its_siblings_vouches_for_the_files_it_lists() -> None:
    """A repository's tree at a branch: each directory page is the tree's chrome with
    one or two entry names, only like its siblings and the root listing, saying no
    word new to the region but its entries'. Counted as a fetch that taught nothing,
    it vouched for none of its files, and on a host whose budget the language
    switches had spent they waited for good (blind7 ``gitea``: 5 of 49 pages). A
    directory listing new entries taught: its files are read."""
    rng = random.Random(31)
    words = vocabulary(rng, 400)
    chrome = " ".join(rng.sample(words, 60))
    tree = {
        name: [f"{rng.choice(words)}.go" for _ in range(1 + i % 2)]
        for i, name in enumerate(rng.sample(words, 5))
    }
    texts = {
        f"/src/main/{d}/{f}": " ".join(rng.choices(words, k=80))
        for d, fs in tree.items()
        for f in fs
    }

    def listing(title: str, entries: list[str]) -> str:
        return page(title, chrome, ["/", "/src/main", *entries])

    def handler(request: Request) -> tuple[str, str] | None:
        path = request.full_path.rstrip("?")
        if path == "/":
            return page("Ledger", "the ledger repository home", ["/src/main"]), "text/html"
        if path == "/src/main":
            return listing("Tree main", [f"/src/main/{d}" for d in tree]), "text/html"
        head, _, name = path.rpartition("/")
        if head == "/src/main" and name in tree:
            return listing(f"Tree {name}", [f"{path}/{f}" for f in tree[name]]), "text/html"
        if path in texts:
            return page(name, texts[path], ["/", "/src/main"]), "text/html"
        return None

    seen = crawl_paths(handler, SPENT)
    missing = [path for path in texts if path not in seen]
    assert missing == [], missing


def test_a_directorys_entries_are_paths_under_it_named_by_a_word() -> None:
    """The entries a directory page lists: word-named paths under its own, of a page
    without a query. Not a calendar's numbered months, not a cache-buster's tokens
    under a query, not a loop's copy named as the page, not a tree at a revision
    (the tree again under another one)."""
    links = [normalize(f"http://h/src/main/cmd/{leaf}") for leaf in ("main.go", "2024", "")]
    links += [normalize("http://h/src/main/cmd/main.go?v=8f3a"), normalize("http://h/src/x")]
    assert [n.path for n in entries_of(normalize("http://h/src/main/cmd"), links)] == [
        "/src/main/cmd/main.go"
    ]
    assert entries_of(normalize("http://h/src/main/cmd?v=8f3a"), links) == []
    amp = normalize("http://h/section/x/amp/")
    assert entries_of(amp, [normalize("http://h/section/x/amp/amp/")]) == []  # a loop
    tree = normalize("http://h/hg/file/3fa9c2e1b7d4/docs/")
    assert entries_of(tree, [normalize("http://h/hg/file/3fa9c2e1b7d4/docs/x.md")]) == []
