"""The ``pytest11`` entry point: the ``trap_site`` fixture of
:mod:`robotkit.traps.pytest_plugin`, when the trap sites' server stack is installed.

pytest loads every installed entry point in every test run of the environment, so
this module must import without the ``traps`` extra (pytest-httpserver and
werkzeug): without it, robotkit adds no fixture instead of breaking the run.
"""

from __future__ import annotations

from robotkit.traps import TRAP_STACK

try:
    from robotkit.traps.pytest_plugin import trap_site as trap_site
except ModuleNotFoundError as missing:
    if missing.name not in TRAP_STACK:
        raise
