"""``robotkit frontier serve --state DIR``: a node's URLs across a clean restart."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest
from support.frontier_client import Client, discovered, known

from robotkit.base.clock import ManualClock
from robotkit.base.errors import DataError
from robotkit.pacing.pacer import Pacer
from robotkit.service import state
from robotkit.service.core import Incoming, ServiceCore, URLState
from robotkit.service.proto import urlfrontier_pb2 as pb


def core(clock: ManualClock) -> ServiceCore:
    return ServiceCore(clock, Pacer(clock))


def test_urls_survive_a_save_and_a_load(clock: ManualClock, tmp_path: Path) -> None:
    first = core(clock)
    first.put("c", Incoming("http://a.example/1", "shop", {"depth": ["0"]}))
    first.put("c", Incoming("http://a.example/2"))
    first.put("", Incoming("http://a.example/done", metadata={}, known=True))
    first.put("", Incoming("http://a.example/later", known=True, refetch_from=int(clock()) + 9))
    first.put("", Incoming("http://a.example/a/a/a/a"))  # refused: not kept
    assert state.save(first, tmp_path) == 4
    second = core(clock)
    assert state.load(second, tmp_path) == 4
    restored = second.status("c", "http://a.example/1")
    assert restored is not None
    assert (restored.queue.key, restored.metadata, restored.state) == (
        "shop",
        {"depth": ("0",)},
        URLState.QUEUED,
    )
    assert second.status("", "http://a.example/done").state is URLState.DONE  # type: ignore[union-attr]
    assert second.status("", "http://a.example/later").state is URLState.WAITING  # type: ignore[union-attr]
    assert second.status("", "http://a.example/a/a/a/a") is None
    fetches = second.take(lambda url: None, ["c"]).fetches
    assert [f.entry.url for f in fetches] == ["http://a.example/1"]


@pytest.mark.parametrize(
    "text", ["", "not json\n", '{"robotkit-frontier-state": 1}\n{"url": 3}\n', "[1]\n"]
)
def test_a_damaged_state_is_refused(clock: ManualClock, tmp_path: Path, text: str) -> None:
    (tmp_path / state.FILE_NAME).write_text(text)
    with pytest.raises(DataError):
        state.load(core(clock), tmp_path)


def serve(state_dir: Path) -> tuple[subprocess.Popen[str], str]:
    command = [sys.executable, "-m", "robotkit", "frontier", "serve", "--listen", "127.0.0.1:0"]
    command += ["--from", "bot@example.org", "--state", str(state_dir)]
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    line = process.stderr.readline()
    assert "listening on" in line, line + process.stderr.read()
    return process, line.rsplit(" ", 1)[1].strip()


def stop(process: subprocess.Popen[str]) -> str:
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=30) == 0
    assert process.stderr is not None
    return process.stderr.read()


def test_the_command_keeps_its_urls_across_a_restart(tmp_path: Path) -> None:
    process, address = serve(tmp_path)
    client = Client(address)
    try:
        client.put([discovered("http://a.example/1"), discovered("http://a.example/2")])
        client.put([known("http://a.example/2")])
    finally:
        client.close()
    assert "Traceback" not in stop(process)
    process, address = serve(tmp_path)
    client = Client(address)
    try:
        count = client.stub.CountURLs(pb.CountUrlParams(), timeout=10)
        assert count.value == 2
        assert client.stats().size == 1
    finally:
        client.close()
        stop(process)


def test_a_damaged_state_is_one_line_and_exit_2(tmp_path: Path) -> None:
    (tmp_path / state.FILE_NAME).write_text("garbage\n")
    command = [sys.executable, "-m", "robotkit", "frontier", "serve", "--listen", "127.0.0.1:0"]
    done = subprocess.run(
        [*command, "--state", str(tmp_path), "--from", "bot@example.org"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("robotkit: error: ") and done.stderr.count("\n") == 1
