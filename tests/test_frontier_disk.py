"""The frontier on disk: a window of each queue in memory, the same order of service
as in memory, incremental checkpoints, and a damaged database refused in one line."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest

from robotkit.base.reasons import Reason
from robotkit.frontier import CheckpointError, ExactSeenSet, Frontier, FrontierEntry, Tier
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


def on_disk(path: Path, n: int, window: int = 2) -> Frontier:
    """A frontier on disk at ``path`` holding ``n`` URLs."""
    f = Frontier()
    f.open_journal(path, window=window)
    fill(f, n)
    return f


def saved(path: Path, n: int) -> None:
    """A frontier on disk of ``n`` URLs checkpointed to ``path`` and closed."""
    f = on_disk(path, n)
    f.checkpoint(path)
    f.close()


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
    f = on_disk(path, 300)
    served(f, 120)
    f.checkpoint(path)
    assert stored(path) == len(f) == 180  # the blocks of served URLs went with it
    f.close()
    g = Frontier.restore(path)
    assert len(g) == 180 and len(g.seen) == 300
    assert all(not lane.head for lane in lanes(g))  # queues stay on disk until served
    assert len(served(g)) == 180
    g.close()


def stored(path: Path) -> int:
    """Entries the database holds queued; asserts that no row of a lane lies before
    its first block and that a block partly served is the first one."""
    db = sqlite3.connect(path)
    total = 0
    for (data,) in db.execute("SELECT data FROM hosts"):
        row = json.loads(data)
        for ident, first, hi, count, skip in [r[1:] for r in row[5]] + [row[6]]:
            (before,) = db.execute(
                "SELECT count(*) FROM rows WHERE lane=? AND seq<?", (ident, first)
            ).fetchone()
            (n,) = db.execute(
                "SELECT coalesce(sum(n), 0) FROM rows WHERE lane=? AND seq>=? AND seq<?",
                (ident, first, hi),
            ).fetchone()
            assert before == 0 and n - skip == count and 0 <= skip < max(n, 1)
            total += count
    db.close()
    return total


def rows_of(path: Path) -> list[tuple[int, int, bytes]]:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT lane, seq, block FROM rows ORDER BY lane, seq").fetchall()


def test_a_checkpoint_writes_only_the_rows_that_changed(tmp_path: Path) -> None:
    """Serving URLs writes no block (the lane's range counts what was served of
    its first one); a tail growing over several checkpoints is written over its
    own partial block, not as blocks of one URL."""
    path = tmp_path / "f"
    f = on_disk(path, 120, window=4)
    served(f, 2)
    f.checkpoint(path)
    before = rows_of(path)
    served(f, 5)  # from each host's first lane: within the block its head came from
    f.checkpoint(path)
    assert rows_of(path) == before and stored(path) == len(f) == 113
    blocks = len(before)
    for i in range(120, 132):  # one URL a checkpoint to one lane
        f.add(f"http://h0.example/x{i}", f"http://h0.example/x{i}", 3, host=HOSTS[0])
        f.checkpoint(path)
        assert stored(path) == len(f)
    assert len(rows_of(path)) <= blocks + 3 + 1  # 12 URLs in blocks of 4, and one partial
    f.close()
    g = Frontier.restore(path)
    assert len(g) == 125 and stored(path) == 125
    g.close()


def test_a_host_named_by_two_equal_origins_is_one_host_row(tmp_path: Path) -> None:
    """The hosts of queued URLs are noted by object until the checkpoint, which
    makes equal origins one host again."""
    path = tmp_path / "f"
    f = Frontier()
    f.open_journal(path, window=2)
    for i in range(6):
        origin = Origin("http", "h0.example", 80)  # a new object each time
        f.add(f"http://h0.example/{i}", f"http://h0.example/{i}", 0, host=origin)
    f.checkpoint(path)
    f.close()
    assert sqlite3.connect(path).execute("SELECT count(*) FROM hosts").fetchone() == (1,)
    g = Frontier.restore(path)
    assert served(g) == [f"http://h0.example/{i}" for i in range(6)]
    g.close()


def test_restored_between_any_two_operations_it_serves_as_memory_does(tmp_path: Path) -> None:
    """One host (so which host goes next is not in question): adds at four depths,
    URLs served, put back, demoted, the host parked and unparked, checkpoints and
    restores (a close without a checkpoint: the journal replays) at random points.
    The disk frontier serves what one kept in memory serves, in the same order."""
    rng = random.Random(7)
    path = tmp_path / "f"
    memory, disk = Frontier(), Frontier()
    disk.open_journal(path, window=2)
    host = HOSTS[0]
    for step in range(2000):
        op = rng.random()
        if op < 0.45:
            url = f"http://h0.example/{step}"
            depth = rng.randrange(4)
            for f in (memory, disk):
                f.add(url, url, depth, host=host)
        elif op < 0.85:
            got = [f.next(0.0) for f in (memory, disk)]
            assert got[0] == got[1], step
            then = rng.random()
            for f, entry in zip((memory, disk), got, strict=True):
                if entry is None:
                    continue
                if then < 0.15:
                    f.requeue(entry)
                elif then < 0.25 and entry.tier is Tier.MAIN:
                    f.demote(entry)
                else:
                    f.mark_done(entry)
        elif op < 0.88:
            park = rng.random() < 0.5
            for f in (memory, disk):
                f.park_host(host) if park else f.unpark_host(host)
        elif op < 0.96:
            disk.checkpoint(path)
            assert stored(path) == len(disk) + disk.stats().parked
        else:
            disk.close()
            disk = Frontier.restore(path)
            disk.open_journal(path)
    assert len(disk) + disk.stats().parked == len(memory) + memory.stats().parked > 0
    for f in (memory, disk):
        f.unpark_host(host)
    assert served(disk) == served(memory)
    disk.close()


def test_a_database_of_version_1_is_read(tmp_path: Path) -> None:
    """Version 1 stored a lane's range without the count of served entries."""
    path = tmp_path / "f"
    saved(path, 30)
    db = sqlite3.connect(path)
    for key, data in db.execute("SELECT host, data FROM hosts").fetchall():
        row = json.loads(data)
        assert all(r[-1] == 0 for r in row[5]) and row[6][-1] == 0
        row[5] = [r[:-1] for r in row[5]]
        row[6] = row[6][:-1]
        db.execute("UPDATE hosts SET data=? WHERE host=?", (json.dumps(row), key))
    db.execute("UPDATE meta SET v='1' WHERE k='version'")
    db.commit()
    db.close()
    g = Frontier.restore(path)
    assert len(served(g)) == 30
    g.close()


def test_blocks_go_in_a_table_with_rowids_and_one_without_is_read(tmp_path: Path) -> None:
    """Blocks are written in the order they come (a rowid table, the lane and
    block its index); a database whose rows are keyed by lane and block alone, as
    robotkit wrote them before, is restored and goes on the same."""
    path, expected = tmp_path / "f", tmp_path / "g"
    for where in (path, expected):
        f = on_disk(where, 60)
        served(f, 10)
        f.checkpoint(where)
        f.close()
    db = sqlite3.connect(path)
    (schema,) = db.execute("SELECT sql FROM sqlite_master WHERE name = 'rows'").fetchone()
    assert "WITHOUT ROWID" not in schema
    db.executescript(
        f"BEGIN; ALTER TABLE rows RENAME TO old; {schema} WITHOUT ROWID; "
        "INSERT INTO rows SELECT * FROM old; DROP TABLE old; COMMIT;"
    )
    db.close()
    out = []
    for where in (path, expected):
        g = Frontier.restore(where)
        got = served(g, 20)
        fill(g, 30, start=100)
        g.checkpoint(where)
        g.close()
        h = Frontier.restore(where)
        out.append(got + served(h))
        h.close()
    assert out[0] == out[1] and len(out[0]) == 80


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
    saved(path, 30)
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
