"""Blind4 sites, part B: Joomla, SharePoint, Shopify, TYPO3."""

from __future__ import annotations

import hashlib
from typing import ClassVar
from urllib.parse import quote, urlencode

from traps.blind.kit import THEMES, Reply, Req, Site, a, doc, not_found, slugs, title_of, words_for
from traps.blind2.common import Link, bar, esc, prose, qlist, qs, trap, ul

# ----------------------------------------------------------------------------------------
# Joomla 3 (non-SEF URLs): the sidebar modules ("Latest Articles", "Most Read") and the
# breadcrumbs link articles and categories with the Itemid of the page being shown, so each
# article is served under every menu item's Itemid; each page's print icon adds
# `tmpl=component&print=1`; category blogs link their `format=feed&type=rss|atom` twins.
# Legit look-alikes: each article under its own category's Itemid, the category blogs and
# their real `limitstart=` pages.
# ----------------------------------------------------------------------------------------


class Joomla(Site):
    """Joomla 3: Itemid context multiplication, tmpl=component print views, feeds."""

    name = "joomla"
    kind = "Joomla: every article under every menu Itemid=, tmpl=component&print=1, format=feed"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = [
        "/administrator/",
        "/bin/",
        "/cache/",
        "/cli/",
        "/components/",
        "/includes/",
        "/installation/",
        "/language/",
        "/layouts/",
        "/libraries/",
        "/logs/",
        "/modules/",
        "/plugins/",
        "/tmp/",
    ]
    per_page = 4

    def build(self) -> None:
        self.vocab = words_for("travel")
        self.cats = slugs(self.key("cats"), 3, THEMES["travel"], 1)
        self.cid = {c: 8 + i for i, c in enumerate(self.cats)}
        self.item = {c: 102 + i for i, c in enumerate(self.cats)}
        self.items = [101, *self.item.values(), 105]
        titles = slugs(self.key("arts"), 27, self.vocab, 3)
        self.arts: dict[int, tuple[str, str]] = {}
        for i, t in enumerate(titles):
            c = self.cats[i % 3]
            self.arts[20 + i] = (t, c)
        self.about = 60
        self.legit = {"home", "about"}
        for c in self.cats:
            n = len(self.in_cat(c))
            self.legit |= {f"cat:{c}:{k}" for k in range(0, n, self.per_page)}
        self.legit |= {f"art:{i}" for i in self.arts}

    def in_cat(self, c: str) -> list[int]:
        return [i for i, (_, cc) in self.arts.items() if cc == c]

    def art_url(self, i: int, itemid: int) -> str:
        c = self.arts[i][1]
        return (
            f"/index.php?option=com_content&view=article&id={i}&catid={self.cid[c]}&Itemid={itemid}"
        )

    def cat_url(self, c: str, itemid: int, start: int = 0, extra: str = "") -> str:
        u = f"/index.php?option=com_content&view=category&layout=blog&id={self.cid[c]}"
        u += f"&Itemid={itemid}" + (f"&limitstart={start}" if start else "") + extra
        return u

    def shell(self, title: str, main: str, itemid: int, here: str) -> str:
        menu = [("/", "Home")] + [(self.cat_url(c, self.item[c]), title_of(c)) for c in self.cats]
        menu.append(
            (f"/index.php?option=com_content&view=article&id={self.about}&Itemid=105", "About")
        )
        latest = [
            (self.art_url(i, itemid), title_of(self.arts[i][0])) for i in list(self.arts)[-5:]
        ]
        rng = self.rng("mostread")
        most = [
            (self.art_url(i, itemid), title_of(self.arts[i][0]))
            for i in rng.sample(list(self.arts), 4)
        ]
        sep = "&" if "?" in here else "?"
        icons = bar(
            [(f"{here}{sep}tmpl=component&print=1", "Print"), ("/components/com_mailto/", "Email")]
        )
        body = (
            f"<nav>{bar(menu)}</nav><div class=icons>{icons}</div>"
            f"<main><h1>{esc(title)}</h1>{main}</main>"
            f"<aside><h3>Latest Articles</h3>{ul(latest)}<h3>Most Read</h3>{ul(most)}</aside>"
            f"<footer>{a('/administrator/', 'Log in')} Powered by Joomla!</footer>"
        )
        return doc(f"{title} - Wayfarer Notes", body)

    def handle(self, req: Req) -> Reply:
        p, q = req.path, qs(req.query)
        if p == "/" and not req.query:
            main = prose(self, "home", self.vocab) + ul(
                [(self.art_url(i, 101), title_of(self.arts[i][0])) for i in list(self.arts)[:3]]
            )
            return self.legit_page("home", self.shell("Home", main, 101, "/index.php"))
        if p != "/index.php":
            return not_found()
        try:
            itemid = int(q.get("Itemid", "101"))
            oid = int(q.get("id", "0"))
        except ValueError:
            return not_found()
        if itemid not in self.items or q.get("option") != "com_content":
            return not_found("Component not found")
        here = req.target
        if q.get("view") == "article" and (oid in self.arts or oid == self.about):
            if oid == self.about:
                body = self.shell("About", prose(self, "about", self.vocab), itemid, here)
                ok = req.query == f"option=com_content&view=article&id={oid}&Itemid=105"
                return self.legit_page("about", body) if ok else trap(body)
            t, c = self.arts[oid]
            crumbs = bar([("/", "Home"), (self.cat_url(c, itemid), title_of(c))], " / ")
            main = f"<p>{crumbs}</p><p>Category: {title_of(c)}</p>" + prose(
                self, f"art:{oid}", self.vocab
            )
            body = self.shell(title_of(t), main, itemid, here)
            if "tmpl" in q:
                return trap(doc(title_of(t), main))
            ok = req.target == self.art_url(oid, self.item[c])
            return self.legit_page(f"art:{oid}", body) if ok else trap(body)
        cat = next((c for c in self.cats if self.cid[c] == oid), None)
        if q.get("view") == "category" and cat:
            ids = self.in_cat(cat)
            start = int(q["limitstart"]) if q.get("limitstart", "").isdigit() else 0
            chunk = ids[start : start + self.per_page]
            rows = "".join(
                f"<h2>{a(self.art_url(i, itemid), title_of(self.arts[i][0]))}</h2>"
                + prose(self, f"art:{i}", self.vocab, 20, 40).split("</p>")[0]
                + "</p>"
                for i in chunk
            )
            pages = [
                (self.cat_url(cat, itemid, k), str(k // self.per_page + 1))
                for k in range(0, len(ids), self.per_page)
            ]
            feeds = [
                (self.cat_url(cat, itemid, 0, "&format=feed&type=rss"), "RSS 2.0"),
                (self.cat_url(cat, itemid, 0, "&format=feed&type=atom"), "Atom 1.0"),
            ]
            if q.get("format") == "feed":
                return Reply(
                    f"<rss><channel>{esc(cat)}</channel></rss>",
                    "trap",
                    None,
                    ctype="application/rss+xml",
                )
            main = prose(self, f"catintro:{cat}:{start}", self.vocab, 30, 60) + rows
            main += f"<p>{bar(pages)}</p><p>{bar(feeds)}</p>"
            body = self.shell(title_of(cat), main, itemid, here)
            if "tmpl" in q:
                return trap(doc(title_of(cat), main))
            ok = (
                req.target == self.cat_url(cat, self.item[cat], start)
                and start % self.per_page == 0
            )
            ok = ok and start < len(ids)
            return self.legit_page(f"cat:{cat}:{start}", body) if ok else trap(body)
        return not_found()


# ----------------------------------------------------------------------------------------
# SharePoint 2013 (a public publishing site): an item's display form links its related
# items and its "Close" button with `Source=` set to the absolute URL of the page being
# shown, which itself carries a `Source=`, so each hop nests the whole previous URL once
# more percent-encoded (`%252F`, `%25252F`, ...); list views sort with
# `SortField=`/`SortDir=` toggles under the view's `View={GUID}`; `/_layouts/` aliases.
# Legit look-alikes: each item's plain `DispForm.aspx?ID=N`, each list's AllItems view
# and its real paging (`Paged=TRUE&p_ID=&PageFirstRow=`), which ends.
# ----------------------------------------------------------------------------------------


class SharePoint(Site):
    """SharePoint 2013: Source= nesting, SortField/SortDir, Paged=TRUE paging."""

    name = "sharepoint"
    kind = "SharePoint: DispForm ?Source=<absolute URL> nesting (%252F...), SortField=, paging"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/SitePages/Home.aspx")]
    robots_disallow: ClassVar[list[str]] = ["/_layouts/", "/_vti_bin/", "/_catalogs/"]
    per_page = 5

    def build(self) -> None:
        self.vocab = words_for("gov")
        self.lists = {"Announcements": 12, "Policies": 10, "Projects": 8}
        self.guid = {
            n: "{"
            + hashlib.md5(self.key(n).encode()).hexdigest().upper()[:8]
            + "-51C4-4A2B-9E0F-3D7C2B9A1E55}"
            for n in self.lists
        }
        self.titles = {n: slugs(self.key(f"t{n}"), k, self.vocab, 3) for n, k in self.lists.items()}
        self.legit = {"home"}
        for n, k in self.lists.items():
            self.legit |= {f"view:{n}:{s}" for s in range(1, k + 1, self.per_page)}
            self.legit |= {f"item:{n}:{i}" for i in range(1, k + 1)}

    def view_url(self, n: str, first: int = 1, extra: str = "") -> str:
        u = f"/Lists/{n}/AllItems.aspx"
        if first > 1:
            u += f"?Paged=TRUE&p_ID={first - 1}&PageFirstRow={first}&View={quote(self.guid[n])}"
        return u + (("&" if "?" in u else "?") + extra if extra else "")

    def shell(self, title: str, main: str) -> str:
        nav = [("/SitePages/Home.aspx", "Home")] + [(self.view_url(n), n) for n in self.lists]
        body = (
            f"<div id=s4-ribbonrow>{a('/_layouts/15/Authenticate.aspx?Source=%2F', 'Sign In')}"
            f"</div><div id=DeltaTopNavigation>{bar(nav)}</div>"
            f"<div id=contentBox><h1>{esc(title)}</h1>{main}</div>"
            f"<div>{a('/_layouts/15/viewlsts.aspx', 'Site Contents')}</div>"
        )
        return doc(f"{title} - Harbour Council", body)

    def handle(self, req: Req) -> Reply:
        p, q = req.path, qs(req.query)
        if p == "/SitePages/Home.aspx":
            main = prose(self, "home", self.vocab) + ul([(self.view_url(n), n) for n in self.lists])
            body = self.shell("Home", main)
            return trap(body) if req.query else self.legit_page("home", body)
        parts = p.split("/")
        if len(parts) != 4 or parts[1] != "Lists" or parts[2] not in self.lists:
            return not_found()
        n, form = parts[2], parts[3]
        k = self.lists[n]
        if form == "AllItems.aspx":
            first = int(q["PageFirstRow"]) if q.get("PageFirstRow", "").isdigit() else 1
            ids = list(range(1, k + 1))
            sf, sd = q.get("SortField", ""), q.get("SortDir", "Asc")
            if sf == "Title":
                ids.sort(key=lambda i: self.titles[n][i - 1], reverse=sd == "Desc")
            elif sf == "Modified":
                ids.sort(key=lambda i: (i * 7919) % 97, reverse=sd == "Desc")
            chunk = ids[first - 1 : first - 1 + self.per_page]
            flip = "Desc" if sd == "Asc" else "Asc"
            heads = " ".join(
                a(
                    self.view_url(n, 1, f"View={quote(self.guid[n])}&SortField={f}&SortDir={flip}"),
                    f,
                )
                for f in ("Title", "Modified")
            )
            rows = [
                (f"/Lists/{n}/DispForm.aspx?ID={i}", title_of(self.titles[n][i - 1])) for i in chunk
            ]
            nav: list[Link] = []
            if first + self.per_page <= k:
                nav.append((self.view_url(n, first + self.per_page), "Next"))
            main = f"<p>{heads}</p>{ul(rows)}<p>{bar(nav)}</p>" + prose(
                self, f"v:{n}:{first}", self.vocab, 20, 50
            )
            body = self.shell(n, main)
            ok = (
                req.target == self.view_url(n, first)
                and (first - 1) % self.per_page == 0
                and first <= k
            )
            return self.legit_page(f"view:{n}:{first}", body) if ok else trap(body)
        if form != "DispForm.aspx" or not q.get("ID", "").isdigit() or not 1 <= int(q["ID"]) <= k:
            return not_found()
        i = int(q["ID"])
        src = quote(req.base + req.target, safe="")
        back = q.get("Source", self.view_url(n))
        rel = [1 + (i * 3 + d) % k for d in (1, 4)]
        links = [
            (f"/Lists/{n}/DispForm.aspx?ID={j}&Source={src}", title_of(self.titles[n][j - 1]))
            for j in rel
        ]
        tools = [
            (back, "Close"),
            (f"/Lists/{n}/EditForm.aspx?ID={i}&Source={src}", "Edit Item"),
            (
                f"/_layouts/15/Versions.aspx?list={quote(self.guid[n])}&ID={i}&Source={src}",
                "Version History",
            ),
        ]
        main = (
            f"<p>{bar(tools)}</p>"
            + prose(self, f"i:{n}:{i}", self.vocab)
            + "<h3>Related</h3>"
            + ul(links)
        )
        body = self.shell(title_of(self.titles[n][i - 1]), main)
        return self.legit_page(f"item:{n}:{i}", body) if req.query == f"ID={i}" else trap(body)


# ----------------------------------------------------------------------------------------
# Shopify (a Dawn-like theme): a product is served under any collection,
# `/collections/<c>/products/<p>`, and the theme links products "within" the collection
# being shown; on a tag-filtered collection every other tag of the collection links
# `/collections/<c>/<tag>+<tag>`, one tag more per click, in any order (empty or not);
# the product grid's quick-view links `?view=quick`, and `?sort_by=` on collections.
# Legit look-alikes: `/products/<p>`, the real `?variant=<id>` pages of products whose
# variants differ (price, text), the collections and their real `?page=2`, and each
# collection's single-tag pages `/collections/<c>/<tag>`.
# ----------------------------------------------------------------------------------------

_SORTS = ["manual", "best-selling", "title-ascending", "price-ascending", "created-descending"]


class Shopify(Site):
    """A Shopify store: products within any collection, tag-filter paths, variants."""

    name = "shopify"
    kind = "Shopify: /collections/<c>/products/<p> for any c, tag+tag filter paths, ?view=quick"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = [
        "/admin",
        "/cart",
        "/orders",
        "/checkouts/",
        "/checkout",
        "/account",
        "/collections/*sort_by*",
        "/collections/*+*",
        "/policies/",
        "/search",
        "/recommendations/products",
    ]
    per_page = 8

    def build(self) -> None:
        self.vocab = words_for("shop")
        self.colls = slugs(self.key("colls"), 4, THEMES["shop"], 1)
        self.prods = slugs(self.key("prods"), 24, THEMES["shop"], 2)
        self.tags = slugs(self.key("tags"), 7, THEMES["shop"] + THEMES["travel"], 1)
        rng = self.rng("cat")
        self.coll_of = {p: self.colls[i % 4] for i, p in enumerate(self.prods)}
        for p in self.prods[::5]:
            self.coll_of[p] = self.colls[0]
        self.tags_of = {p: set(rng.sample(self.tags, 3)) for p in self.prods}
        self.variants: dict[str, list[int]] = {}
        for i, p in enumerate(self.prods):
            nv = rng.choice([1, 1, 2, 3])
            self.variants[p] = [40000000 + 100 * i + v for v in range(nv)]
        self.legit = {"home"} | {f"p:{p}" for p in self.prods}
        self.legit |= {f"v:{p}:{v}" for p in self.prods for v in self.variants[p][1:]}
        for c in self.colls:
            n = len(self.in_coll(c))
            self.legit |= {f"c:{c}:{k}" for k in range(1, (n - 1) // self.per_page + 2)}
            self.legit |= {f"t:{c}:{t}" for t in self.all_tags(c)}

    def all_tags(self, c: str) -> list[str]:
        """The tags of the collection's products (Liquid's collection.all_tags)."""
        prods = self.prods if c == "all" else self.in_coll(c)
        return [t for t in self.tags if any(t in self.tags_of[p] for p in prods)]

    def in_coll(self, c: str) -> list[str]:
        return [p for p in self.prods if self.coll_of[p] == c]

    def shell(self, title: str, main: str) -> str:
        nav = [("/", "Home")] + [(f"/collections/{c}", title_of(c)) for c in self.colls]
        nav += [("/search", "Search"), ("/account/login", "Log in"), ("/cart", "Cart")]
        body = (
            f"<header>{bar(nav)}</header><main><h1>{esc(title)}</h1>{main}</main>"
            f"<footer>{a('/policies/refund-policy', 'Refund policy')} Powered by Shopify</footer>"
        )
        return doc(f"{title} - Stitch & Loom", body)

    def grid(self, c: str, prods: list[str]) -> str:
        base = f"/collections/{c}" if c else ""
        cells = "".join(
            f"<li>{a(f'{base}/products/{p}', title_of(p))} "
            f"{a(f'{base}/products/{p}?view=quick', 'Quick view')}</li>"
            for p in prods
        )
        return f"<ul class=grid>{cells}</ul>"

    def product(self, p: str, c: str, v: int) -> str:
        vs = self.variants[p]
        opts = (
            " ".join(a(f"/products/{p}?variant={x}", f"Option {k + 1}") for k, x in enumerate(vs))
            if len(vs) > 1
            else ""
        )
        rel = [self.prods[(self.prods.index(p) + d) % len(self.prods)] for d in (2, 7, 11)]
        base = f"/collections/{c}" if c else ""
        related = ul([(f"{base}/products/{r}", title_of(r)) for r in rel])
        price = 19 + (v % 97)
        text = prose(self, f"p:{p}", self.vocab, 60, 140)
        if v != vs[0]:
            text += prose(self, f"v:{p}:{v}", self.vocab, 40, 90)
        tags = " ".join(
            a(f"/collections/{self.coll_of[p]}/{t}", t) for t in sorted(self.tags_of[p])
        )
        return (
            f"<p>${price}.00 SKU {v}</p><p>{opts}</p>{text}<p>{tags}</p>"
            f"<h3>You may also like</h3>{related}"
        )

    def handle(self, req: Req) -> Reply:
        p, q = req.path, qs(req.query)
        if p == "/":
            main = prose(self, "home", self.vocab) + self.grid("", self.prods[:6])
            return (
                trap(self.shell("Home", main))
                if req.query
                else self.legit_page("home", self.shell("Home", main))
            )
        parts = [x for x in p.split("/") if x]
        if len(parts) == 2 and parts[0] == "products" and parts[1] in self.prods:
            return self.product_reply(req, parts[1], "", q)
        if parts[:1] != ["collections"] or len(parts) < 2:
            return not_found()
        c = parts[1]
        if c != "all" and c not in self.colls:
            return not_found()
        if len(parts) == 4 and parts[2] == "products" and parts[3] in self.prods:
            return self.product_reply(req, parts[3], c, q)
        prods = self.prods if c == "all" else self.in_coll(c)
        sel: list[str] = []
        if len(parts) == 3:
            sel = parts[2].split("+")
            if any(t not in self.tags for t in sel):
                return not_found()
            prods = [x for x in prods if set(sel) <= self.tags_of[x]]
        elif len(parts) > 3:
            return not_found()
        if q.get("sort_by") in _SORTS[2:]:
            prods = sorted(prods, reverse=q["sort_by"].endswith("descending"))
        page = int(q["page"]) if q.get("page", "").isdigit() else 1
        chunk = prods[(page - 1) * self.per_page : page * self.per_page]
        here = "/".join(["/collections", c] + ([parts[2]] if sel else []))
        tagl = [
            (f"{here}+{t}" if sel else f"{here}/{t}", t) for t in self.all_tags(c) if t not in sel
        ]
        sorts = [(f"{here}?sort_by={s}", s) for s in _SORTS]
        nav: list[Link] = []
        if page * self.per_page < len(prods):
            nav.append((f"{here}?page={page + 1}", "Next"))
        if page > 1:
            nav.append((here + (f"?page={page - 1}" if page > 2 else ""), "Previous"))
        main = (
            prose(self, f"c:{c}:{page}:{'+'.join(sel)}", self.vocab, 30, 70)
            + f"<p>Filter: {bar(tagl)}</p><p>Sort: {bar(sorts)}</p>"
            + self.grid(c, chunk)
            + f"<p>{bar(nav)}</p>"
        )
        body = self.shell(title_of(c), main)
        ok = (
            c != "all"
            and not sel
            and (req.query == "" if page == 1 else req.query == f"page={page}")
        )
        ok = ok and bool(chunk)
        if c != "all" and len(sel) == 1 and not req.query and chunk:
            return self.legit_page(f"t:{c}:{sel[0]}", body)
        return self.legit_page(f"c:{c}:{page}", body) if ok else trap(body)

    def product_reply(self, req: Req, p: str, c: str, q: dict[str, str]) -> Reply:
        vs = self.variants[p]
        v = (
            int(q["variant"])
            if q.get("variant", "").isdigit() and int(q["variant"]) in vs
            else vs[0]
        )
        body = self.shell(title_of(p), self.product(p, c, v))
        if c or (req.query and req.query != f"variant={v}") or (req.query and v == vs[0]):
            return trap(body)
        return self.legit_page(f"p:{p}" if v == vs[0] else f"v:{p}:{v}", body)


# ----------------------------------------------------------------------------------------
# TYPO3 with tx_news: `config.linkVars = L` carries the language of the page being shown
# into every link, and the language menu offers `L=0|1|2` on every page, though only a few
# pages are translated (the others fall back to the default language); every page has a
# print link (`type=98`); news lists filtered by category keep the filter in their
# pagination, and detail pages link their neighbours in the current language.
# Legit look-alikes: the long real plugin URLs (`tx_news_pi1[news]=N&...&cHash=`), the
# list's real `tx_news_pi1[@widget_0][currentPage]=` pages, the category lists, and the
# German translations that do exist (`L=1` on translated pages).
# ----------------------------------------------------------------------------------------

_T3_PAGES = {1: "Home", 2: "News", 3: "About us", 4: "Services", 6: "Contact"}
_T3_DE = {1, 3, 4}


def _same_query(query: str, pairs: list[tuple[str, str]]) -> bool:
    return sorted(qlist(query)) == sorted(pairs)


class Typo3(Site):
    """TYPO3 + tx_news: linkVars L carried everywhere, type=98 prints, cHash URLs."""

    name = "typo3"
    kind = "TYPO3: linkVars L= carried into every link, untranslated fallbacks, type=98 prints"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = [
        "/typo3/",
        "/typo3conf/",
        "/typo3temp/",
        "/fileadmin/_temp_/",
    ]
    per_page = 6

    def build(self) -> None:
        self.vocab = words_for("corp")
        self.de = self.vocab[:60] + [
            w for w in " ".join(["der die und Antrag Dienst Kunde Lösung Vertrag"] * 3).split()
        ]
        self.news = slugs(self.key("news"), 22, self.vocab, 3)
        self.cats = slugs(self.key("cats"), 4, THEMES["corp"], 1)
        self.cat_of = {i: self.cats[i % 4] for i in range(len(self.news))}
        self.npages = (len(self.news) + self.per_page - 1) // self.per_page
        self.legit = {f"pg:{i}" for i in _T3_PAGES} | {f"de:{i}" for i in _T3_DE}
        self.legit |= {f"list:{k}" for k in range(2, self.npages + 1)}
        self.legit |= {f"news:{i}" for i in range(len(self.news))} | {f"cat:{c}" for c in self.cats}

    def chash(self, pairs: list[tuple[str, str]]) -> str:
        return hashlib.md5(self.key(repr(sorted(pairs))).encode()).hexdigest()

    def url(self, pid: int, plugin: list[tuple[str, str]] | None = None, lang: str = "") -> str:
        pairs = [("id", str(pid))] + (plugin or [])
        if plugin:
            pairs.append(("cHash", self.chash(pairs)))
        if lang:
            pairs.append(("L", lang))
        return "/index.php?" + urlencode(pairs)

    def news_url(self, i: int, lang: str = "") -> str:
        plug = [
            ("tx_news_pi1[news]", str(i)),
            ("tx_news_pi1[controller]", "News"),
            ("tx_news_pi1[action]", "detail"),
        ]
        return self.url(5, plug, lang)

    def list_url(self, page: int = 1, cat: str = "", lang: str = "") -> str:
        plug = (
            [("tx_news_pi1[overwriteDemand][categories]", str(self.cats.index(cat) + 1))]
            if cat
            else []
        )
        if page > 1:
            plug.append(("tx_news_pi1[@widget_0][currentPage]", str(page)))
        return self.url(2, plug, lang)

    def shell(self, title: str, main: str, here: str, lang: str) -> str:
        menu = [(self.url(i, None, lang), t) for i, t in _T3_PAGES.items()]
        sep = "&" if "?" in here else "?"
        base = "&".join(
            f"{k}={quote(v)}"
            for k, v in qlist(here.partition("?")[2])
            if k not in ("L", "no_cache")
        )
        langs = [
            (f"/index.php?{base}&L={n}" if base else f"/index.php?id=1&L={n}", t)
            for n, t in (("0", "English"), ("1", "Deutsch"), ("2", "Français"))
        ]
        body = (
            f"<nav>{bar(menu)}</nav><div class=lang>{bar(langs)}</div>"
            f"<main><h1>{esc(title)}</h1>{main}</main>"
            f"<footer>{a(f'{here}{sep}type=98', 'Print')} {a('/typo3/', 'Login')}</footer>"
        )
        return doc(f"{title}: Northgate Solutions", body, lang="de" if lang == "1" else "en")

    def handle(self, req: Req) -> Reply:
        p, q = req.path, qs(req.query)
        if p == "/":
            return redirect_home()
        if p != "/index.php" or not q.get("id", "").isdigit():
            return not_found()
        pid, lang = int(q["id"]), q.get("L", "")
        if lang not in ("", "0", "1", "2"):
            lang = ""
        extra = {k for k in q if k in ("type", "no_cache")}
        if (
            pid == 5
            and q.get("tx_news_pi1[news]", "").isdigit()
            and int(q["tx_news_pi1[news]"]) < len(self.news)
        ):
            i = int(q["tx_news_pi1[news]"])
            c = self.cat_of[i]
            main = (
                prose(self, f"news:{i}", self.vocab)
                + f"<p>Category: {a(self.list_url(1, c, lang), title_of(c))}</p>"
            )
            main += ul(
                [
                    (
                        self.news_url((i + d) % len(self.news), lang),
                        "Related: " + title_of(self.news[(i + d) % len(self.news)]),
                    )
                    for d in (1, 5)
                ]
            )
            body = self.shell(title_of(self.news[i]), main, req.target, lang)
            ok = _same_query(req.query, qlist(self.news_url(i).partition("?")[2]))
            return self.legit_page(f"news:{i}", body) if ok else trap(body)
        if pid == 2:
            cat = ""
            cv = q.get("tx_news_pi1[overwriteDemand][categories]", "")
            if cv:
                if not cv.isdigit() or not 1 <= int(cv) <= len(self.cats):
                    return not_found()
                cat = self.cats[int(cv) - 1]
            page_s = q.get("tx_news_pi1[@widget_0][currentPage]", "1")
            page = int(page_s) if page_s.isdigit() else 1
            items = [i for i in range(len(self.news)) if not cat or self.cat_of[i] == cat]
            chunk = items[(page - 1) * self.per_page : page * self.per_page]
            pages = [
                (self.list_url(k, cat, lang), str(k))
                for k in range(1, (len(items) - 1) // self.per_page + 2)
            ]
            cats = [(self.list_url(1, c, lang), title_of(c)) for c in self.cats]
            main = prose(self, f"list:{cat}:{page}", self.vocab, 20, 50) + f"<p>{bar(cats)}</p>"
            main += (
                ul([(self.news_url(i, lang), title_of(self.news[i])) for i in chunk])
                + f"<p>{bar(pages)}</p>"
            )
            body = self.shell("News", main, req.target, lang)
            if not chunk:
                return trap(body)
            want = self.list_url(page, cat)
            if _same_query(req.query, qlist(want.partition("?")[2])):
                if cat and page == 1:
                    return self.legit_page(f"cat:{cat}", body)
                if not cat:
                    return self.legit_page("pg:2" if page == 1 else f"list:{page}", body)
            return trap(body)
        if pid not in _T3_PAGES:
            return not_found("Page not found")
        german = lang == "1" and pid in _T3_DE
        text = prose(self, f"de:{pid}", self.de) if german else prose(self, f"pg:{pid}", self.vocab)
        main = text + (ul([(self.list_url(1, "", lang), "All news")]) if pid == 1 else "")
        body = self.shell(_T3_PAGES[pid], main, req.target, lang)
        if extra:
            return trap(body)
        if german and _same_query(req.query, [("id", str(pid)), ("L", "1")]):
            return self.legit_page(f"de:{pid}", body)
        if req.query == f"id={pid}":
            return self.legit_page(f"pg:{pid}", body)
        return trap(body)


def redirect_home() -> Reply:
    return Reply("", "other", None, 301, headers={"Location": "/index.php?id=1"})
