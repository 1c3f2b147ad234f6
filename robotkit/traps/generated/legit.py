"""The legitimate part of a generated site: the pages a good crawler must fetch.

It is drawn as a few *sections* per host, each the kind of thing real sites carry
and each a look-alike of some trap: articles from a few words to thousands; release
notes, SKUs and status pages that differ only in numbers (near-duplicates that are
still distinct pages); date archives (``/2011/11/11/slug``, ``/2024/05/``); versioned
docs whose paths repeat segments (``/docs/v1/docs/v2/...``); pagination that ends;
translations under ``?lang=``; ids in the query (``/item?id=123``) and hex ids in
paths (``/commit/3fa9c2e1``); one long faceted search URL with dozens of repeated
array parameters; a partners page linking many other hosts; moved pages behind a
permanent redirect. Every page is linked from its host's menu or a section index,
so everything is reachable from the hosts' home pages.

Half the sites also carry a *related-items* section of 40 to 150 pages (a product
catalog, a blog, recipes, questions and answers): one template writes most of every
page, each page has a name and a few words of its own, and it links 3 to 8 other
items of the section drawn at random ("customers also bought"). The section's index
lists only the first item or a few, so most items are reachable only through those
links, and every page adds new URLs of its own section: the shape of a growing trap,
but finite and all real.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from urllib.parse import quote

from robotkit.traps.base import prose
from robotkit.traps.generated.pages import (
    WORDS,
    Href,
    PageSpec,
    coined,
    rng_for,
    slug,
    text_of,
    token,
)
from robotkit.traps.generated.plan import Plan

LANGUAGES = ("de", "fr", "es", "it", "nl", "pt", "pl", "sv")
SIZES = (0, 1, 2, 4, 8, 15, 30, 60, 120)
"""Sentences of prose on an article: from a title alone to a long read."""


def _index(plan: Plan, host: int, target: str, title: str, links: list[Href]) -> None:
    """A section's index page, and its entry in the host's menu."""
    sentences = plan.rng.choice((0, 1, 3))
    plan.add(
        host, target, PageSpec(title, text_of(plan.seed, host, target, sentences), tuple(links))
    )
    plan.menu(host, Href(target, title))


def _canonical(plan: Plan) -> str | None:
    return plan.rng.choice((None, None, "html", "header"))


def articles(plan: Plan, host: int, room: int) -> None:
    """Posts of every length under ``/<blog>/<slug>``, some naming themselves canonical."""
    rng = plan.rng
    base = plan.name(("blog", "articles", "stories", "journal", "posts", "news"))
    n = min(rng.randint(2, 6), room - 1)
    links = []
    for _ in range(n):
        target = f"/{base}/{slug(rng)}" + rng.choice(("", ".html", "/"))
        size = rng.choice(SIZES)
        title = target.strip("/").split("/")[-1].replace("-", " ").replace(".html", "").title()
        spec = PageSpec(title, text_of(plan.seed, host, target, size), canonical=_canonical(plan))
        plan.add(host, target, spec)
        links.append(Href(target, title))
    _index(plan, host, f"/{base}/", base.title(), links)


def releases(plan: Plan, host: int, room: int) -> None:
    """``Release 3 notes``, ``Release 4 notes``: pages that differ only in numbers,
    chained by previous / next links."""
    rng = plan.rng
    base = plan.name(("releases", "changelog", "versions", "updates"))
    n = min(rng.randint(3, 6), room - 1)
    first = rng.randint(1, 40)
    shape = rng.choice(("/{b}/{n}", "/{b}/release-{n}", "/{b}/v{n}.0"))
    targets = [shape.format(b=base, n=first + i) for i in range(n)]
    for i, target in enumerate(targets):
        number = first + i
        text = f"Release {number} fixes {rng.randint(2, 30)} issues and adds {rng.randint(1, 9)}."
        links = [Href(t, label) for t, label in ((targets[i - 1], "Previous"),) if i > 0]
        if i + 1 < n:
            links.append(Href(targets[i + 1], "Next"))
        plan.add(host, target, PageSpec(f"Release {number} notes", (text,), tuple(links)))
    _index(plan, host, f"/{base}/", "Release notes", [Href(targets[-1], "Latest release")])


def products(plan: Plan, host: int, room: int) -> None:
    """SKU pages and a price list: short pages, numbers only differ; ids either in
    the path (``/shop/sku-48213``) or in the query (``/item?id=123``)."""
    rng = plan.rng
    base = plan.name(("shop", "products", "catalog", "store", "parts"))
    n = min(rng.randint(2, 6), room - 1)
    in_query = rng.random() < 0.5
    param = rng.choice(("id", "pid", "sku", "product_id"))
    links = []
    for _ in range(n):
        number = rng.randint(100, 99999)
        target = f"/{base}/item?{param}={number}" if in_query else f"/{base}/sku-{number}"
        price = f"{rng.randint(1, 400)}.{rng.randint(0, 99):02d}"
        text = f"SKU {number}. Price {price} EUR. In stock: {rng.randint(0, 40)}."
        plan.add(host, target, PageSpec(f"Item {number}", (text,)))
        links.append(Href(target, f"Item {number} - {price} EUR"))
    _index(plan, host, f"/{base}/", "Price list", links)


def status(plan: Plan, host: int, room: int) -> None:
    """A few words per node: the shortest legitimate pages there are."""
    rng = plan.rng
    base = plan.name(("status", "health", "nodes", "servers"))
    n = min(rng.randint(2, 5), room - 1)
    first = rng.randint(1, 9)
    links = []
    for i in range(n):
        target = f"/{base}/node-{first + i}"
        plan.add(
            host, target, PageSpec(f"node-{first + i}", (f"OK, up {rng.randint(1, 90)} days.",))
        )
        links.append(Href(target, f"node-{first + i}"))
    _index(plan, host, f"/{base}/", "Status", links)


def archive(plan: Plan, host: int, room: int) -> None:
    """Dated posts (``/2011/11/11/slug``) under month indexes (``/2011/11/``)."""
    rng = plan.rng
    year = int(plan.name([str(y) for y in range(2003, 2026)]))
    months = sorted(rng.sample(range(1, 13), rng.randint(1, 2) if room >= 5 else 1))
    posts_per_month = max(1, min(rng.randint(1, 3), (room - 1) // len(months) - 1))
    month_links = []
    for month in months:
        month_target = f"/{year}/{month:02d}/"
        posts = []
        for day in sorted(rng.sample(range(1, 29), posts_per_month)):
            target = f"/{year}/{month:02d}/{day:02d}/{slug(rng, 2)}"
            size = rng.choice(SIZES[2:])
            plan.add(
                host,
                target,
                PageSpec(target.rsplit("/", 1)[1].title(), text_of(plan.seed, host, target, size)),
            )
            posts.append(Href(target, target))
        plan.add(host, month_target, PageSpec(f"Archive {year}-{month:02d}", (), tuple(posts)))
        month_links.append(Href(month_target, f"{year}-{month:02d}"))
    _index(plan, host, f"/{year}/", f"Archive {year}", month_links)


def versioned_docs(plan: Plan, host: int, room: int) -> None:
    """Docs whose paths repeat segments, as generated API references do:
    ``/docs/v1/docs/v2/install``, ``/api/v2/api/v2/api/users``."""
    rng = plan.rng
    base = plan.name(("docs", "api", "manual", "help", "reference"))
    n = min(rng.randint(2, 5), room - 1)
    links = []
    for _ in range(n):
        repeats = rng.randint(2, 3)
        versions = [f"v{rng.randint(1, 4)}" for _ in range(repeats)]
        if rng.random() < 0.5:
            versions = [versions[0]] * repeats
        path = "".join(f"/{base}/{v}" for v in versions)
        target = f"{path}/{rng.choice(WORDS)}"
        if (host, target) in plan.pages:
            continue
        plan.add(
            host, target, PageSpec(target, text_of(plan.seed, host, target, rng.choice(SIZES[1:6])))
        )
        links.append(Href(target, target.rsplit("/", 1)[1].title()))
    _index(plan, host, f"/{base}/", f"{base.title()} index", links)


def paged_list(plan: Plan, host: int, room: int) -> None:
    """A list in ``?page=1..k`` that ends: the last page has no "next" link."""
    rng = plan.rng
    base = plan.name(("list", "listing", "directory", "members", "recipes"))
    param = rng.choice(("page", "p", "pg"))
    pages = min(rng.randint(2, 5), max(1, room // 2))
    per_page = 1 if room < 3 * pages else rng.randint(1, 2)
    lists = [f"/{base}?{param}={i}" for i in range(1, pages + 1)]
    for i, target in enumerate(lists):
        items = []
        for j in range(per_page):
            item = f"/{base}/{slug(rng, 2)}-{i * per_page + j + 1}"
            plan.add(
                host, item, PageSpec(item, text_of(plan.seed, host, item, rng.choice(SIZES[1:7])))
            )
            items.append(Href(item, item))
        nav = [Href(lists[i + 1], "Next")] if i + 1 < pages else []
        if i > 0:
            nav.insert(0, Href(lists[i - 1], "Previous"))
        plan.add(host, target, PageSpec(f"{base.title()}, page {i + 1}", (), tuple(items + nav)))
    plan.menu(host, Href(lists[0], base.title()))


def translations(plan: Plan, host: int, room: int) -> None:
    """One page in several languages, ``?lang=xx``: each a page of its own."""
    rng = plan.rng
    base = plan.name(("about", "company", "visit", "faq", "contact"))
    languages = rng.sample(LANGUAGES, max(1, min(rng.randint(1, 4), room - 1)))
    target = f"/{base}"
    variants = [target] + [f"{target}?lang={lang}" for lang in languages]
    links = tuple(Href(v, v.rsplit("=", 1)[-1] if "=" in v else "en") for v in variants)
    for variant in variants:
        plan.add(
            host,
            variant,
            PageSpec(base.title(), text_of(plan.seed, host, variant, rng.randint(2, 8)), links),
        )
    plan.menu(host, Href(target, base.title()))


def commits(plan: Plan, host: int, room: int) -> None:
    """Hex ids in paths: ``/commit/3fa9c2e1``."""
    rng = plan.rng
    base = plan.name(("commit", "changeset", "rev", "blob"))
    n = min(rng.randint(2, 4), room - 1)
    links = []
    for i in range(n):
        target = f"/{base}/{token(plan.seed, host, base, i, length=rng.choice((7, 8, 12, 40)))}"
        text = f"Changed {rng.randint(1, 30)} files. " + " ".join(
            text_of(plan.seed, host, target, 1)
        )
        plan.add(host, target, PageSpec(target, (text,)))
        links.append(Href(target, target.rsplit("/", 1)[1][:8]))
    _index(plan, host, f"/{base}s", "Recent changes", links)


def faceted_search(plan: Plan, host: int, room: int) -> None:
    """One long, legitimate faceted URL: many ``name[]=value`` pairs, a handful of
    distinct names, the way a shop's saved search looks."""
    rng = plan.rng
    base = plan.name(("search", "find", "filter", "browse"))
    names = rng.sample(
        ("brand", "color", "size", "material", "fit", "season", "origin", "style", "tag", "cut"),
        rng.randint(6, 9),
    )
    pairs = [
        f"{quote(rng.choice(names))}[]={rng.choice(WORDS)}" for _ in range(rng.randint(50, 90))
    ]
    target = f"/{base}?" + "&".join(pairs)
    hits = [f"{rng.choice(WORDS).title()} {rng.randint(10, 999)}" for _ in range(rng.randint(2, 8))]
    plan.add(
        host, target, PageSpec("Saved search", (f"{len(hits)} results: " + ", ".join(hits) + ".",))
    )
    plan.menu(host, Href(target, "Saved search"))


def partners(plan: Plan, host: int, room: int) -> None:
    """A page linking many other sites (made-up hosts): a real blogroll."""
    rng = plan.rng
    base = plan.name(("partners", "links", "blogroll", "friends"))
    links = [
        Href(f"http://{rng.choice(WORDS)}-{rng.choice(WORDS)}.example/", "Partner")
        for _ in range(rng.randint(8, 30))
    ]
    target = f"/{base}.html"
    plan.add(
        host, target, PageSpec("Our partners", text_of(plan.seed, host, target, 2), tuple(links))
    )
    plan.menu(host, Href(target, "Partners"))


def moved(plan: Plan, host: int, room: int) -> None:
    """A page that moved: the old URL answers 301 (one or two hops) to the new one."""
    rng = plan.rng
    base = plan.name(("guide", "handbook", "tutorial", "intro"))
    target = f"/{base}/{slug(rng, 2)}"
    plan.add(host, target, PageSpec(target, text_of(plan.seed, host, target, rng.randint(3, 20))))
    old = f"/{base}-old"
    if rng.random() < 0.5:
        plan.redirects[(host, old)] = f"/{base}-older"
        plan.redirects[(host, f"/{base}-older")] = target
    else:
        plan.redirects[(host, old)] = target
    plan.menu(host, Href(old, base.title()))


Section = Callable[[Plan, int, int], None]
SECTIONS: tuple[Section, ...] = (
    articles,
    releases,
    products,
    status,
    archive,
    versioned_docs,
    paged_list,
    translations,
    commits,
    faceted_search,
    partners,
    moved,
)

MIN_PAGES, MAX_BASE_PAGES = 30, 48
"""The legitimate part's size before traps add theirs (at most six each, so a site
has 30 to 60 legitimate pages)."""


RELATED = {
    "catalog": (("product", "goods", "item", "model"), "Customers also bought"),
    "blog": (("post", "weblog", "diary", "notes"), "Related posts"),
    "recipes": (("recipe", "cooking", "dishes", "kitchen"), "You may also like"),
    "questions": (("questions", "q", "ask", "answers"), "Related questions"),
}
"""Kinds of related-items sections: first path segments (no other section or trap
draws these, so adding the section changes nothing else a seed draws) and the
heading of the related links."""


def related_items(plan: Plan, host: int) -> str:
    """A related-items section (see the module docstring): 40 to 150 templated pages
    that link each other at random, sometimes also previous / next, reachable from an
    index that lists only the first one to three. Returns the index's target."""
    rng = plan.rng
    kind = rng.choice(sorted(RELATED))
    names, heading = RELATED[kind]
    base = plan.name(names)
    count = rng.randint(40, 150)
    shape = rng.choice(("/{b}/{n}", "/{b}/{n}/{s}", "/{b}/{s}", "/{b}?id={n}"))
    chained = rng.random() < 0.4
    # The template: filler sentences and the section's own boilerplate terms (brand,
    # shipping, site names), from 100 to 300 words on every page.
    boilerplate = " ".join(coined(rng, rng.randint(10, 60)))
    template = (prose(f"related {plan.seed} {host} {base}", rng.randint(8, 20)), boilerplate + ".")
    items: list[tuple[str, str, tuple[str, ...]]] = []
    for number in rng.sample(range(100, 100_000), count):
        own = coined(rng, rng.randint(5, 20))
        name = " ".join(own[:2]).title()
        target = shape.format(b=base, n=number, s="-".join(own[:2]))
        details = f"{name}, {kind} {number}: {', '.join(own[2:])}."
        extra = text_of(plan.seed, host, target, rng.choice((0, 0, 1, 2)))
        items.append((target, name, (details, *extra, *template)))
    for i, (target, name, paragraphs) in enumerate(items):
        others = [j for j in range(count) if j != i]
        picks = set(rng.sample(others, rng.randint(3, 8)))
        links: list[Href] = []
        if chained:
            links += [
                Href(items[j][0], label)
                for j, label in ((i - 1, "Previous"), (i + 1, "Next"))
                if 0 <= j < count
            ]
        elif i + 1 < count:
            picks.add(i + 1)  # a path through every item, hidden among the related ones
        links += [Href(items[j][0], f"{heading}: {items[j][1]}") for j in sorted(picks)]
        plan.add(host, target, PageSpec(name, paragraphs, tuple(links)))
    index = f"/{base}" if "?" in shape else f"/{base}/"
    first = [Href(t, n) for t, n, _ in items[: rng.randint(1, 3)]]
    _index(plan, host, index, base.title(), first)
    return index


def draw(plan: Plan) -> None:
    """Fill ``plan`` with homes, sections and menus: between 30 and 48 pages, and in
    half the sites a related-items section of 40 to 150 more."""
    rng = plan.rng
    goal = rng.randint(MIN_PAGES, MAX_BASE_PAGES - 4)
    for host in range(plan.hosts):
        plan.add(host, "/", PageSpec("Home"))
    # Every sister host gets at least one section of its own, then any host.
    hosts = list(range(1, plan.hosts))
    while plan.count < goal or hosts:
        room = MAX_BASE_PAGES - plan.count
        host = hosts.pop(0) if hosts else rng.choice(range(plan.hosts))
        if room < 3:
            break
        rng.choice(SECTIONS)(plan, host, room)
    # Drawn from a stream of its own, so every other part of a seed's site (and its
    # traps) stays what it was before this section existed.
    own = replace(plan, rng=rng_for(plan.seed, "related-items"))
    if own.rng.random() < 0.5:
        plan.related = related_items(own, own.rng.randrange(plan.hosts))
    _homes(plan)


def _homes(plan: Plan) -> None:
    """Home pages link their menu and the other hosts' homes; every page shows its
    host's menu, as site templates do."""
    for host in range(plan.hosts):
        sisters = [Href("/", f"Sister site {h}", host=h) for h in range(plan.hosts) if h != host]
        menu = tuple(plan.menus.get(host, []))
        home = plan.pages[(host, "/")]
        words = text_of(plan.seed, host, "/", plan.rng.randint(1, 6))
        plan.pages[(host, "/")] = PageSpec(home.title, words, menu + tuple(sisters))
        for (h, target), spec in list(plan.pages.items()):
            if h == host and target != "/":
                plan.pages[(h, target)] = PageSpec(
                    spec.title,
                    spec.paragraphs,
                    (Href("/", "Home"), *menu, *spec.links),
                    spec.canonical,
                    spec.status,
                    spec.headers,
                )
