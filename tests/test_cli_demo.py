"""``robotkit demo``: every trap site served, crawled and scored in one command."""

from __future__ import annotations

import asyncio
import re
from dataclasses import replace

import pytest

from robotkit import traps
from robotkit.base.reasons import Reason
from robotkit.cli import demo, main

SOME = ["calendar", "session-ids", "robots-403", "numbered-pages"]


def test_demo_passes_the_sites_it_runs_and_explains_itself(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The demo's output on a few sites. Every site is crawled and passed by the
    crawl tests (``test_crawl.py``), and ``.ci/run`` runs the whole demo itself."""
    assert main(["demo", *SOME]) == 0
    out, err = capsys.readouterr()
    total = len(SOME)
    assert f"{total}/{total} sites passed" in out
    # It names what it runs, says each site as it ends, and explains its columns.
    covered = f"{total} of the {len(traps.names())} trap sites"
    assert f"serving {covered}" in err and covered in out
    assert len(re.findall(rf"^\[\d+/{total}\] [\w-]+: pass ", err, re.MULTILINE)) == total
    assert "trap pages: requests robotkit spent inside the site's trap" in " ".join(out.split())
    for name in SOME:
        assert name in out
    # A row: site, legitimate found of total, trap pages, the rule, time, verdict.
    row = re.search(
        r"calendar\s*│\s*13/13\s*│\s*(\d+)\s*│\s*duplicate-content\s*│\s*[\d.]+s\s*│\s*pass", out
    )
    assert row and int(row[1]) <= 10, out


def test_a_plain_demo_covers_every_site() -> None:
    assert demo.what_runs(traps.names()) == f"all {len(traps.names())} trap sites"


def test_demo_names_the_rules_that_caught_the_traps() -> None:
    results = asyncio.run(demo.crawl_all(["redirect-loop", "link-farm", "robots-rules"]))
    caught = {result.name: set(result.trap_reasons) for result in results}
    assert Reason.REDIRECT_LOOP in caught["redirect-loop"]
    assert caught["link-farm"] == {Reason.OFF_SCOPE}
    assert caught["robots-rules"] == {Reason.ROBOTS_DISALLOW}
    assert all(result.passed for result in results)


def test_demo_fails_a_site_whose_legitimate_pages_were_missed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(demo, "DEMO_CONFIG", replace(demo.DEMO_CONFIG, max_pages=3))
    assert main(["demo", "calendar"]) == 1
    out, err = capsys.readouterr()
    assert "FAIL" in out and "0/1 sites passed" in out
    assert f"1 of the {len(traps.names())} trap sites (calendar)" in err
    assert "[1/1] calendar: FAIL" in err


def test_demo_rejects_unknown_sites(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "no-such-site"]) == 2
    assert "unknown trap site" in capsys.readouterr().err
