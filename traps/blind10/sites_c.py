"""blind10 sites, part c: Coppermine Photo Gallery, Oracle ADF Faces, EPrints, Tiki Wiki."""

from __future__ import annotations

import random
from typing import ClassVar

from traps.blind.kit import Reply, Req, not_found, redirect, slugs, title_of
from traps.blind2.common import esc, qs, trap, ul
from traps.blind7.common import data

from .common import Base

# ----------------------------------------------------------------------------------------
# Coppermine Photo Gallery 1.6: categories index.php?cat=<n>, albums thumbnails.php?
# album=<n> (real &page=2), pictures displayimage.php?album=<n>&pid=<p> (linked only
# from album pages). The meta albums lastup, lastcom, topn, toprated, lastalb and random
# are linked under the index, every category (cat=<n>) and every album (cat=-<album>):
# thumbnails.php?album=<meta>&cat=<c>&page=N and displayimage.php?album=<meta>&cat=<c>&
# pid=<p> (every picture again in every context), slideshow=, fullsize=1, pos=-<pid>;
# album=random picks differ on every request. robots.txt: the site's own.
# ----------------------------------------------------------------------------------------

_META = ["lastup", "lastcom", "topn", "toprated", "lastalb", "random"]


class Coppermine(Base):
    """Coppermine: meta albums under every category and album, pictures in every context."""

    name = "coppermine"
    kind = "Coppermine 1.6: meta albums (lastup, topn, random...) x cat=<c>, every pid in each"
    theme = "travel"
    brand = "Harbour Photo Club"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/index.php")]
    robots_disallow: ClassVar[list[str]] = [
        "/login.php",
        "/ecard.php",
        "/addfav.php",
        "/register.php",
    ]

    def make(self) -> None:
        cats = slugs(self.key("cat"), 3, self.v, 1)
        albs = slugs(self.key("alb"), 6, self.v, 2)
        self.cats = {k + 2: cats[k] for k in range(3)}
        self.albums = {k + 1: (albs[k], 2 + k // 2) for k in range(6)}
        self.pics = {p: 1 + (p - 1) // 5 for p in range(1, 31)}
        self.add("idx", "/index.php", lambda r: self.index())
        for c in self.cats:
            self.add(f"c{c}", f"/index.php?cat={c}", lambda r, c=c: self.cat(c))
        for al in self.albums:
            self.add(f"a{al}", f"/thumbnails.php?album={al}", lambda r, al=al: self.album(al, 1))
            self.add(
                f"a{al}p2", f"/thumbnails.php?album={al}&page=2", lambda r, al=al: self.album(al, 2)
            )
        for p, al in self.pics.items():
            self.add(
                f"p{p}",
                f"/displayimage.php?album={al}&pid={p}",
                lambda r, p=p, al=al: self.image(str(al), "", p),
            )

    def metas(self, cat: str) -> str:
        c = f"&cat={cat}" if cat else ""
        return (
            "<p>"
            + " | ".join(f'<a href="/thumbnails.php?album={m}{c}">{m}</a>' for m in _META)
            + "</p>"
        )

    def index(self) -> str:
        body = ul(
            [(f"/index.php?cat={c}", title_of(n)) for c, n in self.cats.items()]
        ) + self.metas("")
        body += '<p><a href="/login.php">Login</a></p>'
        return self.html("Harbour Photo Club gallery", "index", body)

    def cat(self, c: int) -> str:
        albs = [
            (f"/thumbnails.php?album={a}", title_of(n))
            for a, (n, cc) in self.albums.items()
            if cc == c
        ]
        return self.html(title_of(self.cats[c]), f"cat{c}", ul(albs) + self.metas(str(c)))

    def album(self, al: int, page: int) -> str:
        ps = [p for p, a in self.pics.items() if a == al]
        shown = ps[(page - 1) * 4 : page * 4]
        links = [(f"/displayimage.php?album={al}&pid={p}", f"Picture {p}") for p in shown]
        links.append(
            (f"/thumbnails.php?album={al}&page=2", "2")
            if page == 1
            else (f"/thumbnails.php?album={al}", "1")
        )
        return self.html(
            f"{title_of(self.albums[al][0])} (page {page})",
            f"alb{al}{page}",
            ul(links) + self.metas(f"-{al}"),
        )

    def picks(self, meta: str, cat: str, page: int) -> list[int]:
        if cat.lstrip("-").isdigit() and cat.startswith("-"):
            pool = [p for p, a in self.pics.items() if a == int(cat[1:])]
        elif cat.isdigit():
            pool = [p for p, a in self.pics.items() if self.albums.get(a, ("", 0))[1] == int(cat)]
        else:
            pool = list(self.pics)
        seed = f"{meta}{cat}{page}" + (str(self.tick()) if meta == "random" else "")
        return random.Random(seed).sample(pool, min(4, len(pool)))

    def meta_album(self, meta: str, cat: str, page: int) -> str:
        c = f"&cat={cat}" if cat else ""
        links = [
            (f"/displayimage.php?album={meta}{c}&pid={p}", f"Picture {p}")
            for p in self.picks(meta, cat, page)
        ]
        links += [
            (f"/thumbnails.php?album={meta}{c}&page={k}", str(k)) for k in range(1, 6) if k != page
        ]
        return self.html(f"{meta} {cat} page {page}", f"meta{meta}", ul(links))

    def image(self, album: str, cat: str, p: int, extra: str = "") -> str:
        c = f"&cat={cat}" if cat else ""
        near = [q for q in (p - 1, p + 1) if q in self.pics]
        links = [(f"/displayimage.php?album={album}{c}&pid={q}", f"Picture {q}") for q in near]
        links += [
            (f"/displayimage.php?album={album}{c}&pid={p}&slideshow=5000", "Slideshow"),
            (f"/displayimage.php?pid={p}&fullsize=1", "Full size"),
            (f"/thumbnails.php?album={self.pics[p]}", "Album"),
            (f"/ecard.php?album={album}&pid={p}", "Send as e-card"),
            (f"/addfav.php?pid={p}", "Add to favourites"),
        ]
        return self.html(f"Picture {p}{extra}", f"pic{p}", ul(links))

    def rest(self, req: Req) -> Reply:
        q = qs(req.query)
        album, cat = q.get("album", ""), q.get("cat", "")
        page = int(q["page"]) if q.get("page", "").isdigit() else 1
        if req.path == "/thumbnails.php" and album in _META:
            return trap(self.meta_album(album, cat, page))
        if req.path == "/displayimage.php":
            pid = q.get("pid", "") or q.get("pos", "").lstrip("-")
            if pid.isdigit() and int(pid) in self.pics:
                p = int(pid)
                return trap(self.image(album or str(self.pics[p]), cat, p, f" ({album} {cat})"))
        return not_found()


# ----------------------------------------------------------------------------------------
# Oracle ADF Faces (a WebCenter-style public portal). Pages /portal/faces/<view>; the
# content's goLinks are plain (legit), but the navigation model's links and the
# "Open in own window" task-flow links carry the controller state: ?_adf.ctrl-state=
# <token>_<n> (a new token for a request without one, the counter advanced on every
# response) and _afrLoop=<13 digits> (fresh); adf.task-flow?adf.tfId=&adf.tfDoc= runs a
# bounded task flow; .jspx spellings of every view. robots.txt: the site's own (/portal/afr/).
# ----------------------------------------------------------------------------------------


class OracleAdf(Base):
    """Oracle ADF: _adf.ctrl-state tokens and _afrLoop values minted per response."""

    name = "adf"
    kind = "Oracle ADF Faces portal: _adf.ctrl-state=<tok>_<n>, _afrLoop=, adf.task-flow, .jspx"
    theme = "gov"
    brand = "County Services Portal"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/portal/afr/", "/portal/adfAuthentication"]

    def make(self) -> None:
        self.services = slugs(self.key("svc"), 6, self.v, 2)
        self.news = slugs(self.key("news"), 15, self.v, 2)
        self.views = ["home", "about", "contact", "services", "news", "news-archive"]
        self.views += [f"services/{s}" for s in self.services] + [f"news/{n}" for n in self.news]
        self.add(
            "land",
            "/",
            lambda r: self.html(
                "County Services", "land", ul([("/portal/faces/home", "Enter the portal")])
            ),
        )
        for v in self.views:
            self.add(v, f"/portal/faces/{v}", lambda r, v=v: self.view(v, r))
        self.ctr = 0

    def state(self, req: Req) -> str:
        q = qs(req.query)
        old = q.get("_adf.ctrl-state", "")
        with self._lock:
            self.ctr += 1
            n = self.ctr
        tok = (
            old.split("_")[0]
            if "_" in old
            else self.fresh(9, "0123456789abcdefghijklmnopqrstuvwxyz")
        )
        return f"{tok}_{n + 3}"

    def view(self, v: str, req: Req) -> str:
        st = self.state(req)
        loop = 1796000000000 + 37 * self.tick()
        nav = " | ".join(
            f'<a href="/portal/faces/{x}?_adf.ctrl-state={st}&amp;_afrLoop={loop}">'
            f"{esc(title_of(x))}</a>"
            for x in self.views[:5]
        )
        tf = v.split("/")[0] + "-flow"
        flow = (
            f"/portal/faces/adf.task-flow?adf.tfId={tf}&adf.tfDoc=/WEB-INF/{tf}.xml"
            f"&_adf.ctrl-state={st}"
        )
        kids: list[tuple[str, str]] = []
        if v == "home":
            kids = [(f"/portal/faces/{x}", title_of(x)) for x in self.views[1:5]]
        elif v == "services":
            kids = [(f"/portal/faces/services/{s}", title_of(s)) for s in self.services]
        elif v == "news":
            kids = [(f"/portal/faces/news/{n}", title_of(n)) for n in self.news[:10]]
            kids.append(("/portal/faces/news-archive", "Older news"))
        elif v == "news-archive":
            kids = [(f"/portal/faces/news/{n}", title_of(n)) for n in self.news[10:]]
        body = (
            f"<p>{nav}</p>"
            + ul(kids)
            + ul([(flow, "Open in own window"), (f"/portal/faces/{v}.jspx", "Permalink")])
        )
        return self.html(title_of(v.split("/")[-1]), f"v{v}", body)

    def rest(self, req: Req) -> Reply:
        path = req.path
        if not path.startswith("/portal/faces/"):
            return not_found()
        v = path[len("/portal/faces/") :]
        if v.endswith(".jspx"):
            v = v[:-5]
        if v == "adf.task-flow":
            v = qs(req.query).get("adf.tfId", "home").replace("-flow", "")
        if v in self.views:
            return trap(self.view(v, req))
        return not_found()


# ----------------------------------------------------------------------------------------
# EPrints 3.4 repository: abstract pages /<id>/ (linked only from view pages), browse
# views /view/year/<y>.html, /view/creators/<name>.html, /view/subjects/<code>.html. Every
# view page has "Group by: Item Type | Authors | Date | No Grouping" (/view/year/2021.
# type.html, .creators_name.html, .date.html, .default.html) and export links under
# /cgi/exportview/; abstracts link /id/eprint/<id> (303), documents /<id>/1/<file>.pdf and
# /<id>/1.haspreviewThumbnailVersion/<file>.pdf, /cgi/export/eprint/<id>/<fmt>/...
# robots.txt: EPrints' generated one (Disallow: /cgi/); the site adds nothing.
# ----------------------------------------------------------------------------------------

_GROUPS = ["type", "creators_name", "date", "default"]
_THUMBS = ["preview", "small", "medium", "lightbox"]
_EXP = ["BibTeX", "EndNote", "JSON", "RIS", "DC", "HTML", "Text", "CSV"]


class EPrints(Base):
    """EPrints: views with grouping variants, document thumbnails, export links."""

    name = "eprints"
    kind = (
        "EPrints 3.4: view grouping variants (.type.html ...), documents, /id/ 303s, /cgi/ exports"
    )
    theme = "science"
    brand = "Harbour Research Online"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/cgi/"]

    def make(self) -> None:
        rng = self.rng("ep")
        names = [
            title_of(s).replace(" ", "=3A") + "=3A=3A" for s in slugs(self.key("cr"), 6, self.v, 2)
        ]
        self.creators = names
        self.subjects = ["QA", "QC", "QH"]
        self.years = ["2022", "2023", "2024", "2025"]
        self.ep = {
            i: (rng.choice(self.years), rng.sample(names, 2), rng.choice(self.subjects))
            for i in range(1, 21)
        }
        self.add(
            "home",
            "/",
            lambda r: self.html(
                "Harbour Research Online",
                "home",
                ul(
                    [
                        ("/view/", "Browse"),
                        ("/information.html", "About"),
                        ("/cgi/latest", "Latest additions"),
                    ]
                ),
            ),
        )
        self.add(
            "info",
            "/information.html",
            lambda r: self.html("About this repository", "info", '<a href="/">Home</a>'),
        )
        self.add(
            "view",
            "/view/",
            lambda r: self.html(
                "Browse",
                "view",
                ul(
                    [
                        ("/view/year/", "Year"),
                        ("/view/creators/", "Author"),
                        ("/view/subjects/", "Subject"),
                    ]
                ),
            ),
        )
        for kind, vals in (
            ("year", self.years),
            ("creators", self.creators),
            ("subjects", self.subjects),
        ):
            self.add(
                f"m{kind}",
                f"/view/{kind}/",
                lambda r, kind=kind, vals=vals: self.html(
                    f"Browse by {kind}",
                    f"menu{kind}",
                    ul([(f"/view/{kind}/{x}.html", x.replace("=3A", " ").strip()) for x in vals]),
                ),
            )
            for x in vals:
                self.add(
                    f"v{kind}{x}",
                    f"/view/{kind}/{x}.html",
                    lambda r, kind=kind, x=x: self.vpage(kind, x, "default"),
                )
        for i in self.ep:
            self.add(f"e{i}", f"/{i}/", lambda r, i=i: self.abstract(i))

    def members(self, kind: str, x: str) -> list[int]:
        idx = {"year": 0, "creators": 1, "subjects": 2}[kind]
        return [
            i for i, e in self.ep.items() if (x in e[idx] if kind == "creators" else e[idx] == x)
        ]

    def vpage(self, kind: str, x: str, group: str) -> str:
        ids = self.members(kind, x)
        if group != "default":
            ids = sorted(
                ids,
                key=lambda i: str(self.ep[i][{"type": 2, "creators_name": 1, "date": 0}[group]]),
            )
        links = [(f"/{i}/", f"Eprint {i}") for i in ids]
        grp = " | ".join(f'<a href="/view/{kind}/{x}.{g}.html">{g}</a>' for g in _GROUPS)
        exp = " | ".join(f'<a href="/cgi/exportview/{kind}/{x}/{f}/{x}.txt">{f}</a>' for f in _EXP)
        body = f"<p>Group by: {grp}</p><p>Export as: {exp}</p>" + ul(links)
        return self.html(
            f"Items where {kind} is {x}" + ("" if group == "default" else f" ({group})"),
            f"vp{kind}{x}",
            body,
        )

    def abstract(self, i: int) -> str:
        y, cr, s = self.ep[i]
        links = [(f"/view/creators/{c}.html", c.replace("=3A", " ").strip()) for c in cr]
        links += [(f"/view/subjects/{s}.html", s), (f"/view/year/{y}.html", y)]
        links += [(f"/{i}/1/paper{i}.pdf", "Download (PDF)")]
        links += [(f"/{i}/1.has{t}ThumbnailVersion/paper{i}.pdf", t) for t in _THUMBS]
        links += [(f"/id/document/{100 + i}", "Document URI")]
        links += [
            (f"/id/eprint/{i}", "URI"),
            (f"/cgi/users/home?screen=EPrint::View&eprintid={i}", "Edit item"),
        ]
        links += [(f"/cgi/export/eprint/{i}/{f}/hro-eprint-{i}.txt", f) for f in _EXP]
        return self.html(f"Eprint {i}", f"ep{i}", ul(links))

    def rest(self, req: Req) -> Reply:
        parts = req.path.strip("/").split("/")
        if req.path.startswith("/id/eprint/") and parts[-1].isdigit() and int(parts[-1]) in self.ep:
            return redirect(f"/{parts[-1]}/", 303)
        if (
            req.path.startswith("/id/document/")
            and parts[-1].isdigit()
            and int(parts[-1]) - 100 in self.ep
        ):
            i = int(parts[-1]) - 100
            return redirect(f"/{i}/1/paper{i}.pdf", 303)
        if (
            len(parts) == 3
            and parts[0].isdigit()
            and int(parts[0]) in self.ep
            and parts[2].endswith(".pdf")
        ):
            return data(f"%PDF-1.5 eprint {parts[0]} {parts[1]}", "application/pdf")
        if len(parts) == 3 and parts[0] == "view" and parts[2].count(".") == 2:
            x, g, _ = parts[2].split(".")
            vals = {"year": self.years, "creators": self.creators, "subjects": self.subjects}.get(
                parts[1], []
            )
            if x in vals and g in _GROUPS:
                return trap(self.vpage(parts[1], x, g))
        return not_found()


# ----------------------------------------------------------------------------------------
# Tiki Wiki CMS Groupware 26: wiki pages tiki-index.php?page=<Name> (three split into
# real &pagenum=2 pages), the home page at tiki-index.php, a blog with a real second
# page &offset=5 and posts tiki-view_blog_post.php?postId=<n>, the page list
# tiki-listpages.php and its real &offset=10. Every wiki page repeats the page-actions
# family: tiki-print.php, tiki-pagehistory.php (with &preview=<v>, &diff=<v>, &source=
# <v>), tiki-backlinks.php, tiki-like_pages.php, tiki-slideshow.php?&slide=<n>; wiki
# content links use the SEF spelling /<Name> (the same page again); list pages carry
# sort_mode= x offset=, tiki-lastchanges.php?days=<n>. robots.txt: the site's own
# approximation of Tiki's (/tiki-admin, /tiki-login, /tiki-register.php, /tiki-editpage.php).
# ----------------------------------------------------------------------------------------

_SORTS = [
    "pageName_asc",
    "pageName_desc",
    "hits_desc",
    "lastModif_desc",
    "user_asc",
    "version_desc",
]


class TikiWiki(Base):
    """Tiki Wiki: page actions repeated under every page, SEF spellings, sort x offset."""

    name = "tikiwiki"
    kind = "Tiki Wiki 26: print/history/backlinks/like/slideshow per page, SEF /Name, sort_mode"
    theme = "food"
    brand = "Kitchen Collective Wiki"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = [
        "/tiki-admin",
        "/tiki-login",
        "/tiki-register.php",
        "/tiki-editpage.php",
    ]

    def make(self) -> None:
        self.wiki = [title_of(s).replace(" ", "") for s in slugs(self.key("wp"), 18, self.v, 2)]
        self.split = set(self.wiki[2:5])
        rng = self.rng("links")
        self.out = {w: rng.sample(self.wiki, 3) for w in self.wiki}
        self.posts = list(range(1, 9))
        self.add("home", "/tiki-index.php", lambda r: self.page("HomePage", 1, ""))
        for w in self.wiki:
            self.add(f"w{w}", f"/tiki-index.php?page={w}", lambda r, w=w: self.page(w, 1, ""))
            if w in self.split:
                self.add(
                    f"w{w}2",
                    f"/tiki-index.php?page={w}&pagenum=2",
                    lambda r, w=w: self.page(w, 2, ""),
                )
        self.add("blog", "/tiki-view_blog.php?blogId=1", lambda r: self.blog({}))
        self.add(
            "blog2", "/tiki-view_blog.php?blogId=1&offset=5", lambda r: self.blog({"offset": "5"})
        )
        for p in self.posts:
            self.add(f"p{p}", f"/tiki-view_blog_post.php?postId={p}", lambda r, p=p: self.post(p))
        self.add("list", "/tiki-listpages.php", lambda r: self.listpages({}))
        self.add(
            "list2", "/tiki-listpages.php?offset=10", lambda r: self.listpages({"offset": "10"})
        )

    def menu(self) -> str:
        return ul(
            [
                ("/tiki-index.php", "Home"),
                ("/tiki-listpages.php", "List pages"),
                ("/tiki-view_blog.php?blogId=1", "Blog"),
                ("/tiki-lastchanges.php?days=1", "Last changes"),
                ("/tiki-login.php", "Log in"),
            ]
        )

    def page(self, w: str, num: int, extra: str) -> str:
        links = self.out.get(w, self.wiki[:3])
        content = " ".join(f'<a href="/{x}">{esc(x)}</a>' for x in links)
        actions = [
            (f"/tiki-print.php?page={w}", "Print"),
            (f"/tiki-pagehistory.php?page={w}", "History"),
            (f"/tiki-backlinks.php?page={w}", "Backlinks"),
            (f"/tiki-like_pages.php?page={w}", "Similar"),
            (f"/tiki-slideshow.php?page={w}", "Slideshow"),
            (f"/tiki-editpage.php?page={w}", "Edit"),
        ]
        if w in self.split:
            actions.append((f"/tiki-index.php?page={w}&pagenum={3 - num}", f"Page {3 - num}"))
        body = self.menu() + f"<p>{content}</p>" + ul(actions)
        if w == "HomePage":
            body += (
                "<p>Start with "
                + " ".join(
                    f'<a href="/tiki-index.php?page={x}">{esc(x)}</a>' for x in self.wiki[:6]
                )
                + "</p>"
            )
        key = f"wiki{w}{num if num > 1 else ''}"
        return self.html(w + (f" (page {num})" if num > 1 else "") + extra, key, body)

    def blog(self, q: dict[str, str]) -> str:
        off = int(q["offset"]) if q.get("offset", "").isdigit() else 0
        sort = q.get("sort_mode", "created_desc")
        posts = self.posts if sort.endswith("asc") else self.posts[::-1]
        links = [
            (f"/tiki-view_blog_post.php?postId={p}", f"Post {p}") for p in posts[off : off + 5]
        ]
        links += [
            (f"/tiki-view_blog.php?blogId=1&offset={o}", f"Offset {o}") for o in (0, 5) if o != off
        ]
        links += [
            (f"/tiki-view_blog.php?blogId=1&offset={off}&sort_mode={s}", s)
            for s in ("created_desc", "created_asc", "title_asc", "hits_desc")
        ]
        return self.html(
            f"Kitchen blog {off} {sort if 'sort_mode' in q else ''}", f"blog{off}", ul(links)
        )

    def post(self, p: int) -> str:
        return self.html(
            f"Blog post {p}",
            f"post{p}",
            ul(
                [
                    ("/tiki-view_blog.php?blogId=1", "Blog"),
                    (f"/tiki-print_blog_post.php?postId={p}", "Print"),
                ]
            ),
        )

    def listpages(self, q: dict[str, str]) -> str:
        off = int(q["offset"]) if q.get("offset", "").isdigit() else 0
        sort = q.get("sort_mode", "pageName_asc")
        ws = sorted(self.wiki, reverse=sort.endswith("desc"))
        links = [(f"/tiki-index.php?page={w}", w) for w in ws[off : off + 10]]
        links += [
            (f"/tiki-listpages.php?offset={o}", f"Offset {o}")
            for o in (0, 10)
            if o != off and "sort_mode" not in q
        ]
        links += [
            (f"/tiki-listpages.php?offset={o}&sort_mode={sort}", f"Offset {o}")
            for o in (0, 10)
            if o != off and "sort_mode" in q
        ]
        links += [(f"/tiki-listpages.php?offset={off}&sort_mode={s}", s) for s in _SORTS]
        return self.html(
            f"Pages {off} {sort if 'sort_mode' in q else ''}", f"list{off}", self.menu() + ul(links)
        )

    def rest(self, req: Req) -> Reply:
        path, q = req.path, qs(req.query)
        w = q.get("page", "")
        known = w in self.wiki or w == "HomePage"
        if path == "/":
            return redirect("/tiki-index.php")
        if path == "/tiki-index.php" and known:
            num = 2 if q.get("pagenum") == "2" and w in self.split else 1
            return trap(self.page(w, num, ""))
        if path[1:] in self.wiki:
            return trap(self.page(path[1:], 1, ""))
        if path == "/tiki-print.php" and known:
            return trap(self.page(w, 1, " (print)"))
        if path == "/tiki-pagehistory.php" and known:
            links = []
            for v in range(1, 6):
                for act in ("preview", "diff", "source"):
                    links.append((f"/tiki-pagehistory.php?page={w}&{act}={v}", f"{act} {v}"))
            extra = next((f" {a} {q[a]}" for a in ("preview", "diff", "source") if a in q), "")
            return trap(self.html(f"History: {w}{extra}", f"hist{w}", ul(links)))
        if path in ("/tiki-backlinks.php", "/tiki-like_pages.php") and known:
            hits = (
                [x for x in self.wiki if w in self.out[x]]
                if "back" in path
                else self.out.get(w, [])
            )
            return trap(
                self.html(
                    f"{path[6:-4]}: {w}",
                    f"bl{w}",
                    ul([(f"/tiki-index.php?page={x}", x) for x in hits]),
                )
            )
        if path == "/tiki-slideshow.php" and known:
            n = int(q["slide"]) if q.get("slide", "").isdigit() else 0
            links = [
                (f"/tiki-slideshow.php?page={w}&slide={k}", f"Slide {k}")
                for k in (n - 1, n + 1)
                if 0 <= k < 4
            ]
            return trap(self.html(f"Slideshow {w} {n}", f"slide{w}", ul(links)))
        if path == "/tiki-view_blog.php" and q.get("blogId") == "1":
            return trap(self.blog(q))
        if path == "/tiki-listpages.php":
            return trap(self.listpages(q))
        if path == "/tiki-lastchanges.php":
            links = [
                (f"/tiki-lastchanges.php?days={d}", f"{d} days") for d in (1, 2, 3, 5, 7, 14, 31, 0)
            ]
            links += [(f"/tiki-index.php?page={x}", x) for x in self.wiki[:4]]
            return trap(self.html(f"Last changes {q.get('days', '')}", "lastch", ul(links)))
        if (
            path == "/tiki-print_blog_post.php"
            and q.get("postId", "").isdigit()
            and int(q["postId"]) in self.posts
        ):
            return trap(self.post(int(q["postId"])))
        return not_found()
