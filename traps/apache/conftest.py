"""The Apache trap sites' checks need a real Apache httpd: without one they stop at
the start with one line saying what to install, rather than skip (``.ci/run``
installs Debian's ``apache2`` when it is missing)."""

from __future__ import annotations

import pytest

from robotkit.traps.real import find_apache


def pytest_configure(config: pytest.Config) -> None:
    if find_apache() is None:
        raise pytest.UsageError(
            "traps/apache serves its sites with a real Apache httpd, and none is installed "
            "(Debian: apt-get install apache2; .ci/run installs it)"
        )
