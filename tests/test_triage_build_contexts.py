"""A page under another build context (pkg.go.dev's ``?GOOS=linux&GOARCH=amd64``) is the
page under another display, as one under another template is: a pair valued by a build
target's name, a word with a number at its end, is valued by a word. The crawl driver of
``tests/test_triage.py``."""

from __future__ import annotations

from tests.test_triage import SITE, Crawl, html
from tests.test_triage_list_states import prose_of

CONTEXTS = ("linux&GOARCH=amd64", "windows&GOARCH=amd64", "darwin&GOARCH=arm64", "js&GOARCH=wasm")


def test_a_package_under_another_build_context_linking_nothing_new_taught_nothing() -> None:
    """Every package page links itself under four build contexts, each rendering the
    package with prose of its own and linking what the package linked: counted as a
    number, ``amd64`` kept the contexts from being views, and each taught (blind13
    ``pkgsite``: 428 build-context pages of packages at every version). A pair valued
    by a version (``?v=v2`` beside ``?v=v1``) still names another text of the page."""
    crawl = Crawl()
    page = f"{SITE}/pkg/ledger/engine"
    views = [f"{page}?GOOS={context}" for context in CONTEXTS]
    links = [f"{SITE}/pkg/ledger", *views]
    crawl.offer(page)
    crawl.fetch(page, html("engine", prose_of(0), links), links)
    _, verdict = crawl.fetch(views[0], html("engine", prose_of(1), links), links, referer=page)
    assert not verdict.taught
    doc = f"{SITE}/doc/guide"
    versions = [f"{doc}?v=v1", f"{doc}?v=v2"]
    crawl.fetch(doc, html("Guide", prose_of(2), versions), versions, referer=page)
    _, verdict = crawl.fetch(
        versions[1], html("Guide", prose_of(3), versions), versions, referer=doc
    )
    assert verdict.taught
