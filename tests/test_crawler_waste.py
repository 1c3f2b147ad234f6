"""The waste bound on real crawls (ARCHITECTURE.md, "The waste bound"): trap kinds
that real pages link on every page, and whose copies do not look alike to the copy
rules, cost a few fetches, not one per page, and no real page is lost. Every site
here is a real loopback server; the counts are what the server saw.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Callable

from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from robotkit.crawler.loop import CrawlConfig, CrawlEvent, crawl
from robotkit.triage.screening import TriageConfig
from robotkit.triage.waste import BARREN, WasteLedger
from robotkit.url.normalization import normalize

ALLOWANCE = 20
"""Trap fetches a site may cost (the trap sites' pass rule, traps/README.md)."""
CONFIG = CrawlConfig(
    max_pages=400, delay=0.0, allow_private=True, response_timeout=2.0, max_defer=0.0
)
SYLLABLES = ["ka", "lo", "mi", "ren", "tu", "vas", "qe", "dor", "pim", "sul", "ob", "yat"]


def vocabulary(rng: random.Random, n: int) -> list[str]:
    return sorted({"".join(rng.choices(SYLLABLES, k=3)) for _ in range(n)})


def page(title: str, main: str, links: list[tuple[str, str]], aside: str = "") -> str:
    anchors = " ".join(f'<a href="{href}">{text}</a>' for href, text in links)
    return (
        f"<html><head><title>{title}</title></head><body><nav>{anchors}</nav>"
        f"<main><h1>{title}</h1><p>{main}</p></main><aside>{aside}</aside></body></html>"
    )


def serve(handler: Callable[[Request], str | None]) -> HTTPServer:
    def respond(request: Request) -> Response:
        body = handler(request)
        if body is None:
            return Response("not found", status=404)
        feed = request.path.endswith(".atom")  # another format than HTML
        return Response(body, content_type="application/atom+xml" if feed else "text/html")

    server = HTTPServer(host="127.0.0.1", port=0)
    server.expect_request("/robots.txt").respond_with_data("", status=404)
    server.expect_request(re.compile(".*")).respond_with_handler(respond)
    server.start()
    return server


def crawl_site(server: HTTPServer) -> list[CrawlEvent]:
    try:
        _, events = asyncio.run(crawl([server.url_for("/")], CONFIG))
    finally:
        server.clear()
        server.stop()
    return events


class CacheBuster:
    """A news site: every response links ``/live?_=<fresh>`` and ``/?_=<fresh>``, and
    a "most read" box of four of six stories, drawn at random on each response,
    under ``?v=<fresh>``. The server ignores every query; the box makes each copy
    show a new arrangement of known words, so no copy is like another by its text
    (not even within 10 SimHash bits: the pages are short)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        words = vocabulary(self.rng, 400)
        self.stories = {
            f"/news/{'-'.join(self.rng.sample(words, 2))}": " ".join(self.rng.choices(words, k=80))
            for _ in range(24)
        }
        self.front, self.live = (" ".join(self.rng.choices(words, k=80)) for _ in range(2))
        self.most_read = sorted(self.stories)[:6]
        self.clock = 0
        self.seen: list[str] = []

    def shell(self, title: str, main: str) -> str:
        self.clock += 1
        box = self.rng.sample(self.most_read, 4)
        links = [("/", "Home"), ("/news/", "News"), ("/live", "Live")]
        links += [(f"/live?_={self.clock}", "updates"), (f"/?_={self.clock}", "refresh")]
        aside = " ".join(f'<a href="{s}?v={self.clock}x{i}">{s[6:]}</a>' for i, s in enumerate(box))
        return page(title, main, links, aside)

    def __call__(self, request: Request) -> str | None:
        target = request.full_path.rstrip("?")
        self.seen.append(target)
        path = request.path
        if path == "/":
            return self.shell("Gazette", self.front)
        if path == "/news/":
            items = " ".join(f'<a href="{s}">{s[6:]}</a>' for s in self.stories)
            return self.shell("News", f"all the stories {items}")
        if path == "/live":
            return self.shell("Live", self.live)
        if path in self.stories:
            return self.shell(path[6:], self.stories[path])
        return None

    def trap_fetches(self) -> int:
        return sum("?" in target for target in self.seen)

    def missed(self) -> set[str]:
        return {"/", "/news/", "/live", *self.stories} - set(self.seen)


def test_a_cache_buster_linked_from_every_page_costs_a_few_fetches() -> None:
    """Every real page vouches for its own cache-busters: their family, proven
    barren by three copies in a row, is vouched for by nothing, and the waste
    budget bounds the rest. What is left over the budget is the families' proofs
    and the stories first met under a cache-buster (each a page's first view).
    Before: 373 trap fetches, the crawl ran to the page budget."""
    site = CacheBuster(7)
    crawl_site(serve(site))
    assert site.missed() == set()
    assert site.trap_fetches() <= TriageConfig().waste_budget + ALLOWANCE, site.trap_fetches()


class Toggles:
    """Government pages whose "Print" and language links append to the current
    query (``?lang=fr&print=1&lang=de``); the server ignores the query, and the
    print form leaves the navigation out, so no toggle is a copy of its page."""

    LANGS = ("fr", "de", "es")

    def __init__(self, seed: int) -> None:
        rng = random.Random(seed)
        words = vocabulary(rng, 400)
        self.pages = {f"/info/{w}": " ".join(rng.choices(words, k=60)) for w in words[:20]}
        self.seen: list[str] = []

    def __call__(self, request: Request) -> str | None:
        self.seen.append(request.full_path.rstrip("?"))
        path, query = request.path, request.query_string.decode()
        text = "information for residents" if path == "/" else self.pages.get(path)
        if text is None:
            return None
        joined = f"{query}&" if query else ""
        toggles = [(f"{path}?{joined}print=1", "Print")]
        toggles += [(f"{path}?{joined}lang={lang}", lang) for lang in self.LANGS]
        if "print=1" in query:
            return page("Print", text, toggles)
        nav = [("/", "Home"), *((p, p[6:]) for p in self.pages)]
        return page(path, text, nav + toggles)

    def trap_fetches(self) -> int:
        return sum("?" in target for target in self.seen)

    def missed(self) -> set[str]:
        return {"/", *self.pages} - set(self.seen)


def test_toggles_appended_to_every_query_cost_a_few_fetches() -> None:
    """A print form shows only what its page showed: a variant that repeats its
    path taught nothing, and the toggles' family is soon barren. Before: 25 trap
    fetches."""
    site = Toggles(3)
    crawl_site(serve(site))
    assert site.missed() == set()
    assert site.trap_fetches() <= ALLOWANCE, site.trap_fetches()


def test_a_variant_repeating_its_paths_words_is_told_from_one_that_brings_words() -> None:
    """:meth:`WasteLedger.variant`: another query on a path judged before is a
    variant; it repeats its path when fewer than ``VARIANT_NEW`` of its pairs of
    adjacent words are new there."""
    ledger = WasteLedger(TriageConfig().waste_budget)
    page = ["home", "apply", "for", "a", "permit", "at", "the", "town", "hall"]
    assert ledger.variant(normalize("http://h/help"), page) == (False, False, False)
    # The print form: the navigation ("home") cut out, one new pair where it was.
    assert ledger.variant(normalize("http://h/help?print=1"), page[1:]) == (True, True, False)
    # The same words in another order say something else (another version's notes).
    shuffled = page[::-1]
    assert ledger.variant(normalize("http://h/help?v=2"), shuffled) == (True, False, False)
    assert ledger.variant(normalize("http://h/other?x=1"), page) == (False, False, False)


class ListStates:
    """A Q&A site whose question lists keep their state in path parameters
    (``/questions/sort:oldest/tags:b,a/``): every list links its other sort orders
    and each tag not yet in its set, in the order clicked, so the states never end.
    Every list state writes a few sentences of its own (fresh prose drawn for its
    state), so no state is a copy of another by its text. The real pages: the
    questions, the default list and one list per tag."""

    SORTS = ("active", "newest", "oldest", "votes")

    def __init__(self, seed: int) -> None:
        rng = random.Random(seed)
        self.words = vocabulary(rng, 400)
        self.tags = self.words[:5]
        self.questions = {
            f"/question/{100 + i}/": (set(rng.sample(self.tags, 2)), rng.choices(self.words, k=80))
            for i in range(20)
        }
        self.seen: list[str] = []

    def state(self, sort: str, tags: list[str]) -> str:
        return f"/questions/sort:{sort}/" + (f"tags:{','.join(tags)}/" if tags else "")

    def listing(self, sort: str, tags: list[str]) -> str:
        items = [q for q, (qt, _) in self.questions.items() if set(tags) <= qt]
        items.sort(reverse=sort in ("active", "newest"))
        prose = " ".join(random.Random(f"{sort}{tags}").choices(self.words, k=30))
        links = [("/questions/", "Questions"), *((q, q) for q in items[:10])]
        links += [(self.state(s, tags), s) for s in self.SORTS]
        links += [(self.state(sort, [*tags, t]), t) for t in self.tags if t not in tags]
        return page("Questions", prose, links)

    def __call__(self, request: Request) -> str | None:
        path = request.path
        self.seen.append(path)
        if path in ("/", "/questions/"):
            return self.listing("active", [])
        if path in self.questions:
            tags, text = self.questions[path]
            return page(path, " ".join(text), [(self.state("active", [t]), t) for t in tags])
        parts = path.strip("/").split("/")
        state = dict(p.partition(":")[::2] for p in parts[1:])
        tags = [t for t in state.get("tags", "").split(",") if t]
        if parts[0] != "questions" or state.get("sort") not in self.SORTS:
            return None
        if set(tags) - set(self.tags) or len(set(tags)) < len(tags):
            return None
        return self.listing(state["sort"], tags)

    def real(self) -> set[str]:
        return {
            "/",
            "/questions/",
            *self.questions,
            *(self.state("active", [t]) for t in self.tags),
        }

    def trap_fetches(self) -> int:
        return sum(path not in self.real() for path in self.seen)


def test_list_states_that_list_no_new_item_cost_a_few_fetches() -> None:
    """A list is worth its items: a list state whose items an earlier list of its
    region listed taught nothing, whatever prose it writes, so its family is soon
    barren and the waste budget bounds the rest (blind4 ``askbot``: 525 trap
    fetches). The real tag lists, linked first by the default list, are fetched."""
    site = ListStates(5)
    crawl_site(serve(site))
    assert site.real() - set(site.seen) == set()
    assert site.trap_fetches() <= TriageConfig().waste_budget + ALLOWANCE, site.trap_fetches()


class RevisionWalk:
    """A wiki whose pages link a diff of their last two revisions; each diff links
    the diffs one revision older and one newer (``?rev=N`` moved by one, without
    end), and writes a few sentences of its own for its revision, so no diff is a
    copy of another by its text. The real pages: the home page and the articles."""

    def __init__(self, seed: int) -> None:
        rng = random.Random(seed)
        self.words = vocabulary(rng, 400)
        self.pages = {f"/doc/{w}": " ".join(rng.choices(self.words, k=80)) for w in self.words[:24]}
        self.seen: list[str] = []

    def __call__(self, request: Request) -> str | None:
        path, query = request.path, request.query_string.decode()
        self.seen.append(request.full_path.rstrip("?"))
        nav = [("/", "Home"), *((p, p[5:]) for p in self.pages)]
        if path == "/":
            return page("Wiki", "the pages of the wiki", nav)
        if path not in self.pages:
            return None
        if not query:
            return page(path, self.pages[path], [*nav, (f"{path}?rev=1000", "diff")])
        rev = int(query.partition("=")[2]) if query.startswith("rev=") else 1000
        prose = " ".join(random.Random(f"{path}{rev}").choices(self.words, k=30))
        walk = [(f"{path}?rev={rev - 1}", "older"), (f"{path}?rev={rev + 1}", "newer")]
        return page(f"{path} diff", prose, [("/", "Home"), *walk])

    def trap_fetches(self) -> int:
        return sum("?" in target for target in self.seen)

    def missed(self) -> set[str]:
        return {"/", *self.pages} - set(self.seen)


def test_a_counter_walk_that_links_nothing_new_costs_a_few_fetches() -> None:
    """A page that is its referer with one number of the query moved by one (a
    counter's older or newer) and links nothing new but other values of its own
    path taught nothing, whatever prose it writes (blind4 ``dokuwiki``'s revision
    diffs: 139 trap fetches). What is left over the budget is each article's own
    diff, which writes prose of its own, and the two steps it links."""
    site = RevisionWalk(11)
    crawl_site(serve(site))
    assert site.missed() == set()
    bound = TriageConfig().waste_budget + 3 * len(site.pages)
    assert site.trap_fetches() <= bound, site.trap_fetches()


class Views:
    """Pages that each link a view of themselves under a ``suffix``: a source
    browser's annotated view (``/src/<f>/annotate``, the file's text again under an
    "annotated" heading: like the file, no copy of it, no word of its own after the
    first), or an issue's Atom feed (``/src/<f>.atom``, a body the crawl does not
    read). The real pages: the home page and the files."""

    def __init__(self, seed: int, suffix: str) -> None:
        rng = random.Random(seed)
        words = vocabulary(rng, 400)
        self.suffix = suffix
        self.files = {f"/src/{w}": " ".join(rng.choices(words, k=120)) for w in words[:40]}
        self.seen: list[str] = []

    def __call__(self, request: Request) -> str | None:
        path = request.path
        self.seen.append(path)
        nav = [("/", "Home"), *((p, p[5:]) for p in self.files)]
        if path == "/":
            return page("Source", "the files of the project", nav)
        file = path.removesuffix(self.suffix)
        if file != path and file in self.files and self.suffix.endswith(".atom"):
            return f"<feed><title>{file}</title></feed>"
        if file != path and file in self.files:
            return page(f"{file} annotated", self.files[file], nav)
        if path not in self.files:
            return None
        return page(path, self.files[path], [*nav, (f"{path}{self.suffix}", "view")])

    def trap_fetches(self) -> int:
        return sum(target.endswith(self.suffix) for target in self.seen)

    def missed(self) -> set[str]:
        return {"/", *self.files} - set(self.seen)


def test_views_like_the_page_that_links_them_prove_their_family_barren() -> None:
    """A page only like its siblings proves nothing of its family (a list of
    records one template wrote), but one like the page that linked it, with no
    words of its own, is a view of that page, and three in a row make the views'
    family barren (blind5 ``aem``'s selectors). Before: every file's view, 40 trap
    fetches."""
    site = Views(5, "/annotate")
    crawl_site(serve(site))
    assert site.missed() == set()
    assert site.trap_fetches() <= ALLOWANCE, site.trap_fetches()


def test_another_format_of_the_page_linking_it_proves_its_family_barren() -> None:
    """A feed or an export of the page that links it, in a format the crawl does
    not read (``/issues/7.atom`` of ``/issues/7``), repeats its page, as an export
    under another query does: three in a row make their family barren (blind5
    ``redmine``'s Atom feeds, 28 trap fetches). Before, such a fetch was counted
    nowhere: 40 trap fetches."""
    site = Views(9, ".atom")
    crawl_site(serve(site))
    assert site.missed() == set()
    assert site.trap_fetches() <= ALLOWANCE, site.trap_fetches()


class Microblog:
    """A microblog: five accounts (``/u/<name>``), each listing the openings of its
    eight posts; each post (``/u/<name>/<n>``, in the site's chrome: a footer of its own
    words) links its embed view (the post alone, no chrome) and its boosts page (the
    post again under a "Boosts" heading, with links to known accounts). A view
    says what its post said and links nothing new, yet is far from the post by
    SimHash (the chrome) and no copy of any page. The real pages: the home page,
    the accounts and the posts."""

    def __init__(self, seed: int, views: tuple[str, ...] = ("embed", "boosts")) -> None:
        rng = random.Random(seed)
        words = vocabulary(rng, 400)
        self.views = views
        self.accounts = [f"/u/{w}" for w in words[:5]]
        self.posts = {
            f"{account}/{n}": " ".join(rng.choices(words, k=30))
            for account in self.accounts
            for n in range(100, 108)
        }
        self.footer = " ".join(rng.choices(words, k=40))
        self.seen: list[str] = []

    def __call__(self, request: Request) -> str | None:
        path = request.path
        self.seen.append(path)
        nav = [("/", "Home"), *((a, a[3:]) for a in self.accounts)]
        if path == "/":
            return page("Microblog", "the accounts of this server", nav, self.footer)
        if path in self.accounts:
            posts = [p for p in self.posts if p.startswith(path + "/")]
            listed = " ".join(f'<p>{self.posts[p][:60]} <a href="{p}">{p}</a></p>' for p in posts)
            return page(path, f"the posts of {path[3:]}{listed}", nav, self.footer)
        post, _, view = path.rpartition("/")
        if post in self.posts and view == "embed":
            return f"<html><body><div>{self.posts[post]}</div></body></html>"
        if post in self.posts and view in self.views:
            return page(view.title(), self.posts[post], nav[1:3])
        if path not in self.posts:
            return None
        views = [(f"{path}/{view}", view) for view in self.views]
        return page(path, self.posts[path], [*nav, *views], self.footer)

    def trap_fetches(self, *views: str) -> int:
        return sum(target.endswith(views or self.views) for target in self.seen)

    def missed(self) -> set[str]:
        return {"/", *self.accounts, *self.posts} - set(self.seen)


def test_views_restating_the_page_that_links_them_prove_their_family_barren() -> None:
    """A view of the page that linked it (a path under it) whose own words (outside
    links) are that page's, half of them or more, and which links nothing new,
    restates that page: it taught nothing, and three in a row make its family
    barren; in another object's directory one is enough (blind6 ``mastodon``'s
    embeds and boosts). Before: every post's two views, 80 trap fetches. Now at
    most W, and for each of the two views 3 under the first account and one under
    each other account's directory."""
    site = Microblog(7)
    crawl_site(serve(site))
    assert site.missed() == set()
    bound = TriageConfig().waste_budget + 2 * (BARREN + len(site.accounts) - 1)
    assert site.trap_fetches() <= bound, site.trap_fetches()


def test_echoed_copies_restating_the_page_that_linked_them_prove_their_family_barren() -> None:
    """A post's favourites page is its boosts page but for the words its URL echoes
    ("Favourites" for "Boosts"): an echoed copy, which proves nothing of its family
    (a directory loop's copies, ``/a/b/a/``, are of the family of real directories),
    unless it restates the page that linked it, as a view does (blind6
    ``mastodon``'s favourites). Before: 31 trap fetches of the two views, the
    favourites' family never barren; now the bound of two views of every object."""
    site = Microblog(7, ("boosts", "favourites"))
    crawl_site(serve(site))
    assert site.missed() == set()
    bound = TriageConfig().waste_budget + 2 * (BARREN + len(site.accounts) - 1)
    assert site.trap_fetches() <= bound, site.trap_fetches()


class Annotations(Views):
    """A source browser whose files (``/repo/src/<f>``) each link their annotated
    view at a sibling path (``/repo/annotate/<f>``: no URL relation to the file),
    the file's text again after one line naming its author."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed, "")
        self.files = {f"/repo{path}": text for path, text in self.files.items()}

    def __call__(self, request: Request) -> str | None:
        path = request.path
        self.seen.append(path)
        nav = [("/", "Home"), *((p, p[10:]) for p in self.files)]
        if path == "/":
            return page("Source", "the files of the project", nav)
        file = "/repo/src/" + path.removeprefix("/repo/annotate/")
        if path.startswith("/repo/annotate/") and file in self.files:
            return page(file, f"annotated by kalo {self.files[file]}", nav)
        if path not in self.files:
            return None
        return page(path, self.files[path], [*nav, ("/repo/annotate/" + path[10:], "annotate")])

    def trap_fetches(self) -> int:
        return sum(target.startswith("/repo/annotate/") for target in self.seen)


def test_views_restating_the_page_that_links_them_by_their_words_prove_it_barren() -> None:
    """A page that taught nothing, only like its siblings, proves nothing of its
    family, unless it restates the page that linked it: its words outside links are
    that page's. Then it is a view of that page by its words where its URL does not
    say so, and three in a row make its family barren (blind5 ``hgweb``'s
    ``annotate/{node}/f`` of ``file/{node}/f``). Before: every file's view, 40 trap
    fetches."""
    site = Annotations(11)
    crawl_site(serve(site))
    assert site.missed() == set()
    assert site.trap_fetches() <= ALLOWANCE, site.trap_fetches()


class Menus:
    """A shop whose front page links itself under twelve menus, each a parameter of
    its own (``?sort=price``, ``?limit=all``, ``?mode=list``, ...; blind2
    ``magento``), three values each; the server ignores the query, so each is a copy
    of the page."""

    MENUS = ("sort", "limit", "mode", "dir", "order", "currency", "color", "country")
    MENUS += ("size", "brand", "view", "store")

    def __init__(self, seed: int) -> None:
        rng = random.Random(seed)
        words = vocabulary(rng, 400)
        self.pages = {f"/gear/{w}": " ".join(rng.choices(words, k=60)) for w in words[:16]}
        self.pages["/"] = " ".join(rng.choices(words, k=60))
        self.values = {name: rng.sample(words[20:], BARREN) for name in self.MENUS}
        self.seen: list[str] = []

    def __call__(self, request: Request) -> str | None:
        self.seen.append(request.full_path.rstrip("?"))
        text = self.pages.get(request.path)
        if text is None:
            return None
        menus = [(f"/?{k}={v}", v) for k, vs in self.values.items() for v in vs]
        links = [(p, p) for p in self.pages] + (menus if request.path == "/" else [])
        return page(request.path, text, links)

    def trap_fetches(self) -> int:
        return sum("?" in target for target in self.seen)

    def missed(self) -> set[str]:
        return set(self.pages) - set(self.seen)


def test_a_host_known_to_make_traps_of_its_parameters_proves_each_next_by_one_page() -> None:
    """Each menu is a query family of its own, proven barren by 3 copies in a row:
    36 vouched fetches for twelve menus. Once two were proven so, the host is known
    to make traps of its parameters, and each other menu is barren after its first
    copy; its other values wait behind the waste budget W. So the trap fetches are
    at most W + 3 for each of the first two menus + 1 for each other."""
    site = Menus(5)
    crawl_site(serve(site))
    assert site.missed() == set()
    bound = TriageConfig().waste_budget + BARREN * 2 + len(Menus.MENUS) - 2
    assert site.trap_fetches() <= bound, site.trap_fetches()
