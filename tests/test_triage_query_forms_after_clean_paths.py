"""A script's query form read after the clean path its site mounts the object at
(``/tiki-index.php?page=X`` after ``/X``): a copy, but the object again under the
other name its site keeps, so no evidence against the family of the other objects'
query forms. The pure core, fed the facts a crawl would feed it; the crawl is blind10
``tikiwiki``'s (traps/README.md)."""

from __future__ import annotations

from robotkit.traps.base import prose
from robotkit.triage.triage import PageFacts, Triage
from robotkit.url.normalization import normalize
from robotkit.url.waste import waste_family, waste_shape

SITE = "http://wiki.example"
SCRIPT = f"{SITE}/tiki-index.php?page="


def wiki_page(name: str) -> str:
    return f"<html><body><h1>{name}</h1><p>{prose(f'wiki page {name}', 12)}</p></body></html>"


def test_query_forms_read_after_their_clean_paths_leave_their_family_alive() -> None:
    """Three wiki pages read first at their clean paths, then under the script's query
    form, each a copy that taught nothing: the family of the script's query form is
    not barren, and another page's query form, linked only by a page list, is not
    held."""
    triage = Triage()
    for name in ("OrderCanvas", "InIn", "NowOnly"):
        clean = f"{SITE}/{name}"
        text = wiki_page(name)
        triage.judge(PageFacts(clean, clean, 200, text, (), None, referer=SITE), set())
        form = SCRIPT + name
        verdict = triage.judge(PageFacts(form, form, 200, text, (), None, referer=SITE), set())
        assert not verdict.taught
    other = normalize(SCRIPT + "SaffronUnder")
    family, shape = waste_family(other), waste_shape(other)
    assert not triage.waste.barren(family, shape)
    assert not triage.waste.held(family, shape, "page=SaffronUnder")


def test_copies_of_other_pages_under_the_query_form_still_make_it_barren() -> None:
    """The same script's query form copying pages it does not name (a page name that
    is no clean path read before) is evidence as before: three make the family barren."""
    triage = Triage()
    for name in ("OrderCanvas", "InIn", "NowOnly"):
        clean = f"{SITE}/{name}"
        text = wiki_page(name)
        triage.judge(PageFacts(clean, clean, 200, text, (), None, referer=SITE), set())
        form = SCRIPT + name + "Copy"
        triage.judge(PageFacts(form, form, 200, text, (), None, referer=SITE), set())
    other = normalize(SCRIPT + "SaffronUnder")
    assert triage.waste.barren(waste_family(other), waste_shape(other))


def test_views_of_the_query_form_read_after_the_clean_path_are_still_evidence() -> None:
    """A view of the page under the script's query form, another parameter with it
    (MediaWiki's ``/w/index.php?title=T&printable=yes`` after ``/wiki/T``), is one
    view of every page: three such copies make its family barren."""
    triage = Triage()
    script = f"{SITE}/w/index.php?title="
    for name in ("Canvas_Great", "Both_Same", "Than_Group"):
        clean = f"{SITE}/wiki/{name}"
        text = wiki_page(name)
        triage.judge(PageFacts(clean, clean, 200, text, (), None, referer=SITE), set())
        view = f"{script}{name}&printable=yes"
        triage.judge(PageFacts(view, view, 200, text, (), None, referer=clean), set())
    other = normalize(f"{script}Harbour&printable=yes")
    assert triage.waste.barren(waste_family(other), waste_shape(other))
