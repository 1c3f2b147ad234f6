"""The trap-site generator: deterministic, within its size bounds, drawing every trap
kind, and with ground truth that matches what the served site really does. Sites are
served on loopback and walked with real requests."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Iterator
from functools import cache

import httpx
import pytest

from robotkit import traps
from robotkit.page.meta import parse_page
from robotkit.traps import PageKind, RunningSite
from robotkit.traps.generated import KINDS, GeneratedSite
from robotkit.traps.generated.legit import RELATED
from robotkit.traps.generated.trap import MAX_LEGIT
from robotkit.traps.naive import naive_crawl

HELD_OUT = 1000


@cache
def drawn_traps(seed: int) -> list[tuple[str, str]]:
    return [(t.kind, t.shape) for t in GeneratedSite(seed).traps]


@cache
def first_seed(predicate_name: str) -> int:
    """The first tuning seed whose site has a trap matching ``kind:shape part``."""
    kind, _, shape = predicate_name.partition(":")
    for seed in range(HELD_OUT):
        if any(k == kind and shape in s for k, s in drawn_traps(seed)):
            return seed
    raise AssertionError(f"no seed below {HELD_OUT} draws {predicate_name}")


KIND_NAMES = [k.kind for k in KINDS]
SHAPES = [
    "session-ids:as path",
    "session-ids:as jsessionid",
    "session-ids:as query",
    "symlink-loop:period 4, without trailing slash",
    "symlink-loop:period 1, with trailing slash",
    "redirect-loop:trailing slash",
]


@pytest.fixture
def served() -> Iterator[list[RunningSite]]:
    running: list[RunningSite] = []
    yield running
    for site in running:
        site.stop()
        site.check()


def serve(running: list[RunningSite], seed: int) -> RunningSite:
    site = traps.start(GeneratedSite(seed))
    running.append(site)
    return site


def response_bytes(site: RunningSite, client: httpx.Client) -> list[bytes]:
    """The bodies of the first legitimate pages, with the site's ports masked."""
    out = []
    for url in site.legitimate_urls()[:15]:
        body = client.get(url).content
        for index, base in enumerate(site.base_urls):
            body = body.replace(base.encode(), f"HOST{index}".encode())
        out.append(body)
    return out


def test_same_seed_same_site_byte_for_byte(served: list[RunningSite]) -> None:
    a, b = GeneratedSite(7), GeneratedSite(7)
    assert a.pages == b.pages and a.legitimate_keys == b.legitimate_keys
    assert [t.describe() for t in a.traps] == [t.describe() for t in b.traps]
    assert GeneratedSite(8).pages != a.pages
    first, second = serve(served, 7), serve(served, 7)
    with httpx.Client(timeout=5) as client:
        assert response_bytes(first, client) == response_bytes(second, client)


def test_trap_responses_are_deterministic(served: list[RunningSite]) -> None:
    """Session ids and share tokens are minted from the URL, not at random."""
    seed = first_seed("session-ids:as query")
    first, second = serve(served, seed), serve(served, seed)
    trap = next(t for t in first.site.traps if t.kind == "session-ids")  # type: ignore[attr-defined]
    target = next(iter(trap.legit))
    with httpx.Client(timeout=5) as client:
        bodies = [client.get(s.url(target, trap.host)).text for s in (first, second)]
    assert bodies[0].replace(first.base_url, "") == bodies[1].replace(second.base_url, "")
    assert "sid=" in bodies[0] or "session" in bodies[0].lower()


def related_section(site: GeneratedSite) -> set[str]:
    """The targets of a site's related-items section (index and items), if any."""
    names = {n for pool, _ in RELATED.values() for n in pool}
    return {t for _, t in site.pages if t.lstrip("/").split("/")[0].split("?")[0] in names}


@pytest.mark.parametrize("seed", range(0, 400, 7))
def test_legitimate_part_has_30_to_60_pages(seed: int) -> None:
    site = GeneratedSite(seed)
    related = len(related_section(site))
    assert related == 0 or 41 <= related <= 151
    assert 30 <= len(site.legitimate_keys) - related <= 60
    assert 1 <= len(site.traps) <= 2
    assert all(len(t.legit) <= MAX_LEGIT for t in site.traps)
    assert len(site.seed_paths) == 1 + len(site.extra_hosts) >= 2


def test_related_items_link_each_other_and_hide_behind_their_index() -> None:
    """About half the sites have a related-items section; its index lists at most
    three items, and every item links 3 to 8 other items of the section."""
    sites = [GeneratedSite(seed) for seed in range(20)]
    with_section = [(s, related_section(s)) for s in sites if related_section(s)]
    assert 5 <= len(with_section) <= 15
    assert all(s.related in targets for s, targets in with_section)
    for site, targets in with_section:
        index = min(targets, key=len)
        for (_, target), spec in site.pages.items():
            if target not in targets:
                continue
            inside = {h.target for h in spec.links} & targets - {index}  # the menu's
            if target == index:
                assert 1 <= len(inside) <= 3
            else:
                assert 3 <= len(inside) <= 10, target


@pytest.mark.parametrize("name", [*KIND_NAMES, *SHAPES])
def test_every_trap_kind_is_drawn_below_the_held_out_seeds(name: str) -> None:
    assert first_seed(name) < HELD_OUT


def test_generated_sites_are_got_by_name_but_not_listed() -> None:
    site = traps.get("generated-17")
    assert isinstance(site, GeneratedSite) and site.seed == 17
    assert not any(n.startswith("generated") for n in traps.names())
    with pytest.raises(traps.UnknownSite):
        traps.get("generated-x")


def walk_without_traps(site: RunningSite) -> tuple[set[str], list[str]]:
    """Breadth-first over every link the ground truth does not call a trap, from
    every seed, following redirects by hand: the legitimate keys answered 200, and
    the trap URLs the pages offered."""
    queue = deque(site.seed_urls)
    seen = set(queue)
    found: set[str] = set()
    offered: list[str] = []
    with httpx.Client(timeout=5) as client:
        while queue:
            url = queue.popleft()
            page = site.classify(url)
            assert page is not None
            response = client.get(url)
            if response.is_redirect:
                links = [str(response.next_request.url)] if response.next_request else []
            else:
                if page.kind is PageKind.LEGITIMATE:
                    assert response.status_code == 200, url
                    found.add(page.key)
                if "html" not in response.headers.get("content-type", ""):
                    continue
                links = [link.url for link in parse_page(response.text, url, "t").links]
            for link in links:
                linked = site.classify(link)
                if linked is None or link in seen:
                    continue
                seen.add(link)
                if linked.kind is PageKind.TRAP:
                    offered.append(link)
                elif linked.kind is PageKind.LEGITIMATE and linked.key in found:
                    continue
                else:
                    queue.append(link)
    return found, offered


@pytest.mark.parametrize("name", [*KIND_NAMES, "session-ids:as path"])
def test_ground_truth_is_consistent(name: str, served: list[RunningSite]) -> None:
    """Every legitimate page is reachable from the seeds without entering the trap
    and answers 200, and the trap's own links lead into the trap."""
    site = serve(served, first_seed(name))
    found, offered = walk_without_traps(site)
    assert found == set(site.site.legitimate_keys)
    if name.partition(":")[0] in ("session-ids", "tarpit"):
        return  # no endless links / responses too slow to read here
    assert offered, "the trap is linked from the site"
    assert_trap_is_closed(site, offered[:4])


def assert_trap_is_closed(site: RunningSite, entries: list[str]) -> None:
    """Two levels into the trap, every same-site link (or redirect) that is not a
    legitimate page classifies as trap too: the whole endless part is counted."""
    frontier = entries
    with httpx.Client(timeout=5) as client:
        for _ in range(2):
            deeper = []
            for url in frontier:
                response = client.get(url)
                if response.is_redirect and response.next_request is not None:
                    links = [str(response.next_request.url)]
                else:
                    assert response.status_code in (200, 404), url
                    links = [link.url for link in parse_page(response.text, url, "t").links]
                for link in links:
                    page = site.classify(link)
                    if page is None or page.kind is PageKind.LEGITIMATE:
                        continue
                    assert page.kind is PageKind.TRAP, (url, link)
                    deeper.append(link)
            frontier = deeper[:4]


def test_a_second_url_of_a_page_is_a_repeat() -> None:
    site = GeneratedSite(first_seed("session-ids:as jsessionid"))
    trap = next(t for t in site.traps if t.kind == "session-ids")
    target = sorted(trap.legit)[-1]
    first = f"{target};jsessionid=AB12"
    second = f"{target};jsessionid=CD34"
    assert site.classify(first, trap.host).kind is PageKind.LEGITIMATE
    score = site.score([(trap.host, first), (trap.host, second), (trap.host, target)])
    assert (score.legit_found, score.repeats, score.trap_fetched) == (1, 2, 2)


def test_naive_crawler_fetches_every_legitimate_page(served: list[RunningSite]) -> None:
    site = traps.start(GeneratedSite(3, with_traps=False))
    served.append(site)
    assert not site.site.traps  # type: ignore[attr-defined]
    run = asyncio.run(naive_crawl(site.seed_urls, 500))
    score = site.score()
    assert score.complete, score.missing
    assert run.ended == "done" and score.trap_fetched == 0
