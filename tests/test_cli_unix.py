"""Every command behaves as Unix tools do, checked on the real command in a
subprocess: a reader that goes away, the input rule shared by all commands,
errors in the user's terms, a crawl that fetched nothing, ``--output`` files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer

BOT = ["--user-agent", "UnixBot/1.0 (+https://example.org/bot)"]


def robotkit(*argv: str | bytes, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "robotkit", *argv], input=stdin, capture_output=True, timeout=60
    )


@pytest.fixture
def robots_file(tmp_path: Path) -> Path:
    path = tmp_path / "robots.txt"
    path.write_text("User-agent: *\nDisallow: /private\n")
    return path


def read_one_line_and_close(argv: list[str]) -> tuple[int, bytes, bytes]:
    """``robotkit ... | head -1``: the reader takes one line and goes away."""
    process = subprocess.Popen(
        [sys.executable, "-m", "robotkit", *argv],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None
    first = process.stdout.readline()
    process.stdout.close()
    _, err = process.communicate(timeout=60)
    return process.returncode, first, err


# -- a closed stdout ---------------------------------------------------------------


@pytest.fixture
def many_urls(tmp_path: Path) -> Path:
    """More output than a pipe holds, so the writer must meet the closed end."""
    path = tmp_path / "urls.txt"
    path.write_bytes(b"".join(b"http://a.test/page/%d\n" % i for i in range(20_000)))
    return path


def test_check_url_json_into_head_ends_quietly(robots_file: Path, many_urls: Path) -> None:
    argv = ["check-url", "--json", "--input", str(many_urls), "--robots-file", str(robots_file)]
    code, first, err = read_one_line_and_close(argv)
    assert json.loads(first)["url"] == "http://a.test/page/0"
    assert (code, err) == (141, b"")


def test_normalize_into_head_ends_the_same_way(many_urls: Path) -> None:
    code, first, err = read_one_line_and_close(["normalize", "--input", str(many_urls)])
    assert first == b"http://a.test/page/0\n"
    assert (code, err) == (141, b"")


def test_crawl_output_to_stdout_into_head_ends_quietly(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data("User-agent: *\nDisallow:\n")
    links = "".join(f'<a href="/p{i}">{i}</a>' for i in range(3000))
    httpserver.expect_request("/").respond_with_data(links, content_type="text/html")
    httpserver.expect_request("/p0").respond_with_data("x", content_type="text/html")
    argv = ["crawl", httpserver.url_for("/"), *BOT, "--delay", "0", "--output", "-"]
    argv += ["--max-pages", "2"]
    code, first, err = read_one_line_and_close(argv)
    assert json.loads(first)["url"].startswith(httpserver.url_for("/"))
    assert code == 141 and b"Traceback" not in err and b"Broken pipe" not in err


# -- one input rule ----------------------------------------------------------------


def test_a_byte_order_mark_is_dropped_by_every_command(robots_file: Path, tmp_path: Path) -> None:
    listing = tmp_path / "urls.txt"
    listing.write_bytes(b"\xef\xbb\xbfhttp://a.test/x\r\nhttp://a.test/private/y\r\n")
    checked = robotkit(
        "check-url", "--json", "--input", str(listing), "--robots-file", str(robots_file)
    )
    verdicts = [json.loads(line) for line in checked.stdout.splitlines()]
    assert [(v["url"], v["reason"]) for v in verdicts] == [
        ("http://a.test/x", "allowed"),
        ("http://a.test/private/y", "robots-disallow"),
    ]
    normalized = robotkit("normalize", "--input", str(listing))
    assert normalized.returncode == 0
    assert normalized.stdout.splitlines() == [b"http://a.test/x", b"http://a.test/private/y"]


@pytest.mark.parametrize("where", ["argv", "stdin"])
def test_invalid_utf8_is_invalid_in_every_command(robots_file: Path, where: str) -> None:
    url = b"http://a.test/caf\xe9"
    given: tuple[bytes, ...] = (url,) if where == "argv" else ("--input", "-")  # type: ignore[assignment]
    stdin = b"" if where == "argv" else url + b"\n"
    checked = robotkit(
        "check-url", "--json", *given, "--robots-file", str(robots_file), stdin=stdin
    )
    assert checked.returncode == 2
    assert json.loads(checked.stdout)["reason"] == "invalid-url"
    normalized = robotkit("normalize", "--json", *given, stdin=stdin)
    assert normalized.returncode == 2
    assert json.loads(normalized.stdout)["reason"] == "invalid-url"


def test_lines_end_at_lf_only_in_every_command(robots_file: Path) -> None:
    """A lone CR, VT or FF does not start a new URL, in either command."""
    stdin = b"http://a.test/a\rhttp://a.test/b\x0b\x0c\nhttp://a.test/c\n"
    checked = robotkit(
        "check-url", "--json", "--input", "-", "--robots-file", str(robots_file), stdin=stdin
    )
    normalized = robotkit("normalize", "--json", "--input", "-", stdin=stdin)
    assert len(checked.stdout.splitlines()) == len(normalized.stdout.splitlines()) == 2


@pytest.mark.parametrize("command", ["check-url", "normalize"])
def test_empty_stdin_is_no_work_and_exit_0(command: str) -> None:
    run = robotkit(command, "--input", "-")
    assert (run.returncode, run.stdout, run.stderr) == (0, b"", b"")


# -- errors in the user's terms ----------------------------------------------------


def test_a_bad_number_is_said_in_the_users_terms() -> None:
    run = robotkit("crawl", "http://127.0.0.1:9/", "--delay", "abc")
    assert run.returncode == 2
    assert run.stderr.decode().startswith(
        "robotkit: error: argument --delay: expected a number of seconds, not 'abc'"
    )
    assert b"_non_negative" not in run.stderr


def test_an_unknown_flag_points_to_the_subcommands_help() -> None:
    run = robotkit("check-url", "http://a.test/", "--no-such-flag")
    assert run.returncode == 2
    assert b"unrecognized arguments: --no-such-flag" in run.stderr
    assert b"(see: robotkit check-url --help)" in run.stderr


def test_state_that_is_a_file_is_said_so(tmp_path: Path) -> None:
    regular = tmp_path / "passwd"
    regular.write_text("root:x:0:0\n")
    run = robotkit("crawl", "http://127.0.0.1:9/", "--state", str(regular))
    assert run.returncode == 2
    assert b"is a file; give a directory" in run.stderr and b"File exists" not in run.stderr
    assert regular.read_text() == "root:x:0:0\n"


# -- a crawl that fetched nothing; --output ----------------------------------------


def test_a_crawl_that_fetched_nothing_exits_4_with_the_reason() -> None:
    run = robotkit("crawl", "http://127.0.0.1:9/", *BOT, "--delay", "0", "--timeout", "2")
    assert run.returncode == 4
    assert b"robotkit: error: no page was fetched: robots-deferred 1" in run.stderr


def test_output_is_replaced_unless_append(httpserver: HTTPServer, tmp_path: Path) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data("User-agent: *\nDisallow:\n")
    httpserver.expect_request("/").respond_with_data("<p>home</p>", content_type="text/html")
    output = tmp_path / "crawl.jsonl"
    output.write_text('{"url": "from an older crawl"}\n')
    argv = ["crawl", httpserver.url_for("/"), *BOT, "--delay", "0", "--output", str(output)]
    assert robotkit(*argv).returncode == 0
    first = output.read_text().splitlines()
    assert "older" not in output.read_text()
    assert httpserver.url_for("/") in [json.loads(line)["url"] for line in first]
    assert robotkit(*argv, "--append").returncode == 0
    appended = output.read_text().splitlines()
    assert appended[: len(first)] == first and len(appended) == 2 * len(first)


# -- who the robot is ----------------------------------------------------------------


def test_a_robot_without_contact_is_warned_once(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data("User-agent: *\nDisallow:\n")
    urls = (httpserver.url_for("/a"), "http://127.0.0.2:9/b")
    anonymous = robotkit("check-url", *urls, "--json")
    assert anonymous.stderr.count(b"warning: the robot gives no contact") == 1
    named = robotkit("check-url", *urls, "--json", "--from", "ops@example.org")
    assert b"warning" not in named.stderr


def test_rerunning_a_finished_crawl_says_so_and_prints_no_empty_table(
    httpserver: HTTPServer, tmp_path: Path
) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data("User-agent: *\nDisallow:\n")
    httpserver.expect_request("/").respond_with_data("<p>home</p>", content_type="text/html")
    argv = ["crawl", httpserver.url_for("/"), *BOT, "--delay", "0", "--state", str(tmp_path / "s")]
    assert robotkit(*argv).returncode == 0
    again = robotkit(*argv)
    assert again.returncode == 0  # pages were fetched, by the first run
    assert b"has nothing left to fetch" in again.stderr
    assert b"hosts" not in again.stdout
