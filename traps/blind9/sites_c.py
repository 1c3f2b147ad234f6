"""Blind9 sites, part C: a VuFind library catalogue, Munin with munin-cgi-html, and a
control."""

from __future__ import annotations

import re
from typing import ClassVar
from urllib.parse import quote_plus

from traps.blind.kit import THEMES, Reply, Req, doc, not_found, redirect, slugs, title_of
from traps.blind.kit import words_for as wf
from traps.blind2.common import bar, esc, prose, qlist, trap, ul

from .common import Pages

# ----------------------------------------------------------------------------------------
# VuFind 9 library catalogue. Every executed search is saved in the search table and its
# id appended to the record links of its results (/Record/<id>?sid=<search id>), so each
# results page mints a fresh sid; record pages opened with a sid add "Previous/Next
# result" links with it. Results pages add facet filters (`filter[]=`, click order),
# `view=list|grid`, `limit=`, `page=`; records have tabs (/Holdings, /Description, /TOC,
# /UserComments: the same record page with another tab open), /Cite, /Export?style=;
# author links open /Author/Home?author= (real) and author searches `type=Author`.
# Legit look-alikes: the catalogue's real results pages 2 and 3, the author pages.
# robots.txt: the library's own (the account and cart areas).
# ----------------------------------------------------------------------------------------

_FACETS = {
    "format": ["Book", "eBook", "Map", "Journal"],
    "language": ["English", "Welsh", "French"],
}


class VuFind(Pages):
    """VuFind: ?sid= search ids minted per results page, facets, record tabs."""

    name = "vufind"
    kind = "VuFind: record links carry a fresh ?sid= per results page; filter[], tabs, authors"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/Search/Home")]
    robots_disallow: ClassVar[list[str]] = ["/MyResearch/", "/Cart/", "/Search/History"]

    def setup(self) -> None:
        self.v = wf("books")
        self.search_id = 4_100_000
        titles = slugs(self.key("ti"), 20, THEMES["books"] + THEMES["travel"], 3)
        self.authors = [
            title_of(s).replace(" ", ", ", 1) for s in slugs(self.key("au"), 5, self.v, 2)
        ]
        rng = self.rng("rec")
        self.recs = {}
        for i, t in enumerate(titles):
            rid = f"{rng.randint(100000, 999999)}"
            self.recs[rid] = {
                "title": title_of(t),
                "author": self.authors[i % 5],
                "format": _FACETS["format"][i % 4],
                "language": _FACETS["language"][(i // 4) % 3],
            }
        self.ids = list(self.recs)
        self.add("home", "/Search/Home", lambda r: self.home())
        for n in (1, 2, 3):
            t = "/Search/Results?lookfor=&type=AllFields" + (f"&page={n}" if n > 1 else "")
            self.add(f"all{n}", t, self.results)
        for k, rid in enumerate(self.ids):
            self.add(f"r{rid}", f"/Record/{rid}", lambda r, k=k: self.record(k, ""))
        for a in self.authors:
            self.add(f"a{a}", f"/Author/Home?author={quote_plus(a)}", lambda r, a=a: self.author(a))

    def chrome(self, title: str, body: str) -> str:
        nav = bar(
            [
                ("/Search/Home", "Catalogue"),
                ("/Search/Results?lookfor=&type=AllFields", "All items"),
                ("/MyResearch/Home", "Your account"),
                ("/Cart/Home", "Book bag"),
                ("/Search/History", "Search history"),
            ]
        )
        return doc(f"{title} :: Dyfed Valley Libraries", f"<header>{nav}</header>{body}")

    def home(self) -> str:
        new = ul([(f"/Record/{rid}", self.recs[rid]["title"]) for rid in self.ids[:6]])
        body = "<h1>Dyfed Valley Libraries catalogue</h1>" + prose(self, "home", self.v)
        return self.chrome("Search Home", body + "<h2>New in the catalogue</h2>" + new)

    def new_sid(self) -> str:
        step = 1 + self.tick() % 7
        with self._lock:
            self.search_id += step
            return str(self.search_id)

    def results(self, req: Req) -> str:
        pairs = qlist(req.query)
        d = dict(pairs)
        lookfor, typ = d.get("lookfor", ""), d.get("type", "AllFields")
        filters = [v for k, v in pairs if k == "filter[]"]
        limit = (
            int(d["limit"])
            if d.get("limit", "").isdigit() and d["limit"] in ("8", "20", "50")
            else 8
        )
        page = int(d["page"]) if d.get("page", "").isdigit() and int(d["page"]) > 0 else 1
        hits = [
            r
            for r in self.ids
            if not lookfor
            or lookfor.strip('"') in self.recs[r][(typ == "Author" and "author") or "title"]
        ]
        for f in filters:
            k, _, v = f.partition(":")
            hits = [r for r in hits if self.recs[r].get(k) == v.strip('"')]
        sid = self.new_sid()
        shown = hits[(page - 1) * limit : page * limit]
        base = [(k, v) for k, v in pairs if k != "page"]
        qs_ = lambda ps: "/Search/Results?" + "&".join(f"{k}={quote_plus(v)}" for k, v in ps)  # noqa: E731
        rows = []
        for r in shown:
            rec = self.recs[r]
            rows.append((f"/Record/{r}?sid={sid}", rec["title"]))
            rows.append((f"/Author/Home?author={quote_plus(rec['author'])}", rec["author"]))
        pages = (len(hits) + limit - 1) // limit
        pager = bar(
            [
                (qs_([*base, ("page", str(n))]) if n > 1 else qs_(base), str(n))
                for n in range(1, pages + 1)
            ]
        )
        side = []
        for k, vals in _FACETS.items():
            for v in vals:
                f = f'{k}:"{v}"'
                if f not in filters:
                    side.append((qs_([*base, ("filter[]", f)]), f"{k}: {v}"))
        side += [(qs_([*base, ("view", w)]), f"view {w}") for w in ("list", "grid")]
        side += [(qs_([*base, ("limit", n)]), f"{n} per page") for n in ("20", "50")]
        body = f"<h1>Showing {len(shown)} of {len(hits)} results for {esc(lookfor or 'everything')}</h1>"  # noqa: E501
        return self.chrome("Search Results", body + ul(rows) + f"<p>{pager}</p>" + ul(side))

    def record(self, k: int, sid: str, tab: str = "") -> str:
        rid = self.ids[k]
        rec = self.recs[rid]
        links = [
            (f"/Author/Home?author={quote_plus(rec['author'])}", rec["author"]),
            (
                f"/Search/Results?lookfor={quote_plus(rec['author'])}&type=Author",
                "More by this author",
            ),
        ]
        links += [
            (f"/Record/{rid}/{t}", t) for t in ("Holdings", "Description", "TOC", "UserComments")
        ]
        links += [
            (f"/Record/{rid}/Cite", "Cite this"),
            (f"/Record/{rid}/Export?style=RIS", "Export RIS"),
        ]
        links += [(f"/Record/{rid}/Save", "Save to list")]
        sim = [self.ids[(k + j) % 20] for j in (1, 2, 3, 5)]
        links += [(f"/Record/{s}", "Similar: " + self.recs[s]["title"]) for s in sim]
        if sid:
            links += [
                (f"/Record/{self.ids[(k + d) % 20]}?sid={sid}", lab)
                for d, lab in ((-1, "Previous"), (1, "Next"))
            ]
        body = f"<h1>{esc(rec['title'])}</h1><p>{rec['format']}, {rec['language']}</p>"
        body += prose(self, "rec" + rid, self.v) + (f"<p>Tab: {tab}</p>" if tab else "") + ul(links)
        return self.chrome(rec["title"], body)

    def author(self, a: str) -> str:
        recs = [r for r in self.ids if self.recs[r]["author"] == a]
        sid = self.new_sid()
        body = f"<h1>{esc(a)}</h1>" + prose(self, "au" + a, self.v, 60, 120)
        body += ul([(f"/Record/{r}?sid={sid}", self.recs[r]["title"]) for r in recs])
        body += ul([(f"/Record/{r}", "Catalogue record: " + self.recs[r]["title"]) for r in recs])
        return self.chrome(a, body)

    def rest(self, req: Req) -> Reply:
        if req.path == "/":
            return redirect("/Search/Home")
        if req.path == "/Search/Results":
            return trap(self.results(req))
        if req.path == "/Author/Home":
            a = dict(qlist(req.query)).get("author", "")
            return trap(self.author(a)) if a in self.authors else not_found()
        m = re.match(r"^/Record/(\d+)(?:/(\w+))?$", req.path)
        if m and m.group(1) in self.recs:
            k, tab = self.ids.index(m.group(1)), m.group(2) or ""
            if tab == "Export":
                rep = trap(f"TY  - BOOK\nTI  - {self.recs[m.group(1)]['title']}\nER  -\n")
                rep.ctype = "application/x-research-info-systems"
                return rep
            if tab in ("", "Holdings", "Description", "TOC", "UserComments", "Cite"):
                return trap(self.record(k, dict(qlist(req.query)).get("sid", ""), tab))
        return not_found()


# ----------------------------------------------------------------------------------------
# Munin 2.0 with munin-cgi-html (pages rendered per request) and the same pages also
# generated statically under /munin/ by munin-html. Each plugin page links its day/
# week/month/year graphs to dynazoom, /munin/static/dynazoom.html?cgiurl_graph=
# /munin-cgi/munin-cgi-graph&plugin_name=<d>/<h>/<p>&size_x=800&size_y=400
# &start_epoch=<now - period>&stop_epoch=<now> — the epochs are taken from the clock at
# each render, so every response mints new zoom URLs (dynazoom.html is one static file:
# any query gives the same page, with links back and to the zoomed-out period). The
# CGI tree /munin-cgi/munin-cgi-html/... serves every static page again (relative links:
# a full copy). Legit look-alikes: the real comparison pages (day/week/month/year) and
# every host's and plugin's own page. robots.txt: the server's, for /munin-cgi/ graphs
# only (munin-cgi-graph), not for munin-cgi-html.
# ----------------------------------------------------------------------------------------

_PERIODS = {"day": 86400, "week": 7 * 86400, "month": 31 * 86400, "year": 400 * 86400}
_PLUGINS = ["cpu", "load", "memory", "df", "if_eth0", "diskstats_iops"]


class Munin(Pages):
    """Munin: dynazoom epochs minted per render, munin-cgi-html copies of the static tree."""

    name = "munin"
    kind = "Munin 2.0: dynazoom start/stop epochs fresh per render, munin-cgi-html copies"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/munin/")]
    robots_disallow: ClassVar[list[str]] = ["/munin-cgi/munin-cgi-graph/"]

    def setup(self) -> None:
        self.v = wf("docs")
        self.clock = 1_796_000_000
        self.doms = {
            "harbour.lan": ["gate", "tidebox", "wharf"],
            "office.lan": ["desk1", "printer"],
        }
        self.add("idx", "/munin/", lambda r: self.page(r, "/munin/", ""))
        self.add("prob", "/munin/problems.html", lambda r: self.page(r, "/munin/", "problems.html"))
        for d, hs in self.doms.items():
            self.add(f"d{d}", f"/munin/{d}/", lambda r, d=d: self.page(r, "/munin/", f"{d}/"))
            for per in _PERIODS:
                self.add(
                    f"c{d}{per}",
                    f"/munin/{d}/comparison-{per}.html",
                    lambda r, d=d, per=per: self.page(r, "/munin/", f"{d}/comparison-{per}.html"),
                )
            for h in hs:
                self.add(
                    f"h{h}",
                    f"/munin/{d}/{h}.{d}/",
                    lambda r, d=d, h=h: self.page(r, "/munin/", f"{d}/{h}.{d}/"),
                )
                for p in _PLUGINS[: 3 if h in ("printer", "desk1") else 6]:
                    self.add(
                        f"p{h}{p}",
                        f"/munin/{d}/{h}.{d}/{p}.html",
                        lambda r, d=d, h=h, p=p: self.page(r, "/munin/", f"{d}/{h}.{d}/{p}.html"),
                    )

    def now(self) -> int:
        step = 17 + self.tick() % 300
        with self._lock:
            self.clock += step
            return self.clock

    def zoom(self, plug: str, per: str, now: int) -> str:
        start = now - _PERIODS[per]
        return (
            "/munin/static/dynazoom.html?cgiurl_graph=/munin-cgi/munin-cgi-graph&plugin_name={plug}"
            f"&size_x=800&size_y=400&start_epoch={start}&stop_epoch={now}"
        )

    def page(self, req: Req, root: str, rel: str) -> str:
        """Page `rel` of the tree rooted at `root` (/munin/ or the CGI's)."""
        up = "../" * rel.count("/")
        parts = rel.split("/")
        crumbs = bar([(up or "./", "Overview"), (f"{up}problems.html", "Problems")])
        body = f"<div>{crumbs}</div>"
        if rel in ("", "problems.html"):
            body += prose(self, "munin" + rel, self.v, 40, 80)
            body += ul(
                [(f"{d}/", d) for d in self.doms]
                + [(f"{d}/{h}.{d}/", h) for d, hs in self.doms.items() for h in hs]
            )
        elif len(parts) == 2 and parts[1] == "":
            d = parts[0]
            body += f"<h1>{d}</h1>" + prose(self, "dom" + d, self.v, 40, 80)
            body += ul(
                [(f"{h}.{d}/", h) for h in self.doms[d]]
                + [(f"comparison-{p}.html", f"comparison by {p}") for p in _PERIODS]
            )
        elif len(parts) == 2:
            d, per = parts[0], parts[1][len("comparison-") : -5]
            body += f"<h1>{d} by {per}</h1>" + prose(self, f"cmp{d}{per}", self.v, 40, 80)
            now = self.now()
            for h in self.doms[d]:
                body += ul([(f"{h}.{d}/{p}.html", f"{h} {p}") for p in _PLUGINS[:3]])
                body += ul(
                    [
                        (self.zoom(f"{d}/{h}.{d}/{p}", per, now), f"zoom {h} {p}")
                        for p in _PLUGINS[:3]
                    ]
                )
        elif parts[2] == "":
            d, h = parts[0], parts[1].split(".")[0]
            plugs = _PLUGINS[: 3 if h in ("printer", "desk1") else 6]
            body += (
                f"<h1>{h}</h1>"
                + prose(self, "host" + h, self.v, 40, 80)
                + ul([(f"{p}.html", p) for p in plugs])
            )
        else:
            d, h, p = parts[0], parts[1].split(".")[0], parts[2][:-5]
            now = self.now()
            body += f"<h1>{p} on {h}</h1>" + prose(self, f"pl{h}{p}", self.v, 40, 80)
            body += ul(
                [(self.zoom(f"{d}/{h}.{d}/{p}", per, now), f"{p} by {per}") for per in _PERIODS]
            )
        body += (
            f'<p><a href="{root.replace("/munin/", "/munin-cgi/munin-cgi-html/")}{rel}">dynamic view</a></p>'  # noqa: E501
            if root == "/munin/"
            else ""
        )
        return doc(f"Munin :: {rel or 'overview'}", body)

    def rest(self, req: Req) -> Reply:
        if req.path in ("/", "/munin"):
            return redirect("/munin/")
        if req.path == "/munin/static/dynazoom.html":
            q = dict(qlist(req.query))
            plug = q.get("plugin_name", "")
            try:
                s, e = int(q.get("start_epoch", "0")), int(q.get("stop_epoch", "0"))
            except ValueError:
                return not_found()
            span = max(e - s, 3600)
            body = f"<h1>Zooming {esc(plug)}</h1><p>{s} - {e}</p>"
            out = (
                f"dynazoom.html?cgiurl_graph=/munin-cgi/munin-cgi-graph&plugin_name={plug}"
                f"&size_x=800&size_y=400&start_epoch={s - span}&stop_epoch={e + span}"
            )
            body += f'<a href="{esc(out)}">Zoom out x2</a> <a href="../{esc(plug)}.html">back</a>'
            return trap(doc("Munin dynazoom", body))
        m = re.match(r"^/munin-cgi/munin-cgi-html/(.*)$", req.path)
        if m and not req.query and self.pages.get((0, "/munin/" + m.group(1))) is not None:
            return trap(self.page(req, "/munin-cgi/munin-cgi-html/", m.group(1)))
        return not_found()


# ----------------------------------------------------------------------------------------
# Control: no traps. A small trust's site: home, about, four sections of seven pages,
# and one robots-disallowed link.
# ----------------------------------------------------------------------------------------


class Control(Pages):
    """A trap-free site."""

    name = "control"
    kind = "no traps: home, about, 4 sections x 7 pages, one disallowed link"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/members/"]

    def setup(self) -> None:
        self.v = wf("travel")
        self.secs = {
            s: slugs(self.key(s), 7, self.v, 2) for s in ("walks", "ferries", "huts", "history")
        }
        self.add("home", "/", lambda r: self.page("Coastal Paths Trust", "home", self.nav()))
        self.add("about", "/about/", lambda r: self.page("About", "about", ""))
        for s, ps in self.secs.items():
            self.add(
                s,
                f"/{s}/",
                lambda r, s=s, ps=ps: self.page(
                    title_of(s), s, ul([(f"/{s}/{p}/", title_of(p)) for p in ps])
                ),
            )
            for p in ps:
                self.add(
                    f"{s}/{p}",
                    f"/{s}/{p}/",
                    lambda r, s=s, p=p: self.page(title_of(p), f"{s}/{p}", ""),
                )

    def nav(self) -> str:
        return ul(
            [
                ("/about/", "About"),
                *[(f"/{s}/", title_of(s)) for s in self.secs],
                ("/members/", "Members"),
            ]
        )

    def page(self, title: str, key: str, extra: str) -> str:
        body = f'<h1>{esc(title)}</h1>{prose(self, key, self.v)}{extra}<p><a href="/">Home</a></p>'
        return doc(f"{title} - Coastal Paths Trust", body)


# ----------------------------------------------------------------------------------------
# A wiki site (host 0) and a kiwix-serve library (host 1) that serves ZIM snapshots of
# it: the 2026-04 and 2026-10 ZIMs of the wiki (copies of host 0's pages, with relative
# article links, under /content/<book>/A/<Title>), and a ZIM of its own, a book
# collection whose pages exist nowhere else (legit). The taskbar on every ZIM page links
# the library, the book's main page and /random?content=<book> (302 to a different
# article each time), and "search" /search?content=<book>&pattern=<word>&start=N pages.
# robots.txt: the wiki's own (edit URLs); kiwix-serve's allows everything.
# ----------------------------------------------------------------------------------------

_WIKIZIMS = ["harbourwiki_en_all_2026-04", "harbourwiki_en_all_2026-10"]
_BOOKZIM = "harbourbooks_en_2025-06"


class Kiwix(Pages):
    """kiwix-serve twin: ZIM snapshots of the wiki on a second host, random redirects."""

    name = "kiwix"
    kind = "kiwix-serve twin host: two ZIM snapshots copying the wiki, /random, search pages"
    hosts = 2
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/wiki/Main_Page"), (1, "/")]
    robots_disallow: ClassVar[list[str]] = ["/w/index.php"]

    def robots_txt(self, req: Req) -> str:
        return "User-agent: *\nDisallow:\n" if req.host_index == 1 else super().robots_txt(req)

    def setup(self) -> None:
        self.v = wf("travel")
        self.arts = [title_of(s).replace(" ", "_") for s in slugs(self.key("ar"), 16, self.v, 2)]
        self.books = [
            title_of(s).replace(" ", "_") for s in slugs(self.key("bk"), 8, THEMES["books"], 2)
        ]
        self.add("main", "/wiki/Main_Page", lambda r: self.wiki("Main_Page", "/wiki/"), 0)
        for t in self.arts:
            self.add("w" + t, f"/wiki/{t}", lambda r, t=t: self.wiki(t, "/wiki/"), 0)
        self.add("lib", "/", lambda r: self.library(), 1)
        self.add("bidx", f"/content/{_BOOKZIM}/A/index", lambda r: self.book("index"), 1)
        for b in self.books:
            self.add("b" + b, f"/content/{_BOOKZIM}/A/{b}", lambda r, b=b: self.book(b), 1)

    def wiki(self, t: str, pre: str, zim: str = "") -> str:
        k = self.arts.index(t) if t in self.arts else -1
        links = self.arts if t == "Main_Page" else [self.arts[(k + j) % 16] for j in (1, 3, 7)]
        body = f"<h1>{esc(t.replace('_', ' '))}</h1>" + prose(self, "w" + t, self.v)
        body += ul([(f"{pre}{x}", x.replace("_", " ")) for x in links])
        if zim:
            body = self.taskbar(zim) + body
        else:
            body += f'<a href="/w/index.php?title={t}&amp;action=edit">Edit</a>'
            body += f' <a href="{self.url(1, "/")}">Offline copies (Kiwix)</a>'
        return doc(f"{t.replace('_', ' ')} - Harbour Wiki", body)

    def taskbar(self, zim: str) -> str:
        main = "Main_Page" if zim in _WIKIZIMS else "index"
        return (
            "<div>"
            + bar(
                [
                    ("/", "Library"),
                    (f"/content/{zim}/A/{main}", "Home"),
                    (f"/random?content={zim}", "Random"),
                    (f"/search?content={zim}&pattern=harbour&start=0", "Search 'harbour'"),
                ]
            )
            + "</div>"
        )

    def library(self) -> str:
        body = "<h1>Kiwix library</h1>" + prose(self, "lib", self.v, 40, 80)
        body += ul(
            [(f"/content/{z}/A/Main_Page", z) for z in _WIKIZIMS]
            + [(f"/content/{_BOOKZIM}/A/index", _BOOKZIM)]
        )
        return doc("Welcome to Kiwix Server", body)

    def book(self, b: str) -> str:
        body = (
            self.taskbar(_BOOKZIM)
            + f"<h1>{esc(b.replace('_', ' '))}</h1>"
            + prose(self, "b" + b, THEMES["books"] * 3 + self.v)
        )
        body += ul([(x, x.replace("_", " ")) for x in (self.books if b == "index" else ["index"])])
        return doc(b.replace("_", " "), body)

    def rest(self, req: Req) -> Reply:
        if req.host_index == 0:
            return redirect("/wiki/Main_Page") if req.path in ("/", "/wiki/") else not_found()
        q = dict(qlist(req.query))
        zim = q.get("content", "")
        if req.path == "/random" and zim in [*_WIKIZIMS, _BOOKZIM]:
            pool = self.arts if zim in _WIKIZIMS else self.books
            return redirect(f"/content/{zim}/A/{pool[self.tick() % len(pool)]}")
        if req.path == "/search" and zim in [*_WIKIZIMS, _BOOKZIM]:
            start = int(q["start"]) if q.get("start", "").isdigit() else 0
            pool = self.arts if zim in _WIKIZIMS else self.books
            hits = [pool[(start + j) % len(pool)] for j in range(5)]
            body = (
                self.taskbar(zim)
                + f"<h1>Results {start + 1}-{start + 5} of about {start + 500}</h1>"
            )
            body += ul([(f"/content/{zim}/A/{h}", h) for h in hits])
            body += f'<a href="/search?content={zim}&amp;pattern=harbour&amp;start={start + 5}">Next</a>'  # noqa: E501
            return trap(doc("Search: harbour", body))
        m = re.match(r"^/content/([\w.-]+)/A/(\w+)$", req.path)
        if m and m.group(1) in _WIKIZIMS and (m.group(2) in self.arts or m.group(2) == "Main_Page"):
            return trap(self.wiki(m.group(2), "", m.group(1)))
        m = re.match(r"^/([\w.-]+)/A/(\w+)$", req.path)
        if m and m.group(1) in [*_WIKIZIMS, _BOOKZIM]:
            return redirect(f"/content{req.path}", 301)
        return not_found()
