"""Soft 404s: a site that answers 200 for pages that do not exist is probed once
per host and directory with a URL that cannot exist; pages like that answer are
``soft-404`` (:class:`Soft404Detector`)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import Enum
from typing import Any

from robotkit.base.reasons import Reason
from robotkit.base.snapshot import header, listed, opened, reading, typed
from robotkit.content.fingerprints import (
    Fingerprint,
    PageText,
    fingerprint_words,
    page_title,
    path_words,
    title_of,
    visible_words,
    words_of,
)
from robotkit.url.normalization import NormalizedURL, normalize, normalize_or_none

# --------------------------------------------------------------------------------------
# Soft 404s


def _directory(norm: NormalizedURL, depth: int) -> str:
    """The origin plus at most ``depth`` directory segments of the path, ending in /."""
    segments = norm.path.split("/")[1:-1]  # the last piece names a page, not a dir
    return "".join([str(norm.origin), "/", *(f"{seg}/" for seg in segments[:depth])])


def soft404_probe_url(url: str, rng: random.Random, depth: int = 1) -> str:
    """A URL next to ``url`` that cannot exist: ``<dir>/robotkit-probe-<16 hex>``,
    where ``<dir>`` is the origin plus at most ``depth`` directory segments.
    Raises :class:`InvalidURL` for a URL that cannot be fetched."""
    token = f"{rng.getrandbits(64):016x}"
    return f"{_directory(normalize(url), depth)}robotkit-probe-{token}"


@dataclass(frozen=True)
class Soft404Config:
    """``directory_depth`` 1: one probe per host and per first-level directory,
    because a site often runs different software under ``/blog/`` and ``/shop/``, but
    probing every directory would cost a request per directory. ``max_distance`` 5:
    looser than duplicate detection's 3 because a soft 404 page differs from the
    probe's answer by the requested path it echoes (whose words are ignored, but
    not always all of them), and still far below the ~32 bits that separate
    unrelated pages."""

    directory_depth: int = 1
    max_distance: int = 5
    shingle_size: int = 3
    title_max_distance: int | None = 24
    """A page with the same non-empty ``<title>`` as the probe's answer is a soft 404
    up to this distance: error pages that list fresh random links ("you may like
    these instead") drift 6 to 24 bits from one another on a short page, while
    unrelated pages sit near 32. ``None`` turns the title rule off."""

    def __post_init__(self) -> None:
        if self.directory_depth < 0:
            raise ValueError("directory_depth must be >= 0")
        if not 0 <= self.max_distance <= 32:
            raise ValueError("max_distance must be between 0 and 32")


class _ProbeState(Enum):
    PENDING = "pending"
    HONEST = "honest"
    SOFT = "soft"


PROBE_MAX_WORDS = 20_000
"""Words of a probe's answer kept (and of a page compared with it): far more than
any error page has, and a bound on what a directory's probe holds in memory."""


@dataclass(frozen=True)
class _Probe:
    state: _ProbeState
    fingerprint: Fingerprint | None = None
    redirect_target: str | None = None
    title: str = ""
    words: tuple[str, ...] = ()
    echo: frozenset[str] = frozenset()


class Soft404Detector:
    """Learns, per host and directory, what the site answers for a page that does
    not exist, and recognizes that answer on other URLs.

    Flow: ``probe = needs_probe(url)``; if not ``None`` the crawler fetches it
    (following redirects) and calls ``record_probe(probe, status, body, final_url)``;
    then ``classify(url, status, body, final_url)`` for pages under that directory.
    Only a probe answered with 2xx teaches anything: a 404 or 410 means the site is
    honest there, and a failed probe (pass ``status=None``) leaves it unknown.

    Never a soft 404: a non-2xx answer (it is a real error), the site root ``/``
    (a catch-all site serves its home page for unknown paths; the home page itself is
    real), the index of a probed directory (``/guide/`` when a catch-all serves it for
    every path below), and the URL the probe was redirected to.
    """

    def __init__(self, config: Soft404Config | None = None, rng: random.Random | None = None):
        self.config = config if config is not None else Soft404Config()
        self._rng = rng if rng is not None else random.Random()
        self._probes: dict[str, _Probe] = {}
        self._probe_dirs: dict[str, str] = {}

    def needs_probe(self, url: str) -> str | None:
        """The probe URL to fetch before pages of this directory can be classified,
        once per directory; ``None`` if already probed or pending, or if ``url`` is
        invalid."""
        norm = normalize_or_none(url)
        if norm is None:
            return None
        directory = _directory(norm, self.config.directory_depth)
        if directory in self._probes:
            return None
        self._probes[directory] = _Probe(_ProbeState.PENDING)
        probe = soft404_probe_url(norm.key, self._rng, self.config.directory_depth)
        self._probe_dirs[probe] = directory
        return probe

    def record_probe(
        self, probe_url: str, status: int | None, body: str = "", final_url: str | None = None
    ) -> dict[str, Any] | None:
        """What the probe got: the final status after redirects (``None`` if the
        fetch failed), the body and the final URL. Returns the directory's answer
        as learned, as JSON for :meth:`learn` (a crawl journals it at once, so a
        restart does not probe the directory again), or None if nothing was."""
        directory = self._probe_dirs.pop(probe_url, None)
        if directory is None:
            norm = normalize_or_none(probe_url)
            if norm is None:
                return None
            directory = _directory(norm, self.config.directory_depth)
        if status is None:
            self._probes.pop(directory, None)  # unknown: a later page may probe again
            return None
        if not 200 <= status < 300:
            probe = _Probe(_ProbeState.HONEST)
        else:
            final = _key(final_url) if final_url else None
            words = visible_words(body)[:PROBE_MAX_WORDS]
            echo = path_words(probe_url)
            fp = fingerprint_words(words, self.config.shingle_size, echo)
            target = final if final is not None and final != _key(probe_url) else None
            probe = _Probe(_ProbeState.SOFT, fp, target, page_title(body), tuple(words), echo)
        self._probes[directory] = probe
        return _answer(directory, probe)

    def learn(self, answer: Any) -> None:
        """Take back one answer :meth:`record_probe` returned (replayed from a
        journal); :class:`SnapshotError` if ``answer`` is not one."""
        with reading("soft-404"):
            directory, probe = _answer_of(answer)
        self._probes[directory] = probe

    def classify(
        self,
        url: str | NormalizedURL,
        status: int,
        body: str | PageText,
        final_url: str | NormalizedURL | None = None,
    ) -> Reason | None:
        """``soft-404`` if this 2xx answer looks like the directory's probe answer.
        The URLs may come already parsed (the crawler's own keys), never parsed
        again."""
        if not 200 <= status < 300:
            return None
        norm = normalize_or_none(url)
        if norm is None or norm.path == "/":
            return None
        if norm.query is None and f"{norm.origin}{norm.path}" in self._probes:
            return None  # the directory's own index page
        probe = self._known_probe(norm)
        if probe is None or probe.fingerprint is None:
            return None
        if probe.redirect_target is not None:
            # The probe's body is the redirect target's, a real page: only being sent
            # to the same place marks a soft 404, and the target itself is not one.
            final = _key(final_url) if final_url else None
            if final == probe.redirect_target and norm.key != final:
                return Reason.SOFT_404
            return None
        # Both answers lose the words of both paths: removing "to" or "a" that the
        # page's path echoes from the page alone would change the template's
        # shingles around every other "to" and hide the likeness.
        skip = path_words(norm) | probe.echo
        size = self.config.shingle_size
        words = words_of(body)[:PROBE_MAX_WORDS]
        fp = fingerprint_words(words, size, skip)
        ref = (
            probe.fingerprint
            if skip == probe.echo
            else fingerprint_words(list(probe.words), size, skip)
        )
        distance = fp.distance(ref)
        if fp.exact == ref.exact or distance <= self.config.max_distance:
            return Reason.SOFT_404
        limit = self.config.title_max_distance
        if (
            limit is not None
            and probe.title
            and distance <= limit
            and title_of(body) == probe.title
        ):
            return Reason.SOFT_404
        return None

    def snapshot(self) -> dict[str, Any]:
        """The probe answers learned, per directory, as JSON. Probes still pending
        are left out: their answer never came, so a resumed crawl probes again."""
        probes = [
            _answer(directory, probe)
            for directory, probe in self._probes.items()
            if probe.state is not _ProbeState.PENDING
        ]
        return {**header("soft404", 1), "probes": probes}

    @classmethod
    def restore(
        cls,
        data: Any,
        config: Soft404Config | None = None,
        rng: random.Random | None = None,
    ) -> Soft404Detector:
        """The detector :meth:`snapshot` described; :class:`SnapshotError` if
        ``data`` is not one."""
        with reading("soft-404"):
            data = opened(data, "soft404", 1)
            detector = cls(config, rng)
            for item in listed(data["probes"], "probes", dict):
                directory, probe = _answer_of(item)
                detector._probes[directory] = probe
        return detector

    def _known_probe(self, norm: NormalizedURL) -> _Probe | None:
        """The most specific finished probe: the URL's directory, else a parent."""
        for depth in range(self.config.directory_depth, -1, -1):
            probe = self._probes.get(_directory(norm, depth))
            if probe is not None and probe.state is not _ProbeState.PENDING:
                return probe if probe.state is _ProbeState.SOFT else None
        return None


def _answer(directory: str, probe: _Probe) -> dict[str, Any]:
    """A directory's finished probe as JSON: one shape for the snapshot and the journal."""
    fp = probe.fingerprint
    return {
        "directory": directory,
        "state": probe.state.value,
        "fingerprint": None if fp is None else [fp.exact, fp.simhash, fp.words],
        "redirect_target": probe.redirect_target,
        "title": probe.title,
        "words": list(probe.words),
        "echo": sorted(probe.echo),
    }


def _answer_of(item: Any) -> tuple[str, _Probe]:
    """:func:`_answer` read back (inside a :func:`reading` block, which turns a bad
    shape into a :class:`SnapshotError`)."""
    fp = item["fingerprint"]
    target = item["redirect_target"]
    state = _ProbeState(item["state"])
    if state is _ProbeState.PENDING:
        raise ValueError("a pending probe is no answer")
    return typed(item["directory"], str, "directory"), _Probe(
        state,
        None if fp is None else Fingerprint(*(typed(v, int, "fp") for v in fp[:3])),
        None if target is None else typed(target, str, "redirect target"),
        typed(item["title"], str, "title"),
        tuple(listed(item["words"], "words", str)),
        frozenset(listed(item["echo"], "echo", str)),
    )


def _key(url: str | NormalizedURL) -> str | None:
    norm = normalize_or_none(url)
    return norm.key if norm is not None else None
