"""Untrusted HTML made safe to parse in time linear in its size.

An HTML5 tree builder does, for many start and end tags, a walk down its stack of
open elements ("has an element in scope"), so a page that keeps elements open
(``'<div>' * N``, ``'<ul><li>' * N``) costs time proportional to N squared:
Lexbor takes 3 s on 80 KB of ``<div>``. Gathering the attributes of one tag is
quadratic too (each new name is checked against the ones before it: 16,000
attributes, 2.4 s). Browsers cap the depth of the tree for the same reason.

:func:`bounded` rewrites a page before it is parsed, in one linear pass, so that
neither can grow: a start tag that would open an ordinary element deeper than
:data:`MAX_DEPTH` (by an estimate that only errs on the deep side) is dropped,
and a tag keeps its first :data:`MAX_ATTRIBUTES` attributes. Memory is bounded
too: a tree node costs a few hundred bytes, so past :data:`MAX_NODES` elements
and comments the rest of the page is read as text. What a robot reads
from a page survives: links, ``<base>``, ``<meta>`` and ``<title>`` are never
dropped, nor are the elements that change how the rest is parsed (raw text,
forms, templates, frames, foreign content); an ordinary element lost
deep in a hostile page only stops nesting what follows. Real pages are returned
unchanged.
"""

from __future__ import annotations

import io
import re

MAX_DEPTH = 256
"""Ordinary elements open at once, at most, by the estimate below."""

MAX_ATTRIBUTES = 100
"""Attributes kept per tag; real tags have a handful."""

MAX_NODES = 50_000
"""Elements and comments a page may create. Each costs the tree builder a node of
a few hundred bytes, so 2 MiB of ``<br>`` would take over 100 MB; real pages
have a few thousand. Past this many, start tags are dropped and comment
openers become text."""

_TAG = re.compile(r"<(/?)([a-zA-Z][^\s/>]*)([^>]*)(>?)|<[!?]|</(?![a-zA-Z>])")
"""A start or end tag; or what opens a comment, a doctype or a bogus comment."""
_ATTRIBUTE_GAP = re.compile(r"\s+")
_LONG_TAG = 1000
"""Characters after a tag's name from which its attributes are counted."""

_VOID = frozenset(
    {
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
        "source", "track", "wbr", "param", "keygen", "basefont", "bgsound", "frame",
    }
)  # fmt: skip
"""Elements that never hold content: they open nothing."""

_SELF_CLOSING = frozenset(
    {
        "p", "li", "dt", "dd", "option", "optgroup", "tr", "td", "th", "thead",
        "tbody", "tfoot", "colgroup", "caption", "rb", "rt", "rp", "rtc",
    }
)  # fmt: skip
"""Elements whose next sibling closes them: they do not nest by themselves."""

_KEPT = frozenset(
    {
        "a", "area", "link", "frame", "iframe", "base", "meta", "title",
        "html", "head", "body", "frameset", "noframes", "script", "style", "textarea",
        "xmp", "noembed", "noscript", "plaintext", "template", "select",
        "form", "svg", "math", "object", "applet", "marquee", "button", "image",
    }
)  # fmt: skip
"""Never dropped: what a robot reads, and what changes how the rest is parsed."""


def bounded(html: str) -> str:
    """``html`` with no ordinary element nested deeper than :data:`MAX_DEPTH`, no
    tag with more than :data:`MAX_ATTRIBUTES` attributes and at most
    :data:`MAX_NODES` elements and comments; unchanged when it has none of these
    (the usual case). NUL characters are removed: the parser drops them from
    text (elsewhere it makes them U+FFFD), and keeps a parse error of 20 bytes
    for each, so 10 MiB of them cost 200 MB."""
    html = html.replace("\0", "")
    if html.count("<") <= MAX_DEPTH and len(html) <= _LONG_TAG:
        return html  # too few tags to nest deep, too short for a long tag
    stack: list[str] = []
    nodes = 0
    # Only the changes are written out, between untouched runs copied whole: a
    # new string per tag would cost more memory than the page itself.
    out = io.StringIO()
    copied = 0
    for found in _TAG.finditer(html):
        closing, written, rest, end = found.groups()
        replacement: str | None = None
        if written is None:  # <!, <? or </ + not a letter: a comment-like node
            nodes += 1
            if nodes > MAX_NODES:
                replacement = "&lt;" + found.group(0)[1:]
        elif closing:
            # Pop only what closes the element on top; an end tag the parser
            # would ignore or apply deeper leaves the estimate too deep, never
            # too shallow.
            if stack and stack[-1] == written.lower():
                stack.pop()
        else:
            nodes += 1
            name = written.lower()
            if nodes > MAX_NODES:
                replacement = ""
            else:
                if len(rest) > _LONG_TAG:
                    rest = _first_attributes(rest)
                    replacement = f"<{written}{rest}{end}"
                if name not in _VOID and name not in _SELF_CLOSING:
                    if len(stack) >= MAX_DEPTH and name not in _KEPT:
                        replacement = ""
                    else:
                        stack.append(name)
        if replacement is not None:
            out.write(html[copied : found.start()])
            out.write(replacement)
            copied = found.end()
    if copied == 0:
        return html
    out.write(html[copied:])
    return out.getvalue()


def _first_attributes(rest: str) -> str:
    """What follows a tag's name, cut after its first :data:`MAX_ATTRIBUTES`
    attributes (counted as runs of whitespace before them)."""
    for count, gap in enumerate(_ATTRIBUTE_GAP.finditer(rest), 1):
        if count > MAX_ATTRIBUTES:
            return rest[: gap.start()]
    return rest
