"""The waste bound on a source repository (blind7 ``gitea``): an object's exports in
another format are a family of their own. A real loopback server; the paths are the
server's.
"""

from __future__ import annotations

import asyncio
import hashlib
import random
import re
from collections.abc import Callable

from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from robotkit.crawler.loop import crawl
from tests.test_crawler_waste import CONFIG, vocabulary

EXPORTS = (".diff", ".patch")


def page(title: str, main: str, links: list[str]) -> str:
    anchors = " ".join(f'<a href="{href}">{href.rpartition("/")[2]}</a>' for href in links)
    return (
        f"<html><head><title>{title}</title></head><body><nav>{anchors}</nav>"
        f"<main><h1>{title}</h1><p>{main}</p></main></body></html>"
    )


def crawl_paths(handler: Callable[[Request], tuple[str, str] | None]) -> list[str]:
    """Crawl the site ``handler`` serves (a body and its type, or ``None`` for a 404)
    from its home page; the paths the server saw."""
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
        asyncio.run(crawl([server.url_for("/")], CONFIG))
    finally:
        server.clear()
        server.stop()
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
