"""ETag and Last-Modified per URL, so a refetch can be conditional.

RFC 9110 section 13.1: a client that kept a representation's validators asks with
If-None-Match / If-Modified-Since and gets a bodiless 304 when nothing changed,
which saves the site's bandwidth and the robot's. The store is bounded (least
recently used entries go first) so a long crawl cannot grow it without end.

A 304 has no body, so conditional requests are only for a caller that keeps the
bodies itself: the polite transports and clients send them only when given a
store (``PoliteClient(conditional=True)``); code written for plain httpx, which
reads ``.text`` after every ``get``, never sees a 304 it did not ask for.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

from cachetools import LRUCache

from robotkit.robots.freshness import Headers, Validators

DEFAULT_MAX_URLS = 100_000


class ValidatorStore:
    """Thread-safe, bounded map from URL to its last known :class:`Validators`."""

    def __init__(self, max_urls: int = DEFAULT_MAX_URLS) -> None:
        """``max_urls`` 0 stores nothing (every request unconditional)."""
        if isinstance(max_urls, bool) or not isinstance(max_urls, int) or max_urls < 0:
            raise ValueError(
                f"max_urls must be a whole number >= 0 (0 stores nothing), not {max_urls!r}"
            )
        self.max_urls = max_urls
        # cachetools refuses maxsize 0 on the first insert; 1 is never written then.
        self._entries: LRUCache[str, Validators] = LRUCache(maxsize=max(max_urls, 1))
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, url: str) -> Validators | None:
        with self._lock:
            return self._entries.get(url)

    def conditional_headers(self, url: str) -> dict[str, str]:
        """The headers that make a refetch of ``url`` conditional (empty if none)."""
        validators = self.get(url)
        return {} if validators is None else validators.conditional_headers()

    def record(
        self, url: str, status: int, headers: Iterable[tuple[str, str]]
    ) -> Validators | None:
        """Learn from a response to ``url``; return the validators now held.

        200 stores fresh validators (or forgets stale ones when none came); 304
        keeps the stored ones, updated by any the 304 carries (RFC 9111 section
        4.3.4); 404 and 410 forget the URL. Other answers change nothing.
        """
        fields = Headers(headers)
        with self._lock:
            known = self._entries.get(url)
            if status == 200:
                fresh = Validators.from_headers(fields)
                if fresh is None:
                    self._entries.pop(url, None)
                elif self.max_urls:
                    self._entries[url] = fresh
                return fresh
            if status == 304:
                if known is None:
                    return Validators.from_headers(fields)
                self._entries[url] = known.updated(fields)
                return self._entries[url]
            if status in (404, 410):
                self._entries.pop(url, None)
                return None
            return known
