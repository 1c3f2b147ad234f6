"""blind10 sites, part b: Spring Web Flow, Lemmy, the Apache HTTP Server manual."""

from __future__ import annotations

import random
from typing import ClassVar

from traps.blind.kit import Reply, Req, not_found, redirect, slugs, title_of
from traps.blind2.common import esc, qs, trap, ul

from .common import Base

# ----------------------------------------------------------------------------------------
# Spring Web Flow: the "Spring Travel" booking sample grown into a small hotel site.
# /hotels/search and the result lists /hotels?searchString=&pageSize=5&page=N (real, they
# end), hotels /hotels/<id> (linked only from result lists). "Book hotel" is
# /hotels/booking?hotelId=<id>: the flow starts and 302s to ?execution=e<C>s1 with a new
# conversation number C (every visit); the view's links ?execution=e<C>s<M>&_eventId=
# proceed|revise 302 to the next snapshot e<C>s<M+1> (without end), cancel to the search;
# an unknown key restarts the flow (302, new C). robots.txt: the site's own (/users/).
# ----------------------------------------------------------------------------------------


class SpringWebFlow(Base):
    """Spring Web Flow: a fresh flow-execution key per visit to any flow URL."""

    name = "webflow"
    kind = "Spring Web Flow booking: ?execution=e<N>s<M> keys minted per request (302s)"
    theme = "travel"
    brand = "Spring Travel"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/users/"]

    def make(self) -> None:
        self.cities = ["Atlanta", "Barcelona", "Melbourne", "Zurich"]
        names = slugs(self.key("h"), 24, self.v, 2)
        self.hotels = {i + 1: (names[i], self.cities[i % 4]) for i in range(24)}
        self.conv = 0
        self.add(
            "home",
            "/",
            lambda r: self.html(
                "Spring Travel",
                "home",
                ul([("/hotels/search", "Start your Spring Travel experience")]),
            ),
        )
        links = [("/hotels?searchString=&pageSize=5", "All hotels")]
        links += [(f"/hotels?searchString={c}&pageSize=5", c) for c in self.cities]
        links += [("/users/login", "Login")]
        self.add(
            "search", "/hotels/search", lambda r: self.html("Search Hotels", "search", ul(links))
        )
        for s, ids in [("", list(self.hotels))] + [
            (c, [i for i, (_, cc) in self.hotels.items() if cc == c]) for c in self.cities
        ]:
            for pg in range((len(ids) + 4) // 5):
                t = f"/hotels?searchString={s}&pageSize=5" + (f"&page={pg}" if pg else "")
                self.add(f"l{s}{pg}", t, lambda r, s=s, ids=ids, pg=pg: self.results(s, ids, pg))
        for i in self.hotels:
            self.add(f"h{i}", f"/hotels/{i}", lambda r, i=i: self.hotel(i))

    def results(self, s: str, ids: list[int], pg: int) -> str:
        items = [(f"/hotels/{i}", title_of(self.hotels[i][0])) for i in ids[pg * 5 : pg * 5 + 5]]
        more = []
        if (pg + 1) * 5 < len(ids):
            more = [(f"/hotels?searchString={s}&pageSize=5&page={pg + 1}", "More results")]
        return self.html(f"Hotel results {s or 'all'} {pg + 1}", f"res{s}{pg}", ul(items + more))

    def hotel(self, i: int, extra: str = "") -> str:
        name, city = self.hotels[i]
        body = f"<p>{esc(city)}</p>" + ul(
            [(f"/hotels/booking?hotelId={i}", "Book hotel"), ("/hotels/search", "Back to search")]
        )
        return self.html(title_of(name) + extra, f"hotel{i}", body)

    def start(self, i: int) -> Reply:
        with self._lock:
            self.conv += 1
            c = self.conv
        return redirect(f"/hotels/booking?execution=e{c}s1&hotelId={i}")

    def rest(self, req: Req) -> Reply:
        q = qs(req.query)
        if req.path != "/hotels/booking":
            return not_found()
        hid = int(q["hotelId"]) if q.get("hotelId", "").isdigit() else 0
        ex = q.get("execution", "")
        c, _, m = ex[1:].partition("s")
        if not (ex.startswith("e") and c.isdigit() and m.isdigit() and 0 < int(c) <= self.conv):
            return self.start(hid if hid in self.hotels else 1)
        if hid not in self.hotels:
            hid = 1 + int(c) % 24
        ev = q.get("_eventId", "")
        if ev in ("proceed", "revise"):
            return redirect(f"/hotels/booking?execution=e{c}s{int(m) + 1}&hotelId={hid}")
        if ev:
            return redirect("/hotels/search")
        step = "Review booking" if int(m) % 2 == 0 else "Enter booking details"
        links = [
            (f"/hotels/booking?execution={ex}&_eventId=proceed&hotelId={hid}", "Proceed"),
            (f"/hotels/booking?execution={ex}&_eventId=revise&hotelId={hid}", "Revise"),
            (f"/hotels/booking?execution={ex}&_eventId=cancel", "Cancel"),
            (f"/hotels/{hid}", "Hotel details"),
        ]
        page = self.hotel(hid, f" - {step} ({ex})")
        return trap(page.replace("</h1>", "</h1>" + ul(links), 1))


# ----------------------------------------------------------------------------------------
# Lemmy 0.19, two federated instances (host 0 and host 1), each with its own communities,
# posts, comments and users. Each instance also shows the other's community it follows:
# /c/<name>@<other> lists local copies of the remote posts at local ids (/post/<id>),
# remote users /u/<name>@<other>. Listing pages carry ?dataType=Post|Comment&sort=<11>&
# listingType=All|Local|Subscribed&page=N (ends when results end), posts link comment
# permalinks /comment/<id> (the thread again), users ?view=&sort=&page=.
# robots.txt: Lemmy's default (lemmy-ui's: /login, /settings, /create_*, /inbox, /search).
# ----------------------------------------------------------------------------------------

_SORTS = [
    "Active",
    "Hot",
    "New",
    "Old",
    "TopDay",
    "TopWeek",
    "TopMonth",
    "TopYear",
    "TopAll",
    "MostComments",
    "NewComments",
]
_LT = ["All", "Local", "Subscribed"]


class Lemmy(Base):
    """Lemmy: two instances with federated copies, sort/listing/page listing links."""

    name = "lemmy"
    kind = "Lemmy, 2 federated instances: remote copies, sort x listingType x page, /comment/"
    hosts = 2
    theme = "forum"
    brand = "Lemmy"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/"), (1, "/")]
    robots_disallow: ClassVar[list[str]] = [
        "/login",
        "/settings",
        "/create_community",
        "/create_post",
        "/create_private_message",
        "/inbox",
        "/search",
        "/modlog",
        "/admin",
        "/setup",
        "/password_change",
    ]

    def make(self) -> None:
        self.inst = ["lemmy.harbour.example", "quay.social"]
        cs = slugs(self.key("c"), 4, self.v, 1)
        self.comms = {0: cs[:2], 1: cs[2:]}
        self.users = {0: ["anouk", "brisk", "corvid"], 1: ["delta", "ember"]}
        self.posts: dict[int, dict[int, tuple[str, str]]] = {0: {}, 1: {}}
        for h in (0, 1):
            rng = self.rng(f"p{h}")
            for k in range(10 if h == 0 else 8):
                self.posts[h][100 * (h + 1) + k] = (self.comms[h][k % 2], rng.choice(self.users[h]))
        self.fed = {
            1: {
                900 + k: p
                for k, p in enumerate(self.posts[0])
                if self.posts[0][p][0] == self.comms[0][0]
            },
            0: {
                800 + k: p
                for k, p in enumerate(self.posts[1])
                if self.posts[1][p][0] == self.comms[1][0]
            },
        }
        for h in (0, 1):
            self.add(f"{h}home", "/", lambda r, h=h: self.listing(h, None, {}), host=h)
            self.add(f"{h}comms", "/communities", lambda r, h=h: self.communities(h), host=h)
            for c in self.comms[h]:
                self.add(f"{h}c{c}", f"/c/{c}", lambda r, h=h, c=c: self.listing(h, c, {}), host=h)
            for p in self.posts[h]:
                self.add(
                    f"{h}p{p}", f"/post/{p}", lambda r, h=h, p=p: self.post(h, h, p, p), host=h
                )
            for u in self.users[h]:
                self.add(f"{h}u{u}", f"/u/{u}", lambda r, h=h, u=u: self.user(h, u, {}), host=h)

    def communities(self, h: int) -> str:
        o = 1 - h
        links = [(f"/c/{c}", c) for c in self.comms[h]] + [
            (f"/c/{self.comms[o][0]}@{self.inst[o]}", self.comms[o][0] + " (remote)")
        ]
        return self.html("Communities", f"comms{h}", ul(links))

    def plist(self, h: int, c: str | None, sort: str) -> list[tuple[int, int, int]]:
        """(local id, origin host, origin id) of the posts a listing shows."""
        o = 1 - h
        own = [(p, h, p) for p, (cc, _) in self.posts[h].items() if c in (None, cc)]
        rem = (
            [(lid, o, p) for lid, p in self.fed[h].items()]
            if c in (None, f"{self.comms[o][0]}@{self.inst[o]}")
            else []
        )
        if c and "@" in c:
            own = []
        out = own + rem
        random.Random(sort).shuffle(out)
        return out

    def listing(self, h: int, c: str | None, q: dict[str, str]) -> str:
        sort = q.get("sort", "Active")
        page = int(q["page"]) if q.get("page", "").isdigit() else 1
        items = self.plist(h, c, sort)
        shown = items[(page - 1) * 6 : page * 6]
        base = f"/c/{c}" if c else "/"
        dt, lt = q.get("dataType", "Post"), q.get("listingType", "Local")
        links = [(f"/post/{lid}", f"Post {lid}") for lid, _, _ in shown]
        opts = [
            (f"{base}?dataType={d}&listingType={lt}&page=1&sort={sort}", d)
            for d in ("Post", "Comment")
        ]
        opts += [(f"{base}?dataType={dt}&listingType={x}&page=1&sort={sort}", x) for x in _LT]
        opts += [(f"{base}?dataType={dt}&listingType={lt}&page=1&sort={s}", s) for s in _SORTS]
        if page > 1:
            opts.append(
                (f"{base}?dataType={dt}&listingType={lt}&page={page - 1}&sort={sort}", "Prev")
            )
        if page * 6 < len(items):
            opts.append(
                (f"{base}?dataType={dt}&listingType={lt}&page={page + 1}&sort={sort}", "Next")
            )
        nav = [("/communities", "Communities"), ("/login", "Login")]
        title = f"{c or 'Front page'} ({sort}, {page})" if q else (c or "Front page")
        return self.html(title, f"list{h}{c}", ul(nav + links) + ul(opts))

    def post(self, h: int, oh: int, lid: int, p: int, cid: int = 0) -> str:
        c, u = self.posts[oh][p]
        cname = c if oh == h else f"{c}@{self.inst[oh]}"
        uname = u if oh == h else f"{u}@{self.inst[oh]}"
        links = [(f"/c/{cname}", cname), (f"/u/{uname}", uname)]
        if oh != h:
            links.append((self.url(oh, f"/post/{p}"), "Original post"))
        links += [(f"/comment/{lid * 10 + k}", f"Comment {k} link") for k in range(1, 4)]
        extra = f" (comment {cid})" if cid else ""
        return self.html(f"Post {p}{extra}", f"post{oh}:{p}", ul(links))

    def user(self, h: int, u: str, q: dict[str, str]) -> str:
        local = "@" not in u
        mine = [
            p for p, (_, uu) in self.posts[h if local else 1 - h].items() if uu == u.split("@")[0]
        ]
        links = [(f"/post/{p}", f"Post {p}") for p in mine] if local else []
        view = q.get("view", "Overview")
        page = int(q["page"]) if q.get("page", "").isdigit() else 1
        links += [
            (f"/u/{u}?view={v}&sort=New&page=1", v)
            for v in ("Overview", "Comments", "Posts", "Saved")
        ]
        links += [(f"/u/{u}?view={view}&sort={s}&page={page}", s) for s in _SORTS[2:5]]
        if page * 2 < len(mine) + 6:
            links.append(
                (f"/u/{u}?view={view}&sort={q.get('sort', 'New')}&page={page + 1}", "Next")
            )
        return self.html(f"{u} {view} {page}" if q else u, f"user{h}{u}", ul(links))

    def rest(self, req: Req) -> Reply:
        h, path, q = req.host_index, req.path, qs(req.query)
        if path == "/" and q:
            return trap(self.listing(h, None, q))
        if path.startswith("/c/"):
            c = path[3:]
            if c in self.comms[h] or c == f"{self.comms[1 - h][0]}@{self.inst[1 - h]}":
                return trap(self.listing(h, c, q))
        if path.startswith("/post/") and path[6:].isdigit():
            lid = int(path[6:])
            if lid in self.fed[h]:
                return trap(self.post(h, 1 - h, lid, self.fed[h][lid]))
            if lid in self.posts[h]:
                return trap(self.post(h, h, lid, lid))
        if path.startswith("/comment/") and path[9:].isdigit():
            cid = int(path[9:])
            lid = cid // 10
            if lid in self.fed[h]:
                return trap(self.post(h, 1 - h, lid, self.fed[h][lid], cid))
            if lid in self.posts[h]:
                return trap(self.post(h, h, lid, lid, cid))
        if path.startswith("/u/"):
            u = path[3:]
            if u in self.users[h] or (
                u == f"{u.split('@')[0]}@{self.inst[1 - h]}"
                and u.split("@")[0] in self.users[1 - h]
            ):
                return trap(self.user(h, u, q))
        return not_found()


# ----------------------------------------------------------------------------------------
# The Apache HTTP Server manual. Host 0 (httpd.apache.org): /docs/2.4/ with modules,
# how-tos and real French translations of four modules, the real 2.2 manual. Every page
# has "Available Languages: de en es fr ja ko tr" (/docs/2.4/<lang>/...: MultiViews falls
# back to the English text when there is no translation), /docs/current/ (same tree) and
# /docs/trunk/ links. Host 1: a company's web server with its own pages and the manual its
# Apache install serves at /manual/ (the same tree again, /manual/<lang>/...).
# robots.txt: host 0's (the author's approximation: /dev/dist/ ...); host 1 none of its own.
# ----------------------------------------------------------------------------------------

_LANGS = ["de", "en", "es", "fr", "ja", "ko", "tr"]


class ApacheManual(Base):
    """Apache manual: MultiViews language fallbacks, current/trunk, a /manual/ copy."""

    name = "apachemanual"
    kind = "Apache httpd manual: /<lang>/ MultiViews fallback, /docs/current/, trunk, /manual/ host"
    hosts = 2
    theme = "docs"
    brand = "Apache HTTP Server"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/"), (1, "/")]
    robots_disallow: ClassVar[list[str]] = ["/dev/dist/"]

    def make(self) -> None:
        self.mods = [f"mod_{s}" for s in slugs(self.key("m"), 8, self.v, 1)]
        self.howtos = slugs(self.key("ht"), 4, self.v, 1)
        self.fr = set(self.mods[:4])
        self.docs = [
            "",
            "mod/",
            *[f"mod/{m}.html" for m in self.mods],
            "howto/",
            *[f"howto/{x}.html" for x in self.howtos],
        ]
        self.add(
            "home",
            "/",
            lambda r: self.html(
                "The Apache HTTP Server Project", "home", ul([("/docs/", "Documentation")])
            ),
        )
        self.add(
            "docs",
            "/docs/",
            lambda r: self.html(
                "Documentation versions",
                "docs",
                ul(
                    [
                        ("/docs/2.4/", "Version 2.4"),
                        ("/docs/2.2/", "Version 2.2"),
                        ("/docs/current/", "Current"),
                        ("/docs/trunk/", "Trunk"),
                    ]
                ),
            ),
        )
        for d in self.docs:
            self.add(f"24{d}", f"/docs/2.4/{d}", lambda r, d=d: self.page("/docs/2.4/", d, "en"))
        for m in self.fr:
            self.add(
                f"fr{m}",
                f"/docs/2.4/fr/mod/{m}.html",
                lambda r, m=m: self.page("/docs/2.4/", f"mod/{m}.html", "fr"),
            )
        self.old = ["", "mod/", *[f"mod/{m}.html" for m in self.mods[:5]]]
        for d in self.old:
            self.add(f"22{d}", f"/docs/2.2/{d}", lambda r, d=d: self.page22(d))
        own = slugs(self.key("own"), 6, self.v, 2)
        self.add(
            "h1",
            "/",
            lambda r: self.html(
                "Quayside Freight",
                "q-home",
                ul([(f"/{s}.html", title_of(s)) for s in own] + [("/manual/", "Server manual")]),
            ),
            host=1,
        )
        for s in own:
            self.add(
                f"q{s}",
                f"/{s}.html",
                lambda r, s=s: self.html(title_of(s), f"q{s}", '<a href="/">Home</a>'),
                host=1,
            )

    def kids(self, d: str) -> list[tuple[str, str]]:
        if d == "":
            return [("mod/", "Modules"), ("howto/", "How-To / Tutorials")]
        if d == "mod/":
            return [(f"{m}.html", m) for m in self.mods]
        if d == "howto/":
            return [(f"{x}.html", title_of(x)) for x in self.howtos]
        return []

    def page(self, root: str, d: str, lang: str) -> str:
        here = root + (f"{lang}/" if lang != "en" or "/en/" in root else "") + d
        base = here.rsplit("/", 1)[0] + "/"
        links = [(base + h, t) for h, t in self.kids(d)]
        langs = " | ".join(f'<a href="{root}{x}/{d}">{x}</a>' for x in _LANGS)
        other = [
            ("/docs/current/" + d, "Current release"),
            ("/docs/trunk/" + d, "Development version"),
        ]
        if d.startswith("mod/") and d[4:-5] in self.mods[:5]:
            other.append(("/docs/2.2/" + d, "2.2 version of this document"))
        if root.startswith("/manual/"):
            other = []
        body = (
            f"<p>Available Languages: {langs}</p>"
            + ul(links + other)
            + f'<p><a href="{root}">Manual index</a></p>'
        )
        key = f"{'fr' if lang == 'fr' and d[4:-5] in self.fr else 'en'}{d}"
        return self.html(f"{d or 'Documentation'} - Apache HTTP Server Version 2.4", key, body)

    def page22(self, d: str) -> str:
        links = [
            (f"/docs/2.2/{h}" if d == "" else f"/docs/2.2/mod/{h}", t)
            for h, t in self.kids(d)
            if d != "mod/" or h[:-5] in self.mods[:5]
        ]
        if d == "":
            links = [("/docs/2.2/mod/", "Modules")]
        return self.html(
            f"{d or 'Documentation'} - Apache HTTP Server Version 2.2", f"22{d}", ul(links)
        )

    def rest(self, req: Req) -> Reply:
        h, path = req.host_index, req.path
        for root in ("/docs/2.4/", "/docs/current/", "/docs/trunk/") if h == 0 else ("/manual/",):
            if path.startswith(root):
                tail = path[len(root) :]
                lang = "en"
                if tail[:3].rstrip("/") in _LANGS and tail[2:3] == "/":
                    lang, tail = tail[:2], tail[3:]
                if tail.endswith("index.html"):
                    tail = tail[: -len("index.html")]
                if tail in self.docs:
                    return trap(self.page(root, tail, lang))
        return not_found()
