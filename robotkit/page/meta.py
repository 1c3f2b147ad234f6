"""A page read once: its robot directives (:mod:`robotkit.page.directives`), links,
canonical URL and visible text, from one HTML5 tree.

Pure: text in, facts out.

Links come from ``a``, ``area``, ``link`` (href) and ``frame``, ``iframe`` (src),
resolved against ``<base href>`` or the page URL (RFC 3986 section 5); only http(s)
targets are kept, fragments dropped. A page-level ``nofollow`` means no links are
followed; ``rel="nofollow"`` on one link is honoured on request. The canonical URL
comes from ``Link: <...>; rel="canonical"`` (RFC 8288, RFC 6596) or, failing that,
from ``<link rel="canonical">``.

Markup is parsed by Lexbor (through selectolax), an HTML5 parser: it builds the
tree a browser would (unclosed tags, misplaced ``<base>``, entities in attributes
as the WHATWG parsing algorithm says), about ten times faster than the stdlib's
``html.parser``, which is quadratic on hostile input (``'<a ' * 21845``, 64 KiB:
25 s). Lexbor has quadratic corners of its own (deep nesting, thousands of
attributes on one tag): :func:`robotkit.page.markup.bounded` removes them first.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from selectolax.lexbor import LexborHTMLParser, LexborNode

from robotkit.content.fingerprints import PageText
from robotkit.page.directives import (
    RobotsDirectives,
    RobotsTags,
    meta_tags,
    parse_x_robots_tag,
)
from robotkit.page.markup import bounded
from robotkit.url.parse import LinkResolver


@dataclass(frozen=True)
class Link:
    """A link found on a page: the absolute URL and where it came from."""

    url: str
    tag: str
    rel: frozenset[str] = frozenset()

    @property
    def nofollow(self) -> bool:
        return "nofollow" in self.rel


_LINK_ATTRS = {"a": "href", "area": "href", "link": "href", "frame": "src", "iframe": "src"}
_URL_WHITESPACE = re.compile(r"[\t\n\r]")


def resolve_link(base: str | LinkResolver, href: str) -> str | None:
    """The absolute http(s) URL of ``href`` on a page at ``base`` (RFC 3986 section
    5.2, by :func:`robotkit.url.parse.resolve`: the parser every other entry point uses),
    fragment dropped; None for ``javascript:``, ``mailto:``, ``data:`` and any
    other scheme a robot cannot fetch, or for a URL that cannot be parsed. A page's
    links pass one :class:`~robotkit.url.parse.LinkResolver` for the page's base."""
    href = href.strip()
    # After the strip the first character is no space, so removing tabs and newlines
    # keeps it: a same-page "#fragment" (two thirds of a documentation page's links)
    # is answered before anything else.
    if not href or href[0] == "#":
        return None
    if "\t" in href or "\n" in href or "\r" in href:
        href = _URL_WHITESPACE.sub("", href)
    resolver = base if isinstance(base, LinkResolver) else LinkResolver(base)
    return resolver.resolve(href)


_HIDDEN = ("script", "style", "template", "noscript")
"""Elements whose text no reader sees."""
_HEAD_READ = ["base", "meta", "title"]
_LINKS_READ = [f'{tag}[{name}]:not([{name}^="#"])' for tag, name in _LINK_ATTRS.items()]
_TARGETS = ", ".join(f"{tag}[{name}]" for tag, name in _LINK_ATTRS.items())
"""Every link target MAX_LINKS counts, fragments and empty ones included."""
_SELECTORS = {
    (uncut, with_text): ", ".join(
        (_LINKS_READ if uncut else list(_LINK_ATTRS))
        + _HEAD_READ
        + (list(_HIDDEN) if with_text else [])
    )
    for uncut in (False, True)
    for with_text in (False, True)
}
"""One selector query per page (each query walks the whole tree): every element
read; when the page has too few tags to reach MAX_LINKS, less the links that are
no link (no target, or a bare ``#fragment``: two thirds of a documentation
page's), left out by Lexbor's selector engine instead of a Python test per
element; with the page's text, the hidden elements to take out first."""
MAX_LINKS = 10_000
"""Links read from one page, at most, in document order: more than any real page
has (Heritrix keeps 6,000 outlinks, Nutch 100 by default), and a bound on the
work a page made of nothing but links can cause."""
_ASCII_SPACE = re.compile(r"[\t\n\f\r ]+")


_LINK_VALUE = re.compile(r"<([^<>]*)>([^<]*)")
"""One link-value: the target in angle brackets, then its parameters."""
_LINK_PARAM = re.compile(r";\s*([^;=\s]+)\s*(?:=\s*(?:\"([^\"]*)\"|([^;,]*)))?")


def link_header_canonical(values: Iterable[str], url: str) -> str | None:
    """The absolute ``rel="canonical"`` target of ``Link`` header values (RFC 8288
    section 3), resolved against the response's URL; None when there is none.
    Link values with an ``anchor`` parameter speak about another resource than
    this response (section 3.2), so they are skipped; the first canonical wins."""
    for value in values:
        for found in _LINK_VALUE.finditer(value):
            rel: set[str] = set()
            anchored = False
            for param in _LINK_PARAM.finditer(found.group(2)):
                name = param.group(1).lower()
                if name == "anchor":
                    anchored = True
                elif name == "rel" and not rel:  # section 3.3: only the first rel counts
                    rel = set((param.group(2) or param.group(3) or "").lower().split())
            if "canonical" in rel and not anchored:
                target = resolve_link(url, found.group(1))
                if target is not None:
                    return target
    return None


@dataclass
class _Scan:
    """What one pass over a page's elements found, in document order (link
    targets that are bare same-page fragments left out)."""

    meta: list[tuple[str, str]] = field(default_factory=list)
    base: str | None = None
    title: str | None = None
    raw_links: list[tuple[str, str, frozenset[str]]] = field(default_factory=list)
    text: PageText | None = None


_NO_REL: frozenset[str] = frozenset()


@lru_cache(maxsize=256)
def _rel_set(rel: str) -> frozenset[str]:
    """A ``rel`` value's link types, case-insensitive; a page repeats a few values."""
    return frozenset(rel.lower().split())


def _scan(html: str, with_text: bool = False) -> _Scan:
    """The elements robotkit reads, from the HTML5 tree of ``html``. The parser
    keeps the first of an attribute given twice (HTML: a parse error resolved
    so), so a later ``name="x"`` hides nothing; it never raises on markup. With
    ``with_text``, the visible words too, from the same tree."""
    found = _Scan()
    html = bounded(html)
    tree = LexborHTMLParser(html)
    links = found.raw_links
    read = 0  # link targets read, same-page fragments included: MAX_LINKS counts them
    # When the page has no more than MAX_LINKS link targets the cut cannot come,
    # and the elements that are no link need not be read to be counted. A link
    # element comes from a tag of its own, or is a copy of an <a> the tree builder
    # makes when a tag has closed it (HTML: "reconstruct the active formatting
    # elements"), so a page has at most two per '<'; a page with more tags has its
    # targets counted by a query (Lexbor's walk, no Python per element).
    uncut = html.count("<") <= MAX_LINKS // 2 or len(tree.css(_TARGETS)) <= MAX_LINKS
    hidden: list[LexborNode] = []
    for node in tree.css(_SELECTORS[uncut, with_text]):
        tag = node.tag or ""
        link_attribute = _LINK_ATTRS.get(tag)
        if link_attribute is not None:
            if uncut or read < MAX_LINKS:
                attributes = node.attributes
                target = attributes.get(link_attribute)
                if target is not None:
                    read += 1
                    # A bare "#fragment" is no link (resolve_link), and two thirds
                    # of a documentation page's targets: dropped here, unresolved.
                    if target[:1] != "#":
                        rel = attributes.get("rel")
                        links.append((tag, target, _rel_set(rel) if rel else _NO_REL))
        elif tag == "meta":
            attributes = node.attributes
            name, content = attributes.get("name"), attributes.get("content")
            if name is not None and content is not None:
                found.meta.append((name.strip().lower(), content))
        elif tag == "base":
            # The first <base> with an href counts (HTML "frozen base URL").
            href = node.attributes.get("href")
            if found.base is None and href:
                found.base = href
        elif tag == "title":
            if found.title is None:
                # HTML: the text, ASCII whitespace stripped and collapsed.
                found.title = _ASCII_SPACE.sub(" ", node.text(deep=True) or "").strip(" ")
        else:
            hidden.append(node)
    if with_text:
        found.text = _visible(tree, hidden, found.title)
    return found


def _visible(tree: LexborHTMLParser, hidden: list[LexborNode], title: str | None) -> PageText:
    """What a reader sees of the tree, as :func:`robotkit.content.visible_text`
    reads it from markup: the ``hidden`` elements (scripts, styles, templates,
    noscript) and comments left out, entities decoded, lower case, cut into
    words. The hidden elements are unlinked from the tree, their own content
    with them, as ``strip_tags`` does, but found by the page's one query instead
    of one walk of the tree per name."""
    for node in hidden:
        node.decompose(recursive=False)
    root = tree.root
    text = root.text(separator=" ") if root is not None else ""
    return PageText.of_text(text, title or "")


@dataclass(frozen=True)
class PageMeta:
    """What a robot learns from one HTML page and its headers."""

    url: str
    base_url: str
    tags: RobotsTags
    """Meta robots tags and X-Robots-Tag headers together, for every robot."""
    robots: RobotsDirectives
    """What applies to this robot (its product token), the most restrictive winning."""
    links: tuple[Link, ...]
    """Every link found, in document order, duplicates removed."""
    title: str | None = None
    """The ``<title>`` text, whitespace collapsed; None without a title element."""
    canonical: str | None = None
    """The URL the page names as its preferred one (RFC 6596), absolute: from a
    ``Link`` header if it has one, else from ``<link rel="canonical">``."""
    text: PageText | None = None
    """The visible words and title, when read (``parse_page(..., with_text=True)``)."""
    shortlink: str | None = None
    """The shorter URL the page names for itself (``<link rel="shortlink">``, as
    WordPress and Drupal write ``/?p=12`` and ``/node/12``), absolute. It is the
    page, not a link to another: it is not among :attr:`links`."""

    def followable_links(self, honour_rel_nofollow: bool = False) -> tuple[Link, ...]:
        """The links to follow: none when the page says nofollow; without those
        marked ``rel=nofollow`` when asked (it is a hint about endorsement, which
        search engines treat as optional for crawling)."""
        if self.robots.nofollow:
            return ()
        if honour_rel_nofollow:
            return tuple(link for link in self.links if not link.nofollow)
        return self.links


def parse_page(
    html: str,
    url: str,
    product_token: str,
    x_robots_tag: Iterable[str] = (),
    link_header: Iterable[str] = (),
    *,
    with_text: bool = False,
) -> PageMeta:
    """Read robots directives, links, title and canonical URL from an HTML page at
    ``url``; with ``with_text``, its visible words too (``.text``), from the same
    parse: what a crawler needs of every page, for the price of one HTML5 tree.

    ``x_robots_tag`` and ``link_header`` are the response's header values; the
    X-Robots-Tag values and the meta tags are merged. A canonical URL in the
    ``Link`` header wins over the page's own ``<link rel="canonical">``: the header
    is set by whoever runs the server, while the markup may come from a template
    or from what users posted. Malformed HTML never raises: the HTML5 parser
    recovers as a browser does. Only ``<meta>`` names that look like robot names
    count, so a page cannot smuggle directives through ``description`` or
    ``viewport``.
    """
    found = _scan(html, with_text)
    interesting = [(n, c) for n, c in found.meta if n == "robots" or n == product_token.lower()]
    tags = meta_tags(interesting).merge(parse_x_robots_tag(x_robots_tag))
    base = url
    if found.base:
        resolved = resolve_link(url, found.base)
        base = resolved or url
    seen: dict[str, Link] = {}
    canonical = link_header_canonical(link_header, url)
    resolver = LinkResolver(base)
    # A page repeats its links (menus, "top", a table of contents twice): each
    # target is resolved once.
    targets: dict[str, str | None] = {}
    shortlink: str | None = None
    for tag, target, rel in found.raw_links:
        if target in targets:
            absolute = targets[target]
        else:
            absolute = targets[target] = resolve_link(resolver, target)
        if absolute is None:
            continue
        if canonical is None and tag == "link" and "canonical" in rel:
            canonical = absolute
        if tag == "link" and "shortlink" in rel:
            shortlink = shortlink or absolute
            continue
        # A URL linked twice is followable if any of its links is.
        if absolute not in seen or (seen[absolute].nofollow and "nofollow" not in rel):
            seen[absolute] = Link(absolute, tag, rel)
    return PageMeta(
        url=url,
        base_url=base,
        tags=tags,
        robots=tags.for_robot(product_token),
        links=tuple(seen.values()),
        title=found.title,
        canonical=canonical,
        text=found.text,
        shortlink=shortlink,
    )
