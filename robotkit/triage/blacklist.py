"""Blacklists: hosts, domains, URL prefixes, regexes and globs a robot must never
fetch, from code, from a file (:meth:`Blacklist.from_file`) or learned by the trap
guard (``auto`` entries). Entries are matched against a URL's de-duplication key, so
they are normalized like keys are (RFC 3986 section 6.2.2).

Pure core: no I/O except :meth:`Blacklist.from_file`, a convenience used once at
start-up.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from robotkit.base.errors import UsageError
from robotkit.base.reasons import CodeEnum
from robotkit.url.normalization import normalize, normalize_key
from robotkit.url.parse import InvalidURL

__all__ = ["Blacklist", "BlacklistEntry", "BlacklistKind", "BlacklistSyntaxError"]


class BlacklistKind(CodeEnum):
    """What a blacklist entry matches; the value is the keyword of the file format."""

    HOST = "host"
    DOMAIN = "domain"
    PREFIX = "prefix"
    REGEX = "regex"
    GLOB = "glob"
    AUTO = "auto"


@dataclass(frozen=True)
class BlacklistEntry:
    """One blacklist rule. ``source`` says where it came from (``file:line``,
    ``code``, or for an automatic entry what triggered it)."""

    kind: BlacklistKind
    pattern: str
    source: str = "code"

    def describe(self) -> str:
        return f"{self.kind}:{self.pattern} ({self.source})"


class BlacklistSyntaxError(UsageError):
    """A line of a blacklist file that cannot be understood."""

    def __init__(self, source: str, line: int, text: str, problem: str) -> None:
        super().__init__(f"{source}:{line}: {problem}: {text!r}")
        self.source = source
        self.line = line
        self.text = text
        self.problem = problem


def _norm_host(host: str) -> str:
    """A host as :func:`robotkit.url.normalization.normalize` spells it (lower case, punycode, no
    trailing dot), so ``host:bücher.example`` matches ``xn--bcher-kva.example``."""
    text = host.strip().rstrip(".").lower()
    try:
        return normalize(f"http://{text}/").host
    except InvalidURL:
        return text


def _norm_prefix(prefix: str) -> str:
    """A URL prefix normalized like the keys it is compared with (RFC 3986 section
    6.2.2); left as written if it is not a whole URL. A prefix ending in ``?``
    (``http://x/shop?``: the query variants of ``/shop``, not ``/shopping``) keeps
    it, though normalizing drops an empty query."""
    try:
        norm = normalize_key(prefix)
    except InvalidURL:
        return prefix
    if prefix.endswith("?") and "?" not in norm:
        norm += "?"
    return norm


class Blacklist:
    """Hosts, domains (suffix on a label boundary: ``domain:example.com`` covers
    ``a.example.com`` but not ``badexample.com``), URL prefixes, regular expressions
    (``re.search``) and globs (``fnmatch``, ``*`` crosses ``/``).

    Prefixes, regular expressions and globs are matched against the URL key: scheme
    and host lower-cased (and, once ``normalization.normalize`` is used, fully normalized).

    File format, one rule per line, ``#`` starts a comment line, blank lines ignored::

        host: calendar.example.com
        domain: spam.example
        prefix: http://example.com/cgi-bin/
        regex: [?&]sort=.*[?&]sort=
        glob: *://*/print/*
    """

    def __init__(self, entries: Iterable[BlacklistEntry] = ()) -> None:
        self._hosts: dict[str, BlacklistEntry] = {}
        self._domains: dict[str, BlacklistEntry] = {}
        self._prefixes: dict[str, list[tuple[str, BlacklistEntry]]] = {}
        self._patterns: list[tuple[re.Pattern[str], BlacklistEntry]] = []
        self._entries: list[BlacklistEntry] = []
        for entry in entries:
            self.add(entry)

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def entries(self) -> tuple[BlacklistEntry, ...]:
        return tuple(self._entries)

    def add(self, entry: BlacklistEntry) -> None:
        """Add a rule; raises ``ValueError`` (``re.error``) for a bad regex."""
        kind, pattern = entry.kind, entry.pattern.strip()
        if not pattern:
            raise ValueError(f"empty {kind} pattern")
        if kind is BlacklistKind.HOST:
            self._hosts.setdefault(_norm_host(pattern), entry)
        elif kind is BlacklistKind.DOMAIN:
            self._domains.setdefault(_norm_host(pattern).lstrip("."), entry)
        elif kind in (BlacklistKind.PREFIX, BlacklistKind.AUTO):
            norm = _norm_prefix(pattern)
            host = _prefix_host(norm)
            self._prefixes.setdefault(host, []).append((norm, entry))
        elif kind is BlacklistKind.REGEX:
            self._patterns.append((re.compile(pattern), entry))
        else:
            self._patterns.append((re.compile(fnmatch.translate(pattern)), entry))
        self._entries.append(entry)

    @classmethod
    def from_text(cls, text: str, source: str = "<blacklist>") -> Blacklist:
        """Parse the line format above; raises :class:`BlacklistSyntaxError`."""
        blacklist = cls()
        kinds = {k.value: k for k in BlacklistKind if k is not BlacklistKind.AUTO}
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            keyword, sep, value = line.partition(":")
            kind = kinds.get(keyword.strip().lower())
            if not sep or kind is None:
                raise BlacklistSyntaxError(
                    source, number, raw, "expected host:, domain:, prefix:, regex: or glob:"
                )
            try:
                blacklist.add(BlacklistEntry(kind, value.strip(), f"{source}:{number}"))
            except (ValueError, re.error) as exc:
                raise BlacklistSyntaxError(source, number, raw, str(exc)) from None
        return blacklist

    @classmethod
    def from_file(cls, path: str | Path) -> Blacklist:
        """Read a blacklist file (UTF-8). The one I/O of this module, for start-up."""
        file = Path(path)
        return cls.from_text(file.read_text(encoding="utf-8", errors="replace"), str(file))

    def match(self, key: str, host: str) -> BlacklistEntry | None:
        """The first rule that covers a URL (its key and lower-cased host)."""
        entry = self._hosts.get(host)
        if entry is not None:
            return entry
        if self._domains:
            label = host
            while True:
                entry = self._domains.get(label)
                if entry is not None:
                    return entry
                dot = label.find(".")
                if dot < 0:
                    break
                label = label[dot + 1 :]
        for prefix, entry in self._prefixes.get(host, ()):
            if key.startswith(prefix):
                return entry
        for pattern, entry in self._patterns:
            if pattern.search(key):
                return entry
        return None


def _prefix_host(prefix: str) -> str:
    try:
        return normalize(prefix).host
    except InvalidURL:
        return ""
