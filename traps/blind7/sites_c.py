"""Blind7 sites, part C: Gitea, a Roundup issue tracker, Omeka Classic, and a control."""

from __future__ import annotations

import datetime as dt
from typing import ClassVar
from urllib.parse import parse_qsl

from traps.blind.kit import THEMES, Reply, Req, a, doc, not_found, slugs, title_of, words_for
from traps.blind2.common import Link, bar, esc, prose, qs, ul

from .common import Hosted, data, href, setp, without

# ----------------------------------------------------------------------------------------
# Gitea. The footer's language menu links `?lang=<code>` on every page (the same page
# with another interface language); commits link "Browse Source" (`/src/commit/<sha>`)
# and their files at that commit, diff switches `?style=` and `?whitespace=`; files link
# blame, history and a permalink at the head commit; the issue list's label filters
# add or remove one id in `labels=` (click order) next to `sort=` and `state=`.
# Legit look-alikes: the commit list's real page 2, the files and directories on `main`,
# the 18 commit pages, the issues (closed ones linked from commit messages).
# ----------------------------------------------------------------------------------------

_GT_LANGS = ["en-US", "zh-CN", "de-DE", "fr-FR", "nl-NL", "lv-LV", "ru-RU", "uk-UA"]
_GT_LANGS += ["ja-JP", "es-ES", "pt-BR", "pl-PL", "sv-SE", "tr-TR", "it-IT", "ko-KR"]
_GT_FILES = [
    "README.md",
    "LICENSE",
    "go.mod",
    "cmd/ledger/main.go",
    "internal/store/store.go",
    "internal/store/store_test.go",
    "internal/api/api.go",
    "internal/api/routes.go",
    "docs/install.md",
]
_GT_DIRS = ["cmd", "cmd/ledger", "internal", "internal/store", "internal/api", "docs"]
_GT_LABELS = {1: "bug", 2: "enhancement", 3: "docs", 4: "good first issue", 5: "wontfix"}
_R = "/tidepool/ledger"


class Gitea(Hosted):
    """Gitea: ?lang= on every page, files at every commit, labels= filter lists."""

    name = "gitea"
    kind = "Gitea: ?lang= x16 on every page, /src/commit/<sha>/path, labels=a,b issue filters"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/tidepool")]
    robots_disallow: ClassVar[list[str]] = [
        "/api/",
        "/user/",
        "/avatars/",
        f"{_R}/raw/",
        f"{_R}/archive/",
        f"{_R}/media/",
    ]

    def setup(self) -> None:
        self.vocab = words_for("archive")
        rng = self.rng("git")
        msgs = slugs(self.key("c"), 18, THEMES["archive"] + THEMES["docs"], 3)
        self.commits = []
        t = dt.datetime(2026, 11, 29, 16, 5)
        for i, m in enumerate(msgs):
            sha = "".join(rng.choice("0123456789abcdef") for _ in range(40))
            fixes = 8 + i // 6 if i % 6 == 1 else 0
            self.commits.append(
                {
                    "sha": sha,
                    "msg": title_of(m).capitalize(),
                    "files": rng.sample(_GT_FILES, rng.randint(1, 3)),
                    "when": t - dt.timedelta(hours=31 * i + rng.randint(0, 20)),
                    "author": rng.choice(["mireille", "tomasz", "okafor"]),
                    "fixes": fixes,
                }
            )
        ititles = slugs(self.key("i"), 10, THEMES["archive"] + THEMES["docs"], 3)
        self.issues = [
            {
                "n": 1 + i,
                "title": title_of(x).capitalize(),
                "open": i < 7,
                "labels": sorted(rng.sample(list(_GT_LABELS), rng.randint(1, 2))),
                "comments": rng.randint(0, 9),
            }
            for i, x in enumerate(ititles)
        ]
        self.reg("org", "/tidepool")
        self.reg("home", _R)
        for d in _GT_DIRS:
            self.reg(f"d:{d}", f"{_R}/src/branch/main/{d}")
        for f in _GT_FILES:
            self.reg(f"f:{f}", f"{_R}/src/branch/main/{f}")
        self.reg("log1", f"{_R}/commits/branch/main")
        self.reg("log2", f"{_R}/commits/branch/main?page=2")
        for c in self.commits:
            self.reg(f"c:{c['sha']}", f"{_R}/commit/{c['sha']}")
        self.reg("issues", f"{_R}/issues")
        for i in self.issues:
            self.reg(f"i{i['n']}", f"{_R}/issues/{i['n']}")
        self.reg("releases", f"{_R}/releases")

    def frame(self, req: Req, title: str, body: str) -> str:
        tabs = bar(
            [
                (_R, "Code"),
                (f"{_R}/issues", "Issues"),
                (f"{_R}/releases", "Releases"),
                (f"{_R}/commits/branch/main", "Commits"),
            ]
        )
        langs = " ".join(a(f"?lang={x}", x) for x in _GT_LANGS)
        lang = qs(req.query).get("lang", "en-US")
        return doc(
            f"{title} - Tidepool Forge",
            f"<nav>{a('/explore/repos', 'Explore')} | "
            f"{a('/user/login?redirect_to=' + req.path, 'Sign In')}</nav>"
            f"<h2>{a('/tidepool', 'tidepool')} / {a(_R, 'ledger')}</h2><p>{tabs}</p>{body}"
            f"<footer>Powered by Gitea Version: 1.21.11 | Language: {lang} | {langs}</footer>",
            lang=lang[:2],
        )

    def handle(self, req: Req) -> Reply:
        path = req.path
        if path == "/tidepool":
            body = (
                f"<h1>Tidepool</h1>{prose(self, 'org', self.vocab, 30, 60)}"
                f"{ul([(_R, 'tidepool/ledger')])}"
            )
            return self.serve(req, self.frame(req, "Tidepool", body))
        if path == _R:
            return self.serve(req, self.frame(req, "ledger", self.tree("main", "", True)))
        if not path.startswith(_R + "/"):
            return not_found()
        rest = path[len(_R) + 1 :].split("/")
        p = qs(req.query)
        if rest[0] in ("src", "blame", "commits") and len(rest) >= 3:
            ref = self.ref(rest[1], rest[2])
            if ref is None:
                return not_found()
            sub = "/".join(rest[3:])
            if rest[0] == "commits":
                return self.history(req, ref, sub, p)
            if sub in _GT_FILES:
                return self.serve(req, self.frame(req, sub, self.file(ref, sub, rest[0])))
            if sub == "" or sub in _GT_DIRS:
                return self.serve(req, self.frame(req, sub or "ledger", self.tree(ref, sub)))
            return not_found()
        if rest[0] == "commit" and len(rest) == 2:
            sha = rest[1].removesuffix(".diff").removesuffix(".patch")
            c = next((x for x in self.commits if x["sha"] == sha), None)
            if c is None:
                return not_found()
            if rest[1] != sha:
                return data(f"From {sha}\nSubject: {c['msg']}\n", "text/plain; charset=utf-8")
            return self.serve(req, self.frame(req, c["msg"], self.commit(c, p)))
        if rest[0] == "issues" and len(rest) == 1:
            return self.serve(req, self.frame(req, "Issues", self.issue_list(req.query)))
        if rest[0] == "issues" and len(rest) == 2:
            i = next((x for x in self.issues if str(x["n"]) == rest[1]), None)
            if i is None:
                return not_found()
            labels = " ".join(
                a(href(f"{_R}/issues", [("labels", str(lb))]), _GT_LABELS[lb]) for lb in i["labels"]
            )
            body = (
                f"<h1>{esc(i['title'])} #{i['n']}</h1><p>{'Open' if i['open'] else 'Closed'}"
                f" | {i['comments']} comments | {labels}</p>"
                f"{prose(self, ('issue' + str(i['n'])), self.vocab, 60, 200)}"
            )
            return self.serve(req, self.frame(req, i["title"], body))
        if rest == ["releases"]:
            rels = "".join(
                f"<h3>v1.{k}.0</h3>{prose(self, f'rel{k}', self.vocab, 30, 70)}"
                f"<p>{a(f'{_R}/archive/v1.{k}.0.zip', 'Source code (ZIP)')}</p>"
                for k in (3, 2, 1)
            )
            return self.serve(req, self.frame(req, "Releases", f"<h1>Releases</h1>{rels}"))
        return not_found()

    def ref(self, kind: str, name: str) -> str | None:
        if kind == "branch" and name == "main":
            return "main"
        if kind == "commit" and any(c["sha"] == name for c in self.commits):
            return name
        return None

    def refpath(self, ref: str) -> str:
        return "branch/main" if ref == "main" else f"commit/{ref}"

    def tree(self, ref: str, sub: str, home: bool = False) -> str:
        pre = f"{sub}/" if sub else ""
        kids = sorted(
            {f[len(pre) :].split("/")[0] for f in _GT_FILES + _GT_DIRS if f.startswith(pre)} - {""}
        )
        rows = [(f"{_R}/src/{self.refpath(ref)}/{pre}{k}", k) for k in kids]
        head = self.commits[0]
        body = (
            f"<p>Latest commit {a((f'{_R}/commit/' + str(head['sha'])), head['sha'][:10])} "
            f"{esc(head['msg'])}</p>{ul(rows)}"
        )
        if home:
            body = (
                f"<p>{a(f'{_R}/archive/main.zip', 'Download ZIP')}</p>{body}"
                f"<h3>README.md</h3>{prose(self, 'readme', self.vocab, 80, 160)}"
            )
        elif ref != "main":
            body = f"<p>Browsing at commit {ref[:10]}</p>{body}"
        return body

    def file(self, ref: str, f: str, view: str) -> str:
        rp = self.refpath(ref)
        links: list[Link] = [
            (f"{_R}/src/{rp}/{f}", "Source"),
            (f"{_R}/blame/{rp}/{f}", "Blame"),
            (f"{_R}/commits/{rp}/{f}", "History"),
            (f"{_R}/raw/{rp}/{f}", "Raw"),
            (f"{_R}/src/commit/{self.commits[0]['sha']}/{f}", "Permalink"),
        ]
        if f.endswith(".md"):
            links.append((f"{_R}/src/{rp}/{f}?display=source", "Source view"))
        touched = sum(f in c["files"] for c in self.commits)
        head = f"<h1>{esc(f)}</h1><p>{touched} commits touch this file</p>"
        key = f"file:{f}" if ref == "main" else f"file:{f}@{ref}"
        text = prose(self, key, self.vocab, 60, 180)
        if view == "blame":
            text = f"<table><tr><td>{self.commits[-1]['sha'][:8]}</td><td>{text}</td></tr></table>"
        return f"{head}<p>{bar(links)}</p>{text}"

    def history(self, req: Req, ref: str, sub: str, p: dict[str, str]) -> Reply:
        rows = [c for c in self.commits if not sub or sub in c["files"]]
        n = int(p["page"]) if p.get("page", "").isdigit() else 1
        pages = max(1, (len(rows) + 9) // 10)
        if not 1 <= n <= pages:
            return not_found()
        items = "".join(
            f"<tr><td>{a((f'{_R}/commit/' + str(c['sha'])), c['sha'][:10])}</td><td>{esc(c['msg'])}"
            "</td>"
            f"<td>{c['author']}</td><td>{c['when']:%Y-%m-%d %H:%M}</td></tr>"
            for c in rows[(n - 1) * 10 : n * 10]
        )
        base = f"{_R}/commits/{self.refpath(ref)}" + (f"/{sub}" if sub else "")
        pager = bar([(base + (f"?page={k}" if k > 1 else ""), str(k)) for k in range(1, pages + 1)])
        body = f"<h1>{len(rows)} Commits</h1><table>{items}</table><p>{pager}</p>"
        return self.serve(req, self.frame(req, "Commits", body))

    def commit(self, c: dict, p: dict[str, str]) -> str:
        i = self.commits.index(c)
        parent = (
            a(f"{_R}/commit/{self.commits[i + 1]['sha']}", self.commits[i + 1]["sha"][:10])
            if i + 1 < len(self.commits)
            else "none"
        )
        sw = bar([(f"?style={s}", s) for s in ("unified", "split")])
        sw += " | " + bar(
            [
                (f"?whitespace={w}", w)
                for w in ("show-all", "ignore-all", "ignore-change", "ignore-eol")
            ]
        )
        files = ul([(f"{_R}/src/commit/{c['sha']}/{f}", f) for f in c["files"]])
        fixes = (
            f"<p>Fixes {a((f'{_R}/issues/' + str(c['fixes'])), ('#' + str(c['fixes'])))}</p>"
            if c["fixes"]
            else ""
        )
        return (
            f"<h1>{esc(c['msg'])}</h1>{fixes}<p>{c['author']} committed {c['when']:%Y-%m-%d %H:%M}"
            f" | parent {parent} | {a((f'{_R}/src/commit/' + str(c['sha'])), 'Browse Source')} | "
            f"{a((f'{_R}/commit/' + str(c['sha']) + '.diff'), 'Download Diff')} | "
            f"{a((f'{_R}/commit/' + str(c['sha']) + '.patch'), 'Download Patch')}</p><p>{sw}"
            f"</p>{files}"
            f"{prose(self, 'diff' + c['sha'] + p.get('style', ''), self.vocab, 40, 100)}"
        )

    def issue_list(self, query: str) -> str:
        pairs = parse_qsl(query, keep_blank_values=True)
        p = dict(pairs)
        base = [
            ("type", p.get("type", "all")),
            ("sort", p.get("sort", "")),
            ("state", p.get("state", "open")),
            ("labels", p.get("labels", "")),
            ("milestone", "0"),
            ("assignee", "0"),
            ("poster", "0"),
        ]
        sel = [int(x) for x in p.get("labels", "").split(",") if x.isdigit()]
        rows = [
            i
            for i in self.issues
            if i["open"] == (p.get("state", "open") != "closed")
            and all(lb in i["labels"] for lb in sel)
        ]
        if p.get("sort") in ("oldest", "leastcomment"):
            rows = rows[::-1]
        labels = " ".join(
            a(
                href(
                    f"{_R}/issues",
                    setp(
                        base,
                        "labels",
                        ",".join(
                            str(x)
                            for x in ([*sel, k] if k not in sel else [y for y in sel if y != k])
                        ),
                    ),
                    safe=",",
                ),
                name,
            )
            for k, name in _GT_LABELS.items()
        )
        sorts = bar(
            [
                (href(f"{_R}/issues", setp(base, "sort", s), safe=","), s)
                for s in (
                    "newest",
                    "oldest",
                    "recentupdate",
                    "leastupdate",
                    "mostcomment",
                    "leastcomment",
                )
            ]
        )
        states = bar(
            [
                (href(f"{_R}/issues", setp(base, "state", s), safe=","), s.title())
                for s in ("open", "closed")
            ]
        )
        items = ul([(f"{_R}/issues/{i['n']}", f"#{i['n']} {i['title']}") for i in rows])
        return f"<h1>Issues</h1><p>{states}</p><p>Labels: {labels}</p><p>Sort: {sorts}</p>{items}"


# ----------------------------------------------------------------------------------------
# Roundup issue tracker (classic template). The index is addressed by its whole state in
# the query: `@columns=`, `@sort=` (a leading `-` for descending), `@group=`, `@filter=`
# with the filtered values, `@pagesize=` and `@startwith=`. Each column header sorts on
# that column (toggling the `-`), the "Group by" links regroup, the page-size links
# resize, and "next"/"prev" step `@startwith`, all keeping every other parameter; the
# sidebar's "Show All" and "Show Unassigned" start other states.
# Legit look-alikes: the home page's index and its real next page (exactly as linked
# from the home page), the issues, the users, the search page.
# ----------------------------------------------------------------------------------------

_RU_COLS = ["id", "activity", "title", "creator", "status"]
_RU_STATUS = {1: "unread", 2: "deferred", 3: "chatting", 4: "need-eg", 5: "in-progress"}
_RU_STATUS |= {6: "testing", 7: "done-cbb", 8: "resolved"}
_RU_PRIO = ["critical", "urgent", "bug", "feature", "wish"]
_RU_SAFE = "@,-"
_RU_HOME = [
    ("@columns", ",".join(_RU_COLS)),
    ("@sort", "-activity"),
    ("@group", "priority"),
    ("@filter", "status"),
    ("status", "-1,1,2,3,4,5,6,7"),
    ("@pagesize", "20"),
    ("@startwith", "0"),
]


class Roundup(Hosted):
    """Roundup: index state in @columns/@sort/@group/@filter/@pagesize/@startwith."""

    name = "roundup"
    kind = "Roundup tracker: index @sort/@group/@pagesize/@startwith links keeping all state"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/tracker/")]
    robots_disallow: ClassVar[list[str]] = [
        "/tracker/file",
        "/tracker/user?@template=register",
        "/tracker/user?@template=forgotten",
        "/tracker/issue?@action=export_csv",
        "/tracker/?@action=logout",
    ]

    def setup(self) -> None:
        self.vocab = words_for("science")
        rng = self.rng("ru")
        self.users = [
            (2 + i, n.replace("-", ""))
            for i, n in enumerate(slugs(self.key("u"), 4, THEMES["science"], 2))
        ]
        titles = slugs(self.key("t"), 24, THEMES["science"] + THEMES["docs"], 3)
        self.issues = []
        for i, t in enumerate(titles):
            self.issues.append(
                {
                    "id": 1001 + i,
                    "title": title_of(t).capitalize(),
                    "creator": rng.choice(self.users),
                    "assigned": rng.choice([None, *self.users]),
                    "status": rng.choice(list(_RU_STATUS)[:7]),
                    "prio": rng.choice(_RU_PRIO),
                    "activity": dt.datetime(2026, 11, 30, 12)
                    - dt.timedelta(hours=rng.randint(1, 3000)),
                    "super": rng.choice([None, None, None, 1001 + rng.randrange(24)]),
                    "files": rng.choice([0, 0, 1]),
                }
            )
        self.reg("home", "/tracker/")
        self.reg("next", href("/tracker/issue", setp(_RU_HOME, "@startwith", "20"), _RU_SAFE))
        self.reg("search", "/tracker/issue?@template=search")
        for it in self.issues:
            self.reg(f"i{it['id']}", f"/tracker/issue{it['id']}")
        for uid, _ in self.users:
            self.reg(f"u{uid}", f"/tracker/user{uid}")

    def frame(self, title: str, body: str) -> str:
        all_ = href(
            "/tracker/issue",
            [
                ("@sort", "-activity"),
                ("@group", "priority"),
                ("@filter", "status"),
                ("@columns", "id,activity,title,creator,assignedto,status"),
                ("status", "-1,1,2,3,4,5,6,7"),
            ],
            _RU_SAFE,
        )
        unass = href(
            "/tracker/issue",
            [
                ("@sort", "-activity"),
                ("@group", "priority"),
                ("@filter", "status,assignedto"),
                ("@columns", "id,activity,title,creator,status"),
                ("assignedto", "-1"),
                ("status", "-1,1,2,3,4,5,6,7"),
            ],
            _RU_SAFE,
        )
        side = ul(
            [
                ("/tracker/", "Home"),
                (all_, "Show All"),
                (unass, "Show Unassigned"),
                ("/tracker/issue?@template=search", "Search"),
                ("/tracker/user?@template=register", "Register"),
                ("/tracker/user?@template=forgotten", "Lost your login?"),
            ]
        )
        return doc(
            f"{title} - Spectra tracker",
            f"<div id='sidebar'>{side}</div><div id='body'>{body}</div>",
        )

    def handle(self, req: Req) -> Reply:
        path, p = req.path, qs(req.query)
        if path == "/tracker/" and not req.query:
            return self.serve(req, self.frame("Issues", self.index(_RU_HOME)))
        if path == "/tracker/issue":
            if p.get("@template") == "search":
                form = "<form method='get' action='issue'></form>"
                body = f"<h1>Search issues</h1>{form}{prose(self, 'search', self.vocab, 30, 60)}"
                return self.serve(req, self.frame("Search", body))
            pairs = parse_qsl(req.query, keep_blank_values=True)
            return self.serve(req, self.frame("Issues", self.index(pairs or _RU_HOME)))
        if path.startswith("/tracker/issue") and path[14:].isdigit():
            it = next((x for x in self.issues if x["id"] == int(path[14:])), None)
            return self.serve(req, self.frame(it["title"], self.issue(it))) if it else not_found()
        if path.startswith("/tracker/user") and path[13:].isdigit():
            u = next((x for x in self.users if x[0] == int(path[13:])), None)
            if u is None:
                return not_found()
            mine = [x for x in self.issues if x["creator"] == u]
            body = f"<h1>{u[1]}</h1>{prose(self, f'user{u[0]}', self.vocab, 30, 80)}" + ul(
                [(f"issue{x['id']}", x["title"]) for x in mine]
            )
            return self.serve(req, self.frame(u[1], body))
        return not_found()

    def issue(self, it: dict) -> str:
        sup = (
            f"<p>Superseder: {a(('issue' + str(it['super'])), ('issue' + str(it['super'])))}</p>"
            if it["super"]
            else ""
        )
        ass = a(f"user{it['assigned'][0]}", it["assigned"][1]) if it["assigned"] else "(nobody)"
        files = a(f"file{300 + it['id']}/trace.txt", "trace.txt") if it["files"] else ""
        return (
            f"<h1>{esc(it['title'])}</h1><table><tr><th>Priority</th><td>{it['prio']}</td>"
            f"<th>Status</th><td>{_RU_STATUS[it['status']]}</td></tr><tr><th>Creator</th><td>"
            f"{a(('user' + str(it['creator'][0])), it['creator'][1])}</td><th>Assigned to</th>"
            f"<td>{ass}"
            f"</td></tr></table>{sup}"
            f"<h3>Messages</h3>{prose(self, ('iss' + str(it['id'])), self.vocab, 80, 260)}{files}"
        )

    def index(self, pairs: list[tuple[str, str]]) -> str:
        p = dict(pairs)
        sort = p.get("@sort", "-activity")
        desc, key = sort.startswith("-"), sort.lstrip("-")
        group = p.get("@group", "priority").lstrip("-")
        size = int(p["@pagesize"]) if p.get("@pagesize", "").isdigit() else 50
        size = min(max(size, 1), 100)
        start = int(p["@startwith"]) if p.get("@startwith", "").isdigit() else 0
        filt = p.get("@filter", "").split(",")
        rows = list(self.issues)
        if "status" in filt:
            ok = {int(x) for x in p.get("status", "").split(",") if x.lstrip("-").isdigit()}
            rows = [x for x in rows if x["status"] in ok]
        if "assignedto" in filt and p.get("assignedto") == "-1":
            rows = [x for x in rows if x["assigned"] is None]
        val = {"creator": lambda x: x["creator"][1], "status": lambda x: x["status"]}
        val |= {
            "priority": lambda x: _RU_PRIO.index(x["prio"]),
            "assignedto": lambda x: str(x["assigned"]),
        }
        val |= {"id": lambda x: x["id"], "activity": lambda x: x["activity"]}
        val |= {"title": lambda x: x["title"]}
        none = lambda x: 0  # noqa: E731
        rows.sort(key=val.get(key, none), reverse=desc)
        rows.sort(key=val.get(group, none))
        cols = p.get("@columns", ",".join(_RU_COLS)).split(",")
        heads = "".join(
            "<th>"
            + a(
                href(
                    "/tracker/issue",
                    setp(pairs, "@sort", c if sort == f"-{c}" else f"-{c}"),
                    _RU_SAFE,
                ),
                c,
            )
            + "</th>"
            for c in cols
        )
        body = "".join(
            f"<tr><td>{x['prio']}</td><td>{a(('issue' + str(x['id'])), str(x['id']))}</td>"
            f"<td>{x['activity']:%Y-%m-%d}</td>"
            f"<td>{a(('issue' + str(x['id'])), x['title'])}</td>"
            f"<td>{a(('user' + str(x['creator'][0])), x['creator'][1])}</td>"
            f"<td>{_RU_STATUS[x['status']]}</td></tr>"
            for x in rows[start : start + size]
        )
        nav = []
        if start > 0:
            nav.append(
                (
                    href(
                        "/tracker/issue",
                        setp(pairs, "@startwith", str(max(0, start - size))),
                        _RU_SAFE,
                    ),
                    "<< previous",
                )
            )
        if start + size < len(rows):
            nav.append(
                (
                    href("/tracker/issue", setp(pairs, "@startwith", str(start + size)), _RU_SAFE),
                    "next >>",
                )
            )
        groups = bar(
            [
                (href("/tracker/issue", setp(pairs, "@group", g), _RU_SAFE), g)
                for g in ("priority", "status", "creator", "assignedto")
            ]
        )
        sizes = bar(
            [
                (href("/tracker/issue", setp(pairs, "@pagesize", str(s)), _RU_SAFE), str(s))
                for s in (20, 50, 100)
            ]
        )
        csv = href(
            "/tracker/issue", [("@action", "export_csv"), *without(pairs, "@action")], _RU_SAFE
        )
        return (
            f"<h1>List of issues</h1><table><tr><th>priority</th>{heads}</tr>{body}</table>"
            f"<p>{bar(nav)}</p><p>Group by: {groups}</p><p>Page size: {sizes}</p>"
            f"<p>{a(csv, 'Download as CSV')}</p>"
        )


# ----------------------------------------------------------------------------------------
# Omeka Classic 2. The items browse page takes `tags=`, `type=`, `collection=`,
# `sort_field=` (an element set and element, "Dublin Core,Title") with `sort_dir=a|d`,
# and `page=`; its sort links, item-type and collection links and paging keep the rest,
# and it lists its output formats (`?output=atom|dcmes-xml|json|omeka-xml|rss2`). Item
# pages link their creator and subject as advanced searches
# (`advanced[0][element_id]=&advanced[0][type]=is exactly&advanced[0][terms]=`), which
# the browse links keep too.
# Legit look-alikes: the browse list's real pages 2 and 3, the tag pages
# (`/items/browse?tags=<t>`), the collections, the exhibit pages.
# ----------------------------------------------------------------------------------------

_OM_TYPES = {6: "Still Image", 1: "Text", 18: "Physical Object"}
_OM_SORTS = ["Dublin Core,Title", "Dublin Core,Creator", "Dublin Core,Date", "added"]


class Omeka(Hosted):
    """Omeka Classic: items/browse sort_field/sort_dir/type/collection/tags/advanced/output."""

    name = "omeka"
    kind = "Omeka Classic: items/browse sort_field=&sort_dir=&type=&collection=&advanced[]="
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/admin/", "/users/", "/files/original/"]

    def setup(self) -> None:
        self.vocab = words_for("travel") + THEMES["archive"]
        rng = self.rng("om")
        self.tags = ["lamp", "fog-signal", "keepers", "shipwreck", "lens", "postcard"]
        self.colls = {1: "Keepers' Papers", 2: "Photographs", 3: "Lamp Room Objects"}
        creators = [title_of(c) for c in slugs(self.key("cr"), 7, THEMES["travel"], 2)]
        self.items = []
        for i, t in enumerate(slugs(self.key("it"), 26, THEMES["travel"] + THEMES["archive"], 3)):
            self.items.append(
                {
                    "id": 101 + i,
                    "title": title_of(t),
                    "creator": rng.choice(creators),
                    "date": 1860 + rng.randint(0, 110),
                    "type": rng.choice(list(_OM_TYPES)),
                    "coll": 1 + i % 3,
                    "tags": rng.sample(self.tags, 2),
                    "file": "".join(rng.choice("0123456789abcdef") for _ in range(32)),
                }
            )
        self.reg("home", "/")
        self.reg("browse1", "/items/browse")
        for n in (2, 3):
            self.reg(f"browse{n}", f"/items/browse?page={n}")
        for it in self.items:
            self.reg(f"i{it['id']}", f"/items/show/{it['id']}")
        self.reg("colls", "/collections/browse")
        for c in self.colls:
            self.reg(f"c{c}", f"/collections/show/{c}")
        self.reg("tags", "/items/tags")
        for t in self.tags:
            self.reg(f"t:{t}", f"/items/browse?tags={t}")
        self.reg("exhibits", "/exhibits")
        self.reg("ex", "/exhibits/show/keepers")
        for s in ("lamps", "lives"):
            self.reg(f"ex:{s}", f"/exhibits/show/keepers/{s}")

    def frame(self, title: str, body: str) -> str:
        nav = bar(
            [
                ("/", "Home"),
                ("/items/browse", "Browse Items"),
                ("/collections/browse", "Browse Collections"),
                ("/exhibits", "Browse Exhibits"),
                ("/items/tags", "Tags"),
            ]
        )
        return doc(
            f"{title} · Lighthouse Heritage Collection",
            f"<header><h1>Lighthouse Heritage Collection</h1><nav>{nav}</nav></header>"
            f"<main>{body}</main><footer>Proudly powered by Omeka. | {a('/admin/', 'Admin')}"
            "</footer>",
        )

    def handle(self, req: Req) -> Reply:
        path = req.path
        if path == "/":
            feat = ul([(f"/items/show/{it['id']}", it["title"]) for it in self.items[:4]])
            body = f"<h2>Featured Items</h2>{feat}{prose(self, 'home', self.vocab, 80, 160)}"
            return self.serve(req, self.frame("Home", body))
        if path == "/items/browse":
            if "output=" in req.query:
                return data("<?xml version='1.0'?><itemContainer/>", "application/xml")
            return self.serve(req, self.frame("Browse Items", self.browse(req.query)))
        if path.startswith("/items/show/") and path[12:].isdigit():
            it = next((x for x in self.items if x["id"] == int(path[12:])), None)
            if it is None:
                return not_found()
            if "output=" in req.query:
                return data(f"<?xml version='1.0'?><item id='{it['id']}'/>", "application/xml")
            return self.serve(req, self.frame(it["title"], self.item(it)))
        if path == "/items/tags":
            body = "<h1>Browse Items by Tag</h1>" + ul(
                [(f"/items/browse?tags={t}", t) for t in self.tags]
            )
            return self.serve(req, self.frame("Tags", body))
        if path == "/collections/browse":
            body = "<h1>Collections</h1>" + ul(
                [(f"/collections/show/{c}", n) for c, n in self.colls.items()]
            )
            return self.serve(req, self.frame("Collections", body))
        if (
            path.startswith("/collections/show/")
            and path[18:].isdigit()
            and int(path[18:]) in self.colls
        ):
            c = int(path[18:])
            rows = [(f"/items/show/{x['id']}", x["title"]) for x in self.items if x["coll"] == c][
                :5
            ]
            body = (
                f"<h1>{esc(self.colls[c])}"
                f"</h1>{prose(self, f'coll{c}', self.vocab, 60, 140)}{ul(rows)}"
                f"<p>{a(f'/items/browse?collection={c}', 'View the items in ' + self.colls[c])}</p>"
            )
            return self.serve(req, self.frame(self.colls[c], body))
        if path == "/exhibits":
            body = "<h1>Browse Exhibits</h1>" + ul(
                [("/exhibits/show/keepers", "Lives of the Keepers")]
            )
            return self.serve(req, self.frame("Exhibits", body))
        if path.startswith("/exhibits/show/keepers"):
            sub = path[len("/exhibits/show/keepers") :].strip("/")
            if sub not in ("", "lamps", "lives"):
                return not_found()
            pages = ul(
                [
                    ("/exhibits/show/keepers/lamps", "Lamps and Lenses"),
                    ("/exhibits/show/keepers/lives", "Daily Life"),
                ]
            )
            head = "Lives of the Keepers" + (": " + title_of(sub) if sub else "")
            body = f"<h1>{head}</h1>{prose(self, 'ex' + sub, self.vocab)}{pages}"
            return self.serve(req, self.frame("Exhibit", body))
        return not_found()

    def adv(self, element: int, value: str) -> str:
        return href(
            "/items/browse",
            [
                ("advanced[0][element_id]", str(element)),
                ("advanced[0][type]", "is exactly"),
                ("advanced[0][terms]", value),
            ],
        )

    def item(self, it: dict) -> str:
        tags = ", ".join(a(f"/items/browse?tags={t}", t) for t in it["tags"])
        prev_next = bar(
            [
                (f"/items/show/{k}", label)
                for k, label in ((it["id"] - 1, "← Previous Item"), (it["id"] + 1, "Next Item →"))
                if 101 <= k <= 126
            ]
        )
        outs = bar([(f"?output={o}", o) for o in ("atom", "dcmes-xml", "json", "omeka-xml")])
        return (
            f"<h1>{esc(it['title'])}</h1><dl><dt>Creator</dt>"
            f"<dd>{a(self.adv(39, it['creator']), it['creator'])}</dd>"
            f"<dt>Date</dt><dd>{it['date']}</dd><dt>Subject</dt>"
            f"<dd>{a(self.adv(49, self.colls[it['coll']]), self.colls[it['coll']])}</dd>"
            f"<dt>Item Type</dt><dd>{_OM_TYPES[it['type']]}</dd>"
            f"</dl>{prose(self, ('item' + str(it['id'])), self.vocab, 60, 180)}"
            f"<p>{a(('/files/original/' + str(it['file']) + '.jpg'), 'Original file')}</p>"
            f"<p>Collection: {a(('/collections/show/' + str(it['coll'])), self.colls[it['coll']])}"
            f"</p><p>Tags: {tags}</p>"
            f"<p>Output formats: {outs}</p><p>{prev_next}</p>"
        )

    def browse(self, query: str) -> str:
        pairs = parse_qsl(query, keep_blank_values=True)
        p = dict(pairs)
        base = without(pairs, "page")
        rows = list(self.items)
        if p.get("tags"):
            rows = [x for x in rows if all(t in x["tags"] for t in p["tags"].split(","))]
        if p.get("type", "").isdigit():
            rows = [x for x in rows if x["type"] == int(p["type"])]
        if p.get("collection", "").isdigit():
            rows = [x for x in rows if x["coll"] == int(p["collection"])]
        terms = p.get("advanced[0][terms]")
        if terms:
            rows = [x for x in rows if terms in (x["creator"], self.colls[x["coll"]])]
        sf = p.get("sort_field", "added")
        keyf = {
            "Dublin Core,Title": "title",
            "Dublin Core,Creator": "creator",
            "Dublin Core,Date": "date",
        }
        rows.sort(key=lambda x: x[keyf.get(sf, "id")], reverse=p.get("sort_dir", "a") == "d")
        pages = max(1, (len(rows) + 9) // 10)
        n = min(max(int(p["page"]) if p.get("page", "").isdigit() else 1, 1), pages)
        sorts = bar(
            [
                (
                    href(
                        "/items/browse",
                        setp(
                            setp(base, "sort_field", s),
                            "sort_dir",
                            "d" if s == sf and p.get("sort_dir") != "d" else "a",
                        ),
                    ),
                    s.split(",")[-1],
                )
                for s in _OM_SORTS
            ]
        )
        types = bar(
            [
                (href("/items/browse", setp(base, "type", str(t))), name)
                for t, name in _OM_TYPES.items()
            ]
        )
        colls = bar(
            [
                (href("/items/browse", setp(base, "collection", str(c))), name)
                for c, name in self.colls.items()
            ]
        )
        pager = bar(
            [
                (href("/items/browse", [*base, *([("page", str(k))] if k > 1 else [])]), str(k))
                for k in range(1, pages + 1)
            ]
        )
        outs = bar(
            [
                (href("/items/browse", [*base, ("output", o)]), o)
                for o in ("atom", "dcmes-xml", "json", "omeka-xml", "rss2")
            ]
        )
        items = "".join(
            f"<div class='item'><h3>{a(('/items/show/' + str(x['id'])), x['title'])}</h3>"
            f"<p>{esc(x['creator'])}, {x['date']}</p></div>"
            for x in rows[(n - 1) * 10 : n * 10]
        )
        heading = f"Browse Items ({len(rows)} total)"
        if p.get("tags"):
            heading = f"Items tagged {esc(p['tags'])} ({len(rows)} total)"
        return (
            f"<h1>{heading}</h1><p>Sort by: {sorts}</p><p>Item type: {types}</p>"
            f"<p>Collection: {colls}</p>"
            f"{items}<p>{pager}</p><p>Output formats: {outs}</p>"
        )


# ----------------------------------------------------------------------------------------
# A control with no traps.
# ----------------------------------------------------------------------------------------


class Control(Hosted):
    """A plain site with no traps."""

    name = "control"
    kind = "no traps: home, about, 4 sections of 7 pages, one robots-disallowed link"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/members/"]

    def setup(self) -> None:
        self.vocab = words_for("gov")
        self.secs = slugs(self.key("secs"), 4, THEMES["gov"], 1)
        self.pages = {s: slugs(self.key(f"p{s}"), 7, self.vocab, 2) for s in self.secs}
        self.reg("home", "/")
        self.reg("about", "/about.html")
        for s in self.secs:
            self.reg(f"s:{s}", f"/{s}/")
            for x in self.pages[s]:
                self.reg(f"p:{s}/{x}", f"/{s}/{x}.html")

    def handle(self, req: Req) -> Reply:
        pid = self.pid_of(req)
        if pid is None:
            return not_found()
        links: list[Link] = []
        if pid == "home":
            links = [(f"/{s}/", title_of(s)) for s in self.secs]
        elif pid.startswith("s:"):
            links = [(f"/{pid[2:]}/{x}.html", title_of(x)) for x in self.pages[pid[2:]]]
        elif pid.startswith("p:"):
            links = [(f"/{pid[2:].split('/')[0]}/", "Back to section")]
        nav = bar(
            [("/", "Home"), *[(f"/{s}/", title_of(s)) for s in self.secs], ("/about.html", "About")]
        )
        title = (
            "Westbrook Parish Council"
            if pid == "home"
            else title_of(pid.split("/")[-1].split(":")[-1])
        )
        body = (
            f"<header>{nav}</header><main><h1>{esc(title)}</h1>{prose(self, pid, self.vocab)}"
            f"{ul(links)}</main><footer>{a('/members/', 'Councillors only')}</footer>"
        )
        return self.serve(req, doc(title, body))


__all__ = ["Control", "Gitea", "Omeka", "Roundup"]
