"""Keep attacking: a hostile HTTP server, driven by hypothesis, against the polite
clients (sync and async) and the robots.txt fetchers (sync and async).

Whatever the server sends (any status line, header set, stack of codings,
chunked framing errors, truncation, a lying Content-Length, pauses), robotkit
raises only its documented errors (a refusal, or an httpx error), keeps no more
than its cap plus one 64 KiB block of decoded body, and ends within its deadline
(with slack for a loaded machine). Under CI the examples are derandomized
(``tests/conftest.py``) with a fixed budget; ``benchmarks/fuzz_http.py`` runs
longer.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, example, given, settings
from support.bombs import GIB, stacked_bomb
from support.httpfuzz import STALL, Answer, HostileServer, answers, attack, hostile_server


@pytest.fixture(scope="module")
def server() -> Iterator[HostileServer]:
    with hostile_server() as running:
        yield running


def _head(*lines: bytes) -> bytes:
    return b"".join(line + b"\r\n" for line in lines) + b"\r\n"


BOMB = stacked_bomb(GIB // 4, 2)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(answer=answers())
@example(answer=Answer((_head(b"HTTP/1.1 200 OK", b"Content-Encoding: gzip, gzip") + BOMB,)))
@example(answer=Answer((_head(b"HTTP/1.1 200 OK", b"Content-Encoding: gzip, br") + b"xx",)))
@example(
    answer=Answer(
        (_head(b"HTTP/1.1 200 OK", b"Transfer-Encoding: chunked") + b"zz\r\nabc\r\n0\r\n\r\n",)
    )
)
@example(answer=Answer((_head(b"HTTP/1.1 200 OK", b"Content-Length: 100000") + b"short",)))
@example(answer=Answer((b"HTTP/1.1 200 OK\r\nX-Slow: ", b"1\r\n\r\n"), (0.0, STALL)))
def test_hostile_http_server(server: HostileServer, answer: Answer) -> None:
    attack(server, answer)
