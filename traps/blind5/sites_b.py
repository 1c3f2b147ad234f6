"""Blind5 sites, part B: WooCommerce, DSpace, Simple Machines Forum."""

from __future__ import annotations

from typing import ClassVar
from urllib.parse import quote_plus, unquote_plus

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

from .common import Canon

# ----------------------------------------------------------------------------------------
# WooCommerce (a Storefront-like theme, no AJAX add-to-cart). Every product tile's "Add to
# cart" button is the current URL plus `add-to-cart=<id>` (other parameters kept); the
# layered-navigation widgets ("Filter by color", "Filter by size") add or remove one
# value in `filter_color=a,b,...` in the order clicked, and the sorting links set
# `orderby=`; paging keeps all of them (`/shop/page/2/?filter_color=...`).
# Legit look-alikes: the shop and its real pages 2 and 3, the 4 category archives, the 5
# tag archives, the 24 products.
# ----------------------------------------------------------------------------------------

_WC_COLORS = ["black", "blue", "green", "grey", "red", "white"]
_WC_SIZES = ["s", "m", "l", "xl"]
_WC_ORDER = ["menu_order", "popularity", "rating", "date", "price", "price-desc"]


class WooCommerce(Canon):
    """WooCommerce: ?add-to-cart= on every URL, filter_color= lists, orderby=, paging."""

    name = "woocommerce"
    kind = "WooCommerce: ?add-to-cart= on any URL, layered-nav filter_color=a,b,.., orderby="
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = [
        "/wp-admin/",
        "/cart/",
        "/checkout/",
        "/my-account/",
        "/*add-to-cart=*",
    ]
    per = 9

    def setup(self) -> None:
        self.vocab = words_for("shop")
        self.cats = ["jackets", "shirts", "bags", "hats"]
        self.tags = slugs(self.key("tags"), 5, THEMES["shop"], 1)
        names = slugs(self.key("prod"), 24, THEMES["shop"] + THEMES["travel"], 2)
        rng = self.rng("attrs")
        self.prods = []
        for i, n in enumerate(names):
            self.prods.append(
                {
                    "id": 301 + i * 7,
                    "slug": n,
                    "cat": self.cats[i % 4],
                    "tags": sorted(rng.sample(self.tags, rng.randint(1, 2))),
                    "colors": sorted(rng.sample(_WC_COLORS, rng.randint(1, 3))),
                    "sizes": sorted(rng.sample(_WC_SIZES, rng.randint(1, 4))),
                    "price": rng.randint(12, 180),
                    "rating": rng.randint(1, 5),
                }
            )
        self.reg("home", "/")
        self.reg("shop:1", "/shop/")
        for n in (2, 3):
            self.reg(f"shop:{n}", f"/shop/page/{n}/")
        for c in self.cats:
            self.reg(f"cat:{c}", f"/product-category/{c}/")
        for t in self.tags:
            self.reg(f"tag:{t}", f"/product-tag/{t}/")
        for pr in self.prods:
            self.reg(f"p:{pr['slug']}", f"/product/{pr['slug']}/")

    def shell(self, title: str, main: str, notice: str = "") -> str:
        nav = bar(
            [
                ("/", "Home"),
                ("/shop/", "Shop"),
                *[(f"/product-category/{c}/", title_of(c)) for c in self.cats],
                ("/cart/", "Cart"),
                ("/my-account/", "My account"),
            ]
        )
        if notice:
            notice = (
                f"<div class='woocommerce-message'>{esc(notice)} {a('/cart/', 'View cart')}</div>"
            )
        body = f"<header>{nav}</header>{notice}<main><h1>{esc(title)}</h1>{main}</main>"
        body += "<footer>Storefront designed by WooCommerce.</footer>"
        return doc(f"{title} - Trailhead Outfitters", body)

    @staticmethod
    def url(path: str, params: list[tuple[str, str]]) -> str:
        return path + ("?" + "&".join(f"{k}={v}" for k, v in params) if params else "")

    def archive(self, req: Req, base: str, items: list[dict], title: str) -> Reply:
        parts = base.strip("/").split("/")
        page = 1
        path = req.path
        if "/page/" in path:
            head, _, tail = path.partition("/page/")
            if not tail.rstrip("/").isdigit():
                return not_found()
            page = int(tail.rstrip("/"))
            if page < 2:
                return redirect(head + "/")
        params = qlist(req.query)
        q = dict(params)
        if set(q) - {"filter_color", "filter_size", "orderby", "add-to-cart"}:
            return not_found()
        colors = [c for c in q.get("filter_color", "").split(",") if c]
        sizes = [s for s in q.get("filter_size", "").split(",") if s]
        if any(c not in _WC_COLORS for c in colors) or any(s not in _WC_SIZES for s in sizes):
            return not_found()
        order = q.get("orderby", "menu_order")
        if order not in _WC_ORDER:
            return not_found()
        sel = [
            p
            for p in items
            if (not colors or set(colors) & set(p["colors"]))
            and (not sizes or set(sizes) & set(p["sizes"]))
        ]
        if order == "price":
            sel.sort(key=lambda p: p["price"])
        elif order == "price-desc":
            sel.sort(key=lambda p: -p["price"])
        elif order in ("rating", "popularity"):
            sel.sort(key=lambda p: (-p["rating"], p["id"]))
        elif order == "date":
            sel.sort(key=lambda p: -p["id"])
        pages = max(1, -(-len(sel) // self.per))
        if page > pages:
            return not_found("Nothing found")
        shown = sel[(page - 1) * self.per : page * self.per]
        keep = [(k, v) for k, v in params if k != "add-to-cart"]
        here = base if page == 1 else f"{base}page/{page}/"
        tiles = []
        for p in shown:
            cart = self.url(here, [*keep, ("add-to-cart", str(p["id"]))])
            tiles.append(
                f"<li>{a('/product/' + p['slug'] + '/', title_of(p['slug']))} £{p['price']}.00 "
                f"{a(cart, 'Add to cart', rel='nofollow')}</li>"
            )

        def toggle(key: str, cur: list[str], v: str) -> str:
            new = [x for x in cur if x != v] if v in cur else [*cur, v]
            ps = [(k, x) for k, x in keep if k != key]
            if new:
                ps.append((key, ",".join(new)))
            return self.url(base, ps)

        widgets = "<h3>Filter by color</h3>" + ul(
            [
                (toggle("filter_color", colors, c), c + (" ✓" if c in colors else ""))
                for c in _WC_COLORS
            ]
        )
        widgets += "<h3>Filter by size</h3>" + ul(
            [(toggle("filter_size", sizes, s), s.upper()) for s in _WC_SIZES]
        )
        sorting = bar(
            [
                (self.url(base, [*[(k, v) for k, v in keep if k != "orderby"], ("orderby", o)]), o)
                for o in _WC_ORDER
            ]
        )
        nav = [
            (self.url(base if n == 1 else f"{base}page/{n}/", keep), str(n))
            for n in range(1, pages + 1)
            if n != page
        ]
        notice = ""
        if "add-to-cart" in q:
            hit = [p for p in self.prods if str(p["id"]) == q["add-to-cart"]]
            if not hit:
                return not_found()
            notice = f"“{title_of(hit[0]['slug'])}” has been added to your cart."
        intro = prose(self, f"arch:{base}:{page}", self.vocab, 20, 50) if not req.query else ""
        main = (
            f"{intro}<p>Sort: {sorting}</p><ul class='products'>{''.join(tiles)}</ul>"
            f"<nav>{bar(nav)}</nav><aside>{widgets}</aside>"
        )
        _ = parts
        return self.serve(req, self.shell(title, main, notice))

    def handle(self, req: Req) -> Reply:
        p = req.path
        if p == "/" and not req.query:
            links = [(f"/product-category/{c}/", title_of(c)) for c in self.cats]
            links += [(f"/product-tag/{t}/", f"#{t}") for t in self.tags]
            main = prose(self, "home", self.vocab) + ul(links) + ul([("/shop/", "Shop all")])
            return self.serve(req, self.shell("Trailhead Outfitters", main))
        if p.startswith("/shop/"):
            return self.archive(req, "/shop/", self.prods, "Shop")
        for kind, key in (("product-category", "cat"), ("product-tag", "tags")):
            if p.startswith(f"/{kind}/"):
                v = p.split("/")[2]
                items = [x for x in self.prods if (x[key] == v if key == "cat" else v in x[key])]
                if not items:
                    return not_found()
                return self.archive(req, f"/{kind}/{v}/", items, title_of(v))
        if p.startswith("/product/"):
            slug = p.split("/")[2]
            hit = [x for x in self.prods if x["slug"] == slug]
            q = qs(req.query)
            if not hit or p != f"/product/{slug}/" or set(q) - {"add-to-cart"}:
                return not_found()
            pr = hit[0]
            notice = ""
            if "add-to-cart" in q:
                if q["add-to-cart"] != str(pr["id"]):
                    return not_found()
                notice = f"“{title_of(slug)}” has been added to your cart."
            i = self.prods.index(pr)
            related = [self.prods[(i + k) % 24] for k in (1, 5, 11)]
            main = (
                f"<p class='price'>£{pr['price']}.00</p>"
                f"<p>Colours: {', '.join(pr['colors'])}; sizes: {', '.join(pr['sizes'])}</p>"
                + prose(self, f"p:{slug}", self.vocab)
                + "<p>"
                + a(f"/product/{slug}/?add-to-cart={pr['id']}", "Add to cart")
                + "</p>"
                + "<p>Category: "
                + a(f"/product-category/{pr['cat']}/", title_of(pr["cat"]))
                + " Tags: "
                + bar([(f"/product-tag/{t}/", t) for t in pr["tags"]], ", ")
                + "</p><h2>Related products</h2>"
                + ul([(f"/product/{r['slug']}/", title_of(r["slug"])) for r in related])
            )
            return self.serve(req, self.shell(title_of(slug), main, notice))
        return not_found()


# ----------------------------------------------------------------------------------------
# DSpace 6 (XMLUI). Item pages link their authors and subjects as Discovery searches;
# every Discovery result page's sidebar facets add one more numbered filter
# (`filtertype_N=`, `filter_relational_operator_N=equals`, `filter_N=`), in the order
# clicked, and link `sort_by=`/`order=`/`rpp=` variants; results link the items.
# Legit look-alikes: the communities and collections, the 28 items, the title browse and
# its real second page (`offset=20`), the subject index and each subject's browse page.
# ----------------------------------------------------------------------------------------

_DS = "/handle/10568"


class DSpace(Canon):
    """DSpace XMLUI: Discovery filters stacking filtertype_N/filter_N, sort/rpp options."""

    name = "dspace"
    kind = "DSpace XMLUI: /discover filters stacking as filtertype_N=&filter_N=, sort_by=, rpp="
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = [
        "/statistics",
        "/feedback",
        "/login",
        "/password-login",
        "/bitstream/",
    ]

    def setup(self) -> None:
        self.vocab = words_for("science")
        rng = self.rng("items")
        self.subjects = [title_of(s) for s in slugs(self.key("subj"), 6, THEMES["science"], 2)]
        first = ["Anna", "Bruno", "Chidi", "Dana", "Emil", "Farah", "Goran", "Hana", "Ivo"]
        last = ["Kowalski", "Lindqvist", "Moreau", "Nakamura", "Okafor", "Petrov", "Quinn"]
        self.authors = sorted({f"{rng.choice(last)}, {rng.choice(first)}" for _ in range(12)})
        titles = slugs(self.key("titles"), 28, self.vocab, 5)
        self.items = []
        for k in range(28):
            self.items.append(
                {
                    "h": 40 + k * 3,
                    "title": title_of(titles[k]).capitalize(),
                    "authors": sorted(rng.sample(self.authors, rng.randint(1, 3))),
                    "subjects": sorted(rng.sample(self.subjects, rng.randint(1, 2))),
                    "year": rng.randint(2009, 2026),
                    "coll": 2 + k % 2,
                }
            )
        self.reg("home", "/")
        self.reg("community", f"{_DS}/1")
        for c in (2, 3):
            self.reg(f"coll:{c}", f"{_DS}/{c}")
        for it in self.items:
            self.reg(f"item:{it['h']}", f"{_DS}/{it['h']}")
        self.reg("browse:title", "/browse?type=title")
        self.reg("browse:title:2", "/browse?type=title&offset=20")
        self.reg("browse:subject", "/browse?type=subject")
        for s in self.subjects:
            self.reg(f"subj:{s}", f"/browse?type=subject&value={quote_plus(s)}")

    def shell(self, title: str, main: str) -> str:
        side = ul(
            [
                ("/", "DSpace Home"),
                ("/browse?type=title", "Titles"),
                ("/browse?type=subject", "Subjects"),
                ("/login", "Login"),
                ("/feedback", "Send Feedback"),
            ]
        )
        body = (
            f"<div id='ds-body'><h1>{esc(title)}</h1>{main}</div><div id='ds-options'>{side}</div>"
        )
        body += "<div id='ds-footer'>DSpace software copyright © 2002-2016 DuraSpace</div>"
        return doc(f"{title} | Riverbend Scholar", body)

    def disc(self, filters: list[tuple[str, str]], extra: str = "") -> str:
        parts = []
        for n, (t, v) in enumerate(filters, 1):
            parts.append(
                f"filtertype_{n}={t}&filter_relational_operator_{n}=equals&filter_{n}={quote_plus(v)}"
            )
        return (
            "/discover?" + "&".join([*parts, *([extra] if extra else [])])
            if parts or extra
            else "/discover"
        )

    def discover(self, req: Req) -> Reply:
        q = qs(req.query)
        filters: list[tuple[str, str]] = []
        n = 1
        while f"filtertype_{n}" in q:
            t, v = q[f"filtertype_{n}"], q.get(f"filter_{n}", "")
            if t not in ("author", "subject", "dateIssued") or not v:
                return not_found()
            filters.append((t, v))
            n += 1
        other = {k: v for k, v in q.items() if not k.startswith(("filtertype_", "filter_"))}
        if set(other) - {"sort_by", "order", "rpp", "page"}:
            return not_found()
        hits = [
            it
            for it in self.items
            if all(
                (
                    v in it["authors"]
                    if t == "author"
                    else v in it["subjects"]
                    if t == "subject"
                    else str(it["year"]) == v
                )
                for t, v in filters
            )
        ]
        rpp = int(other.get("rpp", "10")) if other.get("rpp", "10").isdigit() else 0
        if rpp not in (5, 10, 20, 40, 60, 80, 100):
            return not_found()
        page = int(other.get("page", "1")) if other.get("page", "1").isdigit() else 0
        if page < 1:
            return not_found()
        if other.get("sort_by") == "dc.date.issued_dt":
            hits.sort(key=lambda it: it["year"], reverse=other.get("order", "desc") == "desc")
        elif other.get("sort_by") == "dc.title_sort":
            hits.sort(key=lambda it: it["title"], reverse=other.get("order") == "desc")
        shown = hits[(page - 1) * rpp : page * rpp]
        keep = "&".join(f"{k}={v}" for k, v in other.items() if k != "page")
        rows = ul([(f"{_DS}/{it['h']}", it["title"]) for it in shown])
        facets = ""
        for t, vals in (
            ("author", self.authors),
            ("subject", self.subjects),
            ("dateIssued", sorted({str(it["year"]) for it in hits})),
        ):
            cnt = [
                (
                    v,
                    sum(
                        1 for it in hits if v in it["authors"] + it["subjects"] + [str(it["year"])]
                    ),
                )
                for v in vals
                if (t, v) not in filters
            ]
            facets += f"<h3>{t}</h3>" + ul(
                [(self.disc([*filters, (t, v)], keep), f"{v} ({c})") for v, c in cnt if c]
            )
        opts = []
        for sb in ("score", "dc.title_sort", "dc.date.issued_dt"):
            for od in ("asc", "desc"):
                opts.append(
                    (self.disc(filters, f"sort_by={sb}&order={od}&rpp={rpp}"), f"{sb} {od}")
                )
        opts += [(self.disc(filters, f"rpp={r}"), f"{r} per page") for r in (5, 20, 40)]
        if page * rpp < len(hits):
            opts.append(
                (
                    self.disc(filters, "&".join(x for x in (keep, f"page={page + 1}") if x)),
                    "Next Page",
                )
            )
        main = f"<p>Now showing items 1-{len(shown)} of {len(hits)}</p>{rows}"
        main += f"<p>{bar(opts)}</p>{facets}"
        return self.serve(req, self.shell("Search", main))

    def browse(self, req: Req) -> Reply:
        q = qs(req.query)
        t = q.get("type")
        if t == "title" and set(q) <= {"type", "offset"}:
            off = int(q.get("offset", "0")) if q.get("offset", "0").isdigit() else -1
            items = sorted(self.items, key=lambda it: it["title"])
            if off not in (0, 20):
                return not_found()
            links = [(f"{_DS}/{it['h']}", it["title"]) for it in items[off : off + 20]]
            nav = (
                [("/browse?type=title&offset=20", "Next Page")]
                if off == 0
                else [("/browse?type=title", "Previous Page")]
            )
            main = prose(self, f"bt{off}", self.vocab, 15, 30) + ul(links) + f"<p>{bar(nav)}</p>"
            return self.serve(req, self.shell("Browsing by Title", main))
        if t == "subject" and set(q) <= {"type", "value"}:
            if "value" not in q:
                links = [(f"/browse?type=subject&value={quote_plus(s)}", s) for s in self.subjects]
                return self.serve(req, self.shell("Browsing by Subject", ul(links)))
            v = q["value"]
            if v not in self.subjects:
                return not_found()
            links = [(f"{_DS}/{it['h']}", it["title"]) for it in self.items if v in it["subjects"]]
            main = prose(self, f"subj:{v}", self.vocab, 20, 50) + ul(links)
            return self.serve(req, self.shell(f"Browsing by Subject {v}", main))
        return not_found()

    def handle(self, req: Req) -> Reply:
        p = req.path
        if p == "/" and not req.query:
            main = prose(self, "home", self.vocab) + ul(
                [(f"{_DS}/1", "Faculty of Natural Sciences")]
            )
            return self.serve(req, self.shell("Riverbend Scholar", main))
        if p == "/discover":
            return self.discover(req)
        if p == "/browse":
            return self.browse(req)
        if p.startswith(f"{_DS}/") and p[len(_DS) + 1 :].isdigit() and not req.query:
            h = int(p[len(_DS) + 1 :])
            if h == 1:
                main = prose(self, "comm", self.vocab) + ul(
                    [(f"{_DS}/2", "Theses"), (f"{_DS}/3", "Articles")]
                )
                return self.serve(req, self.shell("Faculty of Natural Sciences", main))
            if h in (2, 3):
                links = [(f"{_DS}/{it['h']}", it["title"]) for it in self.items if it["coll"] == h]
                main = prose(self, f"coll{h}", self.vocab, 30, 80) + ul(links)
                return self.serve(req, self.shell("Theses" if h == 2 else "Articles", main))
            hit = [it for it in self.items if it["h"] == h]
            if not hit:
                return not_found()
            it = hit[0]
            auth = bar([(self.disc([("author", x)]), x) for x in it["authors"]], "; ")
            subj = bar([(self.disc([("subject", x)]), x) for x in it["subjects"]], "; ")
            main = (
                f"<p>Authors: {auth}</p><p>Date: {it['year']}</p><p>Subjects: {subj}</p>"
                + prose(self, f"item:{h}", self.vocab)
                + f"<p>{a(f'/bitstream/handle/10568/{h}/thesis.pdf', 'View/Open')}</p>"
                + f"<p>{a(_DS + '/' + str(it['coll']), 'Collection')}</p>"
            )
            return self.serve(req, self.shell(it["title"], main))
        return not_found()


# ----------------------------------------------------------------------------------------
# Simple Machines Forum 2.0. Topic and board addresses carry their start offset
# (`topic=12.15`, `board=3.20`); every post header links `topic=12.msg345#msg345`, which
# serves the page holding that post; topics link `prev_next=prev|next` (the neighbouring
# topic, served in place) and `action=printpage`; the WAP2 and i-mode links switch to
# `;wap2`/`;imode`, which is then carried into every link; boards sort by six columns
# (`sort=subject;desc`), kept in their paging.
# Legit look-alikes: the index, the boards and a board's real second page, each topic's
# first page and the real second pages of long topics, the member profiles.
# ----------------------------------------------------------------------------------------

_SMF_PER = 10
_SMF_BOARD_PER = 6
_SMF_SORTS = ["subject", "starter", "last_poster", "replies", "views", "first_post"]


class SMF(Canon):
    """Simple Machines Forum: .msgN permalinks, prev_next, ;wap2/;imode, board sorts."""

    name = "smf"
    kind = "SMF: topic=T.msgN permalinks, prev_next=, ;wap2/;imode carried, board sort=;desc"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/index.php")]
    robots_disallow: ClassVar[list[str]] = [
        "/index.php?action=login",
        "/index.php?action=register",
        "/index.php?action=search",
        "/attachments/",
    ]

    def setup(self) -> None:
        self.vocab = words_for("forum")
        rng = self.rng("forum")
        self.boards = {1: "General Discussion", 2: "Hardware Hacking", 3: "Firmware"}
        self.members = {
            u: n
            for u, n in zip(
                [2, 5, 8, 11, 14, 17],
                ["solderjoe", "vcc_kate", "mx_ana", "bitbanger", "petra.k", "dmitri"],
                strict=True,
            )
        }
        titles = slugs(self.key("topics"), 24, self.vocab, 4)
        self.topics = []
        mid = 1000
        for k in range(24):
            n = rng.choice([3, 4, 6, 8, 9, 13, 17]) if k % 5 else rng.choice([12, 14, 16])
            posts = []
            for _ in range(n):
                mid += rng.randint(1, 4)
                posts.append((mid, rng.choice(list(self.members))))
            self.topics.append(
                {
                    "id": 40 + k,
                    "board": 1 + k % 3,
                    "title": title_of(titles[k]).capitalize(),
                    "posts": posts,
                    "views": rng.randint(30, 4000),
                }
            )
        self.reg("index", "/index.php")
        for b in self.boards:
            self.reg(f"board:{b}", f"/index.php?board={b}.0")
            self.reg(f"board:{b}:2", f"/index.php?board={b}.{_SMF_BOARD_PER}")
        for t in self.topics:
            for start in range(0, len(t["posts"]), _SMF_PER):
                self.reg(f"topic:{t['id']}.{start}", f"/index.php?topic={t['id']}.{start}")
        for u in self.members:
            self.reg(f"user:{u}", f"/index.php?action=profile;u={u}")

    def link(self, q: str, mode: str) -> str:
        return f"/index.php?{q}" + (f";{mode}" if mode else "")

    def shell(self, title: str, main: str, mode: str) -> str:
        nav = bar(
            [
                (self.link("", mode).replace("?;", "?") if mode else "/index.php", "Home"),
                ("/index.php?action=search", "Search"),
                ("/index.php?action=login", "Login"),
                ("/index.php?action=register", "Register"),
            ]
        )
        modes = bar([(self.link("", m).replace("?;", "?"), m.upper()) for m in ("wap2", "imode")])
        if mode:
            body = f"<p>{esc(title)}</p>{main}<p>{modes}</p>"
            return doc(title, body)
        body = f"<div id='header'>{nav}</div><h2>{esc(title)}</h2>{main}"
        body += f"<div id='footer'>Powered by SMF 2.0.19 | {modes}</div>"
        return doc(f"{title} - Makers Bench", body)

    def parse(self, query: str) -> tuple[dict[str, str], str] | None:
        out: dict[str, str] = {}
        mode = ""
        for part in query.split(";"):
            if not part:
                continue
            if part in ("wap2", "imode", "all", "desc"):
                if part in ("wap2", "imode"):
                    mode = part
                else:
                    out[part] = "1"
                continue
            k, eq, v = part.partition("=")
            if not eq or "&" in v:
                return None
            out[k] = unquote_plus(v)
        return out, mode

    def handle(self, req: Req) -> Reply:
        if req.path != "/index.php":
            return not_found()
        got = self.parse(req.query)
        if got is None:
            return not_found()
        q, mode = got
        if not q:
            links = [(self.link(f"board={b}.0", mode), n) for b, n in self.boards.items()]
            main = (prose(self, "index", self.vocab, 40, 90) if not mode else "") + ul(links)
            return self.serve(req, self.shell("Makers Bench - Index", main, mode))
        if q.get("action") == "profile" and set(q) == {"action", "u"}:
            u = int(q["u"]) if q["u"].isdigit() else 0
            if u not in self.members:
                return not_found()
            mine = [t for t in self.topics if t["posts"][0][1] == u]
            main = prose(self, f"user:{u}", self.vocab, 30, 80)
            main += ul([(self.link(f"topic={t['id']}.0", mode), t["title"]) for t in mine])
            return self.serve(req, self.shell(f"View the profile of {self.members[u]}", main, mode))
        if q.get("action") == "printpage" and set(q) == {"action", "topic"}:
            tid = q["topic"].split(".")[0]
            t = next((t for t in self.topics if str(t["id"]) == tid), None)
            if t is None:
                return not_found()
            main = "".join(prose(self, f"post:{m}", self.vocab, 30, 90) for m, _ in t["posts"])
            return self.serve(req, doc(f"Print Page - {t['title']}", main))
        if "board" in q and set(q) <= {"board", "sort", "desc"}:
            b, _, s = q["board"].partition(".")
            if not b.isdigit() or int(b) not in self.boards or not s.isdigit():
                return not_found()
            sort = q.get("sort", "last_post")
            if sort not in [*_SMF_SORTS, "last_post"]:
                return not_found()
            ts = [t for t in self.topics if t["board"] == int(b)]
            key = {
                "subject": lambda t: t["title"],
                "starter": lambda t: self.members[t["posts"][0][1]],
                "last_poster": lambda t: self.members[t["posts"][-1][1]],
                "replies": lambda t: len(t["posts"]),
                "views": lambda t: t["views"],
                "first_post": lambda t: t["posts"][0][0],
                "last_post": lambda t: -t["posts"][-1][0],
            }[sort]
            ts.sort(key=key, reverse="desc" in q)
            start = int(s)
            if start >= len(ts) or start % _SMF_BOARD_PER:
                return not_found()
            sq = "" if "sort" not in q else f";sort={sort}" + (";desc" if "desc" in q else "")
            heads = bar(
                [
                    (
                        self.link(
                            f"board={b}.{start};sort={c}"
                            + (";desc" if c == sort and "desc" not in q else ""),
                            mode,
                        ),
                        c,
                    )
                    for c in _SMF_SORTS
                ]
            )
            rows = ul(
                [
                    (self.link(f"topic={t['id']}.0", mode), t["title"])
                    for t in ts[start : start + _SMF_BOARD_PER]
                ]
            )
            pages = [
                (self.link(f"board={b}.{o}{sq}", mode), str(o // _SMF_BOARD_PER + 1))
                for o in range(0, len(ts), _SMF_BOARD_PER)
                if o != start
            ]
            intro = (
                prose(self, f"board:{b}:{start}", self.vocab, 20, 40) if not sq and not mode else ""
            )
            main = f"{intro}<p>{heads}</p>{rows}<p>Pages: {bar(pages, ' ')}</p>"
            return self.serve(req, self.shell(self.boards[int(b)], main, mode))
        if "topic" in q and set(q) <= {"topic", "prev_next", "all"}:
            tid, _, s = q["topic"].partition(".")
            idx = next((i for i, t in enumerate(self.topics) if str(t["id"]) == tid), None)
            if idx is None:
                return not_found()
            if "prev_next" in q:
                if q["prev_next"] not in ("prev", "next"):
                    return not_found()
                same = [
                    i for i, t in enumerate(self.topics) if t["board"] == self.topics[idx]["board"]
                ]
                pos = same.index(idx) + (1 if q["prev_next"] == "next" else -1)
                if not 0 <= pos < len(same):
                    return not_found("There are no more topics.")
                idx, s = same[pos], "0"
            t = self.topics[idx]
            posts = t["posts"]
            if s.startswith("msg") and s[3:].isdigit():
                ids = [m for m, _ in posts]
                if int(s[3:]) not in ids:
                    return not_found()
                start = ids.index(int(s[3:])) // _SMF_PER * _SMF_PER
            elif s.isdigit() and int(s) < len(posts):
                start = int(s)
            else:
                return not_found()
            shown = posts if "all" in q else posts[start : start + _SMF_PER]
            body = ""
            for m, u in shown:
                body += (
                    "<div class='post'><h4>"
                    + a(self.link(f"topic={t['id']}.msg{m}", mode) + f"#msg{m}", "Reply #")
                    + f" "
                    f"by {a(self.link(f'action=profile;u={u}', mode), self.members[u])}</h4>"
                    + prose(self, f"post:{m}", self.vocab, 30, 90)
                    + "</div>"
                )
            pages = [
                (self.link(f"topic={t['id']}.{o}", mode), str(o // _SMF_PER + 1))
                for o in range(0, len(posts), _SMF_PER)
                if o != start
            ]
            if len(posts) > _SMF_PER:
                pages.append((self.link(f"topic={t['id']}.0;all", mode), "All"))
            tools = [
                (self.link(f"topic={t['id']}.0;prev_next=prev", mode) + "#new", "« previous"),
                (self.link(f"topic={t['id']}.0;prev_next=next", mode) + "#new", "next »"),
                (f"/index.php?action=printpage;topic={t['id']}.0", "Print"),
                (self.link(f"board={t['board']}.0", mode), self.boards[t["board"]]),
            ]
            main = f"<p>{bar(tools)}</p>{body}<p>Pages: {bar(pages, ' ')}</p>"
            return self.serve(req, self.shell(t["title"], main, mode))
        return not_found()


# ----------------------------------------------------------------------------------------
# Moodle 3 (a course open to guests). The glossary's browse tabs (`mode=letter|date|cat|
# author`), its alphabet (`hook=A..Z|ALL|SPECIAL`), sort keys and orders
# (`sortkey=&sortorder=`) and paging (`page=N`, `page=-1` for all) combine freely, each
# combination a near copy listing the same entries; forum posts link "Show parent"
# (`discuss.php?d=&parent=`), a page per post subtree.
# Legit look-alikes: the course and its four section pages, the 8 resource pages, the
# forum and its 8 discussions, the glossary's default view and real page 2, the entries.
# ----------------------------------------------------------------------------------------

_MD_GLOSSARY = 32
_MD_FORUM = 31
_MD_LETTERS = [chr(c) for c in range(ord("A"), ord("Z") + 1)]


class Moodle(Canon):
    """Moodle: glossary mode/hook/sortkey/sortorder/page combinations, forum parent=."""

    name = "moodle"
    kind = "Moodle: glossary mode=&hook=&sortkey=&sortorder=&page= combinations, parent= posts"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/login/", "/admin/", "/user/", "/calendar/", "/blog/"]
    per = 10

    def setup(self) -> None:
        self.vocab = words_for("science")
        rng = self.rng("moodle")
        self.pages = slugs(self.key("pages"), 8, self.vocab, 3)
        terms = slugs(self.key("terms"), 14, THEMES["science"], 1)
        self.terms = sorted(title_of(t) for t in terms)
        self.cats = {1: "Physics", 2: "Chemistry", 3: "Biology"}
        self.teachers = ["Alvarez, Rosa", "Brandt, Ove", "Chen, Li", "Dube, Thandi"]
        self.entry = {
            t: {
                "eid": 500 + i * 3,
                "cat": 1 + i % 3,
                "author": self.teachers[i % 4],
                "day": rng.randint(1, 300),
            }
            for i, t in enumerate(self.terms)
        }
        dtitles = slugs(self.key("disc"), 8, self.vocab, 4)
        self.discs = []
        pid = 900
        for k in range(8):
            posts = []  # (pid, parent)
            for j in range(rng.randint(3, 7)):
                parent = 0 if j == 0 else rng.choice(posts)[0]
                posts.append((pid, parent))
                pid += rng.randint(1, 3)
            self.discs.append(
                {"d": 70 + k, "title": title_of(dtitles[k]).capitalize(), "posts": posts}
            )
        self.reg("home", "/")
        self.reg("course", "/course/view.php?id=4")
        for s in range(1, 5):
            self.reg(f"section:{s}", f"/course/view.php?id=4&section={s}")
        for i in range(8):
            self.reg(f"page:{i}", f"/mod/page/view.php?id={40 + i}")
        self.reg("forum", f"/mod/forum/view.php?id={_MD_FORUM}")
        for dd in self.discs:
            self.reg(f"disc:{dd['d']}", f"/mod/forum/discuss.php?d={dd['d']}")
        self.reg("glossary", f"/mod/glossary/view.php?id={_MD_GLOSSARY}")
        self.reg(
            "glossary:2", f"/mod/glossary/view.php?id={_MD_GLOSSARY}&mode=letter&hook=ALL&page=1"
        )
        for t, e in self.entry.items():
            self.reg(
                f"entry:{t}", f"/mod/glossary/showentry.php?eid={e['eid']}&displayformat=dictionary"
            )

    def shell(self, title: str, main: str) -> str:
        nav = bar(
            [
                ("/", "Home"),
                ("/course/view.php?id=4", "PHY101"),
                ("/calendar/view.php?view=month", "Calendar"),
                ("/login/index.php", "Log in"),
            ]
        )
        body = f"<nav>{nav}</nav><div role='main'><h2>{esc(title)}</h2>{main}</div>"
        body += "<footer>You are currently using guest access (Log in). Powered by Moodle</footer>"
        return doc(f"PHY101: {title}", body)

    def section(self, s: int) -> list[Link]:
        links = [
            (f"/mod/page/view.php?id={40 + i}", title_of(self.pages[i]))
            for i in (2 * s - 2, 2 * s - 1)
        ]
        if s == 1:
            links.append((f"/mod/forum/view.php?id={_MD_FORUM}", "Announcements and questions"))
        if s == 2:
            links.append((f"/mod/glossary/view.php?id={_MD_GLOSSARY}", "Course glossary"))
        return links

    def glossary(self, req: Req, printing: bool = False) -> Reply:
        q = qs(req.query)
        allowed = {"id", "mode", "hook", "sortkey", "sortorder", "page", "offset", "pagelimit"}
        if q.get("id") != str(_MD_GLOSSARY) or set(q) - allowed:
            return not_found()
        if printing:
            off = q.pop("offset", "0")
            if q.pop("pagelimit", "") != str(self.per) or not off.lstrip("-").isdigit():
                return not_found()
            q["page"] = str(int(off) // self.per) if int(off) >= 0 else "-1"
        elif "offset" in q or "pagelimit" in q:
            return not_found()
        mode = q.get("mode", "letter")
        hook = q.get("hook", "ALL")
        sortkey, order = q.get("sortkey", ""), q.get("sortorder", "")
        if mode not in ("letter", "date", "cat", "author") or order not in ("", "asc", "desc"):
            return not_found()
        if sortkey not in ("", "CREATION", "UPDATE", "FIRSTNAME", "LASTNAME"):
            return not_found()
        try:
            page = int(q.get("page", "0"))
        except ValueError:
            return not_found()
        terms = list(self.terms)
        if mode == "letter" and hook not in ("ALL", "SPECIAL"):
            if hook not in _MD_LETTERS:
                return not_found()
            terms = [t for t in terms if t.upper().startswith(hook)]
        elif mode == "cat" and hook not in ("0", "-1"):
            if not hook.isdigit() or int(hook) not in self.cats:
                return not_found()
            terms = [t for t in terms if self.entry[t]["cat"] == int(hook)]
        elif mode == "author" and hook not in ("ALL",):
            if hook not in _MD_LETTERS:
                return not_found()
            terms = [t for t in terms if self.entry[t]["author"].startswith(hook)]
        if mode == "date":
            terms.sort(key=lambda t: self.entry[t]["day"], reverse=order == "desc")
        elif order == "desc":
            terms.reverse()
        pages = max(1, -(-len(terms) // self.per))
        if page == -1:
            shown = terms
        elif 0 <= page < pages:
            shown = terms[page * self.per : (page + 1) * self.per]
        else:
            return not_found()

        def url(**kw: str) -> str:
            ps = {
                "id": str(_MD_GLOSSARY),
                "mode": mode,
                "hook": hook,
                "sortkey": sortkey,
                "sortorder": order,
            }
            ps.update(kw)
            return "/mod/glossary/view.php?" + "&".join(f"{k}={v}" for k, v in ps.items())

        tabs = [
            (url(mode="letter", hook="ALL", sortkey="", sortorder=""), "Browse by alphabet"),
            (url(mode="cat", hook="0", sortkey="", sortorder=""), "Browse by category"),
            (url(mode="date", hook="ALL", sortkey="UPDATE", sortorder="desc"), "Browse by date"),
            (url(mode="author", hook="ALL", sortkey="", sortorder=""), "Browse by Author"),
        ]
        if mode in ("letter", "author"):
            hooks = [
                (url(hook=h, page="0"), h)
                for h in [*_MD_LETTERS, "ALL"] + (["SPECIAL"] if mode == "letter" else [])
            ]
        elif mode == "cat":
            hooks = [(url(hook=str(c), page="0"), n) for c, n in self.cats.items()] + [
                (url(hook="-1"), "Not categorised")
            ]
        else:
            hooks = [
                (url(sortkey=k, sortorder=o), f"{k} {o}")
                for k in ("CREATION", "UPDATE")
                for o in ("asc", "desc")
            ]
        if mode == "author":
            hooks += [
                (url(sortkey=k, sortorder=o), f"{k} {o}")
                for k in ("FIRSTNAME", "LASTNAME")
                for o in ("asc", "desc")
            ]
        off = page * self.per if page >= 0 else -1
        printer = (
            "/mod/glossary/print.php?"
            + url(offset=str(off), pagelimit=str(self.per)).split("?", 1)[1]
        )
        nav = [(url(page=str(n)), str(n + 1)) for n in range(pages) if n != page] + [
            (url(page="-1"), "All")
        ]
        if req.target == f"/mod/glossary/view.php?id={_MD_GLOSSARY}":
            nav = [
                (f"/mod/glossary/view.php?id={_MD_GLOSSARY}&mode=letter&hook=ALL&page=1", "2"),
                *nav[1:],
            ]
        rows = ul(
            [
                (
                    f"/mod/glossary/showentry.php?eid={self.entry[t]['eid']}&displayformat=dictionary",
                    t,
                )
                for t in shown
            ]
        )
        intro = prose(self, f"gloss{page}", self.vocab, 15, 40) if req.target in self.canon else ""
        main = (
            f"{intro}<p>{bar(tabs)}</p><p>{bar(hooks, ' ')}</p>{rows}<p>Page: {bar(nav, ' ')}</p>"
        )
        if printing:
            return self.serve(req, doc("Course glossary", rows))
        main += f"<p>{a(printer, 'Printer-friendly version')}</p>"
        return self.serve(req, self.shell("Course glossary", main))

    def handle(self, req: Req) -> Reply:
        p, q = req.path, qs(req.query)
        if p == "/" and not req.query:
            main = prose(self, "home", self.vocab, 40, 90) + ul(
                [("/course/view.php?id=4", "PHY101 Foundations of physics")]
            )
            return self.serve(req, self.shell("Northgate College", main))
        if p == "/course/view.php" and q.get("id") == "4" and set(q) <= {"id", "section"}:
            if "section" in q:
                s = int(q["section"]) if q["section"].isdigit() else 0
                if not 1 <= s <= 4:
                    return not_found()
                main = prose(self, f"section:{s}", self.vocab) + ul(self.section(s))
                main += ul([("/course/view.php?id=4", "Back to course")])
                return self.serve(req, self.shell(f"Topic {s}", main))
            links = [(f"/course/view.php?id=4&section={s}", f"Topic {s}") for s in range(1, 5)]
            return self.serve(
                req, self.shell("PHY101", prose(self, "course", self.vocab) + ul(links))
            )
        if (
            p == "/mod/page/view.php"
            and q.get("id", "").isdigit()
            and 40 <= int(q["id"]) < 48
            and set(q) == {"id"}
        ):
            i = int(q["id"]) - 40
            return self.serve(
                req,
                self.shell(title_of(self.pages[i]), prose(self, f"page:{i}", self.vocab, 200, 400)),
            )
        if p == "/mod/forum/view.php" and req.query == f"id={_MD_FORUM}":
            links = [(f"/mod/forum/discuss.php?d={dd['d']}", dd["title"]) for dd in self.discs]
            return self.serve(
                req, self.shell("Forum", prose(self, "forum", self.vocab, 20, 50) + ul(links))
            )
        if p == "/mod/forum/discuss.php" and set(q) <= {"d", "parent"}:
            dd = next((x for x in self.discs if str(x["d"]) == q.get("d")), None)
            if dd is None:
                return not_found()
            posts = dd["posts"]
            root = posts[0][0]
            if "parent" in q:
                if not q["parent"].isdigit() or int(q["parent"]) not in [x for x, _ in posts]:
                    return not_found()
                root = int(q["parent"])
            keep = {root}
            for pid, par in posts:
                if par in keep:
                    keep.add(pid)
            body = ""
            for pid, par in posts:
                if pid not in keep:
                    continue
                links = [(f"/mod/forum/discuss.php?d={dd['d']}#p{pid}", "Permalink")]
                if par:
                    links.append(
                        (f"/mod/forum/discuss.php?d={dd['d']}&parent={par}", "Show parent")
                    )
                body += f"<div id='p{pid}' class='forumpost'>" + prose(
                    self, f"post:{pid}", self.vocab, 30, 90
                )
                body += f"<p>{bar(links)}</p></div>"
            return self.serve(req, self.shell(dd["title"], body))
        if p in ("/mod/glossary/view.php", "/mod/glossary/print.php"):
            return self.glossary(req, p.endswith("print.php"))
        if p == "/mod/glossary/showentry.php" and set(q) == {"eid", "displayformat"}:
            t = next((t for t, e in self.entry.items() if str(e["eid"]) == q["eid"]), None)
            if t is None or q["displayformat"] not in (
                "dictionary",
                "fullwithauthor",
                "encyclopedia",
            ):
                return not_found()
            e = self.entry[t]
            fmts = [
                (f"/mod/glossary/showentry.php?eid={e['eid']}&displayformat={f}", f)
                for f in ("fullwithauthor", "encyclopedia")
                if f != q["displayformat"]
            ]
            main = f"<p>{esc(self.cats[e['cat']])} · {esc(e['author'])}</p>" + prose(
                self, f"entry:{t}", self.vocab, 40, 100
            )
            main += f"<p>{bar(fmts)}</p>" + ul(
                [(f"/mod/glossary/view.php?id={_MD_GLOSSARY}", "Glossary")]
            )
            return self.serve(req, self.shell(t, main))
        return not_found()
