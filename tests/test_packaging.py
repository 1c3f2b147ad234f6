"""What an installation without the ``traps`` extra still does: every command
but the trap ones, and pytest runs in its environment are not broken by our
entry point. The missing extra is simulated by an import hook in a subprocess."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HIDE = """
import sys
class Hide:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("pytest_httpserver", "werkzeug"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
sys.meta_path.insert(0, Hide())
"""


def without_traps(tmp_path: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "sitecustomize.py").write_text(HIDE)
    return subprocess.run(
        [sys.executable, *argv],
        env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_commands_work_without_the_traps_extra(tmp_path: Path) -> None:
    run = without_traps(tmp_path, "-m", "robotkit", "normalize", "HTTP://A.test/x")
    assert (run.returncode, run.stdout) == (0, "http://a.test/x\n")
    demo = without_traps(tmp_path, "-m", "robotkit", "demo")
    assert demo.returncode == 2
    assert demo.stderr == (
        "robotkit: error: robotkit demo needs the trap sites: pip install 'robotkit[traps]'\n"
    )


def test_the_pytest_entry_point_imports_without_the_traps_extra(tmp_path: Path) -> None:
    code = "import robotkit.traps.fixture as m; print(hasattr(m, 'trap_site'))"
    run = without_traps(tmp_path, "-c", code)
    assert (run.returncode, run.stdout) == (0, "False\n"), run.stderr
    with_traps = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert with_traps.stdout == "True\n"
