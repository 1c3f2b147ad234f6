"""The waste bound and a thread's print view (ARCHITECTURE.md, "The waste bound";
:mod:`robotkit.triage.variants`): a view showing every page of a thread, read before
the thread's second page, is no evidence against the second pages of other threads.
A real loopback server; the paths are the server's.
"""

from __future__ import annotations

import random

from werkzeug import Request

from robotkit.triage.variants import with_more
from robotkit.triage.waste import WasteLedger
from robotkit.url.normalization import normalize
from tests.test_crawler_waste import vocabulary
from tests.test_crawler_waste_exports import crawl_paths, page
from tests.test_crawler_waste_listing import SPENT

TOPICS = range(1, 9)


def test_a_threads_second_page_after_its_print_view_spares_the_other_threads() -> None:
    """A forum under one front controller (SMF's ``/index.php``): each topic links its
    print view (``action=printpage;topic=N.0``, every post of the topic without the
    navigation) before its second page (``topic=N.10``). Read after the print view,
    the second page repeats its path; counted as evidence, three such made the
    topics' family barren, and the second pages of the later topics waited for good
    on a host whose budget was spent (blind5 ``smf``: 7 of 46 pages)."""
    rng = random.Random(58)
    words = vocabulary(rng, 400)
    posts = {(t, s): " ".join(rng.choices(words, k=80)) for t in TOPICS for s in (0, 10)}
    chrome = " ".join(rng.sample(words, 40))

    def topic(t: int, start: int) -> str:
        links = ["/index.php", f"/index.php?action=printpage;topic={t}.0"]
        links.append(f"/index.php?topic={t}.10")
        return page(f"Topic {t} {chrome}", posts[(t, start)], links)

    def handler(request: Request) -> tuple[str, str] | None:
        query = request.query_string.decode()
        if request.path != "/index.php" and request.path != "/":
            return None
        if not query:
            links = [f"/index.php?topic={t}.0" for t in TOPICS]
            return page("Forum", "the forum's topics", links), "text/html"
        state = dict(pair.partition("=")[::2] for pair in query.split(";"))
        number, _, start = state.get("topic", "").partition(".")
        if not number.isdigit() or int(number) not in TOPICS or start not in ("0", "10"):
            return None
        t = int(number)
        if state.get("action") == "printpage":
            body = f"Print topic {t} {posts[(t, 0)]} {posts[(t, 10)]}"
            return f"<html><body><p>{body}</p></body></html>", "text/html"
        return topic(t, int(start)), "text/html"

    seen = set(crawl_paths(handler, SPENT))
    assert {f"/index.php?topic={t}.10" for t in TOPICS} <= seen


def test_only_a_page_repeating_what_a_view_showed_is_told() -> None:
    """:meth:`WasteLedger.variant`'s third answer: a page repeating its path only by
    what a view of the page that linked it (its query with more states) showed; not
    another view, nor a page repeating what the path's pages showed, nor a page
    linked by another page than the one viewed."""
    ledger = WasteLedger()
    one, two = [f"a{n}" for n in range(40)], [f"b{n}" for n in range(40)]
    first = normalize("http://h/index.php?topic=1.0")
    assert ledger.variant(first, one) == (False, False, False)
    printed = normalize("http://h/index.php?action=printpage;topic=1.0")
    assert ledger.variant(printed, one + two, first) == (True, False, False)
    assert ledger.variant(normalize("http://h/index.php?topic=1.10"), two, first) == (
        True,
        True,
        True,
    )
    assert ledger.variant(normalize("http://h/index.php?topic=1.0;all"), one, first) == (
        True,
        True,
        False,
    )
    other = normalize("http://h/index.php?board=1.0")
    assert ledger.variant(normalize("http://h/index.php?topic=1.20"), two, other) == (
        True,
        True,
        False,
    )
    assert with_more(printed, first)
    assert not with_more(first, printed)
    assert not with_more(normalize("http://h/index.php?topic=2.0"), first)
