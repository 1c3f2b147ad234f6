"""Self-grown URLs across classes (:mod:`robotkit.triage.growth`, ARCHITECTURE.md "The
waste bound", "Self-grown URLs"): a graph of pages with parameters that moves from
class to class (a map's features queried, each feature's history and changeset, each
linking a query of its own) is followed ``HOPS`` classes from a page that vouches, and
a link showing its page's own state in another view (its query's pairs, its path with
segments more) neither makes the page yield nor starts a chain of its own. A real
loopback server for the crawl; the pure rule beside it."""

from __future__ import annotations

import random

from werkzeug import Request

from robotkit.triage.growth import COUNTER_STEPS, HOPS, Growth
from robotkit.triage.moves import projected
from robotkit.url.normalization import normalize
from tests.test_crawler_growth import _offer
from tests.test_crawler_waste import vocabulary
from tests.test_crawler_waste_exports import crawl_paths, page
from tests.test_crawler_waste_listing import SPENT

CHANGESETS = (158402117, 158401204, 158400291)
REAL = {c: [11204337000 + 77 * (3 * k + j) for j in range(3)] for k, c in enumerate(CHANGESETS)}


def test_an_endless_graph_of_made_up_features_ends_by_itself_with_its_real_pages() -> None:
    """A map site: every element and changeset links its history and a query of the
    features near it; a query lists made-up nodes, each linking its own history, a
    query near it and a made-up changeset, without end. Every page writes prose in the
    site's few words, so none says a word its host never showed, but each links new
    pages of other classes: each yielded, each link a root, and the crawl ran to its
    page cap (blind14 ``osm``: 1,465 trap fetches). The real changesets and their nodes
    are one class from a page without parameters; the made-up graph is left."""
    rng = random.Random(14)
    words = vocabulary(rng, 40)  # a site's few words: soon no page says a new one
    real = {"/changes"} | {f"/changeset/{c}" for c in CHANGESETS}
    real |= {f"/node/{n}" for nodes in REAL.values() for n in nodes}

    def prose(key: str) -> str:
        return " ".join(random.Random(key).choices(words, k=40))

    def element(kind: str, n: int, path: str) -> str:
        links = [f"/{kind}/{n}/history", f"/query?lat={n % 1000}&lon={n % 997}"]
        links += [f"/changeset/{158_000_000 - n % 7_000_000}"]
        links += [f"/node/{x}" for x in REAL.get(n, ())]
        return page(f"{kind} {n}", prose(path), links)

    def handler(request: Request) -> tuple[str, str] | None:
        path, parts = request.path, request.path.strip("/").split("/")
        if path == "/":
            return page("Map", prose("/"), ["/changes", "/query?lat=1&lon=2"]), "text/html"
        if path == "/changes":
            return page("Changes", prose(path), [f"/changeset/{c}" for c in CHANGESETS]), (
                "text/html"
            )
        if path == "/query":
            h = int(request.args.get("lat", "0")) * 1000 + int(request.args.get("lon", "0"))
            made_up = [f"/node/{9_000_000_000 + (h * 7 + j) % 10**9}" for j in range(3)]
            return page("Features", prose(request.full_path), made_up), "text/html"
        if len(parts) in (2, 3) and parts[0] in ("node", "changeset") and parts[1].isdigit():
            if len(parts) == 3 and parts[2] != "history":
                return None
            return element(parts[0], int(parts[1]), path), "text/html"
        return None

    seen = crawl_paths(handler, SPENT)
    assert real <= set(seen), sorted(real - set(seen))
    assert len(seen) < 200  # 400, the page cap, before


def test_a_chain_of_pages_with_parameters_across_classes_is_followed_hops_classes() -> None:
    """From a page without parameters, a chain of pages with parameters crossing to
    another class at each link is followed ``HOPS`` classes, the next one waits; a part
    of a page's object is no crossing; a page without parameters, or one showing words
    of its own, starts the chain again."""
    growth = Growth()
    _offer(growth, "http://h/changes", None)
    url = "http://h/changeset/158402117"
    assert not _offer(growth, url, "http://h/changes")[1]
    chain = ["http://h/query?lat=1&lon=2", "http://h/node/9000000007", "http://h/way/91"]
    deep = []
    for nxt in chain:
        deep.append(_offer(growth, nxt, url)[1])
        url = nxt
    assert deep == [False] * HOPS + [True]
    # A part of a page's object crosses nothing: an element's history, an event's
    # contributions (blind11 ``indico``).
    node = "http://h/node/9000000007"
    assert not _offer(growth, f"{node}/history", node)[1]
    assert not _offer(growth, "http://h/user/mapper", url)[1]  # no parameters: vouches
    growth.yields(normalize(node).key)  # words its host never showed: a record
    assert not _offer(growth, "http://h/changeset/157999000", node)[1]


def test_a_link_showing_its_page_in_another_view_continues_the_pages_chain() -> None:
    """A departure board's train on the board's date, or its journeys at its date and
    time, carry the board's own query pairs; a train's carriages extend its path: the
    same state in another view. The page does not yield by them (its "Later" arrows
    stay steps of its chain), and their own date arrows go on counting where it was
    (blind14 ``timetable``: every board and journey yielded, 1,468 trap fetches)."""
    board = normalize("http://h/board/FER0?date=2026-12-05&time=12:00")
    assert projected(board, normalize("http://h/train/1100?date=2026-12-05"))
    assert projected(normalize("http://h/train/1100"), normalize("http://h/train/1100/seats"))
    assert not projected(normalize("http://h/blog?page=2"), normalize("http://h/post/2-title"))
    growth = Growth()
    url = "http://h/board/FER0?date=2026-12-05&time=12:00"
    _offer(growth, url, "http://h/")
    for day in range(6, 8 + COUNTER_STEPS):
        _offer(growth, f"http://h/train/1100?date=2026-12-{day - 1:02d}", url)
        nxt = f"http://h/board/FER0?date=2026-12-{day:02d}&time=12:00"
        if _offer(growth, nxt, url)[1]:
            break
        url = nxt
    else:
        raise AssertionError("the board's date arrows were followed without end")
    train = f"http://h/train/1100?date=2026-12-{day - 1:02d}"
    assert _offer(growth, f"http://h/train/1100?date=2026-12-{day:02d}", train)[1]
