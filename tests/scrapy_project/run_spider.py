"""Crawl some seeds with Scrapy, in a process of its own (Twisted's reactor stays
out of pytest), and write Scrapy's stats as JSON.

    python tests/scrapy_project/run_spider.py OUT.json SETTINGS_JSON SEED...

SETTINGS_JSON holds Scrapy settings (``ADDONS`` among them for the add-on). The
spider follows every link robotkit's link extractor finds (a, area, link, frame,
iframe), on the seeds' hosts only, so plain Scrapy and Scrapy with the add-on are
offered the same links.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import scrapy
from scrapy.crawler import CrawlerProcess
from scrapy.http import Response, TextResponse

from robotkit.page.meta import parse_page


class LinkSpider(scrapy.Spider):
    name = "links"

    def __init__(self, seeds: list[str], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.seeds = seeds
        self.hosts = {urlsplit(seed).netloc for seed in seeds}

    async def start(self) -> Any:
        for seed in self.seeds:
            yield scrapy.Request(seed, callback=self.parse)

    def parse(self, response: Response) -> Iterator[scrapy.Request]:
        if not isinstance(response, TextResponse):
            return
        page = parse_page(response.text, response.url, "links")
        for link in page.links:
            if urlsplit(link.url).netloc in self.hosts:
                yield scrapy.Request(link.url, callback=self.parse)


ROBOT = {"USER_AGENT": "TestBot/1.0 (+https://example.org/bot)", "ROBOTKIT_FROM": "ops@example.org"}
"""An honest identity for test crawls."""
ADDON = {"ADDONS": {"robotkit.scrapy.RobotkitAddon": 0}}


def crawl(seeds: list[str], settings: dict[str, Any], timeout: float = 120.0) -> dict[str, Any]:
    """Run the spider on ``seeds`` in a child process; Scrapy's stats (with
    ``stderr``), or an AssertionError with Scrapy's output when it failed."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "stats.json"
        done = subprocess.run(
            [sys.executable, __file__, str(out), json.dumps(settings), *seeds],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        if done.returncode != 0 or not out.exists():
            raise AssertionError(f"scrapy exited {done.returncode}:\n{done.stderr[-4000:]}")
        stats: dict[str, Any] = json.loads(out.read_text())
    stats["stderr"] = done.stderr
    return stats


def main(argv: list[str]) -> int:
    out, settings_json, *seeds = argv
    settings = {
        "LOG_LEVEL": "WARNING",
        "TELNETCONSOLE_ENABLED": False,
        "REQUEST_FINGERPRINTER_IMPLEMENTATION": "2.7",
        **json.loads(settings_json),
    }
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(LinkSpider)
    process.crawl(crawler, seeds=seeds)
    process.start()
    stats = {key: value for key, value in (crawler.stats.get_stats() or {}).items()}
    with open(out, "w") as handle:
        json.dump(stats, handle, default=str)
    # As `scrapy crawl` does: a crawl that could not start (a component's
    # from_crawler raised) fails the command.
    return 1 if process.bootstrap_failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
