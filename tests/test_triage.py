"""The page triage on its own: facts in, verdicts out, no server and no clock."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from functools import partial

import pytest

from robotkit.base.reasons import Reason
from robotkit.content import LinkAction
from robotkit.triage.triage import FailureKind, PageFacts, Triage, TriageConfig
from robotkit.url.learned import LearnedRules
from robotkit.url.normalization import normalize
from robotkit.url.rewrites import is_token

SITE = "http://site.test"
WORDS = [
    "river",
    "stone",
    "lantern",
    "orchard",
    "harbor",
    "meadow",
    "copper",
    "violin",
    "garden",
    "bridge",
    "winter",
]


def in_scope(url: str) -> bool:
    return url.startswith(SITE)


def html(title: str, text: str, links: list[str] = (), canonical: str | None = None) -> str:
    head = f"<title>{title}</title>"
    if canonical:
        head += f'<link rel="canonical" href="{canonical}">'
    anchors = "".join(f'<a href="{u}">{u}</a>' for u in links)
    return f"<html><head>{head}</head><body><h1>{title}</h1><p>{text}</p>{anchors}</body></html>"


class Crawl:
    """A tiny driver: offers links, keeps the seen set, judges pages as a crawler
    would, so the triage's decisions can be followed step by step."""

    def __init__(self, triage: Triage | None = None) -> None:
        self.triage = triage or Triage()
        self.seen: set[str] = set()
        self.refused: dict[str, Reason] = {}
        self.queues: tuple[deque[tuple[str, str | None]], ...] = (deque(), deque())
        self.fetched: list[str] = []

    def run(self, site: Callable[[str], tuple[str, list[str]]], start: str, budget: int) -> None:
        """Breadth-first over ``site`` (a URL to its body and links), the main tier
        before the demoted one, as :class:`robotkit.crawler.loop.Crawler` serves them
        (and moves a URL of the main tier a parked space defers to the other)."""
        self.offer(start)
        while len(self.fetched) < budget:
            queue = self.queues[0] or self.queues[1]
            if not queue:
                return
            url, referer = queue.popleft()
            norm = self.triage.normalize(url)
            if queue is self.queues[0] and self.triage.regions.defer(norm):
                self.queues[1].append((url, referer))
                continue
            key = self.triage.key(norm)
            if self.triage.recheck(url, key, referer) is not None:
                continue
            body, links = site(url)
            self.fetched.append(url)
            self.fetch(url, body, links, referer)

    def offer(self, url: str, referer: str | None = None, streak: int = 0) -> bool:
        norm = self.triage.normalize(url)
        key = self.triage.key(norm)
        if key in self.seen:
            return False
        self.seen.add(key)
        held = self.triage.screen(norm, streak, referer)
        if held is not None:
            self.refused[url] = held if isinstance(held, Reason) else held.reason
            return False
        self.triage.remember(key, streak)
        self.queues[1 if streak else 0].append((url, referer))
        return True

    def fetch(
        self,
        url: str,
        body: str,
        links: list[str] = (),
        referer: str | None = None,
        canonical: str | None = None,
    ) -> tuple[PageFacts, object]:
        key = self.triage.key(self.triage.normalize(url))
        facts = PageFacts(
            url=url,
            final_url=url,
            status=200,
            text=body,
            links=list(links),
            canonical=canonical,
            referer=referer,
            streak=self.triage.streak_of(key),
        )
        verdict = self.triage.judge(facts, self.seen, in_scope)
        for link in verdict.follow:
            self.offer(link, url, verdict.streak)
        return facts, verdict


def test_two_hundred_pages_that_differ_only_in_numbers_are_all_kept() -> None:
    crawl = Crawl()
    pages = [f"{SITE}/price/{n}" for n in range(1, 201)]
    crawl.offer(f"{SITE}/")
    crawl.fetch(f"{SITE}/", html("Prices", "all our price lists", pages), pages)
    assert not crawl.refused
    for n, url in enumerate(pages, 1):
        neighbours = [pages[n % 200], pages[n - 2]]
        body = html(
            f"Price list {n}", f"Item {n} costs {n * 3} dollars, {n + 7} in stock.", neighbours
        )
        _, verdict = crawl.fetch(url, body, neighbours, referer=f"{SITE}/")
        assert verdict.links is not LinkAction.DROP
    assert crawl.refused == {}
    assert crawl.triage.regions.parked == {}


def test_a_chain_of_seven_look_alike_pages_is_followed_to_its_end() -> None:
    crawl = Crawl()
    crawl.offer(f"{SITE}/")
    first = [f"{SITE}/chain/1"]
    crawl.fetch(f"{SITE}/", html("Home", "welcome to the chain", first), first)
    for n in range(1, 8):
        url = f"{SITE}/chain/{n}"
        assert crawl.triage.recheck(url, url, None) is None
        nxt = [f"{SITE}/chain/{n + 1}"] if n < 7 else []
        crawl.fetch(url, html(f"chain {n}", f"chain {n}", nxt), nxt, referer=f"{SITE}/")
    assert crawl.refused == {}
    assert crawl.triage.regions.parked == {}


def coined(rng: random.Random, count: int) -> list[str]:
    """Made-up words: the names and terms one page has and no other."""
    return [
        "".join(rng.choice("bdgklmnprstvz") + rng.choice("aeiou") for _ in range(3))
        for _ in range(count)
    ]


TEMPLATE_RNG = random.Random("template")
TEMPLATE = " ".join([TEMPLATE_RNG.choice(WORDS) for _ in range(240)] + coined(TEMPLATE_RNG, 60))
"""What one template writes on every page of a shop: 300 words, 71 distinct."""


MONTHS = "january february march april may june july august september october november december"


def calendar(url: str, templated: bool = False) -> tuple[str, list[str]]:
    """An endless calendar: every month links the next and the previous, and says
    the same nothing in other words (the month's name). ``templated``: inside a
    shop's long template (:func:`catalog`), with listings in words the site always
    uses, so that no month is a copy of another and none says anything new."""
    month = int(url.rpartition("=")[2]) if "=" in url else 0
    name = MONTHS.split()[month % 12]
    links = [f"{SITE}/events?m={month + 1}", f"{SITE}/events?m={month - 1}", f"{SITE}/about"]
    text = f"Events in {name} {2030 + month // 12}: nothing planned yet, check {name} again."
    if templated:
        rng = random.Random(month)
        text += " ".join(rng.choice(WORDS) for _ in range(300)) + f". {TEMPLATE}"
    return html(f"{name} events", text, links), links


def test_an_endless_calendar_is_parked_once_it_grows_without_news() -> None:
    crawl = Crawl()
    crawl.run(calendar, f"{SITE}/events?m=0", budget=200)
    months = [u for u in crawl.fetched if "?m=" in u]
    assert len(months) <= 20, months
    assert f"{SITE}/about" in crawl.fetched
    assert crawl.triage.regions.parked or all(
        r in (Reason.DUPLICATE_CONTENT, Reason.TRAP_HOST) for r in crawl.refused.values()
    )
    # The plain page of the same path is another region: never parked with it.
    assert crawl.triage.screen(normalize(f"{SITE}/events")) is None


def catalog(url: str) -> tuple[str, list[str]]:
    """80 products of one template, each with six words of its own (far under a
    tenth of its words, and SimHash-like its siblings), linking six others at
    random and the next one; the index lists only the first."""
    if url == f"{SITE}/shop":
        return html("Shop", "our products", [f"{SITE}/product/1"]), [f"{SITE}/product/1"]
    n = int(url.rpartition("/")[2])
    rng = random.Random(n)
    others = rng.sample(range(1, 81), 6) + ([n + 1] if n < 80 else [])
    links = [f"{SITE}/product/{m}" for m in others]
    own = " ".join(coined(rng, 6))
    return html(f"Product {n}", f"{own}. {TEMPLATE}", links), links


def test_a_catalog_whose_items_link_each_other_is_fetched_whole() -> None:
    crawl = Crawl()
    crawl.run(catalog, f"{SITE}/shop", budget=500)
    assert len(crawl.fetched) == 81, crawl.triage.regions.parked
    assert crawl.triage.regions.parked == {}
    assert crawl.refused == {}


def test_a_templated_calendar_is_still_parked() -> None:
    crawl = Crawl()
    crawl.run(partial(calendar, templated=True), f"{SITE}/events?m=0", budget=200)
    months = [u for u in crawl.fetched if "?m=" in u]
    assert len(months) <= 20, months
    assert f"{SITE}/events?" in crawl.triage.regions.parked
    assert f"{SITE}/about" in crawl.fetched


def pagination(url: str) -> tuple[str, list[str]]:
    """A list of 12 pages that ends: each names five items from a small vocabulary
    (the list pages look alike) and links them."""
    if "/item/" in url:
        n = int(url.rpartition("/")[2])
        return html(f"Item {n}", f"Item {n}: {WORDS[n % 11]} {WORDS[(n * 7) % 11]}."), []
    page = int(url.rpartition("=")[2]) if "=" in url else 1
    items = [f"{SITE}/item/{page * 10 + i}" for i in range(5)]
    links = items + ([f"{SITE}/list?page={page + 1}"] if page < 12 else [])
    things = " ".join(WORDS[(page + i) % len(WORDS)] for i in range(5))
    return html(f"List page {page}", f"Page {page} shows {things}.", links), links


def test_a_pagination_that_ends_is_fetched_to_its_end() -> None:
    crawl = Crawl()
    crawl.run(pagination, f"{SITE}/list?page=1", budget=200)
    assert len([u for u in crawl.fetched if "?page=" in u]) == 12, crawl.refused
    assert len(crawl.fetched) == 12 * 6, crawl.refused


def test_a_session_segment_is_learned_from_two_copies_and_dropped_from_keys() -> None:
    crawl = Crawl()
    body = html("About us", " ".join(WORDS))
    crawl.fetch(f"{SITE}/s8Kq2x9ZpQ/about", body)
    _, verdict = crawl.fetch(f"{SITE}/Zt71bbQ0xa/about", body)
    assert verdict.reason is Reason.DUPLICATE_CONTENT
    triage = crawl.triage
    assert triage.key(normalize(f"{SITE}/Yy9911aa22/about")) == f"{SITE}/about"
    # A page fetched under an old session is known under its new key, so a third
    # session's URL of it is a duplicate before it is fetched.
    assert triage.recheck(f"{SITE}/Qq55rr66tt/about", "", None) is Reason.DUPLICATE_URL
    # Stable ids of distinct pages teach nothing.
    crawl.fetch(f"{SITE}/commit/3fa9c2e1", html("commit one", "fixes the river"))
    crawl.fetch(f"{SITE}/commit/9ab8c7d6", html("commit two", "adds the lantern"))
    assert triage.key(normalize(f"{SITE}/commit/3fa9c2e1")) == f"{SITE}/commit/3fa9c2e1"


def test_rules_learned_from_exact_copies() -> None:
    rules = LearnedRules()
    # A pair that changes nothing is learned as that exact pair only.
    assert rules.learn_pair(f"{SITE}/list?page=1", f"{SITE}/list")
    assert rules.apply(normalize(f"{SITE}/list?page=1")) == f"{SITE}/list"
    assert rules.apply(normalize(f"{SITE}/list?page=2")) == f"{SITE}/list?page=2"
    # Parameters in another order: order is ignored on the origin.
    assert rules.learn_pair(f"{SITE}/f?c=1&c=2", f"{SITE}/f?c=2&c=1")
    assert rules.apply(normalize(f"{SITE}/g?x=2&x=1")) == f"{SITE}/g?x=1&x=2"
    # A token parameter whose value alone changes is a session id.
    other = LearnedRules()
    assert other.learn_pair(f"{SITE}/a?s=ab12cd34ef&x=1", f"{SITE}/a?s=zz98yy76xx&x=1")
    assert other.apply(normalize(f"{SITE}/b?s=qq11ww22ee&x=1")) == f"{SITE}/b?x=1"
    # Two values that are words, not tokens, are two pages that look alike.
    assert not other.learn_pair(f"{SITE}/a?lang=de", f"{SITE}/a?lang=fr")
    assert other.apply(normalize(f"{SITE}/a?lang=de")) == f"{SITE}/a?lang=de"


def test_canonical_teaches_prefixes_and_parameters() -> None:
    rules = LearnedRules()
    page = normalize(f"{SITE}/m/amp/story-3?share=tw")
    assert rules.learn_canonical(page, normalize(f"{SITE}/story-3"))
    assert rules.apply(normalize(f"{SITE}/amp/m/story-9?share=fb")) == f"{SITE}/story-9"
    # A canonical that changes a value, or names another path, teaches nothing.
    assert not rules.learn_canonical(normalize(f"{SITE}/x?id=1"), normalize(f"{SITE}/x?id=2"))
    assert not rules.learn_canonical(normalize(f"{SITE}/a/b"), normalize(f"{SITE}/c"))


def test_a_copy_form_proven_by_canonical_is_skipped_on_other_pages() -> None:
    crawl = Crawl()
    for slug in ("alpha-story", "beta-story"):
        crawl.offer(f"{SITE}/articles/{slug}")
    alpha = f"{SITE}/articles/alpha-story"
    crawl.fetch(alpha, html("Alpha", "the alpha story " + " ".join(WORDS)), [f"{SITE}/x/{alpha}"])
    # A suffix form (``/amp`` after the slug): rel=canonical proves it a copy, and
    # it is no prefix that normalization could learn to strip.
    crawl.offer(f"{alpha}/amp", alpha)
    crawl.fetch(
        f"{alpha}/amp",
        html("Alpha amp", "the alpha story, for phones"),
        referer=alpha,
        canonical=alpha,
    )
    beta = f"{SITE}/articles/beta-story"
    crawl.fetch(beta, html("Beta", "the beta story " + " ".join(reversed(WORDS))))
    assert not crawl.offer(f"{beta}/amp", beta)
    assert crawl.refused[f"{beta}/amp"] is Reason.DUPLICATE_URL
    # Another form of the same page is still fetched: one proof covers one form.
    assert crawl.offer(f"{SITE}/articles/beta-story/comments", beta)


def test_a_copy_form_of_a_leading_directory_holds_at_any_depth() -> None:
    """A documentation site's language menu links each page under every language
    (``/ja/stable/api/b.html`` on ``/en/stable/api/b.html``), and the untranslated
    ones serve the English text. The form is the page's own path under another
    leading directory (``/en/{rest}`` linking ``/ja/{rest}``): proven a copy twice,
    in any directories, it is known on every page under ``/en/``, however deep."""
    crawl = Crawl()
    pages = ("/en/stable/a.html", "/en/stable/api/b.html", "/en/latest/api/c.html")
    for n, path in enumerate(pages):
        page, copy = f"{SITE}{path}", f"{SITE}/ja{path[3:]}"
        other = f"{SITE}/fr{path[3:]}"
        body = html(path, f"page {n} " + " ".join(WORDS[n:] + WORDS[:n]), [copy, other])
        crawl.offer(page)
        crawl.fetch(page, body, [copy, other])
        if n < 2:
            crawl.fetch(copy, body, referer=page)
    assert crawl.refused.get(f"{SITE}/ja/latest/api/c.html") is Reason.DUPLICATE_URL
    assert f"{SITE}/fr/latest/api/c.html" not in crawl.refused


def test_the_breaker_stops_one_path_family_after_two_failures() -> None:
    triage = Triage()
    assert triage.failed(f"{SITE}/reports/1", FailureKind.TIMEOUT) is None
    line = triage.failed(f"{SITE}/reports/2", FailureKind.OVERSIZE)
    assert line is not None and "/reports/" in line
    assert triage.screen(normalize(f"{SITE}/reports/3")) is Reason.SLOW_PATH
    assert triage.recheck(f"{SITE}/reports/4", f"{SITE}/reports/4") is Reason.SLOW_PATH
    assert triage.screen(normalize(f"{SITE}/about")) is None
    assert triage.screen(normalize(f"{SITE}/reports")) is None


def test_link_farm_pages_are_not_novel_but_a_blogroll_is() -> None:
    crawl = Crawl()
    rng = random.Random(7)
    stuffing = "cheap pills casino bonus free money win now best price"
    roll = [f"http://blog{n}.example/" for n in range(15)]
    _, verdict = crawl.fetch(
        f"{SITE}/links", html("Friends", "our friends write about rivers and bridges", roll)
    )
    assert verdict.novel
    verdicts = []
    for n in range(6):
        token = "".join(rng.choice("abcdefghjk0123456789") for _ in range(8))
        hosts = [f"http://spam-{n}-{i}.example/" for i in range(12)]
        inner = [f"{SITE}/{token}{i}x9/" for i in range(5)]
        body = html(f"{token}", f"{stuffing} {stuffing} {token}", hosts + inner)
        verdicts.append(crawl.fetch(f"{SITE}/{token}/", body, hosts + inner)[1])
    assert any(v.reason is Reason.TRAP_HOST for v in verdicts)
    assert all(v.links is not LinkAction.FOLLOW for v in verdicts[2:])


def test_a_chain_of_copies_is_cut_at_max_streak() -> None:
    triage = Triage(config=TriageConfig(max_streak=2))
    url = normalize(f"{SITE}/deep")
    assert triage.screen(url, 2) is None
    assert triage.screen(url, 3) is Reason.DUPLICATE_CONTENT


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("3fa9c2e1", True),
        ("x7K2q9Lm", True),
        ("A" * 24, True),
        ("about", False),
        ("2024", False),
        ("story-3", False),
        ("release-notes-2024", False),
        ("v2", False),
        # A title's slug of 20 characters or more is no token (a forum's topic).
        ("service-come-capacitor", False),
        ("how_to_install_version_2_0", False),
        ("x7K2q9Lm-Ab3dE8fG_h1J5", True),
        ("123e4567-e89b-12d3-a456-426614174000", True),
    ],
)
def test_what_counts_as_a_token(text: str, token: bool) -> None:
    assert is_token(text) is token


def test_a_long_slug_beside_the_bare_id_is_no_session_segment() -> None:
    # A forum links a topic as /t/147 and as /t/{title slug}/147: the same page, but
    # the slug names it, and no other URL's second segment is a session id.
    rules = LearnedRules()
    assert not rules.learn_pair(f"{SITE}/t/147", f"{SITE}/t/service-come-capacitor/147")
    url = normalize(f"{SITE}/t/water-development-then/154/3")
    assert rules.apply(url) == f"{SITE}/t/water-development-then/154/3"


def test_config_is_checked() -> None:
    with pytest.raises(ValueError):
        TriageConfig(max_streak=0)
    with pytest.raises(ValueError):
        TriageConfig(similar_distance=40)


def test_what_was_learned_survives_a_snapshot_through_json() -> None:
    import json

    from robotkit.base.snapshot import SnapshotError

    crawl = Crawl()
    crawl.run(calendar, f"{SITE}/events?m=0", budget=200)
    body = html("About us", " ".join(WORDS))
    crawl.fetch(f"{SITE}/s8Kq2x9ZpQ/about", body)
    crawl.fetch(f"{SITE}/Zt71bbQ0xa/about", body)
    crawl.triage.failed(f"{SITE}/reports/1", FailureKind.TIMEOUT)
    crawl.triage.failed(f"{SITE}/reports/2", FailureKind.TIMEOUT)
    data = json.loads(json.dumps(crawl.triage.snapshot()))
    again = Triage()
    again.restore(data)
    assert again.regions.parked == crawl.triage.regions.parked
    assert again.regions.broken == crawl.triage.regions.broken
    url = normalize(f"{SITE}/Yy9911aa22/about")
    assert again.key(url) == crawl.triage.key(url) == f"{SITE}/about"
    assert again.recheck(f"{SITE}/Qq55rr66tt/about", "", None) is Reason.DUPLICATE_URL
    assert json.loads(json.dumps(again.snapshot())) == data
    data["streak"] = [["http://site.test/x", "not a count"]]
    with pytest.raises(SnapshotError, match="triage"):
        again.restore(data)
    assert again.regions.parked == crawl.triage.regions.parked


def test_links_of_an_error_page_or_a_cut_body_are_offered_as_they_are() -> None:
    triage = Triage()
    links = [f"{SITE}/a", f"{SITE}/b"]
    for status, text in ((404, "<p>gone</p>"), (200, None)):
        facts = PageFacts(f"{SITE}/x", f"{SITE}/x", status, text, links, streak=2)
        verdict = triage.judge(facts, set(), in_scope)
        assert verdict.follow == tuple(links) and verdict.streak == 2
