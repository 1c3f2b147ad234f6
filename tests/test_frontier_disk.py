"""The frontier on disk: a window of each queue in memory, the same order of service
as in memory, incremental checkpoints, and a damaged database refused in one line."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from robotkit.base.reasons import Reason
from robotkit.frontier import CheckpointError, ExactSeenSet, Frontier, FrontierEntry
from robotkit.frontier.lanes import SpillLane
from robotkit.url.parse import Origin

HOSTS = [Origin("http", f"h{i}.example", 80) for i in range(3)]


def fill(f: Frontier, n: int, start: int = 0) -> None:
    for i in range(start, start + n):
        url = f"http://h{i % 3}.example/{i}"
        f.add(url, url, i % 4, host=HOSTS[i % 3])


def served(f: Frontier, limit: int | None = None) -> list[str]:
    out: list[str] = []
    while (limit is None or len(out) < limit) and (entry := f.next(0.0)) is not None:
        out.append(entry.key)
        f.mark_done(entry)
    return out


def lanes(f: Frontier) -> list[SpillLane]:
    found = []
    for host in f.table.hosts.values():
        for lane in [*host.queues.values(), host.parked]:
            assert isinstance(lane, SpillLane)
            found.append(lane)
    return found


def test_memory_holds_a_window_and_the_order_is_the_in_memory_one(tmp_path: Path) -> None:
    memory, disk = Frontier(host_budget=150), Frontier(host_budget=150)
    disk.open_journal(tmp_path / "f", window=3)
    for f in (memory, disk):
        fill(f, 600)
        f.park_host(HOSTS[1], Reason.TRAP_HOST)
    assert all(len(lane.head) <= 3 and len(lane.tail) < 3 for lane in lanes(disk))
    assert sum(len(lane) for lane in lanes(disk)) == 600
    assert served(disk, 100) == served(memory, 100)
    assert all(len(lane.head) <= 3 for lane in lanes(disk))
    for f in (memory, disk):
        f.unpark_host(HOSTS[1])
        f.set_host_budget(None)
    assert served(disk) == served(memory)
    disk.close()


def test_a_checkpoint_keeps_only_what_is_queued(tmp_path: Path) -> None:
    path = tmp_path / "f"
    f = Frontier()
    f.open_journal(path, window=2)
    fill(f, 300)
    served(f, 120)
    f.checkpoint(path)
    rows = sqlite3.connect(path).execute("SELECT sum(n) FROM rows").fetchone()[0]
    assert rows == len(f) == 180  # the blocks of served URLs went with the checkpoint
    f.close()
    g = Frontier.restore(path)
    assert len(g) == 180 and len(g.seen) == 300
    assert all(not lane.head for lane in lanes(g))  # queues stay on disk until served
    assert len(served(g)) == 180
    g.close()


def test_the_seen_set_is_stored_as_the_digests_added_since(tmp_path: Path) -> None:
    path = tmp_path / "f"
    f = Frontier(seen=ExactSeenSet(16))
    f.open_journal(path, window=2)
    for round_ in range(4):
        fill(f, 50, start=round_ * 50)
        f.checkpoint(path)
    deltas = sqlite3.connect(path).execute("SELECT count(*) FROM seen_delta").fetchone()[0]
    assert deltas == 4
    f.close()
    g = Frontier.restore(path)
    assert len(g.seen) == 200 and "http://h1.example/199" in g.seen
    g.close()


def test_a_damaged_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "f"
    f = Frontier()
    f.open_journal(path, window=2)
    fill(f, 30)
    f.checkpoint(path)
    f.close()
    data = bytearray(path.read_bytes())
    data[100:4000] = b"\xff" * 3900
    path.write_bytes(bytes(data))
    with pytest.raises(CheckpointError):
        Frontier.restore(path)


def test_an_exact_seen_set_answers_while_it_grows() -> None:
    seen = ExactSeenSet(8)
    keys = [f"k{i}" for i in range(2000)]
    grew = 0
    for i, key in enumerate(keys):
        assert seen.add(key)
        if seen._old is not None:  # growing: the old table moves a few slots per add
            grew += 1
            assert all(k in seen for k in keys[: i + 1 : 37]) and not seen.add(keys[i // 2])
    assert grew > 0
    assert len(seen) == 2000 and all(k in seen for k in keys) and "k2000" not in seen


def test_a_frontier_entry_round_trips_through_the_database(tmp_path: Path) -> None:
    path = tmp_path / "f"
    f = Frontier()
    f.open_journal(path, window=1)
    odd = "http://h0.example/\udcff?é"  # a lone surrogate, as a hostile page may hold
    f.add("http://h0.example/a", "http://h0.example/a", 2, None, host=HOSTS[0])
    f.add(odd, "k\udcff", 2, "http://ref/\udcff", host=HOSTS[0])
    f.checkpoint(path)
    f.close()
    g = Frontier.restore(path)
    first = g.next(0.0)
    assert first is not None and first.key == "http://h0.example/a"
    g.mark_done(first)
    assert g.next(0.0) == FrontierEntry(odd, "k\udcff", 2, "http://ref/\udcff", HOSTS[0])
    g.close()
