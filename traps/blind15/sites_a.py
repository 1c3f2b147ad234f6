"""blind15 sites, part a: a Hacker News-style link aggregator, an Ex Libris Aleph library
catalogue, a flight metasearch site with a white-label partner host, and the control."""

from __future__ import annotations

import random
import re
from typing import ClassVar

from .common import (
    B15,
    Reply,
    Req,
    day,
    h,
    is_day,
    month,
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
# A Hacker News-style aggregator (the Arc "news" application). Listings `/`, `/news?p=N`
# ("More" without end), `/newest?next=<id>&n=`, `/front?day=<date>` (past front pages,
# arrows both ways), `/ask`, `/show`, `/from?site=<domain>`; stories `/item?id=<n>`;
# users `/user?id=<name>`. Every row has a "hide" link and every comment a "fave" link
# carrying `auth=<token minted per response>` and `goto=<the current page>`: the answer
# page's own "un-fave"/"hide" links carry its own URL as goto (nesting). Comments'
# `/context?id=` pages link replies with ever longer ids; made-up stories on the far
# listings link `/item?id=` pages of their own. Real pages in the family: `/news?p=2` and
# `p=3`, the first `/newest?next=` step, two past days. robots.txt: login, submit, vote,
# reply, the redirect endpoints, submitted, flag.
# ----------------------------------------------------------------------------------------

_DAY1, _DAY2 = "2026-12-04", "2026-12-03"


class Hnews(B15):
    """Hacker News-style: endless ?p=, next=, day=; auth tokens; goto= nesting."""

    name = "hnews"
    kind = "Hacker News-style aggregator: ?p=, next=, day= counters, auth= tokens, goto= nesting"
    theme = "science"
    brand = "Tidemill News"
    robots_disallow: ClassVar[list[str]] = [
        "/login",
        "/submit",
        "/vote",
        "/reply",
        "/x?",
        "/r?",
        "/submitted",
        "/flag",
    ]

    def make(self) -> None:
        self.titles = [title_of(s) for s in slugs(self.key("t"), 20, self.v, 4)]
        self.ids = [46210000 + 173 * k for k in range(20)]
        self.users = slugs(self.key("u"), 4, self.v, 1)
        doms = slugs(self.key("d"), 5, self.v, 1)
        tlds = ("org", "dev", "com", "io", "net")
        self.doms = [f"{d}.{t}" for d, t in zip(doms, tlds, strict=True)]
        lists: dict[str, tuple[list[int], str]] = {
            "/": (list(range(6)), "/news?p=2"),
            "/news?p=2": (list(range(6, 12)), "/news?p=3"),
            "/news?p=3": (list(range(12, 16)), "/news?p=4"),
            "/newest": ([19, 18, 17, 16], f"/newest?next={self.ids[16] - 1}&n=31"),
            f"/newest?next={self.ids[16] - 1}&n=31": (
                [15, 14, 13, 12],
                f"/newest?next={self.ids[12] - 1}&n=61",
            ),
            "/ask": ([2, 5, 9], "/ask?p=2"),
            "/show": ([4, 11, 18], "/show?p=2"),
            f"/front?day={_DAY1}": ([3, 8, 17, 19], f"/front?day={_DAY2}"),
            f"/front?day={_DAY2}": ([1, 10, 14], f"/front?day={day(_DAY2, -1)}"),
        }
        for d in (0, 1):
            lists[f"/from?site={self.doms[d]}"] = (
                [k for k in range(20) if k % 5 == d],
                f"/from?site={self.doms[d]}&next={self.ids[d] - 1}",
            )
        for i, (t, (idx, more)) in enumerate(lists.items()):
            self.add(
                f"l{i}", t, lambda r, t=t, idx=idx, more=more: self.listing(t, f"l{t}", idx, more)
            )
        for k in range(20):
            self.add(f"i{k}", f"/item?id={self.ids[k]}", lambda r, k=k: self.item(r, k))
        for u in self.users:
            links = [(f"/submitted?id={u}", "submissions"), (f"/threads?id={u}", "comments")]
            links.append((f"/favorites?id={u}", "favorites"))
            self.add(
                f"u{u}", f"/user?id={u}", lambda r, u=u, x=links: self.thin(f"user: {u}", u, x)
            )
        nav = [("/", "Tidemill News")]
        self.add("g", "/newsguidelines.html", lambda r: self.thin("Guidelines", "g", nav))
        self.add("f", "/newsfaq.html", lambda r: self.thin("FAQ", "f", nav))

    def nav(self) -> list[tuple[str, str]]:
        return [
            ("/news", "Tidemill News"),
            ("/newest", "new"),
            (f"/front?day={_DAY1}", "past"),
            ("/ask", "ask"),
            ("/show", "show"),
            ("/newsguidelines.html", "guidelines"),
            ("/newsfaq.html", "FAQ"),
            ("/submit", "submit"),
            ("/login?goto=news", "login"),
        ]

    def row(self, sid: int, title: str, dom: str, user: str, here: str) -> list[tuple[str, str]]:
        return [
            (f"/item?id={sid}", title),
            (f"/from?site={dom}", dom),
            (f"/user?id={user}", user),
            (f"/hide?id={sid}&auth={self.fresh(40)}&goto={pq(here.lstrip('/'))}", "hide"),
        ]

    def listing(self, here: str, key: str, idx: list[int], more: str) -> str:
        links = self.nav()
        for k in idx:
            links += self.row(
                self.ids[k], self.titles[k], self.doms[k % 5], self.users[k % 4], here
            )
        links.append((more, "More"))
        return self.html("Tidemill News", key, ul(links), 20, 60)

    def fake(self, key: str, n: int = 6) -> list[tuple[int, str, str, str]]:
        rng = random.Random(self.key("fake" + key))
        out = []
        for j, t in enumerate(slugs(self.key("ft" + key), n, self.v, 4)):
            sid = 46300000 + rng.randrange(900000) * 7 + j
            dom = rng.choice(self.v).strip(",.!?").lower() + rng.choice((".com", ".org", ".io"))
            user = rng.choice(self.v).strip(",.!?").lower() + str(rng.randrange(100))
            out.append((sid, title_of(t), dom, user))
        return out

    def fake_listing(self, req: Req, title: str, more: list[tuple[str, str]]) -> Reply:
        links = self.nav()
        for sid, t, dom, user in self.fake(req.target):
            links += self.row(sid, t, dom, user, req.target)
        return self.tr(req, title, links + more)

    def comments(self, sid: int, here: str) -> list[tuple[str, str]]:
        out = []
        rng = random.Random(self.key(f"c{sid}"))
        for j in range(1, 4):
            cid = sid + j
            user = self.users[rng.randrange(4)] if sid in self.ids else f"anon{rng.randrange(99)}"
            out += [(f"/user?id={user}", user), (f"/context?id={cid}", "context")]
            out.append((f"/fave?id={cid}&auth={self.fresh(40)}&goto={pq(here.lstrip('/'))}", "fav"))
        return out

    def item(self, req: Req, k: int) -> str:
        sid = self.ids[k]
        links = [*self.nav(), (f"https://{self.doms[k % 5]}/{sid}", self.titles[k])]
        links += [(f"/from?site={self.doms[k % 5]}", self.doms[k % 5])]
        links += [(f"/user?id={self.users[k % 4]}", self.users[k % 4])]
        links += [(f"/vote?id={sid}&how=up&goto=item%3Fid%3D{sid}", "upvote")]
        links += self.comments(sid, f"/item?id={sid}")
        if k % 2 == 0:
            links.append((f"/item?id={sid}&p=2", "More comments"))
        return self.html(self.titles[k], f"i{k}", ul(links), 60, 180)

    def rest(self, req: Req) -> Reply:
        p, q = req.path, qs(req.query)
        n = num(q, "p", 1)
        if p == "/news" and n <= 1:
            return self.copy(req, 0, "/") or not_found()
        if p in ("/news", "/ask", "/show") and n > 1:
            return self.fake_listing(req, f"{p[1:]} page {n}", [(f"{p}?p={n + 1}", "More")])
        if p == "/newest":
            nxt = num(q, "next", 46400000) - 30 * num(q, "n", 1)
            return self.fake_listing(req, "New links", [(f"/newest?next={nxt}&n=31", "More")])
        if p == "/front" and is_day(q.get("day", "")):
            d = q["day"]
            more = [(f"/front?day={day(d, -1)}", "Go back a day")]
            more += [(f"/front?day={day(d, 1)}", "Go forward a day")]
            more += [
                (f"/front?day={day(d, -30)}", "a month"),
                (f"/front?day={day(d, -365)}", "year"),
            ]
            return self.fake_listing(req, f"Front page for {d}", more)
        if p == "/from" and q.get("site"):
            more = [(f"/from?site={q['site']}&next={num(q, 'next', 46400000) - 97}", "More")]
            return self.fake_listing(req, f"Submissions from {q['site']}", more)
        if p in ("/favorites", "/threads") and q.get("id"):
            more = [(f"{p}?id={q['id']}&next={num(q, 'next', 46400000) - 41}", "More")]
            if p == "/threads":
                more += self.comments(num(q, "next", 46400011), req.target)
            return self.fake_listing(req, f"{q['id']}'s {p[1:]}", more)
        sid = num(q, "id", -1)
        if p == "/item" and sid > 0:
            if sid in self.ids and "p" not in q:
                return self.copy(req, 0, f"/item?id={sid}") or not_found()
            t = title_of(slugs(self.key(f"it{sid}"), 1, self.v, 4)[0])
            links = [*self.nav(), (f"/item?id={sid}&p={n + 1}", "More comments")]
            return self.tr(req, t, links + self.comments(sid * 7 + n, req.target), 60, 150)
        if p == "/context" and sid > 0:
            links = [(f"/item?id={sid - 1}", "parent"), (f"/context?id={sid - 1}", "parent")]
            links += self.comments(sid * 10, req.target)
            return self.tr(req, f"Comment {sid}", links, 30, 90)
        if p in ("/fave", "/hide") and sid > 0:
            goto = "/" + unquote(q.get("goto", "news")).lstrip("/")
            links = [(goto, "back"), ("/", "Tidemill News")]
            links.append((f"{p}?id={sid}&un=t&auth={self.fresh(40)}&goto={pq(req.target)}", "undo"))
            return self.tr(req, f"{p[1:]} {sid}", links, 20, 50)
        if p == "/user" and q.get("id"):
            u = q["id"]
            links = [(f"/threads?id={u}", "comments"), (f"/favorites?id={u}", "favorites")]
            return self.tr(req, f"user: {u}", links)
        return not_found()


# ----------------------------------------------------------------------------------------
# An Ex Libris Aleph 500 web OPAC behind a static library site. Permalinks without a
# session (`/F/?func=direct&doc_number=<9 digits>&local_base=HRB01`, subject searches,
# the subject scan and its second page, `func=file` pages) are the real pages, listed by
# the static "new titles" months and collection pages. Every Aleph page also links its
# formats, holdings, "next record", author searches... as session URLs
# `/F/<session>-<seq>?func=...` with a new session and sequence minted per response;
# any other session-less `/F/?...` URL 302s into a new session. Session pages: results
# for any query with "refine" links appending `AND <word>` (nesting), `set_entry` and
# `short-jump` counters without end, scans from any term. New-titles months: two earlier
# months along "previous month" are real, the rest empty months both ways. robots.txt:
# PDS login, the X-server API, cgi-bin, patron functions, e-shelf, the Aleph tree.
# ----------------------------------------------------------------------------------------

_LB = "local_base=HRB01"
_MONTHS = ("2026-11", "2026-10", "2026-09")
_UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


class Aleph(B15):
    """Aleph OPAC: per-response session tokens in paths, 302s into sessions, refine nesting."""

    name = "aleph"
    kind = "Ex Libris Aleph OPAC: /F/<session>-<seq> per response, 302 into sessions, refine"
    theme = "books"
    brand = "Harbour University Library"
    robots_disallow: ClassVar[list[str]] = [
        "/pds",
        "/X",
        "/cgi-bin/",
        "/F/?func=bor-",
        "/F/?func=myshelf",
        "/exlibris/",
    ]

    def make(self) -> None:
        self.docs = [f"{4100 + 37 * k:09d}" for k in range(18)]
        self.titles = [title_of(s) for s in slugs(self.key("t"), 18, self.v, 3)]
        sur = slugs(self.key("a"), 6, self.v, 1)
        giv = slugs(self.key("g"), 6, self.v, 1)
        self.authors = [f"{title_of(s)}, {title_of(g)}" for s, g in zip(sur, giv, strict=True)]
        self.subjects = sorted(title_of(s) for s in slugs(self.key("s"), 5, self.v, 1))
        self.colls = slugs(self.key("c"), 3, self.v, 2)
        self.mon = {d: _MONTHS[0 if k < 8 else 1 if k < 13 else 2] for k, d in enumerate(self.docs)}
        self.add("home", "/", lambda r: self.home())
        self.add("new", "/new/", lambda r: self.thin("New titles", "new", self.newlinks()))
        for ym in _MONTHS:
            self.add(f"m{ym}", f"/new/{ym}.html", lambda r, ym=ym: self.newmonth(ym))
        cl = [(f"/collections/{c}.html", title_of(c)) for c in self.colls]
        self.add("colls", "/collections/", lambda r: self.thin("Special collections", "cl", cl))
        for i, c in enumerate(self.colls):
            self.add(f"c{c}", f"/collections/{c}.html", lambda r, i=i: self.coll(i))
        self.add("find", f"/F/?func=file&file_name=find-b&{_LB}", lambda r: self.form())
        self.add("help", "/F/?func=file&file_name=help-1", lambda r: self.html("Help", "help", ""))
        self.add("scan1", self.scan_url(""), lambda r: self.scan(0))
        self.add("scan2", self.scan_url(self.subjects[3]), lambda r: self.scan(3))
        for s in self.subjects:
            self.add(f"s{s}", self.sub_url(s), lambda r, s=s: self.subject(s))
        for k, d in enumerate(self.docs):
            self.add(f"d{d}", f"/F/?func=direct&doc_number={d}&{_LB}", lambda r, k=k: self.rec(k))

    def scan_url(self, start: str) -> str:
        tail = f"&scan_start={pq(start)}" if start else ""
        return f"/F/?func=scan&scan_code=SUB{tail}&{_LB}"

    def sub_url(self, s: str, sess: bool = False) -> str:
        return self.F(f"func=find-b&request={pq(s)}&find_code=SUB&{_LB}", sess)

    def F(self, query: str, sess: bool = True) -> str:
        if not sess:
            return "/F/?" + query
        return f"/F/{self.fresh(44, _UPPER)}-{self.tick() % 100000:05d}?{query}"

    def rlinks(self, ks: list[int]) -> list[tuple[str, str]]:
        return [(f"/F/?func=direct&doc_number={self.docs[k]}&{_LB}", self.titles[k]) for k in ks]

    def newlinks(self) -> list[tuple[str, str]]:
        return [(f"/new/{_MONTHS[0]}.html", "This month"), ("/", "Library home")]

    def home(self) -> str:
        links = [("/new/", "New titles"), ("/collections/", "Special collections")]
        links += [(f"/F/?func=file&file_name=find-b&{_LB}", "Catalogue search")]
        links += [
            (self.scan_url(""), "Browse subjects"),
            ("/F/?func=file&file_name=help-1", "Help"),
        ]
        links += [("/pds?func=load-login", "Sign in"), ("/F/?func=bor-info", "My account")]
        return self.html("Harbour University Library", "home", ul(links), 40, 110)

    def newmonth(self, ym: str) -> str:
        ks = [k for k, d in enumerate(self.docs) if self.mon[d] == ym]
        links = self.rlinks(ks)
        links += [(f"/new/{month(ym, -1)}.html", "previous month")]
        links += [(f"/new/{month(ym, 1)}.html", "next month"), ("/new/", "All months")]
        return self.html(f"New titles {ym}", f"m{ym}", ul(links), 20, 60)

    def coll(self, i: int) -> str:
        links = self.rlinks([k for k in range(18) if k % 3 == i])
        links.append(
            (self.F(f"func=find-b&request={pq(self.colls[i])}&find_code=WCL&{_LB}"), "All")
        )
        return self.html(title_of(self.colls[i]), f"c{i}", ul(links), 40, 100)

    def form(self) -> str:
        links = [("/F/?func=file&file_name=help-1", "Help"), (self.scan_url(""), "Browse")]
        links += [(self.F(f"func=file&file_name=find-a&{_LB}"), "Advanced search")]
        return self.thin("Basic search", "form", links)

    def scan(self, start: int, sess: bool = False) -> str:
        shown = self.subjects[start : start + 3]
        links = [(self.sub_url(s, sess), s) for s in shown]
        nxt = self.subjects[3] if start == 0 else shown[-1] + "a"
        links.append((self.scan_url(nxt), "Next page"))
        return self.html(f"Browse subjects from {shown[0]}", f"scan{start}", ul(links), 20, 50)

    def subject(self, s: str) -> str:
        ks = [k for k in range(18) if k % 5 == self.subjects.index(s)]
        links = self.rlinks(ks)
        links += [
            (self.F(f"func=find-b&request={pq(s + ' AND ' + w)}&find_code=SUB&{_LB}"), w)
            for w in ("history", "maps")
        ]
        links.append((self.F(f"func=short-jump&jump=000011&request={pq(s)}&{_LB}"), "Next"))
        return self.html(f"Subject: {s}", f"s{s}", ul(links), 20, 60)

    def rec(self, k: int, fmt: str = "") -> str:
        d = self.docs[k]
        links = [(f"/F/?func=direct&doc_number={d}&{_LB}", "Permalink")]
        links.append((self.sub_url(self.subjects[k % 5]), self.subjects[k % 5]))
        links.append((f"/collections/{self.colls[k % 3]}.html", title_of(self.colls[k % 3])))
        a = self.authors[k % 6]
        links.append((self.F(f"func=find-b&find_code=WAU&request={pq(a)}&{_LB}"), a))
        links += [
            (self.F(f"func=direct&doc_number={d}&format={f}&{_LB}"), f) for f in ("001", "999")
        ]
        links.append((self.F(f"func=item-global&doc_library=HRB50&doc_number={d}"), "Holdings"))
        links.append(
            (
                self.F(f"func=full-set-set&set_number=000412&set_entry={k + 2:06d}&format=999"),
                "Next record",
            )
        )
        links.append((f"/F/?func=myshelf-add-ful-1&doc_number={d}", "Add to e-Shelf"))
        return self.html(f"{self.titles[k]} / {a}", f"d{d}{fmt}", ul(links), 60, 150)

    def results(self, req: Req, request: str) -> Reply:
        rng = random.Random(self.key("r" + request))
        ks = rng.sample(range(18), 4)
        links = [
            (self.F(f"func=direct&doc_number={self.docs[k]}&{_LB}"), self.titles[k]) for k in ks
        ]
        words = slugs(self.key("w" + request), 3, self.v, 1)
        links += [
            (self.F(f"func=find-b&request={pq(request + ' AND ' + w)}&{_LB}"), "refine: " + w)
            for w in words
        ]
        jump = num(qs(req.query), "jump", 1) + 10
        links.append(
            (self.F(f"func=short-jump&jump={jump:06d}&request={pq(request)}&{_LB}"), "Next")
        )
        return self.tr(req, f"Results for {request}", links, 30, 90)

    def session(self, req: Req) -> Reply:
        q = qs(req.query)
        f = q.get("func", "")
        d = q.get("doc_number", "")
        if f == "direct" and d in self.docs:
            return trap(self.rec(self.docs.index(d), q.get("format", "")))
        if f in ("find-b", "short-jump") and q.get("request"):
            return self.results(req, q["request"])
        if f == "full-set-set":
            n = num(q, "set_entry", 1)
            k = h(f"{q.get('set_number')}{n}") % 18
            if n <= 18:
                return trap(self.rec(k, f"set{n}"))
            nxt = f"func=full-set-set&set_number={q.get('set_number', '')}&set_entry={n + 1:06d}"
            links = [(self.F(nxt), "Next record")]
            links.append((self.F(f"func=direct&doc_number={self.docs[k]}&{_LB}"), "Record"))
            return self.tr(req, f"Record {n} of set", links)
        if f == "scan":
            start = q.get("scan_start", "")
            terms = [start + w for w in slugs(self.key("sc" + start), 4, self.v, 1)]
            links = [(self.sub_url(t), t) for t in terms]
            links.append(
                (self.F(f"func=scan&scan_code=SUB&scan_start={pq(terms[-1])}&{_LB}"), "Next")
            )
            return self.tr(req, f"Browse from {start}", links)
        links = [("/", "Library home"), (self.F(f"func=file&file_name=find-b&{_LB}"), "Search")]
        links.append(
            (
                self.F(f"func=item-global&doc_library=HRB50&doc_number={d or '000000001'}"),
                "Holdings",
            )
        )
        return self.tr(req, f"Aleph {f or 'start'}", links)

    def rest(self, req: Req) -> Reply:
        p = req.path
        if re.fullmatch(r"/F/[A-Z0-9]{44}-\d{5}", p):
            return self.session(req)
        if p == "/F/":
            return redirect(self.F(req.query or f"func=file&file_name=start&{_LB}"))
        m = re.fullmatch(r"/new/(\d{4})-(\d{2})\.html", p)
        if m and "01" <= m.group(2) <= "12":
            ym = f"{m.group(1)}-{m.group(2)}"
            links = [(f"/new/{month(ym, -1)}.html", "previous month")]
            links += [(f"/new/{month(ym, 1)}.html", "next month"), ("/new/", "All months")]
            links.append(
                (self.F(f"func=find-b&request={pq('new ' + ym)}&find_code=WND&{_LB}"), "Search")
            )
            return self.tr(req, f"New titles {ym}: none", links)
        return not_found()


# ----------------------------------------------------------------------------------------
# A flight metasearch site (host 0) and an airline partner's white-label copy of it (host
# 1, with its own home, about and FAQ; every route, calendar and search again). Route
# pages `/routes/<A>-<B>/`, month calendars `/routes/<A>-<B>/<YYYY-MM>/` (arrows both
# ways; December and, along "next month", January are real), airports, airlines.
# Searches `/flights/<A>/<B>/<yymmdd>/?...`: sort x cabin x stops x adults x departure
# time, a clicked key moved to the end (keys in click order), `airlines=` a comma list
# growing per "+ airline", day arrows without end, "similar routes" to any pair; "Select"
# is `/flights/book?itin=` a 302 to `/flights/offer/<token per visit>`. robots.txt:
# account, login, API, checkout, price alerts, trips.
# ----------------------------------------------------------------------------------------

_AP = ("LHR", "AMS", "CDG", "FRA", "MAD", "DUB")
_ROUTES = ((0, 1), (0, 2), (1, 4), (2, 3), (3, 5), (5, 0))
_AL = (("TM", "tidemill-air"), ("HB", "harbour-wings"), ("CP", "copper-jet"), ("SG", "signal"))
_CAL = ("2026-12", "2027-01")
_FK = {
    "sort": ("best", "price", "duration", "depart"),
    "cabin": ("economy", "premium", "business", "first"),
    "stops": ("0", "1", "2"),
    "adults": ("1", "2", "3", "4"),
    "time": ("morning", "afternoon", "evening"),
}


def _ymd(iso: str) -> str:
    return iso[2:4] + iso[5:7] + iso[8:10]


def _iso(ymd: str) -> str:
    return f"20{ymd[:2]}-{ymd[2:4]}-{ymd[4:6]}"


class Flights(B15):
    """Flight metasearch: filter products in click order, day arrows, offer tokens, 2 hosts."""

    name = "flights"
    kind = "flight metasearch + white-label host: filters in click order, day arrows, offers"
    theme = "travel"
    brand = "Skylark Flights"
    hosts = 2
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/"), (1, "/")]
    robots_disallow: ClassVar[list[str]] = [
        "/account/",
        "/login",
        "/api/",
        "/checkout/",
        "/price-alerts/",
        "/trips/",
    ]

    def make(self) -> None:
        self.add("home", "/", lambda r: self.home())
        al = [(f"/airport/{a}/", a) for a in _AP]
        self.add("aps", "/airports/", lambda r: self.thin("Airports", "aps", al))
        for i, a in enumerate(_AP):
            self.add(f"a{a}", f"/airport/{a}/", lambda r, i=i: self.airport(i))
        for r, (x, y) in enumerate(_ROUTES):
            rt = f"{_AP[x]}-{_AP[y]}"
            self.add(f"r{rt}", f"/routes/{rt}/", lambda req, r=r: self.route(r))
            for ym in _CAL:
                self.add(
                    f"c{rt}{ym}",
                    f"/routes/{rt}/{ym}/",
                    lambda req, rt=rt, ym=ym: self.cal(rt, ym, ""),
                )
        for i, (c, s) in enumerate(_AL):
            self.add(f"l{c}", f"/airline/{c}-{s}/", lambda r, i=i: self.airline(i))
        self.add("deals", "/deals/", lambda r: self.deals())
        self.add("phome", "/", lambda r: self.phome(), 1)
        self.add(
            "pabout",
            "/about",
            lambda r: self.thin(
                "About Harbour Holidays flights", "pab", [("/", "Home"), ("/faq", "FAQ")]
            ),
            1,
        )
        self.add("pfaq", "/faq", lambda r: self.html("Questions", "pfaq", ul([("/", "Home")])), 1)

    def rlinks(self, rs: list[int]) -> list[tuple[str, str]]:
        out = []
        for r in rs:
            x, y = _ROUTES[r]
            out.append((f"/routes/{_AP[x]}-{_AP[y]}/", f"{_AP[x]} to {_AP[y]}"))
        return out

    def home(self) -> str:
        links = [("/airports/", "Airports"), ("/deals/", "Deals"), *self.rlinks(list(range(6)))]
        links += [(f"/airline/{c}-{s}/", title_of(s)) for c, s in _AL]
        links += [(self.bases[1] + "/", "Partner site"), ("/account/login", "Sign in")]
        links.append(("/price-alerts/", "Price alerts"))
        return self.html("Cheap flights", "home", ul(links), 40, 100)

    def phome(self) -> str:
        links = [*self.rlinks([0, 2, 4]), ("/about", "About"), ("/faq", "FAQ")]
        links += [(self.bases[0] + "/", "Powered by Skylark")]
        return self.thin("Harbour Holidays: flights", "phome", links)

    def airport(self, i: int) -> str:
        rs = [r for r, (x, y) in enumerate(_ROUTES) if i in (x, y)]
        return self.thin(
            f"Flights from {_AP[i]}", f"ap{i}", [*self.rlinks(rs), ("/airports/", "All")]
        )

    def airline(self, i: int) -> str:
        links = [*self.rlinks([i, (i + 2) % 6]), ("/", "Home")]
        return self.html(title_of(_AL[i][1]), f"al{i}", ul(links), 30, 80)

    def deals(self) -> str:
        links = [
            (self.search_url(_AP[x], _AP[y], "261212", [("sort", "price")]), f"{_AP[x]} {_AP[y]}")
            for x, y in _ROUTES[:3]
        ]
        return self.html("Deals", "deals", ul(links + self.rlinks([3, 4, 5])), 30, 70)

    def search_url(self, a: str, b: str, ymd: str, pairs: list[tuple[str, str]]) -> str:
        return qjoin(f"/flights/{a}/{b}/{ymd}/", pairs)

    def route(self, r: int) -> str:
        x, y = _ROUTES[r]
        a, b = _AP[x], _AP[y]
        links = [(f"/routes/{a}-{b}/{_CAL[0]}/", "December prices")]
        links += [(self.search_url(a, b, "261219", [("sort", "price")]), "Cheapest next week")]
        links += [(f"/airport/{a}/", a), (f"/airport/{b}/", b)]
        links += [(f"/airline/{c}-{s}/", title_of(s)) for c, s in (_AL[r % 4],)]
        return self.html(f"Cheap flights from {a} to {b}", f"r{r}", ul(links), 60, 140)

    def cal(self, rt: str, ym: str, key: str) -> str:
        a, b = rt.split("-")
        links = [
            (self.search_url(a, b, _ymd(f"{ym}-{d:02d}"), []), f"{d}") for d in range(1, 29, 3)
        ]
        links += [(f"/routes/{rt}/{month(ym, -1)}/", "previous month")]
        links += [(f"/routes/{rt}/{month(ym, 1)}/", "next month"), (f"/routes/{rt}/", rt)]
        return self.html(f"{a} to {b}: prices in {ym}", key or f"c{rt}{ym}", ul(links), 20, 60)

    def search(self, req: Req, a: str, b: str, ymd: str) -> Reply:
        pairs = [(k, v) for k, v in qlist(req.query) if k in (*_FK, "airlines")]
        cur = dict(pairs)
        links = []
        for j in range(5):
            itin = f"{h(req.target + str(j)):08x}"
            links.append((f"/flights/book?itin={itin}&from={a}&to={b}", f"Select flight {j + 1}"))
        for k, vals in _FK.items():
            links += [
                (self.search_url(a, b, ymd, moved(pairs, k, v)), f"{k}: {v}")
                for v in vals
                if cur.get(k) != v
            ]
        have = [x for x in cur.get("airlines", "").split(",") if x]
        for c, _ in _AL:
            if c not in have:
                links.append(
                    (
                        self.search_url(a, b, ymd, moved(pairs, "airlines", ",".join([*have, c]))),
                        f"+ {c}",
                    )
                )
        iso = _iso(ymd)
        for k, lab in ((-1, "previous day"), (1, "next day")):
            links.append((self.search_url(a, b, _ymd(day(iso, k)), pairs), lab))
        o = _AP[(_AP.index(b) + 1 + h(ymd) % 5) % 6] if b in _AP else "LHR"
        links += [(f"/routes/{b}-{o}/", f"{b} to {o}"), (f"/flights/{b}/{o}/{ymd}/", f"{b} to {o}")]
        return self.tr(req, f"{a} to {b} on {iso}", links, 30, 80)

    def rest(self, req: Req) -> Reply:
        if req.host_index == 1:
            got = self.copy(req, 0)
            if got:
                return got
        p = req.path
        m = re.fullmatch(r"/flights/([A-Z]{3})/([A-Z]{3})/(\d{6})/", p)
        if m and is_day(_iso(m.group(3))):
            return self.search(req, *m.groups())
        if p == "/flights/book":
            return redirect(f"/flights/offer/{self.fresh(24)}")
        m = re.fullmatch(r"/flights/offer/([0-9a-f]{24})(/share)?", p)
        if m:
            links = [(f"/flights/offer/{m.group(1)}/share", "Share"), ("/checkout/start", "Book")]
            links += [("/deals/", "Deals"), ("/", "Home")]
            return self.tr(req, "Your offer (valid 15 minutes)", links)
        m = re.fullmatch(r"/routes/([A-Z]{3})-([A-Z]{3})/(?:(\d{4}-\d{2})/)?", p)
        if m and m.group(1) != m.group(2):
            rt = f"{m.group(1)}-{m.group(2)}"
            if m.group(3):
                if not "01" <= m.group(3)[5:] <= "12":
                    return not_found()
                return trap(self.cal(rt, m.group(3), f"t{req.host_index}{req.target}"))
            a, b = m.group(1), m.group(2)
            links = [
                (f"/routes/{rt}/{_CAL[0]}/", "December prices"),
                (f"/routes/{b}-{a}/", "Return"),
            ]
            links.append((self.search_url(a, b, "261220", []), "Search"))
            return self.tr(req, f"Cheap flights from {a} to {b}", links)
        return not_found()


# ----------------------------------------------------------------------------------------
# The control: a community garden's static site. No traps.
# ----------------------------------------------------------------------------------------


class Control(B15):
    """No traps: home, about, four sections of six pages, one disallowed link."""

    name = "control"
    kind = "no traps (static site)"
    theme = "food"
    brand = "Tidemill Community Garden"
    robots_disallow: ClassVar[list[str]] = ["/plot-holders/"]

    def make(self) -> None:
        secs = ("growing", "events", "news", "volunteer")
        self.secs = {s: slugs(self.key(s), 6, self.v, 2) for s in secs}
        nav = [(f"/{s}/", title_of(s)) for s in secs]
        nav += [("/about/", "About"), ("/plot-holders/", "Plot holders")]
        self.add("home", "/", lambda r: self.html("Tidemill Community Garden", "home", ul(nav)))
        self.add("about", "/about/", lambda r: self.html("About us", "about", ul([("/", "Home")])))
        for s, ps in self.secs.items():
            idx = [(f"/{s}/{p}/", title_of(p)) for p in ps]
            self.add(f"s{s}", f"/{s}/", lambda r, s=s, x=idx: self.html(title_of(s), s, ul(x)))
            for p in ps:
                back = [(f"/{s}/", title_of(s)), ("/", "Home")]
                self.add(
                    f"p{s}{p}",
                    f"/{s}/{p}/",
                    lambda r, s=s, p=p, b=back: self.html(title_of(p), f"p{s}{p}", ul(b)),
                )
