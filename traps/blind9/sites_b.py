"""Blind9 sites, part B: sourcehut (git, lists and todo on three hosts), a Sitecore site
with a French language host, and a Zope 2 site with implicit acquisition."""

from __future__ import annotations

import hashlib
import re
from typing import ClassVar

from traps.blind.kit import (
    LANG_VOCAB,
    THEMES,
    Reply,
    Req,
    doc,
    not_found,
    redirect,
    slugs,
    title_of,
)
from traps.blind.kit import words_for as wf
from traps.blind2.common import bar, esc, prose, qs, trap, ul

from .common import Pages

# ----------------------------------------------------------------------------------------
# sourcehut: git.sr.ht (host 0), lists.sr.ht (host 1), todo.sr.ht (host 2) for one user.
# git.sr.ht: summary, tree and items at HEAD, log (?from=<sha> pages), commits, refs;
# every commit page links "browse" /tree/<sha>, whose items link /tree/<sha>/item/<p>,
# /blame/<sha>/<p>, /log/<sha>/item/<p>, /blob/<sha>/<p> (raw) for every commit; the
# default branch is also /tree/main and /log/main (copies of /tree and /log); short
# hashes /commit/<7 hex> serve the commit too. lists.sr.ht: each message's permalink
# /~u/list/<message-id> shows its whole thread (replies: copies), `/mbox` exports,
# `?search=from:` author links. todo.sr.ht: label links `?search=label:"x"`, status
# tabs `?search=status:closed`, and paging. Finite but large. robots.txt: sr.ht's
# (nothing disallowed on git/todo; lists.sr.ht disallows nothing either) — sourcehut
# serves `Disallow:` lines only for its /query GraphQL endpoints.
# ----------------------------------------------------------------------------------------

_U = "~harbourdev"
_FILES = [
    "README.md",
    "setup.py",
    "tidetable/__init__.py",
    "tidetable/predict.py",
    "tidetable/stations.py",
    "tests/test_predict.py",
]
_DIRS = ["tidetable", "tests"]


def mref(mid: str) -> str:
    """A message id as lists.sr.ht writes it in a URL: %3Cid%40host%3E."""
    return "%3C" + mid.replace("@", "%40") + "%3E"


class Sourcehut(Pages):
    """sourcehut across three hosts: tree/blame/log at every commit, thread permalinks."""

    name = "sourcehut"
    kind = "sourcehut git/lists/todo on 3 hosts: per-commit trees, message permalinks, searches"
    hosts = 3
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, f"/{_U}/"), (1, f"/{_U}/"), (2, f"/{_U}/")]
    robots_disallow: ClassVar[list[str]] = ["/query"]

    def setup(self) -> None:
        self.v = wf("archive")
        self.shas = [hashlib.sha1(self.key(f"c{i}").encode()).hexdigest() for i in range(12)]
        self.msgs = [title_of(s) for s in slugs(self.key("cm"), 12, self.v, 3)]
        self.threads = [
            (hashlib.md5(self.key(f"t{i}").encode()).hexdigest()[:16] + "@harbour.example", t)
            for i, t in enumerate(slugs(self.key("th"), 8, self.v, 3))
        ]
        self.labels = ["bug", "feature", "docs", "stations"]
        self.tickets = [title_of(s) for s in slugs(self.key("tk"), 6, self.v, 3)]
        R = f"/{_U}/tidetable"
        self.add("gprof", f"/{_U}/", lambda r: self.g(f"{_U}", prose(self, "gp", self.v)), 0)
        self.add("gsum", R, lambda r: self.g("tidetable: summary", self.summary()), 0)
        self.add("gtree", f"{R}/tree", lambda r: self.g("tree", self.tree("main", "")), 0)
        for d in _DIRS:
            self.add(
                f"gd{d}",
                f"{R}/tree/main/item/{d}",
                lambda r, d=d: self.g(d, self.tree("main", d)),
                0,
            )
        for f in _FILES:
            self.add(
                f"gf{f}",
                f"{R}/tree/main/item/{f}",
                lambda r, f=f: self.g(f, self.item("main", f)),
                0,
            )
        self.add("glog", f"{R}/log", lambda r: self.g("log", self.gitlog("main", 0)), 0)
        self.add(
            "glog2",
            f"{R}/log?from={self.shas[10]}",
            lambda r: self.g("log", self.gitlog("main", 10)),
            0,
        )
        for i, s in enumerate(self.shas):
            self.add(
                f"gc{i}", f"{R}/commit/{s}", lambda r, i=i: self.g(self.msgs[i], self.commit(i)), 0
            )
        self.add("grefs", f"{R}/refs", lambda r: self.g("refs", self.refs()), 0)
        for t in ("v0.1", "v0.2"):
            self.add(f"gr{t}", f"{R}/refs/{t}", lambda r, t=t: self.g(t, self.ref(t)), 0)
        self.add("lprof", f"/{_U}/", lambda r: self.lp(), 1)
        for lst, ts in (
            ("tidetable-devel", self.threads[:6]),
            ("tidetable-announce", self.threads[6:]),
        ):
            self.add(f"l{lst}", f"/{_U}/{lst}/", lambda r, lst=lst, ts=ts: self.lst(lst, ts), 1)
            for mid, t in ts:
                self.add(
                    f"m{mid}",
                    f"/{_U}/{lst}/{mref(mid)}",
                    lambda r, lst=lst, mid=mid, t=t: self.thread(lst, mid, t),
                    1,
                )
        self.add(
            "tprof",
            f"/{_U}/",
            lambda r: self.t(
                _U, prose(self, "tp", self.v) + ul([(f"/{_U}/tidetable", "tidetable")])
            ),
            2,
        )
        self.add("ttrack", f"/{_U}/tidetable", lambda r: self.t("tidetable", self.tracker("")), 2)
        for n in range(1, 7):
            self.add(
                f"tk{n}",
                f"/{_U}/tidetable/{n}",
                lambda r, n=n: self.t(self.tickets[n - 1], self.ticket(n)),
                2,
            )

    # -- git -----------------------------------------------------------------------------
    def g(self, title: str, body: str) -> str:
        R = f"/{_U}/tidetable"
        nav = bar(
            [
                (R, "summary"),
                (f"{R}/tree", "tree"),
                (f"{R}/log", "log"),
                (f"{R}/refs", "refs"),
                (self.url(1, f"/{_U}/"), "lists"),
                (self.url(2, f"/{_U}/tidetable"), "tickets"),
            ]
        )
        return doc(f"{title} - git.sr.ht", f"<nav>{nav}</nav>{body}")

    def summary(self) -> str:
        R = f"/{_U}/tidetable"
        return prose(self, "readme", self.v) + ul(
            [(f"{R}/commit/{self.shas[i]}", self.msgs[i]) for i in range(3)]
            + [(self.url(1, f"/{_U}/tidetable-devel/"), "mailing list")]
        )

    def tree(self, ref: str, d: str) -> str:
        R = f"/{_U}/tidetable"
        kids = [x for x in [*_DIRS, *_FILES] if (x.rpartition("/")[0] == d) and x != d]
        body = f"<h2>{esc(ref)}:/{esc(d)}</h2>"
        rows = []
        for x in kids:
            rows.append((f"{R}/tree/{ref}/item/{x}", x.rpartition("/")[2]))
            if x in _FILES:
                rows.append((f"{R}/log/{ref}/item/{x}", "log"))
        return body + ul(rows)

    def item(self, ref: str, f: str) -> str:
        R = f"/{_U}/tidetable"
        acts = bar(
            [
                (f"{R}/blame/{ref}/{f}", "blame"),
                (f"{R}/log/{ref}/item/{f}", "log"),
                (f"{R}/blob/{ref}/{f}", "view raw"),
            ]
        )
        code = prose(self, f"file{f}", THEMES["archive"], 60, 120)
        return f"<h2>{esc(f)} @ {esc(ref)}</h2>{acts}<pre>{code}</pre>"

    def gitlog(self, ref: str, start: int) -> str:
        R = f"/{_U}/tidetable"
        rows = []
        for i in range(start, min(start + 10, 12)):
            s = self.shas[i]
            rows.append((f"{R}/commit/{s}", self.msgs[i]))
            rows.append((f"{R}/tree/{s}", "browse"))
        out = ul(rows)
        if start + 10 < 12:
            out += f'<a href="{R}/log{"" if ref == "main" else "/" + ref}?from={self.shas[start + 10]}">Next</a>'  # noqa: E501
        return out

    def commit(self, i: int) -> str:
        R = f"/{_U}/tidetable"
        s = self.shas[i]
        links = [(f"{R}/tree/{s}", "browse"), (f"{R}/log/{s}", "log from here")]
        if i + 1 < 12:
            links.append((f"{R}/commit/{self.shas[i + 1]}", "parent"))
        links.append((f"{R}/commit/{s}.patch", "patch"))
        return (
            f"<h2>{esc(self.msgs[i])}</h2><p>{s}</p>"
            + prose(self, f"c{i}", self.v, 40, 80)
            + ul(links)
        )

    def refs(self) -> str:
        R = f"/{_U}/tidetable"
        return ul(
            [(f"{R}/refs/v0.1", "v0.1"), (f"{R}/refs/v0.2", "v0.2"), (f"{R}/tree/main", "main")]
        )

    def ref(self, t: str) -> str:
        R = f"/{_U}/tidetable"
        s = self.shas[8 if t == "v0.1" else 3]
        return (
            f"<h2>{t}</h2>"
            + prose(self, "rel" + t, self.v, 60, 120)
            + ul([(f"{R}/tree/{s}", "browse"), (f"{R}/commit/{s}", "commit")])
        )

    # -- lists and todo ------------------------------------------------------------------
    def lp(self) -> str:
        return doc(
            f"{_U} - lists.sr.ht",
            prose(self, "lp", self.v)
            + ul(
                [
                    (f"/{_U}/tidetable-devel/", "tidetable-devel"),
                    (f"/{_U}/tidetable-announce/", "tidetable-announce"),
                    (self.url(0, f"/{_U}/tidetable"), "git repository"),
                ]
            ),
        )

    def lst(self, lst: str, ts: list[tuple[str, str]]) -> str:
        body = f"<h1>{lst}</h1>" + prose(self, "l" + lst, self.v, 40, 80)
        body += ul([(f"/{_U}/{lst}/{mref(m)}", title_of(t)) for m, t in ts])
        body += bar(
            [(f"/{_U}/{lst}/patches", "patches"), (f"/{_U}/{lst}/?search=is:patch", "patches only")]
        )
        return doc(f"{lst} - lists.sr.ht", body)

    def thread(self, lst: str, mid: str, t: str) -> str:
        n = int(mid[:2], 16) % 3 + 2
        body = f"<h1>{esc(title_of(t))}</h1>"
        for k in range(n):
            rid = mid if k == 0 else f"{mid[:12]}{k:04d}@harbour.example"
            who = ["ada", "bo", "cy", "di"][(k + len(t)) % 4]
            body += f'<div><a href="/{_U}/{lst}/?search=from:{who}">{who}</a> '
            body += f'<a href="/{_U}/{lst}/{mref(rid)}">permalink</a> '
            body += f'<a href="/{_U}/{lst}/{mref(rid)}/mbox">mbox</a>'
            body += prose(self, f"msg{mid}{k}", self.v, 40, 90) + "</div>"
        return doc(f"{title_of(t)} - lists.sr.ht", body + f'<a href="/{_U}/{lst}/">{lst}</a>')

    def t(self, title: str, body: str) -> str:
        nav = bar([(f"/{_U}/tidetable", "tidetable"), (self.url(0, f"/{_U}/tidetable"), "git")])
        return doc(f"{title} - todo.sr.ht", f"<nav>{nav}</nav>{body}")

    def tracker(self, search: str) -> str:
        tabs = bar([(f"/{_U}/tidetable?search=status:{s}", s) for s in ("open", "closed", "any")])
        ns = [
            n
            for n in range(1, 7)
            if not search or self.labels[n % 4] in search or "status" in search
        ]
        rows = []
        for n in ns:
            rows.append((f"/{_U}/tidetable/{n}", f"#{n} {self.tickets[n - 1]}"))
            rows.append(
                (f'/{_U}/tidetable?search=label:"{self.labels[n % 4]}"', self.labels[n % 4])
            )
        return (
            tabs
            + (f"<p>search: {esc(search)}</p>" if search else prose(self, "tt", self.v, 40, 80))
            + ul(rows)
        )

    def ticket(self, n: int) -> str:
        R = self.url(0, f"/{_U}/tidetable")
        s = self.shas[n + 2]
        links = [
            (f'/{_U}/tidetable?search=label:"{self.labels[n % 4]}"', self.labels[n % 4]),
            (f"{R}/commit/{s}", f"fixed in {s[:7]}"),
            (f"{R}/tree/{s}/item/{_FILES[n % 6]}", _FILES[n % 6]),
        ]
        return f"<h1>#{n}</h1>" + prose(self, f"tk{n}", self.v) + ul(links)

    # -- everything else -----------------------------------------------------------------
    def rest(self, req: Req) -> Reply:
        h, p = req.host_index, req.path
        if h == 2:
            if p == f"/{_U}/tidetable" and "search" in qs(req.query):
                return trap(self.t("search", self.tracker(qs(req.query)["search"])))
            return not_found()
        if h == 1:
            m = re.match(rf"^/{_U}/(tidetable-devel|tidetable-announce)/(.*)$", req.upath)
            if not m:
                return not_found()
            lst, rest = m.groups()
            ts = self.threads[:6] if lst == "tidetable-devel" else self.threads[6:]
            if rest in ("", "patches"):
                return trap(self.lst(lst, ts))
            mm = re.match(r"^<([0-9a-f]{12})[0-9a-f]{4}@harbour\.example>(/mbox)?$", rest)
            mm = mm or re.match(r"^<([0-9a-f]{12})\d{4}@harbour\.example>(/mbox)?$", rest)
            if mm:
                for mid, t in ts:
                    if mid.startswith(mm.group(1)):
                        if mm.group(2):
                            rep = trap(f"From {mid}\nSubject: {t}\n")
                            rep.ctype = "application/mbox"
                            return rep
                        return trap(self.thread(lst, mid, t))
            return not_found()
        R = f"/{_U}/tidetable"
        if not p.startswith(R + "/"):
            return not_found()
        sub = p[len(R) + 1 :]
        refs = ["main", *self.shas]
        if sub == "log" or sub == "log/main":
            start = qs(req.query).get("from", "")
            i = self.shas.index(start) if start in self.shas else 0
            return trap(self.g("log", self.gitlog("main", i)))
        m = re.match(r"^(tree|log|blame|blob)/([0-9a-f]{40}|main)(?:/(?:item/)?(.*))?$", sub)
        if m and m.group(2) in refs:
            kind, ref, path = m.group(1), m.group(2), m.group(3) or ""
            if path and path not in _FILES and path not in _DIRS:
                return not_found()
            if kind == "tree":
                body = self.item(ref, path) if path in _FILES else self.tree(ref, path)
                return trap(self.g(f"{path or 'tree'} @ {ref[:7]}", body))
            if kind == "log":
                i = self.shas.index(ref) if ref in self.shas else 0
                return trap(self.g("log", self.gitlog(ref, i)))
            if kind == "blame" and path in _FILES:
                return trap(self.g(f"blame {path}", self.item(ref, path) + f"<p>{ref}</p>"))
            if kind == "blob" and path in _FILES:
                rep = trap(f"# {path} at {ref}\n")
                rep.ctype = "text/plain; charset=utf-8"
                return rep
            return not_found()
        m = re.match(r"^commit/([0-9a-f]{7,40})(\.patch)?$", sub)
        if m:
            for i, s in enumerate(self.shas):
                if s.startswith(m.group(1)):
                    if m.group(2):
                        rep = trap(f"From {s}\nSubject: [PATCH] {self.msgs[i]}\n")
                        rep.ctype = "text/plain; charset=utf-8"
                        return rep
                    return trap(self.g(self.msgs[i], self.commit(i)))
        return not_found()


# ----------------------------------------------------------------------------------------
# Sitecore 9 (XP) with two site definitions: www (English, host 0) and a French site on
# its own host (host 1, language="fr-FR"). Link manager: languageEmbedding="asNeeded",
# useDisplayName="true", lowercaseUrls, no .aspx. Items resolve by name or display name
# and still with ".aspx"; a page requested with `?sc_lang=` (the language switcher) or
# under an embedded language (/fr-fr/, /de-de/, /nl-nl/, /en/) renders in that
# language, falling back to English for untranslated items (language fallback), and
# its links embed the language (asNeeded) — so every page exists in four languages on
# both hosts, mostly as English copies. Rich text holds unexpanded dynamic links
# /~/link.aspx?_id=<GUID>&_z=z (302 to the item) and old ".aspx" links.
# Legit look-alikes: the twelve real French translations on the French host, at their
# French display-name paths. robots.txt: the site's (Sitecore's own folders).
# ----------------------------------------------------------------------------------------

_LANGS = ["en", "fr-fr", "de-de", "nl-nl"]


class Sitecore(Pages):
    """Sitecore: sc_lang and embedded-language copies, fallback copies on the French host."""

    name = "sitecore"
    kind = "Sitecore: sc_lang= and /xx-xx/ language copies with fallback, fr host, /~/link.aspx"
    hosts = 2
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/"), (1, "/")]
    robots_disallow: ClassVar[list[str]] = [
        "/sitecore/",
        "/sitecore modules/",
        "/layouts/",
        "/App_Config/",
        "/api/sitecore/",
    ]

    def setup(self) -> None:
        self.v = wf("corp")
        self.fv = LANG_VOCAB["fr"] + [w for w in wf("corp") if len(w) > 6]
        secs = {
            "products": "produits",
            "services": "prestations",
            "news": "actualites",
            "careers": "carrieres",
        }
        self.items: dict[str, dict] = {}  # en path -> item

        def item(path: str, fr: str | None) -> None:
            guid = hashlib.md5(self.key(path).encode()).hexdigest().upper()
            self.items[path] = {"fr": fr, "guid": guid, "kids": []}
            if path:
                self.items[path.rpartition("/")[0]]["kids"].append(path)

        item("", "")
        item("about", "a-propos")
        for s, fr in secs.items():
            item(s, fr)
            frk = slugs(self.key("fr" + s), 2, LANG_VOCAB["fr"], 2)
            for k, c in enumerate(slugs(self.key(s), 4, THEMES["corp"] + THEMES["archive"], 2)):
                item(
                    f"{s}/{c}", frk[k] if k < (2 if s in ("products", "services") else 1) else None
                )
        for path, it in self.items.items():
            self.add("en" + path, "/" + path, self.render, 0)
            if it["fr"] is not None:
                self.add("fr" + path, self.frpath(path), self.render, 1)

    def frpath(self, path: str) -> str:
        """The French display-name path (fallback: item names)."""
        if not path:
            return "/"
        segs, cur = [], ""
        for seg in path.split("/"):
            cur = f"{cur}/{seg}" if cur else seg
            segs.append(self.items[cur]["fr"] or seg)
        return "/" + "/".join(segs)

    def link(self, path: str, host: int, lang: str) -> str:
        default = "en" if host == 0 else "fr-fr"
        if lang == default:
            return "/" + path if host == 0 else self.frpath(path)
        return f"/{lang}/{path}".rstrip("/") if path else f"/{lang}"

    def resolve(self, segs: list[str]) -> str | None:
        cur = ""
        for seg in segs:
            seg = seg.lower().removesuffix(".aspx")
            nxt = None
            for k in self.items[cur]["kids"]:
                if k.rpartition("/")[2] == seg or self.items[k]["fr"] == seg:
                    nxt = k
            if nxt is None:
                return None
            cur = nxt
        return cur

    def page(self, path: str, host: int, lang: str) -> str:
        it = self.items[path]
        french = lang == "fr-fr" and it["fr"] is not None
        name = (it["fr"] or "accueil") if french else (path.rpartition("/")[2] or "home")
        text = prose(self, ("fr" if french else "en") + path, self.fv if french else self.v)
        L = lambda p: self.link(p, host, lang)  # noqa: E731
        nav = bar(
            [
                (L(p), title_of(p or "home"))
                for p in ["", "about", "products", "services", "news", "careers"]
            ]
        )
        switch = bar([(f"?sc_lang={x[:3] + x[3:].upper() if '-' in x else x}", x) for x in _LANGS])
        other = (
            (self.url(1, "/"), "Site en français")
            if host == 0
            else (self.url(0, "/"), "English site")
        )
        body = f"<nav>{nav}</nav><div>{switch} | <a href='{other[0]}'>{other[1]}</a></div>"
        body += f"<h1>{esc(title_of(name))}</h1>{text}"
        body += ul([(L(k), title_of(k.rpartition("/")[2])) for k in it["kids"]])
        if path.count("/") == 1:
            sec, sibs = path.split("/")[0], self.items[path.split("/")[0]]["kids"]
            rel = sibs[(sibs.index(path) + 1) % len(sibs)]
            body += f'<p>See also <a href="/~/link.aspx?_id={self.items[rel]["guid"]}&amp;_z=z">{esc(title_of(rel))}</a>'  # noqa: E501
            body += f' and <a href="/{sibs[(sibs.index(path) + 2) % len(sibs)]}.aspx">the {sec} overview</a>.</p>'  # noqa: E501
        return doc(f"{title_of(name)} | Meridian Cranes", body, lang=lang[:2])

    def context(self, req: Req) -> tuple[str | None, int, str]:
        segs = [s for s in req.upath.split("/") if s]
        lang = "en" if req.host_index == 0 else "fr-fr"
        if segs and segs[0].lower() in _LANGS:
            lang = segs.pop(0).lower()
        sc = qs(req.query).get("sc_lang", "").lower()
        if sc in _LANGS:
            lang = sc
        return self.resolve(segs), req.host_index, lang

    def render(self, req: Req) -> str:
        path, host, lang = self.context(req)
        assert path is not None
        return self.page(path, host, lang)

    def rest(self, req: Req) -> Reply:
        if req.path == "/~/link.aspx":
            g = qs(req.query).get("_id", "")
            for p, it in self.items.items():
                if it["guid"] == g:
                    return redirect(
                        self.link(p, req.host_index, "en" if req.host_index == 0 else "fr-fr")
                    )
            return not_found()
        path, host, lang = self.context(req)
        if path is None:
            return not_found()
        return trap(self.page(path, host, lang))


# ----------------------------------------------------------------------------------------
# Zope 2 with implicit acquisition. Every object is also reachable through any chain of
# folder ids whose objects can be acquired from the context: /news/about,
# /news/news/people/..., each page rendered in that context (absolute_url() and the
# folder's <base href> follow the acquisition path). The site's standard_html_header
# was written with relative navigation links (about, contact, news, people, projects),
# right only at the root, so every page below the root opens an endless acquisition
# tree. Folders are also served at "<folder>/" and "<folder>/index_html" (copies), and
# the footer's relative "manage_main" link asks for authentication (401).
# Legit look-alikes: the real nested folders /projects/<p>/reports/<r>.
# robots.txt: the site's own, written for the ZMI at the root only (/manage).
# ----------------------------------------------------------------------------------------


class Zope(Pages):
    """Zope 2 acquisition: relative header links resolve at any depth, forever."""

    name = "zope"
    kind = "Zope 2 implicit acquisition: /news/news/about/... endless paths, index_html copies"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/manage"]

    def setup(self) -> None:
        self.v = wf("science")
        self.kids: dict[str, list[str]] = {"": ["about", "contact", "news", "people", "projects"]}
        self.folders = {"", "news", "people", "projects"}
        self.kids["news"] = [f"news/{s}" for s in slugs(self.key("nw"), 6, self.v, 2)]
        self.kids["people"] = [
            f"people/{s}" for s in slugs(self.key("pp"), 4, THEMES["science"], 1)
        ]
        projs = [f"projects/{s}" for s in slugs(self.key("pj"), 4, THEMES["science"], 1)]
        self.kids["projects"] = projs
        for p in projs:
            self.folders |= {p, f"{p}/reports"}
            self.kids[p] = [f"{p}/reports"]
            self.kids[f"{p}/reports"] = [
                f"{p}/reports/{r}" for r in slugs(self.key(p), 2, self.v, 2)
            ]
        objs = [""] + [k for ks in self.kids.values() for k in ks]
        for o in objs:
            self.add("z" + o, "/" + o, lambda r, o=o: self.render(o, "/" + o), 0)

    def render(self, obj: str, ctx: str) -> str:
        ctx = ctx.rstrip("/")
        hdr = bar([(x, title_of(x)) for x in ["about", "contact", "news", "people", "projects"]])
        crumbs, acc = [("/", "Home")], ""
        for seg in [s for s in ctx.split("/") if s]:
            acc += "/" + seg
            crumbs.append((acc, seg))
        body = f"<div class='header'>{hdr}</div><div>{bar(crumbs, ' / ')}</div>"
        body += f"<h1>{esc(title_of(obj.rpartition('/')[2] or 'Tidal Physics Group'))}</h1>"
        body += prose(self, "z" + obj, self.v)
        if obj in self.folders:
            body += ul(
                [
                    (f"{ctx}/{k.rpartition('/')[2]}", title_of(k.rpartition("/")[2]))
                    for k in self.kids[obj]
                ]
            )
        body += '<div class="footer"><a href="manage_main">Zope Management Interface</a></div>'
        base = f"{ctx}/" if obj in self.folders else None
        return doc(
            f"{title_of(obj.rpartition('/')[2] or 'home')} - Tidal Physics Group", body, base=base
        )

    def rest(self, req: Req) -> Reply:
        segs = [s for s in req.upath.split("/") if s]
        if len(segs) > 80:
            return not_found("URI too long")
        chain = [""]
        tail = ""
        for i, seg in enumerate(segs):
            if seg in ("index_html", "manage_main", "manage") and i == len(segs) - 1:
                tail = seg
                break
            found = None
            for holder in reversed(chain):  # acquisition: context first, then its parents
                if holder in self.folders:
                    for k in self.kids[holder]:
                        if k.rpartition("/")[2] == seg:
                            found = k
                            break
                if found:
                    break
            if found is None:
                return not_found()
            chain.append(found)
        if tail.startswith("manage"):
            from traps.blind.kit import OTHER

            return Reply(
                "Unauthorized", OTHER, None, 401, headers={"WWW-Authenticate": 'basic realm="Zope"'}
            )
        ctx = "/" + "/".join(segs[: len(chain) - 1])
        return trap(self.render(chain[-1], ctx))
