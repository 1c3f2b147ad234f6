"""Blind3 sites, part A: Jenkins, Discourse, Bugzilla, Confluence."""

from __future__ import annotations

from typing import ClassVar
from urllib.parse import quote, quote_plus, unquote_plus

from traps.blind.kit import (
    THEMES,
    Reply,
    Req,
    Site,
    a,
    doc,
    not_found,
    slugs,
    title_of,
    words_for,
)
from traps.blind2.common import Link, bar, esc, prose, qlist, qs, trap, ul

# ----------------------------------------------------------------------------------------
# Jenkins: every job page lists its permalinks (lastBuild/, lastSuccessfulBuild/, ...), each
# an alias of a numbered build; build pages link "Previous Build"/"Next Build" as the
# Stapler-resolved relative `previousBuild/` and `nextBuild/`, so chains like
# `/job/x/lastBuild/previousBuild/nextBuild/previousBuild/` resolve without end; the old
# "ENABLE AUTO REFRESH" link adds `?auto_refresh=true` to any page.
# Legit look-alikes: the numbered builds `/job/x/N/` and their `console` pages.
# ----------------------------------------------------------------------------------------

_PERMALINKS = {
    "lastBuild": "Last build",
    "lastStableBuild": "Last stable build",
    "lastSuccessfulBuild": "Last successful build",
    "lastFailedBuild": "Last failed build",
    "lastUnsuccessfulBuild": "Last unsuccessful build",
    "lastCompletedBuild": "Last completed build",
}


class Jenkins(Site):
    """A Jenkins server: permalinks, previousBuild/nextBuild chains, auto_refresh."""

    name = "jenkins"
    kind = "Jenkins: lastBuild/ permalinks, previousBuild/nextBuild/ chains, ?auto_refresh="
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/login", "/computer/", "/asynchPeople/", "/manage"]

    def build(self) -> None:
        self.vocab = words_for("archive")
        self.jobs = slugs(self.key("jobs"), 3, THEMES["archive"], 2)
        rng = self.rng("builds")
        self.builds: dict[str, list[int]] = {}
        self.result: dict[tuple[str, int], str] = {}
        for j in self.jobs:
            last = rng.randint(80, 400)
            self.builds[j] = list(range(last - 6, last + 1))  # older builds discarded
            for n in self.builds[j]:
                self.result[(j, n)] = rng.choice(["SUCCESS"] * 4 + ["FAILURE", "UNSTABLE"])
            self.result[(j, last - 2)] = "FAILURE"
            self.result[(j, last - 4)] = "SUCCESS"
        self.legit = {"dash"}
        for j in self.jobs:
            self.legit |= {f"job:{j}", f"changes:{j}"}
            self.legit |= {f"b:{j}:{n}" for n in self.builds[j]}
            self.legit |= {f"con:{j}:{n}" for n in self.builds[j]}

    def robots_txt(self, req: Req) -> str:
        return '# we don\'t want robots to click "build" links\n' + super().robots_txt(req)

    def permalink(self, j: str, name: str) -> int | None:
        ns = self.builds[j]
        r = self.result
        picks = {
            "lastBuild": ns,
            "lastCompletedBuild": ns,
            "lastStableBuild": [n for n in ns if r[(j, n)] == "SUCCESS"],
            "lastSuccessfulBuild": [n for n in ns if r[(j, n)] != "FAILURE"],
            "lastFailedBuild": [n for n in ns if r[(j, n)] == "FAILURE"],
            "lastUnsuccessfulBuild": [n for n in ns if r[(j, n)] != "SUCCESS"],
        }[name]
        return picks[-1] if picks else None

    def shell(self, title: str, side: list[Link], main: str, path: str, query: str) -> str:
        refresh = "false" if "auto_refresh=true" in query else "true"
        label = "DISABLE AUTO REFRESH" if refresh == "false" else "ENABLE AUTO REFRESH"
        trail: list[Link] = [("/", "Jenkins")]
        if path.startswith("/job/"):
            j = path.split("/")[2]
            trail.append((f"/job/{j}/", j))
        crumbs = bar(trail, " &raquo; ")
        body = (
            f'<div id="header"><a href="/">Jenkins</a> '
            f"{a('/login?from=' + quote(path, safe=''), 'log in')}</div>"
            f'<div id="breadcrumbs">{crumbs}</div>'
            f'<div id="side-panel">{ul(side)}'
            f"{a('/computer/', 'Build Executor Status')}</div>"
            f'<div id="main-panel"><p>{a(f"{path}?auto_refresh={refresh}", label)}</p>'
            f"<h1>{esc(title)}</h1>{main}</div>"
            "<footer>Page generated. REST API. Jenkins ver. 2.401.3</footer>"
        )
        return doc(f"{title} [Jenkins]", body)

    def dashboard(self, req: Req) -> str:
        rows = []
        for j in self.jobs:
            last = self.builds[j][-1]
            rows.append(
                f"<tr><td>{a(f'/job/{j}/', j)}</td><td>{self.result[(j, last)]}</td>"
                f"<td>{a(f'/job/{j}/lastSuccessfulBuild/', 'Last Success')}</td>"
                f"<td>{a(f'/job/{j}/lastFailedBuild/', 'Last Failure')}</td></tr>"
            )
        side = [("/view/all/newJob", "New Item"), ("/asynchPeople/", "People")]
        main = prose(self, "dash", self.vocab, 60, 120) + "<table>" + "".join(rows) + "</table>"
        return self.shell("Dashboard", side, main, "/", req.query)

    def job_page(self, j: str, req: Req) -> str:
        hist = "".join(
            f"<li>{a(f'/job/{j}/{n}/', f'#{n}')} {self.result[(j, n)]} "
            f"{a(f'/job/{j}/{n}/console', 'console')}</li>"
            for n in reversed(self.builds[j])
        )
        perma = "".join(
            f"<li>{a(f'/job/{j}/{k}/', f'{v} (#{self.permalink(j, k)})')}</li>"
            for k, v in _PERMALINKS.items()
            if self.permalink(j, k) is not None
        )
        side = [
            ("/", "Back to Dashboard"),
            (f"/job/{j}/", "Status"),
            (f"/job/{j}/changes", "Changes"),
            (f"/job/{j}/build?delay=0sec", "Build Now"),
        ]
        main = (
            prose(self, f"job:{j}", self.vocab, 80, 160)
            + f"<h2>Permalinks</h2><ul>{perma}</ul>"
            + f'<div id="buildHistory"><h2>Build History</h2><ul>{hist}</ul></div>'
        )
        return self.shell(f"Project {j}", side, main, f"/job/{j}/", req.query)

    def build_page(self, j: str, n: int, console: bool, req: Req) -> str:
        ns = self.builds[j]
        side = [("../", "Back to Project"), ("./", "Status"), ("console", "Console Output")]
        if n > ns[0]:
            side.append(("previousBuild/", "Previous Build"))
        if n < ns[-1]:
            side.append(("nextBuild/", "Next Build"))
        res = self.result[(j, n)]
        if console:
            lines = "\n".join(
                f"[INFO] {w}" for w in prose(self, f"con:{j}:{n}", self.vocab, 60, 140).split(". ")
            )
            main = f"<pre>Started by an SCM change\nBuilding in workspace\n{lines}\n"
            main += f"Finished: {res}</pre>"
            title = f"{j} #{n} Console"
        else:
            main = (
                f"<p>Build #{n} finished: {res}</p><h2>Changes</h2>"
                + prose(self, f"b:{j}:{n}", self.vocab, 40, 90)
                + f"<p>Started by an SCM change. Took {7 + n % 13} min.</p>"
            )
            title = f"{j} #{n}"
        return self.shell(title, side, main, req.path, req.query)

    def handle(self, req: Req) -> Reply:
        p = req.path
        if p == "/":
            body = self.dashboard(req)
            return trap(body) if req.query else self.legit_page("dash", body)
        parts = p.split("/")
        if len(parts) < 3 or parts[1] != "job" or parts[2] not in self.jobs:
            return not_found()
        j = parts[2]
        rest = parts[3:]
        if rest == [""]:
            body = self.job_page(j, req)
            return trap(body) if req.query else self.legit_page(f"job:{j}", body)
        if rest == ["changes"]:
            items = "".join(
                f"<h3>{a(f'/job/{j}/{n}/', f'#{n}')}</h3>"
                + prose(self, f"b:{j}:{n}", self.vocab, 40, 90).split("</p>")[0]
                + "</p>"
                for n in reversed(self.builds[j])
            )
            body = self.shell(
                f"Changes of {j}", [(f"/job/{j}/", "Back to Project")], items, p, req.query
            )
            return trap(body) if req.query else self.legit_page(f"changes:{j}", body)
        if rest and rest[0] == "build":
            return Reply("Method Not Allowed: POST required", "other", None, 405, "text/plain")
        # a build: a number or a permalink, then previousBuild/nextBuild steps, then a view
        if not rest:
            return not_found()
        head = rest[0]
        if head.isdigit():
            n: int | None = int(head)
        elif head in _PERMALINKS:
            n = self.permalink(j, head)
        else:
            return not_found()
        steps = rest[1:]
        view = ""
        if steps and steps[-1] in ("", "console"):
            view = steps.pop()
        else:
            return not_found()
        for s in steps:
            if n is None or s not in ("previousBuild", "nextBuild"):
                return not_found()
            n += -1 if s == "previousBuild" else 1
        if n is None or n not in self.builds[j]:
            return not_found("No such build")
        body = self.build_page(j, n, view == "console", req)
        canonical = head.isdigit() and not steps and not req.query
        if not canonical:
            return trap(body)
        pid = f"con:{j}:{n}" if view == "console" else f"b:{j}:{n}"
        return self.legit_page(pid, body)


# ----------------------------------------------------------------------------------------
# Discourse (crawler view): every post's date is a permalink `/t/slug/id/N` and its share
# link adds `?u=<user>`; topics are also linked as `/t/id` and `/t/slug/id/last`; the
# topic list's column headers sort (`?order=&ascending=`), and the last list page still
# shows "next page" (a stale topic count), whose empty page links the next one again.
# Legit look-alikes: the real `/latest?page=1..2`, topics' real `?page=2`.
# ----------------------------------------------------------------------------------------


class Discourse(Site):
    """A Discourse forum's no-JS crawler view."""

    name = "discourse"
    kind = "Discourse: /t/slug/id/N post URLs, ?u= share refs, list sorts, ?page= past the end"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = [
        "/admin/",
        "/auth/",
        "/email/",
        "/session",
        "/user-api-key",
        "/*?api_key*",
        "/badges",
        "/u/",
        "/my",
        "/search",
        "/g",
        "/t/*/*.rss",
        "/c/*.rss",
    ]
    per_list = 12
    per_topic = 20

    def build(self) -> None:
        self.vocab = words_for("forum")
        self.slugs = slugs(self.key("topics"), 30, self.vocab, 3)
        self.cats = slugs(self.key("cats"), 5, THEMES["forum"], 1)
        self.users = slugs(self.key("users"), 9, THEMES["forum"] + THEMES["travel"], 1)
        rng = self.rng("posts")
        self.tid = {s: 140 + 7 * i for i, s in enumerate(self.slugs)}
        self.nposts = {s: rng.choice([3, 5, 8, 12, 17, 24, 26, 31]) for s in self.slugs}
        self.cat_of = {s: self.cats[i % 5] for i, s in enumerate(self.slugs)}
        self.cid = {c: 4 + i for i, c in enumerate(self.cats)}
        self.order = list(reversed(self.slugs))
        self.list_pages = (len(self.order) + self.per_list - 1) // self.per_list
        self.legit = {"categories"} | {f"latest:{k}" for k in range(self.list_pages)}
        self.legit |= {f"c:{c}" for c in self.cats}
        for s in self.slugs:
            for pg in range(1, self.tpages(s) + 1):
                self.legit.add(f"t:{s}:{pg}")

    def tpages(self, s: str) -> int:
        return (self.nposts[s] + self.per_topic - 1) // self.per_topic

    def turl(self, s: str) -> str:
        return f"/t/{s}/{self.tid[s]}"

    def shell(self, title: str, main: str, canonical: str | None = None) -> str:
        head = bar([("/", "Latest"), ("/categories", "Categories"), ("/search", "Search")])
        body = (
            f'<header><a href="/">Solder &amp; Scope</a> {head} '
            f"{a('/session/sso', 'Log In')}</header><div id=main-outlet>{main}</div>"
            "<footer>Powered by Discourse, best viewed with JavaScript enabled</footer>"
        )
        return doc(f"{title} - Solder & Scope", body, canonical=canonical)

    def topic_list(self, topics: list[str], page: int, base: str, query: dict[str, str]) -> str:
        chunk = topics[page * self.per_list : (page + 1) * self.per_list]
        cur = {k: v for k, v in query.items() if k in ("order", "ascending")}

        def q(**kw: str) -> str:
            d = {**cur, **kw}
            return base + ("?" + "&".join(f"{k}={v}" for k, v in d.items()) if d else "")

        heads = " ".join(
            a(q(order=o, ascending="false" if cur.get("ascending") == "true" else "true"), o)
            for o in ("posts", "views", "activity", "likes", "created")
        )
        rows = "".join(
            f"<tr><td>{a(self.turl(s), title_of(s))}</td>"
            f"<td>{a(f'/c/{self.cat_of[s]}/{self.cid[self.cat_of[s]]}', self.cat_of[s])}</td>"
            f"<td>{self.nposts[s]}</td><td>{a(self.turl(s) + '/last', 'last post')}</td></tr>"
            for s in chunk
        )
        nxt = ""
        if base in ("/", "/latest"):  # the stale topic count: shown on the last page too
            nxt = a(q(page=str(page + 1)).replace("/?", "/latest?", 1), "next page \u2192")
        return f"<p>{heads}</p><table>{rows}</table><p>{nxt}</p>"

    def topic(self, s: str, pg: int) -> str:
        lo = (pg - 1) * self.per_topic + 1
        hi = min(self.nposts[s], pg * self.per_topic)
        rng = self.rng(f"authors{s}")
        posts = []
        for n in range(lo, hi + 1):
            u = rng.choice(self.users)
            posts.append(
                f'<div class=topic-body id="post_{n}"><span class=creator>'
                f"{a(f'/u/{u}', u)}</span> "
                f"{a(f'{self.turl(s)}/{n}', f'post #{n}')}"
                f"{prose(self, f'p:{s}:{n}', self.vocab, 25, 70)}"
                f"{a(f'{self.turl(s)}/{n}?u={u}', 'Share')}</div>"
            )
        nav = []
        if pg > 1:
            nav.append((self.turl(s) + ("" if pg == 2 else f"?page={pg - 1}"), "\u2190 previous"))
        if pg < self.tpages(s):
            nav.append((f"{self.turl(s)}?page={pg + 1}", "next page \u2192"))
        i = self.slugs.index(s)
        sug = [self.slugs[(i + k) % len(self.slugs)] for k in (3, 11)]
        c = self.cat_of[s]
        main = (
            f"<h1>{title_of(s)}</h1><p>{a(f'/c/{c}/{self.cid[c]}', c)}</p>"
            + "".join(posts)
            + f"<p>{bar(nav)}</p><h3>Suggested Topics</h3>"
            + ul([(f"/t/{self.tid[x]}", title_of(x)) for x in sug])
        )
        canon = self.turl(s) + ("" if pg == 1 else f"?page={pg}")
        return self.shell(title_of(s), main, canonical=canon)

    def handle(self, req: Req) -> Reply:
        p, q = req.path, qs(req.query)
        if p in ("/", "/latest"):
            try:
                page = int(q.get("page", "0"))
            except ValueError:
                return not_found()
            base = "/latest" if p == "/latest" else "/"
            main = "<h1>Latest topics</h1>" + self.topic_list(self.order, page, base, q)
            if page == 0:
                main = prose(self, "welcome", self.vocab, 30, 60) + main
            body = self.shell("Latest", main)
            legit = (p == "/" and not req.query) or (
                p == "/latest" and req.query == f"page={page}" and 1 <= page < self.list_pages
            )
            return self.legit_page(f"latest:{page}", body) if legit else trap(body)
        if p == "/categories":
            rows = [(f"/c/{c}/{self.cid[c]}", title_of(c)) for c in self.cats]
            body = self.shell("Categories", prose(self, "cats", self.vocab, 40, 80) + ul(rows))
            return trap(body) if req.query else self.legit_page("categories", body)
        parts = [x for x in p.split("/") if x]
        if len(parts) == 3 and parts[0] == "c" and parts[1] in self.cats:
            c = parts[1]
            if parts[2] != str(self.cid[c]):
                return not_found()
            topics = [s for s in self.order if self.cat_of[s] == c]
            main = (
                f"<h1>{title_of(c)}</h1>"
                + prose(self, f"c:{c}", self.vocab, 30, 70)
                + self.topic_list(topics, 0, p, q)
            )
            body = self.shell(title_of(c), main)
            return trap(body) if req.query else self.legit_page(f"c:{c}", body)
        if parts[:1] == ["t"]:
            return self.topic_route(req, parts[1:], q)
        return not_found()

    def topic_route(self, req: Req, parts: list[str], q: dict[str, str]) -> Reply:
        by_id = {str(v): k for k, v in self.tid.items()}
        if len(parts) == 1 and parts[0] in by_id:
            s = by_id[parts[0]]
            return trap(self.topic(s, 1))
        if len(parts) < 2 or parts[0] not in self.tid or parts[1] != str(self.tid[parts[0]]):
            return not_found()
        s = parts[0]
        if len(parts) == 2:
            pg_s = q.get("page", "1")
            pg = int(pg_s) if pg_s.isdigit() else 1
            if not 1 <= pg <= self.tpages(s):
                return trap(self.shell(title_of(s), "<p>No more posts.</p>"))
            body = self.topic(s, pg)
            canon = req.query == "" if pg == 1 else req.query == f"page={pg}"
            return self.legit_page(f"t:{s}:{pg}", body) if canon else trap(body)
        if len(parts) == 3:
            if parts[2] == "last":
                n = self.nposts[s]
            elif parts[2].isdigit() and int(parts[2]) >= 1:
                n = min(int(parts[2]), self.nposts[s])
            else:
                return not_found()
            return trap(self.topic(s, (n - 1) // self.per_topic + 1))
        return not_found()


# ----------------------------------------------------------------------------------------
# Bugzilla: every bug list carries a fresh `list_id=`, its column headers prepend the
# column to the `order=` list (and keep the rest), and it links "Long Format"
# (`show_bug.cgi?format=multiple&id=...`), XML, CSV, Feed, iCalendar and "Change Columns".
# Bug pages link "Format For Printing", XML, and the bug list they came from.
# Legit look-alikes: `describecomponents.cgi?product=X`, per-component lists
# `buglist.cgi?component=Y&product=X&resolution=---` (as linked), `page.cgi?id=...`, and
# `show_bug.cgi?id=N`.
# ----------------------------------------------------------------------------------------

_COLUMNS = ["bug_id", "bug_severity", "priority", "assigned_to", "bug_status", "short_desc"]


class Bugzilla(Site):
    """A Bugzilla 4 instance with list_id, order= prepends and format views."""

    name = "bugzilla"
    kind = "Bugzilla: buglist.cgi order= prepends, fresh list_id=, format=multiple, ctype="
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = [
        "/attachment.cgi",
        "/query.cgi",
        "/enter_bug.cgi",
        "/editusers.cgi",
        "/userprefs.cgi",
    ]

    def build(self) -> None:
        self.vocab = words_for("docs")
        self.products = [title_of(s) for s in slugs(self.key("prod"), 4, THEMES["docs"], 1)]
        self.comps = {
            p: [title_of(c) for c in slugs(self.key(f"c{p}"), 2, THEMES["archive"], 1)]
            for p in self.products
        }
        rng = self.rng("bugs")
        self.bugs: dict[int, tuple[str, str, str]] = {}
        titles = slugs(self.key("bugs"), 30, self.vocab, 4)
        for i, t in enumerate(titles):
            p = self.products[i % 4]
            c = self.comps[p][(i // 4) % 2]
            self.bugs[31200 + 17 * i] = (p, c, t)
        self.status = {b: rng.choice(["NEW", "ASSIGNED", "REOPENED", "NEW"]) for b in self.bugs}
        self.pages = ["fields.html", "bug-writing.html", "quicksearch.html"]
        self.legit = {"index"} | {f"prod:{p}" for p in self.products}
        self.legit |= {f"list:{p}:{c}" for p in self.products for c in self.comps[p]}
        self.legit |= {f"page:{x}" for x in self.pages} | {f"bug:{b}" for b in self.bugs}

    def list_q(self, p: str, c: str) -> str:
        return f"component={quote_plus(c)}&product={quote_plus(p)}&resolution=---"

    def shell(self, title: str, main: str) -> str:
        head = bar(
            [
                ("/", "Home"),
                ("/enter_bug.cgi", "New"),
                ("/query.cgi", "Search"),
                ("/page.cgi?id=quicksearch.html", "Help"),
            ]
        )
        foot = "Saved Searches: " + bar(
            [(f"/buglist.cgi?{self.list_q(p, self.comps[p][0])}", p) for p in self.products[:2]]
        )
        body = (
            f"<div id=header>{head}</div><div id=bugzilla-body><h1>{esc(title)}</h1>{main}</div>"
            f"<div id=footer>{foot}</div>"
        )
        return doc(f"{title} - Bugzilla", body)

    def buglist(self, req: Req) -> Reply:
        pairs = qlist(req.query)
        d = dict(pairs)
        p, c = d.get("product", ""), d.get("component", "")
        if p not in self.products or (c and c not in self.comps[p]):
            return Reply(self.shell("Zarro Boogs found", "<p>Zarro Boogs found.</p>"), "trap")
        bugs = [b for b, (bp, bc, _) in self.bugs.items() if bp == p and (not c or bc == c)]
        order = [x for x in d.get("order", "bug_id").split(",") if x in _COLUMNS] or ["bug_id"]
        key = {
            "bug_id": lambda b: b,
            "bug_status": lambda b: (self.status[b], b),
            "short_desc": lambda b: (self.bugs[b][2], b),
        }.get(order[0], lambda b: (-b % 7, b))
        bugs.sort(key=key)
        list_id = str(160000 + self.tick())
        base = [(k, v) for k, v in pairs if k not in ("order", "list_id", "query_based_on")]
        basq = "&".join(f"{k}={quote_plus(v)}" for k, v in base)
        heads = "".join(
            "<th>"
            + a(
                f"/buglist.cgi?{basq}&list_id={list_id}&order="
                + quote_plus(",".join([col] + [o for o in order if o != col]))
                + "&query_based_on=",
                col,
            )
            + "</th>"
            for col in _COLUMNS
        )
        rows = "".join(
            f"<tr><td>{a(f'/show_bug.cgi?id={b}', str(b))}</td><td>{self.status[b]}</td>"
            f"<td>{title_of(self.bugs[b][2])}</td></tr>"
            for b in bugs
        )
        ids = ",".join(str(b) for b in bugs)
        links = bar(
            [
                (f"/show_bug.cgi?format=multiple&id={ids}", "Long Format"),
                (f"/show_bug.cgi?ctype=xml&id={ids}", "XML"),
                (f"/buglist.cgi?{basq}&ctype=csv&human=1", "CSV"),
                (f"/buglist.cgi?{basq}&ctype=atom&title=Bug%20List", "Feed"),
                (f"/buglist.cgi?{basq}&ctype=ics", "iCalendar"),
                (f"/colchange.cgi?{basq}&list_id={list_id}", "Change Columns"),
                (f"/query.cgi?{basq}&known_name=&list_id={list_id}", "Edit Search"),
            ]
        )
        intro = prose(self, f"list:{p}:{c}", self.vocab, 20, 40) if c else ""
        main = (
            f"{intro}<p>{len(bugs)} bugs found.</p><table><tr>{heads}</tr>{rows}</table>"
            f"<p>{links}</p>"
        )
        body = self.shell(f"Bug List: {c or p}", main)
        if c and req.query == self.list_q(p, c):
            return self.legit_page(f"list:{p}:{c}", body)
        if d.get("ctype") in ("csv", "ics", "atom"):
            return Reply(ids + "\n", "trap", None, ctype="text/plain")
        return trap(body)

    def bug(self, b: int) -> str:
        p, c, t = self.bugs[b]
        others = [x for x in self.bugs if x != b]
        dep = others[(b // 17) % len(others)]
        comments = "".join(
            f'<div class=bz_comment id="c{k}"><a href="#c{k}">Comment {k}</a>'
            f"{prose(self, f'bug:{b}:{k}', self.vocab, 20, 60)}</div>"
            for k in range(1 + b % 4)
        )
        links = bar(
            [
                (f"/show_bug.cgi?format=multiple&id={b}", "Format For Printing"),
                (f"/show_bug.cgi?ctype=xml&id={b}", "XML"),
                (f"/enter_bug.cgi?cloned_bug_id={b}", "Clone This Bug"),
                (f"/attachment.cgi?bugid={b}&action=enter", "Add an attachment"),
                (f"/buglist.cgi?{self.list_q(p, c)}&list_id={160000 + b}", "Back to list"),
            ]
        )
        main = (
            f"<p>Product: {a('/describecomponents.cgi?product=' + quote_plus(p), p)} "
            f"Component: {esc(c)} Status: {self.status[b]}</p>"
            f"<p>Depends on: {a(f'/show_bug.cgi?id={dep}', str(dep))}</p>"
            f"<p>{links}</p>{comments}"
        )
        return self.shell(f"Bug {b} \u2013 {title_of(t)}", main)

    def handle(self, req: Req) -> Reply:
        p, q = req.path, qs(req.query)
        if p in ("/", "/index.cgi"):
            prods = [(f"/describecomponents.cgi?product={quote_plus(x)}", x) for x in self.products]
            docs = [(f"/page.cgi?id={x}", title_of(x[:-5])) for x in self.pages]
            body = self.shell("Main Page", prose(self, "index", self.vocab) + ul(prods) + ul(docs))
            if p == "/" and not req.query:
                return self.legit_page("index", body)
            return trap(body)
        if p == "/describecomponents.cgi":
            x = q.get("product", "")
            if x not in self.products:
                return not_found()
            comps = [(f"/buglist.cgi?{self.list_q(x, c)}", c) for c in self.comps[x]]
            body = self.shell(
                f"Components for {x}", prose(self, f"prod:{x}", self.vocab) + ul(comps)
            )
            canon = req.query == f"product={quote_plus(x)}"
            return self.legit_page(f"prod:{x}", body) if canon else trap(body)
        if p == "/page.cgi":
            x = q.get("id", "")
            if x not in self.pages:
                return not_found()
            body = self.shell(title_of(x[:-5]), prose(self, f"page:{x}", self.vocab, 150, 300))
            return self.legit_page(f"page:{x}", body) if req.query == f"id={x}" else trap(body)
        if p == "/buglist.cgi":
            return self.buglist(req)
        if p == "/colchange.cgi":
            cols = ul([(f"/colchange.cgi?{req.query}&column_{c}=on", c) for c in _COLUMNS])
            return trap(self.shell("Change columns", cols))
        if p == "/show_bug.cgi":
            ids = [int(x) for x in q.get("id", "").split(",") if x.isdigit()]
            ids = [b for b in ids if b in self.bugs]
            if not ids:
                return not_found("Bug does not exist")
            if q.get("ctype") == "xml":
                return Reply("<bugzilla/>", "trap", None, ctype="text/xml")
            if req.query == f"id={ids[0]}":
                return self.legit_page(f"bug:{ids[0]}", self.bug(ids[0]))
            return trap(self.bug(ids[0]))
        return not_found()


# ----------------------------------------------------------------------------------------
# Confluence: tree, breadcrumb and sidebar links carry `?src=...`; pages are also reachable
# as `pages/viewpage.action?pageId=N`; "Page History" lists versions, each old version
# (its own pageId) links previous/next version and "Compare with Current", diffs of any
# two versions, "Page Information", and Word export.
# Legit look-alikes: `/display/KEY/Title` pages, blog posts, the real
# `viewrecentblogposts.action?key=`, and pages whose titles contain '?' and are served only
# at `viewpage.action?pageId=N` (Confluence's own canonical for such titles).
# ----------------------------------------------------------------------------------------


class Confluence(Site):
    """A Confluence wiki with src= tracking, pageId aliases and version history."""

    name = "confluence"
    kind = "Confluence: ?src= on navigation links, viewpage.action?pageId= aliases, version diffs"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = [
        "/login.action",
        "/spaces/flyingpdf/",
        "/exportword",
        "/users/",
    ]

    def build(self) -> None:
        self.vocab = words_for("corp")
        self.spaces = {"ENG": "Engineering", "OPS": "Operations"}
        self.pages: dict[int, tuple[str, str, int | None]] = {}  # id -> (space, title, parent)
        pid = 98300
        for k, sp in enumerate(self.spaces):
            home = pid
            self.pages[home] = (sp, "Home", None)
            pid += 1
            titles = [title_of(s) for s in slugs(self.key(f"t{sp}"), 13, self.vocab, 2)]
            parents = [home]
            for i, t in enumerate(titles):
                if i in (4, 10):
                    t = f"What is {t}?" if k == 0 else f"Why {t}?"
                par = parents[(i * 5) % len(parents)]
                self.pages[pid] = (sp, t, par)
                if i % 3 == 0:
                    parents.append(pid)
                pid += 7
        rng = self.rng("versions")
        self.versions = {p: rng.randint(4, 30) for p in self.pages}
        self.blogs = {
            sp: [
                (f"2026/0{3 + i}/{10 + 3 * i}", title_of(t))
                for i, t in enumerate(slugs(self.key(f"b{sp}"), 3, self.vocab, 3))
            ]
            for sp in self.spaces
        }
        self.legit = {"dash"} | {f"page:{p}" for p in self.pages}
        self.legit |= {f"blogs:{sp}" for sp in self.spaces}
        self.legit |= {f"blog:{sp}:{d}" for sp in self.spaces for d, _ in self.blogs[sp]}

    def url(self, p: int) -> str:
        sp, t, _ = self.pages[p]
        if "?" in t:
            return f"/pages/viewpage.action?pageId={p}"
        return f"/display/{sp}/{quote_plus(t)}"

    def with_src(self, url: str, src: str) -> str:
        return url + ("&" if "?" in url else "?") + f"src={src}"

    def shell(self, sp: str, title: str, main: str, page: int | None = None) -> str:
        tree = [
            (self.with_src(self.url(x), "contextnavpagetreemode"), self.pages[x][1])
            for x in self.pages
            if self.pages[x][0] == sp
        ]
        side = (
            f"<nav class=ia-splitter-left><h3>{self.spaces[sp]}</h3>"
            + ul(
                [(self.with_src(f"/pages/viewrecentblogposts.action?key={sp}", "sidebar"), "Blog")]
            )
            + ul(tree)
            + "</nav>"
        )
        crumbs = ""
        tools = ""
        if page is not None:
            chain = []
            par = self.pages[page][2]
            while par is not None:
                chain.append(par)
                par = self.pages[par][2]
            crumbs = bar(
                [
                    (self.with_src(self.url(x), "breadcrumbs-parent"), self.pages[x][1])
                    for x in reversed(chain)
                ],
                " / ",
            )
            tools = bar(
                [
                    (f"/pages/viewpreviousversions.action?pageId={page}", "Page History"),
                    (f"/pages/viewinfo.action?pageId={page}", "Page Information"),
                    (f"/spaces/flyingpdf/pdfpageexport.action?pageId={page}", "Export to PDF"),
                    (f"/exportword?pageId={page}", "Export to Word"),
                ]
            )
        body = (
            f"<header>{a('/', 'Dashboard')} {a('/login.action', 'Log in')}</header>{side}"
            f"<main><ol class=breadcrumbs>{crumbs}</ol><h1>{esc(title)}</h1>"
            f"<p>{tools}</p>{main}</main>"
        )
        return doc(f"{title} - {self.spaces[sp]} - Confluence", body)

    def page_main(self, p: int, version: int | None = None) -> str:
        kids = [(self.url(x), self.pages[x][1]) for x in self.pages if self.pages[x][2] == p]
        nv = self.versions[p]
        note = ""
        if version is not None and version < nv:
            note = f"<p>You are viewing an old version of this page (v. {version}).</p>"
        text = prose(self, f"page:{p}", self.vocab)
        if version is not None and version < nv:
            text = prose(self, f"page:{p}", self.vocab).replace(" the ", " a ", nv - version)
        return note + text + (f"<h2>Child pages</h2>{ul(kids)}" if kids else "")

    def handle(self, req: Req) -> Reply:
        p, q = req.path, qs(req.query)
        if p == "/":
            sp_links = [(f"/display/{k}/Home", v) for k, v in self.spaces.items()]
            sp_links += [
                (f"/pages/viewrecentblogposts.action?key={k}", f"{v} blog")
                for k, v in self.spaces.items()
            ]
            main = prose(self, "dash", self.vocab, 60, 120) + ul(sp_links)
            body = self.shell("ENG", "Dashboard", main)
            return trap(body) if req.query else self.legit_page("dash", body)
        parts = p.split("/")
        if len(parts) == 4 and parts[1] == "display" and parts[2] in self.spaces:
            sp, t = parts[2], unquote_plus(parts[3])
            for x, (xs, xt, _) in self.pages.items():
                if xs == sp and xt == t:
                    body = self.shell(sp, t, self.page_main(x), x)
                    if self.url(x) == p and not req.query:
                        return self.legit_page(f"page:{x}", body)
                    return trap(body)
            return not_found("Page Not Found")
        if len(parts) == 7 and parts[1] == "display" and parts[2] in self.spaces:
            sp = parts[2]
            d = "/".join(parts[3:6])
            for bd, bt in self.blogs[sp]:
                if bd == d and quote_plus(bt) == parts[6]:
                    body = self.shell(sp, bt, prose(self, f"blog:{sp}:{d}", self.vocab))
                    if req.query:
                        return trap(body)
                    return self.legit_page(f"blog:{sp}:{d}", body)
            return not_found()
        if p == "/pages/viewrecentblogposts.action":
            sp = q.get("key", "")
            if sp not in self.spaces:
                return not_found()
            posts = [(f"/display/{sp}/{d}/{quote_plus(t)}", t) for d, t in reversed(self.blogs[sp])]
            main = prose(self, f"blogs:{sp}", self.vocab, 30, 60) + ul(posts)
            body = self.shell(sp, "Blog", main)
            if req.query == f"key={sp}":
                return self.legit_page(f"blogs:{sp}", body)
            return trap(body)
        if p.startswith("/pages/"):
            return self.pages_action(req, p[len("/pages/") :], q)
        return not_found()

    def pages_action(self, req: Req, action: str, q: dict[str, str]) -> Reply:
        try:
            pid = int(q.get("pageId", "0"))
        except ValueError:
            return not_found()
        # old versions have their own ids: page id * 100 + version
        base, version = (pid // 100, pid % 100) if pid >= 10**6 else (pid, None)
        if base not in self.pages:
            return not_found("Page Not Found")
        sp, t, _ = self.pages[base]
        nv = self.versions[base]
        if action == "viewpage.action":
            if version is not None and not 1 <= version < nv:
                return not_found()
            main = self.page_main(base, version)
            if version is not None:
                nav = []
                if version > 1:
                    nav.append(
                        (f"/pages/viewpage.action?pageId={pid - 1}", "View Previous Version")
                    )
                nav.append(
                    (
                        f"/pages/viewpage.action?pageId={pid + 1}"
                        if version + 1 < nv
                        else self.url(base),
                        "View Next Version",
                    )
                )
                nav.append(
                    (
                        f"/pages/diffpagesbyversion.action?pageId={base}&selectedPageVersions="
                        f"{version}&selectedPageVersions={nv}",
                        "Compare with Current",
                    )
                )
                main = f"<p>{bar(nav)}</p>" + main
            body = self.shell(sp, t, main, base)
            if version is None and self.url(base) == f"/pages/{action}?{req.query}":
                return self.legit_page(f"page:{base}", body)
            return trap(body)
        if action == "viewpreviousversions.action":
            diff = f"/pages/diffpagesbyversion.action?pageId={base}&selectedPageVersions="
            rows = "".join(
                f"<tr><td>{a(f'/pages/viewpage.action?pageId={base * 100 + v}', f'v. {v}')}"
                f"</td><td>{a(f'{diff}{v}&selectedPageVersions={v + 1}', 'compare')}</td></tr>"
                for v in range(1, nv)
            )
            return trap(self.shell(sp, f"Page History: {t}", f"<table>{rows}</table>", base))
        if action == "diffpagesbyversion.action":
            vs = [v for k, v in qlist(req.query) if k == "selectedPageVersions"]
            left = vs[0] if vs else "1"
            pick = " ".join(
                a(
                    f"/pages/diffpagesbyversion.action?pageId={base}"
                    f"&selectedPageVersions={left}&selectedPageVersions={v}",
                    f"v. {v}",
                )
                for v in range(1, nv + 1)
            )
            main = (
                f"<p>Comparing versions {', '.join(esc(v) for v in vs)}</p>"
                f"<p>Compare with: {pick}</p>"
                + a(f"/pages/viewpreviousversions.action?pageId={base}", "View Page History")
                + self.page_main(base, 1)
            )
            return trap(self.shell(sp, f"Compare: {t}", main, base))
        if action == "viewinfo.action":
            main = f"<p>Created by admin. {nv} versions.</p>" + a(
                f"/pages/viewpreviousversions.action?pageId={base}", "View Page History"
            )
            return trap(self.shell(sp, f"Page Information: {t}", main, base))
        return not_found()
