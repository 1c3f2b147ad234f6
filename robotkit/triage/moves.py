"""A link's move from the page that links it, for the self-growth bound
(:mod:`robotkit.triage.growth`): the class of a URL (origin, first path segment, number
of segments, script), whether it carries parameters, and what a link of the page's own
class changed (a counter stepped, a view switched) or shows of the page (a part of its
object, its state in another view, a record it lists). Pure functions of two parsed
URLs; no state.
"""

from __future__ import annotations

import re

from robotkit.url.normalization import NormalizedURL
from robotkit.url.rewrites import query_pairs
from robotkit.url.waste import STATIC

__all__ = [
    "aside",
    "beside",
    "crossed",
    "growth_class",
    "listed",
    "move",
    "named",
    "neighbour",
    "parametric",
    "projected",
    "under",
    "viewed",
]

_SCRIPT = re.compile(r"[A-Za-z0-9_\-]+\.([A-Za-z][A-Za-z0-9]{1,5})")
"""A script's name, ``product.do``, ``viewtopic.php``."""

_PARAMETER = re.compile(r"[0-9+@,;:=]")
"""A path segment carrying a value: a number or a date, joined values, a version."""


def _segments(norm: NormalizedURL) -> list[str]:
    return norm.path.strip("/").split("/") if norm.path.strip("/") else []


def growth_class(norm: NormalizedURL) -> tuple[str, str, int, str]:
    """A URL's class: its origin, first path segment and number of path segments, and
    its script's name (``/shop/product.do`` apart from ``/shop/catalog.do``: another
    script is another kind of page, a product listed by a sorted catalogue, blind3
    ``struts``; not a static file's, ``a.html``, one document of many)."""
    parts = _segments(norm)
    script = _SCRIPT.fullmatch(parts[-1]) if parts else None
    own = parts[-1] if script and script.group(1).lower() not in STATIC else ""
    return str(norm.origin), parts[0] if parts else "", len(parts), own


def parametric(norm: NormalizedURL) -> bool:
    """Whether a URL carries parameters: a query, or a path segment after the first
    with a digit or a joined value (``a+b``, ``m@v1.2.3``, ``k,v``)."""
    return bool(norm.query) or any(_PARAMETER.search(s) for s in _segments(norm)[1:])


def listed(page: NormalizedURL, link: NormalizedURL) -> bool:
    """Whether ``link`` is a record that ``page`` lists as an index: of its class, with a
    number of the page's path switched for a word (a month's thread: blind14
    ``hyperkitty``'s ``<list>/2026/10/`` to ``<list>/thread/<id>/``)."""
    if growth_class(page) != growth_class(link):
        return False
    pairs = zip(_segments(page), _segments(link), strict=True)
    return any(a.isdigit() and not _PARAMETER.search(b) for a, b in pairs)


def under(page: NormalizedURL, link: NormalizedURL) -> bool:
    """Whether ``link``'s path is ``page``'s path with segments more: a part of the
    page's object (an event's contributions, an element's history)."""
    mine, theirs = _segments(page), _segments(link)
    return bool(mine) and len(theirs) > len(mine) and theirs[: len(mine)] == mine


def projected(page: NormalizedURL, link: NormalizedURL) -> bool:
    """Whether ``link`` shows ``page``'s own state in another view: it carries one of
    the page's query pairs, or it is a part of the page's object (:func:`under`)."""
    return under(page, link) or bool(set(query_pairs(page.query)) & set(query_pairs(link.query)))


_WORDS = re.compile(r"[^\W_]+")
"""The words of a name, whatever joins them: ``Foo-Bar``, ``Foo::Bar``, ``foo_bar``."""


def named(page: NormalizedURL, link: NormalizedURL) -> bool:
    """Whether ``link`` names ``page``'s own object under another first segment: both
    paths of two segments or more, their last segments the same words (case-blind,
    whatever joins them). Real software files one object's views under a section each:
    MetaCPAN's distribution ``/dist/Foo-Bar`` and its module ``/pod/Foo::Bar``, its
    reverse dependencies ``/requires/dist/Foo-Bar``; a dictionary's word ``/wort/w`` and
    its declension ``/deklination/w``; a wiki's ``/wiki/A`` and ``/talk/A``. Such a link
    is the page's own view, no new page of another class: the page does not yield by it
    (blind15 ``metacpan``, ``dictionary``: every made-up record linked its own views, so
    every page yielded and its made-up neighbours were roots)."""
    mine, theirs = _segments(page), _segments(link)
    if len(mine) < 2 or len(theirs) < 2 or mine[0].lower() == theirs[0].lower():
        return False
    words = _WORDS.findall(mine[-1].lower())
    return bool(words) and words == _WORDS.findall(theirs[-1].lower())


def viewed(page: NormalizedURL, link: NormalizedURL) -> bool:
    """Whether ``link`` is ``page``'s own object in another view: its state
    (:func:`projected`) or its name under another section (:func:`named`)."""
    return projected(page, link) or named(page, link)


def beside(page: NormalizedURL, link: NormalizedURL) -> tuple[str, bool] | None:
    """A plain ``link`` of ``page``'s class: another record beside the page, its path
    with only its last segment switched, no parameters nor a query, is a move of that
    segment, no counter (blind13 ``pkgsite``: "Imported by" lists made-up modules
    ``/github.com/<name>``, each listing its own importers, an endless graph of plain
    names that ran to the page cap while only links with parameters were moves).

    Real software links siblings too: a wiki's ``/wiki/A`` its ``/wiki/B``, a docs
    tree's ``/library/a.html`` its ``b.html``, a blog's post the next. Their pages are
    still crawled whole because each writes prose of its own: a page showing
    ``OWN_WORDS`` its host never showed yields and its links are roots
    (:meth:`~robotkit.triage.growth.GrowthGate.judged`), and a sibling linked from an
    index or a page of another class (a wiki's category, a toctree, a blog's archive)
    starts at a root. A made-up record writes prose from a template, whose words the
    host soon showed. A sequence (an event's "Next event", a post's "Next post") links
    one new record at a time and is no graph: its links are moves only from a page
    that linked ``FANS`` new records beside it (:class:`~robotkit.triage.growth.Growth`).
    The risk left is thin real records each listing several thin siblings, two steps
    from a root (``OTHER_STEPS``), none listing a new page of another class."""
    mine, theirs = _segments(page), _segments(link)
    if page.query or parametric(link) or len(mine) != len(theirs) or not mine:
        return None
    same = mine[:-1] == theirs[:-1] and mine[-1].lower() != theirs[-1].lower()
    return (str(len(mine) - 1), False) if same else None


def aside(page: NormalizedURL, link: NormalizedURL) -> tuple[str, bool] | None:
    """A plain ``link`` beside the object ``page`` is a view of: the page's path less
    segments at its end (its part: a word's synonyms ``/wort/w/synonyme``) or at its
    start (its section: reverse dependencies ``/requires/dist/A``), with only its last
    segment switched (``/wort/v``, ``/dist/B``). It is the move :func:`beside` of that
    object, made through one of its views (blind15 ``dictionary``, ``metacpan``: made-up
    words listing made-up synonyms and rhymes, distributions their reverse
    dependencies, each a new page of another class, so every view yielded)."""
    mine, theirs = _segments(page), _segments(link)
    if parametric(link) or len(theirs) < 2 or len(mine) <= len(theirs):
        return None
    for owner in (mine[: len(theirs)], mine[len(mine) - len(theirs) :]):
        if owner[:-1] == theirs[:-1] and owner[-1].lower() != theirs[-1].lower():
            return str(len(theirs) - 1), False
    return None


def neighbour(page: NormalizedURL, link: NormalizedURL) -> tuple[str, bool] | None:
    """The move of a plain ``link`` to a record beside ``page`` (:func:`beside`) or beside
    the object it views (:func:`aside`)."""
    return beside(page, link) or aside(page, link)


def crossed(page: NormalizedURL, link: NormalizedURL) -> int:
    """The classes a chain crosses from ``page`` to a ``link`` starting a chain of its
    own class: none from a page or to a link without parameters (a page that vouches),
    one to another class but a part of the page's object (blind11 ``indico``: an
    event's contributions, 4 real pages held when it counted)."""
    if not (parametric(page) and parametric(link)):
        return 0
    return int(growth_class(link) != growth_class(page) and not under(page, link))


def _query(norm: NormalizedURL) -> dict[str, str]:
    return dict(pair.partition("=")[::2] for pair in query_pairs(norm.query))


def move(page: NormalizedURL, link: NormalizedURL) -> tuple[str, bool] | None:
    """Where a self-grown ``link`` differs from its ``page`` (segment indexes and query
    names) and whether it is a counter step; None when it is no self-grown link: of
    another class, or without parameters but another record beside it (:func:`beside`)."""
    if growth_class(page) != growth_class(link):
        return None
    if not parametric(link):
        return beside(page, link)
    mine, theirs = _segments(page), _segments(link)
    # Case-blind: a link is compared under its key, which a learned rule may fold.
    pairs = enumerate(zip(mine, theirs, strict=True))
    places = [(str(i), a, b) for i, (a, b) in pairs if a.lower() != b.lower()]
    old, new = _query(page), _query(link)
    if set(old) - set(new) and set(new) - set(old):
        return None  # another template of the script: an article of a category (joomla)
    # A word switched with anything else: another kind of page, a commit listed by a
    # page of commits (blind4 gitlab's ``commits/main?page=2`` to ``commit/<sha>``), a
    # dataset of a publisher (blind3 django's ``publisher/10/change/`` to
    # ``dataset/253/change/``). A view switched alone on one date is a move.
    words = any(not _PARAMETER.search(a + b) for _, a, b in places)
    names = sorted(set(old) | set(new))
    places += [("?" + n, old.get(n, ""), new.get(n, "")) for n in names if old.get(n) != new.get(n)]
    if not places or (words and len(places) > 1):
        return None
    counter = len(places) == 1 and all(re.search(r"\d", v) for v in places[0][1:])
    return ",".join(p for p, _, _ in places), counter
