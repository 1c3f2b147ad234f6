"""blind10 sites, part a: XWiki, BookStack, Phabricator and the trap-free control."""

from __future__ import annotations

from typing import ClassVar
from urllib.parse import quote

from traps.blind.kit import Reply, Req, not_found, redirect, slugs, title_of
from traps.blind2.common import esc, qs, trap, ul
from traps.blind7.common import data

from .common import Base

# ----------------------------------------------------------------------------------------
# XWiki 15 with a subwiki on its own host (domain-based farm). Nested pages are WebHome
# documents: /xwiki/bin/view/A/B/. Every page has the tabs ?viewer=comments|attachments|
# history|information, the menu's ?xpage=print, ?language=fr|de (fallback: the default
# text), the information tab's /WebHome spelling, history's ?viewer=changes&rev1=&rev2=.
# The main wiki's wiki index links the path-based farm URLs /xwiki/wiki/dev/view/... (the
# subwiki again, on host 0). robots.txt: the lines XWiki's documentation recommends.
# ----------------------------------------------------------------------------------------

_XV = "/xwiki/bin/view/"
_VIEWERS = ["comments", "attachments", "history", "information"]


class XWiki(Base):
    """XWiki: per-page viewer tabs, print, language fallback, farm path copies."""

    name = "xwiki"
    kind = "XWiki 15 + subwiki host: ?viewer= tabs, xpage=print, language=, WebHome, farm paths"
    hosts = 2
    theme = "docs"
    brand = "XWiki"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, _XV + "Main/"), (1, _XV + "Main/")]
    robots_disallow: ClassVar[list[str]] = [
        f"/xwiki/bin/{a}/"
        for a in [
            "attach",
            "cancel",
            "delete",
            "download",
            "downloadrev",
            "edit",
            "export",
            "get",
            "login",
            "pdf",
            "preview",
            "register",
            "save",
            "viewrev",
            "viewattachrev",
        ]
    ]

    def make(self) -> None:
        cap = [title_of(s).replace(" ", "") for s in slugs(self.key("xp"), 14, self.v, 2)]
        t0: dict[tuple[str, ...], list[tuple[str, ...]]] = {("Main",): []}
        t0[("Main",)] = [("Projects",), ("Help",)]
        t0[("Projects",)] = [("Projects", p) for p in cap[:4]]
        for p in cap[:4]:
            t0[("Projects", p)] = [("Projects", p, "Design"), ("Projects", p, "Releases")]
            t0[("Projects", p, "Design")] = []
            t0[("Projects", p, "Releases")] = [("Projects", p, "Releases", "Release1")]
            t0[("Projects", p, "Releases", "Release1")] = []
        t0[("Help",)] = [("Help", h) for h in cap[4:7]]
        for h in cap[4:7]:
            t0[("Help", h)] = []
        t1: dict[tuple[str, ...], list[tuple[str, ...]]] = {("Main",): [("Dev",)]}
        t1[("Dev",)] = [("Dev", d) for d in cap[7:11]]
        for d in cap[7:11]:
            t1[("Dev", d)] = [("Dev", d, "Notes")]
            t1[("Dev", d, "Notes")] = []
        self.trees = [t0, t1]
        for h, tree in enumerate(self.trees):
            for segs in tree:
                self.add(
                    f"{h}:{'.'.join(segs)}",
                    _XV + "/".join(segs) + "/",
                    lambda r, h=h, segs=segs: self.render(h, segs, _XV, {}),
                    host=h,
                )

    def render(self, h: int, segs: tuple[str, ...], pre: str, q: dict[str, str]) -> str:
        tree = self.trees[h]
        url = pre + "/".join(segs) + "/"
        lang = q.get("language", "")
        keep = f"&language={lang}" if lang else ""
        crumbs = " / ".join(
            f'<a href="{pre}{"/".join(segs[:i])}/">{esc(segs[i - 1])}</a>'
            for i in range(1, len(segs) + 1)
        )
        links = [(pre + "/".join(c) + "/", c[-1]) for c in tree[segs]]
        tabs = [(f"{url}?viewer={v}{keep}", v.title()) for v in _VIEWERS]
        menu = [
            (f"{url}?xpage=print{keep}", "Print preview"),
            (f"{url}?language=fr", "Français"),
            (f"{url}?language=de", "Deutsch"),
            (f"/xwiki/bin/export/{'/'.join(segs)}/WebHome?format=pdf", "Export as PDF"),
            (f"/xwiki/bin/edit/{'/'.join(segs)}/WebHome", "Edit"),
        ]
        viewer = q.get("viewer", "")
        extra = ""
        if viewer == "history":
            extra = ul(
                [
                    (f"/xwiki/bin/viewrev/{'/'.join(segs)}/WebHome?rev=1.{k}", f"1.{k}")
                    for k in range(1, 6)
                ]
                + [
                    (f"{url}?viewer=changes&rev1=1.{k}&rev2=1.{k + 1}", f"1.{k} to 1.{k + 1}")
                    for k in range(1, 5)
                ]
            )
        elif viewer == "changes":
            try:
                k = int(q.get("rev1", "1.1").split(".")[1])
            except (IndexError, ValueError):
                k = 1
            extra = ul(
                [(f"{url}?viewer=changes&rev1=1.{k - 1}&rev2=1.{k}", "Previous change")] * (k > 1)
                + [(f"{url}?viewer=changes&rev1=1.{k + 1}&rev2=1.{k + 2}", "Next change")] * (k < 4)
            )
        elif viewer == "information":
            extra = f'<p>Reference: <a href="{url}WebHome">{esc(".".join(segs))}.WebHome</a></p>'
        if h == 0 and segs == ("Main",):
            extra += "<h2>Wikis</h2>" + ul(
                [
                    (self.url(1, _XV + "Main/"), "Developer wiki (dev)"),
                    ("/xwiki/wiki/dev/view/Main/", "dev (path-based URL)"),
                ]
            )
        if h == 1:
            extra += f'<p><a href="{self.url(0, _XV + "Main/")}">Main wiki</a></p>'
        body = (
            f"<p>{crumbs}</p>{ul(links)}<p>"
            + " | ".join(f'<a href="{esc(u)}">{esc(t)}</a>' for u, t in tabs + menu)
            + f"</p>{extra}"
        )
        return self.html(" ".join(segs[-1:]), f"x{h}:{'.'.join(segs)}", body)

    def rest(self, req: Req) -> Reply:
        path, q = req.path, qs(req.query)
        h, pre = req.host_index, _XV
        if path.startswith(_XV):
            tail = path[len(_XV) :]
        elif h == 0 and path.startswith("/xwiki/wiki/dev/view/"):
            tail, h, pre = path[len("/xwiki/wiki/dev/view/") :], 1, "/xwiki/wiki/dev/view/"
        elif path == "/":
            return redirect(_XV + "Main/")
        else:
            return not_found()
        segs = tuple(s for s in tail.split("/") if s)
        if segs and segs[-1] == "WebHome":
            segs = segs[:-1]
        if segs not in self.trees[h]:
            return not_found("The requested page could not be found.")
        return trap(self.render(h, segs, pre, q))


# ----------------------------------------------------------------------------------------
# BookStack (public instance): shelves, books, chapters, pages at /books/<b>/page/<p>.
# Every book, chapter and page has the Export menu (/export/html|pdf|plaintext|markdown|
# zip) and every page /revisions, /revisions/<id>, /revisions/<id>/changes and a
# permalink /link/<id> (302). Tags link /search?term=[name=value]; the search sidebar
# appends {type:..} / {updated_by:me} / {sort_by:last_commented} filters in click order,
# and "Next" (&page=N) never stops. Chapter pages are linked only from chapter pages.
# robots.txt: BookStack's for a public instance (allow all).
# ----------------------------------------------------------------------------------------

_EXPORTS = ["html", "pdf", "plaintext", "markdown", "zip"]
_FILTERS = ["{type:page}", "{type:chapter}", "{updated_by:me}", "{sort_by:last_commented}"]


class BookStack(Base):
    """BookStack: export menus on every entity, revisions, permalink redirects, search."""

    name = "bookstack"
    kind = "BookStack: /export/<fmt> on every book/chapter/page, revisions, /link/<id>, search"
    theme = "books"
    brand = "Harbour Handbook"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]

    def make(self) -> None:
        names = slugs(self.key("bk"), 4 + 8 + 28, self.v, 2)
        self.books: dict[str, dict[str, list[str]]] = {}
        self.loose: dict[str, str] = {}
        self.ids: dict[int, str] = {}
        self.order: list[str] = []
        it = iter(names)
        for _ in range(4):
            b = next(it)
            self.books[b] = {}
            for _ in range(2):
                c = next(it)
                self.books[b][c] = [next(it) for _ in range(3)]
        for b in self.books:
            self.loose[b] = next(it)
        self.shelves = {"operations": list(self.books)[:2], "reference": list(self.books)[2:]}
        self.add("home", "/", lambda r: self.home())
        self.add("books", "/books", lambda r: self.list_books())
        self.add("shelves", "/shelves", lambda r: self.list_shelves())
        for s in self.shelves:
            self.add(f"s{s}", f"/shelves/{s}", lambda r, s=s: self.shelf(s))
        for b, chs in self.books.items():
            self.add(f"b{b}", f"/books/{b}", lambda r, b=b: self.book(b))
            pages = [self.loose[b]]
            for c, ps in chs.items():
                self.add(
                    f"c{b}/{c}", f"/books/{b}/chapter/{c}", lambda r, b=b, c=c: self.chapter(b, c)
                )
                pages += ps
            for p in pages:
                self.order.append(f"{b}/{p}")
                self.ids[len(self.order) + 100] = f"{b}/{p}"
                self.add(f"p{b}/{p}", f"/books/{b}/page/{p}", lambda r, b=b, p=p: self.page(b, p))
        self.pid = {v: k for k, v in self.ids.items()}

    def menu(self, url: str) -> str:
        return (
            "<p>Export: "
            + " | ".join(f'<a href="{url}/export/{f}">{f}</a>' for f in _EXPORTS)
            + "</p>"
        )

    def tag(self, key: str) -> str:
        rng = self.rng("tag" + key)
        name, val = rng.choice(["status", "topic", "team"]), rng.choice(self.v[-30:]).strip(",.")
        term = quote(f"[{name}={val}]")
        return f'<p>Tags: <a href="/search?term={term}">{esc(name)}: {esc(val)}</a></p>'

    def home(self) -> str:
        recent = [
            (f"/books/{x.split('/')[0]}/page/{x.split('/')[1]}", title_of(x.split("/")[1]))
            for x in self.order[:4]
        ]
        body = (
            ul([("/shelves", "Shelves"), ("/books", "Books")])
            + "<h2>Recently updated</h2>"
            + ul(recent)
        )
        return self.html("Harbour Handbook", "home", body)

    def list_books(self) -> str:
        return self.html("Books", "books", ul([(f"/books/{b}", title_of(b)) for b in self.books]))

    def list_shelves(self) -> str:
        return self.html(
            "Shelves", "shelves", ul([(f"/shelves/{s}", title_of(s)) for s in self.shelves])
        )

    def shelf(self, s: str) -> str:
        return self.html(
            title_of(s), f"shelf{s}", ul([(f"/books/{b}", title_of(b)) for b in self.shelves[s]])
        )

    def book(self, b: str) -> str:
        url = f"/books/{b}"
        items = [(f"{url}/page/{self.loose[b]}", title_of(self.loose[b]))]
        items += [(f"{url}/chapter/{c}", "Chapter: " + title_of(c)) for c in self.books[b]]
        return self.html(title_of(b), f"book{b}", ul(items) + self.menu(url) + self.tag(b))

    def chapter(self, b: str, c: str) -> str:
        url = f"/books/{b}/chapter/{c}"
        items = [(f"/books/{b}/page/{p}", title_of(p)) for p in self.books[b][c]]
        body = f'<p><a href="/books/{b}">{esc(title_of(b))}</a></p>' + ul(items) + self.menu(url)
        return self.html(title_of(c), f"ch{b}/{c}", body)

    def page(self, b: str, p: str, rev: str = "") -> str:
        url = f"/books/{b}/page/{p}"
        key = f"{b}/{p}"
        i = self.order.index(key)
        nav = []
        if i > 0 and self.order[i - 1].startswith(b + "/"):
            nav.append((f"/books/{self.order[i - 1].replace('/', '/page/', 1)}", "Previous"))
        if i + 1 < len(self.order) and self.order[i + 1].startswith(b + "/"):
            nav.append((f"/books/{self.order[i + 1].replace('/', '/page/', 1)}", "Next"))
        body = (
            f'<p><a href="/books/{b}">{esc(title_of(b))}</a></p>'
            + ul(nav)
            + self.menu(url)
            + self.tag(key)
            + f'<p><a href="{url}/revisions">Revisions</a> | '
            f'<a href="/link/{self.pid[key]}">Permalink</a></p>'
        )
        return self.html(title_of(p) + rev, f"pg{key}", body)

    def search(self, q: dict[str, str]) -> str:
        term = q.get("term", "")
        try:
            n = max(1, int(q.get("page", "1")))
        except ValueError:
            n = 1
        res = [self.order[(n * 7 + k * 3 + len(term)) % len(self.order)] for k in range(5)]
        items = [(f"/books/{x.replace('/', '/page/', 1)}", title_of(x.split("/")[1])) for x in res]
        filt = [(f"/search?term={quote(term + ' ' + f)}", f) for f in _FILTERS if f not in term]
        nxt = [(f"/search?term={quote(term)}&page={n + 1}", "Next")]
        body = ul(items) + "<h2>Filters</h2>" + ul(filt) + ul(nxt)
        return self.html(f"Search results: {term} (page {n})", f"search{n % 5}", body)

    def rest(self, req: Req) -> Reply:
        path, q = req.path, qs(req.query)
        if path == "/search":
            return trap(self.search(q))
        if path.startswith("/link/"):
            key = self.ids.get(int(path[6:]) if path[6:].isdigit() else 0)
            return redirect(f"/books/{key.replace('/', '/page/', 1)}") if key else not_found()
        parts = path.strip("/").split("/")
        if len(parts) < 3 or parts[0] != "books" or parts[1] not in self.books:
            return not_found()
        b = parts[1]
        base = "/" + "/".join(parts[:2]) if parts[2] == "export" else "/" + "/".join(parts[:4])
        rest = parts[2:] if parts[2] == "export" else parts[4:]
        fn = self.pages.get((0, base))
        if fn is None or not rest:
            return not_found()
        if rest[0] == "export" and len(rest) == 2 and rest[1] in _EXPORTS:
            text = fn(req)
            if rest[1] == "html":
                return trap(text)
            return data(text, "application/pdf" if rest[1] == "pdf" else "text/plain")
        if parts[2] == "page" and rest[0] == "revisions":
            p = parts[3]
            if len(rest) == 1:
                revs = [(f"{base}/revisions/{k}", f"Revision #{k}") for k in range(1, 5)]
                revs += [(f"{base}/revisions/{k}/changes", f"Changes #{k}") for k in range(1, 5)]
                return trap(self.html(f"Revisions of {title_of(p)}", f"rv{b}{p}", ul(revs)))
            if rest[1].isdigit() and int(rest[1]) in range(1, 5):
                return trap(self.page(b, p, f" (revision {rest[1]})"))
        return not_found()


# ----------------------------------------------------------------------------------------
# Phabricator: Maniphest tasks /T<n>, projects /tag/<slug>/, people /p/<user>/,
# Differential /D<n>, Phriction /w/<path>/. Every "search for tasks" link (/maniphest/?
# tags=, ?authorPHIDs=, ?order=) saves a query and 302s to /maniphest/query/<fresh key>/;
# results pages have order links (another save) and "Next Page" ?after=<id>. Differential
# "Diff 1 vs Diff 2" ?vs=&id=, ?large=true, ?download=true; Phriction history ?v=N and
# /phriction/diff/<id>/?l=&r=. robots.txt: Phabricator's own (/diffusion/, /source/;
# its Crawl-delay line is left out here).
# ----------------------------------------------------------------------------------------

_ORDERS = ["priority", "updated", "created", "title", "outdated"]


class Phabricator(Base):
    """Phabricator: saved-query keys minted per search, diff versions, wiki history."""

    name = "phabricator"
    kind = (
        "Phabricator: /maniphest/query/<fresh key>/ per search (302), ?after=, ?vs=&id=, wiki ?v="
    )
    theme = "forum"
    brand = "Phabricator"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/diffusion/", "/source/"]

    def make(self) -> None:
        self.users = ["alice", "bogdan", "chiara"]
        self.projects = slugs(self.key("pj"), 4, self.v, 1)
        rng = self.rng("tasks")
        self.tasks = {
            n: (rng.choice(self.users), rng.sample(self.projects, rng.randint(1, 2)))
            for n in range(1, 15)
        }
        wiki = slugs(self.key("w"), 10, self.v, 1)
        self.wiki = ["", *wiki[:3]]
        self.wiki += [f"{wiki[k]}/{wiki[3 + 2 * k + j]}" for k in range(3) for j in range(2)]
        self.wiki.append(f"{wiki[0]}/{wiki[3]}/{wiki[9]}")
        self.queries: dict[str, dict[str, str]] = {}
        self.add("home", "/", lambda r: self.home())
        for u in self.users:
            self.add(f"u{u}", f"/p/{u}/", lambda r, u=u: self.user(u))
        for p in self.projects:
            self.add(f"p{p}", f"/tag/{p}/", lambda r, p=p: self.project(p))
        for n in self.tasks:
            self.add(f"T{n}", f"/T{n}", lambda r, n=n: self.task(n))
        for d in range(1, 7):
            self.add(f"D{d}", f"/D{d}", lambda r, d=d: self.rev(d, {}))
        for w in self.wiki:
            self.add(f"w{w}", f"/w/{w}/" if w else "/w/", lambda r, w=w: self.doc(w, ""))

    def home(self) -> str:
        body = (
            "<h2>Projects</h2>"
            + ul([(f"/tag/{p}/", p) for p in self.projects])
            + "<h2>Recent tasks</h2>"
            + ul([(f"/T{n}", f"T{n}") for n in range(14, 9, -1)])
            + "<h2>Revisions</h2>"
            + ul([(f"/D{d}", f"D{d}") for d in range(1, 7)])
            + ul(
                [
                    ("/w/", "Wiki"),
                    ("/maniphest/query/open/", "Open tasks"),
                    ("/maniphest/query/all/", "All tasks"),
                ]
            )
        )
        return self.html("Phabricator", "home", body)

    def search_link(self, key: str, val: str, label: str) -> str:
        return f'<a href="/maniphest/?{key}={val}">{esc(label)}</a>'

    def user(self, u: str) -> str:
        tasks = [(f"/T{n}", f"T{n}") for n, (a, _) in self.tasks.items() if a == u]
        body = ul(tasks) + f"<p>{self.search_link('authorPHIDs', u, 'Tasks authored')}</p>"
        return self.html(u, f"user{u}", body)

    def project(self, p: str) -> str:
        tasks = [(f"/T{n}", f"T{n}") for n, (_, ps) in self.tasks.items() if p in ps]
        body = ul(tasks) + f"<p>{self.search_link('tags', p, 'Search tasks tagged ' + p)}</p>"
        return self.html(title_of(p), f"proj{p}", body)

    def task(self, n: int) -> str:
        a, ps = self.tasks[n]
        links = [(f"/p/{a}/", a)] + [(f"/tag/{p}/", p) for p in ps]
        body = (
            ul(links)
            + "".join(f"<p>{self.search_link('tags', p, 'Open tasks in ' + p)}</p>" for p in ps)
            + f'<p><a href="/maniphest/task/edit/{n}/">Edit Task</a></p>'
        )
        return self.html(f"T{n}", f"task{n}", body)

    def rev(self, d: int, q: dict[str, str]) -> str:
        diffs = [10 * d + k for k in range(1, 4)]
        links = [
            (f"/D{d}?vs={x}&id={y}", f"Diff {x} vs {y}") for x in diffs for y in diffs if x < y
        ]
        links += [(f"/D{d}?id={y}", f"Diff {y}") for y in diffs]
        links += [(f"/D{d}?large=true", "Show all files"), (f"/D{d}?download=true", "Download")]
        links += [(f"/source/harbour/browse/master/src/mod{d}.py", "View in Diffusion")]
        sub = f" (diff {q['id']})" if "id" in q else ""
        return self.html(f"D{d}{sub}", f"rev{d}", ul(links))

    def doc(self, w: str, ver: str) -> str:
        kids = (
            [x for x in self.wiki if x and x.rsplit("/", 1)[0] == w and x != w]
            if w
            else [x for x in self.wiki if x and "/" not in x]
        )
        body = ul([(f"/w/{x}/", title_of(x.split("/")[-1])) for x in kids])
        body += f'<p><a href="/phriction/history/{w}/">History</a></p>'
        return self.html(title_of(w.split("/")[-1] or "Wiki") + ver, f"wiki{w}", body)

    def results(self, key: str, q: dict[str, str], after: int) -> str:
        p = self.queries[key]
        ns = [n for n in sorted(self.tasks, reverse=True) if n < after]
        if "tags" in p:
            ns = [n for n in ns if p["tags"] in self.tasks[n][1]]
        if "authorPHIDs" in p:
            ns = [n for n in ns if self.tasks[n][0] == p["authorPHIDs"]]
        page = ns[:3]
        body = ul([(f"/T{n}", f"T{n}") for n in page])
        body += (
            "<p>"
            + " | ".join(
                f'<a href="/maniphest/?query={key}&order={o}">Order: {o}</a>' for o in _ORDERS
            )
            + "</p>"
        )
        body += f'<p><a href="/maniphest/query/advanced/?query={key}">Edit Query</a></p>'
        if len(ns) > 3:
            body += f'<p><a href="/maniphest/query/{key}/?after={page[-1]}">Next Page</a></p>'
        return self.html("Maniphest query", f"q{len(page)}", body)

    def rest(self, req: Req) -> Reply:
        path, q = req.path, qs(req.query)
        if path == "/maniphest/" and q:
            key = self.fresh(12, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
            with self._lock:
                self.queries[key] = {**self.queries.get(q.pop("query", ""), {}), **q}
            return redirect(f"/maniphest/query/{key}/")
        if path.startswith("/maniphest/query/"):
            key = path.split("/")[3]
            if key == "advanced" and q.get("query") in self.queries:
                return trap(self.html("Advanced Search", "adv", "<p>Edit the saved query.</p>"))
            if key in ("open", "all", "authored", "assigned"):
                with self._lock:
                    self.queries.setdefault(key, {})
            if key not in self.queries:
                return not_found("Query Not Found")
            after = int(q["after"]) if q.get("after", "").isdigit() else 99
            return trap(self.results(key, q, after))
        if path.startswith("/D") and path[2:].isdigit() and 1 <= int(path[2:]) <= 6:
            return trap(self.rev(int(path[2:]), q))
        if path.startswith("/w/") and q.get("v", "").isdigit():
            w = path[3:].strip("/")
            if w in self.wiki:
                return trap(self.doc(w, f" (version {q['v']})"))
        if path.startswith("/phriction/history/"):
            w = path[len("/phriction/history/") :].strip("/")
            if w in self.wiki:
                i = self.wiki.index(w)
                links = [
                    (f"/w/{w}/?v={k}" if w else f"/w/?v={k}", f"Version {k}") for k in range(1, 5)
                ]
                links += [
                    (f"/phriction/diff/{i + 1}/?l={k}&r={k + 1}", f"{k} vs {k + 1}")
                    for k in range(1, 4)
                ]
                return trap(self.html(f"History of {w or 'Wiki'}", f"hist{w}", ul(links)))
        if path.startswith("/phriction/diff/"):
            return trap(self.html("Document diff", f"diff{req.query}", ""))
        if path.startswith("/maniphest/task/edit/"):
            return redirect("/auth/start/?next=" + quote(path, safe=""))
        return not_found()


# ----------------------------------------------------------------------------------------
# Control: no traps.
# ----------------------------------------------------------------------------------------


class Control(Base):
    """A trap-free site."""

    name = "control"
    kind = "no traps: home, about, 4 sections x 7 pages, one disallowed link"
    theme = "events"
    brand = "Valley Choir Society"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/private/"]

    def make(self) -> None:
        self.secs = {
            s: slugs(self.key(s), 7, self.v, 2)
            for s in ("concerts", "tours", "members-news", "repertoire")
        }
        nav = ul(
            [
                ("/about.html", "About"),
                *[(f"/{s}/", title_of(s)) for s in self.secs],
                ("/private/", "Private"),
            ]
        )
        self.add("home", "/", lambda r: self.html("Valley Choir Society", "home", nav))
        self.add(
            "about", "/about.html", lambda r: self.html("About", "about", '<a href="/">Home</a>')
        )
        for s, ps in self.secs.items():
            self.add(
                s,
                f"/{s}/",
                lambda r, s=s, ps=ps: self.html(
                    title_of(s), s, ul([(f"/{s}/{p}.html", title_of(p)) for p in ps])
                ),
            )
            for p in ps:
                self.add(
                    f"{s}/{p}",
                    f"/{s}/{p}.html",
                    lambda r, s=s, p=p: self.html(
                        title_of(p), f"{s}/{p}", f'<a href="/{s}/">Back</a>'
                    ),
                )
