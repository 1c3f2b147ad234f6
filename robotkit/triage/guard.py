"""URL-shape trap rules, with blacklists (:mod:`robotkit.triage.blacklist`): refuse a URL
before it is fetched.

A crawler trap is a site (often by accident) that hands a robot an endless supply
of URLs: calendars, relative links that keep appending a directory, session ids,
faceted search. Most traps show in the URL's shape, so these rules look only at the
URL, cost microseconds and need no network. Each rule has a name (:class:`Rule`), a
stable reason code (:class:`robotkit.base.reasons.Reason`), a default in
:class:`GuardConfig`, and is disabled by setting its limit to ``None``.

The guard is judged on two numbers at once, traps refused and legitimate pages kept,
so every default errs on the side of keeping a page that a human would find normal
(``/2024/01/01/post``, ``/docs/v1/docs/v2/``, Drupal's ``/sites/example.com/files/``).

Pure core: no I/O (except :meth:`Blacklist.from_file`, a convenience used once at
start-up) and no clock. The state is the auto-blacklist fed by
:meth:`Guard.report_trap_signal`, and the runs of relative links of the URLs a page
linked (``max_descents``; not saved with a snapshot: a resumed crawl starts its runs
again, two descents more at most).

Why this module is a little over 500 lines: every rule on a URL's shape, and the one
on a link's shape from its page, are one verdict with one precedence.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from hashlib import blake2b
from typing import Any

from cachetools import LRUCache

from robotkit.base.reasons import CodeEnum, Reason
from robotkit.base.snapshot import header, listed, opened, reading, typed
from robotkit.triage.blacklist import Blacklist, BlacklistEntry, BlacklistKind, BlacklistSyntaxError
from robotkit.url.descent import Step, step
from robotkit.url.nesting import nesting
from robotkit.url.normalization import NormalizedURL, NormalizePolicy, normalize, normalize_or_none
from robotkit.url.parse import InvalidURL

__all__ = [
    "SPELLING_RULES",
    "Blacklist",
    "BlacklistEntry",
    "BlacklistKind",
    "BlacklistSyntaxError",
    "Guard",
    "GuardConfig",
    "GuardVerdict",
    "RepeatedRun",
    "Rule",
    "WorkCounter",
    "find_repeated_run",
    "path_segments",
]


class Rule(CodeEnum):
    """The name of the rule behind a verdict; the value is a stable code for logs."""

    URL_SYNTAX = "url-syntax"
    """The URL cannot be fetched at all (reason ``invalid-url`` or ``unsupported-scheme``)."""
    URL_TOO_LONG = "url-too-long"
    PATH_TOO_DEEP = "path-too-deep"
    TOO_MANY_PARAMS = "too-many-params"
    REPEATED_PATH = "repeated-path"
    HOST_IN_PATH = "host-in-path"
    """The URL's own host name appears again and again inside its path (reason
    ``repeated-path``): the mark of a scheme-less link such as ``href="www.x.com/a"``
    being resolved relative to the page, once per crawl step."""
    NESTED_RETURN = "nested-return"
    """A return address in the query wraps another under its own name (reason
    ``repeated-path``): a click path the URL keeps, never a new page
    (:mod:`robotkit.url.nesting`)."""
    RELATIVE_DESCENT = "relative-descent"
    """The link descends beside its page once more in a run of links each under its
    page's directory (reason
    ``path-too-deep``): a relative link resolved against a directory page served
    without its slash, one level deeper per click (:mod:`robotkit.url.descent`)."""
    BLACKLIST = "blacklist"
    AUTO_BLACKLIST = "auto-blacklist"


MAX_RUNS = 100_000
"""URLs whose run of relative descents is remembered (a bound on memory; the least
recently linked are forgotten, and a forgotten run starts again)."""

SPELLING_RULES = frozenset({Rule.NESTED_RETURN, Rule.RELATIVE_DESCENT})
"""Rules that judge a URL as it is spelled, not the page its key names: a nested
return address is keyed as the page of the address it wraps, a real page another link
may name plainly (blind14 ``realestate``: a home first linked under a nested ``from=``
and later by a search page), so a refusal by them leaves the key to other spellings;
a relative descent judges the link from its page, and a page nearer a root may link
the same URL."""


@dataclass(frozen=True)
class GuardConfig:
    """Limits of the URL-shape rules; ``None`` disables a rule.

    Defaults and why:

    - ``max_url_length`` 2083: the longest URL Internet Explorer would request, long
      the de-facto ceiling sites design for; RFC 9110 section 4.1 recommends
      supporting at least 8000 octets, so raise it for sites known to need it.
    - ``max_path_depth`` 20 segments: Heritrix's ``TooManyPathSegmentsDecideRule``
      default. Real source trees (``/src/main/java/org/apache/...``) reach 12-16, so
      16 would cost legitimate pages; loops are caught sooner by ``repeated-path``.
    - ``max_query_params`` 32 distinct names: faceted search and analytics-heavy
      sites reach 15-20 legitimate parameter names (and repeat an array parameter
      such as ``brand[]`` once per value); a URL accumulating more names is almost
      always a facet or parameter-appending trap.
    - ``min_path_repeats`` 3: a segment or run of segments of any period repeated
      three times in a row (``/a/a/a``, ``/a/b/a/b/a/b``). Two repeats are common in
      real sites (``/1/1/``, ``/news/news/``), three almost never; Nutch's default URL
      filter draws the line at three as well.
    - ``max_host_in_path`` 1: the URL's host may appear once as a path segment
      (Drupal multisite serves ``/sites/example.com/files/``); a second occurrence
      (``/x/example.com/y/example.com/``) means a scheme-less relative link keeps
      being re-resolved.
    - ``max_return_nesting`` 0: a return address (``returnUrl=``, ``next=``,
      ``goto=``, SharePoint's ``Source=``: an address of the URL's own host with a
      query) may not wrap another of its name. A page that links a form or a view
      with its own URL as the way back (``/salaries?returnUrl=<this page>``), and is
      itself under a return address, nests one more level at each click; the
      nested page is the page at its first level, reached again by a longer path
      (blind15 ``jobs``: 803 of 1,463 trap fetches). None of the fifteen trap sets'
      real pages carries a return address with a query in it at all.
    - ``max_descents`` 2: links that descend beside their page
      (:func:`robotkit.url.descent.step`) may descend twice in a run of them
      (a journal's home, its archive, an issue: blind6 ``ojs``), never three times;
      a relative link resolved against a directory served without its slash goes one
      level deeper at every click (blind16 ``curlie``: 1,472 trap fetches to the cap).
    - ``auto_blacklist_after`` 25 trap signals under one region blacklist that
      region: enough that a handful of broken links never cost a directory. A
      region is either the query variants of one page (``http://x/shop?``, counting
      distinct URLs) or a directory (host plus ``auto_blacklist_depth`` directory
      segments, default 1, counting distinct paths), so that facets of one page
      never cost the rest of its host (:meth:`Guard.report_trap_signal`).
    """

    max_url_length: int | None = 2083
    max_path_depth: int | None = 20
    max_query_params: int | None = 32
    min_path_repeats: int | None = 3
    max_host_in_path: int | None = 1
    max_return_nesting: int | None = 0
    max_descents: int | None = 2
    auto_blacklist_after: int | None = 25
    auto_blacklist_depth: int = 1

    def __post_init__(self) -> None:
        for name in ("max_url_length", "max_path_depth", "max_query_params"):
            value = getattr(self, name)
            if value is not None and value < 0:
                raise ValueError(f"{name} must be >= 0 or None")
        if self.min_path_repeats is not None and self.min_path_repeats < 2:
            raise ValueError("min_path_repeats must be >= 2 or None")
        for name in ("max_host_in_path", "max_return_nesting", "max_descents"):
            value = getattr(self, name)
            if value is not None and value < 0:
                raise ValueError(f"{name} must be >= 0 or None")
        if self.auto_blacklist_after is not None and self.auto_blacklist_after < 1:
            raise ValueError("auto_blacklist_after must be >= 1 or None")
        if self.auto_blacklist_depth < 0:
            raise ValueError("auto_blacklist_depth must be >= 0")


@dataclass(frozen=True)
class GuardVerdict:
    """The guard's answer for one URL. ``rule`` is ``None`` when allowed."""

    url: str
    allowed: bool
    reason: Reason
    rule: Rule | None = None
    detail: str = ""


# --------------------------------------------------------------------------------------
# Repeated runs of path segments


@dataclass
class WorkCounter:
    """Counts the elementary steps of :func:`find_repeated_run`, so tests can show
    the cost grows near-linearly without timing anything."""

    ops: int = 0


@dataclass(frozen=True)
class RepeatedRun:
    """``unit`` occurs ``repeats`` times back to back from segment ``start``."""

    start: int
    unit: tuple[str, ...]
    repeats: int


_MOD = (1 << 61) - 1
_BASE = 0x5BD1E9955BD1E995 % _MOD


def find_repeated_run(
    segments: Sequence[str], min_repeats: int = 3, work: WorkCounter | None = None
) -> RepeatedRun | None:
    """The shortest-period run of segments repeated ``min_repeats`` times in a row.

    For a period ``p``, a run ``w^r`` with ``|w| = p`` is exactly a stretch of at
    least ``(r-1)p`` positions ``i`` where ``seg[i] == seg[i+p]``. Such a stretch is
    at least ``p`` long, so it contains a position ``j = kp - 1``: sampling those
    positions and measuring the longest common extension forwards and backwards
    (binary search over polynomial prefix hashes) finds every run. The cost is
    ``sum(n/p) * log n = O(n log^2 n)`` for ``n`` segments, instead of the
    ``O(n^2)`` of comparing every period at every position, or the exponential
    blow-up of a back-referencing regular expression. A hit is verified segment by
    segment, so a hash collision can never refuse a good URL.
    """
    n = len(segments)
    if min_repeats < 2 or n < min_repeats or len(set(segments)) == n:
        return None  # no segment occurs twice: nothing can repeat (most real paths)
    ids: dict[str, int] = {}
    prefix = [0] * (n + 1)
    power = [1] * (n + 1)
    for i, seg in enumerate(segments):
        code = ids.setdefault(seg, len(ids) + 1)
        prefix[i + 1] = (prefix[i] * _BASE + code) % _MOD
        power[i + 1] = (power[i] * _BASE) % _MOD
    seq = [ids[s] for s in segments]
    if work is not None:
        work.ops += n

    def same(a: int, b: int, length: int) -> bool:
        if work is not None:
            work.ops += 1
        ha = (prefix[a + length] - prefix[a] * power[length]) % _MOD
        hb = (prefix[b + length] - prefix[b] * power[length]) % _MOD
        return ha == hb

    def extend(a: int, b: int, limit: int, forward: bool) -> int:
        # Longest L <= limit with seq[a:a+L] == seq[b:b+L] (forward) or
        # seq[a-L:a] == seq[b-L:b] (backward); binary search, as equality is monotone.
        lo, hi = 0, limit
        while lo < hi:
            mid = (lo + hi + 1) // 2
            ok = same(a, b, mid) if forward else same(a - mid, b - mid, mid)
            if ok:
                lo = mid
            else:
                hi = mid - 1
        return lo

    for p in range(1, n // min_repeats + 1):
        need = (min_repeats - 1) * p
        j = p - 1
        while j + p < n:
            if work is not None:
                work.ops += 1
            if seq[j] == seq[j + p]:
                forward = extend(j, j + p, n - j - p, True)
                backward = extend(j, j + p, min(j, p), False)
                total = forward + backward
                if total >= need:
                    start = j - backward
                    unit = tuple(segments[start : start + p])
                    repeats = total // p + 1
                    if all(
                        tuple(segments[start + k * p : start + (k + 1) * p]) == unit
                        for k in range(repeats)
                    ):
                        return RepeatedRun(start, unit, repeats)
                # The match stretch ends at j + forward; the next one starts later.
                j += max(p, (forward // p) * p)
            else:
                j += p
    return None


def path_segments(path: str) -> list[str]:
    """The ``/``-separated segments of a path (RFC 3986 section 3.3), without the
    empty one a trailing slash leaves, so ``/a/a/a`` and ``/a/a/a/`` are alike.
    Empty segments inside (``//``) are kept: four slashes in a row are no accident."""
    if not path or path == "/":
        return []
    segments = path.split("/")
    if segments and segments[0] == "":
        segments = segments[1:]
    if segments and segments[-1] == "":
        segments = segments[:-1]
    return segments


# --------------------------------------------------------------------------------------
# The guard


@dataclass
class _RegionSignals:
    urls: set[bytes] = field(default_factory=set)
    reasons: Counter[Reason] = field(default_factory=Counter)


class Guard:
    """Applies the URL-shape rules and the blacklist to URLs, one ``check`` at a time.

    Rules look at the URL's de-duplication key (:func:`robotkit.url.normalization.normalize` with
    ``policy``): dot segments resolved, percent-encoding normalized, tracking and
    session parameters removed, so junk a site appends cannot push a good page over a
    limit, and ``/a/./a/%61`` is seen as ``/a/a/a``.

    Stateful through the automatic blacklist: signals reported by the crawler
    (duplicate content, soft 404s, parked templates) accumulate per region, and a
    region with ``auto_blacklist_after`` distinct signalled URLs is blacklisted; and
    through the runs of links descending beside their pages (``max_descents``), kept
    per URL allowed with its referer.
    """

    def __init__(
        self,
        config: GuardConfig | None = None,
        blacklist: Blacklist | None = None,
        policy: NormalizePolicy | None = None,
    ) -> None:
        self.config = config if config is not None else GuardConfig()
        self.blacklist = blacklist if blacklist is not None else Blacklist()
        self.policy = policy
        self._signals: dict[str, _RegionSignals] = {}
        self._descents: LRUCache[str, int] = LRUCache(maxsize=MAX_RUNS)
        self._referer: tuple[str, NormalizedURL | None] = ("", None)
        """The last referer normalized: a page's links come one after another."""

    def check(self, url: str | NormalizedURL, referer: str | None = None) -> GuardVerdict:
        """Run every enabled rule, cheapest first; never raises. Pass a
        :class:`NormalizedURL` the crawler already has to skip normalizing again, and
        the page that links it as ``referer`` (as fetched) for the rules of links."""
        if isinstance(url, NormalizedURL):
            norm, original = url, url.original
        else:
            original = url
            try:
                norm = normalize(url, self.policy)
            except InvalidURL as exc:
                return GuardVerdict(original, False, exc.reason, Rule.URL_SYNTAX, exc.detail)
        verdict = self._check(original, norm)
        return verdict if referer is None or not verdict.allowed else self._link(norm, referer)

    def _link(self, norm: NormalizedURL, referer: str) -> GuardVerdict:
        """The descents of the run of links under their pages' directories that
        ``norm`` ends, from ``referer``'s run (``max_descents``); an allowed link keeps
        its run."""
        limit = self.config.max_descents
        if limit is not None and self._referer[0] != referer:
            self._referer = (referer, self._normalized(referer))
        ref = self._referer[1]
        if limit is None or ref is None or ref.origin != norm.origin:
            return GuardVerdict(norm.original, True, Reason.ALLOWED)
        went, run = step(ref.path, norm.path), self._descents.get(ref.key, 0)
        if went is Step.ELSEWHERE:
            return GuardVerdict(norm.original, True, Reason.ALLOWED)
        run += went is Step.BESIDE or (went is Step.DOWN and run > 0)
        if run > limit:
            detail = f"{run} descents beside their pages in a run of links > {limit}"
            return GuardVerdict(
                norm.original, False, Reason.PATH_TOO_DEEP, Rule.RELATIVE_DESCENT, detail
            )
        if run:
            self._descents[norm.key] = min(run, self._descents.get(norm.key, run))
        return GuardVerdict(norm.original, True, Reason.ALLOWED)

    def _check(self, url: str, norm: NormalizedURL) -> GuardVerdict:
        cfg = self.config
        entry = self.blacklist.match(norm.key, norm.host)
        if entry is not None:
            rule = Rule.AUTO_BLACKLIST if entry.kind is BlacklistKind.AUTO else Rule.BLACKLIST
            return GuardVerdict(url, False, Reason.BLACKLISTED, rule, entry.describe())

        if cfg.max_url_length is not None and len(norm.key) > cfg.max_url_length:
            detail = f"{len(norm.key)} characters > {cfg.max_url_length}"
            return GuardVerdict(url, False, Reason.URL_TOO_LONG, Rule.URL_TOO_LONG, detail)

        query = norm.query
        if cfg.max_query_params is not None and query and query.count("&") >= cfg.max_query_params:
            # Distinct names: a faceted search repeats ``brand[]=`` once per ticked
            # brand, a finite page; a trap keeps adding parameters of new names, or
            # grows in length and repeats (caught by the other rules and content).
            count = len({part.partition("=")[0] for part in query.split("&") if part})
            if count > cfg.max_query_params:
                detail = f"{count} distinct query parameters > {cfg.max_query_params}"
                return GuardVerdict(
                    url, False, Reason.TOO_MANY_PARAMS, Rule.TOO_MANY_PARAMS, detail
                )

        raw = norm.original.partition("#")[0].partition("?")[2]
        if cfg.max_return_nesting is not None and raw:
            levels = nesting(norm.host, raw)
            if levels > cfg.max_return_nesting:
                detail = f"a return address nested {levels} deep in its own"
                return GuardVerdict(url, False, Reason.REPEATED_PATH, Rule.NESTED_RETURN, detail)

        segments = path_segments(norm.path)
        if cfg.max_path_depth is not None and len(segments) > cfg.max_path_depth:
            detail = f"{len(segments)} path segments > {cfg.max_path_depth}"
            return GuardVerdict(url, False, Reason.PATH_TOO_DEEP, Rule.PATH_TOO_DEEP, detail)

        host = norm.host
        base = host[4:] if host.startswith("www.") else host
        if cfg.max_host_in_path is not None and base in norm.path.lower():
            names = {host, base, f"www.{base}"}
            count = sum(1 for seg in segments if seg.lower().rstrip(".") in names)
            if count > cfg.max_host_in_path:
                detail = f"host {host} appears {count} times in the path"
                return GuardVerdict(url, False, Reason.REPEATED_PATH, Rule.HOST_IN_PATH, detail)

        if cfg.min_path_repeats is not None:
            # Empty segments (``//``) are left out: servers collapse them and real
            # sites link to ``/worldclock////full.html``; ``/a//a//a`` still repeats.
            run = find_repeated_run([seg for seg in segments if seg], cfg.min_path_repeats)
            if run is not None:
                unit = "/".join(run.unit)
                detail = f"/{unit} repeated {run.repeats} times from segment {run.start + 1}"
                return GuardVerdict(url, False, Reason.REPEATED_PATH, Rule.REPEATED_PATH, detail)

        return GuardVerdict(url, True, Reason.ALLOWED)

    def report_trap_signal(self, url: str | NormalizedURL, reason: Reason) -> BlacklistEntry | None:
        """Count a trap signal (duplicate content, a soft 404, a parked template, a
        refused trap URL) against the URL's regions; returns the automatic blacklist
        entry when this signal crosses the threshold, else ``None``. Invalid URLs
        are ignored.

        Two regions, finest first (:meth:`regions_of`). A URL with a query counts
        towards the query variants of its page (``http://x/shop?``), each distinct
        URL once; every URL counts towards its directory (:meth:`region_of`), each
        distinct *path* once. So a faceted ``/shop?color=...&size=...`` that keeps
        yielding duplicates blacklists ``/shop?`` and leaves the host's other pages
        alone, while 25 trap paths under ``/cal/`` still blacklist ``/cal/``."""
        threshold = self.config.auto_blacklist_after
        norm = self._normalized(url)
        if threshold is None or norm is None:
            return None
        found = None
        for region, item in self._counted(norm):
            signals = self._signals.get(region)
            if signals is None:
                if self.blacklist.match(region, norm.host) is not None:
                    continue
                signals = self._signals[region] = _RegionSignals()
            digest = blake2b(item.encode("utf-8", "surrogatepass"), digest_size=8).digest()
            if digest in signals.urls:
                continue
            signals.urls.add(digest)
            signals.reasons[reason] += 1
            total = len(signals.urls)
            if total < threshold:
                continue
            breakdown = ", ".join(f"{n} {r.value}" for r, n in signals.reasons.most_common())
            what = "URLs" if region.endswith("?") else "paths"
            source = f"auto: trap signals on {total} {what} under {region} ({breakdown})"
            entry = BlacklistEntry(BlacklistKind.AUTO, region, source)
            self.blacklist.add(entry)
            del self._signals[region]
            found = found or entry
        return found

    def snapshot(self) -> dict[str, Any]:
        """What the guard learned, as JSON: the automatic blacklist entries and
        the trap signals counted per region. The config and the user's own
        blacklist are configuration, given again to a resumed crawl."""
        return {
            **header("guard", 1),
            "auto": [
                [entry.pattern, entry.source]
                for entry in self.blacklist.entries
                if entry.kind is BlacklistKind.AUTO
            ],
            "signals": [
                [region, sorted(d.hex() for d in s.urls), {str(r): n for r, n in s.reasons.items()}]
                for region, s in self._signals.items()
            ],
        }

    def restore_learned(self, data: Any) -> None:
        """Take back what :meth:`snapshot` described: its automatic entries join the
        blacklist (those already there are kept once) and its signal counts
        replace this guard's. :class:`SnapshotError` if ``data`` is not one."""
        with reading("guard"):
            data = opened(data, "guard", 1)
            known = {e.pattern for e in self.blacklist.entries if e.kind is BlacklistKind.AUTO}
            entries = [
                BlacklistEntry(
                    BlacklistKind.AUTO, typed(p, str, "pattern"), typed(s, str, "source")
                )
                for p, s in listed(data["auto"], "auto", list)
            ]
            signals: dict[str, _RegionSignals] = {}
            for region, digests, reasons in listed(data["signals"], "signals", list):
                found = signals[typed(region, str, "region")] = _RegionSignals()
                found.urls = {bytes.fromhex(d) for d in listed(digests, "digests", str)}
                found.reasons = Counter(
                    {
                        Reason(r): typed(n, int, "count")
                        for r, n in typed(reasons, dict, "reasons").items()
                    }
                )
        for entry in entries:
            if entry.pattern not in known:
                self.blacklist.add(entry)
        self._signals = signals

    def signal_count(self, url: str | NormalizedURL) -> int:
        """How many distinct signals the finest region of ``url`` holds so far (its
        page's query variants if it has a query, else its directory)."""
        norm = self._normalized(url)
        if norm is None:
            return 0
        signals = self._signals.get(self.regions_of(norm)[0])
        return len(signals.urls) if signals is not None else 0

    def regions_of(self, norm: NormalizedURL) -> tuple[str, ...]:
        """The auto-blacklist regions a URL counts towards, finest first: for a URL
        with a query, the query variants of its page (``http://x/shop?``, a
        blacklist prefix that covers ``/shop?a=1`` but neither ``/shop`` nor
        ``/shopping``); then its directory (:meth:`region_of`)."""
        return tuple(region for region, _ in self._counted(norm))

    def _counted(self, norm: NormalizedURL) -> list[tuple[str, str]]:
        """Each region of ``norm`` with what counts once in it."""
        path = f"{norm.origin}{norm.path}"
        regions = [(self.region_of(norm), path)]
        if norm.query is not None:
            regions.insert(0, (f"{path}?", norm.key))
        return regions

    def region_of(self, norm: NormalizedURL) -> str:
        """The directory region of a URL: its origin plus the first
        ``auto_blacklist_depth`` directory segments (never the last segment of a path
        without a trailing slash, which names a page, not a directory)."""
        segments = path_segments(norm.path)
        if not norm.path.endswith("/"):
            segments = segments[:-1]
        tail = "".join(f"{seg}/" for seg in segments[: self.config.auto_blacklist_depth])
        return f"{norm.origin}/{tail}"

    def _normalized(self, url: str | NormalizedURL) -> NormalizedURL | None:
        return normalize_or_none(url, self.policy)
