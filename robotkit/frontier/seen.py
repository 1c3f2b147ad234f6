"""Seen sets: has this crawl already met a URL (by its normalized key)?

A crawl meets the same URL over and over (every page links its home page), so the
frontier asks a seen set before queueing. Keys are the de-duplication keys of
:mod:`robotkit.url.parse` (never the URLs robots.txt rules match against). Two kinds,
one protocol (:class:`SeenSet`):

* :class:`ExactSeenSet` stores a 64-bit digest per key, not the key itself, in an
  open-addressing table: about 10 bytes per URL when sized ahead, at most 15 bytes
  per URL after growing. It grows without a stall: a few old slots move to the new
  table with each add (as Redis' dict rehashes), never the whole table at once.
  Two different URLs share a digest with probability about
  n**2 / 2**65 over the whole crawl (3 in a million at ten million URLs).
* :class:`BloomSeenSet` is a Bloom filter (rbloom): about 1.2 bytes per URL at a 1%
  error rate, 1.8 at 0.1%. Its error is one-sided and is paid in lost pages: a false
  positive means a URL never seen is reported as seen, and the crawl skips it.

Both hash with BLAKE2b rather than Python's ``hash()``, which is salted per process:
a checkpointed set must mean the same thing after a restart. A frontier on disk
stores a set as an image plus the digests added since (:meth:`SeenSet.fresh`), so
a checkpoint writes 8 or 16 bytes per new URL, not the whole set.
"""

from __future__ import annotations

import math
import sys
from array import array
from dataclasses import dataclass
from hashlib import blake2b
from typing import Final, Literal, Protocol, runtime_checkable

from rbloom import Bloom


def _encode(key: str) -> bytes:
    # surrogatepass: a lone surrogate in a hostile URL must not raise here.
    return key.encode("utf-8", "surrogatepass")


def digest64(key: str) -> int:
    """A 64-bit BLAKE2b digest of ``key``, never 0 (0 marks an empty slot)."""
    return int.from_bytes(blake2b(_encode(key), digest_size=8).digest(), "little") or 1


def digest96(key: str) -> int:
    """A 96-bit BLAKE2b digest of ``key``: three 32-bit hashes for a Bloom filter's
    triple hashing (the shared crawl's seen filters, :func:`robotkit.shared.crawl.hashes`)."""
    return int.from_bytes(blake2b(_encode(key), digest_size=12).digest(), "little")


def digest128(key: str) -> int:
    """A signed 128-bit BLAKE2b digest of ``key``: the range rbloom's hash_func takes."""
    return int.from_bytes(blake2b(_encode(key), digest_size=16).digest(), "little", signed=True)


SeenKind = Literal["exact", "bloom"]


@dataclass(frozen=True)
class SeenSnapshot:
    """Everything needed to rebuild a seen set: what a checkpoint stores."""

    kind: SeenKind
    count: int
    expected_items: int
    error_rate: float
    byteorder: str
    blobs: tuple[bytes, ...]


@runtime_checkable
class SeenSet(Protocol):
    """What the frontier needs from a seen set."""

    def add(self, key: str) -> bool:
        """Record ``key``; True if it was not in the set before."""
        ...

    def __contains__(self, key: object) -> bool: ...

    def __len__(self) -> int: ...

    @property
    def nbytes(self) -> int:
        """Bytes held by the structure's storage (not counting the Python object)."""
        ...

    def snapshot(self) -> SeenSnapshot: ...

    def fresh(self) -> bytes:
        """The digests added since the last call (recorded only once
        :meth:`log_fresh` has been called), and a fresh start."""
        ...

    def log_fresh(self) -> None:
        """Record from now on the digests of the keys added, for :meth:`fresh`."""
        ...

    def add_digests(self, digests: bytes) -> None:
        """Add the keys whose digests :meth:`fresh` gave (a restore)."""
        ...


class _FreshLog:
    """The digests a seen set took since it was last asked (see :meth:`SeenSet.fresh`)."""

    _fresh: bytearray | None = None

    def log_fresh(self) -> None:
        if self._fresh is None:
            self._fresh = bytearray()

    def fresh(self) -> bytes:
        out = bytes(self._fresh or b"")
        if self._fresh is not None:
            self._fresh.clear()
        return out


class ExactSeenSet(_FreshLog):
    """An exact seen set of 64-bit digests in a linear-probing table (``array('Q')``).

    Why not a Python ``set`` of ints: it costs 60 to 90 bytes per entry. This table
    costs 8 bytes per slot at a load of at most 0.8 and grows by 1.5 times, so a set
    holds between 10 and 15 bytes per URL (10 when ``expected_items`` was right).
    Slots are chosen by the digest's high bits (``digest * capacity >> 64``), which
    works for any capacity, not only powers of two.

    The table is a ``bytearray`` seen as 64-bit slots (a ``memoryview``), so that
    the run of full slots a probe meets is searched in C (:func:`_probe`), not
    slot by slot in Python: near a load of 0.8 the run is a dozen slots on
    average. Its bytes are those of an ``array('Q')``, as a checkpoint stores them.

    Growth is spread over the adds that follow it: the old table is kept, read-only,
    and each add moves ``MIGRATE`` of its slots into the new one (lookups read both
    until it is empty). The old table is gone well before the new one is full
    (``GROWTH - 1`` times ``MAX_LOAD`` adds later), so no single add pays for the
    whole table: at 7.7 million keys one add used to take 4.8 s.
    """

    MAX_LOAD = 0.8
    GROWTH = 1.5
    MIGRATE = 4

    def __init__(self, expected_items: int = 1024) -> None:
        if expected_items < 1:
            raise ValueError("expected_items must be at least 1")
        self._expected = expected_items
        self._table = self._empty(self._capacity_for(expected_items))
        self._old: memoryview | None = None  # the table being moved out, if any
        self._moved = 0  # slots of the old table moved so far
        self._count = 0
        self._limit = int(len(self._table) * self.MAX_LOAD)

    @classmethod
    def _capacity_for(cls, items: int) -> int:
        return max(8, math.ceil(items / cls.MAX_LOAD) + 1)

    @staticmethod
    def _empty(capacity: int) -> memoryview:
        return memoryview(bytearray(8 * capacity)).cast("Q")

    def add(self, key: str) -> bool:
        # digest64 written out: the frontier adds every URL it is offered.
        raw = blake2b(key.encode("utf-8", "surrogatepass"), digest_size=8).digest()
        return self._add(int.from_bytes(raw, "little") or 1)

    def _add(self, digest: int) -> bool:
        old = self._old
        if old is not None:
            if _probe(old, digest) < 0:
                return False
            self._migrate()
        table = self._table
        i = (digest * len(table)) >> 64
        if table[i]:  # its own slot is taken (a call saved while most are empty)
            i = _probe(table, digest)
            if i < 0:
                return False
        table[i] = digest
        self._count += 1
        if self._fresh is not None:
            self._fresh += digest.to_bytes(8, "little")
        if self._count > self._limit:
            self._grow()
        return True

    def _grow(self) -> None:
        self._finish_migration()
        self._old = self._table
        self._moved = 0
        self._table = self._empty(max(len(self._old) + 1, int(len(self._old) * self.GROWTH)))
        self._limit = int(len(self._table) * self.MAX_LOAD)

    def _migrate(self, slots: int = MIGRATE) -> None:
        """Move the next ``slots`` slots of the old table into the new one."""
        old = self._old
        assert old is not None
        table = self._table
        start = self._moved
        end = min(len(old), start + slots)
        for digest in old[start:end]:
            i = _probe(table, digest) if digest else -1
            if i >= 0:  # always, for a digest: the new table cannot hold it yet
                table[i] = digest
        self._moved = end
        if end == len(old):
            self._old = None

    def _finish_migration(self) -> None:
        if self._old is not None:
            self._migrate(len(self._old))

    def add_digests(self, digests: bytes) -> None:
        table: array[int] = array("Q")
        table.frombytes(digests)
        if sys.byteorder != "little":
            table.byteswap()
        for digest in table:
            self._add(digest)

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, str):
            return False
        digest = digest64(key)
        return _probe(self._table, digest) < 0 or (
            self._old is not None and _probe(self._old, digest) < 0
        )

    def __len__(self) -> int:
        return self._count

    @property
    def capacity(self) -> int:
        return len(self._table)

    @property
    def nbytes(self) -> int:
        return self._table.nbytes

    def snapshot(self) -> SeenSnapshot:
        self._finish_migration()
        return SeenSnapshot(
            "exact", self._count, self._expected, 0.0, sys.byteorder, (self._table.tobytes(),)
        )

    @classmethod
    def from_snapshot(cls, snap: SeenSnapshot) -> ExactSeenSet:
        if snap.kind != "exact" or len(snap.blobs) != 1 or len(snap.blobs[0]) % 8:
            raise ValueError("not an exact seen set snapshot")
        data = bytearray(snap.blobs[0])
        if snap.byteorder != sys.byteorder:
            words: array[int] = array("Q")
            words.frombytes(data)
            words.byteswap()
            data = bytearray(words)
        table = memoryview(data).cast("Q")
        if not 0 <= snap.count < len(table):
            raise ValueError("exact seen set snapshot: count does not fit its table")
        seen = cls.__new__(cls)
        seen._expected = snap.expected_items
        seen._table = table
        seen._old, seen._moved = None, 0
        seen._count = snap.count
        seen._limit = int(len(table) * cls.MAX_LOAD)
        return seen


_EMPTY: Final = bytes(8)
_REACH: Final = 2048
"""Bytes searched for an empty slot at first: CPython searches a long span in a
slower way (it prepares the pattern first), and a run of full slots is short."""


def _probe(table: memoryview, digest: int) -> int:
    """Linear probing for ``digest`` (never 0) in ``table`` from its slot: the
    empty slot it would take, or -1 if a slot holds it. The run of full slots
    from its own is searched in C: its end (the first empty slot), then the
    digest's bytes before it, a match that does not start a slot passed over."""
    i = (digest * len(table)) >> 64
    slot = table[i]
    if slot == 0:
        return i
    if slot == digest:
        return -1
    data: bytearray = table.obj  # type: ignore[assignment]
    raw = digest.to_bytes(8, sys.byteorder)
    start = 8 * i
    end = data.find(_EMPTY, start, start + _REACH)
    if end < 0:
        end = data.find(_EMPTY, start)
    while True:
        while end > 0 and end & 7:  # zeros across two slots, not an empty slot
            end = data.find(_EMPTY, (end | 7) + 1)
        stop = len(data) if end < 0 else end
        at = data.find(raw, start, stop)
        while at > 0 and at & 7:
            at = data.find(raw, at + 1, stop)
        if at >= 0:
            return -1
        if end >= 0:
            return end >> 3
        if start == 0:
            raise ValueError("an exact seen set's table has no empty slot")
        start, end = 0, data.find(_EMPTY)  # no slot is empty up to the end: from slot 0


class BloomSeenSet(_FreshLog):
    """A Bloom filter seen set (rbloom): about 1.2 bytes per URL at a 1% error rate.

    The trade-off: a false positive means a URL the crawl never met is reported as
    seen, so the frontier wrongly skips it as ``duplicate-url`` and that page is
    lost; there are no false negatives, so no URL is fetched twice. ``error_rate`` is
    the chance of that loss per new URL; the bits per URL are
    ``-ln(error_rate) / ln(2)**2`` (9.6 bits at 1%, 14.4 at 0.1%).

    The rate holds while the set has at most ``expected_items`` keys. Past that, a
    new filter of twice the capacity and half the error rate is chained on (a
    scalable Bloom filter, Almeida et al. 2007), so the compound rate stays below
    twice ``error_rate`` instead of climbing towards 1. ``len()`` counts the keys
    the filter took as new, so false positives make it slightly low.
    """

    GROWTH = 2
    TIGHTENING = 0.5

    def __init__(self, expected_items: int = 1_000_000, error_rate: float = 0.01) -> None:
        if expected_items < 1:
            raise ValueError("expected_items must be at least 1")
        if not 0.0 < error_rate < 1.0:
            raise ValueError("error_rate must be between 0 and 1")
        self._expected = expected_items
        self._error_rate = error_rate
        self._filters: list[Bloom] = [Bloom(expected_items, error_rate, int)]
        self._count = 0
        self._last_count = 0  # keys in the newest filter

    def _capacity(self, index: int) -> int:
        return int(self._expected * self.GROWTH**index)

    def _rate(self, index: int) -> float:
        return self._error_rate * self.TIGHTENING**index

    def add(self, key: str) -> bool:
        return self._add(digest128(key))

    def _add(self, digest: int) -> bool:
        for bloom in self._filters:
            if digest in bloom:
                return False
        if self._last_count >= self._capacity(len(self._filters) - 1):
            index = len(self._filters)
            self._filters.append(Bloom(self._capacity(index), self._rate(index), int))
            self._last_count = 0
        self._filters[-1].add(digest)
        self._last_count += 1
        self._count += 1
        if self._fresh is not None:
            self._fresh += digest.to_bytes(16, "little", signed=True)
        return True

    def add_digests(self, digests: bytes) -> None:
        for i in range(0, len(digests), 16):
            self._add(int.from_bytes(digests[i : i + 16], "little", signed=True))

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, str):
            return False
        digest = digest128(key)
        return any(digest in bloom for bloom in self._filters)

    def __len__(self) -> int:
        return self._count

    @property
    def error_rate(self) -> float:
        return self._error_rate

    @property
    def nbytes(self) -> int:
        return sum(int(bloom.size_in_bits) // 8 for bloom in self._filters)

    def snapshot(self) -> SeenSnapshot:
        return SeenSnapshot(
            "bloom",
            self._count,
            self._expected,
            self._error_rate,
            sys.byteorder,
            tuple(bloom.save_bytes() for bloom in self._filters),
        )

    @classmethod
    def from_snapshot(cls, snap: SeenSnapshot) -> BloomSeenSet:
        if snap.kind != "bloom" or not snap.blobs:
            raise ValueError("not a Bloom seen set snapshot")
        seen = cls.__new__(cls)
        seen._expected = snap.expected_items
        seen._error_rate = snap.error_rate
        try:
            seen._filters = [Bloom.load_bytes(blob, int) for blob in snap.blobs]
        except Exception as exc:  # rbloom raises its own errors on a bad blob
            raise ValueError(f"Bloom seen set snapshot: {exc}") from None
        seen._count = snap.count
        before = sum(seen._capacity(i) for i in range(len(snap.blobs) - 1))
        seen._last_count = max(0, snap.count - before)
        return seen


def seen_set_from_snapshot(snap: SeenSnapshot) -> ExactSeenSet | BloomSeenSet:
    """Rebuild the seen set a checkpoint stored."""
    if snap.kind == "exact":
        return ExactSeenSet.from_snapshot(snap)
    if snap.kind == "bloom":
        return BloomSeenSet.from_snapshot(snap)
    raise ValueError(f"unknown seen set kind {snap.kind!r}")


EXACT_UP_TO: Final = 20_000_000
"""Above this many expected URLs the default seen set is a Bloom filter: an exact
one would hold 200 MB or more (10 bytes a URL)."""


def seen_set_for(expected_urls: int | None) -> ExactSeenSet | BloomSeenSet:
    """The default seen set for a crawl expected to meet ``expected_urls`` URLs
    (None: unknown): exact and sized ahead up to :data:`EXACT_UP_TO`, else a Bloom
    filter at a 0.1% loss (1.8 bytes a URL)."""
    if expected_urls is None:
        return ExactSeenSet()
    if expected_urls <= EXACT_UP_TO:
        return ExactSeenSet(max(1, expected_urls))
    return BloomSeenSet(expected_urls, 0.001)
