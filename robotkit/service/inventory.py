"""Reading and forgetting a crawl's URLs: GetURLStatus, ListURLs and CountURLs,
PurgeURLs, DeleteQueue and DeleteCrawl."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from robotkit.service.crawls import Crawls
from robotkit.service.handout import Handout
from robotkit.service.records import URLRecord, URLState
from robotkit.url.normalization import normalize
from robotkit.url.parse import InvalidURL

__all__ = ["Inventory"]


class Inventory:
    """The URL records of ``crawls``, read and forgotten; a URL out when it is
    forgotten has its slot given back through ``handout``."""

    def __init__(self, crawls: Crawls, handout: Handout) -> None:
        self.crawls = crawls
        self.handout = handout

    def status(self, crawl_name: str, url: str) -> URLRecord | None:
        """GetURLStatus: the record of ``url`` (refused ones too, by any spelling of
        their key; an invalid URL, which has none, by its text), or None."""
        crawl = self.crawls.find(crawl_name)
        if crawl is None:
            return None
        record = crawl.record_of(url)
        if record is None:
            with contextlib.suppress(InvalidURL):
                record = crawl.refused.get(normalize(url).key)
        if record is None:
            record = crawl.refused.get(url)
        return record

    def records(
        self, crawl_name: str, key: str = "", text: str | None = None, ignore_case: bool = False
    ) -> Iterator[URLRecord]:
        """ListURLs and CountURLs: a crawl's URLs (queued, out, waiting or done; not
        the refused), of one queue if ``key``, containing ``text`` if given."""
        crawl = self.crawls.find(crawl_name)
        if crawl is None:
            return
        if text is not None and ignore_case:
            text = text.lower()
        for record in list(crawl.records.values()):
            if key and record.queue.key != key:
                continue
            if text:
                url = record.url.lower() if ignore_case else record.url
                if text not in url:
                    continue
            yield record

    def purge(self, crawl_name: str, key: str, days: int) -> int:
        """PurgeURLs: forget the finished URLs (done, not waiting for a refetch)
        created more than ``days`` days ago; returns how many."""
        crawl = self.crawls.find(crawl_name)
        if crawl is None:
            return 0
        cutoff = self.crawls.clock() - days * 86400
        gone = [
            r
            for r in crawl.records.values()
            if r.state is URLState.DONE and r.created <= cutoff and (not key or r.queue.key == key)
        ]
        for record in gone:
            self.crawls.forget(crawl, record)
        return len(gone)

    def delete_queue(self, crawl_name: str, key: str) -> int:
        """DeleteQueue: the queue's URLs are forgotten; returns how many were active."""
        found = self.crawls.queue(crawl_name, key)
        if found is None:
            return 0
        crawl, queue = found
        active = queue.queued + queue.in_flight
        for record in [r for r in crawl.records.values() if r.queue is queue]:
            if record.state is URLState.IN_FLIGHT:
                self.handout.finish(crawl, record, None, None)
            self.crawls.forget(crawl, record)
        for origin in queue.origins:
            # A robots.txt fetch may hold the host: its stale entries are skipped later.
            with contextlib.suppress(ValueError):
                crawl.frontier.drop_host(origin)
            del crawl.by_origin[origin]
        del crawl.queues[key]
        return active

    def delete_crawl(self, crawl_name: str) -> int:
        """DeleteCrawl: returns how many URLs the crawl held (refused ones aside)."""
        crawl = self.crawls.remove(crawl_name)
        if crawl is None:
            return 0
        for record in crawl.records.values():
            if record.state is URLState.IN_FLIGHT:
                self.handout.cancel(record)
        return len(crawl.records)
