"""Another action on a page's own objects is no growth of its query space: a web file
manager's file views each link the file's edit form. The pure core, fed the facts a
crawl would feed it; the site is blind2 ``filemgr``'s shape (traps/README.md)."""

from __future__ import annotations

from robotkit.traps.base import prose
from robotkit.triage.regions import renamed
from robotkit.triage.triage import PageFacts, Triage
from robotkit.url.normalization import normalize

SITE = "http://files.test"
FM = f"{SITE}/fm.php"


def test_a_link_naming_only_the_pages_values_is_another_action_not_growth() -> None:
    """The edit form of a viewed file names nothing the view does not; a next month,
    a facet or another file does."""
    view = normalize(f"{FM}?p=docs&view=notes.txt")
    assert renamed(view, normalize(f"{FM}?p=docs&edit=notes.txt"))
    assert renamed(view, normalize(f"{FM}?p=docs"))
    assert not renamed(view, normalize(f"{FM}?p=docs&view=other.txt"))
    assert not renamed(normalize(f"{SITE}/cal?m=5"), normalize(f"{SITE}/cal?m=6"))
    assert not renamed(normalize(f"{SITE}/shop?c=1"), normalize(f"{SITE}/shop?c=1&f=1"))
    assert not renamed(view, normalize(f"{SITE}/other.php?p=docs&edit=notes.txt"))


def test_file_views_linking_their_edit_forms_do_not_park_the_script() -> None:
    """Twelve file views of one folder, each a few words, each linking its edit form
    (a URL of the script's query space never seen): the query space is not parked, and
    the last file is still fetched."""
    triage = Triage()
    folder = f"{FM}?p=docs"
    files = [f"file{n:02d}.txt" for n in range(12)]
    listing = tuple(f"{FM}?p=docs&view={f}" for f in files)
    words = prose("docs folder listing", 12).split()
    text = f"<html><body><p>{' '.join(words)}</p></body></html>"
    triage.judge(PageFacts(folder, folder, 200, text, listing, None, referer=SITE), set())
    seen = set(listing)
    for n, (name, url) in enumerate(zip(files, listing, strict=True)):
        shown = " ".join(words[n : n + 6])  # words the folder showed, a few a file
        body = f"<html><body><p>{shown}</p></body></html>"
        edit = f"{FM}?p=docs&edit={name}"
        triage.judge(PageFacts(url, url, 200, body, (edit,), None, referer=folder), seen)
    assert not triage.regions.parked
    assert triage.screen(normalize(listing[-1]), 1, folder) is None
