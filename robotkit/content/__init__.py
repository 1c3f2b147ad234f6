"""Content fingerprints: duplicate pages, soft 404s and low-novelty trap regions.

URL rules (:mod:`robotkit.triage.guard`) catch traps by shape; these catch the rest by what
the pages say. Three tools, each a small state machine fed by the crawler:

- :class:`ContentIndex`: an exact fingerprint of a page's visible text and a 64-bit
  SimHash (Charikar 2002; Manku, Jain and Das Sarma, WWW 2007) of its word
  shingles, so a page already seen under another URL is ``duplicate-content`` and
  its links are dropped or deprioritized.
- :class:`Soft404Detector`: a site that answers 200 for pages that do not exist is
  probed once per host and directory with a URL that cannot exist; pages that look
  like that answer are ``soft-404``.
- :class:`NoveltyTracker`: a URL template (``/item/{n}?page={n}``) or a host that
  keeps yielding near-identical pages is a trap region (``trap-host``); its remaining
  URLs are parked.

Pure core: no I/O and no clock. The crawler fetches (also the probes) and applies
the decisions.

One module per tool: :mod:`~robotkit.content.fingerprints` (the measure),
:mod:`~robotkit.content.duplicates`, :mod:`~robotkit.content.soft404` and
:mod:`~robotkit.content.novelty`; every public name is importable from here.
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
    visible_text,
)
from robotkit.content.novelty import (
    NoveltyConfig,
    NoveltyTracker,
    RegionScope,
    TrapSignal,
    url_template,
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
    "NoveltyConfig",
    "NoveltyTracker",
    "PageText",
    "RegionScope",
    "SimHashIndex",
    "Soft404Config",
    "Soft404Detector",
    "TrapSignal",
    "echo_free_fingerprint",
    "echo_free_reading",
    "fingerprint",
    "fingerprint_readings",
    "hamming",
    "page_title",
    "simhash",
    "soft404_probe_url",
    "url_template",
    "visible_text",
]
