"""Page fingerprints: visible text, exact hashes and 64-bit SimHash (Charikar 2002;
Manku, Jain and Das Sarma, WWW 2007), and an index that finds near fingerprints.
The measure every content tool of :mod:`robotkit.content` compares pages with."""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from hashlib import blake2b
from itertools import pairwise

import numpy as np
import numpy.typing as npt

from robotkit.content.shingles import (
    ordered_shingles,
    shingle_hashes,
    simhash_of,
    text_simhash,
    word_hashes,
)
from robotkit.url.normalization import NormalizedURL, normalize_or_none

_Hashes = npt.NDArray[np.uint64]

# --------------------------------------------------------------------------------------
# Visible text

_HIDDEN_OPEN = re.compile(r"<!--|<(script|style|template|noscript)\b", re.IGNORECASE)
_HIDDEN_CLOSE = {
    name: re.compile(rf"</{name}\s*>", re.IGNORECASE)
    for name in ("script", "style", "template", "noscript")
}
_COMMENT_CLOSE = re.compile(r"-->")
# A tag: ``<`` then a letter, ``/``, ``!`` or ``?``, up to the next ``>``, never across
# another ``<``, so a stray ``<`` costs a bounded scan (no quadratic backtracking).
_TAG = re.compile(r"<[A-Za-z/!?][^<>]*>")
_TITLE = re.compile(r"<title\b[^<>]*>([^<]*)", re.IGNORECASE)
_WORD = re.compile(r"\w+")
_DIGITS = re.compile(r"\d+")
_WORD_BYTES = bytes(c if c >= 128 or chr(c).isalnum() or c == 95 else 32 for c in range(256))
"""Every ASCII byte that is no ``\\w`` character becomes a space; the rest, and every
byte of a multi-byte UTF-8 character, stay."""
_LOWER_WORD_BYTES = bytes(range(256)).lower().translate(_WORD_BYTES)
""":data:`_WORD_BYTES` after ASCII lower case: both in one ``bytes.translate``."""
_ASCII_BYTES = bytes(range(128))
_MAX_SYMBOLS = 32
"""Distinct non-ASCII non-word characters replaced one by one at most; a text with
more is cut by the regular expression instead."""

MAX_TEXT_CHARS = 2_000_000
"""Only the first 2 million characters of a body are read: enough for any real page,
and a bound on the work a hostile 10 MB body can cause."""


def visible_text(markup: str, max_chars: int = MAX_TEXT_CHARS) -> str:
    """The text a reader sees, normalized: script, style, template, noscript and
    comments removed, tags removed, entities decoded, whitespace collapsed, lower
    case. Linear in the input; plain text passes through unchanged but normalized."""
    markup = markup[:max_chars]
    pieces: list[str] = []
    pos = 0
    while True:
        found = _HIDDEN_OPEN.search(markup, pos)
        if found is None:
            pieces.append(markup[pos:])
            break
        pieces.append(markup[pos : found.start()])
        name = found.group(1)
        closer = _COMMENT_CLOSE if name is None else _HIDDEN_CLOSE[name.lower()]
        end = closer.search(markup, found.end())
        if end is None:
            break  # an unclosed script or comment hides the rest, as in a browser
        pos = end.end()
    text = _TAG.sub(" ", " ".join(pieces))
    return " ".join(html.unescape(text).lower().split())


def page_title(markup: str) -> str:
    """The normalized ``<title>`` text, or ``""``."""
    found = _TITLE.search(markup[:MAX_TEXT_CHARS])
    return " ".join(html.unescape(found.group(1)).lower().split()) if found else ""


# --------------------------------------------------------------------------------------
# Fingerprints


def _hash64(data: bytes) -> int:
    return int.from_bytes(blake2b(data, digest_size=8).digest(), "big")


def hamming(a: int, b: int) -> int:
    """Number of differing bits between two 64-bit fingerprints."""
    return (a ^ b).bit_count()


@dataclass(frozen=True)
class Fingerprint:
    """``exact``: blake2b (8 bytes) of the words of the normalized visible text
    (punctuation and markup do not count); ``simhash``: over its distinct
    ``shingle_size``-word shingles, hashed over arrays (:mod:`robotkit.content.shingles`);
    ``words``: how many words the text has."""

    exact: int
    simhash: int
    words: int

    def distance(self, other: Fingerprint) -> int:
        return hamming(self.simhash, other.simhash)


def fingerprint(
    text_or_html: str | PageText,
    shingle_size: int = 3,
    ignore_words: Iterable[str] = (),
    max_chars: int = MAX_TEXT_CHARS,
    mask_digits: bool = True,
) -> Fingerprint:
    """Fingerprint a page (HTML or plain text).

    With ``mask_digits`` every run of digits counts as ``0`` in the SimHash (never in
    the exact hash): pages that differ only in counters, dates, prices or page
    numbers, the usual difference between the pages of a calendar or a pagination
    trap, come out as near duplicates at distance 0 instead of a dozen bits apart on
    a small page. ``ignore_words`` are left out of both hashes: the soft-404 detector
    uses it to ignore the requested path that error pages echo back."""
    words = words_of(text_or_html, max_chars)
    return fingerprint_words(words, shingle_size, frozenset(ignore_words), mask_digits)


def visible_words(text_or_html: str, max_chars: int = MAX_TEXT_CHARS) -> list[str]:
    """The words of a page's visible text, in order."""
    return split_words(visible_text(text_or_html, max_chars))


def _non_ascii(data: bytes) -> str:
    """The non-ASCII characters of UTF-8 ``data``, in order: few on most pages, so
    what is done per character is done on this short rest."""
    return data.translate(None, _ASCII_BYTES).decode("utf-8", "surrogatepass")


def split_words(text: str, *, lower: bool = False) -> list[str]:
    """The runs of word characters (``\\w+``: ``str.isalnum()`` or ``_``) of
    ``text``, in order: the same list as ``re.findall(r"\\w+", text)`` in a third
    of its time, by turning every other character into a space and splitting
    (ARCHITECTURE.md, "Page processing"). ASCII bytes are mapped in one
    ``bytes.translate``; the few distinct non-ASCII symbols a page uses (dashes,
    quotes, pilcrows) are replaced one by one, each a single C pass, since UTF-8
    never matches a character's bytes anywhere but at that character. With
    ``lower``, the words of ``text.lower()``: for an ASCII text (``str.lower()`` is
    then ASCII lower case) the same table lowers it, with no pass of its own."""
    ascii_text = text.isascii()
    if lower and not ascii_text:
        text = text.lower()
    data = text.encode("utf-8", "surrogatepass")
    if not ascii_text:
        symbols = [c for c in set(_non_ascii(data)) if not c.isalnum()]
        if len(symbols) > _MAX_SYMBOLS:
            return _WORD.findall(text)
        for symbol in symbols:
            data = data.replace(symbol.encode("utf-8", "surrogatepass"), b" ")
    table = _LOWER_WORD_BYTES if lower else _WORD_BYTES
    return data.translate(table).decode("utf-8", "surrogatepass").split()


@dataclass(frozen=True)
class PageText:
    """A page's visible words and title, read from its markup once. The content
    tools a crawl runs on every page (duplicates, soft 404s, echoes, novelty) all
    accept one instead of the markup, so the page is read once, not once per tool."""

    words: list[str]
    title: str

    @classmethod
    def of(cls, text_or_html: str, max_chars: int = MAX_TEXT_CHARS) -> PageText:
        return cls(visible_words(text_or_html, max_chars), page_title(text_or_html))

    @classmethod
    def of_text(cls, text: str, title: str) -> PageText:
        """From what an HTML5 parser already read: the visible text, entities
        decoded, and the title, cut into words and normalized as :meth:`of` does."""
        return cls(split_words(text, lower=True), " ".join(title.lower().split()))


def words_of(page: str | PageText, max_chars: int = MAX_TEXT_CHARS) -> list[str]:
    """The visible words of markup, or of a page already read."""
    return page.words if isinstance(page, PageText) else visible_words(page, max_chars)


def title_of(page: str | PageText) -> str:
    """The normalized title of markup, or of a page already read."""
    return page.title if isinstance(page, PageText) else page_title(page)


def fingerprint_words(
    words: Sequence[str], shingle_size: int, skip: frozenset[str], mask_digits: bool = True
) -> Fingerprint:
    if skip and not skip.isdisjoint(words):
        words = [w for w in words if w not in skip]
    joined = " ".join(words)
    data = joined.encode("utf-8", "surrogatepass")
    # Digits never hold a space, so masking the joined text masks every word.
    tokens = masked_digits(joined, data) if mask_digits else data
    return Fingerprint(_hash64(data), text_simhash(tokens, shingle_size), len(words))


Reading = tuple[frozenset[str], bool, int]
"""How a page is fingerprinted: the words left out, whether digits are masked, and
the shingle size (:func:`fingerprint_words`'s ``skip``, ``mask_digits`` and
``shingle_size``)."""


def fingerprint_readings(page: str | PageText, readings: Sequence[Reading]) -> list[Fingerprint]:
    """One fingerprint of ``page`` per reading, each equal to
    ``fingerprint_words(words, size, skip, mask)``, from one hashing of its words.

    The triage fingerprints every page twice (the content index's reading, digits
    counted, and the echo-free one, its URL's words left out and digits masked).
    A word's hash does not depend on where it stands (:func:`robotkit.content.shingles.word_hashes`)
    and masking never joins or splits words, so the hashes of the words a reading
    keeps are a selection of the hashes of all the words, plain or masked: both
    lists come from one hashing pass, and readings that keep every word of the same
    text share one SimHash. ARCHITECTURE.md, "Page processing"."""
    words = words_of(page)
    joined = " ".join(words)
    data = joined.encode("utf-8", "surrogatepass")
    masked = masked_digits(joined, data) if any(mask for _, mask, _ in readings) else data
    hashes: dict[bytes, _Hashes]
    if masked != data:
        # Both texts hashed in one pass over them side by side: each word's hash is
        # its own wherever it stands, so the first len(words) are the plain text's.
        both = word_hashes(data + b" " + masked)
        hashes = {data: both[: len(words)], masked: both[len(words) :]}
    else:
        hashes = {data: word_hashes(data)}
    simhashes: dict[tuple[bytes, int], int] = {}
    found: list[Fingerprint] = []
    for skip, mask, size in readings:
        text = masked if mask else data
        if skip and not skip.isdisjoint(words):
            keep = np.array([w not in skip for w in words], dtype=bool)
            kept = [w for w in words if w not in skip]
            exact = _hash64(" ".join(kept).encode("utf-8", "surrogatepass"))
            simhash = simhash_of(shingle_hashes(hashes[text][keep], size))
            found.append(Fingerprint(exact, simhash, len(kept)))
        else:
            if (text, size) not in simhashes:
                simhashes[text, size] = simhash_of(shingle_hashes(hashes[text], size))
            found.append(Fingerprint(_hash64(data), simhashes[text, size], len(words)))
    return found


_ZERO_DIGITS = bytes.maketrans(b"123456789", b"000000000")
_ZERO_RUN = re.compile(rb"00+")


def masked_digits(text: str, data: bytes) -> bytes:
    """``text`` (whose UTF-8 is ``data``) with every run of digits (``\\d+``) as one
    ``0``, in UTF-8: ``re.sub(r"\\d+", "0", text)`` without a Python call per run (a
    page of figures has thousands). ASCII digits become ``0`` in one
    ``bytes.translate``, then each run of ``0`` one ``0`` by a bytes pattern with a
    literal replacement (no Python call per run; fewer passes than halving the
    runs, which took one pass per doubling of the longest); a text with digits of
    another script goes through the regular expression."""
    if not text.isascii() and _DIGITS.search(_non_ascii(data)):
        return _DIGITS.sub("0", text).encode("utf-8", "surrogatepass")
    data = data.translate(_ZERO_DIGITS)
    return _ZERO_RUN.sub(b"0", data) if b"00" in data else data


class SimHashIndex:
    """Finds stored 64-bit fingerprints within Hamming distance ``k`` of a query
    without scanning them all.

    Split the 64 bits into ``k + 1`` bands: two fingerprints differing in at most
    ``k`` bits agree exactly on at least one band (pigeonhole), so only the entries
    sharing a band value with the query are compared. With 16-bit bands (``k = 3``)
    a query looks at about ``4 N / 65536`` candidates for random fingerprints (the
    table method of Manku et al., WWW 2007, with one table per band)."""

    def __init__(self, k: int = 3) -> None:
        if not 0 <= k <= 15:
            raise ValueError("k must be between 0 and 15")
        self.k = k
        bands = k + 1
        edges = [round(i * 64 / bands) for i in range(bands + 1)]
        self._bands: list[tuple[int, int, dict[int, list[tuple[int, str]]]]] = [
            (lo, (1 << (hi - lo)) - 1, {}) for lo, hi in pairwise(edges)
        ]
        self._size = 0
        self.comparisons = 0
        """How many candidates were compared, for tests and benchmarks."""

    def __len__(self) -> int:
        return self._size

    def add(self, value: int, item: str) -> None:
        for shift, mask, table in self._bands:
            table.setdefault((value >> shift) & mask, []).append((value, item))
        self._size += 1

    def items(self) -> Iterator[tuple[int, str]]:
        """Every stored ``(value, item)``, each once (the first band holds them all)."""
        for bucket in self._bands[0][2].values():
            yield from bucket

    def near(self, value: int, k: int | None = None) -> Iterator[tuple[str, int]]:
        """Stored items within ``k`` (default the index's ``k``, at most that) of
        ``value``, each once, as ``(item, distance)``."""
        limit = self.k if k is None else min(k, self.k)
        seen: set[tuple[int, str]] = set()
        for shift, mask, table in self._bands:
            for entry in table.get((value >> shift) & mask, ()):
                self.comparisons += 1
                distance = hamming(entry[0], value)
                if distance <= limit and entry not in seen:
                    seen.add(entry)
                    yield entry[1], distance


def echo_free_fingerprint(
    url: str | NormalizedURL, text_or_html: str | PageText, shingle_size: int = 3
) -> Fingerprint:
    """The fingerprint of a page at ``url`` without the words of its own path and
    query. Pages that differ only by echoing their URL (``Index of /a/b/c/`` in a
    directory listing, a catch-all template that prints the path) come out equal,
    which the plain fingerprint cannot see."""
    return fingerprint(text_or_html, shingle_size, path_words(url))


def echo_free_reading(url: str | NormalizedURL, shingle_size: int = 3) -> Reading:
    """The reading of :func:`echo_free_fingerprint`, for :func:`fingerprint_readings`."""
    return (path_words(url), True, shingle_size)


def path_words(url: str | NormalizedURL) -> frozenset[str]:
    """Words of the path and query, the parts of a URL that error pages echo back
    ("Sorry, /blog/robotkit-probe-1f2e was not found"). They are left out when a page
    is compared with a probe's answer, so the echo of a different path does not make
    the same error page look different; the rest of a real page still differs."""
    norm = normalize_or_none(url)
    if norm is None:
        return frozenset()
    echoed = f"{norm.path} {norm.query or ''}"
    return frozenset(visible_words(echoed))


def unechoed(words: Iterable[str], url: str | NormalizedURL) -> list[str]:
    """``words`` without those its URL echoes, a word of four letters or more inside a
    word of its path or query (a title naming a notice by its id's tail, "Post 00M7DJ"
    of ``/notice/AZ…00M7DJ``: blind12 ``pleroma``). Numbers stay: "Build 41 passed"
    and "Build 42 passed" are two pages."""
    echoed = path_words(url)
    return [w for w in words if w.isdigit() or len(w) < 4 or not any(w in e for e in echoed)]


_ANCHOR = re.compile(r"<(/?)a\b[^<>]*>", re.IGNORECASE)


def prose_words(markup: str, max_chars: int = MAX_TEXT_CHARS) -> list[str]:
    """The visible words of markup outside its links (``<a>`` elements): what a page
    says in its own sentences, not the names of the pages it lists. One pass over
    the link tags; an unclosed link hides the rest, as the text a reader would click."""
    markup = markup[:max_chars]
    pieces: list[str] = []
    pos = 0
    inside = False
    for tag in _ANCHOR.finditer(markup):
        if not inside:
            pieces.append(markup[pos : tag.start()])
        inside = not tag.group(1)
        pos = tag.end()
    if not inside:
        pieces.append(markup[pos:])
    return visible_words(" ".join(pieces), max_chars)


def passage_shingles(words: Sequence[str], size: int) -> list[int]:
    """The hashes of the runs of ``size`` of ``words``, digits masked, in text
    order: where a page says something its site has not said, these are new several
    in a row (a new sentence); where a page lists known items in another order or
    subset, only the few that straddle two items are."""
    joined = " ".join(words)
    data = joined.encode("utf-8", "surrogatepass")
    hashes = ordered_shingles(word_hashes(masked_digits(joined, data)), size)
    return [int(h) for h in hashes]
