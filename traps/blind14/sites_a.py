"""blind14 sites, part a: a self-hosted Warehouse (PyPI) index with its test instance,
an arXiv-style preprint server with its export mirror, a webtrees family tree, and the
control."""

from __future__ import annotations

import re
from typing import ClassVar

from .common import (
    B14,
    Reply,
    Req,
    not_found,
    num,
    qlist,
    qs,
    quote_plus,
    slugs,
    title_of,
    trap,
    ul,
)

# ----------------------------------------------------------------------------------------
# A self-hosted Warehouse (the software behind PyPI) on host 0, and its "test" instance on
# host 1 (own home and help pages; every project and search again). Projects
# `/project/<name>/`, releases `/project/<name>/<version>/` (the latest release's URL is
# the project page again), maintainers `/user/<name>/`. Search `/search/?q=&o=&c=&page=`:
# every classifier in the sidebar appends one more `&c=` (in click order), four sorts,
# "Next" without end; search results write project names as uploaded
# (`/project/Copper_Harbour/`), which Warehouse serves as the same project. Real pages in
# the family: three classifier browse pages `/search/?c=<classifier>` and the first one's
# `&page=2` (two projects are listed only there). robots.txt: accounts, manage, the
# legacy JSON API, the simple index, includes, admin.
# ----------------------------------------------------------------------------------------

_CLS = (
    "Topic :: Scientific/Engineering",
    "Topic :: System :: Archiving",
    "Framework :: Pytest",
    "Programming Language :: Python :: 3.12",
    "License :: OSI Approved :: MIT License",
    "Operating System :: POSIX :: Linux",
    "Development Status :: 4 - Beta",
    "Intended Audience :: Developers",
    "Typing :: Typed",
    "Environment :: Console",
)
_SORTS = ("", "-created", "created", "trending")
_BROWSE = {0: ([0, 1, 4], [5, 6]), 1: ([2, 3, 7], []), 2: ([0, 2, 4], [])}


def surl(q: str = "", o: str = "", cs: tuple[str, ...] = (), page: int = 1) -> str:
    parts = [f"q={quote_plus(q)}"] if q else []
    parts += [f"o={quote_plus(o)}"] if o else []
    parts += [f"c={quote_plus(c)}" for c in cs]
    parts += [f"page={page}"] if page > 1 else []
    return "/search/?" + "&".join(parts)


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


class Pypi(B14):
    """Warehouse: classifier filters appended per click, display-name aliases, test host."""

    name = "pypi"
    kind = "Warehouse (PyPI) index + test host: search &c= classifiers appended, name aliases"
    theme = "archive"
    brand = "Harbour Package Index"
    hosts = 2
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/"), (1, "/")]
    robots_disallow: ClassVar[list[str]] = [
        "/account/",
        "/manage/",
        "/pypi/",
        "/simple/",
        "/_includes/",
        "/admin/",
    ]

    def make(self) -> None:
        self.projs = slugs(self.key("p"), 8, self.v, 2)
        self.users = slugs(self.key("u"), 3, self.v, 1)
        self.vers = {p: [f"{1 + i % 3}.{k}.0" for k in range(3)] for i, p in enumerate(self.projs)}
        self.add("home", "/", lambda r: self.home())
        self.add("help", "/help/", lambda r: self.html("Help", "help", ul([("/", "Home")])))
        self.add("sponsors", "/sponsors/", lambda r: self.thin("Sponsors", "sp", [("/", "Home")]))
        for i, p in enumerate(self.projs):
            self.add(f"p{p}", f"/project/{p}/", lambda r, i=i: self.project(i, ""))
            for v in self.vers[p][:-1]:
                self.add(f"p{p}{v}", f"/project/{p}/{v}/", lambda r, i=i, v=v: self.project(i, v))
        for u in self.users:
            self.add(f"u{u}", f"/user/{u}/", lambda r, u=u: self.user(u))
        for k, (_, p2) in _BROWSE.items():
            cs = (_CLS[k],)
            self.add(f"c{k}", surl(cs=cs), lambda r, cs=cs: self.search("", "", cs, 1, ""))
            if p2:
                self.add(
                    f"c{k}p2", surl(cs=cs, page=2), lambda r, cs=cs: self.search("", "", cs, 2, "")
                )
        t_links = [("/", "Test index home"), ("/help/", "Help")]
        self.add(
            "thome", "/", lambda r: self.thin("Test index", "thome", t_links + self.plinks()), 1
        )
        self.add("thelp", "/help/", lambda r: self.html("Using the test index", "thelp", ""), 1)

    def plinks(self, idx: list[int] | None = None, display: bool = False) -> list[tuple[str, str]]:
        out = []
        for i in range(8) if idx is None else idx:
            p = self.projs[i]
            shown = title_of(p).replace(" ", "_") if display else p
            out.append((f"/project/{shown}/", title_of(p)))
        return out

    def home(self) -> str:
        links = self.plinks([0, 1, 2, 3])
        links += [(surl(cs=(_CLS[k],)), _CLS[k]) for k in _BROWSE]
        links += [("/help/", "Help"), ("/sponsors/", "Sponsors"), ("/account/login/", "Log in")]
        links += [("/manage/projects/", "Your projects"), (self.bases[1] + "/", "Test index")]
        return self.html("Find, install and publish packages", "home", ul(links), 40, 120)

    def project(self, i: int, v: str) -> str:
        p = self.projs[i]
        links = [(f"/project/{p}/{x}/", f"Release {x}") for x in reversed(self.vers[p])]
        links.append((f"/project/{p}/{self.vers[p][-1]}/#files", "Download files"))
        links += [(surl(cs=(_CLS[(i + k) % 10],)), _CLS[(i + k) % 10]) for k in (0, 4)]
        links += [(f"/user/{self.users[i % 3]}/", self.users[i % 3])]
        links += [(f"/pypi/{p}/json", "JSON"), (f"/manage/project/{p}/", "Manage")]
        title = f"{p} {v or self.vers[p][-1]}"
        return self.html(title, f"p{p}{v}", ul(links), 70, 200)

    def user(self, u: str) -> str:
        idx = [i for i in range(8) if i % 3 == self.users.index(u)]
        return self.html(f"Profile of {u}", f"u{u}", ul(self.plinks(idx)), 20, 60)

    def search(self, q: str, o: str, cs: tuple[str, ...], page: int, key: str) -> str:
        k = _CLS.index(cs[0]) if len(cs) == 1 and not q and not o else -1
        if k in _BROWSE and not key:
            idx = _BROWSE[k][page - 1]
        else:
            h = sum(map(ord, key))
            idx = [(h + j * 3) % 8 for j in range(3)]
        links = self.plinks(idx, display=bool(key))
        links += [(surl(q, s, cs, 1), f"Sort: {s or 'relevance'}") for s in _SORTS if s != o]
        links += [(surl(q, o, (*cs, c), 1), "+ " + c) for c in _CLS if c not in cs]
        links.append((surl(q, o, cs, page + 1), "Next"))
        if page > 1:
            links.append((surl(q, o, cs, page - 1), "Previous"))
        title = f"Search: {q or 'all'} [{'; '.join(cs)}] page {page}"
        return self.html(title, key or f"s{k}{page}", ul(links), 20, 70)

    def rest(self, req: Req) -> Reply:
        p = req.path
        if p == "/search/":
            pairs = qlist(req.query)
            q = next((v for k, v in pairs if k == "q"), "")
            o = next((v for k, v in pairs if k == "o"), "")
            cs = tuple(v for k, v in pairs if k == "c" and v in _CLS)
            return trap(self.search(q, o, cs, max(1, num(qs(req.query), "page", 1)), req.key))
        m = re.fullmatch(r"/project/([A-Za-z0-9_.-]+)/(?:([0-9.]+)/)?", p)
        if m and _norm(m.group(1)) in self.projs:
            i = self.projs.index(_norm(m.group(1)))
            v = m.group(2) or ""
            if v and v not in self.vers[self.projs[i]]:
                return not_found()
            return trap(self.project(i, "" if v == self.vers[self.projs[i]][-1] else v))
        got = self.copy(req) if req.host_index == 1 else None
        return got or not_found()


# ----------------------------------------------------------------------------------------
# An arXiv-style preprint server (host 0) and its export mirror (host 1, with its own home
# and bulk-data help pages; every abstract and listing again). Listings
# `/list/<cat>/recent?skip=&show=` (show 5..2000, "next" without end) and monthly
# `/list/<cat>/<yymm>` with previous/next month arrows both ways; abstracts `/abs/<id>`
# with their per-paper family: `/abs/<id>v<n>` (the latest version is the abstract
# again), `?context=<cat>`, `/format/<id>`, `/prevnext?id=&function=prev|next&context=`
# (a neighbour's abstract again), author searches `/a/<surname>_1` (a graph of
# co-authors). Real pages in the family: `/list/<cat>/recent?skip=2&show=2` (the page
# after the first; two papers only there), the previous month `/list/<cat>/2610` (a paper
# only there), and `/abs/<id>v1` of revised papers (the first version's own abstract).
# robots.txt: auth, user, pdf, src, e-print, api, submit.
# ----------------------------------------------------------------------------------------

_CATS = ("cs.DL", "cs.IR", "cs.NI")


def _mm(yymm: str, k: int) -> str:
    yy, mm = int(yymm[:2]), int(yymm[2:])
    y = (1900 if yy >= 91 else 2000) + yy
    n = y * 12 + mm - 1 + k
    return f"{(n // 12) % 100:02d}{n % 12 + 1:02d}"


class Arxiv(B14):
    """arXiv: skip/show listings, endless month arrows, per-paper versions and prevnext."""

    name = "arxiv"
    kind = "arXiv-style listings + export mirror: skip/show, months, /abs/<id>vN, prevnext"
    theme = "science"
    brand = "harXiv"
    hosts = 2
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/"), (1, "/")]
    robots_disallow: ClassVar[list[str]] = [
        "/auth/",
        "/user/",
        "/pdf/",
        "/src/",
        "/e-print/",
        "/api/",
        "/submit",
    ]

    def make(self) -> None:
        self.ids: dict[str, list[str]] = {}
        self.title: dict[str, str] = {}
        self.nver: dict[str, int] = {}
        self.auth = [title_of(s) for s in slugs(self.key("a"), 9, self.v, 1)]
        names = slugs(self.key("t"), 15, self.v, 4)
        for ci, c in enumerate(_CATS):
            ids = [f"2611.{1000 + ci * 377 + k * 41:05d}" for k in range(4)]
            ids.append(f"2610.{2000 + ci * 211:05d}")
            self.ids[c] = ids
            for k, x in enumerate(ids):
                self.title[x] = title_of(names[ci * 5 + k])
                self.nver[x] = 2 if (ci + k) % 3 == 0 else 1
        self.add("home", "/", lambda r: self.home())
        self.add(
            "archive", "/archive/cs", lambda r: self.thin("Computer Science", "ar", self.clinks())
        )
        self.add("help", "/help/", lambda r: self.thin("Help", "help", [("/", "Home")]))
        for c in _CATS:
            self.add(f"r{c}", f"/list/{c}/recent", lambda r, c=c: self.recent(c, 0, 2, ""))
            t = f"/list/{c}/recent?skip=2&show=2"
            self.add(f"r2{c}", t, lambda r, c=c: self.recent(c, 2, 2, ""))
            for ym in ("2611", "2610"):
                self.add(
                    f"m{c}{ym}", f"/list/{c}/{ym}", lambda r, c=c, ym=ym: self.month(c, ym, "")
                )
        for x in self.title:
            self.add(f"a{x}", f"/abs/{x}", lambda r, x=x: self.abs(x, 0))
            if self.nver[x] == 2:
                self.add(f"a{x}v1", f"/abs/{x}v1", lambda r, x=x: self.abs(x, 1))
        e_links = [(f"/abs/{x}", x) for x in list(self.title)[::3]] + [("/help/bulk_data", "Bulk")]
        self.add("ehome", "/", lambda r: self.thin("export mirror", "ehome", e_links), 1)
        self.add("ebulk", "/help/bulk_data", lambda r: self.html("Bulk data", "ebulk", ""), 1)

    def clinks(self) -> list[tuple[str, str]]:
        out = [(f"/list/{c}/recent", f"{c} recent") for c in _CATS]
        return out + [(f"/list/{c}/2611", f"{c} this month") for c in _CATS]

    def home(self) -> str:
        links = [*self.clinks(), ("/archive/cs", "Computer Science"), ("/help/", "Help")]
        links += [("/user/", "My account"), ("/submit", "Submit"), (self.bases[1] + "/", "Export")]
        return self.html("harXiv e-print archive", "home", ul(links), 50, 130)

    def plinks(self, xs: list[str]) -> list[tuple[str, str]]:
        return [(f"/abs/{x}", self.title[x]) for x in xs]

    def recent(self, c: str, skip: int, show: int, key: str) -> str:
        links = self.plinks(self.ids[c][:4][skip : skip + show])
        links.append((f"/list/{c}/recent?skip={skip + show}&show={show}", "next"))
        links += [
            (f"/list/{c}/recent?skip={skip}&show={n}", f"show {n}") for n in (5, 25, 100, 2000)
        ]
        return self.html(f"{c} recent, from {skip}", key or f"r{c}{skip}", ul(links), 20, 60)

    def month(self, c: str, ym: str, key: str) -> str:
        xs = {"2611": self.ids[c][:4], "2610": self.ids[c][4:]}.get(ym, [])
        links = self.plinks(xs)
        links += [
            (f"/list/{c}/{_mm(ym, -1)}", "previous month"),
            (f"/list/{c}/{_mm(ym, 1)}", "next"),
        ]
        links += [(f"/list/{c}/{ym}?skip=0&show={n}", f"show {n}") for n in (25, 2000)]
        return self.html(f"{c} listing {ym}", key or f"m{c}{ym}", ul(links), 20, 80)

    def abs(self, x: str, v: int) -> str:
        c = next(k for k, xs in self.ids.items() if x in xs)
        i = list(self.title).index(x)
        links = [(f"/list/{c}/recent", c)]
        links += [(f"/abs/{x}v{n}", f"[v{n}]") for n in range(1, self.nver[x] + 1)]
        links += [
            (f"/format/{x}", "Other formats"),
            (f"/pdf/{x}", "PDF"),
            (f"/abs/{x}?context={c}", c),
        ]
        links += [(f"/prevnext?id={x}&function={f}&context={c}", f) for f in ("prev", "next")]
        links += [
            (f"/a/{self.auth[(i + k) % 9].lower()}_1", self.auth[(i + k) % 9]) for k in (0, 4)
        ]
        title = f"[{x}{'v1' if v else ''}] {self.title[x]}"
        return self.html(title, f"a{x}{v}", ul(links), 80, 200)

    def rest(self, req: Req) -> Reply:
        p, q = req.path, qs(req.query)
        m = re.fullmatch(r"/list/([a-z]+\.[A-Z]+)/(recent|\d{4})", p)
        if m and m.group(1) in _CATS:
            c = m.group(1)
            if m.group(2) == "recent":
                body = self.recent(c, max(0, num(q, "skip")), max(1, num(q, "show", 25)), req.key)
                return trap(body)
            if "01" <= m.group(2)[2:] <= "12":
                return trap(self.month(c, m.group(2), req.key))
        m = re.fullmatch(r"/abs/(\d{4}\.\d{5})(?:v(\d+))?", p)
        if m and m.group(1) in self.title:
            x, v = m.group(1), int(m.group(2) or 0)
            if v > self.nver[x]:
                return not_found()
            return trap(self.abs(x, 1 if v == 1 < self.nver[x] else 0))
        if p == "/prevnext" and q.get("id") in self.title and q.get("context") in _CATS:
            xs = self.ids[q["context"]]
            i = xs.index(q["id"]) if q["id"] in xs else 0
            return trap(self.abs(xs[(i + (1 if q.get("function") == "next" else -1)) % 5], 0))
        m = re.fullmatch(r"/format/(\d{4}\.\d{5})", p)
        if m and m.group(1) in self.title:
            links = [(f"/abs/{m.group(1)}", "Abstract"), (f"/src/{m.group(1)}", "Source")]
            return self.tr(req, f"Formats for {m.group(1)}", links)
        m = re.fullmatch(r"/a/([a-z]+)_(\d+)", p)
        if m and title_of(m.group(1)) in self.auth:
            i = self.auth.index(title_of(m.group(1)))
            xs = [x for j, x in enumerate(self.title) if (j - i) % 9 in (0, 5)]
            links = [*self.plinks(xs), (f"/a/{m.group(1)}_{int(m.group(2)) + 1}", "Another")]
            links += [(f"/a/{self.auth[(i + k) % 9].lower()}_1", "co-author") for k in (2, 7)]
            return self.tr(req, f"Articles by {title_of(m.group(1))}", links)
        got = self.copy(req) if req.host_index == 1 else None
        return got or not_found()


# ----------------------------------------------------------------------------------------
# A webtrees family tree. Individuals `/tree/harbour/individual/I<n>/<Name>`, families,
# surname lists. Every individual links the same six charts
# (`/<chart>/I<n>?generations=&style=`: generations up without end, four styles, the
# people shown linking their own charts) and a timeline `timeline-chart?xrefs%5B%5D=...`
# whose "Add" links append one more person in click order. Charts link people without the
# name slug (`/individual/I<n>`), the same page again. Real page in the family: the home
# page's pedigree chart `/pedigree-chart/I1?generations=4&style=right`. robots.txt:
# login, register, admin, my-page, edit, reports, exports, messages.
# ----------------------------------------------------------------------------------------

T = "/tree/harbour"
_CHARTS = ("pedigree-chart", "descendants-chart", "ancestors-chart", "fan-chart")
_CHARTS2 = ("hourglass-chart", "compact-tree-chart")
_STYLES = ("right", "left", "up", "down")


class Webtrees(B14):
    """webtrees: six charts x generations x styles under every person, growing timelines."""

    name = "webtrees"
    kind = "webtrees genealogy: charts x generations x style per person, timeline xrefs[] grows"
    theme = "books"
    brand = "Harbour family tree"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, T)]
    robots_disallow: ClassVar[list[str]] = [
        "/login",
        "/register",
        "/admin",
        "/my-page",
        f"{T}/edit",
        f"{T}/report",
        f"{T}/export",
        f"{T}/message",
    ]

    def make(self) -> None:
        self.sur = [title_of(s) for s in slugs(self.key("s"), 4, self.v, 1)]
        given = [title_of(s) for s in slugs(self.key("g"), 18, self.v, 1)]
        self.people = [f"{given[i]} {self.sur[i % 4]}" for i in range(18)]
        self.fams = [(2 * f, 2 * f + 1, [12 + f]) for f in range(6)]
        self.add("home", f"{T}", lambda r: self.home())
        self.add(
            "surnames", f"{T}/surname-list", lambda r: self.thin("Surnames", "sl", self.slinks())
        )
        for s in self.sur:
            self.add(
                f"s{s}", f"{T}/individual-list?surname={s.upper()}", lambda r, s=s: self.slist(s)
            )
        for i in range(18):
            self.add(f"i{i}", self.iurl(i), lambda r, i=i: self.indi(i))
        for f in range(6):
            self.add(f"f{f}", self.furl(f), lambda r, f=f: self.fam(f))
        pc = f"{T}/pedigree-chart/I1?generations=4&style=right"
        self.add("pedigree", pc, lambda r: self.chart("pedigree-chart", 0, 4, "right", "pc"))
        self.add("stats", f"{T}/statistics", lambda r: self.html("Statistics", "st", ""))

    def iurl(self, i: int, slug: bool = True) -> str:
        s = "/" + self.people[i].replace(" ", "-") if slug else ""
        return f"{T}/individual/I{i + 1}{s}"

    def furl(self, f: int) -> str:
        h, w, _ = self.fams[f]
        hn, wn = self.people[h].replace(" ", "-"), self.people[w].replace(" ", "-")
        return f"{T}/family/F{f + 1}/{hn}-and-{wn}"

    def slinks(self) -> list[tuple[str, str]]:
        return [(f"{T}/individual-list?surname={s.upper()}", s) for s in self.sur]

    def home(self) -> str:
        links = [(self.iurl(i), self.people[i]) for i in range(6)]
        links += [(f"{T}/surname-list", "Surnames"), (f"{T}/statistics", "Statistics")]
        links += [(f"{T}/pedigree-chart/I1?generations=4&style=right", "Pedigree")]
        links += [("/login", "Sign in"), ("/my-page", "My page")]
        return self.html("Harbour family tree", "home", ul(links), 40, 120)

    def slist(self, s: str) -> str:
        links = [(self.iurl(i), self.people[i]) for i in range(18) if i % 4 == self.sur.index(s)]
        links += [(f"{T}/individual-list?surname={s.upper()}&show_all=yes", "Show all")]
        return self.thin(f"Individuals with surname {s}", f"sl{s}", links)

    def indi(self, i: int) -> str:
        links = [
            (self.furl(f), "Family") for f, (h, w, ch) in enumerate(self.fams) if i in (h, w, *ch)
        ]
        links += [(f"{T}/{c}/I{i + 1}?generations=4&style=right", c) for c in _CHARTS + _CHARTS2]
        links.append((f"{T}/timeline-chart?xrefs%5B%5D=I{i + 1}", "Timeline"))
        links += [
            (f"{T}/edit/fact/I{i + 1}", "Edit"),
            (f"{T}/report/individual?xref=I{i + 1}", "Report"),
        ]
        return self.html(self.people[i], f"i{i}", ul(links), 60, 160)

    def fam(self, f: int) -> str:
        h, w, ch = self.fams[f]
        links = [(self.iurl(x), self.people[x]) for x in (h, w, *ch)]
        links.append((f"{T}/timeline-chart?xrefs%5B%5D=I{h + 1}&xrefs%5B%5D=I{w + 1}", "Timeline"))
        return self.html(
            f"Family of {self.people[h]} and {self.people[w]}", f"f{f}", ul(links), 30, 90
        )

    def chart(self, c: str, i: int, g: int, st: str, key: str) -> str:
        shown = [(i + 3 * k + 1) % 18 for k in range(min(g, 6))]
        links = [(self.iurl(x, slug=False), self.people[x]) for x in shown]
        links += [
            (f"{T}/{c}/I{x + 1}?generations={g}&style={st}", f"{c} of {self.people[x]}")
            for x in shown[:3]
        ]
        links.append((f"{T}/{c}/I{i + 1}?generations={g + 1}&style={st}", "+ generation"))
        if g > 2:
            links.append((f"{T}/{c}/I{i + 1}?generations={g - 1}&style={st}", "- generation"))
        links += [(f"{T}/{c}/I{i + 1}?generations={g}&style={s}", s) for s in _STYLES if s != st]
        links += [(f"{T}/{o}/I{i + 1}?generations={g}&style={st}", o) for o in _CHARTS if o != c]
        return self.html(f"{c} of {self.people[i]}, {g} generations", key, ul(links), 20, 60)

    def rest(self, req: Req) -> Reply:
        p, q = req.path, qs(req.query)
        m = re.fullmatch(rf"{T}/([a-z-]+-chart)/I(\d+)", p)
        if m and m.group(1) in _CHARTS + _CHARTS2 and 1 <= int(m.group(2)) <= 18:
            g, st = max(1, num(q, "generations", 4)), q.get("style", "right")
            return trap(self.chart(m.group(1), int(m.group(2)) - 1, g, st, req.key))
        if p == f"{T}/timeline-chart":
            xs = [v for k, v in qlist(req.query) if k == "xrefs[]"]
            ids = [int(x[1:]) - 1 for x in xs if re.fullmatch(r"I\d+", x) and 1 <= int(x[1:]) <= 18]
            if ids:
                base = f"{T}/timeline-chart?" + "&".join(f"xrefs%5B%5D=I{x + 1}" for x in ids)
                links = [(self.iurl(x), self.people[x]) for x in ids]
                last = ids[-1]
                for k in (1, 4, 6, 9):
                    o = (last + k) % 18
                    links.append((f"{base}&xrefs%5B%5D=I{o + 1}", f"Add {self.people[o]}"))
                links.append((f"{base}&scale={num(q, 'scale', 2) + 1}", "Zoom in"))
                return self.tr(req, "Timeline: " + ", ".join(self.people[x] for x in ids), links)
        m = re.fullmatch(rf"{T}/individual/I(\d+)(/.*)?", p)
        if m and 1 <= int(m.group(1)) <= 18:
            return trap(self.indi(int(m.group(1)) - 1))
        if p == f"{T}/individual-list" and q.get("surname", "").title() in self.sur:
            links = [(self.iurl(i), self.people[i]) for i in range(18)]
            links += [
                (f"{T}/individual-list?alpha={ch}&surname={q['surname']}", ch) for ch in "ABCDEFGH"
            ]
            return self.tr(req, f"All individuals: {q['surname']}", links)
        return not_found()


# ----------------------------------------------------------------------------------------
# The control: a rowing club's static site. No traps.
# ----------------------------------------------------------------------------------------


class Control(B14):
    """No traps: home, about, four sections of six pages, one disallowed link."""

    name = "control"
    kind = "no traps (static site)"
    theme = "events"
    brand = "Tidemill Rowing Club"
    robots_disallow: ClassVar[list[str]] = ["/members/"]

    def make(self) -> None:
        self.secs = {
            s: slugs(self.key(s), 6, self.v, 2) for s in ("crews", "regattas", "news", "learn")
        }
        self.add("home", "/", lambda r: self.html("Tidemill Rowing Club", "home", ul(self.nav())))
        self.add("about", "/about/", lambda r: self.html("About", "about", ul([("/", "Home")])))
        for s, ps in self.secs.items():
            links = [(f"/{s}/{p}/", title_of(p)) for p in ps]
            self.add(f"s{s}", f"/{s}/", lambda r, s=s, x=links: self.html(title_of(s), s, ul(x)))
            for p in ps:
                back = [(f"/{s}/", title_of(s)), ("/", "Home")]
                self.add(
                    f"p{s}{p}",
                    f"/{s}/{p}/",
                    lambda r, s=s, p=p, b=back: self.html(title_of(p), f"p{s}{p}", ul(b)),
                )

    def nav(self) -> list[tuple[str, str]]:
        return [(f"/{s}/", title_of(s)) for s in self.secs] + [
            ("/about/", "About"),
            ("/members/", "Members"),
        ]
