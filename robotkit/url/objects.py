"""Objects named by an id in a query: a commit's ``id=<sha>``, a revision's
``r=<hash>``, a parameter some page linked with several token values (a log listing
commits, a history listing revisions), never a session's
(:meth:`robotkit.url.learned.LearnedRules.observe_links`).

A repository browser serves every file at every commit (cgit's
``tree/<file>?id=<sha>``, gitweb's ``hb=``, OpenGrok's ``xref/<file>?r=<rev>``): the
file itself when the commit did not touch it. Such a copy proves the id on the files of
its section (:func:`~robotkit.url.rewrites.files_of`), not on a directory's index the id
alone names (``commit/?id=<sha>``, the commit itself), and that index, differing from
its path without the id, disproves nothing on the files (:func:`object_scopes`). And the
path without the id shows one object by default (``commit/``, the latest commit): its
copy under its own id says nothing of the others (:func:`default_object`). Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Container, Iterable

from robotkit.url.normalization import NormalizedURL
from robotkit.url.rewrites import files_of, is_token, named_value, param_name, query_pairs

__all__ = ["default_object", "names_object", "object_scopes"]


def names_object(listed: Container[tuple[str, str]], origin: str, pair: str) -> bool:
    """Whether ``pair``'s value is a token (not a name of words) of a parameter some
    page of ``origin`` linked with several token values (``listed``: origin and name):
    an object's id."""
    value = pair.partition("=")[2]
    named = named_value(value) or not is_token(value)
    return not named and (origin, param_name(pair)) in listed


def object_scopes(
    listed: Container[tuple[str, str]], origin: str, pairs: Iterable[str], where: str
) -> dict[str, str]:
    """Where each of ``pairs``, added to a page of section ``where`` with one text, is
    proven to change nothing: the section, or its files for an object's id (blind2
    ``cgit``: ``id=<sha>`` proven on a file was dropped in all of ``/cgit/``, and 5 of
    24 commits, ``commit/?id=<sha>``, were keyed as ``commit/``, the latest)."""
    return {p: files_of(where) if names_object(listed, origin, p) else where for p in pairs}


def default_object(
    listed: Container[tuple[str, str]], norm: NormalizedURL, old: NormalizedURL | None
) -> bool:
    """Whether ``norm`` is a copy of its own path without its query (``old``) under an
    object's id: the object the bare path shows by default, a repository browser's
    latest commit (cgit's ``commit/`` and ``commit/?id=<head>``), a file's head
    revision (OpenGrok's ``f.c?r=<head>``). One object of the family is its path's
    default, so its copy is no evidence against the others (blind2 ``cgit``: counted,
    it made the commits' family barren, with a kin's proof, after that one page, and
    5 commits waited for good; blind5 ``opengrok``: a file's head revision beside its
    older ones, 2 of them waited)."""
    if old is None or old.query or (old.origin, old.path) != (norm.origin, norm.path):
        return False
    pairs = query_pairs(norm.query)
    return bool(pairs) and all(names_object(listed, str(norm.origin), p) for p in pairs)
