"""What copies of pages teach about links: copy forms, loops, and siblings.

Part of the trap policy (ARCHITECTURE.md, "Trap policy"); pure, no I/O.

- **Copy forms.** A page that links copies of itself (the print, AMP, dated and
  share forms of an article) teaches the *form* of those links relative to the page:
  the link with the page's slug as ``{s}`` (``/print/articles/{s}``, ``{path}/amp``).
  Once a form was a copy twice, or once with ``rel=canonical`` saying so (RFC 6596),
  links of that form on other pages are known copies before they are fetched. A
  link naming the page's own path under another leading directory has a form of
  that prefix too (``/en/{rest}`` linking ``/ja/{rest}``), which holds under it at
  any depth: a language menu's untranslated copies, a print prefix.
- **Loops.** An exact copy keeps only the links its original did not have at the
  same place relative to itself: a loop's copies link ``b/`` again and again, each
  one level deeper, and those are dropped, while two unrelated sections that say the
  same words still lead to their own pages.
- **Link forms of a template.** A link seen from its page (``./reply/{n}/`` on a
  page of ``/thread/{n}/reply/{n}/``) whose fetched targets were exact copies of
  other pages ``FORM_COPIES`` times, and never anything else, is a known copy on
  every page of that template: a forum whose relative "other posts" links nest
  each permalink under another. One target of the form that is no exact copy
  vetoes it for good, so the form a site uses for its real pages is never learned.
- **Siblings.** A page whose fetched children were mostly copies (of itself, or
  exact copies of any page) has its other children served after everything else
  (only the order changes). Its own views (its path and query with parameters
  added: a listing re-sorted by a column, a toggle) do not count: they copy the page, not its
  children. A child merely *like* another page (a news ticker
  ``/live?_=...`` whose "most read" box changes on every response) does not
  count: the index's articles keep their turn instead of waiting behind an
  endless ticker.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from robotkit.base.snapshot import header, listed, opened, reading, typed
from robotkit.url.normalization import NormalizedURL, normalize_or_none
from robotkit.url.rewrites import common_tail, folder, is_token, query_pairs
from robotkit.url.template import url_template

__all__ = ["Copies"]

_DIGITS = re.compile(r"\d+")
_WORDLIKE = re.compile(r"[A-Za-z0-9_\-]{8,}")


def _masked(match: re.Match[str]) -> str:
    return "{t}" if is_token(match.group()) else match.group()


Form = tuple[str, str, str]
TemplateForm = tuple[str, str]
"""A page's URL template and the form of one of its links (:func:`link_form`)."""

FORM_COPIES = 3
"""Exact copies a link form of a template led to, and nothing else, before other
links of that form on pages of that template are known copies."""


def _view_of(norm: NormalizedURL, referer: str) -> bool:
    """Whether ``norm`` is the page at ``referer`` with parameters added (a sort, a
    toggle): its origin and path, and every pair of its query."""
    page = normalize_or_none(referer)
    if page is None or (page.origin, page.path) != (norm.origin, norm.path):
        return False
    return norm.query != page.query and set(query_pairs(page.query)) <= set(query_pairs(norm.query))


def template_form(norm: NormalizedURL, referer: str) -> TemplateForm | None:
    """The form of a link as seen from the page that linked it, beside that page's
    URL template; ``None`` across origins."""
    page = normalize_or_none(referer)
    if page is None or page.origin != norm.origin:
        return None
    template = url_template(page)
    return None if template is None else (template, link_form(str(norm), page))


def form_of(norm: NormalizedURL, referer: str) -> Form | None:
    """The form of a link relative to the page that linked it: the link's path and
    query with the page's last path segment (its slug) as ``{s}``, beside the page's
    own path in the same terms (``/articles/{s}`` linking ``/print/articles/{s}``).
    ``None`` when the link does not contain the slug, or the slug is too short or a
    number to stand for the page."""
    page = normalize_or_none(referer)
    if page is None or page.origin != norm.origin:
        return None
    slug = page.path.rstrip("/").rpartition("/")[2].lower()
    if len(slug) < 4 or slug.isdigit():
        return None
    target = norm.path.lower() + (f"?{norm.query.lower()}" if norm.query else "")
    if slug not in target:
        return None
    own = page.path.lower() + (f"?{page.query.lower()}" if page.query else "")
    return (str(norm.origin), own.replace(slug, "{s}"), target.replace(slug, "{s}"))


def prefix_form(norm: NormalizedURL, referer: str) -> Form | None:
    """The form of a link that names its page's own path under another leading
    directory: the two paths less their common tail of two segments or more
    (``/en/{rest}`` linking ``/ja/{rest}`` for ``/en/stable/faq.html`` and
    ``/ja/stable/faq.html``; ``/{rest}`` linking ``/print/{rest}``). Proven a copy,
    it holds for every page under that directory, however deep: a language menu
    whose untranslated languages serve the English text, a print prefix. ``None``
    when the query differs or the common tail is shorter."""
    page = normalize_or_none(referer)
    if page is None or page.origin != norm.origin or page.query != norm.query:
        return None
    mine, theirs = page.path.split("/")[1:], norm.path.split("/")[1:]
    tail = common_tail(mine, theirs)
    if tail < 2 or tail == max(len(mine), len(theirs)):
        return None
    own, link = mine[: len(mine) - tail], theirs[: len(theirs) - tail]
    return (str(norm.origin), folder(own) + "{rest}", folder(link) + "{rest}")


def related(norm: NormalizedURL, other: str) -> bool:
    """Whether a copy can be a loop or a variant of its original: the same first
    path segment (``/a/b/a/`` of ``/a/``, ``/wiki.cgi/x/wiki.cgi/y`` of
    ``/wiki.cgi/y``) or the same URL template (the months of a calendar)."""
    original = normalize_or_none(other)
    if original is None or original.origin != norm.origin:
        return False
    if norm.path.split("/")[1:2] == original.path.split("/")[1:2]:
        return True
    return url_template(norm) == url_template(original)


def _absolute(link: str) -> str:
    """A link as itself, tokens as ``{t}`` and numbers as ``{n}``."""
    return _DIGITS.sub("{n}", _WORDLIKE.sub(_masked, link))


def link_form(link: str, page: NormalizedURL) -> str:
    """A link as seen from its page, tokens as ``{t}`` and numbers as ``{n}``: below
    the page's directory, the rest of its path and query (``b/`` on ``/a/``, also
    ``b/`` on ``/a/b/a/``; ``cal?m={n}`` on any month of a calendar); elsewhere, the
    link itself. A server that writes a fresh token into every link of every
    response (``?sid=x8Kq2...``) changes its links and not its text: the forms of a
    copy's links are still its original's."""
    directory = page.path.rpartition("/")[0] + "/"
    prefix = f"{page.origin}{directory}"
    form = "./" + link[len(prefix) :] if link.startswith(prefix) else link
    return _DIGITS.sub("{n}", _WORDLIKE.sub(_masked, form))


class Copies:
    """The crawl's memory of copies; see the module docstring. ``max_pages`` bounds
    how many pages' link forms are remembered."""

    def __init__(self, max_pages: int = 200_000) -> None:
        self.max_pages = max_pages
        self._forms: Counter[Form] = Counter()
        self._link_forms: dict[str, frozenset[str]] = {}
        self._children: dict[str, list[int]] = {}
        self._template_forms: dict[TemplateForm, list[int]] = {}

    def known_copy(self, norm: NormalizedURL, referer: str | None) -> bool:
        """Whether a link of ``referer`` has a form proven to be a copy of its page
        (counted as a copy among the referer's children)."""
        if referer is None or not (self._forms or self._template_forms):
            return False
        forms = (form_of(norm, referer), prefix_form(norm, referer)) if self._forms else ()
        proven = any(form is not None and self._forms[form] >= 2 for form in forms)
        if not proven and not self._copy_form(norm, referer):
            return False
        self._child(referer, copy=True)
        return True

    def _copy_form(self, norm: NormalizedURL, referer: str) -> bool:
        """Whether the link's form on its page's template led only to exact copies,
        ``FORM_COPIES`` times at least."""
        if not self._template_forms:
            return False
        form = template_form(norm, referer)
        counts = self._template_forms.get(form) if form is not None else None
        return counts is not None and counts[0] >= FORM_COPIES and counts[1] == 0

    def demote(self, referer: str | None) -> bool:
        """Whether the children of ``referer`` fetched so far were mostly copies (an
        article linking its own print and AMP forms): its other children wait until
        everything else was fetched, and meanwhile the forms learned elsewhere may
        rule them out. Only the order changes; nothing is dropped."""
        counts = self._children.get(referer) if referer is not None else None
        return counts is not None and counts[0] >= 2 and counts[0] > counts[1]

    def _child(self, referer: str, copy: bool) -> None:
        counts = self._children.setdefault(referer, [0, 0])
        counts[0 if copy else 1] += 1

    def record(
        self, norm: NormalizedURL, referer: str, copy: bool, proof: int, exact: bool = False
    ) -> None:
        """A fetched child of ``referer``: a copy or not, whether an exact copy of
        some page fetched before (``exact``), and how strongly it was proven a copy
        of the referer itself (2 by ``rel=canonical``, 1 by its text, 0 not at
        all)."""
        # A re-sorted or toggled view of the page itself (its own path and query with
        # parameters added) says nothing of its other children: a listing's column
        # sorts made its folders wait behind everything (blind2 filemgr). Another
        # query of a script every page shares (``viewtopic.php?p=5004`` under
        # ``viewtopic.php?t=102``) is no view of it.
        if not _view_of(norm, referer):
            self._child(referer, exact or (copy and proof > 0))
        for form in (form_of(norm, referer), prefix_form(norm, referer)) if proof else ():
            if form is not None:
                self._forms[form] += proof
        shape = template_form(norm, referer)
        if shape is not None and (
            shape in self._template_forms or len(self._template_forms) < self.max_pages
        ):
            counts = self._template_forms.setdefault(shape, [0, 0])
            counts[0 if exact else 1] += 1

    def follow(
        self, url: str, norm: NormalizedURL, links: Sequence[str], copy_of: str | None
    ) -> tuple[str, ...]:
        """The links of an exact copy of ``copy_of`` that its original did not have at
        the same place (all of them when the two are unrelated sections)."""
        if copy_of is None or copy_of not in self._link_forms:
            return ()
        if not related(norm, copy_of):
            # Two sections that say the same (``/versions/`` and ``/changelog/``,
            # both "Release notes") but are no loop of one another.
            return tuple(links)
        original = self._link_forms[copy_of]
        return tuple(
            link
            for link in links
            if link_form(link, norm) not in original and _absolute(link) not in original
        )

    def relinks(self, norm: NormalizedURL, links: Sequence[str], referer: str | None) -> bool:
        """Whether a page links nothing its referer, a page that was no copy, did not
        link at the same place (:meth:`follow`'s forms): its list again."""
        if referer is None or referer not in self._link_forms:
            return False
        return not self.follow(str(norm), norm, links, referer)

    def original(self, url: str, norm: NormalizedURL, links: Sequence[str]) -> None:
        """Remember the link forms of a page that is no copy, for its copies: each
        link as seen from the page, and as itself (tokens masked) when below the page,
        so a copy in another directory (``/news/`` of ``/news``) that links the same
        pages with fresh tokens links nothing new."""
        if len(self._link_forms) < self.max_pages:
            forms = {link_form(link, norm) for link in links}
            forms.update(_absolute(link) for link in links)
            self._link_forms[url] = frozenset(forms)

    def snapshot(self) -> dict[str, Any]:
        """What was learned, as JSON, for a resumed crawl."""
        return {
            **header("copies", 1),
            "forms": [[*form, n] for form, n in self._forms.items()],
            "link_forms": [[url, sorted(forms)] for url, forms in self._link_forms.items()],
            "children": [[ref, *counts] for ref, counts in self._children.items()],
            "template_forms": [[*form, *counts] for form, counts in self._template_forms.items()],
        }

    def restore(self, data: Any) -> None:
        """Take back :meth:`snapshot`; :class:`~robotkit.base.snapshot.SnapshotError` for
        bad data, leaving this memory as it was."""
        with reading("copies"):
            data = opened(data, "copies", 1)
            forms: Counter[Form] = Counter()
            for origin, own, target, n in listed(data["forms"], "forms", list):
                key = (
                    typed(origin, str, "form"),
                    typed(own, str, "form"),
                    typed(target, str, "form"),
                )
                forms[key] = typed(n, int, "count")
            link_forms = {
                typed(url, str, "url"): frozenset(listed(f, "form", str))
                for url, f in data["link_forms"]
            }
            children = {
                typed(ref, str, "url"): [typed(c, int, "count"), typed(n, int, "count")]
                for ref, c, n in data["children"]
            }
            template_forms = {
                (typed(template, str, "form"), typed(link, str, "form")): [
                    typed(c, int, "count"),
                    typed(n, int, "count"),
                ]
                # A snapshot from before template forms were counted has none.
                for template, link, c, n in listed(data.get("template_forms", []), "forms", list)
            }
        self._forms, self._link_forms, self._children = forms, link_forms, children
        self._template_forms = template_forms
