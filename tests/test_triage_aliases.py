"""A numbered object and the word-named aliases that reach it (``lastBuild/``,
``lastBuild/previousBuild/``): of two URLs with one text, the numbered one is the
page even when an alias was fetched first. The pure core, fed the facts a crawl
would feed it; the crawl is blind3 ``jenkins``'s (traps/README.md)."""

from __future__ import annotations

from robotkit.traps.base import prose
from robotkit.triage.triage import PageFacts, Triage
from robotkit.url.learned import numbered_alias, query_alias
from robotkit.url.normalization import normalize
from robotkit.url.waste import waste_family, waste_shape

SITE = "http://ci.example"
JOB = f"{SITE}/job/kernel/"


def build(n: int) -> str:
    return f"<html><body><h1>kernel #{n}</h1><p>{prose(f'build {n}', 10)}</p></body></html>"


def test_a_numbered_url_is_the_page_of_its_word_named_aliases() -> None:
    """Permalinks and relative steps name a numbered object; the reverse, a number
    in place of a name or a second number, is no alias."""
    assert numbered_alias(normalize(f"{JOB}41/"), normalize(f"{JOB}lastBuild/"))
    assert numbered_alias(
        normalize(f"{JOB}41/console"), normalize(f"{JOB}lastBuild/previousBuild/console")
    )
    assert not numbered_alias(normalize(f"{JOB}lastBuild/"), normalize(f"{JOB}41/"))
    assert not numbered_alias(normalize(f"{JOB}41/"), normalize(f"{JOB}42/"))
    assert not numbered_alias(normalize(f"{JOB}41/"), normalize(f"{JOB}v2/next/"))
    assert not numbered_alias(normalize(f"{JOB}41/"), normalize(f"{JOB}lastBuild/?x=1"))


def test_an_objects_own_query_is_the_page_of_a_listing_context_naming_it_by_a_word() -> None:
    """A gallery shows a picture under a meta album (``album=lastup``, with a category
    or not) and under its own album's number: the number is the page (blind10
    ``coppermine``). Not a word for a number, two numbers, or a pair the copy lacks."""
    img = f"{SITE}/displayimage.php"
    assert numbered_alias(normalize(f"{img}?album=2&pid=7"), normalize(f"{img}?album=lastup&pid=7"))
    assert numbered_alias(
        normalize(f"{img}?album=2&pid=7"), normalize(f"{img}?album=topn&cat=3&pid=7")
    )
    assert not numbered_alias(
        normalize(f"{img}?album=lastup&pid=7"), normalize(f"{img}?album=2&pid=7")
    )
    assert not numbered_alias(normalize(f"{img}?album=2&pid=7"), normalize(f"{img}?album=3&pid=7"))
    assert not numbered_alias(
        normalize(f"{img}?album=2&pid=7"), normalize(f"{img}?album=lastup&pid=8")
    )
    assert not numbered_alias(normalize(f"{img}?album=2&pid=7"), normalize(f"{img}?album=lastup"))


def test_builds_reached_first_through_aliases_are_pages_and_their_links_no_copy_form() -> None:
    """Builds fetched first through ``lastBuild/previousBuild/...`` chains, then under
    their numbers from the job page: each numbered build is fetched as the page (no
    ``duplicate-content``), so the job page's link form to its builds is never
    learned as a copy form and the next build is not skipped as ``duplicate-url``."""
    triage = Triage()
    chain, referer = f"{JOB}lastBuild/", JOB
    for n in range(50, 45, -1):
        triage.judge(PageFacts(chain, chain, 200, build(n), (), None, referer=referer), set())
        chain, referer = chain + "previousBuild/", chain
    for n in range(50, 45, -1):
        url = f"{JOB}{n}/"
        verdict = triage.judge(PageFacts(url, url, 200, build(n), (), None, referer=JOB), set())
        assert verdict.reason is None, n
    assert triage.screen(normalize(f"{JOB}45/"), 0, JOB) is None


def test_a_page_number_is_the_page_of_its_last_alias_and_no_evidence_against_its_family() -> None:
    """Topics whose ``last`` alias (``/t/x/245/last``, the topic's last page) is read
    before their second page (``?page=2``, linked by the topic): each second page is
    fetched as the page, and three of them in a row do not make the family of the
    other topics' second pages barren (blind3 ``discourse``)."""
    assert numbered_alias(normalize(f"{SITE}/t/x/245?page=2"), normalize(f"{SITE}/t/x/245/last"))
    assert not numbered_alias(normalize(f"{SITE}/t/x/245?page=2"), normalize(f"{SITE}/t/x/24/last"))
    assert not numbered_alias(
        normalize(f"{SITE}/t/x/245?sort=up"), normalize(f"{SITE}/t/x/245/last")
    )
    triage = Triage()
    for n, slug in enumerate(
        ("breadboard-newbie-well", "water-development-then", "quote-part-enclosures")
    ):
        topic = f"{SITE}/t/{slug}/{n}"
        first = f"<html><body><p>{prose(f'{slug} opening', 10)}</p></body></html>"
        second = f"<html><body><p>{prose(f'{slug} replies', 10)}</p></body></html>"
        triage.judge(PageFacts(topic, topic, 200, first, (), None, referer=SITE), set())
        last = f"{topic}/last"
        triage.judge(PageFacts(last, last, 200, second, (), None, referer=SITE), set())
        page = f"{topic}?page=2"
        verdict = triage.judge(PageFacts(page, page, 200, second, (), None, referer=topic), set())
        assert verdict.reason is None
    other = normalize(f"{SITE}/t/harbour-lanterns-at-dusk/9?page=2")
    assert not triage.waste.barren(waste_family(other), waste_shape(other))


def test_a_clean_path_is_the_page_of_the_script_query_that_asks_for_it() -> None:
    """Objects read first under their script's query form
    (``/app/bookmarkable/ObjectPage?acc=<id>``), then under their mounted clean path
    (``/object/<id>``): each clean path is fetched as the page, and three of them in a
    row do not make the family of the other objects barren (blind6 ``wicket``)."""
    form = f"{SITE}/app/bookmarkable/ObjectPage?acc="
    assert query_alias(normalize(f"{SITE}/object/1987.042"), normalize(f"{form}1987.042"))
    assert query_alias(normalize(f"{SITE}/node/12"), normalize(f"{SITE}/index.php?q=node/12"))
    assert not query_alias(normalize(f"{form}1987.042"), normalize(f"{SITE}/object/1987.042"))
    assert not query_alias(normalize(f"{SITE}/object/1987.042"), normalize(f"{form}1987.043"))
    assert not query_alias(
        normalize(f"{SITE}/object/1987.042"), normalize(f"{SITE}/object/1987.042?acc=1987.042")
    )
    triage = Triage()
    for n in range(3):
        acc = f"19{n}0.0{n}2"
        text = f"<html><body><p>{prose(f'object {acc}', 10)}</p></body></html>"
        triage.judge(PageFacts(form + acc, form + acc, 200, text, (), None, referer=SITE), set())
        page = f"{SITE}/object/{acc}"
        verdict = triage.judge(PageFacts(page, page, 200, text, (), None, referer=SITE), set())
        assert verdict.reason is None
    other = normalize(f"{SITE}/object/2008.099")
    assert not triage.waste.barren(waste_family(other), waste_shape(other))


def test_a_picture_read_after_a_meta_albums_echoed_copy_of_it_does_not_end_its_trial() -> None:
    """A gallery's meta album shows a picture with its name in the page ("Picture 4
    lastup"): the picture's own URL, read after it, is a copy but for the words its
    URL echoes. The numbered URL is the page, so such copies are no evidence against
    the pictures' form, tried while the meta albums' copies made the family barren
    (blind10 ``coppermine``: the first picture ended the trial, 26 of 46 pages
    waited for good)."""
    img = f"{SITE}/displayimage.php"

    def picture(n: int, where: str) -> str:
        near = f"<li>Picture {n - 1}</li><li>Picture {n + 1}</li>"
        return f"<html><body><p>Picture {n} {where}</p><ul>{near}</ul></body></html>"

    triage = Triage()
    for meta in ("lastup", "topn", "random", "lastcom"):
        for n in (3, 4, 5):
            url = f"{img}?album={meta}&pid={n}"
            triage.judge(PageFacts(url, url, 200, picture(n, meta), (), None, referer=SITE), set())
    for n in (3, 4, 5):
        url = f"{img}?album=9&pid={n}"
        page = PageFacts(url, url, 200, picture(n, ""), (), None, referer=SITE)
        assert not triage.judge(page, set()).taught
    other = normalize(f"{img}?album=8&pid=2")
    family, shape = waste_family(other), waste_shape(other)
    assert triage.waste.barren(family, shape)
    assert not triage.waste.held(family, shape, "album={n}&pid={n}")
