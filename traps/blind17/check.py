"""Self-check of the blind17 sites, in process (no servers, no crawler): the blind2
self-check (:mod:`traps.blind2.check`, the same walks and verdicts) over this
registry and its 127.0.15.x addresses.

    python -m traps.blind17.check [--only NAME ...] [--cap 1500]
"""

from __future__ import annotations

import sys

from traps.blind2 import check as blind2_check

from . import SITES
from .run import addresses


def main(argv: list[str] | None = None) -> int:
    """Check every site (or --only some)."""
    return blind2_check.main(argv, SITES, addresses, "python -m traps.blind17.check")


if __name__ == "__main__":
    sys.exit(main())
