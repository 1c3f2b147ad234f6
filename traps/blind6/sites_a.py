"""Blind6 sites, part A: Blogger, Liferay, Apache Wicket, Foswiki."""

from __future__ import annotations

import datetime as dt
import posixpath
import re
from typing import ClassVar

from traps.blind.kit import (
    OTHER,
    Reply,
    Req,
    a,
    doc,
    not_found,
    redirect,
    words_for,
)
from traps.blind2.common import Link, bar, esc, prose, ul

from .common import Hosted, enc, params

# ----------------------------------------------------------------------------------------
# Blogger (a blog on a custom domain, classic layout template). Every desktop page carries
# `<link rel="alternate" ... href="?m=1">`; the mobile template appends `?m=1` to every
# link and offers "View web version" (`?m=0`). The "Blog Archive" widget (hierarchy style)
# writes its no-JavaScript toggle state into the URL of the current page
# (`?widgetType=BlogArchive&widgetId=BlogArchive1&action=toggle&dir=open&toggle=MONTHLY-
# <ms>&toggleopen=MONTHLY-<ms>`), and every comment's time links `?showComment=<ms>`.
# Legit look-alikes: the real month and year archives, the static pages, the posts.
# Blogger's stock robots.txt disallows `/search` (labels and "Older Posts").
# ----------------------------------------------------------------------------------------

_TZ = dt.timezone(dt.timedelta(hours=-8))
_BAKE_ADJ = [
    "Rye",
    "Caraway",
    "Honey",
    "Oat",
    "Brown-Butter",
    "Spelt",
    "Cardamom",
    "Rhubarb",
    "Walnut",
    "Seeded",
    "Lemon",
    "Buckwheat",
    "Treacle",
    "Apricot",
    "Fennel",
    "Hazelnut",
    "Pear",
    "Sour-Cherry",
    "Malted",
    "Poppy-Seed",
]
_BAKE_ITEM = [
    "Sourdough",
    "Loaf",
    "Brioche",
    "Focaccia",
    "Galette",
    "Shortbread",
    "Buns",
    "Tart",
    "Crackers",
    "Scones",
    "Babka",
    "Bagels",
    "Jam",
    "Curd",
    "Cake",
    "Flatbread",
    "Madeleines",
]
_LABELS = ["Bread", "Cakes", "Pastry", "Preserves", "Techniques"]


def _ms(t: dt.datetime) -> int:
    return int(t.timestamp() * 1000)


class Blogger(Hosted):
    """Blogger: ?m=1 twins, archive-widget toggle URLs, ?showComment= permalinks."""

    name = "blogger"
    kind = "Blogger: ?m=1 mobile twins, BlogArchive toggle=/toggleopen= state, showComment="
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/search"]

    def robots_txt(self, req: Req) -> str:
        return (
            "User-agent: Mediapartners-Google\nDisallow: \n\n"
            "User-agent: *\nDisallow: /search\nAllow: /\n\n"
            f"Sitemap: {req.base}/sitemap.xml\n"
        )

    def setup(self) -> None:
        self.vocab = words_for("food")
        rng = self.rng("posts")
        t = dt.datetime(2024, 11, 3, 9, 12, tzinfo=_TZ)
        seen: set[str] = set()
        self.posts: list[dict] = []
        while len(self.posts) < 32:
            title = f"{rng.choice(_BAKE_ADJ).replace('-', ' ')} {rng.choice(_BAKE_ITEM)}"
            if title in seen:
                continue
            seen.add(title)
            t = t + dt.timedelta(days=rng.randint(5, 12), minutes=rng.randint(-90, 90))
            slug = "-".join(title.lower().split())[:40].strip("-")
            path = f"/{t.year}/{t.month:02d}/{slug}.html"
            comments = [
                (
                    rng.choice(["Maren", "Dev Patel", "Anonymous", "Colette R.", "Tobias"]),
                    t + dt.timedelta(hours=rng.randint(2, 300), minutes=rng.randint(0, 59)),
                    rng.randrange(10**17, 10**18),
                )
                for _ in range(rng.randint(0, 4))
            ]
            labels = sorted(set(rng.sample(_LABELS, rng.randint(1, 2))))
            self.posts.append(
                {"title": title, "t": t, "path": path, "com": comments, "labels": labels}
            )
        self.posts.reverse()  # newest first, as Blogger lists them
        self.months: dict[tuple[int, int], list[int]] = {}
        for i, p in enumerate(self.posts):
            self.months.setdefault((p["t"].year, p["t"].month), []).append(i)
        self.years = sorted({y for y, _ in self.months}, reverse=True)
        self.reg("home", "/")
        self.reg("about", "/p/about.html")
        self.reg("index", "/p/recipe-index.html")
        for y in self.years:
            self.reg(f"y{y}", f"/{y}/")
        for y, m in self.months:
            self.reg(f"m{y}-{m}", f"/{y}/{m:02d}/")
        for i, p in enumerate(self.posts):
            self.reg(f"post{i}", p["path"])

    @staticmethod
    def month_ms(y: int, m: int) -> int:
        return _ms(dt.datetime(y, m, 1, tzinfo=_TZ))

    def archive_widget(self, path: str, open_y: int | None, open_m: int | None) -> str:
        ok = open_y is not None and open_m is not None and 1 <= open_m <= 12
        cur = f"MONTHLY-{self.month_ms(open_y, open_m)}" if ok else ""

        def tog(d: str, what: str) -> str:
            return (
                f"{path}?widgetType=BlogArchive&widgetId=BlogArchive1&action=toggle"
                f"&dir={d}&toggle={what}&toggleopen={cur}"
            )

        out = ['<div class="widget BlogArchive"><h2>Blog Archive</h2><ul class="hierarchy">']
        for y in self.years:
            n = sum(len(v) for (yy, _), v in self.months.items() if yy == y)
            yk = f"YEARLY-{_ms(dt.datetime(y, 1, 1, tzinfo=_TZ))}"
            is_open = y == open_y
            out.append(
                f"<li>{a(tog('close' if is_open else 'open', yk), '▼' if is_open else '►')} "
                f"{a(f'/{y}/', str(y))} ({n})"
            )
            if is_open:
                out.append("<ul>")
                for (yy, m), idx in sorted(self.months.items(), reverse=True):
                    if yy != y:
                        continue
                    mk = f"MONTHLY-{self.month_ms(y, m)}"
                    mo = m == open_m
                    name = dt.date(y, m, 1).strftime("%B")
                    out.append(
                        f"<li>{a(tog('close' if mo else 'open', mk), '▼' if mo else '►')} "
                        f"{a(f'/{y}/{m:02d}/', name)} ({len(idx)})"
                    )
                    if mo:
                        out.append(
                            ul([(self.posts[i]["path"], self.posts[i]["title"]) for i in idx])
                        )
                    out.append("</li>")
                out.append("</ul>")
            out.append("</li>")
        out.append("</ul></div>")
        return "".join(out)

    def desktop(self, path: str, title: str, main: str, ym: tuple[int, int] | None) -> str:
        oy, om = ym if ym else (None, None)
        side = (
            '<div class="widget PageList"><h2>Pages</h2>'
            + ul([("/", "Home"), ("/p/about.html", "About"), ("/p/recipe-index.html", "Index")])
            + '</div><div class="widget Label"><h2>Labels</h2>'
            + ul([(f"/search/label/{lb}", lb) for lb in _LABELS])
            + "</div>"
            + self.archive_widget(path, oy, om)
        )
        head = (
            f'<link rel="alternate" media="only screen and (max-width: 640px)" href="{path}?m=1">'
            '<link rel="alternate" type="application/atom+xml" title="The Copper Kettle - Atom"'
            ' href="/feeds/posts/default">'
        )
        body = (
            f'<div class="header"><h1>{a("/", "The Copper Kettle")}</h1>'
            "<p>Weekend baking from a small kitchen in Astoria.</p></div>"
            f'<div class="main">{main}</div><div class="sidebar">{side}</div>'
            '<div class="footer">Powered by Blogger.</div>'
        )
        return doc(
            f"{title} | The Copper Kettle" if title else "The Copper Kettle", body, head=head
        )

    def mobile(self, path: str, title: str, main: str) -> str:
        body = (
            f'<div class="mobile-header">{a("/?m=1", "The Copper Kettle")}</div>{main}'
            f'<div class="mobile-footer">{a("/?m=1", "Home")} | '
            f"{a(path + '?m=0', 'View web version')}</div>"
        )
        return doc(title or "The Copper Kettle", body)

    def snippet(self, i: int, m: str) -> str:
        p = self.posts[i]
        when = p["t"].strftime("%A, %B %-d, %Y")
        return (
            f'<div class="date-header">{esc(when)}</div><h3>{a(p["path"] + m, p["title"])}</h3>'
            f"{prose(self, f'snip{i}', self.vocab, 30, 50)}"
            f"<p>{a(p['path'] + m, 'Read more »')} · {len(p['com'])} comments</p>"
        )

    def post_main(self, i: int, m: str) -> str:
        p = self.posts[i]
        when = p["t"].strftime("%A, %B %-d, %Y")
        labels = ", ".join(a(f"/search/label/{lb}", lb) for lb in p["labels"])
        coms = []
        for who, ct, cid in p["com"]:
            link = f"{p['path']}?showComment={_ms(ct)}#c{cid}"
            coms.append(
                f'<dl id="c{cid}"><dt>{esc(who)} said...</dt><dd>'
                f"{prose(self, f'com{cid}', self.vocab, 12, 40)}</dd>"
                f"<dd>{a(link, ct.strftime('%B %-d, %Y at %-I:%M %p'))}</dd></dl>"
            )
        nav: list[Link] = []
        if i > 0:
            nav.append((self.posts[i - 1]["path"] + m, "Newer Post"))
        nav.append(("/" + m, "Home"))
        if i + 1 < len(self.posts):
            nav.append((self.posts[i + 1]["path"] + m, "Older Post"))
        return (
            f'<div class="date-header">{esc(when)}</div><h3>{esc(p["title"])}</h3>'
            f"{prose(self, f'post{i}', self.vocab, 160, 360)}"
            f'<div class="post-footer">Posted by Ilse Marsh at {p["t"].strftime("%-I:%M %p")}'
            f" · Labels: {labels}</div>"
            f'<div class="comments"><h4>{len(p["com"])} comments:</h4>{"".join(coms)}</div>'
            f'<div class="blog-pager">{bar(nav)}</div>'
        )

    def handle(self, req: Req) -> Reply:
        path = req.path
        q = params(req.query)
        if path.startswith("/feeds/"):
            return Reply('<?xml version="1.0"?><feed/>', OTHER, None, ctype="application/atom+xml")
        mob = q.get("m") == "1"
        m = "?m=1" if mob else ""
        title, ym = "", None
        if path == "/":
            main = "".join(self.snippet(i, m) for i in range(7))
            older = self.posts[6]["t"].isoformat(timespec="seconds")
            more = f"/search?updated-max={enc(older)}&max-results=7"
            main += f'<div class="blog-pager">{a(more, "Older Posts")}</div>'
            ym = (self.posts[0]["t"].year, self.posts[0]["t"].month)
        elif path == "/p/about.html":
            title = "About"
            main = f"<h3>About</h3>{prose(self, 'about', self.vocab, 100, 200)}"
        elif path == "/p/recipe-index.html":
            title = "Recipe index"
            rows = [(p["path"] + m, f"{p['title']} ({', '.join(p['labels'])})") for p in self.posts]
            main = f"<h3>Recipe index</h3>{ul(sorted(rows, key=lambda r: r[1]))}"
        else:
            parts = [x for x in path.split("/") if x]
            hit = [i for i, p in enumerate(self.posts) if p["path"] == path]
            if hit:
                i = hit[0]
                title = self.posts[i]["title"]
                main = self.post_main(i, m)
                ym = (self.posts[i]["t"].year, self.posts[i]["t"].month)
            elif len(parts) == 1 and parts[0].isdigit() and int(parts[0]) in self.years:
                y = int(parts[0])
                idx = [i for (yy, _), v in self.months.items() if yy == y for i in v]
                title = str(y)
                main = "".join(self.snippet(i, m) for i in idx)
                ym = (y, max(mm for yy, mm in self.months if yy == y))
            elif (
                len(parts) == 2
                and all(x.isdigit() for x in parts)
                and (int(parts[0]), int(parts[1])) in self.months
                and path.endswith("/")
            ):
                ym = (int(parts[0]), int(parts[1]))
                title = dt.date(ym[0], ym[1], 1).strftime("%B %Y")
                main = "".join(self.snippet(i, m) for i in self.months[ym])
            else:
                return not_found()
        if mob:
            return self.serve(req, self.mobile(path, title, main))
        if q.get("action") == "toggle":
            ym = self.toggled(q, ym)
        return self.serve(req, self.desktop(path, title, main, ym))

    def toggled(self, q: dict[str, str], ym: tuple[int, int] | None) -> tuple[int, int] | None:
        def parse(v: str) -> tuple[str, dt.datetime] | None:
            kind, _, ms = v.partition("-")
            if not ms.isdigit():
                return None
            return kind, dt.datetime.fromtimestamp(int(ms) / 1000, _TZ)

        cur = parse(q.get("toggleopen", ""))
        tog = parse(q.get("toggle", ""))
        state = (cur[1].year, cur[1].month) if cur else ym
        if tog and q.get("dir") == "open":
            state = (tog[1].year, tog[1].month if tog[0] == "MONTHLY" else 12)
        elif tog and q.get("dir") == "close":
            state = None if tog[0] == "YEARLY" else (tog[1].year, 0)
        return state


# ----------------------------------------------------------------------------------------
# Liferay DXP 7.4, two virtual hosts: the public site (host 0) and the portal's default
# host (host 1), where the Guest site lives and every site is also reachable as
# `/web/<group>/...`. Asset Publisher paging and delta links carry the portlet namespace
# (`p_p_id=...&_<ns>_cur=&_<ns>_delta=`); "Read More" and "Related Assets" links carry
# `?redirect=<current URL>` (nesting); print links mint a fresh `p_p_auth` token on
# every response (no session without cookies); `/c/portal/layout?p_l_id=` and
# `/c/asset_publisher/find_content?assetEntryId=` redirect, the latter to the `/web/harbour`
# copy of the site on host 0.
# Legit look-alikes: the real Asset Publisher pages 2..5, the articles, the Guest pages.
# ----------------------------------------------------------------------------------------

_LR_NEWS = [
    "Dredging of the inner basin begins in March",
    "New berth allocation rules for the fishing fleet",
    "Harbour master's annual report published",
    "Pilot boat Osprey returns after refit",
    "Winter storm damage to the east breakwater assessed",
    "Public consultation on the marina extension",
    "Tide gauge data now available as open data",
    "Ferry timetable changes for the summer season",
    "Lighthouse open days announced",
    "Water quality results for the bathing season",
    "Cruise call schedule for next year",
    "Apprenticeships in marine engineering open",
    "Fuel quay closed for resurfacing works",
    "Seal colony survey results",
    "Port security exercise on Thursday",
    "Grant awarded for shore power at the ferry terminal",
    "Heritage crane restoration completed",
    "Navigation warning: buoy relocated off the north pier",
    "Harbour festival raises funds for the lifeboat",
    "Board appoints new chief executive",
    "Ice plant replaced at the fish market",
    "Sediment sampling results published",
    "Mooring fees for the coming year",
    "Volunteer beach clean on the south strand",
]


class Liferay(Hosted):
    """Liferay DXP: portlet-namespaced paging, p_p_auth per response, two virtual hosts."""

    name = "liferay"
    kind = "Liferay DXP: _INSTANCE_ cur/delta, fresh p_p_auth, redirect= nesting, /web/ twins"
    hosts = 2
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/home"), (1, "/web/guest/home")]
    robots_disallow: ClassVar[list[str]] = ["/c/portal/login", "/group/"]

    def robots_txt(self, req: Req) -> str:
        return (
            "User-Agent: *\nDisallow: /c/portal/login\nDisallow: /group/\n"
            f"Sitemap: {req.base}/sitemap.xml\n"
        )

    def setup(self) -> None:
        self.vocab = words_for("gov")
        r = self.rng("inst")
        self.inst = "".join(
            r.choice("abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(12)
        )
        self.ns = (
            f"com_liferay_asset_publisher_web_portlet_AssetPublisherPortlet_INSTANCE_{self.inst}"
        )
        self.titles = _LR_NEWS
        self.slugs = [
            "-".join(t.lower().replace("'", "").replace(":", "").split()) for t in self.titles
        ]
        self.entry = [30000 + 17 * i + r.randint(0, 9) for i in range(len(self.titles))]
        self.pages = {
            "home": "Home",
            "about-us": "About Us",
            "visit": "Visit",
            "contact-us": "Contact Us",
            "news": "News",
        }
        self.plid = {p: 10 + i for i, p in enumerate(self.pages)}
        self.guest = {
            "home": "Staff Portal",
            "services": "Services",
            "policies": "Policies",
            "it-help": "IT Help",
        }
        for p in self.pages:
            self.reg(f"p:{p}", f"/{p}")
        for c in range(2, 6):
            self.reg(f"news{c}", self.page_url("/news", c, 5))
        for i in range(len(self.titles)):
            self.reg(f"a{i}", self.art(i))
        for g in self.guest:
            self.reg(f"g:{g}", f"/web/guest/{g}", 1)

    def art(self, i: int, prefix: str = "") -> str:
        return f"{prefix}/news/-/asset_publisher/{self.inst}/content/{self.slugs[i]}"

    def page_url(self, base: str, cur: int, delta: int, state: str = "normal") -> str:
        n = self.ns
        return (
            f"{base}?p_p_id={n}&p_p_lifecycle=0&p_p_state={state}&p_p_mode=view"
            f"&_{n}_delta={delta}&_{n}_resetCur=false&_{n}_cur={cur}"
        )

    def shell(self, prefix: str, title: str, main: str, host: int) -> str:
        nav = bar([(f"{prefix}/{p}", t) for p, t in self.pages.items()])
        foot = bar(
            [
                (f"/c/portal/layout?p_l_id={self.plid['contact-us']}&p_v_l_s_g_id=0", "Contact"),
                (f"/c/portal/login?p_l_id={self.plid['home']}", "Sign In"),
                (self.url(1, "/web/guest/home"), "Staff portal"),
            ]
        )
        body = (
            f'<header id="banner">{a(prefix + "/" if prefix else "/", "Harbour Trust")}'
            f'<nav id="navigation">{nav}</nav></header><section id="content">'
            f"<h1>{esc(title)}</h1>{main}</section><footer>{foot}"
            "<p>Powered by Liferay</p></footer>"
        )
        return doc(f"{title} - Harbour Trust", body)

    def news_list(self, base: str, prefix: str, cur: int, delta: int, state: str, here: str) -> str:
        start = (cur - 1) * delta
        items = []
        for i in range(start, min(start + delta, len(self.titles))):
            items.append(
                f'<div class="asset-abstract"><h3>{a(self.art(i, prefix), self.titles[i])}</h3>'
                f"{prose(self, f'abs{i}', self.vocab, 25, 45)}"
                f"<p>{a(self.art(i, prefix) + '?redirect=' + enc(here), 'Read More »')}</p></div>"
            )
        last = -(-len(self.titles) // delta)
        pager: list[Link] = [(self.page_url(base, 1, delta, state), "First")]
        if cur > 1:
            pager.append((self.page_url(base, cur - 1, delta, state), "Previous"))
        pager += [
            (self.page_url(base, k, delta, state), str(k)) for k in range(1, last + 1) if k != cur
        ]
        if cur < last:
            pager.append((self.page_url(base, cur + 1, delta, state), "Next"))
        pager.append((self.page_url(base, last, delta, state), "Last"))
        deltas = [(self.page_url(base, 1, d, state), str(d)) for d in (5, 10, 20, 30, 50, 75)]
        return (
            "".join(items)
            + f'<div class="lfr-pagination">{bar(pager, " ")}'
            + f"<p>Items per Page {bar(deltas, ' ')}</p>"
            + f"<p>Showing {start + 1} to {min(start + delta, len(self.titles))}"
            + f" of {len(self.titles)} entries.</p>"
            + f"{a(self.page_url(base, cur, delta, 'maximized'), 'Maximize')}</div>"
        )

    def article(self, i: int, prefix: str, here: str, back: str | None) -> str:
        tok = self.token(8, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        n = self.ns
        printer = (
            f"{self.art(i, prefix)}?p_p_id={n}&p_p_lifecycle=0&p_p_state=pop_up&p_p_mode=view"
            f"&p_p_auth={tok}&_{n}_viewMode=print&_{n}_type=content&_{n}_urlTitle={self.slugs[i]}"
        )
        rel = [(i + k) % len(self.titles) for k in (3, 7)]
        related = [(self.art(j, prefix) + "?redirect=" + enc(here), self.titles[j]) for j in rel]
        d = dt.date(2025, 1, 6) + dt.timedelta(days=11 * (len(self.titles) - i))
        ctx = f"/c/asset_publisher/find_content?p_l_id={self.plid['news']}"
        ctx += f"&assetEntryId={self.entry[i]}"
        out = f"<p>{a(back, '« Back')}</p>" if back else ""
        out += f'<p class="date">{d:%B %-d, %Y}</p>'
        out += prose(self, f"art{i}", self.vocab, 140, 300)
        out += f"<p>{a(printer, 'Print')} | {a(ctx, 'View in context')}</p>"
        out += f'<div class="related"><h4>Related Assets</h4>{ul(related)}</div>'
        return out

    def handle(self, req: Req) -> Reply:
        path, q, h = req.path, params(req.query), req.host_index
        if path == "/c/portal/layout":
            rev = {v: k for k, v in self.plid.items()}
            p = rev.get(int(q.get("p_l_id", "0") or 0)) if q.get("p_l_id", "").isdigit() else None
            return redirect(f"/{p}") if p and h == 0 else not_found()
        if path == "/c/asset_publisher/find_content":
            e = q.get("assetEntryId", "")
            if e.isdigit() and int(e) in self.entry:
                return redirect(self.art(self.entry.index(int(e)), "/web/harbour"))
            return not_found()
        if h == 1 and path in ("/", "/web/guest", "/web/guest/"):
            return redirect("/web/guest/home")
        prefix = ""
        rest = path
        if path.startswith("/web/harbour/"):
            prefix, rest = "/web/harbour", path[len("/web/harbour") :]
        elif h == 1 and path.startswith("/web/guest/"):
            g = path[len("/web/guest/") :]
            if g not in self.guest:
                return not_found()
            links = [(f"/web/guest/{x}", t) for x, t in self.guest.items()]
            extra = ""
            if g == "home":
                extra = "<h3>Sites</h3>" + ul(
                    [
                        ("/web/harbour/home", "Harbour Trust (public site)"),
                        (self.url(0, "/home"), "www.harbourtrust.example"),
                    ]
                )
            body = doc(
                f"{self.guest[g]} - Liferay",
                f"<nav>{bar(links)}</nav><h1>{esc(self.guest[g])}</h1>"
                f"{prose(self, f'g{g}', words_for('corp'), 90, 220)}{extra}"
                f"<footer>{a('/c/portal/login?p_l_id=5', 'Sign In')}</footer>",
            )
            return self.serve(req, body)
        elif h == 1:
            return not_found()
        if rest == "/" or rest == "":
            rest = "/home"
        page = rest.strip("/")
        if page in self.pages and page != "news":
            main = prose(self, f"page{page}", self.vocab, 110, 260)
            if page == "home":
                main += "<h3>Latest news</h3>" + ul(
                    [(self.art(i, prefix), self.titles[i]) for i in range(3)]
                )
            return self.serve(req, self.shell(prefix, self.pages[page], main, h))
        here = req.target
        if page == "news":
            n = self.ns
            cur = int(q.get(f"_{n}_cur", "1")) if q.get(f"_{n}_cur", "1").isdigit() else 1
            delta = int(q.get(f"_{n}_delta", "5")) if q.get(f"_{n}_delta", "5").isdigit() else 5
            delta = max(1, min(delta, 75))
            last = -(-len(self.titles) // delta)
            cur = max(1, min(cur, last))
            state = q.get("p_p_state", "normal")
            main = self.news_list(prefix + "/news", prefix, cur, delta, state, here)
            return self.serve(req, self.shell(prefix, "News", main, h))
        pre = f"news/-/asset_publisher/{self.inst}/content/"
        if page.startswith(pre) and page[len(pre) :] in self.slugs:
            i = self.slugs.index(page[len(pre) :])
            back = q.get("redirect") or None
            return self.serve(
                req, self.shell(prefix, self.titles[i], self.article(i, prefix, here, back), h)
            )
        return not_found()


# ----------------------------------------------------------------------------------------
# Apache Wicket (a museum's online collection). Bookmarkable mounted pages are stateless
# and render at their address; the collection listings hold a stateful DataTable, so
# Wicket redirects them to a page instance `?N` (a new N on every visit) whose sort
# headers, rows-per-page choices and "Add to my selection" links are listener URLs
# (`?N-1.ILinkListener-...`) that redirect to yet another instance `?M`. The "Related
# objects" panel links the non-mounted form `wicket/bookmarkable/<class>?acc=`. All
# links are rendered relative to the current page, as Wicket does.
# Legit look-alikes: one instance of each listing (the first fetched), the stateless pages.
# ----------------------------------------------------------------------------------------

_WK_CATS = {
    "paintings": "Paintings",
    "ceramics": "Ceramics",
    "textiles": "Textiles",
    "maps": "Maps and charts",
}
_WK_OBJ = {
    "paintings": [
        "View of the Quay at Dusk",
        "Portrait of a Ropemaker",
        "Fishing Fleet in a Squall",
        "The Old Custom House",
        "Study of Gulls",
        "Winter Orchard",
    ],
    "ceramics": [
        "Salt-glazed Storage Jar",
        "Slipware Harvest Dish",
        "Lustre Jug with Ships",
        "Tin-glazed Tile Panel",
        "Stoneware Flagon",
        "Creamware Teapot",
    ],
    "textiles": [
        "Guernsey Sweater",
        "Sampler Dated 1812",
        "Sailcloth Fragment",
        "Quilted Petticoat",
        "Lace Collar",
        "Woven Wool Blanket",
    ],
    "maps": [
        "Chart of the Estuary 1760",
        "Town Plan 1843",
        "Admiralty Survey Sheet",
        "Tithe Map of the Parish",
        "Pilot's Sketch of the Bar",
        "Railway Survey 1866",
    ],
}
_WK_EXH = {
    "salt-and-sail": ("Salt and Sail", ["paintings", "textiles"]),
    "clay-of-the-river": ("Clay of the River", ["ceramics"]),
    "mapping-the-shore": ("Mapping the Shore", ["maps", "paintings"]),
}


class Wicket(Hosted):
    """Apache Wicket: page instances ?N per visit, ILinkListener redirects to new ones."""

    name = "wicket"
    kind = "Apache Wicket: stateful listings redirect to ?N per visit, ILinkListener links"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/admin/", "/login"]

    def setup(self) -> None:
        self.vocab = words_for("books") + words_for("travel")
        r = self.rng("acc")
        self.objs: dict[str, tuple[str, str, int]] = {}  # acc -> (cat, title, year)
        for c, titles in _WK_OBJ.items():
            for t in titles:
                acc = f"{r.randint(1952, 2019)}.{r.randint(1, 400):03d}"
                while acc in self.objs:
                    acc = f"{r.randint(1952, 2019)}.{r.randint(1, 400):03d}"
                self.objs[acc] = (c, t, r.randint(1700, 1930))
        self.next_id = r.randint(2, 9)
        for p in ("/", "/about", "/visit", "/exhibitions", "/collection"):
            self.reg(f"p{p}", p)
        for x in _WK_EXH:
            self.reg(f"e:{x}", f"/exhibitions/{x}")
        for acc in self.objs:
            self.reg(f"o:{acc}", f"/object/{acc}")
        self.cats = set(_WK_CATS)
        for c in _WK_CATS:
            self.legit.add(f"c:{c}")

    def new_page_id(self) -> int:
        return self.next_id + self.tick()

    @staticmethod
    def rel(here: str, target: str) -> str:
        """`target` relative to the request path `here`, as Wicket renders its links."""
        tpath, _, tq = target.partition("?")
        d = posixpath.dirname(here) or "/"
        r = posixpath.relpath(tpath, d) if tpath != "/" else posixpath.relpath("/", d) + "/"
        if r == "." or r.startswith("./"):
            r = "./" + r.lstrip("./") if r != "." else "./"
        elif not r.startswith("../"):
            r = "./" + r
        return r + (f"?{tq}" if tq else "")

    def shell(self, here: str, title: str, main: str) -> str:
        nav = [
            ("/", "Home"),
            ("/collection", "Collection"),
            ("/exhibitions", "Exhibitions"),
            ("/visit", "Visit"),
            ("/about", "About"),
        ]
        navh = bar([(self.rel(here, t), x) for t, x in nav])
        body = (
            f'<div id="header"><span class="logo">Vestry Museum</span>{navh}</div>'
            f'<div id="content"><h1>{esc(title)}</h1>{main}</div>'
            f'<div id="footer">{a(self.rel(here, "/login"), "Staff login")}</div>'
        )
        return doc(f"{title} | Vestry Museum", body)

    def listing(self, here: str, cat: str, pid: int, sort: str, rows: int, note: str) -> str:
        accs = [x for x, v in self.objs.items() if v[0] == cat]
        key = {
            "acc": lambda x: x,
            "title": lambda x: self.objs[x][1],
            "date": lambda x: self.objs[x][2],
        }
        col, _, direction = sort.partition(":")
        accs.sort(key=key.get(col, key["acc"]), reverse=direction == "desc")
        lst = f"./{cat}?{pid}-1.ILinkListener-"
        hdr = f"{lst}objects-topToolbars-toolbars-0-headers-"
        heads = "".join(
            f"<th>{a(f'{hdr}{k}-header-orderByLink', nm)}</th>"
            for k, nm in enumerate(["Accession", "Title", "Date"], 1)
        )
        body = "".join(
            f"<tr><td>{x}</td><td>{a(self.rel(here, f'/object/{x}'), self.objs[x][1])}</td>"
            f"<td>c. {self.objs[x][2]}</td>"
            f"<td>{a(f'{lst}objects-body-rows-{k}-cells-4-cell-select', 'Add to my selection')}"
            "</td></tr>"
            for k, x in enumerate(accs[:rows], 1)
        )
        per = " | ".join(a(f"{lst}rowsPerPage-{n}-link", str(n)) for n in (10, 25, 50))
        return (
            (f'<div class="feedback">{esc(note)}</div>' if note else "")
            + f"{prose(self, f'cat{cat}', self.vocab, 60, 120)}"
            + f'<table class="dataview"><thead><tr>{heads}<th></th></tr></thead>'
            + f"<tbody>{body}</tbody></table>"
            + f'<div class="navigator">Rows per page: {per}</div>'
        )

    def handle(self, req: Req) -> Reply:
        path, query = req.path, req.query
        if path.startswith("/collection/") and path[len("/collection/") :] in self.cats:
            cat = path[len("/collection/") :]
            if not query:
                return redirect(f"{path}?{self.new_page_id()}")
            head, _, listener = query.partition("-1.ILinkListener-")
            if not head.isdigit():
                return not_found()
            if listener:
                return redirect(f"{path}?{self.new_page_id()}")
            n = int(head)
            r = self.rng(f"state{n}")
            sort = (
                r.choice(["acc", "title:asc", "title:desc", "date:asc", "date:desc"])
                if n > 12
                else "acc"
            )
            note = r.choice(["", "Added to your selection.", ""]) if n > 12 else ""
            body = self.shell(path, _WK_CATS[cat], self.listing(path, cat, n, sort, 10, note))
            return self.alias(f"c:{cat}", req, body)
        if path == "/wicket/bookmarkable/org.vestry.web.pages.ObjectPage":
            acc = params(query).get("acc", "")
            if acc in self.objs:
                return self.serve(req, self.object_page(path, acc))
            return not_found()
        if path.startswith("/object/") and path[8:] in self.objs:
            return self.serve(req, self.object_page(path, path[8:]))
        if path == "/collection":
            links = [(self.rel(path, f"/collection/{c}"), t) for c, t in _WK_CATS.items()]
            return self.serve(
                req, self.shell(path, "The Collection", prose(self, "coll", self.vocab) + ul(links))
            )
        if path.startswith("/exhibitions/") and path[13:] in _WK_EXH:
            t, cats = _WK_EXH[path[13:]]
            objs = [
                (self.rel(path, f"/object/{x}"), v[1]) for x, v in self.objs.items() if v[0] in cats
            ][::2]
            return self.serve(
                req, self.shell(path, t, prose(self, f"exh{t}", self.vocab, 150, 300) + ul(objs))
            )
        if path == "/exhibitions":
            links = [(self.rel(path, f"/exhibitions/{x}"), t) for x, (t, _) in _WK_EXH.items()]
            return self.serve(
                req,
                self.shell(
                    path, "Exhibitions", prose(self, "exhs", self.vocab, 60, 120) + ul(links)
                ),
            )
        if path in ("/", "/about", "/visit"):
            title = {
                "/": "Welcome to the Vestry Museum",
                "/about": "About the museum",
                "/visit": "Plan your visit",
            }[path]
            extra = (
                ul(
                    [
                        (self.rel(path, f"/object/{x}"), v[1])
                        for x, v in list(self.objs.items())[::5]
                    ]
                )
                if path == "/"
                else ""
            )
            return self.serve(
                req, self.shell(path, title, prose(self, f"p{path}", self.vocab) + extra)
            )
        return not_found()

    def object_page(self, here: str, acc: str) -> str:
        cat, title, year = self.objs[acc]
        same = [x for x, v in self.objs.items() if v[0] == cat]
        k = same.index(acc)
        nav: list[Link] = []
        if k > 0:
            nav.append((self.rel(here, f"/object/{same[k - 1]}"), "« Previous"))
        nav.append((self.rel(here, f"/collection/{cat}"), f"Back to {_WK_CATS[cat]}"))
        if k + 1 < len(same):
            nav.append((self.rel(here, f"/object/{same[k + 1]}"), "Next »"))
        related = [
            (
                self.rel(here, f"/wicket/bookmarkable/org.vestry.web.pages.ObjectPage?acc={x}"),
                self.objs[x][1],
            )
            for x in same
            if x != acc
        ][:3]
        main = (
            f"<dl><dt>Accession number</dt><dd>{acc}</dd><dt>Date</dt><dd>c. {year}</dd>"
            f"<dt>Department</dt><dd>{esc(_WK_CATS[cat])}</dd></dl>"
            f"{prose(self, f'obj{acc}', self.vocab, 120, 280)}<p>{bar(nav)}</p>"
            f'<div class="related"><h3>Related objects</h3>{ul(related)}</div>'
        )
        return self.shell(here, title, main)


# ----------------------------------------------------------------------------------------
# Foswiki 2 (PatternSkin, TablePlugin). Topic views take `rev=`, `raw=on`, `cover=print`,
# and TablePlugin's column sorting `sortcol=N;table=M;up=0|1`, which every sort link carries
# along with the other parameters of the current request (`;`-separated, as Foswiki writes
# them). The revision bar links `?rev=N` and `rdiff?rev1=;rev2=` diffs; "More topic
# actions" (`oops?template=oopsmore`) links every pair; edit links carry a fresh `t=`.
# Legit look-alikes: the real older revisions (`?rev=N` below the current one), the topics,
# the web's home, topic list and changes, the user topics.
# ----------------------------------------------------------------------------------------

_FW_TOPICS = [
    "ReefSurvey2025",
    "SensorCalibration",
    "FieldworkSafety",
    "BoatBookingRules",
    "DataManagementPlan",
    "SampleArchive",
    "CtdProcessing",
    "MeetingNotes2025",
    "ThesisTemplates",
    "LabInventory",
    "GrantDeadlines",
    "PublicationList",
    "DivingLogs",
    "SoftwareSetup",
    "VisitorInformation",
    "ReadingGroup",
]
_FW_USERS = ["AnnikaLund", "JoseFerreira", "PriyaNair", "TomGallagher"]


class Foswiki(Hosted):
    """Foswiki: rev=, raw=on, cover=print, TablePlugin sortcol=;table=;up= carried along."""

    name = "foswiki"
    kind = "Foswiki: ?sortcol=;table=;up= carried with rev=/raw=on/cover=print, rdiff pairs"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = [
        "/bin/edit/",
        "/bin/attach/",
        "/bin/rename/",
        "/bin/login/",
        "/bin/save/",
        "/bin/manage/",
        "/bin/upload/",
        "/bin/statistics/",
    ]

    def setup(self) -> None:
        self.vocab = words_for("science")
        r = self.rng("revs")
        self.topics: dict[str, dict] = {}
        for t in _FW_TOPICS:
            self.topics[f"Projects.{t}"] = {
                "rev": r.choice([1, 1, 2, 2, 3, 4]),
                "tables": r.choice([0, 0, 1, 1, 2]),
                "author": r.choice(_FW_USERS),
            }
        for u in _FW_USERS:
            self.topics[f"Main.{u}"] = {"rev": 1, "tables": 0, "author": u}
        for w, t in [
            ("Projects", "WebHome"),
            ("Projects", "WebTopicList"),
            ("Projects", "WebChanges"),
            ("Main", "WebHome"),
            ("Main", "WikiUsers"),
        ]:
            self.topics[f"{w}.{t}"] = {
                "rev": 2 if t == "WebHome" else 1,
                "tables": 0,
                "author": "AdminUser",
            }
        for name, info in self.topics.items():
            w, t = name.split(".")
            self.reg(f"t:{name}", f"/bin/view/{w}/{t}")
            for k in range(1, info["rev"]):
                if w == "Projects" and "Web" not in t:
                    self.reg(f"r:{name}:{k}", f"/bin/view/{w}/{t}?rev={k}")

    def topic_text(self, name: str, rev: int) -> str:
        w, t = name.split(".")
        if t == "WebHome" and w == "Projects":
            return "<p>Welcome to the Coastal Ecology group's project web.</p>" + ul(
                [(f"/bin/view/Projects/{x}", x) for x in _FW_TOPICS[::2]]
                + [
                    ("/bin/view/Projects/WebTopicList", "Topic list"),
                    ("/bin/view/Projects/WebChanges", "Recent changes"),
                ]
            )
        if t == "WebHome":
            return "<p>The Main web holds the user topics.</p>" + ul(
                [
                    ("/bin/view/Main/WikiUsers", "WikiUsers"),
                    ("/bin/view/Projects/WebHome", "Projects web"),
                ]
            )
        if t == "WebTopicList":
            return ul([(f"/bin/view/Projects/{x}", x) for x in sorted(_FW_TOPICS)])
        if t == "WebChanges":
            rows = sorted(
                _FW_TOPICS, key=lambda x: -self.topics[f"Projects.{x}"]["rev"] * 7 - len(x)
            )
            return ul(
                [
                    (
                        f"/bin/view/Projects/{x}",
                        f"{x} - r{self.topics['Projects.' + x]['rev']}"
                        f" - {self.topics['Projects.' + x]['author']}",
                    )
                    for x in rows
                ]
            )
        if t == "WikiUsers":
            return ul([(f"/bin/view/Main/{u}", u) for u in _FW_USERS])
        return prose(self, f"{name}@{rev}", self.vocab, 100 + 30 * rev, 220 + 40 * rev) + (
            ""
            if w == "Main"
            else f"<p>See also {a('/bin/view/Projects/' + self.see_also(t), self.see_also(t))}.</p>"
        )

    @staticmethod
    def see_also(t: str) -> str:
        return _FW_TOPICS[(_FW_TOPICS.index(t) + 5) % len(_FW_TOPICS)]

    def table(self, name: str, n: int, q: dict[str, str], here: str) -> str:
        r = self.rng(f"tbl{name}{n}")
        cols = ["Station", "Date", "Depth (m)", "Observer"]
        rows = [
            [
                f"ST-{r.randint(1, 60):02d}",
                f"2025-{r.randint(1, 9):02d}-{r.randint(1, 28):02d}",
                str(r.randint(2, 40)),
                r.choice(_FW_USERS),
            ]
            for _ in range(r.randint(4, 8))
        ]
        sc, tb, up = q.get("sortcol"), q.get("table"), q.get("up")
        if tb == str(n) and sc and sc.isdigit() and int(sc) < 4:
            rows.sort(key=lambda x: x[int(sc)], reverse=up == "1")
        keep = {k: v for k, v in q.items() if k not in ("sortcol", "table", "up")}
        base = ";".join(f"{k}={v}" for k, v in keep.items())
        heads = []
        for c, name_ in enumerate(cols):
            nup = "1" if (tb == str(n) and sc == str(c) and up != "1") else "0"
            qs_ = (base + ";" if base else "") + f"sortcol={c};table={n};up={nup}"
            heads.append(f"<th>{a(f'{here}?{qs_}#sorted_table', name_)}</th>")
        body = "".join(
            "<tr>" + "".join(f"<td>{esc(x)}</td>" for x in row) + "</tr>" for row in rows
        )
        return f'<table class="foswikiTable" id="table{n}"><tr>{"".join(heads)}</tr>{body}</table>'

    def handle(self, req: Req) -> Reply:
        path, q = req.path, params(req.query)
        if path in ("/", "/bin/view", "/bin/view/"):
            return redirect("/bin/view/Main/WebHome")
        parts = path.split("/")
        if len(parts) != 5 or parts[1] != "bin":
            return not_found()
        script, name = parts[2], f"{parts[3]}.{parts[4]}"
        if name not in self.topics:
            return not_found()
        info = self.topics[name]
        w, t = parts[3], parts[4]
        view = f"/bin/view/{w}/{t}"
        cur = info["rev"]
        if script == "rdiff":
            r1 = int(q.get("rev1", cur)) if str(q.get("rev1", cur)).isdigit() else cur
            r2 = int(q.get("rev2", max(1, cur - 1))) if str(q.get("rev2", "1")).isdigit() else 1
            render = q.get("render", "sequential")
            alt = "sidebyside" if render == "sequential" else "sequential"
            links = [
                (f"/bin/rdiff/{w}/{t}?rev1={r1};rev2={r2};render={alt}", f"Render {alt}"),
                (view, "View topic"),
            ]
            main = (
                f"<h2>Difference: {t} (r{r2} vs. r{r1})</h2>"
                + prose(self, f"diff{name}{min(r1, r2)}", self.vocab, 40, 90)
                + bar(links)
            )
            return self.serve(req, self.shell(w, t, main, view, cur, q))
        if script == "oops" and q.get("template") == "oopsmore":
            revs = [(f"{view}?rev={k}", f"r{k}") for k in range(1, cur + 1)]
            pairs = [
                (f"/bin/rdiff/{w}/{t}?rev1={i};rev2={j}", f"r{i} vs r{j}")
                for i in range(1, cur + 1)
                for j in range(1, cur + 1)
                if i != j
            ]
            main = f"<h2>More Actions on Topic {t}</h2><h3>View previous topic revision</h3>"
            main += f"{ul(revs)}<h3>Compare revisions</h3>{ul(pairs)}"
            return self.serve(req, self.shell(w, t, main, view, cur, q))
        if script != "view":
            return not_found()
        rev = int(q["rev"]) if q.get("rev", "").isdigit() and int(q["rev"]) > 0 else cur
        rev = min(rev, cur)
        main = self.topic_text(name, rev)
        for n in range(1, info["tables"] + 1):
            main += self.table(name, n, q, view)
        if q.get("raw") == "on":
            main = f'<pre class="foswikiRaw">{esc(re.sub(r"<[^>]+>", " ", main))}</pre>'
        return self.serve(req, self.shell(w, t, main, view, cur, q, rev))

    def shell(
        self, w: str, t: str, main: str, view: str, cur: int, q: dict[str, str], rev: int = 0
    ) -> str:
        keep = ";".join(f"{k}={v}" for k, v in q.items() if k in ("rev", "sortcol", "table", "up"))
        sep = keep + ";" if keep else ""
        hist = [(f"{view}?rev={k}", f"r{k}") for k in range(cur, max(0, cur - 4), -1)]
        diffs = " ".join(
            f"{a(h, x)} {a(f'/bin/rdiff/{w}/{t}?rev1={cur - i};rev2={cur - i - 1}', '<')}"
            if cur - i > 1
            else a(h, x)
            for i, (h, x) in enumerate(hist)
        )
        actions = bar(
            [
                (f"/bin/edit/{w}/{t}?t={1764700000 + self.tick()}", "Edit"),
                (f"/bin/attach/{w}/{t}", "Attach"),
                (f"{view}?{sep}cover=print", "Print version"),
                (f"{view}?{sep}raw=on", "Raw View"),
                (
                    f"/bin/oops/{w}/{t}?template=oopsmore;param1={cur};param2={cur}",
                    "More topic actions",
                ),
            ]
        )
        side = ul(
            [
                (f"/bin/view/{w}/WebHome", f"{w} Web"),
                ("/bin/view/Projects/WebTopicList", "Index"),
                ("/bin/view/Projects/WebChanges", "Changes"),
                ("/bin/view/Main/WikiUsers", "Users"),
                (f"/bin/login/{w}/{t}", "Log In"),
            ]
        )
        body = (
            f'<div class="patternLeftBar">{side}</div><div class="patternMain">'
            f'<div class="foswikiTopic"><h1>{esc(t)}</h1>{main}</div>'
            f'<div class="patternTopicActions">{actions}</div>'
            f'<div class="patternRevInfo">Topic revision: r{rev or cur} - '
            f"2025-{(len(t) % 9) + 1:02d}-1{cur} - {esc(self.topics[w + '.' + t]['author'])}</div>"
            f'<div class="patternHistory">History: {diffs}</div></div>'
        )
        return doc(f"{t} < {w} < Foswiki", body)
