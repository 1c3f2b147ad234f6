"""Blind7 sites, part A: a ColdFusion/Fusebox site, MantisBT, a newspaper with an m-dot
twin host, and a Blacklight library catalogue."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import ClassVar
from urllib.parse import parse_qsl

from traps.blind.kit import THEMES, Reply, Req, a, doc, not_found, redirect, slugs, title_of
from traps.blind.kit import words_for as vocab_for
from traps.blind2.common import Link, bar, esc, prose, qs, ul

from .common import Hosted, href, setp, without

# ----------------------------------------------------------------------------------------
# ColdFusion with Fusebox (`index.cfm?fuseaction=circuit.action`). The "Register",
# "Donate" and "Newsletter" buttons go through `go.cfm` (the footer ones with
# `returnto=<this address>`), whose `<cflocation addtoken="yes">` appends
# `CFID=&CFTOKEN=` to the redirect; a client without cookies gets a new client (a fresh
# CFID/CFTOKEN) on every such visit, and pages reached with them write them into every
# link (`URLSessionFormat()`), so each visit through `go.cfm` is a fresh copy of the site.
# Legit look-alikes: the real news list pages 2 and 3, the registration information page
# (`fuseaction=register.info`, no tokens), the program pages the forms belong to.
# ----------------------------------------------------------------------------------------


class ColdFusion(Hosted):
    """ColdFusion/Fusebox: cflocation addtoken=yes mints CFID/CFTOKEN, carried in links."""

    name = "coldfusion"
    kind = "ColdFusion/Fusebox: go.cfm cflocation addtoken mints CFID/CFTOKEN per visit"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/CFIDE/", "/admin/", "/cfdocs/"]

    def setup(self) -> None:
        self.vocab = vocab_for("events")
        titles = slugs(self.key("news"), 20, THEMES["events"] + THEMES["news"], 3)
        start = dt.date(2026, 11, 27)
        self.news = [
            (1041 + i, title_of(t), start - dt.timedelta(days=4 * i + i % 3))
            for i, t in enumerate(titles)
        ]
        self.programs = [
            (p, title_of(n))
            for p, n in zip(
                (12, 15, 17, 21, 22, 30),
                slugs(self.key("prog"), 6, THEMES["events"], 2),
                strict=True,
            )
        ]
        self.reg("home", "/index.cfm")
        self.reg("about", self.fa("main.about"))
        self.reg("news1", self.fa("news.list"))
        for p in (2, 3):
            self.reg(f"news{p}", self.fa("news.list", page=str(p)))
        for nid, _, _ in self.news:
            self.reg(f"n{nid}", self.fa("news.detail", newsID=str(nid)))
        self.reg("programs", self.fa("programs.list"))
        for pid, _ in self.programs:
            self.reg(f"p{pid}", self.fa("programs.detail", programID=str(pid)))
        self.reg("reginfo", self.fa("register.info"))

    def fa(self, action: str, sess: tuple[str, str] | None = None, **kw: str) -> str:
        pairs = [] if action == "main.home" else [("fuseaction", action)]
        pairs += list(kw.items())
        if sess:
            pairs += [("CFID", sess[0]), ("CFTOKEN", sess[1])]
        return href("/index.cfm", pairs)

    def handle(self, req: Req) -> Reply:
        if req.path == "/":
            return redirect("/index.cfm")
        p = qs(req.query)
        if req.path == "/go.cfm":
            dest = {
                "register": ("register.form", {"programID": p.get("programID", "12")}),
                "donate": ("donate.form", {}),
                "newsletter": ("newsletter.signup", {}),
            }.get(p.get("dest", ""))
            if dest is None:
                return not_found()
            sess = (str(3800 + self.tick()), str(10000000 + int(self.token(7, "0123456789"))))
            return redirect(self.fa(dest[0], sess, **dest[1]))
        if req.path != "/index.cfm":
            return not_found()
        sess = (p["CFID"], p.get("CFTOKEN", "")) if "CFID" in p else None
        act = p.get("fuseaction", "main.home")

        def L(action: str, **kw: str) -> str:
            return self.fa(action, sess, **kw)

        main = self.render(act, p, L)
        if main is None:
            return not_found("The requested fuseaction is not defined.")
        title, body = main
        nav = bar(
            [
                (L("main.home"), "Home"),
                (L("news.list"), "News"),
                (L("programs.list"), "Programs"),
                (L("register.info"), "Registration"),
                (L("main.about"), "About the Council"),
            ]
        )
        back = [("returnto", req.target)]
        foot = bar(
            [
                (href("/go.cfm", [("dest", "donate"), *back]), "Donate"),
                (href("/go.cfm", [("dest", "newsletter"), *back]), "Newsletter sign-up"),
                ("/admin/", "Staff login"),
            ]
        )
        page = doc(
            f"{title} | Riverside Arts Council",
            f'<div id="hdr"><b>Riverside Arts Council</b> {nav}</div>'
            f'<div id="content">{body}</div><div id="ftr">{foot}<br>'
            "&copy; 2026 Riverside Arts Council, 14 Mill Lane</div>",
        )
        return self.serve(req, page)

    def render(self, act: str, p: dict[str, str], L: Callable[..., str]) -> tuple[str, str] | None:
        pk = f"{act}:{p.get('newsID', '')}{p.get('programID', '')}{p.get('page', '')}"
        if act == "main.home":
            items = ul([(L("news.detail", newsID=str(n)), t) for n, t, _ in self.news[:5]])
            progs = ul([(L("programs.detail", programID=str(i)), t) for i, t in self.programs])
            return "Welcome", (
                f"<h1>Welcome to the Riverside Arts Council</h1>{prose(self, pk, self.vocab)}"
                f"<h2>Latest news</h2>{items}<h2>This season's programs</h2>{progs}"
            )
        if act == "main.about":
            return "About", f"<h1>About the Council</h1>{prose(self, pk, self.vocab, 200, 400)}"
        if act == "news.list":
            page = p.get("page", "1")
            if page not in ("1", "2", "3"):
                return None
            n = int(page)
            rows = self.news[(n - 1) * 8 : n * 8]
            items = "".join(
                f"<li>{d:%d %B %Y}: {a(L('news.detail', newsID=str(i)), t)}</li>"
                for i, t, d in rows
            )
            pager = bar(
                [
                    (L("news.list") if k == 1 else L("news.list", page=str(k)), str(k))
                    for k in (1, 2, 3)
                ]
            )
            return f"News (page {n})", f"<h1>News</h1><ul>{items}</ul><p>Page: {pager}</p>"
        if act == "news.detail":
            hit = [x for x in self.news if str(x[0]) == p.get("newsID")]
            if not hit:
                return None
            nid, t, d = hit[0]
            return t, (
                f"<h1>{esc(t)}</h1><p class='date'>Posted {d:%A %d %B %Y}</p>"
                f"{prose(self, f'news{nid}', self.vocab)}<p>{a(L('news.list'), 'All news')}</p>"
            )
        if act == "programs.list":
            rows = "".join(
                f"<tr><td>{a(L('programs.detail', programID=str(i)), t)}</td>"
                f"<td>{8 + i % 5} weeks</td><td>${45 + 5 * (i % 7)}</td></tr>"
                for i, t in self.programs
            )
            return "Programs", f"<h1>Programs</h1><table>{rows}</table>"
        if act == "programs.detail":
            hit = [x for x in self.programs if str(x[0]) == p.get("programID")]
            if not hit:
                return None
            i, t = hit[0]
            return t, (
                f"<h1>{esc(t)}</h1><p>Program {i}, {8 + i % 5} weekly sessions, fee "
                f"${45 + 5 * (i % 7)}.</p>{prose(self, f'prog{i}', self.vocab)}"
                f"<p>{a(f'/go.cfm?dest=register&programID={i}', 'Register now')}</p>"
            )
        if act == "register.info":
            return "Registration", (
                f"<h1>How to register</h1>{prose(self, pk, self.vocab)}"
                f"<p>Choose a program on the {a(L('programs.list'), 'programs page')}.</p>"
            )
        if act in ("register.form", "donate.form", "newsletter.signup"):
            what = {"register.form": "Program registration", "donate.form": "Make a gift"}
            t = what.get(act, "Newsletter")
            return t, (
                f"<h1>{t}</h1><p>Please complete all fields marked *.</p>"
                "<form method='post' action='index.cfm'><input name='email'></form>"
                f"<p>{a(L('programs.list'), 'Back to programs')}</p>"
            )
        return None


# ----------------------------------------------------------------------------------------
# MantisBT 2 with anonymous access. Every sort header, and every link of the summary,
# roadmap and "My View" boxes, is `view_all_set.php?...&temporary=y`, which stores a
# temporary filter under a fresh random key and redirects to
# `view_all_bug_page.php?filter=<key>`; that list's own sort and paging links carry the
# key back into `view_all_set.php`, which mints another. Issues link their printable
# view and their relationship graph.
# Legit look-alikes: the default issue list and its real page 2
# (`view_all_bug_page.php?page_number=2`), the 30 issues, changelog, roadmap, summary.
# ----------------------------------------------------------------------------------------

_M_STATUS = ["new", "feedback", "acknowledged", "confirmed", "assigned", "resolved", "closed"]
_M_SEV = ["feature", "trivial", "text", "tweak", "minor", "major", "crash", "block"]
_M_COLS = ["id", "category_id", "severity", "status", "last_updated", "summary"]


class Mantis(Hosted):
    """MantisBT: view_all_set.php redirects to a fresh temporary filter key."""

    name = "mantis"
    kind = "MantisBT 2: sort/summary links redirect to view_all_bug_page.php?filter=<fresh>"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = [
        "/login_page.php",
        "/signup_page.php",
        "/lost_pwd_page.php",
        "/csv_export.php",
        "/excel_xml_export.php",
        "/print_all_bug_page.php",
    ]

    def setup(self) -> None:
        self.vocab = vocab_for("docs")
        rng = self.rng("bugs")
        titles = slugs(self.key("t"), 30, THEMES["docs"] + THEMES["archive"], 3)
        self.cats = ["General", "Importer", "Scheduler", "Web UI"]
        self.users = ["hvogel", "amarsh", "dkowal", "pietro", "sunniva"]
        self.versions = ["1.4.0", "1.4.1", "1.5.0"]
        self.filters: dict[str, list[tuple[str, str]]] = {}
        self.bugs = []
        for i, t in enumerate(titles):
            st = rng.choice(_M_STATUS)
            ver = self.versions[i % 3]
            self.bugs.append(
                {
                    "id": 2301 + i,
                    "summary": title_of(t),
                    "cat": rng.choice(self.cats),
                    "sev": rng.choice(_M_SEV),
                    "status": st,
                    "rep": rng.choice(self.users),
                    "upd": dt.date(2026, 11, 30) - dt.timedelta(days=rng.randint(0, 200)),
                    "ver": ver,
                    "rel": rng.sample(range(2301, 2331), rng.choice((0, 0, 1, 2))),
                }
            )
        self.bugs.sort(key=lambda b: b["upd"], reverse=True)
        self.reg("home", "/my_view_page.php")
        self.reg("list1", "/view_all_bug_page.php")
        self.reg("list2", "/view_all_bug_page.php?page_number=2")
        for b in self.bugs:
            self.reg(f"b{b['id']}", f"/view.php?id={b['id']}")
        for x in ("changelog", "roadmap", "summary"):
            self.reg(x, f"/{x}_page.php")

    def setlink(self, *pairs: tuple[str, str]) -> str:
        return href("/view_all_set.php", [*pairs, ("type", "1"), ("temporary", "y")])

    def frame(self, title: str, body: str) -> str:
        nav = bar(
            [
                ("/my_view_page.php", "My View"),
                ("/view_all_bug_page.php", "View Issues"),
                ("/changelog_page.php", "Change Log"),
                ("/roadmap_page.php", "Roadmap"),
                ("/summary_page.php", "Summary"),
                ("/login_page.php", "Login"),
                ("/signup_page.php", "Signup for a new account"),
            ]
        )
        return doc(
            f"{title} - Tidewater Bug Tracker",
            f"<div class='navbar'>{nav}</div><div class='main'>{body}</div>"
            "<footer>Powered by Mantis Bug Tracker 2.26.3</footer>",
        )

    def handle(self, req: Req) -> Reply:
        p = qs(req.query)
        if req.path in ("/", "/index.php"):
            return redirect("/my_view_page.php")
        if req.path == "/view_all_set.php":
            key = self.token(32, "abcdefghijklmnopqrstuvwxyz0123456789")
            old = self.filters.get(p.get("filter", ""), [])
            new = [(k, v) for k, v in p.items() if k not in ("type", "temporary", "filter")]
            merged = [(k, v) for k, v in old if k not in dict(new)] + new
            with self._lock:
                self.filters[key] = merged
            return redirect(f"/view_all_bug_page.php?filter={key}")
        if req.path == "/view_all_bug_page.php":
            return self.serve(req, self.frame("View Issues", self.listing(p)))
        if req.path == "/view.php":
            b = self.bug(p.get("id", ""))
            return self.serve(req, self.frame(b["summary"], self.issue(b))) if b else not_found()
        if req.path == "/print_bug_page.php":
            b = self.bug(p.get("bug_id", ""))
            if not b:
                return not_found()
            return self.serve(req, doc(f"{b['id']:07d}: {b['summary']}", self.issue(b, True)))
        if req.path == "/bug_relationship_graph.php":
            b = self.bug(p.get("bug_id", ""))
            if not b:
                return not_found()
            g = p.get("graph", "relation")
            other = "dependency" if g == "relation" else "relation"
            nodes = [b["id"], *b["rel"]]
            body = (
                f"<h2>Relationship graph ({g}) for {b['id']:07d}</h2>"
                + ul(
                    [
                        (f"/bug_relationship_graph.php?bug_id={n}&graph={g}", f"{n:07d}")
                        for n in nodes
                    ]
                )
                + ul(
                    [
                        (f"/bug_relationship_graph.php?bug_id={b['id']}&graph={other}", other),
                        (f"/view.php?id={b['id']}", "View Issue"),
                    ]
                )
            )
            return self.serve(req, self.frame("Relationship graph", body))
        page = req.path.strip("/").removesuffix("_page.php")
        if page in ("my_view", "changelog", "roadmap", "summary"):
            return self.serve(req, self.frame(title_of(page), getattr(self, f"p_{page}")()))
        return not_found()

    def bug(self, sid: str) -> dict | None:
        return next((b for b in self.bugs if str(b["id"]) == sid), None)

    def listing(self, p: dict[str, str]) -> str:
        key = p.get("filter")
        crit = self.filters.get(key or "", [])
        c = dict(crit)
        rows = [
            b
            for b in self.bugs
            if all(
                c.get(f"show_{f}", b[f2]) == b[f2]
                for f, f2 in (("status", "status"), ("category", "cat"))
            )
            and c.get("fixed_in_version", b["ver"]) == b["ver"]
        ]
        col = c.get("sort", "last_updated")
        desc = c.get("dir", "DESC") == "DESC"
        field = {"id": "id", "category_id": "cat", "severity": "sev", "status": "status"}
        field |= {"summary": "summary", "last_updated": "upd"}
        rows.sort(key=lambda b: b[field[col]], reverse=desc)
        pages = max(1, (len(rows) + 19) // 20)
        pn = p.get("page_number", "1")
        n = min(max(int(pn) if pn.isdigit() else 1, 1), pages)
        heads = "".join(
            "<th>"
            + a(
                href(
                    "/view_all_set.php",
                    [
                        ("sort", k),
                        ("dir", "ASC" if k == col and desc else "DESC"),
                        ("type", "2"),
                        *([("filter", key)] if key else []),
                    ],
                ),
                title_of(k.replace("_id", "")),
            )
            + "</th>"
            for k in _M_COLS
        )
        body = "".join(
            f"<tr><td>{a('/view.php?id=' + str(b['id']), format(b['id'], '07d'))}</td>"
            f"<td>{b['cat']}</td>"
            f"<td>{b['sev']}</td><td>{b['status']}</td><td>{b['upd']}</td>"
            f"<td>{esc(b['summary'])}</td></tr>"
            for b in rows[(n - 1) * 20 : n * 20]
        )
        pager = " ".join(
            a(href("/view_all_bug_page.php", [("page_number", str(k)), ("filter", key)]), str(k))
            for k in range(1, pages + 1)
        )
        return (
            f"<h2>Viewing Issues ({(n - 1) * 20 + 1} - {min(n * 20, len(rows))} / {len(rows)})"
            f"</h2><p>[ {pager} ]</p><table><tr>{heads}</tr>{body}</table>"
            f"<p>{a('/print_all_bug_page.php', 'Print Reports')} | "
            f"{a('/csv_export.php', 'CSV Export')} | "
            f"{a('/excel_xml_export.php', 'Excel Export')}</p>"
        )

    def issue(self, b: dict, printable: bool = False) -> str:
        rel = ", ".join(a(f"/view.php?id={r}", f"{r:07d}") for r in b["rel"]) or "none"
        notes = prose(self, f"bug{b['id']}", self.vocab, 80, 220)
        tools = (
            ""
            if printable
            else ul(
                [(f"/print_bug_page.php?bug_id={b['id']}", "Print")]
                + (
                    [(f"/bug_relationship_graph.php?bug_id={b['id']}&graph=relation", "Graph")]
                    if b["rel"]
                    else []
                )
            )
        )
        return (
            f"<h2>{b['id']:07d}: {esc(b['summary'])}</h2><table>"
            f"<tr><th>Category</th><td>{b['cat']}</td><th>Severity</th><td>{b['sev']}</td></tr>"
            f"<tr><th>Reporter</th><td>{b['rep']}</td><th>Status</th><td>{b['status']}</td></tr>"
            f"<tr><th>Target Version</th><td>{b['ver']}</td><th>Updated</th><td>{b['upd']}</td>"
            f"</tr><tr><th>Related</th><td colspan=3>{rel}</td></tr></table>"
            f"<h3>Description</h3>{notes}{tools}"
        )

    def p_my_view(self) -> str:
        boxes = []
        for st in ("new", "feedback", "resolved"):
            mine = [b for b in self.bugs if b["status"] == st][:5]
            boxes.append(
                f"<h3>{a(self.setlink(('show_status', st)), title_of(st))}</h3>"
                + ul([(f"/view.php?id={b['id']}", b["summary"]) for b in mine])
            )
        recent = ul([(f"/view.php?id={b['id']}", b["summary"]) for b in self.bugs[:6]])
        return (
            "<h2>My View (anonymous)</h2>"
            f"<h3>{a(self.setlink(('sort', 'last_updated')), 'Recently Modified')}"
            f"</h3>{recent}" + "".join(boxes)
        )

    def p_changelog(self) -> str:
        out = ["<h2>Change Log</h2>"]
        for v in self.versions[:2]:
            done = [b for b in self.bugs if b["ver"] == v and b["status"] in ("resolved", "closed")]
            out.append(
                f"<h3>Tidewater - {v} "
                f"({a(self.setlink(('fixed_in_version', v)), 'View Issues')})</h3>"
                + ul([(f"/view.php?id={b['id']}", f"{b['id']:07d}: {b['summary']}") for b in done])
            )
        return "".join(out)

    def p_roadmap(self) -> str:
        out = ["<h2>Roadmap</h2>"]
        for v in self.versions:
            mine = [b for b in self.bugs if b["ver"] == v]
            closed = sum(b["status"] in ("resolved", "closed") for b in mine)
            out.append(
                f"<h3>Tidewater - {v}</h3><p>{closed} of {len(mine)} issue(s) resolved. "
                f"{a(self.setlink(('fixed_in_version', v)), 'View Issues')}</p>"
                + ul([(f"/view.php?id={b['id']}", b["summary"]) for b in mine])
            )
        return "".join(out)

    def p_summary(self) -> str:
        rows = []
        for st in _M_STATUS:
            n = sum(b["status"] == st for b in self.bugs)
            rows.append(f"<tr><td>{a(self.setlink(('show_status', st)), st)}</td><td>{n}</td></tr>")
        for c in self.cats:
            n = sum(b["cat"] == c for b in self.bugs)
            rows.append(f"<tr><td>{a(self.setlink(('show_category', c)), c)}</td><td>{n}</td></tr>")
        return f"<h2>Summary</h2><table>{''.join(rows)}</table>"


# ----------------------------------------------------------------------------------------
# A newspaper with an m-dot twin (`m.` host). Every desktop page names its mobile twin
# (`<link rel="alternate" media=...>` and a "Mobile edition" link); the mobile host
# serves every desktop path in its own layout, and its section fronts have a "More
# stories" button (`?page=N`) that never runs out (the list is refilled from the
# archive); mobile articles link "Full site" as `?nomobile=1`, which the desktop host
# answers with the page itself (setting a cookie).
# Legit look-alikes: the desktop section fronts' real page 2 (`/news/page/2/`), the
# mobile front page and the mobile app page, which exist only on the mobile host.
# ----------------------------------------------------------------------------------------

_SECTIONS = ["news", "sport", "business", "opinion"]


class MDot(Hosted):
    """A newspaper with an m-dot twin host, endless mobile 'More stories'."""

    name = "mdot"
    kind = "newspaper + m-dot twin host: copies of every page, endless ?page= More stories"
    hosts = 2
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/"), (1, "/")]
    robots_disallow: ClassVar[list[str]] = ["/search", "/account/", "/newsletters/manage"]

    def setup(self) -> None:
        self.vocab = vocab_for("news")
        self.arts: dict[str, list[tuple[str, str, dt.date]]] = {}
        d = dt.date(2026, 11, 30)
        for si, s in enumerate(_SECTIONS):
            rows = []
            for i, t in enumerate(slugs(self.key(s), 6, THEMES["news"] + self.vocab[:200], 3)):
                day = d - dt.timedelta(days=3 * i + si)
                rows.append((t, title_of(t), day))
            self.arts[s] = rows
        self.reg("home", "/")
        self.reg("about", "/about/")
        for s in _SECTIONS:
            self.reg(f"s:{s}", f"/{s}/")
            self.reg(f"s2:{s}", f"/{s}/page/2/")
            for t, _, day in self.arts[s]:
                self.reg(f"a:{s}:{t}", self.art_path(s, t, day))
        self.reg("m:home", "/", 1)
        self.reg("m:app", "/app/", 1)

    def art_path(self, s: str, t: str, day: dt.date) -> str:
        return f"/{s}/{day:%Y/%m}/{t}/"

    def find(self, path: str) -> tuple[str, ...] | None:
        parts = [x for x in path.split("/") if x]
        if not parts:
            return ("home",)
        if parts == ["about"]:
            return ("about",)
        s = parts[0]
        if s not in self.arts:
            return None
        if len(parts) == 1:
            return ("section", s, "1")
        if len(parts) == 3 and parts[1] == "page" and parts[2] == "2":
            return ("section", s, "2")
        for t, _, day in self.arts[s]:
            if path == self.art_path(s, t, day):
                return ("article", s, t)
        return None

    def handle(self, req: Req) -> Reply:
        if req.host_index == 1:
            return self.mobile(req)
        what = self.find(req.path)
        if what is None:
            return not_found()
        m = self.url(1, req.path)
        head = f'<link rel="alternate" media="only screen and (max-width: 640px)" href="{m}">'
        nav = bar([("/", "Home"), *[(f"/{s}/", title_of(s)) for s in _SECTIONS]])
        body = self.content(what, mobile=False)
        page = doc(
            f"{body[0]} | The Lakeside Courier",
            f"<header><b>The Lakeside Courier</b> {nav} | {a('/search', 'Search')} | "
            f"{a('/account/login', 'Sign in')}</header><main>{body[1]}</main><footer>"
            f"{a('/about/', 'About us')} | {a(m, 'Mobile edition')} | "
            f"{a('/newsletters/manage', 'Newsletters')}</footer>",
            head=head,
        )
        rep = self.serve(req, page)
        if "nomobile" in req.query:
            rep.headers["Set-Cookie"] = "nomobile=1; Path=/"
        return rep

    def content(self, what: tuple[str, ...], mobile: bool) -> tuple[str, str]:
        kind = what[0]
        if kind == "home":
            tops = [
                (self.art_path(s, *self.arts[s][0][::2]), self.arts[s][0][1]) for s in _SECTIONS
            ]
            more = [
                (self.art_path(s, t, d), ti) for s in _SECTIONS for t, ti, d in self.arts[s][1:3]
            ]
            return "Home", (
                f"<h1>Today's front page</h1>{prose(self, 'front', self.vocab, 60, 120)}"
                f"<h2>Top stories</h2>{ul(tops)}<h2>More headlines</h2>{ul(more)}"
            )
        if kind == "about":
            return "About us", f"<h1>About the Courier</h1>{prose(self, 'about', self.vocab)}"
        if kind == "section":
            s, n = what[1], int(what[2])
            rows = self.arts[s][(n - 1) * 4 : n * 4]
            items = "".join(
                f"<li>{a(self.art_path(s, t, d), ti)} <small>{d:%d %b %Y}</small></li>"
                for t, ti, d in rows
            )
            if mobile:
                return title_of(s), f"<h1>{title_of(s)}</h1><ul>{items}</ul>"
            pager = a(f"/{s}/page/2/", "Older stories") if n == 1 else a(f"/{s}/", "Newer")
            intro = prose(self, f"sec{s}{n}", self.vocab, 40, 90)
            return (
                f"{title_of(s)} (page {n})",
                f"<h1>{title_of(s)}</h1>{intro}<ul>{items}</ul>{pager}",
            )
        s, t = what[1], what[2]
        ti, d = next((x[1], x[2]) for x in self.arts[s] if x[0] == t)
        related = [(self.art_path(s, x[0], x[2]), x[1]) for x in self.arts[s] if x[0] != t][:3]
        return ti, (
            f"<article><h1>{esc(ti)}</h1><p class='byline'>{d:%A %d %B %Y}, "
            f"{title_of(s)} desk</p>{prose(self, f'art{s}{t}', self.vocab, 220, 420)}</article>"
            f"<h3>Related</h3>{ul(related)}<p>{a(f'/{s}/', 'More in ' + title_of(s))}</p>"
        )

    def mobile(self, req: Req) -> Reply:
        wpath = req.path if self.find(req.path) else "/"
        full = self.url(0, wpath + "?nomobile=1")
        foot = f"<footer>{a('/app/', 'Get the app')} | {a(full, 'Full site')}</footer>"
        nav = bar([("/", "Top"), *[(f"/{s}/", title_of(s)) for s in _SECTIONS]], " · ")
        if req.path == "/":
            latest = sorted(
                ((d, s, t, ti) for s in _SECTIONS for t, ti, d in self.arts[s]), reverse=True
            )[:8]
            items = ul([(self.art_path(s, t, d), ti) for d, s, t, ti in latest])
            body = (
                f"<h1>Courier Mobile: latest</h1>{prose(self, 'mfront', self.vocab, 40, 80)}{items}"
            )
            title = "Courier Mobile"
        elif req.path == "/app/":
            title = "The Courier app"
            body = f"<h1>Get the Courier app</h1>{prose(self, 'mapp', self.vocab, 90, 160)}"
        else:
            what = self.find(req.path)
            if what is None:
                return not_found()
            title, body = self.content(what, mobile=True)
            if what[0] == "section":
                n = int(qs(req.query).get("page", "1") or 1)
                pool = [
                    (self.art_path(s, t, d), ti) for s in _SECTIONS for t, ti, d in self.arts[s]
                ]
                k = (n * 5) % len(pool)
                extra = ul((pool[k:] + pool[:k])[:5]) if n > 1 else ""
                body += extra + a(f"{req.path}?page={n + 1}", "More stories")
        page = doc(f"{title} - Courier Mobile", f"<nav>{nav}</nav>{body}{foot}")
        page = page.replace("<head>", f'<head><link rel="canonical" href="{self.url(0, wpath)}">')
        return self.serve(req, page)


# ----------------------------------------------------------------------------------------
# Blacklight 7 (a Rails front end to Solr) as a library catalogue. Results pages list
# facets (format, language, subject) whose links append `f[field][]=value` to the
# current search; the publication-date range facet (blacklight_range_limit) offers
# sub-ranges `range[pub_date_si][begin]=&[end]=`; sort, `per_page` and `view`
# (list|gallery|masonry|slideshow) switches keep everything, and so does paging.
# Records link their citation, librarian view, email and SMS tools.
# Legit look-alikes: "everything" and its real pages 2 and 3, the single-format and
# single-subject pages linked from the home page and records, the records themselves.
# ----------------------------------------------------------------------------------------

_BL_FMT = ["Book", "Journal", "Map", "Sound Recording"]
_BL_LANG = ["English", "French", "German", "Welsh"]
_BL_F = {"format": "Format", "language_ssim": "Language", "subject_ssim": "Subject"}


def _fkey(field: str) -> str:
    return f"f[{field}][]"


class Blacklight(Hosted):
    """Blacklight catalogue: f[..][]= facets, range limits, sort/per_page/view switches."""

    name = "blacklight"
    kind = "Blacklight 7: f[field][]= facets stacking, range[] sub-ranges, sort/per_page/view"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = [
        "/bookmarks",
        "/saved_searches",
        "/search_history",
        "/users/",
    ]

    def setup(self) -> None:
        self.vocab = vocab_for("books")
        rng = self.rng("recs")
        self.subjects = [title_of(s) for s in slugs(self.key("subj"), 8, THEMES["science"], 1)]
        titles = slugs(self.key("titles"), 30, THEMES["books"] + THEMES["travel"], 3)
        authors = [
            title_of(s).replace(" ", ", ", 1)
            for s in slugs(self.key("au"), 12, THEMES["travel"], 2)
        ]
        self.recs = []
        for i, t in enumerate(titles):
            self.recs.append(
                {
                    "id": f"in{20450 + 37 * i:08d}",
                    "title": title_of(t),
                    "author": rng.choice(authors),
                    "format": _BL_FMT[i % 4] if i % 5 else "Book",
                    "language_ssim": rng.choice(_BL_LANG),
                    "subject_ssim": rng.sample(self.subjects, 2),
                    "year": rng.randint(1890, 2024),
                }
            )
        self.reg("home", "/")
        self.reg("about", "/about")
        every = [("q", ""), ("search_field", "all_fields")]
        self.reg("all1", href("/catalog", every))
        for n in (2, 3):
            self.reg(f"all{n}", href("/catalog", [*every, ("page", str(n))]))
        for f in _BL_FMT:
            self.reg(f"fmt:{f}", href("/catalog", [(_fkey("format"), f)]))
        for s in self.subjects:
            self.reg(f"subj:{s}", href("/catalog", [(_fkey("subject_ssim"), s)]))
        for r in self.recs:
            self.reg(f"r:{r['id']}", f"/catalog/{r['id']}")

    def frame(self, title: str, body: str) -> str:
        nav = bar(
            [
                ("/", "Harbour University Library"),
                ("/bookmarks", "Bookmarks"),
                ("/search_history", "History"),
                ("/users/sign_in", "Login"),
                ("/about", "About the catalogue"),
            ]
        )
        return doc(f"{title} - Harbour University Library Catalog", f"<nav>{nav}</nav>{body}")

    def handle(self, req: Req) -> Reply:
        if req.path == "/":
            facets = "".join(
                f"<h3>{_BL_F[f]}</h3>" + ul([(href("/catalog", [(_fkey(f), v)]), v) for v in vals])
                for f, vals in (("format", _BL_FMT), ("subject_ssim", self.subjects))
            )
            body = (
                f"<h1>Welcome!</h1>{prose(self, 'welcome', self.vocab, 60, 120)}"
                f"<p>{a('/catalog?q=&search_field=all_fields', 'Browse everything')}</p>{facets}"
            )
            return self.serve(req, self.frame("Home", body))
        if req.path == "/about":
            return self.serve(
                req, self.frame("About", f"<h1>About</h1>{prose(self, 'about', self.vocab)}")
            )
        if req.path == "/catalog":
            return self.serve(req, self.frame("Search Results", self.results(req.query)))
        parts = req.path.split("/")
        if len(parts) >= 3 and parts[1] == "catalog":
            r = next((x for x in self.recs if x["id"] == parts[2]), None)
            if r is None or len(parts) > 4:
                return not_found()
            tool = parts[3] if len(parts) == 4 else ""
            if tool not in ("", "citation", "librarian_view", "email", "sms"):
                return not_found()
            return self.serve(req, self.frame(r["title"], self.record(r, tool)))
        return not_found()

    def record(self, r: dict, tool: str) -> str:
        subj = ", ".join(
            a(href("/catalog", [(_fkey("subject_ssim"), s)]), s) for s in r["subject_ssim"]
        )
        author = a(
            href("/catalog", [("q", f'"{r["author"]}"'), ("search_field", "author")]), r["author"]
        )
        fmt = a(href("/catalog", [(_fkey("format"), r["format"])]), r["format"])
        tools = ul(
            [
                (f"/catalog/{r['id']}/{t}", title_of(t))
                for t in ("citation", "email", "sms", "librarian_view")
            ]
        )
        head = f"<h1>{esc(r['title'])}</h1>"
        if tool == "citation":
            return head + f"<p>{esc(r['author'])}. <i>{esc(r['title'])}</i>. {r['year']}.</p>"
        if tool in ("email", "sms"):
            return head + f"<p>Send this record by {tool}.</p><form method='post'></form>"
        if tool == "librarian_view":
            return (
                head
                + f"<pre>LEADER 00000nam a2200000 a 4500\n008 {r['year']}\n"
                + f"100 1_ $a {esc(r['author'])}</pre>"
            )
        return (
            f"{head}<dl><dt>Author</dt><dd>{author}</dd><dt>Format</dt><dd>{fmt}</dd>"
            f"<dt>Language</dt><dd>{r['language_ssim']}</dd><dt>Published</dt><dd>{r['year']}</dd>"
            f"<dt>Subjects</dt><dd>{subj}</dd></dl>{prose(self, r['id'], self.vocab, 60, 160)}"
            f"{tools}<p>{a('/catalog', 'Start Over')}</p>"
        )

    def results(self, query: str) -> str:
        pairs = parse_qsl(query, keep_blank_values=True)
        base = without(pairs, "page")
        sel = {f: [v for k, v in pairs if k == _fkey(f)] for f in _BL_F}
        begin = next(
            (int(v) for k, v in pairs if k == "range[pub_date_si][begin]" and v.isdigit()), 1890
        )
        end = next(
            (int(v) for k, v in pairs if k == "range[pub_date_si][end]" and v.isdigit()), 2024
        )
        q = dict(pairs).get("q", "").strip('"')
        hits = []
        for r in self.recs:
            vals = {
                "format": [r["format"]],
                "language_ssim": [r["language_ssim"]],
                "subject_ssim": r["subject_ssim"],
            }
            in_facets = all(all(v in vals[f] for v in sel[f]) for f in _BL_F)
            in_q = not q or q.lower() in (r["author"] + " " + r["title"]).lower()
            if in_facets and in_q and begin <= r["year"] <= end:
                hits.append(r)
        sort = dict(pairs).get("sort", "score desc")
        if sort.startswith("pub_date"):
            hits.sort(key=lambda r: -r["year"])
        elif sort.startswith("title"):
            hits.sort(key=lambda r: r["title"])
        per = (
            int(dict(pairs).get("per_page", "10") or 10)
            if dict(pairs).get("per_page", "10").isdigit()
            else 10
        )
        per = per if per in (10, 20, 50, 100) else 10
        pages = max(1, (len(hits) + per - 1) // per)
        n = int(dict(pairs).get("page", "1")) if dict(pairs).get("page", "1").isdigit() else 1
        n = min(max(n, 1), pages)
        facets = []
        for f, label in _BL_F.items():
            counts: dict[str, int] = {}
            for r in hits:
                vs = r[f] if isinstance(r[f], list) else [r[f]]
                for v in vs:
                    counts[v] = counts.get(v, 0) + 1
            lis = "".join(
                f"<li>{a(href('/catalog', [*base, (_fkey(f), v)]), v)} {c}</li>"
                for v, c in sorted(counts.items())
                if v not in sel[f]
            )
            facets.append(f"<h3>{label}</h3><ul>{lis}</ul>")
        span = max(1, (end - begin + 1) // 4)
        rng_links = []
        for k in range(4):
            b0 = begin + k * span
            e0 = end if k == 3 else b0 + span - 1
            if b0 <= e0 and (b0, e0) != (begin, end):
                rp = [(k2, v) for k2, v in base if not k2.startswith("range[")]
                rp += [("range[pub_date_si][begin]", str(b0)), ("range[pub_date_si][end]", str(e0))]
                rng_links.append((href("/catalog", rp), f"{b0} to {e0}"))
        facets.append(f"<h3>Publication Year</h3>{ul(rng_links)}")
        sorts = bar(
            [
                (href("/catalog", setp(base, "sort", s)), s)
                for s in ("score desc", "pub_date_si desc", "title_si asc", "author_si asc")
            ]
        )
        pers = bar(
            [(href("/catalog", setp(base, "per_page", str(k))), str(k)) for k in (10, 20, 50, 100)]
        )
        views = bar(
            [
                (href("/catalog", setp(base, "view", v)), v)
                for v in ("list", "gallery", "masonry", "slideshow")
            ]
        )
        pager = bar(
            [(href("/catalog", [*base, ("page", str(k))]), str(k)) for k in range(1, pages + 1)]
        )
        docs = "".join(
            f"<li>{a('/catalog/' + r['id'], r['title'])} <small>{esc(r['author'])}, {r['year']}"
            "</small></li>"
            for r in hits[(n - 1) * per : n * per]
        )
        cons = " ".join(
            f"<span class='constraint'>{_BL_F[f]}: {esc(v)}</span>" for f in _BL_F for v in sel[f]
        )
        return (
            f"<h1>Search Results</h1><p>{cons}</p><div id='sidebar'>{''.join(facets)}</div>"
            f"<p>Sort by: {sorts}</p><p>Per page: {pers}</p><p>View: {views}</p>"
            f"<p>{len(hits)} results, page {n} of {pages}</p><ol>{docs}</ol><p>{pager}</p>"
        )


__all__ = ["Blacklight", "ColdFusion", "Link", "MDot", "Mantis"]
