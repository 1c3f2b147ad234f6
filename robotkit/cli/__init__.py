"""The ``robotkit`` command: one module per subcommand, registered here.

Exit codes and flags are a contract: 2 means bad usage or invalid input, and every
subcommand reports errors as one line on stderr, never a traceback. What every
subcommand shares lives here: the error line, the number options' parsing (their
messages in the user's terms), and the end of a run whose reader went away
(``robotkit ... | head``): no traceback, no message, status 141, the status a shell
gives a program that SIGPIPE ended, as it would ``cat``.
"""

from __future__ import annotations

import argparse
import logging
import os
import re
import sys
from collections.abc import Sequence
from importlib import import_module
from typing import IO, Any, NoReturn

from rich.console import Console

from robotkit._version import __version__
from robotkit.traps import TRAP_STACK

# Each module has ``register(subparsers)`` which adds its parser and sets
# ``handler`` (a callable taking the parsed namespace and returning an exit code).
__all__ = ["EXIT_BROKEN_PIPE", "EXIT_USAGE", "build_parser", "main"]
"""The command as a program: ``main`` is the ``robotkit`` console script. The helpers
below serve the subcommand modules; the command line itself (flags, JSON fields,
exit codes) is the contract, not these names."""

SUBCOMMANDS = ("check_url", "normalize", "traps", "crawl", "demo")

EXIT_USAGE = 2
EXIT_BROKEN_PIPE = 141
"""128 + SIGPIPE: how a shell reports a writer whose reader closed the pipe."""


class _Parser(argparse.ArgumentParser):
    """argparse with the contract's form of a usage error: one line on stderr,
    exit 2 (argparse would print its whole usage block first). Subcommand
    parsers are of the same class (``add_subparsers`` copies it)."""

    def error(self, message: str) -> NoReturn:
        text = " ".join(message.split())
        self.exit(EXIT_USAGE, f"robotkit: error: {text} (see: {self.prog} --help)\n")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line, or with ``only`` the one subcommand of that module
    name: a command run by name imports what it needs and no more (``robotkit
    crawl`` need not load the trap sites' web server stack; a crawl started on
    many workers pays its start-up on each)."""
    parser = _Parser(
        prog="robotkit",
        description="The politeness layer a web robot embeds.",
    )
    parser.add_argument("--version", action="version", version=f"robotkit {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    for name in SUBCOMMANDS if only is None else (only,):
        try:
            module = import_module(f"robotkit.cli.{name}")
        except ModuleNotFoundError as missing:
            if missing.name not in TRAP_STACK:
                raise
            _needs_traps_extra(subparsers, name.replace("_", "-"))
            continue
        module.register(subparsers)
    parser.set_defaults(subparsers=subparsers.choices)
    return parser


def _needs_traps_extra(subparsers: Any, command: str) -> None:
    """``command`` when the trap sites' server stack is not installed: every use
    says how to install it, instead of the whole ``robotkit`` command failing."""

    def handler(args: argparse.Namespace) -> int:
        error(f"robotkit {command} needs the trap sites: pip install 'robotkit[traps]'")
        return EXIT_USAGE

    parser = subparsers.add_parser(command, help="(needs: pip install 'robotkit[traps]')")
    parser.add_argument("rest", nargs=argparse.REMAINDER)
    parser.set_defaults(handler=handler)


def parse(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The parsed command line. An unknown flag is reported by the subcommand's
    parser, so the message points to that subcommand's ``--help``, where the flags
    it takes are listed (argparse would point to the top-level one)."""
    words = sys.argv[1:] if argv is None else list(argv)
    named = words[0].replace("-", "_") if words else ""
    parser = build_parser(named if named in SUBCOMMANDS else None)
    args, extra = parser.parse_known_args(words)
    if extra:
        sub: argparse.ArgumentParser = args.subparsers[args.command]
        sub.error(f"unrecognized arguments: {' '.join(extra)}")
    return args


class _StderrLog(logging.Handler):
    """robotkit's log warnings (such as a robot without a contact) on stderr, in the
    form of the other messages; written to whatever ``sys.stderr`` is now."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)

    def emit(self, record: logging.LogRecord) -> None:
        print(f"robotkit: {record.levelname.lower()}: {record.getMessage()}", file=sys.stderr)


def _log_to_stderr() -> None:
    logger = logging.getLogger("robotkit")
    if not any(isinstance(handler, _StderrLog) for handler in logger.handlers):
        logger.addHandler(_StderrLog())


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(argv)
    _log_to_stderr()
    try:
        code: int = args.handler(args)
        sys.stdout.flush()  # here, not at exit, where a closed pipe would be reported
    except KeyboardInterrupt:
        print("robotkit: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return reader_gone()
    return code


def reader_gone() -> int:
    """The reader of stdout went away: stop quietly. stdout is pointed at the null
    device first, so the interpreter's last flush cannot complain either."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return EXIT_BROKEN_PIPE


def _number(text: str, kind: type[float] | type[int], what: str) -> float:
    try:
        return kind(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {what}, not {text!r}") from None


def non_negative(text: str) -> float:
    """A number of seconds, 0 or more."""
    value = _number(text, float, "a number of seconds")
    if not value >= 0:  # NaN too
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {text}")
    return value


def positive(text: str) -> float:
    """A number of seconds, more than 0."""
    value = _number(text, float, "a number of seconds")
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0, not {text}")
    return value


def count(text: str) -> int:
    """A whole number, 0 or more."""
    value = int(_number(text, int, "a whole number"))
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {text}")
    return value


_SIZE = re.compile(r"(\d+)([KMG]?)(?:i?B)?", re.IGNORECASE)
_SIZE_UNITS = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3}


def size(text: str) -> int:
    """A number of bytes, 0 or more: plain (``2097152``) or with a binary suffix
    (``512K``, ``8M``, ``1G``; ``KiB``, ``MB`` and lower case read the same)."""
    found = _SIZE.fullmatch(text.strip())
    if found is None:
        raise argparse.ArgumentTypeError(
            f"expected a size in bytes such as 8M, 512K or 1048576, not {text!r}"
        )
    return int(found[1]) * _SIZE_UNITS[found[2].upper()]


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


def quiet_local_robot() -> None:
    """No contact warning for the demo and the trap bench: their robot visits only
    robotkit's own trap sites on loopback, whose owner is the one running it."""
    logging.getLogger("robotkit.base.identity").setLevel(logging.ERROR)
