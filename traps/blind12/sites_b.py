"""blind12 sites, part b: a Flarum forum, a Sylius shop on two channels, WebSVN."""

from __future__ import annotations

import re
from typing import ClassVar

from traps.blind.kit import Reply, Req, not_found, redirect, slugs, title_of
from traps.blind2.common import esc, qs, trap, ul

from .common import Base, binary, num

# ----------------------------------------------------------------------------------------
# Flarum 1.8 (its server-rendered noscript HTML), a makers' forum. Every post links its
# number, `/d/<id>-<slug>/<n>`, which shows up to twenty posts from there with a "Next
# page" link to `/<n+20>`: Flarum clamps numbers past the end and shows the last posts, so
# the numbers never end. `/d/<id>` and `/d/<id>-<old slug>` (renamed discussions, linked
# from user pages) are the discussion again. Lists have `?sort=latest|top|newest|oldest`
# (x `page=`), tags too. Real look-alikes: the index's `?page=2` and `?page=3` (the last
# two discussions only there), tags' `?page=2`, three long discussions' `?page=2` (one of
# them the only link to discussion 22). robots.txt (the operator's): api, settings,
# notifications, logout.
# ----------------------------------------------------------------------------------------

_FSORTS = ("latest", "top", "newest", "oldest")


class Flarum(Base):
    """Flarum: post-number URLs without end, slug copies, sort x page lists."""

    name = "flarum"
    kind = "Flarum 1.8 noscript HTML: /d/<id>-<slug>/<n> post numbers (endless), slug copies, sorts"
    theme = "forum"
    brand = "Makerspace Forum"
    robots_disallow: ClassVar[list[str]] = ["/api/", "/settings", "/notifications", "/logout"]

    def make(self) -> None:
        tags = slugs(self.key("tags"), 5, self.v, 1)
        names = slugs(self.key("users"), 6, self.v, 1)
        titles = slugs(self.key("disc"), 22, self.v, 3)
        self.tags = tags
        self.users = names
        self.disc: dict[int, dict] = {}
        for i in range(22):
            self.disc[i + 1] = {
                "slug": titles[i],
                "old": titles[(i + 7) % 22].split("-")[0] + "-" + titles[i],
                "tag": tags[i % 5],
                "user": names[i % 6],
                "posts": 34 if i in (2, 5, 11) else 6 + i % 9,
            }
        self.add("home", "/", self.listing)
        self.add("home2", "/?page=2", self.listing)
        self.add("home3", "/?page=3", self.listing)
        self.add("tags", "/tags", lambda r: self.html("Tags", "tags", ul(self.taglinks()), 10, 30))
        for t in tags:
            self.add(f"t{t}", f"/t/{t}", self.listing)
            if sum(1 for i, d in self.disc.items() if d["tag"] == t and i != 22) > 4:
                self.add(f"t{t}2", f"/t/{t}?page=2", self.listing)
        for i, d in self.disc.items():
            self.add(f"d{i}", self.dtarget(i), self.discussion)
            if d["posts"] > 20:
                self.add(f"d{i}p2", self.dtarget(i) + "?page=2", self.discussion)
        for u in names:
            self.add(f"u{u}", f"/u/{u}", self.user)

    def dtarget(self, i: int) -> str:
        return f"/d/{i}-{self.disc[i]['slug']}"

    def taglinks(self) -> list[tuple[str, str]]:
        return [(f"/t/{t}", title_of(t)) for t in self.tags]

    def listing(self, req: Req) -> str:
        q = qs(req.query)
        page, sort = max(1, num(q, "page", 1)), q.get("sort", "")
        tag = req.path[3:] if req.path.startswith("/t/") else ""
        ids = [i for i, d in self.disc.items() if not tag or d["tag"] == tag]
        ids = ids[::-1] if sort in ("", "latest", "newest") else ids
        if sort == "top":
            ids.sort(key=lambda i: -self.disc[i]["posts"])
        ids = [i for i in ids if i != 22]
        if not tag:
            ids.remove(21)
            ids.append(21)
        per = 8 if not tag else 4
        links = [
            (self.dtarget(i), title_of(self.disc[i]["slug"])) for i in ids[(page - 1) * per :][:per]
        ]
        srt = f"sort={sort}&" if sort else ""
        base = req.path
        if page > 1:
            links.append(
                (f"{base}?{srt}page={page - 1}" if page > 2 or sort else base, "Previous page")
            )
        if len(ids) > page * per:
            links.append((f"{base}?{srt}page={page + 1}", "Next page"))
        links += [(f"{base}?sort={s}", f"Sort: {s}") for s in _FSORTS if s != sort]
        links += [*self.taglinks(), ("/tags", "All tags")]
        pid = self.pid_of(req)
        title = (title_of(tag) if tag else "All discussions") + (
            f" - page {page}" if page > 1 else ""
        )
        key = pid or f"l{tag}{sort}{page % 4}"
        return self.html(title, key, ul(links), *((40, 100) if pid else (15, 40)))

    def posts(self, i: int, start: int, req: Req) -> str:
        d = self.disc[i]
        base = self.dtarget(i)
        items = []
        for n in range(start, min(d["posts"], start + 19) + 1):
            items.append((f"{base}/{n}", f"#{n}"))
        if i == 6 and start > 20:
            items.append((self.dtarget(22), title_of(self.disc[22]["slug"])))
        items += [(f"/u/{d['user']}", d["user"]), (f"/t/{d['tag']}", title_of(d["tag"]))]
        items.append((f"/api/discussions/{i}", "JSON:API"))
        return ul(items)

    def discussion(self, req: Req) -> str:
        i = int(re.match(r"^/d/(\d+)", req.path).group(1))  # type: ignore[union-attr]
        d = self.disc[i]
        m = re.match(r"^/d/\d+(?:-[a-z0-9-]*)?/(\d+)$", req.path)
        pid = self.pid_of(req)
        if m:
            n = int(m.group(1))
            start = max(1, min(n, d["posts"] - 19))
            body = self.posts(i, start, req) + ul([(f"{self.dtarget(i)}/{n + 20}", "Next page")])
            title = f"{title_of(d['slug'])} - post {n}"
            return self.html(title, f"dn{i}.{n % 6}", body, 15, 40)
        page = max(1, num(qs(req.query), "page", 1))
        body = self.posts(i, 1 + 20 * (page - 1), req)
        if d["posts"] > 20 * page:
            body += ul([(f"{self.dtarget(i)}?page={page + 1}", "Next page")])
        if page > 1:
            body += ul([(self.dtarget(i), "Previous page")])
        key = pid or f"dc{i}{page}"
        return self.html(title_of(d["slug"]), key, body, *((50, 130) if pid else (20, 50)))

    def user(self, req: Req) -> str:
        u = req.path[3:]
        links = [
            (f"/d/{i}-{d['old']}", title_of(d["slug"]))
            for i, d in self.disc.items()
            if d["user"] == u
        ]
        links += [(f"/d/{i}", f"#{i}") for i, d in self.disc.items() if d["user"] == u][:2]
        links += [("/settings", "Settings")]
        return self.html(f"{u}", f"u{u}" if self.pid_of(req) else f"uc{u}", ul(links), 20, 60)

    def rest(self, req: Req) -> Reply:
        if req.path == "/" or (req.path.startswith("/t/") and req.path[3:] in self.tags):
            return trap(self.listing(req))
        m = re.match(r"^/d/(\d+)(?:-[a-z0-9-]*)?(?:/\d+)?$", req.path)
        if m and int(m.group(1)) in self.disc:
            return trap(self.discussion(req))
        if req.path.startswith("/u/") and req.path[3:] in self.users:
            return trap(self.user(req))
        return not_found()


# ----------------------------------------------------------------------------------------
# Sylius 1.12 shop with two channels: host 0 (EU, locales en_US and de_DE) and host 1 (UK,
# en_GB, its own six products). Taxon listings take `sorting%5Bprice%5D=asc|desc`,
# `sorting%5Bname%5D=`, `sorting%5BcreatedAt%5D=`, `limit=9|18|36` and `page=`; the
# German taxon pages fall back to the English text and list the English product slugs
# under `/de_DE/` (copies), and only four products have real German pages (their own
# slugs, linked from the German home page). The UK channel also enables en_US, so host 1
# serves the EU catalogue again under `/en_US/`. Currency and locale switchers 302 to the
# home page of the locale with `?_c=<token>` (a flash-bag id minted per switch). robots.txt
# (the operator's): admin, carts, accounts, checkout.
# ----------------------------------------------------------------------------------------

_ORDER = (
    ("price", "asc"),
    ("price", "desc"),
    ("name", "asc"),
    ("name", "desc"),
    ("createdAt", "desc"),
)


class Sylius(Base):
    """Sylius: two channels, locale fallback copies, sorting x limit x page listings."""

    name = "sylius"
    kind = "Sylius 1.12, two channels: sorting[..] x limit x page, /de_DE/ fallbacks, UK host en_US"
    theme = "shop"
    brand = "Fjellgear"
    hosts = 2
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/en_US/"), (1, "/en_GB/")]
    robots_disallow: ClassVar[list[str]] = [
        "/admin",
        "/en_US/cart",
        "/de_DE/cart",
        "/en_GB/cart",
        "/en_US/account",
        "/en_GB/account",
        "/en_US/checkout",
    ]

    def make(self) -> None:
        self.taxons = ["jackets", "boots", "tents", "packs"]
        eu = slugs(self.key("eu"), 16, self.v, 2)
        uk = slugs(self.key("uk"), 6, self.v, 2)
        self.prod: dict[str, tuple[str, int]] = {}
        for k, s in enumerate(eu):
            self.prod[s] = (self.taxons[k % 4], 0)
        for k, s in enumerate(uk):
            self.prod[s] = (self.taxons[k % 4], 1)
        self.de = {s: f"{s}-de" for s in eu[:4]}
        self.add("home", "/en_US/", self.home)
        self.add("dehome", "/de_DE/", self.home)
        self.add("ukhome", "/en_GB/", self.home, host=1)
        for t in self.taxons:
            self.add(f"t{t}", f"/en_US/taxons/{t}", self.taxon)
            self.add(f"t{t}2", f"/en_US/taxons/{t}?page=2", self.taxon)
            self.add(f"uk{t}", f"/en_GB/taxons/{t}", self.taxon, host=1)
        for s, (_, h) in self.prod.items():
            loc = "en_US" if h == 0 else "en_GB"
            self.add(f"p{s}", f"/{loc}/products/{s}", self.product, host=h)
        for s, d in self.de.items():
            self.add(f"de{s}", f"/de_DE/products/{d}", self.product)

    def chrome(self, loc: str) -> list[tuple[str, str]]:
        links = [(f"/{loc}/taxons/{t}", title_of(t)) for t in self.taxons]
        links += [(f"/{loc}/cart/", "Cart"), (f"/{loc}/account/dashboard", "My account")]
        links += [(f"/switch-currency/{c}", c) for c in ("EUR", "GBP", "USD")]
        links += [(f"/switch-locale/{x}", x) for x in ("en_US", "de_DE", "en_GB") if x != loc]
        return links

    def home(self, req: Req) -> str:
        loc = req.path.split("/")[1]
        links = self.chrome(loc)
        if loc == "de_DE":
            links += [(f"/de_DE/products/{d}", title_of(d)) for d in self.de.values()]
        if loc == "en_US":
            links.append(("/de_DE/", "Deutsch"))
        if loc == "en_GB":
            links.append(("/en_US/", "International shop"))
        pid = self.pid_of(req)
        key = pid or f"hc{loc}"
        return self.html(f"{self.brand} ({loc})", key, ul(links), *((50, 110) if pid else (15, 40)))

    def taxon(self, req: Req) -> str:
        loc, t = req.path.split("/")[1], req.path.split("/")[3]
        q = qs(req.query)
        chan = 1 if loc == "en_GB" else 0
        items = [s for s, (tt, h) in self.prod.items() if tt == t and h == chan]
        sort = next(((k[8:-1], v) for k, v in q.items() if k.startswith("sorting[")), None)
        if sort:
            items.sort(
                key=lambda s: s if sort[0] != "price" else s[::-1], reverse=sort[1] == "desc"
            )
        limit, page = num(q, "limit", 3) or 3, max(1, num(q, "page", 1))
        links = [(f"/{loc}/products/{s}", title_of(s)) for s in items[(page - 1) * limit :][:limit]]
        keep = "&".join(
            f"{k.replace('[', '%5B').replace(']', '%5D')}={v}" for k, v in q.items() if k != "page"
        )
        pre = f"/{loc}/taxons/{t}?" + (keep + "&" if keep else "")
        if len(items) > page * limit:
            links.append((f"{pre}page={page + 1}", "Next"))
        if page > 1:
            links.append((f"{pre}page={page - 1}", "Previous"))
        base = f"/{loc}/taxons/{t}?"
        lim = f"limit={q['limit']}&" if "limit" in q else ""
        links += [(f"{base}{lim}sorting%5B{f}%5D={o}", f"Sort {f} {o}") for f, o in _ORDER]
        srt = f"sorting%5B{sort[0]}%5D={sort[1]}&" if sort else ""
        links += [(f"{base}{srt}limit={n}", f"Show {n}") for n in (9, 18, 36)]
        links += self.chrome(loc)
        pid = self.pid_of(req)
        key = pid or f"tc{loc}{t}{len(q)}"
        title = f"{title_of(t)}" + (f" - page {page}" if page > 1 else "")
        return self.html(title, key, ul(links), *((40, 90) if pid else (10, 35)))

    def product(self, req: Req) -> str:
        loc, s = req.path.split("/")[1], req.path.split("/")[3]
        en = next((k for k, v in self.de.items() if v == s), s)
        t = self.prod[en][0]
        links = [
            (f"/{loc}/taxons/{t}", title_of(t)),
            (f"/{loc}/cart/add?productId={len(en)}", "Add to cart"),
        ]
        links += [(f"/{loc}/products/{en}/reviews/new", "Write a review")]
        pid = self.pid_of(req)
        key = pid or f"pc{loc}{en}"
        return self.html(title_of(s), key, ul(links), *((30, 90) if pid else (20, 60)))

    def rest(self, req: Req) -> Reply:
        m = re.match(r"^/switch-(currency|locale)/(\w+)$", req.path)
        if m:
            loc = m.group(2) if m.group(1) == "locale" else ("en_GB" if req.host_index else "en_US")
            return redirect(f"/{loc}/?_c={self.fresh(10)}")
        parts = req.path.split("/")
        if len(parts) < 3 or parts[1] not in ("en_US", "de_DE", "en_GB"):
            return not_found()
        loc = parts[1]
        if (loc == "en_GB") != (req.host_index == 1):
            return not_found()
        if req.path == f"/{loc}/":
            return trap(self.home(req))
        if len(parts) == 4 and parts[2] == "taxons" and parts[3] in self.taxons:
            return trap(self.taxon(req))
        if len(parts) == 4 and parts[2] == "products":
            s = parts[3]
            ok = s in self.prod and self.prod[s][1] == (1 if loc == "en_GB" else 0)
            if ok or (loc == "de_DE" and s in self.de.values()):
                return trap(self.product(req))
        return not_found()


# ----------------------------------------------------------------------------------------
# WebSVN 2.8 over two Subversion repositories. Directory listings are
# `listing.php?repname=<r>&path=/trunk/src/`, files `filedetails.php?repname=<r>&path=..`,
# the log `log.php?repname=<r>&path=/&isdir=1`. The log lists every revision (240 per
# repository, 20 a page with `&start=`), each revision page links every changed path at
# that revision (`&rev=<n>&peg=<n>`), its diff, blame and the previous/next revision, and
# listings at a revision keep `&rev=&peg=` down the tree: revisions x paths x views, finite
# but large. Real look-alikes: each repository's HEAD revision page (`revision.php?..&rev=
# <head>`, only from the log) and the `tags/1.0/` release tree. robots.txt (the operator's):
# tarball downloads (`dl.php`), RSS and blame.
# ----------------------------------------------------------------------------------------


class WebSvn(Base):
    """WebSVN: every revision x path x view (finite, large); HEAD revision pages real."""

    name = "websvn"
    kind = "WebSVN 2.8: revision x path x view (listing/filedetails/diff, &rev=&peg=), log paging"
    theme = "archive"
    brand = "WebSVN"
    robots_disallow: ClassVar[list[str]] = ["/dl.php", "/rss.php", "/blame.php"]

    def make(self) -> None:
        self.repos = {"libtide": 240, "harbourctl": 231}
        dirs = ["/", "/trunk/", "/trunk/src/", "/trunk/doc/", "/tags/", "/tags/1.0/", "/branches/"]
        self.tree: dict[str, dict[str, list[str]]] = {}
        for r in self.repos:
            src = [f"{w}.c" for w in slugs(self.key(r + "src"), 3, self.v, 1)]
            d = {p: [] for p in dirs}
            d["/trunk/"] = ["README", "Makefile"]
            d["/trunk/src/"] = src
            d["/trunk/doc/"] = ["manual.txt"]
            d["/tags/1.0/"] = ["README", "NEWS"]
            self.tree[r] = d
        self.add("index", "/", lambda r: self.index())
        for r, head in self.repos.items():
            self.add(f"log{r}", f"/log.php?repname={r}&path=/&isdir=1", self.logpage)
            self.add(f"rev{r}", f"/revision.php?repname={r}&rev={head}", self.revision)
            for p, fs in self.tree[r].items():
                self.add(f"l{r}{p}", f"/listing.php?repname={r}&path={p}", self.listing)
                for f in fs:
                    self.add(f"f{r}{p}{f}", f"/filedetails.php?repname={r}&path={p}{f}", self.file)

    def index(self) -> str:
        links = [(f"/listing.php?repname={r}&path=/", r) for r in self.repos]
        return self.html("Subversion repositories", "index", ul(links), 20, 50)

    def rv(self, q: dict[str, str]) -> str:
        return f"&rev={q['rev']}&peg={q['rev']}" if q.get("rev") else ""

    def listing(self, req: Req) -> str:
        q = qs(req.query)
        r, p = q["repname"], q["path"]
        rv = self.rv(q)
        links = []
        for d in self.tree[r]:
            if d != p and d.startswith(p) and "/" not in d[len(p) : -1]:
                links.append((f"/listing.php?repname={r}&path={d}{rv}", d[len(p) :]))
        for f in self.tree[r][p]:
            links.append((f"/filedetails.php?repname={r}&path={p}{f}{rv}", f))
            links.append((f"/log.php?repname={r}&path={p}{f}{rv}", "log"))
        links.append((f"/log.php?repname={r}&path={p}&isdir=1{rv}", "View log"))
        links.append((f"/dl.php?repname={r}&path={p}{rv}&isdir=1", "Download tarball"))
        links.append((f"/rss.php?repname={r}&path={p}&isdir=1", "RSS feed"))
        links.append(("/", "Repositories"))
        pid = self.pid_of(req)
        key = pid or f"lc{r}{p}{q.get('rev', '')[-1:]}"
        return self.html(
            f"{r} - {p}" + (f" @ {q['rev']}" if rv else ""),
            key,
            ul(links),
            *((20, 60) if pid else (10, 30)),
        )

    def file(self, req: Req) -> str:
        q = qs(req.query)
        r, p = q["repname"], q["path"]
        rv = self.rv(q)
        d = p.rsplit("/", 1)[0] + "/"
        links = [
            (f"/listing.php?repname={r}&path={d}{rv}", "Up"),
            (f"/blame.php?repname={r}&path={p}{rv}", "Blame"),
            (f"/diff.php?repname={r}&path={p}{rv}", "Diff with previous"),
            (f"/log.php?repname={r}&path={p}{rv}", "View log"),
            (f"/dl.php?repname={r}&path={p}{rv}", "Download"),
        ]
        pid = self.pid_of(req)
        key = pid or f"fc{r}{p}{q.get('rev', '')[-1:]}"
        return self.html(p.rsplit("/", 1)[1], key, ul(links), *((30, 90) if pid else (10, 40)))

    def logpage(self, req: Req) -> str:
        q = qs(req.query)
        r, p = q["repname"], q.get("path", "/")
        head = min(self.repos[r], num(q, "rev", self.repos[r]) or self.repos[r])
        start = num(q, "start")
        links = []
        for n in range(head - start, max(0, head - start - 20), -1):
            links.append((f"/revision.php?repname={r}&rev={n}", f"r{n}"))
            links.append((f"/listing.php?repname={r}&path=/&rev={n}&peg={n}", "browse"))
        base = f"/log.php?repname={r}&path={p}" + ("&isdir=1" if q.get("isdir") else "")
        if head - start > 20:
            links.append((f"{base}{self.rv(q)}&start={start + 20}", "Older"))
        links += [(f"{base}&max={m}", f"Show {m}") for m in (40, 100)]
        links.append((f"/listing.php?repname={r}&path=/", r))
        pid = self.pid_of(req)
        key = pid or f"gc{r}{start % 60}"
        return self.html(f"Log of {r}{p}", key, ul(links), *((30, 70) if pid else (10, 30)))

    def revision(self, req: Req) -> str:
        q = qs(req.query)
        r, n = q["repname"], num(q, "rev")
        rng = self.rng(f"rev{r}{n}")
        paths = [(d, f) for d, fs in self.tree[r].items() for f in fs if d.startswith("/trunk/")]
        changed = rng.sample(paths, 2)
        links = []
        for d, f in changed:
            links.append((f"/filedetails.php?repname={r}&path={d}{f}&rev={n}&peg={n}", f"{d}{f}"))
            links.append((f"/diff.php?repname={r}&path={d}{f}&rev={n}&peg={n}", "diff"))
        if n > 1:
            links.append((f"/revision.php?repname={r}&rev={n - 1}", "Previous revision"))
        if n < self.repos[r]:
            links.append((f"/revision.php?repname={r}&rev={n + 1}", "Next revision"))
        links.append(
            (f"/listing.php?repname={r}&path=/&rev={n}&peg={n}", "Browse at this revision")
        )
        links.append((f"/log.php?repname={r}&path=/&isdir=1", "Log"))
        pid = self.pid_of(req)
        msg = esc(" ".join(rng.choice(self.v) for _ in range(8)))
        body = f"<p>r{n}: {msg}</p>" + ul(links)
        return self.html(
            f"Revision {n} of {r}", pid or f"rc{r}{n % 9}", body, *((20, 50) if pid else (5, 25))
        )

    def rest(self, req: Req) -> Reply:
        q = qs(req.query)
        r = q.get("repname", "")
        if r not in self.repos:
            return not_found()
        if "rev" in q and not (q["rev"].isdigit() and 1 <= int(q["rev"]) <= self.repos[r]):
            return not_found("No such revision")
        p = q.get("path", "/")
        page = req.path
        if page == "/listing.php" and p in self.tree[r]:
            return trap(self.listing(req))
        d, _, f = p.rpartition("/")
        if page in ("/filedetails.php", "/diff.php") and f in self.tree[r].get(d + "/", []):
            return trap(self.file(req))
        if page == "/log.php":
            return trap(self.logpage(req))
        if page == "/revision.php" and "rev" in q:
            return trap(self.revision(req))
        if page == "/dl.php":
            return binary(f"{r}.tar.gz")
        return not_found()
