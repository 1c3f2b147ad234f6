"""blind15 sites, part b: a job board, a football live-score site with its mobile host, and
a Prometheus server's web UI with its console templates."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import ClassVar

from .common import (
    B15,
    Reply,
    Req,
    day,
    h,
    is_day,
    moved,
    not_found,
    num,
    pq,
    qjoin,
    qlist,
    qs,
    redirect,
    slugs,
    title_of,
    trap,
    ul,
    unquote,
)

# ----------------------------------------------------------------------------------------
# A job board (Indeed-style). Searches `/jobs?q=<what>&l=Tidemill`: radius, job type,
# age, sort and salary filters with a clicked key moved to the end (keys in click order),
# `&start=` +10 without end, "related searches" for any words; result rows link jobs as
# `/viewjob?jk=<16 hex>&from=serp&tk=<token per response>` (the job again) and made-up
# jobs of their own. Under every job: "salaries for this title"
# `/career/<title>/salaries?returnUrl=<the current URL>` (nesting at each click),
# "similar jobs" (a search), company reviews `?start=&sort=`. Real pages in the family:
# the four category searches and their `&start=10` (two jobs a category only there),
# the bare `/viewjob?jk=` pages. robots.txt: account, saved jobs, apply, rpc, employers,
# resumes, the mobile copy.
# ----------------------------------------------------------------------------------------

_CATS = ("nurse", "electrician", "accountant", "chef")
_FILT = {
    "radius": ("5", "10", "25", "50", "100"),
    "jt": ("fulltime", "parttime", "contract", "temporary"),
    "fromage": ("1", "3", "7", "14"),
    "sort": ("date", "relevance"),
    "salaryType": ("hourly", "yearly"),
}


class Jobs(B15):
    """Job board: facets in click order, start= without end, tk= tokens, returnUrl nesting."""

    name = "jobs"
    kind = "job board: facets in click order, start= offsets, tk= tokens, returnUrl= nesting"
    theme = "corp"
    brand = "Harbour Jobs"
    robots_disallow: ClassVar[list[str]] = [
        "/account/",
        "/myjobs/",
        "/apply/",
        "/rpc/",
        "/employers/",
        "/resumes/",
        "/m/",
    ]

    def make(self) -> None:
        self.cos = [title_of(s).replace(" ", "-") for s in slugs(self.key("co"), 5, self.v, 2)]
        adj = slugs(self.key("adj"), 20, self.v, 1)
        self.jk = [f"{h(self.key(f'jk{k}')):08x}{h(self.key(f'jl{k}')):08x}" for k in range(20)]
        self.jt = [f"{title_of(adj[k])} {title_of(_CATS[k % 4])}" for k in range(20)]
        self.add("home", "/", lambda r: self.home())
        cl = [(self.surl(c), title_of(c)) for c in _CATS]
        self.add("browse", "/browse-jobs", lambda r: self.thin("Browse jobs", "br", cl))
        for c in range(4):
            self.add(f"q{c}", self.surl(_CATS[c]), lambda r, c=c: self.cat(c, 0))
            self.add(f"q{c}s", self.surl(_CATS[c]) + "&start=10", lambda r, c=c: self.cat(c, 10))
        for k in range(20):
            self.add(f"j{k}", f"/viewjob?jk={self.jk[k]}", lambda r, k=k: self.job(r, k))
        co = [(f"/cmp/{c}", c.replace("-", " ")) for c in self.cos]
        self.add("cos", "/companies", lambda r: self.thin("Companies", "cos", co))
        for i, c in enumerate(self.cos):
            self.add(f"c{c}", f"/cmp/{c}", lambda r, i=i: self.company(i))
        self.add("adv", "/career-advice", lambda r: self.html("Career advice", "adv", ""))

    def surl(self, q: str, pairs: list[tuple[str, str]] | None = None) -> str:
        return qjoin("/jobs", [("q", q), ("l", "Tidemill"), *(pairs or [])])

    def home(self) -> str:
        links = [(self.surl(c), f"{title_of(c)} jobs") for c in _CATS]
        links += [("/browse-jobs", "Browse"), ("/companies", "Companies")]
        links += [("/career-advice", "Career advice"), ("/account/login", "Sign in")]
        links.append(("/employers/post-job", "Post a job"))
        return self.html("Find jobs in Tidemill", "home", ul(links), 30, 80)

    def jlinks(self, ks: list[int], tk: bool) -> list[tuple[str, str]]:
        out = []
        for k in ks:
            tail = (
                f"&from=serp&tk={self.fresh(20, 'abcdefghijklmnopqrstuv0123456789')}" if tk else ""
            )
            out.append((f"/viewjob?jk={self.jk[k]}{tail}", self.jt[k]))
        return out

    def cat(self, c: int, start: int) -> str:
        ks = [k for k in range(20) if k % 4 == c][start // 10 * 3 : start // 10 * 3 + 3]
        links = self.jlinks(ks, False)
        links += [(self.surl(_CATS[c], [(k, vs[1])]), f"{k}: {vs[1]}") for k, vs in _FILT.items()]
        links.append((self.surl(_CATS[c], [("start", str(start + 10))]), "Next"))
        return self.html(
            f"{title_of(_CATS[c])} jobs in Tidemill", f"q{c}{start}", ul(links), 20, 60
        )

    def job(self, req: Req, k: int) -> str:
        jk, t = self.jk[k], self.jt[k]
        co = self.cos[k % 5]
        here = req.target
        links = [(f"/cmp/{co}", co.replace("-", " ")), (self.surl(_CATS[k % 4]), "More like this")]
        links.append(
            (
                f"/career/{pq(t.lower().replace(' ', '-'))}/salaries"
                f"?from=viewjob&returnUrl={pq(here)}",
                "Salaries",
            )
        )
        links.append((self.surl(t, [("from", "similar"), ("vjk", jk)]), "Similar jobs"))
        links.append((f"/cmp/{co}/reviews", "Company reviews"))
        links += [(f"/apply/{jk}", "Apply now"), (f"/myjobs/save?jk={jk}", "Save")]
        return self.html(f"{t} - {co.replace('-', ' ')}", f"j{k}", ul(links), 70, 180)

    def company(self, i: int) -> str:
        links = self.jlinks([k for k in range(20) if k % 5 == i], False)
        links += [(f"/cmp/{self.cos[i]}/reviews", "Reviews"), ("/companies", "All companies")]
        return self.html(self.cos[i].replace("-", " "), f"c{i}", ul(links), 30, 90)

    def search(self, req: Req) -> Reply:
        pairs = [(k, unquote(v).replace("+", " ")) for k, v in qlist(req.query)]
        cur = dict(pairs)
        what = cur.get("q", "")
        rng = random.Random(self.key("s" + req.target))
        links = self.jlinks(rng.sample(range(20), 3), True)
        for j, t in enumerate(slugs(self.key("fj" + req.target), 3, self.v, 2)):
            fk = f"{h(req.target + str(j)):08x}{j:08x}"
            links.append((f"/viewjob?jk={fk}", f"{title_of(t)} {what}"))
        for k, vals in _FILT.items():
            links += [
                (qjoin("/jobs", moved(pairs, k, v)), f"{k}: {v}") for v in vals if cur.get(k) != v
            ]
        start = num(cur, "start", 0)
        links.append((qjoin("/jobs", moved(pairs, "start", str(start + 10))), "Next"))
        for w in slugs(self.key("rw" + what), 2, self.v, 1):
            links.append((qjoin("/jobs", moved(pairs, "q", f"{what} {w}")), f"{what} {w}"))
        return self.tr(req, f"{what} jobs, from {start}", links, 30, 80)

    def rest(self, req: Req) -> Reply:
        p, q = req.path, qs(req.query)
        if p == "/jobs" and "q" in q:
            return self.search(req)
        if p == "/viewjob" and q.get("jk"):
            if q["jk"] in self.jk:
                return self.copy(req, 0, f"/viewjob?jk={q['jk']}") or not_found()
            links = [(self.surl(q["jk"][:4], [("from", "similar")]), "Similar jobs")]
            links.append(
                (
                    f"/career/{q['jk'][:6]}/salaries?from=viewjob&returnUrl={pq(req.target)}",
                    "Salaries",
                )
            )
            return self.tr(req, f"Job {q['jk']}", links, 60, 150)
        m = re.fullmatch(r"/career/([^/]+)/salaries", p)
        if m:
            back = q.get("returnUrl", "/")
            back = back if back.startswith("/") else "/"
            links = [(back, "Back")]
            for w in slugs(self.key("cw" + m.group(1)), 3, self.v, 1):
                links.append(
                    (f"/career/{w}-{m.group(1)}/salaries?from=career&returnUrl={pq(req.target)}", w)
                )
            return self.tr(req, f"Salaries: {unquote(m.group(1))}", links)
        m = re.fullmatch(r"/cmp/([A-Za-z-]+)/reviews", p)
        if m and m.group(1) in self.cos:
            start = num(q, "start", 0)
            links = [(f"/cmp/{m.group(1)}", "Overview")]
            links += [(f"{p}?start={start + 20}&sort={q.get('sort', 'helpfulness')}", "Next")]
            links += [(f"{p}?start={start}&sort={s}", s) for s in ("helpfulness", "rating", "date")]
            return self.tr(req, f"Reviews of {m.group(1)}, from {start}", links)
        return not_found()


# ----------------------------------------------------------------------------------------
# A football live-score site (host 0) and its mobile site (host 1: own home and help;
# every other page the main site's again). Day pages `/football/<date>/` with arrows both
# ways (today, and along "previous day" the two days before, are real), leagues,
# standings, teams `/team/<slug>/<id>/`, matches `/match/<id>/<home>-vs-<away>/`. Under
# every match the same tabs: lineups, statistics, commentary `?minute=` arrows, odds
# `?market=&period=`, head-to-head `h2h/?games=` listing past meetings (made-up matches
# of their own, in the match URL shape); any other slug for a match id is the match
# again. Standings `?type=&form=&round=` (rounds without end); team results `?page=`.
# robots.txt: account, login, API, betting, notifications, ads.
# ----------------------------------------------------------------------------------------

_TODAY = "2026-12-05"
_DAYS = (_TODAY, day(_TODAY, -1), day(_TODAY, -2))
_LEAGUES = (("england", "coast-league"), ("scotland", "highland-cup"), ("wales", "valley-league"))


class Livescore(B15):
    """Live scores: day arrows, tabs under every match, h2h graph, mobile host copies."""

    name = "livescore"
    kind = "football live scores + mobile host: day arrows, match tabs, h2h graph, rounds"
    theme = "news"
    brand = "Tidemill Scores"
    hosts = 2
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/"), (1, "/")]
    robots_disallow: ClassVar[list[str]] = [
        "/account/",
        "/login",
        "/api/",
        "/bet/",
        "/notifications/",
        "/ads/",
    ]

    def make(self) -> None:
        names = slugs(self.key("tm"), 12, self.v, 1)
        sfx = ("united", "city", "rovers", "athletic")
        self.teams = [f"{n}-{sfx[i % 4]}" for i, n in enumerate(names)]
        self.tid = [3100 + 17 * i for i in range(12)]
        self.matches = []
        for k in range(12):
            lg, d = k % 3, k // 4
            a = lg * 4 + (k // 3) % 4
            b = lg * 4 + (k // 3 + 1 + d) % 4
            if a == b:
                b = lg * 4 + (a + 1) % 4
            self.matches.append((7400100 + 53 * k, a, b, lg, _DAYS[d]))
        self.add("home", "/", lambda r: self.home())
        self.add("comps", "/football/", lambda r: self.thin("Competitions", "comps", self.llinks()))
        for lg, (c, n) in enumerate(_LEAGUES):
            self.add(f"lg{lg}", f"/football/{c}/{n}/", lambda r, lg=lg: self.league(lg))
            self.add(
                f"st{lg}", f"/football/{c}/{n}/standings/", lambda r, lg=lg: self.standings(lg, "")
            )
        for d in _DAYS:
            self.add(f"d{d}", f"/football/{d}/", lambda r, d=d: self.dayp(d, ""))
        for k in range(12):
            self.add(f"m{k}", self.murl(k), lambda r, k=k: self.match(k, ""))
        for i in range(12):
            self.add(f"t{i}", self.turl(i), lambda r, i=i: self.team(i))
        self.add("mhome", "/", lambda r: self.mhome(), 1)
        self.add("mhelp", "/help", lambda r: self.html("Help", "mhelp", ul([("/", "Scores")])), 1)

    def mhome(self) -> str:
        links = [(f"/football/{_TODAY}/", "Today"), ("/help", "Help")]
        return self.thin("Scores", "mhome", [*links, (self.bases[0] + "/", "Desktop site")])

    def murl(self, k: int) -> str:
        mid, a, b, _, _ = self.matches[k]
        return f"/match/{mid}/{self.teams[a]}-vs-{self.teams[b]}/"

    def turl(self, i: int) -> str:
        return f"/team/{self.teams[i]}/{self.tid[i]}/"

    def llinks(self) -> list[tuple[str, str]]:
        return [(f"/football/{c}/{n}/", title_of(n)) for c, n in _LEAGUES]

    def home(self) -> str:
        links = [(f"/football/{_TODAY}/", "Today"), ("/football/", "Competitions")]
        links += [(self.murl(k), "Live") for k in range(0, 4)]
        links += [(self.bases[1] + "/", "Mobile"), ("/account/login", "Log in"), ("/bet/", "Bet")]
        return self.html("Live football scores", "home", ul(links), 30, 80)

    def league(self, lg: int) -> str:
        c, n = _LEAGUES[lg]
        links = [(self.turl(i), title_of(self.teams[i])) for i in range(lg * 4, lg * 4 + 4)]
        links += [(self.murl(k), "match") for k in range(12) if k % 3 == lg]
        links.append((f"/football/{c}/{n}/standings/", "Standings"))
        return self.html(title_of(n), f"lg{lg}", ul(links), 30, 90)

    def standings(self, lg: int, key: str, rnd: int = 15, typ: str = "overall") -> str:
        c, n = _LEAGUES[lg]
        base = f"/football/{c}/{n}/standings/"
        links = [(self.turl(i), title_of(self.teams[i])) for i in range(lg * 4, lg * 4 + 4)]
        links += [
            (f"{base}?type={t}&round={rnd}", t)
            for t in ("overall", "home", "away")
            if t != typ or key
        ]
        links += [
            (f"{base}?type={typ}&round={rnd - 1}", "previous round"),
            (f"{base}?type={typ}&round={rnd + 1}", "next round"),
        ]
        links.append((f"{base}?type={typ}&form=5", "Form"))
        return self.html(
            f"{title_of(n)} standings, round {rnd}", key or f"st{lg}", ul(links), 20, 60
        )

    def dayp(self, d: str, key: str) -> str:
        links = [
            (self.murl(k), f"{self.teams[m[1]]} v {self.teams[m[2]]}")
            for k, m in enumerate(self.matches)
            if m[4] == d
        ]
        if key:
            for mid, a, b in self.fake(d, 4):
                links.append((f"/match/{mid}/{a}-vs-{b}/", f"{a} v {b}"))
        links += [
            (f"/football/{day(d, -1)}/", "previous day"),
            (f"/football/{day(d, 1)}/", "next day"),
        ]
        return self.html(f"Football on {d}", key or f"d{d}", ul(links), 20, 60)

    def fake(self, key: str, n: int) -> list[tuple[int, str, str]]:
        rng = random.Random(self.key("f" + key))
        out = []
        for _ in range(n):
            a, b = rng.sample(range(12), 2)
            out.append((7500000 + rng.randrange(10**6), self.teams[a], self.teams[b]))
        return out

    def match(self, k: int, key: str) -> str:
        mid, a, b, lg, d = self.matches[k]
        base = self.murl(k)
        links = [(self.turl(a), title_of(self.teams[a])), (self.turl(b), title_of(self.teams[b]))]
        links += [(f"/football/{d}/", d), (self.llinks()[lg][0], "League")]
        links += [
            (base + t + "/", t) for t in ("lineups", "statistics", "h2h", "odds", "commentary")
        ]
        links.append((f"/bet/slip?match={mid}", "Bet on this match"))
        return self.html(
            f"{title_of(self.teams[a])} v {title_of(self.teams[b])}",
            key or f"m{k}",
            ul(links),
            50,
            130,
        )

    def team(self, i: int) -> str:
        links = [(self.murl(k), "match") for k, m in enumerate(self.matches) if i in (m[1], m[2])]
        links += [(self.turl(i) + "results/", "Results"), (self.turl(i) + "fixtures/", "Fixtures")]
        return self.html(title_of(self.teams[i]), f"t{i}", ul(links), 30, 90)

    def tab(self, req: Req, mid: int, slug: str, tab: str) -> Reply:
        q = qs(req.query)
        base = f"/match/{mid}/{slug}/"
        links = [(base, "Summary")]
        if tab == "commentary":
            mnt = num(q, "minute", 90)
            links += [
                (f"{base}commentary/?minute={mnt - 5}", "earlier"),
                (f"{base}commentary/?minute={mnt + 5}", "later"),
            ]
        elif tab == "odds":
            mk, pe = q.get("market", "1x2"), q.get("period", "ft")
            links += [
                (f"{base}odds/?market={m}&period={pe}", m)
                for m in ("1x2", "ou", "ah", "btts")
                if m != mk
            ]
            links += [
                (f"{base}odds/?market={mk}&period={p}", p) for p in ("ft", "1h", "2h") if p != pe
            ]
        elif tab == "h2h":
            g = num(q, "games", 5)
            for fid, a, b in self.fake(req.target, 3):
                links.append((f"/match/{fid}/{a}-vs-{b}/", f"{a} v {b}"))
            links.append((f"{base}h2h/?games={g + 5}", "Show more"))
        else:
            for t in slug.split("-vs-"):
                if t in self.teams:
                    links.append((self.turl(self.teams.index(t)), t))
        links += [(f"{base}{t}/", t) for t in ("lineups", "statistics", "h2h") if t != tab]
        return self.tr(req, f"{slug} {tab}", links)

    def rest(self, req: Req) -> Reply:
        if req.host_index == 1:
            got = self.copy(req, 0)
            if got:
                return got
        p, q = req.path, qs(req.query)
        m = re.fullmatch(r"/football/(\d{4}-\d{2}-\d{2})/", p)
        if m and is_day(m.group(1)):
            return trap(self.dayp(m.group(1), f"t{req.target}"))
        m = re.fullmatch(r"/match/(\d+)/([a-z-]+-vs-[a-z-]+)/(?:([a-z0-9]+)/)?", p)
        if m:
            mid, slug, tab = int(m.group(1)), m.group(2), m.group(3)
            if tab:
                return self.tab(req, mid, slug, tab)
            ks = [k for k, x in enumerate(self.matches) if x[0] == mid]
            if ks:
                return trap(self.match(ks[0], ""))
            a, b = slug.split("-vs-", 1)
            links = [
                (f"/match/{mid}/{slug}/{t}/", t) for t in ("lineups", "statistics", "h2h", "odds")
            ]
            links += [(f"/match/{mid + 1}/{b}-vs-{a}/", "Return fixture")]
            return self.tr(req, f"{title_of(a)} v {title_of(b)}", links, 40, 110)
        m = re.fullmatch(r"/football/([a-z]+)/([a-z-]+)/standings/", p)
        if m and (m.group(1), m.group(2)) in _LEAGUES:
            lg = _LEAGUES.index((m.group(1), m.group(2)))
            return trap(
                self.standings(lg, f"t{req.target}", num(q, "round", 15), q.get("type", "overall"))
            )
        m = re.fullmatch(r"/team/([a-z-]+)/(\d+)/(results|fixtures)/", p)
        if m:
            pg = num(q, "page", 1)
            links = [(f"/team/{m.group(1)}/{m.group(2)}/", "Team")]
            links += [(f"{p}?page={pg + 1}", "Older")]
            for fid, a, b in self.fake(req.target, 3):
                links.append((f"/match/{fid}/{a}-vs-{b}/", f"{a} v {b}"))
            return self.tr(req, f"{m.group(1)} {m.group(3)}, page {pg}", links)
        return not_found()


# ----------------------------------------------------------------------------------------
# A Prometheus server's web UI. `/` redirects to `/graph`; status pages (alerts, rules,
# targets, service discovery, status, flags, config, TSDB status); console templates
# `/consoles/node-overview.html?instance=<host>:9100`. The rule and alert pages link
# their expressions as `/graph?g0.expr=<expr>&g0.tab=1` (real pages). Every other
# `/graph?...` is a panel state: "Add Panel" appends `g<n>.expr=` (nesting), range +/-
# doubles `range_input` without end, "<<"/">>" move `end_input` without end, tab and
# stacked toggles, series legends drilling into label matchers. Consoles have the same
# arrows (`range_input=&moment_input=`) under every instance. `/targets?scrapePool=`
# for the three pools is real; `&health=&search=` are not. robots.txt: the HTTP API,
# federation, the metrics endpoint, the lifecycle `/-/` endpoints, pprof.
# ----------------------------------------------------------------------------------------

_INST = tuple(f"node-{k}.tidemill.lan:9100" for k in range(1, 7))
_POOLS = ("node", "blackbox", "prometheus")
_EXPRS = (
    "instance:node_cpu_utilisation:rate5m",
    "instance:node_memory_utilisation:ratio",
    "job:http_requests:rate5m",
    'up{job="node"} == 0',
    "node_filesystem_avail_bytes / node_filesystem_size_bytes < 0.1",
    'probe_success{job="blackbox"} == 0',
    "rate(prometheus_tsdb_compactions_failed_total[1h]) > 0",
)
_METRICS = (
    "up",
    "node_cpu_seconds_total",
    "node_memory_MemAvailable_bytes",
    "node_network_receive_bytes_total",
    "probe_duration_seconds",
    "prometheus_tsdb_head_series",
)
_RANGES = ("5m", "15m", "30m", "1h", "2h", "6h", "12h", "1d", "2d", "1w", "2w", "4w")
_STATUS = (
    "alerts",
    "rules",
    "targets",
    "service-discovery",
    "status",
    "flags",
    "config",
    "tsdb-status",
)


def _rng_next(r: str, k: int) -> str:
    if r in _RANGES and 0 <= _RANGES.index(r) + k < len(_RANGES):
        return _RANGES[_RANGES.index(r) + k]
    m = re.fullmatch(r"(\d+)w", r)
    n = int(m.group(1)) if m else 4
    return f"{max(1, n * 2 if k > 0 else n // 2)}w"


class Prometheus(B15):
    """Prometheus UI: panel states with doubling ranges, moving ends, panels appended."""

    name = "prometheus"
    kind = "Prometheus web UI: graph g<n>.* panels appended, ranges doubling, console arrows"
    theme = "docs"
    brand = "Prometheus Time Series Collection and Processing Server"
    robots_disallow: ClassVar[list[str]] = ["/api/", "/federate", "/metrics", "/-/", "/debug/"]

    def make(self) -> None:
        self.add("graph", "/graph", lambda r: self.graph_home())
        for s in _STATUS:
            self.add(f"s{s}", f"/{s}", lambda r, s=s: self.status(s))
        for i, e in enumerate(_EXPRS):
            self.add(
                f"e{i}", self.gurl([(e, "1", "1h", "", "0")]), lambda r, i=i: self.panel_page(r, i)
            )
        for pool in _POOLS:
            self.add(
                f"p{pool}", f"/targets?scrapePool={pool}", lambda r, pool=pool: self.pool(pool)
            )
        cons = [("/consoles/node.html", "Node"), ("/consoles/prometheus.html", "Prometheus")]
        self.add("ci", "/consoles/index.html", lambda r: self.thin("Consoles", "ci", cons))
        il = [(self.curl(i), x) for i, x in enumerate(_INST)]
        self.add("cn", "/consoles/node.html", lambda r: self.html("Nodes", "cn", ul(il), 20, 50))
        self.add(
            "cp",
            "/consoles/prometheus.html",
            lambda r: self.html("Prometheus", "cp", ul([("/graph", "Graph")]), 20, 50),
        )
        for i in range(6):
            self.add(f"c{i}", self.curl(i), lambda r, i=i: self.console(r, i, "1h", 0))

    def curl(self, i: int) -> str:
        return f"/consoles/node-overview.html?instance={_INST[i]}"

    def gurl(self, panels: list[tuple[str, str, str, str, str]]) -> str:
        parts = []
        for n, (e, tab, rng, end, st) in enumerate(panels):
            parts += [f"g{n}.expr={pq(e)}", f"g{n}.tab={tab}"]
            if tab == "0" or rng != "1h":
                parts.append(f"g{n}.range_input={rng}")
            if end:
                parts.append(f"g{n}.end_input={pq(end)}")
            if st != "0":
                parts.append(f"g{n}.stacked={st}")
        return "/graph?" + "&".join(parts)

    def nav(self) -> list[tuple[str, str]]:
        return [
            ("/alerts", "Alerts"),
            ("/graph", "Graph"),
            ("/status", "Status"),
            ("/targets", "Targets"),
        ]

    def graph_home(self) -> str:
        links = [*self.nav(), ("/consoles/index.html", "Consoles"), ("/rules", "Rules")]
        return self.html("Expression browser", "graph", ul(links), 20, 50)

    def status(self, s: str) -> str:
        links = self.nav()
        if s == "rules":
            links += [(self.gurl([(e, "1", "1h", "", "0")]), e) for e in _EXPRS[:3]]
        if s == "alerts":
            links += [(self.gurl([(e, "1", "1h", "", "0")]), e) for e in _EXPRS[3:]]
        if s == "targets":
            links += [(f"/targets?scrapePool={p}", p) for p in _POOLS]
        if s == "status":
            links += [
                ("/metrics", "Metrics"),
                ("/flags", "Flags"),
                ("/config", "Config"),
                ("/tsdb-status", "TSDB"),
            ]
            links += [("/service-discovery", "Service discovery")]
        if s == "flags":
            return self.thin("Command-line flags", "flags", links)
        return self.html(title_of(s), f"s{s}", ul(links), 30, 90)

    def pool(self, pool: str) -> str:
        links = [*self.nav()]
        links += [(f"/targets?scrapePool={pool}&health={x}", x) for x in ("up", "down", "unknown")]
        if pool == "node":
            links += [(self.curl(i), x) for i, x in enumerate(_INST)]
        return self.html(f"Targets: {pool}", f"p{pool}", ul(links), 20, 60)

    def panels(self, req: Req) -> list[tuple[str, str, str, str, str]]:
        q = qs(req.query)
        out = []
        n = 0
        while f"g{n}.expr" in q and n < 64:
            out.append(
                (
                    q[f"g{n}.expr"],
                    q.get(f"g{n}.tab", "1"),
                    q.get(f"g{n}.range_input", "1h"),
                    q.get(f"g{n}.end_input", ""),
                    q.get(f"g{n}.stacked", "0"),
                )
            )
            n += 1
        return out

    def changer(self, ps: list[tuple[str, str, str, str, str]], n: int) -> Callable[..., str]:
        """A link to the panels `ps` with panel `n`'s fields changed."""

        def w(**kw: str) -> str:
            e, tab, rng, end, st = ps[n]
            p2 = list(ps)
            p2[n] = (
                kw.get("e", e),
                kw.get("tab", tab),
                kw.get("rng", rng),
                kw.get("end", end),
                kw.get("st", st),
            )
            return self.gurl(p2)

        return w

    def panel_page(self, req: Req, i: int = -1) -> str:
        ps = self.panels(req) if i < 0 else [(_EXPRS[i], "1", "1h", "", "0")]
        links = self.nav()
        for n, (e, tab, rng, end, st) in enumerate(ps):
            w = self.changer(ps, n)
            links.append((w(tab="0" if tab == "1" else "1"), "Graph" if tab == "1" else "Table"))
            if tab == "0":
                links += [(w(rng=_rng_next(rng, 1)), "+"), (w(rng=_rng_next(rng, -1)), "-")]
                d = end.split(" ")[0] if is_day(end.split(" ")[0]) else "2026-12-05"
                links += [(w(end=f"{day(d, -1)} 12:00"), "<<"), (w(end=f"{day(d, 1)} 12:00"), ">>")]
                links.append((w(st="0" if st == "1" else "1"), "stacked"))
            for inst in _INST[(h(e) % 6) :][:2]:
                base = e.split("{")[0].split(" ")[0]
                links.append((w(e=f'{base}{{instance="{inst}"}}'), f"{base} {inst}"))
            links.append((w(e=_METRICS[(h(e) + n) % 6]), _METRICS[(h(e) + n) % 6]))
        if len(ps) < 64:
            links.append(
                (self.gurl([*ps, (_METRICS[len(ps) % 6], "1", "1h", "", "0")]), "Add Panel")
            )
        title = "Graph: " + "; ".join(p[0] for p in ps)
        return self.html(title, f"g{req.target}" if i < 0 else f"e{i}", ul(links), 20, 60)

    def console(self, req: Req, i: int, rng: str, moment: int) -> str:
        base = self.curl(i)
        links = [("/consoles/node.html", "Nodes")]
        links += [(f"{base}&range_input={_rng_next(rng, 1)}&moment_input={moment}", "+")]
        links += [(f"{base}&range_input={_rng_next(rng, -1)}&moment_input={moment}", "-")]
        step = 3600
        links += [
            (
                f"{base}&range_input={rng}&moment_input={(moment or 1796472000) - step}",
                "<<",
            )
        ]
        links += [
            (
                f"{base}&range_input={rng}&moment_input={(moment or 1796472000) + step}",
                ">>",
            )
        ]
        links.append(
            (self.gurl([(f'node_load1{{instance="{_INST[i]}"}}', "0", rng, "", "0")]), "CPU graph")
        )
        key = f"c{i}" if not moment and rng == "1h" else f"c{req.target}"
        return self.html(f"Node {_INST[i]}", key, ul(links), 20, 60)

    def rest(self, req: Req) -> Reply:
        p, q = req.path, qs(req.query)
        if p == "/":
            return redirect("/graph")
        if p == "/graph" and "g0.expr" in q:
            return trap(self.panel_page(req))
        if p == "/consoles/node-overview.html" and q.get("instance") in _INST:
            i = _INST.index(q["instance"])
            return trap(self.console(req, i, q.get("range_input", "1h"), num(q, "moment_input", 0)))
        if p == "/targets" and q.get("scrapePool"):
            pool = q["scrapePool"]
            links = [
                (f"/targets?scrapePool={pool}&health={x}&search={pq(s)}", f"{x} {s}")
                for x in ("up", "down")
                for s in slugs(self.key("ts" + req.target), 2, self.v, 1)
            ]
            return self.tr(req, f"Targets: {pool}", [*self.nav(), *links])
        return not_found()
