"""What a crawl learns from each page and which URLs it still fetches: URL-shape rules,
blacklists, screening, news, regions and copies."""

from __future__ import annotations

from robotkit.triage.blacklist import Blacklist, BlacklistSyntaxError
from robotkit.triage.guard import Guard, GuardConfig, GuardVerdict, Rule
from robotkit.triage.screening import TriageConfig
from robotkit.triage.triage import FailureKind, PageFacts, PageVerdict, Triage

__all__ = [
    "Blacklist",
    "BlacklistSyntaxError",
    "FailureKind",
    "Guard",
    "GuardConfig",
    "GuardVerdict",
    "PageFacts",
    "PageVerdict",
    "Rule",
    "Triage",
    "TriageConfig",
]
