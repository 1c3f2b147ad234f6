"""Taking URLs in (PutURLs): discovered links and the reports of fetches.

* A discovered URL is normalized (:func:`robotkit.url.normalize`) and run through
  the crawl's :class:`~robotkit.triage.Guard` (URL shapes, blacklist); a refused
  one is acknowledged ``SKIPPED`` and kept, with its reason, for ``GetURLStatus``
  (a bounded table). A URL whose key is known is ``OK`` and not queued twice. A
  link's depth is its page's plus one (:data:`~robotkit.service.metadata.PARENT`),
  so the frontier (:class:`robotkit.frontier.frontier.Frontier`) serves
  breadth-first; the links of a page reported as an exact copy are refused.
* A known URL (a fetch reported back) ends its fetch: the report feeds the pacer
  (status, Retry-After) and the host may be served again after its delay; a
  ``refetchable_from_date`` queues it again at that date.
* With :class:`Claims` (several nodes on one Redis), a new discovered URL is queued
  only by the node that claims it first: a URL put on two nodes is acknowledged
  ``OK`` by both and handed out by one.
* A URL a saved node held is put back as it was (:meth:`Intake.restore`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from typing import Protocol

from robotkit.base.errors import UnavailableError
from robotkit.base.reasons import Reason
from robotkit.service import metadata as meta
from robotkit.service.crawls import Crawl, Crawls
from robotkit.service.handout import Handout
from robotkit.service.records import Ack, Incoming, URLRecord, URLState, crawl_id, frozen
from robotkit.url.normalization import NormalizedURL, normalize
from robotkit.url.parse import InvalidURL

__all__ = ["Claims", "Intake"]


class Claims(Protocol):
    """Who queues a URL when several nodes take URLs for one crawl (the shell's
    :class:`robotkit.service.shared.SharedClaims`)."""

    def claim(self, crawl: str, key: str) -> bool:
        """True when this node is the URL's owner (it claimed the de-duplication
        ``key`` of ``crawl`` now or before), False when another node is. Raises
        :class:`UnavailableError` when it cannot tell."""
        ...


class Intake:
    """PutURLs over ``crawls``; the reports end fetches ``handout`` started.
    ``claims``: the URLs' owners across nodes."""

    def __init__(self, crawls: Crawls, handout: Handout, claims: Claims | None = None) -> None:
        self.crawls = crawls
        self.handout = handout
        self.claims = claims

    def put(self, crawl_name: str, item: Incoming) -> Ack:
        """Take one URL of PutURLs (see the module docstring)."""
        crawls = self.crawls
        crawl = crawls.crawl(crawl_id(crawl_name))
        try:
            norm = normalize(item.url)
        except InvalidURL as error:
            crawls.refuse(crawl, item.url, None, error.reason, item.queue_key)
            return Ack.SKIPPED
        record = crawl.records.get(norm.key)
        if item.known:
            return self._known(crawl, record, norm, item)
        if record is not None:
            return Ack.OK  # a duplicate: known already, not queued twice
        if norm.key in crawl.refused:
            return Ack.SKIPPED
        verdict = crawl.guard.check(norm)
        if not verdict.allowed:
            crawls.refuse(crawl, item.url, norm.key, verdict.reason, item.queue_key)
            return Ack.SKIPPED
        depth, referer = 0, meta.first(item.metadata, meta.PARENT)
        if referer is not None:
            parent = crawl.record_of(referer)
            if parent is not None:
                if parent.copy:
                    crawls.refuse(
                        crawl, item.url, norm.key, Reason.DUPLICATE_CONTENT, item.queue_key
                    )
                    return Ack.SKIPPED
                depth = parent.depth + 1
        if self.claims is not None:
            try:
                if not self.claims.claim(crawl.name, norm.key):
                    return Ack.OK  # queued by the node that owns it
            except UnavailableError:
                return Ack.FAIL  # may be sent again
        record = crawls.new_record(crawl, norm, item, depth)
        crawls.move(record, URLState.QUEUED)
        crawls.enqueue(crawl, record, referer)
        return Ack.OK

    def _known(
        self, crawl: Crawl, record: URLRecord | None, norm: NormalizedURL, item: Incoming
    ) -> Ack:
        crawls = self.crawls
        report = meta.read_report(item.metadata, crawls.clock())
        if record is None:
            if norm.key in crawl.refused:
                return Ack.SKIPPED
            record = crawls.new_record(crawl, norm, item, 0)
        else:
            record.metadata = frozen(item.metadata)
        if record.state is URLState.IN_FLIGHT:
            self.handout.finish(crawl, record, report.outcome, report.retry_at)
        elif report.retry_at is not None:
            self.handout.hold(norm.origin.pacing_key, report.retry_at)
        if report.final_url is not None:
            with contextlib.suppress(InvalidURL):
                crawl.frontier.seen.add(normalize(report.final_url).key)
        if report.fingerprint is not None:
            first = crawl.fingerprints.setdefault(report.fingerprint, record.key)
            if first != record.key:
                record.copy = True
                crawl.copies += 1
                crawl.guard.report_trap_signal(norm, Reason.DUPLICATE_CONTENT)
        if item.refetch_from > 0:
            crawls.wait_for(crawl, record, item.refetch_from)
        else:
            record.refetch_from = 0
            crawls.move(record, URLState.DONE)
        return Ack.OK

    def restore(
        self,
        crawl_name: str,
        url: str,
        queue_key: str,
        metadata: Mapping[str, Sequence[str]],
        *,
        depth: int,
        state: URLState,
        refetch_from: int,
        created: int,
    ) -> bool:
        """Put back a URL a saved node held (:mod:`robotkit.service.state`): a URL
        that was out is queued again. False when the URL is no longer valid."""
        crawls = self.crawls
        crawl = crawls.crawl(crawl_id(crawl_name))
        try:
            norm = normalize(url)
        except InvalidURL:
            return False
        if norm.key in crawl.records:
            return True
        record = crawls.new_record(crawl, norm, Incoming(url, queue_key, metadata), depth)
        record.created, record.refetch_from = created, refetch_from
        if state is URLState.DONE:
            return True
        if state is URLState.WAITING and refetch_from > 0:
            crawls.wait_for(crawl, record, refetch_from)
        else:
            crawls.move(record, URLState.QUEUED)
            crawls.enqueue(crawl, record)
        return True
