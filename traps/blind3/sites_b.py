"""Blind3 sites, part B: Plone (Zope acquisition), Struts on Tomcat (;jsessionid=),
WebSphere Portal (navigational state in the URL), Django admin changelists."""

from __future__ import annotations

import base64
import json
from typing import ClassVar
from urllib.parse import quote, unquote

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
from traps.blind2.common import Link, bar, esc, prose, qlist, qs, trap, ul

# ----------------------------------------------------------------------------------------
# Plone: Zope acquisition resolves a name in any container above the current one, so
# `/research/projects/news/harbour-report` serves `/news/harbour-report`. Plone 4 themes
# print `<base href="<object url>/">` on documents too, and a static-text portlet shown on
# every page links relative `news/<item>` and the colophon relative `sitemap`,
# `accessibility-info`, `contact-info`: from any page they resolve one level deeper, and
# acquisition serves them, without end. Each document also offers `sendto_form` and the
# `view` / `document_view` spellings. robots.txt is Plone's stock one (nothing disallowed
# for `*`; the Googlebot section disallows `/*sendto_form$`).
# Legit look-alikes: a real deep tree `/research/projects/2025/reports/...`, and the news
# folder's real batch `?b_start:int=10`.
# ----------------------------------------------------------------------------------------

_PLONE_ROBOTS = """Sitemap: {base}/sitemap.xml.gz

# Define access-restrictions for robots/spiders
# http://www.robotstxt.org/wc/norobots.html

# By default we allow robots to access all areas of our site
# already accessible to anonymous users

User-agent: *
Disallow:

# Add Googlebot-specific syntax extension to exclude forms
# that are repeated for each piece of content in the site
# the wildcard is only supported by Googlebot
# http://www.google.com/support/webmasters/bin/answer.py?answer=40367&ctx=sibling

User-Agent: Googlebot
Disallow: /*sendto_form$
Disallow: /*folder_factories$
"""


class Plone(Site):
    """A Plone 4 site: acquisition, relative links under a trailing-slash <base>."""

    name = "plone"
    kind = "Plone/Zope: acquisition of relative links under <base href>, view aliases"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = []
    batch = 10

    def build(self) -> None:
        self.vocab = words_for("science")
        # path -> (title, is_folder)
        self.objs: dict[str, tuple[str, bool]] = {"": ("Institute of Coastal Studies", True)}
        for x in ("sitemap", "accessibility-info", "contact-info"):
            self.objs[x] = (title_of(x), False)
        self.objs["about"] = ("About", True)
        for x in slugs(self.key("about"), 3, THEMES["science"], 1):
            self.objs[f"about/{x}"] = (title_of(x), False)
        self.objs["news"] = ("News", True)
        self.news = slugs(self.key("news"), 18, self.vocab, 2)
        for x in self.news:
            self.objs[f"news/{x}"] = (title_of(x), False)
        tree = [
            "research",
            "research/projects",
            "research/projects/2024",
            "research/projects/2025",
            "research/projects/2025/reports",
            "research/datasets",
        ]
        for t in tree:
            self.objs[t] = (title_of(t.rsplit("/", 1)[-1]), True)
        for i, x in enumerate(slugs(self.key("rep"), 8, self.vocab, 2)):
            parent = tree[[2, 4, 4, 4, 5, 5, 3, 1][i]]
            self.objs[f"{parent}/{x}"] = (title_of(x), False)
        self.legit = {f"o:{p}" for p in self.objs} | {"news:b10"}
        self.portlet_item = self.news[0]

    def url(self, p: str) -> str:
        return "/" + p

    def children(self, p: str) -> list[str]:
        pre = p + "/" if p else ""
        return [
            x for x in self.objs if x.startswith(pre) and x != p and "/" not in x[len(pre) :] and x
        ]

    def resolve(self, segs: list[str]) -> tuple[str, str] | None:
        """Acquisition: each name is looked up in the current object and then in every
        container above it. Returns (object path, view) or None."""
        cur = ""
        view = ""
        for i, seg in enumerate(segs):
            if view:
                return None
            found = None
            ctx = cur
            while True:
                cand = f"{ctx}/{seg}" if ctx else seg
                if cand in self.objs:
                    found = cand
                    break
                if not ctx:
                    break
                ctx = ctx.rsplit("/", 1)[0] if "/" in ctx else ""
            if found is not None:
                cur = found
            elif seg in ("view", "document_view", "folder_listing", "sendto_form") and i:
                view = seg
            else:
                return None
        return cur, view

    def page(self, p: str, view: str, start: int, path: str) -> str:
        title, folder = self.objs[p]
        crumbs = [("/", "Home")]
        acc = ""
        for seg in p.split("/") if p else []:
            acc = f"{acc}/{seg}" if acc else seg
            crumbs.append((self.url(acc), self.objs[acc][0]))
        body = prose(self, f"o:{p}", self.vocab, 80 if folder else 150, 300)
        if view == "sendto_form":
            body = "<form><p>Send this page to somebody</p></form>"
        listing = ""
        if folder:
            kids = self.children(p)
            if p == "news":
                kids = kids[start : start + self.batch]
                nav = []
                if start:
                    nav.append(("/news", "\u00ab Previous 10 items"))
                if start + self.batch < len(self.children("news")):
                    nav.append(("/news?b_start:int=10", "Next 8 items \u00bb"))
                listing = ul([(self.url(k), self.objs[k][0]) for k in kids]) + bar(nav)
            else:
                listing = ul([(self.url(k), self.objs[k][0]) for k in kids])
        actions = ""
        if not folder:
            actions = bar([("sendto_form", "Send this"), ("view", "View")])
        portlet = (
            '<dl class="portlet portletStaticText"><dt>From the newsroom</dt><dd>'
            f"{a('news/' + self.portlet_item, 'Read the harbour report')}</dd></dl>"
        )
        colophon = bar(
            [
                ("sitemap", "Site Map"),
                ("accessibility-info", "Accessibility"),
                ("contact-info", "Contact"),
            ]
        )
        nav = bar(
            [("/", "Home"), ("/about", "About"), ("/news", "News"), ("/research", "Research")]
        )
        html = (
            f'<div id="portal-globalnav">{nav}</div>'
            f'<div id="portal-breadcrumbs">{bar(crumbs, " &rarr; ")}</div>'
            f'<div id="portal-column-content"><h1 class="documentFirstHeading">{esc(title)}</h1>'
            f'<div class="documentActions">{actions}</div>{body}{listing}</div>'
            f'<div id="portal-column-two">{portlet}</div>'
            f'<div id="portal-colophon">{colophon} Powered by Plone &amp; Python</div>'
        )
        # absolute_url() follows the acquisition chain: the base is the path as requested
        base = path.rstrip("/") + "/"
        return doc(f"{title} \u2014 Institute of Coastal Studies", html, base=base)

    def robots_txt(self, req: Req) -> str:
        return _PLONE_ROBOTS.replace("{base}", req.base)

    def handle(self, req: Req) -> Reply:
        segs = [unquote(x) for x in req.path.split("/") if x]
        got = self.resolve(segs)
        if got is None:
            return not_found("We're sorry, but that page doesn't seem to exist\u2026")
        p, view = got
        q = req.query
        start = 10 if q == "b_start:int=10" and p == "news" else 0
        body = self.page(p, view, start, req.path)
        canonical_path = self.url(p)
        if req.path != canonical_path or view:
            return trap(body)
        if not q:
            return self.legit_page(f"o:{p}", body)
        if start:
            return self.legit_page("news:b10", body)
        return trap(body)


# ----------------------------------------------------------------------------------------
# Struts 1 on Tomcat: links written with <html:link>/<c:url> go through
# HttpServletResponse.encodeURL, which adds `;jsessionid=<id>` while the session is not
# known to come from a cookie. A crawler without cookies gets a fresh session, and so fresh
# links, in every response. The rewritten links: cart, compare, sort, "customers also
# viewed" and "email a friend"; static includes (the top menu, the category pages' product
# links and pagers) are plain.
# Legit look-alikes: `product.do?id=N`, `catalog.do?cat=X` and its real `&page=2`.
# ----------------------------------------------------------------------------------------


class Struts(Site):
    """A Struts 1 shop on Tomcat that rewrites URLs with ;jsessionid=."""

    name = "struts"
    kind = "Tomcat/Struts: ;jsessionid= URL rewriting without cookies, sort/cart/compare"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/shop/")]
    robots_disallow: ClassVar[list[str]] = ["/shop/checkout.do", "/shop/login.do", "/manager/"]
    per = 6

    def build(self) -> None:
        self.vocab = words_for("shop")
        self.cats = slugs(self.key("cats"), 4, THEMES["shop"], 1)
        names = slugs(self.key("prods"), 28, self.vocab, 2)
        self.prods = {1040 + 3 * i: n for i, n in enumerate(names)}
        ids = list(self.prods)
        sizes = [9, 8, 6, 5]
        self.in_cat: dict[str, list[int]] = {}
        k = 0
        for c, n in zip(self.cats, sizes, strict=True):
            self.in_cat[c] = ids[k : k + n]
            k += n
        self.cat_of = {pid: c for c, ps in self.in_cat.items() for pid in ps}
        self.statics = ["about.jsp", "help.jsp", "stores.jsp"]
        self.legit = {"home"} | {f"s:{x}" for x in self.statics} | {f"p:{i}" for i in ids}
        for c in self.cats:
            self.legit |= {f"c:{c}:{n}" for n in range(1, self.npages(c) + 1)}

    def npages(self, c: str) -> int:
        return (len(self.in_cat[c]) + self.per - 1) // self.per

    def session(self, req: Req) -> tuple[str, bool]:
        """(session id, whether it came from a cookie)."""
        cookie = req.headers.get("Cookie", "") or req.headers.get("cookie", "")
        for part in cookie.split(";"):
            k, _, v = part.strip().partition("=")
            if k == "JSESSIONID" and v:
                return v, True
        return self.token(32, "0123456789ABCDEF"), False

    def enc(self, url: str, sid: str, cookie: bool) -> str:
        if cookie:
            return url
        path, sep, query = url.partition("?")
        return f"{path};jsessionid={sid}{sep}{query}"

    def shell(self, title: str, main: str, sid: str, cookie: bool) -> str:
        menu = bar(
            [("/shop/", "Home")]
            + [(f"/shop/catalog.do?cat={c}", title_of(c)) for c in self.cats]
            + [(f"/shop/{x}", title_of(x[:-4])) for x in self.statics]
        )
        cart = a(self.enc("/shop/cart.do", sid, cookie), "Cart (0)")
        login = a(self.enc("/shop/login.do", sid, cookie), "Sign in")
        body = (
            f"<div id=top>{menu} {cart} {login}</div><div id=content><h1>{esc(title)}</h1>"
            f"{main}</div><div id=footer>Powered by Apache Struts</div>"
        )
        return doc(f"{title} | Outfitters", body)

    def product_main(self, pid: int, sid: str, cookie: bool) -> str:
        c = self.cat_of[pid]
        sib = [x for x in self.in_cat[c] if x != pid][:3]
        also = ul(
            [
                (self.enc(f"/shop/product.do?id={x}", sid, cookie), title_of(self.prods[x]))
                for x in sib
            ]
        )
        acts = bar(
            [
                (self.enc(f"/shop/cart.do?action=add&id={pid}", sid, cookie), "Add to cart"),
                (self.enc(f"/shop/compare.do?ids={pid}", sid, cookie), "Compare"),
                (self.enc(f"/shop/email.do?id={pid}", sid, cookie), "Email a friend"),
            ]
        )
        return (
            f"<p>Category: {a(f'/shop/catalog.do?cat={c}', title_of(c))}</p>"
            + prose(self, f"p:{pid}", self.vocab)
            + f"<p>{acts}</p><h3>Customers also viewed</h3>{also}"
        )

    def catalog_main(self, c: str, page: int, sort: str, sid: str, cookie: bool) -> str:
        ps = list(self.in_cat[c])
        if sort == "price":
            ps.sort(key=lambda x: (x * 7) % 31)
        elif sort == "name":
            ps.sort(key=lambda x: self.prods[x])
        chunk = ps[(page - 1) * self.per : page * self.per]
        sorts = bar(
            [
                (self.enc(f"/shop/catalog.do?cat={c}&sort={s}", sid, cookie), f"by {s}")
                for s in ("price", "name", "newest")
            ]
        )
        pager = bar(
            [
                (f"/shop/catalog.do?cat={c}" + ("" if n == 1 else f"&page={n}"), str(n))
                for n in range(1, self.npages(c) + 1)
            ]
        )
        return (
            prose(self, f"c:{c}:{page}", self.vocab, 40, 80)
            + f"<p>Sort: {sorts}</p>"
            + ul([(f"/shop/product.do?id={x}", title_of(self.prods[x])) for x in chunk])
            + f"<p>Pages: {pager}</p>"
        )

    def handle(self, req: Req) -> Reply:
        path, _, params = req.path.partition(";")
        sid, cookie = self.session(req)
        rewritten = params.startswith("jsessionid=")
        if rewritten:
            sid, cookie = params[len("jsessionid=") :], False
        q = qs(req.query)
        rep = self.route(path, req.query, q, sid, cookie)
        if rep.cls == "legit" and (rewritten or params):
            rep = trap(rep.body if isinstance(rep.body, str) else "")
        if not cookie and rep.status == 200:
            rep.headers["Set-Cookie"] = f"JSESSIONID={sid}; Path=/shop; HttpOnly"
        return rep

    def route(self, path: str, query: str, q: dict[str, str], sid: str, cookie: bool) -> Reply:
        if path == "/":
            return redirect("/shop/")
        if path in ("/shop/", "/shop/index.jsp"):
            feats = [
                (f"/shop/product.do?id={x}", title_of(self.prods[x])) for x in list(self.prods)[::5]
            ]
            body = self.shell(
                "Outfitters", prose(self, "home", self.vocab) + ul(feats), sid, cookie
            )
            if path == "/shop/" and not query:
                return self.legit_page("home", body)
            return trap(body)
        if path.startswith("/shop/") and path[6:] in self.statics:
            x = path[6:]
            body = self.shell(title_of(x[:-4]), prose(self, f"s:{x}", self.vocab), sid, cookie)
            return trap(body) if query else self.legit_page(f"s:{x}", body)
        if path == "/shop/product.do":
            try:
                pid = int(q.get("id", ""))
            except ValueError:
                return not_found()
            if pid not in self.prods:
                return not_found()
            body = self.shell(
                title_of(self.prods[pid]), self.product_main(pid, sid, cookie), sid, cookie
            )
            return self.legit_page(f"p:{pid}", body) if query == f"id={pid}" else trap(body)
        if path == "/shop/catalog.do":
            c = q.get("cat", "")
            if c not in self.cats:
                return not_found()
            page = int(q["page"]) if q.get("page", "").isdigit() else 1
            if not 1 <= page <= self.npages(c):
                return not_found()
            body = self.shell(
                title_of(c),
                self.catalog_main(c, page, q.get("sort", ""), sid, cookie),
                sid,
                cookie,
            )
            canon = f"cat={c}" + ("" if page == 1 else f"&page={page}")
            return self.legit_page(f"c:{c}:{page}", body) if query == canon else trap(body)
        if path in ("/shop/cart.do", "/shop/compare.do", "/shop/email.do"):
            ids = [x for x in q.get("ids", q.get("id", "")).split(",") if x.isdigit()]
            more = [str(x) for x in list(self.prods)[:4] if str(x) not in ids]
            links = ul(
                [
                    (
                        self.enc(f"{path}?ids={','.join([*ids, m])}", sid, cookie),
                        f"Also compare {m}",
                    )
                    for m in more
                ]
            )
            title = {"cart": "Your cart", "compare": "Compare", "email": "Email a friend"}[
                path[6:-3]
            ]
            return trap(self.shell(title, f"<p>{len(ids)} items.</p>{links}", sid, cookie))
        return not_found()


# ----------------------------------------------------------------------------------------
# WebSphere Portal: portlet links (paging, maximise/minimise, language) encode the whole
# navigational state of the page in an opaque path segment
# `.../!ut/p/z1/<state>/dz/d5/L2dBISEvZ0FBIS9nQSEh/`; every link from a state URL adds
# to the state, so URLs grow without end. robots.txt disallows the state URLs of the
# root page only (`/wps/portal/city/!ut/`), not those of sub-pages.
# Legit look-alikes: friendly URLs `/wps/portal/city/<section>/<page>` and Web Content
# Manager URLs `/wps/wcm/connect/city/<uuid>/<slug>` (opaque-looking but stable).
# ----------------------------------------------------------------------------------------

_DZ = "dz/d5/L2dBISEvZ0FBIS9nQSEh/"


class Portal(Site):
    """An IBM WebSphere Portal city site with state-in-URL portlet links."""

    name = "portal"
    kind = "WebSphere Portal: !ut/p/z1/<state> URLs that grow with every portlet click"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/wps/portal/city/")]
    robots_disallow: ClassVar[list[str]] = ["/wps/myportal/", "/wps/portal/city/!ut/"]
    per = 5

    def build(self) -> None:
        self.vocab = words_for("gov")
        self.sections = slugs(self.key("secs"), 4, THEMES["gov"], 1)
        self.pages = {s: slugs(self.key(f"p{s}"), 5, self.vocab, 2) for s in self.sections}
        rng = self.rng("uuid")
        arts = slugs(self.key("arts"), 14, self.vocab, 3)
        self.articles = [
            (
                "".join(rng.choice("0123456789abcdef") for _ in range(8))
                + "-"
                + "".join(rng.choice("0123456789abcdef") for _ in range(4)),
                s,
            )
            for s in arts
        ]
        self.legit = {"home", "news"} | {f"s:{s}" for s in self.sections}
        self.legit |= {f"p:{s}/{x}" for s in self.sections for x in self.pages[s]}
        self.legit |= {f"w:{u}" for u, _ in self.articles}

    def state_url(self, page: str, state: list[str]) -> str:
        raw = json.dumps(state, separators=(",", ":")).encode()
        tok = "04_" + base64.urlsafe_b64encode(raw).decode().rstrip("=")
        pre = f"/wps/portal/city/{page}/" if page else "/wps/portal/city/"
        return f"{pre}!ut/p/z1/{tok}/{_DZ}"

    def decode(self, tok: str) -> list[str] | None:
        if not tok.startswith("04_"):
            return None
        t = tok[3:]
        try:
            st = json.loads(base64.urlsafe_b64decode(t + "=" * (-len(t) % 4)))
        except ValueError:
            return None
        return [str(x) for x in st] if isinstance(st, list) else None

    def wcm(self, u: str, s: str) -> str:
        return f"/wps/wcm/connect/city/{u}/{s}"

    def news_portlet(self, page: str, state: list[str]) -> str:
        pg = sum(1 for x in state if x == "next") - sum(1 for x in state if x == "prev")
        pg = max(0, min(pg, (len(self.articles) - 1) // self.per))
        chunk = self.articles[pg * self.per : (pg + 1) * self.per]
        maxi = "max" in state and state[-1] != "min"
        links = bar(
            [
                (self.state_url(page, [*state, "prev"]), "\u00ab Newer"),
                (self.state_url(page, [*state, "next"]), "Older \u00bb"),
                (
                    self.state_url(page, [*state, "min" if maxi else "max"]),
                    "Restore" if maxi else "Maximize",
                ),
            ]
        )
        return (
            '<section class="wpthemeControl"><h2>City news</h2>'
            + ul([(self.wcm(u, s), title_of(s)) for u, s in chunk])
            + f"<p>{links}</p></section>"
        )

    def shell(self, page: str, title: str, main: str, state: list[str]) -> str:
        nav = bar(
            [("/wps/portal/city/", "Home"), ("/wps/portal/city/news", "News")]
            + [(f"/wps/portal/city/{s}", title_of(s)) for s in self.sections]
        )
        langs = bar(
            [(self.state_url(page, [*state, f"lang-{lg}"]), lg) for lg in ("en", "de", "fr")]
        )
        base = self.state_url(page, state) if state else None
        body = (
            f'<header class="wpthemeHeader">{nav} {a("/wps/myportal/", "Log in")} '
            f"<span>{langs}</span></header><main><h1>{esc(title)}</h1>{main}</main>"
            f"{self.news_portlet(page, state)}<footer>City Hall. Powered by WebSphere Portal"
            "</footer>"
        )
        return doc(f"{title} - City Portal", body, base=base)

    def content(self, page: str) -> tuple[str, str, str] | None:
        """(pid, title, main) of a friendly page."""
        if page == "":
            links = ul([(f"/wps/portal/city/{s}", title_of(s)) for s in self.sections])
            return "home", "Welcome to the City", prose(self, "home", self.vocab) + links
        if page == "news":
            items = ul([(self.wcm(u, s), title_of(s)) for u, s in self.articles])
            return "news", "News", prose(self, "news", self.vocab, 40, 80) + items
        parts = page.split("/")
        if len(parts) == 1 and parts[0] in self.sections:
            s = parts[0]
            items = ul([(f"/wps/portal/city/{s}/{x}", title_of(x)) for x in self.pages[s]])
            return f"s:{s}", title_of(s), prose(self, f"s:{s}", self.vocab, 60, 120) + items
        if len(parts) == 2 and parts[0] in self.sections and parts[1] in self.pages[parts[0]]:
            return f"p:{page}", title_of(parts[1]), prose(self, f"p:{page}", self.vocab)
        return None

    def handle(self, req: Req) -> Reply:
        p = req.path
        if p.startswith("/wps/wcm/connect/city/"):
            rest = p[len("/wps/wcm/connect/city/") :].split("/")
            for u, s in self.articles:
                if rest == [u, s]:
                    body = self.shell("news", title_of(s), prose(self, f"w:{u}", self.vocab), [])
                    return trap(body) if req.query else self.legit_page(f"w:{u}", body)
            return not_found()
        if not p.startswith("/wps/portal/city/"):
            return redirect("/wps/portal/city/") if p == "/" else not_found()
        rest = p[len("/wps/portal/city/") :]
        state: list[str] = []
        if "!ut/p/z1/" in rest:
            page, _, tail = rest.partition("!ut/p/z1/")
            page = page.rstrip("/")
            tok = tail.split("/", 1)[0]
            got = self.decode(tok)
            if got is None:
                return not_found()
            state = got or ["empty"]
        else:
            page = rest.rstrip("/")
            if rest.endswith("/") and rest != "":
                return redirect(f"/wps/portal/city/{page}")
        got_page = self.content(page)
        if got_page is None:
            return not_found()
        pid, title, main = got_page
        body = self.shell(page, title, main, state)
        if state or req.query:
            return trap(body)
        return self.legit_page(pid, body)


# ----------------------------------------------------------------------------------------
# Django admin changelists (a public read-only registry): column headers set the ordering
# `?o=2.-1.3` (clicked column first, the others kept, each toggled or removed), the filter
# sidebar and the date hierarchy keep every other parameter, and each row links the change
# form with the list state preserved in `?_changelist_filters=<urlencoded state>`, whose
# breadcrumbs link the list back with that state.
# Legit look-alikes: the changelist's real `?p=2|3` pages, the change forms
# `/registry/catalogue/dataset/N/change/` (plain links from the publishers' inlines).
# ----------------------------------------------------------------------------------------

_DJ_COLS = ["title", "publisher", "year", "licence", "updated"]


class DjangoAdmin(Site):
    """Django admin changelists: o= orderings, filters, _changelist_filters."""

    name = "django"
    kind = "Django admin: ?o= orderings, filter combinations, _changelist_filters= on rows"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/registry/")]
    robots_disallow: ClassVar[list[str]] = [
        "/registry/login/",
        "/registry/logout/",
        "/registry/password_change/",
        "/registry/jsi18n/",
    ]
    per = 12

    def build(self) -> None:
        self.vocab = words_for("gov")
        self.pubs = {
            7 + i: title_of(s) for i, s in enumerate(slugs(self.key("pubs"), 5, THEMES["gov"], 2))
        }
        names = slugs(self.key("ds"), 30, self.vocab, 3)
        rng = self.rng("rows")
        pub_ids = list(self.pubs)
        self.rows = {
            201 + 4 * i: {
                "title": title_of(n),
                "publisher": pub_ids[i % 5],
                "year": str(rng.choice([2022, 2023, 2024, 2025])),
                "licence": rng.choice(["cc-by", "cc0", "ogl"]),
                "updated": f"2026-{rng.randint(1, 11):02d}-{rng.randint(1, 28):02d}",
            }
            for i, n in enumerate(names)
        }
        self.npages = (len(self.rows) + self.per - 1) // self.per
        self.legit = {"index", "publishers"} | {f"list:{k}" for k in range(1, self.npages + 1)}
        self.legit |= {f"pub:{k}" for k in self.pubs}
        self.legit |= {f"ds:{k}" for k in self.rows}

    def shell(self, title: str, crumbs: list[Link], main: str, side: str = "") -> str:
        body = (
            f'<div id="header"><div id="branding">Open Data Registry</div>'
            f'<div id="user-tools">{a("/registry/login/?next=/registry/", "Log in")}</div></div>'
            f'<div class="breadcrumbs">{bar(crumbs, " &rsaquo; ")}</div>'
            f'<div id="content"><h1>{esc(title)}</h1>{main}</div>'
            f'<div id="changelist-filter">{side}</div>'
        )
        return doc(f"{title} | Open Data Registry", body)

    def changelist(self, req: Req) -> Reply:
        pairs = qlist(req.query)
        state = dict(pairs)
        rows = list(self.rows)
        for k, v in state.items():
            if k == "publisher__id__exact":
                rows = [r for r in rows if str(self.rows[r]["publisher"]) == v]
            elif k in ("year", "licence__exact"):
                f = k.split("__")[0]
                rows = [r for r in rows if self.rows[r][f] == v]
            elif k == "updated__month":
                rows = [r for r in rows if self.rows[r]["updated"][5:7] == v.zfill(2)]
            elif k == "q":
                rows = [r for r in rows if v.lower() in str(self.rows[r]["title"]).lower()]
        order: list[str] = [x for x in state.get("o", "").split(".") if x.lstrip("-").isdigit()]
        for o in reversed(order):
            col = _DJ_COLS[(abs(int(o)) - 1) % len(_DJ_COLS)]
            rows.sort(key=lambda r, c=col: str(self.rows[r][c]), reverse=o.startswith("-"))
        try:
            page = int(state.get("p", "1"))
        except ValueError:
            page = 1
        npages = max(1, (len(rows) + self.per - 1) // self.per)
        chunk = rows[(page - 1) * self.per : page * self.per]

        def link(**kw: str | None) -> str:
            # as ChangeList.get_query_string: the page number is dropped unless given
            d = {k: v for k, v in state.items() if k != "p"}
            for k, v in kw.items():
                if v is None:
                    d.pop(k, None)
                else:
                    d[k] = v
            qstr = "&".join(f"{k}={quote(v, safe='.-')}" for k, v in d.items())
            return "/registry/catalogue/dataset/" + (f"?{qstr}" if qstr else "")

        heads = ""
        for i, col in enumerate(_DJ_COLS, 1):
            rest = [o for o in order if abs(int(o)) != i]
            cur = next((o for o in order if abs(int(o)) == i), None)
            toggled = str(i) if cur == f"-{i}" else f"-{i}" if cur else str(i)
            heads += f"<th>{a(link(o='.'.join([toggled, *rest])), col)}"
            if cur:
                heads += " " + a(link(o=".".join(rest) or None), "remove")
            heads += "</th>"
        filt = (
            "<h3>By publisher</h3>"
            + ul([(link(publisher__id__exact=str(k), p=None), v) for k, v in self.pubs.items()])
            + "<h3>By year</h3>"
            + ul([(link(year=y, p=None), y) for y in ("2022", "2023", "2024", "2025")])
            + "<h3>By licence</h3>"
            + ul([(link(licence__exact=x, p=None), x) for x in ("cc-by", "cc0", "ogl")])
        )
        months = bar([(link(updated__month=str(m), p=None), f"2026-{m:02d}") for m in range(1, 12)])
        filters = "&".join(f"{k}={v}" for k, v in state.items())
        trs = "".join(
            f"<tr><td>{a(self.change_url(r, filters), str(self.rows[r]['title']))}</td>"
            f"<td>{self.pubs[int(self.rows[r]['publisher'])]}</td>"
            f"<td>{self.rows[r]['year']}</td><td>{self.rows[r]['licence']}</td></tr>"
            for r in chunk
        )
        pager = bar([(link(p=str(n) if n > 1 else None), str(n)) for n in range(1, npages + 1)])
        main = (
            f"<p class=xfull>{months}</p><table><tr>{heads}</tr>{trs}</table>"
            f"<p class=paginator>{pager} {len(rows)} datasets</p>"
        )
        crumbs = [("/registry/", "Home"), ("/registry/catalogue/", "Catalogue")]
        body = self.shell("Select dataset to view", crumbs, main, filt)
        q = req.query
        if q == "" or (q.startswith("p=") and q[2:] in [str(n) for n in range(2, npages + 1)]):
            return self.legit_page(f"list:{page}", body) if 1 <= page <= self.npages else trap(body)
        return trap(body)

    def change_url(self, r: int, filters: str) -> str:
        url = f"/registry/catalogue/dataset/{r}/change/"
        if filters:
            url += "?_changelist_filters=" + quote(filters, safe="")
        return url

    def handle(self, req: Req) -> Reply:
        p, q = req.path, qs(req.query)
        if p == "/registry/":
            apps = ul(
                [
                    ("/registry/catalogue/dataset/", "Datasets"),
                    ("/registry/catalogue/publisher/", "Publishers"),
                ]
            )
            body = self.shell(
                "Site administration",
                [("/registry/", "Home")],
                prose(self, "index", self.vocab, 60, 120) + apps,
            )
            return trap(body) if req.query else self.legit_page("index", body)
        if p == "/registry/catalogue/":
            return redirect("/registry/")
        if p == "/registry/catalogue/dataset/":
            return self.changelist(req)
        if p == "/registry/catalogue/publisher/":
            items = ul(
                [(f"/registry/catalogue/publisher/{k}/change/", v) for k, v in self.pubs.items()]
            )
            body = self.shell(
                "Select publisher to view",
                [("/registry/", "Home")],
                prose(self, "pubs", self.vocab, 40, 80) + items,
            )
            return trap(body) if req.query else self.legit_page("publishers", body)
        parts = [x for x in p.split("/") if x]
        if len(parts) == 5 and parts[:2] == ["registry", "catalogue"] and parts[4] == "change":
            try:
                k = int(parts[3])
            except ValueError:
                return not_found()
            if parts[2] == "publisher" and k in self.pubs:
                inline = ul(
                    [
                        (f"/registry/catalogue/dataset/{r}/change/", str(row["title"]))
                        for r, row in self.rows.items()
                        if row["publisher"] == k
                    ]
                )
                main = (
                    prose(self, f"pub:{k}", self.vocab)
                    + a(f"/registry/catalogue/dataset/?publisher__id__exact={k}", "View datasets")
                    + "<h2>Datasets</h2>"
                    + inline
                )
                body = self.shell(self.pubs[k], [("/registry/", "Home")], main)
                return trap(body) if req.query else self.legit_page(f"pub:{k}", body)
            if parts[2] == "dataset" and k in self.rows:
                back = "/registry/catalogue/dataset/"
                filters = q.get("_changelist_filters", "")
                if filters:
                    back += "?" + filters
                row = self.rows[k]
                crumbs = [("/registry/", "Home"), (back, "Datasets")]
                pub_k = int(row["publisher"])
                pub_a = a(f"/registry/catalogue/publisher/{pub_k}/change/", self.pubs[pub_k])
                main = (
                    f"<p>Publisher: {pub_a} Year: {row['year']} Licence: {row['licence']}</p>"
                    + prose(self, f"ds:{k}", self.vocab)
                    + a(f"/registry/catalogue/dataset/{k}/history/", "History")
                )
                body = self.shell(str(row["title"]), crumbs, main)
                return trap(body) if req.query else self.legit_page(f"ds:{k}", body)
        if len(parts) == 5 and parts[4] == "history":
            return Reply(
                self.shell(
                    "Change history",
                    [("/registry/", "Home")],
                    "<p>This object doesn't have a change history.</p>",
                ),
                "trap",
            )
        return not_found()
