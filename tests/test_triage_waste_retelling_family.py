"""The waste bound's measure of teaching, for a query family numbered by its query
whose every member writes a passage of its own (ARCHITECTURE.md, "The waste bound"):
after ``RETOLD`` members in a row whose only news was a passage (no word new to their
region, no list of their own), the next such member taught nothing. A repository
browser shows every file at every revision (WebSVN's
``filedetails.php?path=…&rev=N&peg=N``); a server writing a passage seeded by the
revision there made each a page that taught and vouched for its views of the
revision (blind12 ``websvn``: 156 trap fetches). A family of named objects (the head
revision's files, ``?path=/trunk/README``), a numbered member with a word of its own,
and the thin members before the run is long still teach.
The pure core, fed the facts a crawl would feed it."""

from __future__ import annotations

import random
from dataclasses import replace

from robotkit.traps.base import prose
from robotkit.triage.news import RETOLD
from robotkit.triage.triage import PageFacts, Triage

HOST = "http://svn.example"
HOME = prose("the repository's home", 40)
"""The words of the site: every later page writes only these."""
KNOWN = HOME.lower().replace(".", "").split()
FILES = ("README", "Makefile", "NEWS", "main.c", "util.c", "io.c", "doc.txt", "TODO")


def _said(seed: int) -> str:
    """A passage of its own in the site's known words: a sentence seeded by the URL."""
    return " ".join(random.Random(seed).sample(KNOWN, 24)) + "."


class Crawl:
    """A triage fed the pages of a repository browser, and the URLs its frontier knows."""

    def __init__(self) -> None:
        self.triage, self.seen = Triage(), set[str]()
        home = f"{HOST}/listing.php?repname=lib&path=/"
        assert self.judge(home, HOME, [self.details(f) for f in FILES], None)
        assert self.judge(self.details("ChangeLog"), HOME, [], home)  # the site's words

    @staticmethod
    def details(name: str, rev: int | None = None) -> str:
        """A file's page, at the head or at revision ``rev``."""
        at = "" if rev is None else f"&rev={rev}&peg={rev}"
        return f"{HOST}/filedetails.php?repname=lib&path=/trunk/{name}{at}"

    def judge(self, url: str, text: str, links: list[str], referer: str | None) -> bool:
        """Whether a page taught; its links are known to the frontier from then on."""
        anchors = "".join(f'<a href="{link}">view</a> ' for link in links)
        body = f"<h1>lib - Repository browser</h1><nav>{anchors}</nav><pre>{text}</pre>"
        page = PageFacts(url, url, 200, f"<html><body>{body}</body></html>", tuple(links))
        taught = self.triage.judge(replace(page, referer=referer), self.seen, None).taught
        self.seen |= set(links)
        return taught

    def revision(self, name: str, rev: int, text: str) -> bool:
        """A file at an old revision, linking its diff and log at that revision."""
        url = self.details(name, rev)
        views = [url.replace("filedetails", view) for view in ("diff", "log")]
        return self.judge(url, text, views, f"{HOST}/revision.php?repname=lib&rev={rev}")


def test_a_numbered_family_writing_only_a_passage_on_every_member_stops_teaching() -> None:
    """Every file at every old revision writes a passage seeded by the revision in the
    site's words and links new views of it: the first ``RETOLD`` taught, the next did
    not, nor vouched for their views (blind12 ``websvn``: 156 trap fetches, 112)."""
    crawl = Crawl()
    home = f"{HOST}/listing.php?repname=lib&path=/"
    for i, name in enumerate(FILES):  # the head revision's files, each a page
        crawl.judge(crawl.details(name), _said(200 + i), [], home)
    taught = [crawl.revision(FILES[r % 8], 200 - r, _said(r)) for r in range(RETOLD + 4)]
    # The first brings a word new to its region; then a passage alone.
    assert taught == [True] * (RETOLD + 1) + [False] * 3
    assert not crawl.triage.waste.vouches(crawl.details(FILES[RETOLD + 1], 199 - RETOLD))
    assert crawl.triage.waste.vouches(crawl.details(FILES[RETOLD], 200 - RETOLD))


def test_named_objects_and_numbered_members_with_words_of_their_own_still_teach() -> None:
    """The head revision's files, thin pages writing a passage alone, are each a file
    of a family named, not numbered, by its query (blind12 ``websvn``: two legitimate
    files lost in a trial counting every query family); a numbered member with a word
    new to its region (another revision's log message) teaches, and starts the run
    again."""
    crawl = Crawl()
    home = f"{HOST}/listing.php?repname=lib&path=/"
    assert all(crawl.judge(crawl.details(f), _said(40 + i), [], home) for i, f in enumerate(FILES))
    for r in range(RETOLD):
        assert crawl.revision(FILES[r], 300 - r, _said(60 + r))
    assert crawl.revision("README", 290, _said(70) + " Floodplain.")
    assert all(crawl.revision(FILES[r], 280 - r, _said(80 + r)) for r in range(RETOLD))
    assert not crawl.revision("TODO", 270, _said(90))


def test_a_family_of_numbered_objects_writing_a_passage_on_every_member_still_teaches() -> None:
    """A forum's topics, numbered alone (phpBB's ``viewtopic.php?f=1&t=101``), and a
    CMS's articles, numbered under a named view no page was fetched at (Joomla's
    ``index.php?option=com_content&view=article&id=5``), each a record in the site's
    words: every one teaches, however many come in a row (blind2 ``phpbb``: 26
    legitimate topics lost in a trial counting every family with a number; blind4
    ``joomla``: 23 articles lost in a trial counting every family with a name and a
    number)."""
    crawl = Crawl()
    for start, script, query in ((100, "viewtopic", "f=1&t="), (300, "index", "view=article&id=")):
        records = [f"{HOST}/{script}.php?{query}{n}" for n in range(start, start + 2 * RETOLD)]
        crawl.judge(f"{HOST}/{script}.php", HOME, records, None)
        crawl.judge(records[0], HOME, [], None)  # the site's words again
        assert all(crawl.judge(r, _said(n), [], None) for n, r in enumerate(records[1:], start))
