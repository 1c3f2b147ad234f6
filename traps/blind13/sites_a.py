"""blind13 sites, part a: a Stack Exchange-style Q&A site, a sports-statistics reference,
a hotel with a booking engine on its own host, and the control."""

from __future__ import annotations

import datetime as dt
import re
from typing import ClassVar

from traps.blind.kit import redirect, slugs, title_of

from .common import B13, Reply, Req, not_found, num, qs, trap, ul

# ----------------------------------------------------------------------------------------
# A Stack Exchange-style Q&A site (a gardening community). Question pages are
# `/questions/<id>/<slug>`; the "Linked" and "Related" sidebars link other questions with
# `?lq=1` and `?rq=1`, answer "Share" links are `/a/<aid>` (302 to
# `/questions/<qid>/<slug>/<aid>`, the question again), the answer sort tabs are
# `?answertab=`, any other slug serves the question. Tag pages' "Related tags" add
# `+tag` in click order, with `?tab=` sorts and `&page=` paging. Real pages in the same
# family: `/questions?tab=newest&page=2..4` (the last questions are only linked there), and
# each user's `?tab=questions`. robots.txt: login, signup, ask, search, review, posts, api.
# ----------------------------------------------------------------------------------------

_QTABS = ("Newest", "Active", "Bountied", "Unanswered", "Frequent", "Votes")
_ATABS = ("scoredesc", "modifieddesc", "createdasc", "trending")


class Qa(B13):
    """Q&A: lq/rq sidebar copies, answer permalinks, tag intersections; real list pages."""

    name = "qa"
    kind = "Stack Exchange-style Q&A: ?lq=1/?rq=1 copies, /a/<id> permalinks, tag a+b+c"
    theme = "food"
    brand = "Gardening & Landscaping Stack Exchange"
    robots_disallow: ClassVar[list[str]] = [
        "/users/login",
        "/users/signup",
        "/questions/ask",
        "/search",
        "/review/",
        "/posts/",
        "/api/",
    ]

    def make(self) -> None:
        titles = slugs(self.key("q"), 20, self.v, 4)
        self.q = {41003 + 7 * i: t for i, t in enumerate(titles)}
        self.qids = list(self.q)
        self.tags = slugs(self.key("tags"), 6, self.v, 1)
        self.users = {2101 + 13 * i: n for i, n in enumerate(slugs(self.key("u"), 4, self.v, 1))}
        self.add("home", "/", lambda r: self.listing(1))
        self.add("q1", "/questions", lambda r: self.listing(1, True))
        for p in (2, 3, 4):
            self.add(
                f"q{p}", f"/questions?tab=newest&page={p}", lambda r, p=p: self.listing(p, True)
            )
        for qid in self.q:
            self.add(f"Q{qid}", self.qurl(qid), lambda r, qid=qid: self.question(qid, r))
        self.add("tags", "/tags", lambda r: self.thin("Tags", "tags", self.taglinks()))
        for t in self.tags:
            self.add(f"t{t}", f"/questions/tagged/{t}", lambda r, t=t: self.tagged([t], "", 1, r))
        for u in self.users:
            self.add(f"u{u}", self.uurl(u), lambda r, u=u: self.user(u, ""))
            self.add(f"uq{u}", self.uurl(u) + "?tab=questions", lambda r, u=u: self.user(u, "q"))

    def qurl(self, qid: int) -> str:
        return f"/questions/{qid}/{self.q[qid]}"

    def uurl(self, u: int) -> str:
        return f"/users/{u}/{self.users[u]}"

    def taglinks(self) -> list[tuple[str, str]]:
        return [(f"/questions/tagged/{t}", t) for t in self.tags]

    def listing(self, page: int, full: bool = False) -> str:
        qs_ = self.qids[(page - 1) * 5 : page * 5]
        links = [(self.qurl(q), title_of(self.q[q])) for q in qs_]
        if full:
            links += [(f"/questions?tab=newest&page={p}", f"Page {p}") for p in range(1, 5)]
            if page < 4:
                links.append((f"/questions?tab=newest&page={page + 1}", "Next"))
            links += [(f"/questions?tab={t}&pagesize=50", t) for t in _QTABS]
        else:
            links += [("/questions", "All questions"), ("/tags", "Tags"), ("/questions/ask", "Ask")]
            links += [("/users/login", "Log in")]
        return self.html(f"Questions, page {page}", f"list{page}{full}", ul(links), 30, 90)

    def question(self, qid: int, req: Req, extra: str = "") -> str:
        i = self.qids.index(qid)
        links = [(f"/questions/tagged/{self.tags[(i + k) % 6]}", "tag") for k in (0, 2)]
        u = list(self.users)[i % 4]
        links.append((self.uurl(u), self.users[u]))
        for k in (1, 5):
            o = self.qids[(i + k) % 20]
            links.append((self.qurl(o) + "?lq=1", "Linked: " + title_of(self.q[o])))
        for k in (3, 8, 13):
            o = self.qids[(i + k) % 20]
            links.append((self.qurl(o) + "?rq=1", "Related: " + title_of(self.q[o])))
        for n in (1, 2):
            links.append((f"/a/{qid + n}", f"Share answer {n}"))
        links += [(f"{self.qurl(qid)}?answertab={t}#tab-top", t) for t in _ATABS]
        links += [(f"/posts/{qid}/revisions", "Revisions"), (f"/posts/{qid}/edit", "Edit")]
        links.append((f"/q/{qid}", "Share"))
        title = title_of(self.q[qid]) + extra
        return self.html(title, f"Q{qid}{extra}", ul(links), 80, 220)

    def tagged(self, tags: list[str], tab: str, page: int, req: Req) -> str:
        base = "/questions/tagged/" + "+".join(tags)
        links = [(self.qurl(q), title_of(self.q[q])) for q in self.qids][
            (sum(map(len, tags)) + page) % 15 :
        ][:5]
        links += [(f"{base}+{t}", f"+ {t}") for t in self.tags if t not in tags]
        links += [(f"{base}?tab={t}", t) for t in _QTABS]
        links.append((f"{base}?tab={tab or 'Newest'}&page={page + 1}", "Next"))
        key = f"tag{base}{tab}{page}"
        return self.html("Questions tagged " + ", ".join(tags), key, ul(links), 20, 60)

    def user(self, u: int, tab: str) -> str:
        mine = [q for k, q in enumerate(self.qids) if k % 4 == list(self.users).index(u)]
        links = [(self.qurl(q), title_of(self.q[q])) for q in mine]
        links += [(self.uurl(u) + "?tab=questions", "Questions")]
        links += [(self.uurl(u) + f"?tab=questions&sort={s}", s) for s in ("votes", "newest")]
        if tab:
            return self.thin(f"Questions by {self.users[u]}", f"uq{u}", links)
        return self.html(f"User {self.users[u]}", f"u{u}", ul(links), 30, 80)

    def rest(self, req: Req) -> Reply:
        p, q = req.path, qs(req.query)
        m = re.fullmatch(r"/a/(\d+)", p)
        if m and (int(m.group(1)) - 1 in self.q or int(m.group(1)) - 2 in self.q):
            aid = int(m.group(1))
            qid = aid - 1 if aid - 1 in self.q else aid - 2
            return redirect(f"{self.qurl(qid)}/{aid}#{aid}")
        m = re.fullmatch(r"/q/(\d+)", p)
        if m and int(m.group(1)) in self.q:
            return redirect(self.qurl(int(m.group(1))), 301)
        m = re.fullmatch(r"/questions/(\d+)(/[^/]*)?(/\d+)?", p)
        if m and int(m.group(1)) in self.q:
            qid = int(m.group(1))
            if not m.group(2):
                return redirect(self.qurl(qid), 301)
            return trap(self.question(qid, req, " (copy)"))
        m = re.fullmatch(r"/questions/tagged/([a-z+]+)", p)
        if m and all(t in self.tags for t in m.group(1).split("+")):
            tags = m.group(1).split("+")
            if len(set(tags)) == len(tags):
                body = self.tagged(tags, q.get("tab", ""), num(q, "page", 1), req)
                return trap(body)
        if p == "/questions" and q.get("tab", "").lower() in [t.lower() for t in _QTABS]:
            pg = num(q, "page", 1)
            links = [(f"/questions?tab={q['tab']}&page={pg + 1}", "Next")]
            links += [(self.qurl(x), title_of(self.q[x])) for x in self.qids[pg % 16 :][:4]]
            return self.tr(req, f"Questions ({q['tab']}), page {pg}", links)
        m = re.fullmatch(r"/users/(\d+)/([a-z]+)", p)
        if m and int(m.group(1)) in self.users:
            return trap(self.html("User", f"ux{req.target}", "", 20, 50))
        return not_found()


# ----------------------------------------------------------------------------------------
# A sports-reference-style statistics site (a basketball league). League seasons
# `/leagues/NBL_<y>.html` and team seasons `/teams/<T>/<y>.html` have "Previous season"
# arrows back to the league's first season (2024; earlier years are 404s); only the
# current season is linked from the home page, so the 2025 team pages and the 2024 league
# page are only found along the arrows. Every team season links the Team Game Finder
# (`/play-index/tgl_finder.cgi?...`): column sorts x opponent x location x `offset=`
# paging, and its "Widen span" link lowers `year_min` without end (the finder answers any
# year with an empty table). robots.txt: the CSV exports, the account pages, `/tiny/`
# short links, `/req/` (the Stathead API); the finder is left open.
# ----------------------------------------------------------------------------------------

_COLS = ("date_game", "pts", "opp_pts", "fg_pct", "fg3", "trb", "ast", "tov")
_LOCS = ("", "H", "A", "N")


class Stats(B13):
    """Sports statistics: finder sorts/filters/offsets and endless span widening."""

    name = "stats"
    kind = "sports-reference-style stats: team game finder sorts x filters x offset, year_min--"
    theme = "news"
    brand = "Basketball Reference (NBL)"
    robots_disallow: ClassVar[list[str]] = ["/req/", "/tiny/", "/my/", "/export/", "/login"]

    def make(self) -> None:
        self.teams = {
            c: title_of(n)
            for c, n in zip(
                ("HAR", "CPR", "MEA", "ORC", "LAN", "QUA"),
                slugs(self.key("teams"), 6, self.v, 2),
                strict=True,
            )
        }
        self.players = slugs(self.key("pl"), 8, self.v, 2)
        self.add("home", "/", lambda r: self.home())
        self.add("about", "/about/", lambda r: self.thin("About", "about", [("/", "Home")]))
        for y in (2024, 2025, 2026):
            self.add(f"L{y}", f"/leagues/NBL_{y}.html", lambda r, y=y: self.league(y))
        for t in self.teams:
            self.add(f"F{t}", f"/teams/{t}/", lambda r, t=t: self.franchise(t))
            for y in (2025, 2026):
                self.add(f"T{t}{y}", f"/teams/{t}/{y}.html", lambda r, t=t, y=y: self.team(t, y))
        for i, p in enumerate(self.players):
            self.add(f"P{p}", self.purl(i), lambda r, i=i: self.player(i))

    def purl(self, i: int) -> str:
        p = self.players[i]
        return f"/players/{p[0]}/{p.replace('-', '')[:7]}0{i + 1}.html"

    def home(self) -> str:
        links = [("/leagues/NBL_2026.html", "2026 season")]
        links += [(f"/teams/{t}/", n) for t, n in self.teams.items()] + [("/about/", "About")]
        links += [("/my/", "Account"), ("/login", "Log in")]
        return self.html("Basketball Reference: NBL", "home", ul(links))

    def league(self, y: int) -> str:
        links = [
            (f"/teams/{t}/{y}.html" if y > 2024 else f"/teams/{t}/", n)
            for t, n in self.teams.items()
        ]
        links.append((f"/leagues/NBL_{y - 1}.html", "Previous season"))
        if y < 2026:
            links.append((f"/leagues/NBL_{y + 1}.html", "Next season"))
        links += [(self.purl(i), title_of(p)) for i, p in enumerate(self.players) if i % 3 == y % 3]
        return self.html(f"{y} NBL season summary", f"L{y}", ul(links), 60, 160)

    def franchise(self, t: str) -> str:
        links = [(f"/teams/{t}/2026.html", "2026"), ("/", "Home")]
        return self.thin(f"{self.teams[t]} franchise index", f"F{t}", links)

    def finder(
        self, t: str, y0: int, y1: int, opp: str = "", loc: str = "", sort: str = "", off: int = 0
    ) -> str:
        return (
            f"/play-index/tgl_finder.cgi?request=1&match=game&year_min={y0}&year_max={y1}"
            f"&team_id={t}&opp_id={opp}&game_location={loc}&order_by={sort or 'date_game'}"
            f"&offset={off}"
        )

    def team(self, t: str, y: int) -> str:
        links = [(f"/teams/{t}/{y - 1}.html", "Previous season"), (f"/teams/{t}/", "Franchise")]
        if y < 2026:
            links.append((f"/teams/{t}/{y + 1}.html", "Next season"))
        links.append((self.finder(t, y, y), "Team game finder"))
        links += [(f"/export/{t}_{y}.csv", "Get table as CSV"), (f"/tiny/{t}{y}", "Share")]
        i = list(self.teams).index(t)
        links += [(self.purl((i + k) % 8), "Roster") for k in (0, 3)]
        return self.html(f"{y} {self.teams[t]} roster and stats", f"T{t}{y}", ul(links), 70, 180)

    def player(self, i: int) -> str:
        t = list(self.teams)[i % 6]
        links = [(f"/teams/{t}/2026.html", self.teams[t]), ("/leagues/NBL_2026.html", "Season")]
        return self.html(title_of(self.players[i]) + " stats", f"P{i}", ul(links), 50, 150)

    def rest(self, req: Req) -> Reply:
        q = qs(req.query)
        if req.path == "/play-index/tgl_finder.cgi" and q.get("team_id") in self.teams:
            t, y0, y1 = q["team_id"], num(q, "year_min", 2026), num(q, "year_max", 2026)
            opp, loc, sort, off = (
                q.get("opp_id", ""),
                q.get("game_location", ""),
                q.get("order_by", ""),
                num(q, "offset"),
            )
            links = [(self.finder(t, y0, y1, opp, loc, c, off), c) for c in _COLS if c != sort]
            links += [
                (self.finder(t, y0, y1, o, loc, sort), "vs " + o)
                for o in self.teams
                if o not in (t, opp)
            ]
            links += [
                (self.finder(t, y0, y1, opp, lc, sort), "at " + (lc or "any"))
                for lc in _LOCS
                if lc != loc
            ]
            links.append((self.finder(t, y0 - 1, y1, opp, loc, sort, off), "Widen span"))
            rows = max(0, (y1 - max(y0, 2024) + 1) * 30 - off)
            if rows > 100:
                links.append((self.finder(t, y0, y1, opp, loc, sort, off + 100), "Next page"))
            links.append((f"/teams/{t}/{y1}.html", "Team season"))
            return self.tr(req, f"Team game finder: {t} {y0}-{y1}, {rows} games", links)
        return not_found()


# ----------------------------------------------------------------------------------------
# A small hotel (host 0) and its booking engine on a second host. The hotel's pages link
# the engine's availability calendar `/availability?month=2026-12`; the calendar's month
# arrows run both ways without end (months past the booking horizon say "not yet open"),
# and its offers add `&promo=`. Real pages in the family: the months 2027-01..03 along
# the "next" arrow. Each free day links `/select?checkin=&nights=&adults=&children=&rooms=
# &currency=`, whose +/- steppers never stop upwards; "Reserve" is `/reserve?...`, a 302 to
# `/reservation/<token minted per visit>/guest` with its own extras/summary pages. The
# engine host also has its own pages (terms, cancellation, vouchers, engine home).
# robots.txt (one file, both hosts): admin, accounts, the API, payment, the cart.
# ----------------------------------------------------------------------------------------

_MONTHS = ("2026-12", "2027-01", "2027-02", "2027-03")
_CUR = ("EUR", "GBP", "USD", "CHF")


def _madd(m: str, k: int) -> str:
    y, mm = int(m[:4]), int(m[5:7])
    n = y * 12 + mm - 1 + k
    return f"{n // 12:04d}-{n % 12 + 1:02d}"


class Booking(B13):
    """Hotel + booking engine: endless month arrows, steppers, per-visit reservations."""

    name = "booking"
    kind = "hotel + booking engine host: month arrows, occupancy steppers, /reservation/<token>"
    theme = "travel"
    brand = "Harbourview Hotel"
    hosts = 2
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/"), (1, "/")]
    robots_disallow: ClassVar[list[str]] = [
        "/wp-admin/",
        "/wp-login.php",
        "/account/",
        "/api/",
        "/payment/",
        "/cart",
    ]

    def make(self) -> None:
        self.rooms = slugs(self.key("rooms"), 8, self.v, 2)
        self.offers = slugs(self.key("offers"), 4, self.v, 2)
        self.add("home", "/", lambda r: self.home())
        for s in ("about", "location", "dining", "gallery", "faq", "contact", "meetings"):
            self.add(s, f"/{s}/", lambda r, s=s: self.html(title_of(s), s, ul([("/", "Home")])))
        self.add("rooms", "/rooms/", lambda r: self.thin("Rooms", "rooms", self.roomlinks()))
        for r_ in self.rooms:
            self.add(f"r{r_}", f"/rooms/{r_}/", lambda r, x=r_: self.room(x))
        for o in self.offers:
            self.add(f"o{o}", f"/offers/{o}/", lambda r, o=o: self.offer(o))
        self.add("ehome", "/", lambda r: self.thin("Book online", "ehome", self.elinks()), 1)
        for s in ("terms", "cancellation", "vouchers"):
            self.add(f"e{s}", f"/{s}", lambda r, s=s: self.html(title_of(s), f"e{s}", ""), 1)
        for m in _MONTHS:
            self.add(f"m{m}", f"/availability?month={m}", lambda r, m=m: self.cal(m, ""), 1)

    def eng(self, t: str) -> str:
        return self.bases[1] + t

    def elinks(self) -> list[tuple[str, str]]:
        return [
            ("/availability?month=2026-12", "Availability"),
            ("/terms", "Terms"),
            ("/cancellation", "Cancellation"),
            ("/vouchers", "Vouchers"),
            ("/account/", "My bookings"),
            (self.bases[0] + "/", "Hotel"),
        ]

    def roomlinks(self) -> list[tuple[str, str]]:
        return [(f"/rooms/{r}/", title_of(r)) for r in self.rooms]

    def home(self) -> str:
        links = [("/rooms/", "Rooms")] + [(f"/offers/{o}/", title_of(o)) for o in self.offers]
        links += [(f"/{s}/", title_of(s)) for s in ("about", "location", "dining", "gallery")]
        links += [(f"/{s}/", title_of(s)) for s in ("faq", "contact", "meetings")]
        links += [(self.eng("/"), "Book online"), ("/wp-admin/", "Admin")]
        return self.html("Harbourview Hotel", "home", ul(links), 80, 200)

    def room(self, r: str) -> str:
        links = [
            (self.eng("/availability?month=2026-12"), "Check availability"),
            ("/rooms/", "All rooms"),
        ]
        return self.html(title_of(r), f"r{r}", ul(links), 60, 160)

    def offer(self, o: str) -> str:
        links = [(self.eng(f"/availability?month=2026-12&promo={o.upper()}"), "Book this offer")]
        return self.html(title_of(o), f"o{o}", ul([*links, ("/", "Home")]), 40, 120)

    def sel(self, d: str, n: int, a: int, c: int, k: int, cur: str) -> str:
        return f"/select?checkin={d}&nights={n}&adults={a}&children={c}&rooms={k}&currency={cur}"

    def cal(self, m: str, promo: str) -> str:
        pq_ = f"&promo={promo}" if promo else ""
        links = [
            (f"/availability?month={_madd(m, -1)}{pq_}", "Previous month"),
            (f"/availability?month={_madd(m, 1)}{pq_}", "Next month"),
        ]
        if m <= "2027-06":
            y, mm = int(m[:4]), int(m[5:7])
            for d in range(3, 28, 6):
                links.append((self.sel(f"{y}-{mm:02d}-{d:02d}", 1, 2, 0, 1, "EUR"), f"{d} free"))
        links.append(("/", "Engine home"))
        open_ = m in _MONTHS and not promo
        body = ul(links)
        if not open_:
            return self.html(f"Availability {m}", f"cal{m}{promo}", body, 10, 40)
        return self.html(f"Availability {m}", f"m{m}", body, 40, 100)

    def rest(self, req: Req) -> Reply:
        q = qs(req.query)
        if req.host_index != 1:
            return not_found()
        if req.path == "/availability" and re.fullmatch(r"\d{4}-\d{2}", q.get("month", "")):
            m = q["month"]
            if "1990-01" <= m <= "2199-12" and "01" <= m[5:] <= "12":
                return Reply(self.cal(m, q.get("promo", "")), "trap", None)
        if req.path in ("/select", "/reserve") and "checkin" in q:
            try:
                d = dt.date.fromisoformat(q["checkin"])
            except ValueError:
                return not_found()
            n, a, c, k = (num(q, x, 1) for x in ("nights", "adults", "children", "rooms"))
            cur = q.get("currency", "EUR")
            if req.path == "/reserve":
                return redirect(f"/reservation/{self.fresh(16)}/guest?checkin={d}&nights={n}")
            links = [
                (self.sel(str(d), n + 1, a, c, k, cur), "+ night"),
                (self.sel(str(d), n, a + 1, c, k, cur), "+ adult"),
                (self.sel(str(d), n, a, c + 1, k, cur), "+ child"),
                (self.sel(str(d), n, a, c, k + 1, cur), "+ room"),
            ]
            if n > 1:
                links.append((self.sel(str(d), n - 1, a, c, k, cur), "- night"))
            links += [(self.sel(str(d), n, a, c, k, x), x) for x in _CUR if x != cur]
            links.append(("/reserve" + self.sel(str(d), n, a, c, k, cur)[7:], "Reserve"))
            links.append((f"/availability?month={d.isoformat()[:7]}", "Calendar"))
            return self.tr(req, f"Rooms from {d}, {n} nights, {a}+{c} guests", links)
        m = re.fullmatch(r"/reservation/([0-9a-f]{16})/(guest|extras|summary)", req.path)
        if m:
            tok = m.group(1)
            links = [(f"/reservation/{tok}/{s}", s) for s in ("guest", "extras", "summary")]
            links += [("/payment/start", "Pay"), ("/availability?month=2026-12", "Calendar")]
            return self.tr(req, f"Reservation {tok}: {m.group(2)}", links)
        return not_found()


# ----------------------------------------------------------------------------------------
# The control: a community orchard's static site. No traps.
# ----------------------------------------------------------------------------------------


class Control(B13):
    """No traps: home, about, four sections of six pages, one disallowed link."""

    name = "control"
    kind = "no traps (static site)"
    theme = "food"
    brand = "Millbrook Community Orchard"
    robots_disallow: ClassVar[list[str]] = ["/members/"]

    def make(self) -> None:
        self.secs = {
            s: slugs(self.key(s), 6, self.v, 2) for s in ("trees", "events", "news", "how")
        }
        self.add("home", "/", lambda r: self.html("Millbrook Orchard", "home", ul(self.nav())))
        self.add("about", "/about/", lambda r: self.html("About", "about", ul([("/", "Home")])))
        for s, ps in self.secs.items():
            links = [(f"/{s}/{p}/", title_of(p)) for p in ps]
            self.add(f"s{s}", f"/{s}/", lambda r, s=s, x=links: self.html(title_of(s), s, ul(x)))
            for p in ps:
                self.add(
                    f"p{s}{p}",
                    f"/{s}/{p}/",
                    lambda r, s=s, p=p: self.html(
                        title_of(p), f"p{s}{p}", ul([(f"/{s}/", title_of(s)), ("/", "Home")])
                    ),
                )

    def nav(self) -> list[tuple[str, str]]:
        links = [(f"/{s}/", title_of(s)) for s in self.secs]
        return [*links, ("/about/", "About"), ("/members/", "Members")]
