"""A pager by offset (``robotkit.triage.entries``): Solr's and Google's ``start=``,
Elasticsearch's ``from=``, Django REST framework's ``offset=`` and a property portal's
``index=`` number the next page by its first record, the page's offset plus the records
it lists. In a parked query space it is a next page all the same (blind14
``realestate``: each region's ``&index=4`` after four homes, and the homes only it
lists, held with the filters that parked the searches). The crawl driver of
``tests/test_triage.py``."""

from __future__ import annotations

from robotkit.triage.entries import offset_pages
from robotkit.triage.regions import region_of
from robotkit.url.normalization import NormalizedURL
from tests.test_triage import SITE, Crawl, html
from tests.test_triage_entries import prose

FILTERS = [f"beds={n}" for n in range(1, 5)] + [f"sort={s}" for s in "abcdef"]


def portal(url: str) -> tuple[str, list[str]]:
    """A search of 6 homes, 4 a page: ``/find?loc=a`` links ten filters of itself,
    its four homes and "Next" (``index=4``, the offset of the fifth home), which
    lists the other two and links ``index=8`` (no home there). A filter says
    nothing new and links two states more of itself and its own ``index=4``."""
    base = f"{SITE}/find?loc=a"
    if url.startswith(f"{SITE}/home/"):
        return html("Home", prose("h" + url.rpartition("/")[2])), []
    if not url.startswith(base):
        return html("Portal", "the homes for sale in the town", [base]), [base]
    rest = url[len(base) :]
    if rest in ("", "&index=4", "&index=8"):
        at = int(rest.rpartition("=")[2] or "0")
        homes = [f"{SITE}/home/{h}" for h in range(at, min(at + 4, 6))]
        links = [f"{base}&{f}" for f in FILTERS] + homes + [f"{base}&index={at + 4}"]
        return html("Search", f"homes from {at} of the search", links), links
    more = [f"{url}&x=1", f"{url}&x=2", f"{url}&index=4"]
    return html("Search", f"homes filtered {sum(map(ord, rest))}", more), more


def test_the_next_page_of_an_offset_pager_is_let_into_a_parked_search() -> None:
    """The filters park ``/find?`` before the pager is read: the second page,
    ``index=4`` after four homes, is still fetched, and so every home only it lists;
    a filter's own pager is not, nor the page past a short one (two homes of four:
    the last)."""
    crawl = Crawl()
    crawl.run(portal, f"{SITE}/", budget=300)
    assert f"{SITE}/find?" in crawl.triage.regions.parked
    assert f"{SITE}/find?loc=a&index=4" in crawl.fetched
    assert all(f"{SITE}/home/{h}" in crawl.fetched for h in range(6))
    assert f"{SITE}/find?loc=a&index=8" not in crawl.fetched
    assert not any("index=" in url and ("beds=" in url or "sort=" in url) for url in crawl.fetched)


def test_only_steps_by_the_records_listed_are_an_offset_pager() -> None:
    """:func:`offset_pages`: ``start=10`` on a page of ten records (``start=20``,
    ``30`` beside it) pages on; ``beds=1`` to ``4`` on a page of four records is a
    filter (it steps by 1); ``per_page=10``, ``20``, ``50`` on ten records are page
    sizes (50 skips 30); a page listing one record names no offset pager."""
    crawl = Crawl()
    page = crawl.triage.normalize(f"{SITE}/s?q=a")

    def linked(query: str, records: int) -> list[tuple[NormalizedURL, str]]:
        urls = [f"{SITE}/s?q=a&{query}"] + [f"{SITE}/r/{k}" for k in range(records)]
        return [(norm, region_of(norm)) for norm in map(crawl.triage.normalize, urls)]

    starts = [crawl.triage.normalize(f"{SITE}/s?q=a&start={n}") for n in (10, 20, 30)]
    records = linked("start=10", 10)[1:]
    got = offset_pages(page, [(s, region_of(s)) for s in starts] + records, region_of(page))
    assert got == starts
    beds = [crawl.triage.normalize(f"{SITE}/s?q=a&beds={n}") for n in range(1, 5)]
    four = [(b, region_of(b)) for b in beds] + linked("x=1", 4)[1:]
    assert offset_pages(page, four, region_of(page)) == []
    assert offset_pages(page, linked("start=1", 1), region_of(page)) == []
    sizes = [crawl.triage.normalize(f"{SITE}/s?q=a&per_page={n}") for n in (10, 20, 50)]
    ten = [(s, region_of(s)) for s in sizes] + records
    assert offset_pages(page, ten, region_of(page)) == []
