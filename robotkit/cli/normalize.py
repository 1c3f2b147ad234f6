"""``robotkit normalize``: print the de-duplication key of each URL (ARCHITECTURE.md,
command-line contract).

One output line per input URL, in input order, so the output pastes beside the input;
an invalid URL gets an empty line (or a JSON record with ``normalized`` null and its
reason), the rest are still printed, and the exit status is 2.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections.abc import Iterator
from typing import IO, Any

from robotkit.cli import EXIT_USAGE, error
from robotkit.cli.inputs import arguments, close_input, lines, open_input, shown
from robotkit.url.normalization import normalize_key
from robotkit.url.parse import InvalidURL
from robotkit.url.redact import masked


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "normalize",
        help="print the normalized (de-duplication) key of each URL",
        description=(
            "Print each URL's normalized key, one line per URL in input order. "
            "Invalid URLs print an empty line (JSON: normalized null) and make the "
            "exit status 2."
        ),
    )
    parser.add_argument("urls", nargs="*", metavar="URL", help="URLs to normalize")
    parser.add_argument(
        "--input",
        metavar="FILE|-",
        help="read URLs from FILE ('-' for stdin), one per line; blank lines skipped",
    )
    parser.add_argument("--json", action="store_true", help="print JSON Lines records")
    parser.set_defaults(handler=handler)


def handler(args: argparse.Namespace) -> int:
    stream: IO[bytes] | IO[str] | None = None
    if args.input is not None:
        try:
            stream = open_input(args.input)
        except OSError as exc:
            error(f"cannot read --input {args.input}: {exc.strerror or exc}")
            return EXIT_USAGE
    elif not args.urls:
        error("no URL given (pass URLs or --input FILE)")
        return EXIT_USAGE

    invalid = 0
    first_problem = ""
    try:
        urls: Iterator[str] = iter(arguments(args.urls))
        if stream is not None:
            urls = itertools.chain(urls, lines(stream))
        out = sys.stdout
        for url in urls:
            try:
                key: str | None = normalize_key(url)
                reason = detail = None
            except InvalidURL as exc:
                key, reason, detail = None, exc.reason.value, exc.detail
                invalid += 1
                if not first_problem:
                    first_problem = f"{reason}: {detail}: {shown(masked(url))!r}"
            if args.json:
                record = {"url": shown(url), "normalized": key, "reason": reason, "detail": detail}
                out.write(json.dumps(record) + "\n")
            else:
                out.write((key or "") + "\n")
        out.flush()
    except BrokenPipeError:
        raise  # the reader went away: robotkit.cli.main ends quietly
    except OSError as exc:
        error(f"cannot read --input {args.input}: {exc.strerror or exc}")
        return EXIT_USAGE
    finally:
        if stream is not None:
            close_input(stream)
    if invalid:
        more = f" (and {invalid - 1} more)" if invalid > 1 else ""
        error(f"{first_problem}{more}")
        return EXIT_USAGE
    return 0
