"""Trap sites, part C, and the trap-free control site."""

from __future__ import annotations

import html
import random
import re
from typing import ClassVar
from urllib.parse import quote, unquote, urlencode

from .kit import (
    GENERAL,
    LANG_VOCAB,
    THEMES,
    TRAP,
    Reply,
    Req,
    Site,
    a,
    doc,
    make_paragraphs,
    not_found,
    paras_html,
    slugs,
    title_of,
    words_for,
)

GENERAL_SHORT = [w for w in GENERAL if len(w) > 4]
THEMES_SCI = THEMES["science"] + GENERAL_SHORT
THEMES_BOOKS = THEMES["books"] + THEMES["food"]
THEMES_GOV = THEMES["gov"]
THEMES_TRAVEL = THEMES["travel"]
THEMES_CORP = THEMES["corp"]

# ----------------------------------------------------------------------------------------
# Control: a plain site with no traps at all (for checking the command line and timing).
# ----------------------------------------------------------------------------------------


class Control(Site):
    name = "control"
    kind = "no traps: a plain 4-section site, 30 pages, one robots-disallowed link"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/admin/"]

    def build(self) -> None:
        self.vocab = words_for("travel")
        self.sections = slugs(self.key("sec"), 4, self.vocab, 1)
        self.pages = {s: slugs(self.key(f"p{s}"), 6, self.vocab, 2) for s in self.sections}
        self.legit = {"home", "about"} | {f"s:{s}" for s in self.sections}
        self.legit |= {f"p:{s}/{p}" for s in self.sections for p in self.pages[s]}

    def page(self, pid: str, title: str, links: list[tuple[str, str]]) -> Reply:
        nav = " | ".join(a(f"/{s}/", title_of(s)) for s in self.sections)
        lis = "".join(f"<li>{a(h, t)}</li>" for h, t in links)
        body = (
            f"<header><b>Wander Notes</b> {a('/', 'Home')} | {nav} | {a('/about', 'About')}"
            "</header>"
            f"<main><h1>{title}</h1>{paras_html(make_paragraphs(self.key(pid), self.vocab))}"
            f"<ul>{lis}</ul></main><footer>{a('/admin/', 'Admin')}</footer>"
        )
        return self.legit_page(pid, doc(title, body))

    def handle(self, req: Req) -> Reply:
        p = req.path
        if req.query:
            return not_found()
        if p == "/":
            return self.page(
                "home", "Wander Notes", [(f"/{s}/", title_of(s)) for s in self.sections]
            )
        if p == "/about":
            return self.page("about", "About", [])
        parts = p.strip("/").split("/")
        if len(parts) == 1 and p.endswith("/") and parts[0] in self.sections:
            s = parts[0]
            return self.page(f"s:{s}", title_of(s), [(x, title_of(x)) for x in self.pages[s]])
        if len(parts) == 2 and parts[0] in self.sections and parts[1] in self.pages[parts[0]]:
            s, x = parts
            sib = self.pages[s]
            nxt = sib[(sib.index(x) + 1) % len(sib)]
            return self.page(f"p:{s}/{x}", title_of(x), [(f"/{s}/{nxt}", "Next"), (f"/{s}/", "Up")])
        return not_found()


# ----------------------------------------------------------------------------------------
# "Related searches": search pages generated from the query words, each offering more
# searches built from its own words. Next to it, a real glossary with ?letter= index pages.
# ----------------------------------------------------------------------------------------


class Related(Site):
    name = "related"
    kind = "generated search pages whose 'related searches' spawn new queries forever"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/glossary/")]
    robots_disallow: ClassVar[list[str]] = ["/suggest"]

    def build(self) -> None:
        self.vocab = words_for("science")
        self.terms = sorted(slugs(self.key("terms"), 40, THEMES_SCI, 2))
        self.letters = sorted({t[0] for t in self.terms})
        self.text = {t: make_paragraphs(self.key(t), self.vocab) for t in self.terms}
        self.legit = {"index"} | {f"t:{t}" for t in self.terms}
        self.legit |= {f"l:{x}" for x in self.letters}

    def shell(self, title: str, main: str, canonical: str | None = None) -> str:
        letters = " ".join(a(f"/glossary/?letter={x}", x.upper()) for x in self.letters)
        form = (
            '<form action="/search" method="get"><input name="q" placeholder="Search">'
            "<button>Go</button></form>"
        )
        return doc(
            title,
            f'<div class="top"><a href="/glossary/">Science Glossary</a>{form}'
            f'</div><div class="letters">{letters}</div><div class="main">{main}'
            "</div>",
            canonical=canonical,
        )

    def handle(self, req: Req) -> Reply:
        p, q = req.path, dict(req.params)
        if p == "/glossary/" and not q:
            main = "<h1>Science glossary</h1>" + paras_html(
                make_paragraphs(self.key("index"), self.vocab)
            )
            return self.legit_page("index", self.shell("Glossary", main))
        if p == "/glossary/" and list(q) == ["letter"] and q["letter"] in self.letters:
            x = q["letter"]
            lis = "".join(
                f"<dt>{a(t, title_of(t))}</dt><dd>{html.escape(self.text[t][0][:160])}…</dd>"
                for t in self.terms
                if t[0] == x
            )
            intro = paras_html(make_paragraphs(self.key(f"letter{x}"), self.vocab, 100, 150))
            main = f"<h1>Terms starting with {x.upper()}</h1>{intro}<dl>{lis}</dl>"
            return self.legit_page(f"l:{x}", self.shell(x.upper(), main))
        if p.startswith("/glossary/") and p[10:] in self.terms and not q:
            t = p[10:]
            rng = self.rng(f"rel{t}")
            rel = rng.sample([x for x in self.terms if x != t], 3)
            words = [w.strip(",.!?").lower() for w in " ".join(self.text[t]).split()]
            words = [w for w in words if len(w) > 4]
            searches = [f"{rng.choice(words)}+{rng.choice(words)}" for _ in range(4)]
            main = (
                f"<h1>{title_of(t)}</h1>"
                + paras_html(self.text[t])
                + "<h3>Related terms</h3><ul>"
                + "".join(f"<li>{a(x, title_of(x))}</li>" for x in rel)
                + "</ul><h3>People also search for</h3><ul>"
                + "".join(f"<li>{a('/search?q=' + s, s.replace('+', ' '))}</li>" for s in searches)
                + f"</ul><p>{a('/suggest?term=' + t, 'Suggest an edit')}</p>"
            )
            return self.legit_page(f"t:{t}", self.shell(title_of(t), main, f"/glossary/{t}"))
        if p == "/search":
            query = q.get("q", "").strip()
            qwords = query.lower().split()[:6]
            gen = make_paragraphs(self.key("s" + query), self.vocab, 60, 120, 1)
            hits = [t for t in self.terms if any(w in " ".join(self.text[t]) for w in qwords)][:5]
            pool = [w.strip(",.!?").lower() for w in gen[0].split() if len(w) > 4] or ["photon"]
            rng = random.Random(self.key("r" + query))
            rel = [f"{rng.choice(qwords or pool)}+{rng.choice(pool)}" for _ in range(6)]
            main = (
                f"<h1>Results for “{html.escape(query)}”</h1>"
                + paras_html(gen)
                + "<ol>"
                + "".join(f"<li>{a('/glossary/' + t, title_of(t))}</li>" for t in hits)
                + "</ol><h3>Related searches</h3><p>"
                + " · ".join(a(f"/search?q={r}", r.replace("+", " ")) for r in rel)
                + "</p>"
            )
            return Reply(self.shell(f"Search: {query}", main), TRAP, None)
        return not_found()


# ----------------------------------------------------------------------------------------
# Tag combinations: /tag/a+b/ (all of) and /tag/a,b/ (any of), WordPress style, next to
# single tags including the real tag 'c++' spelled /tag/c%2B%2B/.
# ----------------------------------------------------------------------------------------


class Tags(Site):
    name = "tags"
    kind = "tag intersections/unions /tag/a+b+c/ and /tag/a,b/ in any order, <base href> blog"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/wp-login.php", "/wp-admin/"]

    def build(self) -> None:
        self.vocab = words_for("books")
        rng = self.rng("posts")
        self.tags = sorted(slugs(self.key("tags"), 14, THEMES_BOOKS, 1))
        self.tags += ["c++", "machine-learning"]
        self.posts: list[tuple[str, list[str]]] = []
        for i, s in enumerate(slugs(self.key("posts"), 30, self.vocab, 3)):
            date = f"{2024 + i // 12}/{(i % 12) + 1:02d}"
            self.posts.append((f"{date}/{s}", rng.sample(self.tags, rng.randint(2, 4))))
        self.posts.reverse()
        for t in self.tags:  # every tag on at least one post
            if not any(t in ts for _, ts in self.posts):
                self.posts[self.tags.index(t) % len(self.posts)][1].append(t)
        self.legit = {"home"} | {f"page:{n}" for n in (2, 3, 4)}
        self.legit |= {f"post:{p}" for p, _ in self.posts} | {f"tag:{t}" for t in self.tags}

    @staticmethod
    def enc(t: str) -> str:
        return quote(t, safe="-")

    def shell(self, req: Req, title: str, main: str, canonical: str | None = None) -> str:
        side = "".join(f"<li>{a('tag/' + self.enc(t) + '/', t)}</li>" for t in self.tags)
        body = (
            f'<div id="page"><header id="masthead"><a href="./">Marginalia</a> — a reading '
            f'blog</header><div id="primary">{main}</div><div id="secondary"><h2>Tags</h2>'
            f'<ul class="tagcloud">{side}</ul><p>{a("wp-login.php?redirect_to=%2F", "Log in")}'
            "</p></div></div>"
        )
        return doc(title, body, base=req.base + "/", canonical=canonical)

    def listing(self, posts: list[tuple[str, list[str]]]) -> str:
        return "".join(
            f'<article class="post"><h2>{a(p + "/", title_of(p.split("/")[-1]))}</h2>'
            f'<p class="tags">{", ".join(a("tag/" + self.enc(t) + "/", t) for t in ts)}</p>'
            "</article>"
            for p, ts in posts
        )

    def handle(self, req: Req) -> Reply:
        p = req.path
        if req.query:
            return not_found()
        if p == "/" or (p.startswith("/page/") and p[6:-1] in ("2", "3", "4") and p.endswith("/")):
            n = 1 if p == "/" else int(p[6:-1])
            pager = " ".join(a("./" if i == 1 else f"page/{i}/", str(i)) for i in range(1, 5))
            main = (
                paras_html(make_paragraphs(self.key(f"home{n}"), self.vocab, 100, 160))
                + self.listing(self.posts[(n - 1) * 8 : n * 8])
                + f'<nav class="pagination">{pager}</nav>'
            )
            return self.legit_page("home" if n == 1 else f"page:{n}", self.shell(req, "Home", main))
        if p.startswith("/tag/") and p.endswith("/") and p.count("/") == 3:
            raw = p[5:-1]
            parts = re.split(r"([+,])", raw)
            names = [unquote(x) for x in parts[0::2]]
            ops = set(parts[1::2])
            if any(n not in self.tags for n in names) or len(ops) > 1:
                return not_found()
            if "," in ops:
                hits = [(x, ts) for x, ts in self.posts if any(n in ts for n in names)]
            else:
                hits = [(x, ts) for x, ts in self.posts if all(n in ts for n in names)]
            co = sorted({t for _, ts in hits for t in ts} - set(names))[:5]
            narrow = " ".join(a(f"tag/{raw}+{self.enc(t)}/", f"+{t}") for t in co if "," not in ops)
            others = [t for t in self.tags if t not in names][:: max(1, len(self.tags) // 4)]
            widen = " ".join(
                a(f"tag/{raw},{self.enc(t)}/", f"or {t}") for t in others if "+" not in ops
            )
            label = (" + " if "+" in ops else " or ").join(names)
            intro = (
                paras_html(make_paragraphs(self.key(f"tag{raw}"), self.vocab, 100, 160))
                if len(names) == 1
                else f"<p>{len(hits)} posts tagged {html.escape(label)}.</p>"
            )
            main = (
                f"<h1>Tag: {html.escape(label)}</h1>{intro}"
                f'<p class="narrow">Narrow: {narrow}</p><p class="widen">Widen: {widen}</p>'
                + self.listing(hits)
            )
            body = self.shell(req, f"Tag {label}", main)
            if len(names) == 1:
                return self.legit_page(f"tag:{names[0]}", body)
            return Reply(body, TRAP, None)
        key = p.strip("/")
        for x, ts in self.posts:
            if key == x and p.endswith("/"):
                main = (
                    f"<article><h1>{title_of(x.split('/')[-1])}</h1>"
                    + paras_html(make_paragraphs(self.key(x), self.vocab))
                    + "<footer>Filed under "
                    + ", ".join(a("tag/" + self.enc(t) + "/", t) for t in ts)
                    + "</footer></article>"
                )
                return self.legit_page(f"post:{x}", self.shell(req, x, main, f"{req.base}/{x}/"))
        return not_found()


# ----------------------------------------------------------------------------------------
# Print and language toggles appended to the current query (?print=1&lang=fr&print=1...).
# lang does nothing on /info/ pages but truly translates the /help/ pages.
# ----------------------------------------------------------------------------------------


class Toggles(Site):
    name = "toggles"
    kind = "print/language toggles appended to the query; ?lang= translates only /help/"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/feedback"]
    LANGS: ClassVar[dict[str, str]] = {"es": "Español", "fr": "Français", "de": "Deutsch"}

    def build(self) -> None:
        self.vocab = words_for("gov")
        self.info = slugs(self.key("info"), 22, THEMES_GOV + GENERAL_SHORT, 2)
        self.help = slugs(self.key("help"), 5, THEMES_GOV, 2)
        self.legit = {"home"} | {f"info:{x}" for x in self.info} | {f"help:{x}" for x in self.help}
        self.legit |= {f"help:{x}:{lang}" for x in self.help for lang in self.LANGS}

    def page(
        self,
        req: Req,
        title: str,
        text: list[str],
        links: list[tuple[str, str]],
        lang: str = "en",
        alternates: str = "",
    ) -> str:
        qs = req.query
        tog = [a(f"?{qs}&print=1" if qs else "?print=1", "Print this page")]
        tog += [a(f"?{qs}&lang={k}" if qs else f"?lang={k}", v) for k, v in self.LANGS.items()]
        printing = "print=1" in qs
        lis = "".join(f"<li>{a(h, t)}</li>" for h, t in links)
        crumbs = (
            f'<ol class="breadcrumb"><li>{a("/", "Home")}</li><li>{html.escape(title)}</li></ol>'
        )
        body = (
            (
                '<a class="skip" href="#main">Skip to main content</a>'
                '<div class="govuk-header">City Council services</div>'
                if not printing
                else ""
            )
            + crumbs
            + f'<div class="toggles">{" | ".join(tog)}</div>'
            + f'<main id="main"><h1>{html.escape(title)}</h1>{paras_html(text)}'
            + f"<ul>{lis}</ul></main>"
            + f"<footer>{a('/feedback?page=' + req.path, 'Was this page useful?')}"
            " © City Council</footer>"
        )
        return doc(title, body, lang=lang, head=alternates)

    def handle(self, req: Req) -> Reply:
        p, params = req.path, req.params
        if p == "/":
            links = [(f"/info/{x}", title_of(x)) for x in self.info]
            links += [(f"/help/{x}", "Help: " + title_of(x)) for x in self.help]
            body = self.page(
                req, "City Council services", make_paragraphs(self.key("home"), self.vocab), links
            )
            return self.legit_page("home", body) if not params else Reply(body, TRAP, None)
        if p.startswith("/info/") and p[6:] in self.info:
            x = p[6:]
            i = self.info.index(x)
            links = [
                (f"/info/{self.info[(i + k) % 22]}", title_of(self.info[(i + k) % 22]))
                for k in (1, 2, 5)
            ]
            body = self.page(req, title_of(x), make_paragraphs(self.key(x), self.vocab), links)
            return self.legit_page(f"info:{x}", body) if not params else Reply(body, TRAP, None)
        if p.startswith("/help/") and p[6:] in self.help:
            x = p[6:]
            langs = [v for k, v in params if k == "lang"]
            lang = langs[-1] if langs and langs[-1] in self.LANGS else "en"
            vocab = LANG_VOCAB[lang] if lang != "en" else self.vocab
            text = make_paragraphs(self.key(f"{x}:{lang}"), vocab)
            alt = "\n".join(
                f'<link rel="alternate" hreflang="{k}" href="/help/{x}?lang={k}">'
                for k in self.LANGS
            )
            links = [(f"/help/{y}", title_of(y)) for y in self.help if y != x]
            body = self.page(req, title_of(x), text, links, lang, alt)
            if not params:
                return self.legit_page(f"help:{x}", body)
            if len(params) == 1 and params[0][0] == "lang" and params[0][1] in self.LANGS:
                return self.legit_page(f"help:{x}:{lang}", body)
            return Reply(body, TRAP, None)
        return not_found()


# ----------------------------------------------------------------------------------------
# Sort and view switches on a paginated catalogue (?sort=&order=&view=&per=), next to real
# pagination ?page=2..10 and a ?genre= filter that truly changes the content.
# ----------------------------------------------------------------------------------------


class SortView(Site):
    name = "sortview"
    kind = "sort/order/view/per-page switches multiplying a paginated catalogue"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/catalog/export", "/account/"]
    PER = 5

    def build(self) -> None:
        self.vocab = words_for("books")
        rng = self.rng("items")
        self.genres = slugs(self.key("genres"), 5, THEMES_BOOKS, 1)
        self.items = {
            i: {
                "title": title_of(s),
                "author": title_of(rng.choice(GENERAL_SHORT)),
                "year": rng.randint(1850, 2025),
                "genre": self.genres[i % 5],
            }
            for i, s in enumerate(slugs(self.key("titles"), 50, self.vocab, 3), start=1)
        }
        self.legit = {"home"} | {f"list:{n}" for n in range(1, 11)} | {f"i:{i}" for i in self.items}
        self.legit |= {f"g:{g}" for g in self.genres}

    def link(self, cur: dict[str, str], **change: str) -> str:
        d = {k: v for k, v in {**cur, **change}.items() if v}
        return "/catalog/" + ("?" + urlencode(d) if d else "")

    def handle(self, req: Req) -> Reply:
        p, params = req.path, req.params
        q = dict(params)
        if p == "/" and not q:
            body = doc(
                "Library",
                "<h1>Public library catalogue</h1>"
                + paras_html(make_paragraphs(self.key("home"), self.vocab))
                + f"<p>{a('/catalog/', 'Browse the catalogue')}</p>"
                + "<ul>"
                + "".join(f"<li>{a('/catalog/?genre=' + g, title_of(g))}</li>" for g in self.genres)
                + "</ul>",
            )
            return self.legit_page("home", body)
        if (
            p.startswith("/catalog/item/")
            and p[14:].isdigit()
            and int(p[14:]) in self.items
            and not q
        ):
            i = int(p[14:])
            it = self.items[i]
            body = doc(
                it["title"],
                f"<h1>{it['title']}</h1><p>by {it['author']}, {it['year']}</p>"
                + paras_html(make_paragraphs(self.key(f"i{i}"), self.vocab))
                + f"<p>{a('/catalog/?genre=' + it['genre'], 'More ' + it['genre'])} "
                + f"{a('/account/hold?item=' + str(i), 'Place hold')}</p>",
            )
            return self.legit_page(f"i:{i}", body)
        if p != "/catalog/":
            return not_found()
        allowed = {"page", "sort", "order", "view", "per", "genre"}
        if set(q) - allowed or len(q) != len(params):
            return not_found()
        sort, order = q.get("sort", ""), q.get("order", "")
        view, per_s = q.get("view", ""), q.get("per", "")
        if (
            sort not in ("", "title", "author", "year")
            or order not in ("", "asc", "desc")
            or view not in ("", "list", "grid")
            or per_s not in ("", "5", "10", "20")
        ):
            return not_found()
        genre = q.get("genre", "")
        if genre and genre not in self.genres:
            return not_found()
        per = int(per_s or self.PER)
        ids = [i for i, it in self.items.items() if not genre or it["genre"] == genre]
        if sort:
            ids.sort(key=lambda i: self.items[i][sort], reverse=order == "desc")
        elif order == "desc":
            ids.reverse()
        pages = max(1, -(-len(ids) // per))
        try:
            n = int(q.get("page", "1"))
        except ValueError:
            return not_found()
        if not 1 <= n <= pages:
            return not_found()
        shown = ids[(n - 1) * per : n * per]
        cur = {k: q.get(k, "") for k in ("genre", "sort", "order", "view", "per", "page")}
        ctl = ['<div class="controls">Sort: ']
        for s in ("title", "author", "year"):
            for o in ("asc", "desc"):
                ctl.append(a(self.link(cur, sort=s, order=o), f"{s} {o}") + " ")
        ctl.append(
            " View: "
            + a(self.link(cur, view="list"), "list")
            + " "
            + a(self.link(cur, view="grid"), "grid")
        )
        ctl.append(
            " Per page: "
            + " ".join(a(self.link(cur, per=x, page=""), x) for x in ("5", "10", "20"))
        )
        ctl.append(f" {a('/catalog/export?format=csv', 'Export CSV')}</div>")
        pager = " ".join(
            a(self.link(cur, page="" if k == 1 else str(k)), str(k)) for k in range(1, pages + 1)
        )
        rows = "".join(
            f"<tr><td>{a(f'/catalog/item/{i}', self.items[i]['title'])}</td>"
            f"<td>{self.items[i]['author']}</td><td>{self.items[i]['year']}</td></tr>"
            for i in shown
        )
        blurbs = "".join(
            f"<p>{html.escape(make_paragraphs(self.key(f'b{i}'), self.vocab, 40, 60, 1)[0])}</p>"
            for i in shown
        )
        body = doc(
            "Catalogue",
            f"<h1>Catalogue{' - ' + title_of(genre) if genre else ''}</h1>"
            + "".join(ctl)
            + f'<table class="{view or "list"}">{rows}</table>{blurbs}'
            + f'<div class="pager">{pager if not genre else ""}</div>',
        )
        extra = set(q) - {"page", "genre"}
        if not extra and not genre and "page" in q and 2 <= n <= 10:
            return self.legit_page(f"list:{n}", body)
        if not q:
            return self.legit_page("list:1", body)
        if not extra and list(q) == ["genre"]:
            return self.legit_page(f"g:{genre}", body)
        return Reply(body, TRAP, None)


# ----------------------------------------------------------------------------------------
# "Links change, text does not": every response mints fresh tokens into all its links.
# ----------------------------------------------------------------------------------------


class Churn(Site):
    name = "churn"
    kind = "every response mints fresh random tokens into all its links; the text never changes"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/subscribe"]

    def build(self) -> None:
        self.vocab = words_for("travel")
        self.sections = slugs(self.key("sec"), 5, THEMES_TRAVEL, 1)
        self.stories = [
            f"{i}-{s}" for i, s in enumerate(slugs(self.key("st"), 35, self.vocab, 3), start=101)
        ]
        self.section_of = {s: self.sections[i % 5] for i, s in enumerate(self.stories)}
        self.legit = {"home"} | {f"sec:{s}" for s in self.sections}
        self.legit |= {f"story:{s}" for s in self.stories}

    def shell(self, title: str, main: str, canonical: str | None = None) -> str:
        nav = "".join(
            f"<li>{a(f'/section/{s}/{self.token(6)}', title_of(s))}</li>" for s in self.sections
        )
        return doc(
            title,
            f'<header><a href="/?from={self.token(8)}">Far &amp; Wide</a>'
            f'<ul class="menu">{nav}</ul></header><main>{main}</main>'
            f"<footer>{a(f'/subscribe?src={self.token(8)}', 'Subscribe')}</footer>",
            canonical=canonical,
        )

    def story_link(self, s: str) -> str:
        return a(f"/story/{s}?_ck={self.token(12)}", title_of(s.split("-", 1)[1]))

    def handle(self, req: Req) -> Reply:
        p = req.path
        segs = p.strip("/").split("/")
        if p == "/":
            main = (
                "<h1>Far &amp; Wide</h1>"
                + paras_html(make_paragraphs(self.key("home"), self.vocab))
                + "<ul>"
                + "".join(f"<li>{self.story_link(s)}</li>" for s in self.stories[::4])
                + "</ul>"
            )
            return self.alias("home", req, self.shell("Far & Wide", main))
        if segs[0] == "section" and len(segs) in (2, 3) and segs[1] in self.sections:
            s = segs[1]
            lis = "".join(
                f"<li>{self.story_link(x)}</li>" for x in self.stories if self.section_of[x] == s
            )
            main = (
                f"<h1>{title_of(s)}</h1>"
                + paras_html(make_paragraphs(self.key(f"s{s}"), self.vocab, 100, 160))
                + f"<ul>{lis}</ul>"
            )
            return self.alias(f"sec:{s}", req, self.shell(title_of(s), main))
        if segs[0] == "story" and len(segs) == 2 and segs[1] in self.stories:
            s = segs[1]
            i = self.stories.index(s)
            nxt = self.stories[(i + 1) % len(self.stories)]
            main = (
                f"<article><h1>{title_of(s.split('-', 1)[1])}</h1>"
                + paras_html(make_paragraphs(self.key(s), self.vocab))
                + f"<p>Read next: {self.story_link(nxt)}</p></article>"
            )
            return self.alias(f"story:{s}", req, self.shell(s, main, f"/story/{s}"))
        return not_found()


# ----------------------------------------------------------------------------------------
# Soft 404: any unknown path answers 200 "page not found", echoing the path, with relative
# links that nest. A few stale/typo links on real pages lead in.
# ----------------------------------------------------------------------------------------


class Soft404(Site):
    name = "soft404"
    kind = "soft 404: 200 for any path, echoing it, with relative links that nest"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/private/"]

    def build(self) -> None:
        self.vocab = words_for("corp")
        self.services = slugs(self.key("svc"), 6, THEMES_CORP, 1)
        self.team = slugs(self.key("team"), 5, GENERAL_SHORT, 1)
        self.blog = [
            f"{2023 + i % 3}/{s}" for i, s in enumerate(slugs(self.key("blog"), 10, self.vocab, 3))
        ]
        pages = [
            "/",
            "/about/",
            "/services/",
            "/team/",
            "/blog/",
            "/contact/",
            "/help/error-codes/",
        ]
        pages += [f"/services/{x}/" for x in self.services] + [f"/team/{x}/" for x in self.team]
        pages += [f"/blog/{x}/" for x in self.blog]
        self.pages = pages
        self.legit = set(pages)

    def links(self, p: str) -> list[tuple[str, str]]:
        if p == "/":
            out = [
                ("about/", "About"),
                ("services/", "Services"),
                ("team/", "Team"),
                ("blog/", "Blog"),
                ("contact/", "Contact"),
                ("/old-site/index.htm", "Old site"),
            ]
        elif p in ("/services/", "/team/", "/blog/"):
            items = {"/services/": self.services, "/team/": self.team, "/blog/": self.blog}[p]
            out = [(f"{p}{x}/", title_of(x.split("/")[-1])) for x in items]
        elif p.startswith("/blog/"):
            i = self.blog.index(p[6:-1])
            out = [("/blog/", "All posts"), (f"/blog/{self.blog[(i + 1) % 10]}/", "Next post")]
            if i == 3:
                out.append(("servcies/web-design/", "our web design service"))
            if i == 6:
                out.append(("/help/error-codes/", "what HTTP errors mean"))
        elif p.startswith("/team/"):
            out = [("/team/", "Team"), ("../portfolio/", "Portfolio")]
        elif p.startswith("/services/"):
            out = [("/services/", "All services"), ("/contact/", "Get a quote")]
        else:
            out = [("/", "Home")]
        return out

    def shell(self, title: str, main: str) -> str:
        return doc(
            title,
            f'<div class="bar"><b>Brightline Studio</b> {a("/", "Home")} '
            f"{a('/services/', 'Services')} {a('/blog/', 'Blog')}</div>{main}"
            f'<div class="footer">{a("/private/", "Client area")} · '
            "Brightline Studio Ltd</div>",
        )

    def handle(self, req: Req) -> Reply:
        p = req.upath
        if p in self.legit and not req.query:
            title = title_of(p.strip("/").split("/")[-1]) or "Brightline Studio"
            if p == "/help/error-codes/":
                title = "Error 404: page not found? What HTTP errors mean"
            lis = "".join(f"<li>{a(h, t)}</li>" for h, t in self.links(p))
            main = (
                f"<h1>{html.escape(title)}</h1>"
                + paras_html(make_paragraphs(self.key(p), self.vocab))
                + f"<ul>{lis}</ul>"
            )
            return self.legit_page(p, self.shell(title, main))
        main = (
            f"<h1>Oops! That page can't be found.</h1><p>We looked everywhere for "
            f"<code>{html.escape(p)}</code> but it isn't here. Maybe try one of these:</p>"
            f"<ul><li>{a('about/', 'About us')}</li><li>{a('services/', 'Services')}</li>"
            f"<li>{a('blog/', 'Blog')}</li>"
            f"<li>{a('?s=' + quote(p.strip('/').replace('/', ' ')), 'Search for it')}</li>"
            "</ul>"
        )
        return Reply(self.shell("Page not found - Brightline Studio", main), TRAP, None)
