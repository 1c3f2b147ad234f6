"""A region's items listed by a page of another region: their links into their own
region are no growth of it. An archive's index lists one capture list per archived
URL, each a few words and links to its captures; those lists looked like a calendar
(blind3 ``wayback``: 30 of 40 pages lost to a parked ``/web`` region). A "related
searches" box on every page of another region still counts (blind ``related``).
The crawl driver of ``tests/test_triage.py``."""

from __future__ import annotations

import json

from robotkit.triage.regions import LIST_ITEMS, Regions
from tests.test_triage import SITE, Crawl, html

NAMES = "harbour ferry market council bridge festival school river orchard library museum beacon"
DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
URLS = [f"/2024/{name}.html" for name in NAMES.split()]


def archive(url: str) -> tuple[str, list[str]]:
    """An index listing 12 capture lists; each list (a heading and two days) links
    two captures of its URL; each capture is an article of its own."""
    path = url[len(SITE) :]
    if path == "/":
        links = [f"{SITE}/web/*{u}" for u in URLS]
        return html("Collection", "the archive of the gazette", links), links
    stamp, _, target = path[len("/web/") :].partition("/")
    if stamp == "*":
        links = [f"{SITE}/web/2024010{d}/{target}" for d in (1, 2)]
        i = URLS.index("/" + target)
        days = f"{DAYS[i % 7]} and {DAYS[(i + 1 + i // 7) % 7]}"
        return html(f"Captures of {target}", f"2 captures, on {days}", links), links
    words = f"{target} captured {stamp} " + " ".join(f"w{stamp}{target}{i}" for i in range(12))
    return html(target, words), []


def test_capture_lists_listed_by_an_index_are_no_growth_of_their_region() -> None:
    crawl = Crawl()
    crawl.run(archive, f"{SITE}/", budget=200)
    assert crawl.triage.regions.parked == {}
    assert crawl.refused == {}
    assert len(crawl.fetched) == 1 + len(URLS) * 3


def searches(url: str) -> tuple[str, list[str]]:
    """Twelve articles, each linking two search pages; each search page links two
    more searches (related searches, without end) and says little."""
    path = url[len(SITE) :]
    if path == "/":
        links = [f"{SITE}/article/{n}" for n in range(12)]
        return html("Home", "the articles", links), links
    if path.startswith("/article/"):
        n = path.rpartition("/")[2]
        links = [f"{SITE}/search?q={n}a", f"{SITE}/search?q={n}b"]
        text = f"article {n} " + " ".join(f"x{n}y{i}" for i in range(12))
        return html(f"Article {n}", text), links
    q = path.partition("=")[2]
    links = [f"{SITE}/search?q={q}a", f"{SITE}/search?q={q}b"]
    return html("Search", "results for your search", links), links


def test_related_searches_linked_from_pages_of_another_region_still_grow() -> None:
    crawl = Crawl()
    crawl.run(searches, f"{SITE}/", budget=400)
    assert f"{SITE}/search?" in crawl.triage.regions.parked
    assert all(f"{SITE}/article/{n}" in crawl.fetched for n in range(12))


def shop(url: str) -> tuple[str, list[str]]:
    """A shop page listing 12 filter views of itself; each view links two views
    with one filter more and says nothing new."""
    query = url.partition("?")[2]
    links = [
        f"{SITE}/shop?{query}&f{i}={j}".replace("?&", "?")
        for i, j in ((len(query), 1), (len(query), 2))
    ]
    if not query:
        links = [f"{SITE}/shop?c={n}" for n in range(12)]
        return html("Shop", "our products", links), links
    return html("Shop", "products filtered", links), links


def test_the_views_a_page_lists_of_itself_are_no_list_items() -> None:
    crawl = Crawl()
    crawl.run(shop, f"{SITE}/shop", budget=400)
    assert f"{SITE}/shop?" in crawl.triage.regions.parked
    assert len(crawl.fetched) < 20  # the shop, and views until their space is parked


CATEGORIES = NAMES.split()[:9]


def front_controller(url: str) -> tuple[str, list[str]]:
    """TYPO3's ``index.php``: every page of the site is a query of one script. The
    home page links nine news lists (``id=2&cat=``), each list two news items
    (``id=5&news=&action=detail``) in the words of all the others, but a number."""
    query = url.partition("?")[2]
    if not query:
        links = [f"{SITE}/index.php?id=2&cat={c}" for c in CATEGORIES]
        return html("Home", "news of the town", links), links
    if query.startswith("id=2&cat="):
        n = CATEGORIES.index(query.rpartition("=")[2])
        links = [f"{SITE}/index.php?id=5&news={2 * n + k}&action=detail" for k in (0, 1)]
        return html("News", f"the latest news of the town, list {n}", links), links
    return html("News", f"the town news of the latest, number {query.split('&')[1]}"), []


def test_the_items_of_a_front_controllers_lists_are_no_growth_of_its_query_space() -> None:
    """A list linking items of another template of its script (names added and one
    dropped) is a hub, however little its words say: the space is not parked and
    every item is fetched."""
    crawl = Crawl()
    crawl.run(front_controller, f"{SITE}/index.php", budget=200)
    assert crawl.triage.regions.parked == {}
    assert len(crawl.fetched) == 1 + 3 * len(CATEGORIES)


def prose_of(seed: int) -> str:
    """Twenty words of fresh prose: a list state's text is new on every state."""
    return " ".join(f"w{seed}x{i}" for i in range(20))


def test_a_list_state_listing_no_item_an_earlier_list_did_not_taught_nothing() -> None:
    """A list is worth its items: in a region that lists another region's items, a
    page with parameters (here path parameters, ``sort:oldest``) whose items an
    earlier list of its region listed taught nothing, whatever prose it writes (blind4
    ``askbot``). A page of the region without parameters (a directory of a tree) and
    a page listing one new item still teach."""
    crawl = Crawl()
    items = [f"{SITE}/q/{n}" for n in range(10)]
    sorts = [f"{SITE}/questions/sort:{s}/" for s in ("oldest", "votes")]
    crawl.offer(f"{SITE}/questions/")
    crawl.fetch(f"{SITE}/questions/", html("Questions", prose_of(0), items + sorts), items + sorts)
    more = [f"{SITE}/questions/sort:oldest/tags:{t}/" for t in ("a", "b")]
    fetch = crawl.fetch
    re_sorted = items[::-1] + more
    _, verdict = fetch(sorts[0], html("Questions", prose_of(1), re_sorted), re_sorted)
    assert not verdict.taught
    crawl.offer(f"{SITE}/questions/all/")
    tree = items[:5] + [f"{SITE}/questions/all/{n}/" for n in range(3)]
    _, verdict = fetch(f"{SITE}/questions/all/", html("All", prose_of(2), tree), tree)
    assert verdict.taught
    one_more = [*items[5:], f"{SITE}/q/10", *more]
    _, verdict = fetch(more[0], html("Questions", prose_of(3), one_more), one_more)
    assert verdict.taught


def test_a_counter_step_leading_to_no_new_page_taught_nothing() -> None:
    """A page that is its referer with one number of the query moved by one (a diff's
    "older" link) and links no new page but other values of its own path taught
    nothing, whatever prose it writes (blind4 ``dokuwiki``). The first page of the
    walk, and a next page listing a new item, still teach."""
    crawl = Crawl()
    doc, diff = f"{SITE}/doc/a", f"{SITE}/doc/a?rev=10"
    crawl.offer(doc)
    crawl.fetch(doc, html("Doc", prose_of(0), [diff]), [diff])
    walk = [f"{SITE}/doc/a?rev=9", f"{SITE}/doc/a?rev=11"]
    _, verdict = crawl.fetch(diff, html("Diff", prose_of(1), walk), walk, referer=doc)
    assert verdict.taught
    older = [f"{SITE}/doc/a?rev=8", diff]
    _, verdict = crawl.fetch(walk[0], html("Diff", prose_of(2), older), older, referer=diff)
    assert not verdict.taught
    pages = [f"{SITE}/list?page=1", f"{SITE}/list?page=2"]
    crawl.fetch(pages[0], html("List", prose_of(3), [pages[1]]), [pages[1]], referer=doc)
    listed = [f"{SITE}/item/5", f"{SITE}/list?page=3"]
    _, verdict = crawl.fetch(pages[1], html("List", prose_of(4), listed), listed, referer=pages[0])
    assert verdict.taught


def test_a_stepper_step_linking_only_its_own_form_led_nowhere() -> None:
    """A booking engine's occupancy stepper: ``/select?nights=2&adults=2`` linked as
    "+ night" by ``nights=1``, writing prose of its own, links its further steps and
    its own reservation, ``/reserve?<its query>``, the form that submits its state, no
    page of its own: it taught nothing (blind13 ``booking``: 346 steps fetched). A
    step linking a page of another path under another query, or of another template
    of its own script (an item), still teaches."""
    crawl = Crawl()
    home, first = f"{SITE}/", f"{SITE}/select?nights=1&adults=2"
    crawl.offer(home)
    crawl.fetch(home, html("Hotel", prose_of(0), [first]), [first])
    step = f"{SITE}/select?nights=2&adults=2"
    links = [step, f"{SITE}/reserve?nights=1&adults=2"]
    _, verdict = crawl.fetch(first, html("Rooms", prose_of(1), links), links, referer=home)
    assert verdict.taught
    links = [f"{SITE}/select?nights=3&adults=2", f"{SITE}/reserve?nights=2&adults=2"]
    _, verdict = crawl.fetch(step, html("Rooms", prose_of(2), links), links, referer=first)
    assert not verdict.taught
    other = f"{SITE}/select?nights=2&adults=3"
    links = [f"{SITE}/select?nights=2&adults=4", f"{SITE}/room?nights=2&adults=3&r=7"]
    _, verdict = crawl.fetch(other, html("Rooms", prose_of(3), links), links, referer=step)
    assert verdict.taught
    item = f"{SITE}/select?nights=2&adults=4"  # an item of another template of its script
    links = [f"{SITE}/select?nights=2&adults=5", f"{SITE}/select?room=7&view=item&rate=1"]
    _, verdict = crawl.fetch(item, html("Rooms", prose_of(4), links), links, referer=other)
    assert verdict.taught


def test_a_page_saying_and_linking_nothing_new_to_its_region_taught_nothing() -> None:
    """A message's permalink in a list archive shows one message of the thread page
    that linked it, in words and passages its region showed, and links nothing the
    crawl has not met: it taught nothing (blind8 ``mailman``: 33 HyperKitty message
    permalinks, each taught and vouched for the next). One that says something new,
    or links a page not met, still teaches; so does a page under a query (a search
    may write text made up for its query)."""
    crawl = Crawl()
    top, thread = f"{SITE}/list/", f"{SITE}/list/thread/1/"
    messages = [f"{SITE}/list/message/{m}/" for m in "abcdef"]
    crawl.offer(top)
    crawl.fetch(top, html("List", prose_of(0), [thread]), [thread])
    for url in messages:
        crawl.offer(url, thread)
    shown = " ".join(prose_of(n) for n in range(1, 7))
    crawl.fetch(thread, html("Thread", shown, [*messages, top]), [*messages, top], referer=top)
    seen = [thread, top]
    _, verdict = crawl.fetch(messages[0], html("Thread", prose_of(1), seen), seen, referer=thread)
    assert not verdict.taught
    new = f"{prose_of(2)} {prose_of(7)}"
    _, verdict = crawl.fetch(messages[1], html("Thread", new, seen), seen, referer=thread)
    assert verdict.taught
    more = [*seen, f"{SITE}/list/thread/2/"]
    _, verdict = crawl.fetch(messages[2], html("Thread", prose_of(3), more), more, referer=thread)
    assert verdict.taught
    query = f"{SITE}/list/message/d/?sort=date"
    _, verdict = crawl.fetch(query, html("Thread", prose_of(4), seen), seen, referer=thread)
    assert verdict.taught


def test_a_list_of_items_an_earlier_list_of_its_region_listed_is_listed_before() -> None:
    """:meth:`Regions.listed_before`: in a list region, the same items in another
    order, a filter of them or an empty result were listed before; one new item, or
    a region that lists nothing, is a list of its own. The sets survive a snapshot."""
    regions = Regions()
    assert not regions.listed_before("h/questions", [])
    regions.list_of("http://h/questions/", "h/questions", ["h/q"] * LIST_ITEMS)
    assert not regions.listed_before("h/questions", ["/q/1", "/q/2", "/q/3", "/tags"])
    assert regions.listed_before("h/questions", ["/tags", "/q/3", "/q/2", "/q/1"])
    assert regions.listed_before("h/questions", ["/q/2", "/tags"])
    assert regions.listed_before("h/questions", [])
    assert not regions.listed_before("h/questions", ["/q/2", "/q/4", "/tags"])
    assert not regions.listed_before("h/users", ["/q/2", "/tags"])
    copy = Regions()
    copy.restore(json.loads(json.dumps(regions.snapshot())))
    assert copy.snapshot() == regions.snapshot()
    assert copy.listed_before("h/questions", ["/q/4"])


SORTS = ("subject", "starter", "replies", "views", "first_post", "last_poster")


def forum(url: str) -> tuple[str, list[str]]:
    """SMF's ``index.php``: a board (``board=B.0``) lists its topics (``topic=N.0``)
    and links its six sort states (``board=B.0;sort=subject``), a state its own
    ``;desc`` and the same topics in the same words; a topic says something new."""
    query = url.partition("?")[2]
    if not query:
        links = [f"{SITE}/index.php?board={b}.0" for b in range(3)]
        return html("Forum", "the bench of makers", links), links
    if query.startswith("board="):
        board = query[6]
        topics = [f"{SITE}/index.php?topic={4 * int(board) + t}.0" for t in range(4)]
        desc = ";desc" not in query
        sorts = [
            f"{SITE}/index.php?board={board}.0;sort={s}" + (";desc" if desc and s in query else "")
            for s in SORTS
        ]
        links = sorts + topics
        return html("Board", "topics of the board", links), links
    topic = query.partition("=")[2].partition(".")[0]
    return html("Topic", prose_of(100 + int(topic))), []


def test_the_display_states_of_a_semicolon_query_grow_apart_from_its_views() -> None:
    """A ``;``-joined query (SMF, HTML 4's other separator) is a view in a display
    state: the sort states of the boards grow and park in a region of their own, and
    every topic of the script's query space is still fetched."""
    crawl = Crawl()
    crawl.run(forum, f"{SITE}/index.php", budget=400)
    assert f"{SITE}/index.php?" not in crawl.triage.regions.parked
    assert all(f"{SITE}/index.php?topic={t}.0" in crawl.fetched for t in range(12))


def test_a_parked_semicolon_state_holds_its_state_names_not_its_views() -> None:
    """When the sort states of a ``;``-joined view park, the names held on the
    section are the states' (``sort``), never the view's (``board``): the script's
    real views (``board=2.0``, ``board=2.6``) stay open, a state of another board
    is held."""
    triage, regions = Crawl().triage, Regions()
    for n in range(8):
        norm = triage.normalize(f"{SITE}/index.php?board=1.0;sort=s{n}")
        regions.count(norm, triage.region(norm), news=False, grows=True)
    assert f"{SITE}/index.php?board;" in regions.parked
    for view in ("board=2.0", "board=2.6"):
        norm = triage.normalize(f"{SITE}/index.php?{view}")
        assert regions.held(norm, triage.region(norm)) is None
    state = triage.normalize(f"{SITE}/index.php?board=2.0;sort=subject")
    assert regions.held(state, triage.region(state)) is not None


def test_a_filter_state_listing_items_at_the_site_root_an_earlier_state_listed_taught_nothing() -> (
    None
):
    """Items at the site root (``/<product>``) are one region of items, and a link
    carrying the page's own address (its login's return address) is no item of it: a
    category's filter state whose products an earlier state listed taught nothing,
    whatever prose it writes (blind11 ``nopcommerce``: 921 trap fetches). A state
    listing a product not listed before still teaches."""
    crawl = Crawl()
    products = [f"{SITE}/{name}-boot" for name in NAMES.split()[:10]]

    def state(query: str, items: list[str], seed: int) -> tuple[str, list[str]]:
        here = f"/shoes?{query}".replace("/", "%2F").replace("?", "%3F").replace("=", "%3D")
        links = [f"{SITE}/about-us", f"{SITE}/login?returnUrl={here}", *items]
        return html("Shoes", prose_of(seed), links), links

    crawl.offer(f"{SITE}/shoes?orderby=5")
    crawl.fetch(f"{SITE}/shoes?orderby=5", *state("orderby=5", products[:9], 0))
    _, verdict = crawl.fetch(f"{SITE}/shoes?orderby=6", *state("orderby=6", products[8::-1], 1))
    assert not verdict.taught
    _, verdict = crawl.fetch(f"{SITE}/shoes?specs=1", *state("specs=1", products[:3], 2))
    assert not verdict.taught
    _, verdict = crawl.fetch(f"{SITE}/shoes?specs=2", *state("specs=2", products[7:], 3))
    assert verdict.taught
