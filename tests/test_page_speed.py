"""The fast paths of page processing (ARCHITECTURE.md, "Page processing") against
the plain code they stand in for: each must give the same answer on every input,
so each is checked against its reference on generated inputs and on the links and
texts of real documentation pages (``support.page_corpus``: the large corpus when
present, else the sample in tests/data)."""

from __future__ import annotations

import re

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st
from selectolax.lexbor import LexborHTMLParser
from support.page_corpus import corpus, pages

from robotkit.content.fingerprints import (
    PageText,
    fingerprint_readings,
    fingerprint_words,
    masked_digits,
    split_words,
)
from robotkit.content.shingles import distinct
from robotkit.page.meta import MAX_LINKS, parse_page, resolve_link
from robotkit.url.parse import LinkResolver, resolve

_WORD = re.compile(r"\w+")
_DIGITS = re.compile(r"\d+")


CORPUS = corpus()


# -- words -----------------------------------------------------------------------------

_SAMPLES = "ab Z_09 \t\n.,-'\u00e9 \u00fc \u00df \u00b6 \u2014 \u201c \u201d \u2019 \u0663 \u0966 "
_SAMPLES += "\u00bd \u00b2 \u00a0 \u3000 \u5b57 \ud800 \u0130 \u01c5"
"""Word characters of several scripts, symbols a page uses, digits of other scripts
(Arabic-Indic, Devanagari), fractions, unusual spaces, a lone surrogate, and
letters whose lower case is longer or title case."""
_TEXT = st.text(st.sampled_from(_SAMPLES), max_size=80) | st.text(max_size=40)


@settings(max_examples=300, deadline=None)
@given(_TEXT)
@example("a" + "".join(chr(0x2000 + i) for i in range(40)) + "b")  # past the symbol limit
def test_split_words_is_the_regular_expression(text: str) -> None:
    assert split_words(text) == _WORD.findall(text)


def test_every_character_is_a_word_character_exactly_when_the_regex_says() -> None:
    """split_words reads ``\\w`` as str.isalnum() or ``_``: the same test on all of
    Unicode, one character between spaces each."""
    chars = [chr(c) for c in range(0x110000)]
    expected = [c for c in chars if c.isalnum() or c == "_"]
    assert _WORD.findall(" ".join(chars)) == expected
    assert split_words(" ".join(expected)) == expected


@settings(max_examples=300, deadline=None)
@given(_TEXT | st.text(st.sampled_from("aZ09_ -.,;\t\n\x7f\x1f[]`@"), max_size=60))
@example("Hello, WORLD_x9 \x7f@[`")
def test_page_text_from_ascii_lowers_and_cuts_in_one_table(text: str) -> None:
    """ASCII text is lowered and cut by one ``bytes.translate``: the words of
    ``str.lower()`` cut by the regular expression."""
    assert PageText.of_text(text, "").words == _WORD.findall(text.lower())


@settings(max_examples=300, deadline=None)
@given(_TEXT)
@example("a00b 7 ٣٤ x1y22z333")
def test_masked_digits_is_the_regular_expression(text: str) -> None:
    data = text.encode("utf-8", "surrogatepass")
    assert masked_digits(text, data) == _DIGITS.sub("0", text).encode("utf-8", "surrogatepass")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 2**64 - 1), max_size=300), st.integers(0, 5))
def test_distinct_is_numpy_unique(values: list[int], repeat: int) -> None:
    array = np.array(values + values[:repeat], dtype=np.uint64)
    assert distinct(array).tolist() == np.unique(array).tolist()


_PAGE_WORDS = st.lists(
    st.sampled_from(["a", "b", "page", "7", "12", "x1", "\u0663", "to"]), max_size=30
)
_READING = st.tuples(
    st.frozensets(st.sampled_from(["a", "7", "to", "zz"]), max_size=3),
    st.booleans(),
    st.integers(1, 4),
)


@settings(max_examples=300, deadline=None)
@given(_PAGE_WORDS, st.lists(_READING, min_size=1, max_size=4))
@example(["page", "7"], [(frozenset(), False, 3), (frozenset({"7"}), True, 3)])  # the triage's
def test_fingerprints_of_several_readings_are_each_readings_own(
    words: list[str], readings: list[tuple[frozenset[str], bool, int]]
) -> None:
    page = PageText(words, "")
    expected = [fingerprint_words(words, size, skip, mask) for skip, mask, size in readings]
    assert fingerprint_readings(page, readings) == expected


# -- links -----------------------------------------------------------------------------

_BASES = [
    "https://docs.example/book/ch01.html",
    "https://docs.example/",
    "http://user:pw@Docs.Example:8080/a/b/?q=1",
    "http://docs.example/a/./b/c",
    "https://docs.example:99999/x/",  # a bad port: no relative link resolves
    "not a url",
]
_REFERENCE = st.text(st.sampled_from("ab/.:?#%=&-_~ \\\t@+é"), max_size=24) | st.sampled_from(
    ["intro.html", "a/b.html?x=1#y", "http://Example.com/a", "https://docs.example/p?q#f",
     "https://exa mple/", "http://host:0/", "mailto:x@y", "x:y", "./a", "a/../b", "//h/x",
     "/p/12?x#y", "/", "/a/./b", "/\\\\h"]
)  # fmt: skip


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(_BASES), _REFERENCE)
def test_the_fast_link_path_answers_as_the_full_resolver(base: str, reference: str) -> None:
    fast = LinkResolver(base).fast(reference)
    assert fast is None or fast == resolve(base, reference)
    assert LinkResolver(base).resolve(reference) == resolve(base, reference)


def _plain_resolve_link(base: str, href: str) -> str | None:
    """resolve_link as it reads without its shortcuts: the attribute's whitespace
    dropped, a bare fragment no link, the rest through the full resolver."""
    href = re.sub(r"[\t\n\r]", "", href.strip())
    return None if not href or href.startswith("#") else resolve(base, href)


@given(st.sampled_from(_BASES), _REFERENCE.map(lambda r: f" \t{r}\n") | _REFERENCE)
def test_resolve_link_answers_as_the_plain_reading(base: str, reference: str) -> None:
    assert resolve_link(base, reference) == _plain_resolve_link(base, reference)


def test_on_the_corpus_the_fast_paths_answer_as_the_plain_code() -> None:
    """Every link of the corpus's pages, as the page holds it: where the fast path
    answers, the full resolver answers the same, and it answers for both kinds of
    plain link (absolute and relative); a page's links as parse_page gives them
    are the full resolver's, one by one (every third page). Every page's text is
    cut into the regular expression's words and digit runs."""
    answered = {"absolute": 0, "relative": 0}
    non_ascii = 0
    number = 0
    for number, (url, html) in enumerate(pages(CORPUS)):
        tree = LexborHTMLParser(html)
        hrefs = [
            href
            for node in tree.css("a, area, link, frame, iframe")
            if (href := node.attributes.get("src" if "frame" in (node.tag or "") else "href"))
            is not None
        ]
        resolver = LinkResolver(url)
        for href in hrefs:
            fast = resolver.fast(href)
            if fast is not None:
                assert fast == resolve(url, href), (url, href)
                answered["absolute" if href.startswith("http") else "relative"] += 1
        if number % 3 == 0:
            meta = parse_page(html, url, "examplebot")
            full = [_plain_resolve_link(meta.base_url, href) for href in hrefs]
            assert [link.url for link in meta.links] == list(dict.fromkeys(u for u in full if u))
        root = tree.root
        text = root.text(separator=" ").lower() if root is not None else ""
        non_ascii += not text.isascii()
        assert split_words(text) == _WORD.findall(text)
        data = text.encode("utf-8", "surrogatepass")
        assert masked_digits(text, data) == _DIGITS.sub("0", text).encode("utf-8", "surrogatepass")
    read = number + 1
    assert read >= 30
    # Both kinds of plain link are common on real pages (the 518 pages hold 8,906
    # and 19,135, the 37 of the sample 810 and 2,142), and half the texts take the
    # symbols' path (252 and 17): the bounds hold for either corpus.
    assert answered["absolute"] > 10 * read
    assert answered["relative"] > 30 * read
    assert non_ascii > read // 5


_LINK_MARKUP = [
    '<a href="#top">', '<a href=" #x">', '<a href="">', "<a href>", "<a>", '<a href="&#35;e">',
    '<a href="/p" rel="NoFollow">', '<a href="/p">', '<area href="/m">', '<area>',
    '<link rel="canonical" href="/c">', '<link href="#l">', '<frame src="#f">',
    '<iframe src="/i">', "<iframe>", '<base href="/b/">', '<meta name="robots" content="nofollow">',
    "<title>T</title>", "<p>", "</p>", "<li>t", "x", "<table><td>", "</a>", "<b>",
]  # fmt: skip


_PADDING = '<link href="#p">' * MAX_LINKS


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(_LINK_MARKUP), max_size=40))
def test_the_link_selector_reads_what_the_element_loop_reads(parts: list[str]) -> None:
    """With no more than MAX_LINKS link targets a page's elements that are no
    link (no target, a bare fragment) are left out by the selector; with more,
    every element is read and counted. Padding a page past that point with
    targets that are no link (``<link>``: void, and no formatting element the
    tree builder could copy) must change nothing it reads."""
    html = "".join(parts)
    padding = _PADDING
    few = parse_page(html, "http://e.org/d/", "examplebot")
    many = parse_page(html + padding, "http://e.org/d/", "examplebot")
    assert few.links == many.links
    assert (few.base_url, few.robots, few.title, few.canonical) == (
        many.base_url,
        many.robots,
        many.title,
        many.canonical,
    )


def test_copies_of_a_link_the_tree_builder_makes_are_read_on_both_paths() -> None:
    """An <a> closed by another tag is copied into what follows (HTML's
    reconstruction of formatting elements): links with no '<' of their own."""
    html = '<p><a href="/x"></p>' + "<li>t" * 200 + '<p><a href="/y" rel="nofollow"></p>t'
    few = parse_page(html, "http://e.org/", "examplebot")
    assert [link.url for link in few.links] == ["http://e.org/x", "http://e.org/y"]
    assert few.links == parse_page(html + _PADDING, "http://e.org/", "examplebot").links
    # Past MAX_LINKS targets the copies count toward the cut as the tags do.
    many = html.replace("<li>t", "<li>t" * 60) + "<p><a href=/z></p>"
    cut = parse_page(many, "http://e.org/", "examplebot")
    assert [link.url for link in cut.links] == ["http://e.org/x"]
