"""The waste bound on a source repository (blind7 ``gitea``): an object's exports in
another format are a family of their own. A real loopback server; the paths are the
server's.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import random
import re
from collections.abc import Callable, Iterator

from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from robotkit.crawler.loop import CrawlConfig, crawl
from tests.test_crawler_waste import CONFIG, vocabulary

EXPORTS = (".diff", ".patch")


def page(title: str, main: str, links: list[str]) -> str:
    anchors = " ".join(f'<a href="{href}">{href.rpartition("/")[2]}</a>' for href in links)
    return (
        f"<html><head><title>{title}</title></head><body><nav>{anchors}</nav>"
        f"<main><h1>{title}</h1><p>{main}</p></main></body></html>"
    )


Site = Callable[[Request], tuple[str, str] | None]
"""A site: a request's body and its type, or ``None`` for a 404."""


@contextlib.contextmanager
def served(handler: Site) -> Iterator[tuple[str, list[str]]]:
    """Serve ``handler`` on 127.0.0.1 (no robots.txt): its home page's URL, and the
    paths the server saw, as it sees them."""
    seen: list[str] = []

    def respond(request: Request) -> Response:
        seen.append(request.full_path.rstrip("?"))
        answer = handler(request)
        if answer is None:
            return Response("not found", status=404)
        return Response(answer[0], content_type=answer[1])

    server = HTTPServer(host="127.0.0.1", port=0)
    server.expect_request("/robots.txt").respond_with_data("", status=404)
    server.expect_request(re.compile(".*")).respond_with_handler(respond)
    server.start()
    try:
        yield server.url_for("/"), seen
    finally:
        server.clear()
        server.stop()


def crawl_paths(handler: Site, config: CrawlConfig = CONFIG) -> list[str]:
    """Crawl the site ``handler`` serves from its home page under ``config``; the paths
    the server saw."""
    with served(handler) as (home, seen):
        asyncio.run(crawl([home], config))
    return seen


def test_an_objects_exports_do_not_make_its_pages_barren() -> None:
    """A repository's commits each link their ``.diff`` and ``.patch`` (bodies the
    crawl does not read, each a copy of its commit in another format); the commit
    list's second page comes after the first page's commits' exports. Three exports
    in a row made the family of the commits themselves (``/commit/{id}``) barren,
    and the second page's commits waited for good once the exports had spent the
    budget (blind7 ``gitea``: 8 of 18 commits); as a family of their own, only the
    exports stop."""
    rng = random.Random(17)
    words = vocabulary(rng, 400)
    shas = [hashlib.sha1(str(i).encode()).hexdigest() for i in range(32)]
    texts = {sha: " ".join(rng.choices(words, k=80)) for sha in shas}

    def handler(request: Request) -> tuple[str, str] | None:
        path = request.full_path.rstrip("?")
        if path == "/":
            return page("Repository", "the ledger repository", ["/commits"]), "text/html"
        if path in ("/commits", "/commits?page=2"):
            listed = shas[:8] if path == "/commits" else shas[8:]
            links = [f"/commit/{sha}" for sha in listed] + ["/commits?page=2"]
            return page("Commits", f"commits {path}", links), "text/html"
        found = re.fullmatch(r"/commit/([0-9a-f]{40})(\.diff|\.patch)?", path)
        if found is None or found.group(1) not in texts:
            return None
        sha, export = found.groups()
        if export:
            return f"diff --git {sha}\n{texts[sha]}\n", "text/plain"
        exports = [f"/commit/{sha}{ext}" for ext in EXPORTS]
        return page(f"Commit {sha[:7]}", texts[sha], ["/", *exports]), "text/html"

    seen = crawl_paths(handler)
    missing = [sha for sha in shas if f"/commit/{sha}" not in seen]
    assert missing == [], missing


FORMATS = {"html": "text/html", "pdf": "application/pdf", "plaintext": "text/plain"}
FORMATS |= {"markdown": "text/markdown", "zip": "application/zip"}


def test_an_objects_word_named_exports_are_no_family_of_its_pages() -> None:
    """A wiki's books (``/books/{slug}``) each link their chapters and their exports
    (``/books/{slug}/export/pdf``, the book again in another format); a chapter links
    its pages (``/books/{slug}/page/{slug}``) and its own exports. With the book's
    name and the view's word both masked, the exports and the pages were one family
    (``/books/and-much/*/*``): the exports, read first, made it barren, and the
    chapters' pages waited for good once the exports had spent the budget (blind10
    ``bookstack``: 20 of 28 pages). A view's word kept under its object
    (``/books/*/page/*``, ``/books/*/export/*``), only the exports stop."""
    rng = random.Random(23)
    words = vocabulary(rng, 400)

    def slug() -> str:
        return "-".join(rng.sample(words, 2))

    books = {slug(): {slug(): [slug() for _ in range(3)] for _ in range(2)} for _ in range(4)}
    texts: dict[str, str] = {}
    bodies: dict[str, str] = {}
    for book, chapters in books.items():
        links = [f"/books/{book}/chapter/{chapter}" for chapter in chapters]
        bodies[f"/books/{book}"] = page(book, "", links)
        for chapter, pages in chapters.items():
            links = [f"/books/{book}/page/{name}" for name in pages]
            bodies[f"/books/{book}/chapter/{chapter}"] = page(chapter, "", links)
            for name in pages:
                bodies[f"/books/{book}/page/{name}"] = page(name, "", [f"/books/{book}"])
    for path, body in list(bodies.items()):
        texts[path] = " ".join(rng.choices(words, k=80))
        exports = [f"{path}/export/{fmt}" for fmt in FORMATS]
        bodies[path] = body.replace("<p></p>", f"<p>{texts[path]}</p>").replace(
            "</nav>", " ".join(f'<a href="{href}">export</a>' for href in exports) + "</nav>"
        )
    home = page("Handbook", "the harbour handbook", [f"/books/{book}" for book in books])

    def handler(request: Request) -> tuple[str, str] | None:
        path = request.full_path.rstrip("?")
        if path == "/":
            return home, "text/html"
        if path in bodies:
            return bodies[path], "text/html"
        base, _, fmt = path.rpartition("/export/")
        if base not in bodies or fmt not in FORMATS:
            return None
        return (bodies[base] if fmt == "html" else texts[base]), FORMATS[fmt]

    seen = crawl_paths(handler)
    pages = [path for path in bodies if "/page/" in path]
    missing = [path for path in pages if path not in seen]
    assert missing == [], missing
