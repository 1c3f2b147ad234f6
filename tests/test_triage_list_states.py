"""List states and template views that write prose of their own (blind13): a search
written in the path as ``name,value`` pairs (Osclass), a page under another template
(Umbraco's ``?altTemplate=``), and short lists judged by their items (OpenProject's
work package table). The crawl driver of ``tests/test_triage.py``."""

from __future__ import annotations

import random
from urllib.parse import quote

from robotkit.base.reasons import Reason
from robotkit.url.normalization import normalize
from robotkit.url.template import has_parameters, structured_state
from tests.test_triage import SITE, Crawl, html

VOCABULARY = [
    a + b
    for a in ("river", "stone", "lantern", "orchard", "harbor", "meadow", "copper", "willow")
    for b in ("s", "ed", "ing", "er", "ly", "ness", "al", "ful", "ish", "ward")
]
"""Eighty words: a site's whole vocabulary, shown by its first pages."""


def shuffled(seed: str, count: int = 40) -> str:
    """Prose in the site's words, in an order of its own: a new passage on every page,
    and after the first pages no new word."""
    rng = random.Random(seed)
    return " ".join(rng.choice(VOCABULARY) for _ in range(count))


def test_two_name_comma_value_segments_are_path_parameters() -> None:
    """Osclass writes a search's parameters in the path, ``name,value`` segments in
    click order; one such segment alone may be a title with a comma."""
    assert has_parameters(normalize(f"{SITE}/search/category,bikes/sOrder,dt_pub_date"))
    assert has_parameters(normalize(f"{SITE}/search/sOrder,price/iOrderType,asc/iPage,2"))
    assert not has_parameters(normalize(f"{SITE}/wiki/Paris,_France"))
    assert not has_parameters(normalize(f"{SITE}/search/sUser,10"))
    assert not has_parameters(normalize(f"{SITE}/items/1,2/3,4"))


def test_a_state_written_whole_in_a_structure_is_structured() -> None:
    """Path parameters without a query, or a query value that is JSON, write a list's
    whole state; a plain pair does not."""
    assert structured_state(normalize(state('{"t":"id:asc"}')))
    assert structured_state(normalize(f"{SITE}/search/category,bikes/region,north"))
    assert not structured_state(normalize(f"{SITE}/wp?lang=de"))
    assert not structured_state(normalize(f"{SITE}/wp/all"))


KEYS = ("region", "sOrder", "sShowAs", "sUser", "iPage")


def osclass(url: str) -> tuple[str, list[str]]:
    """A classifieds site's search written in the path: every search page links the
    same search with one key more (three values each), writes prose of its own in the
    site's words, and links no other page."""
    path = url[len(SITE) :]
    if path == "/":
        links = [f"{SITE}/search/category,bikes/region,{r}" for r in ("north", "south")]
        return html("Small ads", " ".join(VOCABULARY), links), links
    depth = path.count(",")
    links = [f"{SITE}{path}/{KEYS[depth % len(KEYS)]}{depth},{v}" for v in ("a", "b", "c")]
    return html("Search results", shuffled(path)), links


def test_a_search_written_in_path_parameters_is_parked_whatever_prose_it_writes() -> None:
    """In a path region a new passage is news (a site written in few words still says
    new things); a search's parameters written in the path (``/search/category,bikes/
    region,north``) are a query, where a page may write text made up for its
    parameters, and there a passage is no news: the search's space grows without news
    and is parked (blind13 ``osclass``: 522 trap fetches, 100 with it)."""
    crawl = Crawl()
    crawl.run(osclass, f"{SITE}/", budget=300)
    assert f"{SITE}/search" in crawl.triage.regions.parked
    assert len(crawl.fetched) < 40


def prose_of(seed: int) -> str:
    """Twenty words of fresh prose: a template writes text of its own for every page."""
    return " ".join(f"w{seed}x{i}" for i in range(20))


def test_a_page_under_another_template_linking_nothing_new_taught_nothing() -> None:
    """Umbraco renders any page under any template (``?altTemplate=Print``), each with
    prose of its own: a view of the page that linked it, under query pairs added on its
    path, one of a menu of words (``?altTemplate=JsonLd`` beside it), that links
    nothing the page did not link taught nothing (blind13 ``umbraco``:
    six templates under every page). A list's next page linking a new item still
    teaches; so does a pair valued by a number, a topic's second page showing other
    posts under the same pager (blind2 ``phpbb``), a pair of one value, a user's own
    tab listing what the profile listed (blind13 ``qa``), and the page itself read
    from its view's link."""
    crawl = Crawl()
    page, items = f"{SITE}/visit/", [f"{SITE}/visit/{n}/" for n in ("hours", "prices")]
    views = [f"{page}?altTemplate={t}" for t in ("Print", "JsonLd")]
    crawl.offer(page)
    crawl.fetch(page, html("Visit", prose_of(0), items + views), items + views)
    links = [*items, views[1]]
    _, verdict = crawl.fetch(views[0], html("Visit", prose_of(1), links), links, referer=page)
    assert not verdict.taught
    news, older = f"{SITE}/news/", f"{SITE}/news/?page=2"
    crawl.fetch(news, html("News", prose_of(2), [older]), [older], referer=page)
    listed = [f"{SITE}/news/story/", older]
    _, verdict = crawl.fetch(older, html("News", prose_of(3), listed), listed, referer=news)
    assert verdict.taught
    topic, second = f"{SITE}/topic?t=7", f"{SITE}/topic?t=7&start=10"
    crawl.fetch(topic, html("Topic", prose_of(6), [second, page]), [second, page], referer=page)
    _, verdict = crawl.fetch(
        second, html("Topic", prose_of(7), [topic, page]), [topic, page], referer=topic
    )
    assert verdict.taught
    user, tab = f"{SITE}/users/7/ann", f"{SITE}/users/7/ann?tab=questions"
    sorts = [f"{tab}&sort=votes", f"{tab}&sort=newest"]
    listing = [*items, tab, *sorts]
    crawl.fetch(user, html("Ann", prose_of(8), listing), listing, referer=page)
    _, verdict = crawl.fetch(tab, html("Ann", prose_of(9), listing), listing, referer=user)
    assert verdict.taught
    about, view = f"{SITE}/about/", f"{SITE}/about/?altTemplate=Print"
    crawl.fetch(view, html("About", prose_of(4), [about, page]), [about, page], referer=page)
    back = [view, page]
    _, verdict = crawl.fetch(about, html("About", prose_of(5), back), back, referer=view)
    assert verdict.taught


def state(props: str) -> str:
    """A work package table's state, written whole as JSON in one parameter."""
    return f"{SITE}/wp?query_props=" + quote(props, safe="")


def test_a_short_list_state_listing_no_item_an_earlier_state_did_not_taught_nothing() -> None:
    """A work package table lists four work packages a page and writes its whole state
    in one JSON value (OpenProject's ``query_props=``: sorts, filters in click order,
    page): a region a page of which linked four pages of other regions is judged by
    its items too, for such a state (or path parameters: Osclass's searches list four
    ads spread over three categories), and a state listing only items an earlier state
    listed taught nothing, whatever prose it writes (blind13 ``openproject``,
    ``osclass``). A state listing a new item still teaches; so does one listing
    nothing outside its region, and a page under a plain pair (a translation,
    ``?lang=de``, links what the other languages link: blind ``toggles``)."""
    crawl = Crawl()
    table, items = f"{SITE}/wp", [f"{SITE}/item/{n}" for n in range(4)]
    states = [state(f'{{"t":"{s}:asc"}}') for s in ("id", "subject", "status")]
    first = [*items, states[0]]
    crawl.offer(table)
    crawl.fetch(table, html("Table", prose_of(0), first), first)
    listed = items + states
    _, verdict = crawl.fetch(states[0], html("Table", prose_of(1), listed), listed, referer=table)
    assert verdict.taught
    re_sorted = items[::-1] + states
    _, verdict = crawl.fetch(
        states[1], html("Table", prose_of(2), re_sorted), re_sorted, referer=table
    )
    assert not verdict.taught
    one_more = [*items[1:], f"{SITE}/item/9", *states]
    _, verdict = crawl.fetch(
        states[2], html("Table", prose_of(3), one_more), one_more, referer=states[0]
    )
    assert verdict.taught
    empty = state('{"t":"id:asc","f":[["status","c"]]}')
    pager = [*states, state('{"t":"id:asc","f":[["status","c"]],"pa":2}')]
    _, verdict = crawl.fetch(empty, html("Table", prose_of(4), pager), pager, referer=states[0])
    assert verdict.taught
    translated = [*items, f"{table}?lang=fr"]
    _, verdict = crawl.fetch(
        f"{table}?lang=de", html("Tabelle", prose_of(5), translated), translated, referer=table
    )
    assert verdict.taught
    other = [*items, f"{table}?lang=de"]
    _, verdict = crawl.fetch(
        f"{table}?lang=fr", html("Tableau", prose_of(6), other), other, referer=table
    )
    assert verdict.taught


def test_a_word_appended_to_pages_that_links_nothing_new_is_a_copy_form() -> None:
    """Umbraco renders a page under a template named after its path
    (``/visit/sitemap``), with prose of its own and the page's links: twice so, and
    the form (``/{s}/sitemap``) is known on every other page, as a print form copying
    its page is (blind13 ``umbraco``). A real child named by a word, linking a page of
    its own, makes no form."""
    crawl = Crawl()
    sections = [f"{SITE}/{s}/" for s in ("visit", "about", "support")]
    for n, page in enumerate(sections[:2]):
        links = [f"{page}sitemap", f"{page}parking", f"{SITE}/"]
        crawl.offer(page)
        crawl.fetch(page, html("Section", prose_of(10 * n), links), links)
        crawl.fetch(links[0], html("Map", prose_of(10 * n + 1), links), links, referer=page)
        own = [*links, f"{page}parking/level-2"]
        crawl.fetch(links[1], html("Parking", prose_of(10 * n + 2), own), own, referer=page)
    page = sections[2]
    links = [f"{page}sitemap", f"{page}parking", f"{SITE}/"]
    crawl.offer(page)
    crawl.fetch(page, html("Section", prose_of(30), links), links)
    assert crawl.refused.get(links[0]) is Reason.DUPLICATE_URL
    assert links[1] not in crawl.refused
