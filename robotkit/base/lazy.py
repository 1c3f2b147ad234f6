"""Names a package re-exports, loaded on first use (PEP 562).

``import robotkit`` must stay cheap and must not drag the network shell into a
program that only wants the pure core; ``import robotkit.traps`` must work without
the ``traps`` extra, so the command line can say what to install. Both packages
therefore name their exports in a table and import each on first access.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any


def lazy_exports(
    package: str, table: Mapping[str, str], listed: list[str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``: a name of ``table`` is
    imported from its module on first use and kept in the package's namespace;
    ``dir()`` shows ``listed`` (the package's ``__all__``)."""

    def __getattr__(name: str) -> Any:
        module = table.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(module), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(listed)

    return __getattr__, __dir__
