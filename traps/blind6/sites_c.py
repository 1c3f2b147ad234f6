"""Blind6 sites, part C: CKAN, Buildbot, Jira, MoinMoin."""

from __future__ import annotations

import datetime as dt
from typing import ClassVar
from urllib.parse import quote, quote_plus

from traps.blind.kit import OTHER, Reply, Req, a, doc, not_found, redirect, words_for
from traps.blind2.common import bar, esc, prose, qlist, ul

from .common import Hosted, pairs, params

# ----------------------------------------------------------------------------------------
# CKAN 2.9 (a city open-data portal). The dataset search and the organization and group
# pages add facet values in click order (`tags=&res_format=&organization=&groups=
# &license_id=`, keys repeated), keep `sort=` and page with `page=`; "Show More Tags"
# toggles `_tags_limit=0` (and its siblings); dataset pages link their tags as searches,
# their activity stream and groups tab; resources link `?view_id=` previews and downloads.
# Legit look-alikes: the search's real page 2, the organizations, the groups, the
# datasets and their resources.
# ----------------------------------------------------------------------------------------

_CK_ORGS = {
    "planning": "Planning Department",
    "transport": "Transport Office",
    "environment": "Environment Unit",
}
_CK_GROUPS = {"mobility": "Mobility", "climate": "Climate", "housing": "Housing"}
_CK_TABLE = """
bus-stop-locations|Bus stop locations|transport|mobility|bus gtfs stops|CSV
cycle-counts-2025|Cycle counter readings 2025|transport|mobility climate|cycling counts|CSV
parking-zones|Residents' parking zones|transport|mobility|parking zones|GeoJSON
road-works-permits|Road works permits|transport||permits roads|CSV
tree-inventory|Street tree inventory|environment|climate|trees canopy|CSV
air-quality-hourly|Air quality, hourly readings|environment|climate|air no2 pm25|JSON
flood-risk-areas|Flood risk areas|environment|climate housing|flooding zones|GeoJSON
noise-complaints|Noise complaints|environment||noise complaints|CSV
waste-collection-days|Waste collection days|environment||waste recycling|XLSX
building-permits|Building permits issued|planning|housing|permits construction|CSV
zoning-plan|Zoning plan|planning|housing|zones land-use|GeoJSON
population-by-district|Population by district|planning|housing|population districts|XLSX
listed-buildings|Listed buildings|planning||heritage buildings|CSV
housing-completions|Housing completions|planning|housing|construction housing|CSV
ev-charging-points|EV charging points|transport|mobility climate|ev charging|JSON
school-catchments|School catchment areas|planning||schools districts|GeoJSON
"""
_CK_SETS = [
    (n, t, o, g.split(), tg.split(), f)
    for n, t, o, g, tg, f in (row.split("|") for row in _CK_TABLE.strip().splitlines())
]
_CK_FACETS = ["organization", "groups", "tags", "res_format", "license_id"]


class CKAN(Hosted):
    """CKAN: facet values stacking in click order, sort=, _tags_limit=0, page=."""

    name = "ckan"
    kind = "CKAN 2.9: /dataset/?tags=&res_format=&organization= stacking, sort=, _x_limit=0"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = [
        "/dataset/rate/",
        "/revision/",
        "/dataset/*/history",
        "/api/",
    ]
    per = 10

    def robots_txt(self, req: Req) -> str:
        lines = "".join(f"Disallow: {x}\n" for x in self.robots_disallow)
        return f"User-agent: *\n{lines}Crawl-Delay: 10\n"

    def setup(self) -> None:
        self.vocab = words_for("gov")
        r = self.rng("uuids")

        def uuid() -> str:
            h = "".join(r.choice("0123456789abcdef") for _ in range(32))
            return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"

        self.sets = []
        for k, (name, title, org, groups, tags, fmt) in enumerate(_CK_SETS):
            lic = r.choice(["cc-by", "odc-odbl", "cc-zero"])
            self.sets.append(
                {
                    "name": name,
                    "title": title,
                    "organization": org,
                    "groups": groups,
                    "tags": tags,
                    "res_format": fmt,
                    "license_id": lic,
                    "res": uuid(),
                    "view": uuid(),
                    "mod": str(dt.date(2025, 11, 14) - dt.timedelta(days=9 * k + r.randint(0, 6))),
                    "views": 40 + 25 * k + r.randint(0, 20),
                }
            )
        for p in ("/", "/about", "/dataset/", "/organization/", "/group/"):
            self.reg(p, p)
        self.reg("ds2", "/dataset/?page=2")
        for o in _CK_ORGS:
            self.reg(f"org:{o}", f"/organization/{o}")
        for g in _CK_GROUPS:
            self.reg(f"grp:{g}", f"/group/{g}")
        for d in self.sets:
            self.reg(f"d:{d['name']}", f"/dataset/{d['name']}")
            self.reg(f"r:{d['name']}", f"/dataset/{d['name']}/resource/{d['res']}")

    def page(self, req: Req, title: str, main: str) -> Reply:
        return self.serve(req, self.shell(title, main))

    def shell(self, title: str, main: str) -> str:
        nav = bar(
            pairs(
                "/dataset/ Datasets | /organization/ Organizations | /group/ Groups | /about About"
            )
        )
        body = (
            f'<header class="masthead">{a("/", "Coast City Open Data")}'
            f" {nav} {a('/user/login', 'Log in')}</header>"
            f'<div role="main">{main}</div><footer>{a("/api/3", "API")} · Powered by CKAN</footer>'
        )
        return doc(f"{title} - Coast City Open Data", body)

    def search(self, req: Req, base: str, fixed: tuple[str, str] | None, title: str) -> Reply:
        qp = qlist(req.query)
        sel = [(k, v) for k, v in qp if k in _CK_FACETS]
        sort = next((v for k, v in qp if k == "sort"), "score desc, metadata_modified desc")
        pg = next((v for k, v in qp if k == "page"), "1")
        page = int(pg) if pg.isdigit() and int(pg) > 0 else 1
        limits = {k[1:-6]: v for k, v in qp if k.startswith("_") and k.endswith("_limit")}
        hits = [
            d
            for d in self.sets
            if (not fixed or fixed[1] in _as_list(d[fixed[0]]))
            and all(v in _as_list(d[k]) for k, v in sel)
        ]
        key = {
            "title_string asc": lambda d: d["title"],
            "title_string desc": lambda d: d["title"],
            "metadata_modified desc": lambda d: d["mod"],
            "views_recent desc": lambda d: d["views"],
        }
        if sort in key:
            hits = sorted(hits, key=key[sort], reverse=sort.endswith("desc"))
        keep = [(k, v) for k, v in qp if k != "page"]

        def link(
            extra: list[tuple[str, str]], drop: tuple[str, str] | None = None, nopage: bool = True
        ) -> str:
            items = [kv for kv in keep if kv != drop] + extra
            qs = "&".join(f"{k}={quote(v, safe='')}" for k, v in items)
            return base + (f"?{qs}" if qs else "")

        facets = ""
        for f in _CK_FACETS:
            if fixed and f == fixed[0]:
                continue
            counts: dict[str, int] = {}
            for d in hits:
                for v in _as_list(d[f]):
                    counts[v] = counts.get(v, 0) + 1
            vals = sorted(counts, key=lambda v: (-counts[v], v))
            lim = 10 if limits.get(f) != "0" else len(vals)
            lis = []
            for v in vals[: min(lim, 5 if limits.get(f) != "0" else lim)]:
                on = (f, v) in sel
                lis.append(
                    (
                        link([], (f, v)) if on else link([(f, v)]),
                        f"{v} ({counts[v]})" + (" ✕" if on else ""),
                    )
                )
            more = ""
            if len(vals) > 5:
                more = a(
                    link([(f"_{f}_limit", "0")])
                    if limits.get(f) != "0"
                    else link([], (f"_{f}_limit", "0")),
                    "Show More " + f.title()
                    if limits.get(f) != "0"
                    else "Show Only Popular " + f.title(),
                )
            head = f.replace("_", " ").title()
            facets += f'<section class="facet"><h3>{head}</h3>{ul(lis)}{more}</section>'
        sorts = bar(
            [
                (link([("sort", s)], ("sort", sort)), s)
                for s in (
                    "score desc, metadata_modified desc",
                    "title_string asc",
                    "title_string desc",
                    "metadata_modified desc",
                    "views_recent desc",
                )
            ]
        )
        shown = hits[(page - 1) * self.per : page * self.per]
        rows = "".join(
            f'<li class="dataset-item"><h3>{a("/dataset/" + d["name"], d["title"])}</h3>'
            f"<p>{esc(_CK_ORGS[d['organization']])} · {d['res_format']}</p></li>"
            for d in shown
        )
        last = max(1, -(-len(hits) // self.per))
        pager = bar(
            [
                (link([("page", str(n))]) if (n > 1 or keep) else base, str(n))
                for n in range(1, last + 1)
                if n != page
            ]
        )
        main = (
            f"<h1>{esc(title)}</h1><p>{len(hits)} datasets found</p><div>Order by: {sorts}</div>"
            f'<aside class="secondary">{facets}</aside><ul class="dataset-list">{rows}</ul>'
            f'<div class="pagination">{pager}</div>'
        )
        if fixed:
            main = prose(self, f"about{fixed[1]}", self.vocab, 40, 90) + main
        return self.page(req, title, main)

    def handle(self, req: Req) -> Reply:
        path = req.path
        if path == "/":
            popular = sorted(self.sets, key=lambda d: -d["views"])
            main = (
                prose(self, "home", self.vocab, 60, 120)
                + "<h3>Popular tags</h3>"
                + " ".join(
                    a(f"/dataset/?tags={t}", t) for t in ("cycling", "permits", "zones", "trees")
                )
                + "<h3>Popular datasets</h3>"
                + ul([(f"/dataset/{d['name']}", d["title"]) for d in popular[:6]])
            )
            return self.page(req, "Welcome", main)
        if path == "/about":
            return self.page(req, "About", prose(self, "about", self.vocab, 90, 180))
        if path == "/dataset/" or path == "/dataset":
            return self.search(req, "/dataset/", None, "Datasets")
        if path in ("/organization/", "/group/"):
            src = _CK_ORGS if path == "/organization/" else _CK_GROUPS
            return self.page(
                req, path.strip("/").title() + "s", ul([(f"{path}{k}", v) for k, v in src.items()])
            )
        parts = [x for x in path.split("/") if x]
        if len(parts) == 2 and parts[0] == "organization" and parts[1] in _CK_ORGS:
            return self.search(req, path, ("organization", parts[1]), _CK_ORGS[parts[1]])
        if len(parts) == 2 and parts[0] == "group" and parts[1] in _CK_GROUPS:
            return self.search(req, path, ("groups", parts[1]), _CK_GROUPS[parts[1]])
        if parts[:1] == ["dataset"] and len(parts) >= 2:
            if parts[1] in ("activity", "groups") and len(parts) == 3:
                d = next((x for x in self.sets if x["name"] == parts[2]), None)
                if d is None:
                    return not_found()
                act = f"{d['mod']}: Coast City Admin updated the dataset {d['title']}"
                rows = [(f"/dataset/{d['name']}", act)]
                if parts[1] == "groups":
                    rows = [(f"/group/{g}", _CK_GROUPS[g]) for g in d["groups"]]
                return self.page(req, d["title"], ul(rows))
            d = next((x for x in self.sets if x["name"] == parts[1]), None)
            if d is None:
                return not_found()
            if len(parts) == 2:
                n = d["name"]
                org = f"/organization/{d['organization']}"
                tabs = [
                    (f"/dataset/activity/{n}", "Activity Stream"),
                    (f"/dataset/groups/{n}", "Groups"),
                    (f"/api/3/action/package_show?id={n}", "API"),
                ]
                tags = " ".join(a(f"/dataset/?tags={t}", t) for t in d["tags"])
                main = (
                    f"<h1>{esc(d['title'])}</h1>{prose(self, d['name'], self.vocab, 80, 200)}"
                    f"<h3>Data and Resources</h3>"
                    + ul(
                        [(f"/dataset/{n}/resource/{d['res']}", f"{d['title']} ({d['res_format']})")]
                    )
                    + f"<p>Tags: {tags}</p>"
                    + f"<p>Organization: {a(org, _CK_ORGS[d['organization']])}</p>"
                    + f"<p>{bar(tabs)}</p>"
                    + f"<p>License: {d['license_id']} · Last updated {d['mod']}</p>"
                )
                return self.page(req, d["title"], main)
            if len(parts) >= 4 and parts[2] == "resource" and parts[3] == d["res"]:
                if len(parts) > 4:
                    return Reply("id,name\n", OTHER, None, ctype="text/csv")
                res = f"/dataset/{d['name']}/resource/{d['res']}"
                dl = f"{res}/download/{d['name']}.{d['res_format'].lower()}"
                main = (
                    f"<h1>{esc(d['title'])} ({d['res_format']})</h1>"
                    f"{prose(self, 'res' + d['name'], self.vocab, 40, 90)}"
                    + bar([(dl, "Download"), (f"{res}?view_id={d['view']}", "Table view")])
                    + f"<p>{a('/dataset/' + d['name'], 'Dataset')}</p>"
                )
                return self.page(req, d["title"], main)
        return not_found()


def _as_list(v: object) -> list[str]:
    return list(v) if isinstance(v, list) else [str(v)]


# ----------------------------------------------------------------------------------------
# Buildbot 0.8 (classic WebStatus). The waterfall's "next page" link steps `last_time`
# back by the span shown, long after the first retained build, and carries `show=`
# (several builders), `branch=`, `reload=` and `show_events=`; the builder pages link
# "view in waterfall" (`?show=<builder>`), the grid links per-branch views, and build
# pages link their neighbours (`builds/<n-1>`, 404 past the build horizon) and the
# build's `builds/-1` (newest) form.
# Legit look-alikes: the waterfall's first page, the grid and console, the builders, the
# retained builds, the build slaves and the changes.
# ----------------------------------------------------------------------------------------

_BB_BUILDERS = ["linux-gcc", "linux-clang", "macos-arm64", "windows-msvc", "docs"]
_BB_SLAVES = ["bs-linux-01", "bs-mac-01", "bs-win-01"]
_BB_STEPS = ["git", "configure", "compile", "test", "upload"]
_BB_NOW = 1763640000  # the status page's clock: 2025-11-20 12:00 UTC


class Buildbot(Hosted):
    """Buildbot 0.8: waterfall ?last_time= paging forever, show=/branch=/reload= carried."""

    name = "buildbot"
    kind = "Buildbot 0.8: waterfall ?last_time= back forever, show=/branch=/reload= carried"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = [
        "/json",
        "/png",
        "/rss",
        "/atom",
        "/one_box_per_builder",
    ]

    def setup(self) -> None:
        self.vocab = words_for("archive")
        r = self.rng("builds")
        self.changes = []
        for k in range(8):
            sha = "".join(r.choice("0123456789abcdef") for _ in range(40))
            who = r.choice(
                [
                    "Oona Reyes <oona@tidecalc.org>",
                    "Piet Smit <piet@tidecalc.org>",
                    "Lin Wei <lin@tidecalc.org>",
                ]
            )
            self.changes.append(
                {
                    "n": 431 + k,
                    "sha": sha,
                    "who": who,
                    "when": _BB_NOW - 9000 * (8 - k),
                    "branch": "trunk" if k % 3 else "release-2.4",
                }
            )
        self.builds: dict[str, list[dict]] = {}
        for bi, b in enumerate(_BB_BUILDERS):
            first = 1180 - 211 * bi
            out = []
            for k in range(5):
                ch = self.changes[3 + k]
                res = r.choice(["success", "success", "success", "warnings", "failure"])
                out.append(
                    {
                        "n": first + k,
                        "change": ch,
                        "result": res,
                        "slave": _BB_SLAVES[min(bi // 2, 2)],
                        "start": ch["when"] + 300 + 60 * bi,
                        "secs": r.randint(200, 2400),
                    }
                )
            self.builds[b] = out
        for p in (
            "/",
            "/waterfall",
            "/grid",
            "/console",
            "/builders",
            "/buildslaves",
            "/changes",
            "/about",
        ):
            self.reg(p, p)
        for b, bs in self.builds.items():
            self.reg(f"b:{b}", f"/builders/{b}")
            for x in bs:
                self.reg(f"b:{b}:{x['n']}", f"/builders/{b}/builds/{x['n']}")
        for s in _BB_SLAVES:
            self.reg(f"s:{s}", f"/buildslaves/{s}")
        for c in self.changes:
            self.reg(f"c:{c['n']}", f"/changes/{c['n']}")

    def page(self, req: Req, title: str, main: str) -> Reply:
        return self.serve(req, self.shell(title, main))

    def shell(self, title: str, main: str) -> str:
        nav = bar(
            pairs(
                "/ Home | /waterfall Waterfall | /grid Grid | /console Console | /builders"
                " Builders | /one_line_per_build Recent Builds | /buildslaves Buildslaves |"
                " /changes Changesources | /json/help JSON API | /about About"
            ),
            " - ",
        )
        body = (
            f'<div class="header">{nav}</div><div class="content"><h1>{esc(title)}</h1>{main}</div>'
            '<div class="footer">Page built by Buildbot (0.8.14) working for the TideCalc'
            " project.</div>"
        )
        return doc(f"BuildBot: {title}", body)

    @staticmethod
    def when(ts: int) -> str:
        return dt.datetime.fromtimestamp(ts, dt.timezone.utc).strftime("%a %d %b %Y %H:%M:%S")

    def build_row(self, b: str, x: dict) -> str:
        return (
            f"<tr class='{x['result']}'><td>{self.when(x['start'])}</td>"
            f"<td>{a(f'/builders/{b}', b)}</td>"
            f"<td>{a('/builders/' + b + '/builds/' + str(x['n']), '#' + str(x['n']))}</td>"
            f"<td>{x['change']['sha'][:12]}</td><td>{x['result']}</td></tr>"
        )

    def waterfall(self, req: Req) -> Reply:
        qp = qlist(req.query)
        show = [v for k, v in qp if k == "show" and v in _BB_BUILDERS] or list(_BB_BUILDERS)
        branch = next((v for k, v in qp if k == "branch"), "")
        last = next((v for k, v in qp if k == "last_time"), "")
        end = int(last) if last.isdigit() else _BB_NOW
        span = 6 * 3600
        start = end - span
        rows = []
        for b in show:
            for x in self.builds[b]:
                if start <= x["start"] < end and (not branch or x["change"]["branch"] == branch):
                    rows.append((x["start"], self.build_row(b, x)))
        events = ""
        if next((v for k, v in qp if k == "show_events"), "false") == "true":
            events = "".join(
                f"<tr><td>{self.when(end - 3600 * k)}</td><td colspan=4>{s} connected</td></tr>"
                for k, s in enumerate(_BB_SLAVES, 1)
            )
        keep = [(k, v) for k, v in qp if k not in ("last_time",)]

        def link(extra: list[tuple[str, str]], drop: str = "") -> str:
            items = [kv for kv in keep if kv[0] != drop] + extra
            return "/waterfall" + (
                "?" + "&".join(f"{k}={quote(v, safe='')}" for k, v in items) if items else ""
            )

        toggle = "false" if any(k == "show_events" and v == "true" for k, v in qp) else "true"
        ctl = bar(
            [
                (
                    link([("show_events", toggle)], "show_events"),
                    "Show events" if toggle == "true" else "Hide events",
                )
            ]
            + [(link([("reload", s)], "reload"), f"reload {s}") for s in ("none", "60", "300")]
        )
        heads = "".join(f"<th>{a(f'/builders/{b}', b)}</th>" for b in show)
        body = (
            f"<p>{ctl}</p><table class='waterfall'><tr><th>time</th>{heads}</tr>"
            + "".join(r for _, r in sorted(rows, reverse=True))
            + events
            + "</table>"
            + f"<p>{a(link([('last_time', str(start))]), 'next page')}"
            f" {a('/waterfall/help', 'help')}</p>"
        )
        return self.page(req, "Waterfall", body)

    def handle(self, req: Req) -> Reply:
        path, q = req.path, params(req.query)
        if path == "/waterfall":
            return self.waterfall(req)
        if path == "/waterfall/help":
            return self.page(
                req,
                "Waterfall Help",
                "<p>Show events, builders and branches "
                "with the form below.</p><form action='../waterfall'></form>",
            )
        if path == "/":
            links = pairs(
                "/waterfall Waterfall Display | /grid Grid Display | /console Console View |"
                " /builders Builders | /buildslaves Buildslaves | /changes Changes |"
                " /one_line_per_build Recent Builds | /one_box_per_builder Latest Build |"
                " /rss RSS | /atom Atom | /about About this Buildbot"
            )
            return self.page(
                req, "Welcome to the Buildbot", prose(self, "home", self.vocab, 40, 80) + ul(links)
            )
        if path == "/about":
            return self.page(req, "About this Buildbot", prose(self, "about", self.vocab, 60, 140))
        if path in ("/grid", "/console", "/one_line_per_build"):
            br = q.get("branch", "")
            rows = [
                self.build_row(b, x)
                for b in _BB_BUILDERS
                for x in self.builds[b]
                if not br or x["change"]["branch"] == br
            ]
            if path == "/console":
                rows = [
                    f"<tr><td>{a('/changes/' + str(c['n']), c['sha'][:12])}</td>"
                    f"<td>{esc(c['who'])}</td></tr>"
                    for c in self.changes
                    if not br or c["branch"] == br
                ]
            branches = bar(
                [(f"{path}?branch={b}", b) for b in ("trunk", "release-2.4")]
                + [(f"/waterfall?branch={b}", f"waterfall: {b}") for b in ("trunk", "release-2.4")]
            )
            title = {
                "/grid": "Grid",
                "/console": "Console",
                "/one_line_per_build": "Last 20 finished builds",
            }[path]
            return self.page(req, title, f"<p>{branches}</p><table>{''.join(rows)}</table>")
        if path == "/builders":
            rows = [
                f"<tr><td>{a(f'/builders/{b}', b)}</td><td>{self.builds[b][-1]['result']}</td></tr>"
                for b in _BB_BUILDERS
            ]
            return self.page(req, "Builders", f"<table>{''.join(rows)}</table>")
        if path == "/buildslaves" or path.startswith("/buildslaves/"):
            s = path[len("/buildslaves/") :] if path != "/buildslaves" else ""
            if s and s not in _BB_SLAVES:
                return not_found()
            if not s:
                return self.page(
                    req, "Buildslaves", ul([(f"/buildslaves/{x}", x) for x in _BB_SLAVES])
                )
            mine = [
                self.build_row(b, x)
                for b in _BB_BUILDERS
                for x in self.builds[b]
                if x["slave"] == s
            ]
            return self.page(
                req,
                f"Buildslave: {s}",
                prose(self, s, self.vocab, 20, 50) + f"<table>{''.join(mine)}</table>",
            )
        if path == "/changes" or path.startswith("/changes/"):
            n = path[len("/changes/") :] if path != "/changes" else ""
            c = next((c for c in self.changes if str(c["n"]) == n), None)
            if not n:
                rows = [(f"/changes/{c['n']}", f"{c['n']}: {c['sha'][:12]}") for c in self.changes]
                return self.page(req, "Changes", ul(rows[::-1]))
            if c is None:
                return not_found()
            main = (
                f"<dl><dt>Who</dt><dd>{esc(c['who'])}</dd><dt>Revision</dt><dd>{c['sha']}</dd>"
                f"<dt>Branch</dt><dd>{c['branch']}</dd><dt>When</dt><dd>{self.when(c['when'])}</dd></dl>"
                + prose(self, f"chg{c['n']}", self.vocab, 15, 40)
            )
            return self.page(req, f"Change #{c['n']}", main)
        parts = [x for x in path.split("/") if x]
        if len(parts) >= 2 and parts[0] == "builders" and parts[1] in self.builds:
            b, bs = parts[1], self.builds[parts[1]]
            if len(parts) == 2:
                main = (
                    f"<p>({a(f'/waterfall?show={b}', 'view in waterfall')})</p><h2>Recent"
                    f" Builds</h2>"
                    f"<table>{''.join(self.build_row(b, x) for x in reversed(bs))}</table>"
                    f"<p>{a(f'/builders/{b}/builds/-1', 'last build')}</p>"
                    + prose(self, f"bld{b}", self.vocab, 20, 50)
                )
                return self.page(req, f"Builder {b}", main)
            if parts[2] != "builds" or len(parts) < 4:
                return not_found()
            num = parts[3]
            neg = num.startswith("-") and num[1:].isdigit() and int(num) >= -5
            n = bs[int(num)]["n"] if neg else (int(num) if num.isdigit() else -1)
            x = next((x for x in bs if x["n"] == n), None)
            if x is None:
                return not_found("No such build")
            base = f"/builders/{b}/builds/{num}"
            if len(parts) > 4:
                return Reply("step log\n", OTHER, None, ctype="text/plain")
            steps = "".join(
                f"<li>{s}: {a(f'{base}/steps/{s}/logs/stdio', 'stdio')}</li>" for s in _BB_STEPS
            )
            slave, ch = x["slave"], x["change"]
            main = (
                f"<h2>Results: {x['result']}</h2><p>Slave: {a('/buildslaves/' + slave, slave)}</p>"
                f"<p>Change: {a('/changes/' + str(ch['n']), ch['sha'][:12])}</p>"
                f"<p>Started {self.when(x['start'])}, took {x['secs'] // 60} mins</p>"
                f"<ol>{steps}</ol>"
                f"<p>{a(f'/builders/{b}', 'Builder ' + b)} |"
                f" {a(f'/builders/{b}/builds/{n - 1}', 'previous build')}"
                f" | {a(f'/builders/{b}/builds/{n + 1}', 'next build')}</p>"
                + prose(self, f"b{b}{n}", self.vocab, 20, 60)
            )
            return self.page(req, f"Builder {b} Build #{n}", main)
        return not_found()


# ----------------------------------------------------------------------------------------
# Jira Server 8 (a public project, anonymous browsing). Search results
# (`/issues/?jql=`) re-sort by putting the clicked column first in `ORDER BY` and keeping
# the earlier clauses, and page with `startIndex=`; issue pages link every activity tab
# (`?page=...issuetabpanels:<tab>-tabpanel`), a permalink per comment
# (`?focusedCommentId=`), attachment sort orders, and label and component searches;
# release notes offer `styleName=Text|Html`; issues moved from an old project key answer
# their old key (`/browse/HARB-n`) with a redirect.
# Legit look-alikes: the project's issue list and its real second page, the issues, the
# version pages and their release notes, the dashboard and the project pages.
# ----------------------------------------------------------------------------------------

_JI_VERSIONS = {10200: "2.3", 10201: "2.4", 10202: "2.5"}
_JI_COMPONENTS = ["core", "io", "docs"]
_JI_LABELS = ["performance", "regression", "windows", "good-first-issue"]
_JI_USERS = ["mtorres", "ssato", "kfischer", "anovak"]
_JI_TABS = ["all", "comment", "worklog", "changehistory"]
_JI_COLS = ["key", "summary", "issuetype", "status", "priority", "created", "updated", "assignee"]
_JI_NOUNS = ["parser", "harmonic", "table", "epoch", "timezone", "cache"]
_JI_NOUNS += ["export", "importer", "constituent", "plot", "station"]
_JI_VERBS = ["fails", "slow", "crashes", "rounds", "mislabels", "leaks", "ignores", "truncates"]


def _jql_url(jql: str, start: int = 0) -> str:
    return "/issues/?jql=" + quote_plus(jql) + (f"&startIndex={start}" if start else "")


class Jira(Hosted):
    """Jira: ORDER BY clauses prepended per column click, startIndex=, issue tab panels."""

    name = "jira"
    kind = "Jira Server: jql ORDER BY prepending, startIndex=, ?page=..tabpanel, focusedCommentId"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = [
        "/sr/",
        "/si/",
        "/secure/attachment/",
        "/secure/ViewProfile.jspa",
        "/login.jsp",
        "/rest/",
    ]
    per = 20
    home_jql = "project = TIDE ORDER BY created DESC"

    def setup(self) -> None:
        self.vocab = words_for("docs")
        r = self.rng("issues")
        self.issues = []
        for k in range(1, 27):
            self.issues.append(
                {
                    "n": k,
                    "summary": f"{r.choice(_JI_NOUNS).title()} {r.choice(_JI_VERBS)} on "
                    f"{r.choice(_JI_NOUNS)} input",
                    "type": r.choice(["Bug", "Bug", "Improvement", "Task"]),
                    "status": r.choice(["Open", "In Progress", "Resolved", "Closed"]),
                    "priority": r.choice(["Minor", "Major", "Critical"]),
                    "component": r.choice(_JI_COMPONENTS),
                    "labels": sorted(r.sample(_JI_LABELS, r.randint(0, 2))),
                    "version": r.choice(list(_JI_VERSIONS)),
                    "assignee": r.choice(_JI_USERS),
                    "created": dt.date(2025, 1, 2) + dt.timedelta(days=9 * k + r.randint(0, 4)),
                    "comments": [10400 + 7 * k + j for j in range(r.randint(0, 4))],
                    "files": r.randint(0, 2),
                    "old": k + 3 if k % 5 == 0 else None,
                }
            )
        self.reg("dash", "/secure/Dashboard.jspa")
        self.reg("projects", "/secure/BrowseProjects.jspa")
        self.reg("project", "/browse/TIDE")
        self.reg("list", _jql_url(self.home_jql))
        self.reg("list2", _jql_url(self.home_jql, self.per))
        for v in _JI_VERSIONS:
            self.reg(f"v{v}", f"/projects/TIDE/versions/{v}")
            self.reg(f"rn{v}", f"/secure/ReleaseNote.jspa?projectId=10000&version={v}")
        for x in self.issues:
            self.reg(f"TIDE-{x['n']}", f"/browse/TIDE-{x['n']}")

    def page(self, req: Req, title: str, main: str) -> Reply:
        return self.serve(req, self.shell(title, main))

    def shell(self, title: str, main: str) -> str:
        nav = bar(
            [
                ("/secure/Dashboard.jspa", "Dashboards"),
                ("/secure/BrowseProjects.jspa", "Projects"),
                (_jql_url(self.home_jql), "Issues"),
                ("/login.jsp", "Log In"),
            ]
        )
        return doc(
            f"{title} - TideCalc Jira",
            f'<header id="header">{nav}</header><main>{main}</main>'
            "<footer>Atlassian Jira Project Management Software (v8.20.10)</footer>",
        )

    def search(self, req: Req, jql: str, start: int) -> Reply:
        filt, _, order = jql.partition(" ORDER BY ")
        conds = [c.strip() for c in filt.split(" AND ") if c.strip()]
        hits = list(self.issues)
        for c in conds:
            f, _, v = c.partition(" = ")
            f, v = f.strip(), v.strip().strip('"')
            if f == "project" and v != "TIDE":
                hits = []
            elif f == "labels":
                hits = [x for x in hits if v in x["labels"]]
            elif f == "component":
                hits = [x for x in hits if x["component"] == v]
            elif f == "fixVersion":
                hits = [x for x in hits if _JI_VERSIONS[x["version"]] == v]
        clauses = [o.strip().split() for o in order.split(",") if o.strip()]
        for cl in reversed(clauses):
            if cl and cl[0] in _JI_COLS:
                key = (
                    "n"
                    if cl[0] == "key"
                    else {"issuetype": "type", "updated": "created"}.get(cl[0], cl[0])
                )
                hits.sort(
                    key=lambda x, k=key: str(x[k]).zfill(4), reverse=len(cl) > 1 and cl[1] == "DESC"
                )
        heads = []
        for col in _JI_COLS:
            now = next((cl for cl in clauses if cl and cl[0] == col), None)
            d = "ASC" if not now or (len(now) > 1 and now[1] == "DESC") else "DESC"
            rest = [" ".join(cl) for cl in clauses if cl and cl[0] != col]
            order_by = ", ".join([f"{col} {d}", *rest])
            heads.append(f"<th>{a(_jql_url(filt.strip() + ' ORDER BY ' + order_by), col)}</th>")
        rows = "".join(
            f"<tr><td>{a('/browse/TIDE-' + str(x['n']), 'TIDE-' + str(x['n']))}</td>"
            f"<td>{esc(x['summary'])}</td><td>{x['type']}</td><td>{x['status']}</td><td>{x['priority']}</td>"
            f"<td>{x['created']}</td><td>{x['created'] + dt.timedelta(days=3)}</td>"
            f"<td>{x['assignee']}</td></tr>"
            for x in hits[start : start + self.per]
        )
        pager = " ".join(
            a(_jql_url(jql, s), str(s // self.per + 1))
            for s in range(0, len(hits), self.per)
            if s != start
        )
        views = bar(
            [
                (
                    f"/sr/jira.issueviews:searchrequest-{v}/temp/SearchRequest.{e}?jqlQuery={quote_plus(jql)}&tempMax=1000",
                    n,
                )
                for v, e, n in (
                    ("xml", "xml", "XML"),
                    ("printable", "html", "Printable"),
                    ("csv-all-fields", "csv", "CSV"),
                )
            ]
        )
        main = (
            f"<h1>Search</h1><p><code>{esc(jql)}</code></p>"
            f"<p>{start + 1}-{min(start + self.per, len(hits))} of {len(hits)}</p>"
            f"<table class='issue-table'><tr>{''.join(heads)}</tr>{rows}</table><p>{pager}"
            f"</p><p>Export: {views}</p>"
        )
        return self.page(req, "Issue Navigator", main)

    def issue(self, req: Req, x: dict) -> Reply:
        key = f"TIDE-{x['n']}"
        base = f"/browse/{key}"
        tab_q = "?page=com.atlassian.jira.plugin.system.issuetabpanels:"
        tabs = bar([(f"{base}{tab_q}{t}-tabpanel", t.title()) for t in _JI_TABS])
        comments = "".join(
            f'<div class="activity-comment" id="comment-{c}"><p>'
            f"{a('/secure/ViewProfile.jspa?name=' + _JI_USERS[c % 4], _JI_USERS[c % 4])}"
            f" added a comment - "
            f"{a(f'{base}?focusedCommentId={c}&{tab_q[1:]}comment-tabpanel#comment-{c}', 'Link')}"
            "</p>"
            f"{prose(self, f'c{c}', self.vocab, 15, 50)}</div>"
            for c in x["comments"]
        )
        if x["old"]:
            old = f"HARB-{x['old']}"
            comments += f"<p>Moved from {a('/browse/' + old, old)}.</p>"
        files = ""
        if x["files"]:
            files = "<h3>Attachments</h3>" + bar(
                [
                    (f"{base}?attachmentSortBy={s}&attachmentOrder={o}", f"{s} {o}")
                    for s in ("fileName", "dateTime")
                    for o in ("asc", "desc")
                ]
            )
            files += ul(
                [
                    (f"/secure/attachment/{11000 + 3 * x['n'] + k}/trace-{k}.log", f"trace-{k}.log")
                    for k in range(x["files"])
                ]
            )
        related = [
            (f"/browse/TIDE-{(x['n'] * 7) % 26 + 1}", f"relates to TIDE-{(x['n'] * 7) % 26 + 1}")
        ]
        labels = " ".join(a(_jql_url(f"labels = {lb}"), lb) for lb in x["labels"]) or "None"
        comp = a(_jql_url(f"project = TIDE AND component = {x['component']}"), x["component"])
        v = x["version"]
        main = (
            f"<h1>[{key}] {esc(x['summary'])}</h1><dl><dt>Type</dt><dd>{x['type']}</dd>"
            f"<dt>Status</dt><dd>{x['status']}</dd>"
            f"<dt>Priority</dt><dd>{x['priority']}</dd><dt>Component/s</dt><dd>{comp}</dd><dt>Labels</dt><dd>{labels}</dd>"
            f"<dt>Fix Version/s</dt><dd>{a(f'/projects/TIDE/versions/{v}', _JI_VERSIONS[v])}"
            f"</dd></dl>"
            f"<h3>Description</h3>{prose(self, key, self.vocab, 60, 160)}{files}<h3>Issue"
            f" Links</h3>{ul(related)}"
            f"<h3>Activity</h3><p>{tabs}</p>{comments}"
            f"<p>Export: {a(f'/si/jira.issueviews:issue-xml/{key}/{key}.xml', 'XML')} "
            f"{a(f'/si/jira.issueviews:issue-html/{key}/{key}.html', 'Printable')}</p>"
        )
        return self.page(req, f"[{key}] {x['summary']}", main)

    def handle(self, req: Req) -> Reply:
        path, q = req.path, params(req.query)
        if path == "/":
            return redirect("/secure/Dashboard.jspa")
        if path == "/secure/Dashboard.jspa":
            recent = [
                (f"/browse/TIDE-{x['n']}", f"TIDE-{x['n']}: {x['summary']}")
                for x in self.issues[-6:]
            ]
            main = (
                f"<h1>System Dashboard</h1>{prose(self, 'dash', self.vocab, 50, 100)}"
                f"<p>{a('/secure/BrowseProjects.jspa', 'Browse projects')}</p><h3>Activity"
                f" Stream</h3>{ul(recent)}"
            )
            return self.page(req, "System Dashboard", main)
        if path == "/secure/BrowseProjects.jspa":
            cats = bar(
                [
                    (f"/secure/BrowseProjects.jspa?selectedCategory={c}&selectedProjectType=all", c)
                    for c in ("all", "10000")
                ]
            )
            return self.page(
                req, "Browse projects", f"<p>{cats}</p>" + ul([("/browse/TIDE", "TideCalc (TIDE)")])
            )
        if path == "/browse/TIDE":
            vs = [(f"/projects/TIDE/versions/{v}", f"Version {n}") for v, n in _JI_VERSIONS.items()]
            comps = [(_jql_url(f"project = TIDE AND component = {c}"), c) for c in _JI_COMPONENTS]
            main = (
                f"<h1>TideCalc</h1>{prose(self, 'proj', self.vocab, 60, 120)}"
                f"<p>{a(_jql_url(self.home_jql), 'All issues')}</p>"
                f"<h3>Versions</h3>{ul(vs)}<h3>Components</h3>{ul(comps)}"
            )
            return self.page(req, "TideCalc", main)
        if path == "/issues/" and "jql" in q:
            s = q.get("startIndex", "0")
            return self.search(req, q["jql"], int(s) if s.isdigit() else 0)
        if path.startswith("/browse/HARB-"):
            n = path[len("/browse/HARB-") :]
            x = next((x for x in self.issues if str(x["old"]) == n), None)
            return (
                Reply("", OTHER, None, 301, headers={"Location": f"/browse/TIDE-{x['n']}"})
                if x
                else not_found()
            )
        if path.startswith("/browse/TIDE-"):
            x = next((x for x in self.issues if f"/browse/TIDE-{x['n']}" == path), None)
            return self.issue(req, x) if x else not_found()
        if path.startswith("/projects/TIDE/versions/"):
            v = path.rsplit("/", 1)[1]
            if not v.isdigit() or int(v) not in _JI_VERSIONS:
                return not_found()
            mine = [
                (f"/browse/TIDE-{x['n']}", f"TIDE-{x['n']}: {x['summary']}")
                for x in self.issues
                if x["version"] == int(v)
            ]
            find = _jql_url("project = TIDE AND fixVersion = " + _JI_VERSIONS[int(v)])
            main = (
                f"<h1>Version {_JI_VERSIONS[int(v)]}</h1>{ul(mine)}"
                f"<p>{a(f'/secure/ReleaseNote.jspa?projectId=10000&version={v}', 'Release Notes')}"
                f" | {a(find, 'View in Issue Navigator')}</p>"
            )
            return self.page(req, f"Version {_JI_VERSIONS[int(v)]}", main)
        if path == "/secure/ReleaseNote.jspa":
            v = q.get("version", "")
            if q.get("projectId") != "10000" or not v.isdigit() or int(v) not in _JI_VERSIONS:
                return not_found()
            mine = [x for x in self.issues if x["version"] == int(v)]
            groups = "".join(
                f"<h2>{t}</h2>"
                + ul(
                    [
                        (f"/browse/TIDE-{x['n']}", f"[TIDE-{x['n']}] - {x['summary']}")
                        for x in mine
                        if x["type"] == t
                    ]
                )
                for t in ("Bug", "Improvement", "Task")
            )
            styles = bar(
                [
                    (f"/secure/ReleaseNote.jspa?projectId=10000&version={v}&styleName={s}", s)
                    for s in ("Text", "Html")
                ]
            )
            body = (
                f"<h1>Release Notes - TideCalc - Version {_JI_VERSIONS[int(v)]}</h1>{groups}"
                f"<p>Configure: {styles}</p>"
            )
            if q.get("styleName") == "Text":
                body = f"<textarea>{esc(groups)}</textarea><p>{styles}</p>"
            return self.page(req, "Release Notes", body)
        return not_found()


# ----------------------------------------------------------------------------------------
# MoinMoin 1.9 (modernized theme, a makerspace wiki). Every page offers `?action=print`,
# `raw`, `AttachFile`, `LikePages`, `diff` and a backlinks search from its title
# (`?action=fullsearch&context=180&value=linkto:"Page"`); the info page links a
# `diff&rev1=&rev2=` for each revision and diffs link their neighbours; RecentChanges
# offers `max_days=`; the group calendar's MonthCalendar macro steps months and years
# with `?calparms=,<year>,<month>` without end and links a subpage for every day (404
# where none exists). The stock `Disallow: /*?action=login` is a wildcard line.
# Legit look-alikes: each page's info page and real older revisions (`action=recall`),
# the calendar's event subpages, the system pages.
# ----------------------------------------------------------------------------------------

_MM_PAGES = ["LaserCutter", "ThreeDPrinters", "MembershipRules", "OpeningHours"]
_MM_PAGES += ["ToolLibrary", "SafetyInduction", "ElectronicsBench", "WoodShop"]
_MM_PAGES += ["EventsPolicy", "CleaningRota", "DonationsPolicy", "WifiAndNetwork"]
_MM_SYSTEM = ["FrontPage", "RecentChanges", "TitleIndex", "FindPage", "HelpContents"]
_MM_SYSTEM += ["GroupCalendar"]
_MM_EVENTS = ["2025-11-04", "2025-11-12", "2025-11-19", "2025-11-27"]
_MM_STATIC = "/moin_static198/modernized/css/common.css"


class MoinMoin(Hosted):
    """MoinMoin: ?action= views, rev1/rev2 diffs, max_days=, MonthCalendar calparms= forever."""

    name = "moinmoin"
    kind = "MoinMoin 1.9: ?action=print|diff|info|LikePages|fullsearch, MonthCalendar calparms="
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/moin_static198/", "/*?action=login"]

    def robots_txt(self, req: Req) -> str:
        return (
            "User-agent: *\nCrawl-delay: 20\nDisallow: /moin_static198/\nDisallow:"
            " /*?action=login\n"
        )

    def setup(self) -> None:
        self.vocab = words_for("forum") + words_for("docs")
        r = self.rng("revs")
        self.revs = {p: r.randint(1, 4) for p in _MM_PAGES}
        for p in _MM_SYSTEM:
            self.reg(p, f"/{p}")
        for p in _MM_PAGES:
            self.reg(p, f"/{p}")
            self.reg(f"info:{p}", f"/{p}?action=info")
            for k in range(1, self.revs[p]):
                self.reg(f"rev:{p}:{k}", f"/{p}?action=recall&rev={k}")
        for d in _MM_EVENTS:
            self.reg(f"ev:{d}", f"/GroupCalendar/{d}")

    def shell(self, page: str, title: str, main: str) -> str:
        acts = bar(
            [
                (f"/{page}?action=raw", "Raw Text"),
                (f"/{page}?action=print", "Print View"),
                (f"/{page}?action=diff", "Show Changes"),
                (f"/{page}?action=info", "Get Info"),
                (f"/{page}?action=AttachFile", "Attachments"),
                (f"/{page}?action=LikePages", "Like Pages"),
            ]
        )
        nav = bar([(f"/{p}", p) for p in _MM_SYSTEM])
        title_link = a(f"/{page}?action=fullsearch&context=180&value=linkto%3A%22{page}%22", title)
        body = (
            f'<div id="header">{a("/FrontPage", "Makerspace Wiki")} '
            f'{a(f"/{page}?action=login", "Login")}<div id="navibar">{nav}</div></div>'
            f'<div id="page"><h1 id="pagetitle">{title_link}</h1>{main}</div>'
            f'<div id="footer"><ul class="editbar"><li>Immutable Page</li><li>{acts}</li></ul>'
            "<p>MoinMoin Powered · Python Powered</p></div>"
        )
        head = f'<link rel="stylesheet" type="text/css" href="{_MM_STATIC}">'
        return doc(f"{title} - Makerspace Wiki", body, head=head)

    def text(self, p: str, rev: int) -> str:
        k = _MM_PAGES.index(p)
        see = [_MM_PAGES[(k + 3) % 12], _MM_PAGES[(k + 7) % 12]]
        return (
            prose(self, f"{p}@{rev}", self.vocab, 90 + 40 * rev, 200 + 50 * rev)
            + "<p>See also: "
            + ", ".join(a(f"/{s}", s) for s in see)
            + "</p>"
        )

    def calendar(self, y: int, m: int) -> str:
        def cal(yy: int, mm: int) -> str:
            yy, mm = yy + (mm - 1) // 12, (mm - 1) % 12 + 1
            return f"/GroupCalendar?calparms=%2C{yy}%2C{mm}"

        nav = " ".join(
            a(cal(yy, mm), lab)
            for yy, mm, lab in (
                (y - 1, m, "<<"),
                (y, m - 1, "<"),
                (y, m + 1, ">"),
                (y + 1, m, ">>"),
            )
        )
        days = (dt.date(y + m // 12, m % 12 + 1, 1) - dt.date(y, m, 1)).days
        cells = " ".join(
            a(f"/GroupCalendar/{y}-{m:02d}-{d:02d}", str(d)) for d in range(1, days + 1)
        )
        return (
            f'<table class="cal-table"><tr><td>{nav} {dt.date(y, m, 1):%B %Y}</td></tr><tr>'
            f"<td>{cells}</td></tr></table>"
        )

    def handle(self, req: Req) -> Reply:
        path, q = req.path, params(req.query)
        if path == "/":
            return redirect("/FrontPage")
        page = path[1:]
        act = q.get("action", "show")
        if page.startswith("GroupCalendar/"):
            if page[len("GroupCalendar/") :] not in _MM_EVENTS:
                return Reply(
                    self.shell(page, page, "<p>This page does not exist yet.</p>"), OTHER, None, 404
                )
            return self.serve(req, self.shell(page, page, prose(self, page, self.vocab, 40, 90)))
        if page not in _MM_PAGES and page not in _MM_SYSTEM:
            return not_found()
        if act == "login":
            return self.serve(
                req, self.shell(page, "Login", "<form method='post'><input name='name'></form>")
            )
        if act == "raw":
            return Reply(f"= {page} =\n", OTHER, None, ctype="text/plain")
        cur = self.revs.get(page, 1)
        if page == "RecentChanges":
            days = q.get("max_days", "14")
            opts = " ".join(
                a(f"/RecentChanges?max_days={d}", d)
                for d in ("1", "2", "3", "7", "14", "30", "60", "90")
            )
            n = min(12, int(days) if days.isdigit() else 14)
            rows = [
                (f"/{p}?action=diff", f"{p} [DIFF]")
                for p in sorted(_MM_PAGES, key=lambda p: -self.revs[p])[:n]
            ]
            rows += [(f"/{p}", p) for p in _MM_PAGES]
            main = f"<p>Show {opts} days</p>{ul(rows)}"
        elif page == "TitleIndex":
            pages = sorted(_MM_PAGES + (_MM_SYSTEM if q.get("allpages") == "1" else []))
            main = f"<p>{a('/TitleIndex?allpages=1', 'Include system pages')}</p>" + ul(
                [(f"/{p}", p) for p in pages]
            )
        elif page == "GroupCalendar":
            cp = q.get("calparms", ",2025,11").split(",")
            y, m = (
                (int(cp[1]), int(cp[2]))
                if len(cp) > 2 and cp[1].isdigit() and cp[2].isdigit()
                else (2025, 11)
            )
            if not (1 <= m <= 12 and 1 <= y <= 9999):
                return not_found()
            main = (
                self.calendar(y, m)
                + "<h3>Upcoming events</h3>"
                + ul([(f"/GroupCalendar/{d}", d) for d in _MM_EVENTS])
            )
        elif page in _MM_SYSTEM:
            main = prose(self, page, self.vocab, 60, 140) + ul(
                [(f"/{p}", p) for p in _MM_PAGES[::3]] + [("/TitleIndex", "TitleIndex")]
            )
        elif act == "info":
            rows = "".join(
                f"<tr><td>{k}</td><td>2025-{k + 2:02d}-1{k} 10:{10 + k}:00</td><td>"
                + bar(
                    [
                        (f"/{page}?action=recall&rev={k}", "view"),
                        (f"/{page}?action=raw&rev={k}", "raw"),
                        (f"/{page}?action=print&rev={k}", "print"),
                    ]
                    + ([(f"/{page}?action=diff&rev1={k - 1}&rev2={k}", "diff")] if k > 1 else [])
                )
                + "</td></tr>"
                for k in range(cur, 0, -1)
            )
            main = f"<h2>Revision History</h2><table>{rows}</table>"
        elif act == "diff":
            r2 = int(q["rev2"]) if q.get("rev2", "").isdigit() else cur
            r1 = int(q["rev1"]) if q.get("rev1", "").isdigit() else r2 - 1
            nav = bar(
                [
                    (f"/{page}?action=diff&rev1={r1 - 1}&rev2={r1}", "← Previous change"),
                    (f"/{page}?action=diff&rev1={r2}&rev2={r2 + 1}", "Next change →"),
                ]
            )
            main = f"<p>Differences between revisions {r1} and {r2}</p><p>{nav}</p>" + prose(
                self, f"d{page}{r1}{r2}", self.vocab, 20, 60
            )
        elif act in ("print", "recall", "show", "AttachFile", "LikePages", "fullsearch"):
            rev = int(q["rev"]) if q.get("rev", "").isdigit() and 0 < int(q["rev"]) <= cur else cur
            main = self.text(page, rev)
            if act == "AttachFile":
                main = f"<p>Attached files of {page}: none.</p>" + ul([(f"/{page}", page)])
            elif act in ("LikePages", "fullsearch"):
                k = _MM_PAGES.index(page) if page in _MM_PAGES else 0
                main = ul(
                    [
                        (f"/{p}", p)
                        for p in _MM_PAGES
                        if p != page and (_MM_PAGES.index(p) - k) % 4 == 0
                    ]
                )
        else:
            return not_found()
        return self.serve(req, self.shell(page, page, main))
