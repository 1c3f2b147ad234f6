"""A subcommand run by name loads only its own module (robotkit.cli.build_parser).

Each worker of a shared crawl pays its start-up: ``robotkit crawl`` must not load
the trap sites' web server stack (werkzeug), which only ``traps`` and ``demo`` use.
Run in a fresh interpreter, where nothing else has imported it yet.
"""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import sys
from robotkit.cli import build_parser
build_parser({only!r}).parse_args({argv!r})
print("werkzeug" in sys.modules)
"""


def loads_werkzeug(only: str | None, argv: list[str]) -> bool:
    code = PROBE.format(only=only, argv=argv)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return out.stdout.strip() == "True"


def test_crawl_by_name_leaves_the_trap_stack_unloaded() -> None:
    assert not loads_werkzeug("crawl", ["crawl", "http://example.org/"])


def test_the_whole_command_line_still_registers_the_trap_commands() -> None:
    assert loads_werkzeug(None, ["traps", "list"])
