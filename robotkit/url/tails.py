"""Session ids as a path's last segment: ``/F/<session>-<seq>?func=…`` is ``/F/?func=…``.

Some applications put the session in the path's last segment and name the page by the
query: Ex Libris Aleph's OPAC answers ``/F/?func=direct&doc_number=…`` with a redirect
into a session, ``/F/<session>-<sequence>?func=…``, and every link of every response
then carries a session and a sequence number of its own (the "F" server of Aleph
500, whose ``<session>-<seq>`` the OPAC's "Web OPAC" guide documents). The rules that
learn a session segment from its place among others
(:meth:`robotkit.url.learned.LearnedRules.observe_links`) never see it: it is the
last segment, where a commit's or a file's name stands (``/commit/<sha>``), and a
page links a new value in each of its links. The pair rule needs a copy: the page at
the folder itself (``/F/?q``) and under a token (``/F/<token>?q``) gave one text.

Two such copies under different queries prove the folder's last segment a session id
(:class:`SessionTails`): a repository browser's ``/commit/`` shows the latest commit,
one object under one query, as ``/commit/<its sha>`` does
(:func:`robotkit.url.objects.default_object`), and a page that links two tokens
there with one query (a log listing ``/commit/<a>`` and ``/commit/<b>``) names pages
by it and vetoes the folder for good. A session names the query's page, whatever
the query. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from robotkit.base.snapshot import listed, typed
from robotkit.url.normalization import NormalizedURL
from robotkit.url.rewrites import Rewrites, is_token, path_segments

__all__ = ["PROOFS", "SessionTails", "folder_of", "tail_token"]

PROOFS = 2
"""Copies at a folder and under a token, each under its own query, that prove it."""


def folder_of(path: str) -> str:
    """The folder of ``path``, up to its last ``/`` (``/F/`` of ``/F/x7K2``)."""
    return path[: path.rfind("/") + 1]


def tail_token(norm: NormalizedURL) -> str | None:
    """``norm``'s last path segment when it is a token below a folder (not the root's
    own segment), else ``None``."""
    segments = path_segments(norm.path)
    return segments[-1] if len(segments) > 1 and is_token(segments[-1]) else None


class SessionTails:
    """Folders of each origin whose last segment is proven a session id, the evidence
    for the others, and the folders a page proved to name pages."""

    def __init__(self) -> None:
        self._queries: dict[tuple[str, str], set[str]] = {}
        self._vetoed: set[tuple[str, str]] = set()

    def snapshot(self) -> dict[str, Any]:
        """The evidence and the vetoes, as JSON."""
        return {
            "queries": [[o, f, sorted(q)] for (o, f), q in sorted(self._queries.items())],
            "vetoed": [[o, f] for o, f in sorted(self._vetoed)],
        }

    @classmethod
    def restored(cls, data: Any) -> SessionTails:
        """From :meth:`snapshot` (inside the caller's ``reading``)."""
        tails = cls()
        for origin, folder, queries in listed(data.get("queries", []), "tails", list):
            key = typed(origin, str, "origin"), typed(folder, str, "folder")
            tails._queries[key] = set(listed(queries, "query", str))
        for origin, folder in listed(data.get("vetoed", []), "vetoed tails", list):
            tails._vetoed.add((typed(origin, str, "origin"), typed(folder, str, "folder")))
        return tails

    def learn(
        self, one: NormalizedURL, other: NormalizedURL, rules: Rewrites, proofs: dict[str, str]
    ) -> bool:
        """Two URLs whose pages gave one text, the one at a folder itself, the other
        under a token there, one query: learn the folder's last segment a session id
        into ``rules`` (its proof into ``proofs``) when the copies now prove it.
        Returns whether they did."""
        if one.origin != other.origin or one.query != other.query:
            return False
        bare, token = (one, other) if one.path.endswith("/") else (other, one)
        if not bare.path.endswith("/") or tail_token(token) is None:
            return False
        key = str(bare.origin), bare.path
        if folder_of(token.path) != bare.path or key in self._vetoed:
            return False
        queries = self._queries.setdefault(key, set())
        queries.add(bare.query or "")
        if len(queries) < PROOFS:
            return False
        rules.of(bare).session_tails.add(bare.path)
        proof = f"session id ending {bare.path}: {one.original} and {other.original} gave one text"
        proofs[f"{bare.origin} tail {bare.path}"] = proof
        return True

    def observe_links(self, links: Iterable[NormalizedURL], rules: Rewrites) -> None:
        """Veto each folder a page links two tokens in under one query (it names
        pages by them: a log's commits), and withdraw it from ``rules``."""
        seen: dict[tuple[str, str, str], str] = {}
        for link in links:
            token = tail_token(link)
            if token is None:
                continue
            key = str(link.origin), folder_of(link.path), link.query or ""
            if seen.setdefault(key, token) != token:
                self._vetoed.add(key[:2])
                self._queries.pop(key[:2], None)
                if rules.knows(link):
                    rules.of(link).session_tails.discard(key[1])
