"""``robotkit crawl``: the output contract, resume with --state, Ctrl-C, bad usage."""

from __future__ import annotations

import asyncio
import io
import json
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pytest_httpserver import HTTPServer
from rich.console import Console
from support.terminal import run_on_a_terminal

from robotkit.base.reasons import Reason
from robotkit.cli import build_parser, main
from robotkit.cli.crawl import CrawlDisplay, WaitingHost
from robotkit.crawler.loop import CrawlConfig, Crawler
from robotkit.traps.server import RunningSite

FIELDS = {"url", "event", "status", "reason", "depth", "referer", "time"}
CODES = {reason.value for reason in Reason}


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def recorded(records: list[dict[str, Any]]) -> set[str]:
    """URLs whose request the crawl recorded (fetched or failed pages)."""
    return {r["url"] for r in records if r["event"] != "skipped" and not r.get("probe")}


def page_requests(site: RunningSite) -> Counter[str]:
    return Counter(
        r.target
        for r in site.requests_seen
        if r.target != "/robots.txt" and "robotkit-probe-" not in r.target
    )


def test_output_lines_follow_the_contract(
    trap_site: Callable[..., RunningSite], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = trap_site("redirect-loop")
    out = tmp_path / "crawl.jsonl"
    code = main(["crawl", site.start_url, "--delay", "0.01", "--output", str(out)])
    assert code == 0
    records = lines(out)
    assert records
    for record in records:
        assert record.keys() >= FIELDS
        assert record["event"] in ("fetched", "failed", "skipped")
        assert record["reason"] is None or record["reason"] in CODES
        assert isinstance(record["depth"], int) and isinstance(record["time"], float)
        if record["event"] == "fetched":
            assert isinstance(record["status"], int)
        else:
            assert record["status"] is None and record["reason"] in CODES
    moved = [r for r in records if r["url"] == site.url("/old-home.html")]
    assert [(r["status"], r["final_url"]) for r in moved] == [(200, site.url("/new-home.html"))]
    home = [r for r in records if r["url"] == site.start_url]
    assert home[0]["depth"] == 0 and home[0]["referer"] is None
    news = [r for r in records if r["url"] == site.url("/news.html")]
    assert news[0]["depth"] == 1 and news[0]["referer"] == site.start_url
    # The summary table goes to stdout when the JSON lines go to a file.
    shown = capsys.readouterr().out
    assert "pages fetched" in shown and "redirect-loop" in shown


def test_output_to_stdout_keeps_stdout_pure_json(
    trap_site: Callable[..., RunningSite], capsys: pytest.CaptureFixture[str]
) -> None:
    site = trap_site("link-farm")
    assert main(["crawl", site.start_url, "--delay", "0.01", "--output", "-"]) == 0
    captured = capsys.readouterr()
    records = [json.loads(line) for line in captured.out.splitlines()]
    assert {r["reason"] for r in records if r["event"] == "skipped"} == {"off-scope"}
    assert "pages fetched" in captured.err


def test_identity_options_reach_the_server(
    trap_site: Callable[..., RunningSite], tmp_path: Path
) -> None:
    site = trap_site("robots-rules")
    ua = "CliBot/2.0 (+https://example.org/clibot)"
    argv = ["crawl", site.start_url, "--delay", "0.01", "--user-agent", ua]
    assert main([*argv, "--from", "ops@example.org", "--profile", "rfc9309"]) == 0
    headers = [r.headers for r in site.requests_seen]
    assert headers and all(h["User-Agent"] == ua for h in headers)
    assert all(h["From"] == "ops@example.org" for h in headers)


def test_state_resumes_without_refetching(
    trap_site: Callable[..., RunningSite], tmp_path: Path
) -> None:
    site = trap_site("pagination")
    state = tmp_path / "state"
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    argv = ["crawl", site.start_url, "--delay", "0.01", "--state", str(state)]
    assert main([*argv, "--max-pages", "4", "--output", str(first)]) == 0
    done = recorded(lines(first))
    assert len(done) == 4
    assert (state / "crawl.json").exists()
    assert main([*argv, "--max-pages", "100", "--output", str(second)]) == 0
    again = recorded(lines(second))
    assert again and not done & again
    assert site.score().complete
    assert max(page_requests(site).values()) == 1


def test_ctrl_c_saves_state_and_exits_cleanly(
    trap_site: Callable[..., RunningSite], tmp_path: Path
) -> None:
    site = trap_site("calendar")
    state, out = tmp_path / "state", tmp_path / "out.jsonl"
    command = [sys.executable, "-m", "robotkit", "crawl", site.start_url, "--delay", "0.2"]
    command += ["--state", str(state), "--output", str(out)]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(1200):  # wait for a few decisions (at most 60 s on a loaded machine)
            if out.exists() and len(out.read_text().splitlines()) >= 3:
                break
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr and "Traceback" not in stdout
    assert "interrupted" in stderr and str(state) in stderr
    assert (state / "crawl.json").exists()
    done = recorded(lines(out))
    resumed = tmp_path / "resumed.jsonl"
    argv = ["crawl", site.start_url, "--delay", "0.01", "--state", str(state)]
    assert main([*argv, "--output", str(resumed)]) == 0
    assert not done & recorded(lines(resumed))
    assert site.score().complete


@pytest.mark.parametrize(
    "argv",
    [
        ["crawl", "ftp://example.org/"],
        ["crawl", "http://exa mple.org/"],
        ["crawl", "http://example.org/", "--user-agent", "Mozilla/5.0 (X11)"],
        ["crawl", "http://example.org/", "--from", "not-an-email"],
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("robotkit: error:")


@pytest.mark.parametrize(
    "argv",
    [["crawl"], ["crawl", "http://example.org/", "--max-pages", "-1"], ["crawl", "--delay", "x"]],
)
def test_bad_usage_exits_2(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2


def test_unwritable_output_is_bad_usage(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "missing" / "out.jsonl"
    assert main(["crawl", "http://127.0.0.1:9/", "--output", str(target)]) == 2
    assert "cannot write" in capsys.readouterr().err


@pytest.mark.parametrize(("profile", "pages", "code"), [("classic", 0, 4), ("rfc9309", 8, 0)])
def test_profile_decides_what_a_403_robots_txt_means(
    trap_site: Callable[..., RunningSite], profile: str, pages: int, code: int
) -> None:
    site = trap_site("robots-403", profile=profile)
    argv = ["crawl", site.start_url, "--delay", "0.01", "--profile", profile]
    assert main(argv) == code  # 4: no page fetched
    assert sum(page_requests(site).values()) == pages
    assert site.score().complete and site.score().trap_fetched == 0


def render(renderable: object, width: int = 110) -> str:
    """Render for a colour terminal, as Live would, and strip the escapes."""
    buffer = io.StringIO()
    Console(file=buffer, force_terminal=True, width=width).print(renderable)
    text = buffer.getvalue()
    assert "\x1b[" in text  # styled for a terminal
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def test_live_display_shows_pages_queue_waiting_hosts_and_trap_signals(
    trap_site: Callable[..., RunningSite],
) -> None:
    """Render the display while a real crawl runs, as ``Live`` does four times a
    second: a paced host shows up as waiting, and the soft 404s as trap signals."""
    site = trap_site("soft-404")
    config = CrawlConfig(max_pages=50, delay=0.05, allow_private=True, max_defer=0.0)
    crawler = Crawler([site.start_url], config)
    display = CrawlDisplay(crawler, 50)
    frames: list[str] = []
    waits: list[WaitingHost] = []

    async def crawl_and_watch() -> None:
        task = asyncio.create_task(crawler.run())
        while not task.done():
            waits.extend(display.waiting_hosts())
            frames.append(render(display))
            await asyncio.sleep(0.01)
        await task

    asyncio.run(crawl_and_watch())
    host = site.base_url.removeprefix("http://")
    assert any(w.why == "pacing" and host in w.host and 0 < w.seconds <= 0.05 for w in waits)
    paced = [f for f in frames if "pacing" in f and host in f]
    assert paced, frames[-1]
    assert "hosts waiting" in paced[0] and "queued" in paced[0]
    last = render(display)
    assert f"pages {crawler.pages}/50" in last
    assert re.search(r"soft-404 \d+", last), last
    assert "trap signals" in last


def crawl_on_a_terminal(
    url: str, *extra: str, interrupt_after: bytes | None = None
) -> tuple[int, str, str]:
    """Run ``robotkit crawl`` with stderr on a pseudo-terminal; send SIGINT once
    the terminal has shown ``interrupt_after``. Returns (status, screen, stdout)."""
    command = [sys.executable, "-m", "robotkit", "crawl", url, *extra]
    return run_on_a_terminal(command, interrupt_after=interrupt_after, timeout=30)


def test_live_display_runs_on_a_terminal(trap_site: Callable[..., RunningSite]) -> None:
    """The crawl draws the live panel on the terminal (cursor movements, the
    panel's sections) and prints the summary table on stdout."""
    site = trap_site("robots-rules")
    code, screen, stdout = crawl_on_a_terminal(site.start_url, "--delay", "0.05")
    assert code == 0
    assert "\x1b[" in screen and "robotkit crawl" in screen
    assert "hosts waiting" in screen and "trap signals" in screen
    assert "Traceback" not in screen
    assert "pages fetched" in stdout


def test_ctrl_c_under_the_live_display_saves_and_exits_cleanly(
    trap_site: Callable[..., RunningSite], tmp_path: Path
) -> None:
    site = trap_site("calendar")
    state = tmp_path / "state"
    code, screen, stdout = crawl_on_a_terminal(
        site.start_url, "--delay", "0.2", "--state", str(state), interrupt_after=b"pacing"
    )
    assert code == 130, screen
    assert "Traceback" not in screen and "interrupted" in screen
    assert (state / "crawl.json").exists()
    assert "interrupted" in stdout  # the summary table says how it ended
    assert not site.score().complete


def test_defaults_are_the_contract() -> None:
    """ARCHITECTURE.md: ``--max-pages 1000``, ``--delay 1``; the API's defaults agree."""
    args = build_parser().parse_args(["crawl", "http://example.org/"])
    assert (args.max_pages, args.delay, args.max_depth, args.output) == (1000, 1.0, None, None)
    assert (args.profile, args.state, args.add_seeds) == ("classic", None, False)
    config = CrawlConfig()
    assert (config.max_pages, config.delay, config.max_depth) == (1000, 1.0, None)
    assert args.max_body == config.max_body_bytes == 8 * 1024 * 1024


MIB = 1024 * 1024


def serve_big_contents_page(httpserver: HTTPServer) -> str:
    """A 3 MB table of contents (text a browser shows, no trap) whose first link is
    near its top and whose last is past 2 MiB: the crawl's old cap cut that one."""
    entries = [
        f"<p>Chapter {n}: the {n}th entry of the contents, its summary.</p>"
        for n in range(1, 43_700)
    ]
    body = '<!doctype html><title>Contents</title><a href="/first.html">first</a>'
    body += "".join(entries)
    body += '<a href="/last.html">last</a></html>'
    data = body.encode()
    assert data.rindex(b"/last.html") > 2 * MIB and 2.9e6 < len(data) < 3.1e6
    httpserver.expect_request("/robots.txt").respond_with_data("", status=404)
    httpserver.expect_request("/").respond_with_data(data, content_type="text/html")
    for page in ("/first.html", "/last.html"):
        httpserver.expect_request(page).respond_with_data(
            f"<title>{page}</title><p>{page} alone</p>", content_type="text/html"
        )
    return str(httpserver.url_for("/"))


def paths_seen(httpserver: HTTPServer) -> list[str]:
    """What the server was asked for, soft-404 probes left out."""
    return sorted(r.path for r, _ in httpserver.log if "robotkit-probe-" not in r.path)


def test_a_3_mb_page_is_read_whole_by_default(httpserver: HTTPServer, tmp_path: Path) -> None:
    seed = serve_big_contents_page(httpserver)
    out = tmp_path / "crawl.jsonl"
    assert main(["crawl", seed, "--delay", "0", "--output", str(out)]) == 0
    assert paths_seen(httpserver) == ["/", "/first.html", "/last.html", "/robots.txt"]
    home = [r for r in lines(out) if r["url"] == seed]
    assert [(r["event"], r["status"], r["reason"]) for r in home] == [("fetched", 200, None)]


def test_a_page_over_max_body_is_cut_with_its_reason(
    httpserver: HTTPServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seed = serve_big_contents_page(httpserver)
    out = tmp_path / "crawl.jsonl"
    argv = ["crawl", seed, "--delay", "0", "--max-body", "1M", "--output", str(out)]
    assert main(argv) == 0
    # The links before the cut are followed; the one past it is lost.
    assert paths_seen(httpserver) == ["/", "/first.html", "/robots.txt"]
    home = [r for r in lines(out) if r["url"] == seed]
    assert [(r["event"], r["status"], r["reason"]) for r in home] == [
        ("fetched", 200, "body-too-large")
    ]
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("8M", 8 * MIB),
        ("512K", 512 * 1024),
        ("3145728", 3 * MIB),
        ("1GiB", 1024 * MIB),
        ("2mb", 2 * MIB),
    ],
)
def test_max_body_takes_bytes_with_a_suffix(text: str, value: int) -> None:
    args = build_parser().parse_args(["crawl", "http://example.org/", "--max-body", text])
    assert args.max_body == value


@pytest.mark.parametrize("text", ["8X", "-1", "1.5M", "M", ""])
def test_a_bad_max_body_is_one_line_and_exit_2(
    text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["crawl", "http://example.org/", "--max-body", text])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--max-body" in err[0] and "8M" in err[0]
