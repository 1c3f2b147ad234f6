"""The gauntlet's machinery (``robotkit.traps.score``, ``robotkit.traps.report``,
``robotkit traps score``): real crawler commands on real sites on loopback, judged
from the server's log; small page budgets and few sites keep them quick. The
gauntlet itself, one test per site, is traps/test_gauntlet.py."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from selectolax.lexbor import LexborHTMLParser

from robotkit.cli import main
from robotkit.traps.report import AVOIDED, FETCHED, MISSED, TRAP_FETCHED, region
from robotkit.traps.score import Command, CommandError, run_site

ROOT = Path(__file__).resolve().parent.parent
NAIVE = (
    f"{sys.executable} {ROOT / 'traps' / 'naive_crawler.py'} {{seeds}} --max-pages {{max_pages}}"
)
SVG = "{http://www.w3.org/2000/svg}"


def test_a_template_becomes_one_argument_per_seed_and_fills_the_others(tmp_path: Path) -> None:
    command = Command.parse([f"{sys.executable} -c pass {{seeds}} --n={{max_pages}} {{output}}"])
    argv = command.argv(["http://a/", "http://b/"], tmp_path / "o.jsonl", 7)
    assert argv == [
        sys.executable,
        "-c",
        "pass",
        "http://a/",
        "http://b/",
        "--n=7",
        str(tmp_path / "o.jsonl"),
    ]
    # Inside a longer word the seeds are joined by spaces (for ``sh -c '...'``).
    inner = Command.parse(["sh", "-c", "echo {seeds}"]).argv(["u1", "u2"], tmp_path, 1)
    assert inner == ["sh", "-c", "echo u1 u2"]


@pytest.mark.parametrize(
    ("words", "message"),
    [
        ([], "no crawler command"),
        ([f"{sys.executable} --max {{max_pages}}"], "must contain {seeds}"),
        ([f"{sys.executable} {{seeds}} {{limit}}"], "unknown placeholder {limit}"),
        ([f"{sys.executable} {{seeds"], "bad placeholder"),
        (["'unclosed {seeds}"], "cannot split"),
        (["/no/such/crawler {seeds}"], "no such program"),
    ],
)
def test_a_template_that_cannot_run_is_refused(words: list[str], message: str) -> None:
    with pytest.raises(CommandError, match=re.escape(message)):
        Command.parse(words)


def test_a_crawler_past_its_time_limit_is_killed_and_told_so(tmp_path: Path) -> None:
    sleeper = Command.parse([sys.executable, "-c", "import time; time.sleep(60)", "{seeds}"])
    run = run_site("robots-404", sleeper, tmp_path, time_limit=0.5)
    assert run.result.ended == "cut" and run.result.exit_code is None
    assert run.result.failures()[-1] == "timed out: still running after 0.5 s, killed"
    assert run.result.failures()[0].startswith("missed 8 of 8 legitimate pages: /, /about.html")


def test_robots_violations_are_counted_from_the_server_log(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["traps", "score", "--sites", "robots-rules", "robots-404", "--json", "--", NAIVE])
    assert code == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    rules, not_found, summary = lines
    assert rules["site"] == "robots-rules" and rules["passed"] is False
    assert rules["robots_violations"] == 3 and rules["trap_fetched"] == 3
    assert rules["failures"] == [
        "broke robots.txt: 3 fetches its answer forbids by the status table: "
        "/private/account.html, /private/admin.html, /files/report.pdf"
    ]
    # robots.txt 404 allows everything: the naive crawler passes that one.
    assert not_found["passed"] is True and not_found["robots_violations"] == 0
    assert (not_found["ended"], not_found["exit_code"]) == ("done", 0)
    assert summary["record"] == "summary" and (summary["sites"], summary["passed"]) == (2, 1)


def test_the_html_report_has_a_well_formed_picture_per_site(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "report.html"
    argv = ["traps", "score", "--sites", "calendar", "robots-rules", "--max-pages", "40"]
    assert main([*argv, "--html", str(report), "--", NAIVE]) == 1
    out = capsys.readouterr().out
    assert "calendar" in out and "spent its page budget (40)" in out
    text = report.read_text(encoding="utf-8")
    assert text.startswith("<!doctype html>")
    assert "<script" not in text and "http://" not in text.replace("http://www.w3.org", "")
    document = LexborHTMLParser(text)
    sections = document.css("section")
    assert [s.attributes["id"] for s in sections] == ["site-calendar", "site-robots-rules"]
    assert all(len(s.css("svg")) == 1 for s in sections)
    assert len(document.css("tbody tr")) == 2
    pictures = re.findall(r"<svg\b.*?</svg>", text, flags=re.S)
    assert len(pictures) == 2
    colours = []
    for picture in pictures:
        root = ET.fromstring(picture)  # well-formed XML, or this raises
        assert root.tag == f"{SVG}svg"
        colours.append({c.get("fill") for c in root.iter(f"{SVG}circle")})
    calendar, rules = colours
    # The naive crawler fetched all 13 pages and went deep into both calendars;
    # on robots-rules it fetched the three pages robots.txt forbids.
    assert calendar == {FETCHED, TRAP_FETCHED}
    assert FETCHED in rules and TRAP_FETCHED in rules and MISSED not in rules
    assert "/cal/: " in pictures[0] and "/events?: " in pictures[0]
    assert AVOIDED not in pictures[0]


def test_regions_gather_trap_urls_by_directory_query_space_and_host() -> None:
    assert region(0, "/cal/2024/05/") == "/cal/"
    assert region(0, "/events?month=2024-05") == "/events?"
    assert region(0, "/slow") == "/slow"
    assert region(3, "/p/123") == "@3/p/"


GAUNTLET = (sys.executable, "-m", "pytest", str(ROOT / "traps"), "-q", "-p", "no:cacheprovider")
GAUNTLET += ("-n", "0")  # in this process: the outer suite has its own workers


def test_the_naive_crawler_fails_the_gauntlet_site_by_site_with_reasons(tmp_path: Path) -> None:
    command = list(GAUNTLET)
    command += ["--crawler", NAIVE, "--max-pages", "60", "-k", "redirect-chain or robots-403"]
    command += ["--basetemp", str(tmp_path / "pytest")]
    done = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=240)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "2 failed" in done.stdout
    assert (
        "redirect-chain (" in done.stdout
        and "21 trap fetches, 1 over the bound of 20" in done.stdout
    )
    assert "robots-403 (" in done.stdout and "broke robots.txt: 8 fetches" in done.stdout
    assert "Traceback" not in done.stdout


def test_a_bad_crawler_template_stops_the_gauntlet_before_any_site(tmp_path: Path) -> None:
    command = list(GAUNTLET)
    command += ["--crawler", f"{sys.executable} {{seed}}"]
    done = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == pytest.ExitCode.USAGE_ERROR
    assert "--crawler: unknown placeholder {seed}" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_crawler_that_cannot_start_says_why(tmp_path: Path) -> None:
    broken = Command.parse([sys.executable, "-c", "import no_such_module_here", "{seeds}"])
    run = run_site("robots-404", broken, tmp_path)
    assert run.result.exit_code == 1 and not run.result.passed
    assert run.failures()[-1] == (
        "the crawler exited with status 1: "
        "ModuleNotFoundError: No module named 'no_such_module_here'"
    )


def test_slow_paths_passes_with_the_defaults_a_user_gets(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The defect report's command, robotkit as a user runs it (no ``--timeout``):
    slow-paths' reports answer after 2 s, inside the default 10 s deadline, and
    teach nothing after the first few; their family is broken off (``slow-path``)
    long before the gauntlet's bound of 20 trap fetches."""
    crawler = [sys.executable, "-m", "robotkit", "crawl", "{seeds}", "--max-pages", "{max_pages}"]
    crawler += ["--delay", "0", "--output", "{output}"]
    code = main(["traps", "score", "--sites", "slow-paths", "--json", "--", *crawler])
    site = json.loads(capsys.readouterr().out.splitlines()[0])
    assert site["legit_found"] == site["legit_total"] == 30
    assert site["trap_fetched"] <= 20 and site["passed"], site
    assert code == 0
