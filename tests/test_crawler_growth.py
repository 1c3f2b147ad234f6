"""Self-grown URLs (:mod:`robotkit.triage.growth`, ARCHITECTURE.md "The waste bound"):
a class of URLs its own pages keep extending, each page writing prose of its own, is
followed a few steps of one move from the pages outside it that link it, whatever
its words. A real loopback server for the crawl; the pure rule beside it."""

from __future__ import annotations

import datetime as dt
import random
import re

from werkzeug import Request

from robotkit.triage.growth import COUNTER_STEPS, Growth
from robotkit.triage.moves import growth_class, listed, move
from robotkit.triage.triage import PageFacts, PageVerdict, Triage
from robotkit.triage.waste import Waiting
from robotkit.url.normalization import normalize
from tests.test_crawler_waste import vocabulary
from tests.test_crawler_waste_exports import Site, crawl_paths, page
from tests.test_crawler_waste_listing import SPENT
from tests.test_triage import SITE, html

STATIONS = ("EGHI", "EGJJ", "EGKA")
REAL_MONTHS = (dt.date(2026, 9, 1), dt.date(2026, 10, 1), dt.date(2026, 11, 1))
TODAY = dt.date(2026, 12, 3)


def _day(view: str, station: str, day: dt.date, units: str = "") -> str:
    url = f"/history/{view}/{station}/date/{day.year}-{day.month}-{day.day}"
    return url + (f"?units={units}" if units else "")


def weather_site() -> tuple[Site, set[str]]:
    """A weather archive: each station's day and month pages link the previous and next
    dates without end, their other views and both units, and every page writes prose
    seeded by its URL (blind13 ``weather``). The site's handler (a body and its type,
    or ``None`` for a 404) and its real pages: three months a station's page reaches in
    two arrows back, and each station's day."""
    rng = random.Random(13)
    words = vocabulary(rng, 40)  # a site's few words: soon no page says a new one
    real = {_day("monthly", s, m) for s in STATIONS for m in REAL_MONTHS}
    real |= {_day("daily", s, TODAY) for s in STATIONS}

    def history(view: str, station: str, day: dt.date, units: str) -> str:
        if view == "monthly":
            day = day.replace(day=1)
            before = (day - dt.timedelta(days=1)).replace(day=1)
            after = (day + dt.timedelta(days=32)).replace(day=1)
        else:
            step = dt.timedelta(days=7 if view == "weekly" else 1)
            before, after = day - step, day + step
        links = [_day(view, station, before, units), _day(view, station, after, units)]
        links += [_day(v, station, day, units) for v in ("daily", "weekly", "monthly")]
        links += [_day(view, station, day, u) for u in ("metric", "imperial") if u != units]
        links.append(f"/station/{station}")
        seeded = random.Random(f"{view}{station}{day}{units}")
        return page(f"{station} {view} {day}", " ".join(seeded.choices(words, k=40)), links)

    def handler(request: Request) -> tuple[str, str] | None:
        path = request.path
        if path == "/":
            return page("Archive", "the stations", [f"/station/{s}" for s in STATIONS]), "text/html"
        s = path.rpartition("/")[2]
        if path.startswith("/station/") and s in STATIONS:
            links = [_day("daily", s, TODAY), _day("monthly", s, REAL_MONTHS[-1])]
            about = " ".join(random.Random(s).choices(words, k=60))
            return page(f"Station {s}", about, links), "text/html"
        parts = path.split("/")
        if len(parts) == 6 and parts[1] == "history" and parts[3] in STATIONS:
            y, m, d = map(int, parts[5].split("-"))
            units = request.args.get("units", "")
            return history(parts[2], parts[3], dt.date(y, m, d), units), "text/html"
        return None

    return handler, real


GROWN_FETCHES = 200
"""Fewer fetches of :func:`weather_site` than this: its crawls end by themselves (400,
the page cap, without the bound)."""

_MONTH = re.compile(r"/history/monthly/\w+/date/(\d+)-(\d+)-1")


def arrows(path: str) -> int:
    """How many monthly arrows a path of :func:`weather_site` lies from the month a
    station's page links (0 for another page): a crawl under the bound follows them
    ``COUNTER_STEPS``."""
    match = _MONTH.fullmatch(path)
    if match is None:
        return 0
    last = REAL_MONTHS[-1]
    return abs(int(match.group(1)) * 12 + int(match.group(2)) - (last.year * 12 + last.month))


def test_an_archive_of_endless_date_arrows_ends_by_itself_with_its_real_months() -> None:
    """Every page of the weather archive teaches and vouches for its links, and the
    crawl ran to its page cap (blind13 ``weather``: 1,474 trap fetches). The real
    months lie two arrows back from the month a station's page links; the rest waits
    and is left."""
    handler, real = weather_site()
    seen = crawl_paths(handler, SPENT)
    assert real <= set(seen), sorted(real - set(seen))
    assert max(map(arrows, seen)) <= COUNTER_STEPS
    assert len(seen) < GROWN_FETCHES


def _offer(growth: Growth, url: str, referer: str | None) -> tuple[str, bool]:
    """Link ``url`` from ``referer`` (fetched before), then take its turn: its key and
    whether it is deep."""
    link = normalize(url)
    page = normalize(referer) if referer else None
    growth.linked(link.key, link, page.key if page else None, page)
    return link.key, growth.deep(link.key, link)


def test_a_chain_of_one_counter_is_followed_a_few_steps_from_its_root() -> None:
    """A month a page outside the class links is a root; its previous months are
    followed ``COUNTER_STEPS`` arrows, and the next one waits."""
    growth = Growth()
    _offer(growth, "http://h/station/A", None)
    url = "http://h/history/monthly/A/date/2026-11-1"
    assert not _offer(growth, url, "http://h/station/A")[1]
    for n in range(1, COUNTER_STEPS + 2):
        older = f"http://h/history/monthly/A/date/2026-{11 - n}-1"
        deep = _offer(growth, older, url)[1]
        assert deep == (n > COUNTER_STEPS)
        url = older


def test_a_chain_that_changes_its_move_is_deep_at_once() -> None:
    """A date stepped on a units variant, a tag joined after a tag: two moves in one
    chain. A view or a filter of a root's page is followed one step."""
    growth = Growth()
    root = "http://h/history/daily/A/date/2026-12-3"
    _offer(growth, root, "http://h/station/A")
    metric = f"{root}?units=metric"
    assert not _offer(growth, metric, root)[1]
    assert _offer(growth, "http://h/history/daily/A/date/2026-12-2?units=metric", metric)[1]
    tag = "http://h/questions/tagged/lime"
    _offer(growth, tag, "http://h/tags")
    assert not _offer(growth, f"{tag}+salt", tag)[1]
    assert _offer(growth, f"{tag}+salt+fig", f"{tag}+salt")[1]


def test_a_page_listing_new_pages_of_another_class_makes_its_links_roots() -> None:
    """A list's next page lists new items: its own next page starts a chain again
    (a pager of posts goes on as long as it lists new posts)."""
    growth = Growth()
    first = "http://h/blog?page=1"
    _offer(growth, first, "http://h/")
    url = first
    for n in range(2, COUNTER_STEPS + 4):
        nxt = f"http://h/blog?page={n}"
        _offer(growth, f"http://h/post/{n}-title", url)  # a new item of another class
        assert not _offer(growth, nxt, url)[1]
        url = nxt


def test_an_index_listing_new_records_of_its_class_starts_its_links_chains() -> None:
    """A mailing list's month reached by the previous-month arrow lists threads of its
    own class (a number of its path switched for a word): it is an index, so its threads
    and its second page are followed, where they were a change of move two steps from
    the list's page (blind14 ``hyperkitty``: 11 of 35 real pages held). A month the
    arrows reach that lists no thread stays one step further along the arrow's chain."""
    growth = Growth()
    lst = "http://h/hyperkitty/list/dev@lists.example.org"
    nov, oct_, sep = f"{lst}/2026/11/", f"{lst}/2026/10/", f"{lst}/2026/9/"
    _offer(growth, nov, f"{lst}/")
    assert not _offer(growth, oct_, nov)[1]
    assert not _offer(growth, f"{lst}/thread/H27BSNGHRLIW3BTUE56USYSZNJFTB6CL/", oct_)[1]
    assert not _offer(growth, f"{oct_}?page=2", oct_)[1]
    assert not _offer(growth, sep, oct_)[1]  # an arrow's month: no thread of its own
    assert _offer(growth, f"{sep}?page=2", sep)[1]
    assert not listed(normalize(nov), normalize(oct_))
    assert not listed(normalize(f"{lst}/thread/ABC/"), normalize(oct_))


def test_a_held_url_goes_back_under_the_spelling_a_closer_page_linked() -> None:
    """A station's month first queued under a "Nearby" link's lower-case spelling, deep
    from there, is given back when its own station's month links it, under that
    spelling (blind13 ``weather``: the alias was fetched, the real page never)."""
    growth = Growth()
    root = "http://h/history/monthly/B/date/2026-11-1"
    _offer(growth, root, "http://h/station/B")
    older = "http://h/history/monthly/B/date/2026-10-1"
    _offer(growth, older, root)
    alias = normalize("http://h/history/monthly/c/date/2026-10-1")
    growth.linked(alias.key, alias, normalize(older).key, normalize(older))
    assert growth.deep(alias.key, alias)
    growth.hold(Waiting(str(alias), alias.key, 3, older, "r"), alias)
    own = "http://h/history/monthly/C/date/2026-10-1"
    page = normalize("http://h/history/monthly/C/date/2026-11-1")
    growth.linked(page.key, page, "http://h/station/C", normalize("http://h/station/C"))
    growth.deep(page.key, page)
    growth.linked(alias.key, alias, page.key, page, new=False, url=own)
    back = growth.again(alias.key, alias, own)
    assert back is not None and back.url == own


def test_another_kind_of_page_is_no_move() -> None:
    """Another script, another template of a query (more names and fewer), or a word
    switched with anything else: a product of a sorted catalogue (blind3 ``struts``),
    an article of a category (blind4 ``joomla``), a commit of a list of commits (blind4
    ``gitlab``), a publisher's dataset (blind3 ``django``) are roots, not steps of the
    list's chain. A view switched alone is a move."""

    def moved(page: str, link: str) -> tuple[str, bool] | None:
        return move(normalize(page), normalize(link))

    assert growth_class(normalize("http://h/shop/product.do?id=1")) != growth_class(
        normalize("http://h/shop/catalog.do?cat=x")
    )
    article = "http://h/index.php?option=c&view=article&id=3&catid=1"
    assert moved("http://h/index.php?option=c&view=category&id=1&limitstart=4", article) is None
    assert moved("http://h/a/-/commits/main?page=2", "http://h/a/-/commit/3a92f72") is None
    assert moved("http://h/c/publisher/10/change/", "http://h/c/dataset/253/change/") is None
    assert moved("http://h/h/monthly/A/date/2026-12-1", "http://h/h/daily/A/date/2026-12-1")
    assert moved("http://h/q?tab=new&page=2", "http://h/q?tab=new&page=3") == ("?page", True)


def test_the_verdict_counts_the_words_new_to_the_host_before_the_page() -> None:
    """A page yields by the words its host never showed before it (numbers left out),
    in any region of the host: the triage's news counts them on the vocabulary it
    keeps per host, and the verdict hands them to the bound, one vocabulary for both."""
    triage = Triage()

    def judged(path: str, text: str) -> PageVerdict:
        url = f"{SITE}{path}"
        return triage.judge(PageFacts(url, url, 200, html("Notes", text), []), set())

    first = judged("/a/1", "alpha beta gamma 2026")
    assert "2026" not in first.words and first.shown == len(first.words) == 4
    second = judged("/b/2", "alpha beta delta epsilon 2027")  # another region
    assert second.shown == len(second.words - first.words) == 2
    assert judged("/c/3", "gamma delta notes").shown == 0
