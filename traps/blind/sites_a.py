"""Trap sites, part A: autoindex, pathinfo, caseless, cachebuster, session."""

from __future__ import annotations

import html
import posixpath
import random
import time
from typing import ClassVar
from urllib.parse import parse_qsl, urlencode

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
# Apache mod_autoindex: column-sort queries and symlink loops over a real deep tree.
# ----------------------------------------------------------------------------------------


def stamp(t: int) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.gmtime(t))


class AutoIndex(Site):
    name = "autoindex"
    kind = "Apache mod_autoindex listings: ?C=x;O=y sort orders and symlink loops/aliases"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/pub/")]
    robots_disallow: ClassVar[list[str]] = ["/pub/private/", "/cgi-bin/"]

    DIRS: ClassVar[list[str]] = [
        "/pub/",
        "/pub/docs/",
        "/pub/docs/manual/",
        "/pub/docs/manual/en/",
        "/pub/docs/manual/en/v2/",
        "/pub/docs/manual/en/v2/ch03/",
        "/pub/docs/manual/de/",
        "/pub/tools/",
        "/pub/tools/src/",
        "/pub/tools/src/lib/",
        "/pub/tools/src/lib/src/",
        "/pub/tools/stable/",
        "/pub/releases/",
        "/pub/releases/1.0/",
        "/pub/releases/1.1/",
        "/pub/releases/1.2/",
        "/pub/releases/2.0/",
    ]
    # symlink name in a directory -> real directory it points at
    LINKS: ClassVar[dict[str, dict[str, str]]] = {
        "/pub/tools/": {"current": "/pub/tools/"},  # current -> .
        "/pub/docs/manual/": {"latest": "/pub/docs/manual/en/"},  # alias of a subtree
        "/pub/docs/manual/en/v2/ch03/": {"up": "/pub/docs/manual/"},  # loop ../../..
        "/pub/releases/": {"newest": "/pub/releases/2.0/"},
    }

    def build(self) -> None:
        vocab = words_for("archive")
        self.vocab = vocab
        self.files: dict[str, list[str]] = {}
        rng = self.rng("tree")
        names = ["README.html", "INSTALL.txt", "CHANGES.html", "NOTES.txt", "FAQ.html"]
        extra = slugs(self.key("fn"), 40, vocab, 2)
        for d in self.DIRS:
            k = rng.randint(1, 3)
            fs = [*rng.sample(names, k), f"{extra.pop()}.html"]
            self.files[d] = sorted(fs)
        self.legit = {"home"} | {f"d:{d}" for d in self.DIRS}
        for d, fs in self.files.items():
            self.legit |= {f"f:{d}{f}" for f in fs}
        self.mtime = {x: rng.randint(1_600_000_000, 1_760_000_000) for x in sorted(self.legit)}

    def children(self, d: str) -> list[str]:
        out = [x[len(d) :] for x in self.DIRS if x != d and posixpath.dirname(x[:-1]) + "/" == d]
        out += [f"{s}/" for s in self.LINKS.get(d, {})]
        if d == "/pub/":
            out.append("private/")
        return out + self.files[d]

    def resolve(self, upath: str) -> tuple[str, bool] | None:
        """Walk the path like the file system would: (real path, went through a link)."""
        if not upath.startswith("/pub/"):
            return None
        segs = upath[len("/pub/") :].split("/")
        cur, via = "/pub/", False
        for i, s in enumerate(segs):
            last = i == len(segs) - 1
            if s == "":
                return (cur, via) if last else None
            if s in self.LINKS.get(cur, {}):
                cur, via = self.LINKS[cur][s], True
                continue
            if cur + s + "/" in self.DIRS:
                cur += s + "/"
                continue
            if last and s in self.files.get(cur, []):
                return cur + s, via
            return None
        return None

    def listing(self, req: Req, real: str, shown: str) -> str:
        params = dict(p.split("=", 1) for p in req.query.split(";") if "=" in p)
        col, order = params.get("C", "N"), params.get("O", "A")
        entries = []
        for name in self.children(real):
            full = real + name
            key = f"d:{full}" if name.endswith("/") else f"f:{full}"
            mt = self.mtime.get(key, 1_700_000_000)
            size = "-" if name.endswith("/") else f"{(mt % 900) + 1}K"
            entries.append((name, mt, size))
        idx = {"N": 0, "M": 1, "S": 2, "D": 0}.get(col, 0)
        entries.sort(key=lambda e: e[idx], reverse=order == "D")
        head = []
        for c, label in (
            ("N", "Name"),
            ("M", "Last modified"),
            ("S", "Size"),
            ("D", "Description"),
        ):
            o = "D" if (c == col and order == "A") else "A"
            head.append(f'<th><a href="?C={c};O={o}">{label}</a></th>')
        parent = posixpath.dirname(shown.rstrip("/")).rstrip("/") + "/"
        rows = [
            '<tr><td valign="top"><img src="/icons/back.gif" alt="[PARENTDIR]"></td>'
            f'<td><a href="{html.escape(parent)}">Parent Directory</a></td>'
            '<td>&nbsp;</td><td align="right">  - </td><td>&nbsp;</td></tr>'
        ]
        for name, mt, size in entries:
            icon = "folder.gif" if name.endswith("/") else "text.gif"
            rows.append(
                f'<tr><td valign="top"><img src="/icons/{icon}" alt="[   ]"></td>'
                f'<td><a href="{html.escape(name)}">{html.escape(name)}</a></td>'
                f'<td align="right">{stamp(mt)} </td>'
                f'<td align="right">{size}</td><td>&nbsp;</td></tr>'
            )
        readme = make_paragraphs(self.key(f"readme{real}"), self.vocab, 100, 220)
        body = (
            f"<h1>Index of {html.escape(shown.rstrip('/') or '/')}</h1>\n<table>\n"
            '<tr><th valign="top"><img src="/icons/blank.gif" alt="[ICO]"></th>'
            + "".join(head)
            + '</tr>\n<tr><th colspan="5"><hr></th></tr>\n'
            + "\n".join(rows)
            + '\n<tr><th colspan="5"><hr></th></tr>\n</table>\n<pre>\n'
            + "\n\n".join(html.escape(p) for p in readme)
            + "\n</pre>\n<address>Apache/2.4.62 (Unix) Server at mirror Port 80</address>"
        )
        return (
            '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 3.2 Final//EN">\n<html>\n<head>\n'
            f"<title>Index of {html.escape(shown.rstrip('/'))}</title>\n</head>\n<body>\n"
            f"{body}\n</body></html>\n"
        )

    def handle(self, req: Req) -> Reply:
        if req.path in ("/", "/index.html"):
            if req.path != "/" or req.query:
                return not_found()
            body = doc(
                "Community software mirror",
                "<h1>Community software mirror</h1>"
                + paras_html(make_paragraphs(self.key("home"), self.vocab))
                + "<ul><li>"
                + a("/pub/", "Browse /pub/")
                + "</li><li>"
                + a("/pub/docs/manual/en/", "Manual (English)")
                + "</li><li>"
                + a("/cgi-bin/stats.cgi", "Mirror statistics")
                + "</li></ul>",
            )
            return self.legit_page("home", body)
        r = self.resolve(req.upath)
        if r is None:
            if req.upath.startswith("/pub/") and not req.upath.endswith("/"):
                r2 = self.resolve(req.upath + "/")
                if r2 is not None:
                    return redirect(req.path + "/", 301)
            return not_found()
        real, via = r
        trap = via or bool(req.query)
        if real.endswith("/"):
            body = self.listing(req, real, req.upath)
            pid = f"d:{real}"
        else:
            pid = f"f:{real}"
            text = make_paragraphs(self.key(pid), self.vocab)
            if real.endswith(".txt"):
                return Reply(
                    "\n\n".join(text) + "\n",
                    TRAP if trap else "legit",
                    pid,
                    ctype="text/plain; charset=utf-8",
                )
            name = posixpath.basename(real)
            body = doc(
                name,
                f"<h1>{html.escape(name)}</h1>\n{paras_html(text)}\n"
                f"<p>{a('./', 'Back to the directory')}</p>",
            )
        if trap:
            return Reply(body, TRAP, pid)
        return self.legit_page(pid, body)


# ----------------------------------------------------------------------------------------
# PATH_INFO: /doc/page.html/anything serves page.html; relative links then nest.
# Next to it, a MediaWiki-style /w/index.php/Title where PATH_INFO is the real address.
# ----------------------------------------------------------------------------------------


class PathInfo(Site):
    name = "pathinfo"
    kind = "AcceptPathInfo: /doc/x.html/extra serves x.html, relative links nest forever"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/w/index.php?", "/w/index.php/Special:"]

    DOCS: ClassVar[list[str]] = [
        "index.html",
        "faq.html",
        "guide/install.html",
        "guide/config.html",
        "guide/upgrade.html",
        "guide/examples/basic.html",
        "guide/examples/proxy.html",
        "guide/examples/advanced/tuning.html",
        "guide/examples/advanced/clusters.html",
        "ref/api.html",
        "ref/cli.html",
        "ref/modules/core.html",
        "ref/modules/net.html",
        "ref/modules/io.html",
        "ref/modules/extra/compress.html",
        "ref/modules/extra/crypto.html",
        "release-notes.html",
    ]
    # sloppy links that enter the trap (the page, the bad href)
    BAD: ClassVar[dict[str, str]] = {
        "guide/install.html": "config.html/",
        "ref/api.html": "cli.html/modules/core.html",
        "faq.html": "guide/upgrade.html/#top",
    }

    def build(self) -> None:
        self.vocab = words_for("docs")
        titles = slugs(self.key("wiki"), 24, self.vocab, 2)
        self.wiki = ["Main_Page", "Help"] + [t.replace("-", "_").title() for t in titles]
        self.sub = ["Help/Editing", "Help/Tables", "Help/Templates", "Help/Images"]
        self.sub += [f"{self.wiki[3]}/History", f"{self.wiki[5]}/Archive_1"]
        self.legit = {"home"} | {f"doc:{d}" for d in self.DOCS}
        self.legit |= {f"wiki:{t}" for t in self.wiki + self.sub}

    def doc_page(self, rel: str) -> str:
        rng = self.rng(f"links{rel}")
        here = posixpath.dirname(rel)
        near = [d for d in self.DOCS if d != rel and posixpath.dirname(d).startswith(here)]
        others = [d for d in self.DOCS if d != rel and d not in near]
        picks = near[:6] + rng.sample(others, min(3, len(others)))
        links = [posixpath.relpath(p, here or ".") for p in picks]
        if rel in self.BAD:
            links.append(self.BAD[rel])
        items = "".join(
            f"<li>{a(h, title_of(posixpath.basename(h).split('.')[0]))}</li>" for h in links
        )
        back = posixpath.relpath("index.html", here or ".")
        t = title_of(posixpath.basename(rel)[:-5])
        body = (
            f'<div class="navheader"><a href="{back}">Manual home</a> | '
            f'<a href="{posixpath.relpath("faq.html", here or ".")}">FAQ</a></div>\n'
            f"<h1>{t}</h1>\n"
            + paras_html(make_paragraphs(self.key(f"doc{rel}"), self.vocab))
            + f'\n<div class="seealso"><h3>See also</h3><ul>{items}</ul></div>'
            + '\n<div class="navfooter"><hr>Server documentation, version 2</div>'
        )
        return doc(f"{t} - Server documentation", body)

    def wiki_page(self, title: str) -> str:
        rng = self.rng(f"see{title}")
        if title == "Main_Page":
            lis = [t for t in self.wiki[1:]]
        elif "/" in title:
            lis = [title.split("/")[0]]
        else:
            lis = rng.sample(self.wiki[2:], 4) + [s for s in self.sub if s.startswith(title + "/")]
        see = "".join(f"<li>{a('/w/index.php/' + t, t.replace('_', ' '))}</li>" for t in lis)
        side = (
            '<div id="mw-panel"><ul>'
            f"<li>{a('/w/index.php/Main_Page', 'Main page')}</li>"
            f"<li>{a('/w/index.php/Special:RecentChanges', 'Recent changes')}</li>"
            f"<li>{a('/w/index.php/Special:Random', 'Random page')}</li>"
            f"<li>{a('/w/index.php?title=' + title + '&action=edit', 'Edit')}</li>"
            f"<li>{a('/w/index.php?title=' + title + '&action=history', 'History')}</li>"
            "</ul></div>"
        )
        body = (
            side
            + f'<div id="content"><h1 id="firstHeading">{html.escape(title.replace("_", " "))}'
            + "</h1>"
            + paras_html(make_paragraphs(self.key(f"wiki{title}"), self.vocab))
            + f"<h2>See also</h2><ul>{see}</ul></div>"
        )
        return doc(f"{title} - ProjectWiki", body, canonical=f"/w/index.php/{title}")

    def handle(self, req: Req) -> Reply:
        p = req.upath
        if p == "/" and not req.query:
            body = doc(
                "Server project",
                "<h1>Server project</h1>"
                + paras_html(make_paragraphs(self.key("home"), self.vocab))
                + f"<p>{a('doc/index.html', 'Documentation')} &middot; "
                + f"{a('/w/index.php/Main_Page', 'Wiki')}</p>",
            )
            return self.legit_page("home", body)
        if p.startswith("/w/index.php/"):
            title = p[len("/w/index.php/") :]
            if title in self.wiki or title in self.sub:
                return self.legit_page(f"wiki:{title}", self.wiki_page(title))
            return not_found("There is currently no text in this page.")
        if p.startswith("/doc/"):
            segs = p[len("/doc/") :].split("/")
            for i in range(len(segs)):
                rel = "/".join(segs[: i + 1])
                if rel in self.DOCS:
                    body = self.doc_page(rel)
                    if i == len(segs) - 1 and not req.query:
                        return self.legit_page(f"doc:{rel}", body)
                    return Reply(body, TRAP, f"doc:{rel}")
        return not_found()


# ----------------------------------------------------------------------------------------
# Case-insensitive server (IIS): every casing of a path is the same page.
# ----------------------------------------------------------------------------------------


class Caseless(Site):
    name = "caseless"
    kind = "case-insensitive IIS server: /Products/Widgets/X.aspx == /products/WIDGETS/x.aspx"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/Default.aspx")]
    robots_disallow: ClassVar[list[str]] = ["/Admin/"]

    def build(self) -> None:
        self.vocab = words_for("corp")
        rng = self.rng("names")
        w = [title_of(s).replace(" ", "") for s in slugs(self.key("w"), 11, self.vocab, 1)]
        self.pages: list[str] = ["/Default.aspx", "/Products/Default.aspx"]
        self.pages += ["/Products/Widgets/Default.aspx"]
        self.pages += [f"/Products/Widgets/{n}.aspx" for n in w[:6]]
        self.pages += ["/Products/Gadgets/Default.aspx"]
        self.pages += [f"/Products/Gadgets/{n}.aspx" for n in w[6:11]]
        self.pages += ["/Support/Default.aspx"]
        self.pages += [f"/Support/Article.aspx?id={i}" for i in range(101, 113)]
        self.pages += ["/Support/Downloads/Tool.aspx", "/Support/Downloads/Tools.aspx"]
        self.pages += ["/Company/Default.aspx", "/Company/About.aspx", "/Company/News.aspx"]
        self.pages += ["/Company/NewsArchive.aspx", "/Company/Careers.aspx"]
        self.by_key = {self.norm(p): p for p in self.pages}
        self.legit = set(self.by_key)
        del rng

    @staticmethod
    def norm(target: str) -> str:
        path, _, q = target.partition("?")
        path = path.lower()
        if path.endswith("/"):
            path += "default.aspx"
        qs = sorted((k.lower(), v) for k, v in parse_qsl(q))
        return path + ("?" + urlencode(qs) if qs else "")

    def variant(self, target: str, style: int, rng: random.Random) -> str:
        path, sep, q = target.partition("?")
        if path.endswith("/Default.aspx") and style % 2:
            path = path[: -len("Default.aspx")]
        if style == 1:
            path = path.lower()
        elif style == 2:
            segs = path.split("/")
            path = "/".join(s.upper() if i < len(segs) - 1 else s for i, s in enumerate(segs))
        elif style == 3:
            path = "".join(c.upper() if rng.random() < 0.3 else c.lower() for c in path)
        return path + sep + q

    def handle(self, req: Req) -> Reply:
        k = self.norm(req.target)
        if k not in self.by_key:
            return not_found("The resource cannot be found.")
        real = self.by_key[k]
        rng = random.Random(self.key(f"v{req.target}"))
        section = real.split("/")[1] if real.count("/") > 1 else ""
        nav = []
        for t, label in (
            ("/Default.aspx", "Home"),
            ("/Products/Default.aspx", "Products"),
            ("/Support/Default.aspx", "Support"),
            ("/Company/Default.aspx", "Company"),
        ):
            nav.append(a(self.variant(t, rng.randrange(4), rng), label))
        # local links: relative to the directory *as requested* (keeps its casing)
        req_dir = req.path.rsplit("/", 1)[0] + "/"
        real_dir = real.split("?")[0].rsplit("/", 1)[0] + "/"
        local = []
        for p in self.pages:
            pp = p.split("?")[0]
            if p != real and pp.rsplit("/", 1)[0] + "/" == real_dir:
                rel = p[len(real_dir) :]
                if rng.random() < 0.5:
                    rel = self.variant("/" + rel, rng.randrange(4), rng)[1:]
                local.append(
                    a(
                        rel,
                        title_of(rel.split(".")[0].split("?")[0])
                        + (" " + p.split("=")[1] if "?" in p else ""),
                    )
                )
        # child sections
        for p in self.pages:
            if (
                p.endswith("/Default.aspx")
                and p != real
                and p.startswith(real_dir)
                and p.count("/") == real_dir.count("/") + 1
            ):
                local.append(a(self.variant(p, rng.randrange(4), rng), p.split("/")[-2]))
        if real == "/Support/Default.aspx":
            local.append(a("Downloads/Tool.aspx", "Download tool"))
            local.append(
                a(self.variant("/Support/Downloads/Tools.aspx", rng.randrange(4), rng), "All tools")
            )
        if real == "/Company/News.aspx":
            local.append(a("NewsArchive.aspx", "Older news"))
        canonical = real if section == "Support" else None
        body = (
            '<form method="post" action="./" id="form1">'
            '<input type="hidden" name="__VIEWSTATE" '
            'value="/wEPDwUKLTk1OTYxMjA4Mg9kFgJmD2QWAgIDD2QWAg">'
            f'<div id="ctl00_header"><span class="logo">Contoso Ltd</span> {" | ".join(nav)}</div>'
            f'<div id="ctl00_body"><h1>{html.escape(title_of(real.split("/")[-1][:-5]))}</h1>'
            + paras_html(make_paragraphs(self.key(real), self.vocab))
            + "<ul>"
            + "".join(f"<li>{x}</li>" for x in local)
            + "</ul></div>"
            + f'<div id="ctl00_footer">{a("/Admin/Login.aspx?ReturnUrl=%2f", "Staff login")}'
            + " &copy; Contoso</div></form>"
        )
        _ = req_dir
        return self.alias(k, req, doc(f"Contoso - {real}", body, canonical=canonical))


# ----------------------------------------------------------------------------------------
# Cache busters: ?_=<timestamp> and ?v=<random> on links, fresh in every response, next to
# a real ?v=<version> parameter that selects different release notes.
# ----------------------------------------------------------------------------------------


class CacheBuster(Site):
    name = "cachebuster"
    kind = "cache-buster parameters ?_=<ms timestamp> and ?v=<random> fresh in every response"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/account/"]

    def build(self) -> None:
        self.vocab = words_for("news")
        self.articles = slugs(self.key("art"), 24, self.vocab, 3)
        self.versions = [f"{m}.{n}" for m in (1, 2, 3) for n in range(4)]
        self.legit = {"home", "news", "live", "releases", "about"}
        self.legit |= {f"a:{s}" for s in self.articles} | {f"r:{v}" for v in self.versions}
        self.clock = 1_764_720_000_000

    def shell(self, title: str, main: str) -> str:
        with self._lock:
            self.clock += 1037
            ts = self.clock
        rng = random.Random(self.key(f"mr{ts}"))
        most = "".join(
            f"<li>{a('/news/' + s + '?v=' + self.token(6), title_of(s))}</li>"
            for s in rng.sample(self.articles, 5)
        )
        head = (
            '<link rel="stylesheet" href="/static/site.css?v=20261201">\n'
            f'<script src="/static/app.js?_={ts}"></script>'
        )
        body = (
            '<header><div class="masthead">The Harbour Gazette</div><nav>'
            + " ".join(
                a(h, t)
                for h, t in (
                    ("/", "Home"),
                    ("/news/", "News"),
                    ("/live", "Live"),
                    ("/releases/", "App releases"),
                    ("/about", "About"),
                    ("/account/login", "Sign in"),
                )
            )
            + "</nav></header>\n"
            + f'<div class="ticker">{a(f"/live?_={ts}", "LIVE: updates every minute")} '
            + f"{a(f'/?_={ts}', 'refresh')}</div>\n"
            + f"<main>{main}</main>\n"
            + f"<aside><h3>Most read</h3><ol>{most}</ol></aside>\n"
            + "<footer>&copy; 2026 The Harbour Gazette</footer>"
        )
        return doc(title, body, head=head)

    def handle(self, req: Req) -> Reply:
        p, q = req.path, dict(req.params)
        txt = self.key
        if p == "/":
            lead = "".join(f"<li>{a('/news/' + s, title_of(s))}</li>" for s in self.articles[:6])
            main = "<h1>Today</h1>" + paras_html(make_paragraphs(txt("home"), self.vocab))
            body = self.shell("The Harbour Gazette", main + f"<ul>{lead}</ul>")
            return self.legit_page("home", body) if not q else Reply(body, TRAP, "home")
        if p == "/news/":
            lis = "".join(f"<li>{a(s, title_of(s))}</li>" for s in self.articles)
            main = "<h1>All news</h1>" + paras_html(make_paragraphs(txt("news"), self.vocab))
            body = self.shell("News", main + f"<ul>{lis}</ul>")
            return self.legit_page("news", body) if not q else Reply(body, TRAP, "news")
        if p.startswith("/news/") and p[6:] in self.articles:
            s = p[6:]
            main = f"<h1>{title_of(s)}</h1>" + paras_html(make_paragraphs(txt(s), self.vocab))
            body = self.shell(title_of(s), main)
            return self.legit_page(f"a:{s}", body) if not q else Reply(body, TRAP, f"a:{s}")
        if p == "/live":
            main = "<h1>Live</h1>" + paras_html(make_paragraphs(txt("live"), self.vocab))
            body = self.shell("Live", main)
            return self.legit_page("live", body) if not q else Reply(body, TRAP, "live")
        if p == "/about" and not q:
            main = "<h1>About us</h1>" + paras_html(make_paragraphs(txt("about"), self.vocab))
            return self.legit_page("about", self.shell("About", main))
        if p == "/releases/" and not q:
            lis = "".join(f"<li>{a('notes?v=' + v, 'Version ' + v)}</li>" for v in self.versions)
            main = (
                "<h1>App release notes</h1>"
                + paras_html(make_paragraphs(txt("rel"), self.vocab))
                + f"<ul>{lis}</ul>"
            )
            return self.legit_page("releases", self.shell("Releases", main))
        if p == "/releases/notes" and list(q) == ["v"] and q["v"] in self.versions:
            v = q["v"]
            i = self.versions.index(v)
            nxt = [a(f"notes?v={w}", f"v{w}") for w in self.versions[max(0, i - 1) : i + 2]]
            main = (
                f"<h1>What's new in {v}</h1>"
                + paras_html(make_paragraphs(txt(f"v{v}"), self.vocab))
                + " | ".join(nxt)
            )
            return self.legit_page(f"r:{v}", self.shell(f"Release {v}", main))
        return not_found()


# ----------------------------------------------------------------------------------------
# Session ids in URLs: Tomcat ;jsessionid= and ASP.NET cookieless /(S(...))/, a new session
# on every response (no sticky sessions), next to real hex-addressed commit pages.
# ----------------------------------------------------------------------------------------


class Session(Site):
    name = "session"
    kind = "session ids in URLs (;jsessionid=, /(S(..))/), a fresh one in every response"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/store/checkout.jsp"]

    PORTAL: ClassVar[list[str]] = ["Home", "Reports", "Directory", "Policies"]

    def build(self) -> None:
        self.vocab = words_for("shop")
        self.cats = slugs(self.key("cats"), 5, self.vocab, 1)
        rng = self.rng("commits")
        self.commits = [
            "".join(rng.choice("0123456789abcdef") for _ in range(40)) for _ in range(15)
        ]
        self.legit = {"home", "store:catalog", "dev:changelog"}
        self.legit |= {f"store:cat:{c}" for c in self.cats}
        self.legit |= {f"store:item:{i}" for i in range(1, 21)}
        self.legit |= {f"portal:{p}" for p in self.PORTAL}
        self.legit |= {f"portal:Reports?year={y}" for y in range(2022, 2027)}
        self.legit |= {f"portal:Policy?p={i}" for i in range(1, 6)}
        self.legit |= {f"dev:{c}" for c in self.commits}

    def j(self, path: str, sid: str, query: str = "") -> str:
        return f"{path};jsessionid={sid}" + (f"?{query}" if query else "")

    def store(self, req: Req, page: str, q: dict[str, str]) -> Reply:
        sid = self.token(32, "0123456789ABCDEF")
        nav = (
            f'<div id="top">{a(self.j("/store/catalog.jsp", sid), "Catalog")} | '
            + " | ".join(
                a(self.j("/store/category.jsp", sid, f"c={c}"), title_of(c)) for c in self.cats
            )
            + f" | {a(self.j('/store/checkout.jsp', sid), 'Checkout')}</div>"
        )
        if page == "catalog.jsp" and not q:
            pid, h = "store:catalog", "Catalog"
            items = range(1, 21)
        elif page == "category.jsp" and list(q) == ["c"] and q["c"] in self.cats:
            c = q["c"]
            pid, h = f"store:cat:{c}", title_of(c)
            items = range(1 + self.cats.index(c) * 4, 5 + self.cats.index(c) * 4)
        elif (
            page == "item.jsp"
            and list(q) == ["id"]
            and q["id"].isdigit()
            and 1 <= int(q["id"]) <= 20
        ):
            i = int(q["id"])
            pid, h = f"store:item:{i}", f"Item {i}"
            items = [x for x in (i - 1, i + 1) if 1 <= x <= 20]
        else:
            return not_found()
        lis = "".join(
            f"<li>{a(self.j('/store/item.jsp', sid, f'id={i}'), f'Item {i}')}</li>" for i in items
        )
        body = doc(
            h,
            nav
            + f"<h2>{html.escape(h)}</h2>"
            + paras_html(make_paragraphs(self.key(pid), self.vocab))
            + f"<ul>{lis}</ul>",
        )
        return self.alias(pid, req, body)

    def portal(self, req: Req, sid: str, page: str, q: dict[str, str]) -> Reply:
        key = page
        if page == "Reports" and q:
            if list(q) != ["year"] or q["year"] not in {str(y) for y in range(2022, 2027)}:
                return not_found()
            key = f"Reports?year={q['year']}"
        elif page == "Policy" and list(q) == ["p"] and q["p"] in {"1", "2", "3", "4", "5"}:
            key = f"Policy?p={q['p']}"
        elif page not in self.PORTAL or q:
            return not_found()
        links = [a(f"{p}.aspx", p) for p in self.PORTAL]
        if page == "Reports":
            links += [a(f"Reports.aspx?year={y}", str(y)) for y in range(2022, 2027)]
        if page == "Policies":
            links += [a(f"Policy.aspx?p={i}", f"Policy {i}") for i in range(1, 6)]
        links.append(a("/portal/Directory.aspx", "Staff directory (permalink)"))
        links.append(a("/store/catalog.jsp", "Shop"))
        body = doc(
            f"Portal - {key}",
            f'<form name="aspnetForm" method="post" action="{page}.aspx">'
            f'<table width="100%"><tr><td class="menu">{"<br>".join(links)}</td><td>'
            f"<h1>{html.escape(key)}</h1>"
            + paras_html(make_paragraphs(self.key(f"portal{key}"), self.vocab))
            + "</td></tr></table></form>",
        )
        return self.alias(f"portal:{key}", req, body)

    def handle(self, req: Req) -> Reply:
        p, q = req.path, dict(req.params)
        if p == "/" and not q:
            body = doc(
                "Maker Supply Co.",
                "<h1>Maker Supply Co.</h1>"
                + paras_html(make_paragraphs(self.key("home"), self.vocab))
                + "<ul>"
                + "".join(
                    f"<li>{a(h, t)}</li>"
                    for h, t in (
                        ("/store/catalog.jsp", "Online store"),
                        ("/portal/Home.aspx", "Staff portal"),
                        ("/portal/Reports.aspx", "Annual reports"),
                        ("/portal/Policies.aspx", "Policies"),
                        ("/dev/changelog", "Firmware changelog"),
                    )
                )
                + "</ul>",
            )
            return self.legit_page("home", body)
        if p.startswith("/store/"):
            return self.store(req, p[7:].split(";", 1)[0], q)
        if p.startswith("/portal/"):
            rest = p[8:]
            if rest.startswith("(S(") and "))/" in rest:
                sid, _, page = rest[3:].partition("))/")
                if page.endswith(".aspx") and "/" not in page:
                    return self.portal(req, sid, page[:-5], q)
                return not_found()
            if rest.endswith(".aspx") and "/" not in rest:
                new = self.token(24, "abcdefghijklmnopqrstuvwxyz012345")
                return redirect(f"/portal/(S({new}))/{rest}" + (f"?{req.query}" if q else ""))
            return not_found()
        if p == "/dev/changelog" and not q:
            lis = "".join(
                f"<li><code>{a('/dev/commit/' + c, c[:10])}</code></li>" for c in self.commits
            )
            body = doc(
                "Changelog",
                "<h1>Firmware changelog</h1>"
                + paras_html(make_paragraphs(self.key("changelog"), self.vocab))
                + f"<ul>{lis}</ul>",
            )
            return self.legit_page("dev:changelog", body)
        if p.startswith("/dev/commit/") and p[12:] in self.commits and not q:
            c = p[12:]
            i = self.commits.index(c)
            par = a(f"/dev/commit/{self.commits[i + 1]}", "parent") if i + 1 < 15 else ""
            body = doc(
                f"commit {c}",
                f"<pre>commit {c}</pre>"
                + paras_html(make_paragraphs(self.key(c), self.vocab))
                + par,
            )
            return self.legit_page(f"dev:{c}", body)
        return Reply(not_found().body, OTHER, None, 404)
