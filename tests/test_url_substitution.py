"""Directory aliases learned from content (DUST path substitutions,
:mod:`robotkit.url.substitution`), through :class:`LearnedRules` as the triage uses it."""

from __future__ import annotations

import json

from robotkit.url.learned import LearnedRules
from robotkit.url.normalization import normalize
from robotkit.url.substitution import listing_text, rewrite_of

HOST = "http://files.example"
ENTRIES = [
    "name",
    "last",
    "modified",
    "size",
    "description",
    "parent",
    "directory",
    "a",
    "html",
    "b",
    "html",
    "sub",
]


def listing(path: str) -> list[str]:
    """An Apache listing's words: heading twice, then the table."""
    heading = ["index", "of", *[w for w in path.replace(".", "/").split("/") if w]]
    rows = ENTRIES if path != "/" else [w for w in ENTRIES if w not in ("parent", "directory")]
    return [*heading, *heading, *rows]


def see(rules: LearnedRules, path: str, text: int = 0) -> list[str]:
    norm = normalize(HOST + path)
    words = listing(path) if path.endswith("/") else []
    return rules.observe(norm, text or hash(path.rpartition("/")[2]), words)


def learned(*paths: str) -> LearnedRules:
    """Rules that saw ``paths`` fetched in that order (a file's text: its name)."""
    rules = LearnedRules()
    for path in paths:
        see(rules, path)
    return rules


def key(rules: LearnedRules, path: str) -> str:
    return rules.apply(normalize(HOST + path))[len(HOST) :]


def test_listings_differ_only_by_heading_and_parent_row() -> None:
    assert listing_text("/docs/api/", listing("/docs/api/")) == listing_text(
        "/docs/api/self/", listing("/docs/api/self/")
    )
    assert listing_text("/", listing("/")) == listing_text("/x/y/", listing("/x/y/"))
    assert listing_text("/docs/", ["welcome", "to", "docs"]) is None


def test_the_rewrite_of_a_pair() -> None:
    assert rewrite_of("/d/api/self/o.html", "/d/api/o.html") == ("/d/api/self/", "/d/api/")
    assert rewrite_of("/d/m/parent/d/f/l.html", "/d/f/l.html") == ("/d/m/parent/", "/")
    # Siblings: the deeper is the real directory, whichever came first.
    assert rewrite_of("/dl/current/", "/dl/releases/2.1/") == ("/dl/current/", "/dl/releases/2.1/")
    assert rewrite_of("/dl/releases/2.1/", "/dl/current/") == ("/dl/current/", "/dl/releases/2.1/")
    assert rewrite_of("/a/x.html", "/b/y.html") is None  # no common file
    assert rewrite_of("/a/", "/a/x.html") is None


def test_a_loop_is_learned_from_a_listing_and_a_file() -> None:
    rules = LearnedRules()
    see(rules, "/docs/api/")
    see(rules, "/docs/api/overview.html")
    assert see(rules, "/docs/api/self/") == []  # one pair is no proof
    assert key(rules, "/docs/api/self/self/errors.html") == "/docs/api/self/self/errors.html"
    [line] = see(rules, "/docs/api/self/overview.html")
    assert "path /docs/api/self/ names /docs/api/" in line
    assert key(rules, "/docs/api/self/self/errors.html") == "/docs/api/errors.html"
    assert key(rules, "/docs/self/errors.html") == "/docs/self/errors.html"  # elsewhere kept
    why = rules.explain(normalize(HOST + "/docs/api/self/errors.html"))
    assert why is not None and "/docs/api/self/" in why


def test_files_alone_prove_nothing() -> None:
    rules = LearnedRules()
    for name in ("a.html", "b.html", "c.html"):
        see(rules, f"/one/{name}")
        assert see(rules, f"/two/{name}") == []
    assert key(rules, "/two/d.html") == "/two/d.html"


def test_a_pair_with_two_texts_vetoes_and_withdraws() -> None:
    rules = learned("/docs/", "/docs/a.html", "/mirror/docs/", "/mirror/docs/a.html")
    assert key(rules, "/mirror/docs/b.html") == "/docs/b.html"
    see(rules, "/docs/b.html", text=1)
    [line] = see(rules, "/mirror/docs/b.html", text=2)
    assert line.startswith("withdrawn")
    assert key(rules, "/mirror/docs/c.html") == "/mirror/docs/c.html"


def test_the_real_path_is_the_page_when_the_alias_came_first() -> None:
    rules = learned(
        "/dl/current/", "/dl/current/notes.html", "/dl/releases/2.1/", "/dl/releases/2.1/notes.html"
    )
    real, alias = (
        normalize(HOST + "/dl/releases/2.1/notes.html"),
        normalize(HOST + "/dl/current/notes.html"),
    )
    assert rules.prefers(real, alias) and not rules.prefers(alias, real)
    assert key(rules, "/dl/current/other.tar.gz") == "/dl/releases/2.1/other.tar.gz"


def test_aliases_survive_a_snapshot() -> None:
    rules = learned("/d/", "/d/a.html", "/d/self/", "/d/self/a.html")
    restored = LearnedRules()
    restored.restore(json.loads(json.dumps(rules.snapshot())))
    assert key(restored, "/d/self/self/b.html") == "/d/b.html"
