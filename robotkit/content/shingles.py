"""Word shingles and their SimHash, computed over whole arrays instead of word by word.

A page's near-duplicate fingerprint is Charikar's SimHash over the distinct runs of
``size`` consecutive words (shingles): bit ``b`` of the result is set when more than
half of the shingles' 64-bit hashes have bit ``b`` set. Done one shingle at a time in
Python this costs several milliseconds on a 30 KB page, more than fetching it.

Here every step is one array operation (numpy), so the cost per page is a few
hundred microseconds whatever its length:

1. The words, joined by single spaces, become one byte array. The hash of every
   word is a polynomial hash taken from one prefix sum: with
   ``S[i] = sum(c[j] * R**j for j < i)`` (arithmetic modulo 2**64, which numpy's
   ``uint64`` wraps to for free), the word at ``[s, e)`` hashes to
   ``(S[e] - S[s]) * R**-s``, the same value wherever the word stands (``R`` is odd,
   so it has an inverse modulo 2**64). The word's length is mixed in, and a
   SplitMix64 finaliser spreads every input bit over all 64 output bits.
2. A shingle's hash combines its words' hashes as a polynomial in a fixed odd base
   (so their order counts) and the same finaliser, for all shingles at once;
   ``numpy.unique`` keeps the distinct ones.
3. The 64 bit counts are one ``unpackbits`` and one column sum (``einsum``).

The hashes are deterministic (no per-process seed, unlike Python's ``hash``), so a
fingerprint saved with a crawl's state means the same after a restart.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

_U64 = npt.NDArray[np.uint64]

_R = 0x100000001B3
"""The polynomial's base: FNV-1a's 64-bit prime (odd, so invertible modulo 2**64)."""
_R_INVERSE = pow(_R, -1, 1 << 64)
_SHINGLE_BASE = 0x9E3779B97F4A7C15
"""Combines the words of a shingle: 2**64 divided by the golden ratio, odd, with its
bits well mixed (any such constant does)."""
_SPACE = 32


class _Powers:
    """``R**i`` and ``R**-i`` modulo 2**64 for i up to the longest text seen so far,
    grown by doubling, so a page pays for no power it does not need twice."""

    def __init__(self) -> None:
        self.up: _U64 = np.ones(1, dtype=np.uint64)
        self.down: _U64 = np.ones(1, dtype=np.uint64)

    def upto(self, n: int) -> tuple[_U64, _U64]:
        if len(self.up) < n:
            size = max(n, 2 * len(self.up), 4096)
            self.up = _geometric(_R, size)
            self.down = _geometric(_R_INVERSE, size)
        return self.up, self.down


def _geometric(ratio: int, size: int) -> _U64:
    steps = np.full(size, ratio, dtype=np.uint64)
    steps[0] = 1
    powers: _U64 = np.cumprod(steps, dtype=np.uint64)
    return powers


_POWERS = _Powers()


def mix64(values: _U64) -> _U64:
    """SplitMix64's finaliser on every element: each input bit flips about half of
    the output bits, which SimHash needs (its bits must be independent votes)."""
    values = values ^ (values >> np.uint64(30))
    values = values * np.uint64(0xBF58476D1CE4E5B9)
    values = values ^ (values >> np.uint64(27))
    values = values * np.uint64(0x94D049BB133111EB)
    mixed: _U64 = values ^ (values >> np.uint64(31))
    return mixed


def word_hashes(joined: str | bytes) -> _U64:
    """A 64-bit hash of every word of ``joined`` (words separated by single spaces;
    text, or its UTF-8 already encoded), in order; equal words get equal hashes.
    Empty text has no words."""
    if not joined:
        return np.zeros(0, dtype=np.uint64)
    encoded = joined if isinstance(joined, bytes) else joined.encode("utf-8", "surrogatepass")
    data = np.frombuffer(encoded, dtype=np.uint8)
    n = len(data)
    up, down = _POWERS.upto(n)
    prefix = np.zeros(n + 1, dtype=np.uint64)
    np.cumsum(data.astype(np.uint64) * up[:n], out=prefix[1:])
    spaces = np.flatnonzero(data == _SPACE)
    starts = np.concatenate((np.zeros(1, dtype=np.intp), spaces + 1))
    ends = np.concatenate((spaces, np.full(1, n, dtype=np.intp)))
    hashes = (prefix[ends] - prefix[starts]) * down[starts]
    return mix64(hashes ^ (ends - starts).astype(np.uint64))


def shingle_hashes(words: _U64, size: int) -> _U64:
    """The distinct hashes of the runs of ``size`` consecutive words; fewer words
    than that make one shingle of all of them."""
    return distinct(ordered_shingles(words, size)) if len(words) else words


def ordered_shingles(words: _U64, size: int) -> _U64:
    """The hash of every run of ``size`` consecutive words, in text order, repeats
    kept (where a new passage stands is read from them); fewer words than that make
    one shingle of all of them."""
    count = len(words)
    if count == 0:
        return words
    width = min(size, count)
    runs = count - width + 1
    # Horner's rule: word i of a run weighs _SHINGLE_BASE ** (width - 1 - i), a
    # different odd weight for every place, so the order of the words counts.
    combined = words[:runs].copy()
    for offset in range(1, width):
        combined = combined * np.uint64(_SHINGLE_BASE) + words[offset : offset + runs]
    return mix64(combined ^ np.uint64(width))


def distinct(values: _U64) -> _U64:
    """The distinct values, sorted: ``numpy.unique`` by one sort and one comparison of
    neighbours, several times faster than its hash table on a page's few hundred."""
    ordered = np.sort(values)
    keep = np.empty(len(ordered), dtype=bool)
    keep[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=keep[1:])
    kept: _U64 = ordered[keep]
    return kept


def simhash_of(features: _U64) -> int:
    """Charikar's SimHash of 64-bit features, each weighing 1; 0 without features."""
    if len(features) == 0:
        return 0
    # Each feature's 8 bytes, most significant first, so that column b of the bit
    # matrix is bit 63 - b of every feature.
    big_endian = features.astype(">u8").view(np.uint8)
    bits = np.unpackbits(big_endian).reshape(-1, 64)
    # The column sums by einsum's own loop into 32-bit counters: twice as fast as
    # ndarray.sum's widening to 64 bits, and no BLAS (whose threads a matrix
    # product of this size would wake).
    votes = np.einsum("ij->j", bits, dtype=np.int32)
    packed = np.packbits(2 * votes > len(features))
    return int.from_bytes(packed.tobytes(), "big")


def simhash(features: Iterable[int]) -> int:
    """Charikar's SimHash of 64-bit feature hashes given as Python integers."""
    array = np.fromiter((f & 0xFFFFFFFFFFFFFFFF for f in features), dtype=np.uint64)
    return simhash_of(array)


def text_simhash(joined: str | bytes, size: int) -> int:
    """The SimHash of the distinct ``size``-word shingles of ``joined``."""
    return simhash_of(shingle_hashes(word_hashes(joined), size))
