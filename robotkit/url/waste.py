"""The families the waste bound counts a URL's fetches under (ARCHITECTURE.md, "The
waste bound"; :mod:`robotkit.triage.waste`): a URL's origin, its directory with its
numbers, ids and objects masked, the names kept that tell an object's views and
other formats apart, and its parameter names (:func:`waste_family`); and its shape,
the parameter names alone (:func:`waste_shape`). Pure: no I/O.
"""

from __future__ import annotations

import re

from robotkit.url.handlers import at_revision, handler_pairs
from robotkit.url.normalization import NormalizedURL
from robotkit.url.rewrites import is_token, param_name, query_pairs
from robotkit.url.template import url_template
from robotkit.url.views import SELECTORS

__all__ = ["STATIC", "waste_family", "waste_shape"]

STATIC = frozenset({"html", "htm", "shtml", "xhtml"})
"""Extensions of static files: a server that serves ``a.html/x`` as ``a.html`` for two
such files does it for all (Apache ``AcceptPathInfo On``, :mod:`robotkit.url.families`);
scripts (``.php``, ``.cgi``) route their path info and are proven one by one. Neither a
script's name nor an export's format in a waste family."""

_YEAR = re.compile(r"(19|20)\d\d")
"""A directory named by a year: an archive's, by date."""
_SCRIPT = re.compile(r"[A-Za-z0-9_\-]+\.([A-Za-z][A-Za-z0-9]{1,5})")  # ``product.do``
_FORMAT = re.compile(r"(?<=\})\.([A-Za-z][A-Za-z0-9]{0,5})(?:\.[A-Za-z0-9]{1,5})?$")  # {id}.diff
_KIND = re.compile(r"([A-Za-z]{2,}[-_])\{")  # ``page-{n}``, ``post-{n}``
_TITLE = re.compile(r"[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+){2,}")
"""A title's slug of three words or more: it names one object, as an id does."""
_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)+")
"""A slug of two words or more (``and-much``): under a word, one object's name."""
_WORD = re.compile(r"[a-z]+")
"""A directory named by a lower-case word (``books``, ``page``, ``export``)."""
_SUBSCRIPT = re.compile(r"(?:\[|%5b|%\{n\}b).*", re.IGNORECASE)
"""A parameter name's subscript, ``[price]`` of ``sorting[price]`` (``%5B`` escaped, and
as a template writes it, ``%{n}B``)."""
_SEARCH = re.compile(r"-?[A-Za-z_][\w-]*:[^+]+(?:\+-?[A-Za-z_][\w-]*:[^+]+)+")
"""A path segment that is a search of two terms or more, ``name:value`` joined by ``+``
(Gerrit's ``/q/status:open+-is:wip+owner:x``)."""
_OBJECT_IDS = frozenset({"{n}", "{id}", "{t}"})
"""A directory's own name, masked, when it is one number or id: an object's."""


def _variable(segment: str) -> bool:
    """Whether a path segment of a URL's template is a number, an id or a token
    (``{n}``, ``{id}``, ``{t}``) rather than a name."""
    return "{" in segment


def _named(own: str, leaf: str) -> str:
    """The last two segments of a path family (:func:`waste_family`): the
    directory's own name masked (``*``), and the page's own name masked as ``{v}``
    when it is a number or id. A numbered page (``/job/x/280/``) is thus not of the
    family of the word-named aliases beside it (``/job/x/lastBuild/``, copies of
    numbered pages), nor they of it. Under a directory named by one number or id
    the page's name is kept: it names a view of one object (``/dataset/{n}/history``,
    ``/job/x/{n}/console``), which the same view of every other object may copy (a
    history that is empty everywhere), not the object's other views. A directory
    named by a version (``/2.9.0/``) or a year (``/2024/``) holds a tree of
    documents, not the views of one object: its pages stay one family. A name with
    selectors (``en.print.html``, :data:`~robotkit.url.views.SELECTORS`) is masked as
    ``*.{s}``: the selector views of a directory's pages are a family of their own,
    apart from the pages (blind5 ``aem``: a home page's views beside its translation);
    so is a name with path parameters (``a-fonds;isad``, ``*;{s}``): its display
    states, apart from the pages (blind11 ``atom``: each description's standards).
    A number's word (``post-{v}``), an export's extension (``{v}.diff``) and a top
    directory's name (``/posts/{v}``) are kept: three such copies made the thread pages,
    members or commits beside them barren (blind7 ``xenforo``, ``gitea``)."""
    if ";" in leaf:
        return "*/*;{s}"
    if not _variable(leaf):
        view = SELECTORS.fullmatch(leaf)
        return "*/" + ("*.{s}" if view else leaf if own in _OBJECT_IDS else "*")
    kind, export = _KIND.match(leaf), _FORMAT.search(leaf)
    word = kind.group(1) if kind else ""
    ext = export.group() if export and export.group(1).lower() not in STATIC else ""
    return f"*/{word}{{v}}{ext}"


def _object(raw: list[str], i: int) -> bool:
    """Whether segment ``i`` of a directory's path (``raw``, split on ``/``) names one
    object of the word-named directory above it: a slug (``/books/and-much/``,
    ``/page/then-manuscript/``), never a top directory (a section, ``/user-guide/``).
    Masked, the word-named views under an object (``/books/*/page/*``,
    ``/books/*/export/*``) are families apart, each across objects (blind10
    ``bookstack``: every book's exports, copies, made the family of its pages barren
    when both were ``/books/and-much/*/*``)."""
    return i >= 2 and bool(_SLUG.fullmatch(raw[i])) and bool(_WORD.fullmatch(raw[i - 1]))


def _searched(norm: NormalizedURL) -> str | None:
    """The directory of a search written in the path (:data:`_SEARCH`), or None. Its
    terms in any number and click order, and what follows them (a project's name
    has slashes: ``project:lantern/plugins/meter``), are one family: each
    refinement a search result page suggests was a directory of its own, never
    barren (blind11 ``gerrit``). A single term (``/wiki/Special:Log``, a wiki's
    namespace; ``/orbit:start``) is a page's name, not a search."""
    if norm.query:
        return None
    segments = norm.path.split("/")
    for i in range(1, len(segments)):
        if _SEARCH.fullmatch("/".join(segments[i:])):
            return "/".join(segments[:i])
    return None


def waste_family(norm: NormalizedURL) -> str:
    """The family the waste bound counts a URL's fetches under
    (:mod:`robotkit.triage.waste`): its origin, its directory with numbers and ids
    masked (an id-like segment, ``/d/XlmoC7F0N/``, as ``{t}``), and its parameter
    names (``/news/*?v`` for ``/news/a-story?v=8f3a``, ``/cal/*/{v}`` for
    ``/cal/2027/03/``), with a script's name kept (``/shop/product.do?id``), and
    the handler a script's query dispatches on (:mod:`robotkit.url.handlers`:
    gitweb's ``a=tree`` apart from ``a=blame``, each a template of its own; a page
    named by its path keeps its actions in one family), marked ``@`` at
    a commit's hash (the view of that commit, apart from the record at the head). A
    cache-buster, toggle or sort switch on every page of a directory is one family.
    Without a query, the directory's own name is masked too (``/section/*/{v}`` for
    ``/section/ferry/6f672f``): a token segment appended to the pages of every
    section is one family, whichever section it is in; and the page's own name as
    :func:`_named` says. But a slug under a word-named directory names one object of
    it, masked, and a word-named directory under such an object one view of every
    object, kept (:func:`_object`: ``/books/*/page/*`` apart from
    ``/books/*/export/*``). A word-named directory's own index below another, asking
    for an object by its id, keeps its name as a script's does: a repository browser's
    commands (cgit's ``/repo/commit/?id=<sha>`` apart from ``tree/?id=<sha>``, whose
    trees at old commits, copies of the head tree, made the commits barren; blind2
    ``cgit``). Not a page's asking for a numbered version (Phriction's ``/w/<page>/?v=2``,
    blind10 ``phabricator``) nor a top directory's (``/de/``, a store view's home)."""
    origin = str(norm.origin)
    searched = _searched(norm)
    if searched is not None:
        return f"{origin}{searched}/{{q}}"
    template = url_template(norm) or origin + norm.path
    path, _, query = template[len(origin) :].partition("?")
    # An id-like segment (``/d/XlmoC7F0N/``, a dashboard's uid) or a title's slug
    # (``/t/water-development-then/154/``) is masked as a number is: the views of
    # every dashboard, the permalinks of every topic, are one family.
    parts = path.rstrip("/").rpartition("/")[0].split("/")
    raw = norm.path.rstrip("/").rpartition("/")[0].split("/")
    if len(raw) == len(parts):
        parts = [
            "{t}" if is_token(seg) or _TITLE.fullmatch(seg) else part
            for seg, part in zip(raw, parts, strict=True)
        ]
    directory = "/".join(parts)
    if not query and directory:
        # A slug under a word (``/books/and-much/``) names one object of it (a book),
        # and a word under an object (``/books/*/page/``) one view of every object.
        objects = [len(raw) == len(parts) and _object(raw, i) for i in range(len(parts))]
        parts = [
            "*" if mine and part not in _OBJECT_IDS else part
            for mine, part in zip(objects, parts, strict=True)
        ]
        parent, _, own = "/".join(parts).rpartition("/")
        leaf = path.rstrip("/").rpartition("/")[2]
        # A year (``/2024/``) files dated documents, as a version does: no object.
        own = "*" if _YEAR.fullmatch(raw[-1]) else own
        view = len(objects) > 1 and objects[-2] and _WORD.fullmatch(own) is not None
        kept = view or not (parent or _variable(own))
        mine = f"{own}/{_named(own, leaf)[2:]}" if kept else _named(own, leaf)
        return f"{origin}{parent}/{mine}"
    listed = [_array(pair.partition("=")[0]) for pair in query.split("&")] if query else []
    # A toggle appended to a query (``?lang=es&print=1``) is of the toggle's family
    # (``?print``); a parameter repeated (``?lang=es&lang=fr``) of a family of its own
    # (``?lang+``), so that it does not make the pages of one value barren.
    names = [listed[-1] + "+" * (listed.count(listed[-1]) > 1)] if listed else []
    # A script's own name is kept (``/shop/product.do?id``): its other scripts
    # (``email.do?id=``, ``viewinfo.action?pageId=``) are other views of the object.
    script = _SCRIPT.fullmatch(norm.path.rpartition("/")[2])
    own = script.group() if script and script.group(1).lower() not in STATIC else "*"
    # So is a command's, a word-named directory's own index below another asking for an
    # object by its id (``/repo/commit/?id=<sha>``); not a page's (``/w/page/?v=2``).
    index = norm.path.rstrip("/").rpartition("/")[2]
    ids = any(is_token(pair.partition("=")[2]) for pair in query_pairs(norm.query))
    command = ids and bool(directory) and norm.path.endswith("/") and _WORD.fullmatch(index)
    own = f"{index}/" if command else own
    # A script's handler is kept as its name is (gitweb's ``a=tree``, ``a=blame``): its
    # other handlers are other templates, whose copies say nothing of it; and a view at
    # a commit's hash is apart from the same handler at the head (blind6 ``gitweb``:
    # blame and blob at each commit made the real trees and blobs at HEAD wait). Not
    # the actions on a page named by its path (``/ns:page?do=revisions``): one family
    # (blind4 ``dokuwiki``: its revision lists, copies of each other, waited).
    handler = sorted(handler_pairs(norm), key=str.lower)
    if handler and (own != "*" or not norm.path.rpartition("/")[2]):
        names = [*handler, *(["@"] if at_revision(norm) else []), *names]
    return f"{origin}{directory}/{own}" + (f"?{'&'.join(names)}" if names else "")


def waste_shape(norm: NormalizedURL) -> str:
    """A URL's parameter names, sorted and joined by ``&`` (``from&to&viewPanel``):
    pages of its family (:func:`waste_family`) with all its names and more say
    nothing of it (:meth:`robotkit.triage.waste.WasteLedger.barren`)."""
    return "&".join(sorted({_array(param_name(pair)) for pair in query_pairs(norm.query)}))


def _array(name: str) -> str:
    """A parameter name as PHP's and Rack's query parsers read it: ``sorting[price]``
    and ``sorting[name]`` are keys of one array ``sorting``, one sort menu (Sylius:
    blind12 ``sylius``), not a parameter of each sort key."""
    return _SUBSCRIPT.sub("", name) or name
