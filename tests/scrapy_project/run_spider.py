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
import sys
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import scrapy
from scrapy.crawler import CrawlerProcess
from scrapy.http import Response, TextResponse

from robotkit.meta import parse_page


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
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
