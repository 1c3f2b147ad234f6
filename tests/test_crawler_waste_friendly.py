"""The waste bound on a forum with friendly URLs (blind8 ``vbulletin``): a thread
named by a query pair with no value (``showthread.php?101-title``) is counted as its
path form, so the display modes of every thread are one family. A real loopback
server; the paths are the server's.
"""

from __future__ import annotations

import random
import re

from werkzeug import Request

from robotkit.url.friendly import as_path
from robotkit.url.normalization import normalize
from tests.test_crawler_waste import vocabulary
from tests.test_crawler_waste_exports import crawl_paths, page

MODES = ("linear", "threaded", "hybrid")


def test_the_display_modes_of_every_thread_are_one_family() -> None:
    """A forum lists 24 threads ``showthread.php?<id>-<slug>``; each thread links
    its posts in three display modes (``&mode=``), the same posts in another order.
    With the slug read as a parameter's name, each thread was a family of its own
    and paid for its modes, 72 fetches (blind8 ``vbulletin``: 36 mode fetches of 18
    threads); counted as ``showthread.php/<id>-<slug>?mode=``, the modes of all
    threads are one family, barren after three, and every thread is still fetched."""
    rng = random.Random(8)
    words = vocabulary(rng, 500)
    slugs = [f"{100 + i}-" + "-".join(rng.choices(words, k=3)) for i in range(24)]
    posts = {slug: [" ".join(rng.choices(words, k=30)) for _ in range(4)] for slug in slugs}

    def handler(request: Request) -> tuple[str, str] | None:
        path, query = request.path, request.query_string.decode()
        if path in ("/", "/forum.php"):
            links = [f"/showthread.php?{slug}" for slug in slugs]
            return page("Forum", "the electronics forum", links), "text/html"
        found = re.fullmatch(r"([\w-]+)(?:&mode=(\w+))?", query)
        if path != "/showthread.php" or found is None or found.group(1) not in posts:
            return None
        slug, mode = found.groups()
        if mode not in (None, *MODES):
            return None
        shown = posts[slug] if mode in (None, "linear") else posts[slug][::-1]
        shown = shown[1:] + shown[:1] if mode == "hybrid" else shown
        links = ["/forum.php"] + [f"/showthread.php?{slug}&mode={m}" for m in MODES]
        return page(f"Thread {slug}", " ".join(shown), links), "text/html"

    seen = crawl_paths(handler)
    missing = [slug for slug in slugs if f"/showthread.php?{slug}" not in seen]
    assert missing == [], missing
    modes = [path for path in seen if "&mode=" in path]
    assert len(modes) <= 20, modes


def test_a_query_pair_naming_an_object_is_a_path_segment() -> None:
    """Only a pair with no value, a number and a slug, after a script's name."""

    def key(url: str) -> str:
        return as_path(normalize(url)).key

    assert key("http://f/showthread.php?101-a-title&mode=hybrid") == (
        "http://f/showthread.php/101-a-title?mode=hybrid"
    )
    assert (
        key("http://f/forumdisplay.php?2-boards/page2")
        == "http://f/forumdisplay.php/2-boards/page2"
    )
    assert key("http://f/threads/?101-a-title") == "http://f/threads/?101-a-title"
    assert key("http://f/show.php?id=101-a-title") == "http://f/show.php?id=101-a-title"
