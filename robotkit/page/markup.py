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
unchanged, and a fast path proves that without the rewrite's loop over every tag
(``_plainly_bounded``: the same reading of the tags, done with numpy).
"""

from __future__ import annotations

import io
import re
from typing import NamedTuple

import numpy as np

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
_ATTRIBUTE_GAP = re.compile(r"""\s*=\s*(?:"[^"]*"?|'[^']*'?)?|(?P<gap>\s+)""")
"""The whitespace before an attribute (``gap``), or an ``=`` and the value after it,
so that spaces inside a quoted value (SVG path data has hundreds) are not taken for
attributes. A quote left open runs to the end, as in HTML, and keeps this linear."""
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
    if "\0" in html:  # one C search; a copy only when there is one
        html = html.replace("\0", "")
    if len(html) <= _LONG_TAG and html.count("<") <= MAX_DEPTH:
        return html  # too few tags to nest deep, too short for a long tag
    if _plainly_bounded(html):
        return html
    return _rewrite(html)


def _rewrite(html: str) -> str:
    """The pass itself: every tag read by :data:`_TAG`, in order, the estimated
    stack of open elements kept as names; what breaks a bound is rewritten."""
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
    attributes (counted as runs of whitespace before them, outside quoted values)."""
    count = 0
    for part in _ATTRIBUTE_GAP.finditer(rest):
        if part.lastgroup == "gap":
            count += 1
            if count > MAX_ATTRIBUTES:
                return rest[: part.start()]
    return rest


# -- the fast path ---------------------------------------------------------------------
#
# Most pages need no rewriting, and proving that takes less than the rewrite's loop over
# every tag: the page's UTF-8 bytes go through numpy, which finds the same tags _TAG
# would (a '<' inside a tag, before its '>', opens nothing) and reads names eight bytes
# at a time as 64-bit words. Only the start and end tags of elements that can stay open
# count; pairs of a start tag and its own end tag are dropped in rounds, and what is
# left either bounds the stack at once or goes through a Python loop that keeps the
# same stack estimate with words for names. Anything unusual (a name with a non-ASCII
# byte, a long tag whose attributes would be cut, a stack near MAX_DEPTH) answers
# "maybe changed", and the rewrite decides.

_WORD = 8
"""Bytes of a tag name compared as one little-endian 64-bit word."""


def _word(name: str) -> int:
    return int.from_bytes(name.encode("ascii"), "little")


assert all(len(name) <= _WORD for name in _VOID | _SELF_CLOSING)
_NO_PUSH_WORDS = np.array(sorted(_word(name) for name in _VOID | _SELF_CLOSING), np.uint64)
_WORD_MASKS = np.array([(1 << (8 * k)) - 1 for k in range(_WORD + 1)], np.uint64)
_NAME_STOPS = np.array([chr(c).isspace() or chr(c) in "/>" for c in range(128)] + [True] * 128)
"""Bytes that end a tag name for :data:`_TAG` (its ``[^\\s/>]``), and every
non-ASCII byte, at which the fast path gives up."""
_NAME = re.compile(r"[^\s/>]*")


class _Tags(NamedTuple):
    """The start and end tags :data:`_TAG` reads in a page, in order (one row each),
    of elements that can stay open: void and self-closing ones left out, as the
    rewrite never pushes them and so their end tags pop nothing."""

    closing: np.ndarray
    """True for an end tag."""
    keys: np.ndarray
    """The lower-case name's first :data:`_WORD` bytes as a little-endian word."""
    length: np.ndarray
    """The name's length in bytes."""
    name_at: np.ndarray
    tag_end: np.ndarray
    """Where the name starts and where its tag's ``>`` is (or the page's end)."""
    long_tags: list[tuple[int, int]]
    """The same two places for every start tag, nesting or not, whose attributes
    the rewrite counts (more than :data:`_LONG_TAG` characters after its name)."""


def _plainly_bounded(html: str) -> bool:
    """True only when :func:`_rewrite` would return ``html`` unchanged (``html`` has
    no NUL); False when it might change it."""
    data = html.encode("utf-8", "surrogatepass")
    tags = _tags(data)
    if not isinstance(tags, _Tags):
        return tags
    for at, tag_end in tags.long_tags:
        rest = _name_and_rest(data, at, tag_end)[1]
        if len(rest) > _LONG_TAG and len(_first_attributes(rest)) != len(rest):
            return False
    return _stack_stays_shallow(data, tags)


def _tags(data: bytes) -> _Tags | bool:
    """The page's tags (:class:`_Tags`); True when it has no tag at all; False when
    it has more '<' than :data:`MAX_NODES`, or a name has a non-ASCII byte
    (``str.lower()`` has rules of its own, which the rewrite follows: the fast
    path leaves such a page to it)."""
    # A space ends a name, and opens nothing; the last '>' ends a tag left open.
    padded = data + b" " * (4 * _WORD) + b">"
    codes = np.frombuffer(padded, np.uint8)
    lt = np.flatnonzero(codes == 60)  # '<'
    if len(lt) > MAX_NODES:
        return False  # more elements and comments than MAX_NODES, perhaps
    after = codes[lt + 1]
    end = (after == 47) & (((codes[lt + 2] | 32) - 97) < 26)  # '</' + ASCII letter
    tag = end | (((after | 32) - 97) < 26)  # or '<' + ASCII letter
    lt = lt[tag]
    if len(lt) == 0:
        return True
    end = end[tag]
    # A tag runs to its '>': a '<' after a tag's '<', before the same '>', is inside
    # that tag (in an attribute value, say), as _TAG reads it. So of the tags that
    # end at one '>', only the first is a tag.
    gt = np.flatnonzero(codes == 62)  # '>'
    segment = np.searchsorted(gt, lt)
    real = np.empty(len(lt), bool)
    real[0] = True
    np.not_equal(segment[1:], segment[:-1], out=real[1:])
    closing = end[real]
    name_at = lt[real] + 1 + closing
    tag_end = gt[segment[real]]  # past the page for a tag left open: no byte there
    long = np.flatnonzero(~closing & (tag_end - name_at > _LONG_TAG))
    long_tags = list(zip(name_at[long].tolist(), tag_end[long].tolist(), strict=True))

    lower = padded.lower()  # ASCII letters only, as _TAG's names are
    words = np.ndarray((len(lower) - _WORD,), "<u8", lower, 0, (1,))
    keys, length = _name_words(words, name_at)
    if keys is None:
        return False
    long_names = np.flatnonzero(length >= _WORD)
    if len(long_names):  # its length, to tell "colgroup" from "colgroups"
        after_keys, after_length = _name_words(words, name_at[long_names] + _WORD)
        if after_keys is None:
            return False
        length[long_names] = after_length + _WORD
        for i in np.flatnonzero(length >= 2 * _WORD).tolist():  # 16 bytes or more
            name = _name_and_rest(data, int(name_at[i]), int(tag_end[i]))[0]
            if not name.isascii():
                return False
            length[i] = len(name)
    hit = np.minimum(np.searchsorted(_NO_PUSH_WORDS, keys), len(_NO_PUSH_WORDS) - 1)
    nests = (length > _WORD) | (_NO_PUSH_WORDS[hit] != keys)
    return _Tags(
        closing[nests],
        keys[nests],
        length[nests],
        name_at[nests],
        tag_end[nests],
        long_tags,
    )


def _name_words(words: np.ndarray, at: np.ndarray) -> tuple[np.ndarray | None, np.ndarray]:
    """For names starting at ``at``: their first :data:`_WORD` bytes as a word (the
    bytes after the name masked out) and their length, :data:`_WORD` for a name
    that goes on (no byte of the word ends it). None for the words when a name has
    a non-ASCII byte among them. Bytes within a word are read by bit arithmetic:
    numpy is slow on a reduction along an axis of eight."""
    first = words[at]
    stops = _NAME_STOPS[first.view(np.uint8)].view("<u8")  # 1 in each byte that ends a name
    lowest = stops & (~stops + np.uint64(1))  # the first stop's bit; 0 for none
    before = lowest - np.uint64(1)  # every bit below it: all of them for none
    if np.any(first & (lowest << np.uint64(7))):
        return None, before  # the byte that ends a name is a non-ASCII one
    return first & before, (np.bitwise_count(before) >> 3).astype(np.intp)


_ROUNDS = 4
"""Rounds of dropping pairs before the stack loop: after three, every corpus page
has fewer start tags left than MAX_DEPTH, and the loop is not run."""


def _stack_stays_shallow(data: bytes, tags: _Tags) -> bool:
    """True when the rewrite's stack over ``tags`` (names are ASCII) stays below
    :data:`MAX_DEPTH`, so that no start tag is dropped.

    A start tag directly followed by its own end tag (``<a ...>text</a>``: most of
    a page's) pushes and pops at once and leaves the stack as it was: such pairs
    are dropped, in rounds (a round's drops make new neighbours: ``<li><a></a></li>``).
    At any moment at most one dropped pair per round is open, so after ``r``
    rounds the stack holds at most ``r`` more than the rest of the tags make it
    hold, and that is at most their start tags. So few start tags left prove it
    at once; else the loop keeps the stack of the rest, names as words (longer
    ones as text), and asks every push, of a kept element too, to come below
    ``MAX_DEPTH - r``."""
    closing, keys, length, name_at = tags.closing, tags.keys, tags.length, tags.name_at
    rounds = 0
    while rounds < _ROUNDS and np.count_nonzero(~closing) + rounds > MAX_DEPTH:
        same = (keys[:-1] == keys[1:]) & (length[:-1] == length[1:]) & (length[:-1] <= _WORD)
        pair = ~closing[:-1] & closing[1:] & same
        if not pair.any():
            break
        keep = np.ones(len(closing), bool)
        keep[:-1] &= ~pair
        keep[1:] &= ~pair
        closing, keys, length, name_at = closing[keep], keys[keep], length[keep], name_at[keep]
        rounds += 1
    if np.count_nonzero(~closing) + rounds <= MAX_DEPTH:
        return True
    keys_kept: list[int | str] = keys.tolist()
    for i in np.flatnonzero(length > _WORD).tolist():
        at = int(name_at[i])
        keys_kept[i] = data[at : at + int(length[i])].decode("ascii").lower()
    stack: list[int | str] = []
    for is_end, key in zip(closing.tolist(), keys_kept, strict=True):
        if is_end:
            if stack and stack[-1] == key:
                stack.pop()
        elif len(stack) >= MAX_DEPTH - rounds:
            return False
        else:
            stack.append(key)
    return True


def _name_and_rest(data: bytes, start: int, end: int) -> tuple[str, str]:
    """A tag's name and what follows it up to its ``>``, as :data:`_TAG` splits them,
    from the page's bytes (``start`` and ``end`` fall on ASCII characters)."""
    text = data[start:end].decode("utf-8", "surrogatepass")
    split = _NAME.match(text).end()  # type: ignore[union-attr]  # it matches "" at worst
    return text[:split], text[split:]
