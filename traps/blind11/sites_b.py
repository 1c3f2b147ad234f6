"""blind11 sites, part b: Gerrit, Indico and nopCommerce."""

from __future__ import annotations

from typing import ClassVar
from urllib.parse import quote

from traps.blind.kit import Reply, Req, not_found, redirect, slugs, title_of
from traps.blind2.common import qs, trap, ul
from traps.blind7.common import data

from .common import Base, num, pq

# ----------------------------------------------------------------------------------------
# Gerrit Code Review 3 (its change screens rendered as HTML). Changes /c/<repo>/+/<n>
# (repos may hold slashes), older patch sets /c/<repo>/+/<n>/<k> (real), the latest patch
# set again as /c/<repo>/+/<n>/<p>, base comparisons /c/<repo>/+/<n>/<a>..<b>, file diffs
# under each, chips /q/owner:, /q/project:, /q/branch:, and on every result page the
# search bar's suggestions appending an operator (`<query>+<op>`, click order) with
# ",<offset>" paging. `/` and `/<n>` redirect (Gerrit's own short URLs). robots.txt: the
# site's `/changes/` (REST: patch downloads) and `/a/` lines.
# ----------------------------------------------------------------------------------------

_REPOS = ["lantern", "lantern/plugins/meter", "docs", "infra/ci"]
_OPEN = "status:open+-is:wip"


class Gerrit(Base):
    """Gerrit: patch-set comparisons (finite, large), query suggestions, offsets."""

    name = "gerrit"
    kind = "Gerrit 3: patch-set base comparisons and file diffs, /q/ query refinements, offsets"
    theme = "archive"
    brand = "Gerrit Code Review"
    robots_disallow: ClassVar[list[str]] = ["/changes/", "/a/"]

    def make(self) -> None:
        self.users = [f"{w}@lantern.dev" for w in slugs(self.key("u"), 5, self.v, 1)]
        subj = slugs(self.key("ch"), 20, self.v, 3)
        self.ch: dict[int, dict[str, object]] = {}
        for i in range(20):
            n = 1201 + i
            self.ch[n] = {
                "repo": _REPOS[i % 4],
                "owner": self.users[i % 5],
                "branch": "main" if i % 3 else "stable-3.0",
                "open": i < 13,
                "ps": 1 + i % 3,
                "subject": title_of(subj[i]),
                "files": ["src/" + subj[i].split("-")[0] + ".py", "README.md"][: 1 + i % 2],
            }
        self.opened = [n for n in self.ch if self.ch[n]["open"]]
        self.merged = [n for n in self.ch if not self.ch[n]["open"]]
        self.add("open1", f"/q/{_OPEN}", lambda r: self.results(_OPEN, 0, True))
        self.add("open2", f"/q/{_OPEN},10", lambda r: self.results(_OPEN, 10, True))
        self.add("merged", "/q/status:merged", lambda r: self.results("status:merged", 0, True))
        self.add("repos", "/admin/repos", lambda r: self.repos())
        for rp in _REPOS:
            self.add(f"r{rp}", f"/admin/repos/{rp}", lambda r, rp=rp: self.repo(rp, False))
            self.add(f"rb{rp}", f"/admin/repos/{rp},branches", lambda r, rp=rp: self.repo(rp, True))
        for n, c in self.ch.items():
            self.add(f"c{n}", self.curl(n), lambda r, n=n: self.change(n, 0))
            for k in range(1, int(c["ps"])):  # type: ignore[call-overload]
                self.add(f"c{n}/{k}", f"{self.curl(n)}/{k}", lambda r, n=n, k=k: self.change(n, k))

    def curl(self, n: int) -> str:
        return f"/c/{self.ch[n]['repo']}/+/{n}"

    def terms(self, n: int) -> set[str]:
        c = self.ch[n]
        t = {f"owner:{c['owner']}", f"project:{c['repo']}", f"branch:{c['branch']}"}
        t |= {"status:open", "-is:wip"} if c["open"] else {"status:merged", "is:reviewed"}
        return t

    def match(self, query: str) -> list[int]:
        want = {t for t in query.split("+") if t}
        return [n for n in self.ch if want <= self.terms(n)]

    def results(self, query: str, off: int, canonical: bool) -> str:
        hits = self.match(query)
        rows = [(self.curl(n), f"{n}: {self.ch[n]['subject']}") for n in hits[off : off + 10]]
        links = [("/admin/repos", "Browse repositories"), ("/q/status:merged", "Merged")]
        if off + 10 < len(hits):
            links.append((f"/q/{query},{off + 10}", "Next page"))
        if off:
            links.append((f"/q/{query}" + (f",{off - 10}" if off > 10 else ""), "Previous page"))
        if not canonical or query == _OPEN:
            have = set(query.split("+"))
            ops = ["-is:wip", "is:reviewed", "branch:main", "branch:stable-3.0"]
            ops += [f"owner:{u}" for u in self.users[:3]] + [f"project:{r}" for r in _REPOS[:2]]
            links += [(f"/q/{query}+{o}", f"Add {o}") for o in ops if o not in have]
        title = f"Search: {query.replace('+', ' ')}" + (f" ({off})" if off else "")
        return self.html(title, f"q{query}{off}", ul(rows + links), 30, 60)

    def repos(self) -> str:
        return self.html("Repositories", "repos", ul([(f"/admin/repos/{r}", r) for r in _REPOS]))

    def repo(self, rp: str, branches: bool) -> str:
        links = [(f"/admin/repos/{rp},branches", "Branches")] * (not branches)
        links += [(f"/admin/repos/{rp}", "General")] * branches
        links += [(f"/q/project:{rp}", "Changes"), ("/admin/repos", "Repositories")]
        if branches:
            links += [(f"/q/project:{rp}+branch:{b}", b) for b in ("main", "stable-3.0")]
        return self.html(f"{rp}{' branches' if branches else ''}", f"repo{rp}{branches}", ul(links))

    def change(self, n: int, k: int, base: int = 0, fname: str = "") -> str:
        c = self.ch[n]
        p = int(c["ps"])  # type: ignore[call-overload]
        u = self.curl(n)
        shown = k or p
        links = [(f"{u}/{j}", f"Patchset {j}") for j in range(1, p)] + [(u, f"Patchset {p}")]
        links += [(f"{u}/{a}..{shown}", f"Base: patchset {a}") for a in range(1, shown)]
        links += [(f"{u}/{shown}/{f}", f) for f in c["files"]]  # type: ignore[attr-defined]
        links += [
            (f"/q/owner:{c['owner']}", str(c["owner"])),
            (f"/q/project:{c['repo']}", str(c["repo"])),
            (f"/q/branch:{c['branch']}", str(c["branch"])),
            (f"/changes/{pq(str(c['repo']))}~{n}/revisions/{shown}/patch?zip", "Download patch"),
        ]
        rel = [m for m in self.ch if m != n and self.ch[m]["repo"] == c["repo"]][:2]
        links += [(self.curl(m), f"Related: {self.ch[m]['subject']}") for m in rel]
        if n > 1201:
            links += [(f"/{n - 1}", f"Reviewed-on: {n - 1}")]
        what = f"{n}: {c['subject']}" + (f" (patchset {k})" if k else "")
        if base or fname:
            what += f" [{base}..{shown}] {fname}"
            links.append((f"{u}/{shown}", f"Up to patchset {shown}"))
        return self.html(what, f"c{n}/{k}/{base}/{fname}", ul(links))

    def rest(self, req: Req) -> Reply:
        path = req.path
        if path == "/":
            return redirect(f"/q/{_OPEN}")
        if path[1:].isdigit() and int(path[1:]) in self.ch:
            return redirect(self.curl(int(path[1:])))
        if path.startswith("/q/"):
            query, _, off = path[3:].partition(",")
            if not query or (off and not off.isdigit()):
                return not_found()
            return trap(self.results(query, int(off or 0), False))
        if path.startswith("/c/") and "/+/" in path:
            repo, _, tail = path[3:].partition("/+/")
            parts = tail.split("/")
            n = int(parts[0]) if parts[0].isdigit() else 0
            if n not in self.ch or self.ch[n]["repo"] != repo:
                return not_found()
            p = int(self.ch[n]["ps"])  # type: ignore[call-overload]
            if len(parts) == 1:
                return not_found()
            a, _, b = parts[1].partition("..")
            if not a.isdigit() or (b and not b.isdigit()):
                return not_found()
            base, k = (int(a), int(b)) if b else (0, int(a))
            if not 1 <= k <= p or base >= k:
                return not_found()
            fname = "/".join(parts[2:])
            if fname and fname not in self.ch[n]["files"]:  # type: ignore[operator]
                return not_found()
            return trap(self.change(n, k, base, fname))
        return not_found()


# ----------------------------------------------------------------------------------------
# Indico 3 (a research institute's event site). Categories /category/<c>/, their overview
# /category/<c>/overview (real, a fixed week) whose ?date=&period=day|week|month&detail=
# variants step back and forth without end; events /event/<id>/ with the meeting display
# options ?view=&showDate=&showSession=&detailLevel= (finite, large), timetables and their
# ?layout= variants, contribution lists and contributions; legacy conferenceDisplay.py and
# categoryDisplay.py URLs 301 to the new ones; iCal exports under /export/ (disallowed, the
# site's robots.txt also has /login and /search).
# ----------------------------------------------------------------------------------------

_VIEWS = ["standard", "standard_inline_minutes", "nicecompact", "indico_weeks_view", "text"]
_DAY0 = 738858  # a proleptic ordinal: the overview's fixed week


def _date(o: int) -> str:
    import datetime

    return datetime.date.fromordinal(o).isoformat()


def _ordinal(s: str) -> int:
    import datetime

    try:
        return datetime.date.fromisoformat(s).toordinal()
    except ValueError:
        return _DAY0


class Indico(Base):
    """Indico: category overview calendar without end, meeting display options."""

    name = "indico"
    kind = (
        "Indico 3: category overview ?date=&period= (endless), event display options, legacy 301s"
    )
    theme = "events"
    brand = "Institute Indico"
    robots_disallow: ClassVar[list[str]] = ["/export/", "/login", "/search"]

    def make(self) -> None:
        self.cats = ["Seminars", "Conferences", "Group meetings"]
        names = slugs(self.key("ev"), 12, self.v, 3)
        self.ev = {
            100 + i: (i // 4, title_of(names[i]), _DAY0 + (i % 4) * 2 - 1) for i in range(12)
        }
        self.contribs = {
            e: slugs(self.key(f"ct{e}"), 4, self.v, 2) for e in self.ev if self.ev[e][0] == 1
        }
        self.add("home", "/", lambda r: self.home())
        for c in range(3):
            self.add(f"cat{c}", f"/category/{c + 1}/", lambda r, c=c: self.category(c))
            self.add(
                f"ov{c}",
                f"/category/{c + 1}/overview",
                lambda r, c=c: self.overview(c, _DAY0, "week", "event"),
            )
        for e in self.ev:
            self.add(f"e{e}", f"/event/{e}/", lambda r, e=e: self.event(e, {}))
            self.add(f"tt{e}", f"/event/{e}/timetable/", lambda r, e=e: self.timetable(e, ""))
        for e, cs in self.contribs.items():
            self.add(f"cl{e}", f"/event/{e}/contributions/", lambda r, e=e: self.clist(e))
            for k, _ in enumerate(cs):
                self.add(
                    f"ct{e}.{k}",
                    f"/event/{e}/contributions/{k + 1}/",
                    lambda r, e=e, k=k: self.contrib(e, k),
                )

    def home(self) -> str:
        links = [(f"/category/{c + 1}/", n) for c, n in enumerate(self.cats)]
        links += [
            ("/conferenceDisplay.py?confId=104", "Announcement (old link)"),
            ("/login", "Log in"),
        ]
        return self.html("Institute Indico", "home", ul(links))

    def category(self, c: int) -> str:
        evs = [(f"/event/{e}/", t) for e, (cc, t, _) in self.ev.items() if cc == c][:3]
        links = [*evs, (f"/category/{c + 1}/overview", "Overview"), ("/", "Home")]
        links += [(f"/categoryDisplay.py?categId={c + 1}", "Permalink"), ("/search?q=", "Search")]
        return self.html(self.cats[c], f"cat{c}", ul(links))

    def overview(self, c: int, day: int, period: str, detail: str) -> str:
        span = {"day": 1, "week": 7, "month": 30}.get(period, 7)
        start = day - day % 7 if period == "week" else day
        evs = [
            (f"/event/{e}/", t)
            for e, (cc, t, d) in self.ev.items()
            if cc == c and start <= d < start + span
        ]
        base = f"/category/{c + 1}/overview?date="
        links = [
            (f"{base}{_date(day - span)}&period={period}&detail={detail}", "Previous"),
            (f"{base}{_date(day + span)}&period={period}&detail={detail}", "Next"),
        ]
        links += [
            (f"{base}{_date(day)}&period={p}&detail={detail}", p) for p in ("day", "week", "month")
        ]
        links += [
            (f"{base}{_date(day)}&period={period}&detail={d}", d)
            for d in ("event", "session", "contribution")
        ]
        title = f"{self.cats[c]}: {period} of {_date(day)}"
        return self.html(title, f"ov{c}.{day}.{period}.{detail}", ul(evs + links), 30, 60)

    def event(self, e: int, q: dict[str, str]) -> str:
        c, t, d = self.ev[e]
        links = [(f"/event/{e}/timetable/", "Timetable"), (f"/category/{c + 1}/", self.cats[c])]
        if e in self.contribs:
            links.append((f"/event/{e}/contributions/", "Contribution list"))
        links += [(f"/event/{e}/?view={v}", v) for v in _VIEWS if v != q.get("view")]
        dates = ["all", *[_date(d + k).replace("-", "") for k in range(2)]]
        view = q.get("view", "standard")
        for sd in dates:
            for lvl in ("session", "contribution"):
                links.append(
                    (
                        f"/event/{e}/?view={view}&showDate={sd}&showSession=all&detailLevel={lvl}",
                        f"{sd} {lvl}",
                    )
                )
        links += [(f"/export/event/{e}.ics?detail=contributions", "iCal")]
        if e % 4 == 3:
            links.append((f"/event/{e - 1}/", "Previous event in the series"))
        return self.html(t + (f" ({view})" if q else ""), f"e{e}{sorted(q.items())}", ul(links))

    def timetable(self, e: int, layout: str) -> str:
        links = [(f"/event/{e}/", self.ev[e][1])]
        links += [
            (f"/event/{e}/timetable/?layout={x}", x)
            for x in ("room", "session", "compact")
            if x != layout
        ]
        return self.html(f"Timetable: {self.ev[e][1]} {layout}", f"tt{e}{layout}", ul(links))

    def clist(self, e: int) -> str:
        links = [
            (f"/event/{e}/contributions/{k + 1}/", title_of(s))
            for k, s in enumerate(self.contribs[e])
        ]
        return self.html(
            f"Contributions: {self.ev[e][1]}", f"cl{e}", ul([(f"/event/{e}/", "Event"), *links])
        )

    def contrib(self, e: int, k: int) -> str:
        links = [
            (f"/event/{e}/contributions/", "All contributions"),
            (f"/event/{e}/timetable/", "Timetable"),
        ]
        links += [(f"/export/event/{e}/contribution/{k + 1}.ics", "iCal")]
        return self.html(title_of(self.contribs[e][k]), f"ct{e}.{k}", ul(links))

    def rest(self, req: Req) -> Reply:
        path, q = req.path, qs(req.query)
        if path == "/conferenceDisplay.py":
            return redirect(f"/event/{num(q, 'confId')}/", 301)
        if path == "/categoryDisplay.py":
            return redirect(f"/category/{num(q, 'categId')}/", 301)
        parts = path.strip("/").split("/")
        if (
            parts[0] == "category"
            and len(parts) == 3
            and parts[2] == "overview"
            and parts[1] in ("1", "2", "3")
        ):
            day = _ordinal(q.get("date", ""))
            return trap(
                self.overview(
                    int(parts[1]) - 1, day, q.get("period", "week"), q.get("detail", "event")
                )
            )
        if (
            parts[0] == "event"
            and len(parts) >= 2
            and parts[1].isdigit()
            and int(parts[1]) in self.ev
        ):
            e = int(parts[1])
            if len(parts) == 2:
                return trap(self.event(e, q))
            if parts[2:] == ["timetable"]:
                return trap(self.timetable(e, q.get("layout", "")))
        return not_found()


# ----------------------------------------------------------------------------------------
# nopCommerce 4.6 (an outdoor clothing shop). SEO slugs for categories, manufacturers and
# products. Category pages filter and sort by query: ?specs=<option ids, appended in click
# order>&ms=<manufacturer>&price=<from-to>&orderby=&viewmode=grid|list&pagesize=3|6|9&
# pagenumber=; each category's real page 2 is `?pagenumber=2`. Header links on every page
# carry `returnUrl=<this page>`: /login, /register (whose own links nest it again),
# /changecurrency/<id>, /changelanguage/<id> (302 back); product pages add
# /compareproducts/add/<id> and /productemailafriend/<id>. robots.txt: nopCommerce's own
# list (the lines for these paths, among others).
# ----------------------------------------------------------------------------------------

_SPECS = {
    "Colour": ["Blue", "Green", "Grey"],
    "Size": ["S", "M", "L"],
    "Fabric": ["Cotton", "Linen"],
}
_ORDERBY = [0, 5, 6, 10, 11, 15]


class NopCommerce(Base):
    """nopCommerce: spec filters in click order, sort/view/page-size switches, returnUrl."""

    name = "nopcommerce"
    kind = "nopCommerce 4.6: spec/price/maker filters, orderby/viewmode/pagesize, returnUrl links"
    theme = "shop"
    brand = "Fellside Outfitters"
    robots_disallow: ClassVar[list[str]] = [
        "/cart",
        "/changecurrency",
        "/changelanguage",
        "/checkout",
        "/compareproducts",
        "/login",
        "/productemailafriend",
        "/register",
        "/wishlist",
    ]

    def make(self) -> None:
        names = slugs(self.key("p"), 4 + 3 + 26, self.v, 2)
        self.cats, self.makers, prods = names[:4], names[4:7], names[7:]
        self.opts = [f"{k}: {o}" for k, os in _SPECS.items() for o in os]
        self.prods: dict[str, dict[str, object]] = {}
        for i, p in enumerate(prods):
            self.prods[p] = {
                "cat": self.cats[i % 4 if i < 20 else (i - 20) % 2],
                "maker": i % 3,
                "price": 20 + (i * 37) % 180,
                "specs": {1 + i % 3, 4 + (i // 3) % 3, 7 + i % 2},
                "id": 10 + i,
            }
        self.add("home", "/", lambda r: self.home())
        for t in ("about-us", "shipping-returns", "privacy-notice"):
            self.add(t, f"/{t}", lambda r, t=t: self.html(title_of(t), t, self.header("/" + t)))
        self.add("makers", "/manufacturer/all", lambda r: self.maker_list())
        for m in self.makers:
            self.add(f"m{m}", f"/{m}", lambda r, m=m: self.maker(m))
        for c in self.cats:
            self.add(f"c{c}", f"/{c}", lambda r, c=c: self.category(c, {}, f"/{c}"))
            if len(self.in_cat(c)) > 6:
                self.add(
                    f"c{c}2",
                    f"/{c}?pagenumber=2",
                    lambda r, c=c: self.category(c, {"pagenumber": "2"}, f"/{c}?pagenumber=2"),
                )
        for p in self.prods:
            self.add(f"p{p}", f"/{p}", lambda r, p=p: self.product(p))

    def in_cat(self, c: str) -> list[str]:
        return [p for p, d in self.prods.items() if d["cat"] == c]

    def header(self, here: str) -> str:
        ret = pq(here)
        return ul(
            [
                ("/", "Home"),
                (f"/login?returnUrl={ret}", "Log in"),
                (f"/register?returnUrl={ret}", "Register"),
                ("/wishlist", "Wishlist"),
                ("/cart", "Shopping cart"),
                (f"/changecurrency/6?returnUrl={ret}", "EUR"),
                (f"/changelanguage/2?returnUrl={ret}", "Deutsch"),
                ("/about-us", "About us"),
            ]
        )

    def home(self) -> str:
        links = [(f"/{c}", title_of(c)) for c in self.cats] + [("/manufacturer/all", "Brands")]
        links += [(f"/{t}", title_of(t)) for t in ("shipping-returns", "privacy-notice")]
        feat = [(f"/{p}", title_of(p)) for p in list(self.prods)[:4]]
        return self.html("Fellside Outfitters", "home", self.header("/") + ul(links + feat))

    def maker_list(self) -> str:
        return self.html(
            "All manufacturers",
            "makers",
            self.header("/manufacturer/all") + ul([(f"/{m}", title_of(m)) for m in self.makers]),
        )

    def maker(self, m: str) -> str:
        k = self.makers.index(m)
        ps = [(f"/{p}", title_of(p)) for p, d in self.prods.items() if d["maker"] == k][:6]
        return self.html(title_of(m), f"m{m}", self.header(f"/{m}") + ul(ps))

    def category(self, c: str, q: dict[str, str], here: str) -> str:
        specs = [int(s) for s in q.get("specs", "").split(",") if s.isdigit() and 1 <= int(s) <= 8]
        ms = num(q, "ms", -1)
        size, page = max(1, num(q, "pagesize", 6)), max(1, num(q, "pagenumber", 1))
        order, view = num(q, "orderby", 0), q.get("viewmode", "grid")
        hits = [
            p
            for p in self.in_cat(c)
            if set(specs) <= self.prods[p]["specs"] and ms in (-1, self.prods[p]["maker"])
        ]  # type: ignore[operator]
        if order in (10, 11):
            hits.sort(key=lambda p: self.prods[p]["price"], reverse=order == 11)  # type: ignore[arg-type, return-value]
        elif order == 5:
            hits.sort()
        elif order == 6:
            hits.sort(reverse=True)
        items = [(f"/{p}", title_of(p)) for p in hits[(page - 1) * size : page * size]]

        def link(**kw: object) -> str:
            cur = {k: v for k, v in q.items() if k != "pagenumber"}
            cur.update({k: str(v) for k, v in kw.items()})
            return f"/{c}?" + "&".join(f"{k}={v}" for k, v in cur.items())

        sel = [
            (link(specs=",".join(map(str, [*specs, s]))), self.opts[s - 1])
            for s in range(1, 9)
            if s not in specs
        ]
        sel += [(link(ms=k), title_of(m)) for k, m in enumerate(self.makers)]
        sel += [(link(orderby=o), f"Sort {o}") for o in _ORDERBY if o != order]
        sel += [(link(viewmode=v), v) for v in ("grid", "list") if v != view]
        sel += [(link(pagesize=s), f"{s} per page") for s in (3, 6, 9) if s != size]
        if page * size < len(hits):
            nxt = (
                f"/{c}?pagenumber={page + 1}"
                if not q or q == {"pagenumber": str(page)}
                else link(pagenumber=page + 1)
            )
            sel.append((nxt, "Next"))
        if page > 1:
            sel.append(
                (f"/{c}" if page == 2 and len(q) == 1 else link(pagenumber=page - 1), "Previous")
            )
        title = (
            title_of(c)
            + (f" (page {page})" if page > 1 else "")
            + ("" if len(q) <= 1 else " (filtered)")
        )
        return self.html(title, f"c{c}{sorted(q.items())}", self.header(here) + ul(items) + ul(sel))

    def product(self, p: str) -> str:
        d = self.prods[p]
        links = [
            (f"/{d['cat']}", title_of(str(d["cat"]))),
            (f"/{self.makers[d['maker']]}", "Brand"),
        ]  # type: ignore[index]
        links += [
            (f"/compareproducts/add/{d['id']}", "Add to compare list"),
            (f"/productemailafriend/{d['id']}", "Email a friend"),
        ]
        body = self.header(f"/{p}") + ul(links) + f"<p>Price: ${d['price']}.00</p>"
        return self.html(title_of(p), f"p{p}", body)

    def rest(self, req: Req) -> Reply:
        path, q = req.path, qs(req.query)
        slug = path[1:]
        if slug in self.cats:
            return trap(self.category(slug, q, req.target))
        if path in ("/login", "/register"):
            other = "/register" if path == "/login" else "/login"
            body = self.header(req.target) + ul(
                [(f"{other}?returnUrl={quote(req.target, safe='')}", title_of(other[1:]))]
            )
            return trap(self.html(title_of(path[1:]), path, body))
        if path.startswith(("/changecurrency/", "/changelanguage/")):
            return redirect(q.get("returnUrl", "/"))
        if path.startswith("/compareproducts/add/"):
            return redirect("/compareproducts")
        if path in ("/compareproducts", "/wishlist", "/cart"):
            return trap(self.html(title_of(path[1:]), path, self.header(path)))
        if path.startswith("/productemailafriend/"):
            return data("Please log in.", "text/plain")
        return not_found()
