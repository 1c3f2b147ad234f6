"""The trap-class sites: every legitimate page is served and reachable by links, the
trap URLs classify as trap and the look-alikes as legitimate, and the bookkeeping of
repeats and canonical views scores as each site declares. Real servers on loopback;
assertions on what the servers saw.
"""

from __future__ import annotations

import re
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from urllib.parse import parse_qsl, quote, urlsplit

import httpx
import pytest

from robotkit import traps
from robotkit.page.meta import parse_page
from robotkit.traps import PageKind, RunningSite
from robotkit.traps.sites.canonical_stack import STORIES, header_only
from robotkit.traps.sites.click_order_facets import ARTICLES, CATEGORIES, ITEMS
from robotkit.traps.sites.loop_lookalikes import DATES, DOCS, FACETS, LONG_SEARCH
from robotkit.traps.sites.path_session import COMMITS, USERS, strip_session
from robotkit.traps.sites.scope_farm import BLOGROLL, HOST_PAGES, SISTERS, is_farm
from robotkit.traps.sites.slow_paths import EXPORTS, REPORTS, SLOW_LEGIT, TRAP_FAMILIES

CLASSES = {
    "numbered-pages": {},
    "numbered-200": {},
    "path-session": {},
    "click-order-facets": {},
    "canonical-stack": {},
    "slow-paths": {"stall": 30.0, "slow_legit": 0.05, "huge_bytes": 200_000},
    "scope-farm": {},
    "loop-lookalikes": {},
}
"""Each trap-class site, with options that keep its tests fast."""


def links(client: httpx.Client, url: str) -> tuple[httpx.Response, list[str]]:
    response = client.get(url)
    page = parse_page(response.text, str(response.url), "testbot", ())
    return response, [link.url for link in page.links]


def crawl_legitimate(site: RunningSite, client: httpx.Client) -> set[str]:
    """Breadth-first from the start page, following only links to legitimate pages
    not yet found (the BFS a perfect crawler would do); the keys found."""
    queue = deque([site.start_url])
    found: set[str] = set()
    while queue:
        url = queue.popleft()
        response, targets = links(client, url)
        assert response.status_code == 200, url
        page = site.classify(url)
        assert page is not None and page.kind is PageKind.LEGITIMATE, url
        found.add(page.key)
        for target in targets:
            linked = site.classify(target)
            if linked and linked.kind is PageKind.LEGITIMATE and linked.key not in found:
                found.add(linked.key)
                queue.append(target)
    return found


@pytest.fixture(scope="module")
def client() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=5) as c:
        yield c


@pytest.mark.parametrize("name", CLASSES)
def test_every_legitimate_page_is_reachable_from_the_start_page(
    name: str, trap_site: Callable[..., RunningSite], client: httpx.Client
) -> None:
    site = trap_site(name, **CLASSES[name])
    legit = site.site.legitimate_pages
    assert 25 <= len(legit) <= 250  # sized like a real small site
    assert crawl_legitimate(site, client) == legit
    score = site.score()
    # Exactly one fetch per legitimate page (under whatever URL), nothing wasted.
    assert (score.legit_found, score.trap_fetched, score.repeats) == (len(legit), 0, 0)
    for target in legit:
        assert not site.site.is_trap(target)


def test_numbered_pages_differ_only_in_numbers_and_none_is_a_trap(
    trap_site: Callable[..., RunningSite], client: httpx.Client
) -> None:
    site = trap_site("numbered-200")
    texts = {client.get(site.url(f"/n/{n}")).text for n in range(2, 200, 7)}
    assert len(texts) == len(range(2, 200, 7))
    assert len({re.sub(r"\d+", "#", text) for text in texts}) == 1
    mixed = trap_site("numbered-pages")
    siblings = [client.get(mixed.url(f"/p/{n}")).text for n in range(1, 8)]
    words = {frozenset(re.findall(r"[a-z]{3,}", text)) for text in siblings}
    assert len(words) == 1 and len(set(siblings)) == 7
    builds = [client.get(mixed.url(f"/status/{n}")).text for n in (41, 42)]
    assert "Build 41 passed" in builds[0] and "Build 42 passed" in builds[1]
    for target in ("/p/8", "/n/1", "/chain/8?x=1", "/anything"):
        assert not mixed.site.is_trap(target)
    assert mixed.site.caught_by == () and traps.get("numbered-200").caught_by == ()


def test_path_session_is_new_in_every_response_and_repeats_are_wasted(
    trap_site: Callable[..., RunningSite], client: httpx.Client
) -> None:
    site = trap_site("path-session")
    _, first = links(client, site.start_url)
    _, second = links(client, site.start_url)
    sessions = {urlsplit(u).path.split("/")[1] for u in first + second if "catalog" in u}
    assert len(sessions) == 2 and all(len(s) == 24 for s in sessions)
    item = [u for u in first if u.endswith("/catalog/item-4")]
    item_again = [u for u in second if u.endswith("/catalog/item-4")]
    assert item and item_again and item != item_again
    for url in item + item_again:
        assert client.get(url).status_code == 200
        page = site.classify(url)
        assert page is not None and page.kind is PageKind.LEGITIMATE
        assert page.key == "/catalog/item-4" == strip_session(urlsplit(url).path)
    score = site.score()  # home twice, item-4 twice under two sessions
    assert (score.legit_found, score.repeats, score.trap_fetched) == (2, 2, 2)
    assert site.site.is_trap(urlsplit(item[0]).path)


def test_path_session_lookalikes_are_stable_distinct_pages(
    trap_site: Callable[..., RunningSite], client: httpx.Client
) -> None:
    site = trap_site("path-session")
    _, first = links(client, site.start_url)
    _, second = links(client, site.start_url)
    stable = [site.url(p) for p in (*COMMITS, *USERS)]
    assert set(stable) <= set(first) and set(stable) <= set(second)
    bodies = {client.get(url).text for url in stable}
    assert len(bodies) == len(stable)
    keys = {site.classify(url).key for url in stable}
    assert len(keys) == len(stable) and not any(site.site.is_trap(p) for p in COMMITS)
    assert re.fullmatch(r"/commit/[0-9a-f]{8}/", COMMITS[0])


def test_click_order_facets_one_selection_many_urls_same_products(
    trap_site: Callable[..., RunningSite], client: httpx.Client
) -> None:
    site = trap_site("click-order-facets")
    _, on_page_3 = links(client, site.url("/shop/shoes?page=3"))
    brand = next(u for u in on_page_3 if u.endswith("?page=3&brand=acme"))
    _, after_brand = links(client, brand)
    both = next(u for u in after_brand if u.endswith("&colour=red"))
    assert urlsplit(both).query == "page=3&brand=acme&colour=red"
    colour = site.url("/shop/shoes?colour=red")
    _, after_colour = links(client, colour)
    reverse = next(u for u in after_colour if u.endswith("?colour=red&brand=acme"))
    products = [[u for u in links(client, url)[1] if "/product/" in u] for url in (both, reverse)]
    assert products[0] == products[1] and len(products[0]) == 2
    for url in (brand, both, colour, reverse):
        assert site.classify(url).kind is PageKind.TRAP
    assert client.get(site.url("/shop/shoes?page=5")).status_code == 404
    # The look-alikes: queries that name real, distinct pages.
    real = [site.url(f"{ARTICLES[0]}?lang={lang}") for lang in ("de", "fr", "es")]
    real += [site.url(i) for i in ITEMS] + [site.url(f"{CATEGORIES[1]}?page=4")]
    assert len({client.get(url).text for url in real}) == len(real)
    assert all(site.classify(u).kind is PageKind.LEGITIMATE for u in real)
    assert site.score().trap_fetched == 4  # brand, both, colour, reverse


def test_canonical_stack_views_stack_and_name_the_story(
    trap_site: Callable[..., RunningSite], client: httpx.Client
) -> None:
    site = trap_site("canonical-stack")
    url = site.url("/story-3")
    for prefix in ("print", "amp", "m"):  # /m/amp/print/story-3, built click by click
        url = next(u for u in links(client, url)[1] if urlsplit(u).path.startswith(f"/{prefix}/"))
    _, stacked = links(client, url)
    share = next(u for u in stacked if "?share=" in u)
    assert urlsplit(share).path == "/m/amp/print/story-3"
    response = client.get(share)
    assert response.status_code == 200 and header_only("/story-3")
    assert response.headers["link"] == f'<{site.url("/story-3")}>; rel="canonical"'
    assert 'rel="canonical"' not in response.text
    markup = client.get(site.url("/amp/story-4?ref_src=x&utm_source=y"))
    assert f'<link rel="canonical" href="{site.url("/story-4")}">' in markup.text
    for target in (urlsplit(share).path + "?" + urlsplit(share).query, "/amp/story-4?ref_src=x"):
        assert site.site.classify(target).kind is PageKind.TRAP
    # The look-alikes: the magazine under /m/ and the print shop under /print/.
    for target in ("/m/", "/m/issue-2", "/print/", "/print/posters"):
        page = client.get(site.url(target))
        assert f'rel="canonical" href="{site.url(target)}"' in page.text
        assert site.site.classify(target).kind is PageKind.LEGITIMATE
    assert len(STORIES) == 24
    score = site.score()
    assert score.legit_found == 5 and score.trap_fetched == len(site.requests_seen) - 5


def test_slow_paths_stall_and_swell_in_two_families_while_the_archive_answers(
    trap_site: Callable[..., RunningSite], client: httpx.Client
) -> None:
    site = trap_site("slow-paths", stall=30.0, slow_legit=0.05, huge_bytes=300_000)
    linked = set(links(client, site.url("/reports/"))[1] + links(client, site.url("/exports/"))[1])
    slow = {site.url(p) for p in (*REPORTS, *EXPORTS)}
    assert slow <= linked and len(slow) >= 30
    assert all(any(p.startswith(f) for f in TRAP_FAMILIES) for p in (*REPORTS, *EXPORTS))
    with httpx.Client(timeout=httpx.Timeout(5.0, read=0.3)) as impatient:
        with pytest.raises(httpx.ReadTimeout):
            impatient.get(site.url(REPORTS[7]))
        with impatient.stream("GET", site.url(EXPORTS[2])) as export:
            assert export.headers["content-length"] == "300000"
            assert sum(len(c) for c in export.iter_bytes()) == 300_000
        for target in SLOW_LEGIT:
            assert impatient.get(site.url(target)).status_code == 200
    assert all(site.site.classify(p).kind is PageKind.TRAP for p in (REPORTS[7], EXPORTS[2]))
    assert site.site.slow_pages == frozenset(SLOW_LEGIT)


def test_slow_paths_release_stalled_answers_when_stopped() -> None:
    """A stalled report ends with the site, not 120 s later: the waiter gets its
    answer once the site stops, well inside its own 30 s timeout."""
    site = traps.start(traps.get("slow-paths", stall=120.0))
    answers: list[int] = []
    waiter = threading.Thread(
        target=lambda: answers.append(httpx.get(site.url(REPORTS[0]), timeout=30).status_code)
    )
    try:
        waiter.start()
        for _ in range(500):
            if any(r.target == REPORTS[0] for r in site.requests_seen):
                break
            time.sleep(0.01)
    finally:
        site.stop()
    waiter.join(timeout=30)
    assert answers == [200]
    assert [r.target for r in site.requests_seen] == [REPORTS[0]]


def test_scope_farm_grows_on_in_scope_hosts_and_points_off_site(
    trap_site: Callable[..., RunningSite], client: httpx.Client
) -> None:
    site = trap_site("scope-farm")
    _, post = links(client, site.url("/blog/post-3"))
    entry = next(u for u in post if is_farm(urlsplit(u).path))
    _, farm = links(client, entry)
    inside = [u for u in farm if site.host_of(u) == 0 and is_farm(urlsplit(u).path)]
    outside = [u for u in farm if site.host_of(u) is None]
    assert len(set(inside)) >= 10 and len({urlsplit(u).hostname for u in outside}) >= 10
    assert all(urlsplit(u).hostname.endswith(".example") for u in outside)
    shop_farm = site.url(urlsplit(inside[0]).path, host=1)
    assert client.get(shop_farm).status_code == 200
    assert site.classify(entry).kind is PageKind.TRAP
    assert site.classify(shop_farm).kind is PageKind.TRAP
    # The look-alikes: a blogroll of 15 hosts, and sister hosts that link back.
    _, roll = links(client, site.url("/links"))
    assert len({urlsplit(u).hostname for u in roll if site.host_of(u) is None}) == len(BLOGROLL)
    for host in SISTERS:
        for target in HOST_PAGES[host]:
            response, back = links(client, site.url(target, host))
            assert response.status_code == 200 and site.url("/partners") in back
            assert site.classify(site.url(target, host)).kind is PageKind.OTHER
    assert site.site.seeds == ((0, "/"), (1, "/"))
    score = site.score()  # sister pages are neither part
    assert (score.trap_fetched, score.legit_found, score.other) == (2, 2, 8)


def test_loop_lookalikes_loops_repeat_and_lookalikes_are_real(
    trap_site: Callable[..., RunningSite], client: httpx.Client
) -> None:
    site = trap_site("loop-lookalikes")
    url, bodies = site.url("/tree/a"), []
    for _ in range(9):
        response, found = links(client, url)
        bodies.append(re.sub(r'href="[^"]*"', "", response.text))
        url = next(u for u in found if urlsplit(u).path.startswith("/tree/"))
    assert urlsplit(url).path == "/tree/a/b/c/d/a/b/c/d/a/b"
    assert bodies[4] == bodies[0] and bodies[8] == bodies[4] and len(set(bodies[:4])) == 4
    forum = site.url("/forum/index.php")
    for _ in range(3):
        forum = next(u for u in links(client, forum)[1] if "section" in u)
    assert urlsplit(forum).path == "/forum/index.php/section/index.php/section/index.php/section/"
    assert client.get(forum).status_code == 200
    assert site.classify(forum).kind is PageKind.TRAP
    assert site.classify(url).kind is PageKind.TRAP
    for target in ("/2011/11/11/", "/2011/11/11/11-11-11-checklist", DOCS[-1]):
        assert target in DATES + DOCS and client.get(site.url(target)).status_code == 200
        assert site.site.classify(target).kind is PageKind.LEGITIMATE
    pairs = parse_qsl(urlsplit(LONG_SEARCH).query)
    assert len(pairs) == 79 and len({k for k, _ in pairs}) == len(FACETS) == 8
    escaped = "/search?" + "&".join(f"{quote(k)}={v}" for k, v in reversed(pairs))
    assert client.get(site.url(escaped)).status_code == 200
    page = site.site.classify(escaped)
    assert page.kind is PageKind.LEGITIMATE and page.key == LONG_SEARCH
