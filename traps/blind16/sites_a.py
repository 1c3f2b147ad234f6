"""blind16 sites, part a: a Kibana log dashboard, a Zabbix monitoring front end, a
CollectiveAccess (Pawtucket) museum collection, and the control."""

from __future__ import annotations

import re
from typing import ClassVar

from .common import (
    B16,
    Reply,
    Req,
    h,
    not_found,
    num,
    qlist,
    qs,
    quote,
    slugs,
    title_of,
    trap,
    ul,
)

# ----------------------------------------------------------------------------------------
# Kibana with its app state in the query, as its shared links write it:
# `/app/dashboards/view/<uuid>?_g=(time:(from:now-15m,to:now))&_a=(filters:!(...))`.
# Every dashboard links six time presets, "Zoom out" (the range doubles without end) and
# one "filter for value" link per panel that appends one more `(match:(host:hN))` to the
# `_a` filter list in click order; "Share" links `/app/share?url=<this URL>`, whose page
# shares itself again (the URL nests). Saved searches link surrounding documents
# `/app/discover/context/logs/<doc id>` (an endless chain of made-up log records). Real
# pages in the family: the home page's "last 7 days" view of three dashboards
# `?_g=(time:(from:now-7d,to:now))`. robots.txt: /api/, /login, /internal/.
# ----------------------------------------------------------------------------------------

_PRESETS = (15, 60, 1440, 10080, 43200, 525600)


def _fmt(m: int) -> str:
    if m % 1440 == 0:
        return f"{m // 1440}d"
    return f"{m // 60}h" if m % 60 == 0 else f"{m}m"


def _mins(s: str) -> int:
    n, u = int(s[:-1]), s[-1]
    return n * {"m": 1, "h": 60, "d": 1440, "y": 525600}[u]


def _g(m: int) -> str:
    return f"_g=(time:(from:now-{_fmt(m)},to:now))"


def _uuid(key: str) -> str:
    x = "".join(f"{h(key + str(j), 1 << 48):012x}" for j in range(3))
    return f"{x[:8]}-{x[8:12]}-{x[12:16]}-{x[16:20]}-{x[20:32]}"


class Kibana(B16):
    """Kibana: rison state in the query, zoom out without end, filters appended, share."""

    name = "kibana"
    kind = "Kibana dashboards: _g time zoom, _a filters appended, share?url= nesting"
    theme = "corp"
    brand = "Tidemill Observability"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/app/home")]
    robots_disallow: ClassVar[list[str]] = ["/api/", "/login", "/internal/"]

    def make(self) -> None:
        self.dn = self.made("dash", 8)
        self.sn = self.made("search", 6)
        self.vn = self.made("vis", 4)
        self.did = [_uuid(self.key(f"d{i}")) for i in range(8)]
        self.sid = [_uuid(self.key(f"s{i}")) for i in range(6)]
        self.vid = [_uuid(self.key(f"v{i}")) for i in range(4)]
        self.add("home", "/app/home", lambda r: self.home())
        self.add("dashes", "/app/dashboards", lambda r: self.lst("Dashboards", "dl", self.dl()))
        for i in range(8):
            self.add(f"d{i}", self.du(i), lambda r, i=i: self.dash(i, 15, [], f"d{i}"))
        for i in range(3):
            t = self.du(i) + "?" + _g(10080)
            self.add(f"d7{i}", t, lambda r, i=i: self.dash(i, 10080, [], f"d7{i}"))
        sl = [(f"/app/discover/view/{x}", n) for x, n in zip(self.sid, self.sn, strict=True)]
        self.add("disc", "/app/discover", lambda r: self.lst("Discover", "disc", sl))
        for i in range(6):
            self.add(f"s{i}", sl[i][0], lambda r, i=i: self.search(i))
        vl = [(f"/app/visualize/edit/{x}", n) for x, n in zip(self.vid, self.vn, strict=True)]
        self.add("vis", "/app/visualize", lambda r: self.lst("Visualize library", "vl", vl))
        for i in range(4):
            self.add(f"v{i}", vl[i][0], lambda r, i=i: self.vis(i))
        self.add("mgmt", "/app/management", lambda r: self.thin("Stack Management", "mg", []))
        self.add("status", "/status", lambda r: self.thin("Status", "st", [("/app/home", "Home")]))

    def du(self, i: int) -> str:
        return f"/app/dashboards/view/{self.did[i]}"

    def dl(self) -> list[tuple[str, str]]:
        return [(self.du(i), self.dn[i]) for i in range(8)]

    def lst(self, title: str, key: str, links: list[tuple[str, str]]) -> str:
        return self.html(title, key, ul([*links, ("/app/home", "Home")]), 10, 30)

    def home(self) -> str:
        links = [("/app/dashboards", "Dashboards"), ("/app/discover", "Discover")]
        links += [("/app/visualize", "Visualize"), ("/app/management", "Management")]
        links += [(self.du(i) + "?" + _g(10080), f"{self.dn[i]}, last 7 days") for i in range(3)]
        links += [("/status", "Status"), ("/login", "Log out"), ("/api/status", "API")]
        return self.html("Home", "home", ul(links), 30, 90)

    def dash(self, i: int, m: int, fs: list[int], key: str, target: str = "") -> str:
        a = ",".join(f"(match:(host:h{f}))" for f in fs)
        tail = f"&_a=(filters:!({a}))" if fs else ""
        base = self.du(i) + "?"
        links = [(base + _g(p) + tail, f"Last {_fmt(p)}") for p in _PRESETS if p != m]
        links.append((base + _g(m * 2) + tail, "Zoom out"))
        for k in range(4):
            f = (i + 3 * k + len(fs)) % 11
            b = ",".join(f"(match:(host:h{x}))" for x in [*fs, f])
            links.append((base + _g(m) + f"&_a=(filters:!({b}))", f"Filter for host h{f}"))
        here = target or self.du(i)
        links.append(("/app/share?url=" + quote(here, safe=""), "Share"))
        links += [(f"/app/visualize/edit/{self.vid[(i + k) % 4]}", "Edit panel") for k in (0, 1)]
        links.append(("/app/dashboards", "All dashboards"))
        hosts = ", ".join(f"h{f}" for f in fs) or "all hosts"
        return self.html(f"{self.dn[i]} ({_fmt(m)}, {hosts})", key, ul(links), 30, 100)

    def search(self, i: int) -> str:
        docs = [h(self.key(f"doc{i}{k}"), 10**9) for k in range(3)]
        links = [(f"/app/discover/context/logs/{d}", f"Document {d}") for d in docs]
        links += [("/app/discover", "Discover"), (self.du(i % 8), self.dn[i % 8])]
        return self.html(self.sn[i], f"s{i}", ul(links), 40, 120)

    def vis(self, i: int) -> str:
        links = [(self.du(j), self.dn[j]) for j in range(8) if j % 4 == i]
        links += [("/app/visualize", "Library")]
        return self.html(self.vn[i], f"v{i}", ul(links), 30, 90)

    def rest(self, req: Req) -> Reply:
        p, q = req.path, req.query
        m = re.fullmatch(r"/app/dashboards/view/([0-9a-f-]{36})", p)
        if m and m.group(1) in self.did:
            i = self.did.index(m.group(1))
            t = re.search(r"from:now-(\d+[mhdy])", q)
            fs = [int(x) for x in re.findall(r"\(match:\(host:h(\d+)\)\)", q)]
            return trap(self.dash(i, _mins(t.group(1)) if t else 15, fs, req.key, req.target))
        if p == "/app/share" and qs(q).get("url", "").startswith("/"):
            url = qs(q)["url"]
            links = [
                (url, "Open the shared view"),
                (p + "?url=" + quote(req.target, safe=""), "Share"),
            ]
            return self.tr(req, "Share this view", links)
        m = re.fullmatch(r"/app/discover/context/logs/(\d+)", p)
        if m:
            d = int(m.group(1))
            host = self.made(f"lg{d}")[0]
            links = [(f"/app/discover/context/logs/{d + k}", f"Document {d + k}") for k in (-1, 1)]
            links.append((f"/app/discover/context/logs/{h(str(d), 10**9)}", f"Related on {host}"))
            return self.rich(req, f"Log record {d} from {host}", links)
        return not_found()


# ----------------------------------------------------------------------------------------
# A Zabbix front end. Hosts' latest data `zabbix.php?action=latest.view&filter_hostids[]=`,
# item graphs `history.php?action=showgraph&itemids[]=<id>` with time navigation
# (`&from=now-2h&to=now-1h`: "previous period" without end, zoom out, presets) and "Add to
# graph" appending one more `&itemids[]=`. The problem list `action=problem.view` sorts by
# three columns both ways, appends `&filter_severities[]=` per click (in click order), shows
# three states and has "Next" without end. Real pages in the family: the problem list's
# `&page=2` (three hosts' problems only there) and three graphs' `&from=now-1d&to=now`.
# robots.txt: /index.php?reconnect, /zabbix.php?action=user, /api_jsonrpc.php, /setup.php.
# ----------------------------------------------------------------------------------------

_IT = "itemids%5B%5D="
_SEV = "filter_severities%5B%5D="


def _zh(s: str) -> int:
    return int(s[:-1]) * (24 if s[-1] == "d" else 1)


class Zabbix(B16):
    """Zabbix: graph periods back without end, item lists grow, problem filters product."""

    name = "zabbix"
    kind = "Zabbix front end: graph from/to periods, itemids[] appended, problem.view filters"
    theme = "docs"
    brand = "Zabbix: Tidemill"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/zabbix.php?action=dashboard.view")]
    robots_disallow: ClassVar[list[str]] = [
        "/index.php?reconnect",
        "/zabbix.php?action=user",
        "/api_jsonrpc.php",
        "/setup.php",
    ]

    def make(self) -> None:
        self.hn = slugs_(self.key("zh"), 8)
        self.hid = [10084 + 17 * k for k in range(8)]
        self.items = [
            (k, 28000 + 311 * k + j, n) for k in range(8) for j, n in ((0, "CPU"), (1, "Disk"))
        ]
        z = "/zabbix.php?action="
        self.add("dash", z + "dashboard.view", lambda r: self.home())
        self.add("hosts", z + "host.view", lambda r: self.hostlist())
        self.add("prob", z + "problem.view", lambda r: self.problems("", "", [], 1, "p1"))
        self.add("prob2", z + "problem.view&page=2", lambda r: self.problems("", "", [], 2, "p2"))
        self.add(
            "map", z + "map.view", lambda r: self.thin("Maps", "map", [(z + "host.view", "Hosts")])
        )
        for k in range(8):
            self.add(f"h{k}", self.lu(k), lambda r, k=k: self.latest(k))
        for n, (_k, it, _nm) in enumerate(self.items):
            self.add(f"g{it}", self.gu(it), lambda r, it=it: self.graph([it], 1, 0, f"g{it}"))
            if n < 6 and n % 2 == 0:
                t = self.gu(it) + "&from=now-1d&to=now"
                self.add(f"gd{it}", t, lambda r, it=it: self.graph([it], 24, 0, f"gd{it}"))

    def lu(self, k: int) -> str:
        return f"/zabbix.php?action=latest.view&filter_hostids%5B%5D={self.hid[k]}&filter_set=1"

    def gu(self, it: int) -> str:
        return f"/history.php?action=showgraph&{_IT}{it}"

    def home(self) -> str:
        z = "/zabbix.php?action="
        links = [
            (z + "host.view", "Hosts"),
            (z + "problem.view", "Problems"),
            (z + "map.view", "Maps"),
        ]
        links += [("/zabbix.php?action=userprofile.edit", "Profile"), ("/setup.php", "Setup")]
        links += [(self.gu(self.items[n][1]) + "&from=now-1d&to=now", "24 h") for n in (0, 2, 4)]
        return self.html("Global view", "home", ul(links), 30, 90)

    def hostlist(self) -> str:
        links = [(self.lu(k), self.hn[k]) for k in range(8)]
        return self.html("Hosts", "hl", ul(links), 20, 50)

    def latest(self, k: int) -> str:
        links = [(self.gu(it), f"{self.hn[k]}: {nm}") for kk, it, nm in self.items if kk == k]
        links.append(("/zabbix.php?action=host.view", "Hosts"))
        return self.html(f"Latest data: {self.hn[k]}", f"h{k}", ul(links), 30, 80)

    def purl(self, s: str, o: str, sev: list[int], page: int) -> str:
        u = "/zabbix.php?action=problem.view"
        u += f"&sort={s}&sortorder={o}" if s else ""
        u += "".join(f"&{_SEV}{v}" for v in sev)
        return u + (f"&page={page}" if page > 1 else "")

    def problems(self, s: str, o: str, sev: list[int], page: int, key: str) -> str:
        if key in ("p1", "p2"):
            ks = range(0, 5) if page == 1 else range(5, 8)
        else:
            ks = [(h(key) + j) % 8 for j in range(3)]
        links = [(self.lu(k), f"Problem on {self.hn[k]}") for k in ks]
        links.append((self.purl(s, o, sev, page + 1), "Next"))
        for c in ("clock", "severity", "name"):
            for d in ("ASC", "DESC"):
                if (c, d) != (s, o):
                    links.append((self.purl(c, d, sev, 1), f"Sort by {c} {d}"))
        links += [
            (self.purl(s, o, [*sev, v], 1), f"Severity {v}") for v in range(6) if v not in sev
        ]
        title = f"Problems, page {page}" + (f", severities {sev}" if sev else "")
        return self.html(title, key, ul(links), 20, 60)

    def graph(self, its: list[int], a: int, b: int, key: str) -> str:
        base = "/history.php?action=showgraph&" + "&".join(f"{_IT}{x}" for x in its)

        def per(x: int, y: int) -> str:
            return f"{base}&from=now-{x}h&to=" + (f"now-{y}h" if y else "now")

        n = a - b
        links = [(per(a + n, b + n), "Previous period"), (per(a + n, b), "Zoom out")]
        if b:
            links.append((per(max(n, a - n), max(0, b - n)), "Next period"))
        links += [(f"{base}&from=now-{p}&to=now", p) for p in ("1h", "1d", "7d", "30d")]
        for kk, it, nm in self.items[(its[-1] - 28000) % 5 :: 5]:
            if it not in its:
                links.append((base + f"&{_IT}{it}", f"Add {self.hn[kk]} {nm}"))
        names = ", ".join(f"item {x}" for x in its)
        return self.html(f"Graph: {names}, {a}h to {b}h ago", key, ul(links), 20, 60)

    def rest(self, req: Req) -> Reply:
        q, pairs = qs(req.query), qlist(req.query)
        if req.path == "/history.php" and q.get("action") == "showgraph":
            its = [int(v) for k, v in pairs if k == "itemids[]" and v.isdigit()]
            if its:
                fr = re.fullmatch(r"now-(\d+[hd])", q.get("from", "now-1h"))
                to = re.fullmatch(r"now-(\d+[hd])", q.get("to", "now"))
                a = _zh(fr.group(1)) if fr else 1
                b = _zh(to.group(1)) if to else 0
                return trap(self.graph(its, max(a, b + 1), b, req.key))
        if req.path == "/zabbix.php" and q.get("action") == "problem.view":
            sev = [int(v) for k, v in pairs if k == "filter_severities[]" and v.isdigit()]
            s, o = q.get("sort", ""), q.get("sortorder", "")
            return trap(self.problems(s, o, sev, max(1, num(q, "page", 1)), req.key))
        if req.path == "/zabbix.php" and q.get("action") == "latest.view":
            hs = [v for k, v in pairs if k == "filter_hostids[]"]
            if hs and hs[0].isdigit() and int(hs[0]) in self.hid:
                return trap(self.latest(self.hid.index(int(hs[0]))))
        return not_found()


def slugs_(key: str, n: int) -> list[str]:
    """Host names like 'db-harbour-3'."""
    return [f"srv-{h(key + str(k), 900) + 100}" for k in range(n)]


# ----------------------------------------------------------------------------------------
# CollectiveAccess Pawtucket, a museum's collection site. Objects
# `/index.php/Detail/objects/<id>`, people `/index.php/Detail/entities/<id>`, galleries
# `/index.php/Gallery/<n>`. Browse `/index.php/Browse/objects/facet/<facet>/id/<v>`: every
# browse result mints a cache key (`/key/<32 hex>`, new in every response) that all its
# facet, sort and view links carry, and facets add up in click order. Object pages link
# "related" records that do not exist; CollectiveAccess renders them anyway and each links
# more made-up people, places (`/index.php/Detail/places/<n>/<slug>`), occurrences and
# searches (`/index.php/Search/objects/search/<name>`). Real pages in the family: three
# facet pages (two object types, the 1920s) - three objects are listed only there.
# robots.txt: /index.php/LoginReg/, /index.php/Lightbox/, /media/.
# ----------------------------------------------------------------------------------------

CA = "/index.php"
_FACETS = {"type_facet": (23, 24, 25, 26), "decade_facet": (1900, 1910, 1920, 1930, 1940)}


class Pawtucket(B16):
    """CollectiveAccess: browse keys minted per response, facets in click order, graph."""

    name = "pawtucket"
    kind = "CollectiveAccess Pawtucket: browse /key/<hex> per response, made-up related records"
    theme = "books"
    brand = "Tidemill Maritime Museum"
    robots_disallow: ClassVar[list[str]] = [f"{CA}/LoginReg/", f"{CA}/Lightbox/", "/media/"]

    def make(self) -> None:
        self.on = self.made("obj", 12)
        self.en = self.made("ent", 6)
        self.oid = [1042 + 13 * k for k in range(12)]
        self.eid = [301 + k for k in range(6)]
        self.add("home", "/", lambda r: self.home())
        self.add("about", f"{CA}/About/Index", lambda r: self.thin("About", "ab", [("/", "Home")]))
        self.add("bo", f"{CA}/Browse/objects", lambda r: self.browse([], "bo", list(range(6))))
        self.add("be", f"{CA}/Browse/entities", lambda r: self.thin("People", "be", self.elinks()))
        for k in range(12):
            self.add(f"o{k}", self.ou(k), lambda r, k=k: self.obj(k))
        for k in range(6):
            self.add(f"e{k}", f"{CA}/Detail/entities/{self.eid[k]}", lambda r, k=k: self.ent(k))
        gl = [(f"{CA}/Gallery/{g}", f"Gallery {g}") for g in (1, 2, 3)]
        self.add("gi", f"{CA}/Gallery/Index", lambda r: self.thin("Galleries", "gi", gl))
        for g in (1, 2, 3):
            xs = [k for k in range(9) if k % 3 == g - 1]
            self.add(f"g{g}", f"{CA}/Gallery/{g}", lambda r, g=g, xs=xs: self.gallery(g, xs))
        for f, v, xs in (("type_facet", 23, [6, 7]), ("type_facet", 24, [9, 10, 11])):
            t = f"{CA}/Browse/objects/facet/{f}/id/{v}"
            self.add(f"f{v}", t, lambda r, f=f, v=v, xs=xs: self.browse([(f, v)], f"f{v}", xs))
        t = f"{CA}/Browse/objects/facet/decade_facet/id/1920"
        self.add("f1920", t, lambda r: self.browse([("decade_facet", 1920)], "f1920", [2, 8]))

    def ou(self, k: int) -> str:
        return f"{CA}/Detail/objects/{self.oid[k]}"

    def elinks(self) -> list[tuple[str, str]]:
        return [(f"{CA}/Detail/entities/{e}", n) for e, n in zip(self.eid, self.en, strict=True)]

    def home(self) -> str:
        links = [(f"{CA}/Browse/objects", "Browse objects"), (f"{CA}/Browse/entities", "People")]
        links += [(f"{CA}/Gallery/Index", "Galleries"), (f"{CA}/About/Index", "About")]
        links += [(f"{CA}/LoginReg/loginForm", "Login"), (f"{CA}/Lightbox/Index", "Lightbox")]
        return self.html("Tidemill Maritime Museum collection", "home", ul(links), 40, 110)

    def browse(self, crit: list[tuple[str, int]], key: str, xs: list[int]) -> str:
        tok = self.fresh(32)
        base = f"{CA}/Browse/objects/key/{tok}"
        links = [(self.ou(k), self.on[k]) for k in xs]
        used = {f for f, _ in crit}
        for f, vs in _FACETS.items():
            if f not in used or len(crit) < 3:
                links += [
                    (f"{base}/facet/{f}/id/{v}", f"{f} {v}") for v in vs if (f, v) not in crit
                ]
        links += [(f"{base}/sort/Title/direction/{d}", f"Title {d}") for d in ("asc", "desc")]
        links += [(f"{base}/view/{v}", v) for v in ("images", "list", "map")]
        title = "Objects" + "".join(f" / {f} {v}" for f, v in crit)
        return self.html(title, key, ul(links), 20, 60)

    def obj(self, k: int) -> str:
        links = [(f"{CA}/Detail/entities/{self.eid[k % 6]}", self.en[k % 6])]
        links += [(self.ou((k + 5) % 12), self.on[(k + 5) % 12])]
        links += [
            (f"{CA}/Detail/objects/{20000 + h(self.key(f'r{k}{j}'), 70000)}", "Related")
            for j in (0, 1)
        ]
        links += [(f"{CA}/Browse/objects/facet/type_facet/id/{23 + k % 4}", "Same type")]
        if k % 3 == 2:
            links += [(f"{CA}/Browse/objects/facet/decade_facet/id/1920", "The 1920s")]
        links += [(f"{CA}/Lightbox/addItem/id/{self.oid[k]}", "Add to lightbox")]
        return self.html(f"{self.on[k]} (object {self.oid[k]})", f"o{k}", ul(links), 60, 160)

    def ent(self, k: int) -> str:
        links = [(self.ou(j), self.on[j]) for j in range(12) if j % 6 == k]
        return self.html(self.en[k], f"e{k}", ul(links), 40, 100)

    def gallery(self, g: int, xs: list[int]) -> str:
        links = [(self.ou(k), self.on[k]) for k in xs] + [(f"{CA}/Gallery/Index", "Galleries")]
        return self.html(f"Gallery {g}", f"g{g}", ul(links), 30, 80)

    def madeup(self, req: Req, kind: str, n: int) -> Reply:
        nm = self.made(f"{kind}{n}", 3)
        x = [h(f"{req.target}{j}", 90000) + 10000 for j in range(4)]
        links = [
            (f"{CA}/Detail/objects/{x[0]}?tab=related", nm[1]),
            (f"{CA}/Detail/entities/{x[1]}", f"Maker: {nm[2]}"),
            (f"{CA}/Detail/places/{x[2]}/{nm[0].replace(' ', '-').lower()}", "Place"),
            (f"{CA}/Detail/occurrences/{x[3]}", "Exhibition"),
            (f"{CA}/Search/objects/search/{quote(nm[2])}", f"More by {nm[2]}"),
        ]
        return self.rich(req, f"{nm[0]} ({kind} {n})", links)

    def rest(self, req: Req) -> Reply:
        p = req.path
        if p.startswith(f"{CA}/Browse/objects/"):
            segs = p.split("/")[4:]
            crit = []
            pairs = list(zip(segs[::2], segs[1::2], strict=False))
            for j in range(len(pairs) - 1):
                if pairs[j][0] == "facet" and pairs[j + 1][0] == "id" and pairs[j + 1][1].isdigit():
                    crit.append((pairs[j][1], int(pairs[j + 1][1])))
            xs = [h(req.target + str(j)) % 12 for j in range(3)]
            return trap(self.browse(crit, req.key, xs))
        m = re.fullmatch(rf"{CA}/Detail/(objects|entities|places|occurrences)/(\d+)(/[a-z-]+)?", p)
        if m:
            n = int(m.group(2))
            if m.group(1) == "objects" and n in self.oid:
                return trap(self.obj(self.oid.index(n)))
            if m.group(1) == "entities" and n in self.eid:
                return trap(self.ent(self.eid.index(n)))
            return self.madeup(req, m.group(1), n)
        m = re.fullmatch(rf"{CA}/Search/objects/search/([^/]+)", p)
        if m:
            nm = title_of(m.group(1))
            x = [h(f"{req.target}{j}", 90000) + 10000 for j in range(3)]
            links = [(f"{CA}/Detail/objects/{v}", f"Result {v}") for v in x]
            return self.rich(req, f"Search: {nm}", links)
        return not_found()


# ----------------------------------------------------------------------------------------
# The control: an allotment society's static site. No traps.
# ----------------------------------------------------------------------------------------


class Control(B16):
    """No traps: home, about, four sections of six pages, one disallowed link."""

    name = "control"
    kind = "no traps (static site)"
    theme = "food"
    brand = "Harbour Allotment Society"
    robots_disallow: ClassVar[list[str]] = ["/committee/"]

    def make(self) -> None:
        self.secs = {s: slugs_c(self, s) for s in ("plots", "shows", "news", "growing")}
        self.add("home", "/", lambda r: self.html(self.brand, "home", ul(self.nav())))
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
            ("/committee/", "Committee"),
        ]


def slugs_c(site: B16, s: str) -> list[str]:
    """Six page slugs for section `s`."""
    return slugs(site.key(s), 6, site.v, 2)
