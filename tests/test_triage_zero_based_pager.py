"""A pager that counts from 0 (``robotkit.triage.entries``): Evergreen's TPAC results
and Drupal's pager write the second page as ``?page=1``, and a first page links it
alone, as its "Next". In a parked query space it is a next page all the same (blind12
``evergreen``: four subjects' real second pages, and the eight records only they list,
held with the sorts that parked the results). The crawl driver of
``tests/test_triage.py``."""

from __future__ import annotations

from robotkit.triage.entries import next_pages
from tests.test_triage import SITE, Crawl, html
from tests.test_triage_entries import prose


def results(url: str) -> tuple[str, list[str]]:
    """A catalogue of 20 records, 10 a page: ``/results?q=x`` links ten facets and two
    sorts of itself, its records and "Next" (``page=1``, the second page, counting
    from 0), which links "Previous" (no ``page=``) and its own ten records. A facet
    or sort says nothing new and links two states more of itself and its own Next."""
    path, _, query = url[len(SITE) :].partition("?")
    if path == "/":
        links = [f"{SITE}/results?q=x"]
        return html("Library", "the catalogue of the library", links), links
    if path.startswith("/record/"):
        return html("Record", prose("r" + path.rpartition("/")[2])), []
    pairs = dict(pair.partition("=")[::2] for pair in query.split("&"))
    base = f"{SITE}/results?q=x"
    if set(pairs) <= {"q", "page"}:
        n = int(pairs.get("page", "0"))
        states = [f"{base}&f=c{j}" for j in range(10)] + [f"{base}&sort={s}" for s in "ty"]
        pager = [f"{base}&page=1"] if n == 0 else [base]
        records = [f"{SITE}/record/{r}" for r in range(10 * n, 10 * n + 10)]
        links = states + pager + records
        return html("Results", f"page {n} of the results", links), links
    more = [f"{url}&x=1", f"{url}&x=2", f"{url}&page=1"]
    return html("Results", f"results filtered {sum(map(ord, query))}", more), more


def test_a_first_page_linking_page_one_alone_names_its_next_page() -> None:
    """The facets and sorts park ``/results?`` before the pager is read: the second
    page, ``page=1`` of a pager counting from 0, is still fetched, and so every
    record only it lists; a facet's own pager is not."""
    crawl = Crawl()
    crawl.run(results, f"{SITE}/", budget=300)
    assert f"{SITE}/results?" in crawl.triage.regions.parked
    assert f"{SITE}/results?q=x&page=1" in crawl.fetched
    assert all(f"{SITE}/record/{r}" in crawl.fetched for r in range(20))
    assert not any("f=" in url and "page=" in url for url in crawl.fetched)


def test_page_one_is_the_next_page_only_when_the_pager_names_no_other() -> None:
    """:func:`next_pages` on a first page: ``page=1`` alone is the next page (a pager
    from 0); beside ``page=2`` it is the first page itself (a pager from 1)."""
    crawl = Crawl()
    page = crawl.triage.normalize(f"{SITE}/list?q=a")
    one, two = (crawl.triage.normalize(f"{SITE}/list?q=a&page={k}") for k in (1, 2))
    assert next_pages(page, [one]) == [one]
    assert next_pages(page, [one, two]) == [two]
    assert next_pages(crawl.triage.normalize(f"{SITE}/list?q=a&page=1"), [two]) == [two]


def test_several_names_each_added_at_one_alone_are_switches_not_a_pager() -> None:
    """A page has one pager: MediaWiki's recent changes link ``hidebots=1``,
    ``hideanons=1`` and ``hidemyself=1``, each alone, and none is a next page (blind2
    ``wiki``: 6 trap fetches in a trial that took them); ``page=1`` alone still is."""
    crawl = Crawl()
    page = crawl.triage.normalize(f"{SITE}/changes?days=7")
    toggles = [crawl.triage.normalize(f"{SITE}/changes?days=7&{n}=1") for n in ("a", "b", "c")]
    assert next_pages(page, toggles) == []
    assert next_pages(page, toggles[:1]) == toggles[:1]
