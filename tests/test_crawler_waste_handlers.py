"""The waste bound on a repository browser served by one script (blind6 ``gitweb``):
each handler (``a=tree``, ``a=blame``) is a family of its own, and a view at a
commit's hash one apart from the same handler at the head. A real loopback server;
the paths are the server's.
"""

from __future__ import annotations

import hashlib
import random

from werkzeug import Request

from robotkit.url.normalization import normalize
from robotkit.url.waste import waste_family
from tests.test_crawler_waste import vocabulary
from tests.test_crawler_waste_exports import crawl_paths, page

DIRS = ("src", "doc", "lib", "test")


def _hash(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()


def test_blame_at_each_commit_does_not_make_the_trees_at_head_wait() -> None:
    """A gitweb repository's shortlog lists 30 commits; each commit page links the
    blame of 4 files at that commit (``a=blame;f=<file>;hb=<hash>``), the file's
    text again (a copy after the first). Its tree at ``HEAD`` links 4 directories
    (``a=tree;f=<dir>;hb=HEAD``), each its files' blobs at ``HEAD``, every page
    with text of its own. Every page of the script was one waste family (``?p``):
    the blames proved it barren, and the real trees and blobs at ``HEAD`` waited
    for good (blind6 ``gitweb``: 22 of 50 pages). The handler is kept in the
    family, and a view at a commit's hash is apart from the same handler at the
    head: the blames prove only their own family barren."""
    rng = random.Random(6)
    words = vocabulary(rng, 600)

    def text(k: int = 50) -> str:
        return " ".join(rng.choices(words, k=k))

    commits = [_hash(f"commit {i}") for i in range(30)]
    files = {d: [f"{d}/{w}.c" for w in rng.sample(words, 3)] for d in DIRS}
    blamed = [names[0] for names in files.values()]
    names = [name for names in files.values() for name in names]
    bodies = {key: text() for key in [*commits, *DIRS, "tree", *names]}
    blames = {f: text() for f in blamed}
    base = "/?p=r.git;a="

    def handler(request: Request) -> tuple[str, str] | None:
        query = request.query_string.decode()
        if request.path != "/":
            return None
        if not query:
            return page("Projects", text(), [f"{base}summary"]), "text/html"
        pairs = dict(p.partition("=")[::2] for p in query.split(";"))
        a, f, h, hb = pairs.get("a"), pairs.get("f"), pairs.get("h"), pairs.get("hb")
        if a == "summary":
            return page("r.git", text(), [f"{base}shortlog", f"{base}tree"]), "text/html"
        if a == "shortlog":
            links = [f"{base}commit;h={c}" for c in commits]
            return page("shortlog", text(), links), "text/html"
        if a == "commit" and h in commits:
            links = [f"{base}blame;f={f};hb={h}" for f in blamed]
            return page(f"commit {h}", bodies[h], links), "text/html"
        if a == "blame" and f in blames and hb in commits:
            return page(f"blame {f}", blames[f], [f"{base}summary"]), "text/html"
        if a == "tree" and f is None:
            links = [f"{base}tree;f={d};hb=HEAD" for d in DIRS]
            return page("tree", bodies["tree"], links), "text/html"
        if a == "tree" and f in files and hb == "HEAD":
            links = [f"{base}blob;f={name};hb=HEAD" for name in files[f]]
            return page(f"tree {f}", bodies[f], links), "text/html"
        if a == "blob" and f in bodies and hb == "HEAD":
            return page(f"blob {f}", bodies[f], [f"{base}tree"]), "text/html"
        return None

    seen = crawl_paths(handler)
    real = [f"{base}tree;f={d};hb=HEAD" for d in DIRS]
    real += [f"{base}blob;f={name};hb=HEAD" for name in names]
    missing = [path for path in real if path not in seen]
    assert missing == [], missing


def test_a_handler_and_a_view_at_a_commit_are_kept_in_the_family() -> None:
    """``a=tree`` and ``a=blame`` are two families; the tree at a commit's hash is
    apart from the tree at ``HEAD``; a script without a handler is as before, and
    the actions on a page named by its path are one family (blind4 ``dokuwiki``)."""
    commit = _hash("c")
    tree = waste_family(normalize("http://h/?p=r.git;a=tree;f=src;hb=HEAD"))
    blame = waste_family(normalize(f"http://h/?p=r.git;a=blame;f=src/io.c;hb={commit}"))
    at = waste_family(normalize(f"http://h/?p=r.git;a=tree;f=src;hb={commit}"))
    assert len({tree, blame, at}) == 3
    assert "a=tree" in tree and "a=blame" in blame
    plain = waste_family(normalize("http://h/list.php?id=3"))
    assert plain == waste_family(normalize("http://h/list.php?id=4"))
    revisions = waste_family(normalize("http://h/ns:page?do=revisions"))
    assert revisions == waste_family(normalize("http://h/ns:other?do=diff"))
    assert "do=revisions" in waste_family(normalize("http://h/doku.php?id=page&do=revisions"))
