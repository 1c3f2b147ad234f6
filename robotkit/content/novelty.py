"""Low novelty: a URL template (``/item/{n}?page={n}``) or a host that keeps
yielding near-identical pages is a trap region (``trap-host``); its remaining URLs
are parked (:class:`NoveltyTracker`)."""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass
from typing import Any

from robotkit.base.reasons import CodeEnum, Reason
from robotkit.base.snapshot import header, listed, opened, reading, typed
from robotkit.content.duplicates import ContentMatch
from robotkit.content.fingerprints import hamming
from robotkit.url.normalization import NormalizedURL, normalize_or_none

_DIGITS = re.compile(r"\d+")

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
    norm = normalize_or_none(url)
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
