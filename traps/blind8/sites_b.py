"""Blind8 sites, part B: Discuz! X3, Invenio 1.x (a CDS-style repository), Odoo website
and eCommerce."""

from __future__ import annotations

import datetime as dt
import re
from typing import ClassVar
from urllib.parse import unquote, urlencode

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
from traps.blind2.common import bar, esc, prose, qlist, qs, ul
from traps.blind7.common import Hosted, href, setp, without

# ----------------------------------------------------------------------------------------
# Discuz! X3.4 with its URL rewriting on (`forum-<fid>-<page>.html`,
# `thread-<tid>-<page>-<forumpage>.html`, `space-uid-<uid>.html`, `article-<aid>-1.html`).
# Rewritten forum lists link threads as `thread-<tid>-1-<this forum page>.html` (the third
# number is only the list page to return to: page 2's links are copies). The list's filters
# are dynamic URLs (`forum.php?mod=forumdisplay&fid=&filter=author&orderby=dateline`,
# `filter=heat`, `filter=digest&digest=1`, `filter=typeid&typeid=`, `orderby=replies|views`)
# whose thread links carry the list state URL-encoded in `extra=` and whose thread pages
# link back with it, "only this author" (`authorid=`), "reverse order" (`ordertype=1`) and
# paging keeping it; every page's footer links the mobile site (`forum.php?mobile=yes`).
# robots.txt is the one Discuz! ships (prefix lines, trailing-`*` lines, wildcard lines).
# Legit look-alikes: forum page 2, threads' real page 2, user spaces, portal articles.
# ----------------------------------------------------------------------------------------

_DZ_FILTERS = [
    [("filter", "author"), ("orderby", "dateline")],
    [("filter", "heat"), ("orderby", "heats")],
    [("filter", "digest"), ("digest", "1")],
    [("filter", "lastpost"), ("orderby", "lastpost")],
    [("filter", "reply"), ("orderby", "replies")],
    [("filter", "reply"), ("orderby", "views")],
]
_DZ_ROBOTS = """User-agent: *
Disallow: /api/
Disallow: /data/
Disallow: /source/
Disallow: /install/
Disallow: /template/
Disallow: /config/
Disallow: /uc_client/
Disallow: /uc_server/
Disallow: /static/
Disallow: /admin.php
Disallow: /search.php
Disallow: /member.php
Disallow: /api.php
Disallow: /misc.php
Disallow: /connect.php
Disallow: /forum.php?mod=redirect*
Disallow: /forum.php?mod=post*
Disallow: /home.php?mod=spacecp*
Disallow: /userapp.php?mod=app&*
Disallow: /*?mod=misc*
Disallow: /*?mod=attachment*
Disallow: /*mobile=yes*
"""


class Discuz(Hosted):
    """Discuz! X3: rewritten + dynamic URLs, extra= list state, authorid/ordertype, mobile."""

    name = "discuz"
    kind = "Discuz! X3: thread-T-P-F.html x forum page, filter/orderby carried in extra="
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/forum.php")]
    robots_disallow: ClassVar[list[str]] = [
        line[10:].rstrip("*")
        for line in _DZ_ROBOTS.splitlines()
        if line.startswith("Disallow: /") and not line.startswith("Disallow: /*")
    ]

    def robots_txt(self, req: Req) -> str:
        return _DZ_ROBOTS

    def setup(self) -> None:
        self.vocab = words_for("forum") + THEMES["travel"]
        rng = self.rng("dz")
        self.forums = {2: "Travel Talk", 36: "Trail Reports", 37: "Gear Swap"}
        self.types = {1: "Question", 2: "Trip", 3: "Photo"}
        self.users = {1 + i: s for i, s in enumerate(slugs(self.key("u"), 4, THEMES["travel"], 1))}
        titles = slugs(self.key("t"), 18, self.vocab, 3)
        self.threads: dict[int, dict] = {}
        for i, t in enumerate(titles):
            self.threads[10 + i] = {
                "title": title_of(t),
                "fid": 2 if i < 8 else 36 if i < 13 else 37,
                "n": rng.randint(12, 18) if i % 7 == 3 else rng.randint(2, 9),
                "au": 1 + i % 4,
                "type": rng.choice(list(self.types)),
                "digest": rng.random() < 0.3,
                "views": rng.randint(10, 900),
            }
        self.reg("index", "/forum.php")
        self.reg("portal", "/portal.php")
        for f in self.forums:
            self.reg(f"f{f}", f"/forum-{f}-1.html")
        self.reg("f2p2", "/forum-2-2.html")
        for t, th in self.threads.items():
            self.reg(f"t{t}", f"/thread-{t}-1-1.html")
            if th["n"] > 10:
                self.reg(f"t{t}p2", f"/thread-{t}-2-1.html")
        for u in self.users:
            self.reg(f"u{u}", f"/space-uid-{u}.html")
        for k in (1, 2, 3):
            self.reg(f"art{k}", f"/article-{k}-1.html")

    def frame(self, title: str, body: str) -> str:
        nav = bar(
            [
                ("/portal.php", "Portal"),
                ("/forum.php", "Forum"),
                ("/search.php?mod=forum", "Search"),
                ("/member.php?mod=register", "Register"),
                ("/member.php?mod=logging&action=login", "Login"),
                ("/home.php?mod=spacecp&ac=profile", "Settings"),
            ]
        )
        foot = bar([("/forum.php?mobile=yes", "Mobile"), ("/misc.php?mod=faq", "Help")])
        return doc(
            f"{title} - Wayfarers Board - Powered by Discuz!",
            f"<div id='hd'>{nav}</div>{body}<div id='ft'>{foot}</div>",
        )

    def dyn_list(self, f: int, pairs: list[tuple[str, str]]) -> str:
        return href("/forum.php", [("mod", "forumdisplay"), ("fid", str(f)), *pairs])

    def handle(self, req: Req) -> Reply:
        path, pairs = req.path, qlist(req.query)
        p = dict(pairs)
        if path == "/":
            return redirect("/forum.php", 301)
        if path == "/portal.php" and not pairs:
            rows = [(f"/thread-{t}-1-1.html", th["title"]) for t, th in self.threads.items()]
            arts = [(f"/article-{k}-1.html", f"Editor's pick {k}") for k in (1, 2, 3)]
            body = f"<h1>Portal</h1>{ul(arts)}<h2>Latest threads</h2>{ul(rows)}"
            return self.serve(req, self.frame("Portal", body + prose(self, "portal", self.vocab)))
        m = re.fullmatch(r"/article-(\d+)-1\.html", path)
        if m and int(m.group(1)) in (1, 2, 3):
            k = int(m.group(1))
            body = f"<h1>Editor's pick {k}</h1>{prose(self, f'art{k}', self.vocab)}"
            return self.serve(req, self.frame(f"Editor's pick {k}", body))
        if path == "/forum.php":
            if p.get("mod") == "forumdisplay" and p.get("fid", "").isdigit():
                f = int(p["fid"])
                if f not in self.forums:
                    return not_found()
                page = int(p["page"]) if p.get("page", "").isdigit() else 1
                return self.forum(req, f, page, without(pairs, "mod", "fid", "page"), True)
            if p.get("mod") == "viewthread" and p.get("tid", "").isdigit():
                t = int(p["tid"])
                if t not in self.threads:
                    return not_found()
                page = int(p["page"]) if p.get("page", "").isdigit() else 1
                return self.thread(req, t, page, p.get("extra", ""), p)
            if not pairs or p.get("mobile"):
                rows = [(f"/forum-{f}-1.html", n) for f, n in self.forums.items()]
                body = f"<h1>Wayfarers Board</h1>{ul(rows)}{prose(self, 'index', self.vocab)}"
                return self.serve(req, self.frame("Forum", body))
            return not_found()
        m = re.fullmatch(r"/forum-(\d+)-(\d+)\.html", path)
        if m and int(m.group(1)) in self.forums:
            return self.forum(req, int(m.group(1)), int(m.group(2)), [], False)
        m = re.fullmatch(r"/thread-(\d+)-(\d+)-(\d+)\.html", path)
        if m and int(m.group(1)) in self.threads:
            extra = f"page={m.group(3)}"
            return self.thread(req, int(m.group(1)), int(m.group(2)), extra, {})
        m = re.fullmatch(r"/space-uid-(\d+)\.html", path)
        uid = int(m.group(1)) if m else int(p.get("uid", "0") or 0) if path == "/home.php" else 0
        if uid in self.users and (m or p.get("mod") == "space"):
            mine = [
                (f"/thread-{t}-1-1.html", th["title"])
                for t, th in self.threads.items()
                if th["au"] == uid
            ]
            body = f"<h1>{self.users[uid]}</h1>{prose(self, f'u{uid}', self.vocab, 40)}{ul(mine)}"
            return self.serve(req, self.frame(self.users[uid], body))
        return not_found()

    def forum(self, req: Req, f: int, page: int, state: list[tuple[str, str]], dyn: bool) -> Reply:
        st = dict(state)
        rows = [(t, th) for t, th in self.threads.items() if th["fid"] == f]
        if st.get("filter") == "digest":
            rows = [r for r in rows if r[1]["digest"]]
        if st.get("filter") == "typeid" and st.get("typeid", "").isdigit():
            rows = [r for r in rows if r[1]["type"] == int(st["typeid"])]
        key = {
            "dateline": lambda r: -r[0],
            "heats": lambda r: -r[1]["views"] // 3,
            "replies": lambda r: -r[1]["n"],
            "views": lambda r: -r[1]["views"],
        }
        rows.sort(key=key.get(st.get("orderby", ""), lambda r: r[0]))
        pages = max(1, (len(rows) + 5) // 6)
        page = max(1, min(page, pages))
        extra = urlencode([("page", str(page)), *state])
        parts = []
        for t, th in rows[(page - 1) * 6 : page * 6]:
            tl = self.dyn_list(f, [("filter", "typeid"), ("typeid", str(th["type"]))])
            if dyn:
                link = href(
                    "/forum.php", [("mod", "viewthread"), ("tid", str(t)), ("extra", extra)]
                )
                ulink = f"/home.php?mod=space&uid={th['au']}"
            else:
                link, ulink = f"/thread-{t}-1-{page}.html", f"/space-uid-{th['au']}.html"
            parts.append(
                f"<li>[{a(tl, self.types[th['type']])}] {a(link, th['title'])} "
                f"{a(ulink, self.users[th['au']])}</li>"
            )
        items = "".join(parts)
        filters = bar([(self.dyn_list(f, fl), "+".join(v for _, v in fl)) for fl in _DZ_FILTERS])
        if dyn:
            pager = bar(
                [
                    (self.dyn_list(f, [*state, ("page", str(n))]), str(n))
                    for n in range(1, pages + 1)
                ]
            )
        else:
            pager = bar([(f"/forum-{f}-{n}.html", str(n)) for n in range(1, pages + 1)])
        text = prose(self, f"f{f}" if page == 1 else f"f{f}p{page}", self.vocab, 40, 100)
        post = a(f"/forum.php?mod=post&action=newthread&fid={f}", "New thread")
        body = (
            f"<h1>{self.forums[f]}</h1><p>{filters}</p>{text}<ul>{items}</ul>"
            f"<p>{pager}</p><p>{post}</p>"
        )
        return self.serve(req, self.frame(self.forums[f], body))

    def thread(self, req: Req, t: int, page: int, extra: str, p: dict[str, str]) -> Reply:
        th = self.threads[t]
        pages = (th["n"] + 9) // 10
        page = max(1, min(page, pages))
        nums = list(range(1, th["n"] + 1))
        if p.get("authorid"):
            nums = [n for n in nums if n % 3 == 1]
        if p.get("ordertype") == "1":
            nums = nums[::-1]
        dyn = bool(p)

        def tl(**kw: str) -> str:
            base = [("mod", "viewthread"), ("tid", str(t)), ("extra", extra)]
            for k in ("authorid", "ordertype"):
                if p.get(k):
                    base.append((k, p[k]))
            for k, v in kw.items():
                base = setp(base, k, v)
            return href("/forum.php", base)

        posts = "".join(
            f"<div id='post_{t * 100 + n}'><em>#{n}</em> "
            f"{a(tl(authorid=str(th['au'])), 'Only this author')} "
            f"{a(f'/forum.php?mod=redirect&goto=findpost&ptid={t}&pid={t * 100 + n}', 'Link')}"
            f"{prose(self, f't{t}n{n}', self.vocab, 20, 60)}</div>"
            for n in nums[(page - 1) * 10 : page * 10]
        )
        if dyn:
            pager = bar([(tl(page=str(k)), str(k)) for k in range(1, pages + 1)])
        else:
            pager = bar([(f"/thread-{t}-{k}-1.html", str(k)) for k in range(1, pages + 1)])
        back_state = [(k, v) for k, v in qlist(unquote(extra)) if k != "page"]
        back = self.dyn_list(th["fid"], back_state) if back_state else f"/forum-{th['fid']}-1.html"
        body = (
            f"<h1>{esc(th['title'])}</h1><p>{a(back, 'Back to list')} | "
            f"{a(tl(ordertype='1'), 'Reverse order')} | "
            f"{a(f'/forum.php?mod=redirect&goto=nextoldset&tid={t}', 'Previous thread')} | "
            f"{a(f'/forum.php?mod=redirect&goto=nextnewset&tid={t}', 'Next thread')} | "
            f"{a(f'/forum.php?mod=redirect&tid={t}&goto=lastpost#lastpost', 'Last post')}</p>"
            f"{posts}<p>{pager}</p>"
        )
        return self.serve(req, self.frame(th["title"], body))


# ----------------------------------------------------------------------------------------
# Invenio 1.x (CDS Invenio, as CERN's Document Server ran it). Every link carries `ln=`
# and every page's footer offers 12 interface languages (`?ln=fr` of the same page:
# interface strings only, record metadata untranslated). Records link their authors and
# keywords as searches (`/search?f=author&p=...&ln=en`) and "Similar records"
# (`/search?p=recid:N&rm=wrd`); result pages have sort (`sf=`/`so=`), size (`rg=`), output
# format (`of=hb|hd|hx`), "advanced search" (`as=1`), and paging (`jrec=`), keeping all.
# Records' tabs: `/record/N/export/hx` (BibTeX page), `/record/N/citations`, `/comments`.
# Legit look-alikes: collections and the real "more" page of the largest one, the help
# page's real translations (French, German, Spanish).
# ----------------------------------------------------------------------------------------

_IV_LANGS = ["en", "fr", "de", "es", "it", "ca", "pt", "ru", "sk", "cs", "no", "sv"]
_IV_COLLS = {"Articles": 14, "Preprints": 6, "Theses": 4}


class Invenio(Hosted):
    """Invenio 1.x: ln= x 12 everywhere, author/keyword/similar searches with sf/so/rg/of/jrec."""

    name = "invenio"
    kind = "Invenio 1.x: ln= x12 on every link, author/keyword searches x sf/so/rg/of/jrec"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/?ln=en")]
    robots_disallow: ClassVar[list[str]] = [
        "/youraccount/",
        "/yourbaskets/",
        "/yourmessages/",
        "/yoursearches/",
        "/yourloans/",
        "/submit",
        "/admin/",
    ]

    def setup(self) -> None:
        self.vocab = words_for("science")
        rng = self.rng("iv")
        self.authors = [
            title_of(s).replace(" ", ", ", 1)
            for s in slugs(self.key("au"), 8, THEMES["science"], 2)
        ]
        self.kws = slugs(self.key("kw"), 6, THEMES["science"], 1)
        titles = slugs(self.key("ti"), 24, self.vocab, 4)
        self.recs: dict[int, dict] = {}
        n = 0
        for coll, cnt in _IV_COLLS.items():
            for _ in range(cnt):
                rid = 1201 + n * 3
                self.recs[rid] = {
                    "title": title_of(titles[n]),
                    "coll": coll,
                    "au": rng.sample(self.authors, 2),
                    "kw": rng.sample(self.kws, 2),
                    "year": rng.randint(1998, 2025),
                }
                n += 1
        self.reg("home", "/?ln=en")
        for c in _IV_COLLS:
            self.reg(f"c{c}", f"/collection/{c}?ln=en")
        self.reg("more", "/search?cc=Articles&ln=en&jrec=11")
        for rid in self.recs:
            self.reg(f"r{rid}", f"/record/{rid}?ln=en")
        for lang in ("en", "fr", "de", "es"):
            self.reg(f"help{lang}", f"/help/?ln={lang}")

    def frame(self, req: Req, title: str, body: str, ln: str) -> str:
        nav = bar(
            [
                (f"/?ln={ln}", "Search"),
                (f"/submit?ln={ln}", "Submit"),
                (f"/youraccount/display?ln={ln}", "Personalize"),
                (f"/help/?ln={ln}", "Help"),
                (f"/youraccount/login?ln={ln}", "login"),
            ]
        )
        pairs = setp(qlist(req.query), "ln", "X")
        langs = bar([(href(req.path, setp(pairs, "ln", x), "/:,"), x) for x in _IV_LANGS], " ")
        return doc(
            f"{title} - Atlantis Institute Document Server",
            f"<div class='headerbox'>{nav}</div>{body}<div class='footer'>"
            f"This site is also available in the following languages: {langs}</div>",
            lang=ln,
        )

    def reclist(self, ids: list[int], ln: str) -> str:
        return "".join(
            f"<li>{a(f'/record/{r}?ln={ln}', self.recs[r]['title'])} / "
            + "; ".join(
                a(href("/search", [("f", "author"), ("p", x), ("ln", ln)]), x)
                for x in self.recs[r]["au"]
            )
            + f" ({self.recs[r]['year']}) {a(f'/record/{r}/export/hx?ln={ln}', 'BibTeX')}</li>"
            for r in ids
        )

    def handle(self, req: Req) -> Reply:
        path, pairs = req.path, qlist(req.query)
        p = dict(pairs)
        ln = p.get("ln", "en") if p.get("ln", "en") in _IV_LANGS else "en"
        if path == "/":
            colls = ul([(f"/collection/{c}?ln={ln}", f"{c} ({n})") for c, n in _IV_COLLS.items()])
            body = f"<h1>Atlantis Institute Document Server</h1>{colls}"
            body += prose(self, "home", self.vocab, 40, 90)
            return self.serve(req, self.frame(req, "Home", body, ln))
        if path.startswith("/collection/") and path[12:] in _IV_COLLS:
            c = path[12:]
            ids = [r for r, d in self.recs.items() if d["coll"] == c][::-1]
            more = a(f"/search?cc={c}&ln={ln}&jrec=11", "more") if len(ids) > 10 else ""
            body = (
                f"<h1>{c}</h1>{prose(self, f'c{c}', self.vocab, 30, 70)}<h2>Latest additions:"
                f"</h2><ol>{self.reclist(ids[:10], ln)}</ol>{more}"
            )
            return self.serve(req, self.frame(req, c, body, ln))
        if path == "/help/":
            voc = LANG_VOCAB.get(ln, self.vocab) if ln in ("fr", "de", "es") else self.vocab
            key = f"help{ln}" if ln in ("en", "fr", "de", "es") else "helpen"
            body = f"<h1>Help Central</h1>{prose(self, key, voc)}"
            return self.serve(req, self.frame(req, "Help", body, ln))
        m = re.fullmatch(r"/record/(\d+)(/export/hx|/citations|/comments)?", path)
        if m and int(m.group(1)) in self.recs:
            r = int(m.group(1))
            d = self.recs[r]
            tabs = bar(
                [
                    (f"/record/{r}?ln={ln}", "Information"),
                    (f"/record/{r}/citations?ln={ln}", "Citations"),
                    (f"/record/{r}/comments?ln={ln}", "Discussion"),
                    (f"/record/{r}/export/hx?ln={ln}", "BibTeX"),
                ]
            )
            aus = "; ".join(
                a(href("/search", [("f", "author"), ("p", x), ("ln", ln)]), x) for x in d["au"]
            )
            kws = "; ".join(
                a(href("/search", [("f", "keyword"), ("p", x), ("ln", ln)]), x) for x in d["kw"]
            )
            sim = a(
                href("/search", [("ln", ln), ("p", f"recid:{r}"), ("rm", "wrd")]), "Similar records"
            )
            sub = (m.group(2) or "").strip("/")
            text = (
                prose(self, f"r{r}", self.vocab)
                if not sub
                else f"<pre>@article{{{r}, title={{{esc(d['title'])}}}}}</pre>"
                if "hx" in sub
                else f"<p>No {sub} yet.</p>"
            )
            body = (
                f"<p>{tabs}</p><h1>{esc(d['title'])}</h1><p>{aus}</p><p>Keywords: {kws}</p>"
                f"{text}<p>{sim} | {a('/collection/' + d['coll'] + '?ln=' + ln, d['coll'])} | "
                f"{a(f'/yourbaskets/add?recid={r}&ln={ln}', 'Add to basket')}</p>"
            )
            return self.serve(req, self.frame(req, d["title"], body, ln))
        if path == "/search":
            return self.search(req, pairs, ln)
        return not_found()

    def search(self, req: Req, pairs: list[tuple[str, str]], ln: str) -> Reply:
        p = dict(pairs)
        ids = list(self.recs)[::-1]
        if p.get("cc") in _IV_COLLS:
            ids = [r for r in ids if self.recs[r]["coll"] == p["cc"]]
        pat = p.get("p", "")
        if p.get("f") == "author":
            ids = [r for r in ids if pat in self.recs[r]["au"]]
        elif p.get("f") == "keyword":
            ids = [r for r in ids if pat in self.recs[r]["kw"]]
        elif pat.startswith("recid:") and pat[6:].isdigit():
            me = self.recs.get(int(pat[6:]))
            ids = [r for r in ids if me and set(self.recs[r]["kw"]) & set(me["kw"])]
        if p.get("sf") in ("title", "year"):
            ids.sort(key=lambda r: self.recs[r][p["sf"]], reverse=p.get("so") == "d")
        rg = int(p["rg"]) if p.get("rg", "").isdigit() and int(p["rg"]) > 0 else 10
        jrec = int(p["jrec"]) if p.get("jrec", "").isdigit() and int(p["jrec"]) > 0 else 1

        def at(ps: list[tuple[str, str]]) -> str:
            return href("/search", ps, ":,")

        ctl = bar(
            [
                (at(setp(setp(pairs, "sf", s), "so", o)), f"{s} {o}")
                for s in ("title", "year")
                for o in ("a", "d")
            ]
            + [(at(setp(pairs, "rg", str(x))), f"{x} results") for x in (10, 25, 50, 100)]
            + [(at(setp(pairs, "of", x)), x) for x in ("hb", "hd", "hx")]
            + [(at(setp(pairs, "as", "1")), "Advanced Search")]
        )
        nav = []
        if jrec > 1:
            nav.append((at(setp(pairs, "jrec", str(max(1, jrec - rg)))), "previous"))
        if jrec + rg <= len(ids):
            nav.append((at(setp(pairs, "jrec", str(jrec + rg))), "next"))
        text = prose(self, "more", self.vocab, 20, 40) if p.get("cc") == "Articles" else ""
        body = (
            f"<h1>Search results</h1><p>{ctl}</p><p>{len(ids)} records found</p>{text}"
            f"<ol>{self.reclist(ids[jrec - 1 : jrec - 1 + rg], ln)}</ol><p>{bar(nav)}</p>"
        )
        return self.serve(req, self.frame(req, "Search results", body, ln))


# ----------------------------------------------------------------------------------------
# Odoo 16 website with eCommerce. `/shop` and `/shop/category/<slug>-<id>` take attribute
# filters as repeated `attrib=<attribute id>-<value id>` (each click adds or removes one,
# in click order), `order=` (5 sortings) and `ppg=`; paging is `/shop/page/N` keeping them;
# products are linked with the listing's state (`/shop/<slug>-<id>?category=&attrib=`).
# Every page's language selector links `/website/lang/<code>?r=<this URL>` (a redirect to
# `/<lang>/<this URL>`); the shop is not translated, so `/fr/shop/...` are copies.
# Legit look-alikes: the shop's real page 2, the 4 categories, the translated home and
# about pages (`/fr`, `/es`, `/fr/aboutus`, `/es/aboutus`).
# ----------------------------------------------------------------------------------------

_OD_ATTRS = {
    1: ("Size", ["S", "M", "L", "XL"]),
    2: ("Color", ["Sand", "Moss", "Slate"]),
    3: ("Material", ["Wool", "Linen"]),
}
_OD_ORDERS = [
    "website_sequence asc",
    "list_price asc",
    "list_price desc",
    "name asc",
    "create_date desc",
]


class Odoo(Hosted):
    """Odoo website/eCommerce: attrib= in click order, order/ppg, /website/lang redirects."""

    name = "odoo"
    kind = "Odoo 16 shop: repeated attrib=a-v in click order, order=, ppg=, /<lang>/ copies"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/web/", "/my/", "/shop/cart", "/shop/checkout"]

    def setup(self) -> None:
        self.vocab = words_for("shop")
        rng = self.rng("od")
        self.cats = {3 + i: s for i, s in enumerate(slugs(self.key("c"), 4, THEMES["shop"], 1))}
        names = slugs(self.key("p"), 24, self.vocab, 2)
        self.prods = {
            11 + i: {
                "slug": n,
                "cat": 3 + i % 4,
                "price": rng.randint(15, 190),
                "vals": {
                    k: rng.sample(range(len(v[1])), min(2, len(v[1]))) for k, v in _OD_ATTRS.items()
                },
            }
            for i, n in enumerate(names)
        }
        self.reg("home", "/")
        self.reg("shop", "/shop")
        self.reg("shop2", "/shop/page/2")
        for c, s in self.cats.items():
            self.reg(f"c{c}", f"/shop/category/{s}-{c}")
        for pid, d in self.prods.items():
            self.reg(f"p{pid}", f"/shop/{d['slug']}-{pid}")
        self.reg("about", "/aboutus")
        self.reg("contact", "/contactus")
        for lang in ("fr", "es"):
            self.reg(f"home{lang}", f"/{lang}")
            self.reg(f"about{lang}", f"/{lang}/aboutus")

    def frame(self, req: Req, lang: str, title: str, body: str) -> str:
        pre = f"/{lang}" if lang != "en" else ""
        nav = bar(
            [
                (pre + "/", "Home"),
                (pre + "/shop", "Shop"),
                (pre + "/aboutus", "About us"),
                (pre + "/contactus", "Contact us"),
                ("/shop/cart", "Cart"),
                (href("/web/login", [("redirect", req.target)]), "Sign in"),
            ]
        )
        plain = req.target[len(pre) :] if pre and req.target.startswith(pre) else req.target
        langs = bar(
            [
                (href(f"/website/lang/{code}", [("r", plain or "/")]), label)
                for code, label in (
                    ("en_US", "English"),
                    ("fr_FR", "Français"),
                    ("es_ES", "Español"),
                )
            ]
        )
        return doc(
            f"{title} | Kestrel Workwear",
            f"<header>{nav}</header>{body}<footer>{langs}</footer>",
            lang=lang,
        )

    def handle(self, req: Req) -> Reply:
        path = req.path
        m = re.fullmatch(r"/website/lang/(en_US|fr_FR|es_ES)", path)
        if m:
            r = qs(req.query).get("r", "/")
            code = m.group(1)[:2]
            return redirect(r if code == "en" else f"/{code}{r if r != '/' else ''}", 303)
        lang = "en"
        m = re.match(r"/(fr|es)(/.*)?$", path)
        if m:
            lang, path = m.group(1), m.group(2) or "/"
        if path in ("/", "/aboutus", "/contactus") and not req.query:
            key = {"/": "home", "/aboutus": "about", "/contactus": "contact"}[path]
            voc = LANG_VOCAB[lang] if lang != "en" and key != "contact" else self.vocab
            tkey = key + (lang if lang != "en" and key != "contact" else "")
            extra = ""
            if key == "home":
                extra = ul([(f"/shop/category/{s}-{c}", title_of(s)) for c, s in self.cats.items()])
            body = f"<h1>{title_of(key)}</h1>{prose(self, tkey, voc)}{extra}"
            return self.serve(req, self.frame(req, lang, title_of(key), body))
        pairs = qlist(req.query)
        m = re.fullmatch(r"/shop(?:/category/[\w-]*?-(\d+))?(?:/page/(\d+))?", path)
        if m:
            c = int(m.group(1)) if m.group(1) else None
            if c is not None and c not in self.cats:
                return not_found()
            return self.shop(req, lang, c, int(m.group(2) or 1), pairs)
        m = re.fullmatch(r"/shop/([\w-]+)-(\d+)", path)
        if m and int(m.group(2)) in self.prods:
            pid = int(m.group(2))
            d = self.prods[pid]
            vals = "".join(
                f"<p>{name}: {', '.join(v[i] for i in d['vals'][k])}</p>"
                for k, (name, v) in _OD_ATTRS.items()
            )
            cid = d["cat"]
            cat = self.cats[cid]
            body = (
                f"<p>{a(f'/shop/category/{cat}-{cid}', title_of(cat))}</p>"
                f"<h1>{title_of(d['slug'])}</h1><p>$ {d['price']}.00</p>{vals}"
                f"{prose(self, f'p{pid}', self.vocab)}"
            )
            return self.serve(req, self.frame(req, lang, title_of(d["slug"]), body))
        return not_found()

    def shop(
        self, req: Req, lang: str, c: int | None, page: int, pairs: list[tuple[str, str]]
    ) -> Reply:
        p = dict(pairs)
        attribs = [v for k, v in pairs if k == "attrib"]
        ids = [x for x, d in self.prods.items() if c is None or d["cat"] == c]
        for av in attribs:
            k, _, v = av.partition("-")
            if k.isdigit() and v.isdigit() and int(k) in _OD_ATTRS:
                ids = [x for x in ids if int(v) in self.prods[x]["vals"][int(k)]]
        if p.get("order") in _OD_ORDERS[1:]:
            o = p["order"]
            ids.sort(
                key=lambda x: (
                    self.prods[x]["price" if "price" in o else "slug"] if "create" not in o else -x
                ),
                reverse=o.endswith("desc"),
            )
        ppg = int(p["ppg"]) if p.get("ppg", "").isdigit() and int(p["ppg"]) > 0 else 20
        pages = max(1, (len(ids) + ppg - 1) // ppg)
        page = min(page, pages)
        pre = f"/{lang}" if lang != "en" else ""
        base = pre + (f"/shop/category/{self.cats[c]}-{c}" if c else "/shop")

        def at(ps: list[tuple[str, str]], n: int = 1) -> str:
            return href(base + (f"/page/{n}" if n > 1 else ""), ps, "")

        filt = ""
        for k, (name, vals) in _OD_ATTRS.items():
            links = []
            for i, v in enumerate(vals):
                av = f"{k}-{i}"
                ps = (
                    [x for x in pairs if x != ("attrib", av)]
                    if av in attribs
                    else [*pairs, ("attrib", av)]
                )
                links.append((at(ps), v))
            filt += f"<p>{name}: {bar(links)}</p>"
        orders = bar([(at(setp(pairs, "order", o)), o) for o in _OD_ORDERS])
        keep = [(k, v) for k, v in pairs if k == "attrib"] + ([("category", str(c))] if c else [])
        prods = ul(
            [
                (
                    href(f"{pre}/shop/{self.prods[x]['slug']}-{x}", keep),
                    title_of(self.prods[x]["slug"]),
                )
                for x in ids[(page - 1) * ppg : page * ppg]
            ]
        )
        pager = bar([(at(pairs, n), str(n)) for n in range(1, pages + 1)])
        cats = ul(
            [
                (
                    href(
                        f"{pre}/shop/category/{s}-{k}",
                        [(a_, v) for a_, v in pairs if a_ == "attrib"],
                    ),
                    title_of(s),
                )
                for k, s in self.cats.items()
            ]
        )
        key = f"c{c}" if c else ("shop" if page == 1 else f"shop{page}")
        body = (
            f"<h1>{title_of(self.cats[c]) if c else 'Shop'}</h1>{cats}{filt}"
            f"<p>Sort by: {orders}</p>{prose(self, key, self.vocab, 30, 70)}{prods}"
            f"<p>{pager}</p>"
        )
        return self.serve(req, self.frame(req, lang, "Shop", body))


# ----------------------------------------------------------------------------------------
# Nagios Core 4 CGIs, status pages open to guests. `status.cgi` takes `host=`/`hostgroup=`,
# `style=detail|hostdetail|overview|summary|grid`, the column sort arrows
# (`sorttype=1|2&sortoption=1..6`) and the problem filters (`servicestatustypes=`,
# `hoststatustypes=`), each link keeping the rest. `extinfo.cgi` pages link the
# service's trends (`trends.cgi?...&t1=&t2=`, with zoom in/out and previous/next period
# links minting new epochs forever), availability reports (`avail.cgi?...&timeperiod=`),
# and alert history and notifications (`history.cgi`/`notifications.cgi` with
# `archive=N`, whose "Earlier archive" link never runs out).
# Legit look-alikes: the tactical overview, the host and service lists, each host and
# service's own information page, the host group pages.
# ----------------------------------------------------------------------------------------

_NG = "/nagios/cgi-bin"
_NG_SVCS = ["PING", "HTTP", "Disk Usage", "Current Load"]
_NG_GROUPS = {"web-servers": [0, 1, 2], "db-servers": [3, 4]}
_NG_T0 = 1796300000


class Nagios(Hosted):
    """Nagios Core CGIs: status.cgi sorts/filters, trends zoom epochs, archive=N history."""

    name = "nagios"
    kind = "Nagios Core CGIs: status.cgi sort/filter/style, trends t1/t2 zoom, archive=N"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/nagios/")]
    robots_disallow: ClassVar[list[str]] = [f"{_NG}/cmd.cgi", f"{_NG}/config.cgi"]

    def setup(self) -> None:
        self.vocab = words_for("docs")
        self.hnames = [
            f"{s}-0{i + 1}" for i, s in enumerate(slugs(self.key("h"), 5, THEMES["archive"], 1))
        ]
        self.reg("home", "/nagios/")
        self.reg("tac", f"{_NG}/tac.cgi")
        self.reg("hosts", f"{_NG}/status.cgi?hostgroup=all&style=hostdetail")
        self.reg("svcs", f"{_NG}/status.cgi?host=all")
        self.reg("ovw", f"{_NG}/status.cgi?hostgroup=all&style=overview")
        for g in _NG_GROUPS:
            self.reg(f"g{g}", f"{_NG}/status.cgi?hostgroup={g}&style=detail")
        for h in self.hnames:
            self.reg(f"h{h}", f"{_NG}/extinfo.cgi?type=1&host={h}")
            for sv in _NG_SVCS:
                self.reg(
                    f"s{h}{sv}",
                    href(f"{_NG}/extinfo.cgi", [("type", "2"), ("host", h), ("service", sv)]),
                )

    def frame(self, title: str, body: str) -> str:
        menu = bar(
            [
                ("/nagios/", "Home"),
                (f"{_NG}/tac.cgi", "Tactical Overview"),
                (f"{_NG}/status.cgi?hostgroup=all&style=hostdetail", "Hosts"),
                (f"{_NG}/status.cgi?host=all", "Services"),
                (f"{_NG}/status.cgi?hostgroup=all&style=overview", "Host Groups"),
                (f"{_NG}/status.cgi?host=all&servicestatustypes=28", "Problems"),
                (f"{_NG}/history.cgi?host=all", "Alerts"),
                (f"{_NG}/notifications.cgi?contact=all", "Notifications"),
                (f"{_NG}/config.cgi", "Configuration"),
            ]
        )
        return doc(f"{title} - Nagios Core", f"<div id='menu'>{menu}</div>{body}")

    def state(self, h: str, sv: str) -> int:
        return self.rng(h + sv).choice([0, 0, 0, 0, 1, 2])

    def handle(self, req: Req) -> Reply:
        path, pairs = req.path, qlist(req.query)
        q = dict(pairs)
        if path == "/":
            return redirect("/nagios/")
        if path == "/nagios/" and not pairs:
            body = f"<h1>Nagios Core 4.4</h1>{prose(self, 'home', self.vocab)}"
            return self.serve(req, self.frame("Nagios", body))
        if path == f"{_NG}/tac.cgi" and not pairs:
            crit = sum(self.state(h, s) == 2 for h in self.hnames for s in _NG_SVCS)
            link = f"{_NG}/status.cgi?host=all&servicestatustypes=16"
            body = f"<h1>Tactical Overview</h1><p>{a(link, f'{crit} Critical')}</p>"
            return self.serve(req, self.frame("TAC", body + prose(self, "tac", self.vocab, 40)))
        if path == f"{_NG}/status.cgi":
            return self.status(req, pairs)
        if path == f"{_NG}/extinfo.cgi" and q.get("host") in self.hnames:
            h = q["host"]
            sv = q.get("service")
            if q.get("type") == "1" and sv is None:
                rows = [
                    (href(f"{_NG}/extinfo.cgi", [("type", "2"), ("host", h), ("service", x)]), x)
                    for x in _NG_SVCS
                ]
                body = (
                    f"<h1>Host Information: {h}</h1>{prose(self, 'h' + h, self.vocab, 40)}"
                    f"{ul(rows)}{self.reports(h, None)}"
                )
                return self.serve(req, self.frame(h, body))
            if q.get("type") == "2" and sv in _NG_SVCS:
                body = (
                    f"<h1>Service Information: {esc(sv)} on "
                    f"{a(f'{_NG}/extinfo.cgi?type=1&host={h}', h)}</h1>"
                    f"<p>State: {['OK', 'WARNING', 'CRITICAL'][self.state(h, sv)]}</p>"
                    f"{prose(self, 's' + h + sv, self.vocab, 40, 120)}{self.reports(h, sv)}"
                )
                return self.serve(req, self.frame(sv, body))
            return not_found()
        if path in (f"{_NG}/history.cgi", f"{_NG}/notifications.cgi"):
            n = int(q["archive"]) if q.get("archive", "").isdigit() else 0
            day = dt.date(2026, 12, 3) - dt.timedelta(days=n)
            nav = bar(
                [(href(path, setp(pairs, "archive", str(n + 1))), "Earlier Archive")]
                + ([(href(path, setp(pairs, "archive", str(n - 1))), "Later Archive")] if n else [])
            )
            body = (
                f"<h1>Alert History</h1><p>Log File Navigation: {day:%a %b %d %Y}</p>"
                f"<p>{nav}</p><p>{'No entries' if n > 7 else 'SERVICE ALERT ...'}</p>"
            )
            return self.serve(req, self.frame("History", body))
        if path == f"{_NG}/trends.cgi":
            t1 = int(q["t1"]) if q.get("t1", "").isdigit() else _NG_T0 - 86400
            t2 = int(q["t2"]) if q.get("t2", "").isdigit() else _NG_T0
            span = max(t2 - t1, 60)
            mid = (t1 + t2) // 2
            moves = [
                ("zoom in", mid - span // 4, mid + span // 4),
                ("zoom out", mid - span, mid + span),
                ("previous", t1 - span, t1),
                ("next", t2, t2 + span),
            ]
            nav = bar(
                [
                    (href(path, setp(setp(pairs, "t1", str(x)), "t2", str(y))), label)
                    for label, x, y in moves
                ]
            )
            body = f"<h1>State History</h1><p>{t1} - {t2}</p><p>{nav}</p>"
            return self.serve(req, self.frame("Trends", body))
        if path == f"{_NG}/avail.cgi":
            tps = [
                "today",
                "yesterday",
                "thisweek",
                "lastweek",
                "thismonth",
                "lastmonth",
                "last7days",
                "last31days",
            ]
            nav = bar(
                [(href(path, setp(pairs, "timeperiod", x)), x) for x in tps]
                + [(href(path, setp(pairs, "show_log_entries", "")), "log entries")]
            )
            body = f"<h1>Availability Report</h1><p>{nav}</p>"
            return self.serve(req, self.frame("Availability", body))
        return not_found()

    def reports(self, h: str, sv: str | None) -> str:
        who = [("host", h)] + ([("service", sv)] if sv else [])
        t = [("t1", str(_NG_T0 - 86400)), ("t2", str(_NG_T0))]
        return (
            "<p>"
            + bar(
                [
                    (
                        href(f"{_NG}/trends.cgi", [*who, *t, ("assumestateretention", "yes")]),
                        "Trends",
                    ),
                    (
                        href(f"{_NG}/avail.cgi", [*who, ("timeperiod", "last24hours")]),
                        "Availability",
                    ),
                    (href(f"{_NG}/history.cgi", who), "Alert History"),
                    (href(f"{_NG}/notifications.cgi", who), "Notifications"),
                    (href(f"{_NG}/cmd.cgi", [("cmd_typ", "7"), *who]), "Re-schedule check"),
                ]
            )
            + "</p>"
        )

    def status(self, req: Req, pairs: list[tuple[str, str]]) -> Reply:
        q = dict(pairs)
        hosts = list(self.hnames)
        g = q.get("hostgroup")
        if g in _NG_GROUPS:
            hosts = [self.hnames[i] for i in _NG_GROUPS[g]]
        elif q.get("host") in self.hnames:
            hosts = [q["host"]]
        elif g not in (None, "all") or q.get("host", "all") != "all":
            return not_found()
        rows = [(h, s) for h in hosts for s in _NG_SVCS]
        st = q.get("servicestatustypes", "")
        if st.isdigit():
            mask = int(st)
            rows = [r for r in rows if mask & (2 << (self.state(*r) + 1)) or mask & 2]
        if q.get("sorttype") in ("1", "2"):
            rows.sort(
                key=lambda r: (r[1], r[0]) if q.get("sortoption") == "2" else r,
                reverse=q["sorttype"] == "2",
            )
        style = q.get("style", "detail")

        def at(ps: list[tuple[str, str]]) -> str:
            return href(f"{_NG}/status.cgi", ps)

        arrows = bar(
            [
                (
                    at(
                        setp(
                            setp(setp(pairs, "sorttype", t), "sortoption", o),
                            "sortobject",
                            "services",
                        )
                    ),
                    f"{t}/{o}",
                )
                for o in ("1", "2", "3", "4", "6")
                for t in ("1", "2")
            ]
        )
        filt = bar(
            [
                (at(setp(pairs, "servicestatustypes", x)), x)
                for x in ("2", "4", "8", "16", "28", "29")
            ]
            + [(at(setp(pairs, "hoststatustypes", x)), "h" + x) for x in ("2", "4", "12")]
        )
        styles = bar(
            [
                (at(setp(pairs, "style", x)), x)
                for x in ("detail", "hostdetail", "overview", "summary", "grid")
            ]
        )
        if style in ("hostdetail", "overview"):
            items = ul([(f"{_NG}/extinfo.cgi?type=1&host={h}", h) for h in hosts])
            if style == "overview":
                items += ul(
                    [
                        (f"{_NG}/status.cgi?hostgroup={x}&style=detail", f"Group {x}")
                        for x in _NG_GROUPS
                    ]
                )
        else:
            items = ul(
                [
                    (
                        href(f"{_NG}/extinfo.cgi", [("type", "2"), ("host", h), ("service", s)]),
                        f"{h} {s}",
                    )
                    for h, s in rows
                ]
            )
        key = self.pid_of(req) or "x"
        body = (
            f"<h1>Current Network Status</h1><p>{styles}</p><p>{filt}</p><p>{arrows}</p>"
            f"{prose(self, 'st' + key, self.vocab, 20, 40)}{items}"
        )
        return self.serve(req, self.frame("Status", body))


__all__ = ["Discuz", "Invenio", "Nagios", "Odoo"]
