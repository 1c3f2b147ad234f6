"""The trap sites served by a real Apache httpd (:mod:`robotkit.traps.real`).

Run with ``python -m pytest traps/apache`` (Apache installed; ``.ci/run`` does it).
Three kinds of checks, all from Apache's own access log:

- the sites are what they claim: every legitimate URL is a 200 from Apache, and
  the traps are real (a loop or path-info URL answers the real page's bytes);
- they are deterministic: the naive crawler makes the same requests on two fresh
  copies, so a count in a report means the same thing run to run;
- robotkit's crawler, as a user runs it (``robotkit crawl SEED --output FILE``,
  with ``--delay 0`` for speed), meets the issue's "Done when": every legitimate
  page, no robots.txt violation, at most 20 trap fetches, at most one column-sort
  variant per directory listing, an end by itself within 60 s, and no real page
  recorded as ``duplicate-content`` (of a copy found first).
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from robotkit import traps
from robotkit.traps.base import PageKind, target_of
from robotkit.traps.naive import naive_crawl
from robotkit.traps.real import REAL_SITES
from robotkit.traps.real.site import ApacheSite
from robotkit.traps.score import Command, GauntletRun, run_site
from robotkit.traps.server import RunningSite

SITES = list(REAL_SITES)
MAX_SORT_VARIANTS = 1
"""Column-sort variants (``?C=M;O=A``) a crawl may fetch of one directory listing."""
NAIVE_BUDGET = 300


@pytest.fixture
def served(request: pytest.FixtureRequest) -> Iterator[RunningSite]:
    running = traps.start(traps.get(request.param))
    try:
        yield running
    finally:
        running.stop()


def apache_site(running: RunningSite) -> ApacheSite:
    assert isinstance(running.site, ApacheSite)
    return running.site


@pytest.mark.parametrize("served", SITES, indirect=True)
def test_every_legitimate_url_is_a_200_from_apache(served: RunningSite) -> None:
    site = apache_site(served)
    assert len(site.legitimate_pages) >= 30
    with httpx.Client() as client:
        answers = {url: client.get(url).status_code for url in served.legitimate_urls()}
    assert set(answers.values()) == {200}, answers
    served.settle()
    # The server saw exactly those requests, and they score as a complete crawl.
    assert sorted(served.url(r.target) for r in served.requests_seen) == sorted(answers)
    score = served.score()
    assert score.complete and score.trap_fetched == 0 and not score.robots_violations


COPIES = {
    # a loop URL or a path-info tail, and the real URL whose bytes it answers
    "apache-symlinks": [
        ("/docs/api/self/self/overview.html", "/docs/api/overview.html"),
        ("/docs/manual/parent/docs/faq/limits.html", "/docs/faq/limits.html"),
        ("/docs/howto/site-root/notes/roadmap.html", "/notes/roadmap.html"),
    ],
    "apache-pathinfo": [
        ("/library/index.html/", "/library/index.html"),
        ("/library/index.html/guide/guide/install.html", "/library/index.html"),
    ],
    "apache-downloads": [
        ("/download/current/widget-2.1.tar.gz", "/download/releases/2.1/widget-2.1.tar.gz"),
    ],
}


@pytest.mark.parametrize("served", SITES, indirect=True)
def test_the_traps_are_real_copies(served: RunningSite) -> None:
    site = apache_site(served)
    with httpx.Client() as client:
        for trap, real in COPIES[site.name]:
            copy, original = client.get(served.url(trap)), client.get(served.url(real))
            assert (copy.status_code, copy.content) == (200, original.content), trap
            assert site.classify(trap).kind is PageKind.TRAP
            assert site.classify(real).kind is PageKind.LEGITIMATE
        if site.name == "apache-symlinks":
            # Linux stops after 40 links in one path (ELOOP): Apache answers 403.
            deep = "/docs/api/" + "self/" * 41 + "overview.html"
            assert client.get(served.url(deep)).status_code == 403
            assert site.classify(deep).kind is PageKind.TRAP
        # A listing's column headers link its sort variants, the other trap here.
        listed = {"apache-symlinks": "/docs/", "apache-downloads": "/download/releases/"}
        if site.name in listed:
            listing = client.get(served.url(listed[site.name])).text
            assert '<a href="?C=M;O=A">' in listing and "Index of" in listing
            assert site.listing_of(listed[site.name] + "?C=M;O=A") == listed[site.name]


def naive_targets(name: str) -> tuple[list[str], tuple[int, int]]:
    running = traps.start(traps.get(name))
    try:
        asyncio.run(naive_crawl(running.seed_urls, NAIVE_BUDGET))
        running.settle()
        score = running.score()
        return [r.target for r in running.requests_seen], (score.legit_found, score.trap_fetched)
    finally:
        running.stop()


@pytest.mark.parametrize("name", SITES)
def test_the_naive_crawler_makes_the_same_requests_on_two_copies(name: str) -> None:
    first, second = naive_targets(name), naive_targets(name)
    assert first == second
    _, (legit, trapped) = first
    assert legit == len(traps.get(name).legitimate_keys)  # it finds everything ...
    assert trapped > 20  # ... and falls into the trap


def robotkit_crawl(name: str, workdir: Path) -> GauntletRun:
    command = Command((sys.executable, "-m", "robotkit", "crawl", "{seeds}", "--delay", "0"))
    command = Command((*command.words, "--output", "{output}"))
    return run_site(name, command, workdir, time_limit=60.0)


def sort_variants(run: GauntletRun) -> Counter[str]:
    """Column-sort variants fetched, by the real listing they sort."""
    site = run.site
    assert isinstance(site, ApacheSite)
    listings = (site.listing_of(r.target) for r in run.running.requests_seen)
    return Counter(listing for listing in listings if listing is not None)


def real_pages_called_copies(run: GauntletRun) -> list[str]:
    """Real pages the crawl recorded as ``duplicate-content`` although no other URL
    of the same real page came before (so: a copy of a trap URL fetched first).
    ``/docs/index.html`` after ``/docs/`` is the same page twice, rightly a copy."""
    found = []
    had: set[str] = set()
    for line in run.output.read_text().splitlines():
        record = json.loads(line)
        page = run.running.classify(record["url"])
        if page is None or page.kind is not PageKind.LEGITIMATE or record["event"] != "fetched":
            continue
        if record.get("reason") == "duplicate-content" and page.key not in had:
            found.append(target_of(record["url"]))
        had.add(page.key)
    return found


@pytest.mark.parametrize("name", SITES)
def test_robotkit_crawl_passes_the_apache_site(name: str, tmp_path: Path) -> None:
    run = robotkit_crawl(name, tmp_path)
    failures = run.failures()
    over = {listing: n for listing, n in sort_variants(run).items() if n > MAX_SORT_VARIANTS}
    if over:
        failures.append(f"more than {MAX_SORT_VARIANTS} column-sort variant of a listing: {over}")
    copies = real_pages_called_copies(run)
    if copies:
        failures.append(f"{len(copies)} real pages recorded as duplicate-content: {copies[:5]}")
    if failures:
        lines = "\n".join(f"  - {failure}" for failure in failures)
        pytest.fail(f"{name} ({run.site.summary}):\n{lines}", pytrace=False)
