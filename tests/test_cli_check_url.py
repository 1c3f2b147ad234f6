"""``robotkit check-url``: ARCHITECTURE.md's contract (flags, JSON Lines, exit codes)."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer
from support.servers import closed_port
from support.terminal import run_on_a_terminal
from werkzeug import Request, Response

from robotkit.cli import main

ROBOTS = "User-agent: *\nCrawl-delay: 2\nDisallow: /private\n\nUser-agent: OtherBot\nDisallow: /\n"
CONTRACT = [
    "url",
    "allowed",
    "decision",
    "reason",
    "robots_url",
    "robots_status",
    "rule",
    "crawl_delay",
    "retry_after",
]


@pytest.fixture
def robots_file(tmp_path: Path) -> Path:
    path = tmp_path / "robots.txt"
    path.write_text(ROBOTS)
    return path


def records(out: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.splitlines()]


def test_json_lines_fields_in_input_order(
    robots_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    urls = ["http://a.test/private/x", "https://b.test/open"]
    code = main(["check-url", *urls, "--robots-file", str(robots_file), "--json"])
    out = records(capsys.readouterr().out)
    assert code == 1
    assert [r["url"] for r in out] == urls
    assert list(out[0])[: len(CONTRACT)] == CONTRACT
    assert out[0] == out[0] | {
        "allowed": False,
        "decision": "disallow",
        "reason": "robots-disallow",
        "robots_url": robots_file.resolve().as_uri(),
        "robots_status": None,
        "rule": {"line": 3, "text": "Disallow: /private"},
        "crawl_delay": 2.0,
        "retry_after": None,
    }
    assert out[1]["allowed"] is True and out[1]["reason"] == "allowed" and out[1]["rule"] is None


def test_user_agent_selects_the_group(
    robots_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "check-url",
            "http://a.test/x",
            "--robots-file",
            str(robots_file),
            "--json",
            "--user-agent",
            "OtherBot/2.0 (+https://other.example)",
        ]
    )
    (record,) = records(capsys.readouterr().out)
    assert code == 1 and record["rule"] == {"line": 6, "text": "Disallow: /"}


def test_all_allowed_exits_0(robots_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-url", "http://a.test/", "--robots-file", str(robots_file)]) == 0
    out = capsys.readouterr().out
    assert "http://a.test/" in out and "allow" in out  # the rich table


def test_invalid_url_gets_a_record_and_exit_2_after_the_others(
    robots_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["check-url", "ftp://a.test/x", "http://a.test/private", "not a url", "--json"]
    code = main([*argv, "--robots-file", str(robots_file)])
    captured = capsys.readouterr()
    out = records(captured.out)
    assert code == 2
    assert [(r["decision"], r["reason"]) for r in out] == [
        ("disallow", "unsupported-scheme"),
        ("disallow", "robots-disallow"),
        ("disallow", "invalid-url"),
    ]
    assert captured.err.count("\n") == 1 and captured.err.startswith("robotkit: error:")
    assert "ftp://a.test/x" in captured.err and "1 more" in captured.err


def test_input_file_and_stdin(
    robots_file: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    listing = tmp_path / "urls.txt"
    listing.write_text("  http://a.test/1  \n\n\t\nhttp://a.test/private\n")
    code = main(
        [
            "check-url",
            "http://a.test/0",
            "--input",
            str(listing),
            "--json",
            "--robots-file",
            str(robots_file),
        ]
    )
    assert code == 1
    urls = [r["url"] for r in records(capsys.readouterr().out)]
    assert urls == ["http://a.test/0", "http://a.test/1", "http://a.test/private"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("http://a.test/2\n\nhttp://a.test/3\n"))
    assert main(["check-url", "--input", "-", "--json", "--robots-file", str(robots_file)]) == 0
    assert [r["url"] for r in records(capsys.readouterr().out)] == [
        "http://a.test/2",
        "http://a.test/3",
    ]


@pytest.mark.parametrize(
    "argv",
    [
        ["http://a.test/", "--robots-file", "/nonexistent/robots.txt"],
        ["--input", "/nonexistent/urls.txt"],
        ["http://a.test/", "--from", "not-an-email"],
        ["http://a.test/", "--user-agent", "Mozilla/5.0"],
        [],
    ],
)
def test_bad_usage_is_one_line_and_exit_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check-url", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("robotkit: error:") and captured.err.count("\n") == 1


def test_input_file_with_invalid_utf8_is_reported_invalid_never_repaired(
    robots_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listing = tmp_path / "urls.txt"
    listing.write_bytes(b"http://a.test/caf\xe9\r\nhttp://a.test/private/\xff\nhttp://a.test/ok\n")
    code = main(["check-url", "--input", str(listing), "--json", "--robots-file", str(robots_file)])
    out = records(capsys.readouterr().out)
    assert code == 2
    assert [(r["url"], r["decision"], r["reason"]) for r in out] == [
        ("http://a.test/caf\ufffd", "disallow", "invalid-url"),
        ("http://a.test/private/\ufffd", "disallow", "invalid-url"),
        ("http://a.test/ok", "allow", "allowed"),
    ]


def test_unreadable_input_file_still_checks_the_other_urls(
    robots_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unreadable --input is bad input like a malformed URL: the URLs given as
    arguments still get their verdicts, then one line on stderr, exit 2."""
    missing = tmp_path / "missing.txt"
    argv = ["check-url", "http://a.test/ok", "--input", str(missing), "--json"]
    code = main([*argv, "--robots-file", str(robots_file)])
    captured = capsys.readouterr()
    assert code == 2
    assert [(r["url"], r["decision"]) for r in records(captured.out)] == [
        ("http://a.test/ok", "allow")
    ]
    assert captured.err.count("\n") == 1 and captured.err.startswith("robotkit: error:")
    assert f"cannot read --input {missing}" in captured.err


def check_on_a_terminal(robots_file: Path, count: int) -> tuple[int, str, str]:
    """``robotkit check-url`` of ``count`` URLs with stderr on a pseudo-terminal:
    (status, what the terminal showed, stdout)."""
    urls = [f"http://a.test/{n}" for n in range(count)]
    command = [sys.executable, "-m", "robotkit", "check-url", *urls]
    command += ["--robots-file", str(robots_file), "--json"]
    return run_on_a_terminal(command, timeout=60)


@pytest.mark.parametrize(("count", "bar"), [(21, True), (20, False)])
def test_progress_bar_on_a_terminal_for_a_large_batch(
    robots_file: Path, count: int, bar: bool
) -> None:
    """Past 20 URLs a progress bar is drawn on stderr (a terminal), never on
    stdout; a small batch draws none."""
    code, screen, stdout = check_on_a_terminal(robots_file, count)
    assert code == 0
    assert len(stdout.splitlines()) == count and "checking" not in stdout
    assert ("checking" in screen) is bar
    assert "Traceback" not in screen


@pytest.mark.parametrize(
    "flags",
    [["--profile", "nope"], ["--robots-min-ttl", "-1"], ["--timeout", "0"], ["--no-such-flag"]],
)
def test_bad_flags_are_one_line_and_exit_2(
    flags: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """argparse's usage errors follow the contract too: one line, exit 2."""
    with pytest.raises(SystemExit) as exit_:
        main(["check-url", "http://a.test/", *flags])
    assert exit_.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("robotkit: error:") and captured.err.count("\n") == 1
    assert "--help)" in captured.err


def test_fetches_once_per_origin_with_identity(
    httpserver: HTTPServer, capsys: pytest.CaptureFixture[str]
) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data(ROBOTS)
    urls = [httpserver.url_for(f"/private/{n}") for n in range(30)]
    code = main(
        [
            "check-url",
            *urls,
            "--json",
            "--user-agent",
            "ExampleBot/1.0",
            "--from",
            "ops@example.org",
        ]
    )
    out = records(capsys.readouterr().out)
    assert code == 1
    assert [r["url"] for r in out] == urls
    assert {r["robots_status"] for r in out} == {200}
    hits = [req for req, _ in httpserver.log if req.path == "/robots.txt"]
    assert len(hits) == 1
    assert hits[0].headers["User-Agent"] == "ExampleBot/1.0"
    assert hits[0].headers["From"] == "ops@example.org"


def test_deferred_exits_3_with_retry_after(
    httpserver: HTTPServer, capsys: pytest.CaptureFixture[str]
) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data(
        "busy", status=503, headers={"Retry-After": "7200"}
    )
    code = main(["check-url", httpserver.url_for("/a"), httpserver.url_for("/b"), "--json"])
    out = records(capsys.readouterr().out)
    assert code == 3
    assert [(r["decision"], r["reason"], r["robots_status"]) for r in out] == [
        ("defer", "robots-deferred", 503)
    ] * 2
    assert all(7190 <= r["retry_after"] <= 7200 for r in out)  # type: ignore[operator]
    assert len(httpserver.log) == 1  # reported, not retried


def test_disallowed_outranks_deferred_in_the_exit_status(
    httpserver: HTTPServer, capsys: pytest.CaptureFixture[str]
) -> None:
    """ARCHITECTURE.md's order: 1 when any URL is disallowed, even if another is
    deferred (here: a robots.txt on a port nobody listens on)."""
    httpserver.expect_request("/robots.txt").respond_with_data(ROBOTS)
    deferred = f"http://127.0.0.1:{closed_port()}/page"
    code = main(["check-url", deferred, httpserver.url_for("/private/x"), "--json"])
    out = records(capsys.readouterr().out)
    assert [(r["decision"], r["robots_status"]) for r in out] == [
        ("defer", None),
        ("disallow", 200),
    ]
    assert code == 1
    assert main(["check-url", deferred, httpserver.url_for("/open"), "--json"]) == 3


def test_profile_flag(httpserver: HTTPServer, capsys: pytest.CaptureFixture[str]) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data("no", status=403)
    url = httpserver.url_for("/page")
    assert main(["check-url", url, "--json"]) == 1
    assert records(capsys.readouterr().out)[0]["reason"] == "robots-deny-all"
    assert main(["check-url", url, "--json", "--profile", "rfc9309"]) == 0
    assert records(capsys.readouterr().out)[0]["reason"] == "allowed"


def test_subprocess_exit_codes_and_no_traceback(robots_file: Path) -> None:
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "robotkit",
            "check-url",
            "--robots-file",
            str(robots_file),
            "http://a.test/ok",
            "mailto:x@example.org",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2
    assert len(run.stdout.splitlines()) == 2
    assert "Traceback" not in run.stderr and run.stderr.count("\n") == 1
    bad = subprocess.run(
        [sys.executable, "-m", "robotkit", "check-url", "http://a.test/", "--profile", "nope"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert bad.stderr.startswith("robotkit: error:") and bad.stderr.count("\n") == 1


def test_subprocess_stdin_with_invalid_utf8(robots_file: Path) -> None:
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "robotkit",
            "check-url",
            "--input",
            "-",
            "--json",
            "--robots-file",
            str(robots_file),
        ],
        input=b"  http://a.test/caf\xe9  \n\n\thttp://a.test/private/\xff\n",
        capture_output=True,
        timeout=60,
    )
    assert run.returncode == 2 and run.stderr.count(b"\n") == 1
    out = [json.loads(line) for line in run.stdout.splitlines()]
    assert [r["url"] for r in out] == ["http://a.test/caf\ufffd", "http://a.test/private/\ufffd"]
    assert [r["reason"] for r in out] == ["invalid-url", "invalid-url"]


# -- the trap guard runs before robots.txt -------------------------------------------


def test_guard_refuses_trap_urls_before_any_robots_fetch(
    httpserver: HTTPServer, capsys: pytest.CaptureFixture[str]
) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data("User-agent: *\nAllow: /\n")
    loop = httpserver.url_for("/a/b/a/b/a/b/")
    long = httpserver.url_for("/" + "x" * 2100)
    code = main(["check-url", loop, long, "--json"])
    out = records(capsys.readouterr().out)
    assert code == 1
    assert [(r["reason"], r["decision"]) for r in out] == [
        ("repeated-path", "disallow"),
        ("url-too-long", "disallow"),
    ]
    assert str(out[0]["detail"]).startswith("repeated-path: /a/b repeated 3 times")
    assert out[0]["robots_url"] == httpserver.url_for("/robots.txt")
    assert httpserver.log == []  # refused on its shape: robots.txt was not even fetched


def test_guard_look_alikes_still_reach_robots(
    robots_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    urls = ["http://a.test/2024/01/01/post", "http://a.test/docs/v1/docs/v2/"]
    code = main(["check-url", *urls, "--robots-file", str(robots_file), "--json"])
    assert code == 0
    assert [r["reason"] for r in records(capsys.readouterr().out)] == ["allowed", "allowed"]


def test_blacklist_file(
    robots_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blacklist = tmp_path / "blacklist.txt"
    blacklist.write_text("# traps we know\ndomain: calendar.test\nprefix: http://a.test/cgi-bin/\n")
    urls = ["http://www.calendar.test/", "http://a.test/cgi-bin/x", "http://a.test/ok"]
    args = ["check-url", *urls, "--robots-file", str(robots_file), "--json"]
    code = main([*args, "--blacklist", str(blacklist)])
    out = records(capsys.readouterr().out)
    assert code == 1
    assert [r["reason"] for r in out] == ["blacklisted", "blacklisted", "allowed"]


@pytest.mark.parametrize("content", [None, "nonsense line without a kind\n"])
def test_unusable_blacklist_is_one_line_and_exit_2(
    robots_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | None
) -> None:
    blacklist = tmp_path / "blacklist.txt"
    if content is not None:
        blacklist.write_text(content)
    args = ["check-url", "http://a.test/", "--robots-file", str(robots_file)]
    code = main([*args, "--blacklist", str(blacklist)])
    captured = capsys.readouterr()
    assert code == 2
    assert captured.out == ""
    assert len(captured.err.strip().splitlines()) == 1 and "blacklist" in captured.err


PEAK_RSS = """
import resource, subprocess, sys
run = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
print(run.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.stdout.write(run.stderr.decode())
"""


def peak_rss(argv: list[str], out: Path) -> tuple[int, int, str]:
    """Run ``robotkit argv`` (stdout to ``out``) under a fresh parent, so that
    ``RUSAGE_CHILDREN`` holds this run's peak alone: (status, peak KiB, stderr)."""
    command = [sys.executable, "-m", "robotkit", *argv]
    shell = f"exec {' '.join(map(repr, command))} > {str(out)!r}"
    run = subprocess.run(
        [sys.executable, "-c", PEAK_RSS, "sh", "-c", shell],
        capture_output=True,
        text=True,
        check=True,
    )
    first, _, stderr = run.stdout.partition("\n")
    status, kib = first.split()
    return int(status), int(kib), stderr


@pytest.mark.parametrize("output", [["--json"], []])
def test_a_large_input_streams_in_order_with_bounded_memory(
    robots_file: Path, tmp_path: Path, output: list[str]
) -> None:
    """Issue 9, row 10: verdicts are printed as they come, in input order, and
    never all held: 25,000 URLs peak at most 10 MB above a run of one URL (the
    old code held 1.2-3 KB per URL: 29 MB or more here; the 1M-URL figure is
    benchmarks/bench_check_url_memory.py's). The exit status rules
    still hold over the stream: an invalid URL anywhere makes it 2, with the
    error line after every verdict."""
    count = 25_000
    urls = [f"http://a.test/{'private' if n % 7 == 0 else 'open'}/{n}?q={n}" for n in range(count)]
    urls[count // 2] = "ftp://a.test/not-http"
    big = tmp_path / "urls.txt"
    big.write_text("\n".join(urls) + "\n")
    small = tmp_path / "one.txt"
    small.write_text(urls[1] + "\n")
    base = ["check-url", "--robots-file", str(robots_file), *output, "--input"]
    code, baseline, _ = peak_rss([*base, str(small)], tmp_path / "one.out")
    assert code == 0
    code, peak, stderr = peak_rss([*base, str(big)], tmp_path / "big.out")
    assert code == 2
    assert stderr.count("\n") == 1 and "invalid URL 'ftp://a.test/not-http'" in stderr
    assert peak - baseline <= 10 * 1024, (peak, baseline)
    lines = (tmp_path / "big.out").read_text().splitlines()
    if output:
        assert [json.loads(line)["url"] for line in lines] == urls
        assert json.loads(lines[7])["reason"] == "robots-disallow"
    else:
        assert lines[0].split() == [
            "URL",
            "decision",
            "reason",
            "robots.txt",
            "wait",
            "rule",
            "/",
            "detail",
        ]
        assert [line.split()[0] for line in lines[1:]] == urls
        assert lines[8].split()[1:3] == ["disallow", "robots-disallow"]


def test_slow_origin_first_keeps_input_order(
    make_server: Callable[[str], HTTPServer], capsys: pytest.CaptureFixture[str]
) -> None:
    """The first origin's robots.txt answers late; verdicts of the fast origins
    after it wait for it, and everything comes out in input order, each origin's
    robots.txt fetched once."""
    slow, fast, other = (make_server(f"127.0.0.{n}") for n in (2, 3, 4))

    def late(request: Request) -> Response:
        time.sleep(0.3)
        return Response(ROBOTS)

    slow.expect_request("/robots.txt").respond_with_handler(late)
    fast.expect_request("/robots.txt").respond_with_data(ROBOTS)
    other.expect_request("/robots.txt").respond_with_data("nope", status=404)
    servers = (slow, fast, other)
    urls = [servers[n % 3].url_for(f"/{'private' if n % 2 else 'open'}/{n}") for n in range(90)]
    assert main(["check-url", *urls, "--json"]) == 1
    out = records(capsys.readouterr().out)
    assert [r["url"] for r in out] == urls
    assert [r["robots_status"] for r in out] == [200, 200, 404] * 30
    for server in servers:
        assert [r.path for r, _ in server.log] == ["/robots.txt"]


class Terminal(io.StringIO):
    """Standard output as a terminal sees it: only ``isatty`` differs."""

    def isatty(self) -> bool:
        return True


def test_table_rows_never_wrap_and_cut_long_urls_only_on_a_terminal(
    robots_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a pipe each row is one line holding the whole URL (here 500 characters);
    on a terminal 160 columns wide each row fits in them, the URL cut in its
    middle with an ellipsis, the decision in colour."""
    long_url = "http://a.test/private/" + "x" * 500 + "/end"
    argv = ["check-url", long_url, "http://a.test/ok", "--robots-file", str(robots_file)]
    assert main(argv) == 1
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3
    assert lines[1].split()[:3] == [long_url, "disallow", "robots-disallow"]
    assert lines[2].split()[:3] == ["http://a.test/ok", "allow", "allowed"]
    screen = Terminal()
    monkeypatch.setattr(sys, "stdout", screen)
    monkeypatch.setenv("COLUMNS", "160")
    assert main(argv) == 1
    rows = screen.getvalue().splitlines()
    assert len(rows) == 3
    plain = [
        row.replace("\x1b[31m", "").replace("\x1b[32m", "").replace("\x1b[0m", "") for row in rows
    ]
    assert all(len(row) <= 160 for row in plain)
    cut = plain[1].split()[0]
    assert cut.startswith("http://a.test/private/x") and cut.endswith("x/end") and "…" in cut
    assert "\x1b[31mdisallow\x1b[0m" in rows[1]
    # A narrow terminal cuts the row's end; an escape sequence in a URL (an
    # invalid one: exit 2) is shown, not obeyed.
    narrow = Terminal()
    monkeypatch.setattr(sys, "stdout", narrow)
    monkeypatch.setenv("COLUMNS", "50")
    assert main(["check-url", "http://a.test/\x1b[2Jx", *argv[1:]]) == 2
    rows = [re.sub("\x1b\\[\\d+m", "", row) for row in narrow.getvalue().splitlines()]
    assert all(len(row) <= 50 and "\x1b[2J" not in row for row in rows)
    assert rows[1].startswith("http://a.test/\ufffd[2Jx")


@pytest.mark.parametrize("empty", ["", "   "])
def test_row1_empty_argument_is_invalid_url(
    robots_file: Path, capsys: pytest.CaptureFixture[str], empty: str
) -> None:
    """An empty argument (an unset shell variable in ``check-url "$URL" && fetch``) is an
    invalid URL, never a silent exit 0 that reads as "allowed"."""
    argv = ["check-url", empty, "http://a.test/open", "--json", "--robots-file", str(robots_file)]
    code = main(argv)
    captured = capsys.readouterr()
    out = records(captured.out)
    assert code == 2
    assert [(r["url"], r["decision"], r["reason"]) for r in out] == [
        (empty.strip(), "disallow", "invalid-url"),
        ("http://a.test/open", "allow", "allowed"),
    ]
    assert captured.err.count("\n") == 1 and captured.err.startswith("robotkit: error:")
    # alone, and in the table: still exit 2
    assert main(["check-url", empty, "--robots-file", str(robots_file)]) == 2
    assert "invalid-url" in capsys.readouterr().out
