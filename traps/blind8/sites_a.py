"""Blind8 sites, part A: vBulletin 4, OpenCart 3, and a Mailman list archive
(Pipermail and HyperKitty)."""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from typing import ClassVar
from urllib.parse import urlencode

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
from traps.blind2.common import bar, esc, prose, qlist, qs, ul
from traps.blind7.common import Hosted, href, setp, without

# ----------------------------------------------------------------------------------------
# vBulletin 4 with friendly URLs ("showthread.php?101-slug", "forumdisplay.php?2-slug").
# Forum lists: column headers `sort=title|postusername|lastpost|replycount|views` with
# `order=asc|desc`, thread-prefix links `prefixid=`, and paging (`/page2`) keeping them.
# Threads: display modes `mode=linear|threaded|hybrid` (threaded and hybrid list every post
# as `&p=<postid>`), every post's `#N` link (`&p=<postid>#post<postid>`), "Show post"
# (`showpost.php?p=&postcount=`), "Next/Previous Thread" (`showthread.php?t=N&goto=`, a
# redirect), the old `?t=N` spelling (301 to the friendly one).
# Legit look-alikes: the forums' real page 2, long threads' real page 2, members, the
# Archive (`/archive/index.php`, its forum pages).
# ----------------------------------------------------------------------------------------

_VB_SORTS = ["title", "postusername", "lastpost", "replycount", "views"]
_VB_PREFIXES = ["question", "solved", "project", "review"]


class VBulletin(Hosted):
    """vBulletin 4: sort/order/prefixid kept in paging, display modes, &p= permalinks."""

    name = "vbulletin"
    kind = "vBulletin 4: forum sort/order/prefixid kept in /pageN, mode= x &p= posts, goto="
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/forum.php")]
    robots_disallow: ClassVar[list[str]] = [
        "/login.php",
        "/register.php",
        "/search.php",
        "/private.php",
        "/newreply.php",
        "/newthread.php",
        "/printthread.php",
        "/sendmessage.php",
        "/ajax.php",
    ]

    def setup(self) -> None:
        self.vocab = words_for("forum")
        rng = self.rng("vb")
        self.forums = {2 + i: s for i, s in enumerate(slugs(self.key("f"), 3, THEMES["forum"], 2))}
        self.users = {7 + i: s for i, s in enumerate(slugs(self.key("u"), 5, THEMES["forum"], 1))}
        titles = slugs(self.key("t"), 18, self.vocab, 3)
        self.threads: dict[int, dict] = {}
        pid = 4000
        for i, t in enumerate(titles):
            fid = 2 if i < 8 else 3 if i < 13 else 4
            n = rng.choice([3, 5, 7, 9]) if i % 6 else rng.randint(12, 19)
            posts = []
            for k in range(n):
                pid += rng.randint(1, 9)
                posts.append((pid, rng.choice(list(self.users)), k + 1))
            self.threads[101 + i] = {
                "slug": t,
                "fid": fid,
                "posts": posts,
                "prefix": rng.choice([None, *_VB_PREFIXES]),
                "views": rng.randint(20, 4000),
                "when": dt.datetime(2026, 11, 1) + dt.timedelta(hours=rng.randint(0, 700)),
            }
        self.reg("home", "/forum.php")
        self.reg("archive", "/archive/index.php")
        for f, s in self.forums.items():
            self.reg(f"f{f}", f"/forumdisplay.php?{f}-{s}")
            self.reg(f"af{f}", f"/archive/index.php/f-{f}.html")
        self.reg("f2p2", f"/forumdisplay.php?2-{self.forums[2]}/page2")
        for t, th in self.threads.items():
            self.reg(f"t{t}", f"/showthread.php?{t}-{th['slug']}")
            if len(th["posts"]) > 10:
                self.reg(f"t{t}p2", f"/showthread.php?{t}-{th['slug']}/page2")
        for u, s in self.users.items():
            self.reg(f"u{u}", f"/member.php?{u}-{s}")

    def frame(self, title: str, body: str) -> str:
        nav = bar(
            [
                ("/forum.php", "Forum"),
                ("/search.php?do=getnew", "New Posts"),
                ("/search.php", "Advanced Search"),
                ("/register.php", "Register"),
                ("/login.php?do=login", "Log in"),
                ("/archive/index.php", "Archive"),
            ]
        )
        return doc(f"{title} - Solder Bench Forums", f"<div id='navbar'>{nav}</div>{body}")

    def mlink(self, u: int) -> str:
        return f"/member.php?{u}-{self.users[u]}"

    def tlink(self, t: int, extra: str = "") -> str:
        return f"/showthread.php?{t}-{self.threads[t]['slug']}{extra}"

    def handle(self, req: Req) -> Reply:
        path, q = req.path, req.query
        if path == "/":
            return redirect("/forum.php", 301)
        if path == "/forum.php" and not q:
            rows = [(f"/forumdisplay.php?{f}-{s}", title_of(s)) for f, s in self.forums.items()]
            body = f"<h1>Solder Bench Forums</h1>{ul(rows)}{prose(self, 'home', self.vocab)}"
            return self.serve(req, self.frame("Forum", body))
        if path == "/archive/index.php" and not q:
            rows = [(f"index.php/f-{f}.html", title_of(s)) for f, s in self.forums.items()]
            body = f"<h1>Archive</h1>{ul(rows)}{prose(self, 'arch', self.vocab, 40, 90)}"
            return self.serve(req, doc("Solder Bench Forums [Archive]", body))
        m = re.fullmatch(r"/archive/index\.php/f-(\d+)\.html", path)
        if m and int(m.group(1)) in self.forums:
            f = int(m.group(1))
            rows = [
                (self.bases[0] + self.tlink(t), title_of(th["slug"]))
                for t, th in self.threads.items()
                if th["fid"] == f
            ]
            body = f"<h1>{title_of(self.forums[f])} [Archive]</h1>{ul(rows)}"
            body += prose(self, f"af{f}", self.vocab, 40, 90)
            return self.serve(req, doc(title_of(self.forums[f]), body))
        head, _, rest = q.partition("&")
        params = qlist(rest)
        if path == "/forumdisplay.php":
            m = re.fullmatch(r"(\d+)(?:-[\w-]*)?(?:/page(\d+))?", head)
            if not m or int(m.group(1)) not in self.forums:
                return not_found()
            return self.forum(req, int(m.group(1)), int(m.group(2) or 1), params)
        if path == "/showthread.php":
            p = qs(q)
            if "t" in p and p["t"].isdigit() and int(p["t"]) in self.threads:
                t = int(p["t"])
                if p.get("goto") in ("nextnewest", "nextoldest"):
                    ids = sorted(self.threads)
                    k = ids.index(t) + (1 if p["goto"] == "nextnewest" else -1)
                    return redirect(self.tlink(ids[k % len(ids)]))
                return redirect(self.tlink(t), 301)
            m = re.fullmatch(r"(\d+)(?:-[\w-]*)?(?:/page(\d+))?", head)
            if not m or int(m.group(1)) not in self.threads:
                return not_found()
            return self.thread(req, int(m.group(1)), int(m.group(2) or 1), params)
        if path == "/showpost.php":
            p = qs(q)
            for t, th in self.threads.items():
                for pid, _u, n in th["posts"]:
                    if p.get("p") == str(pid):
                        body = f"<h2>#{n}</h2>{prose(self, f'post{pid}', self.vocab, 30, 80)}"
                        body += a(self.tlink(t, f"&p={pid}#post{pid}"), "View in thread")
                        return self.serve(req, self.frame("Post", body))
            return not_found()
        if path == "/member.php":
            m = re.fullmatch(r"(\d+)(?:-[\w-]*)?", head)
            if not m or int(m.group(1)) not in self.users:
                return not_found()
            u = int(m.group(1))
            mine = [
                (self.tlink(t), title_of(th["slug"]))
                for t, th in self.threads.items()
                if th["posts"][0][1] == u
            ]
            body = f"<h1>{self.users[u]}</h1>{prose(self, f'u{u}', self.vocab, 40, 90)}"
            return self.serve(req, self.frame(self.users[u], body + ul(mine)))
        return not_found()

    def forum(self, req: Req, f: int, page: int, params: list[tuple[str, str]]) -> Reply:
        p = dict(params)
        rows = [(t, th) for t, th in self.threads.items() if th["fid"] == f]
        if p.get("prefixid"):
            rows = [r for r in rows if r[1]["prefix"] == p["prefixid"]]
        key = {
            "title": lambda r: r[1]["slug"],
            "postusername": lambda r: self.users[r[1]["posts"][0][1]],
            "replycount": lambda r: len(r[1]["posts"]),
            "views": lambda r: r[1]["views"],
        }.get(p.get("sort", "lastpost"), lambda r: r[1]["when"])
        rows.sort(key=key, reverse=p.get("order", "desc") == "desc")
        pages = max(1, (len(rows) + 4) // 5)
        page = min(page, pages)
        base = f"/forumdisplay.php?{f}-{self.forums[f]}"

        def at(n: int, ps: list[tuple[str, str]]) -> str:
            return base + (f"/page{n}" if n > 1 else "") + ("&" + urlencode(ps) if ps else "")

        heads = bar(
            [
                (
                    at(
                        1,
                        setp(
                            setp(params, "sort", s),
                            "order",
                            "asc" if p.get("sort") == s and p.get("order") == "desc" else "desc",
                        ),
                    ),
                    s,
                )
                for s in _VB_SORTS
            ]
        )
        prefixes = bar([(at(1, setp(params, "prefixid", x)), x.title()) for x in _VB_PREFIXES])
        items = "".join(
            f"<li>{'[' + th['prefix'] + '] ' if th['prefix'] else ''}"
            f"{a(self.tlink(t), title_of(th['slug']))} by "
            f"{a(self.mlink(th['posts'][0][1]), 'op')}</li>"
            for t, th in rows[(page - 1) * 5 : page * 5]
        )
        pager = bar([(at(n, params), str(n)) for n in range(1, pages + 1)])
        body = (
            f"<h1>{title_of(self.forums[f])}</h1><p>Sort: {heads}</p><p>Prefix: {prefixes}</p>"
            f"<ol>{items}</ol><p>Page {page} of {pages}: {pager}</p>"
            f"{prose(self, f'f{f}' if page == 1 else f'f{f}p{page}', self.vocab, 40, 100)}"
            f"<p>{a('/newthread.php?do=newthread&f=' + str(f), '+ Post New Thread')}</p>"
        )
        return self.serve(req, self.frame(title_of(self.forums[f]), body))

    def thread(self, req: Req, t: int, page: int, params: list[tuple[str, str]]) -> Reply:
        th = self.threads[t]
        p = dict(params)
        mode = p.get("mode", "linear")
        pages = (len(th["posts"]) + 9) // 10
        page = min(page, pages)
        shown = th["posts"][(page - 1) * 10 : page * 10]
        posts = "".join(
            f"<div id='post{pid}'>{a(self.tlink(t, f'&p={pid}#post{pid}'), f'#{n}')} "
            f"{a(f'/member.php?{u}-{self.users[u]}', self.users[u])} "
            f"{a(f'/showpost.php?p={pid}&postcount={n}', 'Show post')} "
            f"{a(f'/newreply.php?do=newreply&p={pid}', 'Reply With Quote')}"
            f"{prose(self, f'post{pid}', self.vocab, 30, 80)}</div>"
            for pid, u, n in shown
        )
        tree = ""
        if mode in ("threaded", "hybrid"):
            tree = ul(
                [
                    (self.tlink(t, f"&p={pid}&mode={mode}#post{pid}"), f"post {n}")
                    for pid, _, n in th["posts"]
                ]
            )
        modes = bar(
            [(self.tlink(t, f"&mode={m}"), m.title()) for m in ("linear", "threaded", "hybrid")]
        )
        pager = bar(
            [(self.tlink(t, f"/page{n}" if n > 1 else ""), str(n)) for n in range(1, pages + 1)]
        )
        f = th["fid"]
        body = (
            f"<h1>{title_of(th['slug'])}</h1><p>{modes}</p>{tree}{posts}<p>{pager}</p><p>"
            f"{a(f'/showthread.php?t={t}&goto=nextoldest', '« Previous Thread')} | "
            f"{a(f'/showthread.php?t={t}&goto=nextnewest', 'Next Thread »')} | "
            f"{a(f'/printthread.php?t={t}&pp=10&page={page}', 'Printable View')} | "
            f"{a(f'/forumdisplay.php?{f}-{self.forums[f]}', title_of(self.forums[f]))}</p>"
        )
        return self.serve(req, self.frame(title_of(th["slug"]), body))


# ----------------------------------------------------------------------------------------
# OpenCart 3. Everything is `index.php?route=...`. Category pages
# (`route=product/category&path=20_27`) have sort (`sort=p.sort_order|pd.name|p.price|
# rating|p.model` with `order=ASC|DESC`), "Show" (`limit=`) and paging (`page=`) keeping
# each other; products are linked from category pages with the category path
# (`&path=20_27&product_id=40`), from brand pages with `&manufacturer_id=`, and from the
# tag search (`route=product/search&tag=`) with `&search=&tag=`: copies of the product,
# whose canonical is `route=product/product&product_id=40`. Tag searches sort and page too.
# Legit look-alikes: top categories and subcategories, the real page 2 of a category,
# the brand list and brand pages, the information pages.
# ----------------------------------------------------------------------------------------

_OC_SORTS = ["p.sort_order", "pd.name", "p.price", "rating", "p.model"]
_OC_LIMITS = ["15", "25", "50", "75", "100"]


class OpenCart(Hosted):
    """OpenCart 3: product under every path=/manufacturer_id=/tag, sort/order/limit/page."""

    name = "opencart"
    kind = "OpenCart 3: product_id under path=/manufacturer_id=/tag=, sort/order/limit/page"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = [
        "/admin",
        "/system/",
        "/index.php?route=account/",
        "/index.php?route=checkout/",
        "/index.php?route=product/compare",
    ]

    def setup(self) -> None:
        self.vocab = words_for("shop")
        rng = self.rng("oc")
        tops = slugs(self.key("top"), 3, THEMES["shop"], 1)
        subs = slugs(self.key("sub"), 6, THEMES["shop"], 2)
        self.cats: dict[str, str] = {}
        for i, t in enumerate(tops):
            cid = 20 + i * 10
            self.cats[str(cid)] = t
            for j in range(2):
                self.cats[f"{cid}_{cid + 1 + j}"] = subs[i * 2 + j]
        self.brands = {8 + i: s for i, s in enumerate(slugs(self.key("b"), 3, self.vocab, 1))}
        self.tags = slugs(self.key("tags"), 5, THEMES["shop"], 1)
        names = slugs(self.key("p"), 20, self.vocab, 2)
        leaves = [c for c in self.cats if "_" in c]
        self.prods = {
            40 + i: {
                "name": n,
                "path": leaves[i % 6],
                "brand": rng.choice(list(self.brands)),
                "tags": rng.sample(self.tags, 2),
                "price": rng.randint(9, 240),
                "model": f"M-{rng.randint(100, 999)}",
                "order": rng.randint(0, 9),
            }
            for i, n in enumerate(names)
        }
        # the first leaf gets 8 more products so its 15-a-page list has a page 2
        self.info = {4: "about-us", 6: "delivery-information", 3: "privacy-policy"}
        r = "/index.php?route="
        self.reg("home", "/")
        for c in self.cats:
            self.reg(f"c{c}", f"{r}product/category&path={c}")
        self.reg("c2", f"{r}product/category&path={leaves[0]}&page=2")
        self.reg("brands", f"{r}product/manufacturer")
        for b in self.brands:
            self.reg(f"b{b}", f"{r}product/manufacturer.info&manufacturer_id={b}")
        for pid in self.prods:
            self.reg(f"p{pid}", f"{r}product/product&product_id={pid}")
        for i in self.info:
            self.reg(f"i{i}", f"{r}information/information&information_id={i}")
        self.leaf0 = leaves[0]

    def in_cat(self, c: str) -> list[int]:
        out = [p for p, d in self.prods.items() if d["path"] == c or d["path"].startswith(c + "_")]
        if c == self.leaf0 or c == self.leaf0.split("_")[0]:
            out += [p for p in self.prods if p not in out][:14]
        return out

    def frame(self, title: str, body: str, canon: str | None = None) -> str:
        r = "/index.php?route="
        nav = bar(
            [("/", "Home")]
            + [
                (f"{r}product/category&path={c}", title_of(s))
                for c, s in self.cats.items()
                if "_" not in c
            ]
            + [
                (f"{r}account/account", "My Account"),
                (f"{r}account/wishlist", "Wish List"),
                (f"{r}checkout/cart", "Shopping Cart"),
                (f"{r}checkout/checkout", "Checkout"),
                (f"{r}product/compare", "Product Compare"),
            ]
        )
        foot = bar(
            [
                (f"{r}information/information&information_id={i}", title_of(s))
                for i, s in self.info.items()
            ]
            + [(f"{r}product/manufacturer", "Brands")]
        )
        return doc(
            f"{title} - Fieldcraft Outfitters",
            f"<nav>{nav}</nav>{body}<footer>{foot}</footer>",
            canonical=canon,
        )

    def plist(self, ids: list[int], via: list[tuple[str, str]]) -> str:
        return ul(
            [
                (
                    href(
                        "/index.php",
                        [("route", "product/product"), *via, ("product_id", str(p))],
                        "/",
                    ),
                    title_of(self.prods[p]["name"]),
                )
                for p in ids
            ]
        )

    def listing(
        self, ids: list[int], pairs: list[tuple[str, str]], via: list[tuple[str, str]]
    ) -> str:
        p = dict(pairs)
        key = {
            "pd.name": lambda x: self.prods[x]["name"],
            "p.price": lambda x: self.prods[x]["price"],
            "p.model": lambda x: self.prods[x]["model"],
            "rating": lambda x: -self.prods[x]["price"] % 7,
        }.get(p.get("sort", ""), lambda x: self.prods[x]["order"])
        ids = sorted(ids, key=key, reverse=p.get("order") == "DESC")
        lim = int(p["limit"]) if p.get("limit", "").isdigit() and int(p["limit"]) > 0 else 15
        page = int(p["page"]) if p.get("page", "").isdigit() and int(p["page"]) > 0 else 1
        pages = max(1, (len(ids) + lim - 1) // lim)

        def at(ps: list[tuple[str, str]]) -> str:
            return href("/index.php", ps, "/")

        sorts = bar(
            [
                (at(setp(setp(without(pairs, "page"), "sort", s), "order", o)), f"{s} {o}")
                for s in _OC_SORTS
                for o in ("ASC", "DESC")
            ]
        )
        lims = bar([(at(setp(without(pairs, "page"), "limit", x)), x) for x in _OC_LIMITS])
        pager = bar([(at(setp(pairs, "page", str(n))), str(n)) for n in range(1, pages + 1)])
        return (
            f"<p>Sort By: {sorts}</p><p>Show: {lims}</p>"
            f"{self.plist(ids[(page - 1) * lim : page * lim], via)}<p>{pager}</p>"
            f"<p>Showing page {page} of {pages}</p>"
        )

    def handle(self, req: Req) -> Reply:
        if req.path == "/" and not req.query:
            feat = list(self.prods)[:8]
            body = f"<h1>Featured</h1>{self.plist(feat, [])}{prose(self, 'home', self.vocab)}"
            return self.serve(req, self.frame("Your Store", body))
        if req.path != "/index.php":
            return not_found()
        pairs = qlist(req.query)
        p = dict(pairs)
        route = p.get("route", "common/home")
        if route == "common/home":
            return redirect("/", 301)
        if route == "product/category" and p.get("path", "").split("_")[-1] in {
            c.split("_")[-1] for c in self.cats
        }:
            c = next(c for c in self.cats if c.split("_")[-1] == p["path"].split("_")[-1])
            subs = ul(
                [
                    (
                        f"/index.php?route=product/category&path={p['path']}_{k.split('_')[1]}",
                        title_of(s),
                    )
                    for k, s in self.cats.items()
                    if k.startswith(c + "_")
                ]
            )
            page = p.get("page", "1")
            text = prose(self, f"c{c}" if page in ("", "1") else f"c{c}p{page}", self.vocab, 40)
            body = f"<h1>{title_of(self.cats[c])}</h1>{subs}{text}"
            body += self.listing(self.in_cat(c), pairs, [("path", p["path"])])
            return self.serve(req, self.frame(title_of(self.cats[c]), body))
        if route == "product/product" and p.get("product_id", "").isdigit():
            pid = int(p["product_id"])
            d = self.prods.get(pid)
            if d is None:
                return not_found()
            r = "/index.php?route="
            tags = bar([(f"{r}product/search&tag={t}", t) for t in d["tags"]])
            brand = f"{r}product/product&manufacturer_id={d['brand']}&product_id={pid}"
            ids = list(self.prods)
            rel = [ids[(ids.index(pid) + k) % len(ids)] for k in (1, 2, 3)]
            blink = a(
                f"{r}product/manufacturer.info&manufacturer_id={d['brand']}",
                title_of(self.brands[d["brand"]]),
            )
            body = (
                f"<h1>{title_of(d['name'])}</h1><p>Brand: "
                f"{blink} "
                f"({a(brand, 'more from this brand')})</p>"
                f"<p>Product Code: {d['model']} Price: ${d['price']}.00</p>"
                f"{prose(self, f'p{pid}', self.vocab)}<p>Tags: {tags}</p><p>"
                f"{a(f'{r}checkout/cart/add&product_id={pid}', 'Add to Cart')} "
                f"{a(f'{r}product/compare/add&product_id={pid}', 'Compare this Product')}</p>"
                f"<h3>Related Products</h3>"
                f"{self.plist(rel, [])}"
            )
            canon = self.bases[0] + f"{r}product/product&product_id={pid}"
            return self.serve(req, self.frame(title_of(d["name"]), body, canon))
        if route == "product/manufacturer" and len(pairs) == 1:
            rows = [
                (f"/index.php?route=product/manufacturer.info&manufacturer_id={b}", title_of(s))
                for b, s in self.brands.items()
            ]
            body = f"<h1>Find Your Favorite Brand</h1>{ul(rows)}"
            body += prose(self, "brands", self.vocab, 30, 60)
            return self.serve(req, self.frame("Brands", body))
        if route == "product/manufacturer.info" and p.get("manufacturer_id", "").isdigit():
            b = int(p["manufacturer_id"])
            if b not in self.brands:
                return not_found()
            ids = [x for x, d in self.prods.items() if d["brand"] == b]
            body = f"<h1>{title_of(self.brands[b])}</h1>{prose(self, f'b{b}', self.vocab, 40)}"
            body += self.listing(ids, pairs, [("manufacturer_id", str(b))])
            return self.serve(req, self.frame(title_of(self.brands[b]), body))
        if route == "product/search" and p.get("tag") in self.tags:
            ids = [x for x, d in self.prods.items() if p["tag"] in d["tags"]]
            body = f"<h1>Search - {esc(p['tag'])}</h1>"
            body += self.listing(ids, pairs, [("search", ""), ("tag", p["tag"])])
            return self.serve(req, self.frame("Search", body))
        if route == "information/information" and p.get("information_id", "").isdigit():
            i = int(p["information_id"])
            if i not in self.info:
                return not_found()
            body = f"<h1>{title_of(self.info[i])}</h1>{prose(self, f'i{i}', self.vocab)}"
            return self.serve(req, self.frame(title_of(self.info[i]), body))
        return not_found()


# ----------------------------------------------------------------------------------------
# Mailman archives: a list that moved from Mailman 2 (Pipermail, static) to Mailman 3
# (HyperKitty) at the end of 2025. Pipermail keeps its old months (thread, date, subject,
# author index per month, one file per message). HyperKitty imported the old messages
# too: its month pages (`/hyperkitty/list/<list>/<yyyy>/<m>/`) have "previous/next month"
# links that never stop (empty months), `latest?page=&count=`, thread `?sort=`, and
# message permalinks (`/message/<hash>/`) for every message, old ones included.
# Legit look-alikes: Pipermail's 3 months x 4 indexes and its messages, HyperKitty's own
# 2026 months and threads.
# ----------------------------------------------------------------------------------------

_ML = "river-users@lists.tidewater.example"
_HK = f"/hyperkitty/list/{_ML}"
_PM = "/pipermail/river-users"


def _h(s: str) -> str:
    return (
        hashlib.sha1(s.encode()).hexdigest()[:32].upper().translate(str.maketrans("0189", "WXYZ"))
    )


class Mailman(Hosted):
    """Pipermail archive (legit, 2025) next to HyperKitty (2026 legit, imported copies)."""

    name = "mailman"
    kind = "Mailman 2->3: HyperKitty months without end, imported Pipermail copies, ?sort="
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = [
        "/mailman3/accounts/",
        "/hyperkitty/search",
        "/mailman/admin/",
        "/accounts/",
    ]

    def setup(self) -> None:
        self.vocab = words_for("archive")
        rng = self.rng("mm")
        self.authors = slugs(self.key("au"), 5, THEMES["archive"], 1)
        subjects = slugs(self.key("su"), 12, self.vocab, 3)
        # threads: (month key, subject, [message numbers]); months 2025-10..12 and 2026-1..3
        self.months = [(2025, 10), (2025, 11), (2025, 12), (2026, 1), (2026, 2), (2026, 3)]
        self.msgs: list[dict] = []
        self.threads: list[dict] = []
        n = 0
        for i, s in enumerate(subjects):
            y, m = self.months[i // 2]
            th = {"subj": s, "y": y, "m": m, "msgs": [], "id": _h(f"t{i}{s}")}
            for k in range(rng.randint(2, 3)):
                msg = {
                    "n": n,
                    "subj": ("Re: " if k else "") + title_of(s),
                    "y": y,
                    "m": m,
                    "au": rng.choice(self.authors),
                    "day": 1 + 3 * k + i % 9,
                    "id": _h(f"m{n}"),
                    "thread": th,
                }
                th["msgs"].append(msg)
                self.msgs.append(msg)
                n += 1
            self.threads.append(th)
        self.reg("root", "/")
        self.reg("pm", f"{_PM}/")
        self.reg("hk", "/hyperkitty/")
        self.reg("hkl", f"{_HK}/")
        for y, m in self.months:
            if y == 2025:
                for ix in ("thread", "date", "subject", "author"):
                    self.reg(f"pm{m}{ix}", f"{_PM}/{self.mname(y, m)}/{ix}.html")
            else:
                self.reg(f"hk{m}", f"{_HK}/{y}/{m}/")
        for msg in self.msgs:
            if msg["y"] == 2025:
                self.reg(
                    f"msg{msg['n']}", f"{_PM}/{self.mname(msg['y'], msg['m'])}/{msg['n']:06d}.html"
                )
        for th in self.threads:
            if th["y"] == 2026:
                self.reg(f"th{th['id']}", f"{_HK}/thread/{th['id']}/")

    @staticmethod
    def mname(y: int, m: int) -> str:
        return f"{y}-{dt.date(y, m, 1):%B}"

    def handle(self, req: Req) -> Reply:
        path, q = req.path, qs(req.query)
        if path == "/":
            body = (
                f"<h1>lists.tidewater.example</h1><p>{a(_PM + '/', 'Old archives (2025)')} "
                f"| {a('/hyperkitty/', 'Archives (HyperKitty)')} | "
                f"{a('/mailman3/accounts/login/', 'Sign in')}</p>"
                f"{prose(self, 'root', self.vocab, 40, 90)}"
            )
            return self.serve(req, doc("Mailing lists", body))
        if path.startswith(_PM):
            return self.pipermail(req, path[len(_PM) :])
        if path == "/hyperkitty/":
            body = (
                f"<h1>Available lists</h1>{ul([(_HK + '/', _ML)])}"
                f"{prose(self, 'hk', self.vocab, 30, 60)}"
            )
            return self.serve(req, self.hkframe("Available lists", body))
        if path.startswith(_HK):
            return self.hyperkitty(req, path[len(_HK) :], q)
        return not_found()

    def hkframe(self, title: str, body: str) -> str:
        months = ul(
            [
                (f"{_HK}/{y}/{m}/", f"{dt.date(y, m, 1):%B %Y}")
                for y, m in reversed(self.months)
                if y == 2026
            ]
        )
        nav = bar(
            [
                ("/hyperkitty/", "All lists"),
                ("/hyperkitty/search?q=", "Search"),
                ("/accounts/login/?next=/hyperkitty/", "Sign In"),
            ]
        )
        return doc(f"{title} - HyperKitty", f"<nav>{nav}</nav><aside>{months}</aside>{body}")

    def thread_rows(self, msgs: list[dict]) -> str:
        seen: list[dict] = []
        for m in msgs:
            if m["thread"] not in seen:
                seen.append(m["thread"])
        return ul([(f"{_HK}/thread/{t['id']}/", title_of(t["subj"])) for t in seen])

    def hyperkitty(self, req: Req, rest: str, q: dict[str, str]) -> Reply:
        if rest == "/":
            body = (
                f"<h1>{_ML}</h1>{prose(self, 'hkl', self.vocab, 40, 90)}"
                f"<p>{a(_HK + '/latest', 'Recent')} | "
                f"{a(_HK + '/latest?page=2&count=10', 'older')}</p>"
                f"{self.thread_rows(self.msgs[::-1][:10])}"
            )
            return self.serve(req, self.hkframe(_ML, body))
        if rest == "/latest":
            page = int(q["page"]) if q.get("page", "").isdigit() else 1
            count = int(q["count"]) if q.get("count", "").isdigit() and q["count"] != "0" else 10
            page = max(page, 1)
            rows = self.msgs[::-1][(page - 1) * count : page * count]
            nav = bar(
                [
                    (f"{_HK}/latest?page={page + 1}&count={count}", "Next"),
                    (f"{_HK}/latest?page={max(1, page - 1)}&count={count}", "Previous"),
                ]
                + [(f"{_HK}/latest?page={page}&count={c}", str(c)) for c in (10, 25, 50)]
            )
            body = f"<h1>Recent threads, page {page}</h1>{self.thread_rows(rows)}<p>{nav}</p>"
            return self.serve(req, self.hkframe("Recent", body))
        m = re.fullmatch(r"/(\d{4})/(\d{1,2})/", rest)
        if m:
            y, mo = int(m.group(1)), int(m.group(2))
            if not 1 <= mo <= 12 or not 1990 <= y <= 2100:
                return not_found()
            msgs = [x for x in self.msgs if (x["y"], x["m"]) == (y, mo)]
            prev = dt.date(y, mo, 1) - dt.timedelta(days=1)
            nxt = dt.date(y, mo, 28) + dt.timedelta(days=4)
            nav = bar(
                [
                    (f"{_HK}/{prev.year}/{prev.month}/", "« previous month"),
                    (f"{_HK}/{nxt.year}/{nxt.month}/", "next month »"),
                ]
            )
            text = prose(self, f"hk{mo}", self.vocab, 30, 70) if y == 2026 else ""
            body = (
                f"<h1>{dt.date(y, mo, 1):%B %Y}</h1><p>{nav}</p>{text}"
                f"{self.thread_rows(msgs) if msgs else '<p>No discussions this month.</p>'}"
            )
            return self.serve(req, self.hkframe(f"{dt.date(y, mo, 1):%B %Y}", body))
        m = re.fullmatch(r"/thread/([A-Z0-9]+)/", rest)
        if m:
            th = next((t for t in self.threads if t["id"] == m.group(1)), None)
            if th is None:
                return not_found()
            order = th["msgs"] if q.get("sort", "thread") == "thread" else th["msgs"][::-1]
            msgs = "".join(
                f"<div><h3>{esc(x['subj'])}</h3><p>{x['au']} "
                f"{a(_HK + '/message/' + x['id'] + '/', 'permalink')}</p>"
                f"{prose(self, 'msg' + str(x['n']), self.vocab, 40, 120)}</div>"
                for x in order
            )
            sorts = bar(
                [(f"{_HK}/thread/{th['id']}/?sort={s}", f"by {s}") for s in ("thread", "date")]
            )
            month = f"{_HK}/{th['y']}/{th['m']}/"
            body = (
                f"<h1>{title_of(th['subj'])}</h1><p>{sorts} | {a(month, 'month')}</p>"
                f"{prose(self, 'th' + th['id'], self.vocab, 20, 40)}{msgs}"
            )
            return self.serve(req, self.hkframe(title_of(th["subj"]), body))
        m = re.fullmatch(r"/message/([A-Z0-9]+)/", rest)
        if m:
            x = next((x for x in self.msgs if x["id"] == m.group(1)), None)
            if x is None:
                return not_found()
            body = (
                f"<h1>{esc(x['subj'])}</h1>{prose(self, 'msg' + str(x['n']), self.vocab, 40, 120)}"
                f"<p>{a(_HK + '/thread/' + x['thread']['id'] + '/', 'Thread')}</p>"
            )
            return self.serve(req, self.hkframe(x["subj"], body))
        return not_found()

    def pipermail(self, req: Req, rest: str) -> Reply:
        if rest == "/":
            rows = "".join(
                f"<tr><td>{dt.date(y, m, 1):%B %Y}:</td><td>"
                + bar(
                    [
                        (f"{self.mname(y, m)}/{ix}.html", f"[ {ix.title()} ]")
                        for ix in ("thread", "subject", "author", "date")
                    ]
                )
                + "</td></tr>"
                for y, m in reversed(self.months)
                if y == 2025
            )
            body = (
                f"<h1>The river-users Archives</h1><table>{rows}</table>"
                f"{prose(self, 'pm', self.vocab, 30, 60)}"
            )
            return self.serve(req, doc("The river-users Archives", body))
        m = re.fullmatch(r"/(\d{4})-([A-Za-z]+)/(thread|date|subject|author|\d{6})\.html", rest)
        if not m:
            return not_found()
        mm = next(
            (
                (y, mo)
                for y, mo in self.months
                if self.mname(y, mo) == f"{m.group(1)}-{m.group(2)}" and y == 2025
            ),
            None,
        )
        if mm is None:
            return not_found()
        msgs = [x for x in self.msgs if (x["y"], x["m"]) == mm]
        what = m.group(3)
        if what.isdigit():
            x = next((x for x in msgs if x["n"] == int(what)), None)
            if x is None:
                return not_found()
            i = self.msgs.index(x)
            nav = []
            if i > 0 and (self.msgs[i - 1]["y"], self.msgs[i - 1]["m"]) == mm:
                nav.append((f"{self.msgs[i - 1]['n']:06d}.html", "Previous message"))
            if i + 1 < len(self.msgs) and (self.msgs[i + 1]["y"], self.msgs[i + 1]["m"]) == mm:
                nav.append((f"{self.msgs[i + 1]['n']:06d}.html", "Next message"))
            nav += [
                (f"{ix}.html", f"Messages sorted by: [ {ix} ]")
                for ix in ("date", "thread", "subject", "author")
            ]
            body = (
                f"<h1>{esc(x['subj'])}</h1><b>{x['au']}</b>"
                f"{prose(self, 'msg' + str(x['n']), self.vocab, 40, 120)}{ul(nav)}"
            )
            return self.serve(req, doc(x["subj"], body))
        key = {
            "date": lambda x: x["day"],
            "subject": lambda x: x["subj"],
            "author": lambda x: x["au"],
        }.get(what, lambda x: x["n"])
        rows = ul(
            [(f"{x['n']:06d}.html", f"{x['subj']} ({x['au']})") for x in sorted(msgs, key=key)]
        )
        other = bar(
            [
                (f"{ix}.html", f"[ {ix} ]")
                for ix in ("thread", "subject", "author", "date")
                if ix != what
            ]
        )
        body = (
            f"<h1>{m.group(1)}-{m.group(2)} Archives by {what}</h1><p>{other} "
            f"{a('../', 'More info on this list...')}</p>{rows}"
        )
        return self.serve(req, doc(f"The river-users {m.group(2)} {m.group(1)} Archive", body))


# ----------------------------------------------------------------------------------------
# Invision Community 4.7 (forums app, friendly URLs). Forum lists sort
# (`?sortby=last_post|title|start_date|posts|views&sortdirection=asc|desc`) and filter
# (`?filter=solved|unsolved|...`), paging (`/page/N/`) keeping both. Every post has
# "Share" (`?do=findComment&comment=N`, a redirect to the page holding it), an embed view
# (`?do=embed&comment=N&embedComment=N&embedDo=findComment`), reaction lists
# (`?do=showReactionsComment&comment=N&reaction=K`), "Report" (`?do=reportComment`); the
# topic's "Go to unread" and "Last reply" are `?do=getNewComment`/`?do=getLastComment`
# redirects. robots.txt is Invision's own optimised one (prefix lines such as
# `/search/`, `/discover/`, `/login/` and wildcard lines `/*?sortby=`, `/*?filter=`,
# `/*?do=`, `/*?tab=`); its `Crawl-delay` line is left out here.
# Legit look-alikes: forums' real page 2, long topics' page 2, tag pages, profiles.
# ----------------------------------------------------------------------------------------

_IP_ROBOTS = """User-Agent: *
Disallow: /startTopic/
Disallow: /discover/unread/
Disallow: /markallread/
Disallow: /staff/
Disallow: /cookie/
Disallow: /online/
Disallow: /discover/
Disallow: /leaderboard/
Disallow: /search/
Disallow: /*?advancedSearchForm=
Disallow: /register/
Disallow: /lostpassword/
Disallow: /login/
Disallow: /*currency=
Disallow: /*?sortby=
Disallow: /*?filter=
Disallow: /*?tab=
Disallow: /*?do=
Disallow: /*ref=
Disallow: /*?forumId*
Disallow: /*?&controller=embed
"""
_IP_SORTS = ["last_post", "title", "start_date", "posts", "views"]
_IP_FILTERS = ["solved", "unsolved", "questions", "unanswered"]


class Invision(Hosted):
    """Invision Community 4: sortby/sortdirection/filter in /page/N/, ?do= per post."""

    name = "invision"
    kind = "Invision Community 4: ?sortby=&filter= in /page/N/, per-post ?do= views, redirects"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/forums/")]
    robots_disallow: ClassVar[list[str]] = [
        line[10:]
        for line in _IP_ROBOTS.splitlines()
        if line.startswith("Disallow: /") and not line.startswith("Disallow: /*")
    ]

    def robots_txt(self, req: Req) -> str:
        return _IP_ROBOTS

    def setup(self) -> None:
        self.vocab = words_for("science") + THEMES["forum"]
        rng = self.rng("ip")
        self.forums = {
            3 + i: s for i, s in enumerate(slugs(self.key("f"), 3, THEMES["science"], 2))
        }
        self.members = {
            11 + i: s for i, s in enumerate(slugs(self.key("m"), 4, THEMES["science"], 1))
        }
        self.tags = slugs(self.key("tg"), 4, THEMES["science"], 1)
        titles = slugs(self.key("t"), 18, self.vocab, 3)
        self.topics: dict[int, dict] = {}
        cid = 900
        for i, t in enumerate(titles):
            n = rng.randint(26, 33) if i % 8 == 2 else rng.randint(2, 8)
            comments = []
            for _ in range(n):
                cid += rng.randint(1, 6)
                comments.append((cid, rng.choice(list(self.members))))
            self.topics[200 + i] = {
                "slug": t,
                "fid": 3 if i < 8 else 4 if i < 13 else 5,
                "c": comments,
                "solved": rng.random() < 0.4,
                "tag": rng.choice(self.tags),
                "views": rng.randint(10, 5000),
            }
        self.reg("index", "/forums/")
        for f, s in self.forums.items():
            self.reg(f"f{f}", f"/forums/forum/{f}-{s}/")
        self.reg("f3p2", f"/forums/forum/3-{self.forums[3]}/page/2/")
        for t, tp in self.topics.items():
            self.reg(f"t{t}", self.tl(t))
            if len(tp["c"]) > 25:
                self.reg(f"t{t}p2", self.tl(t) + "page/2/")
        for m, s in self.members.items():
            self.reg(f"m{m}", f"/profile/{m}-{s}/")
        for tg in self.tags:
            self.reg(f"tag{tg}", f"/tags/{tg}/")

    def tl(self, t: int) -> str:
        return f"/forums/topic/{t}-{self.topics[t]['slug']}/"

    def frame(self, title: str, body: str) -> str:
        nav = bar(
            [
                ("/forums/", "Forums"),
                ("/discover/", "Activity"),
                ("/leaderboard/", "Leaderboard"),
                ("/search/", "Search"),
                ("/login/", "Sign In"),
                ("/register/", "Sign Up"),
                ("/online/", "Online"),
            ]
        )
        return doc(f"{title} - Lattice Lab Community", f"<nav>{nav}</nav>{body}")

    def handle(self, req: Req) -> Reply:
        path, pairs = req.path, qlist(req.query)
        q = dict(pairs)
        if path == "/":
            return redirect("/forums/", 301)
        if path == "/forums/" and not pairs:
            rows = [(f"/forums/forum/{f}-{s}/", title_of(s)) for f, s in self.forums.items()]
            body = f"<h1>Forums</h1>{ul(rows)}{prose(self, 'index', self.vocab)}"
            return self.serve(req, self.frame("Forums", body))
        m = re.fullmatch(r"/forums/forum/(\d+)-[\w-]*/(?:page/(\d+)/)?", path)
        if m and int(m.group(1)) in self.forums:
            return self.forum(req, int(m.group(1)), int(m.group(2) or 1), pairs)
        m = re.fullmatch(r"/forums/topic/(\d+)-[\w-]*/(?:page/(\d+)/)?", path)
        if m and int(m.group(1)) in self.topics:
            return self.topic(req, int(m.group(1)), int(m.group(2) or 1), q)
        m = re.fullmatch(r"/profile/(\d+)-[\w-]*/", path)
        if m and int(m.group(1)) in self.members:
            u = int(m.group(1))
            mine = [
                (self.tl(t), title_of(tp["slug"]))
                for t, tp in self.topics.items()
                if tp["c"][0][1] == u
            ]
            tabs = bar(
                [
                    (f"/profile/{u}-{self.members[u]}/?tab={x}", x)
                    for x in ("activity", "followers", "reputation")
                ]
            )
            body = (
                f"<h1>{self.members[u]}</h1><p>{tabs}</p>"
                f"{prose(self, f'm{u}', self.vocab, 30, 80)}{ul(mine)}"
            )
            return self.serve(req, self.frame(self.members[u], body))
        m = re.fullmatch(r"/tags/([\w-]+)/", path)
        if m and m.group(1) in self.tags:
            tg = m.group(1)
            rows = [
                (self.tl(t), title_of(tp["slug"]))
                for t, tp in self.topics.items()
                if tp["tag"] == tg
            ]
            body = f"<h1>Tagged '{tg}'</h1>{prose(self, 'tag' + tg, self.vocab, 20, 50)}{ul(rows)}"
            return self.serve(req, self.frame(tg, body))
        return not_found()

    def forum(self, req: Req, f: int, page: int, pairs: list[tuple[str, str]]) -> Reply:
        q = dict(pairs)
        rows = [t for t, tp in self.topics.items() if tp["fid"] == f]
        if q.get("filter") in ("solved", "unsolved"):
            rows = [t for t in rows if self.topics[t]["solved"] == (q["filter"] == "solved")]
        key = {
            "title": lambda t: self.topics[t]["slug"],
            "start_date": lambda t: t,
            "posts": lambda t: len(self.topics[t]["c"]),
            "views": lambda t: self.topics[t]["views"],
        }
        rows.sort(
            key=key.get(q.get("sortby", ""), lambda t: self.topics[t]["c"][-1][0]),
            reverse=q.get("sortdirection", "desc") == "desc",
        )
        pages = max(1, (len(rows) + 5) // 6)
        page = min(page, pages)
        base = f"/forums/forum/{f}-{self.forums[f]}/"

        def at(n: int, ps: list[tuple[str, str]]) -> str:
            return href(base + (f"page/{n}/" if n > 1 else ""), ps)

        sorts = bar(
            [
                (at(1, setp(setp(pairs, "sortby", s), "sortdirection", d)), f"{s} {d}")
                for s in _IP_SORTS
                for d in ("asc", "desc")
            ]
        )
        filters = bar([(at(1, setp(pairs, "filter", x)), x) for x in _IP_FILTERS])
        pager = bar([(at(n, pairs), str(n)) for n in range(1, pages + 1)])
        text = prose(self, f"f{f}" if page == 1 else f"f{f}p{page}", self.vocab, 30, 80)
        items = [
            (self.tl(t), title_of(self.topics[t]["slug"])) for t in rows[(page - 1) * 6 : page * 6]
        ]
        body = (
            f"<h1>{title_of(self.forums[f])}</h1><p>Sort: {sorts}</p><p>Filter: {filters}</p>"
            f"{text}{ul(items)}"
            f"<p>{pager}</p><p>{a('/startTopic/', 'Start new topic')}</p>"
        )
        return self.serve(req, self.frame(title_of(self.forums[f]), body))

    def topic(self, req: Req, t: int, page: int, q: dict[str, str]) -> Reply:
        tp = self.topics[t]
        ids = [c for c, _ in tp["c"]]
        pages = (len(ids) + 24) // 25
        do = q.get("do", "")
        if do in ("findComment", "getNewComment", "getLastComment"):
            c = int(q["comment"]) if q.get("comment", "").isdigit() else ids[-1]
            if c not in ids:
                return not_found()
            k = ids.index(c) if do == "findComment" else len(ids) - 1
            pg = k // 25 + 1
            return redirect(self.tl(t) + (f"page/{pg}/" if pg > 1 else "") + f"#comment-{c}")
        page = max(1, min(page, pages))
        shown = tp["c"][(page - 1) * 25 : page * 25]
        if do == "embed" and q.get("comment", "").isdigit() and int(q["comment"]) in ids:
            c = int(q["comment"])
            return self.serve(req, doc("Embed", prose(self, f"c{c}", self.vocab, 20, 60)))
        if do in ("showReactionsComment", "reportComment"):
            c = q.get("comment", "")
            body = f"<h1>{do}</h1><p>comment {esc(c)}</p>{ul([(self.tl(t), 'Back')])}"
            return self.serve(req, self.frame(do, body))
        base = self.tl(t)
        posts = "".join(
            f"<article id='comment-{c}'>"
            f"{a(f'/profile/{u}-{self.members[u]}/', self.members[u])} "
            f"{a(f'{base}?do=findComment&comment={c}', 'Share')} "
            f"{a(f'{base}?do=embed&comment={c}&embedComment={c}&embedDo=findComment', 'Embed')} "
            + " ".join(
                a(f"{base}?do=showReactionsComment&comment={c}&reaction={r}", f"r{r}")
                for r in (1, 2, 3)
            )
            + f" {a(f'{base}?do=reportComment&comment={c}', 'Report')}"
            f"{prose(self, f'c{c}', self.vocab, 20, 60)}</article>"
            for c, u in shown
        )
        pager = bar([(base + (f"page/{n}/" if n > 1 else ""), str(n)) for n in range(1, pages + 1)])
        f = tp["fid"]
        body = (
            f"<p>{a(f'/forums/forum/{f}-{self.forums[f]}/', title_of(self.forums[f]))}</p>"
            f"<h1>{title_of(tp['slug'])}</h1><p>{a('/tags/' + tp['tag'] + '/', tp['tag'])} | "
            f"{a(base + '?do=getNewComment', 'Go to unread')} | "
            f"{a(base + '?do=getLastComment', 'Last reply')}</p>{posts}<p>{pager}</p>"
        )
        return self.serve(req, self.frame(title_of(tp["slug"]), body))


__all__ = ["Invision", "Mailman", "OpenCart", "VBulletin"]
