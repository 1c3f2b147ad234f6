"""URLs: one parser (WHATWG-style), canonical hosts, the de-duplication key and the URL
rules a crawl learns from a site."""

from __future__ import annotations

from robotkit.url.learned import LearnedRules
from robotkit.url.normalization import NormalizedURL, NormalizePolicy, normalize, normalize_key
from robotkit.url.parse import (
    InvalidURL,
    LinkResolver,
    Origin,
    origin_of,
    parse_url,
    resolve,
    robots_url,
)

__all__ = [
    "InvalidURL",
    "LearnedRules",
    "LinkResolver",
    "NormalizePolicy",
    "NormalizedURL",
    "Origin",
    "normalize",
    "normalize_key",
    "origin_of",
    "parse_url",
    "resolve",
    "robots_url",
]
