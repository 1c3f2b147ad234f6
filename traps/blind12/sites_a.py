"""blind12 sites, part a: Matomo, a Nextcloud public share, an Evergreen OPAC, the control."""

from __future__ import annotations

import datetime as dt
import re
from typing import ClassVar

from traps.blind.kit import Reply, Req, not_found, slugs, title_of
from traps.blind2.common import esc, qlist, qs, trap, ul

from .common import Base, binary, num, params, pq

# ----------------------------------------------------------------------------------------
# Matomo 5 with anonymous view access (a town's public web statistics). Every report has
# the period selector (day/week/month/year/range) and "previous/next period" arrows: the
# previous arrow never stops (Matomo renders empty reports before a site existed), every
# period and date is another copy of the dashboard. Segment links add one condition per
# click (`segment=a;b;c`, in click order): finite but large. Real pages in the same family:
# each site's monthly overview for July-November 2026 (only November is linked from the
# home page; the older months only by the "previous period" arrow, deep), the all-websites
# dashboard for September-November, and two reports per site for November.
# robots.txt (the operator's): the API, the widget iframes and the tracker endpoints.
# ----------------------------------------------------------------------------------------

_MONTHS = ["2026-07-01", "2026-08-01", "2026-09-01", "2026-10-01", "2026-11-01"]
_PERIODS = ("day", "week", "month", "year", "range")
_SEGS = (
    "browserCode==FF",
    "deviceType==smartphone",
    "countryCode==gb",
    "visitorType==returning",
    "referrerType==search",
)
_REPORTS = (("General_Actions", "General_Pages"), ("Referrers_Referrers", "Referrers_WidgetGetAll"))
_LAST = dt.date(2026, 11, 30)


def _shift(period: str, d: dt.date, k: int) -> dt.date:
    if period in ("day", "range"):
        return d + dt.timedelta(days=k * (7 if period == "range" else 1))
    if period == "week":
        return d + dt.timedelta(days=7 * k)
    if period == "month":
        m = d.year * 12 + d.month - 1 + k
        return dt.date(m // 12, m % 12 + 1, 1)
    return dt.date(d.year + k, 1, 1)


def _fmt(period: str, d: dt.date) -> str:
    if period == "range":
        return f"{d.isoformat()},{(d + dt.timedelta(days=6)).isoformat()}"
    return d.isoformat()


class Matomo(Base):
    """Matomo: period/date arrows without end, segment permutations; real older months."""

    name = "matomo"
    kind = "Matomo 5 anonymous dashboard: period x date arrows (endless), segments in click order"
    theme = "gov"
    brand = "Harbour Town Web Statistics"
    robots_disallow: ClassVar[list[str]] = [
        "/index.php?module=API",
        "/index.php?module=Widgetize",
        "/matomo.php",
        "/piwik.php",
    ]

    def make(self) -> None:
        self.sites = {
            1: "harbourtown.example",
            2: "museum.harbourtown.example",
            3: "library.harbourtown.example",
            4: "ferry.harbourtown.example",
        }
        self.add("home", "/", lambda r: self.home())
        self.add(
            "about",
            "/about.html",
            lambda r: self.html("About these statistics", "about", ul([("/", "Dashboard")])),
        )
        for d in _MONTHS[2:]:
            self.add(f"ms{d}", self.u("MultiSites", 1, "month", d), self.dash)
        for s in self.sites:
            for d in _MONTHS:
                self.add(f"v{s}{d}", self.u("CoreHome", s, "month", d), self.dash)
            for c, sc in _REPORTS:
                t = self.u("CoreHome", s, "month", _MONTHS[-1]) + f"&category={c}&subcategory={sc}"
                self.add(f"r{s}{sc}", t, self.dash)

    def u(self, mod: str, s: int, period: str, date: str, seg: str = "") -> str:
        t = f"/index.php?module={mod}&action=index&idSite={s}&period={period}&date={date}"
        return t + (f"&segment={pq(seg)}" if seg else "")

    def home(self) -> str:
        links = [(self.u("MultiSites", 1, "month", _MONTHS[-1]), "All websites")]
        links += [(self.u("CoreHome", s, "month", _MONTHS[-1]), n) for s, n in self.sites.items()]
        links += [("/about.html", "About")]
        return self.html("Harbour Town web statistics", "home", ul(links))

    def dash(self, req: Req) -> str:
        q = qs(req.query)
        mod, s, period = q.get("module", ""), num(q, "idSite", 1), q.get("period", "")
        d = dt.date.fromisoformat(q.get("date", "")[:10])
        seg = q.get("segment", "")
        cat = q.get("subcategory", "")
        ds = q.get("date", "")
        links = []
        for p in _PERIODS:
            if p != period:
                dd = _shift(p, d, 0) if p in ("month", "year") else d
                links.append((self.u(mod, s, p, _fmt(p, dd), seg), f"Period: {p}"))
        prev = _shift(period, d, -1)
        links.append((self.u(mod, s, period, _fmt(period, prev), seg), "Previous period"))
        nxt = _shift(period, d, 1)
        if nxt <= _LAST:
            links.append((self.u(mod, s, period, _fmt(period, nxt), seg), "Next period"))
        have = seg.split(";") if seg else []
        for c in _SEGS:
            if c not in have:
                links.append((self.u(mod, s, period, ds, ";".join([*have, c])), f"Segment {c}"))
        if seg:
            links.append((self.u(mod, s, period, ds), "All visits"))
        if mod == "CoreHome":
            for c, sc in _REPORTS:
                u = self.u(mod, s, period, ds, seg) + f"&category={c}&subcategory={sc}"
                links.append((u, sc.split("_")[-1]))
            links.append((self.u("MultiSites", 1, period, ds, seg), "All websites"))
            w = "/index.php?module=Widgetize&action=iframe&moduleToWidgetize=VisitsSummary"
            links.append((f"{w}&idSite={s}&period={period}&date={ds}", "Embed widget"))
            api = f"/index.php?module=API&method=VisitsSummary.get&idSite={s}&period={period}"
            links.append((f"{api}&date={ds}&format=CSV", "Export CSV"))
        else:
            links += [(self.u("CoreHome", k, period, ds, seg), n) for k, n in self.sites.items()]
        links.append(("/", "Dashboard home"))
        site = self.sites[s] if mod == "CoreHome" else "All websites"
        title = f"{site} - {cat.split('_')[-1] or 'Visits overview'} - {period} {ds}"
        key = f"{mod}{s}{period}{ds}{seg}{cat}"
        pid = self.pid_of(req)
        lo, hi = (60, 140) if pid else (15, 45)
        if cat and pid:
            lo, hi = 10, 30
        return self.html(title, key, ul(links), lo, hi)

    def rest(self, req: Req) -> Reply:
        if req.path != "/index.php":
            return not_found()
        q = qs(req.query)
        try:
            d = dt.date.fromisoformat(q.get("date", "")[:10])
        except ValueError:
            return not_found("Date format must be YYYY-MM-DD")
        if (
            q.get("module") not in ("CoreHome", "MultiSites")
            or num(q, "idSite") not in self.sites
            or q.get("period") not in _PERIODS
            or d.year < 1995
            or d > _LAST
        ):
            return not_found()
        return trap(self.dash(req))


# ----------------------------------------------------------------------------------------
# Nextcloud 28 public share links (a choir's cloud), two trusted domains. A folder share is
# `/s/<token>?path=%2FScores%2FAdvent`; the breadcrumb links every ancestor with a trailing
# slash and child links are the raw path + "/" + name, so `path=%2FScores%2F` leads to
# `%2FScores%2F%2FAdvent` and on without end (Nextcloud collapses the slashes and shows the
# folder again). Every file row has `&scrollto=<file>` (the same folder), the header's
# "Direct link" is the `/index.php/s/...` spelling, under which every link keeps
# `/index.php`. The old domain (host 1) serves every share again beside its own five
# single-file shares. Downloads are files (not scored). robots.txt (the operator's,
# replacing the shipped `Disallow: /`): login, apps, remote.php, ocs.
# ----------------------------------------------------------------------------------------

_TOK = re.compile(r"^(/index\.php)?/s/([A-Za-z0-9]{15})(/download)?$")


class Nextcloud(Base):
    """Nextcloud public shares: slash-growing paths, /index.php copies, a second domain."""

    name = "nextcloud"
    kind = (
        "Nextcloud 28 public shares on two domains: path=%2F..%2F%2F.. growth, /index.php/s/ copies"
    )
    theme = "events"
    brand = "Nextcloud"
    hosts = 2
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/"), (1, "/")]
    robots_disallow: ClassVar[list[str]] = [
        "/login",
        "/index.php/login",
        "/apps/",
        "/index.php/apps/",
        "/remote.php",
        "/ocs/",
    ]

    def make(self) -> None:
        alpha = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
        rng = self.rng("tokens")
        toks = ["".join(rng.choice(alpha) for _ in range(15)) for _ in range(17)]
        self.folders: dict[str, list[str]] = {
            toks[0]: [
                "",
                "/Scores",
                "/Scores/Advent",
                "/Scores/Summer",
                "/Recordings",
                "/Recordings/2025",
                "/Posters",
            ],
            toks[1]: ["", "/Logos", "/Photos", "/Photos/Concert"],
        }
        self.fnames = {
            (t, f): [f"{w}.pdf" for w in slugs(self.key(t + f), 3, self.v, 2)]
            for t, fs in self.folders.items()
            for f in fs
        }
        files = slugs(self.key("single"), 15, self.v, 2)
        self.singles: dict[str, tuple[str, int]] = {}
        for k, t in enumerate(toks[2:]):
            self.singles[t] = (f"{files[k]}.{'pdf' if k % 3 else 'mp3'}", 0 if k < 10 else 1)
        self.add("home0", "/", lambda r: self.home(0))
        self.add("home1", "/", lambda r: self.home(1), host=1)
        for t, fs in self.folders.items():
            for f in fs:
                self.add(f"f{t}{f}", self.ftarget(t, f), self.folder)
        for t, (_, h) in self.singles.items():
            self.add(f"s{t}", f"/s/{t}", self.single, host=h)

    def ftarget(self, t: str, f: str, pre: str = "") -> str:
        return f"{pre}/s/{t}" + (f"?path={pq(f)}" if f else "")

    def home(self, h: int) -> str:
        links = []
        if h == 0:
            links += [
                (self.ftarget(t, ""), n)
                for t, n in zip(self.folders, ("Choir archive", "Press kit"), strict=True)
            ]
            links.append((self.url(1, "/"), "Links on our old domain"))
        else:
            t0 = next(iter(self.folders))
            links.append((self.ftarget(t0, ""), "Choir archive (old link)"))
            links.append((self.url(0, "/"), "Our new domain"))
        links += [(f"/s/{t}", n) for t, (n, hh) in self.singles.items() if hh == h]
        links.append(("/login", "Log in"))
        title = "Shared files" if h == 0 else "Shared files (old domain)"
        return self.html(title, f"home{h}", ul(links), 40, 90)

    def folder(self, req: Req) -> str:
        m = _TOK.match(req.path)
        assert m
        pre, t = m.group(1) or "", m.group(2)
        raw = params(req.query).get("path", "")
        norm = "/" + "/".join(x for x in raw.split("/") if x) if raw.strip("/") else ""
        base = f"{pre}/s/{t}"
        links = [(base, "Home")]
        segs = raw.split("/")[1:] if raw else []
        for i in range(1, len(segs)):
            anc = "/" + "/".join(segs[:i]) + "/"
            links.append((f"{base}?path={pq(anc)}", segs[i - 1] or "/"))
        kids = [f.rsplit("/", 1)[1] for f in self.folders[t] if f and f.rsplit("/", 1)[0] == norm]
        links += [(f"{base}?path={pq(raw + '/' + k)}", k) for k in kids]
        for fn in self.fnames[(t, norm)]:
            links.append((f"{base}?path={pq(raw)}&scrollto={pq(fn)}", fn))
            links.append((f"{base}/download?path={pq(raw)}&files={pq(fn)}", "Download"))
        links.append((f"{base}/download?path={pq(raw)}", "Download all files"))
        links.append((f"/index.php/s/{t}" + (f"?path={pq(raw)}" if raw else ""), "Direct link"))
        links.append(("/login", "Log in"))
        name = norm.rsplit("/", 1)[-1] or "Shared folder"
        key = f"f{t}{norm}" if self.pid_of(req) else f"fc{t}{norm}{len(raw) % 3}"
        lo, hi = (30, 80) if self.pid_of(req) else (10, 30)
        return self.html(name, key, ul(links), lo, hi)

    def single(self, req: Req) -> str:
        m = _TOK.match(req.path)
        assert m
        pre, t = m.group(1) or "", m.group(2)
        fn = self.singles[t][0]
        links = [
            (f"{pre}/s/{t}/download", f"Download ({3 + len(fn) % 7}.2 MB)"),
            (f"/index.php/s/{t}", "Direct link"),
            (f"/index.php/apps/files_sharing/publicpreview/{t}?x=1920&y=1080&a=true", "Preview"),
        ]
        return self.html(fn, f"s{t}" if self.pid_of(req) else f"sc{t}", ul(links), 8, 20)

    def rest(self, req: Req) -> Reply:
        m = _TOK.match(req.path)
        if not m:
            return not_found()
        t = m.group(2)
        if m.group(3):
            return binary(self.singles[t][0] if t in self.singles else "files.zip")
        if t in self.singles:
            return trap(self.single(req)) if not req.query else not_found()
        if t not in self.folders:
            return not_found("Share not found")
        raw = params(req.query).get("path", "")
        norm = "/" + "/".join(x for x in raw.split("/") if x) if raw.strip("/") else ""
        if norm not in self.folders[t]:
            return not_found("File not found")
        return trap(self.folder(req))


# ----------------------------------------------------------------------------------------
# Evergreen 3 TPAC catalogue (a county library consortium). Subject browse results are
# `/eg/opac/results?query=<s>&qtype=subject&locg=1` with a real second page `&page=1`;
# every result links the record with the search context (`/eg/opac/record/<id>?query=..;
# qtype=..;locg=..`, a copy per search) and its permalink. Results pages offer five sorts,
# eight libraries (`locg=`) and format/language facets appended in click order
# (`&fi%3Aformat=..&fi%3Aitem_lang=..`): finite but large; author links open author
# searches; records have `?expand=marchtml` (a copy). robots.txt (the operator's):
# my account, lists, holds, login.
# ----------------------------------------------------------------------------------------

_E = "/eg/opac"
_SORTS = ("titlesort", "titlesort.descending", "authorsort", "pubdate", "pubdate.descending")
_FMT = ("book", "ebook", "dvd", "audiobook")
_LANG = ("eng", "spa", "fre")


class Evergreen(Base):
    """Evergreen OPAC: search-context record copies, sort x library x facet permutations."""

    name = "evergreen"
    kind = (
        "Evergreen 3 TPAC: record?query=;qtype=;locg= copies, sort x locg x facets in click order"
    )
    theme = "books"
    brand = "Tri-County Library Catalog"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, f"{_E}/home")]
    robots_disallow: ClassVar[list[str]] = [
        f"{_E}/myopac",
        f"{_E}/mylist",
        f"{_E}/place_hold",
        f"{_E}/login",
    ]

    def make(self) -> None:
        self.subjects = [title_of(s) for s in slugs(self.key("subj"), 6, self.v, 1)]
        authors = [title_of(s) for s in slugs(self.key("auth"), 12, self.v, 2)]
        titles = slugs(self.key("titles"), 30, self.v, 3)
        self.recs: dict[int, dict[str, str]] = {}
        for i in range(30):
            self.recs[101 + i] = {
                "title": title_of(titles[i]),
                "subject": self.subjects[i % 6],
                "author": authors[(i * 5) % 12],
                "format": _FMT[i % 4],
                "item_lang": _LANG[(i // 4) % 3],
            }
        self.add("home", f"{_E}/home", lambda r: self.home())
        self.add("adv", f"{_E}/advanced", lambda r: self.html("Advanced search", "adv", "", 10, 25))
        for s in self.subjects:
            self.add(f"r{s}", self.res(s, "subject"), self.results)
            self.add(f"r{s}p1", self.res(s, "subject", page=1), self.results)
        for rid in self.recs:
            self.add(f"rec{rid}", f"{_E}/record/{rid}", self.record)

    def res(
        self,
        query: str,
        qtype: str,
        locg: int = 1,
        sort: str = "",
        facets: tuple[tuple[str, str], ...] = (),
        page: int = 0,
    ) -> str:
        t = f"{_E}/results?query={pq(query)}&qtype={qtype}&locg={locg}"
        t += f"&sort={sort}" if sort else ""
        t += "".join(f"&fi%3A{k}={v}" for k, v in facets)
        return t + (f"&page={page}" if page else "")

    def home(self) -> str:
        links = [(self.res(s, "subject"), s) for s in self.subjects]
        links += [(f"{_E}/advanced", "Advanced search"), (f"{_E}/login", "My account")]
        return self.html("Tri-County Library Catalog", "home", ul(links))

    def results(self, req: Req) -> str:
        pairs = qlist(req.query)
        q = dict(pairs)
        query, qtype, locg = q.get("query", ""), q.get("qtype", "keyword"), num(q, "locg", 1)
        sort, page = q.get("sort", ""), num(q, "page")
        facets = tuple((k[3:], v) for k, v in pairs if k.startswith("fi:"))
        hits = [
            rid
            for rid, r in self.recs.items()
            if r.get(qtype) == query and all(r.get(k) == v for k, v in facets)
        ]
        if sort:
            field = "title" if "title" in sort else "author" if "author" in sort else "rid"
            hits.sort(key=lambda x: self.recs[x].get(field, str(x)), reverse="desc" in sort)
        ctx = f"query={pq(query)};qtype={qtype};locg={locg}"
        links = []
        for rid in hits[page * 3 : page * 3 + 3]:
            links.append((f"{_E}/record/{rid}?{ctx}", self.recs[rid]["title"]))
            links.append((f"{_E}/record/{rid}", "Permalink"))
            links.append((f"{_E}/mylist/add?record={rid}&anchor=record_{rid}", "Add to my list"))
        if page > 0:
            links.append((self.res(query, qtype, locg, sort, facets, page - 1), "Previous"))
        if len(hits) > page * 3 + 3:
            links.append((self.res(query, qtype, locg, sort, facets, page + 1), "Next"))
        links += [(self.res(query, qtype, locg, s, facets), f"Sort: {s}") for s in _SORTS]
        links += [(self.res(query, qtype, g, sort, facets), f"Library {g}") for g in range(1, 9)]
        applied = {k for k, _ in facets}
        for k, vals in (("format", _FMT), ("item_lang", _LANG)):
            if k not in applied:
                for v in vals:
                    links.append((self.res(query, qtype, locg, sort, (*facets, (k, v))), v))
        pid = self.pid_of(req)
        key = pid or f"res{query}{qtype}{len(facets)}{page}"
        title = f"Search results: {query} ({len(hits)} hits)"
        return self.html(title, key, ul(links), *((40, 90) if pid else (10, 40)))

    def record(self, req: Req) -> str:
        rid = int(req.path.rsplit("/", 1)[1])
        r = self.recs[rid]
        ctx = req.query
        links = [
            (self.res(r["subject"], "subject"), f"Subject: {r['subject']}"),
            (self.res(r["author"], "author"), f"Author: {r['author']}"),
            (f"{_E}/record/{rid}?expand=marchtml" + (f";{ctx}" if ctx else ""), "MARC view"),
            (f"{_E}/place_hold?hold_target={rid}&hold_type=T", "Place hold"),
        ]
        p = params(ctx)
        if "query" in p:
            links.append((self.res(p["query"], p.get("qtype", "keyword")), "Back to results"))
            nxt = rid + 6 if rid + 6 in self.recs else 101 + (rid - 100) % 6
            links.append((f"{_E}/record/{nxt}?{ctx}", "Next result"))
        pid = self.pid_of(req)
        body = f"<p>{esc(r['author'])}; {r['format']}; {r['item_lang']}</p>" + ul(links)
        return self.html(r["title"], pid or f"rc{rid % 5}", body, *((30, 80) if pid else (5, 20)))

    def rest(self, req: Req) -> Reply:
        if req.path == f"{_E}/results":
            return trap(self.results(req))
        m = re.match(rf"^{_E}/record/(\d+)$", req.path)
        if m and int(m.group(1)) in self.recs:
            return trap(self.record(req))
        return not_found()


# ----------------------------------------------------------------------------------------
# The trap-free control: a village hall's static site.
# ----------------------------------------------------------------------------------------


class Control(Base):
    """No traps: home, about, four sections of six pages, one disallowed link."""

    name = "control"
    kind = "no traps (static site)"
    theme = "events"
    brand = "Ashcombe Village Hall"
    robots_disallow: ClassVar[list[str]] = ["/bookings/admin/"]

    def make(self) -> None:
        self.secs = {
            s: slugs(self.key(s), 6, self.v, 2) for s in ("hire", "clubs", "news", "history")
        }
        self.add("home", "/", lambda r: self.home())
        self.add(
            "about", "/about/", lambda r: self.html("About the hall", "about", ul([("/", "Home")]))
        )
        for s, ps in self.secs.items():
            self.add(f"s{s}", f"/{s}/", lambda r, s=s: self.section(s))
            for p in ps:
                self.add(f"p{s}{p}", f"/{s}/{p}/", lambda r, s=s, p=p: self.leaf(s, p))

    def home(self) -> str:
        links = [(f"/{s}/", title_of(s)) for s in self.secs]
        links += [("/about/", "About"), ("/bookings/admin/", "Bookings admin")]
        return self.html("Ashcombe Village Hall", "home", ul(links))

    def section(self, s: str) -> str:
        return self.html(
            title_of(s), f"s{s}", ul([(f"/{s}/{p}/", title_of(p)) for p in self.secs[s]])
        )

    def leaf(self, s: str, p: str) -> str:
        return self.html(title_of(p), f"p{s}{p}", ul([(f"/{s}/", title_of(s)), ("/", "Home")]))
