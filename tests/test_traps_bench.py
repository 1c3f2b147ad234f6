"""``robotkit traps bench`` and the measuring behind it: real crawls of real sites on
loopback, scored from the server's log; small page budgets keep them quick."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import pytest

from robotkit import traps
from robotkit.cli import main
from robotkit.traps.base import Score
from robotkit.traps.bench import CrawlResult, SiteResult, measure, totals

SITE_FIELDS = {"record", "site", "summary", "robotkit", "naive"}
RUN_FIELDS = {"legit_found", "legit_total", "trap_fetched", "repeats", "ended", "seconds", "passed"}
TOTAL_FIELDS = {"sites", "legit_found", "legit_total", "legit_percent", "trap_fetched"}
TOTAL_FIELDS |= {"trap_median", "passed", "ended_in_time"}


def test_bench_generated_json_as_a_subprocess() -> None:
    command = [sys.executable, "-m", "robotkit", "traps", "bench", "--generated", "2"]
    command += ["--seed", "0", "--json", "--max-pages", "40"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode in (0, 1), done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    sites, summary = records[:-1], records[-1]
    assert [r["site"] for r in sites] == ["generated-0", "generated-1"]
    for record in sites:
        assert set(record) >= SITE_FIELDS and record["record"] == "site"
        for crawler in ("robotkit", "naive"):
            run = record[crawler]
            assert set(run) >= RUN_FIELDS
            assert run["ended"] in ("done", "budget", "cut", "error")
            # 30 to 60 pages, and 41 to 151 more with a related-items section.
            assert (
                30 <= run["legit_total"] <= 60 + 151
                and 0 <= run["legit_found"] <= run["legit_total"]
            )
        assert record["naive"]["ended"] == "budget"  # both sites are endless to it
    assert summary["record"] == "summary" and summary["sites"] == 2
    assert set(summary["robotkit"]) >= TOTAL_FIELDS and set(summary["naive"]) >= TOTAL_FIELDS
    passed_all = all(r["robotkit"]["passed"] for r in sites)
    assert done.returncode == (0 if passed_all else 1)


def test_bench_table_for_a_site_robotkit_passes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["traps", "bench", "--sites", "redirect-loop", "--no-naive"]) == 0
    out = capsys.readouterr().out
    assert "redirect-loop" in out and "done" in out and "passed 1/1" in out
    assert "naive" not in out


@pytest.mark.parametrize(
    "argv",
    [
        ["--sites", "no-such-site"],
        ["--sites", "generated-x"],
        ["--jobs", "0"],
        ["--generated", "-1"],
        ["--max-pages", "0"],
    ],
)
def test_bench_bad_usage_exits_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    try:
        code = main(["traps", "bench", *argv])
    except SystemExit as refused:  # a negative count is refused by the parser itself
        code = refused.code  # type: ignore[assignment]
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("robotkit: error:") and len(err.splitlines()) == 1


def test_a_crawl_held_past_the_cut_is_reported_as_cut() -> None:
    """The tarpit's drip holds the naive crawler (its per-read timeout restarts with
    every byte); the bench stops waiting and scores what the server saw."""
    site = traps.get("tarpit", drip_interval=0.2)
    result = asyncio.run(measure(site, "naive", 100, cut=1.0))
    assert result.ended == "cut" and not result.passed
    assert result.score.legit_found >= 1


def run(found: int, trap: int, ended: str = "done") -> CrawlResult:
    score = Score(legit_found=found, legit_total=10, trap_fetched=trap)
    return CrawlResult("robotkit", score, ended, 1.0)  # type: ignore[arg-type]


def test_passed_needs_every_page_few_trap_fetches_and_an_end_of_its_own() -> None:
    assert run(10, 20).passed
    assert not run(9, 0).passed
    assert not run(10, 21).passed
    assert not run(10, 0, "budget").passed
    assert not run(10, 0, "cut").passed


def test_totals_sum_and_take_the_median() -> None:
    results = [
        SiteResult(f"s{i}", "", {"robotkit": r})
        for i, r in enumerate([run(10, 0), run(8, 30, "cut"), run(10, 5, "budget")])
    ]
    t = totals(results, "robotkit")
    assert t is not None and totals(results, "naive") is None
    assert (t.sites, t.legit_found, t.legit_total, t.trap_fetched) == (3, 28, 30, 35)
    assert (t.trap_median, t.passed, t.ended_in_time) == (5.0, 1, 2)
