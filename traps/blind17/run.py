"""Run a crawler against each blind17 trap site and score it from the server's own log.

    python -m traps.blind17.run [--only NAME ...] [--json FILE] [--max-pages 1500]
                               [--timeout 90] [--log-dir DIR] [--list] [-- CRAWLER_CMD ...]

CRAWLER_CMD placeholders: {seeds} (one argument per seed URL), {max_pages}, {output}.
Default: robotkit crawl {seeds} --delay 0 --max-pages {max_pages} --output {output}
Scoring and pass rule are those of traps.blind.run; the sites use 127.0.17.x addresses.
"""

from __future__ import annotations

import sys

from traps.blind import run as blind_run

from . import SITES

addresses = blind_run.block_addresses(17)
"""Site number `index` (registry order) gets 127.0.17.(3*index+1) onwards."""


def main(argv: list[str] | None = None) -> int:
    """The traps.blind runner over this registry and these addresses."""
    return blind_run.main(
        argv,
        sites=SITES,
        prog="python -m traps.blind17.run",
        description=__doc__,
        address_fn=addresses,
    )


if __name__ == "__main__":
    sys.exit(main())
