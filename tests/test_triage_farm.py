"""The link-farm signal on a real documentation site: pages that each link thirty
or more projects on other hosts, in a shared template, but each with text of its
own, are no farm pages (regression: ``library/hashlib.html``, ``whatsnew/2.6.html``
and ``acronyms.html`` of a Python documentation set were flagged ``trap-host``)."""

from __future__ import annotations

import asyncio
import random

from werkzeug import Request, Response

from robotkit import traps
from robotkit.base.reasons import Reason
from robotkit.crawler.loop import CrawlConfig, Crawler, CrawlEvent
from robotkit.traps.base import PageKind, RequestContext, TrapSite, html_page, request_target

PAGES = tuple(f"/library/mod{n}.html" for n in range(12))


def words(seed: str, count: int) -> str:
    """``count`` made-up words drawn from ``seed``: a page's names and terms."""
    rng = random.Random(seed)
    letters = "abcdefghijklmnopqrstuvwxyz"
    return " ".join("".join(rng.choice(letters) for _ in range(9)) for _ in range(count))


TEMPLATE = words("sidebar", 300)
"""The sidebar and footer every page repeats: 300 words the site shows everywhere,
so 40 words of a page's own are a small share of its words (as on
``library/hashlib.html``)."""


class DocsSite(TrapSite):
    name = "docs-many-hosts"
    summary = "12 documentation pages, each linking 35 projects on other hosts"
    caught_by = ()
    legitimate_pages = frozenset(["/", *PAGES])

    def is_trap(self, target: str, host: int = 0) -> bool:
        return False

    def page(self, request: Request, ctx: RequestContext) -> Response:
        target = request_target(request)
        if target == "/":
            return html_page("Library", [TEMPLATE], [(p, "module") for p in PAGES])
        n = PAGES.index(target)
        external = [(f"https://project{n}-{i}.example.org/", "project") for i in range(35)]
        nxt = PAGES[(n + 1) % len(PAGES)]
        body = [TEMPLATE, words(target, 40)]
        return html_page(f"Module {n}", body, [("/", "Library"), (nxt, "next"), *external])


def test_pages_linking_many_hosts_with_text_of_their_own_are_no_farm() -> None:
    running = traps.start(DocsSite())
    events: list[CrawlEvent] = []
    try:
        config = CrawlConfig(delay=0.0, allow_private=True)
        asyncio.run(Crawler(running.seed_urls, config, on_event=events.append).run())
    finally:
        running.stop()
    site = running.site
    seen = [r.target for r in running.requests_seen]
    assert {t for t in seen if site.classify(t).kind is PageKind.LEGITIMATE} == set(
        DocsSite.legitimate_pages
    )
    assert [e.url for e in events if e.reason is Reason.TRAP_HOST] == []
    # The external links were read (and left as off-scope): the signal had its input.
    assert sum(e.reason is Reason.OFF_SCOPE for e in events) == 35 * len(PAGES)
