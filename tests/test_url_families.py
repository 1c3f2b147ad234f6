"""Copy families learned from content (DUST rules): proof, vetoes, keys, snapshots.

Pure: URLs and text hashes in, rules out. The crawls over real sockets are in
tests/test_crawler_families.py.
"""

from __future__ import annotations

import json

from robotkit.url.families import reduces
from robotkit.url.learned import LearnedRules
from robotkit.url.normalization import normalize
from robotkit.url.views import views
from robotkit.url.waste import waste_family

SITE = "http://site.test"
TWIN = "http://twin.test"


def seen(rules: LearnedRules, pages: dict[str, int]) -> list[str]:
    """Observe each page (URL: text hash) in order; the lines learned."""
    lines: list[str] = []
    for url, text in pages.items():
        lines += rules.observe(normalize(url), text)
    return lines


def key(rules: LearnedRules, url: str) -> str:
    return rules.apply(normalize(url))


def test_a_parameter_is_dropped_whatever_its_value_after_three_values_of_one_text() -> None:
    rules = LearnedRules()
    seen(rules, {f"{SITE}/p?view=a": 1, f"{SITE}/p?view=b": 1})
    assert key(rules, f"{SITE}/p?view=zz") == f"{SITE}/p?view=zz"  # two are no proof
    lines = seen(rules, {f"{SITE}/p?view=c": 1})
    assert lines and "parameter view dropped whatever its value" in lines[0]
    assert key(rules, f"{SITE}/other?view=q&x=1") == f"{SITE}/other?x=1"
    assert "3 values" in (rules.explain(normalize(f"{SITE}/p?view=q")) or "")


def test_pagination_and_translation_veto_the_parameter() -> None:
    rules = LearnedRules()
    # ?page=1 is the list itself, ?page=2 is not: the parameter changes content.
    seen(rules, {f"{SITE}/list": 1, f"{SITE}/list?page=1": 1, f"{SITE}/list?page=2": 2})
    seen(rules, {f"{SITE}/list?page=9": 3, f"{SITE}/list?page=10": 3, f"{SITE}/list?page=11": 3})
    assert key(rules, f"{SITE}/list?page=12") == f"{SITE}/list?page=12"
    # ?lang=en is the default, ?lang=fr translates.
    seen(rules, {f"{SITE}/a?lang=en": 4, f"{SITE}/a?lang=de": 4, f"{SITE}/a?lang=fr": 5})
    seen(rules, {f"{SITE}/b?lang=en": 6, f"{SITE}/b?lang=xx": 6, f"{SITE}/b?lang=yy": 6})
    assert key(rules, f"{SITE}/b?lang=fr") == f"{SITE}/b?lang=fr"


def test_a_rule_is_withdrawn_by_a_later_counter_example() -> None:
    rules = LearnedRules()
    seen(rules, {f"{SITE}/p?v=1": 1, f"{SITE}/p?v=2": 1, f"{SITE}/p?v=3": 1})
    assert key(rules, f"{SITE}/q?v=1") == f"{SITE}/q"
    # The bare page differs from its three values: v is not ignorable after all.
    lines = seen(rules, {f"{SITE}/p": 9})
    assert lines and lines[0].startswith("withdrawn")
    assert key(rules, f"{SITE}/q?v=1") == f"{SITE}/q?v=1"


def test_letter_case_is_folded_after_two_variants_unless_the_server_tells_them_apart() -> None:
    rules = LearnedRules()
    seen(rules, {f"{SITE}/Docs/Guide.html": 1, f"{SITE}/docs/guide.html": 1})
    assert key(rules, f"{SITE}/DOCS/x") == f"{SITE}/DOCS/x"
    seen(rules, {f"{SITE}/DOCS/GUIDE.html": 1})
    assert key(rules, f"{SITE}/DOCS/x") == f"{SITE}/docs/x"

    strict = LearnedRules()
    seen(strict, {f"{SITE}/A": 1, f"{SITE}/a": 2, f"{SITE}/B": 3, f"{SITE}/b": 3})
    seen(strict, {f"{SITE}/C": 4, f"{SITE}/c": 4})
    assert key(strict, f"{SITE}/D") == f"{SITE}/D"


def test_path_info_tails_are_cut_after_two_and_spread_to_static_files() -> None:
    rules = LearnedRules()
    seen(rules, {f"{SITE}/lib/index.html": 1, f"{SITE}/lib/index.html/": 1})
    assert key(rules, f"{SITE}/lib/index.html/a.html") == f"{SITE}/lib/index.html/a.html"
    seen(rules, {f"{SITE}/lib/index.html/a.html": 1})
    assert key(rules, f"{SITE}/lib/index.html/x/y.html") == f"{SITE}/lib/index.html"
    assert key(rules, f"{SITE}/lib/other.html/x") == f"{SITE}/lib/other.html/x"
    # A second static file proven: every .html file's tail is cut on the origin.
    seen(rules, {f"{SITE}/b.html": 2, f"{SITE}/b.html/q": 2, f"{SITE}/b.html/r/": 2})
    assert key(rules, f"{SITE}/lib/other.html/x") == f"{SITE}/lib/other.html"
    assert key(rules, f"{SITE}/app.php/x") == f"{SITE}/app.php/x"  # scripts one by one


def test_a_front_controller_vetoes_the_cut() -> None:
    rules = LearnedRules()
    seen(
        rules,
        {
            f"{SITE}/index.php": 1,
            f"{SITE}/index.php/": 1,
            f"{SITE}/index.php/home": 1,
            f"{SITE}/index.php/about": 2,
        },
    )
    assert key(rules, f"{SITE}/index.php/news") == f"{SITE}/index.php/news"


def test_the_copy_fetched_first_does_not_make_the_file_a_copy() -> None:
    rules = LearnedRules()
    seen(rules, {f"{SITE}/a/x.html/": 1, f"{SITE}/a/x.html/b.html": 1, f"{SITE}/a/x.html": 1})
    assert key(rules, f"{SITE}/a/x.html/c") == f"{SITE}/a/x.html"
    assert reduces(normalize(f"{SITE}/a/x.html"), normalize(f"{SITE}/a/x.html/"))
    assert reduces(normalize(f"{SITE}/p?a=1"), normalize(f"{SITE}/p?a=1&b=2"))
    assert not reduces(normalize(f"{SITE}/a/x"), normalize(f"{SITE}/a/x/y"))
    assert not reduces(normalize(f"{SITE}/a/x.html/"), normalize(f"{SITE}/a/x.html"))


def test_a_host_is_mapped_onto_its_twin_after_two_paths_unless_one_differs() -> None:
    rules = LearnedRules()
    seen(rules, {f"{SITE}/": 1, f"{SITE}/a": 2, f"{TWIN}/": 1})
    assert key(rules, f"{TWIN}/z") == f"{TWIN}/z"
    lines = seen(rules, {f"{TWIN}/a": 2})
    assert lines and "twin" in lines[0]
    assert key(rules, f"{TWIN}/z?q=1") == f"{SITE}/z?q=1"
    assert key(rules, f"{SITE}/z") == f"{SITE}/z"

    apart = LearnedRules()
    seen(apart, {f"{SITE}/": 1, f"{SITE}/a": 2, f"{SITE}/b": 3})
    seen(apart, {f"{TWIN}/": 1, f"{TWIN}/b": 4, f"{TWIN}/a": 2})
    assert key(apart, f"{TWIN}/z") == f"{TWIN}/z"


def test_what_was_learned_survives_a_snapshot() -> None:
    rules = LearnedRules()
    seen(rules, {f"{SITE}/p?v=1": 1, f"{SITE}/p?v=2": 1, f"{SITE}/p?v=3": 1})
    seen(rules, {f"{SITE}/x.html": 5, f"{SITE}/x.html/": 5, f"{SITE}/x.html/y": 5})
    seen(rules, {f"{SITE}/Ab": 6, f"{SITE}/ab": 6, f"{SITE}/AB": 6})
    seen(rules, {f"{TWIN}/p?v=1": 1, f"{TWIN}/x.html": 5})
    seen(rules, {f"{SITE}/m?w=1": 7, f"{SITE}/m?w=2": 7})
    back = LearnedRules()
    back.restore(json.loads(json.dumps(rules.snapshot())))
    for url in (f"{SITE}/q?v=9", f"{SITE}/x.html/z", f"{SITE}/B", f"{TWIN}/x.html/q"):
        assert key(back, url) == key(rules, url) != normalize(url).key
    # The evidence came back too: one more value of w proves it.
    assert seen(back, {f"{SITE}/m?w=3": 7}) == seen(rules, {f"{SITE}/m?w=3": 7}) != []


def test_the_waste_family_of_a_url_is_its_directory_and_parameter_names() -> None:
    """One family for a cache-buster on every page of a directory, whatever the
    page; for a token segment under every section, whatever the section; none
    shared by a query family and a path family (robotkit.triage.waste)."""

    def family(url: str) -> str:
        return waste_family(normalize(url))

    assert (
        family("http://h/news/a-story?v=8f3a")
        == family("http://h/news/other?v=1")
        == ("http://h/news/*?v")
    )
    assert family("http://h/live?_=1") == family("http://h/?_=2") == "http://h/*?_"
    assert family("http://h/x?b=1&a=2&b=3") == family("http://h/y?b=1&b=2") == "http://h/*?b+"
    assert (
        family("http://h/x?lang=es&print=1") == family("http://h/y?print=1") == "http://h/*?print"
    )
    assert family("http://h/cal/2027/03/") == family("http://h/cal/1999/12/")
    assert family("http://h/section/ferry/6f672f") == family("http://h/section/valley/af42a0")
    assert family("http://h/section/ferry/6f672f") != family("http://h/section/ferry")
    assert family("http://h/about") == "http://h/*"
    assert family("http://h/releases/notes?v=2.1") != family("http://h/news/a-story?v=1")


def test_an_id_segment_of_the_directory_is_masked_in_the_waste_family() -> None:
    """The time picker of every dashboard (``/d/XlmoC7F0N/cpu?from=..``) is one family,
    as the pages of every numbered directory are; a word segment is kept."""

    def family(url: str) -> str:
        return waste_family(normalize(url))

    assert (
        family("http://h/d/XlmoC7F0N/cpu?from=1")
        == family("http://h/d/WJWyt3DIG/disk?from=2")
        == "http://h/d/{t}/*?from"
    )
    assert family("http://h/d/home/cpu?from=1") != family("http://h/d/news/cpu?from=1")


def test_numbered_pages_and_the_views_of_a_numbered_object_are_families_of_their_own() -> None:
    """A numbered page is not of the family of the word-named pages beside it (a
    build and the ``lastBuild`` alias that copies it); under a numbered directory
    each view of the object is a family across objects (``history``, ``change``)."""

    def family(url: str) -> str:
        return waste_family(normalize(url))

    assert family("http://h/job/a/280/") == family("http://h/job/b/17/") == "http://h/job/*/{v}"
    assert family("http://h/job/a/lastBuild/") == "http://h/job/*/*"
    assert (
        family("http://h/dataset/205/history/")
        == family("http://h/dataset/9/history/")
        == "http://h/dataset/*/history"
    )
    assert family("http://h/docs/2.9.0/quickstart.html") == family("http://h/docs/latest/faq.html")
    assert family("http://h/dataset/205/change/") != family("http://h/dataset/205/history/")
    assert family("http://h/job/a/280/console") != family("http://h/job/a/lastBuild/console")


def test_the_documents_a_year_files_are_one_family() -> None:
    """A year's directory (``/2024/``) files dated documents, as a version's does: the
    captures of every archived article are one family, not one per article (blind3
    ``wayback``: no run of copies of other articles was ever three long)."""

    def family(url: str) -> str:
        return waste_family(normalize(url))

    archive = "http://h/web/20240110140325/http://gazette.example"
    assert family(f"{archive}/2024/up-is.html") == family(f"{archive}/2024/year-was.html")
    assert family("http://h/news/2024/harbour.html") == family("http://h/news/2023/ferry.html")
    assert family("http://h/dataset/205/history/") != family("http://h/dataset/205/change/")


def test_a_title_slug_in_the_directory_is_masked_in_the_waste_family() -> None:
    """A forum's post permalinks (``/t/{slug}/147/3``, the topic page again) are one
    family across topics, as they were under an id: a slug of three words names one
    topic as its number does. A section's name of one or two words is kept: at the
    top, or under a query (under a word, without one, it names an object: below)."""

    def family(url: str) -> str:
        return waste_family(normalize(url))

    assert (
        family("http://h/t/water-development-then/154/3")
        == family("http://h/t/come-out-very/161/12")
        == family("http://h/t/service-come-capacitor/147/2")
        == "http://h/t/{t}/*/{v}"
    )
    assert family("http://h/user-guide/intro/x") != family("http://h/dev-guide/intro/x")
    assert family("http://h/docs/user-guide/x?v=1") != family("http://h/docs/dev-guide/x?v=1")


def test_the_word_named_views_of_a_named_object_are_families_across_objects() -> None:
    """A wiki's book (``/books/and-much``) holds its pages, chapters and exports under
    word-named directories; with the book's slug and the view's word both masked they
    were one family (``/books/and-much/*/*``), and the book's exports, copies, made its
    pages barren (blind10 ``bookstack``: 20 of 28 pages). Under a word a slug names
    one object (masked), and a word under it one view of every object (kept)."""

    def family(url: str) -> str:
        return waste_family(normalize(url))

    book = "http://h/books/and-much"
    assert family(f"{book}/page/then-manuscript") == family("http://h/books/as-time/page/so-far")
    assert family(f"{book}/page/then-manuscript") == "http://h/books/*/page/*"
    assert family(f"{book}/export/pdf") == family("http://h/books/as-time/export/zip")
    assert family(f"{book}/export/pdf") != family(f"{book}/page/then-manuscript")
    assert family(f"{book}/chapter/not-long") != family(f"{book}/page/then-manuscript")
    assert (
        family(f"{book}/page/then-manuscript/export/pdf")
        == family("http://h/books/as-time/page/so-far/export/html")
        == "http://h/books/*/page/*/export/*"
    )
    assert family("http://h/section/ferry/6f672f") == family("http://h/section/valley/af42a0")


def test_a_script_keeps_its_name_in_the_waste_family() -> None:
    """A shop's ``email.do?id=N`` (one form for every product) and a wiki's
    ``viewinfo.action?pageId=N`` are other scripts' views of an object than
    ``product.do?id=N`` and ``viewpage.action?pageId=N``: three copies of one view
    make its family barren, not the object pages' (blind3 ``struts``,
    ``confluence``). A static page's parameter (``a.html?v=``) is still one family
    for the whole directory, as on pages without an extension."""

    def family(url: str) -> str:
        return waste_family(normalize(url))

    assert family("http://h/shop/product.do?id=1") == family("http://h/shop/product.do?id=2")
    assert family("http://h/shop/product.do?id=1") != family("http://h/shop/email.do?id=1")
    assert family("http://h/pages/viewpage.action?pageId=7") != family(
        "http://h/pages/viewinfo.action?pageId=7"
    )
    assert family("http://h/news/a.html?v=1") == family("http://h/news/b.html?v=2")
    assert family("http://h/news/a.html?v=1") == family("http://h/news/b?v=2")


def test_a_parameter_rule_proven_in_one_section_is_rechecked_in_another() -> None:
    """The home page ignores ?lang=, /info/ pages too, /help/ pages are translated:
    proven on /, the rule is not applied to /help/ blindly; one page of each section
    with the parameter decides there (a copy extends it, a translation vetoes it)."""
    rules = LearnedRules()
    seen(rules, {f"{SITE}/": 1, f"{SITE}/?lang=es": 1, f"{SITE}/?lang=fr": 1})
    lines = seen(rules, {f"{SITE}/?lang=de": 1})
    assert lines and "dropped whatever its value in / " in lines[0]
    assert key(rules, f"{SITE}/about?lang=es") == f"{SITE}/about"
    assert key(rules, f"{SITE}/help/permit?lang=es") == f"{SITE}/help/permit?lang=es"
    assert key(rules, f"{SITE}/info/a?lang=es") == f"{SITE}/info/a?lang=es"
    # A copy in /info/ extends the rule there, after one page.
    lines = seen(rules, {f"{SITE}/info/a": 2, f"{SITE}/info/a?lang=es": 2})
    assert lines and "in /info/" in lines[0] and "as in /" in lines[0]
    assert key(rules, f"{SITE}/info/b?lang=fr") == f"{SITE}/info/b"
    # A translation in /help/ vetoes it there, and only there.
    seen(rules, {f"{SITE}/help/permit": 3, f"{SITE}/help/permit?lang=es": 4})
    seen(rules, {f"{SITE}/help/fees?lang=es": 5, f"{SITE}/help/fees": 6})
    for lang in ("es", "fr", "de"):
        assert key(rules, f"{SITE}/help/fees?lang={lang}") == f"{SITE}/help/fees?lang={lang}"
    assert key(rules, f"{SITE}/info/b?lang=fr") == f"{SITE}/info/b"
    assert key(rules, f"{SITE}/?lang=fr") == f"{SITE}/"
    back = LearnedRules()
    back.restore(json.loads(json.dumps(rules.snapshot())))
    for url in (f"{SITE}/info/b?lang=fr", f"{SITE}/help/fees?lang=fr", f"{SITE}/?lang=it"):
        assert key(back, url) == key(rules, url)


def test_a_repeated_parameter_proves_nothing_of_its_value() -> None:
    """?lang=de&lang=de gave the text of ?lang=de: that is no proof that lang=de
    changes nothing (it translates); ?lang=es&lang=fr as ?lang=fr proves that the
    last value counts."""
    rules = LearnedRules()
    assert not rules.learn_pair(f"{SITE}/help/a?lang=de&lang=de", f"{SITE}/help/a?lang=de")
    assert key(rules, f"{SITE}/help/b?lang=de") == f"{SITE}/help/b?lang=de"
    assert rules.learn_pair(f"{SITE}/help/a?lang=es&lang=fr", f"{SITE}/help/a?lang=fr")
    assert key(rules, f"{SITE}/help/b?lang=de&lang=es") == f"{SITE}/help/b?lang=es"
    assert key(rules, f"{SITE}/help/b?lang=es") == f"{SITE}/help/b?lang=es"
    assert key(rules, f"{SITE}/help/b?lang=de&lang=de") == f"{SITE}/help/b?lang=de"
    assert key(rules, f"{SITE}/info/b?lang=de&lang=es") == f"{SITE}/info/b?lang=de&lang=es"


def test_a_pair_that_changed_a_page_is_not_learned_from_a_copy_elsewhere() -> None:
    """TYPO3's ``L=1``: the translated home page differs under it, an untranslated
    page falls back to its own text. The copy of the untranslated page proves
    nothing of ``L=1`` where it was shown to translate, so the other pages' German
    forms keep their own keys; ``L=0``, never disproved, is still learned."""
    rules = LearnedRules()
    seen(rules, {f"{SITE}/index.php?id=1": 1, f"{SITE}/index.php?id=1&L=1": 2})
    seen(rules, {f"{SITE}/index.php?id=2": 3, f"{SITE}/index.php?id=2&L=1": 3})
    assert not rules.learn_pair(f"{SITE}/index.php?id=2&L=1", f"{SITE}/index.php?id=2")
    assert key(rules, f"{SITE}/index.php?id=7&L=1") == f"{SITE}/index.php?L=1&id=7"
    seen(rules, {f"{SITE}/index.php?id=1&L=0": 1})
    assert rules.learn_pair(f"{SITE}/index.php?id=1&L=0", f"{SITE}/index.php?id=1")
    assert key(rules, f"{SITE}/index.php?id=7&L=0") == f"{SITE}/index.php?id=7"


def test_a_pair_learned_to_change_nothing_is_withdrawn_when_a_page_differs() -> None:
    """Learned first from an untranslated page, ``L=1`` goes when a page fetched
    under it (reached by a link before the rule) shows other text than without it."""
    rules = LearnedRules()
    seen(rules, {f"{SITE}/index.php?id=2": 3, f"{SITE}/index.php?id=2&L=1": 3})
    assert rules.learn_pair(f"{SITE}/index.php?id=2&L=1", f"{SITE}/index.php?id=2")
    assert key(rules, f"{SITE}/index.php?id=7&L=1") == f"{SITE}/index.php?id=7"
    lines = seen(rules, {f"{SITE}/index.php?id=1&L=1": 2, f"{SITE}/index.php?id=1": 1})
    assert any(line.startswith("withdrawn") and "L=1" in line for line in lines)
    assert key(rules, f"{SITE}/index.php?id=7&L=1") == f"{SITE}/index.php?L=1&id=7"
    back = LearnedRules()
    back.restore(json.loads(json.dumps(rules.snapshot())))
    assert not back.learn_pair(f"{SITE}/index.php?id=3&L=1", f"{SITE}/index.php?id=3")


def test_a_parameter_a_page_lists_several_tokens_of_is_no_session_id() -> None:
    """A session id is one value a visit. OpenGrok's history page links each
    revision of a file (``ring.c?r=ad9b7dbe``, ``?r=06f74efc``): the head revision is
    the file's own text, yet ``r`` names pages, and the older revisions keep their
    keys (a resumed crawl too). Without such a list, a token value added to a copy is
    still a session id."""
    rules = LearnedRules()
    file = f"{SITE}/xref/src/ring.c"
    revisions = [normalize(f"{file}?r={r}") for r in ("ad9b7dbe", "06f74efc", "3eb5cbdc")]
    rules.observe_links(normalize(f"{SITE}/history/src/ring.c"), revisions)
    rules.learn_pair(f"{file}?r=ad9b7dbe", file)
    assert key(rules, f"{file}?r=06f74efc") == f"{file}?r=06f74efc"
    back = LearnedRules()
    back.restore(json.loads(json.dumps(rules.snapshot())))
    back.learn_pair(f"{SITE}/xref/src/sync.c?r=df944228", f"{SITE}/xref/src/sync.c")
    assert key(back, f"{SITE}/xref/src/sync.c?r=c639114d") == f"{SITE}/xref/src/sync.c?r=c639114d"
    fresh = LearnedRules()
    assert fresh.learn_pair(f"{file}?visit=x8Kq2Lm9Zp", file)
    assert key(fresh, f"{file}?visit=Q7r2Xk4Wm1") == file


def test_a_view_is_the_same_resource_with_more() -> None:
    """A view of a page: its path under another query, a path under it, or its
    name with selectors before the extension (Apache Sling's ``page.print.html``).
    Another directory's page of the same name (another version, a translation) or a
    page beside it is none. Selector views of a directory's pages are one family of
    their own, apart from the pages."""

    def view(page: str, of: str) -> bool:
        return views(normalize(f"http://h{page}"), normalize(f"http://h{of}"))

    assert view("/src/f?a=1", "/src/f") and view("/src/f/annotate", "/src/f")
    assert view("/c/en.print.html", "/c/en.html") and view("/c/en.tag-x.sort-a.html", "/c/en.html")
    assert not view("/en/latest/faq.html", "/en/stable/faq.html")
    assert not view("/c/de.html", "/c/en.html") and not view("/c/en/x.html", "/c/en.html")
    assert not view("/src/fg", "/src/f") and not view("/c/en.html", "/c/en.print.html")
    assert not views(normalize("http://a/src/f/x"), normalize("http://b/src/f"))
    assert view("/issues/7.atom", "/issues/7") and not view("/issues/7.atom", "/issues/8")
    assert not view("/issues/7", "/issues/7.atom") and not view("/a/x.tar.gz", "/a/x")
    assert not view("/files/a.pdf", "/files/") and not view("/files/a/", "/files/")

    def family(url: str) -> str:
        return waste_family(normalize(f"http://h{url}"))

    assert family("/c/en.print.html") == family("/c/de.tag-x.html") != family("/c/en.html")
    assert family("/c/en.html") == family("/c/de.html")


def test_a_named_value_made_of_words_is_no_session_id() -> None:
    """A portlet's id (words joined by ``_`` with an instance token) added to a copy
    of its page routes the request: it is not learned as a session id, so the pager's
    links keep it when fetched. A random run added to a copy still is one."""
    portlet = "com_example_news_web_portlet_NewsPortlet_INSTANCE_x7K2q9Lm"
    rules = LearnedRules()
    assert rules.learn_pair(f"{SITE}/news?p_p_id={portlet}&cur=1", f"{SITE}/news")
    page = f"{SITE}/news?p_p_id={portlet}&cur=2"
    assert rules.spelled(normalize(page), page) == page
    fresh = LearnedRules()
    assert fresh.learn_pair(f"{SITE}/news?p_p_id=x7K2q9LmQ3a8Zr0TyU2w&cur=1", f"{SITE}/news")
    other = f"{SITE}/news?p_p_id=Q7r2Xk4Wm1Zp8Lm3Ty0a&cur=2"
    assert fresh.spelled(normalize(other), other) == f"{SITE}/news?cur=2"


def test_the_objects_of_each_top_directory_and_each_kind_of_page_are_families() -> None:
    """A forum's threads (``/threads/{slug}.{n}/``), members and shared-post links
    (``/posts/{n}/``, redirects to the thread page: copies) are families of their
    own, as are a thread's pages (``page-{n}``) and its post permalinks
    (``post-{n}``, copies): three copies of one made the others barren, and their
    real pages waited for good (blind7 ``xenforo``: 11 of 40 pages). An object's
    export in another format (``/commit/{id}.diff``) is a family apart from the
    object (blind7 ``gitea``: 8 commits)."""

    def family(url: str) -> str:
        return waste_family(normalize(url))

    thread = "http://h/threads/lattice-genome-catalyst.1209"
    assert family("http://h/posts/40100/") != family(f"{thread}/")
    assert family("http://h/members/voltagethread.100/") != family(f"{thread}/")
    assert family(f"{thread}/page-2") != family(f"{thread}/post-40100")
    assert family(f"{thread}/page-2") == family("http://h/threads/a-b-c.1/page-3")
    commit = "http://h/ledger/commit/acef606bebb96557cacde25deaae12e6b49fa39a"
    assert family(f"{commit}.diff") != family(commit) != family(f"{commit}.patch")
    assert family("http://h/ledger/commit/59bba23d11e917e294a1abe56d28e2d4e8293183") == family(
        commit
    )
