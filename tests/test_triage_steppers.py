"""A stepper's steps (a recipe's servings adjuster: ``-``, ``+`` and a doubling) that
lead to no new page taught nothing, whatever prose they write; a link taking the step's
own address back (a converter's ``return=<the step>``) is an action on it, no new page
it leads to. The pure core, fed the facts a crawl would feed it (blind14 ``recipes``)."""

from __future__ import annotations

from urllib.parse import quote

from robotkit.traps.base import prose
from robotkit.triage.triage import PageFacts, Triage

SITE = "http://recipes.example"
BASE = f"{SITE}/recipe/broth/"


def _page(url: str, text: str, links: list[str], referer: str | None) -> PageFacts:
    anchors = "".join(f'<a href="{link}">link</a>' for link in links)
    body = f"<html><head><title>Broth</title></head><body><p>{text}</p>{anchors}</body></html>"
    return PageFacts(url, url, 200, body, tuple(links), referer=referer)


def _step(triage: Triage, seen: set[str], n: int, referer: str, back: str | None = None) -> bool:
    """Judge the stepper's page ``?servings=n`` (linked by ``referer``), linking the next
    steps and, with ``back``, the converter with that address to return to: whether it
    taught."""
    url = f"{BASE}?servings={n}"
    links = [f"{BASE}?servings={n - 1}", f"{BASE}?servings={n + 1}", f"{BASE}?servings={2 * n}"]
    if back is not None:
        links.append(f"{SITE}/convert/?amount=2&from=cup&to=ml&return={quote(back, safe='')}")
    text = prose(f"servings {n}", 3)  # prose of its own on every step
    verdict = triage.judge(_page(url, text, links, referer), seen)
    seen.update(links)
    return verdict.taught


def test_a_counter_step_linking_only_a_converter_of_itself_led_nowhere() -> None:
    """A recipe's servings stepper (``?servings=5`` linked by ``?servings=4``) links the
    next steps and the unit converter with its own address to return to
    (``/convert/?amount=2&return=<the step>``), a new page of another region on every
    step: it led somewhere, taught, and the stepper ran to the page cap (blind14
    ``recipes``: 1,328 servings fetches). The converter is an action on the step; the
    step led nowhere new and taught nothing, whatever prose it writes."""
    triage, seen = Triage(), set[str]()
    assert _step(triage, seen, 4, BASE, "/recipe/broth/?servings=4")
    assert not _step(triage, seen, 5, f"{BASE}?servings=4", "/recipe/broth/?servings=5")


def test_a_counter_step_linking_another_page_elsewhere_still_teaches() -> None:
    """A converter taking another page's address back is a new page the step leads to:
    the step taught, as a list's next page listing a new item does."""
    triage, seen = Triage(), set[str]()
    assert _step(triage, seen, 4, BASE, "/recipe/broth/?servings=4")
    assert _step(triage, seen, 5, f"{BASE}?servings=4", "/recipe/stew/")


def test_a_stepper_doubling_its_number_and_leading_nowhere_taught_nothing() -> None:
    """A servings adjuster links ``-``, ``+`` and a doubling of its number: the doubled
    steps, no counter's next by one, taught and vouched for the next ones without end
    (blind14 ``recipes``: 544 doubled steps fetched). Doubled or halved, a number is a
    stepper's scale; a number moved otherwise (``servings=7`` on ``servings=4``) is
    none."""
    triage, seen = Triage(), set[str]()
    assert _step(triage, seen, 4, BASE)
    assert not _step(triage, seen, 8, f"{BASE}?servings=4")
    assert not _step(triage, seen, 2, f"{BASE}?servings=4")
    assert _step(triage, seen, 17, f"{BASE}?servings=4")
