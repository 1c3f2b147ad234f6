"""blind14 sites, part c: Mailman 3 list archives (HyperKitty), an IRC channel log
archive, a recipe site with serving and unit converters, and the OpenStreetMap website."""

from __future__ import annotations

import datetime as dt
import random
import re
from typing import ClassVar

from .common import (
    B14,
    Reply,
    Req,
    not_found,
    num,
    qs,
    quote,
    quote_plus,
    slugs,
    title_of,
    trap,
    ul,
)

# ----------------------------------------------------------------------------------------
# Mailman 3's HyperKitty archives. Lists `/hyperkitty/list/<list>@lists.tidemill.org/`,
# month archives `.../<YYYY>/<M>/` with previous/next month arrows without end, `?page=`
# (the pager's "Next" never stops) and `?count=` page sizes; threads `.../thread/<ID>/`
# with `?sort=date|thread` and a `.../message/<ID>/` page for every message; search
# `/hyperkitty/search?mlist=&q=` for any words, whose "Refine" links append a word.
# Real pages in the family: November's and October's `?page=2` (a thread only there), and
# October itself (only along "previous month"). robots.txt: accounts, admin, Postorius
# accounts, the API, user profiles, and each list's mbox exports.
# ----------------------------------------------------------------------------------------

H = "/hyperkitty"
_LISTS = ("devel", "users", "announce")
_B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"


def _mplus(y: int, m: int, k: int) -> tuple[int, int]:
    n = y * 12 + m - 1 + k
    return n // 12, n % 12 + 1


class Hyperkitty(B14):
    """HyperKitty: month arrows and pagers without end, message pages, growing searches."""

    name = "hyperkitty"
    kind = "Mailman 3 HyperKitty: month arrows, ?page=&count=, thread ?sort=, /message/<id>/"
    theme = "forum"
    brand = "Tidemill mailing lists"
    robots_disallow: ClassVar[list[str]] = [
        "/accounts/",
        "/admin/",
        "/postorius/accounts/",
        "/hyperkitty/api/",
        "/user-profile/",
    ] + [f"{H}/list/{lst}@lists.tidemill.org/export/" for lst in _LISTS]

    def make(self) -> None:
        rng = random.Random(self.key("ids"))
        self.threads: dict[tuple[str, int], list[tuple[str, str]]] = {}
        titles = iter(slugs(self.key("t"), 18, self.v, 3))
        for lst in _LISTS:
            for mo in (11, 10):
                self.threads[(lst, mo)] = [
                    ("".join(rng.choice(_B32) for _ in range(32)), title_of(next(titles)))
                    for _ in range(3)
                ]
        self.add("home", "/", lambda r: self.home())
        self.add(
            "lists", "/postorius/lists/", lambda r: self.thin("Mailing lists", "pl", self.llinks())
        )
        for lst in _LISTS:
            self.add(f"l{lst}", self.L(lst), lambda r, lst=lst: self.overview(lst))
            for mo in (11, 10):
                for pg in (1, 2):
                    t = self.murl(lst, 2026, mo) + ("?page=2" if pg == 2 else "")
                    self.add(
                        f"m{lst}{mo}{pg}",
                        t,
                        lambda r, a=lst, b=mo, c=pg: self.month(a, 2026, b, c, 10, ""),
                    )
                for tid, _ in self.threads[(lst, mo)]:
                    self.add(
                        f"t{tid}",
                        f"{self.L(lst)}thread/{tid}/",
                        lambda r, a=lst, b=mo, t=tid: self.thread(a, b, t, ""),
                    )

    def L(self, lst: str) -> str:
        return f"{H}/list/{lst}@lists.tidemill.org/"

    def murl(self, lst: str, y: int, m: int) -> str:
        return f"{self.L(lst)}{y}/{m}/"

    def llinks(self) -> list[tuple[str, str]]:
        return [(self.L(lst), f"{lst}@lists.tidemill.org") for lst in _LISTS]

    def home(self) -> str:
        links = [
            *self.llinks(),
            ("/postorius/lists/", "All lists"),
            ("/accounts/login/", "Sign in"),
        ]
        return self.html("Tidemill mailing lists", "home", ul(links), 30, 90)

    def overview(self, lst: str) -> str:
        links = [(self.murl(lst, 2026, 11), "November 2026")]
        links += [
            (f"{H}/search?mlist={lst}%40lists.tidemill.org&q={w}", f"Search: {w}")
            for w in self.v[200:203]
        ]
        links += [(f"{self.L(lst)}export/{lst}.mbox.gz", "Download"), ("/", "All lists")]
        return self.html(f"{lst}@lists.tidemill.org", f"l{lst}", ul(links), 40, 100)

    def month(self, lst: str, y: int, m: int, pg: int, count: int, key: str) -> str:
        ths = self.threads.get((lst, m), []) if y == 2026 else []
        ths = ths[:2] if pg == 1 else ths[2:] if pg == 2 else []
        links = [(f"{self.L(lst)}thread/{tid}/", t) for tid, t in ths]
        base = self.murl(lst, y, m)
        links += [
            (self.murl(lst, *_mplus(y, m, -1)), "previous month"),
            (self.murl(lst, *_mplus(y, m, 1)), "next month"),
        ]
        links.append((f"{base}?page={pg + 1}" + (f"&count={count}" if count != 10 else ""), "Next"))
        links += [
            (f"{base}?count={c}&page={pg}", f"{c} per page")
            for c in (25, 50, 100, 200)
            if c != count
        ]
        return self.html(
            f"{lst} {y}-{m:02d}, page {pg}", key or f"m{lst}{m}{pg}", ul(links), 20, 60
        )

    def thread(self, lst: str, mo: int, tid: str, key: str) -> str:
        t = dict(self.threads[(lst, mo)])[tid]
        links = [(self.murl(lst, 2026, mo), "Back to the month")]
        links += [(f"{self.L(lst)}thread/{tid}/?sort={s}", f"by {s}") for s in ("date", "thread")]
        links += [
            (f"{self.L(lst)}message/{tid[k : k + 6]}{tid[:26]}/", f"message {k}") for k in range(3)
        ]
        links += [
            (f"{self.L(lst)}export/{lst}-{tid}.mbox.gz?thread={tid}", "Download"),
            (f"/accounts/login/?next={quote(self.L(lst))}", "Reply"),
        ]
        return self.html(t, key or f"t{tid}", ul(links), 50, 140)

    def rest(self, req: Req) -> Reply:
        p, q = req.path, qs(req.query)
        m = re.fullmatch(rf"{H}/list/([a-z]+)@lists\.tidemill\.org/(.*)", p)
        if not m or m.group(1) not in _LISTS:
            if p == f"{H}/search" and q.get("q"):
                words = q["q"].split()
                lst = q.get("mlist", "")
                links = [
                    (
                        f"{H}/search?mlist={quote(lst)}&q={quote_plus(' '.join([*words, w]))}",
                        f"+ {w}",
                    )
                    for w in self.v[len(words) * 7 % 50 :][:4]
                ]
                links.append(
                    (
                        f"{H}/search?mlist={quote(lst)}&q={quote_plus(q['q'])}"
                        f"&page={num(q, 'page', 1) + 1}",
                        "Next",
                    )
                )
                return self.tr(req, f"Search results for {q['q']}", links)
            return not_found()
        lst, rest = m.group(1), m.group(2)
        mm = re.fullmatch(r"(\d{4})/(\d{1,2})/", rest)
        if mm and 1990 <= int(mm.group(1)) <= 2199 and 1 <= int(mm.group(2)) <= 12:
            y, mo = int(mm.group(1)), int(mm.group(2))
            pg, cnt = max(1, num(q, "page", 1)), num(q, "count", 10)
            known = y == 2026 and mo in (10, 11) and pg <= 2 and cnt == 10
            return trap(self.month(lst, y, mo, pg, cnt, "" if known else req.key))
        mm = re.fullmatch(r"thread/([A-Z2-7]{32})/", rest)
        if mm:
            for (ls, mo), ths in self.threads.items():
                if ls == lst and mm.group(1) in dict(ths):
                    return trap(self.thread(lst, mo, mm.group(1), req.key))
        mm = re.fullmatch(r"message/([A-Z2-7]{32})/", rest)
        if mm:
            tid = next(
                (t for ths in self.threads.values() for t, _ in ths if t[:26] == mm.group(1)[6:]),
                None,
            )
            if tid:
                links = [
                    (f"{self.L(lst)}thread/{tid}/", "Thread"),
                    (f"/accounts/login/?next={quote(p)}", "Reply"),
                ]
                return self.tr(req, f"Message {mm.group(1)[:8]}", links)
        return not_found()


# ----------------------------------------------------------------------------------------
# An IRC channel log archive (irclogger-style). Channels `/<channel>/`, days
# `/<channel>/<YYYY-MM-DD>` with previous/next day arrows without end (future days say
# "no messages yet"); every day offers `?tz=` (a time zone shift, both ways) and "Highlight"
# links `?hl=<nick>` that append one more nick per click (`hl=ann,bob,...`); search
# `/<channel>/search?q=&page=` for any words, "Next" without end. Real pages in the
# family: the two days before each channel's latest (only along "previous day").
# robots.txt: admin, login, the API, raw exports.
# ----------------------------------------------------------------------------------------

_CHANS = ("tidemill", "tidemill-dev", "harbour-ops", "lantern", "orchard")
_LATEST = dt.date(2026, 12, 4)


class Irclog(B14):
    """IRC logs: day arrows without end, ?tz= shifts, ?hl= nick lists that grow, search."""

    name = "irclog"
    kind = "IRC channel logs: day arrows both ways, ?tz=, ?hl=a,b,c grows, search any q"
    theme = "forum"
    brand = "Tidemill IRC logs"
    robots_disallow: ClassVar[list[str]] = ["/admin/", "/login", "/api/", "/export/"]

    def make(self) -> None:
        self.nicks = slugs(self.key("n"), 8, self.v, 1)
        self.add("home", "/", lambda r: self.home())
        self.add("faq", "/faq", lambda r: self.html("FAQ", "faq", ul([("/", "Home")])))
        for c in _CHANS:
            self.add(f"c{c}", f"/{c}/", lambda r, c=c: self.chan(c))
            self.add(
                f"i{c}",
                f"/{c}/info",
                lambda r, c=c: self.thin(f"#{c} info", f"i{c}", [(f"/{c}/", f"#{c}")]),
            )
            for k in range(3):
                d = _LATEST - dt.timedelta(days=k)
                self.add(f"d{c}{d}", f"/{c}/{d}", lambda r, c=c, d=d: self.day(c, d, "", 0, ""))

    def home(self) -> str:
        links = [(f"/{c}/", f"#{c}") for c in _CHANS] + [("/faq", "FAQ"), ("/login", "Log in")]
        return self.html("Tidemill IRC logs", "home", ul(links), 30, 90)

    def chan(self, c: str) -> str:
        links = [(f"/{c}/{_LATEST}", "Latest day"), (f"/{c}/info", "Channel info")]
        links += [(f"/{c}/search?q={w}", f"Search {w}") for w in self.nicks[:2]]
        links.append((f"/export/{c}.tar.gz", "Download all"))
        return self.html(f"#{c}", f"c{c}", ul(links), 30, 80)

    def day(self, c: str, d: dt.date, hl: str, tz: int, key: str) -> str:
        def u(dd: dt.date, h: str = hl, z: int = tz) -> str:
            qq = "&".join(x for x in (f"hl={h}" if h else "", f"tz={z}" if z else "") if x)
            return f"/{c}/{dd}" + (f"?{qq}" if qq else "")

        have = hl.split(",") if hl else []
        links = [
            (u(d - dt.timedelta(days=1)), "previous day"),
            (u(d + dt.timedelta(days=1)), "next day"),
        ]
        links += [
            (u(d, ",".join([*have, n])), f"Highlight {n}") for n in self.nicks if n not in have
        ][:4]
        links += [(u(d, hl, tz + s), f"UTC{tz + s:+d}") for s in (-1, 1)]
        links.append((f"/{c}/", f"#{c}"))
        return self.html(f"#{c} on {d}", key or f"d{c}{d}", ul(links), 40, 120)

    def rest(self, req: Req) -> Reply:
        p, q = req.path, qs(req.query)
        m = re.fullmatch(r"/([a-z-]+)/(\d{4}-\d{2}-\d{2})", p)
        if m and m.group(1) in _CHANS:
            try:
                d = dt.date.fromisoformat(m.group(2))
            except ValueError:
                return not_found()
            hl = ",".join(n for n in q.get("hl", "").split(",") if n in self.nicks)
            return trap(self.day(m.group(1), d, hl, num(q, "tz"), req.key))
        m = re.fullmatch(r"/([a-z-]+)/search", p)
        if m and m.group(1) in _CHANS and q.get("q"):
            c, pg = m.group(1), num(q, "page", 1)
            links = [
                (f"/{c}/{_LATEST - dt.timedelta(days=k)}#l{k * 37}", "match")
                for k in range(0, 9, 4)
            ]
            links.append((f"/{c}/search?q={quote_plus(q['q'])}&page={pg + 1}", "Next"))
            links += [(f"/{c}/search?q={n}", n) for n in self.nicks[pg % 8 :][:2]]
            return self.tr(req, f"#{c}: search {q['q']}, page {pg}", links)
        return not_found()


# ----------------------------------------------------------------------------------------
# A recipe blog with a recipe plugin. Recipes `/recipe/<slug>/` with the same family under
# every recipe: `?servings=N` (the +/- steppers never stop upwards), `?units=metric|us`,
# `/print/` (the recipe again), and the kitchen converter
# `/convert/?amount=&from=&to=&return=<the current URL>`, whose "Double" and "Swap" links
# put the current URL, return included, into a new `return=`. The recipe index's filter
# links `/recipes/?_diet=&_time=&_cuisine=&_sort=` keep keys in click order; category
# pagers run on past the last page. Real pages in the family: each category's
# `/page/2/` (its fifth recipe is only there). robots.txt: admin, login, saved recipes,
# shopping list, REST API, cart, checkout.
# ----------------------------------------------------------------------------------------

_FACETS = {
    "_diet": ("vegan", "vegetarian", "gluten-free"),
    "_time": ("15", "30", "60"),
    "_cuisine": ("italian", "thai", "mexican", "french"),
    "_sort": ("newest", "rating", "quickest"),
}


class Recipes(B14):
    """Recipe blog: servings steppers, unit toggles, converter return= nesting, facets."""

    name = "recipes"
    kind = "recipe blog: ?servings=N, ?units=, /print/, converter return= nests, facets"
    theme = "food"
    brand = "Saffron & Salt"
    robots_disallow: ClassVar[list[str]] = [
        "/wp-admin/",
        "/wp-login.php",
        "/my-recipes/",
        "/shopping-list/",
        "/wp-json/",
        "/cart/",
        "/checkout/",
    ]

    def make(self) -> None:
        self.cats = slugs(self.key("c"), 4, self.v, 1)
        self.rec = slugs(self.key("r"), 20, self.v, 3)
        self.add("home", "/", lambda r: self.home())
        self.add("about", "/about/", lambda r: self.thin("About", "about", [("/", "Home")]))
        self.add("index", "/recipes/", lambda r: self.index())
        for k, c in enumerate(self.cats):
            self.add(f"c{c}", f"/category/{c}/", lambda r, k=k: self.cat(k, 1, ""))
            self.add(f"c{c}2", f"/category/{c}/page/2/", lambda r, k=k: self.cat(k, 2, ""))
        for i, s in enumerate(self.rec):
            self.add(f"r{s}", f"/recipe/{s}/", lambda r, i=i: self.recipe(i, 4, "", r))

    def home(self) -> str:
        links = [(f"/recipe/{s}/", title_of(s)) for s in self.rec[:4]]
        links += [("/recipes/", "All recipes"), ("/about/", "About"), ("/my-recipes/", "Saved")]
        return self.html("Saffron & Salt", "home", ul(links), 40, 120)

    def index(self) -> str:
        links = [(f"/category/{c}/", title_of(c)) for c in self.cats]
        links += [(f"/recipes/?{f}={v[0]}", f"{f[1:]}: {v[0]}") for f, v in _FACETS.items()]
        return self.thin("Recipe index", "index", links)

    def cat(self, k: int, pg: int, key: str) -> str:
        mine = [i for i in range(20) if i % 4 == k]
        shown = mine[:4] if pg == 1 else mine[4:] if pg == 2 else mine[pg % 5 : pg % 5 + 1]
        links = [(f"/recipe/{self.rec[i]}/", title_of(self.rec[i])) for i in shown]
        links.append((f"/category/{self.cats[k]}/page/{pg + 1}/", "Older recipes"))
        return self.html(
            f"{title_of(self.cats[k])}, page {pg}", key or f"c{k}{pg}", ul(links), 20, 70
        )

    def recipe(self, i: int, sv: int, units: str, req: Req) -> str:
        return self.html(
            f"{title_of(self.rec[i])} ({sv} servings{', ' + units if units else ''})",
            f"r{i}{sv}{units}",
            ul(self.recipe_links(i, sv, units, req, True)),
            80,
            200,
        )

    def recipe_links(
        self, i: int, sv: int, units: str, req: Req, own: bool = False
    ) -> list[tuple[str, str]]:
        """A recipe's links (the Save and Shopping list ones only on `own` pages)."""
        s = self.rec[i]
        ret = quote(req.target, safe="")
        links = [(f"/category/{self.cats[i % 4]}/", title_of(self.cats[i % 4]))]
        links += [
            (f"/recipe/{s}/?servings={n}" + (f"&units={units}" if units else ""), f"{n} servings")
            for n in (sv - 1, sv + 1, sv * 2)
            if n >= 1
        ]
        links += [(f"/recipe/{s}/?units={u}", u) for u in ("metric", "us") if u != units]
        links += [
            (f"/recipe/{s}/print/", "Print"),
            (f"/convert/?amount=2&from=cup&to=ml&return={ret}", "Convert"),
        ]
        if own:
            links += [
                (f"/my-recipes/add?r={i}", "Save"),
                (f"/shopping-list/add?r={i}", "Shopping list"),
            ]
        return links

    def rest(self, req: Req) -> Reply:
        p, q = req.path, qs(req.query)
        m = re.fullmatch(r"/recipe/([a-z-]+)/(print/)?", p)
        if m and m.group(1) in self.rec:
            i = self.rec.index(m.group(1))
            sv, units = max(1, num(q, "servings", 4)), q.get("units", "")
            if m.group(2) or (sv == 4 and not units):
                return trap(self.recipe(i, 4, "", req))
            return self.tr(
                req,
                f"{title_of(m.group(1))} for {sv} ({units or 'us'})",
                self.recipe_links(i, sv, units, req),
            )
        m = re.fullmatch(r"/category/([a-z]+)/page/(\d+)/", p)
        if m and m.group(1) in self.cats:
            return trap(self.cat(self.cats.index(m.group(1)), int(m.group(2)), req.key))
        if p == "/convert/" and "return" in q:
            a = max(1, num(q, "amount", 1))
            fr, to, ret = q.get("from", "cup"), q.get("to", "ml"), quote(req.target, safe="")
            links = [(f"/convert/?amount={a * 2}&from={fr}&to={to}&return={ret}", "Double")]
            links.append((f"/convert/?amount={a}&from={to}&to={fr}&return={ret}", "Swap units"))
            links.append((q["return"] if q["return"].startswith("/") else "/", "Back"))
            return self.tr(req, f"{a} {fr} in {to}", links)
        if p == "/recipes/" and req.query:
            pairs = [
                (k, v)
                for k, v in (x.split("=", 1) for x in req.query.split("&") if "=" in x)
                if k in _FACETS
            ]
            d = dict(pairs)
            links = [
                (f"/recipe/{self.rec[(len(req.query) + j * 7) % 20]}/", "Recipe") for j in range(3)
            ]
            for f, vals in _FACETS.items():
                for v in vals:
                    if d.get(f) != v:
                        nxt = [*[(a, b) for a, b in pairs if a != f], (f, v)]
                        links.append(
                            ("/recipes/?" + "&".join(f"{a}={b}" for a, b in nxt), f"{f[1:]} {v}")
                        )
            return self.tr(req, "Recipes: " + ", ".join(f"{a} {b}" for a, b in pairs), links)
        return not_found()


# ----------------------------------------------------------------------------------------
# The OpenStreetMap website (a regional instance). Elements `/node|way|relation/<id>`,
# changesets, users and their edit histories. Every element has the same family:
# `/history` (a version list of its own), "View on map" `/?mlat=&mlon=` (the map page
# with pan, zoom and layer links: `/?lat=&lon=&zoom=&layers=`, a grid without end at
# high zoom), "Query features" `/query?lat=&lon=` (nearby features with made-up ids,
# each an element page of its own, an endless graph). Recent changes `/history` and
# user histories page with "Older" `?before=<changeset id>` without end. Real pages in
# the family: `/history?before=<id>` one step back (two changesets only there).
# robots.txt: the API, login, sign-up, OAuth, export, the editor, messages, account,
# own traces.
# ----------------------------------------------------------------------------------------

_LAYERS = ("M", "C", "T", "H", "Y")


class Osm(B14):
    """OSM website: map pan/zoom/layers, query features, element histories, ?before=."""

    name = "osm"
    kind = "OpenStreetMap website: map ?lat=&lon=&zoom=&layers=, /query, element history, before="
    theme = "travel"
    brand = "OpenStreetMap Tidemill"
    robots_disallow: ClassVar[list[str]] = [
        "/api/",
        "/login",
        "/user/new",
        "/oauth",
        "/export",
        "/edit",
        "/messages/",
        "/account/",
        "/traces/mine",
    ]

    def make(self) -> None:
        self.users = slugs(self.key("u"), 3, self.v, 1)
        self.cs = [158_402_117 - 913 * k for k in range(4)]
        self.el: dict[str, str] = {}
        names = iter(slugs(self.key("e"), 16, self.v, 2))
        for kind, n, base in (
            ("node", 8, 11_204_337_000),
            ("way", 6, 1_204_330_000),
            ("relation", 2, 17_230_000),
        ):
            for k in range(n):
                self.el[f"{kind}/{base + 77 * k}"] = title_of(next(names))
        self.els = list(self.el)
        self.add("home", "/", lambda r: self.mapview(54.6, -3.2, 10, "M", "home"))
        self.add(
            "about",
            "/about",
            lambda r: self.thin("About", "about", [("/", "Map"), ("/copyright", "Copyright")]),
        )
        self.add(
            "copyright", "/copyright", lambda r: self.html("Copyright and licence", "copy", "")
        )
        self.add("help", "/help", lambda r: self.thin("Help", "help", [("/about", "About")]))
        self.add("hist", "/history", lambda r: self.hist(0, "", ""))
        self.add("hist2", f"/history?before={self.cs[1]}", lambda r: self.hist(2, "", ""))
        for k, c in enumerate(self.cs):
            self.add(f"cs{c}", f"/changeset/{c}", lambda r, k=k: self.changeset(k))
        for e in self.els:
            self.add(e, f"/{e}", lambda r, e=e: self.element(e))
        for u in self.users:
            self.add(f"u{u}", f"/user/{u}", lambda r, u=u: self.user(u))
            self.add(f"uh{u}", f"/user/{u}/history", lambda r, u=u: self.hist(0, u, ""))

    def user(self, u: str) -> str:
        links = [(f"/user/{u}/history", "Edits"), (f"/user/{u}/traces", "Traces")]
        links += [(f"/messages/new/{u}", "Send message"), ("/", "Map")]
        return self.html(f"Mapper {u}", f"u{u}", ul(links), 20, 60)

    def mapview(self, lat: float, lon: float, z: int, layers: str, key: str) -> str:
        st = 180 / 2**z

        def u(a: float, b: float, zz: int, ly: str) -> str:
            return f"/?lat={a:.5f}&lon={b:.5f}&zoom={zz}&layers={ly}"

        links = [(u(lat + st, lon, z, layers), "N"), (u(lat - st, lon, z, layers), "S")]
        links += [(u(lat, lon + st, z, layers), "E"), (u(lat, lon - st, z, layers), "W")]
        if z < 19:
            links.append((u(lat, lon, z + 1, layers), "Zoom in"))
        if z > 3:
            links.append((u(lat, lon, z - 1, layers), "Zoom out"))
        links += [(u(lat, lon, z, ly), f"Layer {ly}") for ly in _LAYERS if ly != layers]
        links.append((f"/query?lat={lat:.5f}&lon={lon:.5f}", "Query features"))
        if key == "home":
            links += [
                (f"/edit?lat={lat:.5f}&lon={lon:.5f}", "Edit"),
                ("/history", "History"),
                ("/about", "About"),
                ("/help", "Help"),
                ("/login", "Log in"),
            ]
        return self.html(
            f"OpenStreetMap Tidemill ({lat:.3f}, {lon:.3f}, z{z})", key, ul(links), 20, 60
        )

    def hist(self, start: int, u: str, key: str) -> str:
        pre = f"/user/{u}/history" if u else "/history"
        ids = (
            self.cs[start : start + 2]
            if not u
            else [c for k, c in enumerate(self.cs) if k % 3 == self.users.index(u)]
        )
        if key:
            h = sum(map(ord, key))
            ids = [158_000_000 - (h * 131 + j * 977) % 9_000_000 for j in range(2)]
        links = [(f"/changeset/{c}", f"Changeset {c}") for c in ids]
        links.append((f"{pre}?before={min(ids) if ids else self.cs[-1]}", "Older"))
        links += [("/", "Map")] + ([(f"/user/{u}", u)] if u else [])
        return self.html(
            f"Changesets {u or 'in this area'}", key or f"h{start}{u}", ul(links), 20, 60
        )

    def changeset(self, k: int) -> str:
        u = self.users[k % 3]
        links = [(f"/user/{u}", u)] + [
            (f"/{e}", self.el[e]) for j, e in enumerate(self.els) if j % 4 == k
        ]
        links += [(f"/api/0.6/changeset/{self.cs[k]}/download", "OsmChange XML")]
        return self.html(f"Changeset {self.cs[k]}", f"cs{k}", ul(links), 40, 100)

    def element(self, e: str) -> str:
        i = self.els.index(e)
        lat, lon = 54.5 + (i % 5) * 0.013, -3.3 + (i % 7) * 0.021
        links = [(f"/changeset/{self.cs[i % 4]}", "Changeset")]
        links += [
            (f"/{e}/history", "View history"),
            (f"/?mlat={lat:.5f}&mlon={lon:.5f}", "View on map"),
        ]
        links += [
            (f"/query?lat={lat:.5f}&lon={lon:.5f}", "Query features"),
            (f"/api/0.6/{e}", "XML"),
        ]
        if e.startswith("way/"):
            links += [(f"/{x}", self.el[x]) for x in self.els[:8] if int(x[5:]) % 3 == i % 3]
        return self.html(f"{e.split('/')[0].title()}: {self.el[e]}", e, ul(links), 40, 110)

    def rest(self, req: Req) -> Reply:
        p, q = req.path, qs(req.query)

        def f(k: str, d: float) -> float:
            try:
                return float(q.get(k, d))
            except ValueError:
                return d

        if p == "/" and req.query:
            lat, lon = f("mlat", f("lat", 54.6)), f("mlon", f("lon", -3.2))
            z = num(q, "zoom", 18) if "zoom" in q else 18
            return trap(
                self.mapview(
                    max(-85, min(85, lat)), lon, max(0, min(19, z)), q.get("layers", "M"), req.key
                )
            )
        if p == "/history" or re.fullmatch(r"/user/[a-z]+/history", p):
            u = p.split("/")[2] if p.startswith("/user/") else ""
            if u and u not in self.users:
                return not_found()
            return trap(self.hist(0, u, req.key))
        if p == "/query":
            lat, lon = f("lat", 54.6), f("lon", -3.2)
            h = int(abs(lat * 1e5) + abs(lon * 1e5))
            links = [(f"/node/{9_000_000_000 + (h * 7 + j) % 10**9}", "node") for j in range(3)]
            links += [(f"/way/{900_000_000 + (h * 11 + j) % 10**8}", "way") for j in range(2)]
            return self.tr(req, f"Features near {lat:.5f}, {lon:.5f}", links)
        m = re.fullmatch(r"/(node|way|relation|changeset)/(\d+)(/history)?", p)
        if m:
            n = int(m.group(2))
            links = (
                [(f"/{m.group(1)}/{n}/history", "history")]
                if not m.group(3)
                else [(f"/{m.group(1)}/{n}", "current")]
            )
            links += [
                (
                    f"/query?lat={54 + n % 1000 / 1000:.5f}&lon={-3 - n % 997 / 1000:.5f}",
                    "Query features",
                )
            ]
            links += [
                (f"/changeset/{158_000_000 - n % 7_000_000}", "changeset"),
                (f"/user/{self.users[n % 3]}", "mapper"),
            ]
            return self.tr(req, f"{m.group(1)} {n}{m.group(3) or ''}", links)
        return not_found()
