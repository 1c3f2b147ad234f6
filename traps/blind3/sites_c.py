"""Blind3 sites, part C: Read the Docs version copies, a Piwigo photo gallery, a pywb web
archive, control."""

from __future__ import annotations

import datetime as dt
import random
from typing import ClassVar

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
from traps.blind2.common import Link, bar, esc, prose, trap, ul

# ----------------------------------------------------------------------------------------
# Read the Docs (sphinx_rtd_theme): the version menu built into every page links the same
# page in every active version and language. Point releases (`/en/3.1.1/`, ...) are copies
# of the stable docs with another version string and an "old version" banner, and the
# translations (`/ja/`, `/es/`) were never started, so they serve the English text in
# another chrome; every page also links "View page source" (`_sources/*.rst.txt`, answered
# but not scored).
# RTD's generated robots.txt disallows the hidden versions only.
# Legit look-alikes: `/en/latest/` (the development docs), `/en/stable/` and `/en/2.x/`
# (the legacy branch), whose texts really differ.
# ----------------------------------------------------------------------------------------

_RTD_PAGES = [
    "index",
    "installation",
    "quickstart",
    "tutorial/first-steps",
    "tutorial/advanced",
    "api/client",
    "api/server",
    "configuration",
    "faq",
    "changelog",
]
_RTD_POINT = {
    "3.2.1": "stable",
    "3.2.0": "stable",
    "3.1.2": "stable",
    "3.1.1": "stable",
    "3.1.0": "stable",
    "3.0.1": "stable",
    "3.0.0": "stable",
    "2.9.0": "2.x",
    "2.8.1": "2.x",
    "2.8.0": "2.x",
    "2.7.0": "2.x",
    "2.6.0": "2.x",
    "2.5.0": "2.x",
}
_RTD_HIDDEN = ["2.7.0", "2.6.0", "2.5.0"]
_RTD_LANGS = ("en", "ja", "es", "de", "fr", "pt-br", "zh-cn")


class ReadTheDocs(Site):
    """A Sphinx project on Read the Docs with many near-identical versions."""

    name = "rtd"
    kind = "Read the Docs: every page in every point release and untranslated language"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = [f"/en/{v}/" for v in _RTD_HIDDEN]

    def build(self) -> None:
        self.vocab = words_for("docs")
        self.versions = ["latest", "stable", "2.x"]
        self.extra = {"latest": ["migration"], "stable": [], "2.x": ["legacy-auth"]}
        self.legit = {f"{v}:{p}" for v in self.versions for p in _RTD_PAGES + self.extra[v]}

    def robots_txt(self, req: Req) -> str:
        body = super().robots_txt(req)
        return body + f"\nSitemap: {req.base}/sitemap.xml\n"

    def pages_of(self, v: str) -> list[str]:
        return _RTD_PAGES + self.extra[v]

    def html_name(self, p: str) -> str:
        return "" if p == "index" else f"{p}.html"

    def render(self, lang: str, v: str, page: str, content_v: str) -> str:
        """`v` is the version in the URL, `content_v` the legit version it copies."""
        depth = page.count("/")
        up = "../" * depth
        toc = ul(
            [
                (up + (self.html_name(p) or "./"), title_of(p.split("/")[-1]))
                for p in self.pages_of(content_v)
            ]
        )
        here = self.html_name(page)
        vmenu = bar(
            [
                (f"/en/{x}/{here}", x)
                for x in [*self.versions, *_RTD_POINT]
                if x not in _RTD_HIDDEN and page in self.pages_of(_RTD_POINT.get(x, x))
            ]
        )
        lmenu = bar([(f"/{lg}/{v}/{here}", lg) for lg in _RTD_LANGS])
        banner = ""
        if v in _RTD_POINT:
            banner = (
                f'<div class="admonition warning">You are not reading the most recent '
                f"version of this documentation. {a(f'/en/stable/{here}', 'stable')} is the "
                "latest version available.</div>"
            )
        label = {"latest": "4.0.dev0", "stable": "3.2.2", "2.x": "2.9.1"}.get(v, v)
        text = prose(self, f"{content_v}:{page}", self.vocab, 150, 350)
        if page == "changelog":  # hidden versions are not in the menu, but linked here
            text += (
                "<p>Older releases: " + bar([(f"/en/{x}/", x) for x in _RTD_HIDDEN], ", ") + "</p>"
            )
        body = (
            f'<nav class="wy-nav-side"><a href="{up or "./"}">driftwood {esc(label)}</a>'
            f"{toc}</nav>"
            f'<section class="wy-nav-content"><div role="navigation">'
            f"{a(f'{up}_sources/{page}.rst.txt', 'View page source')}</div>"
            f"{banner}<h1>{esc(title_of(page.split('/')[-1]))}</h1>{text}</section>"
            f'<div class="rst-versions"><dl><dt>Versions</dt><dd>{vmenu}</dd></dl>'
            f"<dl><dt>Languages</dt><dd>{lmenu}</dd></dl>"
            f"<dl><dt>Downloads</dt><dd>{a(f'/_/downloads/{lang}/{v}/pdf/', 'pdf')}</dd></dl>"
            "</div>"
        )
        return doc(
            f"{title_of(page.split('/')[-1])} \u2014 driftwood {label} documentation",
            body,
            lang=lang,
        )

    def handle(self, req: Req) -> Reply:
        p = req.path
        if p == "/":
            return redirect("/en/stable/")
        parts = p.split("/")
        if len(parts) < 4 or parts[1] not in _RTD_LANGS:
            if p.startswith("/_/downloads/"):
                return Reply(b"%PDF-1.4\n", "other", None, ctype="application/pdf")
            return not_found()
        lang, v = parts[1], parts[2]
        if v not in self.versions and v not in _RTD_POINT:
            return not_found()
        content_v = _RTD_POINT.get(v, v)
        rest = "/".join(parts[3:])
        if rest.startswith("_sources/") and rest.endswith(".rst.txt"):
            page = rest[len("_sources/") : -len(".rst.txt")]
            if page not in self.pages_of(content_v):
                return not_found()
            text = prose(self, f"{content_v}:{page}", self.vocab, 150, 350)
            # the page's source: another format, not scored either way
            return Reply(text, "other", None, ctype="text/plain; charset=utf-8")
        if rest in ("genindex.html", "search.html"):
            return trap(self.render(lang, v, "index", content_v).replace("<h1>", "<h1>Index "))
        if rest == "":
            page = "index"
        elif rest.endswith(".html") and rest[:-5] in self.pages_of(content_v):
            page = rest[:-5]
            if page == "index":
                return trap(self.render(lang, v, page, content_v))
        else:
            return not_found()
        body = self.render(lang, v, page, content_v)
        if lang == "en" and v in self.versions and not req.query:
            return self.legit_page(f"{v}:{page}", body)
        return trap(body)


# ----------------------------------------------------------------------------------------
# Piwigo photo gallery: each photo page opens a slideshow whose controls
# (`&slideshow=+period-2+repeat-true`, faster/slower, repeat on/off, next) walk every
# photo at every speed; photo pages also link sizes (`&picture_derivative=`), metadata,
# and the album's sort orders (`&image_order=`). The same photo is reachable in other
# contexts (`picture.php?/ID/most_visited`, `/best_rated`, `/recent_pics`,
# `/list/a,b,c`), each with its own previous/next chain, and "Random photos"
# (`random.php`) redirects to a fresh `index.php?/list/...` every time.
# Legit look-alikes: albums `index.php?/category/N` with real `/start-6` pages, the
# photo pages `picture.php?/ID/category/N` and the three special lists.
# ----------------------------------------------------------------------------------------


class Piwigo(Site):
    """A Piwigo gallery: slideshow, contexts, random lists, sizes, sort orders."""

    name = "piwigo"
    kind = "Piwigo: slideshow speed/repeat loops, photo contexts, random.php lists, sizes"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = [
        "/admin.php",
        "/identification.php",
        "/register.php",
        "/password.php",
        "/action.php",
    ]
    per = 6

    def build(self) -> None:
        self.vocab = words_for("travel")
        names = slugs(self.key("albums"), 6, THEMES["travel"], 2)
        sizes = [9, 8, 6, 6, 4, 3]
        self.albums = {20 + 3 * i: n for i, n in enumerate(names)}
        titles = slugs(self.key("photos"), sum(sizes), self.vocab, 2)
        self.photos: dict[int, tuple[int, str]] = {}
        k = 0
        for (aid, _), n in zip(self.albums.items(), sizes, strict=True):
            for _ in range(n):
                self.photos[301 + 2 * k] = (aid, titles[k])
                k += 1
        ids = list(self.photos)
        self.special = {
            "most_visited": sorted(ids, key=lambda x: (x * 37) % 101)[:12],
            "best_rated": sorted(ids, key=lambda x: (x * 53) % 97)[:12],
            "recent_pics": ids[-12:],
        }
        self.legit = {"home"} | {f"photo:{i}" for i in ids} | {f"sp:{s}" for s in self.special}
        for aid in self.albums:
            self.legit |= {f"album:{aid}:{n}" for n in range(self.npages(aid))}

    def in_album(self, aid: int) -> list[int]:
        return [i for i, (x, _) in self.photos.items() if x == aid]

    def npages(self, aid: int) -> int:
        return (len(self.in_album(aid)) + self.per - 1) // self.per

    def shell(self, title: str, main: str) -> str:
        menu = ul(
            [
                ("/", "Home"),
                ("index.php?/most_visited", "Most visited"),
                ("index.php?/best_rated", "Best rated"),
                ("index.php?/recent_pics", "Recent photos"),
                ("random.php", "Random photos"),
                ("identification.php", "Login"),
            ]
        )
        albums = ul([(f"index.php?/category/{k}", title_of(v)) for k, v in self.albums.items()])
        body = (
            f'<div id="menubar"><h3>Albums</h3>{albums}<h3>Specials</h3>{menu}</div>'
            f'<div id="content"><h2>{esc(title)}</h2>{main}</div>'
            '<div id="copyright">Powered by Piwigo</div>'
        )
        return doc(f"{title} | Fjord Light", body)

    def thumbs(self, ids: list[int], ctx: str) -> str:
        return (
            "<ul class=thumbnails>"
            + "".join(
                f"<li>{a(f'picture.php?/{i}/{ctx}', title_of(self.photos[i][1]))}</li>" for i in ids
            )
            + "</ul>"
        )

    def ctx_list(self, ctx: str) -> list[int] | None:
        bits = ctx.split("/")
        if bits[0] == "category" and len(bits) == 2 and bits[1].isdigit():
            aid = int(bits[1])
            return self.in_album(aid) if aid in self.albums else None
        if ctx in self.special:
            return self.special[ctx]
        if bits[0] == "list" and len(bits) == 2:
            ids = [int(x) for x in bits[1].split(",") if x.isdigit()]
            ids = [x for x in ids if x in self.photos]
            return ids or None
        return None

    def picture(self, pid: int, ctx: str, ids: list[int], opts: dict[str, str]) -> str:
        aid, t = self.photos[pid]
        i = ids.index(pid)
        nav: list[Link] = []
        if i > 0:
            nav.append((f"picture.php?/{ids[i - 1]}/{ctx}", "Previous"))
        nav.append(
            (
                f"index.php?/{ctx}" if ctx != f"category/{aid}" else f"index.php?/category/{aid}",
                "Thumbnails",
            )
        )
        if i + 1 < len(ids):
            nav.append((f"picture.php?/{ids[i + 1]}/{ctx}", "Next"))
        here = f"picture.php?/{pid}/{ctx}"
        sizes = bar(
            [
                (f"{here}&picture_derivative={s}", s)
                for s in ("small", "medium", "large", "xlarge", "xxlarge")
            ]
        )
        show = ""
        if "slideshow" in opts:
            raw = opts["slideshow"]
            period = 2.0
            repeat = "true"
            for bit in raw.split("+"):
                if bit.startswith("period-"):
                    try:
                        period = float(bit[7:])
                    except ValueError:
                        period = 2.0
                if bit.startswith("repeat-"):
                    repeat = bit[7:]
            period = min(10.0, max(1.0, period))

            def ss(pp: float, rr: str, target: int = pid) -> str:
                return f"picture.php?/{target}/{ctx}&slideshow=+period-{pp:g}+repeat-{rr}"

            nxt = ids[(i + 1) % len(ids)] if repeat == "true" else ids[min(i + 1, len(ids) - 1)]
            show = bar(
                [
                    (ss(period - 0.5, repeat), "Faster"),
                    (ss(period + 0.5, repeat), "Slower"),
                    (ss(period, "false" if repeat == "true" else "true"), "Repeat"),
                    (ss(period, repeat, nxt), "Next slide"),
                    (here, "Stop the slideshow"),
                ]
            )
        links = bar(
            [
                (f"{here}&slideshow=", "slideshow"),
                (f"{here}&metadata", "Show file metadata"),
                (f"action.php?id={pid}&part=e&download", "Download"),
            ]
        )
        meta = "<p>Camera: Fjordcam X2, f/8, 1/250 s</p>" if "metadata" in opts else ""
        main = (
            f"<p>{bar(nav)}</p><p>{links}</p><p>Sizes: {sizes}</p><p>{show}</p>{meta}"
            f'<img src="i.php?/upload/{pid}-me.jpg" alt="{esc(title_of(t))}">'
            + prose(self, f"photo:{pid}", self.vocab, 30, 80)
            + f"<p>Album: {a(f'index.php?/category/{aid}', title_of(self.albums[aid]))}</p>"
        )
        return self.shell(title_of(t), main)

    def handle(self, req: Req) -> Reply:
        p = req.path
        raw = req.query.split("&")
        route = raw[0]
        opts = dict(x.partition("=")[::2] for x in raw[1:] if x)
        if p == "/" or (p == "/index.php" and route in ("", "/categories")):
            main = prose(self, "home", self.vocab) + ul(
                [(f"index.php?/category/{k}", title_of(v)) for k, v in self.albums.items()]
            )
            body = self.shell("Home", main)
            return trap(body) if p != "/" or req.query else self.legit_page("home", body)
        if p == "/random.php":
            rng = self.rng(f"random{self.tick()}")
            ids = rng.sample(list(self.photos), 8)
            return redirect("/index.php?/list/" + ",".join(map(str, ids)))
        if p == "/index.php":
            return self.index(req, route, opts)
        if p == "/picture.php":
            bits = route.lstrip("/").split("/", 1)
            if len(bits) != 2 or not bits[0].isdigit():
                return not_found()
            pid, ctx = int(bits[0]), bits[1]
            ids = self.ctx_list(ctx)
            if pid not in self.photos or ids is None or pid not in ids:
                return not_found()
            body = self.picture(pid, ctx, ids, opts)
            canon = route.startswith("/") and len(raw) == 1
            if ctx == f"category/{self.photos[pid][0]}" and canon:
                return self.legit_page(f"photo:{pid}", body)
            return trap(body)
        return not_found()

    def index(self, req: Req, route: str, opts: dict[str, str]) -> Reply:
        bits = route.lstrip("/").split("/")
        start = 0
        if bits and bits[-1].startswith("start-") and bits[-1][6:].isdigit():
            start = int(bits.pop()[6:])
        ctx = "/".join(bits)
        ids = self.ctx_list(ctx)
        if ids is None or start % self.per or start >= max(len(ids), 1):
            return not_found()
        order = opts.get("image_order", "")
        if order.isdigit():
            ids = sorted(ids, key=lambda x: (x * (int(order) + 3)) % 29)
        chunk = ids[start : start + self.per] if ctx.startswith("category/") else ids
        pager = ""
        if ctx.startswith("category/") and len(ids) > self.per:
            pager = bar(
                [
                    (f"index.php?/{ctx}" + (f"/start-{s}" if s else ""), str(s // self.per + 1))
                    for s in range(0, len(ids), self.per)
                ]
            )
        sorts = bar(
            [
                (f"index.php?/{route.lstrip('/')}&image_order={k}", lab)
                for k, lab in enumerate(
                    [
                        "Default",
                        "Photo title",
                        "Date created",
                        "Date posted",
                        "Rating score",
                        "Visits",
                    ]
                )
            ]
        )
        if ctx.startswith("category/"):
            title = title_of(self.albums[int(bits[1])])
            key = f"album:{bits[1]}:{start // self.per}"
        elif ctx in self.special:
            title = title_of(ctx)
            key = f"sp:{ctx}"
        else:
            title = "Random photos"
            key = ""
        main = (
            prose(self, key or "random", self.vocab, 30, 70)
            + f"<p>Sort order: {sorts}</p>"
            + self.thumbs(chunk, ctx)
            + f"<p>{pager}</p>"
        )
        body = self.shell(title, main)
        if key and not opts and req.query == route and route.startswith("/"):
            return self.legit_page(key, body)
        return trap(body)


# ----------------------------------------------------------------------------------------
# pywb web archive replay (its default `redirect_to_exact: false`): any timestamp, exact
# or not, full or partial, serves the capture closest to it with a 200, and the links in
# the replayed page are rewritten to `/web/<requested timestamp>/<target url>`, so every
# capture's timestamp spreads to every archived URL (all answered with the closest capture
# of the target). The replay banner links previous/next capture, the capture list, the
# raw capture (`id_`) and the frame-less replay (`mp_`). robots.txt disallows the CDX API.
# Legit look-alikes: each capture at its exact timestamp (the home page captured 8 times,
# with different headlines; articles captured before and after a correction), reached
# from the capture lists `/web/*/<url>`, and the collection index.
# ----------------------------------------------------------------------------------------

_ORIGIN = "http://gazette.example"


class Wayback(Site):
    """A pywb web archive of a small local newspaper."""

    name = "wayback"
    kind = "pywb archive replay: /web/<any timestamp>/<url> serves the nearest capture"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/cdx", "/proxy-fetch/"]

    def build(self) -> None:
        self.vocab = words_for("news")
        arts = slugs(self.key("arts"), 9, self.vocab, 2)
        self.articles = [f"/2024/{x}.html" for x in arts]
        self.urls = ["/", "/about.html", *self.articles]
        rng = self.rng("captures")
        self.caps: dict[str, list[str]] = {}
        # the home page is captured 8 times; article k first appears in home capture k
        home = [self.ts(k * 41 + rng.randint(0, 9), rng) for k in range(8)]
        self.caps["/"] = home
        self.published = {u: min(i, 7) for i, u in enumerate(self.articles)}
        for u in self.articles:
            first = int(home[self.published[u]][:8])
            self.caps[u] = [
                self.ts_from(first, 0, rng),
                self.ts_from(first, 9 + rng.randint(0, 20), rng),
            ]
        self.caps["/about.html"] = [self.ts(3, rng), self.ts(200, rng)]
        self.legit = {"index"} | {f"list:{u}" for u in self.urls}
        self.legit |= {f"cap:{u}:{t}" for u in self.urls for t in self.caps[u]}

    @staticmethod
    def ts(day: int, rng: random.Random) -> str:
        d = dt.datetime(2024, 1, 10) + dt.timedelta(days=day, seconds=rng.randint(0, 86399))
        return d.strftime("%Y%m%d%H%M%S")

    @staticmethod
    def ts_from(yyyymmdd: int, days: int, rng: random.Random) -> str:
        d0 = dt.datetime.strptime(str(yyyymmdd), "%Y%m%d")
        d = d0 + dt.timedelta(days=days, seconds=rng.randint(3600, 86399))
        return d.strftime("%Y%m%d%H%M%S")

    def nearest(self, u: str, ts: str) -> str:
        want = int((ts + "99991231235959"[len(ts) :])[:14]) if len(ts) < 14 else int(ts)
        return min(self.caps[u], key=lambda t: (abs(int(t) - want), t))

    def replay(self, u: str, cap: str, req_ts: str, mod: str) -> str:
        """The archived page `u` as captured at `cap`, links rewritten with `req_ts`."""

        def rw(path: str) -> str:
            return f"/web/{req_ts}/{_ORIGIN}{path}"

        nav = bar([(rw("/"), "Front page"), (rw("/about.html"), "About us")])
        if u == "/":
            k = self.caps["/"].index(cap)
            recent = [x for x in self.articles if self.published[x] <= k][-4:]
            main = (
                "<h1>The Harbour Gazette</h1>"
                + prose(self, f"cap:/:{cap}", self.vocab, 40, 90)
                + ul([(rw(x), title_of(x[6:-5])) for x in reversed(recent)])
            )
        elif u == "/about.html":
            main = "<h1>About us</h1>" + prose(
                self, f"cap:{u}:{self.caps[u].index(cap)}", self.vocab
            )
        else:
            i = self.caps[u].index(cap)
            main = f"<h1>{title_of(u[6:-5])}</h1>" + prose(self, f"art:{u}", self.vocab)
            if i:
                main += "<p><em>Correction:</em></p>" + prose(self, f"fix:{u}", self.vocab, 20, 40)
            j = self.articles.index(u)
            others = [self.articles[(j + k) % len(self.articles)] for k in (1, 4)]
            main += "<h3>Read more</h3>" + ul([(rw(x), title_of(x[6:-5])) for x in others])
        page = f"<header>{nav}</header><main>{main}</main><footer>&copy; Gazette</footer>"
        # the original bytes: links point at the live site again (off this host)
        if mod == "id_":
            return doc(f"Harbour Gazette {u}", page.replace(f"/web/{req_ts}/", ""))
        caps = self.caps[u]
        i = caps.index(cap)
        tools: list[Link] = []
        if i > 0:
            tools.append((f"/web/{caps[i - 1]}/{_ORIGIN}{u}", "\u2190 previous capture"))
        if i + 1 < len(caps):
            tools.append((f"/web/{caps[i + 1]}/{_ORIGIN}{u}", "next capture \u2192"))
        tools += [
            (f"/web/*/{_ORIGIN}{u}", "all captures"),
            (f"/web/{req_ts}id_/{_ORIGIN}{u}", "original"),
            (f"/web/{req_ts}mp_/{_ORIGIN}{u}", "without banner"),
            (f"/cdx?url={_ORIGIN}{u}&output=json", "CDX"),
        ]
        banner = (
            f'<div id="wb_banner">Archived {esc(_ORIGIN + u)} captured {cap[:4]}-{cap[4:6]}-'
            f"{cap[6:8]} {cap[8:10]}:{cap[10:12]} {bar(tools)} {a('/', 'Collection')}</div>"
        )
        if mod == "mp_":
            banner = ""
        return doc(f"Harbour Gazette {u} ({cap})", banner + page)

    def handle(self, req: Req) -> Reply:
        p = req.path
        if p == "/":
            items = ul([(f"/web/*/{_ORIGIN}{u}", _ORIGIN + u) for u in self.urls])
            body = doc(
                "gazette collection",
                "<h1>Collection: gazette</h1>" + prose(self, "index", self.vocab, 40, 80) + items,
            )
            return trap(body) if req.query else self.legit_page("index", body)
        if not p.startswith("/web/"):
            return not_found()
        stamp, _, target = p[len("/web/") :].partition("/")
        if req.query:
            target += "?" + req.query
        if stamp == "%2A":
            stamp = "*"
        # pywb also accepts `http:/` (a client that collapsed `//`); same URL, not a trap
        prefixes = ("http://gazette.example", "http:/gazette.example")
        for pre in (*prefixes, "https://gazette.example", "gazette.example"):
            if target.startswith(pre):
                u = target[len(pre) :] or "/"
                break
        else:
            return not_found("Url Not Found: not in this archive")
        if u not in self.caps:
            return not_found("Url Not Found: not in this archive")
        canon_target = target in (_ORIGIN + u, "http:/gazette.example" + u)
        if stamp == "*":
            rows = ul(
                [
                    (f"/web/{t}/{_ORIGIN}{u}", f"{t[:4]}-{t[4:6]}-{t[6:8]} {t[8:10]}:{t[10:12]}")
                    for t in self.caps[u]
                ]
            )
            body = doc(
                f"Captures of {_ORIGIN}{u}",
                f"<h1>{len(self.caps[u])} captures of {esc(_ORIGIN + u)}</h1>{rows}"
                + a("/", "Collection"),
            )
            return self.legit_page(f"list:{u}", body) if canon_target else trap(body)
        mod = ""
        for m in ("id_", "mp_", "if_"):
            if stamp.endswith(m):
                stamp, mod = stamp[: -len(m)], m
        if not stamp.isdigit() or not 4 <= len(stamp) <= 14:
            return not_found()
        cap = self.nearest(u, stamp)
        body = self.replay(u, cap, stamp, mod)
        if stamp == cap and not mod and canon_target:
            return self.legit_page(f"cap:{u}:{cap}", body)
        return trap(body)


# ----------------------------------------------------------------------------------------
# control: no traps.
# ----------------------------------------------------------------------------------------


class Control(Site):
    """A plain site with no traps."""

    name = "control"
    kind = "no traps: home, about, 4 sections of 7 pages, one robots-disallowed link"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/members/"]

    def build(self) -> None:
        self.vocab = words_for("food")
        self.secs = slugs(self.key("secs"), 4, THEMES["food"], 1)
        self.pages = {s: slugs(self.key(f"p{s}"), 7, self.vocab, 2) for s in self.secs}
        self.legit = {"home", "about"} | {f"s:{s}" for s in self.secs}
        self.legit |= {f"p:{s}/{x}" for s in self.secs for x in self.pages[s]}

    def page(self, pid: str, title: str, links: list[Link]) -> Reply:
        nav = bar(
            [("/", "Home"), *[(f"/{s}/", title_of(s)) for s in self.secs], ("/about", "About")]
        )
        body = (
            f"<header>{nav}</header><main><h1>{title}</h1>{prose(self, pid, self.vocab)}"
            f"{ul(links)}</main><footer>{a('/members/', 'Members')}</footer>"
        )
        return self.legit_page(pid, doc(title, body))

    def handle(self, req: Req) -> Reply:
        p = req.path
        if req.query:
            return not_found()
        if p == "/":
            return self.page("home", "Pantry Notes", [(f"/{s}/", title_of(s)) for s in self.secs])
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
