"""A real Apache httpd on loopback, serving one document tree, its log read back.

:class:`ApacheServer` writes a configuration and a document tree into a fresh
temporary directory and starts ``apache2 -f CONF -DFOREGROUND`` (Debian's package;
``httpd`` elsewhere) on a 127.0.0.x address and a free port. The pid file, the
error log, the access log and the runtime files stay in that directory, nothing in
``/etc``, ``/var/run`` or ``/var/log``. The modules a trap site needs (an MPM,
mod_authz_core, mod_dir, mod_mime, mod_autoindex) are loaded with ``LoadModule``
unless the binary has them built in (``apache2 -l``). Started as root, the workers
run as ``nobody``, so the tree is made world-readable.

The access log has one line per request in a format of our own (tab-separated:
arrival time in microseconds, status, request line, User-Agent, From), read back
into :class:`~robotkit.traps.base.SeenRequest` records by a thread while the
server runs. :meth:`ApacheServer.stop` is a graceful stop: Apache finishes and logs
every request in flight, then the log is read to its end, so a score taken after
it counts every request the server answered.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from robotkit.traps.base import SeenRequest
from robotkit.traps.real.tree import Tree
from robotkit.traps.server import SiteError, check_loopback

BINARIES = ("apache2", "httpd")
SBIN = ("/usr/sbin", "/usr/local/sbin", "/usr/local/apache2/bin")
MODULE_DIRS = (
    "/usr/lib/apache2/modules",
    "/usr/lib64/httpd/modules",
    "/usr/lib/httpd/modules",
    "/usr/libexec/apache2",
    "/usr/local/apache2/modules",
)
MODULES = ("mpm_event", "authz_core", "dir", "mime", "autoindex")
"""What every site needs: an MPM, ``Require``, ``DirectoryIndex`` and the trailing
slash redirect, content types, directory listings."""

START_SECONDS = 15.0
STOP_SECONDS = 15.0
POLL_SECONDS = 0.05
LOG_FORMAT = r"%{sec}t.%{usec_frac}t\t%>s\t%r\t%{User-Agent}i\t%{From}i"

_ESCAPE = re.compile(rb"\\(x[0-9a-fA-F]{2}|.)")


class ApacheMissing(SiteError):
    """No Apache httpd binary on this machine (Debian: ``apt-get install apache2``)."""


def find_apache() -> str | None:
    """The Apache binary: on PATH, else in the usual sbin folders."""
    for name in BINARIES:
        found = shutil.which(name) or next(
            (f"{d}/{name}" for d in SBIN if os.access(f"{d}/{name}", os.X_OK)), None
        )
        if found:
            return found
    return None


def _module_lines(binary: str) -> list[str]:
    """``LoadModule`` lines for the :data:`MODULES` the binary does not have built in."""
    built_in = subprocess.run([binary, "-l"], capture_output=True, text=True, check=False).stdout
    folder = next((d for d in MODULE_DIRS if os.path.isdir(d)), None)
    lines = []
    for module in MODULES:
        if f"mod_{module}.c" in built_in:
            continue
        if folder is None or not os.path.exists(f"{folder}/mod_{module}.so"):
            raise ApacheMissing(
                f"{binary} has no mod_{module} (looked in {', '.join(MODULE_DIRS)})"
            )
        lines.append(f"LoadModule {module}_module {folder}/mod_{module}.so")
    return lines


def _free_port(host: str) -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((host, 0))
        port: int = probe.getsockname()[1]
        return port


def _unescape(field: bytes) -> str:
    r"""Undo Apache's log escaping (``\"``, ``\\``, ``\xhh``, ``\t`` ...)."""
    simple = {b"t": b"\t", b"n": b"\n", b"r": b"\r", b"v": b"\v", b"b": b"\b"}

    def one(found: re.Match[bytes]) -> bytes:
        code = found[1]
        if code.startswith(b"x") and len(code) == 3:
            return bytes([int(code[1:], 16)])
        return simple.get(code, code)

    return _ESCAPE.sub(one, field).decode("utf-8", "replace")


def parse_log_line(line: bytes) -> tuple[SeenRequest, int] | None:
    """One access log line in :data:`LOG_FORMAT`, or None when it is not one (a
    request line Apache could not read has no method and target)."""
    fields = line.rstrip(b"\n").split(b"\t")
    if len(fields) != 5:
        return None
    stamp, status, request_line, agent, from_ = fields
    words = _unescape(request_line).split(" ")
    if len(words) < 2:
        return None
    headers = {
        name: _unescape(value)
        for name, value in (("User-Agent", agent), ("From", from_))
        if value != b"-"
    }
    seen = SeenRequest(host=0, method=words[0], target=words[1], headers=headers, time=float(stamp))
    return seen, int(status)


@dataclass
class ApacheServer:
    """One Apache httpd process serving ``tree`` with the directives ``directory``
    for its document root (``Options``, ``AcceptPathInfo``, ``IndexOptions``...)."""

    tree: Tree
    directory: Sequence[str]
    host: str = "127.0.0.1"
    sections: Sequence[tuple[str, Sequence[str]]] = ()
    """More ``<Directory>`` sections: a folder under the root and its directives."""
    on_lines: Callable[[list[tuple[SeenRequest, int]]], None] | None = None
    """Called from the reader thread with each batch of new log lines."""

    def __post_init__(self) -> None:
        self.host = check_loopback(self.host)
        self.port = 0
        self.workdir = Path()
        self._process: subprocess.Popen[bytes] | None = None
        self._reader: threading.Thread | None = None
        self._stopping = threading.Event()
        self._log_offset = 0
        self._lock = threading.Lock()

    @property
    def docroot(self) -> Path:
        return self.workdir / "htdocs"

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def config(self, binary: str) -> str:
        """The whole httpd configuration."""
        work = self.workdir
        lines = [
            f'ServerRoot "{work}"',
            f"ServerName {self.host}",
            f"Listen {self.host}:{self.port}",
            *_module_lines(binary),
            f'PidFile "{work}/httpd.pid"',
            f'ErrorLog "{work}/error.log"',
            "LogLevel warn",
            f'DefaultRuntimeDir "{work}"',
            f"Mutex file:{work} default",
            "ServerTokens Prod",
            "ServerSignature Off",
            "KeepAlive On",
            "Timeout 10",
            "StartServers 1",
            "ServerLimit 2",
            "ThreadsPerChild 16",
            "MaxRequestWorkers 32",
            "GracefulShutdownTimeout 5",
            f'LogFormat "{LOG_FORMAT}" robotkit',
            f'CustomLog "{work}/access.log" robotkit',
            f'DocumentRoot "{self.docroot}"',
            "<Directory />",
            "    AllowOverride None",
            "    Require all denied",
            "</Directory>",
            f'<Directory "{self.docroot}">',
            "    AllowOverride None",
            "    Require all granted",
            *(f"    {line}" for line in self.directory),
            "</Directory>",
        ]
        for folder, directives in self.sections:
            lines += [f'<Directory "{self.docroot / folder}">', *(f"    {d}" for d in directives)]
            lines.append("</Directory>")
        if os.path.exists("/etc/mime.types"):
            lines.append("TypesConfig /etc/mime.types")
        else:
            lines += ["TypesConfig /dev/null", "AddType text/html .html", "AddType text/plain .txt"]
        if os.geteuid() == 0:
            user = pwd.getpwnam("nobody")
            lines += [f"User #{user.pw_uid}", f"Group #{user.pw_gid}"]
        return "\n".join(lines) + "\n"

    def start(self) -> None:
        """Write the tree and the configuration, start httpd, return once it listens."""
        binary = find_apache()
        if binary is None:
            raise ApacheMissing("no Apache httpd found (Debian: apt-get install apache2)")
        self.workdir = Path(tempfile.mkdtemp(prefix="robotkit-apache-"))
        try:
            self.workdir.chmod(0o755)  # the workers run as nobody when started as root
            self.tree.write(self.docroot)
            for attempt in range(3):
                self.port = _free_port(self.host)
                conf = self.workdir / "httpd.conf"
                conf.write_text(self.config(binary))
                if self._launch(binary, conf):
                    break
                if attempt == 2 or "in use" not in self.error_log():
                    raise SiteError(f"apache2 did not start: {self.error_log()[-500:]}")
        except BaseException:
            self.stop()
            raise
        self._reader = threading.Thread(target=self._follow, name="apache-log", daemon=True)
        self._reader.start()

    def _launch(self, binary: str, conf: Path) -> bool:
        pid_file = self.workdir / "httpd.pid"
        with contextlib.suppress(FileNotFoundError):
            pid_file.unlink()
        with open(self.workdir / "stderr.log", "ab") as err:
            self._process = subprocess.Popen(
                [binary, "-f", str(conf), "-DFOREGROUND"],
                stdin=subprocess.DEVNULL,
                stdout=err,
                stderr=err,
                start_new_session=True,
            )
        deadline = time.monotonic() + START_SECONDS
        # httpd binds its listener before it writes the pid file.
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                self._process = None
                return False
            if pid_file.exists() and pid_file.read_text().strip():
                return True
            time.sleep(POLL_SECONDS)
        self._kill()
        raise SiteError(f"apache2 did not start within {START_SECONDS:g} s")

    def error_log(self) -> str:
        text = ""
        for name in ("stderr.log", "error.log"):
            with contextlib.suppress(OSError):
                text += (self.workdir / name).read_text(errors="replace")
        return text

    def requests(self) -> list[tuple[SeenRequest, int]]:
        """Access log lines not read yet (the reader thread calls this)."""
        with self._lock:
            try:
                with open(self.workdir / "access.log", "rb") as log:
                    log.seek(self._log_offset)
                    data = log.read()
            except FileNotFoundError:
                return []
            complete = data[: data.rfind(b"\n") + 1]
            self._log_offset += len(complete)
        parsed = (parse_log_line(line) for line in complete.splitlines())
        return [entry for entry in parsed if entry is not None]

    def _follow(self) -> None:
        while not self._stopping.wait(POLL_SECONDS):
            self._deliver()

    def _deliver(self) -> None:
        entries = self.requests()
        if entries and self.on_lines is not None:
            self.on_lines(entries)

    def stop(self) -> None:
        """Graceful stop (requests in flight are answered and logged), the rest of
        the log delivered, the temporary directory removed. Idempotent."""
        process = self._process
        if process is not None:
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(signal.SIGWINCH)  # httpd's graceful-stop
            try:
                process.wait(STOP_SECONDS)
                self._process = None
            except subprocess.TimeoutExpired:
                self._kill()
        self._stopping.set()
        if self._reader is not None:
            self._reader.join()
            self._reader = None
        if self.workdir != Path() and self.workdir.exists():
            self._deliver()
            shutil.rmtree(self.workdir, ignore_errors=True)

    def _kill(self) -> None:
        """Whatever is left of httpd's process group (workers included)."""
        process, self._process = self._process, None
        if process is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
