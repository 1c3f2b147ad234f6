"""blind11 sites, part a: IIS/ASP.NET, a mirrorbits download site, Cacti and the control."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import ClassVar

from traps.blind.kit import OTHER, Reply, Req, not_found, redirect, slugs, title_of
from traps.blind2.common import esc, qs, trap, ul
from traps.blind7.common import data

from .common import Base, num, rel

# ----------------------------------------------------------------------------------------
# IIS 10 with an ASP.NET WebForms application (a borough library). Every internal link is
# relative, as WebForms writes them. The catalogue's Reserve/Search/Basket pages need
# session state and the application runs with cookieless="UseUri": a request without a
# session 302s to /(S(<24 chars>))/<same path>, and inside that prefix every relative link
# stays in the session, so the whole site is copied under it. A session expires after 20
# requests; a request with an unknown or expired id 302s to a newly minted one. IIS is
# case-insensitive (paths and ASP.NET query keys): pages migrated from the old site link
# `../branches/branch.aspx?B=` and `item.aspx?ID=`; `/Default.aspx` and `/News/` are the
# default documents again. robots.txt: /MyAccount/, /aspnet_client/ and the basket.
# ----------------------------------------------------------------------------------------

_SESS = re.compile(r"^/\(S\(([a-z0-5]{24})\)\)(/.*)$")
_SESSION_PAGES = ("/catalogue/reserve.aspx", "/catalogue/search.aspx", "/catalogue/basket.aspx")


def _ci(path: str, query: str) -> str:
    """IIS/ASP.NET's view of a target: lower-case path and query keys, default document."""
    path = path.lower()
    if path.endswith("/"):
        path += "default.aspx"
    parts = []
    for p in query.split("&"):
        if p:
            k, _, v = p.partition("=")
            parts.append(f"{k.lower()}={v}")
    return path + ("?" + "&".join(parts) if parts else "")


class Iis(Base):
    """IIS/ASP.NET: cookieless session ids in paths (302, expiring), case-insensitive."""

    name = "iis"
    kind = "IIS 10 + ASP.NET: cookieless /(S(id))/ session paths (302-minted, expiring), caseless"
    theme = "books"
    brand = "Riverside Libraries"
    robots_disallow: ClassVar[list[str]] = [
        "/MyAccount/",
        "/aspnet_client/",
        "/Catalogue/Basket.aspx",
    ]

    def make(self) -> None:
        self.sess: dict[str, int] = {}
        self.ci: dict[str, str] = {}
        self.branches = slugs(self.key("br"), 5, self.v, 1)
        self.titles = slugs(self.key("ti"), 8, self.v, 3)
        self.events = slugs(self.key("ev"), 6, self.v, 2)
        self.news = slugs(self.key("nw"), 12, self.v, 3)
        self.page("home", "/", self.home)
        self.page("about", "/About.aspx", lambda t: self.simple(t, "About the libraries"))
        self.page("contact", "/Contact.aspx", lambda t: self.simple(t, "Contact us"))
        self.page("news1", "/News/Default.aspx", lambda t: self.news_list(t, 1))
        self.page("news2", "/News/Default.aspx?page=2", lambda t: self.news_list(t, 2))
        for i in range(1, 13):
            self.page(f"n{i}", f"/News/Item.aspx?id={i}", lambda t, i=i: self.news_item(t, i))
        self.page("branches", "/Branches/Default.aspx", self.branch_list)
        for b in self.branches:
            self.page(f"b{b}", f"/Branches/Branch.aspx?b={b}", lambda t, b=b: self.branch(t, b))
        self.page("events", "/Events/Default.aspx", self.event_list)
        for i in range(1, 7):
            self.page(f"e{i}", f"/Events/Event.aspx?id={i}", lambda t, i=i: self.event(t, i))
        self.page("cat", "/Catalogue/Default.aspx", self.catalogue)
        for i in range(1, 9):
            self.page(f"t{i}", f"/Catalogue/Title.aspx?id={i}", lambda t, i=i: self.title(t, i))

    def page(self, pid: str, target: str, fn: Callable[[str], str]) -> None:
        self.add(pid, target, lambda r, fn=fn, target=target: fn(target))
        self.ci[_ci(*target.partition("?")[::2])] = target

    def nav(self, t: str) -> str:
        items = [
            ("/", "Home"),
            ("/Default.aspx", "Riverside Libraries"),
            ("/News/Default.aspx", "News"),
            ("/Branches/Default.aspx", "Branches"),
            ("/Events/Default.aspx", "What's on"),
            ("/Catalogue/Default.aspx", "Catalogue"),
            ("/Catalogue/Basket.aspx", "My basket"),
            ("/MyAccount/Login.aspx", "Sign in"),
            ("/About.aspx", "About"),
            ("/Contact.aspx", "Contact"),
        ]
        return "<p>" + " | ".join(f'<a href="{esc(rel(t, h))}">{esc(x)}</a>' for h, x in items)

    def pg(self, t: str, title: str, key: str, links: list[tuple[str, str]]) -> str:
        body = self.nav(t) + "</p>" + ul([(rel(t, h), x) for h, x in links])
        return self.html(title, key, body)

    def home(self, t: str) -> str:
        links = [(f"/News/Item.aspx?id={i}", title_of(self.news[i - 1])) for i in (12, 11, 10)]
        return self.pg(t, "Welcome to Riverside Libraries", "home", links)

    def simple(self, t: str, title: str) -> str:
        return self.pg(t, title, t, [("/Branches/Default.aspx", "Find a branch")])

    def news_list(self, t: str, n: int) -> str:
        ids = range(12, 6, -1) if n == 1 else range(6, 0, -1)
        links = [(f"/News/Item.aspx?id={i}", title_of(self.news[i - 1])) for i in ids]
        links.append(("/News/Default.aspx?page=2", "Older news") if n == 1 else ("/News/", "Newer"))
        return self.pg(t, f"News (page {n})", f"news{n}", links)

    def news_item(self, t: str, i: int) -> str:
        links = [(f"/News/Item.aspx?id={j}", "Next story") for j in [i + 1] if j <= 12]
        if i <= 4:  # migrated from the old site: lower-case paths, upper-case keys
            b = self.branches[i % 5]
            links += [(f"/branches/branch.aspx?B={b}", title_of(b))]
            links += [(f"/news/item.aspx?ID={i - 1}", "Previous story")] * (i > 1)
        else:
            links += [(f"/News/Item.aspx?id={i - 1}", "Previous story")]
        return self.pg(t, title_of(self.news[i - 1]), f"n{i}", links)

    def branch_list(self, t: str) -> str:
        links = [(f"/Branches/Branch.aspx?b={b}", title_of(b) + " Library") for b in self.branches]
        return self.pg(t, "Our branches", "branches", links)

    def branch(self, t: str, b: str) -> str:
        k = self.branches.index(b)
        links = [(f"/Events/Event.aspx?id={k + 1}", title_of(self.events[k]))]
        return self.pg(t, title_of(b) + " Library", f"b{b}", links)

    def event_list(self, t: str) -> str:
        links = [(f"/Events/Event.aspx?id={i}", title_of(self.events[i - 1])) for i in range(1, 6)]
        return self.pg(t, "What's on", "events", links)

    def event(self, t: str, i: int) -> str:
        links = [(f"/Events/Event.aspx?id={j}", "Next event") for j in [i + 1] if j <= 6]
        links += [(f"/Branches/Branch.aspx?b={self.branches[(i - 1) % 5]}", "Venue")]
        return self.pg(t, title_of(self.events[i - 1]), f"e{i}", links)

    def catalogue(self, t: str) -> str:
        links = [(f"/Catalogue/Title.aspx?id={i}", title_of(self.titles[i - 1])) for i in (1, 2, 3)]
        links += [("/Catalogue/Search.aspx?q=new", "Search the catalogue")]
        return self.pg(t, "Catalogue: new titles", "cat", links)

    def title(self, t: str, i: int) -> str:
        links = [(f"/Catalogue/Title.aspx?id={i + 1}", "Next in series")] * (i < 8)
        word = self.titles[i - 1].split("-")[0]
        links += [
            (f"/Catalogue/Reserve.aspx?id={i}", "Reserve this title"),
            (f"/Catalogue/Search.aspx?q={word}", f"More about {word}"),
        ]
        return self.pg(t, title_of(self.titles[i - 1]), f"t{i}", links)

    def session_page(self, t: str, q: dict[str, str]) -> str:
        p = t.split("?")[0].lower()
        if p.endswith("reserve.aspx"):
            i = min(8, max(1, num(q, "id", 1)))
            links = [(f"/Catalogue/Title.aspx?id={i}", "Back to the title")]
            links += [("/Catalogue/Basket.aspx", "View basket"), ("/Events/Default.aspx", "Events")]
            return self.pg(t, f"Reserved: {title_of(self.titles[i - 1])}", f"res{i}", links)
        if p.endswith("search.aspx"):
            w, n = q.get("q", ""), max(1, num(q, "page", 1))
            hits = [1 + (len(w) + n * 3 + k) % 8 for k in range(3)]
            links = [(f"/Catalogue/Title.aspx?id={i}", title_of(self.titles[i - 1])) for i in hits]
            links += [(f"/Catalogue/Search.aspx?q={w}&page={n + 1}", "Next page")] * (n < 3)
            return self.pg(t, f"Search: {w} (page {n})", f"srch{n}", links)
        return self.pg(t, "Your basket", "basket", [("/Catalogue/Default.aspx", "Continue")])

    def minted(self, inner: str, query: str) -> Reply:
        tok = self.fresh(24, "abcdefghijklmnopqrstuvwxyz012345")
        with self._lock:
            self.sess[tok] = 20
        return redirect(f"/(S({tok})){inner}" + (f"?{query}" if query else ""))

    def serve_inner(self, req: Req, inner: str) -> Reply:
        key = _ci(inner, req.query)
        target = self.ci.get(key)
        if target is not None:
            return trap(self.pages[(0, target)](req))
        if key.split("?")[0] in _SESSION_PAGES:
            return trap(self.session_page(inner, qs(req.query.lower())))
        return not_found()

    def rest(self, req: Req) -> Reply:
        m = _SESS.match(req.path)
        if m:
            tok, inner = m.groups()
            with self._lock:
                left = self.sess.get(tok, 0)
                self.sess[tok] = left - 1
            if left <= 0:
                return self.minted(inner, req.query)
            return self.serve_inner(req, inner)
        low = req.path.lower()
        if low.startswith(_SESSION_PAGES) or low.startswith("/myaccount/"):
            return self.minted(req.path, req.query)
        return self.serve_inner(req, req.path)


# ----------------------------------------------------------------------------------------
# A project's download site behind mirrorbits, three hosts. Host 0 (nginx + fancyindex)
# lists /pub/ with sort links ?C=N|M|S&O=A|D on every directory; files 302 to a mirror
# (alternating), `?mirrorlist` and `?fileinfo` describe a file, `/?mirrorstats` the
# mirrors. Symlinks: `last -> 3.0.21`, `dists/stable -> bookworm` and the Debian
# repository's `debian -> .` (archive.ubuntu.com has `ubuntu -> .`), so /pub/lantern/
# debian/debian/debian/... never ends. Host 1 (Apache) mirrors the tree at /mirror/ with
# ?C=N;O=D sort links, beside its own pages; host 2 (lighttpd) mirrors it at /pub/ beside
# its own pages. robots.txt: the symlink loop `/pub/lantern/debian/debian/` (one list
# serves all three hosts, so host 1's loop under /mirror/ is not covered).
# ----------------------------------------------------------------------------------------

_VERS = ["3.0.18", "3.0.19", "3.0.20", "3.0.21"]


class Mirrorbits(Base):
    """A download site: fancyindex sorts, symlink loop, mirror redirects and mirror hosts."""

    name = "mirrorbits"
    kind = "mirrorbits + fancyindex: sort links, `debian -> .` symlink loop, 2 mirror hosts"
    theme = "archive"
    brand = "Lantern Player downloads"
    hosts = 3
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/"), (1, "/"), (2, "/")]
    robots_disallow: ClassVar[list[str]] = ["/pub/lantern/debian/debian/"]

    def make(self) -> None:
        self.dirs: dict[str, list[str]] = {}
        self.files: dict[str, list[str]] = {}
        self.links: dict[str, str] = {}  # symlink dir path -> target dir path
        self.hits = 0

        def d(path: str, subdirs: list[str], files: list[str]) -> None:
            self.dirs[path] = subdirs
            self.files[path] = files

        d("/pub/", ["lantern/"], ["README.txt", "MIRRORS.txt"])
        d("/pub/lantern/", [*[v + "/" for v in _VERS], "debian/", "last/"], ["KEYS"])
        self.links["/pub/lantern/last/"] = "/pub/lantern/3.0.21/"
        for v in _VERS:
            d(f"/pub/lantern/{v}/", ["macosx/", "source/", "win64/"], ["SHA256SUMS"])
            d(f"/pub/lantern/{v}/win64/", [], [f"lantern-{v}-win64.exe", f"lantern-{v}-win64.zip"])
            d(f"/pub/lantern/{v}/macosx/", [], [f"lantern-{v}-universal.dmg"])
            d(f"/pub/lantern/{v}/source/", [], [f"lantern-{v}.tar.xz", f"lantern-{v}.tar.xz.asc"])
        deb = "/pub/lantern/debian/"
        d(deb, ["debian/", "dists/", "pool/"], ["lantern-archive-keyring.gpg"])
        self.links[deb + "debian/"] = deb
        d(deb + "dists/", ["bookworm/", "bullseye/", "stable/"], [])
        self.links[deb + "dists/stable/"] = deb + "dists/bookworm/"
        for dist in ("bookworm", "bullseye"):
            d(f"{deb}dists/{dist}/", ["main/"], ["InRelease", "Release", "Release.gpg"])
            d(f"{deb}dists/{dist}/main/", [], ["Packages", "Packages.gz", "Packages.xz"])
        d(deb + "pool/", ["main/"], [])
        d(deb + "pool/main/", [], [f"lantern_{v}-1_amd64.deb" for v in _VERS])
        self.add("home", "/", lambda r: self.home())
        for p in self.dirs:
            self.add("d" + p, p, lambda r, p=p: self.listing(0, p, p, ""))
        self.own = {
            1: ["/", "/about.html", "/status.html", "/projects.html"],
            2: ["/", "/mirror-policy.html", "/contact.html"],
        }
        for h, pages in self.own.items():
            for p in pages:
                self.add(f"h{h}{p}", p, lambda r, h=h, p=p: self.mirror_page(h, p), host=h)

    def home(self) -> str:
        body = ul(
            [("/pub/lantern/last/", "Download the latest release (3.0.21)")]
            + [(f"/pub/lantern/{v}/", f"Lantern {v}") for v in reversed(_VERS)]
            + [("/pub/", "Browse all files"), ("/pub/lantern/debian/", "Debian repository")]
            + [("/?mirrorstats", "Mirror statistics")]
            + [(self.url(1, "/"), "Harbour University mirror"), (self.url(2, "/"), "FTP mirror")]
        )
        return self.html("Lantern Player downloads", "home", body)

    def mirror_page(self, h: int, p: str) -> str:
        root = "/mirror/" if h == 1 else "/pub/"
        links = [(q, title_of(q.strip("/").split(".")[0] or "home")) for q in self.own[h]]
        links += [(root, "Mirrored projects"), (root + "lantern/", "Lantern Player")]
        links += [(self.url(0, "/"), "Lantern downloads (upstream)")]
        return self.html(f"Mirror {h}: {title_of(p.strip('/') or 'home')}", f"m{h}{p}", ul(links))

    def resolve(self, path: str) -> str | None:
        """The real directory a (symlinked, looping) path lists, or None."""
        if not path.startswith("/pub/"):
            return None
        cur = "/pub/"
        for seg in path[5:].split("/")[:-1]:
            nxt = cur + seg + "/"
            if seg not in [x.rstrip("/") for x in self.dirs.get(cur, [])]:
                return None
            cur = self.links.get(nxt, nxt)
        return cur

    def size(self, name: str) -> int:
        return 1000 + self.rng("sz" + name).randrange(90_000_000)

    def listing(self, h: int, real: str, shown: str, query: str) -> str:
        q = dict(p.partition("=")[::2] for p in re.split(r"[&;]", query) if p)
        col, order = q.get("C", "N"), q.get("O", "A")
        entries = [(x, True) for x in self.dirs[real]] + [(f, False) for f in self.files[real]]
        key = {
            "M": lambda e: self.rng("mt" + e[0]).random(),
            "S": lambda e: -1 if e[1] else self.size(e[0]),
        }.get(col, lambda e: e[0])
        entries.sort(key=key, reverse=order == "D")  # type: ignore[arg-type]
        sep = ";" if h == 1 else "&"
        heads = (
            ""
            if h == 2
            else " ".join(
                f'<a href="?C={c}{sep}O={"D" if col == c and order == "A" else "A"}">{t}</a>'
                for c, t in (("N", "Name"), ("M", "Last modified"), ("S", "Size"))
            )
        )
        rows = "".join(
            f'<tr><td><a href="{esc(n)}">{esc(n)}</a></td><td>{"-" if isd else self.size(n)}</td>'
            + (f'<td><a href="{esc(n)}?mirrorlist">mirrors</a></td>' if h == 0 and not isd else "")
            + "</tr>"
            for n, isd in entries
        )
        body = f'<p>{heads}</p><table><tr><td><a href="../">../</a></td></tr>{rows}</table>'
        return self.html(f"Index of {shown}", f"ls{h}{real}{col}{order}", body, 20, 40)

    def rest(self, req: Req) -> Reply:
        h, path = req.host_index, req.path
        if h == 0 and path == "/" and req.query == "mirrorstats":
            links = [(self.url(1, "/status.html"), "Harbour University"), (self.url(2, "/"), "FTP")]
            return trap(self.html("Mirror statistics", "stats", ul(links)))
        logical = "/pub/" + path[8:] if h == 1 and path.startswith("/mirror/") else path
        if h == 1 and not path.startswith("/mirror/"):
            return not_found()
        if logical.endswith("/"):
            real = self.resolve(logical)
            if real is None:
                return not_found()
            return trap(self.listing(h, real, path, req.query))
        parent, _, fname = logical.rpartition("/")
        real = self.resolve(parent + "/")
        if real is None or fname not in self.files[real]:
            return not_found()
        if h != 0:
            return Reply(f"{fname}\n".encode() * 8, OTHER, None, ctype="application/octet-stream")
        mirrors = [self.url(1, "/mirror/" + logical[5:]), self.url(2, logical)]
        if req.query == "mirrorlist":
            body = ul([(m, m) for m in mirrors] + [(f"{fname}?fileinfo", "File info")])
            return trap(self.html(f"Mirrors for {fname}", "ml" + logical, body, 20, 40))
        if req.query == "fileinfo":
            return data(f'{{"Path": "{logical}", "Size": {self.size(fname)}}}', "application/json")
        with self._lock:
            self.hits += 1
            pick = mirrors[self.hits % 2]
        return redirect(pick)


# ----------------------------------------------------------------------------------------
# Cacti 1.2 with guest access to the graph tree: tree branches, device nodes, graph pages
# `graph.php?action=view&local_graph_id=<g>&rra_id=all`. Each graph page links the four
# archives' zoom pages (`action=zoom&rra_id=<r>&graph_start=<t>&graph_end=<t>`), whose
# zoom-in, zoom-out and shift links move the window without end; device nodes link the
# preview mode with columns/thumbnails/page switches and the time-span presets, whose
# `date1=&date2=` windows shift without end too; CSV exports `graph_xport.php`.
# robots.txt: the operator's (`/cacti/graph_xport.php`, `/cacti/auth_`, `/cacti/logout.php`).
# ----------------------------------------------------------------------------------------

_C = "/cacti/"
_NOW = 1764806400
_RRAS = [("Daily (5 Minute Average)", 86400), ("Weekly (30 Minute Average)", 604800)]
_RRAS += [("Monthly (2 Hour Average)", 2678400), ("Yearly (1 Day Average)", 31536000)]


class Cacti(Base):
    """Cacti: graph zoom and time-span windows without end, preview view switches."""

    name = "cacti"
    kind = "Cacti 1.2 guest graph tree: zoom/shift time windows (endless), preview switches"
    theme = "docs"
    brand = "Harbour Net NOC"
    robots_disallow: ClassVar[list[str]] = [
        "/cacti/graph_xport.php",
        "/cacti/auth_",
        "/cacti/logout.php",
    ]

    def make(self) -> None:
        names = slugs(self.key("dev"), 10, self.v, 1)
        self.branches = ["Core network", "Servers", "Storage"]
        self.devs: dict[int, tuple[int, str]] = {}
        for k, n in enumerate(names):
            self.devs[k + 1] = (min(k // 4, 2), n)
        self.graphs = {
            2 * h - 1 + j: (h, t) for h in self.devs for j, t in enumerate(["Traffic", "CPU"])
        }
        self.add(
            "noc", "/", lambda r: self.html("NOC", "noc", ul([(_C + "graph_view.php", "Graphs")]))
        )
        self.add("tree", _C + "graph_view.php", lambda r: self.tree())
        for b in range(3):
            self.add(f"br{b}", self.bnode(b), lambda r, b=b: self.branch(b))
        for h in self.devs:
            self.add(f"dev{h}", self.dnode(h), lambda r, h=h: self.device(h))
        for g in self.graphs:
            self.add(f"g{g}", self.gview(g), lambda r, g=g: self.graph(g))

    def bnode(self, b: int) -> str:
        return f"{_C}graph_view.php?action=tree&node=tbranch-{b + 1}"

    def dnode(self, h: int) -> str:
        return f"{self.bnode(self.devs[h][0])}&host_id={h}"

    def gview(self, g: int) -> str:
        return f"{_C}graph.php?action=view&local_graph_id={g}&rra_id=all"

    def gname(self, g: int) -> str:
        h, t = self.graphs[g]
        return f"{title_of(self.devs[h][1])} - {t}"

    def tree(self) -> str:
        return self.html(
            "Default Tree", "tree", ul([(self.bnode(b), n) for b, n in enumerate(self.branches)])
        )

    def branch(self, b: int) -> str:
        devs = [(self.dnode(h), title_of(n)) for h, (bb, n) in self.devs.items() if bb == b]
        return self.html(
            self.branches[b], f"br{b}", ul([(_C + "graph_view.php", "Default Tree"), *devs])
        )

    def device(self, h: int) -> str:
        gs = [(self.gview(g), self.gname(g)) for g, (hh, _) in self.graphs.items() if hh == h]
        pre = f"{_C}graph_view.php?action=preview&host_id={h}"
        extra = [(f"{pre}&columns=2&thumbnails=false&graphs=10&page=1", "Preview mode")]
        extra += [
            (f"{pre}&predefined_timespan={s}", t)
            for s, t in ((1, "Last half hour"), (7, "Last day"))
        ]
        return self.html(title_of(self.devs[h][1]), f"dev{h}", ul(gs + extra))

    def graph(self, g: int) -> str:
        links = [(self.zoom(g, r, _NOW - w, _NOW), f"Zoom {t}") for r, (t, w) in enumerate(_RRAS)]
        links += [(f"{_C}graph_xport.php?local_graph_id={g}&rra_id=0&view_type=", "CSV export")]
        links += [(self.dnode(self.graphs[g][0]), "Device")]
        return self.html(self.gname(g), f"g{g}", ul(links))

    def zoom(self, g: int, r: int, s: int, e: int) -> str:
        return (
            f"{_C}graph.php?action=zoom&local_graph_id={g}&rra_id={r}"
            f"&view_type=&graph_start={s}&graph_end={e}"
        )

    def rest(self, req: Req) -> Reply:
        q = qs(req.query)
        if req.path == _C + "graph.php" and q.get("action") == "zoom":
            g, r = num(q, "local_graph_id"), num(q, "rra_id")
            s, e = num(q, "graph_start", _NOW - 86400), num(q, "graph_end", _NOW)
            if g not in self.graphs or not 0 <= r < 4 or e <= s:
                return not_found()
            w = e - s
            links = [
                (self.zoom(g, r, s - w // 2, e + w // 2), "Zoom out"),
                (self.zoom(g, r, s - w, e - w), "Shift left"),
                (self.zoom(g, r, s + w, e + w), "Shift right"),
            ] + [(self.zoom(g, r, s + w // 4, e - w // 4), "Zoom in")] * (w >= 1200)
            links += [(self.gview(g), "Back to all archives")]
            return trap(
                self.html(f"{self.gname(g)} {s}-{e}", f"z{g}.{r}.{w % 7}", ul(links), 20, 40)
            )
        if req.path == _C + "graph_view.php" and q.get("action") == "preview":
            h = num(q, "host_id")
            if h not in self.devs:
                return not_found()
            base = f"{_C}graph_view.php?action=preview&host_id={h}"
            d1, d2 = num(q, "date1", _NOW - 86400), num(q, "date2", _NOW)
            if "predefined_timespan" in q:
                d1 = d2 - 1800 * num(q, "predefined_timespan", 1)
            w = max(60, d2 - d1)
            links = [
                (f"{base}&columns={c}&thumbnails={t}&graphs=10&page=1", f"{c} columns {t}")
                for c in range(1, 6)
                for t in ("true", "false")
            ]
            links += [
                (f"{base}&predefined_timespan={s}", f"timespan {s}") for s in (1, 2, 3, 7, 14)
            ]
            links += [
                (f"{base}&date1={d1 - w}&date2={d2 - w}", "<<"),
                (f"{base}&date1={d1 + w}&date2={d2 + w}", ">>"),
            ]
            gs = [(self.gview(g), self.gname(g)) for g, (hh, _) in self.graphs.items() if hh == h]
            return trap(
                self.html(f"Preview {h} {d1}-{d2}", f"pv{h}.{w % 5}", ul(gs + links), 20, 40)
            )
        return not_found()


# ----------------------------------------------------------------------------------------
# The trap-free control: a community orchard's static site.
# ----------------------------------------------------------------------------------------


class Control(Base):
    """No traps: home, about, four sections of seven pages, one disallowed link."""

    name = "control"
    kind = "no traps (static site)"
    theme = "food"
    brand = "Millbrook Community Orchard"
    robots_disallow: ClassVar[list[str]] = ["/members/"]

    def make(self) -> None:
        self.secs = {
            s: slugs(self.key(s), 7, self.v, 2)
            for s in ("harvest", "recipes", "events", "volunteers")
        }
        self.add("home", "/", lambda r: self.home())
        self.add(
            "about",
            "/about.html",
            lambda r: self.html("About the orchard", "about", ul([("/", "Home")])),
        )
        for s, ps in self.secs.items():
            self.add(f"s{s}", f"/{s}/", lambda r, s=s: self.section(s))
            for p in ps:
                self.add(f"p{s}{p}", f"/{s}/{p}.html", lambda r, s=s, p=p: self.leaf(s, p))

    def home(self) -> str:
        links = [(f"/{s}/", title_of(s)) for s in self.secs]
        links += [("/about.html", "About"), ("/members/", "Members' area")]
        return self.html("Millbrook Community Orchard", "home", ul(links))

    def section(self, s: str) -> str:
        return self.html(
            title_of(s), f"s{s}", ul([(f"/{s}/{p}.html", title_of(p)) for p in self.secs[s]])
        )

    def leaf(self, s: str, p: str) -> str:
        return self.html(title_of(p), f"p{s}{p}", ul([(f"/{s}/", title_of(s)), ("/", "Home")]))
