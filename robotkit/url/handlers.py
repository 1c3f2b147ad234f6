"""A script's handler: the template of a script its query asks for, by a dispatch name.

One script often serves a whole application, the page it renders named by a parameter
it dispatches on: Matomo's ``module=CoreHome&action=index``, OTRS and Znuny's
``Action=PublicFAQZoom``, gitweb's ``a=commit``, DokuWiki's ``do``, MediaWiki's and
SMF's ``action``. Each handler is a template of its own, and a repository browser's
renders it at a revision: the tree or blob at the symbolic ``HEAD`` (``hb=HEAD``,
hgweb's ``tip``) is the record, the same handler at a commit's hash a view of that
commit (:func:`at_revision`). So the region guard judges a parked space per handler
(:mod:`robotkit.triage.routes`), and the waste bound counts each handler's pages as a
family of their own (:func:`robotkit.url.waste.waste_family`).
Pure: no I/O.
"""

from __future__ import annotations

import re

from robotkit.url.normalization import NormalizedURL
from robotkit.url.rewrites import param_name, query_states

__all__ = ["at_revision", "handler_pairs"]

_HANDLERS = frozenset({"module", "action", "a", "do", "op", "act", "cmd", "task"})
"""Names of the parameter a script dispatches on, the handler a query asks for:
Matomo's ``module`` and ``action``, OTRS and Znuny's ``Action`` (not ``Subaction``: a
vote is an action on an article), gitweb's ``a``, DokuWiki's ``do``, MediaWiki's and
SMF's ``action``."""
_HANDLER = re.compile(r"[a-z][a-z_]*", re.I)
"""A handler's name: a word (``PublicFAQZoom``, ``shortlog``), never a number or an id."""
_REVISION = re.compile(r"[0-9a-f]{40}(?:[0-9a-f]{24})?", re.I)
"""A revision named by its hash: git's and Mercurial's object names in full (SHA-1,
40 hex digits; git's SHA-256, 64)."""


def handler_pairs(norm: NormalizedURL) -> list[str]:
    """The handler pairs of a script's query (``a=shortlog``; ``module=CoreHome``
    and ``action=index``), in order, ``;``-joined states too; none for a query that
    names no handler by a word (a file's path is no handler: gitweb's
    ``a=blob;f=src/io.c``)."""
    return [
        pair
        for pair in query_states(norm.query)
        if param_name(pair) in _HANDLERS and _HANDLER.fullmatch(pair.partition("=")[2])
    ]


def at_revision(norm: NormalizedURL) -> bool:
    """Whether a query names a revision by its hash (gitweb's ``hb=3eac0094…``,
    hgweb's ``node=``, cgit's ``id=``): the view at that commit of what the same
    handler shows of the branch's head, named by a word (``hb=HEAD``) or not at all."""
    return any(_REVISION.fullmatch(pair.partition("=")[2]) for pair in query_states(norm.query))
