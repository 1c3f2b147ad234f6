"""Compression bombs and a peak-memory probe, shared by tests and benchmarks.

``tests`` is not a package: test modules import this one as ``bombs`` (pytest puts
this folder on ``sys.path``), and ``benchmarks/`` scripts add the folder first.
"""

from __future__ import annotations

import functools
import struct
import subprocess
import sys
import zlib

GIB = 1024**3
_BLOCK = 1 << 20


def _apply(matrix: list[int], vector: int) -> int:
    out, bit = 0, 0
    while vector:
        if vector & 1:
            out ^= matrix[bit]
        vector >>= 1
        bit += 1
    return out


def _crc32_zeros(count: int, crc: int) -> int:
    """``zlib.crc32(bytes(count), crc)`` without the bytes: a zero byte moves the
    CRC register (the complement of the value) by a fixed linear map over GF(2),
    so ``count`` of them apply that map's ``count``-th power, got by squaring."""
    mask = 0xFFFFFFFF
    step = [~zlib.crc32(b"\0", ~(1 << bit) & mask) & mask for bit in range(32)]
    register = ~crc & mask
    while count:
        if count & 1:
            register = _apply(step, register)
        step = [_apply(step, column) for column in step]
        count >>= 1
    return ~register & mask


def _deflate_zeros(size: int, head: bytes) -> bytes:
    """A raw deflate stream of ``head`` then zero bytes up to ``size`` in all, made
    without compressing them all: after a full flush the compressor starts afresh,
    so each further megabyte of zeros compresses to the very same bytes."""
    comp = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    first = comp.compress(head + bytes(_BLOCK - len(head))) + comp.flush(zlib.Z_FULL_FLUSH)
    blocks, rest = divmod(size, _BLOCK)
    piece = comp.compress(bytes(_BLOCK)) + comp.flush(zlib.Z_FULL_FLUSH)
    return first + piece * (blocks - 1) + comp.compress(bytes(rest)) + comp.flush()


@functools.lru_cache(maxsize=8)
def gzip_zeros(size: int, head: bytes = b"") -> bytes:
    """A valid gzip member (RFC 1952) of ``head`` followed by zeros, ``size`` bytes
    decoded (at least 1 MiB); 1 GiB takes about 1 MB."""
    assert len(head) < _BLOCK <= size
    crc = _crc32_zeros(size - len(head), zlib.crc32(head))
    header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff"
    trailer = struct.pack("<II", crc, size & 0xFFFFFFFF)
    return header + _deflate_zeros(size, head) + trailer


def gzip_layer(data: bytes) -> bytes:
    return zlib.compress(data, 9, wbits=16 + zlib.MAX_WBITS)


def deflate_layer(data: bytes) -> bytes:
    return zlib.compress(data, 9)


@functools.lru_cache(maxsize=8)
def stacked_bomb(size: int = 2 * GIB, layers: int = 2, head: bytes = b"") -> bytes:
    """``layers`` gzip codings over ``size`` decoded bytes: ``gzip, gzip`` of 2 GiB
    is under 4 KB on the wire."""
    body = gzip_zeros(size, head)
    for _ in range(layers - 1):
        body = gzip_layer(body)
    return body


_MEASURED = (
    "import resource, subprocess, sys\n"
    "run = subprocess.run(sys.argv[1:])\n"
    "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
    "sys.stderr.write(f'\\nrobotkit-test-peak-rss-kib={peak}\\n')\n"
    "sys.exit(run.returncode)\n"
)


def run_measured(
    args: list[str], timeout: float, stdin: str | None = None
) -> tuple[subprocess.CompletedProcess[str], int]:
    """Run a command and return it with its peak RSS in bytes. A small Python
    parent runs it and reads ``RUSAGE_CHILDREN``, so the figure is this command's
    own, not the largest of everything the test session ever started."""
    run = subprocess.run(
        [sys.executable, "-c", _MEASURED, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        input=stdin,
    )
    head, _, tail = run.stderr.rpartition("robotkit-test-peak-rss-kib=")
    run.stderr = head
    return run, int(tail.strip()) * 1024


def hostile_pages(size: int = 2 * 1024 * 1024) -> dict[str, str]:
    """HTML pages of about ``size`` characters that made parsers quadratic or
    their trees huge: html.parser on unclosed ``<a `` (25 s for 64 KiB), Lexbor
    on deep nesting, on thousands of attributes in one tag, on millions of
    nodes; and pages made of links or words (the most work per byte for link
    extraction and for fingerprints). The nesting pages hold one link, ``/deep``,
    1,000 levels down; ``attributes`` has ``/many``; ``comment`` has ``/deep``
    before a comment left open."""

    def nested(unit: str) -> str:
        count = size // len(unit)
        return unit * 1000 + '<a href="/deep">d</a>' + unit * (count - 1000)

    return {
        "a-space": "<a " * (size // 3),
        "deep-div": nested("<div>"),
        "deep-list": nested("<ul><li>"),
        "misnested": nested("<b><p></b></p>"),
        "attributes": '<a href="/many" ' + " ".join(f"x{i}" for i in range(size // 8)) + ">",
        "unclosed-comment": '<a href="/deep">d</a><!--' + "<a href=/hidden>" * (size // 16),
        "void-tags": "<br>" * (size // 4),
        "comments": "<!---->" * (size // 7),
        "nul": "\0" * size,
        "links": "".join(f'<a href="/p{i}">x</a>' for i in range(size // 24)),
        "words": " ".join(f"w{i}" for i in range(size // 8)),
    }
