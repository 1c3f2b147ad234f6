"""Path substitutions learned from content: a directory reached under two names.

DUST's core rule (Bar-Yossef, Keidar, Schonfeld, "Do not crawl in the DUST", WWW 2007,
section 4): two URLs with the same content, less their common prefix and suffix,
give a substring substitution alpha -> beta that may hold for the whole site. On a
file server this is a symlink: ``/docs/api/self/`` (``self -> .``) serves
``/docs/api/``, ``/docs/manual/parent/`` (``parent -> ../..``) serves ``/``, and
``/download/current/`` serves ``/download/releases/2.1/``. Learned as a path-prefix
rewrite (the prefix kept as context, so ``self/`` elsewhere is not touched), it keys
every queued and future URL under the alias on the real directory, so a loop costs
the fetches that prove it instead of one per nesting.

Proof, because a false rule loses pages silently: two pairs with the same rewrite and
one text each, one of them a pair of directory listings (Apache mod_autoindex
pages), compared without their ``Index of /path`` heading and ``Parent Directory``
row, the only words in which two names of one directory differ. A pair with the same
rewrite and two texts vetoes it, or withdraws it once learned.

Direction: the alias is the name that contains the other (a loop can nest forever);
of two sibling names (``current`` and ``releases/2.1``), the deeper is the real
directory (a link is a shortcut), and of two as deep, the first fetched.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import unquote

from robotkit.base.snapshot import listed, typed
from robotkit.url.normalization import NormalizedURL
from robotkit.url.rewrites import common_tail, folder

PAIRS = 2
"""Pairs of URLs with one text under a rewrite, one of them listings, before it is
learned."""
MAX_CANDIDATES = 200
"""Rewrites tried per origin (a bound on the work a site of copies can cause)."""
MAX_NESTING = 64
"""Rewrites applied to one path at most (a loop nested that deep is cut anyway)."""
_WORD = re.compile(r"[a-z0-9]+")
_NUMBERED = re.compile(r"\d")


def listing_text(path: str, words: Sequence[str]) -> int | None:
    """The hash of a directory listing's words without its heading (``Index of
    /docs/api``, in the title and the first header) and its ``Parent Directory`` row,
    or ``None`` when the page is no listing of ``path`` (Apache mod_autoindex)."""
    heading = ["index", "of", *_WORD.findall(unquote(path).lower())]
    n = len(heading)
    if list(words[:n]) != heading:
        return None
    rest = list(words[n:])
    if rest[:n] == heading:
        rest = rest[n:]
    for i in range(min(len(rest) - 1, 8)):
        if rest[i] == "parent" and rest[i + 1] == "directory":
            del rest[i : i + 2]
            break
    digest = hashlib.blake2b("\x00".join(rest).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def rewrite_of(path: str, older: str) -> tuple[str, str] | None:
    """The prefix rewrite ``(alias, real)`` two paths with one text suggest (their
    common suffix and prefix removed), or ``None`` when they differ otherwise than in
    one directory name."""
    one, two = path.split("/")[1:], older.split("/")[1:]
    if (one[-1] == "") != (two[-1] == ""):
        return None
    k = common_tail(one, two)
    if k == 0:
        return None
    one, two = one[: len(one) - k], two[: len(two) - k]
    if one == two:
        return None
    a, b = folder(one), folder(two)
    if a.startswith(b):
        return a, b
    if b.startswith(a):
        return b, a
    return (a, b) if len(one) <= len(two) else (b, a)


@dataclass
class _Site:
    texts: dict[str, tuple[int, bool]] = field(default_factory=dict)
    """A path (with its query) to its text hash, and whether it is a listing's."""
    by_text: dict[int, list[str]] = field(default_factory=dict)
    support: dict[tuple[str, str], set[str]] = field(default_factory=dict)
    """A rewrite tried to the pairs (``path = other``) that gave one text under it."""
    listings: set[tuple[str, str]] = field(default_factory=set)
    vetoed: set[tuple[str, str]] = field(default_factory=set)
    learned: dict[str, str] = field(default_factory=dict)
    """An alias prefix to the real one."""


class Substitutions:
    """The path rewrites learned per origin; pure, no I/O."""

    def __init__(self, max_texts: int = 200_000) -> None:
        self._sites: dict[str, _Site] = {}
        self.max_texts = max_texts

    def rewrite(self, origin: str, path: str) -> str:
        """``path`` with the origin's learned aliases replaced by their real prefix."""
        site = self._sites.get(origin)
        if site is None or not site.learned:
            return path
        for _ in range(MAX_NESTING):
            for alias, real in site.learned.items():
                if path.startswith(alias):
                    path = real + path[len(alias) :]
                    break
            else:
                return path
        return path

    def explain(self, origin: str, path: str) -> str | None:
        """The rewrite that changes ``path``, with its proof, for a skip record."""
        site = self._sites.get(origin)
        for alias, real in (site.learned if site else {}).items():
            if path.startswith(alias):
                pairs = sorted(site.support.get((alias, real), ())) if site else []
                return f"path {alias} names {real} (same text: {', '.join(pairs[:3])})"
        return None

    def observe(self, origin: str, target: str, text: int, listing: bool) -> list[str]:
        """A fetched page's text (a listing's without its heading) under its path and
        query: support, veto or learn rewrites. A line for each learned or withdrawn."""
        site = self._sites.setdefault(origin, _Site())
        if target in site.texts or len(site.texts) >= self.max_texts:
            return []
        site.texts[target] = (text, listing)
        said: list[str] = []
        for rule in [*site.support]:
            other = _counterpart(rule, target)
            if other is not None and other in site.texts:
                said += self._judge(site, rule, target, other)
        earlier = site.by_text.setdefault(text, [])
        for older in earlier:
            tried = rewrite_of(target, older)
            if tried is None or tried in site.vetoed or tried in site.support:
                continue
            if len(site.support) >= MAX_CANDIDATES:
                break
            site.support[tried] = set()
            for known in [*site.texts]:
                other = _counterpart(tried, known)
                if other is not None and other in site.texts:
                    said += self._judge(site, tried, known, other)
        if len(earlier) < 8:
            earlier.append(target)
        return said

    def _judge(self, site: _Site, rule: tuple[str, str], one: str, two: str) -> list[str]:
        if rule in site.vetoed:
            return []
        (text, listing), (other, other_listing) = site.texts[one], site.texts[two]
        alias, real = rule
        if text != other or listing != other_listing:
            site.vetoed.add(rule)
            site.support.pop(rule, None)
            if site.learned.get(alias) == real:
                del site.learned[alias]
                return [f"withdrawn ({one} and {two} differ): path {alias} names {real}"]
            return []
        pair = " = ".join(sorted((one, two), key=len, reverse=True))
        site.support[rule].add(pair)
        if listing:
            site.listings.add(rule)
        proven = len(site.support[rule]) >= PAIRS and rule in site.listings
        if not proven or alias in site.learned:
            return []
        site.learned[alias] = real
        return [f"path {alias} names {real} (same text: {'; '.join(sorted(site.support[rule]))})"]

    def snapshot(self) -> list[Any]:
        return [
            [origin, sorted(site.learned.items()), sorted(map(list, site.vetoed))]
            for origin, site in self._sites.items()
            if site.learned or site.vetoed
        ]

    def restore(self, data: Any) -> None:
        """Take back :meth:`snapshot`: the rewrites and vetoes (the texts that proved
        them are not kept)."""
        sites: dict[str, _Site] = {}
        for origin, learned, vetoed in listed(data, "substitutions", list):
            site = sites[typed(origin, str, "origin")] = _Site()
            for alias, real in listed(learned, "rewrite", list):
                site.learned[typed(alias, str, "alias")] = typed(real, str, "prefix")
            site.vetoed = {
                (typed(a, str, "alias"), typed(b, str, "prefix"))
                for a, b in listed(vetoed, "veto", list)
            }
        self._sites = sites


def at_home(copy: NormalizedURL, old: NormalizedURL | None, referer: NormalizedURL | None) -> bool:
    """Whether ``copy``, one text with ``old`` fetched before, is the same file under a
    sibling directory (``/api/2.1/io/A.html`` beside ``/api/latest/io/A.html``; not a
    name containing the other, a loop's) and was linked from inside its own directory
    (by ``/api/2.1/overview-tree.html``): a page of a tree its own pages link, read
    after its alias was reached from another tree (a version menu). Which name is the
    real directory the text cannot tell; as evidence, three such pages made the family
    of a release's class pages barren (blind7 ``javadoc``: 11 of 47 pages)."""
    if old is None or referer is None or not copy.origin == old.origin == referer.origin:
        return False
    rule = rewrite_of(copy.path, old.path)
    if rule is None or any(a.startswith(b) for a, b in (rule, rule[::-1])):
        return False
    # A word beside a version (``latest/`` of ``2.1/``) is an alias; two numbers are two
    # objects with one view each (an empty ``/dataset/{n}/history/``), one family.
    if all(_NUMBERED.search(p.rstrip("/").rpartition("/")[2]) for p in rule):
        return False
    return any(copy.path.startswith(p) and referer.path.startswith(p) for p in rule)


def moved(norm: NormalizedURL, path: str) -> NormalizedURL:
    """``norm`` with ``path`` for its path (and its key rebuilt), or ``norm`` itself."""
    if path == norm.path:
        return norm
    query = f"?{norm.query}" if norm.query is not None else ""
    return replace(norm, path=path, key=f"{norm.origin}{path}{query}")


def _counterpart(rule: tuple[str, str], target: str) -> str | None:
    """``target``'s spelling on the other side of ``rule``, if it has one."""
    alias, real = rule
    if target.startswith(alias):
        return real + target[len(alias) :]
    if target.startswith(real):
        return alias + target[len(real) :]
    return None
