"""The top-level names are the public API: each one resolves, and the pure core
does not pull in the network shell."""

from __future__ import annotations

import subprocess
import sys

import pytest

import robotkit


@pytest.mark.parametrize("name", [name for name in robotkit.__all__ if name != "__version__"])
def test_every_exported_name_resolves(name: str) -> None:
    assert getattr(robotkit, name) is not None


def test_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError):
        robotkit.NoSuchThing  # noqa: B018


CORE = [
    "robotkit.clock",
    "robotkit.reasons",
    "robotkit.identity",
    "robotkit.urls",
    "robotkit.headervalues",
    "robotkit.robots",
    "robotkit.pacing",
    "robotkit.outcome",
    "robotkit.guard",
    "robotkit.content",
    "robotkit.meta",
    "robotkit.frontier",
    "robotkit.frontier_events",
    "robotkit.frontier_hosts",
    "robotkit.frontier_store",
    "robotkit.readiness",
    "robotkit.seen",
    "robotkit.hosts",
    "robotkit.normalization",
    "robotkit.blacklist",
    "robotkit.shingles",
    "robotkit.triage",
    "robotkit.screening",
    "robotkit.page_news",
    "robotkit.regions",
    "robotkit.copies",
    "robotkit.urlrules",
]


def test_the_core_never_imports_the_shell() -> None:
    """ARCHITECTURE.md: a lower room never imports a higher one. Checked in a fresh
    interpreter, where nothing else has loaded the shell yet."""
    code = (
        "import sys\n"
        f"for name in {CORE!r}: __import__(name)\n"
        "shell = [m for m in sys.modules if m in ('httpx', 'redis') or m.startswith(("
        "'robotkit.http', 'robotkit.crawl', 'robotkit.cli', 'robotkit.traps',"
        " 'robotkit.shared'))]\n"
        "print(','.join(sorted(shell)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_all_lists_exactly_the_lazy_exports() -> None:
    assert set(robotkit.__all__) - {"__version__"} == set(robotkit._EXPORTS)
