"""What a crawl reports: one event per URL decision, and the summary.

An event is one line of ``robotkit crawl --output`` (ARCHITECTURE.md, the command-line
contract): ``url``, ``event``, ``status``, ``reason``, ``depth``, ``referer``, ``time``,
``final_url`` after redirects, and ``copy_rule`` on a URL skipped by a learned
copy-family rule. The summary counts them for the end-of-crawl table.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from robotkit.base.reasons import CodeEnum, Reason
from robotkit.url.normalization import normalize
from robotkit.url.parse import InvalidURL

__all__ = ["CrawlEvent", "CrawlSummary", "EventKind"]


class EventKind(CodeEnum):
    """The ``event`` field of an output line (ARCHITECTURE.md, command-line contract)."""

    FETCHED = "fetched"
    """An HTTP response came back (any status)."""
    FAILED = "failed"
    """No HTTP response: network error or timeout."""
    SKIPPED = "skipped"
    """A decision not to fetch, with its reason."""


@dataclass(frozen=True)
class CrawlEvent:
    """One URL decision. ``reason`` on a fetched page says what the crawl learned
    from it (``duplicate-content``, ``soft-404``, ``body-too-large``, a refused
    redirect hop); ``final_url`` is set when redirects were followed; ``probe``
    marks the soft-404 probes the crawler sends itself."""

    url: str
    event: EventKind
    status: int | None
    reason: Reason | None
    depth: int
    referer: str | None
    time: float
    final_url: str | None = None
    probe: bool = False
    copy_rule: str | None = None
    """For a URL skipped as ``duplicate-url`` by a learned copy-family rule: the rule
    and its proof (the output line's ``copy_rule``)."""

    @classmethod
    def skipped(
        cls,
        url: str,
        reason: Reason,
        depth: int,
        referer: str | None,
        time: float,
        probe: bool = False,
        copy_rule: str | None = None,
    ) -> CrawlEvent:
        """A decision not to fetch ``url``."""
        return cls(
            url, EventKind.SKIPPED, None, reason, depth, referer, time, None, probe, copy_rule
        )

    def to_json(self) -> dict[str, Any]:
        line: dict[str, Any] = {
            "url": self.url,
            "event": self.event.value,
            "status": self.status,
            "reason": None if self.reason is None else self.reason.value,
            "depth": self.depth,
            "referer": self.referer,
            "time": round(self.time, 6),
        }
        if self.final_url is not None:
            line["final_url"] = self.final_url
        if self.probe:
            line["probe"] = True
        if self.copy_rule is not None:
            line["copy_rule"] = self.copy_rule
        return line

    @classmethod
    def from_json(cls, line: dict[str, Any]) -> CrawlEvent:
        """An event read back from an ``--output`` line (:meth:`to_json`'s inverse)."""
        reason = line.get("reason")
        return cls(
            url=line["url"],
            event=EventKind(line["event"]),
            status=line.get("status"),
            reason=None if reason is None else Reason(reason),
            depth=line["depth"],
            referer=line.get("referer"),
            time=line["time"],
            final_url=line.get("final_url"),
            probe=bool(line.get("probe", False)),
            copy_rule=line.get("copy_rule"),
        )


@dataclass
class CrawlSummary:
    """Counts for the end-of-crawl table; ``fetched`` counts pages, not probes."""

    fetched: int = 0
    failed: int = 0
    probes: int = 0
    skipped: Counter[Reason] = field(default_factory=Counter)
    flagged: Counter[Reason] = field(default_factory=Counter)
    """Reasons attached to fetched pages (duplicate-content, soft-404, ...)."""
    statuses: Counter[int] = field(default_factory=Counter)
    hosts: dict[str, Counter[str]] = field(default_factory=dict)
    trap_signals: list[str] = field(default_factory=list)
    queued_left: int = 0
    parked_left: int = 0
    budget_spent: bool = False
    interrupted: bool = False
    resumed: bool = False
    started: float = 0.0
    ended: float = 0.0

    def count(self, event: CrawlEvent) -> None:
        host = _host_label(event.url)
        per_host = self.hosts.setdefault(host, Counter())
        per_host["probe" if event.probe else event.event.value] += 1
        if event.event is EventKind.SKIPPED:
            if event.reason is not None:
                self.skipped[event.reason] += 1
            return
        if event.probe:
            self.probes += 1
        elif event.event is EventKind.FETCHED:
            self.fetched += 1
        else:
            self.failed += 1
        if event.status is not None:
            self.statuses[event.status] += 1
        if event.reason is not None and not event.probe:
            self.flagged[event.reason] += 1


def _host_label(url: str) -> str:
    try:
        return str(normalize(url).origin)
    except InvalidURL:
        return "(invalid)"
