"""Tokens a redirect mints for each visit: a reservation's, a cart's, a checkout's.

A form submitted by GET (``/reserve?checkin=…&nights=2``, the query of the page that
links it, on another path) that answers with a redirect to a path carrying a token the
request did not (``/reservation/4ab9d1356cee413f/guest``) has made a new object for
the visit, and its pages (``guest``, ``extras``, ``summary``) are the same for every
visit under a new token. Two such redirects of one form's path, each to its own token
at the same place of one path, prove that place a session id
(:meth:`robotkit.url.learned.LearnedRules.learn_minted`): the token is one value a visit, and a page
under another one is the page already fetched (blind13 ``booking``: each of 55
reservations was read at its three steps, 165 fetches). A form is the page's own query
on another path, so a short link (``/s/x7k2q9`` to ``/post/<id>``) and a symbolic
name (``/latest`` to a commit's hash), which name objects, are none. The evidence is
saved with the crawl's state (:meth:`Minted.snapshot`): a resumed crawl proves a form's
token with the redirects it had met before. Pure: no I/O.
"""

from __future__ import annotations

from typing import Any

from robotkit.base.snapshot import listed, typed
from robotkit.url.normalization import NormalizedURL
from robotkit.url.rewrites import is_token, path_segments, query_pairs

__all__ = ["MAX_FORMS", "Minted"]

MAX_FORMS = 10_000
"""Forms whose redirects are remembered (a bound on memory)."""
MINTED = 2
"""Redirects of one form, each to a token of its own, that prove the token a visit's."""


def _form(asked: NormalizedURL, referer: NormalizedURL | None) -> bool:
    """Whether ``asked`` submits its referer's state: the referer's query, in any
    order, on another path of its origin."""
    return (
        referer is not None
        and bool(asked.query)
        and (referer.origin, referer.path) != (asked.origin, asked.path)
        and referer.origin == asked.origin
        and sorted(query_pairs(asked.query)) == sorted(query_pairs(referer.query))
    )


class Minted:
    """The tokens each form's redirects minted; see the module docstring."""

    def __init__(self) -> None:
        self._tokens: dict[tuple[str, str, str], set[str]] = {}

    def snapshot(self) -> list[list[Any]]:
        """The tokens each form's redirects minted, as JSON."""
        return [[*form, sorted(tokens)] for form, tokens in self._tokens.items()]

    @classmethod
    def restored(cls, entries: Any) -> Minted:
        """From :meth:`snapshot`'s entries (inside the caller's ``reading``)."""
        minted = cls()
        for origin, path, shape, tokens in listed(entries, "minted", list):
            form = (
                typed(origin, str, "origin"),
                typed(path, str, "path"),
                typed(shape, str, "shape"),
            )
            minted._tokens[form] = set(listed(tokens, "token", str))
        return minted

    def observe(
        self, asked: NormalizedURL, final: NormalizedURL, referer: NormalizedURL | None
    ) -> tuple[int, str] | None:
        """A page ``asked`` (linked by ``referer``) answered from ``final``: the
        place (a path segment's index) proven a session id now, with its proof."""
        if asked.path == final.path or final.origin != asked.origin or not _form(asked, referer):
            return None
        segments = path_segments(final.path)
        for i, segment in enumerate(segments[:-1]):
            if not is_token(segment) or segment in asked.key:
                continue
            shape = "/".join(s if j != i else "*" for j, s in enumerate(segments))
            key = (str(asked.origin), asked.path, shape)
            if key not in self._tokens and len(self._tokens) >= MAX_FORMS:
                return None
            tokens = self._tokens.setdefault(key, set())
            if len(tokens) < MINTED:
                tokens.add(segment)
            if len(tokens) >= MINTED:
                return i, f"session id in path segment {i + 1}: {asked.path} redirects to /{shape}"
        return None
