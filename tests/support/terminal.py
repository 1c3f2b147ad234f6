"""Run a command with stderr on a pseudo-terminal, as a user at a shell would see
it: what the CLIs draw there (progress bars, live panels) is only drawn on a tty.

``tests`` is not a package: pytest's default (prepend) import mode puts this
folder on ``sys.path``, so test modules import this one as ``terminal``.
"""

from __future__ import annotations

import os
import pty
import signal
import subprocess


def run_on_a_terminal(
    command: list[str], *, interrupt_after: bytes | None = None, timeout: float = 60
) -> tuple[int, str, str]:
    """Run ``command`` with stderr on a pseudo-terminal and stdout on a pipe; send
    SIGINT once the terminal has shown ``interrupt_after``. Returns (status, what
    the terminal showed, stdout)."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=follower, text=True)
    os.close(follower)
    drawn = b""
    try:
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            drawn += chunk
            if interrupt_after is not None and interrupt_after in drawn:
                proc.send_signal(signal.SIGINT)
                interrupt_after = None
        stdout, _ = proc.communicate(timeout=timeout)
    finally:
        os.close(leader)
        if proc.poll() is None:
            proc.kill()
    return proc.returncode, drawn.decode("utf-8", "replace"), stdout
