"""The content rules the crawler added to robotkit.content: the soft-404 title rule,
the probed directory's own index, and the echo-free fingerprint."""

from __future__ import annotations

import random

from robotkit.base.reasons import Reason
from robotkit.content import Soft404Config, Soft404Detector, echo_free_fingerprint, fingerprint

BASE = "http://shop.example"


def sorry(rng: random.Random) -> str:
    """An error page answered with 200 that suggests fresh random pages."""
    links = "".join(
        f'<li><a href="/suggest/{rng.getrandbits(32):08x}.html">'
        f"/suggest/{rng.getrandbits(32):08x}.html</a></li>"
        for _ in range(3)
    )
    return (
        "<title>Sorry, we could not find that page</title>"
        "<h1>Sorry, we could not find that page</h1>"
        "<p>The page you asked for is not here. You may like these instead:</p>"
        f"<ul>{links}</ul>"
    )


def article(title: str, words: str) -> str:
    return f"<title>{title}</title><h1>{title}</h1><p>{words}</p>"


def probed(body: str, directory: str = "/", title_max_distance: int | None = 24) -> Soft404Detector:
    config = Soft404Config(title_max_distance=title_max_distance)
    detector = Soft404Detector(config, random.Random(1))
    probe = detector.needs_probe(f"{BASE}{directory}page.html")
    assert probe is not None
    detector.record_probe(probe, 200, body, probe)
    return detector


def test_same_title_as_the_probe_answer_is_a_soft_404_despite_random_links() -> None:
    rng = random.Random(7)
    detector = probed(sorry(rng))
    verdicts = [detector.classify(f"{BASE}/old-{n}.html", 200, sorry(rng)) for n in range(50)]
    assert verdicts == [Reason.SOFT_404] * 50


def test_without_the_title_rule_random_links_hide_the_soft_404() -> None:
    rng = random.Random(7)
    detector = probed(sorry(rng), title_max_distance=None)
    verdicts = {detector.classify(f"{BASE}/old-{n}.html", 200, sorry(rng)) for n in range(50)}
    assert None in verdicts


def test_a_real_page_with_its_own_title_is_not_a_soft_404() -> None:
    detector = probed(sorry(random.Random(7)))
    page = article(
        "Opening hours",
        "We open at nine and close at six, every day but Sunday, in the old harbor.",
    )
    assert detector.classify(f"{BASE}/hours.html", 200, page) is None


def test_a_real_page_that_shares_the_title_but_not_the_text_is_kept() -> None:
    error = article("Acme", "Nothing here, sorry. Try the search box above.")
    detector = probed(error)
    page = article(
        "Acme",
        "Acme builds river barges from cedar and copper; each hull is tested in the "
        "harbor for a week before it leaves the yard, and every barge has a name.",
    )
    assert detector.classify(f"{BASE}/barges.html", 200, page) is None


def test_the_index_of_a_probed_catch_all_directory_is_not_a_soft_404() -> None:
    guide = article("Guide", "How to install, configure and run the lantern service.")
    detector = probed(guide, "/guide/")
    assert detector.classify(f"{BASE}/guide/", 200, guide) is None
    assert detector.classify(f"{BASE}/guide/sub/sub/", 200, guide) is Reason.SOFT_404


def test_echo_free_fingerprint_ignores_the_echoed_path() -> None:
    def listing(path: str, child: str) -> str:
        return f"<title>Index of {path}</title><h1>Index of {path}</h1><a>{child}/</a>"

    a = "/files/loop/a/b/c/"
    b = "/files/loop/a/b/c/a/"
    assert fingerprint(listing(a, "a")).exact != fingerprint(listing(b, "b")).exact
    assert (
        echo_free_fingerprint(BASE + a, listing(a, "a")).exact
        == echo_free_fingerprint(BASE + b, listing(b, "b")).exact
    )
    other = "/files/docs/"
    assert (
        echo_free_fingerprint(BASE + other, listing(other, "manual")).exact
        != echo_free_fingerprint(BASE + a, listing(a, "a")).exact
    )
