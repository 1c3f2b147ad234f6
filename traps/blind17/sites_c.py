"""blind17 sites, part c: a Yellow Pages-style business directory with its mobile host,
a SourceForge-style project host, an IMDb-style film database with its mobile host, and an
eBay-style auction site."""

from __future__ import annotations

from typing import ClassVar

from .common import (
    B17,
    Reply,
    Req,
    day,
    h,
    month,
    moved,
    not_found,
    num,
    qjoin,
    qpairs,
    qs,
    redirect,
    title_of,
    ul,
    unquote,
)

# ----------------------------------------------------------------------------------------
# A Yellow Pages-style business directory (2 hosts: www and the mobile site). Real:
# six city/category listings `/<city-st>/<category>` and the second page of one
# (`?page=2`, only from the first), 14 businesses `/<city-st>/mip/<name>-<id>`, the
# category and city indexes, about; the mobile host's own home, near-me, app and help
# pages. Listings link every business again with `?lid=<token per response>` (copies),
# sorts `?s=` in click order with `refinements=` comma lists growing per click,
# neighbourhoods `/<city>/<category>/<hood>`; businesses link "people also viewed"
# made-up businesses in made-up cities and categories (an endless graph between
# `/<city>/mip/<x>`, `/<city>/<cat>` and `/<city>/<cat>/<hood>`). The mobile host answers
# every www page again (copies) and the traps too. robots.txt: account, reviews
# writing, the ad click redirector, the API.
# ----------------------------------------------------------------------------------------

_YP_S = ("distance", "name", "average_rating", "relevance")
_YP_R = ("open_now", "accepts_cards", "free_parking", "family_owned", "delivery")


class Yellowpages(B17):
    """Business directory + mobile host: lid= copies, sort/refinement lists, made-up graph."""

    name = "yellowpages"
    kind = "Yellow Pages-style directory + mobile host: lid= tokens, refinements, biz graph"
    theme = "shop"
    brand = "Harbour Yellow Pages"
    hosts = 2
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/"), (1, "/")]
    robots_disallow: ClassVar[list[str]] = ["/account/", "/writeareview/", "/adclick", "/api/"]

    def make(self) -> None:
        self.ct = [f"{c}-{s}" for c, s in zip(self.made("ct", 2, 1), ("or", "wa"), strict=True)]
        self.cat = self.made("cat", 3, 1)
        self.bz = [
            (k % 2, k % 3, s, 5104000 + 313 * k) for k, s in enumerate(self.made("bz", 14, 2))
        ]
        nav = [("/categories", "Categories"), ("/cities", "Cities"), ("/about", "About")]
        nav += [("/account/login", "Sign in")]
        self.nav = nav
        home = nav + [(f"/{c}/{x}", f"{title_of(x)} in {c}") for c in self.ct for x in self.cat]
        self.add(
            "home", "/", lambda r: self.html("Find local businesses", "home", ul(home), 20, 60)
        )
        cl = [(f"/{self.ct[0]}/{x}", title_of(x)) for x in self.cat]
        self.add("cats", "/categories", lambda r: self.thin("Categories", "cats", cl))
        ci = [(f"/{c}/{self.cat[0]}", c) for c in self.ct]
        self.add("cits", "/cities", lambda r: self.thin("Cities", "cits", ci))
        self.add("about", "/about", lambda r: self.html("About us", "about", ul(nav[:2]), 60, 140))
        for i, c in enumerate(self.ct):
            for j, x in enumerate(self.cat):
                self.add(f"l{c}{x}", f"/{c}/{x}", lambda r, i=i, j=j: self.listing(i, j, 1))
        self.add("l2", f"/{self.ct[0]}/{self.cat[0]}?page=2", lambda r: self.listing(0, 0, 2))
        for k in range(14):
            self.add(f"b{k}", self.burl(k), lambda r, k=k: self.biz(k))
        mnav = [("/near-me", "Near me"), ("/app", "Get the app"), ("/help", "Help")]
        mnav += [(f"/{self.ct[0]}/{x}", title_of(x)) for x in self.cat]
        self.add(
            "mhome",
            "/",
            lambda r: self.thin("YP mobile", "mhome", [*mnav, (self.url(0, "/"), "Full site")]),
            1,
        )
        for t in ("/near-me", "/app", "/help"):
            self.add(
                "m" + t,
                t,
                lambda r, t=t: self.html(title_of(t[1:]), "m" + t, ul(mnav[:3]), 30, 80),
                1,
            )

    def burl(self, k: int) -> str:
        c, _, s, i = self.bz[k]
        return f"/{self.ct[c]}/mip/{s}-{i}"

    def listing(self, i: int, j: int, page: int) -> str:
        idx = [k for k in range(14) if self.bz[k][0] == i and self.bz[k][1] == j]
        if (i, j) == (0, 0):
            idx = idx[:2] if page == 1 else idx[2:]
        base = f"/{self.ct[i]}/{self.cat[j]}"
        links = [(self.burl(k), title_of(self.bz[k][2])) for k in idx]
        links += [(f"{self.burl(k)}?lid={self.fresh(10)}", "more info") for k in idx]
        pairs = [("page", "2")] if page == 2 else []
        links += self.switches(base, pairs)
        links.append((f"{base}?page={page + 1}", "next"))
        return self.html(
            f"{title_of(self.cat[j])} in {self.ct[i]}", f"ls{i}{j}{page}", ul(links), 10, 30
        )

    def switches(self, base: str, pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
        out = [(qjoin(base, moved(pairs, "s", s)), s) for s in _YP_S]
        have = [x for x in unquote(dict(pairs).get("refinements", "")).split(",") if x]
        out += [
            (qjoin(base, moved(pairs, "refinements", ",".join([*have, r]))), r)
            for r in _YP_R
            if r not in have
        ]
        return out

    def biz(self, k: int) -> str:
        c, j, s, _ = self.bz[k]
        links = [
            (f"/{self.ct[c]}/{self.cat[j]}", title_of(self.cat[j])),
            (self.burl((k + 2) % 14), "also viewed"),
        ]
        links += [
            *self.fakes(f"b{k}", 2),
            (f"/writeareview/{k}", "Write a review"),
            (f"/adclick?b={k}", "Website"),
        ]
        return self.html(title_of(s), f"bz{k}", ul(links), 40, 100)

    def fakes(self, seed: str, n: int) -> list[tuple[str, str]]:
        rng = self.rr(seed)
        out = []
        for s in self.made("fb" + seed, n, 3):
            a, b, c = s.split("-")
            city = f"{a}-{rng.choice(('or', 'wa', 'id', 'ca'))}"
            out.append((f"/{city}/mip/{b}-{c}-{rng.randrange(10**6, 10**7)}", title_of(f"{b}-{c}")))
            out.append((f"/{city}/{c}", f"{title_of(c)} in {city}"))
        return out

    def rest(self, req: Req) -> Reply:
        got = self.copy(req, 0)
        if got is not None:
            return got
        parts = req.path.strip("/").split("/")
        pairs = qpairs(req.query)
        if len(parts) == 3 and parts[1] == "mip" and req.query.startswith("lid="):
            got = self.copy(req, 0, req.path)
            if got is not None:
                return got
        if len(parts) in (2, 3) and all(parts):
            links = self.fakes(req.target, 4)
            if parts[1] != "mip":
                base = "/" + "/".join(parts[:2])
                links += self.switches(req.path, pairs)
                links.append(
                    (
                        qjoin(
                            req.path, moved(pairs, "page", str(num(qs(req.query), "page", 1) + 1))
                        ),
                        "next",
                    )
                )
                links += [(f"{base}/{w}", title_of(w)) for w in self.made("hd" + req.target, 2, 1)]
            return self.tr(req, title_of(parts[-1]) + " - " + parts[0], links)
        return not_found()


# ----------------------------------------------------------------------------------------
# A SourceForge-style project host. Real: four projects (summary, files, one release
# folder, support), reviews of two and the second reviews page of one, download stats of
# two and the previous month's stats of one (`?dates=2026-10-01+to+2026-10-31`), the
# software directory and three categories, two developer profiles. Traps: every file's
# `/download` 302s to `?use_mirror=<m>&r=<token>` (minted per visit) whose page links
# other mirrors with new tokens; directory facets appended as path segments
# `/directory/<cat>/os:linux/license:gpl/...` with `?sort=`/`?page=`; stats months both
# ways; `?source=navbar|directory` copies of project pages; made-up projects and
# developers (`/projects/<x>/`, `/u/<y>/profile`, `/projects/<x>/files/<v>/`).
# robots.txt: auth, the REST API, user settings, the admin pages.
# ----------------------------------------------------------------------------------------

_SF_FACETS = {
    "os": ("linux", "windows", "mac"),
    "license": ("gpl", "mit", "apache"),
    "language": ("c", "python", "java"),
    "audience": ("developers", "sysadmins"),
}


class Sourceforge(B17):
    """SourceForge-style: download 302 tokens, path facets appended, stats months, copies."""

    name = "sourceforge"
    kind = "SourceForge-style host: mirror tokens via 302, path facets, stats months, ?source="
    theme = "docs"
    brand = "SourceHarbour"
    robots_disallow: ClassVar[list[str]] = ["/auth/", "/rest/", "/settings/", "/p/admin/"]

    def make(self) -> None:
        self.pj = self.made("pj", 4, 1)
        self.ver = [f"{1 + k}.{k * 3}.{k + 1}" for k in range(4)]
        self.dc = self.made("dc", 3, 1)
        self.dev = self.made("dv", 2, 1)
        nav = [
            ("/directory/", "Browse"),
            *[(f"/projects/{p}/", p) for p in self.pj],
            ("/auth/", "Log in"),
        ]
        self.nav = nav
        self.add("home", "/", lambda r: self.html("SourceHarbour", "home", ul(nav), 20, 60))
        dl = [(f"/directory/{c}/", title_of(c)) for c in self.dc]
        self.add("dir", "/directory/", lambda r: self.thin("Browse software", "dir", dl))
        for k, c in enumerate(self.dc):
            self.add(f"dc{c}", f"/directory/{c}/", lambda r, k=k: self.cat(k))
        for k, p in enumerate(self.pj):
            base = f"/projects/{p}"
            self.add(f"p{p}", base + "/", lambda r, k=k: self.proj(k))
            self.add(f"f{p}", base + "/files/", lambda r, k=k: self.files(k))
            self.add(f"v{p}", f"{base}/files/{self.ver[k]}/", lambda r, k=k: self.folder(k))
            self.add(
                f"s{p}",
                base + "/support",
                lambda r, k=k, p=p, b=base: self.thin(f"{p} support", f"su{k}", [(b + "/", p)]),
            )
        for k in range(2):
            p = self.pj[k]
            self.add(f"r{p}", f"/projects/{p}/reviews/", lambda r, k=k: self.reviews(k, 1))
            self.add(
                f"t{p}", f"/projects/{p}/files/stats/timeline", lambda r, k=k: self.stats(k, "")
            )
            self.add(f"u{k}", f"/u/{self.dev[k]}/profile", lambda r, k=k: self.profile(k))
        self.add("r2", f"/projects/{self.pj[0]}/reviews/?page=2", lambda r: self.reviews(0, 2))
        self.add(
            "t2",
            f"/projects/{self.pj[0]}/files/stats/timeline?dates=2026-10-01+to+2026-10-31",
            lambda r: self.stats(0, "2026-10"),
        )

    def plinks(self, idx: list[int], src: str = "") -> list[tuple[str, str]]:
        return [
            (f"/projects/{self.pj[k]}/" + (f"?source={src}" if src else ""), self.pj[k])
            for k in idx
        ]

    def cat(self, k: int) -> str:
        idx = [j for j in range(4) if j % 3 == k or j == 3 - k]
        links = self.plinks(idx) + self.plinks(idx, "directory")
        base = f"/directory/{self.dc[k]}/"
        links += [
            (f"{base}{f}:{v}/", f"{f}: {v}") for f, vals in _SF_FACETS.items() for v in vals[:2]
        ]
        links += [(f"{base}?sort=popular", "popular"), (f"{base}?page=2", "next")]
        return self.html(title_of(self.dc[k]), f"cat{k}", ul(links), 10, 30)

    def proj(self, k: int) -> str:
        p = self.pj[k]
        links = [(f"/projects/{p}/files/", "Files"), (f"/projects/{p}/support", "Support")]
        links += [
            (f"/projects/{p}/files/{self.ver[k]}/{p}-{self.ver[k]}.tar.gz/download", "Download")
        ]
        if k < 2:
            links += [
                (f"/projects/{p}/reviews/", "Reviews"),
                (f"/projects/{p}/files/stats/timeline", "Stats"),
            ]
        links += [
            (f"/u/{self.dev[k % 2]}/profile", self.dev[k % 2]),
            *self.plinks([(k + 1) % 4], "navbar"),
        ]
        return self.html(p, f"pj{k}", ul(links), 50, 120)

    def files(self, k: int) -> str:
        p = self.pj[k]
        links = [
            (f"/projects/{p}/files/{self.ver[k]}/", self.ver[k]),
            (f"/projects/{p}/files/stats/timeline", "stats"),
        ]
        return self.thin(f"{p} files", f"fi{k}", links)

    def folder(self, k: int) -> str:
        p, v = self.pj[k], self.ver[k]
        links = [
            (f"/projects/{p}/files/{v}/{p}-{v}{x}/download", f"{p}-{v}{x}")
            for x in (".tar.gz", ".zip", "-win64.exe")
        ]
        links.append((f"/projects/{p}/files/", "parent"))
        return self.thin(f"{p} {v}", f"fo{k}", links)

    def reviews(self, k: int, page: int) -> str:
        links = [
            (f"/projects/{self.pj[k]}/", self.pj[k]),
            (f"/projects/{self.pj[k]}/reviews/?page={page + 1}", "next"),
        ]
        links.append((f"/projects/{self.pj[k]}/reviews/?sort=usefulness", "most useful"))
        return self.html(f"{self.pj[k]} reviews, page {page}", f"rv{k}{page}", ul(links), 60, 140)

    def stats(self, k: int, ym: str) -> str:
        cur = ym or "2026-11"
        base = f"/projects/{self.pj[k]}/files/stats/timeline"
        links = [
            (self.dates_url(base, month(cur, -1)), "previous month"),
            (f"/projects/{self.pj[k]}/", "project"),
        ]
        return self.thin(f"Downloads {cur}", f"stt{k}{ym}", links)

    def profile(self, k: int) -> str:
        links = [*self.plinks([k, k + 2]), (f"/u/{self.dev[k]}/profile?tab=activity", "activity")]
        return self.thin(f"{self.dev[k]}'s profile", f"pr{k}", links)

    def dates_url(self, base: str, ym: str) -> str:
        last = day(month(ym, 1) + "-01", -1)
        return f"{base}?dates={ym}-01+to+{last}"

    def fakes(self, seed: str, n: int) -> list[tuple[str, str]]:
        out = []
        for s in self.made("fp" + seed, n, 2):
            a, b = s.split("-")
            out.append((f"/projects/{a}{b}/", a + b))
            out.append((f"/u/{b}{h(s) % 1000}/profile", b))
        return out

    def rest(self, req: Req) -> Reply:
        p, q, pairs = req.path, qs(req.query), qpairs(req.query)
        parts = p.strip("/").split("/")
        if "source" in q:
            got = self.copy(req, 0, p)
            if got is not None:
                return got
        if p.endswith("/download") and parts[0] == "projects":
            if "use_mirror" not in q:
                return redirect(
                    f"{p}?use_mirror={self.made(str(self.tick()), 1, 1)[0]}&r={self.fresh(16)}"
                )
            links = [
                (f"{p}?use_mirror={m}&r={self.fresh(16)}", m)
                for m in self.made("mir" + req.target, 4, 1)
            ]
            links += self.fakes(req.target, 2)
            return self.tr(req, f"Downloading {parts[-2]}", links)
        if p.endswith("/files/stats/timeline"):
            ym = q.get("dates", "2026-11-01")[:7]
            try:
                links = [
                    (self.dates_url(p, month(ym, s)), lbl)
                    for s, lbl in ((-1, "previous"), (1, "next"))
                ]
            except ValueError:
                return not_found()
            return self.tr(req, f"Downloads {ym}", links + self.fakes(req.target, 3))
        if parts[0] == "directory":
            have = [x for x in parts[2:] if ":" in x]
            base = "/" + "/".join(parts[:2]) + "/" + "".join(x + "/" for x in have)
            links = self.fakes(req.target, 5)
            keys = {x.split(":")[0] for x in have}
            links += [
                (f"{base}{f}:{v}/", v)
                for f, vals in _SF_FACETS.items()
                if f not in keys
                for v in vals
            ]
            links += [(qjoin(base, moved(pairs, "page", str(num(q, "page", 1) + 1))), "next")]
            links += [
                (qjoin(base, moved(pairs, "sort", s)), s) for s in ("popular", "new", "updated")
            ]
            return self.tr(req, "Browse: " + " ".join(parts[1:]), links)
        if parts[0] in ("projects", "u") and len(parts) >= 2:
            nm = parts[1]
            links = self.fakes(req.target, 4)
            links += [
                (f"/projects/{nm}/files/{h(req.target) % 9}.{h(nm) % 20}/", "latest"),
                (f"/projects/{nm}/reviews/?page={num(q, 'page', 1) + 1}", "reviews"),
            ]
            return self.tr(req, f"{nm} {' '.join(parts[2:])}", links)
        return not_found()


# ----------------------------------------------------------------------------------------
# An IMDb-style film database (2 hosts: www and the mobile site). Real: 12 titles
# `/title/tt<7 digits>/`, 8 people `/name/nm<7 digits>/`, three full-credits pages, the
# top chart, two genre searches, news and the release calendar; the mobile host's own
# home, genre index and app pages. Every header, chart and "more like this" link carries
# `?ref_=<place>_<n>` (copies: the page again under each ref_), the mobile host answers
# every www page again; any other tt/nm id is a made-up title or person in an endless
# graph between `/title/tt.../`, `/name/nm.../`, `/title/tt.../episodes?season=N`,
# `/title/tt.../mediaviewer/rm<id>/` and `/name/nm.../mediaindex?page=N`; searches take
# genres, sort, type and `release_date=<from>,<to>` in click order.
# robots.txt: registration, the ad and tracking endpoints, the list and rating writers.
# ----------------------------------------------------------------------------------------

_MV_SRCH = {
    "sort": ("moviemeter,asc", "user_rating,desc", "release_date,desc"),
    "title_type": ("feature", "tv_series", "short"),
    "release_date": ("2000-01-01,2009-12-31", "2010-01-01,2019-12-31", "2020-01-01,"),
}


class Moviedb(B17):
    """IMDb-style: ref_= copies, mobile host copies, made-up title/name graph, search product."""

    name = "moviedb"
    kind = "IMDb-style film database + mobile host: ref_= copies, tt/nm graph, search facets"
    theme = "news"
    brand = "ReelHarbour"
    hosts = 2
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/"), (1, "/")]
    robots_disallow: ClassVar[list[str]] = [
        "/registration/",
        "/tr/",
        "/ap/",
        "/list/_ajax/",
        "/rating/",
    ]

    def make(self) -> None:
        self.tt = [f"tt{4106100 + 2311 * k:07d}" for k in range(12)]
        self.tn = [title_of(s) for s in self.made("tt", 12, 3)]
        self.nm = [f"nm{1203400 + 977 * k:07d}" for k in range(8)]
        self.nn = [title_of(s) for s in self.made("nm", 8, 2)]
        self.gen = ("drama", "comedy")
        nav = [("/chart/top/", "Top 250"), ("/news/", "News"), ("/calendar/", "Release calendar")]
        nav += [(f"/search/title/?genres={g}", title_of(g)) for g in self.gen]
        self.nav = nav
        home = [
            *nav,
            *self.tl(range(0, 6)),
            *self.nl(range(0, 4)),
            ("/registration/signin", "Sign in"),
        ]
        self.add(
            "home",
            "/",
            lambda r: self.html("ReelHarbour", "home", ul(home + self.ref(nav, "nv")), 20, 60),
        )
        self.add("top", "/chart/top/", lambda r: self.chart())
        self.add(
            "news",
            "/news/",
            lambda r: self.html(
                "News",
                "news",
                ul(self.nl(range(4, 8)) + self.ref(self.tl(range(6)), "nw")),
                60,
                140,
            ),
        )
        self.add(
            "cal",
            "/calendar/",
            lambda r: self.thin("Release calendar", "cal", self.tl(range(6, 12))),
        )
        for g in self.gen:
            self.add(f"g{g}", f"/search/title/?genres={g}", lambda r, g=g: self.search(g))
        for k in range(12):
            self.add(f"t{k}", f"/title/{self.tt[k]}/", lambda r, k=k: self.title(k))
        for k in range(3):
            self.add(f"fc{k}", f"/title/{self.tt[k]}/fullcredits", lambda r, k=k: self.credits(k))
        for k in range(8):
            self.add(f"n{k}", f"/name/{self.nm[k]}/", lambda r, k=k: self.person(k))
        mnav = [("/feature/genre/", "Genres"), ("/app", "App"), ("/chart/top/", "Top")]
        self.add(
            "mhome",
            "/",
            lambda r: self.thin("ReelHarbour mobile", "mh", [*mnav, (self.url(0, "/"), "Desktop")]),
            1,
        )
        self.add(
            "mgen",
            "/feature/genre/",
            lambda r: self.thin(
                "Genres", "mg", [(f"/search/title/?genres={g}", g) for g in self.gen]
            ),
            1,
        )
        self.add(
            "mapp", "/app", lambda r: self.html("Get the app", "mapp", ul(mnav[:1]), 40, 90), 1
        )

    def tl(self, idx: range | list[int]) -> list[tuple[str, str]]:
        return [(f"/title/{self.tt[k]}/", self.tn[k]) for k in idx]

    def nl(self, idx: range | list[int]) -> list[tuple[str, str]]:
        return [(f"/name/{self.nm[k]}/", self.nn[k]) for k in idx]

    def ref(self, links: list[tuple[str, str]], place: str) -> list[tuple[str, str]]:
        return [
            (f"{u}{'&' if '?' in u else '?'}ref_={place}_{i}", t) for i, (u, t) in enumerate(links)
        ]

    def chart(self) -> str:
        links = self.tl(range(12)) + self.ref(self.tl(range(12)), "chttp_t")
        links += [
            ("/chart/top/?sort=rank,desc", "rank"),
            ("/chart/top/?sort=us,desc", "release date"),
        ]
        return self.html("Top rated movies", "top", ul(links), 10, 30)

    def title(self, k: int) -> str:
        links = self.nl([k % 8, (k + 3) % 8]) + self.ref(
            self.tl([(k + 1) % 12, (k + 5) % 12]), "tt_sims"
        )
        if k < 3:
            links.append((f"/title/{self.tt[k]}/fullcredits", "Full cast"))
        links += [(f"/title/{self.tt[k]}/mediaviewer/rm{h(self.tt[k]) % 10**9}/", "photo")]
        links += [
            (f"/title/{self.tt[k]}/episodes?season=1", "episodes"),
            ("/rating/" + self.tt[k], "Rate"),
        ]
        return self.html(self.tn[k], f"tt{k}", ul(links), 40, 110)

    def credits(self, k: int) -> str:
        return self.thin(
            f"{self.tn[k]}: full cast",
            f"fc{k}",
            self.nl(range(k, 8, 3)) + self.ref(self.nl(range(8)), "ttfc"),
        )

    def person(self, k: int) -> str:
        links = self.tl([j for j in range(12) if j % 8 == k]) + self.ref(self.tl([k]), "nm_knf")
        links.append((f"/name/{self.nm[k]}/mediaindex?page=1", "photos"))
        return self.html(self.nn[k], f"nm{k}", ul(links), 30, 90)

    def search(self, g: str) -> str:
        links = self.tl(range(0 if g == "drama" else 6, 12 if g != "drama" else 6))
        links += self.facets("/search/title/", [("genres", g)])
        return self.html(f"{title_of(g)} titles", f"s{g}", ul(links), 10, 30)

    def facets(self, path: str, pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
        out = [(qjoin(path, moved(pairs, k, v)), v) for k, vals in _MV_SRCH.items() for v in vals]
        return [
            *out,
            (qjoin(path, moved(pairs, "start", str(num(dict(pairs), "start", 1) + 50))), "next"),
        ]

    def fakes(self, seed: str, n: int) -> list[tuple[str, str]]:
        rng = self.rr(seed)
        out = []
        for j, s in enumerate(self.made("mv" + seed, n, 2)):
            if j % 2:
                out.append((f"/name/nm{rng.randrange(10**7):07d}/", title_of(s)))
            else:
                out.append((f"/title/tt{rng.randrange(10**7):07d}/", title_of(s)))
        return out

    def rest(self, req: Req) -> Reply:
        p, q, pairs = req.path, qs(req.query), qpairs(req.query)
        got = self.copy(req, 0)
        if got is not None:
            return got
        if "ref_" in q:
            got = self.copy(req, 0, qjoin(p, [(k, v) for k, v in pairs if k != "ref_"]))
            if got is not None:
                return got
        parts = p.strip("/").split("/")
        if p.startswith("/search/title"):
            return self.tr(
                req, "Advanced search", self.fakes(req.target, 6) + self.facets(p, pairs)
            )
        if parts[0] in ("title", "name") and len(parts) >= 2 and parts[1][2:].isdigit():
            rid = parts[1]
            links = self.fakes(req.target, 6)
            if parts[0] == "title":
                s = num(q, "season", 1)
                links += [(f"/title/{rid}/episodes?season={s + 1}", f"season {s + 1}")]
                links += [(f"/title/{rid}/mediaviewer/rm{h(req.target) % 10**9}/", "photo")]
            else:
                links += [(f"/name/{rid}/mediaindex?page={num(q, 'page', 1) + 1}", "more photos")]
            name = title_of(self.made("n" + req.target, 1, 3)[0])
            return self.tr(req, f"{name} ({1950 + h(rid) % 76})", links)
        if parts[0] == "chart":
            return self.tr(req, "Top rated", self.fakes(req.target, 8))
        return not_found()


# ----------------------------------------------------------------------------------------
# An eBay-style auction site. Real: four category pages `/b/<Name>/<id>`, 16 listings
# `/itm/<id>`, three sellers `/usr/<name>`, two popular searches `/sch/i.html?_nkw=<w>` and
# the second page of one (`&_pgn=2`), help. Search and category pages link every listing
# again with `?hash=item<hex>&_trksid=<token per response>` (copies), sorts `_sop`,
# `_ipg`, `LH_BIN`/`LH_Auction`, `LH_ItemCondition`, price bands in click order, `_pgn`
# without end; listings link "similar sponsored items" (made-up listings
# `/itm/<slug>/<id>` and `/itm/<id>`), made-up sellers' `/usr/<x>`, their stores
# `/sch/<x>/m.html?_nkw=&_armrs=1&_from=R40&_pgn=` and feedback
# `/fdbk/feedback_profile/<x>?filter=feedback_page:RECEIVED_AS_SELLER&page_id=N`.
# robots.txt: sign-in, bidding and buying, watch list, the ad redirector.
# ----------------------------------------------------------------------------------------

_EB_F = {
    "_sop": ("1", "10", "12", "15", "16"),
    "_ipg": ("60", "120", "240"),
    "LH_BIN": ("1",),
    "LH_Auction": ("1",),
    "LH_ItemCondition": ("1000", "3000"),
    "_udhi": ("20", "50", "100"),
}


class Auction(B17):
    """eBay-style: _trksid copies, search filters in click order, _pgn, made-up sellers."""

    name = "auction"
    kind = "eBay-style auctions: _trksid tokens, _sop/_ipg/LH_ filters, _pgn, seller graph"
    theme = "shop"
    brand = "Harbour Bay"
    robots_disallow: ClassVar[list[str]] = [
        "/signin/",
        "/bfl/",
        "/ws/",
        "/myb/",
        "/itmbid/",
        "/rover/",
    ]

    def make(self) -> None:
        self.cats = [
            (title_of(s).replace(" ", "-"), 11450 + 97 * k)
            for k, s in enumerate(self.made("cat", 4, 2))
        ]
        self.it = [256781000000 + 7331 * k for k in range(16)]
        self.itn = [title_of(s) for s in self.made("it", 16, 4)]
        self.sel = self.made("sl", 3, 1)
        self.kw = self.made("kw", 2, 1)
        nav = [(f"/b/{n}/{i}", n.replace("-", " ")) for n, i in self.cats]
        nav += [(f"/sch/i.html?_nkw={w}", w) for w in self.kw] + [
            ("/help/home", "Help"),
            ("/signin/", "Sign in"),
        ]
        self.nav = nav
        self.add(
            "home",
            "/",
            lambda r: self.html("Harbour Bay", "home", ul(nav + self.il(range(4))), 20, 60),
        )
        self.add("help", "/help/home", lambda r: self.html("Help", "help", ul(nav[:2]), 60, 140))
        for k, (n, i) in enumerate(self.cats):
            self.add(f"c{k}", f"/b/{n}/{i}", lambda r, k=k: self.cat(k))
        for k in range(16):
            self.add(f"i{k}", f"/itm/{self.it[k]}", lambda r, k=k: self.item(k))
        for k, s in enumerate(self.sel):
            self.add(f"u{s}", f"/usr/{s}", lambda r, k=k: self.seller(k))
        for k, w in enumerate(self.kw):
            self.add(f"s{w}", f"/sch/i.html?_nkw={w}", lambda r, k=k: self.srch(k, 1))
        self.add("s2", f"/sch/i.html?_nkw={self.kw[0]}&_pgn=2", lambda r: self.srch(0, 2))

    def il(self, idx: range | list[int], trk: bool = False) -> list[tuple[str, str]]:
        out = [(f"/itm/{self.it[k]}", self.itn[k]) for k in idx]
        if trk:
            out += [
                (
                    f"/itm/{self.it[k]}?hash=item{self.it[k]:x}"
                    f"&_trksid=p2380057.m570.l{self.fresh(4, '0123456789')}",
                    "view",
                )
                for k in idx
            ]
        return out

    def filters(self, path: str, pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
        out = [
            (qjoin(path, moved(pairs, k, v)), f"{k}={v}") for k, vals in _EB_F.items() for v in vals
        ]
        return [
            *out,
            (qjoin(path, moved(pairs, "_pgn", str(num(dict(pairs), "_pgn", 1) + 1))), "next"),
        ]

    def cat(self, k: int) -> str:
        n, i = self.cats[k]
        links = self.il(range(k, 16, 4), True) + self.filters(f"/b/{n}/{i}", [])[:6]
        return self.html(n.replace("-", " "), f"cat{k}", ul(links), 10, 30)

    def srch(self, k: int, page: int) -> str:
        idx = range(k * 8 + (page - 1) * 4, k * 8 + page * 4)
        pairs = [("_nkw", self.kw[k])] + ([("_pgn", str(page))] if page > 1 else [])
        links = self.il(idx, True) + self.filters("/sch/i.html", pairs)
        return self.html(f"{self.kw[k]} for sale", f"sr{k}{page}", ul(links), 10, 30)

    def item(self, k: int) -> str:
        s = self.sel[k % 3]
        links = [
            (f"/usr/{s}", s),
            (f"/itmbid/{self.it[k]}", "Place bid"),
            (f"/bfl/watch?item={self.it[k]}", "Watch"),
        ]
        links += self.il([(k + 1) % 16]) + self.fake_items(f"i{k}", 2)
        return self.html(self.itn[k], f"it{k}", ul(links), 40, 110)

    def seller(self, k: int) -> str:
        s = self.sel[k]
        links = self.il(range(k, 16, 3))[:4]
        links += [(f"/sch/{s}/m.html?_nkw=&_armrs=1&_from=R40", "Items for sale")]
        links += [
            (f"/fdbk/feedback_profile/{s}?filter=feedback_page:RECEIVED_AS_SELLER", "Feedback")
        ]
        return self.thin(f"{s}'s profile", f"se{k}", links)

    def fake_items(self, seed: str, n: int) -> list[tuple[str, str]]:
        rng = self.rr(seed)
        out = []
        for j, s in enumerate(self.made("fi" + seed, n, 4)):
            iid = rng.randrange(10**11, 4 * 10**11)
            out.append((f"/itm/{s}/{iid}" if j % 2 else f"/itm/{iid}", title_of(s)))
            u = s.split("-")[0] + str(rng.randrange(10, 999))
            out.append((f"/usr/{u}", u))
        return out

    def rest(self, req: Req) -> Reply:
        p, q, pairs = req.path, qs(req.query), qpairs(req.query)
        parts = p.strip("/").split("/")
        if parts[0] == "itm" and req.query:
            got = self.copy(req, 0, p)
            if got is not None:
                return got
        if p == "/sch/i.html" or parts[0] == "b" or p.endswith("/m.html"):
            links = self.fake_items(req.target, 6) + self.filters(p, pairs)
            return self.tr(req, unquote(q.get("_nkw", "")) + " " + " ".join(parts[1:2]), links)
        if parts[0] == "itm" and len(parts) >= 2:
            links = self.fake_items(req.target, 4)
            return self.tr(req, title_of(self.made("t" + req.target, 1, 4)[0]), links)
        if parts[0] == "usr" and len(parts) == 2:
            u = parts[1]
            links = [
                *self.fake_items(req.target, 3),
                (f"/sch/{u}/m.html?_nkw=&_armrs=1&_from=R40", "items"),
            ]
            links.append(
                (f"/fdbk/feedback_profile/{u}?filter=feedback_page:RECEIVED_AS_SELLER", "feedback")
            )
            return self.tr(req, f"{u}'s profile", links)
        if parts[0] == "fdbk":
            links = [(qjoin(p, moved(pairs, "page_id", str(num(q, "page_id", 1) + 1))), "next")]
            links += self.fake_items(req.target, 3)
            return self.tr(req, f"Feedback for {parts[-1]}", links)
        return not_found()
