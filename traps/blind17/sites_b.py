"""blind17 sites, part b: an eMuseum collections site, a Flickr-style photo site, and a
Shaarli bookmark site."""

from __future__ import annotations

from typing import ClassVar

from .common import (
    B17,
    Reply,
    Req,
    binary,
    day,
    h,
    is_day,
    moved,
    not_found,
    num,
    pq,
    qjoin,
    qpairs,
    qs,
    title_of,
    ul,
    unquote,
)

# ----------------------------------------------------------------------------------------
# Gallery Systems' eMuseum: `/objects/<id>/<slug>`, `/people/<id>/<slug>`,
# `/collections/<id>/<slug>`, `/exhibitions/<id>/<slug>`, `/search/<term>/objects`.
# Real: 14 objects, 5 people, 4 collections, 2 exhibitions, the all-objects search and its
# second page (`?page=2`, linked only from the first). Collection pages link every object
# again "in context" `?ctx=<token minted per response>&idx=<n>` (copies), and view
# switches `/objects/images|list|lightbox` with `filter=` facets (`date:1850;1900`,
# `classification:...`) appended in click order. Any other id is a made-up object or person
# linking made-up people, objects, searches and media pages: an endless graph moving
# between `/objects/<id>/<slug>`, `/people/<id>/<slug>/objects`, `/search/<term>/objects/list`
# and `/objects/<id>/<slug>/media/<n>`. robots.txt: the admin, the IIIF/API, downloads.
# ----------------------------------------------------------------------------------------

_EM_FACETS = {
    "date": ("1800;1850", "1850;1900", "1900;1950"),
    "classification": ("Prints", "Textiles", "Ceramics"),
    "onview": ("true",),
}


class Emuseum(B17):
    """eMuseum: ctx= tokens per response, facets in click order, made-up object graph."""

    name = "emuseum"
    kind = "eMuseum collections: ctx= tokens, view/facet products, object/people graph"
    theme = "archive"
    brand = "Tidemill Museum Collections"
    robots_disallow: ClassVar[list[str]] = ["/admin/", "/api/", "/iiif/", "/download/"]

    def make(self) -> None:
        self.ob = self.made("ob", 14, 3)
        self.oid = [40211 + 173 * k for k in range(14)]
        self.pe = self.made("pe", 5, 2)
        self.peid = [1201 + 31 * k for k in range(5)]
        self.co = self.made("co", 4, 2)
        self.ex = self.made("ex", 2, 3)
        nav = [("/collections", "Collections"), ("/search/*/objects", "All objects")]
        nav += [(self.eurl(k), title_of(s)) for k, s in enumerate(self.ex)]
        nav += [("/about", "About"), ("/admin/", "Staff")]
        self.nav = nav
        self.add(
            "home",
            "/",
            lambda r: self.html("Collections online", "home", ul(nav + self.ol([0, 1, 2]))),
        )
        self.add("about", "/about", lambda r: self.thin("About the collections", "about", nav[:2]))
        cl = [(self.curl(k), title_of(s)) for k, s in enumerate(self.co)]
        self.add("cols", "/collections", lambda r: self.thin("Collections", "cols", cl))
        for k in range(4):
            self.add(f"c{k}", self.curl(k), lambda r, k=k: self.coll(k))
        for k in range(14):
            self.add(f"o{k}", self.ourl(k), lambda r, k=k: self.obj(k))
        for k in range(5):
            self.add(f"p{k}", self.purl(k), lambda r, k=k: self.person(k))
        for k in range(2):
            self.add(f"e{k}", self.eurl(k), lambda r, k=k: self.exh(k))
        self.add("s1", "/search/*/objects", lambda r: self.search(1))
        self.add("s2", "/search/*/objects?page=2", lambda r: self.search(2))

    def ourl(self, k: int) -> str:
        return f"/objects/{self.oid[k]}/{self.ob[k]}"

    def purl(self, k: int) -> str:
        return f"/people/{self.peid[k]}/{self.pe[k]}"

    def curl(self, k: int) -> str:
        return f"/collections/{5001 + k}/{self.co[k]}"

    def eurl(self, k: int) -> str:
        return f"/exhibitions/{77 + k}/{self.ex[k]}"

    def ol(self, idx: list[int]) -> list[tuple[str, str]]:
        return [(self.ourl(k), title_of(self.ob[k])) for k in idx]

    def facets(self, path: str, pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
        cur = unquote(dict(pairs).get("filter", ""))
        have = dict(f.split(":", 1) for f in cur.split("|") if ":" in f)
        out = []
        for key, vals in _EM_FACETS.items():
            for v in vals:
                nh = {a: b for a, b in have.items() if a != key} | {key: v}
                out.append(
                    (
                        qjoin(
                            path,
                            moved(pairs, "filter", "|".join(f"{a}:{b}" for a, b in nh.items())),
                        ),
                        v,
                    )
                )
        return out

    def coll(self, k: int) -> str:
        idx = [j for j in range(14) if j % 4 == k]
        links = self.ol(idx)
        links += [
            (f"{self.ourl(j)}?ctx={self.fresh(12)}&idx={i}", "in context")
            for i, j in enumerate(idx)
        ]
        base = self.curl(k) + "/objects"
        links += [(f"{base}/{v}", v) for v in ("images", "list", "lightbox")]
        return self.html(title_of(self.co[k]), f"co{k}", ul(links), 30, 80)

    def obj(self, k: int) -> str:
        links = [(self.purl(k % 5), title_of(self.pe[k % 5])), (self.curl(k % 4), "collection")]
        links.append((f"/search/{self.ob[k].split('-')[0]}/objects", "related objects"))
        links.append((f"{self.ourl(k)}/media/1", "enlarge"))
        links.append((f"/download/{self.oid[k]}.jpg", "download"))
        return self.html(title_of(self.ob[k]), f"ob{k}", ul(links), 40, 110)

    def person(self, k: int) -> str:
        links = self.ol([j for j in range(14) if j % 5 == k])
        links.append((self.purl(k) + "/objects", "all objects"))
        return self.thin(title_of(self.pe[k]), f"pe{k}", links)

    def exh(self, k: int) -> str:
        return self.html(
            title_of(self.ex[k]), f"ex{k}", ul(self.ol(list(range(k, 14, 2)))[:5]), 50, 120
        )

    def search(self, page: int) -> str:
        idx = list(range(0, 8)) if page == 1 else list(range(8, 14))
        links = self.ol(idx) + self.facets(
            "/search/*/objects", [("page", str(page))] if page > 1 else []
        )
        links.append((f"/search/*/objects?page={page + 1}", "next"))
        links += [(f"/search/*/objects/{v}", v) for v in ("images", "list")]
        return self.html(f"All objects, page {page}", f"se{page}", ul(links), 10, 25)

    def fake(self, seed: str, n: int) -> list[tuple[str, str]]:
        rng = self.rr(seed)
        out = []
        for j, s in enumerate(self.made("fo" + seed, n, 3)):
            shape = j % 3
            if shape == 0:
                out.append((f"/objects/{rng.randrange(10**4, 10**6)}/{s}", title_of(s)))
            elif shape == 1:
                w = s.split("-")[0]
                out.append(
                    (f"/people/{rng.randrange(100, 90000)}/{w}-{s.split('-')[1]}/objects", w)
                )
            else:
                out.append(
                    (f"/search/{s.split('-')[2]}/objects/list?page={rng.randrange(1, 4)}", s)
                )
        return out

    def rest(self, req: Req) -> Reply:
        p, pairs = req.path, qpairs(req.query)
        parts = p.strip("/").split("/")
        if parts[0] == "objects" and len(parts) == 3 and req.query:
            got = self.copy(req, 0, p)
            if got is not None:
                return got
        if parts[0] in ("objects", "people", "search", "collections") and len(parts) >= 2:
            links = self.fake(req.target, 7) + self.facets(p, pairs)
            links.append(
                (qjoin(p, moved(pairs, "page", str(num(qs(req.query), "page", 1) + 1))), "next")
            )
            if len(parts) == 3:
                links.append((f"{p}/media/{h(p) % 9 + 1}", "enlarge"))
            if parts[-1].isdigit() and parts[-2] == "media":
                links.append((f"{'/'.join(p.split('/')[:-1])}/{int(parts[-1]) + 1}", "next image"))
            title = title_of(self.made("t" + req.target, 1, 3)[0])
            return self.tr(req, title, links, 40, 120)
        return not_found()


# ----------------------------------------------------------------------------------------
# A Flickr-style photo site. Real: three photostreams `/photos/<user>/`, their album lists
# and one album each, 15 photos `/photos/<user>/<id>/`, two group pools, two tag pages,
# Explore for today and the previous day `/explore/2026/12/04` (linked only from today).
# Under every photo: contexts `/in/album-<id>/`, `/in/photostream/`, `/in/pool-<g>/`
# (prev/next along made-up neighbours) and twelve `/sizes/<s>/` pages; the same photos and
# streams under the owner's numeric NSID `/photos/<nn>@N04/...` (copies); Explore days
# back without end; tag pages `/photos/tags/a,b/` growing a tag per click; made-up photos
# and users linking `/people/<u>/`, `/photos/<u>/favorites/` and `page<N>/` streams.
# robots.txt: sign-in, the API, uploads, the original-size downloads.
# ----------------------------------------------------------------------------------------

_SIZES = ("sq", "q", "t", "s", "n", "w", "m", "z", "c", "l", "h", "k")


class Flickr(B17):
    """Flickr-style: in/<context> and sizes under every photo, NSID copies, explore days."""

    name = "flickr"
    kind = "Flickr-style photo site: contexts and sizes per photo, NSID copies, explore dates"
    theme = "travel"
    brand = "Harbourlight Photos"
    robots_disallow: ClassVar[list[str]] = [
        "/signin",
        "/services/",
        "/photos/upload",
        "/photos/organize",
    ]

    def make(self) -> None:
        self.us = self.made("us", 3, 1)
        self.nsid = [f"{43120000 + 977 * k}@N04" for k in range(3)]
        self.ph = [(k % 3, 53712000000 + 4111 * k) for k in range(15)]
        self.pt = [title_of(s) for s in self.made("pt", 15, 3)]
        self.al = [72177720000000 + 99 * k for k in range(3)]
        self.gr = self.made("gr", 2, 2)
        self.tg = self.made("tg", 2, 1)
        nav = [("/explore", "Explore"), *[(f"/photos/{u}/", u) for u in self.us]]
        nav += [(f"/groups/{g}/pool/", title_of(g)) for g in self.gr]
        nav += [(f"/photos/tags/{t}/", t) for t in self.tg] + [("/signin", "Sign in")]
        self.nav = nav
        self.add("home", "/", lambda r: self.html("Harbourlight Photos", "home", ul(nav), 20, 50))
        self.add("ex0", "/explore", lambda r: self.explore(0))
        self.add("ex1", "/explore/2026/12/04", lambda r: self.explore(1))
        for k, u in enumerate(self.us):
            self.add(f"s{u}", f"/photos/{u}/", lambda r, k=k: self.stream(k))
            self.add(f"al{u}", f"/photos/{u}/albums", lambda r, k=k: self.albums(k))
            self.add(f"a{u}", f"/photos/{u}/albums/{self.al[k]}", lambda r, k=k: self.album(k))
        for i in range(15):
            self.add(f"p{i}", self.purl(i), lambda r, i=i: self.photo(i))
        for k, g in enumerate(self.gr):
            self.add(f"g{g}", f"/groups/{g}/pool/", lambda r, k=k: self.pool(k))
        for k, t in enumerate(self.tg):
            self.add(f"t{t}", f"/photos/tags/{t}/", lambda r, k=k: self.tag(k))

    def purl(self, i: int, ctx: str = "") -> str:
        u, pid = self.ph[i]
        return f"/photos/{self.us[u]}/{pid}/" + (f"in/{ctx}/" if ctx else "")

    def pl(self, idx: list[int]) -> list[tuple[str, str]]:
        return [(self.purl(i), self.pt[i]) for i in idx]

    def explore(self, d: int) -> str:
        links = self.pl([i for i in range(15) if i % 2 == d])[:6]
        links.append(("/explore/2026/12/04" if d == 0 else "/explore/2026/12/03", "previous day"))
        return self.html(
            "Explore" + ("" if d == 0 else ": 4 December 2026"), f"ex{d}", ul(links), 10, 30
        )

    def stream(self, k: int) -> str:
        links = self.pl([i for i in range(15) if i % 3 == k])
        links += [
            (f"/photos/{self.us[k]}/albums", "Albums"),
            (f"/photos/{self.us[k]}/favorites/", "Faves"),
        ]
        links.append((f"/photos/{self.us[k]}/page2/", "older"))
        return self.html(f"{self.us[k]}'s photostream", f"st{k}", ul(links), 20, 50)

    def albums(self, k: int) -> str:
        return self.thin(
            f"{self.us[k]}'s albums",
            f"als{k}",
            [(f"/photos/{self.us[k]}/albums/{self.al[k]}", "Album")],
        )

    def album(self, k: int) -> str:
        idx = [i for i in range(15) if i % 3 == k][:4]
        links = [(self.purl(i, f"album-{self.al[k]}"), self.pt[i]) for i in idx] + self.pl(idx[:1])
        return self.html(f"Album {self.al[k]}", f"alb{k}", ul(links), 20, 60)

    def photo(self, i: int) -> str:
        u, pid = self.ph[i]
        links = [
            (f"/photos/{self.us[u]}/", self.us[u]),
            (f"/photos/{self.nsid[u]}/{pid}/", "permalink"),
        ]
        links += [
            (self.purl(i, "photostream"), "in photostream"),
            (self.purl(i, f"album-{self.al[u]}"), "in album"),
        ]
        links += [(self.purl(i, f"pool-{self.gr[i % 2]}"), "in pool")]
        links += [(f"/photos/{self.us[u]}/{pid}/sizes/{s}/", s) for s in _SIZES]
        links += [(f"/photos/tags/{self.tg[i % 2]}/", self.tg[i % 2])]
        return self.html(self.pt[i], f"ph{i}", ul(links), 30, 80)

    def pool(self, k: int) -> str:
        links = [(self.purl(i, f"pool-{self.gr[k]}"), self.pt[i]) for i in range(k, 15, 4)]
        links += self.pl(list(range(k + 2, 15, 4)))
        return self.thin(f"{title_of(self.gr[k])} pool", f"po{k}", links)

    def tag(self, k: int) -> str:
        links = self.pl(list(range(k, 15, 2))[:5])
        links += [(f"/photos/tags/{self.tg[k]},{w}/", w) for w in self.made(f"rt{k}", 3, 1)]
        return self.thin(f"Photos tagged {self.tg[k]}", f"tg{k}", links)

    def fakes(self, seed: str, ctx: str, n: int = 5) -> list[tuple[str, str]]:
        rng = self.rr(seed)
        out = []
        for s in self.made("fp" + seed, n, 2):
            u = s.split("-")[0] + str(rng.randrange(10, 99))
            out.append(
                (
                    f"/photos/{u}/{rng.randrange(5 * 10**10, 6 * 10**10)}/"
                    + (f"in/{ctx}/" if ctx else ""),
                    title_of(s),
                )
            )
            out.append((f"/people/{u}/", u))
        return out

    def rest(self, req: Req) -> Reply:
        p = req.path
        parts = p.strip("/").split("/")
        if parts[0] == "photos" and len(parts) >= 2 and "@N04" in parts[1]:
            k = self.nsid.index(parts[1]) if parts[1] in self.nsid else -1
            if k >= 0:
                got = self.copy(req, 0, "/".join(["", "photos", self.us[k], *parts[2:]]) + "/")
                if got is not None:
                    return got
        if parts[0] == "explore" and len(parts) == 4 and is_day("-".join(parts[1:])):
            d = "-".join(parts[1:])
            links = self.fakes(req.target, "explore-" + d, 6)
            links += [
                ("/explore/" + day(d, s).replace("-", "/"), lbl)
                for s, lbl in ((-1, "previous"), (1, "next"))
            ]
            return self.tr(req, f"Explore {d}", links)
        if parts[0] == "photos" and len(parts) >= 3 and parts[1] == "tags":
            tags = unquote(parts[2]).split(",")
            links = self.fakes(req.target, "", 4)
            links += [
                (f"/photos/tags/{','.join([*tags, w])}/", w)
                for w in self.made("tt" + req.target, 3, 1)
            ]
            return self.tr(req, "Photos tagged " + ", ".join(tags), links)
        if parts[0] in ("photos", "people") and len(parts) >= 2:
            u = parts[1]
            ctx = parts[4] if len(parts) >= 5 and parts[3] == "in" else "photostream"
            links = self.fakes(req.target, ctx, 4)
            links += [(f"/photos/{u}/favorites/", "faves"), (f"/people/{u}/", "profile")]
            pg = next((int(x[4:]) for x in parts if x.startswith("page") and x[4:].isdigit()), 1)
            links.append((f"/photos/{u}/page{pg + 1}/", "older"))
            if len(parts) >= 3 and parts[2].isdigit():
                pid = int(parts[2])
                links += [
                    (f"/photos/{u}/{pid + j}/in/{ctx}/", lbl)
                    for j, lbl in ((-7, "prev"), (13, "next"))
                ]
            title = title_of(self.made("t" + req.target, 1, 3)[0])
            return self.tr(req, f"{title} by {u}", links)
        if parts[0] == "groups":
            return self.tr(req, f"{parts[-1]} pool", self.fakes(req.target, f"pool-{parts[1]}", 5))
        return not_found()


# ----------------------------------------------------------------------------------------
# A Shaarli bookmark site. Real: the link list and its pages `?page=2` and `?page=3` (the
# third only from the second), 15 shaares `/shaare/<6 chars>`, six tag pages
# `?searchtags=<t>`, the tag cloud and list, the picture wall, the daily page and the day
# before. Traps: tag links on tag pages add the tag to `searchtags=a+b+...` (growing per
# click), `?page=` past the end (made-up shaares with made-up tags), `/daily?day=` both
# ways, legacy permalinks `/?<hash>` (copies), `/visibility/...?returnurl=<the current
# URL>` nesting, `?searchterm=` from every word, the Atom feed of every search (downloads).
# robots.txt: login, admin, the REST API.
# ----------------------------------------------------------------------------------------


class Shaarli(B17):
    """Shaarli: searchtags growing, page=/day= counters, legacy copies, returnurl nesting."""

    name = "shaarli"
    kind = "Shaarli bookmarks: searchtags= growing, page= and day= counters, returnurl= nesting"
    theme = "science"
    brand = "Tidemill links"
    robots_disallow: ClassVar[list[str]] = ["/login", "/admin/", "/api/v1/"]

    def make(self) -> None:
        self.hs = [format(h(self.key(f"s{k}")) % 16**6, "06x").replace("0", "Q") for k in range(15)]
        self.st = [title_of(s) for s in self.made("st", 15, 4)]
        self.tg = self.made("tg", 6, 1)
        self.add("l1", "/", lambda r: self.lst(1))
        self.add("l2", "/?page=2", lambda r: self.lst(2))
        self.add("l3", "/?page=3", lambda r: self.lst(3))
        for k in range(15):
            self.add(f"s{k}", f"/shaare/{self.hs[k]}", lambda r, k=k: self.shaare(k))
        for k, t in enumerate(self.tg):
            self.add(f"t{t}", f"/?searchtags={t}", lambda r, k=k: self.tagged(k))
        tl = [(f"/?searchtags={t}", t) for t in self.tg]
        self.add("cloud", "/tags/cloud", lambda r: self.thin("Tag cloud", "cloud", tl))
        self.add(
            "list",
            "/tags/list",
            lambda r: self.thin("Tag list", "list", [*tl[::-1], ("/?searchtags=", "untagged")]),
        )
        self.add(
            "wall",
            "/picture-wall",
            lambda r: self.html("Picture wall", "wall", ul(self.sl(range(0, 15, 2))), 5, 15),
        )
        self.add("d0", "/daily", lambda r: self.daily(0))
        self.add("d1", "/daily?day=20261203", lambda r: self.daily(1))

    def tags_of(self, k: int) -> list[str]:
        return [self.tg[k % 6], self.tg[(k * 5 + 1) % 6]]

    def sl(self, idx: range | list[int]) -> list[tuple[str, str]]:
        return [(f"/shaare/{self.hs[k]}", self.st[k]) for k in idx]

    def nav(self) -> list[tuple[str, str]]:
        return [
            ("/", "Home"),
            ("/tags/cloud", "Tag cloud"),
            ("/tags/list", "Tag list"),
            ("/picture-wall", "Picture wall"),
            ("/daily", "Daily"),
            ("/login", "Login"),
        ]

    def lst(self, page: int) -> str:
        idx = range(6 * (page - 1), min(6 * page, 15))
        links = [*self.nav(), *self.sl(idx)]
        for k in idx:
            links += [(f"/?{self.hs[k]}", "permalink")]
        if page < 3:
            links.append((f"/?page={page + 1}", "older"))
        links.append((f"/?page={page + 1}" if page == 3 else "/?page=4", "next page"))
        links.append((f"/visibility/private?returnurl={pq('/?page=' + str(page))}", "only private"))
        return self.html(f"Links, page {page}", f"ls{page}", ul(links), 10, 25)

    def shaare(self, k: int) -> str:
        links = [(f"/?searchtags={t}", t) for t in self.tags_of(k)] + [("/", "Home")]
        links.append((f"/?searchterm={pq(self.st[k].split()[0])}", "search"))
        return self.thin(self.st[k], f"sh{k}", links)

    def tagged(self, k: int) -> str:
        t = self.tg[k]
        idx = [j for j in range(15) if t in self.tags_of(j)]
        links = self.sl(idx)
        for j in idx:
            links += [(f"/?searchtags={t}+{u}", u) for u in self.tags_of(j) if u != t]
        links.append((f"/feed/atom?searchtags={t}", "Atom"))
        return self.html(f"Tagged {t}", f"tg{k}", ul(links), 10, 25)

    def daily(self, d: int) -> str:
        links = [
            *self.sl(range(d * 3, d * 3 + 3)),
            ("/daily?day=20261203", "previous") if d == 0 else ("/daily?day=20261202", "previous"),
        ]
        return self.thin("Daily" if d == 0 else "Daily, 3 December 2026", f"dl{d}", links)

    def fakes(self, seed: str, n: int = 5) -> list[tuple[str, str]]:
        out = []
        for j, s in enumerate(self.made("fs" + seed, n, 4)):
            out.append((f"/shaare/{format(h(seed + str(j)) % 16**6, '06x')}", title_of(s)))
            out.append((f"/?searchtags={s.split('-')[0]}", s.split("-")[0]))
        return out

    def rest(self, req: Req) -> Reply:
        p, q, pairs = req.path, qs(req.query), qpairs(req.query)
        if p == "/" and len(req.query) == 6 and req.query in self.hs:
            return self.copy(req, 0, f"/shaare/{req.query}") or not_found()
        if p == "/feed/atom":
            return binary("feed.atom")
        if p == "/" and ("searchtags" in q or "searchterm" in q or "page" in q):
            tags = q.get("searchtags", "").split()
            links = [*self.nav(), *self.fakes(req.target, 5)]
            for w in self.made("at" + req.target, 3, 1):
                links.append((qjoin("/", moved(pairs, "searchtags", "+".join([*tags, w]))), w))
            links.append((qjoin("/", moved(pairs, "page", str(num(q, "page", 1) + 1))), "older"))
            return self.tr(req, "Search: " + " ".join(tags) + " " + q.get("searchterm", ""), links)
        if p == "/daily":
            dd = q.get("day", "20261201")
            iso = f"{dd[:4]}-{dd[4:6]}-{dd[6:8]}"
            if not is_day(iso):
                return not_found()
            links = self.fakes(req.target, 4)
            links += [
                (f"/daily?day={day(iso, s).replace('-', '')}", lbl)
                for s, lbl in ((-1, "previous"), (1, "next"))
            ]
            return self.tr(req, f"Daily {iso}", links)
        if p.startswith("/visibility/"):
            here = pq(req.target)
            links = [(unquote(q.get("returnurl", "/")), "back")]
            links += [
                (f"/visibility/{v}?returnurl={here}", v) for v in ("private", "public", "all")
            ]
            return self.tr(req, "Visibility", links + self.fakes(req.target, 2))
        if p.startswith("/shaare/"):
            return self.tr(
                req,
                title_of(self.made(req.target, 1, 4)[0]),
                [*self.nav(), *self.fakes(req.target, 4)],
            )
        return not_found()
