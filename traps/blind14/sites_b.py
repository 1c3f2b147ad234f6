"""blind14 sites, part b: a Gallery 3 photo gallery, a railway timetable site, and a
property portal with an estate agent's own site on a second host."""

from __future__ import annotations

import datetime as dt
import re
from typing import ClassVar

from .common import (
    B14,
    Reply,
    Req,
    not_found,
    num,
    qpairs,
    qs,
    quote,
    redirect,
    slugs,
    title_of,
    trap,
    ul,
)

# ----------------------------------------------------------------------------------------
# A Gallery 3 photo gallery. Albums `/index.php/<album>` (two photos a page, `?page=2`),
# photos `/index.php/<album>/<photo>`, tags `/index.php/tag/<id>/<name>`. Under every
# photo the same family: "Return to album" `?show=<id>` (the album page holding it
# again), `/index.php/items/<id>` and `/index.php/photos/<id>` (the photo again, by id),
# EXIF `/index.php/exif/show/<id>` (a table of its own), and "Print"
# `/index.php/digibug/print_photo/<id>?csrf=<token minted per response>`. Album and tag
# pagers run on past the last page ("Next" never stops). Real pages in the family: every
# album's `?page=2` (its last two photos are only linked there and from the photo arrows).
# robots.txt: login, admin, comments, uploader, REST, full-size files, user profiles.
# ----------------------------------------------------------------------------------------

G = "/index.php"


class Gallery3(B14):
    """Gallery 3: ?show=/items/photos id copies, EXIF, print csrf tokens, endless pagers."""

    name = "gallery3"
    kind = "Gallery 3: ?show=<id>, /items/<id>, EXIF, print ?csrf=<per response>, ?page=N"
    theme = "travel"
    brand = "Saltmarsh Photo Club"
    robots_disallow: ClassVar[list[str]] = [
        f"{G}/login",
        f"{G}/admin",
        f"{G}/comments",
        f"{G}/uploader",
        f"{G}/rest",
        "/var/albums/",
        f"{G}/user_profile",
    ]

    def make(self) -> None:
        self.albums = slugs(self.key("al"), 5, self.v, 2)
        self.photos = {a: slugs(self.key(f"ph{a}"), 4, self.v, 2) for a in self.albums}
        self.pid: dict[int, tuple[str, int]] = {}
        for ai, a in enumerate(self.albums):
            for k in range(4):
                self.pid[7 + ai * 4 + k] = (a, k)
        self.tags = slugs(self.key("tg"), 3, self.v, 1)
        self.add("root", "/", lambda r: self.root())
        for a in self.albums:
            self.add(f"a{a}", f"{G}/{a}", lambda r, a=a: self.album(a, 1, ""))
            self.add(f"a{a}2", f"{G}/{a}?page=2", lambda r, a=a: self.album(a, 2, ""))
        for i in self.pid:
            self.add(f"p{i}", self.purl(i), lambda r, i=i: self.photo(i))
        for t, tag in enumerate(self.tags):
            self.add(f"t{tag}", f"{G}/tag/{t + 1}/{tag}", lambda r, t=t: self.tag(t, 1, ""))

    def purl(self, i: int) -> str:
        a, k = self.pid[i]
        return f"{G}/{a}/{self.photos[a][k]}"

    def head(self) -> list[tuple[str, str]]:
        return [(f"{G}/login/ajax", "Login"), ("/", "Gallery")]

    def root(self) -> str:
        links = [(f"{G}/{a}", title_of(a)) for a in self.albums]
        links += [(f"{G}/tag/{t + 1}/{tag}", tag) for t, tag in enumerate(self.tags)]
        return self.html("Saltmarsh Photo Club", "root", ul(links + self.head()), 40, 100)

    def album(self, a: str, page: int, key: str) -> str:
        ai = self.albums.index(a)
        ids = [7 + ai * 4 + k for k in range(4)][(page - 1) * 2 : page * 2]
        links = [(self.purl(i), title_of(self.pid[i][0] + " " + str(i))) for i in ids]
        links.append((f"{G}/{a}?page={page + 1}", "Next"))
        if page > 1:
            links.append((f"{G}/{a}?page={page - 1}", "Previous"))
        links += self.head()
        return self.html(f"{title_of(a)}, page {page}", key or f"a{a}{page}", ul(links), 20, 70)

    def photo(self, i: int) -> str:
        a, k = self.pid[i]
        links = [(f"{G}/{a}?show={i}", "Return to album")]
        if k > 0:
            links.append((self.purl(i - 1), "Previous photo"))
        if k < 3:
            links.append((self.purl(i + 1), "Next photo"))
        links.append((f"{G}/tag/{i % 3 + 1}/{self.tags[i % 3]}", self.tags[i % 3]))
        links += [
            (f"{G}/exif/show/{i}", "Photo details"),
            (f"/var/albums/{a}/{i}.jpg", "Full size"),
        ]
        links.append((f"{G}/digibug/print_photo/{i}?csrf={self.fresh(32)}", "Print this photo"))
        links.append((f"{G}/comments/create/{i}", "Add a comment"))
        return self.html(title_of(self.photos[a][k]), f"p{i}", ul(links + self.head()), 40, 120)

    def tag(self, t: int, page: int, key: str) -> str:
        ids = [i for i in self.pid if i % 3 == t][(page - 1) * 4 : page * 4]
        links = [(self.purl(i), f"Photo {i}") for i in ids]
        links.append((f"{G}/tag/{t + 1}/{self.tags[t]}?page={page + 1}", "Next"))
        return self.html(f"Tag: {self.tags[t]}, page {page}", key or f"t{t}", ul(links), 15, 50)

    def rest(self, req: Req) -> Reply:
        p, q = req.path, qs(req.query)
        m = re.fullmatch(rf"{G}/([a-z-]+)", p)
        if m and m.group(1) in self.albums:
            a = m.group(1)
            if "show" in q and num(q, "show") in self.pid:
                return trap(self.album(a, 1 + self.pid[num(q, "show")][1] // 2, ""))
            page = max(1, num(q, "page", 1))
            return trap(self.album(a, page, "" if page <= 2 else req.key))
        m = re.fullmatch(rf"{G}/(items|photos)/(\d+)", p)
        if m and int(m.group(2)) in self.pid:
            return trap(self.photo(int(m.group(2))))
        m = re.fullmatch(rf"{G}/exif/show/(\d+)", p)
        if m and int(m.group(1)) in self.pid:
            i = int(m.group(1))
            links = [(f"{G}/items/{i}", "Back to photo"), (f"{G}/exif/show/{i % 20 + 7}", "Next")]
            return self.tr(req, f"EXIF for photo {i}", links)
        m = re.fullmatch(rf"{G}/digibug/print_photo/(\d+)", p)
        if m and int(m.group(1)) in self.pid:
            i = int(m.group(1))
            links = [(f"{G}/items/{i}", "Back to photo")]
            for j in (i % 20 + 7, (i + 5) % 20 + 7):
                links.append((f"{G}/digibug/print_photo/{j}?csrf={self.fresh(32)}", f"Print {j}"))
            return self.tr(req, f"Order prints of photo {i}", links)
        m = re.fullmatch(rf"{G}/tag/(\d)/([a-z]+)", p)
        if m and 1 <= int(m.group(1)) <= 3:
            return trap(self.tag(int(m.group(1)) - 1, max(1, num(q, "page", 1)), req.key))
        return not_found()


# ----------------------------------------------------------------------------------------
# A railway timetable site. Departure boards `/board/<STA>?date=&time=` with "Later"
# and "Earlier" (six hours a step, rolling over days without end) and previous/next day;
# train runs `/train/<n>?date=` with day arrows and a carriages view under every train;
# the journey planner `/journey?from=&to=&date=&time=&via=...` (every "Add a stop-over"
# appends a `&via=`, later/earlier connections), whose "Details" link is
# `/journey/details?...`, a 302 to `/trip/<token minted per visit>`. Real pages in the
# family: every station's `?date=2026-12-05&time=12:00` and `&time=18:00` (only along
# "Later"). robots.txt: tickets, account, API, basket, login, booking.
# ----------------------------------------------------------------------------------------

_DAY = dt.date(2026, 12, 5)
_SLOTS = ("00:00", "06:00", "12:00", "18:00")


class Timetable(B14):
    """Rail timetable: boards later/earlier without end, via lists, per-visit trip tokens."""

    name = "timetable"
    kind = "railway timetable: board later/earlier, train ?date=, journey &via=, /trip/<token>"
    theme = "travel"
    brand = "Coastline Railways"
    robots_disallow: ClassVar[list[str]] = [
        "/tickets/",
        "/account/",
        "/api/",
        "/basket",
        "/login",
        "/booking/",
    ]

    def make(self) -> None:
        names = slugs(self.key("st"), 6, self.v, 1)
        self.sta = {n[:3].upper() + str(i): title_of(n) for i, n in enumerate(names)}
        self.codes = list(self.sta)
        self.lines = {f"L{k + 1}": self.codes[k : k + 4] for k in range(3)}
        self.trains = {1100 + 17 * i: f"L{i % 3 + 1}" for i in range(8)}
        self.add("home", "/", lambda r: self.home())
        self.add("about", "/about", lambda r: self.thin("About", "about", [("/", "Home")]))
        self.add("lines", "/lines/", lambda r: self.thin("Lines", "lines", self.llinks()))
        for ln in self.lines:
            self.add(f"l{ln}", f"/line/{ln}", lambda r, ln=ln: self.line(ln))
        for s in self.codes:
            self.add(f"b{s}", f"/board/{s}", lambda r, s=s: self.board(s, _DAY, "06:00", ""))
            for t in ("12:00", "18:00"):
                self.add(
                    f"b{s}{t}",
                    self.burl(s, _DAY, t),
                    lambda r, s=s, t=t: self.board(s, _DAY, t, ""),
                )
        for n in self.trains:
            self.add(f"t{n}", f"/train/{n}", lambda r, n=n: self.train(n, _DAY, ""))

    def burl(self, s: str, d: dt.date, t: str) -> str:
        return f"/board/{s}?date={d}&time={t}"

    def llinks(self) -> list[tuple[str, str]]:
        return [(f"/line/{ln}", f"Line {ln}") for ln in self.lines]

    def home(self) -> str:
        links = [(f"/board/{s}", n) for s, n in self.sta.items()]
        links += [("/lines/", "Lines"), ("/about", "About"), ("/tickets/", "Tickets")]
        links += [("/account/", "My account")]
        return self.html("Coastline Railways timetable", "home", ul(links), 40, 110)

    def line(self, ln: str) -> str:
        links = [(f"/train/{n}", f"Train {n}") for n, x in self.trains.items() if x == ln]
        links += [(f"/board/{s}", self.sta[s]) for s in self.lines[ln]]
        return self.html(f"Line {ln}", f"l{ln}", ul(links), 30, 90)

    def jurl(self, a: str, b: str, d: dt.date, t: str, via: list[str]) -> str:
        return f"/journey?from={a}&to={b}&date={d}&time={t}" + "".join(f"&via={v}" for v in via)

    def shift(self, d: dt.date, t: str, k: int) -> tuple[dt.date, str]:
        n = _SLOTS.index(t) + k if t in _SLOTS else k
        return d + dt.timedelta(days=n // 4), _SLOTS[n % 4]

    def board(self, s: str, d: dt.date, t: str, key: str) -> str:
        ts = [n for n, ln in self.trains.items() if s in self.lines[ln]]
        links = [(f"/train/{n}?date={d}", f"{t} train {n}") for n in ts]
        links += [
            (self.burl(s, *self.shift(d, t, 1)), "Later"),
            (self.burl(s, *self.shift(d, t, -1)), "Earlier"),
        ]
        links += [
            (self.burl(s, d + dt.timedelta(days=1), t), "Next day"),
            (f"{self.burl(s, d, t)}&arrivals=1", "Arrivals"),
        ]
        links += [(self.jurl(s, o, d, t, []), f"To {self.sta[o]}") for o in self.codes if o != s][
            :3
        ]
        return self.html(
            f"Departures from {self.sta[s]}, {d} {t}", key or f"b{s}{t}", ul(links), 20, 60
        )

    def train(self, n: int, d: dt.date, key: str) -> str:
        links = [(f"/board/{s}", self.sta[s]) for s in self.lines[self.trains[n]]]
        links += [(f"/train/{n}?date={d + dt.timedelta(days=k)}", f"{k:+d} day") for k in (-1, 1)]
        links += [
            (f"/train/{n}/carriages?date={d}", "Carriages"),
            (f"/tickets/?train={n}&date={d}", "Buy"),
        ]
        links.append((f"/line/{self.trains[n]}", "Line"))
        return self.html(f"Train {n} on {d}", key or f"t{n}", ul(links), 40, 100)

    def rest(self, req: Req) -> Reply:
        p, q = req.path, qs(req.query)
        try:
            d = dt.date.fromisoformat(q.get("date", str(_DAY)))
        except ValueError:
            return not_found()
        m = re.fullmatch(r"/board/([A-Z]{3}\d)", p)
        if m and m.group(1) in self.sta:
            return trap(self.board(m.group(1), d, q.get("time", "06:00"), req.key))
        m = re.fullmatch(r"/train/(\d+)(/carriages)?", p)
        if m and int(m.group(1)) in self.trains:
            n = int(m.group(1))
            if m.group(2):
                return self.tr(req, f"Carriages of {n} on {d}", [(f"/train/{n}?date={d}", "Train")])
            return trap(self.train(n, d, "" if d == _DAY else req.key))
        if (
            p in ("/journey", "/journey/details")
            and q.get("from") in self.sta
            and q.get("to") in self.sta
        ):
            a, b, t = q["from"], q["to"], q.get("time", "06:00")
            via = [v for k, v in qpairs(req.query) if k == "via" and v in self.sta]
            if p == "/journey/details":
                return redirect(f"/trip/{self.fresh(20)}?from={a}&to={b}")
            links = [(self.jurl(a, b, *self.shift(d, t, 1), via), "Later connections")]
            links.append((self.jurl(a, b, *self.shift(d, t, -1), via), "Earlier connections"))
            links += [
                (self.jurl(a, b, d, t, [*via, o]), f"Stop over at {self.sta[o]}")
                for o in self.codes
                if o not in (a, b, *via)
            ]
            links += [(self.jurl(b, a, d, t, []), "Return journey")]
            links += [
                ("/journey/details" + self.jurl(a, b, d, t, via)[8:] + f"&k={k}", f"Details {k}")
                for k in (1,)
            ]
            return self.tr(req, f"{self.sta[a]} to {self.sta[b]}, {d} {t}", links)
        m = re.fullmatch(r"/trip/([0-9a-f]{20})(/share)?", p)
        if m and q.get("from") in self.sta and q.get("to") in self.sta:
            a, b = q["from"], q["to"]
            links = [
                (f"/trip/{m.group(1)}/share?from={a}&to={b}", "Share"),
                (self.jurl(a, b, _DAY, "06:00", []), "Back"),
            ]
            links.append((f"/booking/start?trip={m.group(1)}", "Book"))
            return self.tr(req, f"Trip {m.group(1)}", links)
        return not_found()


# ----------------------------------------------------------------------------------------
# A property portal (host 0) and one estate agent's own site (host 1: its own home, about,
# team and contact pages; its listings `/property/<id>` and `/search?...` are the portal's
# pages again). Searches `/property-for-sale/find.html?locationIdentifier=REGION%5E<n>`:
# sort, price, bedrooms, property type, radius and "added" links each move their key to
# the end with its new value (the same search under many key orders), "Next" `&index=`
# in steps of 4 up to 996. Property pages' "Similar homes" links carry
# `?from=<the current URL, encoded>`, which nests on every click. Real pages in the family:
# each region's `&index=4` (two homes only there). robots.txt: user, login, API, mortgage
# tools, shortlist, contact forms, admin.
# ----------------------------------------------------------------------------------------

F = "/property-for-sale/find.html"
_FILTERS = {
    "sortType": ("1", "2", "6", "10"),
    "minPrice": ("100000", "200000", "300000"),
    "maxPrice": ("250000", "400000", "750000"),
    "minBedrooms": ("1", "2", "3", "4"),
    "propertyTypes": ("detached", "semi-detached", "terraced", "flat"),
    "radius": ("0.25", "1.0", "5.0"),
    "maxDaysSinceAdded": ("1", "7", "14"),
}


class Realestate(B14):
    """Property portal: filters in click order, from= nesting, an agent's second host."""

    name = "realestate"
    kind = "property portal + agent site: find.html filters in click order, from= nests"
    theme = "corp"
    brand = "Harbour Homes"
    hosts = 2
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/"), (1, "/")]
    robots_disallow: ClassVar[list[str]] = [
        "/user/",
        "/login",
        "/api/",
        "/mortgage-",
        "/shortlist",
        "/contact-agent/",
        "/wp-admin/",
    ]

    def make(self) -> None:
        self.regions = {
            f"REGION%5E{870 + 31 * k}": title_of(s)
            for k, s in enumerate(slugs(self.key("r"), 3, self.v, 1))
        }
        self.rkeys = list(self.regions)
        self.props = {
            140230000 + 977 * i: title_of(s)
            for i, s in enumerate(slugs(self.key("h"), 18, self.v, 2))
        }
        self.pids = list(self.props)
        self.add("home", "/", lambda r: self.home())
        self.add(
            "prices", "/house-prices", lambda r: self.thin("House prices", "hp", [("/", "Home")])
        )
        for a in (0, 1):
            self.add(f"ag{a}", f"/agents/{a + 1}", lambda r, a=a: self.agent(a))
        for k, rk in enumerate(self.rkeys):
            self.add(
                f"r{k}",
                f"{F}?locationIdentifier={rk}",
                lambda r, k=k: self.find([("locationIdentifier", self.rkeys[k])], ""),
            )
            t = f"{F}?locationIdentifier={rk}&index=4"
            self.add(
                f"r{k}i",
                t,
                lambda r, k=k: self.find(
                    [("locationIdentifier", self.rkeys[k]), ("index", "4")], ""
                ),
            )
        for x in self.pids:
            self.add(f"p{x}", f"/properties/{x}", lambda r, x=x: self.prop(x, r))
        own = [("/about-us", "About us"), ("/meet-the-team", "Team"), ("/contact", "Contact")]
        self.add("qhome", "/", lambda r: self.ahome(own), 1)
        for t, name in own:
            self.add(
                f"q{t}",
                t,
                lambda r, t=t, n=name: self.thin(
                    n, f"q{t}", [("/", "Home"), ("/contact-agent/", "Email")]
                ),
                1,
            )

    def region_of(self, x: int) -> int:
        return self.pids.index(x) // 6

    def home(self) -> str:
        links = [
            (f"{F}?locationIdentifier={rk}", f"For sale in {n}") for rk, n in self.regions.items()
        ]
        links += [
            ("/house-prices", "House prices"),
            ("/agents/1", "Agents"),
            ("/agents/2", "Agents"),
        ]
        links += [("/user/login", "Sign in"), ("/mortgage-calculator", "Mortgages")]
        return self.html("Harbour Homes property search", "home", ul(links), 40, 120)

    def agent(self, a: int) -> str:
        links = [(self.bases[1] + "/", "Agent's website")] if a == 0 else []
        links += [(f"/properties/{x}", self.props[x]) for x in self.pids[a::6][:3]]
        return self.html(f"Agent {a + 1}", f"ag{a}", ul(links), 30, 80)

    def ahome(self, own: list[tuple[str, str]]) -> str:
        links = own + [(f"/property/{x}", self.props[x]) for x in self.pids[::4]]
        links.append((f"/search?locationIdentifier={self.rkeys[0]}", "Search"))
        return self.html("Quay Estates", "qhome", ul(links), 40, 100)

    def furl(self, pairs: list[tuple[str, str]], path: str = F) -> str:
        return path + "?" + "&".join(f"{k}={v}" for k, v in pairs)

    def find(self, pairs: list[tuple[str, str]], key: str, path: str = F) -> str:
        d = dict(pairs)
        k = self.rkeys.index(d["locationIdentifier"])
        idx = int(d.get("index", "0")) if d.get("index", "0").isdigit() else 0
        mine = self.pids[k * 6 : k * 6 + 6]
        if key:
            h = sum(map(ord, key))
            mine = [x for j, x in enumerate(mine) if (h >> j) & 1] or mine[:1]
        links = [(f"/properties/{x}", self.props[x]) for x in mine[idx : idx + 4]]
        base = [(a, b) for a, b in pairs if a != "index"]
        for f, vals in _FILTERS.items():
            for v in vals:
                if d.get(f) != v:
                    links.append(
                        (
                            self.furl([*[(a, b) for a, b in base if a != f], (f, v)], path),
                            f"{f} {v}",
                        )
                    )
        if idx + 4 < 1000:
            links.append((self.furl([*base, ("index", str(idx + 4))], path), "Next"))
        return self.html(
            f"Property for sale in {self.regions[d['locationIdentifier']]} from {idx}",
            key or f"f{k}{idx}",
            ul(links),
            20,
            60,
        )

    def prop(self, x: int, req: Req) -> str:
        k = self.region_of(x)
        links = [(f"{F}?locationIdentifier={self.rkeys[k]}", "Back to search results")]
        i = self.pids.index(x)
        frm = quote(req.target, safe="")
        links += [
            (f"/properties/{self.pids[(i + j) % 18]}?from={frm}", "Similar home") for j in (1, 7)
        ]
        links += [(f"/shortlist?add={x}", "Save"), (f"/contact-agent/{x}", "Contact agent")]
        return self.html(self.props[x], f"p{x}", ul(links), 60, 150)

    def rest(self, req: Req) -> Reply:
        p = req.path
        if p == (F if req.host_index == 0 else "/search"):
            pairs = [
                (k, v)
                for k, v in qpairs(req.query)
                if k in _FILTERS or k in ("locationIdentifier", "index")
            ]
            if dict(pairs).get("locationIdentifier") in self.regions:
                return trap(self.find(pairs, req.key, p))
        m = re.fullmatch(r"/propert(?:ies|y)/(\d+)", p)
        if m and int(m.group(1)) in self.props:
            return trap(self.prop(int(m.group(1)), req))
        return not_found()
