"""Trap sites, part B: replies, cursor, mirror, facets, calendar."""

from __future__ import annotations

import base64
import calendar as cal
import html
import json
import random
from typing import ClassVar
from urllib.parse import quote, urlencode

from .kit import (
    OTHER,
    TRAP,
    Reply,
    Req,
    Site,
    a,
    doc,
    make_paragraphs,
    not_found,
    paras_html,
    redirect,
    slugs,
    title_of,
    words_for,
)

# ----------------------------------------------------------------------------------------
# Nested reply permalinks: /thread/7/reply/3/reply/9/ is real when 9 answers 3, but a
# buggy relative "other posts" sidebar nests any post under any other, forever.
# ----------------------------------------------------------------------------------------


class Replies(Site):
    name = "replies"
    kind = "nested reply permalinks /thread/T/reply/A/reply/B/...: fake chains nest forever"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/forum/")]
    robots_disallow: ClassVar[list[str]] = ["/post/", "/member/"]

    def build(self) -> None:
        self.vocab = words_for("forum")
        rng = self.rng("tree")
        self.boards = slugs(self.key("boards"), 3, self.vocab, 1)
        self.threads: dict[int, dict[int, int | None]] = {}  # thread -> reply -> parent
        self.board_of: dict[int, str] = {}
        self.titles: dict[int, str] = {}
        rid = 100
        for t in range(1, 13):
            self.board_of[t] = self.boards[(t - 1) % 3]
            self.titles[t] = title_of(slugs(self.key(f"tt{t}"), 1, self.vocab, 4)[0])
            tree: dict[int, int | None] = {}
            for _ in range(rng.randint(3, 6)):
                rid += rng.randint(1, 9)
                cands: list[int | None] = [None] + [r for r in tree if self.depth(tree, r) < 3]
                tree[rid] = rng.choice(cands)
            self.threads[t] = tree
        self.legit = {"forum"} | {f"b:{b}" for b in self.boards} | {f"t:{t}" for t in self.threads}
        self.legit |= {f"r:{t}:{r}" for t, tree in self.threads.items() for r in tree}
        self.users = slugs(self.key("users"), 20, self.vocab, 1)

    @staticmethod
    def depth(tree: dict[int, int | None], r: int) -> int:
        d = 1
        while tree[r] is not None:
            r, d = tree[r], d + 1  # type: ignore[assignment]
        return d

    def chain(self, t: int, r: int) -> list[int]:
        tree, out = self.threads[t], [r]
        while tree[out[0]] is not None:
            out.insert(0, tree[out[0]])  # type: ignore[arg-type]
        return out

    def permalink(self, t: int, r: int) -> str:
        return f"/thread/{t}/" + "".join(f"reply/{x}/" for x in self.chain(t, r))

    def frame(self, title: str, crumbs: str, inner: str) -> str:
        body = (
            '<table class="forumline" width="100%" cellspacing="1"><tr><td class="row1">'
            f'<span class="nav">{crumbs}</span></td><td class="row1" align="right">'
            f"{a('/post/new', 'New topic')} | {a('/member/login', 'Log in')}</td></tr></table>\n"
            f"{inner}\n"
            '<div class="copyright">Powered by phpBB-ish &copy; Solder Club</div>'
        )
        return doc(title, body)

    def post(self, t: int, r: int) -> str:
        user = self.users[r % len(self.users)]
        return (
            f'<table class="post"><tr><td class="author"><b>{user}</b></td><td>'
            + paras_html(make_paragraphs(self.key(f"r{r}"), self.vocab, 100, 260))
            + "</td></tr></table>"
        )

    def excerpt(self, r: int) -> str:
        words = " ".join(make_paragraphs(self.key(f"r{r}"), self.vocab, 100, 260)).split()
        return html.escape(" ".join(words[:22])) + " …"

    def handle(self, req: Req) -> Reply:
        p = req.path
        if req.query:
            return not_found()
        if p == "/forum/":
            lis = "".join(f"<li>{a('board/' + b + '/', title_of(b))}</li>" for b in self.boards)
            inner = (
                "<h1>Solder Club forums</h1>"
                + paras_html(make_paragraphs(self.key("forum"), self.vocab))
                + f"<ul>{lis}</ul>"
            )
            return self.legit_page("forum", self.frame("Forums", a("/forum/", "Index"), inner))
        if p.startswith("/forum/board/") and p.count("/") == 4 and p.endswith("/"):
            b = p.split("/")[3]
            if b not in self.boards:
                return not_found()
            rows = "".join(
                f"<tr><td>{a(f'/thread/{t}/', self.titles[t])}</td>"
                f"<td>{len(self.threads[t])} replies</td></tr>"
                for t in self.threads
                if self.board_of[t] == b
            )
            inner = (
                f"<h1>{title_of(b)}</h1>"
                + paras_html(make_paragraphs(self.key(f"b{b}"), self.vocab, 100, 180))
                + f'<table class="topics">{rows}</table>'
            )
            return self.legit_page(f"b:{b}", self.frame(b, a("/forum/", "Index"), inner))
        segs = p.strip("/").split("/")
        if len(segs) < 2 or segs[0] != "thread" or not p.endswith("/") or not segs[1].isdigit():
            return not_found()
        t = int(segs[1])
        if t not in self.threads:
            return not_found()
        tree = self.threads[t]
        crumbs = (
            a("/forum/", "Index")
            + " &raquo; "
            + a(f"/forum/board/{self.board_of[t]}/", title_of(self.board_of[t]))
            + " &raquo; "
            + a(f"/thread/{t}/", self.titles[t])
        )
        if len(segs) == 2:
            posts = "".join(
                f'<div class="postwrap"><b>{self.users[r % len(self.users)]}</b>: {self.excerpt(r)}'
                f'<span class="permalink">{a(self.permalink(t, r), "#" + str(r))}</span></div>'
                for r in tree
            )
            inner = (
                f"<h1>{html.escape(self.titles[t])}</h1>"
                + paras_html(make_paragraphs(self.key(f"t{t}"), self.vocab, 100, 200))
                + posts
            )
            return self.legit_page(f"t:{t}", self.frame(self.titles[t], crumbs, inner))
        rest = segs[2:]
        if len(rest) % 2 or any(
            rest[i] != "reply" or not rest[i + 1].isdigit() for i in range(0, len(rest), 2)
        ):
            return not_found()
        ids = [int(x) for x in rest[1::2]]
        if any(i not in tree for i in ids):
            return not_found()
        r = ids[-1]
        kids = [c for c, par in tree.items() if par == r]
        others = [x for x in tree if x != r and x not in kids][:4]
        inner = (
            self.post(t, r)
            + "<h3>Replies to this post</h3><ul>"
            + "".join(f"<li>{a(f'reply/{c}/', f'#{c}')}</li>" for c in kids)
            + '</ul><div class="sidebar"><h3>Other posts in this thread</h3><ul>'
            + "".join(f"<li>{a(f'reply/{o}/', f'#{o}')}</li>" for o in others)
            + f"</ul></div><p>{a(f'/post/new?thread={t}&parent={r}', 'Reply')}</p>"
        )
        body = self.frame(f"Re: {self.titles[t]}", crumbs, inner)
        if ids == self.chain(t, r):
            return self.legit_page(f"r:{t}:{r}", body)
        return Reply(body, TRAP, f"r:{t}:{r}")


# ----------------------------------------------------------------------------------------
# Endless "load more" cursors: opaque tokens; past the real feed the server keeps handing
# out a next cursor. Next to it, a real ?page=1..12 archive.
# ----------------------------------------------------------------------------------------


class Cursor(Site):
    name = "cursor"
    kind = "endless opaque next-cursor feed (?cursor=<base64>) past the end of real items"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/api/"]
    REAL = 5  # feed pages with real items
    PER = 12
    TOP = 50_000

    def build(self) -> None:
        self.vocab = words_for("science")
        self.helps = slugs(self.key("help"), 4, self.vocab, 2)
        self.legit = {"home", "about"} | {f"feed:{k}" for k in range(self.REAL)}
        self.legit |= {f"archive:{n}" for n in range(1, 13)} | {f"help:{h}" for h in self.helps}

    def cursor(self, after: int, nonce: str) -> str:
        raw = json.dumps({"after": after, "n": nonce}, separators=(",", ":")).encode()
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    def canon_nonce(self, after: int) -> str:
        return random.Random(self.key(f"c{after}")).getrandbits(40).to_bytes(5, "big").hex()

    def shell(self, title: str, main: str) -> str:
        nav = " ".join(
            a(h, t)
            for h, t in (
                ("/", "Lab notes"),
                ("/activity", "Activity"),
                ("/archive?page=1", "Archive"),
                ("/about", "About"),
            )
        )
        helps = " &middot; ".join(a(f"/help/{h}", title_of(h)) for h in self.helps)
        return doc(
            title,
            f'<div id="app"><nav class="top">{nav}</nav><section>{main}</section>'
            f"<footer>{helps} &middot; {a('/api/activity.json', 'JSON')}</footer></div>",
        )

    def items(self, key: str, n: int, start: int) -> str:
        rng = random.Random(self.key(key))
        out = []
        for i in range(n):
            words = " ".join(rng.choice(self.vocab) for _ in range(rng.randint(10, 18)))
            out.append(f'<li data-id="{start - i}"><b>#{start - i}</b> {html.escape(words)}</li>')
        return "<ol class='feed'>" + "".join(out) + "</ol>"

    def handle(self, req: Req) -> Reply:
        p, q = req.path, dict(req.params)
        if p == "/" and not q:
            main = "<h1>Lab notes</h1>" + paras_html(make_paragraphs(self.key("home"), self.vocab))
            return self.legit_page("home", self.shell("Lab notes", main))
        if p == "/about" and not q:
            main = "<h1>About</h1>" + paras_html(make_paragraphs(self.key("about"), self.vocab))
            return self.legit_page("about", self.shell("About", main))
        if p.startswith("/help/") and p[6:] in self.helps and not q:
            h = p[6:]
            main = f"<h1>{title_of(h)}</h1>" + paras_html(make_paragraphs(self.key(h), self.vocab))
            return self.legit_page(f"help:{h}", self.shell(title_of(h), main))
        if p == "/archive" and list(q) == ["page"] and q["page"] in {str(i) for i in range(1, 13)}:
            n = int(q["page"])
            pager = " ".join(
                a(f"?page={i}", str(i)) if i != n else f"<b>{i}</b>" for i in range(1, 13)
            )
            if n < 12:
                pager += " " + a(f"?page={n + 1}", "Next &raquo;".replace("&raquo;", "»"))
            main = (
                f"<h1>Archive, page {n}</h1>"
                + self.items(f"arch{n}", 14, 9000 - 14 * n)
                + f'<div class="pager">{pager}</div>'
            )
            return self.legit_page(f"archive:{n}", self.shell(f"Archive {n}", main))
        if p == "/activity":
            if not q:
                after, nonce = self.TOP, ""
            elif list(q) == ["cursor"]:
                try:
                    tok = q["cursor"]
                    d = json.loads(base64.urlsafe_b64decode(tok + "=" * (-len(tok) % 4)))
                    after, nonce = int(d["after"]), str(d["n"])
                except (ValueError, KeyError, TypeError):
                    return Reply("bad cursor", OTHER, None, 400, "text/plain")
            else:
                return not_found()
            k, rem = divmod(self.TOP - after, self.PER)
            if rem or k < 0:
                return Reply("bad cursor", OTHER, None, 400, "text/plain")
            if k < self.REAL:
                feed = self.items(f"feed{k}", self.PER, after)
                last = after - self.PER
                nxt = self.cursor(last, self.canon_nonce(last))
                legit = (k == 0 and not q) or nonce == self.canon_nonce(after)
            else:
                feed = "<p class='empty'>You're all caught up! Here are some earlier notes.</p>"
                feed += self.items("tail", 3, self.TOP - self.PER * self.REAL + 3)
                last = after - self.PER
                nxt = self.cursor(last, self.token(10))
                skip = self.cursor(last - self.PER * 5, self.token(10))
                feed += f"<p>{a('/activity?cursor=' + skip, 'Skip to older notes')}</p>"
                legit = False
            main = f"<h1>Activity</h1>{feed}<p>{a('/activity?cursor=' + nxt, 'Load more')}</p>"
            body = self.shell("Activity", main)
            if legit:
                return self.legit_page(f"feed:{k}", body)
            return Reply(body, TRAP, f"feed:{min(k, self.REAL - 1)}" if k < self.REAL else None)
        return not_found()


# ----------------------------------------------------------------------------------------
# Mirror hosts: two hosts serve the same department site and cross-link every page. Each
# host also has a section of its own.
# ----------------------------------------------------------------------------------------


class Mirror(Site):
    name = "mirror"
    kind = "two mirror hosts serving the same site, every page cross-linked to the other"
    hosts = 2
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/"), (1, "/")]
    robots_disallow: ClassVar[list[str]] = ["/cgi-bin/"]
    count_note = (
        "a shared page counts once whichever host served it first; the same page "
        "later fetched from the other host (or another URL) is a trap fetch"
    )

    def build(self) -> None:
        self.vocab = words_for("science")
        self.courses = [f"PHYS{100 + 7 * i}" for i in range(12)]
        self.people = slugs(self.key("people"), 8, self.vocab, 1)
        self.research = slugs(self.key("res"), 5, self.vocab, 2)
        self.seminars = slugs(self.key("sem"), 4, self.vocab, 2)  # host 0 only
        self.local = slugs(self.key("loc"), 5, self.vocab, 2)  # host 1 only
        shared = ["/", "/courses/", "/people/", "/research/"]
        shared += [f"/courses/{c}.html" for c in self.courses]
        shared += [f"/courses/{c}/syllabus.html" for c in self.courses]
        shared += [f"/people/{x}.html" for x in self.people]
        shared += [f"/research/{x}.html" for x in self.research]
        self.shared = set(shared)
        self.only = {
            0: {"/seminars/"} | {f"/seminars/{x}.html" for x in self.seminars},
            1: {"/local/"} | {f"/local/{x}.html" for x in self.local},
        }
        self.legit = self.shared | self.only[0] | self.only[1]

    def links_for(self, path: str, host: int) -> list[tuple[str, str]]:
        if path == "/":
            out = [("/courses/", "Courses"), ("/people/", "People"), ("/research/", "Research")]
            out.append(("/seminars/", "Seminars") if host == 0 else ("/local/", "Regional campus"))
            return out
        for sec, items in (
            ("/courses/", self.courses),
            ("/people/", self.people),
            ("/research/", self.research),
            ("/seminars/", self.seminars),
            ("/local/", self.local),
        ):
            if path == sec:
                return [(f"{sec}{x}.html", title_of(x)) for x in items]
            if path.startswith(sec) and path.endswith("/syllabus.html"):
                return [(path[: -len("/syllabus.html")] + ".html", "Course page")]
            if path.startswith(sec):
                i = [f"{sec}{x}.html" for x in items].index(path)
                out = [(sec, "Back"), (f"{sec}{items[(i + 1) % len(items)]}.html", "Next")]
                if sec == "/courses/":
                    out.append((f"{sec}{items[i]}/syllabus.html", "Syllabus"))
                return out
        return []

    def handle(self, req: Req) -> Reply:
        h, p = req.host_index, req.path
        if req.query or not (p in self.shared or p in self.only[h]):
            return not_found()
        other = self.bases[1 - h]
        me = req.base
        lk = self.links_for(p, h)
        if h == 0:  # host A: relative links, plain layout
            rel = [(x if not x.startswith(p) or p == "/" else x[len(p) :], t) for x, t in lk]
            lis = "".join(f"<li>{a(x, t)}</li>" for x, t in rel)
            body = (
                f'<div id="hdr">Department of Physics {a("/cgi-bin/search.pl?q=", "Search")}'
                f"</div><h1>{html.escape(title_of(p.strip('/').split('/')[-1]) or 'Welcome')}</h1>"
                + paras_html(make_paragraphs(self.key(p), self.vocab))
                + f"<ul>{lis}</ul><hr><small>Mirror: {a(other + p, 'other server')}</small>"
            )
        else:  # host B: absolute links everywhere, different layout
            nav = " | ".join(a(me + x, t) for x, t in self.links_for("/", 1))
            lis = "".join(f'<div class="card">{a(me + x, t)}</div>' for x, t in lk)
            body = (
                f"<nav>{a(me + '/', 'Home')} | {nav} | {a(me + '/cgi-bin/search.pl', 'Search')}"
                f"</nav><article>{paras_html(make_paragraphs(self.key(p), self.vocab))}</article>"
                f'<section class="cards">{lis}</section>'
                f"<footer>Primary site: {a(other + p, other + p)}</footer>"
            )
        return self.alias(p, req, doc(f"Physics {p}", body))


# ----------------------------------------------------------------------------------------
# Faceted search: filters combinable in any order (and several values per facet).
# ----------------------------------------------------------------------------------------


class Facets(Site):
    name = "facets"
    kind = "faceted search: ?color=&size=&brand= combinable in any order and multiplicity"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/shop/")]
    robots_disallow: ClassVar[list[str]] = ["/shop/cart", "/shop/wishlist"]
    FACETS: ClassVar[dict[str, list[str]]] = {
        "color": ["red", "blue", "green", "black", "white"],
        "size": ["s", "m", "l", "xl"],
        "brand": ["northwind", "fabrikam", "tailspin", "litware", "proseware"],
    }

    def build(self) -> None:
        self.vocab = words_for("shop")
        rng = self.rng("products")
        self.cats = slugs(self.key("cats"), 5, self.vocab, 1)
        self.products = {}
        for i in range(1, 41):
            self.products[i] = {
                "cat": self.cats[(i - 1) % 5],
                "color": rng.choice(self.FACETS["color"]),
                "size": rng.choice(self.FACETS["size"]),
                "brand": rng.choice(self.FACETS["brand"]),
                "name": title_of(slugs(self.key(f"pn{i}"), 1, self.vocab, 2)[0]),
            }
        self.legit = {"home"} | {f"p:{i}" for i in self.products}
        self.legit |= {f"c:{c}:{n}" for c in self.cats for n in (1, 2)}
        self.legit |= {f"f:{f}={v}" for f, vs in self.FACETS.items() for v in vs}

    def tile(self, i: int) -> str:
        pr = self.products[i]
        return (
            f'<div class="tile">{a(f"/shop/p/{i}", pr["name"])}<br>'
            f"<span>{pr['brand']} &middot; {pr['color']} &middot; {pr['size'].upper()}</span>"
            "</div>"
        )

    def sidebar(self, sel: list[tuple[str, str]], prefix: str) -> str:
        out = ['<aside class="facets">']
        qs = urlencode(sel)
        for f, vs in self.FACETS.items():
            out.append(f"<h4>{f.title()}</h4><ul>")
            for v in vs:
                if (f, v) in sel:
                    rest = urlencode([x for x in sel if x != (f, v)])
                    href = f"{prefix}?{rest}" if rest else "/shop/"
                    out.append(f"<li class='on'>{a(href, v + ' ✕')}</li>")
                else:
                    href = f"{prefix}?{qs + '&' if qs else ''}{f}={v}"
                    out.append(f"<li>{a(href, v)}</li>")
            out.append("</ul>")
        return "".join(out) + "</aside>"

    def page(self, title: str, main: str, side: str) -> str:
        return doc(
            title,
            '<header class="shop"><b>Outfitters</b> '
            + " ".join(a(f"/shop/c/{c}", title_of(c)) for c in self.cats)
            + f" {a('/shop/wishlist', 'Wishlist')}</header>"
            f'<div class="layout">{side}<main>{main}</main></div>'
            "<footer>Free returns within 30 days.</footer>",
        )

    def handle(self, req: Req) -> Reply:
        p, params = req.path, req.params
        q = dict(params)
        if p == "/shop/" and not q:
            main = "<h1>Outfitters</h1>" + paras_html(make_paragraphs(self.key("home"), self.vocab))
            return self.legit_page("home", self.page("Shop", main, self.sidebar([], "search")))
        if p.startswith("/shop/c/") and p[8:] in self.cats:
            c = p[8:]
            if q and (list(q) != ["page"] or q["page"] not in ("1", "2")):
                return not_found()
            n = int(q.get("page", "1"))
            if q and n == 1:
                return not_found()
            ids = [i for i, pr in self.products.items() if pr["cat"] == c][(n - 1) * 4 : n * 4]
            pager = a("?page=2", "Next page") if n == 1 else a(f"/shop/c/{c}", "Previous page")
            main = (
                f"<h1>{title_of(c)} ({n}/2)</h1>"
                + paras_html(make_paragraphs(self.key(f"c{c}{n}"), self.vocab, 100, 200))
                + "".join(self.tile(i) for i in ids)
                + f"<p>{pager}</p>"
            )
            return self.legit_page(
                f"c:{c}:{n}", self.page(c, main, self.sidebar([], "/shop/search"))
            )
        if p.startswith("/shop/p/") and p[8:].isdigit() and int(p[8:]) in self.products and not q:
            i = int(p[8:])
            pr = self.products[i]
            more = " ".join(
                a(f"/shop/search?{f}={pr[f]}", f"More {pr[f]}") for f in ("color", "brand")
            )
            main = (
                f"<h1>{pr['name']}</h1>"
                + paras_html(make_paragraphs(self.key(f"p{i}"), self.vocab))
                + f"<p>{a(f'/shop/cart?add={i}', 'Add to cart')} {more}</p>"
            )
            return self.legit_page(f"p:{i}", self.page(pr["name"], main, ""))
        if p == "/shop/search" and params:
            if any(k not in self.FACETS or v not in self.FACETS[k] for k, v in params):
                return not_found()
            ids = [
                i
                for i, pr in self.products.items()
                if all(pr[f] in [v for k, v in params if k == f] for f in {k for k, _ in params})
            ]
            label = ", ".join(f"{k}: {v}" for k, v in params)
            intro = (
                make_paragraphs(self.key(f"f{req.query}"), self.vocab, 100, 160, 1)
                if len(params) == 1
                else [f"{len(ids)} products match {label}."]
            )
            main = (
                f"<h1>{html.escape(label)}</h1>"
                + paras_html(intro)
                + ("".join(self.tile(i) for i in ids) or "<p>No products match.</p>")
            )
            body = self.page(label, main, self.sidebar(params, "search"))
            if len(params) == 1:
                return self.legit_page(f"f:{req.query}", body)
            return Reply(body, TRAP, None)
        return not_found()


def etitle(e: str) -> str:
    return title_of(e.split("-", 1)[1])


# ----------------------------------------------------------------------------------------
# Calendar: next/previous month and year forever, next to an 18-month news archive with
# real ends and a real 18-month window of events.
# ----------------------------------------------------------------------------------------


class Calendar(Site):
    name = "calendar"
    kind = "event calendar with next/prev month and year links that never end"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/calendar/ical", "/members/"]
    MONTHS: ClassVar[list[tuple[int, int]]] = [(2025, m) for m in range(7, 13)] + [
        (2026, m) for m in range(1, 13)
    ]

    def build(self) -> None:
        self.vocab = words_for("events")
        rng = self.rng("events")
        self.events: dict[str, tuple[int, int, int]] = {}
        for y, m in self.MONTHS:
            for s in slugs(self.key(f"ev{y}{m}"), rng.randint(1, 2), self.vocab, 2):
                self.events[f"{len(self.events) + 1}-{s}"] = (y, m, rng.randint(1, 28))
        self.legit = {"home", "news", "cal:2025", "cal:2026"}
        self.legit |= {f"cal:{y}-{m:02d}" for y, m in self.MONTHS}
        self.legit |= {f"news:{y}-{m:02d}" for y, m in self.MONTHS}
        self.legit |= {f"ev:{e}" for e in self.events}

    def shell(self, title: str, main: str) -> str:
        nav = " · ".join(
            a(h, t)
            for h, t in (
                ("/", "Home"),
                ("/calendar/2026/", "Calendar"),
                ("/news/", "News"),
                ("/members/", "Members"),
            )
        )
        return doc(
            title,
            f'<div class="wrap"><p class="nav">{nav}</p>{main}'
            '<p class="foot">Riverside Choral Society</p></div>',
        )

    def month(self, y: int, m: int) -> tuple[str, bool]:
        real = (y, m) in self.MONTHS
        py, pm = (y, m - 1) if m > 1 else (y - 1, 12)
        ny, nm = (y, m + 1) if m < 12 else (y + 1, 1)
        evs: dict[int, list[str]] = {}
        for e, (ey, em, d) in self.events.items():
            if (ey, em) == (y, m):
                evs.setdefault(d, []).append(e)
        rows = []
        for week in cal.monthcalendar(y, m):
            cells = []
            for d in week:
                if d and d in evs:
                    links = "<br>".join(a("/events/" + e, etitle(e)) for e in evs[d])
                    cells.append(f"<td>{d}<br>{links}</td>")
                else:
                    cells.append(f"<td>{d or ''}</td>")
            rows.append("<tr>" + "".join(cells) + "</tr>")
        intro = (
            paras_html(make_paragraphs(self.key(f"m{y}{m}"), self.vocab, 100, 200))
            if real
            else "<p>No events scheduled.</p>"
        )
        main = (
            f"<h1>{cal.month_name[m]} {y}</h1>{intro}"
            f"<p>{a(f'/calendar/{py}/{pm:02d}/', '« Previous month')} | "
            f"{a(f'/calendar/{y}/', str(y))} | {a(f'/calendar/{ny}/{nm:02d}/', 'Next month »')}</p>"
            f'<table class="cal"><tr><th>Mo</th><th>Tu</th><th>We</th><th>Th</th><th>Fr</th>'
            f"<th>Sa</th><th>Su</th></tr>{''.join(rows)}</table>"
            f"<p>{a(f'/calendar/ical?month={y}-{m:02d}', 'Subscribe (iCal)')}</p>"
        )
        return self.shell(f"{cal.month_name[m]} {y}", main), real

    def handle(self, req: Req) -> Reply:
        p = req.path
        if req.query:
            return not_found()
        if p == "/":
            up = [e for e, (y, m, _) in self.events.items() if (y, m) >= (2026, 11)]
            main = (
                "<h1>Riverside Choral Society</h1>"
                + paras_html(make_paragraphs(self.key("home"), self.vocab))
                + "<h2>Coming up</h2><ul>"
                + "".join(f"<li>{a('/events/' + e, etitle(e))}</li>" for e in up)
                + f"</ul><p>{a('/calendar/', 'Calendar')} · {a('/calendar/2025/', '2025')}</p>"
            )
            return self.legit_page("home", self.shell("Home", main))
        if p == "/calendar/":
            return redirect("/calendar/2026/12/")
        if p == "/news/":
            lis = "".join(
                f"<li>{a(f'{y}/{m:02d}/', f'{cal.month_name[m]} {y}')}</li>"
                for y, m in reversed(self.MONTHS)
            )
            main = (
                "<h1>News archive</h1>"
                + paras_html(make_paragraphs(self.key("news"), self.vocab, 100, 150))
                + f"<ul>{lis}</ul>"
            )
            return self.legit_page("news", self.shell("News", main))
        segs = p.strip("/").split("/")
        if segs[0] == "news" and len(segs) == 3 and p.endswith("/"):
            try:
                y, m = int(segs[1]), int(segs[2])
            except ValueError:
                return not_found()
            if (y, m) not in self.MONTHS:
                return not_found()
            i = self.MONTHS.index((y, m))
            nav = []
            if i > 0:
                py, pm = self.MONTHS[i - 1]
                nav.append(a(f"/news/{py}/{pm:02d}/", "Older"))
            if i + 1 < len(self.MONTHS):
                ny, nm = self.MONTHS[i + 1]
                nav.append(a(f"/news/{ny}/{nm:02d}/", "Newer"))
            main = (
                f"<h1>News: {cal.month_name[m]} {y}</h1>"
                + paras_html(make_paragraphs(self.key(f"n{y}{m}"), self.vocab))
                + f"<p>{' | '.join(nav)}</p>"
            )
            return self.legit_page(f"news:{y}-{m:02d}", self.shell("News", main))
        if segs[0] == "events" and len(segs) == 2 and segs[1] in self.events:
            e = segs[1]
            y, m, d = self.events[e]
            main = (
                f"<h1>{etitle(e)}</h1><p class='when'>{d} {cal.month_name[m]} {y}</p>"
                + paras_html(make_paragraphs(self.key(f"e{e}"), self.vocab))
                + f"<p>{a(f'/calendar/{y}/{m:02d}/', 'Back to the calendar')}</p>"
            )
            return self.legit_page(f"ev:{e}", self.shell(etitle(e), main))
        if segs[0] == "calendar" and p.endswith("/") and all(s.isdigit() for s in segs[1:]):
            if len(segs) == 2:
                y = int(segs[1])
                if not 1 <= y <= 9999:
                    return not_found()
                lis = "".join(f"<li>{a(f'{m:02d}/', cal.month_name[m])}</li>" for m in range(1, 13))
                main = (
                    f"<h1>{y}</h1>"
                    + (
                        paras_html(make_paragraphs(self.key(f"y{y}"), self.vocab, 100, 180))
                        if y in (2025, 2026)
                        else ""
                    )
                    + f"<ul class='months'>{lis}</ul>"
                    f"<p>{a(f'/calendar/{y - 1}/', '« ' + str(y - 1))} | "
                    f"{a(f'/calendar/{y + 1}/', str(y + 1) + ' »')}</p>"
                )
                body = self.shell(str(y), main)
                if y in (2025, 2026):
                    return self.legit_page(f"cal:{y}", body)
                return Reply(body, TRAP, None)
            if len(segs) == 3 and len(segs[2]) == 2:
                y, m = int(segs[1]), int(segs[2])
                if not (1 <= m <= 12 and 1 <= y <= 9999):
                    return not_found()
                body, real = self.month(y, m)
                if real:
                    return self.legit_page(f"cal:{y}-{m:02d}", body)
                return Reply(body, TRAP, None)
        return not_found()


_ = quote
