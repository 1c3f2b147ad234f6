"""Trap sites served by real web servers (Apache httpd), beside the in-process ones.

They need the server installed (Debian: ``apt-get install apache2``), so they are
not among :func:`robotkit.traps.names` (the gauntlet every fresh clone runs), but
:func:`robotkit.traps.get` knows them: ``robotkit traps score --sites
apache-symlinks ...`` runs any crawler on them. Their checks live in
``traps/apache/`` (``python -m pytest traps/apache``), run by ``.ci/run``.
"""

from __future__ import annotations

from collections.abc import Callable

from robotkit.traps.base import TrapSite
from robotkit.traps.real.apache import ApacheMissing, find_apache
from robotkit.traps.real.sites import ApacheDownloads, ApachePathInfo, ApacheSymlinks

__all__ = ["REAL_SITES", "ApacheMissing", "find_apache"]

REAL_SITES: dict[str, Callable[[], TrapSite]] = {
    "apache-symlinks": ApacheSymlinks,
    "apache-pathinfo": ApachePathInfo,
    "apache-downloads": ApacheDownloads,
}
