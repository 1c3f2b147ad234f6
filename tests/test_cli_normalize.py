"""``robotkit normalize`` per ARCHITECTURE.md: one line per URL in input order, JSON Lines
with --json, exit 2 after printing the rest when a URL is invalid."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from robotkit.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str], str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def test_prints_keys_in_input_order(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, err = run(
        capsys, "normalize", "HTTP://Example.COM:80/b/../a?z=1&utm_source=x&a=2#top",
        "https://b\u00fccher.de/cart;jsessionid=AB12",
    )  # fmt: skip
    assert (code, err) == (0, "")
    assert lines == ["http://example.com/a?a=2&z=1", "https://xn--bcher-kva.de/cart"]


def test_invalid_url_prints_rest_then_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, err = run(
        capsys, "normalize", "http://a.example/", "not a url", "ftp://x/", "http://b.example"
    )
    assert code == 2
    # one line per URL, so the output still lines up with the input
    assert lines == ["http://a.example/", "", "", "http://b.example/"]
    assert err.count("\n") == 1
    assert err.startswith("robotkit: error: invalid-url") and "1 more" in err


def test_json_records(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _ = run(
        capsys, "normalize", "--json", "http://E.com/?b&a=", "mailto:x@y", "http://[::1"
    )
    records = [json.loads(line) for line in lines]
    assert code == 2
    assert [(r["url"], r["normalized"], r["reason"]) for r in records] == [
        ("http://E.com/?b&a=", "http://e.com/?a=&b", None),
        ("mailto:x@y", None, "unsupported-scheme"),
        ("http://[::1", None, "invalid-url"),
    ]
    assert records[0]["detail"] is None and records[2]["detail"]


def test_input_file_after_arguments(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = tmp_path / "urls.txt"
    source.write_bytes(
        b"  http://one.example/x?sid=1  \n\n\thttp://two.example\r\nhttp://\xff.example/\n"
    )
    code, lines, err = run(capsys, "normalize", "http://zero.example", "--input", str(source))
    assert code == 2
    assert lines == ["http://zero.example/", "http://one.example/x", "http://two.example/", ""]
    assert "invalid-url" in err


@pytest.mark.parametrize("missing", ["does-not-exist.txt", "."])
def test_unreadable_input_is_one_line_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, missing: str
) -> None:
    code, lines, err = run(capsys, "normalize", "--input", str(tmp_path / missing))
    assert (code, lines) == (2, [])
    assert err.startswith("robotkit: error: cannot read --input") and err.count("\n") == 1


def test_no_urls_is_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, err = run(capsys, "normalize")
    assert (code, lines) == (2, [])
    assert "no URL given" in err


def test_subprocess_reads_stdin() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "robotkit", "normalize", "--json", "--input", "-"],
        input=b"http://Example.com/a/./b?fbclid=1\n\xff\xfe garbage\n",
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    records = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert [r["normalized"] for r in records] == ["http://example.com/a/b", None]
    assert records[1]["reason"] == "invalid-url"
    stderr = done.stderr.decode()
    assert "Traceback" not in stderr and stderr.count("\n") == 1


@pytest.mark.parametrize("empty", ["", "  "])
def test_row1_empty_argument_is_invalid_url(capsys: pytest.CaptureFixture[str], empty: str) -> None:
    """An empty argument is an invalid URL (one empty line, exit 2), as any other invalid
    argument; only blank lines of --input are skipped."""
    code, lines, err = run(capsys, "normalize", "http://a.example", empty)
    assert (code, lines) == (2, ["http://a.example/", ""])
    assert err.startswith("robotkit: error: invalid-url") and err.count("\n") == 1
    code, lines, _ = run(capsys, "normalize", "--json", empty)
    assert code == 2
    assert [(r["url"], r["normalized"], r["reason"]) for r in map(json.loads, lines)] == [
        (empty.strip(), None, "invalid-url")
    ]


def test_row2_a_password_in_an_invalid_url_is_masked_in_the_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """stderr goes to logs: the one-line error shows the URL with its password
    masked; the JSON record keeps the URL as given (the output is the user's)."""
    code, lines, err = run(capsys, "normalize", "--json", "http://bob:s3cret@[::1")
    assert code == 2 and "s3cret" not in err and "http://bob:***@[::1" in err
    assert json.loads(lines[0])["url"] == "http://bob:s3cret@[::1"
