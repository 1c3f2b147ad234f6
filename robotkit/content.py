"""Content fingerprints: duplicate pages, soft 404s and low-novelty trap regions.

URL rules (:mod:`robotkit.guard`) catch traps by shape; these catch the rest by what
the pages say. Three tools, each a small state machine fed by the crawler:

- :class:`ContentIndex`: an exact fingerprint of a page's visible text and a 64-bit
  SimHash (Charikar 2002; Manku, Jain and Das Sarma, WWW 2007) of its word
  shingles, so a page already seen under another URL is ``duplicate-content`` and
  its links are dropped or deprioritized.
- :class:`Soft404Detector`: a site that answers 200 for pages that do not exist is
  probed once per host and directory with a URL that cannot exist; pages that look
  like that answer are ``soft-404``.
- :class:`NoveltyTracker`: a URL template (``/item/{n}?page={n}``) or a host that
  keeps yielding near-identical pages is a trap region (``trap-host``); its remaining
  URLs are parked.

Pure core: no I/O and no clock. The crawler fetches (also the probes) and applies
the decisions.
"""

from __future__ import annotations

import html
import random
import re
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import Enum
from hashlib import blake2b
from itertools import pairwise
from typing import Any

from robotkit.normalization import NormalizedURL, normalize, normalize_or_none
from robotkit.reasons import CodeEnum, Reason
from robotkit.snapshot import header, listed, opened, reading, typed

__all__ = [
    "ContentConfig",
    "ContentIndex",
    "ContentMatch",
    "Fingerprint",
    "LinkAction",
    "MatchKind",
    "NoveltyConfig",
    "NoveltyTracker",
    "RegionScope",
    "SimHashIndex",
    "Soft404Config",
    "Soft404Detector",
    "TrapSignal",
    "echo_free_fingerprint",
    "fingerprint",
    "hamming",
    "simhash",
    "soft404_probe_url",
    "url_template",
    "visible_text",
]

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

_MASK64 = (1 << 64) - 1


def _hash64(text: str) -> int:
    data = text.encode("utf-8", "surrogatepass")
    return int.from_bytes(blake2b(data, digest_size=8).digest(), "big")


def _shingles(words: list[str], size: int) -> set[str]:
    """The distinct runs of ``size`` consecutive words; a page shorter than that is
    one shingle of all its words."""
    if len(words) <= size:
        return {" ".join(words)} if words else set()
    return {" ".join(words[i : i + size]) for i in range(len(words) - size + 1)}


def simhash(features: Iterable[int]) -> int:
    """Charikar's SimHash of 64-bit feature hashes, each weighing 1: bit ``b`` of the
    result is set when more than half of the features have bit ``b`` set.

    The per-bit counts are kept bit-sliced: ``planes[i]`` holds bit ``i`` of all 64
    counters, and adding a feature is a ripple-carry addition over the planes, a few
    big-integer operations instead of 64 Python steps per feature."""
    planes: list[int] = []
    count = 0
    for feature in features:
        count += 1
        carry = feature & _MASK64
        for i, plane in enumerate(planes):
            if not carry:
                break
            planes[i] = plane ^ carry
            carry &= plane
        if carry:
            planes.append(carry)
    result = 0
    for bit in range(64):
        votes = 0
        for i, plane in enumerate(planes):
            votes |= ((plane >> bit) & 1) << i
        if 2 * votes > count:
            result |= 1 << bit
    return result


def hamming(a: int, b: int) -> int:
    """Number of differing bits between two 64-bit fingerprints."""
    return (a ^ b).bit_count()


@dataclass(frozen=True)
class Fingerprint:
    """``exact``: blake2b (8 bytes) of the words of the normalized visible text
    (punctuation and markup do not count); ``simhash``: over
    its distinct ``shingle_size``-word shingles, each hashed with blake2b (8 bytes);
    ``words``: how many words the text has."""

    exact: int
    simhash: int
    words: int

    def distance(self, other: Fingerprint) -> int:
        return hamming(self.simhash, other.simhash)


def fingerprint(
    text_or_html: str,
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
    words = _WORD.findall(visible_text(text_or_html, max_chars))
    return _fingerprint_words(words, shingle_size, frozenset(ignore_words), mask_digits)


def _fingerprint_words(
    words: list[str], shingle_size: int, skip: frozenset[str], mask_digits: bool = True
) -> Fingerprint:
    if skip:
        words = [w for w in words if w not in skip]
    tokens = [_DIGITS.sub("0", w) for w in words] if mask_digits else words
    features = (_hash64(s) for s in _shingles(tokens, shingle_size))
    return Fingerprint(_hash64(" ".join(words)), simhash(features), len(words))


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


# --------------------------------------------------------------------------------------
# Duplicate content


class MatchKind(CodeEnum):
    NEW = "new"
    EXACT = "exact"
    """Same normalized visible text as a page already seen under another URL."""
    NEAR = "near"
    """SimHash within ``max_distance`` of a page seen under another URL."""


class LinkAction(CodeEnum):
    """What the crawler should do with the links of a page."""

    FOLLOW = "follow"
    DEPRIORITIZE = "deprioritize"
    DROP = "drop"


@dataclass(frozen=True)
class ContentConfig:
    """Defaults: ``max_distance`` 3 bits of 64, the threshold Manku et al. found
    best for web pages; 3-word shingles; exact duplicates' links dropped (they were
    all seen with the first copy), near duplicates' links deprioritized (a template
    page with a small change may still link somewhere new); digits masked in the
    SimHash (see :func:`fingerprint`), so pages differing only in numbers are near
    duplicates at distance 0, never exact ones."""

    max_distance: int = 3
    shingle_size: int = 3
    on_exact: LinkAction = LinkAction.DROP
    on_near: LinkAction = LinkAction.DEPRIORITIZE
    mask_digits: bool = True
    max_chars: int = MAX_TEXT_CHARS

    def __post_init__(self) -> None:
        if not 0 <= self.max_distance <= 15:
            raise ValueError("max_distance must be between 0 and 15")
        if self.shingle_size < 1:
            raise ValueError("shingle_size must be >= 1")


@dataclass(frozen=True)
class ContentMatch:
    """The verdict on one page's content: ``reason`` is ``duplicate-content`` for an
    exact or near duplicate of ``duplicate_of`` (a URL as added), else ``None``."""

    url: str
    kind: MatchKind
    fingerprint: Fingerprint
    links: LinkAction
    duplicate_of: str | None = None
    distance: int = 0

    @property
    def reason(self) -> Reason | None:
        return None if self.kind is MatchKind.NEW else Reason.DUPLICATE_CONTENT

    @property
    def is_novel(self) -> bool:
        return self.kind is MatchKind.NEW


class ContentIndex:
    """Remembers the fingerprint of every page added and says whether a new page
    repeats one already seen under another URL. Adding the same URL again (a
    re-fetch) is never a duplicate of itself."""

    def __init__(self, config: ContentConfig | None = None) -> None:
        self.config = config if config is not None else ContentConfig()
        self._exact: dict[int, str] = {}
        self._near = SimHashIndex(self.config.max_distance)

    def __len__(self) -> int:
        return len(self._exact)

    def fingerprint(self, text_or_html: str) -> Fingerprint:
        cfg = self.config
        return fingerprint(
            text_or_html, cfg.shingle_size, max_chars=cfg.max_chars, mask_digits=cfg.mask_digits
        )

    def lookup(self, url: str, text_or_html: str) -> ContentMatch:
        """The verdict without remembering the page."""
        return self._match(url, self.fingerprint(text_or_html))

    def add(self, url: str, text_or_html: str) -> ContentMatch:
        """The verdict, remembering the page if its content is new."""
        match = self._match(url, self.fingerprint(text_or_html))
        if match.kind is MatchKind.NEW:
            fp = match.fingerprint
            if self._exact.setdefault(fp.exact, url) == url:
                self._near.add(fp.simhash, url)
        return match

    def _match(self, url: str, fp: Fingerprint) -> ContentMatch:
        first = self._exact.get(fp.exact)
        if first is not None and first != url:
            return ContentMatch(url, MatchKind.EXACT, fp, self.config.on_exact, first)
        best: tuple[int, str] | None = None
        for other, distance in self._near.near(fp.simhash):
            if other != url and (best is None or distance < best[0]):
                best = (distance, other)
        if best is not None:
            return ContentMatch(url, MatchKind.NEAR, fp, self.config.on_near, best[1], best[0])
        return ContentMatch(url, MatchKind.NEW, fp, LinkAction.FOLLOW)

    def snapshot(self) -> dict[str, Any]:
        """The pages remembered, as JSON (the config is not state: it is given again
        to :meth:`restore`), so a resumed crawl still knows every page it saw."""
        return {
            **header("content-index", 1),
            "exact": [[value, url] for value, url in self._exact.items()],
            "near": [[value, url] for value, url in self._near.items()],
        }

    @classmethod
    def restore(cls, data: Any, config: ContentConfig | None = None) -> ContentIndex:
        """The index :meth:`snapshot` described; :class:`SnapshotError` if ``data``
        is not one."""
        with reading("content index"):
            data = opened(data, "content-index", 1)
            index = cls(config)
            for value, url in listed(data["exact"], "exact", list):
                index._exact[typed(value, int, "exact hash")] = typed(url, str, "url")
            for value, url in listed(data["near"], "near", list):
                index._near.add(typed(value, int, "simhash"), typed(url, str, "url"))
        return index


# --------------------------------------------------------------------------------------
# Soft 404s


def _directory(norm: NormalizedURL, depth: int) -> str:
    """The origin plus at most ``depth`` directory segments of the path, ending in /."""
    segments = norm.path.split("/")[1:-1]  # the last piece names a page, not a dir
    return "".join([str(norm.origin), "/", *(f"{seg}/" for seg in segments[:depth])])


def soft404_probe_url(url: str, rng: random.Random, depth: int = 1) -> str:
    """A URL next to ``url`` that cannot exist: ``<dir>/robotkit-probe-<16 hex>``,
    where ``<dir>`` is the origin plus at most ``depth`` directory segments.
    Raises :class:`InvalidURL` for a URL that cannot be fetched."""
    token = f"{rng.getrandbits(64):016x}"
    return f"{_directory(normalize(url), depth)}robotkit-probe-{token}"


@dataclass(frozen=True)
class Soft404Config:
    """``directory_depth`` 1: one probe per host and per first-level directory,
    because a site often runs different software under ``/blog/`` and ``/shop/``, but
    probing every directory would cost a request per directory. ``max_distance`` 5:
    looser than duplicate detection's 3 because a soft 404 page differs from the
    probe's answer by the requested path it echoes (whose words are ignored, but
    not always all of them), and still far below the ~32 bits that separate
    unrelated pages."""

    directory_depth: int = 1
    max_distance: int = 5
    shingle_size: int = 3
    title_max_distance: int | None = 24
    """A page with the same non-empty ``<title>`` as the probe's answer is a soft 404
    up to this distance: error pages that list fresh random links ("you may like
    these instead") drift 6 to 24 bits from one another on a short page, while
    unrelated pages sit near 32. ``None`` turns the title rule off."""

    def __post_init__(self) -> None:
        if self.directory_depth < 0:
            raise ValueError("directory_depth must be >= 0")
        if not 0 <= self.max_distance <= 32:
            raise ValueError("max_distance must be between 0 and 32")


class _ProbeState(Enum):
    PENDING = "pending"
    HONEST = "honest"
    SOFT = "soft"


PROBE_MAX_WORDS = 20_000
"""Words of a probe's answer kept (and of a page compared with it): far more than
any error page has, and a bound on what a directory's probe holds in memory."""


@dataclass(frozen=True)
class _Probe:
    state: _ProbeState
    fingerprint: Fingerprint | None = None
    redirect_target: str | None = None
    title: str = ""
    words: tuple[str, ...] = ()
    echo: frozenset[str] = frozenset()


class Soft404Detector:
    """Learns, per host and directory, what the site answers for a page that does
    not exist, and recognizes that answer on other URLs.

    Flow: ``probe = needs_probe(url)``; if not ``None`` the crawler fetches it
    (following redirects) and calls ``record_probe(probe, status, body, final_url)``;
    then ``classify(url, status, body, final_url)`` for pages under that directory.
    Only a probe answered with 2xx teaches anything: a 404 or 410 means the site is
    honest there, and a failed probe (pass ``status=None``) leaves it unknown.

    Never a soft 404: a non-2xx answer (it is a real error), the site root ``/``
    (a catch-all site serves its home page for unknown paths; the home page itself is
    real), the index of a probed directory (``/guide/`` when a catch-all serves it for
    every path below), and the URL the probe was redirected to.
    """

    def __init__(self, config: Soft404Config | None = None, rng: random.Random | None = None):
        self.config = config if config is not None else Soft404Config()
        self._rng = rng if rng is not None else random.Random()
        self._probes: dict[str, _Probe] = {}
        self._probe_dirs: dict[str, str] = {}

    def needs_probe(self, url: str) -> str | None:
        """The probe URL to fetch before pages of this directory can be classified,
        once per directory; ``None`` if already probed or pending, or if ``url`` is
        invalid."""
        norm = normalize_or_none(url)
        if norm is None:
            return None
        directory = _directory(norm, self.config.directory_depth)
        if directory in self._probes:
            return None
        self._probes[directory] = _Probe(_ProbeState.PENDING)
        probe = soft404_probe_url(norm.key, self._rng, self.config.directory_depth)
        self._probe_dirs[probe] = directory
        return probe

    def record_probe(
        self, probe_url: str, status: int | None, body: str = "", final_url: str | None = None
    ) -> None:
        """What the probe got: the final status after redirects (``None`` if the
        fetch failed), the body and the final URL."""
        directory = self._probe_dirs.pop(probe_url, None)
        if directory is None:
            norm = normalize_or_none(probe_url)
            if norm is None:
                return
            directory = _directory(norm, self.config.directory_depth)
        if status is None:
            self._probes.pop(directory, None)  # unknown: a later page may probe again
            return
        if not 200 <= status < 300:
            self._probes[directory] = _Probe(_ProbeState.HONEST)
            return
        final = _key(final_url) if final_url else None
        words = _WORD.findall(visible_text(body))[:PROBE_MAX_WORDS]
        echo = _path_words(probe_url)
        fp = _fingerprint_words(words, self.config.shingle_size, echo)
        target = final if final is not None and final != _key(probe_url) else None
        self._probes[directory] = _Probe(
            _ProbeState.SOFT, fp, target, page_title(body), tuple(words), echo
        )

    def classify(
        self, url: str, status: int, body: str, final_url: str | None = None
    ) -> Reason | None:
        """``soft-404`` if this 2xx answer looks like the directory's probe answer."""
        if not 200 <= status < 300:
            return None
        norm = normalize_or_none(url)
        if norm is None or norm.path == "/":
            return None
        if norm.query is None and f"{norm.origin}{norm.path}" in self._probes:
            return None  # the directory's own index page
        probe = self._known_probe(norm)
        if probe is None or probe.fingerprint is None:
            return None
        if probe.redirect_target is not None:
            # The probe's body is the redirect target's, a real page: only being sent
            # to the same place marks a soft 404, and the target itself is not one.
            final = _key(final_url) if final_url else None
            if final == probe.redirect_target and norm.key != final:
                return Reason.SOFT_404
            return None
        # Both answers lose the words of both paths: removing "to" or "a" that the
        # page's path echoes from the page alone would change the template's
        # shingles around every other "to" and hide the likeness.
        skip = _path_words(url) | probe.echo
        size = self.config.shingle_size
        words = _WORD.findall(visible_text(body))[:PROBE_MAX_WORDS]
        fp = _fingerprint_words(words, size, skip)
        ref = (
            probe.fingerprint
            if skip == probe.echo
            else _fingerprint_words(list(probe.words), size, skip)
        )
        distance = fp.distance(ref)
        if fp.exact == ref.exact or distance <= self.config.max_distance:
            return Reason.SOFT_404
        limit = self.config.title_max_distance
        if (
            limit is not None
            and probe.title
            and distance <= limit
            and page_title(body) == probe.title
        ):
            return Reason.SOFT_404
        return None

    def snapshot(self) -> dict[str, Any]:
        """The probe answers learned, per directory, as JSON. Probes still pending
        are left out: their answer never came, so a resumed crawl probes again."""
        probes = []
        for directory, probe in self._probes.items():
            if probe.state is _ProbeState.PENDING:
                continue
            fp = probe.fingerprint
            probes.append(
                {
                    "directory": directory,
                    "state": probe.state.value,
                    "fingerprint": None if fp is None else [fp.exact, fp.simhash, fp.words],
                    "redirect_target": probe.redirect_target,
                    "title": probe.title,
                    "words": list(probe.words),
                    "echo": sorted(probe.echo),
                }
            )
        return {**header("soft404", 1), "probes": probes}

    @classmethod
    def restore(
        cls,
        data: Any,
        config: Soft404Config | None = None,
        rng: random.Random | None = None,
    ) -> Soft404Detector:
        """The detector :meth:`snapshot` described; :class:`SnapshotError` if
        ``data`` is not one."""
        with reading("soft-404"):
            data = opened(data, "soft404", 1)
            detector = cls(config, rng)
            for item in listed(data["probes"], "probes", dict):
                fp = item["fingerprint"]
                target = item["redirect_target"]
                detector._probes[typed(item["directory"], str, "directory")] = _Probe(
                    _ProbeState(item["state"]),
                    None if fp is None else Fingerprint(*(typed(v, int, "fp") for v in fp[:3])),
                    None if target is None else typed(target, str, "redirect target"),
                    typed(item["title"], str, "title"),
                    tuple(listed(item["words"], "words", str)),
                    frozenset(listed(item["echo"], "echo", str)),
                )
        return detector

    def _known_probe(self, norm: NormalizedURL) -> _Probe | None:
        """The most specific finished probe: the URL's directory, else a parent."""
        for depth in range(self.config.directory_depth, -1, -1):
            probe = self._probes.get(_directory(norm, depth))
            if probe is not None and probe.state is not _ProbeState.PENDING:
                return probe if probe.state is _ProbeState.SOFT else None
        return None


def _key(url: str) -> str | None:
    norm = normalize_or_none(url)
    return norm.key if norm is not None else None


def echo_free_fingerprint(url: str, text_or_html: str, shingle_size: int = 3) -> Fingerprint:
    """The fingerprint of a page at ``url`` without the words of its own path and
    query. Pages that differ only by echoing their URL (``Index of /a/b/c/`` in a
    directory listing, a catch-all template that prints the path) come out equal,
    which the plain fingerprint cannot see."""
    return fingerprint(text_or_html, shingle_size, _path_words(url))


def _path_words(url: str) -> frozenset[str]:
    """Words of the path and query, the parts of a URL that error pages echo back
    ("Sorry, /blog/robotkit-probe-1f2e was not found"). They are left out when a page
    is compared with a probe's answer, so the echo of a different path does not make
    the same error page look different; the rest of a real page still differs."""
    norm = normalize_or_none(url)
    if norm is None:
        return frozenset()
    echoed = f"{norm.path} {norm.query or ''}"
    return frozenset(_WORD.findall(visible_text(echoed)))


# --------------------------------------------------------------------------------------
# Low novelty

_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I)
_HEX_ID = re.compile(r"\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b", re.I)


def _template_text(text: str) -> str:
    text = _UUID.sub("{id}", text)
    text = _HEX_ID.sub("{id}", text)
    return _DIGITS.sub("{n}", text)


def url_template(url: str | NormalizedURL) -> str | None:
    """The URL with its variable parts replaced: digit runs by ``{n}``, UUIDs and
    long hex ids by ``{id}``, query values by ``{n}`` or ``{v}``, query names sorted
    (``http://x/item/42?page=3`` is ``http://x/item/{n}?page={n}``). ``None`` for an
    invalid URL."""
    norm = url if isinstance(url, NormalizedURL) else normalize_or_none(url)
    if norm is None:
        return None
    path = _template_text(norm.path)
    if not norm.query:
        return f"{norm.origin}{path}"
    names = []
    for part in norm.query.split("&"):
        name, sep, value = part.partition("=")
        if sep:
            value = "{n}" if value.isdigit() else "{v}"
        names.append(f"{_template_text(name)}{sep}{value}")
    return f"{norm.origin}{path}?{'&'.join(sorted(names))}"


class RegionScope(CodeEnum):
    TEMPLATE = "template"
    HOST = "host"


@dataclass(frozen=True)
class TrapSignal:
    """A region found to be a trap: its URLs should be parked, not crawled."""

    scope: RegionScope
    region: str
    url: str
    detail: str
    reason: Reason = Reason.TRAP_HOST


@dataclass(frozen=True)
class NoveltyConfig:
    """A region is a trap when at least ``*_threshold`` of its last ``*_window``
    pages were not novel (exact or near duplicates, soft 404s). Defaults: 18 of 20
    per URL template, so a template needs 20 fetched pages before it can be judged
    and a few novel pages keep it alive; 95 of 100 per host, a host-wide stall that
    spares hosts whose duplicates are a minority. ``None`` disables a level."""

    template_window: int | None = 20
    template_threshold: int = 18
    host_window: int | None = 100
    host_threshold: int = 95
    similar_distance: int = 10
    """For :meth:`NoveltyTracker.observe_match`: a page within this many SimHash bits
    of one of its template's recent pages is not novel. Looser than duplicate
    detection's 3, because small generated pages (an empty calendar month) differ
    in a word or two, which moves a short page's SimHash by 3 to 12 bits, while
    different articles in one template stay 15 or more apart."""

    def __post_init__(self) -> None:
        for window, threshold in (
            (self.template_window, self.template_threshold),
            (self.host_window, self.host_threshold),
        ):
            if window is not None and not 1 <= threshold <= window:
                raise ValueError("a threshold must be between 1 and its window")
        if not 0 <= self.similar_distance <= 32:
            raise ValueError("similar_distance must be between 0 and 32")


class _Window:
    __slots__ = ("recent", "stale")

    def __init__(self, size: int) -> None:
        self.recent: deque[bool] = deque(maxlen=size)
        self.stale = 0

    def push(self, novel: bool) -> None:
        if len(self.recent) == self.recent.maxlen and not self.recent[0]:
            self.stale -= 1
        self.recent.append(novel)
        if not novel:
            self.stale += 1


class NoveltyTracker:
    """Watches how many recent pages of each URL template and each host were novel,
    and parks a region that stopped yielding anything new."""

    def __init__(self, config: NoveltyConfig | None = None) -> None:
        self.config = config if config is not None else NoveltyConfig()
        self._windows: dict[tuple[RegionScope, str], _Window] = {}
        self._parked: dict[tuple[RegionScope, str], TrapSignal] = {}
        self._recent: dict[str, deque[int]] = {}

    @property
    def parked(self) -> tuple[TrapSignal, ...]:
        return tuple(self._parked.values())

    def observe(self, url: str, is_novel: bool) -> TrapSignal | None:
        """Record one fetched page; returns a signal the first time its template or
        host becomes a trap region."""
        norm = normalize_or_none(url)
        if norm is None:
            return None
        cfg = self.config
        levels = (
            (RegionScope.TEMPLATE, url_template(norm), cfg.template_window, cfg.template_threshold),
            (RegionScope.HOST, str(norm.origin), cfg.host_window, cfg.host_threshold),
        )
        signal = None
        for scope, region, size, threshold in levels:
            if size is None or region is None or (scope, region) in self._parked:
                continue
            window = self._windows.get((scope, region))
            if window is None:
                window = self._windows[scope, region] = _Window(size)
            window.push(is_novel)
            if len(window.recent) == size and window.stale >= threshold:
                detail = (
                    f"{window.stale} of the last {size} pages of {scope} {region} were duplicates"
                )
                found = TrapSignal(scope, region, url, detail)
                self._parked[scope, region] = found
                del self._windows[scope, region]
                self._recent.pop(region, None)
                signal = signal or found
        return signal

    def observe_match(self, match: ContentMatch) -> TrapSignal | None:
        """:meth:`observe` with novelty judged from a :class:`ContentIndex` verdict:
        a page is novel when it is new to the index and also not within
        ``similar_distance`` bits of a recent page of its own URL template. Comparing
        only within the template keeps this cheap (at most ``template_window``
        comparisons) and safe (pages of other templates never count)."""
        novel = match.is_novel
        template = url_template(match.url)
        if template is not None and self.config.template_window is not None:
            recent = self._recent.get(template)
            if recent is None:
                recent = self._recent[template] = deque(maxlen=self.config.template_window)
            value = match.fingerprint.simhash
            if novel and any(hamming(value, old) <= self.config.similar_distance for old in recent):
                novel = False
            recent.append(value)
        return self.observe(match.url, novel)

    def snapshot(self) -> dict[str, Any]:
        """The windows, recent fingerprints and parked regions, as JSON, so a
        resumed crawl neither forgets a trap region nor judges one afresh."""
        return {
            **header("novelty", 1),
            "windows": [
                [str(scope), region, [int(novel) for novel in window.recent]]
                for (scope, region), window in self._windows.items()
            ],
            "recent": [[template, list(values)] for template, values in self._recent.items()],
            "parked": [
                [str(s.scope), s.region, s.url, s.detail, str(s.reason)]
                for s in self._parked.values()
            ],
        }

    @classmethod
    def restore(cls, data: Any, config: NoveltyConfig | None = None) -> NoveltyTracker:
        """The tracker :meth:`snapshot` described, with window sizes from
        ``config``; :class:`SnapshotError` if ``data`` is not one."""
        with reading("novelty"):
            data = opened(data, "novelty", 1)
            tracker = cls(config)
            cfg = tracker.config
            sizes = {RegionScope.TEMPLATE: cfg.template_window, RegionScope.HOST: cfg.host_window}
            for scope_code, region, recent in listed(data["windows"], "windows", list):
                scope = RegionScope(scope_code)
                size = sizes[scope]
                if size is None:
                    continue
                window = tracker._windows[scope, typed(region, str, "region")] = _Window(size)
                for novel in listed(recent, "window", int):
                    window.push(bool(novel))
            for template, values in listed(data["recent"], "recent", list):
                if cfg.template_window is not None:
                    tracker._recent[typed(template, str, "template")] = deque(
                        listed(values, "simhashes", int), maxlen=cfg.template_window
                    )
            for scope_code, region, url, detail, reason in listed(data["parked"], "parked", list):
                signal = TrapSignal(
                    RegionScope(scope_code),
                    typed(region, str, "region"),
                    typed(url, str, "url"),
                    typed(detail, str, "detail"),
                    Reason(reason),
                )
                tracker._parked[signal.scope, signal.region] = signal
        return tracker

    def is_parked(self, url: str) -> bool:
        """Whether ``url`` falls in a parked template or host."""
        return self.parked_by(url) is not None

    def parked_by(self, url: str) -> TrapSignal | None:
        """The signal that parked ``url``'s region, or ``None``."""
        if not self._parked:
            return None
        norm = normalize_or_none(url)
        if norm is None:
            return None
        found = self._parked.get((RegionScope.HOST, str(norm.origin)))
        if found is None:
            found = self._parked.get((RegionScope.TEMPLATE, url_template(norm) or ""))
        return found
