"""Blind5 sites, part C: Adobe Experience Manager (Sling selectors), an AI tarpit,
HCL Domino, and a control."""

from __future__ import annotations

import random
from typing import ClassVar

from traps.blind.kit import (
    GENERAL,
    LANG_VOCAB,
    THEMES,
    Reply,
    Req,
    a,
    doc,
    not_found,
    paras_html,
    redirect,
    slugs,
    title_of,
    words_for,
)
from traps.blind2.common import Link, bar, esc, prose, ul

from .common import Canon

# ----------------------------------------------------------------------------------------
# Adobe Experience Manager (Sling). Sling resolves `/content/x/page.sel1.sel2.html` to the
# page whatever the selectors, and this site's components build their links by appending
# a selector to the selectors of the current request: the "Print" button (`.print`), the
# tag cloud (`.tag-<t>`) and the newsroom's sort switch (`.sort-date|title`), so
# selectors pile up without end (`news.tag-grid.print.tag-grid.html`). The newsroom's
# pager replaces its own `page-N` selector and keeps the others.
# Legit look-alikes: the newsroom's real pages `news.page-2.html` and `news.page-3.html`,
# the sections, the 24 articles, the German pages.
# ----------------------------------------------------------------------------------------

_AEM = "/content/acme"


class AEM(Canon):
    """AEM/Sling: selectors (.print, .tag-x, .sort-x) appended to the current ones."""

    name = "aem"
    kind = "AEM/Sling: any selectors serve the page; .print/.tag-x/.sort-x pile up on links"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = [
        "/bin/",
        "/libs/",
        "/apps/",
        "/etc/",
        "/crx/",
        "/system/",
        "/content/dam/",
    ]
    per = 10

    def setup(self) -> None:
        self.vocab = words_for("corp")
        self.secs = ["products", "services", "industries", "company"]
        self.arts = {s: slugs(self.key(f"a{s}"), 6, self.vocab, 2) for s in self.secs}
        self.all = [(s, x) for s in self.secs for x in self.arts[s]]
        random.Random(self.key("order")).shuffle(self.all)
        self.tags = ["grid", "storage", "retrofit", "safety", "analytics"]
        rng = self.rng("tags")
        self.tag_of = {x: sorted(rng.sample(self.tags, 2)) for _, x in self.all}
        self.reg("home", f"{_AEM}/en.html")
        self.reg("news:1", f"{_AEM}/en/news.html")
        for n in (2, 3):
            self.reg(f"news:{n}", f"{_AEM}/en/news.page-{n}.html")
        for s in self.secs:
            self.reg(f"sec:{s}", f"{_AEM}/en/{s}.html")
            for x in self.arts[s]:
                self.reg(f"art:{s}/{x}", f"{_AEM}/en/{s}/{x}.html")
        self.reg("de", f"{_AEM}/de.html")
        for s in self.secs[:2]:
            self.reg(f"de:{s}", f"{_AEM}/de/{s}.html")

    def shell(self, title: str, main: str, here: str, sels: list[str], lang: str = "en") -> str:
        nav = bar(
            [
                (f"{_AEM}/{lang}.html", "Home"),
                *[(f"{_AEM}/{lang}/{s}.html", title_of(s)) for s in self.secs],
                (f"{_AEM}/en/news.html", "Newsroom"),
                (
                    f"{_AEM}/{'de' if lang == 'en' else 'en'}.html",
                    "Deutsch" if lang == "en" else "English",
                ),
                ("/libs/granite/core/content/login.html", "Sign in"),
            ]
        )

        def self_link(sel: str) -> str:
            return f"{here}." + ".".join([*sels, sel]) + ".html"

        tools = [(self_link("print"), "Print")]
        cloud = bar([(self_link(f"tag-{t}"), t) for t in self.tags], " · ")
        if "print" in sels:
            return doc(title, f"<h1>{esc(title)}</h1>{main}<p>{bar(tools)}</p><p>{cloud}</p>")
        body = (
            f"<header>{nav}</header><main><h1>{esc(title)}</h1>{main}</main>"
            f"<aside><p>{bar(tools)}</p><p>Topics: {cloud}</p></aside>"
            "<footer>© 2026 Acme Grid Systems AG</footer>"
        )
        return doc(f"{title} | Acme Grid Systems", body, lang=lang)

    def handle(self, req: Req) -> Reply:
        p = req.path
        if p == "/":
            return redirect(f"{_AEM}/en.html")
        if not p.startswith(f"{_AEM}/") or req.query:
            return not_found()
        rest = p[len(_AEM) + 1 :]
        head, _, last = rest.rpartition("/")
        bits = last.split(".")
        if len(bits) < 2 or bits[-1] != "html" or any(not b for b in bits):
            return not_found()
        name, sels = bits[0], bits[1:-1]
        path = f"{head}/{name}" if head else name
        here = f"{_AEM}/{path}"
        for s in sels:
            if not (
                s in ("print", "sort-date", "sort-title")
                or (s.startswith("tag-") and s[4:] in self.tags)
                or (s.startswith("page-") and s[5:].isdigit())
            ):
                return not_found()
        tagsel = [s[4:] for s in sels if s.startswith("tag-")]
        if path in ("en", "de"):
            if path == "en":
                links = [(f"{_AEM}/en/{s}.html", title_of(s)) for s in self.secs]
                main = prose(self, "home", self.vocab) + ul(links)
            else:
                de = THEMES["corp"] + LANG_VOCAB["de"]
                links = [(f"{_AEM}/de/{s}.html", title_of(s)) for s in self.secs[:2]]
                main = prose(self, "de-home", de) + ul(links)
            return self.serve(req, self.shell("Acme Grid Systems", main, here, sels, path))
        if path == "en/news":
            pages = [s for s in sels if s.startswith("page-")]
            page = int(pages[-1][5:]) if pages else 1
            items = [x for x in self.all if all(t in self.tag_of[x[1]] for t in tagsel)]
            if "sort-title" in sels:
                items.sort(key=lambda x: x[1])
            elif "sort-date" in sels:
                items.reverse()
            npages = max(1, -(-len(items) // self.per))
            if not 1 <= page <= npages:
                return not_found()
            others = [s for s in sels if not s.startswith("page-")]
            rows = ul(
                [
                    (f"{_AEM}/en/{s}/{x}.html", title_of(x))
                    for s, x in items[(page - 1) * self.per : page * self.per]
                ]
            )

            def pg(n: int) -> str:
                ss = others + ([f"page-{n}"] if n > 1 else [])
                return f"{here}." + ".".join(ss) + ".html" if ss else f"{here}.html"

            nav = [(pg(n), str(n)) for n in range(1, npages + 1) if n != page]
            sorts = [
                (f"{here}." + ".".join([*sels, f"sort-{k}"]) + ".html", k)
                for k in ("date", "title")
            ]
            intro = prose(self, f"news{page}", self.vocab, 20, 40)
            main = f"{intro}<p>Sort: {bar(sorts)}</p>{rows}<nav>{bar(nav)}</nav>"
            return self.serve(req, self.shell("Newsroom", main, here, sels))
        parts = path.split("/")
        if len(parts) == 2 and parts[0] in ("en", "de") and parts[1] in self.secs:
            lang, s = parts
            if lang == "de" and s not in self.secs[:2]:
                return not_found()
            links = [
                (f"{_AEM}/en/{s}/{x}.html", title_of(x))
                for x in self.arts[s]
                if all(t in self.tag_of[x] for t in tagsel)
            ]
            main = prose(self, f"sec:{lang}:{s}", self.vocab) + ul(links)
            return self.serve(req, self.shell(title_of(s), main, here, sels, lang))
        if (
            len(parts) == 3
            and parts[0] == "en"
            and parts[1] in self.secs
            and parts[2] in self.arts[parts[1]]
        ):
            s, x = parts[1], parts[2]
            i = self.arts[s].index(x)
            rel = [(f"{_AEM}/en/{s}/{y}.html", title_of(y)) for y in self.arts[s] if y != x][:3]
            main = (
                f"<p>Topics: {', '.join(self.tag_of[x])}</p>"
                + prose(self, f"art:{s}/{x}", self.vocab)
                + f"<img src='/content/dam/acme/{s}/{i}.jpg' alt=''>"
                + "<h2>Related</h2>"
                + ul(rel)
            )
            return self.serve(req, self.shell(title_of(x), main, here, sels))
        return not_found()


# ----------------------------------------------------------------------------------------
# An AI-crawler tarpit (Nepenthes-style) on a personal blog. Everything under
# `/reading-list/` is a page of Markov-style babble, different for every address, with
# links to deeper made-up addresses under the same prefix, for ever. The owner left the
# prefix out of robots.txt on purpose, so that it catches every crawler.
# Legit look-alikes: the 28 blog posts (prose pages linking each other), the home page,
# the year archives and their real second pages, the about and blogroll pages.
# ----------------------------------------------------------------------------------------


class Tarpit(Canon):
    """A personal blog with a Nepenthes-style babble maze under /reading-list/."""

    name = "tarpit"
    kind = "AI tarpit (Nepenthes-style): /reading-list/<words>/ babble pages linking deeper"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/wp-admin/", "/cgi-bin/"]
    per = 8

    def setup(self) -> None:
        self.vocab = words_for("books") + THEMES["travel"] * 2 + THEMES["food"] * 2
        rng = self.rng("posts")
        self.posts = []
        names = slugs(self.key("slugs"), 28, self.vocab, 3)
        for k, s in enumerate(names):
            year = 2025 if k < 14 else 2026
            self.posts.append((year, f"{year}-{1 + k % 12:02d}-{rng.randint(1, 28):02d}", s))
        self.posts.sort()
        self.reg("home", "/")
        self.reg("about", "/about/")
        self.reg("blogroll", "/blogroll/")
        for y in (2025, 2026):
            self.reg(f"year:{y}", f"/{y}/")
            self.reg(f"year:{y}:2", f"/{y}/page/2/")
        for y, _, s in self.posts:
            self.reg(f"post:{s}", f"/{y}/{s}/")
        self.babble = (
            GENERAL + THEMES["books"] + THEMES["travel"] + THEMES["food"] + THEMES["science"]
        )

    def shell(self, title: str, main: str) -> str:
        nav = bar(
            [
                ("/", "Home"),
                ("/2026/", "2026"),
                ("/2025/", "2025"),
                ("/about/", "About"),
                ("/blogroll/", "Blogroll"),
            ]
        )
        side = a("/reading-list/", "My reading list")
        body = (
            f"<header>{nav}</header><main><h1>{esc(title)}</h1>{main}</main><aside>{side}</aside>"
        )
        return doc(f"{title} — marginalia", body)

    def handle(self, req: Req) -> Reply:
        p = req.path
        if req.query:
            return not_found()
        if p.startswith("/reading-list/"):
            words = [w for w in p[len("/reading-list/") :].split("/") if w]
            if not p.endswith("/") or any(not w.isalpha() for w in words):
                return not_found()
            rng = random.Random(self.key("maze:" + p))
            paras = []
            for _ in range(rng.randint(2, 5)):
                sent = []
                for _ in range(rng.randint(3, 7)):
                    ws = [rng.choice(self.babble) for _ in range(rng.randint(6, 18))]
                    sent.append(" ".join(ws).capitalize() + rng.choice(".;!?."))
                paras.append(" ".join(sent))
            links = []
            for _ in range(rng.randint(4, 8)):
                depth = rng.choice([0, 1, 1, 2])
                base = words[: len(words) - depth] if depth <= len(words) else []
                new = [
                    rng.choice(self.babble).lower().strip(",.") for _ in range(rng.randint(1, 2))
                ]
                new = [w for w in new if w.isalpha()] or ["notes"]
                href = "/reading-list/" + "/".join(base + new) + "/"
                links.append((href, " ".join(new).title()))
            title = " ".join(words[-2:]).title() if words else "Reading list"
            return self.serve(req, self.shell(title, paras_html(paras) + ul(links)))
        if p == "/":
            latest = [(f"/{y}/{s}/", title_of(s)) for y, d, s in reversed(self.posts[-8:])]
            main = prose(self, "home", self.vocab, 40, 90) + ul(latest)
            return self.serve(req, self.shell("marginalia", main))
        if p in ("/about/", "/blogroll/"):
            return self.serve(req, self.shell(p.strip("/").title(), prose(self, p, self.vocab)))
        parts = [x for x in p.split("/") if x]
        if parts and parts[0] in ("2025", "2026") and p.endswith("/"):
            y = int(parts[0])
            mine = [(d, s) for yy, d, s in reversed(self.posts) if yy == y]
            if len(parts) == 1 or (len(parts) == 3 and parts[1] == "page" and parts[2] == "2"):
                page = 1 if len(parts) == 1 else 2
                shown = mine[(page - 1) * self.per : page * self.per]
                nav = (
                    [(f"/{y}/page/2/", "Older posts")] if page == 1 else [(f"/{y}/", "Newer posts")]
                )
                main = prose(self, f"y{y}{page}", self.vocab, 15, 30) + ul(
                    [(f"/{y}/{s}/", f"{d} {title_of(s)}") for d, s in shown]
                )
                return self.serve(req, self.shell(f"Posts from {y}", main + f"<p>{bar(nav)}</p>"))
            if len(parts) == 2 and parts[1] in [s for _, s in mine]:
                s = parts[1]
                k = [x[2] for x in self.posts].index(s)
                near = [self.posts[j] for j in (k - 1, k + 1) if 0 <= j < len(self.posts)]
                word = s.split("-")[0]
                main = prose(self, f"post:{s}", self.vocab, 200, 420)
                main += "<h2>Elsewhere</h2>" + ul(
                    [(f"/{yy}/{ss}/", title_of(ss)) for yy, _, ss in near]
                )
                main += f"<p>Further reading: {a(f'/reading-list/{word}/', word)}</p>"
                return self.serve(req, self.shell(title_of(s), main))
        return not_found()


# ----------------------------------------------------------------------------------------
# HCL (Lotus) Domino web server, a classic Notes database on the web. Documents open under
# every view that shows them (`/db.nsf/<view>/<UNID>?OpenDocument`, and `/0/<UNID>`);
# collapsible sections open through `&ExpandSection=1,3` (any subset, in the order
# clicked); views page with `&Start=&Count=`, the designer's "Next" action never stops,
# categorized views expand one category at a time (`&Expand=N`) or all
# (`&ExpandView`), and columns re-sort (`&ResortAscending=N`).
# Legit look-alikes: the database's about page, the three views and the by-date view's
# real second page, the 28 documents under the by-date view.
# ----------------------------------------------------------------------------------------

_NSF = "/apps/policies.nsf"
_DOM_VIEWS = {"ByDate": "By Date", "ByCategory": "By Category", "ByAuthor": "By Author"}


class Domino(Canon):
    """HCL Domino: docs under every view, ExpandSection= subsets, Start= never ending."""

    name = "domino"
    kind = "HCL Domino: docs under every view, &ExpandSection=1,3 subsets, &Start= past the end"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, f"{_NSF}?OpenDatabase")]
    robots_disallow: ClassVar[list[str]] = [
        "/names.nsf",
        "/log.nsf",
        "/domcfg.nsf",
        "/catalog.nsf",
        "/webadmin.nsf",
        "/?Open",
    ]
    count = 20

    def setup(self) -> None:
        self.vocab = words_for("gov")
        rng = self.rng("docs")
        self.cats = ["Facilities", "Finance", "Human Resources", "IT Security", "Travel"]
        self.authors = ["Grete Holm", "Marcus Bell", "Noor Aziz", "Pavel Sykora", "Yuki Tan"]
        titles = slugs(self.key("t"), 28, self.vocab, 3)
        self.docs = []
        for k in range(28):
            self.docs.append(
                {
                    "unid": "".join(rng.choice("0123456789ABCDEF") for _ in range(32)),
                    "title": title_of(titles[k]).capitalize() + " policy",
                    "cat": rng.choice(self.cats),
                    "author": rng.choice(self.authors),
                    "date": f"2026-{1 + k // 3:02d}-{1 + (k * 7) % 28:02d}",
                }
            )
        self.docs.sort(key=lambda d: d["date"], reverse=True)
        self.reg("home", f"{_NSF}?OpenDatabase")
        for v in _DOM_VIEWS:
            self.reg(f"view:{v}", f"{_NSF}/{v}?OpenView")
        self.reg("view:ByDate:2", f"{_NSF}/ByDate?OpenView&Start=21")
        for d in self.docs:
            self.reg(f"doc:{d['unid']}", f"{_NSF}/ByDate/{d['unid']}?OpenDocument")

    def shell(self, title: str, main: str) -> str:
        nav = bar(
            [
                (f"{_NSF}?OpenDatabase", "Home"),
                *[(f"{_NSF}/{v}?OpenView", t) for v, t in _DOM_VIEWS.items()],
                ("/names.nsf?Login", "Sign in"),
            ]
        )
        body = f"<table><tr><td>{nav}</td></tr></table><h2>{esc(title)}</h2>{main}"
        return doc(title, body)

    def parse(self, query: str) -> tuple[str, dict[str, str]]:
        parts = query.split("&")
        cmd = parts[0]
        args: dict[str, str] = {}
        for x in parts[1:]:
            k, _, v = x.partition("=")
            args[k] = v
        return cmd, args

    def view(self, req: Req, v: str, args: dict[str, str]) -> Reply:
        if set(args) - {
            "Start",
            "Count",
            "Expand",
            "Collapse",
            "ExpandView",
            "CollapseView",
            "ResortAscending",
            "ResortDescending",
        }:
            return not_found()
        try:
            start = int(args.get("Start", "1").split(".")[0])
            count = int(args.get("Count", str(self.count)))
        except ValueError:
            return not_found()
        if start < 1 or not 1 <= count <= 1000:
            return not_found()
        docs = list(self.docs)
        col = args.get("ResortAscending") or args.get("ResortDescending")
        if col:
            key = {"1": "date", "2": "title", "3": "author"}.get(col)
            if not key:
                return not_found()
            docs.sort(key=lambda d: d[key], reverse="ResortDescending" in args)
        keep = "".join(
            f"&{k}={args[k]}" for k in ("ResortAscending", "ResortDescending") if k in args
        )
        base = f"{_NSF}/{v}?OpenView"
        rows: list[str] = []
        if v == "ByDate":
            for i, d in enumerate(docs[start - 1 : start - 1 + count], start):
                href = f"{_NSF}/{v}/" + d["unid"] + "?OpenDocument"
                rows.append(
                    f"<tr><td>{i}</td><td>{d['date']}</td><td>{a(href, d['title'])}</td>"
                    f"<td>{esc(d['author'])}</td></tr>"
                )
        else:
            field = "cat" if v == "ByCategory" else "author"
            groups = self.cats if v == "ByCategory" else self.authors
            exp = args.get("Expand", "")
            for n, g in enumerate(groups, 1):
                if "ExpandView" in args or exp == str(n):
                    tw = f"{base}&Start={start}&Count={count}&Collapse={n}{keep}"
                    rows.append(f"<tr><td>{a(tw, '▼')} {esc(g)}</td></tr>")
                    for d in docs:
                        if d[field] == g:
                            rows.append(
                                "<tr><td></td><td>"
                                + a(f"{_NSF}/{v}/" + d["unid"] + "?OpenDocument", d["title"])
                                + "</td></tr>"
                            )
                else:
                    tw = f"{base}&Start={start}&Count={count}&Expand={n}{keep}"
                    rows.append(f"<tr><td>{a(tw, '►')} {esc(g)}</td></tr>")
        actions = [
            (f"{base}&Start={max(1, start - count)}&Count={count}{keep}", "Previous"),
            (
                f"{base}&Start={start + count}"
                + ("" if count == self.count and not keep else f"&Count={count}{keep}"),
                "Next",
            ),
            (f"{base}&Start={start}&Count={count}&ExpandView{keep}", "Expand All"),
            (f"{base}&Start={start}&Count={count}&CollapseView{keep}", "Collapse All"),
        ]
        actions += [(f"{base}&Start={start}&Count={c}{keep}", f"Show {c}") for c in (10, 50)]
        heads = [
            (f"{base}&ResortAscending={c}", h)
            for c, h in (("1", "Date"), ("2", "Title"), ("3", "Author"))
        ]
        heads += [(f"{base}&ResortDescending=1", "Date ↓")]
        intro = (
            prose(self, f"view:{v}:{start}", self.vocab, 15, 35) if req.target in self.canon else ""
        )
        main = f"{intro}<p>{bar(actions)}</p><p>{bar(heads)}</p><table>{''.join(rows)}</table>"
        return self.serve(req, self.shell(_DOM_VIEWS[v], main))

    def document(self, req: Req, v: str, unid: str, cmd: str, args: dict[str, str]) -> Reply:
        d = next((d for d in self.docs if d["unid"] == unid.upper()), None)
        if d is None:
            return not_found("Entry not found in index")
        if cmd == "Navigate":
            order = (
                self.docs
                if v in ("ByDate", "0")
                else sorted(
                    self.docs,
                    key=lambda x: (x["cat" if v == "ByCategory" else "author"], x["date"]),
                )
            )
            i = order.index(d) + (1 if args.get("To") == "Next" else -1)
            if not 0 <= i < len(order):
                return not_found("No document found")
            return redirect(f"{_NSF}/{v}/{order[i]['unid']}?OpenDocument")
        if cmd != "OpenDocument" or set(args) - {"ExpandSection"}:
            return not_found()
        opened = [x for x in args.get("ExpandSection", "").split(",") if x]
        if any(x not in ("1", "2", "3") for x in opened):
            return not_found()
        secs = ""
        for n, h in (("1", "Scope"), ("2", "Procedure"), ("3", "Exceptions")):
            new = [x for x in opened if x != n] if n in opened else [*opened, n]
            href = f"{_NSF}/{v}/{unid}?OpenDocument" + (
                f"&ExpandSection={','.join(new)}" if new else ""
            )
            secs += f"<h3>{a(href, ('▼ ' if n in opened else '► ') + h)}</h3>"
            if n in opened:
                secs += prose(self, f"sec:{unid}:{n}", self.vocab, 30, 70)
        nav = [
            (f"{_NSF}/{v}/{unid}?Navigate&To=Prev", "Previous"),
            (f"{_NSF}/{v}/{unid}?Navigate&To=Next", "Next"),
            (f"{_NSF}/0/{unid}?OpenDocument", "Document link"),
            (f"{_NSF}/{v if v != '0' else 'ByDate'}?OpenView", "Close"),
        ]
        main = (
            f"<p>{esc(d['cat'])} · {esc(d['author'])} · {d['date']}</p>"
            + prose(self, f"doc:{unid}", self.vocab)
            + secs
            + f"<p>{bar(nav)}</p>"
        )
        return self.serve(req, self.shell(d["title"], main))

    def handle(self, req: Req) -> Reply:
        p = req.path
        if p == "/":
            return redirect(f"{_NSF}?OpenDatabase")
        if not p.startswith(_NSF):
            return not_found()
        cmd, args = self.parse(req.query)
        rest = [x for x in p[len(_NSF) :].split("/") if x]
        if not rest:
            if cmd not in ("OpenDatabase", "") or args:
                return not_found()
            links = [(f"{_NSF}/{v}?OpenView", t) for v, t in _DOM_VIEWS.items()]
            return self.serve(
                req, self.shell("Corporate Policies", prose(self, "about", self.vocab) + ul(links))
            )
        if rest[0] not in (*_DOM_VIEWS, "0"):
            return not_found()
        if len(rest) == 1 and cmd == "OpenView" and rest[0] != "0":
            return self.view(req, rest[0], args)
        if len(rest) == 2 and cmd in ("OpenDocument", "Navigate"):
            return self.document(req, rest[0], rest[1], cmd, args)
        return not_found()


# ----------------------------------------------------------------------------------------
# Control: a plain site with no traps.
# ----------------------------------------------------------------------------------------


class Control(Canon):
    """A plain site with no traps."""

    name = "control"
    kind = "no traps: home, about, 4 sections of 7 pages, one robots-disallowed link"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/members/"]

    def setup(self) -> None:
        self.vocab = words_for("food")
        self.secs = slugs(self.key("secs"), 4, THEMES["food"], 1)
        self.pages = {s: slugs(self.key(f"p{s}"), 7, self.vocab, 2) for s in self.secs}
        self.reg("home", "/")
        self.reg("about", "/about.html")
        for s in self.secs:
            self.reg(f"s:{s}", f"/{s}/")
            for x in self.pages[s]:
                self.reg(f"p:{s}/{x}", f"/{s}/{x}.html")

    def handle(self, req: Req) -> Reply:
        pid = self.canon.get(req.target)
        if pid is None:
            return not_found()
        links: list[Link] = []
        if pid == "home":
            links = [(f"/{s}/", title_of(s)) for s in self.secs]
        elif pid.startswith("s:"):
            s = pid[2:]
            links = [(f"/{s}/{x}.html", title_of(x)) for x in self.pages[s]]
        elif pid.startswith("p:"):
            links = [(f"/{pid[2:].split('/')[0]}/", "Up")]
        nav = bar(
            [("/", "Home"), *[(f"/{s}/", title_of(s)) for s in self.secs], ("/about.html", "About")]
        )
        title = (
            title_of(pid.split("/")[-1].split(":")[-1])
            if pid != "home"
            else "Harbour Street Kitchen"
        )
        body = (
            f"<header>{nav}</header><main><h1>{esc(title)}</h1>{prose(self, pid, self.vocab)}"
            f"{ul(links)}</main><footer>{a('/members/', 'Members area')}</footer>"
        )
        return self.serve(req, doc(title, body))
