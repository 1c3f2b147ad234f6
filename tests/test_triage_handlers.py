"""A script addressed by its query, judged per handler (``robotkit.triage.regions``):
one script serves every page, the handler named in a parameter (Znuny's
``public.pl?Action=PublicFAQZoom;ItemID=7``, gitweb's ``?p=x.git;a=commit``, Matomo's
``index.php?module=CoreHome&action=index``). Its whole query space is one region,
and a few pages growing it parked every real page with it (blind12 ``znuny``: 15 of
32 articles lost; blind6 ``gitweb``, blind12 ``matomo``). The crawl driver of
``tests/test_triage.py``."""

from __future__ import annotations

import json
from urllib.parse import quote

from robotkit.base.reasons import Reason
from robotkit.triage.regions import Regions, region_of
from robotkit.triage.routes import route_of
from robotkit.url.normalization import normalize
from tests.test_triage import SITE, WORDS, Crawl

FAQ = f"{SITE}/faq.pl"
ARTICLES = range(1, 25)
TOPICS = ["printer", "network", "password", "mailbox", "screen", "update", "account", "backup"]


def page(title: str, text: str, links: list[str]) -> str:
    """A page whose links read as a reader sees them: "open", not their targets."""
    anchors = "".join(f'<a href="{url}">open</a>' for url in links)
    return f"<html><head><title>{title}</title></head><body><p>{text}</p>{anchors}</body></html>"


def _pairs(query: str) -> dict[str, str]:
    return dict(pair.partition("=")[::2] for pair in query.split(";"))


def faq(url: str) -> tuple[str, list[str]]:
    """A public FAQ: its home (``/faq.pl``) lists three categories and articles 1 to
    12; articles 13 to 24 are reached only along the "related" links of others. A
    category lists its articles with a back link to itself (``;Back=``) and links
    three sorts of itself; an article links two related articles (with a back link to
    itself when it has one, growing on every click, which it names) and two votes. An article writes
    three words of its own among forty the site uses everywhere: a record, but no
    news by its words once a few were read."""
    query = url.partition("?")[2]
    if not query:
        links = [f"{FAQ}?Action=Explorer;CategoryID={c}" for c in range(1, 4)]
        links += [f"{FAQ}?Action=Zoom;ItemID={n}" for n in range(1, 13)]
        return page("FAQ", " ".join(TOPICS + WORDS), links), links
    pairs = _pairs(query)
    if pairs["Action"] == "Explorer":
        c = int(pairs["CategoryID"])
        back = quote(query, safe="")
        links = [f"{FAQ}?Action=Zoom;ItemID={n};Back={back}" for n in range(c, 13, 3)]
        if "SortBy" not in pairs:
            links += [f"{url};SortBy={s}" for s in ("Title", "Votes", "Changed")]
        return page(f"Category {c}", f"{WORDS[c]} {' '.join(TOPICS)}", links), links
    n = int(pairs["ItemID"])
    if pairs.get("Subaction") == "Vote":
        return page(f"Thanks {n}", f"vote {pairs['Rate']} {WORDS[n % len(WORDS)]}", []), []
    tail = f";Back={quote(query, safe='')}" if "Back" in pairs else ""
    links = [f"{FAQ}?Action=Zoom;ItemID={m}{tail}" for m in (n % 24 + 1, (n + 11) % 24 + 1)]
    links += [f"{FAQ}?Action=Zoom;Subaction=Vote;ItemID={n};Rate={r}" for r in (25, 75)]
    own = " ".join(_letters(100 * k + n) for k in (1, 2, 3))
    back = f" back to {_letters(len(pairs['Back']))}" if "Back" in pairs else ""
    return page(f"FAQ {n}", f"{' '.join(TOPICS * 4 + WORDS)} {own}{back}", links), links


def _letters(n: int) -> str:
    """A word of letters naming a number (``bca`` for 120)."""
    return "".join(chr(97 + int(d)) for d in str(n))


def test_a_script_whose_home_lists_its_articles_keeps_them_past_its_views() -> None:
    """The home page lists articles of the script's own path under another handler:
    they are items of a list, whose links are no growth. The categories' sorts and
    the growing back links park ``/faq.pl?``, but only the handler they grew in is
    held, and of it only its views: every article is fetched, the ones only related
    links name too; few back links and sorts are."""
    crawl = Crawl()
    crawl.run(faq, f"{FAQ}", budget=400)
    assert any(region.startswith(f"{FAQ}?") for region in crawl.triage.regions.parked)
    fetched = {url.partition(";Back=")[0] for url in crawl.fetched}
    assert {f"{FAQ}?Action=Zoom;ItemID={n}" for n in ARTICLES} <= fetched
    assert sum("Back=" in url for url in crawl.fetched) <= 8
    assert sum("SortBy=" in url for url in crawl.fetched) <= 6


def test_a_handler_is_a_word_the_script_dispatches_on() -> None:
    """The handler pairs of a query (a word under a dispatch name: Matomo's
    ``module`` and ``action``, Znuny's ``Action``, gitweb's ``a``), before a route of
    words joined by ``/``: a file's path is none. Not a number, nor a sub-action."""
    matomo = normalize(f"{SITE}/index.php?module=CoreHome&action=index&idSite=1&period=day")
    assert route_of(matomo) == "action=index&module=CoreHome"
    gitweb = normalize(f"{SITE}/?p=tide.git;a=blob;f=src/io.c;hb=HEAD")
    assert route_of(gitweb) == "a=blob"
    vote = normalize(f"{FAQ}?Action=Zoom;Subaction=Vote;ItemID=3;Rate=25")
    assert route_of(vote) == "Action=Zoom"
    assert route_of(normalize(f"{SITE}/index.php?action=12&id=3")) is None
    assert route_of(normalize(f"{SITE}/index.php?route=product/category&path=2")) == (
        "route=product/category"
    )
    assert region_of(vote) == region_of(normalize(f"{FAQ}?Action=Explorer;CategoryID=1"))


STATS = f"{SITE}/stats.php"


def _counted(regions: Regions, query: str, news: bool, grows: bool) -> str | None:
    norm = normalize(f"{STATS}?{query}")
    return regions.count(norm, region_of(norm), news, grows)


def _held(regions: Regions, query: str) -> bool:
    norm = normalize(f"{STATS}?{query}")
    return regions.held(norm, region_of(norm)) is Reason.TRAP_HOST


def _parked_by_all_sites() -> Regions:
    """A statistics script whose all-sites page (``module=All``) and three sites'
    dashboards (``module=Dash``) were news, and one of its segments, then eight more
    segments grew its space without news: parked, with the all-sites handler held
    (the name ``segment`` not held on its own: a page of it was news)."""
    regions = Regions()
    _counted(regions, "module=All&action=index", True, True)
    for site in (1, 2, 3):
        _counted(regions, f"module=Dash&action=index&site={site}&month=600", True, True)
    _counted(regions, "module=All&action=index&segment=x", True, True)
    for k in range(8):
        _counted(regions, f"module=All&action=index&segment={k}", False, True)
    assert f"{STATS}?" in regions.parked
    assert _held(regions, "module=All&action=index&segment=9")
    return regions


def test_a_handler_let_in_is_held_for_its_views_and_keeps_its_records() -> None:
    """The dashboards' handler, let in, is judged on its own: four of its segments
    grow it without news and its segments are held, its months (the shape that was
    news) still let in."""
    regions = _parked_by_all_sites()
    dash = "module=Dash&action=index&site=1"
    assert not _held(regions, f"{dash}&month=600&segment=0")
    for k in range(4):
        assert not _held(regions, f"{dash}&month=600&segment={k}")
        _counted(regions, f"{dash}&month=600&segment={k}", False, True)
    assert _held(regions, f"{dash}&month=600&segment=7")
    assert not _held(regions, f"{dash}&month=599")


def test_a_handler_whose_pages_each_lead_to_the_next_is_held() -> None:
    """Once held for its views, the dashboards' months are let in; each is news but
    also names the month before, without end (a period's "previous" arrow): after 8
    such, the handler is held whole."""
    regions = _parked_by_all_sites()
    dash = "module=Dash&action=index&site=1"
    for k in range(4):
        _counted(regions, f"{dash}&month=600&segment={k}", False, True)
    for month in range(599, 591, -1):
        assert not _held(regions, f"{dash}&month={month}")
        _counted(regions, f"{dash}&month={month}", True, True)
    assert _held(regions, f"{dash}&month=591")
    again = Regions()
    again.restore(json.loads(json.dumps(regions.snapshot())))
    assert again.snapshot() == regions.snapshot()
