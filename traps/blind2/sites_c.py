"""Blind2 sites, part C: URL spellings, tracking parameters, Drupal, a file manager, control."""

from __future__ import annotations

import posixpath
import re
from typing import ClassVar
from urllib.parse import quote

from traps.blind.kit import (
    THEMES,
    Reply,
    Req,
    Site,
    a,
    doc,
    not_found,
    redirect,
    slugs,
    title_of,
    words_for,
)

from .common import Link, bar, prose, qlist, qs, trap, ul

# ----------------------------------------------------------------------------------------
# URL spellings (RFC 3986 normalisation, "DUST"): an old university web server that
# decodes %7E and any other percent-encoded unreserved character, accepts %2E dot
# segments, doubled slashes and a trailing index.html. Hand-written pages over the years
# link the same pages under such spellings, and relative links keep the spelling of the
# page they are on, so the spellings multiply.
# Legit look-alikes: a real encoded name (`notes/week%201.html`), `/alice/` (a project)
# next to `/~alice/` (a home page), `index2.html` pages.
# ----------------------------------------------------------------------------------------

_UNRESERVED = re.compile(r"%([0-9A-Fa-f]{2})")


def normalise(path: str) -> str:
    """RFC 3986 normalisation of a path, plus `//` -> `/` and dropping index.html."""

    def dec(m: re.Match[str]) -> str:
        ch = chr(int(m.group(1), 16))
        return ch if ch.isalnum() or ch in "-._~" else "%" + m.group(1).upper()

    p = _UNRESERVED.sub(dec, path)
    p = re.sub(r"/{2,}", "/", p)
    trail = p.endswith("/") or p.endswith("/.") or p.endswith("/..")
    p = posixpath.normpath(p) + ("/" if trail else "")
    p = p.replace("//", "/")
    for idx in ("index.html", "index.htm"):
        if p.endswith("/" + idx):
            p = p[: -len(idx)]
    return p


class Spellings(Site):
    """A university site whose pages answer under many spellings of their URL."""

    name = "spellings"
    kind = "URL spellings: %7E/%7e, encoded letters, %2E segments, //, index.html"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/cgi-bin/"]

    def build(self) -> None:
        self.vocab = words_for("science")
        self.people = slugs(self.key("people"), 6, THEMES["science"], 1)
        self.users = self.people[:4]
        self.courses = [f"cs{n}" for n in (101, 205, 310, 420)]
        pages: dict[str, str] = {"/": "home", "/people/": "people", "/courses/": "courses"}
        pages["/alice/"] = "project"
        pages["/people/index2.html"] = "people2"
        for u in self.people:
            pages[f"/people/{u}.html"] = f"person:{u}"
        for u in self.users:
            pages[f"/~{u}/"] = f"home:{u}"
            pages[f"/~{u}/pubs/"] = f"pubs:{u}"
            for k in (1, 2):
                pages[f"/~{u}/pubs/paper{k}.html"] = f"paper:{u}:{k}"
        for c in self.courses:
            pages[f"/courses/{c}/"] = f"course:{c}"
            for k in (1, 2):
                pages[f"/courses/{c}/notes/week%20{k}.html"] = f"notes:{c}:{k}"
        self.pages = pages
        self.by_id = {v: k for k, v in pages.items()}
        self.legit = set(pages.values())

    def variant(self, path: str, salt: str) -> str:
        """Another spelling of canonical `path`, chosen from `salt`."""
        rng = self.rng(f"v{salt}{path}")
        kind = rng.randrange(6)
        if kind == 0 and "~" in path:
            return path.replace("~", rng.choice(["%7E", "%7e"]))
        if kind == 1:
            letters = [
                i for i, c in enumerate(path) if c.isalpha() and "%" not in path[max(0, i - 2) : i]
            ]
            if letters:
                i = rng.choice(letters)
                return path[:i] + f"%{ord(path[i]):02{rng.choice('Xx')}}" + path[i + 1 :]
        if kind == 2 and path.count("/") >= 2:
            i = path.index("/", 1)
            return path[:i] + "/%2E" + path[i:]
        if kind == 3 and path.endswith("/"):
            return path + rng.choice(["index.html", "index.htm"])
        if kind == 4 and path.count("/") >= 2:
            i = path.index("/", 1)
            return path[:i] + "/" + path[i:]
        return path.replace("/", "//", 1) if path != "/" else "/index.html"

    def body_for(self, pid: str, here: str) -> str:
        rel: list[Link] = []
        kind, _, arg = pid.partition(":")
        if pid == "home":
            rel = [("people/", "People"), ("courses/", "Courses"), ("alice/", "Project Alice")]
        elif pid == "people":
            rel = [(f"{u}.html", title_of(u)) for u in self.people] + [("index2.html", "Alumni")]
        elif pid == "courses":
            rel = [(f"{c}/", c.upper()) for c in self.courses]
        elif kind == "person" and arg in self.users:
            rel = [(f"/~{arg}/", "Home page")]
        elif kind == "home":
            rel = [("pubs/", "Publications"), ("../people/", "People")]
        elif kind == "pubs":
            rel = [("paper1.html", "Paper 1"), ("paper2.html", "Paper 2"), ("../", "Home")]
        elif kind == "course":
            rel = [("notes/week%201.html", "Week 1"), ("notes/week%202.html", "Week 2")]
        elif kind == "notes":
            k = arg.split(":")[1]
            rel = [(f"week%20{3 - int(k)}.html", "Other week"), ("../", "Course")]
        others = sorted(self.pages)
        rng = self.rng(f"legacy{here}")
        legacy = [(self.variant(rng.choice(others), here), "old link")]
        legacy.append((self.variant(here, here + "again"), "this page"))
        nav = bar(
            [
                ("/", "Home"),
                ("/people/", "People"),
                ("/courses/", "Courses"),
                ("/cgi-bin/finger", "Finger"),
            ]
        )
        main = prose(self, pid, self.vocab) + ul(rel) + f'<div class="legacy">{ul(legacy)}</div>'
        return doc(title_of(pid.replace(":", " ")), f"<div>{nav}</div><h1>{pid}</h1>{main}")

    def handle(self, req: Req) -> Reply:
        if req.query:
            return not_found()
        canon = normalise(req.path)
        pid = self.pages.get(canon)
        if pid is None:
            if canon + "/" in self.pages:
                return redirect(req.path + "/", 301)
            return not_found()
        body = self.body_for(pid, req.path)
        return self.legit_page(pid, body) if req.path == canon else trap(body)


# ----------------------------------------------------------------------------------------
# Tracking parameters: newsletter issues link articles with utm_source/medium/campaign/
# content; a "keep the campaign" script carries any incoming utm_*/fbclid/gclid/mc_* into
# every internal link; a "Trending on Facebook" box links with a fresh fbclid each time.
# Legit look-alikes: /newsletter/?issue=N (real issues) and /articles/x?page=2 (long
# articles really split in two).
# ----------------------------------------------------------------------------------------

_TRACKING = ("utm_", "fbclid", "gclid", "mc_cid", "mc_eid", "_hsenc", "igshid")


class Tracking(Site):
    """A news site whose links carry campaign parameters and fresh click ids."""

    name = "tracking"
    kind = "tracking parameters: utm_*, mc_cid/mc_eid carried along, fresh fbclid/gclid"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/subscribe"]

    def build(self) -> None:
        self.vocab = words_for("news")
        self.secs = slugs(self.key("secs"), 4, THEMES["news"], 1)
        self.arts = slugs(self.key("arts"), 30, self.vocab, 3)
        self.long = set(self.arts[::6])
        self.sec_of = {s: self.secs[i % 4] for i, s in enumerate(self.arts)}
        self.legit = {"home", "newsletter"} | {f"s:{s}" for s in self.secs}
        self.legit |= {f"a:{s}:1" for s in self.arts} | {f"a:{s}:2" for s in self.long}
        self.legit |= {f"n:{k}" for k in range(1, 9)}

    def shell(self, title: str, main: str, carry: str) -> str:
        def c(h: str) -> str:
            return h + (("&" if "?" in h else "?") + carry if carry else "")

        nav = bar(
            [
                (c("/"), "Home"),
                *[(c(f"/section/{s}/"), title_of(s)) for s in self.secs],
                (c("/newsletter/"), "Newsletter"),
                ("/subscribe", "Subscribe"),
            ]
        )
        fb = [(f"/articles/{s}?fbclid=IwAR{self.token(20)}", title_of(s)) for s in self.arts[:3]]
        main = re.sub(r'href="(/[^"]*)"', lambda m: f'href="{c(m.group(1))}"', main)
        return doc(
            f"{title} | The Harbour Post",
            f"<nav>{nav}</nav><main><h1>{title}</h1>"
            f"{main}</main><aside>Trending on Facebook{ul(fb)}</aside>",
        )

    def handle(self, req: Req) -> Reply:
        p, pairs = req.path, qlist(req.query)
        tracked = [(k, v) for k, v in pairs if k.startswith(_TRACKING)]
        real = [(k, v) for k, v in pairs if not k.startswith(_TRACKING)]
        carry = "&".join(f"{k}={v}" for k, v in tracked if k not in ("fbclid", "gclid"))
        rq = "&".join(f"{k}={v}" for k, v in real)
        parts = [x for x in p.split("/") if x]
        rep: Reply | None = None
        if p == "/" and not rq:
            items = [(f"/articles/{s}", title_of(s)) for s in self.arts[:10]]
            ads = [(f"/articles/{self.arts[-1]}?gclid=Cj0K{self.token(16)}", "Sponsored")]
            rep = self.page(
                "home", "Front page", prose(self, "home", self.vocab) + ul(items) + ul(ads), carry
            )
        elif p.startswith("/section/") and len(parts) == 2 and parts[1] in self.secs and not rq:
            s = parts[1]
            items = [(f"/articles/{x}", title_of(x)) for x in self.arts if self.sec_of[x] == s]
            rep = self.page(
                f"s:{s}", title_of(s), prose(self, f"s{s}", self.vocab) + ul(items), carry
            )
        elif p == "/newsletter/":
            q = qs(rq)
            if not rq:
                items = [(f"/newsletter/?issue={k}", f"Issue {k}") for k in range(1, 9)]
                rep = self.page("newsletter", "Newsletter", ul(items), carry)
            elif list(q) == ["issue"] and q["issue"] in [str(k) for k in range(1, 9)]:
                k = int(q["issue"])
                utm = f"utm_source=newsletter&utm_medium=email&utm_campaign=issue-{k}"
                items = [
                    (
                        f"/articles/{s}?{utm}&utm_content=slot{j}&mc_cid=c{k}&mc_eid=e{j}",
                        title_of(s),
                    )
                    for j, s in enumerate(self.arts[k : k + 4])
                ]
                rep = self.page(
                    f"n:{k}", f"Issue {k}", prose(self, f"n{k}", self.vocab) + ul(items), carry
                )
        elif p.startswith("/articles/") and len(parts) == 2 and parts[1] in self.arts:
            s = parts[1]
            n = 2 if rq == "page=2" and s in self.long else 1 if not rq else 0
            if n:
                more = [(f"/articles/{s}?page=2", "Continue reading")] if s in self.long else []
                if n == 2:
                    more = [(f"/articles/{s}", "Page 1")]
                sec = self.sec_of[s]
                rep = self.page(
                    f"a:{s}:{n}",
                    title_of(s),
                    prose(self, f"a{s}{n}", self.vocab)
                    + ul([*more, (f"/section/{sec}/", title_of(sec))]),
                    carry,
                )
        if rep is None:
            return not_found()
        if tracked:
            return trap(rep.body if isinstance(rep.body, str) else "")
        return rep

    def page(self, pid: str, title: str, main: str, carry: str) -> Reply:
        return self.legit_page(pid, self.shell(title, main, carry))


# ----------------------------------------------------------------------------------------
# Drupal: a "Log in" link with `?destination=<this page>` on every page; the login,
# register and password pages link each other with their own address as the destination,
# so destinations nest without end. Drupal 7's stock robots.txt disallows `/user/login/`
# with a trailing slash, which does not cover `/user/login?destination=...`. Also raw
# `/node/N` and `/taxonomy/term/N` addresses of aliased pages (shortlinks, a block).
# Legit look-alikes: the front page pager `?page=1|2`, aliased articles and topics.
# ----------------------------------------------------------------------------------------


class Drupal(Site):
    """A Drupal site with nesting ?destination= login links and /node/N duplicates."""

    name = "drupal"
    kind = "Drupal: /user/login?destination= nesting, /node/N and /taxonomy/term/N aliases"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = [
        "/admin/",
        "/comment/reply/",
        "/node/add/",
        "/search/",
        "/user/register/",
        "/user/password/",
        "/user/login/",
        "/user/logout/",
    ]
    per = 10

    def build(self) -> None:
        self.vocab = words_for("gov")
        self.arts = slugs(self.key("arts"), 24, self.vocab, 3)
        self.basic = ["about-us", "contact", "history", "team"]
        self.topics = slugs(self.key("topics"), 5, THEMES["gov"], 1)
        self.nid = {f"/news/{s}": 10 + i for i, s in enumerate(self.arts)}
        self.nid |= {f"/{b}": 50 + i for i, b in enumerate(self.basic)}
        self.tid = {t: 3 + i for i, t in enumerate(self.topics)}
        self.legit = {"front:0", "front:1", "front:2"} | {f"n:{s}" for s in self.arts}
        self.legit |= {f"b:{b}" for b in self.basic} | {f"t:{t}" for t in self.topics}

    def topic_of(self, s: str) -> str:
        return self.topics[self.arts.index(s) % 5]

    def shell(self, title: str, main: str, here: str, nid: int | None = None) -> str:
        dest = quote(here.lstrip("/"), safe="")
        head = f'<link rel="shortlink" href="/node/{nid}">' if nid else ""
        menu = bar(
            [
                ("/", "Home"),
                *[(f"/{b}", title_of(b)) for b in self.basic],
                ("/search/node", "Search"),
                (f"/user/login?destination={dest}", "Log in"),
            ]
        )
        recent = ul([(f"/node/{self.nid[f'/news/{s}']}", title_of(s)) for s in self.arts[:5]])
        tags = ul([(f"/topics/{t}", title_of(t)) for t in self.topics])
        return doc(
            f"{title} | Parish Council",
            f"<nav>{menu}</nav><main><h1>{title}</h1>"
            f"{main}</main><aside><h2>Recent content</h2>{recent}<h2>Topics</h2>{tags}"
            "</aside>",
            head=head,
        )

    def user(self, which: str, here: str) -> str:
        dest = quote(here.lstrip("/"), safe="")
        tabs = [
            (f"/user/{w}?destination={dest}", t)
            for w, t in (
                ("login", "Log in"),
                ("register", "Create new account"),
                ("password", "Request new password"),
            )
        ]
        return self.shell(title_of(which), f"<form>Username Password</form>{ul(tabs)}", here)

    def handle(self, req: Req) -> Reply:
        p, q = req.path, qs(req.query)
        here = req.target
        if p == "/" and req.query in ("", "page=1", "page=2"):
            n = int(q.get("page", "0"))
            chunk = self.arts[n * self.per : (n + 1) * self.per]
            items = "".join(
                f"<article><h2>{a(f'/news/{s}', title_of(s))}</h2>"
                f"{prose(self, f'x{s}', self.vocab, 25, 45)}</article>"
                for s in chunk
            )
            pager = bar([("/" if k == 0 else f"/?page={k}", str(k + 1)) for k in range(3)])
            return self.legit_page(f"front:{n}", self.shell("Welcome", items + pager, here))
        if (
            p.startswith("/user/")
            and p.count("/") == 2
            and p[6:] in ("login", "register", "password")
        ):
            return trap(self.user(p[6:], here))
        parts = [x for x in p.split("/") if x]
        if parts[:1] == ["node"] and len(parts) == 2 and parts[1].isdigit():
            inv = {v: k for k, v in self.nid.items()}
            alias = inv.get(int(parts[1]))
            if alias is None:
                return not_found()
            return trap(self.node(alias, here)[1])
        if parts[:2] == ["taxonomy", "term"] and len(parts) == 3:
            hit = [t for t, i in self.tid.items() if str(i) == parts[2]]
            return trap(self.topic(hit[0], here)) if hit else not_found()
        if parts[:1] == ["topics"] and len(parts) == 2 and parts[1] in self.topics:
            body = self.topic(parts[1], here)
            return trap(body) if req.query else self.legit_page(f"t:{parts[1]}", body)
        if p in self.nid:
            pid, body = self.node(p, here)
            return trap(body) if req.query else self.legit_page(pid, body)
        return not_found()

    def node(self, alias: str, here: str) -> tuple[str, str]:
        nid = self.nid[alias]
        if alias.startswith("/news/"):
            s = alias[6:]
            t = self.topic_of(s)
            main = prose(self, f"n{s}", self.vocab) + (
                f"<p>Topic: {a(f'/topics/{t}', title_of(t))} "
                f"({a(f'/taxonomy/term/{self.tid[t]}', 'term')})</p>"
                f"{a(f'/comment/reply/{nid}', 'Add new comment')}"
            )
            return f"n:{s}", self.shell(title_of(s), main, here, nid)
        b = alias[1:]
        return f"b:{b}", self.shell(title_of(b), prose(self, f"b{b}", self.vocab), here, nid)

    def topic(self, t: str, here: str) -> str:
        items = [(f"/news/{s}", title_of(s)) for s in self.arts if self.topic_of(s) == t]
        return self.shell(title_of(t), prose(self, f"t{t}", self.vocab, 40, 90) + ul(items), here)


# ----------------------------------------------------------------------------------------
# A web file manager (Tiny File Manager style, `index.php?p=<dir>`): the "parent folder"
# link appends `/..` instead of trimming, and child links append to the path as given,
# so `p=docs/../docs/manual/..` spellings of each folder never end; column sort links.
# Legit look-alikes: a real deep tree (`p=projects/2024/q3/reports`), a real folder named
# `up`, and `&view=<file>` pages for each file.
# ----------------------------------------------------------------------------------------


class FileManager(Site):
    """A PHP file manager whose ?p= paths accrete `..` segments."""

    name = "filemgr"
    kind = "web file manager: ?p=dir/.. accretion, &sort=&order=, a real deep tree"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/index.php")]
    robots_disallow: ClassVar[list[str]] = ["/dl.php"]

    def build(self) -> None:
        self.vocab = words_for("archive")
        self.dirs = [
            "",
            "docs",
            "docs/manual",
            "docs/manual/en",
            "projects",
            "projects/2024",
            "projects/2024/q3",
            "projects/2024/q3/reports",
            "media",
            "up",
        ]
        names = slugs(self.key("files"), 30, THEMES["archive"], 2)
        self.files = {
            d: [f"{n}.txt" for n in names[3 * i : 3 * i + 3]] for i, d in enumerate(self.dirs)
        }
        self.legit = {f"d:{d}" for d in self.dirs}
        self.legit |= {f"f:{d}/{f}" for d in self.dirs for f in self.files[d]}

    def shell(self, title: str, main: str) -> str:
        return doc(
            f"{title} - File Manager",
            f"<nav>{a('/index.php', 'Home')}</nav>"
            f"<h1>{title}</h1>{main}<footer>Tiny File Manager 2.5</footer>",
        )

    def listing(self, raw: str, d: str) -> str:
        pre = f"{raw}/" if raw else ""
        kids = [x for x in self.dirs if x and posixpath.dirname(x) == d]
        rows = [
            (f"/index.php?p={pre}{posixpath.basename(k)}", posixpath.basename(k) + "/")
            for k in kids
        ]
        if raw or d:
            rows.insert(0, (f"/index.php?p={pre}..", ".."))
        for f in self.files[d]:
            rows.append((f"/index.php?p={raw}&view={f}", f))
            rows.append((f"/dl.php?f={quote(pre + f)}", "download"))
        sorts = [
            (f"/index.php?p={raw}&sort={s}&order={o}", f"{s} {o}")
            for s in ("name", "size", "modified")
            for o in ("asc", "desc")
        ]
        crumbs = [("/index.php", "Home")] + [
            (f"/index.php?p={'/'.join(d.split('/')[: k + 1])}", x)
            for k, x in enumerate(d.split("/"))
            if d
        ]
        return self.shell(
            d or "Home",
            f"<p>{bar(crumbs, ' / ')}</p><p>{bar(sorts)}</p>"
            + ul(rows)
            + prose(self, f"d{d}", self.vocab, 30, 60),
        )

    def handle(self, req: Req) -> Reply:
        if req.path != "/index.php":
            return not_found()
        q = qs(req.query)
        raw = q.get("p", "")
        d = posixpath.normpath(raw) if raw else ""
        d = "" if d == "." else d
        if d.startswith("..") or d.startswith("/") or d not in self.dirs:
            return not_found()
        if "view" in q:
            f = q["view"]
            if f not in self.files[d]:
                return not_found()
            back = [(f"/index.php?p={raw}", "Back"), (f"/index.php?p={raw}&edit={f}", "Edit")]
            body = self.shell(f, f"<pre>{prose(self, f'f{d}/{f}', self.vocab)}</pre>{ul(back)}")
            ok = req.query == f"p={d}&view={f}"
            return self.legit_page(f"f:{d}/{f}", body) if ok else trap(body)
        body = self.listing(raw, d)
        ok = req.query == (f"p={d}" if d else "")
        return self.legit_page(f"d:{d}", body) if ok else trap(body)


# ----------------------------------------------------------------------------------------
# Control: no traps. A plain 30-page site with one link into a robots-disallowed area.
# ----------------------------------------------------------------------------------------


class Control(Site):
    """A plain site with no traps."""

    name = "control"
    kind = "no traps: home, about, 4 sections of 6 pages, one robots-disallowed link"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/private/"]

    def build(self) -> None:
        self.vocab = words_for("books")
        self.secs = slugs(self.key("secs"), 4, THEMES["books"], 1)
        self.pages = {s: slugs(self.key(f"p{s}"), 6, self.vocab, 2) for s in self.secs}
        self.legit = {"home", "about"} | {f"s:{s}" for s in self.secs}
        self.legit |= {f"p:{s}/{x}" for s in self.secs for x in self.pages[s]}

    def page(self, pid: str, title: str, links: list[Link]) -> Reply:
        nav = bar(
            [("/", "Home"), *[(f"/{s}/", title_of(s)) for s in self.secs], ("/about", "About")]
        )
        body = (
            f"<header>{nav}</header><main><h1>{title}</h1>{prose(self, pid, self.vocab)}"
            f"{ul(links)}</main><footer>{a('/private/', 'Staff')}</footer>"
        )
        return self.legit_page(pid, doc(title, body))

    def handle(self, req: Req) -> Reply:
        p = req.path
        if req.query:
            return not_found()
        if p == "/":
            return self.page("home", "Shelf Notes", [(f"/{s}/", title_of(s)) for s in self.secs])
        if p == "/about":
            return self.page("about", "About", [])
        parts = [x for x in p.split("/") if x]
        if len(parts) == 1 and p.endswith("/") and parts[0] in self.secs:
            s = parts[0]
            return self.page(
                f"s:{s}", title_of(s), [(f"/{s}/{x}", title_of(x)) for x in self.pages[s]]
            )
        if len(parts) == 2 and parts[0] in self.secs and parts[1] in self.pages[parts[0]]:
            return self.page(f"p:{p[1:]}", title_of(parts[1]), [(f"/{parts[0]}/", "Up")])
        return not_found()
