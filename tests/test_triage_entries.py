"""What a parked query space still lets in (``robotkit.triage.entries``): the next
pages of a list page that was news and is an entry of its list (blind7
``blacklight``, ``prestashop``: the real second page of a list, lost once its
facets parked the space), and the siblings of a page of the space that two pages of
other regions link (blind7 ``omeka``, ``movabletype``: tag lists every entry links,
lost when the sorts and limits of the first tag page parked the space first),
waiting for the demoted tier when fewer linked them yet. The
crawl driver of ``tests/test_triage.py``."""

from __future__ import annotations

import json
from collections import Counter
from functools import partial

from robotkit.triage.entries import Entries, next_pages, pager_step, sibling
from robotkit.triage.regions import Regions
from tests.test_triage import SITE, WORDS, Crawl, html


def prose(seed: str) -> str:
    """Twenty words of a page's own."""
    return " ".join(f"{seed}w{i}" for i in range(20))


def catalogue(url: str) -> tuple[str, list[str]]:
    """A catalogue of 30 records: ``/catalog?q=`` lists 10 a page and links, before
    its pager (``page=1`` to ``3``), ten facets, two sorts and three page sizes; a
    facet or sort page says nothing new and links two states more of itself and its
    own second page."""
    path, _, query = url[len(SITE) :].partition("?")
    if path == "/":
        links = [f"{SITE}/catalog?q="]
        return html("Library", "the catalogue of the library", links), links
    if path.startswith("/record/"):
        return html("Record", prose("r" + path.rpartition("/")[2])), []
    pairs = dict(pair.partition("=")[::2] for pair in query.split("&"))
    if set(pairs) <= {"q", "page"}:
        n = int(pairs.get("page", "1"))
        base = f"{SITE}/catalog?q="
        states = [f"{base}&f=c{j}" for j in range(10)]
        states += [f"{base}&sort={s}" for s in ("title", "year")]
        states += [f"{base}&per_page={k}" for k in (10, 20, 50)]
        pager = [f"{base}&page={k}" for k in (1, 2, 3)]
        records = [f"{SITE}/record/{r}" for r in range(10 * (n - 1), 10 * n)]
        links = states + pager + records
        return html("Results", f"page {n} of the results", links), links
    more = [f"{url}&x=1", f"{url}&x=2", f"{url}&page=2"]
    return html("Results", f"results filtered {sum(map(ord, query))}", more), more


def test_a_list_page_names_its_next_pages_in_a_parked_query_space() -> None:
    """The facets of the first page park ``/catalog?`` before its pager is read:
    the pager of the first page, an entry of its list (linked by the home page), is
    still fetched, and so every record; page sizes, sorts and a facet's own pager
    stay parked."""
    crawl = Crawl()
    crawl.run(catalogue, f"{SITE}/", budget=300)
    assert f"{SITE}/catalog?" in crawl.triage.regions.parked
    assert {f"{SITE}/catalog?q=&page={k}" for k in (2, 3)} <= set(crawl.fetched)
    assert all(f"{SITE}/record/{r}" in crawl.fetched for r in range(30))
    assert f"{SITE}/catalog?q=&page=1" not in crawl.fetched
    assert not any("per_page=" in url or "sort=" in url for url in crawl.fetched)
    assert not any("f=" in url and "page=" in url for url in crawl.fetched)


TAGS = [f"t{k}" for k in range(6)]


def tags_of(n: int) -> list[str]:
    return [TAGS[n % 6], TAGS[(n + 1) % 6]]


def blog(url: str, first: range = range(12)) -> tuple[str, list[str]]:
    """A blog of 12 entries, each linking two of six tag searches on the search
    script (``/search?tag=t1&limit=20``, each linked by four entries), a search of
    its own and the next entry; the home page links the first tag's search, then
    the ``first`` entries. A tag search links its sorts, views and page sizes before
    its tag cloud; each of those says nothing new and links two states more of
    itself."""
    path, _, query = url[len(SITE) :].partition("?")
    if path == "/":
        links = [f"{SITE}/search?tag=t0&limit=20"] + [f"{SITE}/entry/{n}" for n in first]
        return html("Marsh notes", "field notes from the marsh", links), links
    if path.startswith("/entry/"):
        n = int(path.rpartition("/")[2])
        links = [f"{SITE}/search?tag={t}&limit=20" for t in tags_of(n)]
        links.append(f"{SITE}/search?tag=e{n}&limit=20")
        links += [f"{SITE}/entry/{n + 1}"] if n < 11 else []
        return html(f"Entry {n}", prose(f"e{n}"), links), links
    pairs = dict(pair.partition("=")[::2] for pair in query.split("&"))
    if set(pairs) == {"tag", "limit"} and pairs["limit"] == "20":
        tag = pairs["tag"]
        states = [f"{url}&sort={s}" for s in ("title", "date")]
        states += [f"{url}&view={v}" for v in ("list", "grid", "compact", "full")]
        states += [f"{SITE}/search?tag={tag}&limit={k}" for k in (5, 10, 50)]
        links = states + [f"{SITE}/search?tag={t}&limit=20" for t in TAGS if t != tag]
        return html("Search", f"entries tagged {tag} {prose(tag)}", links), links
    more = [f"{url}&x=1", f"{url}&x=2"]
    return html("Search", f"search results {sum(map(ord, query))}", more), more


def test_a_tag_search_three_entries_link_is_fetched_in_a_parked_query_space() -> None:
    """The sorts, views and page sizes of the first tag search park ``/search?``
    before its tag cloud is read: each other tag search, with the names of the
    first and another tag, is linked by four entries read before and is still
    fetched; the search one entry alone links, and the states of the parked space,
    are not."""
    crawl = Crawl()
    crawl.run(blog, f"{SITE}/", budget=300)
    assert f"{SITE}/search?" in crawl.triage.regions.parked
    assert all(f"{SITE}/search?tag={t}&limit=20" in crawl.fetched for t in TAGS)
    assert not any("tag=e" in url for url in crawl.fetched)
    assert not any("x=" in url or "limit=50" in url for url in crawl.fetched)


def test_a_tag_search_waits_for_the_entries_read_after_the_parking() -> None:
    """Read in another order, the tag cloud comes after the parking and one entry
    each has linked the tag searches: they wait for the demoted tier, where every
    entry has been read, and are fetched; the entries' own searches are not."""
    crawl = Crawl()
    crawl.run(partial(blog, first=range(0, 6, 2)), f"{SITE}/", budget=300)
    assert f"{SITE}/search?" in crawl.triage.regions.parked
    assert all(f"{SITE}/entry/{n}" in crawl.fetched for n in range(12))
    assert all(f"{SITE}/search?tag={t}&limit=20" in crawl.fetched for t in TAGS)
    assert not any("tag=e" in url for url in crawl.fetched)


def test_a_pager_names_the_pages_ahead_by_a_name_whose_numbers_include_the_next() -> None:
    """:func:`next_pages`: the links adding ``page=2`` and ``page=3`` to a first page,
    or a larger number to a next page; never a page size (``per_page=20``, no next
    number), a page before, or another path."""
    crawl = Crawl()
    page = crawl.triage.normalize(f"{SITE}/list?q=a")
    links = [
        crawl.triage.normalize(f"{SITE}/list?q=a&{pair}")
        for pair in ("page=1", "page=2", "page=3", "per_page=20", "per_page=50", "view=2x")
    ]
    assert next_pages(page, links) == links[1:3]
    second = crawl.triage.normalize(f"{SITE}/list?q=a&page=2")
    assert pager_step(second, links[2]) == ("page", 2, 3)
    assert pager_step(second, links[0]) is None
    assert pager_step(page, crawl.triage.normalize(f"{SITE}/other?q=a&page=2")) is None
    assert sibling(Counter(["tag=a", "limit=20"]), Counter(["tag=b", "limit=20"]))
    assert not sibling(Counter(["tag=a", "limit=20"]), Counter(["tag=b", "limit=5"]))
    assert not sibling(Counter(["tag=a"]), Counter(["tag=a", "limit=5"]))


def test_the_entries_survive_a_snapshot() -> None:
    crawl = Crawl()
    crawl.run(blog, f"{SITE}/", budget=300)
    regions = crawl.triage.regions
    copy = Regions()
    copy.restore(json.loads(json.dumps(regions.snapshot())))
    assert copy.snapshot() == regions.snapshot()
    entries = Entries()
    entries.restore(json.loads(json.dumps(regions.entries.snapshot())))
    tag = crawl.triage.normalize(f"{SITE}/search?tag=t3&limit=20")
    assert entries.admits(tag)


def test_a_query_builders_numbered_clause_is_no_list_of_its_own() -> None:
    """Items linking their subject as a search of numbered clauses (DSpace's
    ``filter_1=``) do not let its siblings or its next pages into a parked space
    (blind5 ``dspace``); the same search by a plain name (``subject=``) does."""
    triage, entries = Crawl().triage, Entries()
    for name in ("filter_1", "subject"):
        known = triage.normalize(f"{SITE}/discover?{name}=a")
        entries.fetched(known, f"{SITE}/discover?", None, [], news=False)
        other = triage.normalize(f"{SITE}/discover?{name}=b")
        page_two = triage.normalize(f"{SITE}/discover?{name}=b&page=2")
        for n in range(3):
            item = triage.normalize(f"{SITE}/item/{name}{n}")
            links = [(other, f"{SITE}/discover?")]
            entries.fetched(item, f"{SITE}/item", None, links, news=True)
        entries.fetched(other, f"{SITE}/discover?", item, [(page_two, "")], news=True)
        assert entries.admits(other) is (name == "subject")
        assert entries.admits(page_two) is (name == "subject")


def test_the_canonical_member_of_a_spelling_fetched_is_let_in() -> None:
    """A video's page (``/watch?v=a``) was news, and the playlist player's spelling of
    another video (``/watch?v=b&list=p&index=2``) was fetched: in the parked space,
    ``/watch?v=b`` has a form that was news and its pairs all in a spelling fetched,
    so it is the page that spelling spelled, and is let in (blind13 ``invidious``).
    A video no spelling of which was fetched, a form never news (``?list=p``) and the
    player's next step are not; a snapshot keeps it."""
    triage, entries = Crawl().triage, Entries()
    region = f"{SITE}/watch?"
    page, spelling = (triage.normalize(f"{SITE}/watch?{q}") for q in ("v=a", "index=2&list=p&v=b"))
    entries.fetched(page, region, None, [], news=True)
    entries.fetched(spelling, region, page, [], news=False)
    own = triage.normalize(f"{SITE}/watch?v=b")
    assert entries.admits(own)
    others = ("v=c", "list=p", "index=3&list=p&v=c")
    assert not any(entries.admits(triage.normalize(f"{SITE}/watch?{q}")) for q in others)
    copy = Entries()
    copy.restore(json.loads(json.dumps(entries.snapshot())))
    assert copy.admits(own)


STATS = ("s0", "s1", "s2")
LANGS = ["en", "fr", "de", "es", "it", "nl", "pt", "pl", "cs", "sv"]
TONGUES = dict(zip(LANGS, WORDS, strict=False))


def statistics(url: str) -> tuple[str, list[str]]:
    """A statistics host: each site's summary ``/stats.pl?config=s0`` links ten
    language views, each saying nothing new and linking two reports more of itself;
    each site's static month pages ``/usage/s0/2026-07.html`` link that month's real
    summary ``/stats.pl?config=s0&month=07&year=2026``, which the script's own pages
    never link, and whose language views stay views; and an export
    ``/stats.pl?export=07``, which names no summary's pairs. A view says what its summary
    said, and a word or two more."""
    path, _, query = url[len(SITE) :].partition("?")
    if path == "/":
        links = [f"{SITE}/stats.pl?config={s}" for s in STATS]
        links += [f"{SITE}/usage/{s}/" for s in STATS]
        return html("Statistics", "statistics of the hosted sites", links), links
    if path.startswith("/usage/") and path.endswith("/"):
        s = path.split("/")[2]
        links = [f"{SITE}/usage/{s}/2026-{m}.html" for m in ("07", "08", "09", "10")]
        return html("Usage", prose(f"u{s}"), links), links
    if path.startswith("/usage/"):
        s, m = path.split("/")[2], path[-7:-5]
        links = [f"{SITE}/stats.pl?config={s}&month={m}&year=2026", f"{SITE}/stats.pl?export={m}"]
        return html("Usage", prose(f"u{s}{m}"), links), links
    pairs = dict(pair.partition("=")[::2] for pair in query.split("&"))
    if "export" in pairs:
        return html("Export", prose(f"x{pairs['export']}")), []
    text = prose(f"a{pairs['config']}{pairs.get('month', '')}")
    if set(pairs) <= {"config", "month", "year"}:
        links = [f"{url}&lang={lang}" for lang in LANGS]
        return html("Summary", text, links), links
    more = [] if "output" in pairs else [f"{url}&output=a", f"{url}&output=b"]
    view = " ".join(TONGUES.get(value, value) for value in pairs.values())
    return html("Summary", f"{text} {view}", more), more


def test_a_static_page_links_the_record_it_is_about_in_a_parked_query_space() -> None:
    """The language views of the first summary park ``/stats.pl?`` before the month
    pages are read: each month's summary, linked once by its static month page and of
    a form the space never grew by, the summary of a site fetched with a qualifier,
    is still fetched (blind13 ``awstats``); its language views, those of the other
    summaries, and the export naming no summary, are not."""
    crawl = Crawl()
    crawl.run(statistics, f"{SITE}/", budget=300)
    assert f"{SITE}/stats.pl?" in crawl.triage.regions.parked
    assert all(
        f"{SITE}/stats.pl?config={s}&month={m}&year=2026" in crawl.fetched
        for s in STATS
        for m in ("07", "08", "09", "10")
    )
    assert not any("month=" in url and "lang=" in url for url in crawl.fetched)
    assert not any("output=" in url or "export=" in url for url in crawl.fetched)


def test_a_calendars_next_month_is_its_next_page() -> None:
    """A month written as ISO 8601 does (``month=2027-02``) counts in months: the
    "Next month" of an availability calendar is its next page (blind13 ``booking``:
    the engine's real March, reached only along "Next month" once the offers' copies
    parked the calendar); the month before, the next year's month (a pager's pages
    ahead, but a calendar's arrow to a year it never ends) and a day are not."""
    crawl = Crawl()
    page = crawl.triage.normalize(f"{SITE}/availability?month=2027-02")
    links = [
        crawl.triage.normalize(f"{SITE}/availability?month={m}")
        for m in ("2027-03", "2027-01", "2028-02", "2027-13", "2027-03-01")
    ]
    assert next_pages(page, links) == links[:1]
    december = crawl.triage.normalize(f"{SITE}/availability?month=2026-12")
    january = crawl.triage.normalize(f"{SITE}/availability?month=2027-01")
    assert pager_step(december, january) == ("month", 2026 * 12 + 11, 2027 * 12)
