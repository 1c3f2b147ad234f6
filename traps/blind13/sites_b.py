"""blind13 sites, part b: Osclass classifieds, a pkgsite-style Go package index, and two
Invidious instances."""

from __future__ import annotations

import base64
import datetime as dt
import re
from typing import ClassVar

from traps.blind.kit import redirect, slugs, title_of

from .common import B13, Reply, Req, not_found, num, pq, qs, trap, ul

# ----------------------------------------------------------------------------------------
# Osclass 8 classifieds (a market town's small ads) with friendly URLs. Categories are
# `/<parent>/<child>` with real second pages `/<parent>/<child>/2`; items are
# `/<parent>/<child>/<slug>_i<id>`. Sort links, "show as" toggles, region filters and the
# seller's "more ads" all go to `/search/<key>,<value>/...`, keys kept in click order and a
# changed key replaced in place: finite but large (category x region x sOrder x
# iOrderType x sShowAs x sUser x iPage, in any order). The item "printable" link is the
# plain `index.php?page=item&id=` (a copy). robots.txt: login, register, posting, contact
# forms, item actions, `/oc-admin/`; `/search/` is left open.
# ----------------------------------------------------------------------------------------

_CATS = {
    "for-sale": ("furniture", "bikes"),
    "services": ("gardening", "tuition"),
    "community": ("lost-and-found", "clubs"),
}
_REGIONS = ("north-ward", "castle-hill", "riverside", "old-town", "meadows", "the-docks")
_ORD = (("dt_pub_date", "desc"), ("i_price", "asc"), ("i_price", "desc"))


class Osclass(B13):
    """Osclass: path-encoded search parameters in click order; real category pages."""

    name = "osclass"
    kind = "Osclass 8 classifieds: /search/k,v/k,v/... in click order, index.php?page=item copies"
    theme = "shop"
    brand = "Marlow Market Small Ads"
    robots_disallow: ClassVar[list[str]] = [
        "/oc-admin/",
        "/user/login",
        "/user/register",
        "/item/new",
        "/item/contact",
        "/item/mark/",
        "/contact",
    ]

    def make(self) -> None:
        self.subs = [(p, c) for p, cs in _CATS.items() for c in cs]
        titles = slugs(self.key("items"), 20, self.v, 3)
        self.items = {300 + 11 * i: (self.subs[i % 6], t) for i, t in enumerate(titles)}
        self.users = slugs(self.key("users"), 4, self.v, 1)
        self.add("home", "/", lambda r: self.home())
        for p in _CATS:
            self.add(f"c{p}", f"/{p}", lambda r, p=p: self.parent(p))
        for p, c in self.subs:
            self.add(f"c{c}", f"/{p}/{c}", lambda r, p=p, c=c: self.sub(p, c, 1))
        for p, c in self.subs[:3]:
            self.add(f"c{c}2", f"/{p}/{c}/2", lambda r, p=p, c=c: self.sub(p, c, 2))
        for i in self.items:
            self.add(f"i{i}", self.iurl(i), lambda r, i=i: self.item(i))
        for k, s in enumerate(("help", "terms", "safety-tips")):
            self.add(f"p{s}", f"/{s}-p{k + 1}", lambda r, s=s: self.html(title_of(s), s, ""))
        for k, u in enumerate(self.users):
            self.add(f"u{u}", f"/user/profile/{k + 7}", lambda r, k=k: self.user(k))

    def iurl(self, i: int) -> str:
        (p, c), t = self.items[i]
        return f"/{p}/{c}/{t}_i{i}"

    def home(self) -> str:
        links = [(f"/{p}", title_of(p)) for p in _CATS]
        links += [(self.iurl(i), title_of(self.items[i][1])) for i in list(self.items)[:4]]
        links += [(f"/{s}-p{k + 1}", title_of(s)) for k, s in enumerate(("help", "terms"))]
        links += [
            ("/item/new", "Publish your ad"),
            ("/user/login", "Login"),
            ("/contact", "Contact"),
        ]
        links.append(("/search/sOrder,dt_pub_date/iOrderType,desc", "Latest ads"))
        return self.html("Marlow Market Small Ads", "home", ul(links), 60, 140)

    def parent(self, p: str) -> str:
        links = [(f"/{p}/{c}", title_of(c)) for c in _CATS[p]] + [("/", "Home")]
        links.append(("/safety-tips-p3", "Safety tips")) if p == "community" else None
        return self.thin(title_of(p), f"c{p}", links)

    def sub(self, p: str, c: str, page: int) -> str:
        mine = [i for i, ((pp, cc), _) in self.items.items() if cc == c]
        has2 = (p, c) in self.subs[:3]
        shown = mine if not has2 else (mine[:2] if page == 1 else mine[2:])
        links = [(self.iurl(i), title_of(self.items[i][1])) for i in shown]
        if has2 and page == 1:
            links.append((f"/{p}/{c}/2", "Next"))
        base = [("category", c)]
        links += self.controls(base)
        return self.html(f"{title_of(c)} ({page})", f"c{c}{page}", ul(links), 30, 90)

    def surl(self, pairs: list[tuple[str, str]]) -> str:
        return "/search/" + "/".join(f"{k},{v}" for k, v in pairs)

    def setp(self, pairs: list[tuple[str, str]], **kv: str) -> str:
        out = list(pairs)
        for k, v in kv.items():
            for n, (kk, _) in enumerate(out):
                if kk == k:
                    out[n] = (k, v)
                    break
            else:
                out.append((k, v))
        if "iPage" not in kv:
            out = [(k, v) for k, v in out if k != "iPage"]
        return self.surl(out)

    def controls(self, pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
        links = [(self.setp(pairs, sOrder=o, iOrderType=t), f"Sort {o} {t}") for o, t in _ORD]
        links += [(self.setp(pairs, sShowAs=s), s) for s in ("list", "gallery")]
        links += [(self.setp(pairs, region=r), title_of(r)) for r in _REGIONS]
        return links

    def item(self, i: int) -> str:
        (p, c), t = self.items[i]
        u = (i // 11) % 4
        links = [(f"/{p}/{c}", title_of(c)), (f"/user/profile/{u + 7}", self.users[u])]
        links += [(f"/index.php?page=item&id={i}", "Printable"), (f"/item/contact/{i}", "Contact")]
        links += [(f"/item/mark/spam/{i}", "Mark as spam")]
        links.append((self.surl([("sUser", str(u + 7)), ("category", c)]), "More from this seller"))
        return self.html(title_of(t), f"i{i}", ul(links), 50, 150)

    def user(self, k: int) -> str:
        mine = [i for i in self.items if (i // 11) % 4 == k]
        links = [(self.iurl(i), title_of(self.items[i][1])) for i in mine]
        links.append((self.surl([("sUser", str(k + 7))]), "All ads"))
        return self.html(f"Seller {self.users[k]}", f"u{k}", ul(links), 15, 40)

    def rest(self, req: Req) -> Reply:
        if req.path.startswith("/search/"):
            pairs = []
            for seg in req.path[8:].split("/"):
                k, sep, v = seg.partition(",")
                if not sep or not re.fullmatch(r"[a-zA-Z]+", k) or not v:
                    return not_found()
                pairs.append((k, v))
            page = (
                int(dict(pairs).get("iPage", "1") or 1)
                if dict(pairs).get("iPage", "1").isdigit()
                else 1
            )
            links = self.controls(pairs)
            off = (len(req.path) * 7 + page) % 16
            links += [
                (self.iurl(i), title_of(self.items[i][1])) for i in list(self.items)[off:][:4]
            ]
            if page < 6:
                links.append((self.setp(pairs, iPage=str(page + 1)), "Next"))
            return self.tr(req, "Search results: " + ", ".join(v for _, v in pairs), links)
        q = qs(req.query)
        if req.path == "/index.php" and q.get("page") == "item" and num(q, "id") in self.items:
            return trap(self.item(num(q, "id")))
        return not_found()


# ----------------------------------------------------------------------------------------
# A pkgsite-style Go package index (a company's self-hosted pkg.go.dev). A module's latest
# page is `/<module>`, its packages `/<module>/<pkg>`; the Versions tab lists every release,
# and every `@<version>` serves the module or package at that version with the tabs
# (`?tab=doc|imports|importedby|licenses`) and the build-context selector (`?GOOS=&
# GOARCH=`). `@master` is a 302 to a pseudo-version stamped with the time of the request.
# "Imported by" lists dependent modules of other people, each with its own importers:
# an endless graph of third-party modules. Real pages in the family: the Versions tabs,
# and the `/v2` major versions (only linked from a Versions tab). robots.txt: the fetch and
# proxy endpoints, `/static/`, `/badge/`'s SVGs, the search.
# ----------------------------------------------------------------------------------------

_VERS = ("v1.0.0", "v1.0.1", "v1.1.0", "v1.2.0", "v1.2.1", "v1.3.0", "v1.4.0", "v1.4.1")
_CTX = (("linux", "amd64"), ("windows", "amd64"), ("darwin", "arm64"), ("js", "wasm"))
_TABS = ("doc", "imports", "importedby", "licenses")
_MODS = ("harbour.dev/ledger", "harbour.dev/signal", "harbour.dev/quarry", "harbour.dev/canvas")


class Pkgsite(B13):
    """pkgsite: every version x tab x build context, @master pseudo-versions, importers."""

    name = "pkgsite"
    kind = "pkgsite-style Go docs: @version x ?tab= x GOOS/GOARCH, @master 302, importer graph"
    theme = "docs"
    brand = "harbour.dev packages"
    robots_disallow: ClassVar[list[str]] = ["/fetch/", "/mod/proxy/", "/static/", "/search"]

    def make(self) -> None:
        self.pk = {m: slugs(self.key(m), 3, self.v, 1) for m in _MODS}
        self.add("home", "/", lambda r: self.home())
        for s in ("about", "license-policy", "badge"):
            self.add(s, f"/{s}", lambda r, s=s: self.html(title_of(s), s, ul([("/", "Home")])))
        for m in _MODS:
            self.add(f"m{m}", f"/{m}", lambda r, m=m: self.mod(m, "", ""))
            self.add(f"v{m}", f"/{m}?tab=versions", lambda r, m=m: self.versions(m))
            for p in self.pk[m]:
                self.add(f"p{m}{p}", f"/{m}/{p}", lambda r, m=m, p=p: self.pkg(m, p, "", ""))
        for m in _MODS[:2]:
            self.add(f"m{m}/v2", f"/{m}/v2", lambda r, m=m: self.mod(m + "/v2", "", ""))
            p = self.pk[m][0]
            self.add(
                f"p{m}/v2{p}", f"/{m}/v2/{p}", lambda r, m=m, p=p: self.pkg(m + "/v2", p, "", "")
            )

    def home(self) -> str:
        links = [(f"/{m}", m) for m in _MODS] + [
            ("/about", "About"),
            ("/search?q=harbour", "Search"),
        ]
        links += [("/license-policy", "Licenses"), ("/badge", "Badges")]
        return self.html("harbour.dev packages", "home", ul(links), 60, 140)

    def at(self, m: str, ver: str) -> str:
        return f"/{m}@{ver}" if ver else f"/{m}"

    def mod(self, m: str, ver: str, tab: str) -> str:
        base = m.removesuffix("/v2")
        links = [(f"{self.at(m, ver)}/{p}", p) for p in self.pk[base]]
        links += [(f"/{m}?tab=versions", "Versions"), (f"/{m}@master", "master")]
        links += [(f"{self.at(m, ver)}?tab={t}", t) for t in _TABS if t != tab]
        title = f"{m}{'@' + ver if ver else ''} {tab}".strip()
        legit = not ver and not tab
        return self.html(
            title, f"m{m}{ver}{tab}", ul(links), 50 if legit else 12, 130 if legit else 40
        )

    def pkg(self, m: str, p: str, ver: str, tab: str, ctx: str = "") -> str:
        u = f"{self.at(m, ver)}/{p}"
        links = [(f"{u}?tab={t}", t) for t in _TABS if t != tab]
        links += [(f"{u}?GOOS={o}&GOARCH={a}", f"{o}/{a}") for o, a in _CTX]
        links += [(self.at(m, ver), m), (f"/{m}?tab=versions", "Versions")]
        legit = not (ver or tab or ctx)
        return self.html(
            f"{p} package - {m}",
            f"p{m}{p}{ver}{tab}{ctx}",
            ul(links),
            70 if legit else 15,
            180 if legit else 50,
        )

    def versions(self, m: str) -> str:
        links = [(f"/{m}@{v}", v) for v in reversed(_VERS)]
        if m in _MODS[:2]:
            links.append((f"/{m}/v2", "Other major version: v2"))
        return self.html(f"Versions of {m}", f"v{m}", ul(links), 20, 50)

    def ext(self, req: Req, path: str, tab: str) -> Reply:
        h = sum(map(ord, path))
        links = [
            (f"/github.com/{slugs(self.key(path + str(k)), 1, self.v, 2)[0]}", "importer")
            for k in range(4)
        ]
        links += [(f"/{path}?tab=importedby", "Imported by"), (f"/{path}?tab=versions", "Versions")]
        return self.tr(req, f"{path} ({h % 97} importers) {tab}", links)

    def rest(self, req: Req) -> Reply:
        q = qs(req.query)
        tab, ctx = q.get("tab", ""), q.get("GOOS", "") + q.get("GOARCH", "")
        path = req.path.strip("/")
        if re.fullmatch(r"github\.com/[a-z-]+", path):
            return self.ext(req, path, tab)
        m = re.fullmatch(r"(harbour\.dev/[a-z]+(?:/v2)?)(?:@([^/]+))?(?:/([a-z-]+))?", path)
        if not m or m.group(1).removesuffix("/v2") not in _MODS:
            return not_found()
        mod, ver, p = m.group(1), m.group(2) or "", m.group(3)
        if ver in ("master", "latest"):
            t = self.tick()
            when = dt.datetime(2026, 12, 4, 9) + dt.timedelta(minutes=t)
            pseudo = f"v1.4.2-0.{when:%Y%m%d%H%M%S}-{self.fresh(12)}"
            return redirect(f"/{mod}@{pseudo}" + (f"/{p}" if p else ""))
        if tab == "importedby" and not p:
            return self.ext(req, mod, tab)
        if p:
            if p not in self.pk[mod.removesuffix("/v2")]:
                return not_found()
            return trap(self.pkg(mod, p, ver, tab, ctx))
        if tab == "versions":
            return trap(self.versions(mod))
        return trap(self.mod(mod, ver, tab))


# ----------------------------------------------------------------------------------------
# Two Invidious instances (a privacy front-end for a video site). Host 0 is the instance
# the seeds point at; host 1 is a second instance, with its own home, about and privacy
# pages, that serves every video, channel and playlist again (copies). Video pages link
# chapters `&t=<s>`, `&listen=1`, `&quality=dash`, `&local=true`, the playlist player
# `&list=PL..&index=<n>` (whose "next" runs past the end), `/embed/<id>`, and
# `/preferences?referer=<this URL>` whose "save" form leads back through
# `/toggle_theme?referer=...` (302). Channel video lists sort by `?sort_by=`, and "Next page"
# carries a continuation token minted per response: without end. Real pages in the
# family: the channels' `/playlists` tabs and the playlists. robots.txt: the API, login,
# thumbnails and video streams, the downloads.
# ----------------------------------------------------------------------------------------


class Invidious(B13):
    """Invidious: per-response continuation tokens, watch-URL parameter copies, 2 hosts."""

    name = "invidious"
    kind = "two Invidious instances: watch?v=&t=&listen=&list=&index=, continuation tokens"
    theme = "events"
    brand = "Invidious"
    hosts = 2
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/"), (1, "/")]
    robots_disallow: ClassVar[list[str]] = [
        "/api/",
        "/login",
        "/vi/",
        "/videoplayback",
        "/latest_version",
        "/download",
    ]

    def make(self) -> None:
        al = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
        r = self.rng("ids")
        self.vids = {
            "".join(r.choice(al) for _ in range(11)): t for t in slugs(self.key("v"), 16, self.v, 3)
        }
        self.vl = list(self.vids)
        self.chans = {
            "UC" + "".join(r.choice(al) for _ in range(22)): n
            for n in slugs(self.key("c"), 4, self.v, 1)
        }
        self.cl = list(self.chans)
        self.pls = ["PL" + "".join(r.choice(al) for _ in range(32)) for _ in range(3)]
        self.add("home", "/", lambda r: self.home(0))
        for s in ("privacy", "licenses"):
            self.add(s, f"/{s}", lambda r, s=s: self.html(title_of(s), s, ""))
        for v in self.vl:
            self.add(f"v{v}", f"/watch?v={v}", lambda r, v=v: self.watch(v, r))
        for c in self.cl:
            self.add(f"c{c}", f"/channel/{c}", lambda r, c=c: self.chan(c, "newest", 0, r))
            self.add(f"cp{c}", f"/channel/{c}/playlists", lambda r, c=c: self.cpl(c))
        for k, p in enumerate(self.pls):
            self.add(f"p{p}", f"/playlist?list={p}", lambda r, k=k: self.plist(k))
        self.add("h1", "/", lambda r: self.home(1), 1)
        for s in ("about", "privacy"):
            self.add(
                f"h1{s}",
                f"/{s}",
                lambda r, s=s: self.thin(f"{title_of(s)} (instance 2)", f"h1{s}", [("/", "Home")]),
                1,
            )

    def home(self, h: int) -> str:
        links = [(f"/watch?v={v}", title_of(self.vids[v])) for v in self.vl[h * 3 :][:6]]
        links += [(f"/channel/{c}", n) for c, n in self.chans.items()]
        links += [("/privacy", "Privacy"), ("/login", "Log in")]
        links += [("/licenses", "Licenses")] if h == 0 else [("/about", "About")]
        return self.html("Popular" if h == 0 else "Trending (instance 2)", f"home{h}", ul(links))

    def watch(self, v: str, req: Req, extra: str = "") -> str:
        i = self.vl.index(v)
        c = self.cl[i % 4]
        links = [(f"/channel/{c}", self.chans[c]), (f"/embed/{v}", "Embed")]
        links += [(f"/watch?v={v}&t={t}s", f"{t // 60}:{t % 60:02d}") for t in (42, 187, 404)]
        links += [
            (f"/watch?v={v}&listen=1", "Listen"),
            (f"/watch?v={v}&quality=dash", "DASH"),
            (f"/watch?v={v}&local=true", "Proxy"),
        ]
        links += [(f"/watch?v={self.vl[(i + k) % 16]}", "Up next") for k in (1, 5)]
        links += [
            (f"/preferences?referer={pq(req.target)}", "Preferences"),
            (f"/latest_version?id={v}&itag=22", "Download"),
        ]
        return self.html(title_of(self.vids[v]) + extra, f"v{v}{extra}", ul(links), 60, 160)

    def vlinks(self, c: str, off: int) -> list[tuple[str, str]]:
        mine = [v for k, v in enumerate(self.vl) if k % 4 == self.cl.index(c)]
        return [(f"/watch?v={v}", title_of(self.vids[v])) for v in mine[off:][:4]]

    def chan(self, c: str, sort: str, page: int, req: Req) -> str:
        links = [*self.vlinks(c, 0), (f"/channel/{c}/playlists", "Playlists")]
        links += [
            (f"/channel/{c}?sort_by={s}", s) for s in ("newest", "popular", "oldest") if s != sort
        ]
        tok = base64.urlsafe_b64encode(f"{c}:{sort}:{page + 1}:{self.fresh(8)}".encode()).decode()
        links.append((f"/channel/{c}?sort_by={sort}&continuation={tok}", "Next page"))
        return self.html(self.chans[c], f"c{c}{sort}{page}", ul(links), 40, 110)

    def cpl(self, c: str) -> str:
        k = self.cl.index(c)
        links = [(f"/playlist?list={self.pls[k]}", "Playlist")] if k < 3 else []
        return self.thin(
            f"{self.chans[c]}: playlists", f"cp{c}", [*links, (f"/channel/{c}", "Videos")]
        )

    def plist(self, k: int) -> str:
        vs = self.vl[k * 4 :][:5]
        links = [
            (f"/watch?v={v}&list={self.pls[k]}&index={n + 1}", title_of(self.vids[v]))
            for n, v in enumerate(vs)
        ]
        links.append((f"/watch?v={vs[0]}", title_of(self.vids[vs[0]])))
        return self.html(f"Playlist {k + 1}", f"p{k}", ul(links), 20, 60)

    def rest(self, req: Req) -> Reply:
        q = qs(req.query)
        p = req.path
        if p == "/watch" and q.get("v") in self.vids:
            v = q["v"]
            if "list" in q and q["list"] in self.pls:
                n = num(q, "index", 1)
                nxt = self.vl[(self.vl.index(v) + 1) % 16]
                links = [
                    (f"/watch?v={nxt}&list={q['list']}&index={n + 1}", "Next in playlist"),
                    (f"/playlist?list={q['list']}", "Playlist"),
                ]
                return self.tr(req, f"{title_of(self.vids[v])} ({n})", links)
            return trap(self.watch(v, req, " " if req.host_index == 0 else ""))
        m = re.fullmatch(r"/embed/([\w-]{11})", p)
        if m and m.group(1) in self.vids:
            return self.tr(
                req,
                "Embed " + title_of(self.vids[m.group(1)]),
                [(f"/watch?v={m.group(1)}", "Watch")],
            )
        m = re.fullmatch(r"/channel/(UC[\w-]{22})(/playlists)?", p)
        if m and m.group(1) in self.chans:
            c = m.group(1)
            if m.group(2):
                return trap(self.cpl(c))
            sort = q.get("sort_by", "newest")
            cont = q.get("continuation", "")
            try:
                page = int(base64.urlsafe_b64decode(cont).decode().split(":")[2]) if cont else 0
            except (ValueError, IndexError):
                page = 0
            return trap(self.chan(c, sort, page, req))
        if p == "/playlist" and q.get("list") in self.pls:
            return trap(self.plist(self.pls.index(q["list"])))
        if p == "/preferences":
            ref = q.get("referer", "/")
            links = [(f"/toggle_theme?referer={pq(ref)}", "Toggle theme"), (ref, "Back")]
            links.append((f"/preferences?referer={pq(req.target)}", "Reset"))
            return self.tr(req, "Preferences", links, 10, 30)
        if p == "/toggle_theme":
            return redirect(q.get("referer", "/") or "/")
        return not_found()
