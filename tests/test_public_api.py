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
    "robotkit.base.clock",
    "robotkit.base.reasons",
    "robotkit.base.identity",
    "robotkit.url.parse",
    "robotkit.base.headervalues",
    "robotkit.robots",
    "robotkit.pacing.pacer",
    "robotkit.base.outcome",
    "robotkit.triage.guard",
    "robotkit.content",
    "robotkit.page.meta",
    "robotkit.frontier.frontier",
    "robotkit.frontier.events",
    "robotkit.frontier.hosts",
    "robotkit.frontier.store",
    "robotkit.pacing.readiness",
    "robotkit.frontier.seen",
    "robotkit.url.hosts",
    "robotkit.url.normalization",
    "robotkit.triage.blacklist",
    "robotkit.content.shingles",
    "robotkit.triage.triage",
    "robotkit.triage.screening",
    "robotkit.triage.news",
    "robotkit.triage.regions",
    "robotkit.triage.copies",
    "robotkit.url.learned",
]


def test_the_core_never_imports_the_shell() -> None:
    """ARCHITECTURE.md: a lower room never imports a higher one. Checked in a fresh
    interpreter, where nothing else has loaded the shell yet."""
    code = (
        "import sys\n"
        f"for name in {CORE!r}: __import__(name)\n"
        "shell = [m for m in sys.modules if m in ('httpx', 'redis') or m.startswith(("
        "'robotkit.http', 'robotkit.crawler.loop', 'robotkit.cli', 'robotkit.traps',"
        " 'robotkit.shared'))]\n"
        "print(','.join(sorted(shell)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_all_lists_exactly_the_lazy_exports() -> None:
    assert set(robotkit.__all__) - {"__version__"} == set(robotkit._EXPORTS)
