"""``robotkit frontier serve --state DIR``: a node's URLs across a clean restart."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer
from support.frontier_client import Client, discovered, known

from robotkit.base.clock import ManualClock
from robotkit.base.errors import DataError
from robotkit.base.reasons import Decision, Reason
from robotkit.pacing.pacer import Pacer
from robotkit.robots.verdict import Verdict
from robotkit.service import metadata as meta
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


def serve(state_dir: Path, *options: str) -> tuple[subprocess.Popen[str], str]:
    command = [sys.executable, "-m", "robotkit", "frontier", "serve", "--listen", "127.0.0.1:0"]
    command += ["--from", "bot@example.org", "--state", str(state_dir), *options]
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


# -- the journal: nothing acknowledged is lost when the node is killed --------------


def journaled(clock: ManualClock, directory: Path) -> tuple[ServiceCore, state.NodeState]:
    node = core(clock)
    kept = state.NodeState(directory)
    kept.open(node)
    return node, kept


def test_changes_since_the_start_survive_without_a_clean_stop(
    clock: ManualClock, tmp_path: Path
) -> None:
    """The node is never closed (as when killed): what it holds comes back from
    the checkpoint of its start and the journal after it."""
    node, _ = journaled(clock, tmp_path)
    node.put("c", Incoming("http://a.example/1", "shop", {"depth": ["0"]}))
    for n in range(2, 6):
        node.put("", Incoming(f"http://a.example/{n}"))
    node.put("", Incoming("http://b.example/x"))
    node.put("gone", Incoming("http://a.example/in-a-deleted-crawl"))
    handed = [
        r.url
        for r in node.take(lambda url: None if "b.example" in url else _allow(url), [""]).handed
    ]
    assert handed == ["http://a.example/2"]
    node.put("", Incoming("http://a.example/2", metadata={"seen": ["yes"]}, known=True))
    node.put("", Incoming("http://a.example/3", known=True, refetch_from=int(clock()) + 9))
    node.put("", Incoming("http://a.example/4", known=True))
    clock.advance(86400 * 3)
    assert node.purge("", "", 1) == 2  # /2 and /4, done
    assert node.delete_crawl("gone") == 1
    node.put("", Incoming("http://a.example/a/a/a/a"))  # refused: not kept

    second = core(clock)
    assert state.load(second, tmp_path) == 4
    assert sorted(r.url for r in second.records("")) == [
        "http://a.example/3",
        "http://a.example/5",
        "http://b.example/x",
    ]
    assert second.status("", "http://a.example/3").state is URLState.WAITING  # type: ignore[union-attr]
    restored = second.status("c", "http://a.example/1")
    assert restored is not None
    assert (restored.queue.key, restored.metadata) == ("shop", {"depth": ("0",)})
    assert second.status("gone", "http://a.example/in-a-deleted-crawl") is None


def _allow(url: str) -> Verdict:
    return Verdict(url, Decision.ALLOW, Reason.ALLOWED)


def test_a_url_refused_after_queuing_is_forgotten_by_the_journal(
    clock: ManualClock, tmp_path: Path
) -> None:
    node, _ = journaled(clock, tmp_path)
    node.put("", Incoming("http://a.example/private"))
    disallow = Verdict("", Decision.DISALLOW, Reason.ROBOTS_DISALLOW)
    assert node.take(lambda url: disallow._replace(url=url)).handed == []
    assert node.status("", "http://a.example/private").state is URLState.REFUSED  # type: ignore[union-attr]
    assert state.load(core(clock), tmp_path) == 0


def test_the_journal_is_compacted_into_the_checkpoint(clock: ManualClock, tmp_path: Path) -> None:
    node = core(clock)
    kept = state.NodeState(tmp_path, compact_min=3)
    kept.open(node)
    node.put("", Incoming("http://a.example/1"))
    node.put("", Incoming("http://a.example/2"))
    assert not kept.compact_if_due(node)
    journal = tmp_path / state.JOURNAL_NAME
    assert journal.read_bytes().count(b"\n") == 3  # its head and two changes
    node.put("", Incoming("http://a.example/3"))
    assert kept.compact_if_due(node)
    assert journal.read_bytes().count(b"\n") == 1  # only its head
    node.put("", Incoming("http://a.example/1", known=True))
    assert state.load(second := core(clock), tmp_path) == 3
    assert second.status("", "http://a.example/1").state is URLState.DONE  # type: ignore[union-attr]


def test_a_journal_that_is_not_the_checkpoints_is_refused(
    clock: ManualClock, tmp_path: Path
) -> None:
    node, _ = journaled(clock, tmp_path)
    node.put("", Incoming("http://a.example/1"))
    journaled(clock, tmp_path / "other")
    (tmp_path / "other" / state.FILE_NAME).replace(tmp_path / state.FILE_NAME)
    with pytest.raises(DataError, match="does not belong"):
        state.load(core(clock), tmp_path)


def test_a_killed_node_loses_no_url_and_hands_out_no_reported_one_again(
    tmp_path: Path, httpserver: HTTPServer
) -> None:
    """A real node, SIGKILLed mid-crawl: every URL it acknowledged is there after the
    restart, and none it saw reported is handed out again."""
    httpserver.expect_request("/robots.txt").respond_with_data("User-agent: *\nAllow: /\n")
    base = httpserver.url_for("/")
    urls = [f"{base}page/{n}" for n in range(12)]
    process, address = serve(tmp_path, "--delay", "0")
    client = Client(address)
    reported: list[str] = []
    try:
        client.put(discovered(url) for url in urls[:8])
        reported += fetch_and_report(client, 5)
        (out,) = handed_out(client, 1)  # handed out, never reported
        client.put(discovered(url) for url in urls[8:])
    finally:
        client.close()
    process.kill()
    process.wait(timeout=30)

    process, address = serve(tmp_path, "--delay", "0")
    client = Client(address)
    handed: list[str] = []
    try:
        assert client.stub.CountURLs(pb.CountUrlParams(), timeout=10).value == len(urls)
        for url in reported:
            status = client.status(url).known.info.metadata[meta.STATE].values
            assert list(status) == ["done"]
        handed += fetch_and_report(client, len(urls) - len(reported))
        assert client.get() == []
        assert client.stats().size == 0
    finally:
        client.close()
        stop(process)
    assert out in handed  # out when the node died: handed out again
    assert sorted(handed + reported) == sorted(urls)  # each once, none lost


def handed_out(client: Client, count: int) -> list[str]:
    """The next ``count`` URLs GetURLs hands out (it asks again while the robots.txt
    of the host is fetched; a bounded number of times, so a bug cannot hang)."""
    urls: list[str] = []
    for _ in range(1000):
        urls += [info.url for info in client.get(max_urls_per_queue=count - len(urls))]
        if len(urls) >= count:
            return urls
        time.sleep(0.01)
    raise AssertionError(f"only {urls} handed out")


def fetch_and_report(client: Client, count: int) -> list[str]:
    """Take ``count`` URLs one by one, each reported fetched (200) before the next."""
    done: list[str] = []
    for _ in range(count):
        (url,) = handed_out(client, 1)
        client.put([known(url, **{meta.STATUS: "200"})])
        done.append(url)
    return done
