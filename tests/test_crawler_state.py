"""The crawl state directory: durable from the first fetch (SIGKILL of a real
process), locked against a second crawl, bound to its seeds, and a resume that
keeps what the crawl learned (issue 9 rows 3, 4, 7, 8; issue 8's resume)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from robotkit.base.reasons import Reason
from robotkit.base.snapshot import SnapshotError
from robotkit.cli import main
from robotkit.content import (
    ContentIndex,
    Soft404Detector,
)
from robotkit.crawler.loop import CrawlConfig, Crawler, CrawlEvent, crawl
from robotkit.frontier.frontier import CheckpointError, Frontier
from robotkit.traps.base import html_page, not_found, prose
from robotkit.traps.server import RunningSite
from robotkit.triage.guard import BlacklistKind, Guard, GuardConfig

PAGES = 24


class KillSite:
    """``/`` links to ``/p0`` ... ``/p{PAGES-1}``, each with text of its own. It
    records every page request and SIGKILLs the crawler process :attr:`proc` while
    it is waiting for the answer to the page requests numbered in :attr:`kill_at`
    (counted over all runs): a kill at a moment that is known, not timed. Soft-404
    probes are kept apart in :attr:`probes`, answered 404 unless :attr:`soft` (then
    200, with an error page as a catch-all site serves it)."""

    def __init__(self, server: HTTPServer) -> None:
        self.server = server
        self.requests: list[str] = []
        self.probes: list[str] = []
        self.soft = False
        self.kill_at: set[int] = set()
        self.proc: subprocess.Popen[str] | None = None
        self.hold: threading.Event | None = None
        self.held = threading.Event()
        server.expect_request(re.compile("^/.*")).respond_with_handler(self.handle)

    @property
    def url(self) -> str:
        return self.server.url_for("/")

    def handle(self, request: Request) -> Response:
        path = request.path
        if "robotkit-probe-" in path:
            self.probes.append(path)
            if self.soft:
                return html_page("Oops", ["We could not find that page, sorry."], [("/", "Home")])
            return not_found()
        if path == "/robots.txt":
            return not_found()
        self.requests.append(path)
        if self.hold is not None:
            self.held.set()
            self.hold.wait(30)
        if len(self.requests) in self.kill_at and self.proc is not None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        text = [prose(self.url + path)]  # each host's pages differ from the other's
        if path == "/":
            return html_page("Home", text, [(f"/p{i}", f"page {i}") for i in range(PAGES)])
        return html_page(f"Page {path}", text, [("/", "Home")])

    def crawl(self, state: Path, *extra: str) -> subprocess.CompletedProcess[str]:
        """``robotkit crawl`` in a process of its own (killed by :meth:`handle` if
        one of its requests is in :attr:`kill_at`)."""
        command = [sys.executable, "-m", "robotkit", "crawl", self.url, "--delay", "0"]
        self.proc = subprocess.Popen(
            [*command, "--state", str(state), *extra],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            stdout, stderr = self.proc.communicate(timeout=60)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
        return subprocess.CompletedProcess(self.proc.args, self.proc.returncode, stdout, stderr)


@pytest.fixture
def site(make_server: Callable[[str], HTTPServer]) -> KillSite:
    return KillSite(make_server("127.0.0.1"))


def killed(site: KillSite, state: Path, *kill_at: int, extra: tuple[str, ...] = ()) -> None:
    """Run the crawl once per kill, each one SIGKILLed at its request."""
    for n in kill_at:
        site.kill_at = {n}
        result = site.crawl(state, *extra)
        assert result.returncode == -signal.SIGKILL, result.stderr
        assert len(site.requests) == n


# -- issue 9 row 3: durable from the first fetch ------------------------------------


def resume(site: KillSite, state: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    """Run the crawl to its end in this process (faster than a new one); its stderr."""
    capsys.readouterr()
    assert main(["crawl", site.url, "--delay", "0", "--state", str(state), *extra]) == 0
    err = capsys.readouterr().err
    assert "Traceback" not in err and "robotkit: error" not in err, err
    return err


@pytest.mark.parametrize("lose_state_file", [False, True], ids=["killed", "crawl.json-deleted"])
def test_a_crawl_killed_before_its_first_checkpoint_resumes_where_it_was(
    site: KillSite, tmp_path: Path, capsys: pytest.CaptureFixture[str], lose_state_file: bool
) -> None:
    """It used to restart from zero and overwrite the saved frontier (``/`` fetched
    once per kill): the journal holds the progress from the first fetch."""
    state = tmp_path / "state"
    killed(site, state, 8)  # long before the 50-page checkpoint
    if lose_state_file:
        (state / "crawl.json").unlink()
    said = "crawl.json is missing" if lose_state_file else "resuming crawl in"
    assert said in resume(site, state, capsys)
    counts = Counter(site.requests)
    assert counts["/"] == 1
    assert set(counts) == {"/", *(f"/p{i}" for i in range(PAGES))}
    assert sum(counts.values()) <= PAGES + 1 + 1  # the one page in flight at the kill


@pytest.mark.parametrize("soft", [False, True], ids=["404-answer", "soft-404-answer"])
def test_row5_a_killed_crawl_does_not_probe_a_learned_directory_again(
    site: KillSite, tmp_path: Path, capsys: pytest.CaptureFixture[str], soft: bool
) -> None:
    """Three SIGKILLs before the first checkpoint, then a run to the end: the
    directory's soft-404 answer is journaled when learned, so it is probed once in
    all (each restart used to probe it again, the answer being saved only at a
    checkpoint). The soft answer still classifies after the kills: no page of the
    site is taken for a soft 404."""
    site.soft = soft
    state = tmp_path / "state"
    killed(site, state, 4, 8, 12)  # long before the 50-page checkpoint
    assert len(site.probes) == 1
    resume(site, state, capsys, "--output", str(tmp_path / "out.jsonl"))
    assert len(site.probes) == 1, site.probes
    counts = Counter(site.requests)
    assert set(counts) == {"/", *(f"/p{i}" for i in range(PAGES))}
    records = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert records and all(r["reason"] != Reason.SOFT_404.value for r in records)


def test_row5_a_damaged_learned_journal_is_one_line_and_exit_2(
    site: KillSite, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The learned journal is checked as the frontier's is: a changed record is
    reported, never replayed."""
    state = tmp_path / "state"
    killed(site, state, 4)
    journal = state / "crawl.json.journal"
    head, record, tail = journal.read_bytes().split(b"\n")
    assert record and tail == b""  # the one answer learned
    journal.write_bytes(b"\n".join([head, record.replace(b"404", b"405", 1), tail]))
    capsys.readouterr()
    assert main(["crawl", site.url, "--delay", "0", "--state", str(state)]) == 2
    assert "crawl.json.journal: record 1 is corrupt" in one_error_line(capsys)


# -- issue 9 row 4: --max-pages holds across kills ------------------------------------


def test_after_n_kills_the_budget_is_passed_by_at_most_n(
    site: KillSite, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Budget 12, three kills: the counters used to live only in checkpoints, so
    every kill gave the crawl its whole budget again."""
    state, budget = tmp_path / "state", "12"
    killed(site, state, 3, 6, 10, extra=("--max-pages", budget))
    resume(site, state, capsys, "--max-pages", budget)
    refetched = len(site.requests) - len(set(site.requests))
    assert refetched <= 3
    assert 12 <= len(site.requests) <= 12 + 3
    again = resume(site, state, capsys, "--max-pages", budget)
    assert "spent its page budget (12 of 12 pages)" in again
    assert len(site.requests) <= 12 + 3


# -- issue 9 row 8: damaged state is one line and exit 2 ------------------------------


def one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.startswith("robotkit: error:")]
    assert len(lines) == 1 and "internal error" not in err and "Traceback" not in err, err
    return lines[0]


def change_a_middle_record(journal: Path) -> None:
    lines = journal.read_bytes().split(b"\n")
    # A one-digit change in a URL, in a record that is not the last: valid JSON still.
    for i, line in enumerate(lines[1:-2], start=1):
        if re.search(rb"/p1\d", line):
            lines[i] = re.sub(rb"/p1(\d)", rb"/p9\1", line, count=1)
            break
    else:
        raise AssertionError("no record to change")
    journal.write_bytes(b"\n".join(lines))


def test_a_damaged_journal_is_reported_and_a_torn_tail_is_not(
    site: KillSite, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One killed crawl, three copies of its state, each damaged in its own way."""
    killed(site, tmp_path / "killed", 6)
    states = {}
    for damage in ("digit", "deleted", "torn"):
        states[damage] = shutil.copytree(tmp_path / "killed", tmp_path / damage)
    change_a_middle_record(states["digit"] / "frontier.journal")
    (states["deleted"] / "frontier.journal").unlink()
    with (states["torn"] / "frontier.journal").open("ab") as out:
        out.write(b'1234abcd ["d","http","127.0.0.1",')  # a kill mid-record
    capsys.readouterr()
    for damage, expected in (("digit", "record"), ("deleted", "missing")):
        assert main(["crawl", site.url, "--delay", "0", "--state", str(states[damage])]) == 2
        line = one_error_line(capsys)
        assert expected in line and ("corrupt" in line or damage == "deleted"), line
    assert len(site.requests) == 6  # refused before any request
    resume(site, states["torn"], capsys)
    assert len(site.requests) - len(set(site.requests)) <= 1
    assert len(set(site.requests)) == PAGES + 1


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("{}", "is not a robotkit crawl state"),
        ('{"version": 2}', "'seeds' must be a list of URLs"),
        (
            '{"version": 2, "seeds": ["http://127.0.0.1:9/"], "saves": "3", "learned": {}}',
            "'saves'",
        ),
        ('{"version": 2, "seeds": [], "saves": 0, "learned": []}', "'learned' must be an object"),
        ('{"version": 1, "scope": [], "fetched": 3, "failed": 0}', "format version 1"),
        ("[1, 2", "is not valid JSON"),
    ],
)
def test_a_state_file_of_the_wrong_shape_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, expected: str
) -> None:
    state = tmp_path / "state"
    state.mkdir()
    (state / "crawl.json").write_text(content)
    assert main(["crawl", "http://127.0.0.1:9/", "--delay", "0", "--state", str(state)]) == 2
    assert expected in one_error_line(capsys)


def test_a_bad_learned_state_is_one_line_and_exit_2(
    site: KillSite, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state"
    assert main(["crawl", site.url, "--delay", "0", "--max-pages", "3", "--state", str(state)]) == 0
    saved = json.loads((state / "crawl.json").read_text())
    saved["learned"]["triage"]["content"]["exact"] = [["not a hash", "http://x/"]]
    (state / "crawl.json").write_text(json.dumps(saved))
    capsys.readouterr()
    assert main(["crawl", site.url, "--delay", "0", "--state", str(state)]) == 2
    assert "content index snapshot" in one_error_line(capsys)


# -- issue 9 row 7: the lock, with two real processes ------------------------------


def test_a_second_crawl_on_a_state_in_use_is_refused_without_touching_it(
    site: KillSite, tmp_path: Path
) -> None:
    state = tmp_path / "state"
    site.hold = threading.Event()
    # The first crawl's page is held while the second one starts, which can take
    # many seconds on a loaded machine: a deadline longer than the test's own.
    first = threading.Thread(target=lambda: results.append(site.crawl(state, "--timeout", "90")))
    results: list[subprocess.CompletedProcess[str]] = []
    first.start()
    try:
        assert site.held.wait(30), "the first crawl never asked for a page"
        owner = site.proc
        assert owner is not None
        before = {p.name: p.read_bytes() for p in state.iterdir()}
        command = [sys.executable, "-m", "robotkit", "crawl", site.url, "--state", str(state)]
        second = subprocess.run(command, capture_output=True, text=True, timeout=60)
        after = {p.name: p.read_bytes() for p in state.iterdir()}
    finally:
        site.hold.set()
        first.join(60)
    assert second.returncode == 2
    assert second.stderr.strip().splitlines() == [
        f"robotkit: error: {state} is in use by another crawl (pid {owner.pid})"
    ]
    assert after == before
    assert results[0].returncode == 0, results[0].stderr
    assert Counter(site.requests)["/"] == 1  # the second crawl fetched nothing


# -- seeds ------------------------------------------------------------------------


def test_a_resume_with_other_seeds_is_refused_unless_asked_for(
    make_server: Callable[[str], HTTPServer], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    one, two = KillSite(make_server("127.0.0.1")), KillSite(make_server("127.0.0.2"))
    state = tmp_path / "state"
    argv = ["--delay", "0", "--state", str(state)]
    assert main(["crawl", one.url, "--max-pages", "2", *argv]) == 0
    capsys.readouterr()
    assert main(["crawl", two.url, *argv]) == 2
    line = one_error_line(capsys)
    assert f"new: {two.url}" in line and f"not given: {one.url}" in line
    assert "--add-seeds" in line and not two.requests
    assert main(["crawl", two.url, *argv, "--add-seeds"]) == 0
    assert "resuming crawl in" in capsys.readouterr().err
    assert len(one.requests) == PAGES + 1 and len(two.requests) == PAGES + 1
    assert main(["crawl", two.url, one.url, *argv]) == 0  # both are recorded now
    assert "has nothing left to fetch" in capsys.readouterr().err
    assert len(one.requests) == len(two.requests) == PAGES + 1


def test_add_seeds_is_in_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["crawl", "--help"])
    assert "--add-seeds" in capsys.readouterr().out


# -- issue 8: a resume keeps what was learned ------------------------------------------


def trap_cost(site: RunningSite) -> tuple[int, int]:
    """Trap fetches as scored from the server's log, and page requests
    (robots.txt left out: a new process asks for it again)."""
    pages = [r for r in site.requests_seen if r.target != "/robots.txt"]
    return site.score().trap_fetched, len(pages)


@pytest.mark.parametrize(("name", "stop_after"), [("facets", 3), ("calendar", 8)])
def test_an_interrupted_crawl_pays_no_more_for_traps_than_an_uninterrupted_one(
    trap_site: Callable[..., RunningSite], tmp_path: Path, name: str, stop_after: int
) -> None:
    """One resume used to raise the facets site from 7 trap fetches to 39 (and
    calendar from 3 to 7): fingerprints, probes, windows and the blacklist were
    learned again."""
    config = CrawlConfig(delay=0, allow_private=True, max_pages=300)
    whole = trap_site(name)
    asyncio.run(crawl([whole.start_url], config))

    cut = trap_site(name)
    state = tmp_path / "state"
    fetched = 0

    def stop_after_k(event: CrawlEvent) -> None:
        nonlocal fetched
        fetched += event.event.value == "fetched" and not event.probe
        if fetched == stop_after:
            first.stop()

    first = Crawler([cut.start_url], config, on_event=stop_after_k, state_dir=state)
    assert asyncio.run(first.run()).interrupted
    second = Crawler([cut.start_url], config, state_dir=state)
    summary = asyncio.run(second.run())
    assert summary.resumed and not summary.interrupted
    assert cut.score().complete and whole.score().complete
    assert trap_cost(cut) == trap_cost(whole)


# -- snapshots of the learning components ------------------------------------------------


def json_round_trip(data: dict[str, Any]) -> Any:
    return json.loads(json.dumps(data))


def test_content_index_snapshot_keeps_every_page() -> None:
    index = ContentIndex()
    first = prose("a page", 6)
    assert index.add("http://x/a", first).is_novel
    index.add("http://x/b", prose("another page", 6))
    again = ContentIndex.restore(json_round_trip(index.snapshot()))
    assert len(again) == 2
    match = again.add("http://x/copy", first)
    assert match.reason is Reason.DUPLICATE_CONTENT and match.duplicate_of == "http://x/a"
    assert again.add("http://x/c", prose("a third page", 6)).is_novel


def test_soft404_snapshot_keeps_probe_answers_but_not_pending_probes() -> None:
    detector = Soft404Detector()
    probe = detector.needs_probe("http://x/blog/post")
    assert probe is not None
    error_page = "<title>Oops</title><p>Sorry, this page does not exist. Try the home page.</p>"
    detector.record_probe(probe, 200, error_page, probe)
    assert detector.needs_probe("http://x/shop/item") is not None  # pending, never answered
    again = Soft404Detector.restore(json_round_trip(detector.snapshot()))
    assert again.classify("http://x/blog/gone", 200, error_page) is Reason.SOFT_404
    assert again.needs_probe("http://x/blog/other") is None
    assert again.needs_probe("http://x/shop/item") is not None


def test_guard_snapshot_keeps_the_automatic_blacklist_and_signal_counts() -> None:
    config = GuardConfig(auto_blacklist_after=3)
    guard = Guard(config)
    for n in range(3):
        guard.report_trap_signal(f"http://x/cal/{n}", Reason.DUPLICATE_CONTENT)
    for n in range(2):
        guard.report_trap_signal(f"http://x/shop?c={n}", Reason.SOFT_404)
    again = Guard(config)
    again.restore_learned(json_round_trip(guard.snapshot()))
    assert [e.kind for e in again.blacklist.entries] == [BlacklistKind.AUTO]
    assert again.check("http://x/cal/9").reason is Reason.BLACKLISTED
    assert again.signal_count("http://x/shop?c=0") == 2
    again.report_trap_signal("http://x/shop?c=0", Reason.SOFT_404)  # counted once already
    assert again.check("http://x/shop?c=7").allowed
    assert again.report_trap_signal("http://x/shop?c=2", Reason.SOFT_404) is not None


@pytest.mark.parametrize(
    ("restore", "data", "expected"),
    [
        (ContentIndex.restore, {"kind": "content-index", "version": 9}, "version 9"),
        (ContentIndex.restore, {"kind": "soft404", "version": 1}, "not a content-index"),
        (ContentIndex.restore, {"kind": "content-index", "version": 1}, "missing 'exact'"),
        (
            ContentIndex.restore,
            {"kind": "content-index", "version": 1, "exact": [[1, 2]], "near": []},
            "expected str",
        ),
        (Soft404Detector.restore, {"kind": "soft404", "version": 1, "probes": [{}]}, "missing"),
        (Guard().restore_learned, {"kind": "guard", "version": 1, "auto": "x"}, "expected list"),
        (Guard().restore_learned, [], "not a guard snapshot"),
    ],
)
def test_bad_snapshots_are_a_clear_error(
    restore: Callable[[Any], object], data: Any, expected: str
) -> None:
    with pytest.raises(SnapshotError, match=re.escape(expected)):
        restore(data)


# -- issue 10: a state directory of an older robotkit ----------------------------

# A checkpoint as robotkit wrote it before issue 10 (format version 2, when each
# tier had its own file and a host stored a ready time copied from the pacer).
OLD_CHECKPOINT = (
    b"robotkit-frontier 2\n"
    b'{"generation":1,"journal":null,"replaced":null,"tallies":{},"max_depth'
    b'":3,"host_budget":null,"done":0,"rejected":{},"hosts":1,"entries":1,"s'
    b'een":{"kind":"exact","count":1,"expected_items":1,"error_rate":0.0,"by'
    b'teorder":"little","blobs":[64]}}\n'
    b'["http","a.example",80,0.0,1,0,null,null,[["http://a.example/",null,0,null]],[],null]\n'
    + bytes(48)
    + b":\x87\xae\xf1\xec6\xef\xc3"
    + bytes(8)
    + b"\nsha256 498afac2958657b0d2694548523b571"
    b"27e29d720ade67db738aed1011e3067c7\n"
)


def test_an_old_checkpoint_is_refused_saying_what_to_do(tmp_path: Path) -> None:
    path = tmp_path / "frontier"
    path.write_bytes(OLD_CHECKPOINT)
    with pytest.raises(CheckpointError, match="from an older robotkit") as caught:
        Frontier.restore(path)
    assert "version 2" in str(caught.value) and "new state directory" in str(caught.value)


def test_crawl_on_an_old_state_directory_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state"
    state.mkdir()
    seed = "http://127.0.0.1:9/"
    (state / "frontier").write_bytes(OLD_CHECKPOINT)
    (state / "crawl.json").write_text(
        json.dumps({"version": 2, "seeds": [seed], "saves": 1, "learned": {}})
    )
    capsys.readouterr()
    assert main(["crawl", seed, "--delay", "0", "--state", str(state)]) == 2
    line = one_error_line(capsys)
    assert "from an older robotkit" in line and "new state directory" in line, line
    assert (state / "frontier").read_bytes() == OLD_CHECKPOINT  # left as it was
