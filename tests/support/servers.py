"""Raw socket servers that misbehave on purpose, shared by several test modules.

``tests`` is not a package: pytest's default (prepend) import mode puts this
folder on ``sys.path``, so test modules import this one as ``servers``.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time


def closed_port() -> int:
    """A loopback port nobody listens on (bound for a moment, then let go)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def read_head(conn: socket.socket) -> bytes:
    """Read a request up to the blank line that ends its head; what came before
    the client hung up if it hung up first."""
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = conn.recv(4096)
        if not chunk:
            break
        head += chunk
    return head


class KeepAliveTarpit:
    """A raw HTTP/1.1 server on 127.0.0.1 that serves every request on one kept-alive
    connection: the first requests get ``answers`` in turn (200, text/plain), the
    next one gets its status line and headers one byte every 50 ms (10 s in all), a
    tarpit on a reused connection. It records the paths asked for, the connections
    accepted (one more may come late, after the drip) and whether the drip was sent
    to its end, i.e. the client did not cut it off."""

    def __init__(self, *answers: bytes) -> None:
        self.answers = answers
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.connections = 0
        self.paths: list[str] = []
        self.drip_finished = False
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def serve(self) -> None:
        conn, _ = self.listener.accept()
        self.connections += 1
        self.listener.settimeout(0.2)
        with conn:
            pending = b""
            while True:
                while b"\r\n\r\n" not in pending:
                    data = conn.recv(4096)
                    if not data:
                        return self.count_late_connections()
                    pending += data
                head, _, pending = pending.partition(b"\r\n\r\n")
                self.paths.append(head.split(b" ")[1].decode())
                if len(self.paths) <= len(self.answers):
                    body = self.answers[len(self.paths) - 1]
                    conn.sendall(
                        b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
                        + f"Content-Length: {len(body)}\r\n\r\n".encode()
                        + body
                    )
                    continue
                try:
                    for byte in b"HTTP/1.1 200 OK\r\nX-Slow: " + b"." * 200:
                        conn.sendall(bytes([byte]))
                        time.sleep(0.05)
                    conn.sendall(b"\r\nContent-Length: 0\r\n\r\n")
                    self.drip_finished = True
                except OSError:
                    pass  # the client hung up: the tarpit was cut off
                return self.count_late_connections()

    def count_late_connections(self) -> None:
        with contextlib.suppress(OSError):
            extra, _ = self.listener.accept()
            extra.close()
            self.connections += 1

    def close(self) -> None:
        self.thread.join()
        self.listener.close()
