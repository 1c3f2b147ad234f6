"""The ``robotkit`` command: one module per subcommand, registered here.

Exit codes and flags are a contract (ARCHITECTURE.md, command-line contract): 2 means bad
usage or invalid input, and every subcommand reports errors as one line on stderr,
never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib import import_module
from typing import IO, NoReturn

from rich.console import Console

from robotkit import __version__

# Each module has ``register(subparsers)`` which adds its parser and sets
# ``handler`` (a callable taking the parsed namespace and returning an exit code).
SUBCOMMANDS = ("check_url", "normalize", "traps", "crawl", "demo")

EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    """argparse with the contract's form of a usage error: one line on stderr,
    exit 2 (argparse would print its whole usage block first). Subcommand
    parsers are of the same class (``add_subparsers`` copies it)."""

    def error(self, message: str) -> NoReturn:
        text = " ".join(message.split())
        self.exit(EXIT_USAGE, f"robotkit: error: {text} (see: {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="robotkit",
        description="The politeness layer a web robot embeds.",
    )
    parser.add_argument("--version", action="version", version=f"robotkit {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    for name in SUBCOMMANDS:
        import_module(f"robotkit.cli.{name}").register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.handler(args)
    except KeyboardInterrupt:
        print("robotkit: interrupted", file=sys.stderr)
        return 130
    return code


def error(message: str) -> None:
    """One line on stderr, the form every subcommand uses for bad input."""
    print(f"robotkit: error: {message}", file=sys.stderr)


REPORT_WIDTH = 120
"""Tables printed to a pipe or file are this wide: rich would otherwise fall back
to 80 columns and fold every reason code and URL into unreadable slivers."""


def console(file: IO[str] | None = None) -> Console:
    """A rich console for tables: the terminal's width on a terminal, else
    :data:`REPORT_WIDTH`."""
    out = Console(file=file)
    return out if out.is_terminal else Console(file=file, width=REPORT_WIDTH)
