"""The top-level names are the public API: each one resolves, and the pure core
does not pull in the network shell."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest
from support.layers import CORE, LAYERS

import robotkit


@pytest.mark.parametrize("name", [name for name in robotkit.__all__ if name != "__version__"])
def test_every_exported_name_resolves(name: str) -> None:
    assert getattr(robotkit, name) is not None


def test_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError):
        robotkit.NoSuchThing  # noqa: B018


def test_the_core_never_imports_the_shell() -> None:
    """ARCHITECTURE.md, "Packages and layers": the core packages never import the
    shell. Every module of them is imported in a fresh interpreter, where nothing
    else has loaded the shell yet."""
    core = sorted(
        info.name
        for layer in CORE
        for info in pkgutil.walk_packages(
            [str(Path(robotkit.__file__).parent / layer)], f"robotkit.{layer}."
        )
    )
    assert "robotkit.triage.guard" in core and "robotkit.frontier.store" in core
    code = (
        "import sys\n"
        f"for name in {core!r}: __import__(name)\n"
        "shell = [m for m in sys.modules if m in ('httpx', 'redis', 'scrapy') or m.startswith("
        f"{tuple(f'robotkit.{layer}' for layer in LAYERS if layer not in CORE)!r})]\n"
        "print(','.join(sorted(shell)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_all_lists_exactly_the_lazy_exports() -> None:
    assert set(robotkit.__all__) - {"__version__"} == set(robotkit._EXPORTS)
