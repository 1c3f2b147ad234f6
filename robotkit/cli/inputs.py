"""How every subcommand reads URLs: one rule for arguments, files and stdin.

- A file or stdin is read as bytes, line by line (never whole), and decoded as
  UTF-8. A UTF-8 byte order mark at its start is dropped (editors on Windows write
  one).
- Lines end at LF and nowhere else; the CR of a CRLF goes with the surrounding
  whitespace, which is stripped. Blank lines are skipped (a file's spacing). A
  blank *argument* is not skipped: it is a URL, invalid, so that
  ``check-url "$URL"`` with ``URL`` unset answers ``invalid-url`` and exit 2,
  never the exit 0 of "allowed". A lone CR, VT, FF or
  other control character stays inside its line, and the URL parser treats it as
  it treats one in any URL (WHATWG URL: tab and CR removed, the others
  percent-encoded), the same in every command.
- Bytes that are not UTF-8, in a file or in an argument, are kept as lone
  surrogates (Python's ``surrogateescape``), never replaced by U+FFFD: such a URL
  is reported ``invalid-url`` instead of being repaired into another URL that
  might be allowed. :func:`shown` gives the printable form for output.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import IO

BOM = "\ufeff"


def lines(stream: Iterable[bytes | str]) -> Iterator[str]:
    """The URLs of a byte stream, by the rule above (a text stream, as a test or
    an embedding program may set as stdin, is taken as already decoded)."""
    first = True
    for raw in stream:
        line = raw.decode("utf-8", "surrogateescape") if isinstance(raw, bytes) else raw
        if first:
            line = line.removeprefix(BOM)
            first = False
        stripped = line.strip()
        if stripped:
            yield stripped


def arguments(urls: Sequence[str]) -> list[str]:
    """URLs given as arguments: surrounding whitespace stripped, as in a file, but
    every one kept, blank ones too (each is an ``invalid-url`` record); the
    interpreter already keeps bad bytes as surrogates."""
    return [url.strip() for url in urls]


def open_input(source: str) -> IO[bytes] | IO[str]:
    """``--input`` as a stream: ``-`` is stdin (its bytes when it has them); else
    the file, as bytes (OSError if it cannot be opened, for the caller to report)."""
    if source == "-":
        stdin: IO[bytes] | IO[str] = getattr(sys.stdin, "buffer", sys.stdin)
        return stdin
    return open(source, "rb")


def close_input(stream: IO[bytes] | IO[str]) -> None:
    if stream is not sys.stdin and stream is not getattr(sys.stdin, "buffer", None):
        stream.close()


def shown(text: str) -> str:
    """``text`` printable on any stream: undecodable bytes become U+FFFD (only in
    what is printed; the verdict was given on the bytes as they came)."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
