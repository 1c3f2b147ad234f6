"""The gauntlet's options: which crawler to run, its page budget and time limit.

    python -m pytest traps/                                  # robotkit's own crawler
    python -m pytest traps/ --crawler 'mycrawler {seeds} --limit {max_pages}'

Sites run a few at a time: while one test waits for its crawl, the next sites'
crawls are already running (each mostly waits on sockets). Under pytest-xdist the
workers are the parallelism, and each runs only its own sites.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from robotkit import traps
from robotkit.traps.bench import CUT_SECONDS, DEFAULT_MAX_PAGES, generated_names
from robotkit.traps.score import Command, CommandError, Gauntlet, GauntletRun, robotkit_command


@dataclass(frozen=True)
class Manners:
    """How the suite runs robotkit's own crawler, so its manners can be checked."""

    user_agent: str = "GauntletBot/1.0 (+https://example.org/bot)"
    from_: str = "crawler-ops@example.org"
    delay: float = 0.03
    """Small, yet enough for the server's clock to check pacing."""


ROBOTKIT = Manners()
JOBS = 4
"""Sites crawled at once in one pytest process."""


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("gauntlet", "the trap gauntlet (traps/)")
    group.addoption(
        "--crawler",
        metavar="CMD",
        default=None,
        help="crawler command template with {seeds}, {max_pages} and optional {output} "
        "(default: robotkit crawl)",
    )
    group.addoption(
        "--max-pages",
        type=int,
        default=DEFAULT_MAX_PAGES,
        metavar="N",
        help=f"page budget given to the crawler (default {DEFAULT_MAX_PAGES})",
    )
    group.addoption(
        "--generated",
        type=int,
        default=0,
        metavar="N",
        help="also N sites drawn by the site generator, seeds S, S+1, ... (default 0)",
    )
    group.addoption(
        "--seed", type=int, default=0, metavar="S", help="first generator seed (default 0)"
    )
    group.addoption(
        "--time-limit",
        type=float,
        default=CUT_SECONDS,
        metavar="S",
        help=f"seconds before a crawl is killed (default {CUT_SECONDS:g})",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Refuse a bad ``--crawler`` or budget at the start, not once per site."""
    template = config.getoption("crawler", None)
    try:
        if template is not None:
            Command.parse([template])
    except CommandError as exc:
        raise pytest.UsageError(f"--crawler: {exc}") from None
    if config.getoption("max_pages", 1) < 1 or config.getoption("time_limit", 1.0) <= 0:
        raise pytest.UsageError("--max-pages and --time-limit must be positive")
    if config.getoption("generated", 0) < 0 or config.getoption("seed", 0) < 0:
        raise pytest.UsageError("--generated and --seed must be >= 0")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """One test per site: every hand-written one, then the generated ones asked for."""
    if "site" in metafunc.fixturenames:
        config = metafunc.config
        generated = generated_names(config.getoption("generated"), config.getoption("seed"))
        metafunc.parametrize("site", [*traps.names(), *generated])


def robotkit_default() -> Command:
    """What ``pytest traps/`` runs without ``--crawler``: robotkit, with an honest
    identity and a small delay, so the suite can also check robotkit's manners."""
    flags = ("--user-agent", ROBOTKIT.user_agent, "--from", ROBOTKIT.from_)
    return robotkit_command(*flags, delay=ROBOTKIT.delay)


@pytest.fixture(scope="session")
def robotkit_manners(pytestconfig: pytest.Config) -> Manners | None:
    """How robotkit was run when the crawler is robotkit's own (its extra checks
    then apply); None for any other crawler."""
    return ROBOTKIT if pytestconfig.getoption("crawler") is None else None


@pytest.fixture(scope="session")
def gauntlet(
    pytestconfig: pytest.Config, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Gauntlet]:
    template = pytestconfig.getoption("crawler")
    command = robotkit_default() if template is None else Command.parse([template])
    under_xdist = "PYTEST_XDIST_WORKER" in os.environ
    workdir: Path = tmp_path_factory.mktemp("gauntlet")
    with Gauntlet(
        command,
        workdir,
        jobs=1 if under_xdist else JOBS,
        max_pages=pytestconfig.getoption("max_pages"),
        time_limit=pytestconfig.getoption("time_limit"),
    ) as runner:
        yield runner


@pytest.fixture
def crawl_site(request: pytest.FixtureRequest, gauntlet: Gauntlet) -> Callable[[str], GauntletRun]:
    """``crawl_site(name)``: the crawler's run on that site, started now unless it
    already runs; the next few sites of this session start with it."""

    def crawl(name: str) -> GauntletRun:
        upcoming: list[str] = []
        if "PYTEST_XDIST_WORKER" not in os.environ:
            items = request.session.items
            position = items.index(request.node) if request.node in items else len(items)
            for item in items[position + 1 :]:
                site = getattr(item, "callspec", None) and item.callspec.params.get("site")
                if isinstance(site, str) and item.path == request.node.path:
                    upcoming.append(site)
                if len(upcoming) >= JOBS - 1:
                    break
        return gauntlet.result(name, upcoming)

    return crawl
