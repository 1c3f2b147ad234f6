"""A page's numbered versions (a wiki topic's ``?rev=N``): the one that is the page
itself differs from page to page, so its copy teaches nothing of the others. The
pure core, fed the facts a crawl would feed it; the site is blind6 ``foswiki``'s
shape (traps/README.md), a wiki of topics of one to three revisions."""

from __future__ import annotations

from robotkit.traps.base import prose
from robotkit.triage.triage import PageFacts, Triage
from robotkit.url.learned import LearnedRules
from robotkit.url.normalization import normalize
from robotkit.url.waste import waste_family, waste_shape

SITE = "http://wiki.test"
VIEW = f"{SITE}/bin/view/Lab/"


def page(words: str) -> str:
    return f"<html><body><p>{prose(words, 10)}</p></body></html>"


def test_a_version_that_changes_nothing_holds_on_its_own_page_only() -> None:
    """A topic links its revisions ``?rev=1``, ``?rev=2``: ``?rev=2`` of a topic of two
    revisions is the topic; of a topic of three it is an older revision. A pair of
    words (``?cover=print``) still holds in the section."""
    rules = LearnedRules()
    home = normalize(f"{VIEW}Home")
    rules.observe_links(home, [normalize(f"{VIEW}Home?rev={n}") for n in (1, 2)])
    assert rules.learn_pair(f"{VIEW}Home?rev=2", f"{VIEW}Home")
    assert rules.apply(normalize(f"{VIEW}Home?rev=2")) == f"{VIEW}Home"
    assert rules.apply(normalize(f"{VIEW}Rules?rev=2")) == f"{VIEW}Rules?rev=2"
    assert rules.learn_pair(f"{VIEW}Home?cover=print", f"{VIEW}Home")
    assert rules.apply(normalize(f"{VIEW}Rules?cover=print")) == f"{VIEW}Rules"


def test_current_revisions_neither_form_a_copy_form_nor_make_revisions_barren() -> None:
    """Topics of one revision link ``?rev=1``, a copy of each; topics of three link
    ``?rev=3`` (a copy) and ``?rev=2``, ``?rev=1`` (older texts). The copies are
    read first: the link form ``{topic}?rev=1`` is not learned as a copy of every
    topic, and the ``?rev=`` family stays vouched for."""
    triage = Triage()
    home, revisions = f"{VIEW}WebHome", tuple(f"{VIEW}WebHome?rev={n}" for n in (1, 2))
    triage.judge(PageFacts(home, home, 200, page("lab home"), revisions, None, referer=VIEW), set())
    for n, topic in enumerate(("WebIndex", "WebChanges", "WebNotify", "WebSearch")):
        url = f"{VIEW}{topic}"
        text = page(f"{topic} lab topic {n}")
        links = (f"{url}?rev=1",)
        triage.judge(PageFacts(url, url, 200, text, links, None, referer=VIEW), set())
        copy = f"{url}?rev=1"
        triage.judge(PageFacts(copy, copy, 200, text, (), None, referer=url), set())
    rules = f"{VIEW}BoatRules"
    triage.judge(
        PageFacts(rules, rules, 200, page("boat rules three"), (), None, referer=VIEW), set()
    )
    older = normalize(f"{rules}?rev=1")
    assert triage.screen(older, 1, rules) is None
    assert not triage.waste.barren(waste_family(older), waste_shape(older))


def test_a_pair_proven_on_pages_only_extends_to_no_section() -> None:
    """A second topic whose ``?rev=1`` gives its text proves that pair for itself, not
    for the section: a third topic's ``?rev=1`` is another page's first revision."""
    rules = LearnedRules()
    home = normalize(f"{VIEW}Home")
    rules.observe_links(home, [normalize(f"{VIEW}Home?rev={n}") for n in (1, 2)])
    for topic, text in (("WebIndex", 1), ("WebChanges", 2)):
        rules.observe(normalize(f"{VIEW}{topic}"), text)
        rules.observe(normalize(f"{VIEW}{topic}?rev=1"), text)
        rules.learn_pair(f"{VIEW}{topic}?rev=1", f"{VIEW}{topic}")
    assert rules.apply(normalize(f"{VIEW}WebChanges?rev=1")) == f"{VIEW}WebChanges"
    assert rules.apply(normalize(f"{VIEW}BoatRules?rev=1")) == f"{VIEW}BoatRules?rev=1"


def test_a_second_copy_among_a_pages_versions_holds_in_the_section() -> None:
    """A dashboard's time ranges (``?from=1&to=2``, ``?from=3&to=4``) are all copies of
    it: the first proves its pair for the dashboard only, the second one for the
    section, so the other dashboards' ranges are not fetched again."""
    rules = LearnedRules()
    board = normalize(f"{SITE}/d/ab12/load")
    ranges = [f"{SITE}/d/ab12/load?from={n}&to={n + 1}" for n in (1, 3)]
    rules.observe_links(board, [normalize(u) for u in ranges])
    for url in ranges:
        rules.learn_pair(url, str(board.key))
        rules.versions.own_version(normalize(url), board)
    other = normalize(f"{SITE}/d/cd34/heat?from=3&to=4")
    assert rules.apply(other) == f"{SITE}/d/cd34/heat"


def test_a_version_of_a_scripts_object_holds_on_that_object_only() -> None:
    """A repository's datasets are one script's objects, named by the query
    (``/dataset.xhtml?persistentId=...``), and link their versions by dotted numbers
    (``&version=1.0``, ``&version=2.0``): the current one is a copy of the dataset,
    of another dataset an older version (blind8 ``dataverse``: 6 older versions lost
    to ``version=1.0`` proven on a dataset of one version)."""
    rules = LearnedRules()
    script = f"{SITE}/dataset.xhtml?persistentId=doi:10.5072/FK2/"
    one, two = normalize(f"{script}AAA111"), normalize(f"{script}BBB222")
    rules.observe_links(two, [normalize(f"{two.key}&version={n}") for n in ("1.0", "2.0")])
    assert rules.learn_pair(f"{one.key}&version=1.0", one.key)
    assert rules.apply(normalize(f"{one.key}&version=1.0")) == one.key
    assert rules.apply(normalize(f"{two.key}&version=1.0")) == f"{two.key}&version=1.0"
    assert rules.learn_pair(f"{two.key}&version=2.0", two.key)
    assert rules.apply(normalize(f"{two.key}&version=2.0")) == two.key
    assert rules.explain(normalize(f"{two.key}&version=2.0")) is not None


def test_a_version_is_the_page_itself_on_pages_linking_the_same_versions() -> None:
    """Which version is the page differs from page to page, not between pages that
    link the same ones: a dataset of one version (``version=1.0`` alone) is its
    version 1.0, as every dataset of one version, and TYPO3's every page linking
    ``L=0`` and ``L=1`` is its ``L=0``; a dataset of two versions is not (blind8
    ``dataverse``, blind4 ``typo3``: one copy fetched a page)."""
    rules = LearnedRules()
    script = f"{SITE}/dataset.xhtml?persistentId=doi:10.5072/FK2/"
    one, alone, two = (normalize(f"{script}{d}") for d in ("AAA111", "CCC333", "BBB222"))
    for page, numbers in ((one, ("1.0",)), (two, ("1.0", "2.0")), (alone, ("1.0",))):
        rules.observe_links(page, [normalize(f"{page.key}&version={n}") for n in numbers])
    assert rules.learn_pair(f"{one.key}&version=1.0", one.key)
    assert rules.apply(normalize(f"{alone.key}&version=1.0")) == alone.key
    assert rules.apply(normalize(f"{two.key}&version=1.0")) == f"{two.key}&version=1.0"
    # A page of the path met after the pair was learned, linking the same numbers.
    later = normalize(f"{script}DDD444")
    rules.observe_links(later, [normalize(f"{later.key}&version=1.0")])
    assert rules.apply(normalize(f"{later.key}&version=1.0")) == later.key
    pages = [normalize(f"{SITE}/index.php?id={n}") for n in (2, 3)]
    for page in pages:
        rules.observe_links(page, [normalize(f"{page.key}&L={n}") for n in (0, 1)])
    assert rules.learn_pair(f"{pages[0].key}&L=0", pages[0].key)
    assert rules.apply(normalize(f"{pages[1].key}&L=0")) == pages[1].key
    assert rules.apply(normalize(f"{pages[1].key}&L=1")) != pages[1].key


def test_a_first_page_among_the_numbers_it_links_holds_in_the_section() -> None:
    """A forum's category links its pages ``?page=1`` and ``?page=2``; ``?page=1`` is
    the category again. The lowest number a page links is its first page, the same
    number on every page (blind8 ``nodebb``): the pair holds in the section, and one
    topic's ``?page=1`` proves it for the topics. A current revision, the highest
    number (``?rev=2`` of ``?rev=1``, ``?rev=2``), still holds on its page only."""
    forum = "http://forum.test"
    rules = LearnedRules()
    category = normalize(f"{forum}/category/1/news")
    rules.observe_links(category, [normalize(f"{forum}/category/1/news?page={n}") for n in (1, 2)])
    rules.observe(category, 1)
    rules.observe(normalize(f"{forum}/category/1/news?page=1"), 1)
    assert rules.learn_pair(f"{forum}/category/1/news?page=1", str(category.key))
    other = normalize(f"{forum}/category/2/help?page=1")
    assert rules.apply(other) == f"{forum}/category/2/help"
    rules.observe(normalize(f"{forum}/topic/7/first-post-here"), 2)
    rules.observe(normalize(f"{forum}/topic/7/first-post-here?page=1"), 2)
    topic = normalize(f"{forum}/topic/8/second-post-here?page=1")
    assert rules.apply(topic) == f"{forum}/topic/8/second-post-here"
    home = normalize(f"{VIEW}Home")
    rules.observe_links(home, [normalize(f"{VIEW}Home?rev={n}") for n in (1, 2)])
    assert rules.learn_pair(f"{VIEW}Home?rev=2", f"{VIEW}Home")
    assert rules.apply(normalize(f"{VIEW}Rules?rev=2")) == f"{VIEW}Rules?rev=2"
