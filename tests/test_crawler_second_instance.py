"""A second host serving the first host's pages again (a second instance of one
application, a mirror with a home of its own): each host's own pages are fetched,
whichever host's copy the crawl read first. Real loopback servers; the counts are
the servers' own.
"""

from __future__ import annotations

import asyncio
import re

from werkzeug import Request, Response

from robotkit.crawler.loop import CrawlConfig, crawl
from robotkit.triage.triage import TriageConfig
from tests.test_crawler_families import html, start, stop, word

FAST = CrawlConfig(
    max_pages=400, delay=0.0, allow_private=True, response_timeout=2.0, max_defer=0.0
)


def test_the_first_hosts_pages_read_after_a_second_hosts_copies_are_all_fetched() -> None:
    """Two instances of a video site: each has a home page of its own (so neither is
    the other's twin), and the second serves every video and the videos list of the
    first again. The second's home links the list at once; the first's reaches it a
    step later, so the crawl reads each of the first host's pages after the second
    host's copy of it. Those copies say nothing of the first host's own pages: the
    first host's list still vouches for its videos, the videos read second are no
    evidence that their family is barren, and a link form whose targets were the
    other host's pages again is no copy form. Every video of the first host is read,
    three times the waste budget of them (the first host's videos were lost, all
    but about ten, before)."""
    count = TriageConfig().waste_budget * 3
    served: dict[str, list[str]] = {"127.0.0.1": [], "127.0.0.2": []}

    def video(i: int) -> str:
        text = " ".join(word(f"{i}:{k}") for k in range(20))
        return html(f"Video {i}", text, ["/videos"])

    def site(request: Request) -> Response:
        host, path = request.host.partition(":")[0], request.path
        served[host].append(path)
        first = host == "127.0.0.1"
        if path == "/":
            links = ["/about"] if first else ["/videos"]
            name = "popular" if first else "trending"
            return Response(html(name, f"the {name} videos here", links), content_type="text/html")
        if path == "/about" and first:
            text = "about this instance and its videos"
            return Response(html("About", text, ["/videos"]), content_type="text/html")
        if path == "/videos":
            links = [f"/video/{i}" for i in range(count)]
            return Response(html("Videos", "all the videos", links), content_type="text/html")
        found = re.fullmatch(r"/video/(\d+)", path)
        if found is None or int(found.group(1)) >= count:
            return Response("not found", status=404)
        return Response(video(int(found.group(1))), content_type="text/html")

    first, second = start("127.0.0.1", site), start("127.0.0.2", site)
    try:
        asyncio.run(crawl([first.url_for("/"), second.url_for("/")], FAST))
    finally:
        stop(first, second)
    missing = [i for i in range(count) if f"/video/{i}" not in served["127.0.0.1"]]
    assert missing == [], missing
