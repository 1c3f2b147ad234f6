"""The waste bound and a list's end (ARCHITECTURE.md, "The waste bound"): a stale count
offers one empty page past each list's last, and those ends are no evidence against
the real later pages of the other lists. A real loopback server for the crawl; the
ledger's rule, pure, beside it.
"""

from __future__ import annotations

import random

from werkzeug import Request

from robotkit.triage.waste import BARREN, WasteLedger
from robotkit.url.normalization import normalize
from robotkit.url.template import list_end, paged_list
from robotkit.url.waste import waste_family, waste_shape
from tests.test_crawler_waste import vocabulary
from tests.test_crawler_waste_exports import crawl_paths, page
from tests.test_crawler_waste_listing import SPENT

TOPICS = range(1, 10)
LONG = {t for t in TOPICS if t > 3}
"""Topics with a real second page; the first three end at their first."""


def test_one_empty_page_past_each_topics_end_spares_the_real_second_pages() -> None:
    """A forum whose reply counts are stale (phpBB's resync problem): every topic
    links one ``&start=`` page more than it has, and that page says "No posts." in
    the topic's chrome, a variant repeating its path. Three topics of one page made
    the family of ``viewtopic.php?t`` barren, and the real second pages of the
    later topics waited for good on a host whose budget was spent (blind2 ``phpbb``:
    9 of 59 pages). The first empty page of each list is its end, not evidence."""
    rng = random.Random(44)
    words = vocabulary(rng, 400)
    posts = {(t, s): " ".join(rng.choices(words, k=80)) for t in TOPICS for s in (0, 10)}
    chrome = " ".join(rng.sample(words, 40))

    def topic(t: int, start: int) -> str:
        url = f"/viewtopic.php?f=1&t={t}"
        pages = 2 if t in LONG else 1
        more = [url, *(f"{url}&start={10 * n}" for n in range(1, pages + 1))]
        real = start // 10 < pages
        text = posts[(t, start)] if real else "No posts."
        nxt = [] if real else [f"{url}&start={start + 10}"]
        return page(f"Topic {t} {chrome}", text, ["/viewforum.php?f=1", *more, *nxt])

    def handler(request: Request) -> tuple[str, str] | None:
        path = request.full_path.rstrip("?")
        if path == "/":
            return page("Board", "the board index", ["/viewforum.php?f=1"]), "text/html"
        if path == "/viewforum.php?f=1":
            links = [f"/viewtopic.php?f=1&t={t}" for t in TOPICS]
            return page("Forum", "the forum's topics", links), "text/html"
        args = request.args
        if request.path == "/viewtopic.php" and args.get("t", "").isdigit():
            return topic(int(args["t"]), int(args.get("start", "0"))), "text/html"
        return None

    seen = set(crawl_paths(handler, SPENT))
    assert {f"/viewtopic.php?f=1&t={t}&start=10" for t in LONG} <= seen


def _fetch(ledger: WasteLedger, url: str, referer: str) -> None:
    norm = normalize(url)
    family, shape = waste_family(norm), waste_shape(norm)
    paged = paged_list(norm, normalize(referer))
    ledger.fetched("h", "r", url, url, False, family, shape=shape, paged=paged)


def test_a_lists_second_page_past_its_end_is_evidence() -> None:
    """Only a list's first empty page is its end: a chain of them (each linking the
    next offset) proves its family barren as any copies do."""
    ledger = WasteLedger()
    topic = "http://h/viewtopic.php?t=1"
    for n in range(1, BARREN + 1):
        _fetch(ledger, f"{topic}&start={10 * n}", f"{topic}&start={10 * (n - 1)}")
    norm = normalize(f"{topic}&start=50")
    assert not ledger.barren(waste_family(norm), waste_shape(norm))
    _fetch(ledger, f"{topic}&start=40", f"{topic}&start=30")
    assert ledger.barren(waste_family(norm), waste_shape(norm))


def test_a_page_of_a_list_is_its_referers_url_with_one_number_added_or_moved() -> None:
    def of(url: str, referer: str) -> str | None:
        return paged_list(normalize(url), normalize(referer))

    assert of("http://h/v?t=7&start=10", "http://h/v?t=7") == "http://h/v?t=7"
    assert of("http://h/v?start=20&t=7", "http://h/v?t=7&start=10") == "http://h/v?t=7"
    assert of("http://h/v?t=7&sort=new", "http://h/v?t=7") is None  # a word: a state
    assert of("http://h/v?p=5000", "http://h/v?t=7") is None  # another object
    assert of("http://h/w?t=7&start=10", "http://h/v?t=7") is None  # another path


def test_only_a_page_linking_a_further_page_of_its_list_is_its_end() -> None:
    """A pager past the end offers the next offset again, its pages at one step, and
    links its list's first page; a toggle adds a number (``print=1``) but links no
    other value of it, or leads back, and a filter's menu of values is at no one step
    (blind2 ``wiki``)."""
    empty, topic = normalize("http://h/v?t=7&start=10"), normalize("http://h/v?t=7")
    assert list_end(empty, topic, [topic, normalize("http://h/v?t=7&start=20")]) == "http://h/v?t=7"
    assert list_end(empty, topic, [topic, normalize("http://h/v?t=8&start=20")]) is None
    # Nor does a pager leave out its list's first page: two numbers stepped at once
    # (DokuWiki's ``rev2[0]`` and ``rev2[1]``) make each page a list of its own.
    assert list_end(empty, topic, [normalize("http://h/v?t=7&start=20")]) is None
    printed, page = normalize("http://h/p?print=1"), normalize("http://h/p")
    assert list_end(printed, page, [normalize("http://h/p?print=1&lang=fr")]) is None
    shown, hidden = normalize("http://h/rc?hideanons=1"), normalize("http://h/rc?hideanons=0")
    assert list_end(shown, page, [hidden]) is None  # a toggle leads back
    week = normalize("http://h/rc?days=7")
    menu = [normalize(f"http://h/rc?days={n}") for n in (1, 3, 14, 30)] + [normalize("http://h/rc")]
    assert list_end(week, normalize("http://h/rc"), menu) is None  # a filter's menu
    third = normalize("http://h/v?t=7&start=30")
    pager = [topic, *(normalize(f"http://h/v?t=7&start={n}") for n in (10, 20, 40))]
    assert list_end(third, normalize("http://h/v?t=7&start=20"), pager) == "http://h/v?t=7"
