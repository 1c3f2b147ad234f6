"""robotkit.page.markup: the fast proof that a page needs no rewriting agrees with the
rewrite itself. Whenever the fast path says "unchanged", the rewrite returns the page
unchanged; so hostile pages are bounded exactly as before."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import page_corpus
from support.bombs import hostile_pages
from support.page_corpus import pages

from robotkit.page.markup import MAX_ATTRIBUTES, MAX_DEPTH, _plainly_bounded, _rewrite, bounded


def agree(html: str) -> bool:
    """The fast path's claim checked against the rewrite; True when it claimed."""
    html = html.replace("\0", "")
    rewritten = _rewrite(html)
    claimed = _plainly_bounded(html)
    if claimed:
        assert rewritten == html
    assert bounded(html) == rewritten
    return claimed


NAMES = ["div", "DIV", "span", "p", "li", "br", "a", "svg", "path", "script", "b",
         "blockquote", "custom-element-name", "x\u212a", "lin\u212a", "İmg", "é", "h1"]  # fmt: skip
PIECES = ["<", ">", "/", "</", "<!--", "-->", "<?", "<!", "='", '="', "'", '"', " ", "\t",
          "\x1c", "\xa0", "x", "é", "a<b", "\0", "\n"]  # fmt: skip


@st.composite
def tag_soup(draw: st.DrawFn) -> str:
    parts: list[str] = []
    for _ in range(draw(st.integers(0, 60))):
        kind = draw(st.integers(0, 4))
        name = draw(st.sampled_from(NAMES))
        if kind == 0:
            attrs = draw(st.lists(st.sampled_from([*PIECES, "k=v", 'k="a b"', "<i>"]), max_size=6))
            parts.append(f"<{name} {' '.join(attrs)}>")
        elif kind == 1:
            parts.append(f"</{name}>")
        elif kind == 2:
            parts.append(draw(st.sampled_from(PIECES)))
        elif kind == 3:  # a run of nesting, to come near MAX_DEPTH
            parts.append(f"<{name}>" * draw(st.integers(0, 2 * MAX_DEPTH)))
        else:  # a long tag, with spaces in a quoted value or as attributes
            gap = draw(st.sampled_from([" ", "  ", "\n"]))
            count = draw(st.integers(MAX_ATTRIBUTES - 2, MAX_ATTRIBUTES + 2))
            words = gap.join(f"w{i}" for i in range(count)) + "x" * draw(st.integers(0, 1100))
            quoted = draw(st.booleans())
            parts.append(f'<{name} d="{words}">' if quoted else f"<{name} {words}>")
    return "".join(parts)


@settings(max_examples=300, deadline=None)
@given(tag_soup())
def test_the_fast_path_never_claims_a_page_the_rewrite_changes(html: str) -> None:
    agree(html)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(PIECES + NAMES), max_size=200).map("".join))
def test_the_fast_path_on_any_text(html: str) -> None:
    agree(html * 3)


UNITS = ["<div>", "</div>", "<DIV>", "</span>", "<span>", "<p>", "</p>", "<br>", "</br>",
         '<div title="</div>">', "<b title='a<b'>", "</b>", "<!--", "-->", "</ div>", "</>",
         "<lin\u212a>", "<blockquote>", "</BlockQuote>", "<custom-element-x>",
         "</custom-element-x>", "<svg>", "a<b", "<a href=x>", "</a>", "<div\x1c>", "</div\x1c>",
         "<i", "<plaintext>", "<PlainText>", "<p\u00e9>", "<br\u212a>", "<colgroupx>",
         "<span></spanx>", "<basefont-x>", "<optgroup>", "</optgroup>", "<optgroups>",
         "</optgroups>", "<abcdefghijklmnop>", "</abcdefghijklmnop>", "<abcdefghijklmnopq>",
         "</abcdefghijklmnopq>", "<colgroup\u00e9>", "<abcdefghi\u00e9>", "<ul>", "</ul>",
         "<li><a href=x></a></li>", "<div><span></span></div>"]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(UNITS), max_size=4).map("".join),
    st.lists(st.sampled_from(UNITS), min_size=1, max_size=6).map("".join),
    st.integers(0, 2 * MAX_DEPTH),
)
def test_repeated_units_near_the_depth_bound(head: str, unit: str, times: int) -> None:
    """A unit of tags repeated until the estimate nears MAX_DEPTH: an end tag that
    pops what the rewrite would not (a mismatched name, one inside an attribute
    value) would make the fast path claim a page the rewrite changes."""
    agree(head + unit * times)


@pytest.mark.parametrize("name", list(hostile_pages(64 * 1024)))
def test_hostile_pages_are_bounded_as_by_the_rewrite(name: str) -> None:
    agree(hostile_pages(64 * 1024)[name])


def generated_page(sections: int) -> str:
    """A documentation-like page: head, nested sections, lists, tables, an inline
    SVG icon with long path data, a script with comparisons in it."""
    path = " ".join(f"L{i} {i + 1}" for i in range(400))
    body = "".join(
        f'<section id="s{i}"><h2>Part {i}</h2><p>Text <a href="/p{i}">link</a>'
        f"<ul><li>one<li>two</ul><table><tr><td>a<td>b</table>"
        f'<svg viewBox="0 0 9 9"><path d="M0 0 {path}"/></svg>'
        f"<script>if (a<b && c>d) {{ x = '<div>'; }}</script></section>"
        for i in range(sections)
    )
    return f"<!DOCTYPE html><html><head><title>t</title></head><body>{body}</body></html>"


def test_real_looking_pages_take_the_fast_path_unchanged() -> None:
    page = generated_page(30)
    assert agree(page) and bounded(page) == page


def test_spaces_in_a_quoted_value_are_not_attributes() -> None:
    """SVG path data has hundreds of spaces in one value: cutting there left the
    quote open, and the parser then read the rest of the page as that value."""
    path = '<path d="' + " ".join(["1"] * 500) + '">'
    assert bounded("<p>" * 300 + path + '<a href="/x">x</a>').endswith(path + '<a href="/x">x</a>')
    many = "<a " + " ".join(f'x{i}="v w"' for i in range(MAX_ATTRIBUTES + 50)) + ">"
    cut = bounded(many * 2)
    assert cut.count("x0=") == 2 and f"x{MAX_ATTRIBUTES - 1}=" in cut
    assert f"x{MAX_ATTRIBUTES}=" not in cut


@pytest.mark.parametrize("depth", [MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1])
def test_nesting_at_the_bound(depth: int) -> None:
    html = "<div>" * depth + "<span>x</span>" + "</div>" * depth
    claimed = agree(html)
    assert claimed == (depth < MAX_DEPTH)
    # A name that only lowers to a known one by Unicode rules is left to the rewrite.
    assert not _plainly_bounded("<lin\u212a>" * 300)


@pytest.mark.parametrize(
    ("unit", "nests"),
    [("<colgroup>", False), ("<colgroups>", True), ("<optgroup>", False),
     ("<abcdefgh>", True), ("<abcdefghijklmnop>", True), ("<abcdefghijklmnopq>", True),
     ("<abcdefghijklmnop></abcdefghijklmnop>", False),
     ("<abcdefghijklmnop></abcdefghijklmnopq>", True), ("<" + "n" * 300 + ">", True)],
)  # fmt: skip
def test_names_at_the_word_boundaries(unit: str, nests: bool) -> None:
    """Names are read eight bytes at a time: a void or self-closing name of exactly
    eight bytes opens nothing, one byte more makes another name that nests, and
    names past one and two words are told apart by their whole length (an end tag
    one byte longer than its start tag's name closes nothing)."""
    html = unit * (MAX_DEPTH + 10)
    assert agree(html) != nests
    assert (_rewrite(html) == html) != nests


CORPUS = page_corpus.corpus()


def test_every_corpus_page_takes_the_fast_path_unchanged() -> None:
    """The real pages (inline SVG icons whose ``<path/>`` the estimate keeps open,
    long path data, scripts with comparisons): the fast path claims each, and the
    rewrite indeed leaves each unchanged."""
    read = 0
    for url, html in pages(CORPUS):
        assert agree(html), url
        read += 1
    assert read >= 30


def test_row4_page_corpus_tests_need_nothing_outside_the_repository(tmp_path: Path) -> None:
    """On a fresh clone (no ``shared/`` folder above it) the page tests read the
    sample committed in tests/data instead of being skipped: a few dozen pages of
    every origin of the large corpus, small, with their licences beside them."""
    assert page_corpus.find_corpus(tmp_path) is None  # nothing above a fresh folder
    sample = page_corpus.corpus(tmp_path)
    assert sample == Path(__file__).parent / "data" / "html-pages-sample.tar.gz"
    assert sample.stat().st_size < 600_000
    read = dict(pages(sample))
    assert 30 <= len(read) <= 40
    origins = {url.removeprefix("https://docs.example/").split("/")[0] for url in read}
    assert origins == {"rust", "nodejs", "npm", "libxslt"}
    licence = sample.with_name("html-pages-sample.LICENSE").read_text()
    for origin in origins:
        assert f"html-pages/{origin}/" in licence
    for text in ("MIT License", "Copyright Node.js contributors", "The Artistic License 2.0"):
        assert text in licence


def test_pairs_are_dropped_in_rounds_and_the_bound_still_holds() -> None:
    """Lists of links, 200 levels down, are proved by dropping pairs round after
    round; a pair inside pairs that opens the 257th element is not lost in the
    rounds: the rewrite drops it, and the fast path does not claim the page."""
    items = "<ul><li><a href=x>t</a></li><li><b>u</b></li></ul>" * 500
    assert agree("<div>" * 200 + items + "</div>" * 200)
    nested = "<div>" * (MAX_DEPTH - 2) + "<span><b><i>x</i></b></span>" + "</div>" * 300
    assert not agree(nested)
    assert _rewrite(nested) != nested
