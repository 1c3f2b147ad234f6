"""Blind7 sites, part B: Javadoc with frames and version aliases, XenForo 2, PrestaShop 1.7,
and Movable Type with its CGI scripts on a second host."""

from __future__ import annotations

import datetime as dt
import posixpath
from typing import ClassVar
from urllib.parse import parse_qsl

from traps.blind.kit import (
    LANG_VOCAB,
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
from traps.blind2.common import bar, esc, prose, ul

from .common import Hosted, href, setp, without

# ----------------------------------------------------------------------------------------
# Javadoc (the JDK 8 standard doclet) for two releases, published under `/api/<version>/`
# with `latest/`, `stable/`, `current/` and `2.x/` symlinks to the current one. Every page's
# navigation bar has "Frames" (`index.html?<path of this page>`, the frameset, which loads
# any page named in its query), "No Frames" and a version menu (the same page in every
# release and alias); the landing page links the symlinks.
# Legit look-alikes: the older release's full documentation under `/api/2.0/`, each
# release's frameset `index.html` itself.
# ----------------------------------------------------------------------------------------

_JD_ALIASES = ("latest", "stable", "current", "2.x")
_JD_TOP = [
    ("overview-summary.html", "Overview"),
    ("overview-tree.html", "Tree"),
    ("deprecated-list.html", "Deprecated"),
    ("index-all.html", "Index"),
    ("help-doc.html", "Help"),
    ("allclasses-noframe.html", "All Classes"),
]


class Javadoc(Hosted):
    """Javadoc: frameset index.html?<page> for every page, latest/ and stable/ aliases."""

    name = "javadoc"
    kind = "Javadoc: index.html?<page> frames for every page, 4 symlinked version aliases"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/downloads/", "/api/nightly/"]

    def setup(self) -> None:
        self.vocab = words_for("docs")
        words = [w for w in THEMES["docs"] if w.isalpha()]
        pkgs = ["io", "cache", "net"]
        self.classes: dict[str, dict[str, list[str]]] = {}
        for ver, n in (("2.1", 14), ("2.0", 12)):
            names = [
                "".join(w.capitalize() for w in s.split("-"))
                for s in slugs(self.key("cls"), 14, words, 2)
            ][:n]
            self.classes[ver] = {p: sorted(names[i::3]) for i, p in enumerate(pkgs)}
        self.reg("landing", "/")
        for ver in ("2.1", "2.0"):
            for path in self.pages(ver):
                self.reg(f"{ver}:{path}", f"/api/{ver}/{path}")

    def pages(self, ver: str) -> list[str]:
        out = ["index.html"] + [p for p, _ in _JD_TOP]
        for pkg, names in self.classes[ver].items():
            out.append(f"com/acme/toolkit/{pkg}/package-summary.html")
            out += [f"com/acme/toolkit/{pkg}/{c}.html" for c in names]
        return out

    def handle(self, req: Req) -> Reply:
        if req.path == "/":
            vers = ul(
                [
                    ("/api/2.1/index.html", "Acme Toolkit 2.1 (current)"),
                    ("/api/2.0/index.html", "Acme Toolkit 2.0"),
                    ("/api/latest/index.html", "latest"),
                    ("/api/stable/index.html", "stable"),
                    ("/api/current/index.html", "current"),
                    ("/api/2.x/index.html", "2.x"),
                    ("/downloads/acme-toolkit-2.1-javadoc.jar", "Download the javadoc jar"),
                ]
            )
            body = f"<h1>Acme Toolkit API documentation</h1>{prose(self, 'land', self.vocab)}{vers}"
            return self.serve(req, doc("Acme Toolkit API", body))
        parts = req.path.split("/", 3)
        if len(parts) < 4 or parts[1] != "api":
            return not_found()
        alias, path = parts[2], parts[3] or "index.html"
        ver = "2.1" if alias in _JD_ALIASES else alias
        if ver not in self.classes or path not in self.pages(ver):
            return not_found()
        return self.serve(req, self.render(ver, path, req.query))

    def render(self, ver: str, path: str, query: str) -> str:
        up = "../" * path.count("/")
        title = f"Acme Toolkit {ver} API"
        if path == "index.html":
            target = query if query.endswith(".html") else "overview-summary.html"
            return (
                f"<!DOCTYPE html><html><head><title>{title}</title></head>"
                f'<frameset cols="20%,80%"><frame src="allclasses-frame.html" name="packageFrame">'
                f'<frame src="{esc(target)}" name="classFrame"><noframes><h2>Frame Alert</h2>'
                "<p>This document is designed to be viewed using the frames feature. If you see "
                "this message, you are using a non-frame-capable web client. Link to "
                f"{a('overview-summary.html', 'Non-frame version')}.</p></noframes></frameset>"
                "</html>"
            )
        nav = bar(
            [(up + p, t) for p, t in _JD_TOP[:5]]
            + [(f"{up}index.html?{path}", "Frames"), (posixpath.basename(path), "No Frames")]
            + [(up + "allclasses-noframe.html", "All Classes")]
        )
        vers = bar(
            [
                (f"/api/{v}/{path}", v)
                for v in ("2.1", "2.0", *_JD_ALIASES, "nightly")
                if v not in self.classes or path in self.pages(v)
            ]
        )
        nav = f"{nav}<div class='versions'>Version: {vers}</div>"
        pk = f"{ver}:{path}"
        pkg_links = [
            (f"{up}com/acme/toolkit/{p}/package-summary.html", f"com.acme.toolkit.{p}")
            for p in self.classes[ver]
        ]
        if path == "overview-summary.html":
            main = f"<h1>{title}</h1>{prose(self, pk, self.vocab)}{ul(pkg_links)}"
        elif path == "allclasses-noframe.html":
            main = "<h1>All Classes</h1>" + ul(
                [
                    (f"com/acme/toolkit/{p}/{c}.html", c)
                    for p, cs in self.classes[ver].items()
                    for c in cs
                ]
            )
        elif path in ("overview-tree.html", "index-all.html"):
            main = f"<h1>{'Hierarchy For All Packages' if 'tree' in path else 'Index'}</h1>"
            main += prose(self, pk, self.vocab, 40, 90) + ul(
                [
                    (f"com/acme/toolkit/{p}/{c}.html", f"{c} - class in com.acme.toolkit.{p}")
                    for p, cs in self.classes[ver].items()
                    for c in cs
                ]
            )
        elif path in ("deprecated-list.html", "help-doc.html"):
            h = "Deprecated API" if "deprecated" in path else "How This API Document Is Organized"
            main = f"<h1>{h}</h1>{prose(self, pk, self.vocab, 80, 200)}"
        elif path.endswith("package-summary.html"):
            pkg = path.split("/")[3]
            main = f"<h1>Package com.acme.toolkit.{pkg}</h1>{prose(self, pk, self.vocab, 50, 120)}"
            main += ul([(f"{c}.html", c) for c in self.classes[ver][pkg]])
        else:
            pkg, cls = path.split("/")[3], path.rsplit("/", 1)[1][:-5]
            sibs = self.classes[ver][pkg]
            i = sibs.index(cls)
            pn = [(f"{sibs[i - 1]}.html", "Prev Class")] if i else []
            pn += [(f"{sibs[i + 1]}.html", "Next Class")] if i + 1 < len(sibs) else []
            methods = "".join(
                f"<li><code>public {w} {w}{cls[:3].lower()}()</code></li>"
                for w in slugs(self.key(pk), 4, [x for x in self.vocab if x.isalpha()], 1)
            )
            main = (
                f"<div class='subTitle'>com.acme.toolkit.{pkg}</div><h2>Class {cls}</h2>"
                f"<pre>public class {cls} extends java.lang.Object</pre>"
                f"{prose(self, pk, self.vocab, 60, 160)}<h3>Method Summary</h3><ul>{methods}</ul>"
                f"<p>{bar(pn)} | {a('package-summary.html', 'Package')}</p>"
            )
        return doc(
            f"{posixpath.basename(path)[:-5]} ({title})", f"<div class='topNav'>{nav}</div>{main}"
        )


# ----------------------------------------------------------------------------------------
# XenForo 2. Forum thread lists take filters in the query (`prefix_id=`, `starter_id=`,
# `last_days=`, `order=` with `direction=`), every prefix label, "Thread starter" link
# and column header adds or toggles one of them, and paging (`page-N`) keeps them all.
# Post permalinks (`post-N`), `/posts/N/`, `/unread` and `/latest` redirect to the page
# holding the post; member pages link threads without their slug (a 301 to it).
# Legit look-alikes: the forums' real second pages (`/forums/x.N/page-2`), long threads'
# real second pages, the member profiles.
# ----------------------------------------------------------------------------------------

_XF_PREFIX = {1: "Question", 2: "Solved", 3: "Project log"}


class XenForo(Hosted):
    """XenForo 2: forum filter combinations kept in paging, post/unread redirects."""

    name = "xenforo"
    kind = "XenForo 2: prefix_id/starter_id/last_days/order filters kept in page-N, redirects"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = [
        "/account/",
        "/attachments/",
        "/goto/",
        "/login/",
        "/register/",
        "/search/",
        "/whats-new/",
    ]

    def setup(self) -> None:
        self.vocab = words_for("forum")
        rng = self.rng("xf")
        self.members = [
            (f"{n.replace('-', '')}", 100 + 7 * i)
            for i, n in enumerate(slugs(self.key("m"), 6, THEMES["forum"], 2))
        ]
        self.forums = [
            (s, fid, title_of(s))
            for s, fid in zip(
                ["workbench", "firmware-corner", "show-and-tell"], (2, 5, 7), strict=True
            )
        ]
        titles = slugs(self.key("t"), 24, THEMES["forum"] + THEMES["science"], 3)
        self.threads = []
        pid = 40100
        for i, t in enumerate(titles):
            n = (22, 25, 31)[i // 8] if i % 8 == 0 else rng.randint(2, 14)
            posts = []
            for _ in range(n):
                posts.append((pid, rng.choice(self.members)))
                pid += rng.randint(1, 9)
            self.threads.append(
                {
                    "id": 1201 + i,
                    "slug": t,
                    "title": title_of(t),
                    "forum": self.forums[i // 8][1],
                    "prefix": rng.choice([0, 1, 2, 3]),
                    "posts": posts,
                    "views": rng.randint(40, 4000),
                    "days": rng.randint(0, 200),
                }
            )
        self.reg("index", "/")
        for s, fid, _ in self.forums:
            self.reg(f"f{fid}", f"/forums/{s}.{fid}/")
            self.reg(f"f{fid}p2", f"/forums/{s}.{fid}/page-2")
        for th in self.threads:
            self.reg(f"t{th['id']}", self.tpath(th))
            if len(th["posts"]) > 20:
                self.reg(f"t{th['id']}p2", self.tpath(th) + "page-2")
        for m, uid in self.members:
            self.reg(f"m{uid}", f"/members/{m}.{uid}/")

    def tpath(self, th: dict) -> str:
        return f"/threads/{th['slug']}.{th['id']}/"

    def frame(self, title: str, body: str) -> str:
        nav = bar(
            [
                ("/", "Forums"),
                ("/whats-new/", "What's new"),
                ("/search/", "Search"),
                ("/login/", "Log in"),
                ("/register/", "Register"),
            ]
        )
        return doc(
            f"{title} | Tinkerers' Bench",
            f"<div class='p-nav'>{nav}</div><div class='p-body'>{body}</div>"
            "<footer>Community platform by XenForo&reg; &copy; 2010-2026 XenForo Ltd.</footer>",
        )

    def handle(self, req: Req) -> Reply:
        parts = [x for x in req.path.split("/") if x]
        if not parts:
            forums = "".join(
                f"<li>{a(f'/forums/{s}.{fid}/', t)} - "
                f"{sum(th['forum'] == fid for th in self.threads)} threads</li>"
                for s, fid, t in self.forums
            )
            body = f"<h1>Forums</h1>{prose(self, 'index', self.vocab, 40, 90)}<ul>{forums}</ul>"
            return self.serve(req, self.frame("Forums", body))
        if parts[0] == "forums" and len(parts) in (2, 3):
            f = next((x for x in self.forums if f"{x[0]}.{x[1]}" == parts[1]), None)
            page = parts[2][5:] if len(parts) == 3 and parts[2].startswith("page-") else "1"
            if f is None or not page.isdigit():
                return not_found()
            return self.forum(req, f, int(page))
        if parts[0] == "threads" and len(parts) in (2, 3):
            tid = parts[1].rsplit(".", 1)[-1]
            th = next((x for x in self.threads if str(x["id"]) == tid), None)
            if th is None:
                return not_found()
            if parts[1] != f"{th['slug']}.{th['id']}":
                return redirect(self.tpath(th) + "/".join(parts[2:]), 301)
            rest = parts[2] if len(parts) == 3 else "page-1"
            if rest in ("unread", "latest"):
                return redirect(self.post_url(th, th["posts"][-1][0]))
            if rest.startswith("post-") and rest[5:].isdigit():
                return redirect(self.post_url(th, int(rest[5:])))
            if not rest.startswith("page-") or not rest[5:].isdigit():
                return not_found()
            n = int(rest[5:])
            if not 1 <= n <= (len(th["posts"]) + 19) // 20:
                return redirect(self.tpath(th))
            return self.thread(req, th, n)
        if parts[0] == "posts" and len(parts) == 2 and parts[1].isdigit():
            for th in self.threads:
                if any(p == int(parts[1]) for p, _ in th["posts"]):
                    return redirect(self.post_url(th, int(parts[1])))
            return not_found()
        if parts[0] == "members" and len(parts) == 2:
            m = next((x for x in self.members if f"{x[0]}.{x[1]}" == parts[1]), None)
            if m is None:
                return not_found()
            mine = [th for th in self.threads if th["posts"][0][1] == m][:6]
            body = (
                f"<h1>{m[0]}</h1><p>Joined {2014 + m[1] % 9}, {len(mine)} threads started</p>"
                f"{prose(self, f'mem{m[1]}', self.vocab, 40, 100)}<h3>Recent content</h3>"
                + ul([(f"/threads/{th['id']}/", th["title"]) for th in mine])
            )
            return self.serve(req, self.frame(m[0], body))
        return not_found()

    def post_url(self, th: dict, pid: int) -> str:
        ids = [p for p, _ in th["posts"]]
        n = ids.index(pid) // 20 + 1 if pid in ids else 1
        return self.tpath(th) + (f"page-{n}" if n > 1 else "") + f"#post-{pid}"

    def forum(self, req: Req, f: tuple[str, int, str], n: int) -> Reply:
        s, fid, title = f
        pairs = parse_qsl(req.query, keep_blank_values=True)
        p = dict(pairs)
        rows = [th for th in self.threads if th["forum"] == fid]
        if p.get("prefix_id", "").isdigit():
            rows = [th for th in rows if th["prefix"] == int(p["prefix_id"])]
        if p.get("starter_id", "").isdigit():
            rows = [th for th in rows if th["posts"][0][1][1] == int(p["starter_id"])]
        if p.get("last_days", "").isdigit():
            rows = [th for th in rows if th["days"] <= int(p["last_days"])]
        order = p.get("order", "last_post_date")
        desc = p.get("direction", "desc") == "desc"
        key = {"reply_count": lambda t: len(t["posts"]), "view_count": lambda t: t["views"]}
        key |= {"title": lambda t: t["title"], "post_date": lambda t: t["id"]}
        rows.sort(key=key.get(order, lambda t: -t["days"]), reverse=desc)
        pages = max(1, (len(rows) + 5) // 6)
        if n > pages:
            return redirect(href(f"/forums/{s}.{fid}/page-{pages}", pairs))
        base = f"/forums/{s}.{fid}/"
        items = []
        for th in rows[(n - 1) * 6 : n * 6]:
            pre = th["prefix"]
            label = (
                a(href(base, setp(pairs, "prefix_id", str(pre))), _XF_PREFIX[pre]) + " "
                if pre
                else ""
            )
            st = th["posts"][0][1]
            items.append(
                f"<li>{label}{a(self.tpath(th), th['title'])} <small>by "
                f"{a(href(base, setp(pairs, 'starter_id', str(st[1]))), st[0])}, "
                f"{len(th['posts']) - 1} replies, {th['views']} views</small></li>"
            )
        heads = bar(
            [
                (
                    href(
                        base,
                        setp(
                            setp(pairs, "order", o),
                            "direction",
                            "asc" if o == order and desc else "desc",
                        ),
                    ),
                    label,
                )
                for o, label in (
                    ("last_post_date", "Last message"),
                    ("post_date", "First message"),
                    ("title", "Title"),
                    ("reply_count", "Replies"),
                    ("view_count", "Views"),
                )
            ]
        )
        days = bar(
            [
                (href(base, setp(pairs, "last_days", d)), f"{d} days")
                for d in ("7", "30", "90", "365")
            ]
        )
        pager = bar(
            [
                (href(base + (f"page-{k}" if k > 1 else ""), pairs), str(k))
                for k in range(1, pages + 1)
            ]
        )
        intro = prose(self, f"forum{fid}p{n}", self.vocab, 30, 70) if not pairs else ""
        body = (
            f"<h1>{esc(title)}</h1>{intro}<p>Sort by: {heads}</p><p>Last updated: {days}</p>"
            f"<ul class='structItemContainer'>{''.join(items)}</ul><p>Pages: {pager}</p>"
        )
        return self.serve(req, self.frame(title + (f" | Page {n}" if n > 1 else ""), body))

    def thread(self, req: Req, th: dict, n: int) -> Reply:
        posts = th["posts"][(n - 1) * 20 : n * 20]
        items = []
        for k, (pid, (m, uid)) in enumerate(posts):
            num = (n - 1) * 20 + k + 1
            items.append(
                f"<article id='post-{pid}'><h4>{a(f'/members/{m}.{uid}/', m)} "
                f"{a(self.tpath(th) + f'post-{pid}', f'#{num}')}</h4>"
                f"{prose(self, f'post{pid}', self.vocab, 25, 80)}"
                f"<p>{a(f'/goto/post?id={pid}', 'Quote')} | "
                f"{a(f'/posts/{pid}/', 'Share')}</p></article>"
            )
        pages = (len(th["posts"]) + 19) // 20
        pager = bar(
            [(self.tpath(th) + (f"page-{k}" if k > 1 else ""), str(k)) for k in range(1, pages + 1)]
        )
        f = next(x for x in self.forums if x[1] == th["forum"])
        body = (
            f"<p>{a(f'/forums/{f[0]}.{f[1]}/', f[2])}</p><h1>{esc(th['title'])}</h1>"
            f"<p>{a(self.tpath(th) + 'unread', 'Jump to new')} | "
            f"{a(self.tpath(th) + 'latest', 'Latest')}</p>{''.join(items)}<p>Pages: {pager}</p>"
        )
        return self.serve(req, self.frame(th["title"] + (f" | Page {n}" if n > 1 else ""), body))


# ----------------------------------------------------------------------------------------
# PrestaShop 1.7 (classic theme), English and French. Category pages' faceted search
# (ps_facetedsearch) writes its state into `q=Color-Blue-Red/Size-M` (values appended in
# click order), the sort menu `order=product.price.asc` and so on, `resultsPerPage=`, and
# paging keeps them; the currency selector (`?SubmitCurrency=1&id_currency=N`) reloads
# any page; product tiles link "Add to cart" with the cart token of the (cookieless, so
# new) session. robots.txt is PrestaShop's generated one: wildcard lines for 1.6's
# `orderby`/`orderway`, currency and cart, nothing for 1.7's `order=`, `q=` or
# `resultsPerPage=`.
# Legit look-alikes: each page's French translation, the real page 2 of a category.
# ----------------------------------------------------------------------------------------

_PS_COLORS = ["Black", "Blue", "Red", "White", "Green"]
_PS_SIZES = ["S", "M", "L", "XL"]
_PS_CATS = {
    3: ("clothes", "vetements"),
    4: ("accessories", "accessoires"),
    5: ("home-living", "maison"),
    6: ("stationery", "papeterie"),
}


class PrestaShop(Hosted):
    """PrestaShop 1.7: q= facet paths, order=, resultsPerPage=, currency, cart tokens."""

    name = "prestashop"
    kind = "PrestaShop 1.7: q=Color-a-b/Size-x facets, order=, resultsPerPage=, id_currency="
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = [
        "/app/",
        "/cache/",
        "/classes/",
        "/config/",
        "/controllers/",
        "/download/",
        "/modules/",
        "/pdf/",
        "/upload/",
        "/vendor/",
        "/webservice/",
    ]
    wild: ClassVar[list[str]] = [
        "/*?orderby=",
        "/*?orderway=",
        "/*?tag=",
        "/*?id_currency=",
        "/*?search_query=",
        "/*?back=",
        "/*?n=",
        "/*&orderby=",
        "/*&orderway=",
        "/*&tag=",
        "/*&id_currency=",
        "/*&search_query=",
        "/*&back=",
        "/*&n=",
        "/*controller=addresses",
        "/*controller=cart",
        "/*en/cart",
        "/*fr/panier",
        "/*en/login",
        "/*fr/connexion",
    ]

    def robots_txt(self, req: Req) -> str:
        lines = [
            "# robots.txt automatically generated by PrestaShop e-commerce open-source solution"
        ]
        lines += [
            "User-agent: *",
            "# Allow Directives",
            "Allow: */modules/*.css",
            "Allow: */modules/*.js",
        ]
        lines += ["# Private pages"] + [f"Disallow: {p}" for p in self.wild]
        lines += ["# Directories"] + [f"Disallow: {p}" for p in self.robots_disallow]
        return "\n".join(lines) + "\n"

    def setup(self) -> None:
        self.vocab = {"en": words_for("shop"), "fr": LANG_VOCAB["fr"] * 3 + THEMES["shop"]}
        rng = self.rng("ps")
        names = slugs(self.key("p"), 16, THEMES["shop"], 2)
        self.products = []
        for i, nm in enumerate(names):
            cat = 3 if i < 8 else 4 + (i - 8) % 3
            self.products.append(
                {
                    "id": 1 + i,
                    "slug": nm,
                    "cat": cat,
                    "price": round(rng.uniform(9, 120), 2),
                    "colors": rng.sample(_PS_COLORS, 2),
                    "sizes": rng.sample(_PS_SIZES, 2),
                }
            )
        for lang in ("en", "fr"):
            self.reg(f"{lang}:home", f"/{lang}/")
            self.reg(
                f"{lang}:about", f"/{lang}/content/4-{'about-us' if lang == 'en' else 'a-propos'}"
            )
            self.reg(
                f"{lang}:delivery",
                f"/{lang}/content/1-{'delivery' if lang == 'en' else 'livraison'}",
            )
            for cid in _PS_CATS:
                self.reg(f"{lang}:c{cid}", self.cat_path(lang, cid))
            self.reg(f"{lang}:c3p2", self.cat_path(lang, 3) + "?page=2")
            for p in self.products:
                self.reg(f"{lang}:p{p['id']}", self.prod_path(lang, p))

    def cat_path(self, lang: str, cid: int) -> str:
        return f"/{lang}/{cid}-{_PS_CATS[cid][lang == 'fr']}"

    def prod_path(self, lang: str, p: dict) -> str:
        return f"/{lang}/{_PS_CATS[p['cat']][lang == 'fr']}/{p['id']}-{p['slug']}.html"

    def frame(self, lang: str, title: str, body: str, other: str, req: Req) -> str:
        cur = bar(
            [
                (href(req.path, [("SubmitCurrency", "1"), ("id_currency", str(k))]), c)
                for k, c in ((1, "EUR €"), (2, "USD $"), (3, "GBP £"))
            ]
        )
        nav = bar([(self.cat_path(lang, c), title_of(_PS_CATS[c][lang == "fr"])) for c in _PS_CATS])
        login = "/en/login?back=my-account" if lang == "en" else "/fr/connexion?back=mon-compte"
        about = f"/{lang}/content/4-{'about-us' if lang == 'en' else 'a-propos'}"
        deliv = f"/{lang}/content/1-{'delivery' if lang == 'en' else 'livraison'}"
        return doc(
            f"{title} - Linden & Loom",
            f"<header>{a(f'/{lang}/', 'Linden & Loom')} | "
            f"{a(other, 'Français' if lang == 'en' else 'English')} | {cur} | "
            f"{a(login, 'Sign in')}</header><nav>{nav}</nav><main>{body}</main>"
            f"<footer>{a(about, 'About us')} | {a(deliv, 'Delivery')}</footer>",
            lang=lang,
        )

    def handle(self, req: Req) -> Reply:
        if req.path == "/":
            return redirect("/en/", 302)
        parts = [x for x in req.path.split("/") if x]
        if not parts or parts[0] not in ("en", "fr"):
            return not_found()
        lang, other_lang = parts[0], "fr" if parts[0] == "en" else "en"
        vocab = self.vocab[lang]
        if len(parts) == 1:
            tiles = ul([(self.prod_path(lang, p), title_of(p["slug"])) for p in self.products[:8]])
            cats = ul(
                [(self.cat_path(lang, c), title_of(_PS_CATS[c][lang == "fr"])) for c in _PS_CATS]
            )
            body = (
                f"<h1>Linden & Loom</h1>{prose(self, lang + 'home', vocab, 60, 120)}{cats}"
                f"<h2>{'Popular products' if lang == 'en' else 'Produits populaires'}</h2>{tiles}"
            )
            return self.serve(req, self.frame(lang, "Home", body, f"/{other_lang}/", req))
        if parts[1] in ("cart", "panier"):
            body = "<h1>Shopping cart</h1><p>Product successfully added to your shopping cart.</p>"
            return self.serve(req, self.frame(lang, "Cart", body, f"/{other_lang}/", req))
        if parts[1] in ("login", "connexion"):
            body = "<h1>Log in to your account</h1><form method='post'></form>"
            return self.serve(req, self.frame(lang, "Login", body, f"/{other_lang}/", req))
        if parts[1] == "content" and len(parts) == 3:
            cid = parts[2].split("-", 1)[0]
            slug = {"4": ("about-us", "a-propos"), "1": ("delivery", "livraison")}.get(cid)
            if not slug or parts[2] != f"{cid}-{slug[lang == 'fr']}":
                return not_found()
            other = f"/{other_lang}/content/{cid}-{slug[lang == 'en']}"
            body = (
                f"<h1>{title_of(slug[lang == 'fr'])}</h1>{prose(self, lang + cid, vocab, 120, 260)}"
            )
            return self.serve(req, self.frame(lang, title_of(slug[lang == "fr"]), body, other, req))
        if len(parts) == 3 and parts[2].endswith(".html"):
            p = next((x for x in self.products if self.prod_path(lang, x) == req.path), None)
            return self.product(req, lang, p) if p else not_found()
        cid = parts[1].split("-", 1)[0]
        if (
            len(parts) != 2
            or not cid.isdigit()
            or int(cid) not in _PS_CATS
            or parts[1] != self.cat_path(lang, int(cid)).split("/")[2]
        ):
            return not_found()
        return self.category(req, lang, int(cid))

    def product(self, req: Req, lang: str, p: dict) -> Reply:
        other_lang = "fr" if lang == "en" else "en"
        vocab = self.vocab[lang]
        cid_i = p["cat"]
        name = title_of(p["slug"])
        facts = (
            f"<p class='price'>€{p['price']:.2f}</p><p>Colours: {', '.join(p['colors'])}; "
            f"sizes: {', '.join(p['sizes'])}</p>"
        )
        cart = href(
            f"/{lang}/{'cart' if lang == 'en' else 'panier'}",
            [("add", "1"), ("id_product", str(p["id"])), ("token", self.token(32))],
        )
        body = (
            f"<h1>{esc(name)}</h1>{facts}{prose(self, lang + 'p' + str(p['id']), vocab, 80, 200)}"
            f"<p>{a(cart, 'Add to cart')}</p><p>{a(self.cat_path(lang, cid_i), 'Back to category')}"
            "</p>"
        )
        return self.serve(req, self.frame(lang, name, body, self.prod_path(other_lang, p), req))

    def category(self, req: Req, lang: str, cid: int) -> Reply:
        pairs = parse_qsl(req.query, keep_blank_values=True)
        p = dict(pairs)
        sel: dict[str, list[str]] = {"Color": [], "Size": []}
        for group in p.get("q", "").split("/"):
            g, _, vals = group.partition("-")
            if g in sel:
                sel[g] = [v for v in vals.split("-") if v]
        rows = [
            x
            for x in self.products
            if x["cat"] == cid
            and (not sel["Color"] or set(sel["Color"]) & set(x["colors"]))
            and (not sel["Size"] or set(sel["Size"]) & set(x["sizes"]))
        ]
        order = p.get("order", "product.position.asc")
        if order.startswith("product.price"):
            rows.sort(key=lambda x: x["price"], reverse=order.endswith("desc"))
        elif order.startswith("product.name"):
            rows.sort(key=lambda x: x["slug"], reverse=order.endswith("desc"))
        per = int(p["resultsPerPage"]) if p.get("resultsPerPage", "").isdigit() else 6
        per = min(max(per, 1), 60)
        pages = max(1, (len(rows) + per - 1) // per)
        n = int(p["page"]) if p.get("page", "").isdigit() else 1
        n = min(max(n, 1), pages)
        base = without(pairs, "page")

        def facet(g: str, v: str) -> str:
            cur = dict(sel)
            cur[g] = [x for x in cur[g] if x != v] if v in cur[g] else [*cur[g], v]
            q = "/".join(f"{k}-{'-'.join(vs)}" for k, vs in cur.items() if vs)
            return href(req.path, setp(base, "q", q) if q else without(base, "q"), safe="/")

        facets = "".join(
            f"<h4>{g}</h4>" + ul([(facet(g, v), v) for v in vals])
            for g, vals in (("Color", _PS_COLORS), ("Size", _PS_SIZES))
        )
        sorts = bar(
            [
                (href(req.path, setp(base, "order", o), safe="/"), o)
                for o in (
                    "product.sales.desc",
                    "product.position.asc",
                    "product.name.asc",
                    "product.name.desc",
                    "product.price.asc",
                    "product.price.desc",
                )
            ]
        )
        perl = bar(
            [
                (href(req.path, setp(base, "resultsPerPage", str(k)), safe="/"), str(k))
                for k in (6, 12, 24)
            ]
        )
        pager = bar(
            [
                (href(req.path, [*base, *([("page", str(k))] if k > 1 else [])], safe="/"), str(k))
                for k in range(1, pages + 1)
            ]
        )
        tiles = ul(
            [
                (self.prod_path(lang, x), title_of(x["slug"]) + f" €{x['price']:.2f}")
                for x in rows[(n - 1) * per : n * per]
            ]
        )
        cname = title_of(_PS_CATS[cid][lang == "fr"])
        intro = prose(self, f"{lang}c{cid}p{n}", self.vocab[lang], 40, 90)
        body = (
            f"<h1>{cname}</h1>{intro}<aside>{facets}</aside><p>Sort by: {sorts}</p>"
            f"<p>Show: {perl}</p>{tiles}<p>Page {n} of {pages}: {pager}</p>"
        )
        other = self.cat_path("fr" if lang == "en" else "en", cid) + (
            "?page=2" if req.query == "page=2" else ""
        )
        return self.serve(req, self.frame(lang, cname, body, other, req))


# ----------------------------------------------------------------------------------------
# Movable Type 6, statically published on `www` with its CGI scripts on a second host
# (`CGIPath` on another domain). Entry tags link the CGI host's tag search
# (`mt-search.cgi?tag=&blog_id=1&IncludeBlogs=1&limit=20`); the search-results template
# carries the current parameters into its tag cloud, its sort and page-size links
# (`SearchSortBy=`, `SearchResultDisplay=`, `limit=`) and its paging (`page=`), and its
# calendar widget links dynamic monthly archives (`archive_type=Monthly&year=&month=`)
# whose previous/next links never stop.
# Legit look-alikes: the static monthly archives on `www`, the plain tag search pages.
# ----------------------------------------------------------------------------------------

_MT_CGI = "/cgi-bin/mt"


class MovableType(Hosted):
    """Movable Type: mt-search.cgi on a second host, dynamic monthly archives without end."""

    name = "movabletype"
    kind = "Movable Type x2 hosts: mt-search.cgi tag/sort/limit carried, dynamic months forever"
    hosts = 2
    robots_disallow: ClassVar[list[str]] = [
        "/mt-static/",
        f"{_MT_CGI}/mt.cgi",
        f"{_MT_CGI}/mt-cp.cgi",
        f"{_MT_CGI}/mt-comments.cgi",
        f"{_MT_CGI}/mt-tb.cgi",
    ]

    def robots_txt(self, req: Req) -> str:
        rules = self.robots_disallow[:1] if req.host_index == 0 else self.robots_disallow[1:]
        return "User-agent: *\n" + "".join(f"Disallow: {r}\n" for r in rules)

    def setup(self) -> None:
        self.vocab = words_for("science") + THEMES["travel"]
        rng = self.rng("mt")
        self.cats = ["birds", "plants", "weather"]
        self.tags = ["heron", "reedbed", "frost", "orchid", "tide", "migration"]
        self.months = [dt.date(2026, m, 1) for m in range(4, 12)]
        self.entries = []
        for i, t in enumerate(slugs(self.key("e"), 24, THEMES["travel"] + THEMES["science"], 2)):
            mo = self.months[i // 3]
            self.entries.append(
                {
                    "base": t.replace("-", "_"),
                    "title": title_of(t),
                    "date": mo.replace(day=3 + 9 * (i % 3)),
                    "cat": self.cats[i % 3],
                    "tags": rng.sample(self.tags, 2),
                }
            )
        self.reg("index", "/")
        self.reg("archives", "/archives.html")
        for mo in self.months:
            self.reg(f"m{mo:%Y%m}", f"/{mo:%Y/%m}/")
        for c in self.cats:
            self.reg(f"c:{c}", f"/{c}/")
        for e in self.entries:
            self.reg(f"e:{e['base']}", self.epath(e))
        for t in self.tags:
            self.reg(f"tag:{t}", self.tagq(t), 1)
        self.seed_paths = [(0, "/"), (1, self.tagq(self.tags[0]))]

    def epath(self, e: dict) -> str:
        return f"/{e['date']:%Y/%m}/{e['base']}.html"

    def tagq(self, t: str, extra: list[tuple[str, str]] | None = None) -> str:
        pairs = [("tag", t), ("blog_id", "1"), ("IncludeBlogs", "1"), ("limit", "20")]
        return href(f"{_MT_CGI}/mt-search.cgi", [*pairs, *(extra or [])])

    def frame(self, title: str, body: str) -> str:
        w = self.bases[0]
        side = "<h3>Categories</h3>" + ul([(f"{w}/{c}/", title_of(c)) for c in self.cats])
        side += "<h3>Archives</h3>" + ul([(f"{w}/{m:%Y/%m}/", f"{m:%B %Y}") for m in self.months])
        return doc(
            f"{title} - Field Notes from the Marsh",
            f"<div id='header'>{a(w + '/', 'Field Notes from the Marsh')}</div>"
            f"<div id='content'>{body}</div><div id='sidebar'>{side}"
            f"{a(w + '/archives.html', 'All archives')}</div>"
            "<div id='footer'>Powered by Movable Type 6.8</div>",
        )

    def elist(self, rows: list[dict]) -> str:
        w = self.bases[0]
        return "".join(
            f"<div class='entry'><h2>{a(w + self.epath(e), e['title'])}</h2>"
            f"<p>{e['date']:%B %d, %Y} in {a(w + '/' + e['cat'] + '/', title_of(e['cat']))}</p>"
            f"{prose(self, 'x' + e['base'], self.vocab, 30, 60)}</div>"
            for e in rows
        )

    def handle(self, req: Req) -> Reply:
        if req.host_index == 1:
            return self.cgi(req)
        path = req.path
        if path == "/":
            body = f"{prose(self, 'intro', self.vocab, 40, 80)}{self.elist(self.entries[::-1][:6])}"
            return self.serve(req, self.frame("Home", body))
        if path == "/archives.html":
            body = "<h1>Archives</h1>" + ul([(self.epath(e), e["title"]) for e in self.entries])
            return self.serve(req, self.frame("Archives", body))
        for mo in self.months:
            if path == f"/{mo:%Y/%m}/":
                rows = [e for e in self.entries if e["date"].month == mo.month]
                body = f"<h1>{mo:%B %Y} Archives</h1>{self.elist(rows)}"
                return self.serve(req, self.frame(f"{mo:%B %Y}", body))
        for c in self.cats:
            if path == f"/{c}/":
                rows = [e for e in self.entries if e["cat"] == c]
                body = f"<h1>{title_of(c)}</h1>{self.elist(rows)}"
                return self.serve(req, self.frame(title_of(c), body))
        e = next((x for x in self.entries if self.epath(x) == path), None)
        if e is None:
            return not_found()
        cgi = self.bases[1] + _MT_CGI
        eid = 100 + self.entries.index(e)
        tags = ", ".join(a(self.bases[1] + self.tagq(t), t) for t in e["tags"])
        body = (
            f"<h1>{esc(e['title'])}</h1><p>{e['date']:%A, %B %d, %Y}</p>"
            f"{prose(self, e['base'], self.vocab, 200, 380)}<p>Tags: {tags}</p>"
            f"<p>{a(f'{cgi}/mt-comments.cgi?__mode=view&entry_id={eid}&blog_id=1', 'Comments')}"
            f" | {a(f'{cgi}/mt-cp.cgi?__mode=login&blog_id=1', 'Sign in to comment')}</p>"
        )
        return self.serve(req, self.frame(e["title"], body))

    def cgi(self, req: Req) -> Reply:
        if req.path != f"{_MT_CGI}/mt-search.cgi":
            return not_found()
        pairs = parse_qsl(req.query, keep_blank_values=True)
        p = dict(pairs)
        base = without(pairs, "page")
        if p.get("archive_type") == "Monthly":
            y, m = p.get("year", ""), p.get("month", "")
            if not (y.isdigit() and m.isdigit() and 1 <= int(m) <= 12 and 1 < int(y) < 9999):
                return not_found()
            mo = dt.date(int(y), int(m), 1)
            prev = (mo - dt.timedelta(days=1)).replace(day=1)
            nxt = (mo + dt.timedelta(days=32)).replace(day=1)
            rows = [e for e in self.entries if e["date"].replace(day=1) == mo]
            nav = bar(
                [
                    (
                        href(
                            req.path, setp(setp(base, "year", str(d.year)), "month", str(d.month))
                        ),
                        f"{d:%B %Y}",
                    )
                    for d in (prev, nxt)
                ]
            )
            body = f"<h1>{mo:%B %Y}</h1>{self.elist(rows) or '<p>No entries.</p>'}<p>{nav}</p>"
            return self.serve(req, self.frame(f"{mo:%B %Y}", body))
        tag = p.get("tag", "")
        rows = [e for e in self.entries if tag in e["tags"]]
        if p.get("SearchSortBy") == "title":
            rows.sort(key=lambda e: e["title"], reverse=p.get("SearchResultDisplay") == "descend")
        else:
            rows.sort(key=lambda e: e["date"], reverse=p.get("SearchResultDisplay") != "ascend")
        lim = int(p["limit"]) if p.get("limit", "").isdigit() and int(p["limit"]) > 0 else 20
        pages = max(1, (len(rows) + lim - 1) // lim)
        n = min(max(int(p["page"]) if p.get("page", "").isdigit() else 1, 1), pages)
        cloud = ", ".join(a(href(req.path, setp(base, "tag", t)), t) for t in self.tags)
        sorts = bar(
            [
                (
                    href(req.path, setp(setp(base, "SearchSortBy", s), "SearchResultDisplay", d)),
                    f"{s} {d}",
                )
                for s in ("authored_on", "title")
                for d in ("ascend", "descend")
            ]
        )
        lims = bar([(href(req.path, setp(base, "limit", str(k))), str(k)) for k in (5, 10, 20, 50)])
        pager = bar(
            [(href(req.path, [*base, ("page", str(k))]), str(k)) for k in range(1, pages + 1)]
        )
        last = max(e["date"] for e in rows) if rows else self.months[-1]
        cal = href(
            req.path,
            [
                ("IncludeBlogs", "1"),
                ("archive_type", "Monthly"),
                ("template_id", "14"),
                ("blog_id", "1"),
                ("year", str(last.year)),
                ("month", str(last.month)),
            ],
        )
        body = (
            f"<h1>Entries tagged “{esc(tag)}”</h1><p>{len(rows)} results</p>"
            f"{self.elist(rows[(n - 1) * lim : n * lim])}<p>Pages: {pager}</p>"
            f"<p>Sort: {sorts}</p><p>Per page: {lims}</p><h3>Tags</h3><p>{cloud}</p>"
            f"<p>{a(cal, 'Calendar: ' + format(last, '%B %Y'))}</p>"
        )
        return self.serve(req, self.frame(f"Tag: {tag}", body))


__all__ = ["Javadoc", "MovableType", "PrestaShop", "XenForo"]
