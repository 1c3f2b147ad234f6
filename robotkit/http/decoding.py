"""Undo a response's content codings under a cap on the decoded bytes.

A body is what the server sent with every coding of its ``Content-Encoding``
undone, last applied first (RFC 9110 section 8.4). A compressed body is a bomb
when a few kilobytes decode to gigabytes, and stacking codings (``gzip, gzip``)
multiplies the ratio: 1.8 KB can stand for 2 GB. So every layer here is an
incremental decompressor asked for a bounded amount of output at a time, and the
whole chain stops as soon as the caller's cap is reached: memory stays within
the cap plus one block per layer, whatever the ratio.

Only the codings decoded here are ever advertised (:data:`ACCEPT_ENCODING`). A
body in any other one is refused with :class:`UnsupportedEncoding` at its first
byte: passed on raw, a later reader (httpx itself) would decode it with no
limit, or the caller would take compressed bytes for the content.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable
from typing import Any

import httpx

from robotkit.http.errors import UnsupportedEncoding as UnsupportedEncoding

ACCEPT_ENCODING = "gzip, deflate"
"""The codings :class:`CappedBody` decodes (RFC 9110 section 12.5.3), so the cap
bounds decoded bytes. ``br`` and ``zstd`` are not asked for: their decoders are
not installed with robotkit."""

MAX_CODINGS = 4
"""Codings stacked on one body, at most. Real servers apply one (two is already a
misconfiguration); each layer costs a decompressor's window in memory."""

BLOCK = 64 * 1024
"""Bytes one inner layer hands to the next at a time."""

_IGNORED = frozenset({"", "identity"})
_GZIP = frozenset({"gzip", "x-gzip"})
_DEFLATE = "deflate"


def codings(values: Iterable[str]) -> list[str]:
    """The content codings of ``Content-Encoding`` header values, in the order they
    were applied (RFC 9110 section 8.4: a list, possibly over several fields),
    names lowercased, ``identity`` and empty members dropped."""
    found = []
    for value in values:
        for member in value.split(","):
            name = member.strip().lower()
            if name not in _IGNORED:
                found.append(name)
    return found


class _Layer:
    """One coding being undone, fed its input and asked for bounded output."""

    def __init__(self, name: str, request: httpx.Request | None) -> None:
        self.name = name
        self.request = request
        self.pending = b""
        self.full = False
        """The last call filled its limit: more output may be waiting inside."""
        self.started = False
        # gzip (RFC 1952); "deflate" is the zlib format (RFC 1950), though some
        # servers send a raw deflate stream (RFC 1951): told apart by the header.
        wbits = 16 + zlib.MAX_WBITS if name in _GZIP else zlib.MAX_WBITS
        self.inflater: Any = zlib.decompressobj(wbits)

    @property
    def eof(self) -> bool:
        return bool(self.inflater.eof)

    def decompress(self, limit: int) -> bytes:
        if not self.started and self.name == _DEFLATE:
            head = self.pending[:2]
            if len(head) < 2:
                self.full = False
                return b""  # the header is not all here yet
            self.started = True
            if (head[0] & 0x0F) != 8 or int.from_bytes(head, "big") % 31:
                self.inflater = zlib.decompressobj(-zlib.MAX_WBITS)
        try:
            data: bytes = self.inflater.decompress(self.pending, limit)
        except zlib.error as error:
            message = f"bad {self.name} body: {error}"
            raise httpx.DecodingError(message, request=self.request) from None
        self.pending = self.inflater.unconsumed_tail
        self.full = len(data) == limit
        return data


class CappedBody:
    """Collects a body, decoding its codings, and keeps at most ``cap`` bytes.

    ``feed`` takes bytes as they come off the wire and says when to stop reading;
    ``content`` gives the body. Raises :class:`UnsupportedEncoding` at the first
    byte of a body in a coding it cannot decode, and ``httpx.DecodingError`` for
    corrupt data.
    """

    def __init__(
        self, content_encoding: Iterable[str], cap: int, request: httpx.Request | None = None
    ) -> None:
        names = codings(content_encoding)
        unknown = sorted({name for name in names if name not in _GZIP and name != _DEFLATE})
        self.refusal: UnsupportedEncoding | None = None
        """Why the body cannot be decoded; raised at its first byte, so that a
        response without a body (304, HEAD) still goes through."""
        if unknown:
            self.refusal = UnsupportedEncoding(
                f"unsupported Content-Encoding {', '.join(unknown)} (decoded: {ACCEPT_ENCODING})",
                request=request,
            )
        elif len(names) > MAX_CODINGS:
            self.refusal = UnsupportedEncoding(
                f"{len(names)} stacked content codings (at most {MAX_CODINGS} are decoded)",
                request=request,
            )
            names = []
        self.cap = cap
        self.layers = [] if unknown else [_Layer(name, request) for name in reversed(names)]
        """The last coding applied is the first undone."""
        self.parts: list[bytes] = []
        self.size = 0
        self.wire = 0
        """Bytes received from the network."""
        self.truncated = False
        self._input: list[bytes] = []

    def feed(self, chunk: bytes) -> bool:
        """Add bytes as received; False once the cap is reached (stop reading)."""
        if chunk and self.refusal is not None:
            raise self.refusal
        self.wire += len(chunk)
        self._input.append(chunk)
        return self._collect()

    def content(self) -> bytes:
        """The body: everything decoded so far, at most ``cap`` bytes."""
        if not self.truncated:
            self._collect()
        return b"".join(self.parts)

    def _collect(self) -> bool:
        room = self.cap - self.size
        data = self._produce(len(self.layers) - 1, room + 1)
        if len(data) > room:
            data, self.truncated = data[:room], True
        self.parts.append(data)
        self.size += len(data)
        return not self.truncated

    def _take_input(self) -> bytes:
        data = b"".join(self._input)
        self._input.clear()
        return data

    def _produce(self, index: int, limit: int) -> bytes:
        """Up to ``limit`` bytes out of layer ``index`` (-1: the wire itself),
        pulling its input from the layer below one block at a time."""
        if index < 0:
            return self._take_input()
        layer = self.layers[index]
        out = bytearray()
        while len(out) < limit and not layer.eof:
            # Input is pulled only once the layer has given all it could: an
            # inflater that filled its limit may hold more output for no input.
            if not layer.full:
                fresh = self._produce(index - 1, BLOCK)
                if not fresh:
                    break
                layer.pending += fresh
            out += layer.decompress(limit - len(out))
        return bytes(out)
