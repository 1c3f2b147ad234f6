"""Blind9 sites, part A: an ASP.NET site with a cookieless-session application, an
osCommerce shop, and the phpMyAdmin demo server with its documentation host."""

from __future__ import annotations

import re
from typing import ClassVar
from urllib.parse import quote

from traps.blind.kit import THEMES, Reply, Req, doc, not_found, redirect, slugs, title_of
from traps.blind.kit import words_for as wf
from traps.blind2.common import bar, esc, prose, qs, trap, ul
from traps.blind6.common import params

from .common import Pages

# ----------------------------------------------------------------------------------------
# ASP.NET (WebForms) council site. The site itself is plain (/Default.aspx, /News/...,
# /Services/..., /Help/Apply/...), but the "Apply online" application is its own IIS
# application at /Apply with <sessionState cookieless="UseUri"
# regenerateExpiredSessionId="true" timeout="..."/>: a request without a session is
# redirected (302) to /Apply/(S(<24 chars a-z0-5>))/<page>, pages link relatively so
# the session id stays in every URL, an expired or unknown id is redirected to a new
# one, and the wizard's "Save and resume later" link mints a fresh resume code per
# response. Legit look-alikes: the real help pages about applying, news pages 1 and 2.
# ----------------------------------------------------------------------------------------

_SID = "abcdefghijklmnopqrstuvwxyz012345"
_APPLY = ["Default.aspx", "Eligibility.aspx", "Step1.aspx", "Step2.aspx", "Step3.aspx"]


class AspNet(Pages):
    """ASP.NET cookieless session state: /Apply/(S(id))/ in the path, fresh per session."""

    name = "aspnet"
    kind = "ASP.NET cookieless sessions: /Apply/(S(id))/ minted per visit, expiring, resume codes"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/Default.aspx")]
    robots_disallow: ClassVar[list[str]] = ["/Account/", "/Admin/", "/WebResource.axd"]

    def setup(self) -> None:
        self.v = wf("gov")
        self.sessions: dict[str, int] = {}
        self.services = [
            title_of(s).replace(" ", "") for s in slugs(self.key("sv"), 6, THEMES["gov"], 2)
        ]
        self.topics = ["Eligibility", "Documents", "Fees", "Deadlines", "Appeals", "Accessibility"]
        self.add("home", "/Default.aspx", lambda r: self.page("Welcome", "home"))
        self.add("about", "/About.aspx", lambda r: self.page("About the council", "about"))
        self.add("contact", "/Contact.aspx", lambda r: self.page("Contact us", "contact"))
        self.add("news", "/News/Default.aspx", lambda r: self.news(1))
        self.add("news2", "/News/Default.aspx?page=2", lambda r: self.news(2))
        for i in range(1, 11):
            self.add(f"art{i}", f"/News/Article.aspx?id={i}", lambda r, i=i: self.article(i))
        for s in self.services:
            self.add(f"sv{s}", f"/Services/{s}.aspx", lambda r, s=s: self.page(s, f"sv{s}"))
        for t in self.topics:
            self.add(f"h{t}", f"/Help/Apply/{t}.aspx", lambda r, t=t: self.help(t))

    def chrome(self, title: str, body: str) -> str:
        nav = bar(
            [
                ("/Default.aspx", "Home"),
                ("/News/Default.aspx", "News"),
                ("/About.aspx", "About"),
                ("/Contact.aspx", "Contact"),
                ("/Apply/Default.aspx", "Apply online"),
                ("/Account/Login.aspx", "Sign in"),
            ]
        )
        side = ul([(f"/Services/{s}.aspx", s) for s in self.services])
        side += ul([(f"/Help/Apply/{t}.aspx", f"Applying: {t}") for t in self.topics])
        return doc(f"{title} - Riverside Council", f"<div>{nav}</div><main>{body}</main>{side}")

    def page(self, title: str, key: str) -> str:
        return self.chrome(title, f"<h1>{esc(title)}</h1>{prose(self, key, self.v)}")

    def news(self, n: int) -> str:
        ids = range(1, 7) if n == 1 else range(7, 11)
        items = ul([(f"/News/Article.aspx?id={i}", f"Council notice {i}") for i in ids])
        pager = (
            '<a href="/News/Default.aspx?page=2">Next page</a>'
            if n == 1
            else '<a href="/News/Default.aspx">Previous page</a>'
        )
        return self.chrome(f"News page {n}", f"<h1>News</h1>{items}{pager}")

    def article(self, i: int) -> str:
        return self.chrome(f"Council notice {i}", prose(self, f"art{i}", self.v))

    def help(self, t: str) -> str:
        body = f"<h1>Applying: {t}</h1>{prose(self, 'h' + t, self.v)}"
        body += '<p><a href="/Apply/Default.aspx">Start your application</a></p>'
        return self.chrome(f"Applying: {t}", body)

    def rest(self, req: Req) -> Reply:
        if req.path == "/":
            return redirect("/Default.aspx")
        m = re.match(r"^/Apply(?:/\(S\(([a-z0-5]{24})\)\))?(/.*)?$", req.path)
        if not m:
            return not_found()
        sid, page = m.group(1), (m.group(2) or "/Default.aspx").lstrip("/") or "Default.aspx"
        if page not in [*_APPLY, "Resume.aspx"]:
            return not_found()
        with self._lock:
            used = self.sessions.get(sid or "", -1)
            alive = 0 <= used < 12
            if alive:
                self.sessions[sid or ""] = used + 1
        if not alive:  # no session, or expired/unknown: a new id (regenerateExpiredSessionId)
            new = self.fresh(24, _SID)
            with self._lock:
                self.sessions[new] = 0
            q = f"?{req.query}" if req.query else ""
            return redirect(f"/Apply/(S({new}))/{page}{q}")
        links = [(p, title_of(p[:-5])) for p in _APPLY]
        links.append(
            (
                f"Resume.aspx?code={self.fresh(10, '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ')}",
                "Save and resume later",
            )
        )
        links.append(("/Default.aspx", "Council home"))
        body = f"<h1>Apply online: {esc(page[:-5])}</h1>"
        body += prose(self, "apply" + page, self.v, 60, 90) + ul(links)
        return trap(doc(f"Apply online - {page}", body))


# ----------------------------------------------------------------------------------------
# osCommerce 2.3 shop under /catalog/ with a static guide site at /. osCommerce starts a
# session on every catalogue request and, for a client without the session cookie,
# tep_href_link() appends osCsid=<32 hex> to every link: a cookieless visitor gets a
# fresh osCsid on each plain request, and the id is then carried in every link (sorting
# `sort=2a|2d|3a|3d|4a|4d`, `page=`, reviews, tell_a_friend, new products, specials).
# The static guides link categories and products with plain URLs.
# robots.txt: the shop's own (osCommerce ships none): cart, account and checkout scripts.
# ----------------------------------------------------------------------------------------


class OsCommerce(Pages):
    """osCommerce 2.3: osCsid= minted per cookieless request and carried in every link."""

    name = "oscommerce"
    kind = "osCommerce 2.3: osCsid session id minted per response, carried in links; sort/page"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = [
        "/catalog/shopping_cart.php",
        "/catalog/login.php",
        "/catalog/account.php",
        "/catalog/create_account.php",
        "/catalog/checkout_shipping.php",
        "/catalog/admin/",
    ]

    def setup(self) -> None:
        self.v = wf("shop")
        names = slugs(self.key("cat"), 9, THEMES["shop"] + THEMES["travel"], 1)
        self.cats = {str(i + 1): title_of(names[i]) for i in range(3)}
        self.subs = {f"{(i // 2) + 1}_{i + 4}": title_of(names[i + 3]) for i in range(6)}
        pn = slugs(self.key("pr"), 16, self.v, 2)
        subk = list(self.subs)
        self.prods = {20 + i: (title_of(pn[i]), subk[i % 6]) for i in range(16)}
        self.add("home", "/", lambda r: self.home())
        gs = slugs(self.key("gd"), 6, THEMES["travel"], 2)
        self.guides = gs
        for k, g in enumerate(gs):
            self.add(f"g{g}", f"/guides/{g}.html", lambda r, k=k, g=g: self.guide(k, g))
        self.add("front", "/catalog/index.php", lambda r: self.cat_page(r, ""))
        for c in [*self.cats, *self.subs]:
            self.add(f"c{c}", f"/catalog/index.php?cPath={c}", lambda r, c=c: self.cat_page(r, c))
        for p in self.prods:
            self.add(
                f"p{p}",
                f"/catalog/product_info.php?products_id={p}",
                lambda r, p=p: self.prod(r, p),
            )

    def home(self) -> str:
        body = "<h1>Fell &amp; Fjord Outfitters</h1>" + prose(self, "home", self.v)
        body += "<h2>Shop by category</h2>" + ul(
            [("/catalog/index.php", "Catalogue home")]
            + [(f"/catalog/index.php?cPath={c}", n) for c, n in {**self.cats, **self.subs}.items()]
        )
        body += "<h2>Guides</h2>" + ul([(f"/guides/{g}.html", title_of(g)) for g in self.guides])
        return doc("Fell & Fjord Outfitters", body)

    def guide(self, k: int, g: str) -> str:
        mine = [p for i, p in enumerate(self.prods) if i % 6 == k or i // 3 == k]
        links = [(f"/catalog/product_info.php?products_id={p}", self.prods[p][0]) for p in mine]
        body = f"<h1>{title_of(g)}</h1>{prose(self, 'g' + g, self.v)}" + ul(links)
        return doc(title_of(g), body + '<a href="/">Home</a>')

    def link(self, script: str, sid: str, **kv: str) -> str:
        q = "&".join(f"{k}={v}" for k, v in kv.items())
        return f"/catalog/{script}?{q + '&' if q else ''}osCsid={sid}"

    def box(self, sid: str) -> str:
        L = self.link
        head = bar(
            [
                (L("index.php", sid), "Top"),
                (L("shopping_cart.php", sid), "Cart Contents"),
                (L("login.php", sid), "Log In"),
                (L("products_new.php", sid), "What's New?"),
                (L("specials.php", sid), "Specials"),
                (L("reviews.php", sid), "Reviews"),
            ]
        )
        cats = ul(
            [(L("index.php", sid, cPath=c), n) for c, n in {**self.cats, **self.subs}.items()]
        )
        return f"<div>{head}</div><div class='infoBox'>{cats}</div>"

    def sid(self, req: Req) -> str:
        got = qs(req.query).get("osCsid", "")
        return got if re.fullmatch(r"[0-9a-f]{32}", got) else self.fresh(32)

    def cat_page(self, req: Req, c: str) -> str:
        sid = self.sid(req)
        q = qs(req.query)
        if c in self.cats:
            kids = [(k, n) for k, n in self.subs.items() if k.startswith(c + "_")]
            main = ul([(self.link("index.php", sid, cPath=k), n) for k, n in kids])
            title = self.cats[c]
        elif c in self.subs:
            items = [p for p, (_, s) in self.prods.items() if s == c]
            sorts = [f"{col}{d}" for col in "234" for d in "ad"]
            main = bar([(self.link("index.php", sid, cPath=c, sort=s), f"sort {s}") for s in sorts])
            page = int(q.get("page", "1") or 1) if q.get("page", "1").isdigit() else 1
            main += ul(
                [
                    (self.link("product_info.php", sid, products_id=str(p)), self.prods[p][0])
                    for p in items
                ]
            )
            if len(items) > 2 or "sort" in q:
                main += bar(
                    [
                        (
                            self.link(
                                "index.php", sid, cPath=c, sort=q.get("sort", "2a"), page=str(n)
                            ),
                            str(n),
                        )
                        for n in (page, page + 1)
                    ]
                )
            title = self.subs[c]
        else:
            main, title = prose(self, "front", self.v, 60, 90), "Welcome to Fell & Fjord"
        text = prose(self, "cat" + c, self.v, 50, 80) if c else ""
        return doc(f"{title} - Fell & Fjord", self.box(sid) + f"<h1>{esc(title)}</h1>{text}{main}")

    def prod(self, req: Req, p: int) -> str:
        sid = self.sid(req)
        name, sub = self.prods[p]
        L = self.link
        acts = ul(
            [
                (L("product_reviews.php", sid, products_id=str(p)), "Reviews"),
                (L("tell_a_friend.php", sid, products_id=str(p)), "Tell a friend"),
                (L("index.php", sid, cPath=sub), "Back to " + self.subs[sub]),
                (
                    L("shopping_cart.php", sid, products_id=str(p), action="add_product"),
                    "Add to Cart",
                ),
            ]
        )
        body = self.box(sid) + f"<h1>{esc(name)}</h1>{prose(self, f'p{p}', self.v)}{acts}"
        return doc(f"{name} - Fell & Fjord", body)

    def rest(self, req: Req) -> Reply:
        m = re.match(r"^/catalog/([a-z_]+\.php)$", req.path)
        if not m:
            return not_found()
        script, q = m.group(1), qs(req.query)
        if script == "index.php":
            c = q.get("cPath", "")
            if c and c not in self.cats and c not in self.subs:
                return not_found()
            return trap(self.cat_page(req, c))
        if script in ("product_info.php", "product_reviews.php", "tell_a_friend.php"):
            p = int(q["products_id"]) if q.get("products_id", "").isdigit() else 0
            if p not in self.prods:
                return not_found()
            if script == "product_info.php":
                return trap(self.prod(req, p))
            sid = self.sid(req)
            body = self.box(sid) + f"<h1>{script[:-4]}: {esc(self.prods[p][0])}</h1>"
            body += (
                f'<a href="{self.link("product_info.php", sid, products_id=str(p))}">Product</a>'
            )
            return trap(doc(script, body))
        if script in ("products_new.php", "specials.php", "reviews.php"):
            sid = self.sid(req)
            n = int(q.get("page", "1")) if q.get("page", "1").isdigit() else 1
            ps = list(self.prods)[(n * 5) % 16 :][:5]
            body = self.box(sid) + ul(
                [
                    (self.link("product_info.php", sid, products_id=str(p)), self.prods[p][0])
                    for p in ps
                ]
            )
            body += f'<a href="{self.link(script, sid, page=str(n + 1))}">[Next &gt;&gt;]</a>'
            return trap(doc(script, body))
        return not_found()


# ----------------------------------------------------------------------------------------
# The phpMyAdmin demo server (demo.phpmyadmin.net style) and the documentation host
# (docs.phpmyadmin.net, on Read the Docs). The demo's landing page lists branch
# instances (/master/, /QA_5_2/, /QA_4_9/), each phpMyAdmin with config auth (no login).
# phpMyAdmin puts the CSRF `token=` (per session) into every link, and a cookieless
# client gets a new session, so a new token, on every request. 5.x links are
# `index.php?route=/database/structure&db=...&token=`, 4.9 links are
# `db_structure.php?db=...&token=`; browse pages page by `pos=` and sort by a
# `sql_query=... ORDER BY ...`; documentation links go through `url.php?url=` (302 to
# the docs host); 4.9 also links its bundled copy `./doc/html/` (a copy of the docs).
# Docs host: `/en/latest/` and the older `/en/4.9/` (real, distinct), `/en/stable/`
# (an alias of latest: copies) and `_sources/*.rst.txt`. robots.txt: the demo server's
# own (setup scripts); the docs host's is Read the Docs' default (allows everything).
# phpMyAdmin's own robots.txt (Disallow: /) sits in each instance directory, not at the
# root, so it does not apply.
# ----------------------------------------------------------------------------------------

_DOCS = [
    "intro",
    "require",
    "setup",
    "config",
    "user",
    "faq",
    "developers",
    "security",
    "vendors",
    "copyright",
    "credits",
    "glossary",
    "settings",
    "import_export",
    "themes",
    "bookmarks",
]
_OLD_DOCS = ["intro", "require", "setup", "config", "faq", "security", "transformations"]
_TABLES = {"world": ["city", "country", "countrylanguage"], "sakila": ["actor", "film", "rental"]}
_INST = {"master": "6.0.0-dev", "QA_5_2": "5.2.3-dev", "QA_4_9": "4.9.12-dev"}


class PhpMyAdmin(Pages):
    """phpMyAdmin demo: CSRF token= fresh per cookieless request; docs copies and a docs host."""

    name = "phpmyadmin"
    kind = "phpMyAdmin demo: token= per response in every link, route=/pos=/ORDER BY; docs host"
    hosts = 2
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/"), (1, "/en/latest/")]
    robots_disallow: ClassVar[list[str]] = ["/master/setup/", "/QA_5_2/setup/", "/QA_4_9/setup/"]

    def robots_txt(self, req: Req) -> str:
        if req.host_index == 1:
            return "User-agent: *\nDisallow: # Allow everything\n"
        return super().robots_txt(req)

    def setup(self) -> None:
        self.v = wf("docs")
        self.add("land", "/", lambda r: self.landing())
        for inst in _INST:
            self.add(f"i{inst}", f"/{inst}/", lambda r, i=inst: self.main(i, r), 0)
        self.add("dl", "/en/latest/", lambda r: self.docpage("latest", "index"), 1)
        for d in _DOCS:
            self.add(f"dl{d}", f"/en/latest/{d}.html", lambda r, d=d: self.docpage("latest", d), 1)
        self.add(
            "dlgen", "/en/latest/genindex.html", lambda r: self.docpage("latest", "genindex"), 1
        )
        self.add("d49", "/en/4.9/", lambda r: self.docpage("4.9", "index"), 1)
        for d in _OLD_DOCS:
            self.add(f"d49{d}", f"/en/4.9/{d}.html", lambda r, d=d: self.docpage("4.9", d), 1)

    def landing(self) -> str:
        items = [(f"/{i}/", f"phpMyAdmin {v} ({i})") for i, v in _INST.items()]
        items.append((self.url(1, "/en/latest/"), "Documentation"))
        body = "<h1>phpMyAdmin demo server</h1>" + prose(self, "land", self.v) + ul(items)
        return doc("phpMyAdmin demo server", body)

    def docpage(self, ver: str, d: str) -> str:
        names = _DOCS if ver != "4.9" else _OLD_DOCS
        toc = ul([(f"{x}.html", title_of(x)) for x in names])
        foot = bar(
            [
                ("index.html" if d != "index" else "./", "Contents"),
                ("genindex.html", "Index"),
                (f"_sources/{d}.rst.txt", "Show Source"),
                ("/en/latest/", "latest"),
                ("/en/stable/", "stable"),
                ("/en/4.9/", "4.9"),
            ]
        )
        body = f"<h1>{title_of(d)} — phpMyAdmin {ver} documentation</h1>"
        body += prose(self, f"doc{ver}{d}", self.v) + toc + foot
        return doc(f"{title_of(d)} — phpMyAdmin {ver} documentation", body)

    def links(self, inst: str, tok: str, db: str = "", table: str = "") -> list[tuple[str, str]]:
        new = inst != "QA_4_9"

        def u(route: str, old: str, **kv: str) -> str:
            q = "".join(f"&{k}={quote(v, safe='')}" for k, v in kv.items())
            if new:
                return f"index.php?route={route}{q}&token={tok}"
            return f"{old}?{q.lstrip('&')}{'&' if q else ''}token={tok}"

        out = [
            (u("/server/databases", "server_databases.php"), "Databases"),
            (u("/server/status", "server_status.php"), "Status"),
            (u("/server/variables", "server_variables.php"), "Variables"),
        ]
        out += [(u("/database/structure", "db_structure.php", db=d), d) for d in _TABLES]
        if db:
            for t in _TABLES[db]:
                out.append((u("/table/structure", "tbl_structure.php", db=db, table=t), t))
                out.append((u("/sql", "sql.php", db=db, table=t, pos="0"), f"Browse {t}"))
        if table:
            for col in ("ID", "Name", "Code"):
                sq = f"SELECT * FROM `{table}` ORDER BY `{col}` ASC"
                out.append((u("/sql", "sql.php", db=db, table=table, sql_query=sq), f"sort {col}"))
        doc_url = self.url(1, "/en/latest/config.html")
        out.append((f"url.php?url={quote(doc_url, safe='')}", "Documentation"))
        if not new:
            out.append(("./doc/html/index.html", "phpMyAdmin documentation (local)"))
        return out

    def main(self, inst: str, req: Req) -> str:
        tok = self.fresh(32)
        body = f"<h1>phpMyAdmin {_INST[inst]}</h1>" + prose(self, "main" + inst, self.v, 60, 100)
        return doc(f"{inst} / phpMyAdmin {_INST[inst]}", body + ul(self.links(inst, tok)))

    def rest(self, req: Req) -> Reply:
        if req.host_index == 1:
            return self.docs_rest(req)
        m = re.match(r"^/(master|QA_5_2|QA_4_9)/(.*)$", req.path)
        if not m:
            return not_found()
        inst, script = m.groups()
        q = params(req.query)
        if script == "url.php":
            url = q.get("url", "")
            return redirect(url) if url.startswith(self.bases[1]) else not_found()
        if script.startswith("doc/html/"):
            d = script[9:].removesuffix(".html")
            if d not in [*_DOCS, "index", "genindex"]:
                return not_found()
            return trap(self.docpage("latest", d))
        if script not in (
            "",
            "index.php",
            "server_databases.php",
            "server_status.php",
            "server_variables.php",
            "db_structure.php",
            "tbl_structure.php",
            "sql.php",
        ):
            return not_found()
        db = q.get("db", "") if q.get("db", "") in _TABLES else ""
        table = q.get("table", "") if db and q.get("table", "") in _TABLES[db] else ""
        what = q.get("route", script or "index.php")
        tok = self.fresh(32)
        pos = int(q.get("pos", "0")) if q.get("pos", "0").isdigit() else 0
        body = f"<h1>{esc(what)} {esc(db)} {esc(table)}</h1>"
        links = self.links(inst, tok, db, table)
        if table and ("sql" in what or "sql_query" in q):
            body += f"<p>Showing rows {pos} - {pos + 24}</p>"
            body += '<a href="{}">&gt;</a>'.format(
                esc(
                    (
                        f"index.php?route=/sql&db={db}&table={table}"
                        if inst != "QA_4_9"
                        else f"sql.php?db={db}&table={table}"
                    )
                    + f"&pos={pos + 25}&token={tok}"
                )
            )
        return trap(doc(f"{inst} / {what}", body + ul(links)))

    def docs_rest(self, req: Req) -> Reply:
        if req.path == "/":
            return redirect("/en/latest/")
        m = re.match(
            r"^/en/(latest|stable|4\.9)/(_sources/)?([a-z_]*?)(\.html|\.rst\.txt)?$", req.path
        )
        if not m:
            return not_found()
        ver, src, d, _ = m.groups()
        d = d or "index"
        names = _OLD_DOCS if ver == "4.9" else _DOCS
        if d not in [*names, "index", "genindex"]:
            return not_found()
        if src:
            rep = trap(f"{title_of(d)}\n{'=' * len(d)}\n\n.. toctree::\n")
            rep.ctype = "text/plain; charset=utf-8"
            return rep
        return trap(self.docpage("latest" if ver == "stable" else ver, d))
