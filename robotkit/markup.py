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
and a tag keeps its first :data:`MAX_ATTRIBUTES` attributes. What a robot reads
from a page survives: links, ``<base>``, ``<meta>`` and ``<title>`` are never
dropped, nor are the elements that change how the rest is parsed (raw text,
forms, templates, frames, foreign content); an ordinary element lost
deep in a hostile page only stops nesting what follows. Real pages are returned
unchanged.
"""

from __future__ import annotations

import re

MAX_DEPTH = 256
"""Ordinary elements open at once, at most, by the estimate below."""

MAX_ATTRIBUTES = 100
"""Attributes kept per tag; real tags have a handful."""

_TAG = re.compile(r"<(/?)([a-zA-Z][^\s/>]*)([^>]*)(>?)")
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
    """``html`` with no ordinary element nested deeper than :data:`MAX_DEPTH` and
    no tag with more than :data:`MAX_ATTRIBUTES` attributes; unchanged when it
    has none of either (the usual case, checked first)."""
    if html.count("<") <= MAX_DEPTH and len(html) <= _LONG_TAG:
        return html  # too few tags to nest deep, too short for a long tag
    stack: list[str] = []

    def rewrite(found: re.Match[str]) -> str:
        closing, written, rest, end = found.groups()
        name = written.lower()
        if closing:
            # Pop only what closes the element on top; an end tag the parser
            # would ignore or apply deeper leaves the estimate too deep, never
            # too shallow.
            if stack and stack[-1] == name:
                stack.pop()
            return found.group(0)
        if len(rest) > _LONG_TAG:
            gaps = _ATTRIBUTE_GAP.finditer(rest)
            for count, gap in enumerate(gaps, 1):
                if count > MAX_ATTRIBUTES:
                    rest = rest[: gap.start()]
                    break
        if name in _VOID or name in _SELF_CLOSING:
            return f"<{written}{rest}{end}"
        if len(stack) >= MAX_DEPTH and name not in _KEPT:
            return ""
        stack.append(name)
        return f"<{written}{rest}{end}"

    return _TAG.sub(rewrite, html)
