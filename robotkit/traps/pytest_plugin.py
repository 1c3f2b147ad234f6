"""pytest plugin: the ``trap_site`` fixture, for testing any crawler against the
trap sites.

robotkit registers this module under the ``pytest11`` entry point, so installing
robotkit makes the fixture available in every test suite of the environment; no
``conftest.py`` import is needed. The fixture is a factory: call it with a site
name (``robotkit traps list`` shows them) and keyword options for the site; it
returns a running :class:`~robotkit.traps.RunningSite` on loopback, stopped at the
end of the test::

    import pytest
    from robotkit import traps

    @pytest.mark.parametrize("name", traps.names())
    def test_my_crawler_escapes(trap_site, name):
        site = trap_site(name)
        my_crawler.crawl(site.start_url, max_pages=300)
        score = site.score()              # from what the server saw
        assert score.complete, score.missing
        assert score.trap_fetched <= 10, score.trap_targets[:10]

``site.requests_seen`` holds every request (host index, method, target, headers,
time) for server-side assertions, e.g. on the User-Agent or the pacing. A site
handler that fails (a bug in the site, not in your crawler) fails the test at
teardown.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from robotkit import traps
from robotkit.traps.server import RunningSite

TrapSiteFactory = Callable[..., RunningSite]


@pytest.fixture
def trap_site() -> Iterator[TrapSiteFactory]:
    """``trap_site(name, *, host="127.0.0.1", port=0, **options) -> RunningSite``.

    Multi-host sites (``link-farm``, ``robots-3xx``) also listen on their extra
    127.0.0.x addresses. Every site started in the test is stopped at teardown.
    """
    started: list[RunningSite] = []

    def factory(
        name: str, *, host: str = "127.0.0.1", port: int = 0, **options: Any
    ) -> RunningSite:
        running = traps.start(traps.get(name, **options), host, port)
        started.append(running)
        return running

    yield factory
    for running in started:
        running.stop()
    for running in started:
        running.check()
