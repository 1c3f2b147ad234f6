"""Content fingerprints: duplicate pages and soft 404s.

URL rules (:mod:`robotkit.triage.guard`) catch traps by shape; these catch the rest by what
the pages say. Two tools, each a small state machine fed by the crawler, over one
measure of a page's text:

- :class:`ContentIndex`: an exact fingerprint of a page's visible text and a 64-bit
  SimHash (Charikar 2002; Manku, Jain and Das Sarma, WWW 2007) of its word
  shingles, so a page already seen under another URL is ``duplicate-content`` and
  its links are dropped or deprioritized.
- :class:`Soft404Detector`: a site that answers 200 for pages that do not exist is
  probed once per host and directory with a URL that cannot exist; pages that look
  like that answer are ``soft-404``.

Pure core: no I/O and no clock. The crawler fetches (also the probes) and applies
the decisions.

One module per tool: :mod:`~robotkit.content.fingerprints` (the measure),
:mod:`~robotkit.content.shingles` (SimHash), :mod:`~robotkit.content.duplicates` and
:mod:`~robotkit.content.soft404`; every public name is importable from here.
"""

from __future__ import annotations

from robotkit.content.duplicates import (
    ContentConfig,
    ContentIndex,
    ContentMatch,
    LinkAction,
    MatchKind,
)
from robotkit.content.fingerprints import (
    Fingerprint,
    PageText,
    SimHashIndex,
    echo_free_fingerprint,
    echo_free_reading,
    fingerprint,
    fingerprint_readings,
    hamming,
    page_title,
    passage_shingles,
    prose_words,
    unechoed,
    visible_text,
)
from robotkit.content.shingles import simhash
from robotkit.content.soft404 import Soft404Config, Soft404Detector, soft404_probe_url

__all__ = [
    "ContentConfig",
    "ContentIndex",
    "ContentMatch",
    "Fingerprint",
    "LinkAction",
    "MatchKind",
    "PageText",
    "SimHashIndex",
    "Soft404Config",
    "Soft404Detector",
    "echo_free_fingerprint",
    "echo_free_reading",
    "fingerprint",
    "fingerprint_readings",
    "hamming",
    "page_title",
    "passage_shingles",
    "prose_words",
    "simhash",
    "soft404_probe_url",
    "unechoed",
    "visible_text",
]
