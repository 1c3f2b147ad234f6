"""The waste bound's measure of teaching, for a page retelling the page that linked
it (ARCHITECTURE.md, "The waste bound"): a number under its referer linking only what
its referer linked, the same object again, whose only news is a passage (no word new
to its region, no new page of another region, no list of its own) taught nothing,
whatever prose it writes. A forum's post-number URL shows its discussion from that
post (Flarum's ``/d/<id>-<slug>/<n>``, Discourse's ``/t/<slug>/<id>/<n>``); a server
that writes a passage seeded by the URL beside it made each a page of its own (blind12
``flarum``). A thin page under its referer with a word or a new page of its own, a
folder's item, a wiki's named page and a sibling record in known words still teach.
The pure core, fed the facts a crawl would feed it."""

from __future__ import annotations

import random

from robotkit.traps.base import prose
from robotkit.triage.triage import PageFacts, PageVerdict, Triage

HOST = "http://forum.example"
HOME = prose("the forum's home", 40)
"""The words of the site: every later page writes only these."""
KNOWN = HOME.lower().replace(".", "").split()


def _said(seed: int, count: int = 24) -> str:
    """A passage of its own in the site's known words."""
    return " ".join(random.Random(seed).choices(KNOWN, k=count)) + "."


class Crawl:
    """A triage and the URLs its frontier knows, as a crawl feeds them."""

    def __init__(self) -> None:
        self.triage = Triage()
        self.seen: set[str] = set()

    def judge(self, url: str, text: str, links: list[str], referer: str | None) -> PageVerdict:
        """Judge a page; its links are known to the frontier from then on."""
        items = "".join(f'<li><a href="{a}">{a.rsplit("/", 1)[1]}</a></li>' for a in links)
        title = "<head><title>Lamp repair - Forum</title></head>"
        html = f"<html>{title}<body><ul>{items}</ul><p>{text}</p></body></html>"
        facts = PageFacts(url, url, 200, html, tuple(links), referer=referer)
        verdict = self.triage.judge(facts, self.seen, lambda _: True)
        self.seen.update(links)
        return verdict


def _discussion(crawl: Crawl) -> tuple[str, list[str]]:
    """The home page and a discussion listing its posts by number, its author and tag."""
    disc = f"{HOST}/d/7-lamp-repair"
    assert crawl.judge(f"{HOST}/", HOME, [disc, f"{HOST}/t/lamps"], None).taught
    posts = [f"{disc}/{n}" for n in range(1, 9)]
    links = [*posts, f"{HOST}/u/ann", f"{HOST}/t/lamps", f"{HOST}/api/7"]
    assert crawl.judge(disc, f"{HOME} {_said(1)}", links, f"{HOST}/").taught
    return disc, links


def test_a_post_number_page_writing_only_a_passage_of_its_own_taught_nothing() -> None:
    """Each post number shows the discussion's links again and a "Next page" to
    ``<n+20>``, with a passage seeded by its URL in the forum's words: it counted as a
    page that taught and vouched for its next numbers (blind12 ``flarum``: 220 trap
    fetches)."""
    crawl = Crawl()
    disc, links = _discussion(crawl)
    for n in range(1, 5):
        url = f"{disc}/{n}"
        verdict = crawl.judge(url, _said(10 + n), [*links, f"{disc}/{n + 20}"], disc)
        assert not verdict.taught, url
        assert not crawl.triage.waste.vouches(url), url


def test_a_thin_page_under_its_referer_with_a_word_or_a_page_of_its_own_teaches() -> None:
    """A map service's numbered layer with a name of its own (a word new to its
    region), or linking a page of its own (its first field, ``/0/1``), or a new page
    of another region in a form its service linked (``/api/8`` beside ``/api/7``); a
    folder's item linking a page of its own, not the folder's list (blind3 ``plone``,
    ``portal``: 28 pages lost in a trial without that); a wiki's page under its
    index, named by a word and not a number, beside the index's list in its sidebar
    (blind5 ``redmine``): each still teaches, as a record not under its referer does
    with a passage alone (a discussion listed on the home page, in the forum's
    words)."""
    crawl = Crawl()
    disc, links = _discussion(crawl)
    named = crawl.judge(f"{disc}/9", _said(20) + " Floodplain.", links, disc)
    assert named.taught and crawl.triage.waste.vouches(f"{disc}/9")
    layer = crawl.judge(f"{disc}/0", _said(21), [*links, f"{disc}/0/1"], disc)
    assert layer.taught and crawl.triage.waste.vouches(f"{disc}/0")
    other = crawl.judge(f"{disc}/10", _said(26), [*links, f"{HOST}/api/8"], disc)
    assert other.taught and crawl.triage.waste.vouches(f"{disc}/10")
    folder, item = f"{HOST}/t/lamps", f"{HOST}/t/lamps/brass"
    items = [item, f"{folder}/oak"]
    assert crawl.judge(folder, f"{HOME} {_said(23)}", items, disc).taught
    news = crawl.judge(item, _said(24), [f"{item}/2", items[1]], folder)
    assert news.taught and crawl.triage.waste.vouches(item)
    assert crawl.judge(items[1], _said(25), items, folder).taught
    other = f"{HOST}/d/8-bench-grinder"
    sibling = crawl.judge(other, _said(22), [f"{other}/1"], f"{HOST}/")
    assert sibling.taught and crawl.triage.waste.vouches(other)
