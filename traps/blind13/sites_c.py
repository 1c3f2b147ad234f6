"""blind13 sites, part c: Umbraco on two domains, OpenProject, AWStats beside Webalizer,
and a weather-history archive."""

from __future__ import annotations

import datetime as dt
import json
import re
from typing import ClassVar
from urllib.parse import unquote

from traps.blind.kit import slugs, title_of

from .common import B13, Reply, Req, not_found, num, pq, qs, trap, ul

# ----------------------------------------------------------------------------------------
# Umbraco 8 with two root nodes bound to two domains (a museum, host 0, and its events
# site, host 1). Umbraco's default content finders answer `/<node id>` for ANY node on
# either domain (ContentFinderByIdPath; the RTE's link picker writes such links), any page
# followed by `/<template alias>` renders it with that template (ContentFinderByUrlAndTemplate)
# and `?altTemplate=<alias>` does the same. The templates' "Print", "AMP" and "JSON-LD"
# links, the RTE's `/1xxx` links and the news list's paging (`?page=`, real pages 2 and 3,
# later pages empty but still linking pages 1-3 with the template kept) make the copies.
# robots.txt: `/umbraco/` (the back office and surface controllers), `/App_Plugins/`,
# `/media/`, `/search`.
# ----------------------------------------------------------------------------------------

_TPL = ("Print", "Amp", "JsonLd", "Sitemap", "Rss", "Plain")


class Umbraco(B13):
    """Umbraco: /<id> on either domain, /<page>/<template>, ?altTemplate=, news paging."""

    name = "umbraco"
    kind = "Umbraco 8, two domains: /<nodeId> anywhere, /<page>/<templateAlias>, ?altTemplate="
    theme = "events"
    brand = "Quayside Museum"
    hosts = 2
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/"), (1, "/")]
    robots_disallow: ClassVar[list[str]] = ["/umbraco/", "/App_Plugins/", "/media/", "/search"]

    def make(self) -> None:
        self.nodes: dict[int, tuple[int, str, str]] = {}  # id -> (host, path, kind)
        nid = iter(range(1063, 2000, 7))
        self.node(0, "/", "home")
        for s in ("about", "visit", "collections", "exhibitions", "news", "support"):
            self.node(0, f"/{s}/", "section")
        for s, n in (("collections", 6), ("exhibitions", 4), ("news", 9)):
            for p in slugs(self.key(s), n, self.v, 2):
                self.node(0, f"/{s}/{p}/", "leaf")
        for p in (2, 3):
            self.add(f"news{p}", f"/news/?page={p}", lambda r, p=p: self.news(p, ""))
        self.node(1, "/", "home")
        self.node(1, "/whats-on/", "section")
        for p in slugs(self.key("ev"), 6, self.v, 2):
            self.node(1, f"/whats-on/{p}/", "leaf")
        self.node(1, "/venue-hire/", "leaf")
        for k in range(len(self.nodes)):
            self.nodes[next(nid)] = self.nodes.pop(k)

    def node(self, h: int, path: str, kind: str) -> None:
        k = len(self.nodes)
        self.nodes[k] = (h, path, kind)
        self.add(f"n{h}{path}", path, lambda r, h=h, p=path: self.page(h, p, ""), h)

    def idof(self, h: int, path: str) -> int:
        return next(i for i, n in self.nodes.items() if n[:2] == (h, path))

    def kids(self, h: int, path: str) -> list[str]:
        return [
            p
            for (hh, p, _) in self.nodes.values()
            if hh == h and p != path and p.startswith(path) and p.count("/") == path.count("/") + 1
        ]

    def page(self, h: int, path: str, tpl: str) -> str:
        kids = self.kids(h, path)
        if path == "/news/":
            return self.news(1, tpl)
        sfx = tpl.lower() if tpl in ("Amp", "Plain") else ""
        links = [(p + sfx, title_of(p.strip("/").split("/")[-1])) for p in kids]
        links += [(f"{path}?altTemplate={t}", t) for t in _TPL[:3] if t != tpl]
        links += [(f"{path}{t.lower()}", t) for t in _TPL[3:] if t != tpl]
        if h == 0 and path != "/":
            i = list(self.nodes).index(self.idof(0, path))
            other = [n for n, v in self.nodes.items() if v[0] == 0][(i * 5) % 26]
            links.append((f"/{other}", "See also"))
            links.append((self.bases[1] + "/whats-on/", "What's on"))
        if h == 1:
            links.append((self.bases[0] + "/visit/", "Visiting the museum"))
        links += [("/", "Home"), ("/umbraco/", "Log in")]
        name = title_of(path.strip("/").split("/")[-1] or ("museum" if h == 0 else "events"))
        legit = not tpl
        key = f"n{h}{path}{tpl}"
        return self.html(
            name + (f" ({tpl})" if tpl else ""),
            key,
            ul(links),
            60 if legit else 10,
            160 if legit else 40,
        )

    def news(self, page: int, tpl: str) -> str:
        arts = [p for p in self.kids(0, "/news/")][(page - 1) * 4 :][:4]
        links = [(p, title_of(p.strip("/").split("/")[-1])) for p in arts]
        t = f"&altTemplate={tpl}" if tpl else ""
        links += [(f"/news/?page={n}{t}", f"Page {n}") for n in (1, 2, 3)]
        links.append((f"/news/?page={page + 1}{t}", "Older"))
        links += [("/news/rss", "RSS"), ("/", "Home")]
        return self.html(f"News, page {page}", f"news{page}{tpl}", ul(links), 30, 90)

    def rest(self, req: Req) -> Reply:
        q = qs(req.query)
        tpl = q.get("altTemplate", "")
        tpl = {t.lower(): t for t in _TPL}.get(tpl.lower(), "")
        m = re.fullmatch(r"/(\d{4})/?", req.path)
        if m and int(m.group(1)) in self.nodes:
            h, path, _ = self.nodes[int(m.group(1))]
            return trap(self.page(h, path, tpl))
        path, last = req.path, ""
        if (req.host_index, path) not in [(h, p) for h, p, _ in self.nodes.values()]:
            mm = re.fullmatch(r"(/.*?/?)([A-Za-z]+)/?", path)
            tmap = {t.lower(): t for t in _TPL}
            if not mm or mm.group(2).lower() not in tmap:
                return not_found()
            path, last = mm.group(1), tmap[mm.group(2).lower()]
            if not path.endswith("/"):
                path += "/"
        if (req.host_index, path) not in [(h, p) for h, p, _ in self.nodes.values()]:
            return not_found()
        if path == "/news/" and req.host_index == 0 and "page" in q:
            return trap(self.news(max(1, num(q, "page", 1)), last or tpl))
        return trap(self.page(req.host_index, path, last or tpl))


# ----------------------------------------------------------------------------------------
# OpenProject 13 with public projects (a town's volunteer programme). The work package
# table's state is one `query_props=<JSON>` parameter: every column header puts its sort
# first ("t":"col:asc,..."), every filter link appends a filter to "f", paging sets "pa",
# "pp" and grouping "g": finite but huge, and the JSON grows. Work packages also answer
# `/work_packages/<id>/activity|relations|watchers|files` and the split view
# `/projects/<p>/work_packages/details/<id>/overview`; wiki pages have `?version=` and
# `/diff?version=&version_from=` of any pair and a `.html` export. Real pages in the
# family: each project's list with its default query and the "Open" saved view
# (`?query_id=`). robots.txt: login, account, my, api, attachments, users.
# ----------------------------------------------------------------------------------------

_COLSO = ("id", "subject", "type", "status", "assignee", "priority", "updatedAt")
_FILT = (
    ("status", "o"),
    ("status", "c"),
    ("type", "1"),
    ("type", "2"),
    ("priority", "8"),
    ("assignee", "me"),
)


class OpenProject(B13):
    """OpenProject: query_props JSON sorts and filters, work package tab copies, wiki diffs."""

    name = "openproject"
    kind = "OpenProject 13: work package query_props JSON (sorts/filters/pages), tabs, wiki diffs"
    theme = "gov"
    brand = "Volunteer Programme"
    robots_disallow: ClassVar[list[str]] = [
        "/login",
        "/account/",
        "/my/",
        "/api/",
        "/attachments/",
        "/users/",
    ]

    def make(self) -> None:
        self.projs = slugs(self.key("p"), 3, self.v, 2)
        self.wiki = {p: slugs(self.key("w" + p), 3, self.v, 2) for p in self.projs}
        self.wps = {
            40 + 3 * i: (self.projs[i % 3], t)
            for i, t in enumerate(slugs(self.key("wp"), 12, self.v, 4))
        }
        self.add("home", "/", lambda r: self.home())
        self.add("projects", "/projects", lambda r: self.thin("Projects", "pl", self.plinks()))
        for p in self.projs:
            self.add(f"p{p}", f"/projects/{p}", lambda r, p=p: self.proj(p))
            self.add(f"wl{p}", f"/projects/{p}/work_packages", lambda r, p=p: self.wplist(p, {}, r))
            self.add(
                f"wo{p}",
                f"/projects/{p}/work_packages?query_id={7 + self.projs.index(p)}",
                lambda r, p=p: self.wplist(p, {"f": [["status", "o"]]}, r),
            )
            self.add(f"wi{p}", f"/projects/{p}/wiki", lambda r, p=p: self.wikiindex(p))
            for w in self.wiki[p]:
                self.add(
                    f"w{p}{w}", f"/projects/{p}/wiki/{w}", lambda r, p=p, w=w: self.wpage(p, w, 0)
                )
        for i in self.wps:
            self.add(f"wp{i}", f"/work_packages/{i}", lambda r, i=i: self.wp(i, ""))

    def plinks(self) -> list[tuple[str, str]]:
        return [(f"/projects/{p}", title_of(p)) for p in self.projs]

    def home(self) -> str:
        links = [*self.plinks(), ("/projects", "All projects"), ("/login", "Sign in")]
        return self.html("Volunteer Programme", "home", ul(links), 60, 140)

    def proj(self, p: str) -> str:
        links = [(f"/projects/{p}/work_packages", "Work packages"), (f"/projects/{p}/wiki", "Wiki")]
        return self.html(title_of(p), f"p{p}", ul(links), 50, 130)

    def wikiindex(self, p: str) -> str:
        links = [(f"/projects/{p}/wiki/{w}", title_of(w)) for w in self.wiki[p]]
        return self.thin(f"{title_of(p)} wiki", f"wi{p}", links)

    def qurl(self, p: str, st: dict) -> str:
        return f"/projects/{p}/work_packages?query_props=" + pq(
            json.dumps(st, separators=(",", ":"))
        )

    def wplist(self, p: str, st: dict, req: Req) -> str:
        mine = [i for i, (pp, _) in self.wps.items() if pp == p]
        if st.get("f"):
            mine = mine[: 4 - len(st["f"]) % 3]
        links = [(f"/work_packages/{i}", title_of(self.wps[i][1])) for i in mine]
        links += [(f"/projects/{p}/work_packages?query_id={7 + self.projs.index(p)}", "Open")]
        sorts = [s for s in st.get("t", "").split(",") if s]
        for c in _COLSO:
            d = "desc" if f"{c}:asc" in sorts[:1] else "asc"
            new = [f"{c}:{d}"] + [s for s in sorts if not s.startswith(c + ":")]
            links.append((self.qurl(p, {**st, "t": ",".join(new[:3])}), c))
        for f in _FILT:
            links.append((self.qurl(p, {**st, "f": [*st.get("f", []), list(f)]}), f"Filter {f}"))
        links.append((self.qurl(p, {**st, "pa": st.get("pa", 1) + 1, "pp": 20}), "Next"))
        links += [(self.qurl(p, {**st, "g": g}), f"Group by {g}") for g in ("status", "type")]
        pid = self.pid_of(req)
        key = f"wl{p}{json.dumps(st)}"
        return self.html(
            f"{title_of(p)}: work packages", key, ul(links), 30 if pid else 8, 80 if pid else 30
        )

    def wp(self, i: int, tab: str) -> str:
        p, t = self.wps[i]
        links = [
            (f"/work_packages/{i}/{s}", s) for s in ("activity", "relations", "watchers", "files")
        ]
        links += [
            (f"/projects/{p}/work_packages/details/{i}/overview", "Split view"),
            (f"/projects/{p}/work_packages", "Back"),
            (f"/attachments/{i}", "Attachment"),
        ]
        return self.html(
            f"#{i} {title_of(t)}{' ' + tab if tab else ''}", f"wp{i}", ul(links), 50, 150
        )

    def wpage(self, p: str, w: str, ver: int) -> str:
        u = f"/projects/{p}/wiki/{w}"
        links = [(f"{u}?version={v}", f"Version {v}") for v in range(1, 6) if v != ver]
        links += [(f"{u}/diff?version={v}&version_from={v - 1}", f"Diff {v}") for v in (2, 5)]
        links += [(f"{u}.html", "HTML export"), (f"/projects/{p}/wiki", "Index")]
        return self.html(
            title_of(w) + (f" v{ver}" if ver else ""),
            f"w{p}{w}{ver}",
            ul(links),
            60 if not ver else 20,
            160 if not ver else 60,
        )

    def rest(self, req: Req) -> Reply:
        q = qs(req.query)
        m = re.fullmatch(r"/projects/([a-z-]+)/work_packages", req.path)
        if m and m.group(1) in self.projs:
            try:
                st = json.loads(q.get("query_props", "{}"))
            except ValueError:
                return not_found()
            if not isinstance(st, dict):
                return not_found()
            return trap(self.wplist(m.group(1), st, req))
        m = re.fullmatch(r"(?:/projects/[a-z-]+)?/work_packages/(?:details/)?(\d+)/(\w+)", req.path)
        if m and int(m.group(1)) in self.wps:
            return trap(self.wp(int(m.group(1)), m.group(2)))
        m = re.fullmatch(r"/projects/([a-z-]+)/wiki/([a-z-]+)(\.html|/diff)?", req.path)
        if m and m.group(1) in self.projs and m.group(2) in self.wiki[m.group(1)]:
            p, w = m.group(1), m.group(2)
            if m.group(3) == "/diff":
                a, b = num(q, "version", 2), num(q, "version_from", 1)
                links = [
                    (f"/projects/{p}/wiki/{w}/diff?version={a}&version_from={b - 1}", "Older"),
                    (f"/projects/{p}/wiki/{w}?version={a}", f"Version {a}"),
                ]
                return self.tr(req, f"Diff {b}..{a}", links)
            return trap(self.wpage(p, w, num(q, "version", 0)))
        return not_found()


# ----------------------------------------------------------------------------------------
# A hosting company's statistics host: Webalizer's static monthly reports
# (`/webalizer/<site>/usage_2026MM.html`) beside AWStats' CGI
# (`/awstats/awstats.pl?config=<site>`). The Webalizer months link "Detailed (AWStats)"
# as `awstats.pl?config=<site>&month=MM&year=2026` (real pages, the month's summary; for
# the current month it is a copy of the bare `config=` summary). Every AWStats page links
# its 18 `output=` reports, 10 language flags (`&lang=`, kept in every later link), the
# frame views (`framename=index|mainleft|mainright`) and the "Full year" (`month=all`):
# configs x months x outputs x languages x frames. robots.txt: the raw logs, the
# control panel, `/awstats/icon/`, `/awstats/classes/`.
# ----------------------------------------------------------------------------------------

_OUT = (
    "alldomains",
    "allhosts",
    "lasthosts",
    "unknownip",
    "allrobots",
    "lastrobots",
    "session",
    "filetypes",
    "downloads",
    "urldetail",
    "urlentry",
    "urlexit",
    "osdetail",
    "browserdetail",
    "refererse",
    "refererpages",
    "keyphrases",
    "errors404",
)
_LANGS = ("en", "fr", "de", "es", "it", "nl", "pt", "pl", "cz", "jp")
_SITES = ("harbour-bakery.example", "millbrook-choir.example", "quarry-lane-garage.example")
_WMON = ("07", "08", "09", "10", "11")


class Awstats(B13):
    """AWStats beside Webalizer: output x lang x frame x month parameter combinations."""

    name = "awstats"
    kind = "Webalizer static reports + AWStats awstats.pl: output= x lang= x framename= x month"
    theme = "corp"
    brand = "Copperline Hosting statistics"
    robots_disallow: ClassVar[list[str]] = [
        "/logs/",
        "/panel/",
        "/awstats/icon/",
        "/awstats/classes/",
        "/cgi-bin/awredir.pl",
    ]

    def make(self) -> None:
        self.add("home", "/", lambda r: self.home())
        self.add("about", "/about.html", lambda r: self.thin("About", "about", [("/", "Home")]))
        for s in _SITES:
            self.add(f"w{s}", f"/webalizer/{s}/index.html", lambda r, s=s: self.windex(s))
            for m in _WMON[:4]:
                self.add(
                    f"w{s}{m}",
                    f"/webalizer/{s}/usage_2026{m}.html",
                    lambda r, s=s, m=m: self.wmonth(s, m),
                )
            self.add(f"a{s}", self.au(s), lambda r, s=s: self.aw(s, {}))
            for m in _WMON[:4]:
                self.add(
                    f"a{s}{m}",
                    self.au(s, month=m, year="2026"),
                    lambda r, s=s, m=m: self.aw(s, {"month": m, "year": "2026"}),
                )
        self.add(
            "w-nov",
            f"/webalizer/{_SITES[0]}/usage_202611.html",
            lambda r: self.wmonth(_SITES[0], "11"),
        )

    def au(self, s: str, **kw: str) -> str:
        return "/awstats/awstats.pl?config=" + s + "".join(f"&{k}={v}" for k, v in kw.items())

    def home(self) -> str:
        links = [(f"/webalizer/{s}/index.html", f"{s} (Webalizer)") for s in _SITES]
        links += [(self.au(s), f"{s} (AWStats)") for s in _SITES]
        links += [("/about.html", "About"), ("/panel/", "Control panel"), ("/logs/", "Raw logs")]
        return self.html("Statistics for hosted sites", "home", ul(links), 40, 100)

    def windex(self, s: str) -> str:
        ms = _WMON if s == _SITES[0] else _WMON[:4]
        links = [(f"usage_2026{m}.html", f"2026-{m}") for m in ms]
        return self.html(f"Usage statistics for {s}", f"w{s}", ul(links), 20, 60)

    def wmonth(self, s: str, m: str) -> str:
        links = [
            ("index.html", "Summary"),
            (self.au(s, month=m, year="2026"), "Detailed (AWStats)"),
        ]
        return self.html(f"Usage statistics for {s}: 2026-{m}", f"w{s}{m}", ul(links), 60, 160)

    def aw(self, s: str, st: dict[str, str]) -> str:
        keep = {k: v for k, v in st.items() if k in ("month", "year", "lang")}
        links = [(self.au(s, **keep, output=o, framename="mainright"), o) for o in _OUT]
        links += [(self.au(s, **{**keep, "lang": lg}), lg) for lg in _LANGS if lg != st.get("lang")]
        links += [(self.au(s, **keep, framename=f), f) for f in ("index", "mainleft")]
        links += [(self.au(s, **{**keep, "month": "all"}), "Full year")]
        links.append((f"/cgi-bin/awredir.pl?url=http://{s}/", "Visit site"))
        legit = set(st) <= {"month", "year"}
        title = f"Statistics for {s} {st.get('output', 'main')} {st.get('month', '11')}"
        key = f"a{s}{st.get('month', '')}" if legit else "a" + json.dumps(st, sort_keys=True) + s
        return self.html(title, key, ul(links), 60 if legit else 15, 150 if legit else 45)

    def rest(self, req: Req) -> Reply:
        if req.path != "/awstats/awstats.pl":
            return not_found()
        st = {
            unquote(k): unquote(v) for k, _, v in (p.partition("=") for p in req.query.split("&"))
        }
        s = st.pop("config", "")
        if s not in _SITES or any(
            k not in ("month", "year", "lang", "output", "framename") for k in st
        ):
            return not_found()
        if st.get("month") == "11" and set(st) == {"month", "year"}:
            st = {}
        return trap(self.aw(s, st))


# ----------------------------------------------------------------------------------------
# A weather-history archive in the style of Weather Underground's history pages:
# `/history/<view>/<station>/date/<Y-M-D>` with views daily/weekly/monthly, previous and
# next arrows without end in both directions (the archive answers any date with "no
# data"), `?units=` metric/imperial, and "nearby stations" written in lower case (the
# server matches station ids case-blind) with unpadded dates (`2026-11-3`, as WU writes
# them; the padded form serves the same page). Real pages in the family: each station's
# monthly pages for September-November 2026 (only November linked, the older months along
# the "previous" arrow) and the current day. robots.txt: the API, the PWS upload endpoint,
# the account pages, the CSV downloads.
# ----------------------------------------------------------------------------------------

_ST = {
    "EGHI": "Southampton",
    "EGHH": "Bournemouth",
    "EGJJ": "Jersey",
    "EGKA": "Shoreham",
    "EGMD": "Lydd",
    "EGTE": "Exeter",
}
_TODAY = dt.date(2026, 12, 3)


class Weather(B13):
    """Weather history: endless date arrows, case-blind station ids, padded date copies."""

    name = "weather"
    kind = "Weather Underground-style history: /history/<view>/<station>/date/<d> arrows, aliases"
    theme = "science"
    brand = "Channel Weather History"
    robots_disallow: ClassVar[list[str]] = [
        "/api/",
        "/weatherstation/",
        "/login",
        "/member/",
        "/download/",
    ]

    def make(self) -> None:
        self.add("home", "/", lambda r: self.home())
        self.add("about", "/about", lambda r: self.thin("About", "about", [("/", "Home")]))
        for s in _ST:
            self.add(f"s{s}", f"/dashboard/{s}", lambda r, s=s: self.dash(s))
            self.add(
                f"d{s}",
                self.hu("daily", s, _TODAY),
                lambda r, s=s: self.hist("daily", s, _TODAY, ""),
            )
            for m in (9, 10, 11):
                d = dt.date(2026, m, 1)
                self.add(
                    f"m{s}{m}",
                    self.hu("monthly", s, d),
                    lambda r, s=s, d=d: self.hist("monthly", s, d, ""),
                )

    def hu(self, view: str, s: str, d: dt.date, units: str = "") -> str:
        u = f"/history/{view}/{s}/date/{d.year}-{d.month}-{d.day}"
        return u + (f"?units={units}" if units else "")

    def home(self) -> str:
        links = [(f"/dashboard/{s}", n) for s, n in _ST.items()] + [("/about", "About")]
        links += [("/login", "Log in"), ("/api/", "API")]
        return self.html("Channel Weather History", "home", ul(links), 40, 100)

    def dash(self, s: str) -> str:
        links = [
            (self.hu("daily", s, _TODAY), "Today"),
            (self.hu("monthly", s, dt.date(2026, 11, 1)), "November"),
        ]
        links.append((f"/download/{s}.csv", "CSV"))
        return self.html(f"{_ST[s]} ({s})", f"s{s}", ul(links), 50, 120)

    def hist(self, view: str, s: str, d: dt.date, units: str) -> str:
        if view == "monthly":
            d = d.replace(day=1)
            prev = (d - dt.timedelta(days=1)).replace(day=1)
            nxt = (d + dt.timedelta(days=32)).replace(day=1)
        else:
            k = 7 if view == "weekly" else 1
            prev, nxt = d - dt.timedelta(days=k), d + dt.timedelta(days=k)
        links = [
            (self.hu(view, s, prev, units), "Previous"),
            (self.hu(view, s, nxt, units), "Next"),
        ]
        links += [(self.hu(v, s, d, units), v) for v in ("daily", "weekly", "monthly") if v != view]
        links += [(self.hu(view, s, d, u), u) for u in ("metric", "imperial") if u != units]
        i = list(_ST).index(s)
        for o in (list(_ST)[(i + 1) % 6], list(_ST)[(i + 3) % 6]):
            links.append((self.hu(view, o.lower(), d, units), f"Nearby: {_ST[o]}"))
        links.append((f"/dashboard/{s}", "Station"))
        key = f"h{view}{s}{d}{units}"
        real = (not units and (view, d) == ("daily", _TODAY)) or (
            not units and view == "monthly" and dt.date(2026, 9, 1) <= d <= dt.date(2026, 11, 1)
        )
        return self.html(
            f"{_ST[s]} {view} history {d}", key, ul(links), 60 if real else 12, 150 if real else 40
        )

    def rest(self, req: Req) -> Reply:
        m = re.fullmatch(
            r"/history/(daily|weekly|monthly)/([A-Za-z]{4})/date/(\d{4})-(\d{1,2})-(\d{1,2})",
            req.path,
        )
        if not m or m.group(2).upper() not in _ST:
            return not_found()
        try:
            d = dt.date(int(m.group(3)), int(m.group(4)), int(m.group(5)))
        except ValueError:
            return not_found()
        if d > dt.date(2199, 1, 1) or d < dt.date(1700, 1, 1):
            return not_found()
        units = qs(req.query).get("units", "")
        return trap(self.hist(m.group(1), m.group(2).upper(), d, units))
