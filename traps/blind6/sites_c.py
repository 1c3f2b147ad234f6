"""Blind6 sites, part C: CKAN, Buildbot, Jira, Javadoc, and the trap-free control."""

from __future__ import annotations

from typing import ClassVar
from urllib.parse import parse_qsl, quote

from traps.blind.kit import OTHER, Reply, Req, a, doc, not_found, words_for
from traps.blind2.common import bar, esc, prose, ul

from .common import Hosted

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
        for name, title, org, groups, tags, fmt in _CK_SETS:
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
                    "mod": f"2025-{r.randint(1, 11):02d}-{r.randint(1, 28):02d}",
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

    def shell(self, title: str, main: str) -> str:
        nav = bar(
            [
                ("/dataset/", "Datasets"),
                ("/organization/", "Organizations"),
                ("/group/", "Groups"),
                ("/about", "About"),
            ]
        )
        body = (
            f'<header class="masthead">{a("/", "Coast City Open Data")}'
            f" {nav} {a('/user/login', 'Log in')}</header>"
            f'<div role="main">{main}</div><footer>{a("/api/3", "API")} · Powered by CKAN</footer>'
        )
        return doc(f"{title} - Coast City Open Data", body)

    def search(self, req: Req, base: str, fixed: tuple[str, str] | None, title: str) -> Reply:
        pairs = [(k, v) for k, v in _qpairs(req.query)]
        sel = [(k, v) for k, v in pairs if k in _CK_FACETS]
        sort = next((v for k, v in pairs if k == "sort"), "score desc, metadata_modified desc")
        pg = next((v for k, v in pairs if k == "page"), "1")
        page = int(pg) if pg.isdigit() and int(pg) > 0 else 1
        limits = {k[1:-6]: v for k, v in pairs if k.startswith("_") and k.endswith("_limit")}
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
        }
        if sort in key:
            hits = sorted(hits, key=key[sort], reverse=sort.endswith("desc"))
        keep = [(k, v) for k, v in pairs if k != "page"]

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
        return self.serve(req, self.shell(title, main))

    def handle(self, req: Req) -> Reply:
        path = req.path
        if path == "/":
            main = (
                prose(self, "home", self.vocab, 60, 120)
                + "<h3>Popular tags</h3>"
                + " ".join(
                    a(f"/dataset/?tags={t}", t) for t in ("cycling", "permits", "zones", "trees")
                )
                + "<h3>Recently changed</h3>"
                + ul([(f"/dataset/{d['name']}", d["title"]) for d in self.sets[:4]])
            )
            return self.serve(req, self.shell("Welcome", main))
        if path == "/about":
            return self.serve(req, self.shell("About", prose(self, "about", self.vocab, 90, 180)))
        if path == "/dataset/" or path == "/dataset":
            return self.search(req, "/dataset/", None, "Datasets")
        if path in ("/organization/", "/group/"):
            src = _CK_ORGS if path == "/organization/" else _CK_GROUPS
            return self.serve(
                req,
                self.shell(
                    path.strip("/").title() + "s", ul([(f"{path}{k}", v) for k, v in src.items()])
                ),
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
                rows = [
                    (
                        f"/dataset/{d['name']}",
                        f"{d['mod']}: Coast City Admin updated the dataset {d['title']}",
                    )
                ]
                if parts[1] == "groups":
                    rows = [(f"/group/{g}", _CK_GROUPS[g]) for g in d["groups"]]
                return self.serve(req, self.shell(d["title"], ul(rows)))
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
                        [
                            (
                                f"/dataset/{d['name']}/resource/{d['res']}",
                                f"{d['title']} ({d['res_format']})",
                            )
                        ]
                    )
                    + f"<p>Tags: {tags}</p>"
                    + f"<p>Organization: {a(org, _CK_ORGS[d['organization']])}</p>"
                    + f"<p>{bar(tabs)}</p>"
                    + f"<p>License: {d['license_id']} · Last updated {d['mod']}</p>"
                )
                return self.serve(req, self.shell(d["title"], main))
            if len(parts) >= 4 and parts[2] == "resource" and parts[3] == d["res"]:
                if len(parts) > 4:
                    return Reply("id,name\n", OTHER, None, ctype="text/csv")
                dl = f"/dataset/{d['name']}/resource/{d['res']}/download/"
                dl += f"{d['name']}.{d['res_format'].lower()}"
                main = (
                    f"<h1>{esc(d['title'])} ({d['res_format']})</h1>"
                    f"{prose(self, 'res' + d['name'], self.vocab, 40, 90)}"
                    + bar(
                        [
                            (dl, "Download"),
                            (
                                f"/dataset/{d['name']}/resource/{d['res']}?view_id={d['view']}",
                                "Table view",
                            ),
                            (f"/dataset/{d['name']}", "Dataset"),
                        ]
                    )
                )
                return self.serve(req, self.shell(d["title"], main))
        return not_found()


def _as_list(v: object) -> list[str]:
    return list(v) if isinstance(v, list) else [str(v)]


def _qpairs(query: str) -> list[tuple[str, str]]:
    return parse_qsl(query, keep_blank_values=True)
