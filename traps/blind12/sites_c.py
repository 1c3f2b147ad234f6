"""blind12 sites, part c: an ArcGIS REST services directory, a Znuny public FAQ, a Hugo
site behind a catch-all, a Pleroma instance."""

from __future__ import annotations

import base64
import contextlib
import re
from typing import ClassVar

from traps.blind.kit import Reply, Req, not_found, redirect, slugs, title_of
from traps.blind2.common import qs, trap, ul

from .common import Base, binary, num, params, pq

# ----------------------------------------------------------------------------------------
# ArcGIS Server 10.9 REST Services Directory (a county GIS). Folders, MapServer services,
# layers and each service's legend are real pages. Every page links `?f=pjson` and
# `?f=json` (the same resource as JSON) and `?f=html` (the same page again); every layer
# links its query form and a ready query `query?where=1%3D1&outFields=*&resultOffset=0&
# resultRecordCount=25&f=html` whose result pages always report exceededTransferLimit and
# link the next offset (endless) and each feature `/<layer>/<objectid>?f=html`; services
# link export/identify/find forms. `/arcgis/rest` and `/arcgis/rest/services/` 301/302 to
# the directory. robots.txt (the operator's): admin, manager, tokens, login.
# ----------------------------------------------------------------------------------------

_A = "/arcgis/rest/services"


class ArcGis(Base):
    """ArcGIS REST directory: f= format copies, resultOffset paging without end."""

    name = "arcgis"
    kind = "ArcGIS Server REST directory: ?f=html|json|pjson copies, query resultOffset (endless)"
    theme = "gov"
    brand = "ArcGIS REST Services Directory"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, _A)]
    robots_disallow: ClassVar[list[str]] = [
        "/arcgis/admin",
        "/arcgis/manager",
        "/arcgis/tokens",
        "/arcgis/rest/login",
    ]

    def make(self) -> None:
        self.svcs: dict[str, dict[str, list[str]]] = {
            "Planning": {"Zoning": [], "Parcels": [], "LandUse": []},
            "Transport": {"Roads": [], "BusStops": []},
            "Environment": {"Floodplain": [], "Trees": []},
        }
        for f, ss in self.svcs.items():
            for s in ss:
                ss[s] = [title_of(w) for w in slugs(self.key(f + s), 2 + len(s) % 2, self.v, 1)]
        self.add("root", _A, self.page)
        for f, ss in self.svcs.items():
            self.add(f"f{f}", f"{_A}/{f}", self.page)
            for s, layers in ss.items():
                self.add(f"s{f}{s}", f"{_A}/{f}/{s}/MapServer", self.page)
                self.add(f"g{f}{s}", f"{_A}/{f}/{s}/MapServer/legend", self.page)
                for i in range(len(layers)):
                    self.add(f"l{f}{s}{i}", f"{_A}/{f}/{s}/MapServer/{i}", self.page)

    def fmt(self, path: str) -> list[tuple[str, str]]:
        return [
            (f"{path}?f=pjson", "JSON"),
            (f"{path}?f=json", "JSON (compact)"),
            (f"{path}?f=html", "HTML"),
        ]

    def parse(self, path: str) -> tuple[str, ...] | None:
        if path == _A:
            return ()
        parts = path[len(_A) + 1 :].split("/") if path.startswith(_A + "/") else []
        if len(parts) == 1 and parts[0] in self.svcs:
            return (parts[0],)
        if len(parts) >= 3 and parts[0] in self.svcs and parts[1] in self.svcs[parts[0]]:
            if parts[2] != "MapServer":
                return None
            n = len(self.svcs[parts[0]][parts[1]])
            rest = parts[3:]
            if not rest:
                return (parts[0], parts[1])
            if rest[0] in ("legend", "export", "identify", "find") and len(rest) == 1:
                return (parts[0], parts[1], rest[0])
            if rest[0].isdigit() and int(rest[0]) < n:
                if len(rest) == 1 or (len(rest) == 2 and rest[1] == "query"):
                    return (parts[0], parts[1], *rest)
                if len(rest) == 2 and rest[1].isdigit():
                    return (parts[0], parts[1], rest[0], "feature", rest[1])
        return None

    def page(self, req: Req) -> str:
        loc = self.parse(req.path)
        assert loc is not None
        p = req.path
        links: list[tuple[str, str]] = [(_A, "Home")]
        title = "Folder: /"
        lo, hi = 20, 60
        if len(loc) == 0:
            links += [(f"{_A}/{f}", f) for f in self.svcs]
        elif len(loc) == 1:
            title = f"Folder: {loc[0]}"
            links += [
                (f"{_A}/{loc[0]}/{s}/MapServer", f"{s} (MapServer)") for s in self.svcs[loc[0]]
            ]
        elif len(loc) == 2:
            f, s = loc
            title = f"{s} (MapServer)"
            links += [(f"{p}/{i}", n) for i, n in enumerate(self.svcs[f][s])]
            links += [
                (f"{p}/legend", "Legend"),
                (f"{p}/export?bbox=-2.51,51.32,-2.41,51.40&f=html", "Export Map"),
            ]
            links += [(f"{p}/identify", "Identify"), (f"{p}/find", "Find"), (f"{_A}/{f}", f)]
        elif loc[2] == "legend":
            title = f"Legend: {loc[1]}"
            links += [(f"{_A}/{loc[0]}/{loc[1]}/MapServer", loc[1])]
            lo, hi = 8, 20
        elif loc[2] in ("export", "identify", "find"):
            title = f"{loc[2].title()} ({loc[1]})"
            links += [(f"{_A}/{loc[0]}/{loc[1]}/MapServer", loc[1])]
        else:
            f, s, i = loc[0], loc[1], int(loc[2])
            lp = f"{_A}/{f}/{s}/MapServer/{i}"
            title = f"Layer: {self.svcs[f][s][i]} (ID: {i})"
            if len(loc) == 3:
                links += [(f"{lp}/query", "Query"), (self.query(lp, 0), "Query all features")]
                links += [(f"{_A}/{f}/{s}/MapServer", f"Parent: {s}")]
            elif loc[3] == "query":
                q = qs(req.query)
                off = num(q, "resultOffset")
                if "where" in q:
                    title = f"Query results: {self.svcs[f][s][i]} from {off}"
                    links += [
                        (f"{lp}/{off + k + 1}?f=html", f"OBJECTID {off + k + 1}") for k in range(5)
                    ]
                    links += [(self.query(lp, off + 25), "exceededTransferLimit: next")]
                links += [(lp, "Layer")]
            else:
                title = f"Feature {loc[4]} of {self.svcs[f][s][i]}"
                links += [(lp, "Layer")]
                lo, hi = 5, 15
        pid = self.pid_of(req)
        links += [*self.fmt(p), ("/arcgis/rest/login", "Login")]
        key = pid or f"ac{len(loc)}{title[:12]}"
        return self.html(title, key, ul(links), *((lo, hi) if pid else (5, 25)))

    def query(self, lp: str, off: int) -> str:
        return (
            f"{lp}/query?where=1%3D1&outFields=*&returnGeometry=false"
            f"&resultOffset={off}&resultRecordCount=25&f=html"
        )

    def rest(self, req: Req) -> Reply:
        if req.path in ("/arcgis/rest", "/arcgis/rest/", "/arcgis/rest/services/", "/arcgis"):
            return redirect(_A, 301 if req.path.endswith("/") else 302)
        loc = self.parse(req.path)
        if loc is None:
            return not_found()
        f = qs(req.query).get("f", "html")
        if f in ("json", "pjson"):
            body = '{"currentVersion": 10.91, "path": "' + req.path + '"}'
            return Reply(body, "trap", None, ctype="application/json")
        return trap(self.page(req))


# ----------------------------------------------------------------------------------------
# Znuny 6.5 public FAQ (`/otrs/public.pl`, parameters separated by ';' as OTRS writes
# them). Explorer and search results link each article with `;ZoomBackLink=<base64 of the
# list's URL>`; an article opened that way links its related articles with a ZoomBackLink
# of its own URL, which already holds the previous one: the values grow without end.
# Explorer lists sort by `;SortBy=;OrderBy=`, keywords open searches, votes carry a
# `;ChallengeToken=` minted per response and 302 to the article with `;Rated=`; print
# views copy every article. Real pages: the explorer root, six categories, the search form
# and 24 articles at `Action=PublicFAQZoom;ItemID=<n>` (fourteen linked from the root's
# "latest" and "top" boxes, the others only along "related" links, deep). robots.txt (the
# operator's): the agent and customer interfaces, RSS, static files.
# ----------------------------------------------------------------------------------------

_Z = "/otrs/public.pl"


class Znuny(Base):
    """Znuny public FAQ: growing ZoomBackLink values, sorts, vote tokens behind 302s."""

    name = "znuny"
    kind = (
        "Znuny 6.5 public FAQ: growing ;ZoomBackLink=<base64>, SortBy x OrderBy, vote tokens (302)"
    )
    theme = "docs"
    brand = "Harbour IT Service Desk FAQ"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, _Z)]
    robots_disallow: ClassVar[list[str]] = [
        "/otrs/index.pl",
        "/otrs/customer.pl",
        f"{_Z}?Action=PublicFAQRSS",
        "/otrs-web/",
    ]

    def make(self) -> None:
        self.cats = [title_of(c) for c in slugs(self.key("cats"), 6, self.v, 1)]
        titles = slugs(self.key("faq"), 24, self.v, 4)
        kws = slugs(self.key("kw"), 8, self.v, 1)
        self.items = {
            n + 1: (title_of(titles[n]), n % 6, [kws[n % 8], kws[(n * 3) % 8]]) for n in range(24)
        }
        self.add("root", _Z, self.explorer)
        self.add(
            "search",
            f"{_Z}?Action=PublicFAQSearch",
            lambda r: self.html("FAQ search", "search", ul([(_Z, "FAQ")]), 5, 15),
        )
        for c in range(6):
            self.add(f"c{c}", f"{_Z}?Action=PublicFAQExplorer;CategoryID={c + 1}", self.explorer)
        for n in self.items:
            self.add(f"i{n}", self.zoom(n), self.article)

    def zoom(self, n: int, back: str = "") -> str:
        t = f"{_Z}?Action=PublicFAQZoom;ItemID={n}"
        return t + (f";ZoomBackLink={pq(base64.b64encode(back.encode()).decode())}" if back else "")

    def listing(self, req: Req, ids: list[int], base: str) -> list[tuple[str, str]]:
        p = params(req.query)
        by, order = p.get("SortBy", "Number"), p.get("OrderBy", "Down")
        if by == "Title":
            ids = sorted(ids, key=lambda n: self.items[n][0])
        if order == "Up":
            ids = ids[::-1]
        links = [(self.zoom(n, req.target), self.items[n][0]) for n in ids]
        for b in ("Number", "Title", "Changed", "Votes"):
            for o in ("Up", "Down"):
                if (b, o) != (by, order):
                    links.append((f"{base};SortBy={b};OrderBy={o}", f"{b} {o}"))
        return links

    def explorer(self, req: Req) -> str:
        p = params(req.query)
        c = num(p, "CategoryID")
        links = [
            (f"{_Z}?Action=PublicFAQExplorer;CategoryID={k + 1}", n)
            for k, n in enumerate(self.cats)
        ]
        if c:
            ids = [n for n, it in self.items.items() if it[1] == c - 1]
            links += self.listing(req, ids, f"{_Z}?Action=PublicFAQExplorer;CategoryID={c}")
        else:
            links += [(self.zoom(n), f"Latest: {self.items[n][0]}") for n in range(24, 16, -1)]
            links += [(self.zoom(n), f"Top: {self.items[n][0]}") for n in (1, 2, 5, 7, 9, 12)]
            links += [(f"{_Z}?Action=PublicFAQRSS;Type=Changed", "RSS")]
        links += [(f"{_Z}?Action=PublicFAQSearch", "Search")]
        pid = self.pid_of(req)
        title = self.cats[c - 1] if c else "FAQ Explorer"
        key = pid or f"ec{c}{len(req.query) % 5}"
        return self.html(title, key, ul(links), *((30, 80) if pid else (10, 30)))

    def article(self, req: Req) -> str:
        p = params(req.query)
        n = num(p, "ItemID")
        title, cat, kws = self.items[n]
        back = p.get("ZoomBackLink", "")
        links = [(f"{_Z}?Action=PublicFAQExplorer;CategoryID={cat + 1}", self.cats[cat])]
        if back:
            with contextlib.suppress(ValueError):
                links.append((base64.b64decode(back).decode(), "Back"))
        for m in (n % 24 + 1, (n * 5) % 24 + 1):
            links.append((self.zoom(m, req.target if back else ""), f"Related: {self.items[m][0]}"))
        for k in kws:
            links.append((f"{_Z}?Action=PublicFAQSearch;Subaction=Search;Keyword={pq(k)}", k))
        for rate in (25, 50, 75, 100):
            tok = self.fresh(32, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
            links.append(
                (
                    f"{_Z}?Action=PublicFAQZoom;Subaction=Vote;ItemID={n};Rate={rate};ChallengeToken={tok}",
                    f"{rate}%",
                )
            )
        links.append((f"{_Z}?Action=PublicFAQPrint;ItemID={n}", "Print"))
        links.append(
            (
                f"{_Z}?Action=PublicFAQZoom;Subaction=DownloadAttachment;ItemID={n};FileID=1",
                "Attachment",
            )
        )
        pid = self.pid_of(req)
        key = pid or f"zc{n}{len(back) % 4}"
        return self.html(
            f"FAQ#{1200 + n}: {title}", key, ul(links), *((50, 140) if pid else (15, 45))
        )

    def rest(self, req: Req) -> Reply:
        if req.path != _Z:
            return not_found()
        p = params(req.query)
        action, n = p.get("Action", ""), num(p, "ItemID")
        if action == "PublicFAQZoom" and n in self.items:
            sub = p.get("Subaction", "")
            if sub == "Vote":
                return redirect(f"{_Z}?Action=PublicFAQZoom;ItemID={n};Rated={p.get('Rate', '')}")
            if sub == "DownloadAttachment":
                return binary(f"faq-{n}.pdf")
            return trap(self.article(req))
        if action == "PublicFAQPrint" and n in self.items:
            return trap(self.article(req))
        if action == "PublicFAQExplorer" and 0 <= num(p, "CategoryID") <= 6:
            return trap(self.explorer(req))
        if action == "PublicFAQSearch":
            kw = p.get("Keyword", "")
            ids = [k for k, it in self.items.items() if kw in it[2]]
            base = f"{_Z}?Action=PublicFAQSearch;Subaction=Search;Keyword={pq(kw)}"
            links = [*self.listing(req, ids, base), (_Z, "FAQ")]
            return trap(self.html(f"Search: {kw}", f"sc{kw}", ul(links), 5, 20))
        return not_found()


# ----------------------------------------------------------------------------------------
# A Hugo 0.12x blog (a sailing club) deployed behind a catch-all: nginx's `try_files $uri
# $uri/ /index.html;` answers every unknown path with the home page, 200. The home page
# is rendered with `relativeURLs = true` (`posts/`, `tags/`, ...), and a `tag` shortcode in
# post bodies writes `tags/<t>/` without the leading slash, so `/posts/<slug>/tags/<t>/`
# gets the home page, whose relative links nest deeper on every click without end. Real
# look-alikes: `/posts/page/2/` and `/page/3/` (the oldest posts only there), two tags'
# `/tags/<t>/page/2/`. robots.txt: Hugo's default template (`User-agent: *` only).
# ----------------------------------------------------------------------------------------


class Hugo(Base):
    """Hugo behind a catch-all: relative links under fallback home pages nest without end."""

    name = "hugo"
    kind = "Hugo blog behind try_files .../index.html: relative tag links -> nested fallback copies"
    theme = "travel"
    brand = "Wyre Sailing Club"

    def make(self) -> None:
        self.posts = slugs(self.key("posts"), 18, self.v, 3)
        self.tags = slugs(self.key("tags"), 6, self.v, 1)
        self.cats = ["racing", "cruising", "club-news"]
        self.ptags = {
            p: [self.tags[k % 6], self.tags[(k * 2 + 1) % 6]] for k, p in enumerate(self.posts)
        }
        self.add("home", "/", lambda r: self.home())
        self.add(
            "about",
            "/about/",
            lambda r: self.html("About the club", "about", ul([("/", "Home")]), 10, 30),
        )
        for pg in (1, 2, 3):
            t = "/posts/" if pg == 1 else f"/posts/page/{pg}/"
            self.add(f"pl{pg}", t, lambda r, pg=pg: self.plist(pg))
        self.add(
            "tags",
            "/tags/",
            lambda r: self.html("Tags", "tags", ul([(f"/tags/{t}/", t) for t in self.tags]), 5, 15),
        )
        self.add(
            "cats",
            "/categories/",
            lambda r: self.html(
                "Categories", "cats", ul([(f"/categories/{c}/", c) for c in self.cats]), 5, 15
            ),
        )
        for t in self.tags:
            self.add(f"t{t}", f"/tags/{t}/", lambda r, t=t: self.tag(t, 1))
            if len(self.tagged(t)) > 5:
                self.add(f"t{t}2", f"/tags/{t}/page/2/", lambda r, t=t: self.tag(t, 2))
        for c in self.cats:
            self.add(f"c{c}", f"/categories/{c}/", lambda r, c=c: self.cat(c))
        for p in self.posts:
            self.add(f"p{p}", f"/posts/{p}/", lambda r, p=p: self.post(p))

    def tagged(self, t: str) -> list[str]:
        return [p for p in self.posts if t in self.ptags[p]]

    def home(self, key: str = "home", lo: int = 60, hi: int = 140) -> str:
        links = [
            ("posts/", "Posts"),
            ("tags/", "Tags"),
            ("categories/", "Categories"),
            ("about/", "About"),
        ]
        links += [(f"posts/{p}/", title_of(p)) for p in self.posts[:4]]
        return self.html(self.brand, key, ul(links), lo, hi)

    def plist(self, pg: int) -> str:
        links = [(f"/posts/{p}/", title_of(p)) for p in self.posts[(pg - 1) * 7 : pg * 7]]
        if pg < 3:
            links.append((f"/posts/page/{pg + 1}/", "Older posts"))
        if pg > 1:
            links.append(("/posts/" if pg == 2 else f"/posts/page/{pg - 1}/", "Newer posts"))
        return self.html(
            "Posts" + (f" - page {pg}" if pg > 1 else ""), f"pl{pg}", ul(links), 10, 30
        )

    def tag(self, t: str, pg: int) -> str:
        ps = self.tagged(t)[(pg - 1) * 5 : pg * 5]
        links = [(f"/posts/{p}/", title_of(p)) for p in ps]
        if pg == 1 and len(self.tagged(t)) > 5:
            links.append((f"/tags/{t}/page/2/", "Next"))
        if pg == 2:
            links.append((f"/tags/{t}/", "Previous"))
        return self.html(
            f"Tag: {t}" + (f" (page {pg})" if pg > 1 else ""), f"t{t}{pg}", ul(links), 5, 20
        )

    def cat(self, c: str) -> str:
        ps = [p for k, p in enumerate(self.posts) if k % 3 == self.cats.index(c)]
        return self.html(
            f"Category: {c}", f"c{c}", ul([(f"/posts/{p}/", title_of(p)) for p in ps]), 10, 25
        )

    def post(self, p: str) -> str:
        k = self.posts.index(p)
        links = [(f"tags/{t}/", f"#{t}") for t in self.ptags[p]]
        links += [(f"/categories/{self.cats[k % 3]}/", self.cats[k % 3]), ("/posts/", "All posts")]
        return self.html(title_of(p), f"p{p}", ul(links), 80, 200)

    def rest(self, req: Req) -> Reply:
        if req.path.endswith((".css", ".js", ".png", ".xml")):
            return not_found()
        return trap(self.home(f"fb{req.path.count('/') % 5}", 20, 60))


# ----------------------------------------------------------------------------------------
# Pleroma 2.6 with static-fe (a town's small instance). Local profiles `/users/<nick>`
# (two with a real older page `?max_id=<id>`), local notices `/notice/<flake id>`, three
# hashtag pages `/tag/<t>`. The "known network" timeline `/main/all` shows federated posts
# that arrive all the time: every response lists new remote notices `/notice/<new id>`
# (ids minted per response), remote objects `/objects/<uuid>` (302 to the notice), and an
# "Older" link `?max_id=<new id>`: endless. `/@<nick>` 302s to the profile; profiles' and
# hashtags' `?max_id=` paging past the real pages keeps showing boosts from the network.
# robots.txt (the operator's): api, oauth, proxy, media.
# ----------------------------------------------------------------------------------------

_FLAKE = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


class Pleroma(Base):
    """Pleroma: federated timeline ids minted per response, max_id paging without end."""

    name = "pleroma"
    kind = "Pleroma 2.6 static-fe: /main/all and max_id paging with ids minted per response, 302s"
    theme = "news"
    brand = "harbour.social"
    robots_disallow: ClassVar[list[str]] = ["/api/", "/oauth/", "/proxy/", "/media/"]

    def make(self) -> None:
        self.nicks = slugs(self.key("nicks"), 6, self.v, 1)
        rng = self.rng("ids")
        self.ids = ["AZ" + "".join(rng.choice(_FLAKE) for _ in range(16)) for _ in range(22)]
        self.author = {i: self.nicks[k % 6 if k < 18 else k % 2] for k, i in enumerate(self.ids)}
        self.htags = slugs(self.key("htags"), 3, self.v, 1)
        self.ntags = {i: self.htags[k % 3] for k, i in enumerate(self.ids)}
        self.add("home", "/", lambda r: self.home())
        self.add(
            "about",
            "/about",
            lambda r: self.html("About harbour.social", "about", ul([("/", "Home")]), 10, 30),
        )
        for u in self.nicks:
            self.add(f"u{u}", f"/users/{u}", self.profile)
            if len(self.by(u)) > 4:
                self.add(f"u{u}2", f"/users/{u}?max_id={self.by(u)[3]}", self.profile)
        for t in self.htags:
            self.add(f"t{t}", f"/tag/{t}", self.tagpage)
        for i in self.ids:
            self.add(f"n{i}", f"/notice/{i}", self.notice)

    def by(self, u: str) -> list[str]:
        return [i for i in self.ids if self.author[i] == u]

    def remote(self, n: int) -> list[tuple[str, str]]:
        out = []
        for k in range(n):
            fid = "AZ" + self.fresh(16, _FLAKE)
            out.append((f"/notice/{fid}", f"boost {k + 1}"))
            out.append((f"/objects/{self.fresh(8)}-{self.fresh(4)}-{self.fresh(12)}", "original"))
        return out

    def home(self) -> str:
        links = [(f"/users/{u}", f"@{u}") for u in self.nicks]
        links += [("/main/all", "Known network"), ("/about", "About"), ("/api/v1/instance", "API")]
        links += [(f"/notice/{i}", f"Latest from @{self.author[i]}") for i in self.ids[:5]]
        return self.html("harbour.social", "home", ul(links))

    def profile(self, req: Req) -> str:
        u = req.path.split("/")[2]
        mine = self.by(u)
        q = qs(req.query)
        start = (
            mine.index(q["max_id"]) + 1
            if q.get("max_id") in mine
            else (len(mine) if "max_id" in q else 0)
        )
        shown = mine[start : start + 4]
        links = [(f"/notice/{i}", f"Post {i[-4:]}") for i in shown]
        if len(mine) > start + 4:
            links.append((f"/users/{u}?max_id={shown[-1]}", "Older"))
        elif "max_id" in q or len(mine) > 4:
            links += self.remote(2)
            links.append((f"/users/{u}?max_id={self.links_last(links)}", "Older"))
        else:
            links.append((f"/users/{u}?max_id={shown[-1] if shown else ''}", "Older"))
        links += [(f"/@{u}", "Profile link"), ("/", "Home")]
        pid = self.pid_of(req)
        key = pid or f"uc{u}{start % 3}"
        return self.html(f"@{u}", key, ul(links), *((30, 70) if pid else (10, 30)))

    def links_last(self, links: list[tuple[str, str]]) -> str:
        return next(h for h, _ in reversed(links) if h.startswith("/notice/")).rsplit("/", 1)[1]

    def tagpage(self, req: Req) -> str:
        t = req.path.split("/")[2]
        links = [(f"/notice/{i}", f"#{t} {i[-4:]}") for i in self.ids if self.ntags[i] == t][:8]
        links += self.remote(1)
        links.append((f"/tag/{t}?max_id={self.links_last(links)}", "Older"))
        pid = self.pid_of(req)
        return self.html(f"#{t}", pid or f"tc{t}", ul(links), *((20, 60) if pid else (10, 30)))

    def notice(self, req: Req) -> str:
        i = req.path.rsplit("/", 1)[1]
        pid = self.pid_of(req)
        if i in self.author:
            u = self.author[i]
            links = [(f"/users/{u}", f"@{u}"), (f"/tag/{self.ntags[i]}", f"#{self.ntags[i]}")]
            k = self.ids.index(i)
            if k + 1 < len(self.ids):
                links.append((f"/notice/{self.ids[k + 1]}", "Reply in thread"))
            links += [
                (f"/api/v1/statuses/{i}/reblog", "Boost"),
                (f"/objects/{self.fresh(8)}-{i[-4:]}", "Permalink"),
            ]
        else:
            links = [*self.remote(1), ("/main/all", "Known network")]
        key = pid or f"nc{i[-1]}"
        return self.html(f"Post {i[-6:]}", key, ul(links), *((30, 90) if pid else (15, 45)))

    def rest(self, req: Req) -> Reply:
        parts = req.path.split("/")
        if req.path == "/main/all":
            links = [*self.remote(6), ("/", "Home")]
            links.append((f"/main/all?max_id={self.links_last(links)}", "Older"))
            return trap(self.html("Known network", f"all{len(req.query) % 4}", ul(links), 15, 40))
        if req.path.startswith("/@") and req.path[2:] in self.nicks:
            return redirect(f"/users/{req.path[2:]}")
        if len(parts) == 3 and parts[1] == "objects":
            oid = parts[2]
            local = next((i for i in self.ids if oid.endswith("-" + i[-4:])), None)
            return redirect(f"/notice/{local or 'AZ' + self.fresh(16, _FLAKE)}")
        if len(parts) == 3 and parts[1] == "users" and parts[2] in self.nicks:
            return trap(self.profile(req))
        if len(parts) == 3 and parts[1] == "tag" and parts[2] in self.htags:
            return trap(self.tagpage(req))
        if len(parts) == 3 and parts[1] == "notice" and re.fullmatch(r"AZ[0-9A-Z]{16}", parts[2]):
            return trap(self.notice(req))
        return not_found()
