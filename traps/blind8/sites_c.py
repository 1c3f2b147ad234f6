"""Blind8 sites, part C: a Squarespace blog, NodeBB, a Dataverse repository, and a
control."""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from typing import ClassVar

from traps.blind.kit import (
    THEMES,
    Reply,
    Req,
    a,
    doc,
    not_found,
    redirect,
    slugs,
    title_of,
    words_for,
)
from traps.blind2.common import Link, bar, esc, prose, qlist, qs, ul
from traps.blind7.common import Hosted, data, href, setp

# ----------------------------------------------------------------------------------------
# Squarespace 7.0 blog. Lists are paged by "Older Posts" `?offset=<ms timestamp of the
# last post shown>` and "Newer Posts" `?reversePaginate=true&offset=<ms of the first>`;
# posts link their tags (`?tag=`), categories (`?category=`), author (`?author=<24-hex
# id>`), the sidebar archive block links months (`?month=March-2026`), and every filtered
# list pages the same way, keeping its filter. Lists link `?format=rss`.
# robots.txt is Squarespace's own: prefix lines (`/config`, `/search`, `/api/`,
# `/static/`) and many wildcard lines (`/*?tag=*`, `/*?author=*`, `/*?month=*`,
# `/*?reversePaginate=*`, `/*?format=json`...) which do not cover `?category=` or
# `?offset=`.
# Legit look-alikes: the blog's real older pages, the category pages, the 24 posts.
# ----------------------------------------------------------------------------------------

_SQ_ROBOTS = """User-agent: *
Disallow: /config
Disallow: /search
Disallow: /account$
Disallow: /api/
Disallow: /static/
Disallow: /*?author=*
Disallow: /*&author=*
Disallow: /*?tag=*
Disallow: /*&tag=*
Disallow: /*?month=*
Disallow: /*&month=*
Disallow: /*?view=*
Disallow: /*&view=*
Disallow: /*?format=json
Disallow: /*&format=json
Disallow: /*?format=page-context
Disallow: /*&format=page-context
Disallow: /*?format=main-content
Disallow: /*&format=main-content
Disallow: /*?format=json-pretty
Disallow: /*&format=json-pretty
Disallow: /*?format=ical
Disallow: /*&format=ical
Disallow: /*?reversePaginate=*
Disallow: /*&reversePaginate=*
"""


class Squarespace(Hosted):
    """Squarespace blog: offset= ms pages, reversePaginate, tag/author/month/category lists."""

    name = "squarespace"
    kind = "Squarespace blog: ?offset=<ms> x tag/author/month filters, reversePaginate copies"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/config", "/search", "/api/", "/static/"]

    def robots_txt(self, req: Req) -> str:
        return _SQ_ROBOTS

    def setup(self) -> None:
        self.vocab = words_for("food")
        rng = self.rng("sq")
        self.cats = ["Recipes", "Market-Notes", "Kitchen"]
        self.tags = [title_of(s) for s in slugs(self.key("tg"), 8, THEMES["food"], 1)]
        self.authors = {
            hashlib.md5(s.encode()).hexdigest()[:24]: title_of(s)
            for s in slugs(self.key("au"), 3, THEMES["food"], 1)
        }
        titles = slugs(self.key("ti"), 24, self.vocab, 3)
        t0 = dt.datetime(2026, 11, 28, 9)
        self.posts = []
        for i, t in enumerate(titles):
            when = t0 - dt.timedelta(days=9 * i, hours=rng.randint(0, 8))
            self.posts.append(
                {
                    "slug": t,
                    "when": when,
                    "ms": int(when.timestamp() * 1000),
                    "cat": self.cats[i % 3],
                    "tags": rng.sample(self.tags, 2),
                    "au": rng.choice(list(self.authors)),
                }
            )
        self.reg("home", "/")
        self.reg("about", "/about")
        self.reg("blog", "/blog")
        for k in (1, 2):
            self.reg(f"blog{k}", f"/blog?offset={self.posts[8 * k - 1]['ms']}")
        for c in self.cats:
            self.reg(f"cat{c}", f"/blog?category={c}")
        for p in self.posts:
            self.reg(f"p{p['slug']}", self.purl(p))
        ev = slugs(self.key("ev"), 12, THEMES["events"] + THEMES["food"], 2)
        e0 = dt.date(2027, 2, 20)
        self.events = [(e, e0 - dt.timedelta(days=11 * i)) for i, e in enumerate(ev)]
        self.reg("events", "/events")
        for e, _ in self.events:
            self.reg(f"ev{e}", f"/events/{e}")

    @staticmethod
    def purl(p: dict) -> str:
        w = p["when"]
        return f"/blog/{w.year}/{w.month}/{w.day}/{p['slug']}"

    def frame(self, title: str, body: str, side: str = "") -> str:
        nav = bar(
            [
                ("/", "Home"),
                ("/blog", "Journal"),
                ("/events", "Events"),
                ("/about", "About"),
                ("/search?q=", "Search"),
                ("/config", "Log in"),
            ]
        )
        return doc(
            f"{title} — Saffron & Salt",
            f"<header>{nav}</header><main>{body}</main><aside>{side}</aside>",
        )

    def sidebar(self) -> str:
        months = sorted({(p["when"].year, p["when"].month) for p in self.posts}, reverse=True)
        return "<h3>Archive</h3>" + ul(
            [
                (f"/blog?month={dt.date(y, m, 1):%B}-{y}", f"{dt.date(y, m, 1):%B %Y}")
                for y, m in months
            ]
        )

    def handle(self, req: Req) -> Reply:
        if req.path in ("/", "/about") and not req.query:
            key = "home" if req.path == "/" else "about"
            extra = ul([(self.purl(p), title_of(p["slug"])) for p in self.posts[:3]])
            body = f"<h1>{title_of(key)}</h1>{prose(self, key, self.vocab)}{extra}"
            return self.serve(req, self.frame(title_of(key), body))
        if req.path == "/blog":
            return self.listing(req)
        if req.path == "/events" or req.path.startswith("/events/"):
            return self.event(req)
        m = re.fullmatch(r"/blog/(\d{4})/(\d{1,2})/(\d{1,2})/([\w-]+)", req.path)
        if m:
            p = next((x for x in self.posts if self.purl(x) == req.path), None)
            if p is None:
                return not_found()
            i = self.posts.index(p)
            tags = bar([(f"/blog?tag={t}", t) for t in p["tags"]])
            nav = []
            if i > 0:
                nav.append((self.purl(self.posts[i - 1]), "Newer"))
            if i + 1 < len(self.posts):
                nav.append((self.purl(self.posts[i + 1]), "Older"))
            body = (
                f"<h1>{title_of(p['slug'])}</h1><p>{p['when']:%B %d, %Y} by "
                f"{a('/blog?author=' + p['au'], self.authors[p['au']])} in "
                f"{a('/blog?category=' + p['cat'], p['cat'])}</p>"
                f"{prose(self, 'p' + p['slug'], self.vocab)}<p>Tags: {tags}</p>"
                f"<p>{bar(nav)}</p>"
            )
            return self.serve(req, self.frame(title_of(p["slug"]), body, self.sidebar()))
        return not_found()

    def event(self, req: Req) -> Reply:
        q = qs(req.query)
        today = dt.date(2026, 12, 3)
        names = [e for e, _ in self.events]
        if req.path == "/events":
            if q.get("format") == "ical":
                return data("BEGIN:VCALENDAR\nEND:VCALENDAR\n", "text/calendar")
            view = q.get("view", "")
            if view == "calendar":
                mm, _, yy = q.get("month", "12-2026").partition("-")
                if not (mm.isdigit() and yy.isdigit() and 1 <= int(mm) <= 12):
                    return not_found()
                first = dt.date(int(yy), int(mm), 1)
                prev = first - dt.timedelta(days=1)
                nxt = first + dt.timedelta(days=32)
                rows = [
                    (f"/events/{e}", f"{d:%d} {title_of(e)}")
                    for e, d in self.events
                    if (d.year, d.month) == (first.year, first.month)
                ]
                nav = bar(
                    [
                        (f"/events?view=calendar&month={prev.month:02d}-{prev.year}", "<"),
                        (f"/events?view=calendar&month={nxt.month:02d}-{nxt.year}", ">"),
                    ]
                )
                body = f"<h1>{first:%B %Y}</h1><p>{nav}</p>{ul(rows)}"
                return self.serve(req, self.frame("Events", body))
            past = view == "past"
            rows = [
                (f"/events/{e}", f"{d:%b %d, %Y} {title_of(e)}")
                for e, d in self.events
                if (d < today) == past
            ]
            links = bar(
                [
                    ("/events?view=calendar&month=12-2026", "Calendar"),
                    ("/events?view=past", "Past events"),
                    ("/events?format=ical", "iCal"),
                ]
            )
            body = f"<h1>Events</h1><p>{links}</p>{prose(self, 'events', self.vocab, 30)}"
            return self.serve(req, self.frame("Events", body + ul(rows)))
        e = req.path[8:]
        if e not in names:
            return not_found()
        if q.get("format") == "ical":
            return data("BEGIN:VCALENDAR\nEND:VCALENDAR\n", "text/calendar")
        i = names.index(e)
        d = self.events[i][1]
        nav = []
        if i > 0:
            nav.append((f"/events/{names[i - 1]}", "Next event"))
        if i + 1 < len(names):
            nav.append((f"/events/{names[i + 1]}", "Previous event"))
        cal = f"/events?view=calendar&month={d.month:02d}-{d.year}"
        body = (
            f"<h1>{title_of(e)}</h1><p>{d:%A, %B %d, %Y}</p>"
            f"{prose(self, 'ev' + e, self.vocab, 60, 160)}<p>{bar(nav)}</p><p>"
            f"{a(f'/events/{e}?format=ical', 'ICS')} | {a(cal, 'View in calendar')}</p>"
        )
        return self.serve(req, self.frame(title_of(e), body))

    def listing(self, req: Req) -> Reply:
        pairs = qlist(req.query)
        q = dict(pairs)
        if q.get("format") == "rss":
            return data("<rss version='2.0'></rss>", "application/rss+xml")
        posts = list(self.posts)
        filt = [(k, v) for k, v in pairs if k in ("tag", "category", "author", "month")]
        for k, v in filt:
            if k == "tag":
                posts = [p for p in posts if v in p["tags"]]
            elif k == "category":
                posts = [p for p in posts if p["cat"] == v]
            elif k == "author":
                posts = [p for p in posts if p["au"] == v]
            else:
                posts = [p for p in posts if f"{p['when']:%B}-{p['when'].year}" == v]
        off = int(q["offset"]) if q.get("offset", "").isdigit() else None
        if off is None:
            shown = posts[:8]
        elif q.get("reversePaginate") == "true":
            newer = [p for p in posts if p["ms"] > off]
            shown = newer[-8:]
        else:
            shown = [p for p in posts if p["ms"] < off][:8]
        items = "".join(
            f"<article><h2>{a(self.purl(p), title_of(p['slug']))}</h2><p>"
            f"{a('/blog?category=' + p['cat'], p['cat'])} · "
            + bar([(f"/blog?tag={t}", t) for t in p["tags"]], " · ")
            + f" · {a('/blog?author=' + p['au'], self.authors[p['au']])}</p></article>"
            for p in shown
        )
        nav: list[Link] = []
        if shown and posts.index(shown[0]) > 0:
            nav.append(
                (
                    href(
                        "/blog",
                        [*filt, ("reversePaginate", "true"), ("offset", str(shown[0]["ms"]))],
                    ),
                    "Newer Posts",
                )
            )
        if shown and posts.index(shown[-1]) + 1 < len(posts):
            nav.append((href("/blog", [*filt, ("offset", str(shown[-1]["ms"]))]), "Older Posts"))
        head = " ".join(f"{k}: {esc(v)}" for k, v in filt) or "Journal"
        text = ""
        if not filt or (len(filt) == 1 and filt[0][0] == "category"):
            text = prose(self, "list" + req.target, self.vocab, 20, 50)
        body = (
            f"<h1>{head}</h1>{text}{items}<p>{bar(nav)}</p>"
            f"<p>{a(href('/blog', [*filt, ('format', 'rss')]), 'RSS')}</p>"
        )
        return self.serve(req, self.frame("Journal", body, self.sidebar()))


# ----------------------------------------------------------------------------------------
# NodeBB 3. Topics live at `/topic/<tid>/<slug>`; every post index is a URL of its own
# (`/topic/<tid>/<slug>/<index>`: the page holding post <index>, scrolled to it), each
# post's timestamp links `/post/<pid>` (a redirect to that), the topic's sort menu sets
# `?sort=oldest_to_newest|newest_to_oldest|most_votes` kept by the pager, category lists
# sort by `?sort=recently_replied|recently_created|most_posts|most_votes|most_views`,
# and `/topic/<tid>` without its slug redirects. Tag pages sort too.
# robots.txt is NodeBB's default (`/admin/`, `/reset/`, `/compose`).
# Legit look-alikes: a category's real page 2, a long topic's real page 2, /recent,
# the tag pages, the user profiles.
# ----------------------------------------------------------------------------------------

_NB_TSORT = ["oldest_to_newest", "newest_to_oldest", "most_votes"]
_NB_CSORT = ["recently_replied", "recently_created", "most_posts", "most_votes", "most_views"]


class NodeBB(Hosted):
    """NodeBB: /topic/T/slug/<index> for every post, /post/<pid> redirects, sort= lists."""

    name = "nodebb"
    kind = "NodeBB 3: /topic/T/slug/<post index> URLs, /post/<pid> redirects, ?sort= kept"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/admin/", "/reset/", "/compose"]

    def setup(self) -> None:
        self.vocab = words_for("docs")
        rng = self.rng("nb")
        self.cats = {1 + i: s for i, s in enumerate(slugs(self.key("c"), 3, THEMES["docs"], 2))}
        self.users = slugs(self.key("u"), 4, THEMES["docs"], 1)
        self.tagl = slugs(self.key("tg"), 4, THEMES["docs"], 1)
        titles = slugs(self.key("t"), 20, self.vocab, 3)
        self.topics: dict[int, dict] = {}
        pid = 300
        for i, t in enumerate(titles):
            n = 14 if i == 4 else rng.randint(2, 7)
            posts = []
            for _ in range(n):
                pid += rng.randint(1, 4)
                posts.append((pid, rng.choice(self.users), rng.randint(-2, 15)))
            self.topics[40 + i] = {
                "slug": t,
                "cid": 1 if i < 10 else 2 if i < 15 else 3,
                "posts": posts,
                "tags": rng.sample(self.tagl, 1),
                "views": rng.randint(5, 900),
            }
        self.reg("home", "/")
        self.reg("recent", "/recent")
        self.reg("tags", "/tags")
        for tg in self.tagl:
            self.reg(f"tag{tg}", f"/tags/{tg}")
        for c, s in self.cats.items():
            self.reg(f"c{c}", f"/category/{c}/{s}")
        self.reg("c1p2", f"/category/1/{self.cats[1]}?page=2")
        for t, tp in self.topics.items():
            self.reg(f"t{t}", f"/topic/{t}/{tp['slug']}")
            if len(tp["posts"]) > 10:
                self.reg(f"t{t}p2", f"/topic/{t}/{tp['slug']}?page=2")
        for u in self.users:
            self.reg(f"u{u}", f"/user/{u}")

    def frame(self, title: str, body: str) -> str:
        nav = bar(
            [
                ("/", "Categories"),
                ("/recent", "Recent"),
                ("/tags", "Tags"),
                ("/compose", "New Topic"),
                ("/register", "Register"),
                ("/login", "Login"),
            ]
        )
        return doc(f"{title} | Lantern Community", f"<nav>{nav}</nav>{body}")

    def tl(self, t: int, extra: str = "") -> str:
        return f"/topic/{t}/{self.topics[t]['slug']}{extra}"

    def tlist(self, ids: list[int]) -> str:
        return ul([(self.tl(t), title_of(self.topics[t]["slug"])) for t in ids])

    def handle(self, req: Req) -> Reply:
        path, q = req.path, qs(req.query)
        if path in ("/register", "/login"):
            return self.serve(req, self.frame(path[1:], f"<h1>{path[1:]}</h1><form></form>"))
        if path == "/" and not q:
            rows = [(f"/category/{c}/{s}", title_of(s)) for c, s in self.cats.items()]
            body = f"<h1>Categories</h1>{ul(rows)}{prose(self, 'home', self.vocab)}"
            return self.serve(req, self.frame("Home", body))
        if path == "/recent":
            ids = sorted(self.topics, key=lambda t: -self.topics[t]["posts"][-1][0])
            return self.serve(
                req,
                self.frame(
                    "Recent",
                    "<h1>Recent</h1>"
                    + prose(self, "recent", self.vocab, 20, 40)
                    + self.tlist(ids[:20]),
                ),
            )
        if path == "/tags":
            body = f"<h1>Tags</h1>{ul([(f'/tags/{t}', t) for t in self.tagl])}"
            return self.serve(req, self.frame("Tags", body + prose(self, "tags", self.vocab, 20)))
        m = re.fullmatch(r"/tags/([\w-]+)", path)
        if m and m.group(1) in self.tagl:
            tg = m.group(1)
            ids = [t for t, tp in self.topics.items() if tg in tp["tags"]]
            if q.get("sort") == "most_views":
                ids.sort(key=lambda t: -self.topics[t]["views"])
            sorts = bar([(f"/tags/{tg}?sort={s}", s) for s in _NB_CSORT])
            body = f"<h1>#{tg}</h1><p>{sorts}</p>{prose(self, 'tag' + tg, self.vocab, 20, 50)}"
            return self.serve(req, self.frame(tg, body + self.tlist(ids)))
        m = re.fullmatch(r"/category/(\d+)(?:/([\w-]+))?", path)
        if m and int(m.group(1)) in self.cats:
            return self.category(req, int(m.group(1)), q)
        m = re.fullmatch(r"/post/(\d+)", path)
        if m:
            for t, tp in self.topics.items():
                for i, (pid, _, _) in enumerate(tp["posts"]):
                    if pid == int(m.group(1)):
                        return redirect(self.tl(t, f"/{i + 1}"))
            return not_found()
        m = re.fullmatch(r"/topic/(\d+)(?:/([\w-]+)(?:/(\d+))?)?", path)
        if m and int(m.group(1)) in self.topics:
            t = int(m.group(1))
            if m.group(2) != self.topics[t]["slug"]:
                return redirect(self.tl(t, f"/{m.group(3)}" if m.group(3) else ""), 301)
            return self.topic(req, t, int(m.group(3) or 0), q)
        m = re.fullmatch(r"/user/([\w-]+)", path)
        if m and m.group(1) in self.users:
            u = m.group(1)
            ids = [t for t, tp in self.topics.items() if tp["posts"][0][1] == u]
            body = f"<h1>{u}</h1>{prose(self, 'u' + u, self.vocab, 30, 70)}{self.tlist(ids)}"
            return self.serve(req, self.frame(u, body))
        return not_found()

    def category(self, req: Req, c: int, q: dict[str, str]) -> Reply:
        ids = [t for t, tp in self.topics.items() if tp["cid"] == c]
        s = q.get("sort", "recently_replied")
        key = {
            "recently_created": lambda t: -t,
            "most_posts": lambda t: -len(self.topics[t]["posts"]),
            "most_views": lambda t: -self.topics[t]["views"],
            "most_votes": lambda t: -self.topics[t]["posts"][0][2],
        }
        ids.sort(key=key.get(s, lambda t: -self.topics[t]["posts"][-1][0]))
        page = int(q["page"]) if q.get("page", "").isdigit() and int(q["page"]) > 0 else 1
        pages = max(1, (len(ids) + 7) // 8)
        page = min(page, pages)
        base = f"/category/{c}/{self.cats[c]}"
        pairs = [("sort", q["sort"])] if "sort" in q else []
        sorts = bar([(href(base, [("sort", x)]), x) for x in _NB_CSORT])
        pager = bar([(href(base, [*pairs, ("page", str(n))]), str(n)) for n in range(1, pages + 1)])
        text = prose(self, f"c{c}" if page == 1 else f"c{c}p{page}", self.vocab, 30, 70)
        body = (
            f"<h1>{title_of(self.cats[c])}</h1><p>{sorts}</p>{text}"
            f"{self.tlist(ids[(page - 1) * 8 : page * 8])}<p>{pager}</p>"
        )
        return self.serve(req, self.frame(title_of(self.cats[c]), body))

    def topic(self, req: Req, t: int, index: int, q: dict[str, str]) -> Reply:
        tp = self.topics[t]
        posts = list(enumerate(tp["posts"], 1))
        s = q.get("sort", "oldest_to_newest")
        if s == "newest_to_oldest":
            posts = posts[::-1]
        elif s == "most_votes":
            posts.sort(key=lambda x: -x[1][2])
        pages = (len(posts) + 9) // 10
        page = int(q["page"]) if q.get("page", "").isdigit() and int(q["page"]) > 0 else 1
        if index and "page" not in q:
            page = next((k // 10 + 1 for k, x in enumerate(posts) if x[0] == index), pages)
        page = min(page, pages)
        pairs = [("sort", q["sort"])] if "sort" in q else []
        html = "".join(
            f"<li id='{i}'>{a('/user/' + u, u)} {a(f'/post/{pid}', 'posted')} votes {v}"
            f"{prose(self, f'post{pid}', self.vocab, 20, 60)}</li>"
            for i, (pid, u, v) in posts[(page - 1) * 10 : page * 10]
        )
        sorts = bar([(f"?sort={x}", x) for x in _NB_TSORT])
        pager = bar([(href("", [*pairs, ("page", str(n))]), str(n)) for n in range(1, pages + 1)])
        last = a(self.tl(t, f"/{len(tp['posts'])}"), "Jump to latest")
        c = tp["cid"]
        tags = bar([(f"/tags/{g}", g) for g in tp["tags"]])
        body = (
            f"<p>{a(f'/category/{c}/{self.cats[c]}', title_of(self.cats[c]))}</p>"
            f"<h1>{title_of(tp['slug'])}</h1><p>{tags}</p><p>Sort: {sorts} | {last}</p>"
            f"<ol>{html}</ol><p>{pager}</p>"
        )
        return self.serve(req, self.frame(title_of(tp["slug"]), body))


# ----------------------------------------------------------------------------------------
# Dataverse 5/6 (an institutional installation). Dataverse pages search their contents:
# facet links add the next numbered filter query (`fq0=`, `fq1=`, ... in click order:
# `authorName_ss:"..."`, `subject_ss:"..."`, `keywordValue_ss:"..."`,
# `publicationDate:"2024"`, `dvCategory:"..."`), the type toggles rewrite `types=` (any of
# dataverses, datasets, files joined by ':'), `sort=nameSort|dateSort&order=asc|desc`, and
# paging (`page=`) keeps it all. Datasets (`/dataset.xhtml?persistentId=doi:...`) link every
# version (`&version=N.0`, the latest a copy of the default) and their files under the
# version shown (`/file.xhtml?fileId=N&version=...`: copies).
# Legit look-alikes: sub-dataverses, the root's real page 2, older dataset versions with
# their own metadata, the files' own pages.
# ----------------------------------------------------------------------------------------

_DV_TYPES = ["dataverses", "datasets", "files"]
_DV_ROOT_Q = [("q", ""), ("types", "dataverses:datasets"), ("sort", "dateSort"), ("order", "desc")]


class Dataverse(Hosted):
    """Dataverse: fqN= facets in click order, types=/sort=/order=/page=, versions x files."""

    name = "dataverse"
    kind = "Dataverse: fq0=,fq1=.. facets in click order, types=/sort=/page=, versions x files"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = [
        "/api/",
        "/loginpage.xhtml",
        "/dataverseuser.xhtml",
        "/oauth2/",
    ]

    def setup(self) -> None:
        self.vocab = words_for("science")
        rng = self.rng("dv")
        self.dvs = {s: title_of(s) for s in slugs(self.key("dv"), 3, THEMES["science"], 1)}
        self.authors = [title_of(s) for s in slugs(self.key("au"), 5, THEMES["science"], 2)]
        self.subjects = ["Earth and Environmental Sciences", "Physics", "Chemistry"]
        titles = slugs(self.key("ds"), 16, self.vocab, 3)
        self.ds = []
        for i, t in enumerate(titles):
            doi = "doi:10.70122/FK2/" + hashlib.sha1(t.encode()).hexdigest()[:6].upper()
            self.ds.append(
                {
                    "title": title_of(t),
                    "doi": doi,
                    "dv": list(self.dvs)[i % 3],
                    "au": rng.choice(self.authors),
                    "subj": rng.choice(self.subjects),
                    "kw": rng.choice(THEMES["science"]),
                    "year": rng.randint(2019, 2026),
                    "ver": 2 if i % 3 == 0 else 1,
                    "file": 5000 + i * 7 if i % 2 == 0 else None,
                }
            )
        self.reg("root", "/")
        self.reg("root2", href("/dataverse/root", [*_DV_ROOT_Q, ("page", "2")], ":"))
        for s in self.dvs:
            self.reg(f"dv{s}", f"/dataverse/{s}")
        for d in self.ds:
            self.reg(f"ds{d['doi']}", f"/dataset.xhtml?persistentId={d['doi']}")
            if d["ver"] == 2:
                self.reg(f"ds{d['doi']}v1", f"/dataset.xhtml?persistentId={d['doi']}&version=1.0")
            if d["file"]:
                self.reg(f"f{d['file']}", f"/file.xhtml?fileId={d['file']}")

    def frame(self, title: str, body: str) -> str:
        nav = bar(
            [
                ("/", "Root"),
                ("/loginpage.xhtml?redirectPage=%2Fdataverse.xhtml", "Log In"),
                ("/dataverseuser.xhtml?editMode=CREATE", "Sign Up"),
                ("/api/info/version", "API"),
            ]
        )
        return doc(f"{title} - Harbour Data Repository", f"<header>{nav}</header>{body}")

    def handle(self, req: Req) -> Reply:
        path, pairs = req.path, qlist(req.query)
        q = dict(pairs)
        if path == "/" and not pairs:
            return self.search(req, "root", list(_DV_ROOT_Q))
        m = re.fullmatch(r"/dataverse/([\w-]+)", path)
        if m and (m.group(1) in self.dvs or m.group(1) == "root"):
            return self.search(req, m.group(1), pairs or list(_DV_ROOT_Q))
        if path == "/dataset.xhtml":
            d = next((x for x in self.ds if x["doi"] == q.get("persistentId")), None)
            if d is None:
                return not_found()
            v = q.get("version", f"{d['ver']}.0")
            if v not in [f"{k}.0" for k in range(1, d["ver"] + 1)]:
                return not_found()
            vers = ul(
                [
                    (f"/dataset.xhtml?persistentId={d['doi']}&version={k}.0", f"Version {k}.0")
                    for k in range(d["ver"], 0, -1)
                ]
            )
            kw = href(
                f"/dataverse/{d['dv']}", [("q", ""), ("fq0", f'keywordValue_ss:"{d["kw"]}"')], ":"
            )
            au = href("/dataverse/root", [("q", ""), ("fq0", f'authorName_ss:"{d["au"]}"')], ":")
            files = ""
            if d["file"]:
                fl = f"/file.xhtml?fileId={d['file']}" + (
                    "" if "version" not in q else f"&version={v}"
                )
                files = f"<h3>Files</h3>{ul([(fl, 'data.tab')])}"
            key = f"ds{d['doi']}" + ("v1" if v == "1.0" and d["ver"] == 2 else "")
            up = a("/dataverse/" + d["dv"], self.dvs[d["dv"]])
            body = (
                f"<p>{up}</p><h1>{esc(d['title'])}</h1><p>Version {v}</p>"
                f"<p>{a(au, d['au'])} | keyword {a(kw, d['kw'])}</p>"
                f"{prose(self, key, self.vocab)}{files}<h3>Versions</h3>{vers}"
            )
            return self.serve(req, self.frame(d["title"], body))
        if path == "/file.xhtml":
            d = next((x for x in self.ds if str(x["file"]) == q.get("fileId")), None)
            if d is None:
                return not_found()
            up = a("/dataset.xhtml?persistentId=" + d["doi"], d["title"])
            text = prose(self, f"f{d['file']}", self.vocab, 30, 60)
            body = f"<h1>data.tab</h1><p>{up}</p>{text}"
            return self.serve(req, self.frame("data.tab", body))
        return not_found()

    def search(self, req: Req, dv: str, pairs: list[tuple[str, str]]) -> Reply:
        q = dict(pairs)
        types = q.get("types", "dataverses:datasets").split(":")
        rows = [d for d in self.ds if dv == "root" or d["dv"] == dv]
        fqs = [v for k, v in pairs if re.fullmatch(r"fq\d+", k)]
        for fq in fqs:
            field, _, val = fq.partition(":")
            val = val.strip('"')
            attr = {
                "authorName_ss": "au",
                "subject_ss": "subj",
                "keywordValue_ss": "kw",
                "publicationDate": "year",
            }.get(field)
            if attr:
                rows = [d for d in rows if str(d[attr]) == val]
        if q.get("sort") == "nameSort":
            rows.sort(key=lambda d: d["title"], reverse=q.get("order") == "desc")
        else:
            rows.sort(key=lambda d: d["year"], reverse=q.get("order", "desc") == "desc")
        items: list[Link] = []
        if "dataverses" in types and dv == "root" and not fqs:
            items += [(f"/dataverse/{s}", f"{n} (Dataverse)") for s, n in self.dvs.items()]
        if "datasets" in types:
            items += [(f"/dataset.xhtml?persistentId={d['doi']}", d["title"]) for d in rows]
        if "files" in types:
            items += [
                (f"/file.xhtml?fileId={d['file']}", f"data.tab ({d['title']})")
                for d in rows
                if d["file"]
            ]
        page = int(q["page"]) if q.get("page", "").isdigit() and int(q["page"]) > 0 else 1
        pages = max(1, (len(items) + 9) // 10)
        page = min(page, pages)
        base = f"/dataverse/{dv}"
        nfq = len(fqs)
        facets = ""
        for field, attr in (
            ("authorName_ss", "au"),
            ("subject_ss", "subj"),
            ("keywordValue_ss", "kw"),
            ("publicationDate", "year"),
        ):
            vals = sorted({str(d[attr]) for d in rows})
            facets += (
                "<p>"
                + bar(
                    [(href(base, setp(pairs, f"fq{nfq}", f'{field}:"{v}"'), ":"), v) for v in vals]
                )
                + "</p>"
            )
        toggles = []
        for t in _DV_TYPES:
            now = [x for x in types if x != t] if t in types else [*types, t]
            if now:
                toggles.append((href(base, setp(pairs, "types", ":".join(now)), ":"), t))
        sorts = bar(
            [
                (href(base, setp(setp(pairs, "sort", s), "order", o), ":"), f"{s} {o}")
                for s in ("nameSort", "dateSort")
                for o in ("asc", "desc")
            ]
        )
        pager = bar(
            [(href(base, setp(pairs, "page", str(n)), ":"), str(n)) for n in range(1, pages + 1)]
        )
        key = f"dv{dv}" if dv != "root" else ("root" if page == 1 else "root2")
        body = (
            f"<h1>{self.dvs.get(dv, 'Harbour Data Repository')}</h1>"
            f"{prose(self, key, self.vocab, 30, 70)}<p>{bar(toggles)}</p><p>{sorts}</p>"
            f"<div class='facets'>{facets}</div>"
            f"{ul(items[(page - 1) * 10 : page * 10])}<p>{pager}</p>"
        )
        return self.serve(req, self.frame(self.dvs.get(dv, "Root"), body))


class Control(Hosted):
    """A plain site with no traps."""

    name = "control"
    kind = "no traps: home, about, 4 sections of 7 pages, one robots-disallowed link"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/staff/"]

    def setup(self) -> None:
        self.vocab = words_for("travel")
        self.secs = slugs(self.key("secs"), 4, THEMES["travel"], 1)
        self.pages = {s: slugs(self.key(f"p{s}"), 7, self.vocab, 2) for s in self.secs}
        self.reg("home", "/")
        self.reg("about", "/about/")
        for s in self.secs:
            self.reg(f"s:{s}", f"/{s}/")
            for x in self.pages[s]:
                self.reg(f"p:{s}/{x}", f"/{s}/{x}/")

    def handle(self, req: Req) -> Reply:
        pid = self.pid_of(req)
        if pid is None:
            return not_found()
        links: list[Link] = []
        if pid == "home":
            links = [(f"/{s}/", title_of(s)) for s in self.secs]
        elif pid.startswith("s:"):
            links = [(f"/{pid[2:]}/{x}/", title_of(x)) for x in self.pages[pid[2:]]]
        elif pid.startswith("p:"):
            links = [(f"/{pid[2:].split('/')[0]}/", "Up")]
        nav = bar([("/", "Home"), ("/about/", "About")])
        title = "Valley Ferry Trust" if pid == "home" else title_of(pid.split("/")[-1][-30:])
        body = (
            f"<header>{nav}</header><h1>{esc(title)}</h1>{prose(self, pid, self.vocab)}"
            f"{ul(links)}<footer>{a('/staff/', 'Staff area')}</footer>"
        )
        return self.serve(req, doc(title, body))


__all__ = ["Control", "Dataverse", "NodeBB", "Squarespace"]
