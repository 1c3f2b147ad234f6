"""blind11 sites, part c: AtoM, Magnolia, Request Tracker and MyBB."""

from __future__ import annotations

from typing import ClassVar

from traps.blind.kit import Reply, Req, not_found, redirect, slugs, title_of
from traps.blind2.common import esc, qs, trap, ul
from traps.blind7.common import data

from .common import Base, num, pq

# ----------------------------------------------------------------------------------------
# AtoM (Access to Memory) 2.7, a county archive. Descriptions, repositories and authority
# records at /index.php/<slug>. Every page has the language menu `?sf_culture=<xx>` (eight
# languages; without a translation AtoM shows the source-language text), and four
# descriptions have a real French translation at that very URL. Descriptions also have
# the display standards `;isad`, `;dc`, `;rad`, `;mods` (same record) and EAD/DC exports
# `;ead?sf_format=xml`; browse pages sort/sortDir/view/topLod/page switches (real page 2
# is `?page=2`). robots.txt: the site's (`/index.php/clipboard`, `/index.php/user`,
# `/index.php/search/advanced`); the clipboard links are covered.
# ----------------------------------------------------------------------------------------

_I = "/index.php/"
_LANGS = ["en", "fr", "es", "nl", "pt", "de", "it", "ja"]
_SORTS = ["alphabetic", "referenceCode", "date", "lastUpdated", "identifier"]


class Atom(Base):
    """AtoM: sf_culture on every page (real translations too), templates, browse switches."""

    name = "atom"
    kind = "AtoM 2.7: ?sf_culture= on every page (4 real translations), ;isad/;dc/;rad, browse"
    theme = "books"
    brand = "Westmoor Archives"
    robots_disallow: ClassVar[list[str]] = [
        _I + "clipboard",
        _I + "user",
        _I + "search/advanced",
    ]

    def make(self) -> None:
        names = slugs(self.key("a"), 2 + 6 + 12 + 5, self.v, 2)
        self.repos, self.fonds, self.series, self.actors = (
            names[:2],
            names[2:8],
            names[8:20],
            names[20:],
        )
        self.parent = {s: self.fonds[k // 2] for k, s in enumerate(self.series)}
        self.fr = {self.fonds[0], self.fonds[2], self.series[1], self.series[6]}
        self.add("home", "/", lambda r: self.home())
        self.add("about", _I + "about", lambda r: self.page("About", "about", [("/", "Home")], ""))
        self.add("repos", _I + "repository/browse", lambda r: self.repo_browse(""))
        for k, rp in enumerate(self.repos):
            self.add(f"r{rp}", _I + rp, lambda r, k=k: self.repo(k, ""))
        self.add("io1", _I + "informationobject/browse", lambda r: self.browse({}, ""))
        self.add(
            "io2", _I + "informationobject/browse?page=2", lambda r: self.browse({"page": "2"}, "")
        )
        for s in self.fonds + self.series:
            self.add(f"d{s}", _I + s, lambda r, s=s: self.desc(s, "", ""))
        for s in self.fr:
            self.add(f"d{s}fr", f"{_I}{s}?sf_culture=fr", lambda r, s=s: self.desc(s, "", "fr"))
        self.add(
            "actors",
            _I + "actor/browse",
            lambda r: self.page(
                "Authority records", "actors", [(_I + a, title_of(a)) for a in self.actors], ""
            ),
        )
        for k, a in enumerate(self.actors):
            links = [(_I + self.fonds[k % 4], title_of(self.fonds[k % 4]))]
            self.add(
                f"a{a}",
                _I + a,
                lambda r, a=a, links=links: self.page(title_of(a), f"a{a}", links, ""),
            )

    def menu(self, here: str, culture: str) -> str:
        path, _, query = here.partition("?")
        keep = "&".join(p for p in query.split("&") if p and not p.startswith("sf_culture="))
        pre = f"{path}?{keep}&" if keep else f"{path}?"
        return (
            "<p>"
            + " | ".join(
                f'<a href="{esc(pre)}sf_culture={c}">{c}</a>' for c in _LANGS if c != culture
            )
            + "</p>"
        )

    def page(
        self, title: str, key: str, links: list[tuple[str, str]], here: str, culture: str = ""
    ) -> str:
        nav = [("/", "Home"), (_I + "informationobject/browse", "Archival descriptions")]
        nav += [
            (_I + "repository/browse", "Archival institutions"),
            (_I + "actor/browse", "Authority records"),
        ]
        return self.html(
            title,
            key,
            self.menu(here or ("/" if key == "home" else _I + key), culture) + ul(nav + links),
        )

    def home(self) -> str:
        return self.page("Westmoor Archives", "home", [(_I + "about", "About")], "/")

    def repo_browse(self, culture: str) -> str:
        return self.page(
            "Archival institutions",
            "repository/browse",
            [(_I + r, title_of(r)) for r in self.repos],
            _I + "repository/browse",
            culture,
        )

    def repo(self, k: int, culture: str) -> str:
        held = [f for j, f in enumerate(self.fonds) if j % 2 == k][:2]
        return self.page(
            title_of(self.repos[k]),
            self.repos[k],
            [(_I + f, title_of(f)) for f in held],
            _I + self.repos[k],
            culture,
        )

    def browse(self, q: dict[str, str], here: str) -> str:
        page = max(1, num(q, "page", 1))
        sort, sdir, view = (
            q.get("sort", "alphabetic"),
            q.get("sortDir", "asc"),
            q.get("view", "card"),
        )
        top = q.get("topLod", "1")
        items = list(self.fonds) if top == "1" else self.fonds + self.series
        items.sort(
            key=lambda s: s if sort == "alphabetic" else str(self.rng(sort + s).random()),
            reverse=sdir == "desc",
        )
        shown = [(_I + s, title_of(s)) for s in items[(page - 1) * 4 : page * 4]]
        base = _I + "informationobject/browse"

        def link(**kw: str) -> str:
            cur = {k: v for k, v in q.items() if k not in ("page", "sf_culture")}
            cur.update(kw)
            return base + ("?" + "&".join(f"{k}={v}" for k, v in cur.items()) if cur else "")

        sw = [(link(sort=s), f"Sort by {s}") for s in _SORTS if s != sort]
        sw += [(link(sortDir=d), d) for d in ("asc", "desc") if d != sdir]
        sw += [(link(view=v), v) for v in ("card", "table") if v != view]
        sw += [(link(topLod=t), f"top level {t}") for t in ("0", "1") if t != top]
        if page * 4 < len(items):
            sw.append((link(page=str(page + 1)), "Next"))
        if page > 1:
            sw.append((link(page=str(page - 1)) if page > 2 else link(), "Previous"))
        title = "Archival descriptions" + (f" (page {page})" if page > 1 else "")
        key = "informationobject/browse" if not q or q == {"page": "2"} else "iob"
        return self.page(
            title,
            key + str(page),
            shown + sw,
            here or link(**({"page": "2"} if page == 2 else {})),
            q.get("sf_culture", ""),
        )

    def desc(self, s: str, template: str, culture: str) -> str:
        links: list[tuple[str, str]] = []
        if s in self.fonds:
            links += [(_I + c, title_of(c)) for c in self.series if self.parent[c] == s]
            k = self.fonds.index(s)
            links += [(_I + self.repos[k % 2], "Repository"), (_I + self.actors[k % 5], "Creator")]
        else:
            links += [(_I + self.parent[s], "Part of " + title_of(self.parent[s]))]
        links += [
            (f"{_I}{s};{t}", t.upper()) for t in ("isad", "dc", "rad", "mods") if t != template
        ]
        links += [
            (f"{_I}{s};ead?sf_format=xml", "EAD"),
            (f"{_I}clipboard/add?slug={s}", "Add to clipboard"),
        ]
        fr = culture == "fr" and s in self.fr
        title = (
            title_of(s)
            + (" (fonds, description en français)" if fr else "")
            + (f" [{template}]" if template else "")
        )
        here = f"{_I}{s}" + (f";{template}" if template else "")
        return self.page(title, f"d{s}{'fr' if fr else ''}", links, here, culture)

    def rest(self, req: Req) -> Reply:
        path, q = req.path, qs(req.query)
        culture = q.get("sf_culture", "")
        if path == "/":
            return trap(
                self.page("Westmoor Archives", "home", [(_I + "about", "About")], "/", culture)
            )
        if not path.startswith(_I):
            return not_found()
        slug, _, template = path[len(_I) :].partition(";")
        if slug == "informationobject/browse":
            return trap(self.browse(q, req.target))
        if slug == "repository/browse":
            return trap(self.repo_browse(culture))
        if slug in self.repos:
            return trap(self.repo(self.repos.index(slug), culture))
        if slug in self.fonds or slug in self.series:
            if template == "ead" or q.get("sf_format") == "xml":
                return data(f"<ead><eadheader>{slug}</eadheader></ead>", "text/xml")
            if template in ("", "isad", "dc", "rad", "mods"):
                return trap(self.desc(slug, template, culture))
        if slug in ("about", "actor/browse") or slug in self.actors:
            fn = self.pages[(0, _I + slug)]
            return trap(fn(req))
        return not_found()


# ----------------------------------------------------------------------------------------
# Magnolia CMS 6 on Tomcat, two domains: www.<co>.com (English, host 0) and www.<co>.de
# (German, host 1; eight translated pages). The navigation is written with c:url, so for a
# client without a cookie every navigation link carries `;jsessionid=<32 hex>` minted for
# that response; a request with a live id reuses it, with an unknown or expired one (25
# requests) or one the other node of the non-sticky two-node balancer set (`.node1` and
# `.node2`, picked alternately) a new id is minted. Content links and the sitemap are
# plain. Host 0's language switch links /de/<path> (Magnolia's path-based locale), which
# shows the German text where one exists and the English one otherwise. robots.txt:
# `/.magnolia/` and `/de/` (the site's own; host 0's switch links are covered, the
# session ids not).
# ----------------------------------------------------------------------------------------


class Magnolia(Base):
    """Magnolia on Tomcat: ;jsessionid= on navigation links per response, /de/ copies."""

    name = "magnolia"
    kind = "Magnolia CMS on Tomcat: ;jsessionid= per response on nav links, /de/ locale copies"
    theme = "corp"
    brand = "Norrholm Instruments"
    hosts = 2
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/"), (1, "/")]
    robots_disallow: ClassVar[list[str]] = ["/.magnolia/", "/de/"]

    def make(self) -> None:
        self.sess: dict[str, int] = {}
        self.prods = slugs(self.key("p"), 6, self.v, 2)
        self.news = slugs(self.key("n"), 10, self.v, 3)
        self.titles: dict[str, str] = {
            "/": "Home",
            "/about.html": "About us",
            "/about/team.html": "Our team",
        }
        self.titles |= {
            "/about/history.html": "History",
            "/products.html": "Products",
            "/news.html": "News",
        }
        self.titles |= {"/contact.html": "Contact", "/sitemap.html": "Sitemap"}
        self.titles |= {f"/products/{p}.html": title_of(p) for p in self.prods}
        self.titles |= {f"/news/{n}.html": title_of(n) for n in self.news}
        self.de = ["/", "/about.html", "/products.html"] + [
            f"/products/{p}.html" for p in self.prods[:3]
        ]
        self.de += [f"/news/{n}.html" for n in self.news[:2]]
        for path in self.titles:
            self.add(f"en{path}", path, lambda r, p=path: self.render(r, 0, p))
        self.add(
            "en/news.html?page=2", "/news.html?page=2", lambda r: self.render(r, 0, "/news.html", 2)
        )
        for path in self.de:
            self.add(f"de{path}", path, lambda r, p=path: self.render(r, 1, p), host=1)

    def sid(self, req: Req) -> str:
        """The session id for this response: the request's if it is live on the node the
        (non-sticky) balancer picked, else a new one minted there."""
        _, _, param = req.path.partition(";jsessionid=")
        node = f"node{1 + self.tick() % 2}"
        with self._lock:
            left = self.sess.get(param, 0)
            if left > 0 and param.endswith("." + node):
                self.sess[param] = left - 1
                return param
        tok = f"{self.fresh(32, '0123456789ABCDEF')}.{node}"
        with self._lock:
            self.sess[tok] = 25
        return tok

    def content(self, path: str, page: int) -> list[tuple[str, str]]:
        if path == "/":
            archive = [(f"/news/{n}.html", title_of(n)) for n in self.news[:2]]
            return [
                ("/products.html", "Products"),
                ("/news.html", "News"),
                ("/about.html", "About us"),
                *archive,
            ]
        if path == "/about.html":
            return [
                ("/about/team.html", "Our team"),
                ("/about/history.html", "History"),
                ("/contact.html", "Contact"),
            ]
        if path == "/products.html":
            return [(f"/products/{p}.html", title_of(p)) for p in self.prods]
        if path == "/news.html":
            ns = self.news[::-1][:6] if page == 1 else self.news[::-1][6:]
            return [(f"/news/{n}.html", title_of(n)) for n in ns] + [
                ("/news.html?page=2", "Older news") if page == 1 else ("/news.html", "Latest news")
            ]
        if path == "/sitemap.html":
            return [(p, t) for p, t in self.titles.items()] + [
                ("/news.html?page=2", "News archive")
            ]
        return [("/sitemap.html", "Sitemap")]

    def render(self, req: Req, h: int, path: str, page: int = 1, lang: int | None = None) -> str:
        lang = h if lang is None else lang
        sid = self.sid(req)
        navs = ["/", "/about.html", "/products.html", "/news.html", "/contact.html"]
        navs = [p for p in navs if h == 0 or p in self.de]
        nav = " | ".join(
            f'<a href="{esc(p)};jsessionid={sid}">{esc(self.titles[p])}</a>' for p in navs
        )
        links = self.content(path, page)
        if lang == 1 or h == 1:
            links = [(p, t) for p, t in links if p in self.de]
        if h == 0:
            links += [(f"/de{path}", "Deutsch"), (self.url(1, "/"), "Norrholm Deutschland")]
        else:
            links += [(self.url(0, path), "English")]
        tr = lang == 1 and path in self.de
        title = ("DE: " if tr else "") + self.titles[path] + (f" (page {page})" if page > 1 else "")
        return self.html(title, f"{'de' if tr else 'en'}{path}{page}", f"<p>{nav}</p>" + ul(links))

    def rest(self, req: Req) -> Reply:
        h = req.host_index
        path = req.path.split(";", 1)[0]
        lang = h
        if h == 0 and (path == "/de" or path.startswith("/de/")):
            path, lang = path[3:] or "/", 1
        page = max(1, num(qs(req.query), "page", 1))
        if path not in self.titles or (h == 1 and path not in self.de):
            return not_found()
        return trap(self.render(req, h, path, page if path == "/news.html" else 1, lang))


# ----------------------------------------------------------------------------------------
# Request Tracker 5, a public (guest) instance. Queue lists are searches,
# /Search/Results.html?Query=<TicketSQL> (real; the big queue's `&Page=2` too), tickets
# /Ticket/Display.html?id=<n>. Every result page has column headers that put a column in
# front of OrderBy (`Subject|id`, up to four keys, with Order=ASC|DESC for each),
# RowsPerPage and Page switches, the query builder's "add clause" links (`AND Status =
# 'open'` ..., appended in click order and never merged, so the Query grows without
# end), Chart links (?PrimaryGroupBy=&ChartStyle=), RSS/TSV feeds. Tickets add History,
# ShowEmailRecord, "other tickets by this requestor" searches, attachments and the
# SelfService copy. robots.txt: the site's (feeds, attachments, /SelfService/, /NoAuth/).
# ----------------------------------------------------------------------------------------

_QUEUES = ["General", "Web site", "Lab equipment", "Accounts"]
_COLS = ["id", "Subject", "Status", "Queue", "Requestor", "LastUpdated"]
_CLAUSES = [
    "Status = 'open'",
    "Status = 'new'",
    "Owner = 'Nobody'",
    "Priority > 50",
    "Created > '2026-01-01'",
]


class RequestTracker(Base):
    """RT: TicketSQL clauses appended without end, multi-key OrderBy, charts, feeds."""

    name = "rt"
    kind = "Request Tracker 5: Query clauses appended (endless), OrderBy/Order/Rows/Page, charts"
    theme = "science"
    brand = "RT for Lab Support"
    robots_disallow: ClassVar[list[str]] = [
        "/Search/Results.rdf",
        "/Search/Results.tsv",
        "/Ticket/Attachment/",
        "/SelfService/",
        "/NoAuth/",
    ]

    def make(self) -> None:
        subj = slugs(self.key("t"), 28, self.v, 3)
        self.people = [f"{w}@lab.example" for w in slugs(self.key("u"), 6, self.v, 1)]
        self.t = {
            i + 1: (
                _QUEUES[0] if i < 13 else _QUEUES[1 + (i - 13) % 3],
                title_of(subj[i]),
                self.people[i % 6],
            )
            for i in range(28)
        }
        self.add("home", "/", lambda r: self.home())
        for qn in _QUEUES:
            self.add(
                f"q{qn}",
                self.qurl(qn),
                lambda r, qn=qn: self.results({"Query": self.qsql(qn)}, True),
            )
        self.add(
            "qGeneral2",
            self.qurl(_QUEUES[0]) + "&Page=2",
            lambda r: self.results({"Query": self.qsql(_QUEUES[0]), "Page": "2"}, True),
        )
        for i in self.t:
            self.add(f"t{i}", f"/Ticket/Display.html?id={i}", lambda r, i=i: self.ticket(i, ""))

    def qsql(self, qn: str) -> str:
        return f"Queue = '{qn}' AND Status = '__Active__'"

    def qurl(self, qn: str) -> str:
        return "/Search/Results.html?Query=" + pq(self.qsql(qn))

    def link(self, path: str, p: dict[str, str]) -> str:
        keys = ["Query", "OrderBy", "Order", "RowsPerPage", "Page", "PrimaryGroupBy", "ChartStyle"]
        return path + "?" + "&".join(f"{k}={pq(p[k])}" for k in keys if k in p)

    def home(self) -> str:
        links = [(self.qurl(qn), f"{qn}: active tickets") for qn in _QUEUES]
        return self.html("RT at a glance", "home", ul(links))

    def hits(self, p: dict[str, str]) -> list[int]:
        query = p.get("Query", "")
        out = [
            i
            for i, (qn, _, who) in self.t.items()
            if (f"Queue = '{qn}'" in query or "Queue =" not in query)
            and ("Requestor" not in query or who in query)
        ]
        for k, c in enumerate(_CLAUSES):
            for _ in range(query.count(c)):
                out = [i for i in out if (i * 7 + k) % 4]
        order = p.get("OrderBy", "id").split("|")[0]
        out.sort(
            key=lambda i: (
                str(self.t[i][_COLS.index(order) % 3]) if order in _COLS[1:] else f"{i:04d}"
            )
        )
        if p.get("Order", "ASC").startswith("DESC"):
            out.reverse()
        return out

    def results(self, p: dict[str, str], canonical: bool = False) -> str:
        hits = self.hits(p)
        rows, page = max(1, num(p, "RowsPerPage", 10)), max(1, num(p, "Page", 1))
        shown = [
            (f"/Ticket/Display.html?id={i}", f"#{i} {self.t[i][1]}")
            for i in hits[(page - 1) * rows : page * rows]
        ]
        nav: list[tuple[str, str]] = [("/", "Home")]

        def sw(**kw: str) -> str:
            cur = {k: v for k, v in p.items() if k != "Page"}
            cur.update(kw)
            if cur.get("Page") == "1":
                del cur["Page"]
            return self.link("/Search/Results.html", cur)

        if page * rows < len(hits):
            nav.append((sw(Page=str(page + 1)), "Next page"))
        if page > 1:
            nav.append((sw(Page=str(page - 1)), "Previous page"))
        keys = [k for k in p.get("OrderBy", "").split("|") if k]
        orders = p.get("Order", "").split("|")
        for c in _COLS:
            first = keys[0] if keys else ""
            o = "DESC" if first == c and orders[0] == "ASC" else "ASC"
            new = [c, *[k for k in keys if k != c]][:4]
            nav.append((sw(OrderBy="|".join(new), Order="|".join([o, *orders[1 : len(new)]])), c))
        nav += [(sw(RowsPerPage=str(n)), f"{n} rows") for n in (10, 25, 50) if n != rows]
        q = p.get("Query", "")
        nav += [(sw(Query=f"{q} AND {c}"), f"Add: {c}") for c in _CLAUSES]
        nav += [
            (
                self.link(
                    "/Search/Chart.html",
                    {"Query": q, "PrimaryGroupBy": "Status", "ChartStyle": "bar"},
                ),
                "Chart",
            )
        ]
        nav += [
            (self.link("/Search/Results.rdf", {"Query": q}), "RSS"),
            (self.link("/Search/Results.tsv", {"Query": q}), "Spreadsheet"),
        ]
        title = ("Found tickets" if not canonical else q.split("'")[1] + " tickets") + (
            f" (page {page})" if page > 1 else ""
        )
        key = f"res{q}{page}" if canonical else f"res{len(q) % 5}"
        return self.html(title, key, ul(shown + nav), 30, 80)

    def ticket(self, i: int, view: str) -> str:
        qn, subj, who = self.t[i]
        links = [(self.qurl(qn), f"Queue: {qn}"), (f"/Ticket/History.html?id={i}", "History")]
        links += [
            (
                f"/Ticket/ShowEmailRecord.html?id={i}"
                f"&Transaction={100 + i * 3}&Attachment={200 + i * 3}",
                "Show email record",
            )
        ]
        links += [
            (
                self.link("/Search/Results.html", {"Query": f"Requestor.EmailAddress = '{who}'"}),
                f"Other tickets by {who}",
            )
        ]
        links += [
            (f"/Ticket/Attachment/{100 + i * 3}/{200 + i * 3}/log.txt", "log.txt"),
            (f"/SelfService/Display.html?id={i}", "Self service view"),
        ]
        if i > 1:
            links.append((f"/Ticket/Display.html?id={i - 1}", f"Refers to #{i - 1}"))
        return self.html(f"#{i}: {subj}" + (f" ({view})" if view else ""), f"t{i}{view}", ul(links))

    def rest(self, req: Req) -> Reply:
        path, p = req.path, qs(req.query)
        if path == "/Search/Results.html":
            return trap(self.results(p))
        if path == "/Search/Chart.html":
            base = {"Query": p.get("Query", "")}
            links = [
                (self.link(path, {**base, "PrimaryGroupBy": g, "ChartStyle": s}), f"{g} {s}")
                for g in ("Status", "Owner", "Queue")
                for s in ("bar", "pie", "table")
            ]
            links.append((self.link("/Search/Results.html", base), "Show results"))
            return trap(
                self.html("Chart", f"chart{len(p.get('Query', '')) % 3}", ul(links), 20, 40)
            )
        i = num(p, "id")
        if i in self.t and path in (
            "/Ticket/History.html",
            "/Ticket/ShowEmailRecord.html",
            "/Ticket/Display.html",
        ):
            return trap(self.ticket(i, path.split("/")[-1].split(".")[0]))
        return not_found()


# ----------------------------------------------------------------------------------------
# MyBB 1.8, a model-engineering forum. Forums forumdisplay.php?fid= (one with a real
# &page=2), threads showthread.php?tid= (three with a real &page=2), members. Posts link
# their permalinks `&pid=<p>#pid<p>` and threaded mode `&mode=threaded&pid=<p>`; threads
# link `&action=lastpost|newpost` (302 to a permalink) and `&action=nextnewest|nextoldest`
# (302 to the neighbour thread); forums link sortby x order x datecut; the header's
# "View New Posts"/"View Today's Posts" and profiles' "Find all posts" go through
# search.php, which 302s to `search.php?action=results&sid=<new 32 hex>` each time.
# robots.txt: the site's, after the MyBB community's usual list (prefix lines only:
# calendar, posting, printing, private messages, misc.php, ...).
# ----------------------------------------------------------------------------------------

_FORUMS = ["Workshop", "Locomotives", "Buy and sell", "Site news"]
_SORTBY = ["subject", "lastpost", "starter", "started", "rating", "replies", "views"]
_DATECUT = [1, 5, 10, 20, 50, 75, 100, 365, 9999]


class MyBB(Base):
    """MyBB: post permalinks, threaded mode, forum sort/datecut, search ids per request."""

    name = "mybb"
    kind = "MyBB 1.8: pid permalinks, threaded mode, sortby/order/datecut, fresh search sids"
    theme = "forum"
    brand = "Model Engineering Forum"
    robots_disallow: ClassVar[list[str]] = [
        "/calendar.php",
        "/newreply.php",
        "/newthread.php",
        "/printthread.php",
        "/sendthread.php",
        "/private.php",
        "/usercp.php",
        "/misc.php",
        "/online.php",
        "/reputation.php",
        "/report.php",
        "/member.php?action=emailuser",
        "/member.php?action=login",
        "/member.php?action=register",
    ]

    def make(self) -> None:
        subj = slugs(self.key("th"), 22, self.v, 3)
        self.users = slugs(self.key("u"), 5, self.v, 1)
        fids = [1] * 4 + [2] * 12 + [3] * 3 + [4] * 3
        self.th = {
            i + 1: (fids[i], title_of(subj[i]), 12 if i in (0, 5, 9) else 2 + i % 5)
            for i in range(22)
        }
        self.sids: set[str] = set()
        self.add("index", "/", lambda r: self.index())
        self.add("members", "/memberlist.php", lambda r: self.memberlist())
        for f in range(1, 5):
            self.add(f"f{f}", f"/forumdisplay.php?fid={f}", lambda r, f=f: self.forum(f, {}))
        self.add("f2p2", "/forumdisplay.php?fid=2&page=2", lambda r: self.forum(2, {"page": "2"}))
        for t, (_, _, n) in self.th.items():
            self.add(f"t{t}", f"/showthread.php?tid={t}", lambda r, t=t: self.thread(t, 1, "", 0))
            if n > 10:
                self.add(
                    f"t{t}p2",
                    f"/showthread.php?tid={t}&page=2",
                    lambda r, t=t: self.thread(t, 2, "", 0),
                )
        for k, u in enumerate(self.users):
            self.add(
                f"u{u}", f"/member.php?action=profile&uid={k + 1}", lambda r, k=k: self.profile(k)
            )

    def header(self) -> list[tuple[str, str]]:
        return [
            ("/", "Forum index"),
            ("/search.php?action=getnew", "View New Posts"),
            ("/search.php?action=getdaily", "View Today's Posts"),
            ("/memberlist.php", "Member List"),
            ("/calendar.php", "Calendar"),
            ("/misc.php?action=help", "Help"),
            ("/member.php?action=login", "Login"),
        ]

    def index(self) -> str:
        return self.html(
            "Model Engineering Forum",
            "index",
            ul(
                self.header()
                + [(f"/forumdisplay.php?fid={f}", n) for f, n in enumerate(_FORUMS, 1)]
            ),
        )

    def memberlist(self) -> str:
        return self.html(
            "Member List",
            "members",
            ul(
                self.header()
                + [
                    (f"/member.php?action=profile&uid={k + 1}", title_of(u))
                    for k, u in enumerate(self.users)
                ]
            ),
        )

    def profile(self, k: int) -> str:
        links = [
            (f"/search.php?action=finduser&uid={k + 1}", "Find all posts"),
            (f"/search.php?action=findthreads&uid={k + 1}", "Find all threads"),
        ]
        links += [
            (f"/private.php?action=send&uid={k + 1}", "Send PM"),
            (f"/member.php?action=emailuser&uid={k + 1}", "Email"),
        ]
        return self.html(
            f"Profile of {title_of(self.users[k])}", f"u{k}", ul(self.header() + links)
        )

    def forum(self, f: int, q: dict[str, str]) -> str:
        ts = [t for t, (ff, _, _) in self.th.items() if ff == f]
        sortby, order = q.get("sortby", "lastpost"), q.get("order", "desc")
        ts.sort(
            key=lambda t: (
                self.th[t][1] if sortby == "subject" else str(self.rng(sortby + str(t)).random())
            )
        )
        if order == "asc":
            ts.reverse()
        cut = num(q, "datecut", 9999)
        ts = [t for t in ts if cut >= 100 or t % 3]
        page = max(1, num(q, "page", 1))
        links = [
            (f"/showthread.php?tid={t}", self.th[t][1]) for t in ts[(page - 1) * 10 : page * 10]
        ]
        plain = set(q) <= {"page"}
        base = (
            f"/forumdisplay.php?fid={f}"
            if plain
            else f"/forumdisplay.php?fid={f}&sortby={sortby}&order={order}&datecut={cut}"
        )
        if page * 10 < len(ts):
            links.append((f"{base}&page={page + 1}", "Next"))
        if page > 1:
            links.append((base if page == 2 else f"{base}&page={page - 1}", "Previous"))
        links += [
            (f"/forumdisplay.php?fid={f}&sortby={s}&order={order}&datecut={cut}", f"Sort by {s}")
            for s in _SORTBY
        ]
        links += [
            (f"/forumdisplay.php?fid={f}&sortby={sortby}&order={o}&datecut={cut}", o)
            for o in ("asc", "desc")
        ]
        links += [
            (f"/forumdisplay.php?fid={f}&sortby={sortby}&order={order}&datecut={d}", f"{d} days")
            for d in _DATECUT
        ]
        links += [(f"/newthread.php?fid={f}", "Post Thread")]
        title = (
            _FORUMS[f - 1]
            + (f" (page {page})" if page > 1 else "")
            + ("" if plain else f" [{sortby} {order} {cut}]")
        )
        key = f"f{f}p{page}" if plain else f"fx{f}{page}"
        return self.html(
            title, key, ul(self.header() + links), 30 if not plain else 60, 60 if not plain else 160
        )

    def thread(self, t: int, page: int, mode: str, pid: int) -> str:
        f, subj, n = self.th[t]
        first = t * 100
        posts = range(first + (page - 1) * 10, first + min(n, page * 10))
        links = [(f"/forumdisplay.php?fid={f}", _FORUMS[f - 1])]
        if n > 10:
            links.append(
                (
                    f"/showthread.php?tid={t}&page=2" if page == 1 else f"/showthread.php?tid={t}",
                    "Page 2" if page == 1 else "Page 1",
                )
            )
        for p in posts if mode != "threaded" else range(first, first + n):
            u = (p + t) % 5 + 1
            links += [
                (f"/showthread.php?tid={t}&pid={p}#pid{p}", f"#{p - first + 1}"),
                (f"/showthread.php?tid={t}&mode=threaded&pid={p}", "threaded"),
                (f"/member.php?action=profile&uid={u}", title_of(self.users[u - 1])),
                (f"/newreply.php?tid={t}&replyto={p}", "Reply"),
            ]
        links += [
            (f"/showthread.php?tid={t}&action={a}", a)
            for a in ("lastpost", "newpost", "nextnewest", "nextoldest")
        ]
        links += [
            (f"/printthread.php?tid={t}", "Printable Version"),
            (f"/sendthread.php?tid={t}", "Send thread"),
        ]
        title = (
            subj
            + (f" (page {page})" if page > 1 else "")
            + (f" [{mode} {pid}]" if mode or pid else "")
        )
        return self.html(title, f"t{t}p{page}{mode}{pid}", ul(self.header() + links))

    def results(self, sid: str, q: dict[str, str]) -> str:
        k = int(sid[:4], 16)
        ts = [1 + (k + j * 5) % 22 for j in range(6)]
        links = [(f"/showthread.php?tid={t}", self.th[t][1]) for t in ts]
        links += [
            (f"/search.php?action=results&sid={sid}&sortby={s}&order={o}", f"{s} {o}")
            for s in ("lastpost", "starter", "forum", "replies")
            for o in ("asc", "desc")
        ]
        return self.html("Search results", f"sr{k % 7}", ul(self.header() + links), 20, 40)

    def rest(self, req: Req) -> Reply:
        path, q = req.path, qs(req.query)
        if path == "/search.php":
            if q.get("action") == "results" and q.get("sid", "") in self.sids:
                return trap(self.results(q["sid"], q))
            if q.get("action") in ("getnew", "getdaily", "finduser", "findthreads"):
                sid = self.fresh(32)
                with self._lock:
                    self.sids.add(sid)
                return redirect(f"search.php?action=results&sid={sid}")
            return not_found()
        if path == "/forumdisplay.php" and num(q, "fid") in range(1, 5):
            return trap(self.forum(num(q, "fid"), {k: v for k, v in q.items() if k != "fid"}))
        t = num(q, "tid")
        if path != "/showthread.php" or t not in self.th:
            return not_found()
        n, a = self.th[t][2], q.get("action", "")
        if a in ("lastpost", "newpost"):
            p = t * 100 + n - 1
            return redirect(f"showthread.php?tid={t}&pid={p}#pid{p}")
        if a in ("nextnewest", "nextoldest"):
            nxt = t + (1 if a == "nextnewest" else -1)
            if nxt not in self.th:
                return trap(self.html("Error", "err", ul(self.header()), 10, 20))
            return redirect(f"showthread.php?tid={nxt}")
        pid = num(q, "pid")
        if pid and not t * 100 <= pid < t * 100 + n:
            return not_found()
        page = 2 if pid - t * 100 >= 10 else max(1, min(2, num(q, "page", 1)))
        return trap(self.thread(t, page, q.get("mode", ""), pid))
