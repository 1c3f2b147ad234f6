"""Blind2 sites, part A: MediaWiki, WordPress, phpBB, Trac."""

from __future__ import annotations

import datetime as dt
from typing import ClassVar

from traps.blind.kit import (
    THEMES,
    TRAP,
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

from .common import Link, bar, prose, qs, trap, ul

# ----------------------------------------------------------------------------------------
# MediaWiki: every article has "View history", "Permanent link", "Printable version",
# diffs and old revisions going back (here: without end, as after a bad history import),
# and Special:RecentChanges whose option links combine and mint a fresh `from=` stamp.
# Legit look-alikes: Special:AllPages?from=<title> pages and the plain RecentChanges page.
# ----------------------------------------------------------------------------------------

_EPOCH = dt.datetime(2026, 12, 1, 12, 0, 0)


def _ts(idx: int) -> str:
    return (_EPOCH - dt.timedelta(hours=5 * idx)).strftime("%Y%m%d%H%M%S")


def _ts_idx(ts: str) -> int:
    try:
        t = dt.datetime.strptime(ts, "%Y%m%d%H%M%S")
    except ValueError:
        return 0
    return max(0, int((_EPOCH - t).total_seconds() // (5 * 3600)))


class Wiki(Site):
    """MediaWiki with history, oldid, diff, printable and RecentChanges option views."""

    name = "wiki"
    kind = "MediaWiki: action=history, oldid=, diff=, printable=yes, RecentChanges options"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/wiki/Main_Page")]
    robots_disallow: ClassVar[list[str]] = ["/w/index.php?title=Special:UserLogin"]

    def build(self) -> None:
        self.vocab = words_for("science")
        raw = slugs(self.key("titles"), 28, self.vocab, 2)
        self.titles = sorted(title_of(s).replace(" ", "_") for s in raw)
        self.cats = [title_of(c) for c in slugs(self.key("cats"), 4, THEMES["science"], 1)]
        self.cat_of = {t: self.cats[i % 4] for i, t in enumerate(self.titles)}
        self.latest = {t: 981000 + 113 * i for i, t in enumerate(self.titles)}
        self.chunks = [self.titles[i : i + 10] for i in range(0, len(self.titles), 10)]
        self.legit = {"main", "rc"} | {f"a:{t}" for t in self.titles}
        self.legit |= {f"c:{c}" for c in self.cats} | {f"all:{i}" for i in range(len(self.chunks))}

    def idx(self, t: str, q: str) -> str:
        return f"/w/index.php?title={t}&{q}"

    def chrome(self, title: str, main: str, t: str | None = None) -> str:
        side = [
            ("/wiki/Main_Page", "Main page"),
            ("/wiki/Special:RecentChanges", "Recent changes"),
            ("/wiki/Special:AllPages", "All pages"),
            ("/wiki/Special:Random", "Random page"),
        ]
        tools: list[Link] = []
        tabs = ""
        if t:
            tabs = bar(
                [
                    (f"/wiki/{t}", "Article"),
                    (self.idx(f"Talk:{t}", "action=edit&redlink=1"), "Talk"),
                    (self.idx(t, "action=edit"), "View source"),
                    (self.idx(t, "action=history"), "View history"),
                ]
            )
            tools = [
                (self.idx(t, f"oldid={self.latest.get(t, 1)}"), "Permanent link"),
                (self.idx(t, "action=info"), "Page information"),
                (self.idx(t, "printable=yes"), "Printable version"),
            ]
        login = self.idx("Special:UserLogin", f"returnto={t or 'Main_Page'}")
        body = (
            f'<div id="p-personal">{a(login, "Log in")}</div>'
            f'<div id="p-navigation">{ul(side)}</div><div id="p-tb">{ul(tools)}</div>'
            f'<div id="tabs">{tabs}</div><div id="content"><h1>{title.replace("_", " ")}</h1>'
            f"{main}</div><div id=footer>Text is available under CC BY-SA.</div>"
        )
        return doc(f"{title.replace('_', ' ')} - SciWiki", body)

    def article_main(self, t: str) -> str:
        i = self.titles.index(t)
        see = [self.titles[(i + k * 7) % len(self.titles)] for k in (1, 2, 3, 4)]
        c = self.cat_of[t]
        return (
            prose(self, f"a:{t}", self.vocab, 200, 380)
            + "<h2>See also</h2>"
            + ul([(f"/wiki/{s}", s.replace("_", " ")) for s in see])
            + f'<div class="catlinks">Category: {a(f"/wiki/Category:{c}", c)}</div>'
        )

    def rc_rows(self, salt: str) -> str:
        rng = self.rng(f"rc{salt}")
        rows: list[Link] = []
        out = []
        for j in range(12):
            t = rng.choice(self.titles)
            r = self.latest[t] - 3 * rng.randrange(0, 5)
            out.append(
                f"<li>{a(self.idx(t, f'diff={r}&oldid={r - 3}'), 'diff')} | "
                f"{a(self.idx(t, 'action=history'), 'hist')} . . "
                f"{a(f'/wiki/{t}', t.replace('_', ' '))} {_ts(j)}</li>"
            )
        del rows
        return "<ul>" + "".join(out) + "</ul>"

    def rc_options(self, cur: dict[str, str]) -> str:
        def link(**kw: str) -> str:
            q = {**cur, **kw}
            return "/wiki/Special:RecentChanges?" + "&".join(f"{k}={v}" for k, v in q.items())

        lim = " | ".join(a(link(limit=n), n) for n in ("50", "100", "250", "500"))
        days = " | ".join(a(link(days=n), n) for n in ("1", "3", "7", "14", "30"))
        hides = " | ".join(
            a(link(**{k: "0" if cur.get(k) == "1" else "1"}), f"toggle {k[4:]}")
            for k in ("hideminor", "hidebots", "hideanons", "hidemyself")
        )
        stamp = _ts(-(self.tick() % 100000))
        return (
            f"<p>Show last {lim} changes in last {days} days</p><p>{hides}</p>"
            f"<p>{a(link(**{'from': stamp}), 'Show new changes starting from ' + stamp)}</p>"
        )

    def handle(self, req: Req) -> Reply:
        p, q = req.path, qs(req.query)
        if p == "/wiki/Main_Page" and not req.query:
            feat = [(f"/wiki/{t}", t.replace("_", " ")) for t in self.titles[::4]]
            cats = [(f"/wiki/Category:{c}", c) for c in self.cats]
            main = (
                prose(self, "main", self.vocab)
                + "<h2>Featured</h2>"
                + ul(feat)
                + "<h2>Browse</h2>"
                + ul([*cats, ("/wiki/Special:AllPages", "All pages")])
            )
            return self.legit_page("main", self.chrome("Main_Page", main))
        if p == "/wiki/Special:AllPages":
            keys = [""] + [f"from={c[0]}" for c in self.chunks[1:]]
            if req.query not in keys:
                return trap(self.chrome("All pages", "<p>No such range.</p>"))
            i = keys.index(req.query)
            nav = [
                ("/wiki/Special:AllPages" + (f"?{keys[j]}" if keys[j] else ""), f"Part {j + 1}")
                for j in range(len(keys))
            ]
            items = [(f"/wiki/{t}", t.replace("_", " ")) for t in self.chunks[i]]
            main = f"<p>{bar(nav)}</p>" + ul(items) + prose(self, f"all{i}", self.vocab, 40, 80)
            return self.legit_page(f"all:{i}", self.chrome("Special:AllPages", main))
        if p == "/wiki/Special:RecentChanges":
            main = self.rc_options(q) + self.rc_rows(req.query)
            if not req.query:
                return self.legit_page("rc", self.chrome("Recent changes", main))
            return trap(self.chrome("Recent changes", main))
        if p == "/wiki/Special:Random":
            return redirect("/wiki/" + self.titles[self.tick() % len(self.titles)])
        if p.startswith("/wiki/Category:") and not req.query:
            c = p[len("/wiki/Category:") :]
            if c in self.cats:
                members = [t for t in self.titles if self.cat_of[t] == c]
                main = prose(self, f"c:{c}", self.vocab, 60, 120) + ul(
                    [(f"/wiki/{t}", t.replace("_", " ")) for t in members]
                )
                return self.legit_page(f"c:{c}", self.chrome(f"Category:{c}", main))
        if p.startswith("/wiki/") and p[6:] in self.titles:
            t = p[6:]
            if req.query:
                return trap(self.chrome(t, self.article_main(t), t))
            return self.legit_page(f"a:{t}", self.chrome(t, self.article_main(t), t))
        if p == "/w/index.php" and req.query:
            return self.index_php(q)
        return not_found()

    def index_php(self, q: dict[str, str]) -> Reply:
        t = q.get("title", "")
        if t == "Special:RecentChanges":
            return trap(self.chrome("Recent changes", self.rc_options(q) + self.rc_rows(str(q))))
        if t not in self.titles:
            return trap(self.chrome(t or "Bad title", "<p>There is currently no text.</p>"))
        if q.get("action") == "history":
            off = _ts_idx(q.get("offset", _ts(0)))
            lim = q.get("limit", "20")
            rows = []
            for j in range(off, off + 10):
                r = self.latest[t] - 3 * j
                rows.append(
                    f"<li>({a(self.idx(t, f'diff={self.latest[t]}&oldid={r}'), 'cur')} | "
                    f"{a(self.idx(t, f'diff={r}&oldid={r - 3}'), 'prev')}) "
                    f"{a(self.idx(t, f'oldid={r}'), _ts(j))}</li>"
                )
            nav = [
                (
                    self.idx(t, f"action=history&offset={_ts(max(0, off - 10))}&limit={lim}"),
                    "newer",
                ),
                (self.idx(t, f"action=history&offset={_ts(off + 10)}&limit={lim}"), "older"),
            ] + [
                (self.idx(t, f"action=history&offset={_ts(off)}&limit={n}"), n)
                for n in ("20", "50", "100", "250", "500")
            ]
            return trap(
                self.chrome(
                    f"Revision history of {t}", bar(nav) + "<ul>" + "".join(rows) + "</ul>", t
                )
            )
        if "diff" in q or "oldid" in q:
            try:
                r = int(q.get("oldid", "0") or 0)
            except ValueError:
                r = 0
            r = r or self.latest[t]
            if q.get("direction") == "prev" or q.get("diff") == "prev":
                r -= 3
            elif q.get("direction") == "next" or q.get("diff") == "next":
                r += 3
            nav = [
                (self.idx(t, f"direction=prev&oldid={r}"), "\u2190 Older revision"),
                (f"/wiki/{t}", "Latest revision"),
                (self.idx(t, f"direction=next&oldid={r}"), "Newer revision \u2192"),
                (self.idx(t, f"diff=prev&oldid={r}"), "diff"),
                (self.idx(t, f"oldid={r}&printable=yes"), "Printable"),
            ]
            head = f"<p>Revision as of {_ts((self.latest[t] - r) // 3)} (id {r})</p>"
            return trap(self.chrome(t, head + bar(nav) + self.article_main(t), t))
        return trap(self.chrome(t, self.article_main(t), t))


# ----------------------------------------------------------------------------------------
# WordPress: `?replytocom=` on every comment's Reply link, Jetpack `?share=` links, a theme
# whose "Older posts" link is shown on the last page too (and on the "Nothing found" pages
# past the end), and `comment-page-N/` links with a stale comment count.
# Legit look-alikes: real /page/2..5/, /category/x/page/2/, month archives that end.
# ----------------------------------------------------------------------------------------


class WordPress(Site):
    """A WordPress blog with replytocom, share links and pagination past the end."""

    name = "wordpress"
    kind = "WordPress: ?replytocom=, ?share=, /page/N/ and comment-page-N/ past the end"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/wp-admin/", "/wp-login.php"]
    per = 6

    def build(self) -> None:
        self.vocab = words_for("food")
        self.slugs = slugs(self.key("posts"), 30, self.vocab, 3)
        self.cats = slugs(self.key("cats"), 4, THEMES["food"], 1)
        self.month = {s: f"2026/{6 + i // 5:02d}" for i, s in enumerate(self.slugs)}
        self.order = list(reversed(self.slugs))  # newest first
        self.cat_of = {s: self.cats[i % 4] for i, s in enumerate(self.slugs)}
        rng = self.rng("comments")
        self.comments = {
            s: [7000 + 10 * i + k for k in range(rng.randint(2, 5))]
            for i, s in enumerate(self.slugs)
        }
        self.months = sorted(set(self.month.values()))
        self.legit = {"about", "contact"} | {f"post:{s}" for s in self.slugs}
        self.legit |= {f"home:{n}" for n in range(1, self.pages(self.order) + 1)}
        for c in self.cats:
            self.legit |= {f"cat:{c}:{n}" for n in range(1, self.pages(self.in_cat(c)) + 1)}
        self.legit |= {f"month:{m}" for m in self.months}

    def pages(self, posts: list[str]) -> int:
        return (len(posts) + self.per - 1) // self.per

    def in_cat(self, c: str) -> list[str]:
        return [s for s in self.order if self.cat_of[s] == c]

    def url(self, s: str) -> str:
        return f"/{self.month[s]}/{s}/"

    def shell(self, title: str, main: str) -> str:
        side = (
            "<h3>Categories</h3>"
            + ul([(f"/category/{c}/", title_of(c)) for c in self.cats])
            + "<h3>Archives</h3>"
            + ul([(f"/{m}/", m) for m in self.months])
            + "<h3>Recent Posts</h3>"
            + ul([(self.url(s), title_of(s)) for s in self.order[:5]])
            + "<h3>Meta</h3>"
            + ul([("/wp-admin/", "Site Admin"), ("/wp-login.php?action=logout", "Log out")])
        )
        top = bar([("/about/", "About"), ("/contact/", "Contact")])
        body = (
            f'<header><a href="/">Slow Kitchen</a> {top}</header>'
            f'<main>{main}</main><aside id="secondary">{side}</aside>'
            "<footer>Proudly powered by WordPress</footer>"
        )
        return doc(f"{title} \u2013 Slow Kitchen", body)

    def listing(self, posts: list[str], n: int, prefix: str, title: str) -> str:
        chunk = posts[(n - 1) * self.per : n * self.per]
        items = "".join(
            f"<article><h2>{a(self.url(s), title_of(s))}</h2>"
            f"{prose(self, f'x:{s}', self.vocab, 30, 50)}</article>"
            for s in chunk
        )
        if not chunk:
            items = "<h2>Nothing Found</h2><p>It seems we can't find what you're looking for.</p>"
        nav = [(f"{prefix}page/{n + 1}/", "\u2190 Older posts")]  # shown even on the last page
        if n > 1:
            nav.append((prefix if n == 2 else f"{prefix}page/{n - 1}/", "Newer posts \u2192"))
        return self.shell(title, f"<h1>{title}</h1>{items}<nav>{bar(nav)}</nav>")

    def post(self, s: str, extra: str = "") -> str:
        i = self.slugs.index(s)
        coms = "".join(
            f'<li id="comment-{c}">{prose(self, f"c{c}", self.vocab, 15, 30)}'
            f"{a(f'{self.url(s)}?replytocom={c}#respond', 'Reply')}</li>"
            for c in self.comments[s]
        )
        share = bar(
            [(f"{self.url(s)}?share={w}&nb=1", w.title()) for w in ("twitter", "facebook", "email")]
            + [(f"{self.url(s)}?share=print", "Print")]
        )
        adj = [
            (self.url(self.slugs[j]), title_of(self.slugs[j]))
            for j in (i - 1, i + 1)
            if 0 <= j < len(self.slugs)
        ]
        c = self.cat_of[s]
        main = (
            f"<article><h1>{title_of(s)}</h1>{extra}{prose(self, f'post:{s}', self.vocab)}"
            f"<p>Posted in {a(f'/category/{c}/', title_of(c))}</p>"
            f'<div class="sharedaddy">Share this: {share}</div></article>'
            f"<nav>{bar(adj)}</nav><h3>Comments</h3><ol>{coms}</ol>"
            f"<nav>{a(f'{self.url(s)}comment-page-1/#comments', 'Older comments')}</nav>"
            f'<div id="respond">Leave a reply</div>'
        )
        return self.shell(title_of(s), main)

    def handle(self, req: Req) -> Reply:
        p, q = req.path, qs(req.query)
        parts = [x for x in p.split("/") if x]
        if p == "/wp-json/" or p.startswith("/feed"):
            return not_found()
        if p in ("/about/", "/contact/") and not req.query:
            pid = parts[0]
            return self.legit_page(
                pid,
                self.shell(
                    title_of(pid), f"<h1>{title_of(pid)}</h1>" + prose(self, pid, self.vocab)
                ),
            )
        # listings: /, /page/N/, /category/c/, /category/c/page/N/
        prefix, posts, pid = "", None, ""
        if parts[:1] == ["category"] and len(parts) >= 2 and parts[1] in self.cats:
            prefix, posts, pid = f"/category/{parts[1]}/", self.in_cat(parts[1]), f"cat:{parts[1]}"
            rest = parts[2:]
        elif not parts or parts[0] == "page":
            prefix, posts, pid, rest = "/", self.order, "home", parts
        if posts is not None and p.endswith("/"):
            n = 1
            if rest[:1] == ["page"] and len(rest) == 2 and rest[1].isdigit():
                n = int(rest[1])
            elif rest:
                return not_found()
            body = self.listing(posts, n, prefix, title_of(pid.split(":")[-1]) + f" \u2013 {n}")
            if n == 1 and rest:
                return trap(body)  # /page/1/ duplicates the first page
            if 1 <= n <= self.pages(posts) and not req.query:
                return self.legit_page(f"{pid}:{n}", body)
            return trap(body)
        if len(parts) == 2 and "/".join(parts) in self.months and p.endswith("/"):
            m = "/".join(parts)
            items = [(self.url(s), title_of(s)) for s in self.order if self.month[s] == m]
            body = self.shell(
                f"Month: {m}",
                f"<h1>Month: {m}</h1>" + prose(self, f"m{m}", self.vocab, 40, 80) + ul(items),
            )
            return self.legit_page(f"month:{m}", body) if not req.query else trap(body)
        if (
            len(parts) >= 3
            and parts[2] in self.slugs
            and self.url(parts[2]).strip("/") == ("/".join(parts[:3]))
        ):
            s = parts[2]
            if q.get("share") in ("twitter", "facebook"):
                return redirect(f"https://{q['share']}.com/sharer?u={self.url(s)}")
            if len(parts) == 3 and p.endswith("/") and not req.query:
                return self.legit_page(f"post:{s}", self.post(s))
            if len(parts) == 4 and parts[3].startswith("comment-page-"):
                n = parts[3][len("comment-page-") :]
                if n.isdigit():
                    nxt = f"{self.url(s)}comment-page-{int(n) + 1}/#comments"
                    return trap(self.post(s, f"<p>{a(nxt, 'Newer comments')}</p>"))
            if len(parts) == 3:
                return trap(self.post(s))
        return not_found()


# ----------------------------------------------------------------------------------------
# phpBB: post permalinks `viewtopic.php?p=N`, "Previous topic / Next topic" (`view=next`),
# sort/day links `sk=&sd=&st=` on forum listings, and a stale reply count (a known phpBB
# resync problem) so every topic's pagination offers a `&start=` past its end, where the
# empty page offers the next offset again.
# Legit look-alikes: viewforum.php?f=N&start=10 and viewtopic.php?f=N&t=M&start=10.
# ----------------------------------------------------------------------------------------


class PhpBB(Site):
    """A phpBB board with post permalinks, next/previous topic, sort views, stale counts."""

    name = "phpbb"
    kind = "phpBB: ?p= permalinks, view=next/previous, sk/sd/st sorts, start= past the end"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/index.php")]
    robots_disallow: ClassVar[list[str]] = [
        "/posting.php",
        "/memberlist.php",
        "/ucp.php",
        "/search.php",
    ]
    per = 10

    def build(self) -> None:
        self.vocab = words_for("forum")
        names = slugs(self.key("forums"), 4, THEMES["forum"], 2)
        counts = [12, 8, 14, 6]
        self.forums = {f + 1: names[f] for f in range(4)}
        self.topics: dict[int, list[int]] = {}
        self.posts: dict[int, list[int]] = {}
        rng = self.rng("topics")
        t, pid = 100, 5000
        for f in self.forums:
            self.topics[f] = []
            for _ in range(counts[f - 1]):
                t += 1
                self.topics[f].append(t)
                n = rng.randint(11, 18) if rng.random() < 0.2 else rng.randint(2, 9)
                self.posts[t] = list(range(pid, pid + n))
                pid += n
        self.forum_of = {t: f for f, ts in self.topics.items() for t in ts}
        self.titles = dict(
            zip(sorted(self.posts), slugs(self.key("tt"), 40, self.vocab, 3), strict=True)
        )
        self.legit = {"index"}
        for f, ts in self.topics.items():
            self.legit |= {f"f:{f}:{s}" for s in range(0, len(ts), self.per)}
        for t, ps in self.posts.items():
            self.legit |= {f"t:{t}:{s}" for s in range(0, len(ps), self.per)}

    def shell(self, title: str, main: str) -> str:
        head = bar(
            [
                ("/index.php", "Board index"),
                ("/search.php?search_id=unanswered", "Unanswered topics"),
                ("/search.php?search_id=active_topics", "Active topics"),
                ("/memberlist.php", "Members"),
                ("/ucp.php?mode=login", "Login"),
            ]
        )
        body = f'<div class="headerbar">{head}</div><div id="page-body">{main}</div>'
        return doc(f"{title} - Solder Talk", body + "<div>Powered by phpBB</div>")

    def forum(self, f: int, start: int, q: dict[str, str], sorted_view: bool) -> str:
        ts = list(self.topics[f])
        if q.get("sd") == "a":
            ts.reverse()
        rows = "".join(
            f"<li>{a(f'/viewtopic.php?f={f}&t={t}', title_of(self.titles[t]))} "
            f"({len(self.posts[t]) - 1} replies)</li>"
            for t in ts[start : start + self.per]
        )
        keep = "".join(f"&{k}={q[k]}" for k in ("sk", "sd", "st") if k in q)
        pages = [
            (f"/viewforum.php?f={f}{keep}" + (f"&start={s}" if s else ""), str(s // self.per + 1))
            for s in range(0, len(ts), self.per)
        ]
        sorts = (
            [
                (f"/viewforum.php?f={f}&sk={k}&sd={d}&st={st}", f"{k}{d}{st}")
                for k in ("t", "a", "r", "s", "v")
                for d in ("a", "d")
                for st in ("0", "7", "30", "365")
            ]
            if sorted_view or not q
            else []
        )
        name = title_of(self.forums[f])
        return self.shell(
            name,
            f"<h2>{name}</h2>"
            + prose(self, f"f{f}{start}", self.vocab, 40, 90)
            + a(f"/posting.php?mode=post&f={f}", "New Topic")
            + f"<ul>{rows}</ul>"
            + f"<div class=pagination>{bar(pages)}</div>"
            + (f"<div class=sort>Sort: {bar(sorts[:12])}</div>" if sorts else ""),
        )

    def topic(self, t: int, start: int) -> str:
        f = self.forum_of[t]
        ps = self.posts[t]
        shown = ps[start : start + self.per]
        items = "".join(
            f'<div class="post" id="p{p}"><h3>{a(f"/viewtopic.php?p={p}#p{p}", "Re: post")}</h3>'
            f"{prose(self, f'p{p}', self.vocab, 40, 120)}"
            f"{a(f'/posting.php?mode=quote&f={f}&p={p}', 'Quote')} "
            f"{a(f'/memberlist.php?mode=viewprofile&u={p % 37}', 'Profile')}</div>"
            for p in shown
        )
        if not shown:
            items = "<p>No posts.</p>"
        stale = len(ps) + self.per  # the cached reply count is one page too high
        pages = [
            (f"/viewtopic.php?f={f}&t={t}" + (f"&start={s}" if s else ""), str(s // self.per + 1))
            for s in range(0, stale, self.per)
        ]
        if start >= len(ps):
            pages.append((f"/viewtopic.php?f={f}&t={t}&start={start + self.per}", "Next"))
        nav = bar(
            [
                (f"/viewtopic.php?f={f}&t={t}&view=previous", "Previous topic"),
                (f"/viewtopic.php?f={f}&t={t}&view=next", "Next topic"),
                (f"/viewforum.php?f={f}", f"Return to {title_of(self.forums[f])}"),
                (f"/posting.php?mode=reply&f={f}&t={t}", "Post Reply"),
            ]
        )
        title = title_of(self.titles[t])
        return self.shell(title, f"<h2>{title}</h2>{nav}{items}<div>{bar(pages)}</div>")

    def handle(self, req: Req) -> Reply:
        p, q = req.path, qs(req.query)
        if p == "/index.php" and not req.query:
            rows = [(f"/viewforum.php?f={f}", title_of(n)) for f, n in self.forums.items()]
            main = "<h2>Forums</h2>" + ul(rows) + prose(self, "index", self.vocab, 60, 120)
            return self.legit_page("index", self.shell("Index page", main))
        try:
            f = int(q.get("f", "0"))
            t = int(q.get("t", "0"))
            start = int(q.get("start", "0"))
            post = int(q.get("p", "0"))
        except ValueError:
            return not_found()
        if p == "/viewforum.php" and f in self.forums:
            body = self.forum(f, start, q, not req.query.startswith(f"f={f}&s"))
            canon = f"f={f}" + (f"&start={start}" if start else "")
            if req.query == canon and start < len(self.topics[f]) and start % self.per == 0:
                return self.legit_page(f"f:{f}:{start}", body)
            return trap(body)
        if p == "/viewtopic.php":
            if post:
                t = next((k for k, v in self.posts.items() if post in v), 0)
                if not t:
                    return not_found()
                start = self.posts[t].index(post) // self.per * self.per
                return trap(self.topic(t, start))
            if t not in self.posts:
                return not_found()
            if q.get("view") in ("next", "previous"):
                order = sorted(self.posts)
                t = order[(order.index(t) + (1 if q["view"] == "next" else -1)) % len(order)]
                return trap(self.topic(t, 0))
            body = self.topic(t, start)
            canon = f"f={self.forum_of[t]}&t={t}" + (f"&start={start}" if start else "")
            if req.query == canon and start < len(self.posts[t]) and start % self.per == 0:
                return self.legit_page(f"t:{t}:{start}", body)
            return trap(body)
        return not_found()


# ----------------------------------------------------------------------------------------
# Trac: the timeline's "Previous Period" / "Next Period" without end, filter toggles,
# custom queries with sortable columns and group-by links, ticket `?version=`,
# `?action=diff`, `?replyto=` and "other formats" (`?format=csv|tab|rss`).
# Legit look-alikes: /report/1..3 (real saved reports), /ticket/N, /milestone/x, the plain
# /timeline and /roadmap pages.
# ----------------------------------------------------------------------------------------


class Trac(Site):
    """A Trac project: timeline periods, custom queries and ticket version views."""

    name = "trac"
    kind = "Trac: timeline periods forever, custom query sorts, ticket ?version=/?format="
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/wiki/WikiStart")]
    robots_disallow: ClassVar[list[str]] = ["/login", "/newticket", "/search"]

    def build(self) -> None:
        self.vocab = words_for("docs")
        self.wikis = ["WikiStart"] + [
            "".join(w.title() for w in s.split("-"))
            for s in slugs(self.key("wiki"), 6, THEMES["docs"], 2)
        ]
        self.miles = ["milestone1", "milestone2", "milestone3"]
        self.tickets = list(range(1, 31))
        rng = self.rng("tickets")
        self.tmile = {n: rng.choice(self.miles) for n in self.tickets}
        self.tstat = {n: rng.choice(["new", "assigned", "closed"]) for n in self.tickets}
        self.tchanges = {n: rng.randint(1, 4) for n in self.tickets}
        self.tname = dict(zip(self.tickets, slugs(self.key("tn"), 30, self.vocab, 3), strict=True))
        self.reports = {1: "Active Tickets", 2: "Active Tickets by Milestone", 3: "Closed Tickets"}
        self.legit = {f"w:{w}" for w in self.wikis} | {f"t:{n}" for n in self.tickets}
        self.legit |= {f"m:{m}" for m in self.miles} | {f"r:{r}" for r in self.reports}
        self.legit |= {"roadmap", "timeline", "reports"}

    def shell(self, title: str, main: str, alt: list[Link] | None = None) -> str:
        nav = bar(
            [
                ("/wiki/WikiStart", "Wiki"),
                ("/timeline", "Timeline"),
                ("/roadmap", "Roadmap"),
                ("/report", "View Tickets"),
                ("/newticket", "New Ticket"),
                ("/search", "Search"),
                ("/login", "Login"),
            ]
        )
        alt_html = f'<div id="altlinks">Download in other formats: {bar(alt)}</div>' if alt else ""
        return doc(
            f"{title} \u2013 Robo",
            f'<div id="mainnav">{nav}</div><div id="content">'
            f"<h1>{title}</h1>{main}</div>{alt_html}<div>Powered by Trac 1.6</div>",
        )

    def tlink(self, n: int) -> Link:
        return (f"/ticket/{n}", f"#{n} {title_of(self.tname[n])}")

    def timeline(self, q: dict[str, str]) -> str:
        day = dt.date(2026, 12, 1)
        try:
            day = dt.date.fromisoformat(q.get("from", "2026-12-01"))
            back = int(q.get("daysback", "30"))
        except ValueError:
            back = 30
        keep = {k: v for k, v in q.items() if k in ("ticket", "changeset", "wiki")}

        def link(d: dt.date, b: int, **kw: str) -> str:
            extra = "".join(f"&{k}={v}" for k, v in {**keep, **kw}.items())
            return f"/timeline?from={d.isoformat()}&daysback={b}{extra}"

        nav: list[Link] = [
            (link(day - dt.timedelta(days=back + 1), back), "\u2190 Previous Period"),
            (link(day + dt.timedelta(days=back + 1), back), "Next Period \u2192"),
        ] + [(link(day, b), f"{b} days") for b in (7, 30, 90)]
        nav += [
            (link(day, back, **{k: "on"}), f"only {k}") for k in ("ticket", "changeset", "wiki")
        ]
        rng = self.rng(f"tl{day}{back}")
        events = [self.tlink(rng.choice(self.tickets)) for _ in range(8)]
        return bar(nav) + ul(events)

    def ticket(self, n: int, extra: str = "") -> tuple[str, list[Link]]:
        ch = "".join(
            f"<li>Changed by dev{k}: {a(f'/ticket/{n}?action=diff&version={k}', 'diff')} "
            f"{a(f'/ticket/{n}?version={k}', f'version {k}')} "
            f"{a(f'/ticket/{n}?replyto={k}#comment', 'Reply')}</li>"
            for k in range(1, self.tchanges[n] + 1)
        )
        m = self.tmile[n]
        main = (
            f"{extra}<p>Status: {self.tstat[n]}, milestone {a(f'/milestone/{m}', m)}</p>"
            + prose(self, f"t{n}", self.vocab)
            + f"<h3>Change History</h3><ol>{ch}</ol>"
            + bar([self.tlink(k) for k in (n - 1, n + 1) if k in self.tname])
        )
        alt = [(f"/ticket/{n}?format={f}", f) for f in ("csv", "tab", "rss")]
        return self.shell(f"Ticket #{n}: {title_of(self.tname[n])}", main, alt), alt

    def query(self, q: dict[str, str]) -> str:
        cols = ("id", "summary", "status", "milestone", "priority", "owner")
        base = {k: v for k, v in q.items() if k not in ("order", "desc", "group")}
        bq = "&".join(f"{k}={v}" for k, v in base.items()) or "status=!closed"
        heads = [(f"/query?{bq}&order={c}" + ("" if q.get("desc") else "&desc=1"), c) for c in cols]
        groups = [(f"/query?{bq}&group={c}&order={q.get('order', 'id')}", f"by {c}") for c in cols]
        rng = self.rng(f"q{sorted(q.items())}")
        rows = [self.tlink(n) for n in sorted(rng.sample(self.tickets, 12))]
        return f"<div>{bar(heads)}</div><div>Group: {bar(groups)}</div>" + ul(rows)

    def handle(self, req: Req) -> Reply:
        p, q = req.path, qs(req.query)
        parts = [x for x in p.split("/") if x]
        if p == "/" and not req.query:
            return redirect("/wiki/WikiStart")
        if parts[:1] == ["wiki"] and len(parts) == 2 and parts[1] in self.wikis:
            w = parts[1]
            links = [(f"/wiki/{x}", x) for x in self.wikis if x != w]
            main = prose(self, f"w{w}", self.vocab) + ul(links)
            if w == "WikiStart":
                main += ul([("/report", "Tickets"), ("/roadmap", "Roadmap")])
            alt = [
                (f"/wiki/{w}?format=txt", "Plain Text"),
                (f"/wiki/{w}?action=history", "History"),
            ]
            body = self.shell(w, main, alt)
            return trap(body) if req.query else self.legit_page(f"w:{w}", body)
        if p == "/timeline":
            body = self.shell("Timeline", prose(self, "tl", self.vocab, 30, 60) + self.timeline(q))
            return trap(body) if req.query else self.legit_page("timeline", body)
        if p == "/roadmap" and not req.query:
            main = ul([(f"/milestone/{m}", m) for m in self.miles]) + prose(self, "rm", self.vocab)
            return self.legit_page("roadmap", self.shell("Roadmap", main))
        if parts[:1] == ["milestone"] and len(parts) == 2 and parts[1] in self.miles:
            m = parts[1]
            ts = [n for n in self.tickets if self.tmile[n] == m]
            main = (
                prose(self, f"m{m}", self.vocab)
                + bar(
                    [
                        (f"/query?milestone={m}&status=!closed", "Active tickets"),
                        (f"/query?milestone={m}&status=closed", "Closed tickets"),
                    ]
                )
                + ul([self.tlink(n) for n in ts])
            )
            body = self.shell(f"Milestone {m}", main)
            return trap(body) if req.query else self.legit_page(f"m:{m}", body)
        if p == "/report" and not req.query:
            main = ul([(f"/report/{r}", f"{{{r}}} {t}") for r, t in self.reports.items()])
            main += a("/query", "Custom query") + prose(self, "reports", self.vocab, 40, 80)
            return self.legit_page("reports", self.shell("Available Reports", main))
        if parts[:1] == ["report"] and len(parts) == 2 and parts[1].isdigit():
            r = int(parts[1])
            if r in self.reports:
                want = "closed" if r == 3 else None
                ts = [n for n in self.tickets if (self.tstat[n] == "closed") == (want == "closed")]
                main = prose(self, f"r{r}", self.vocab, 40, 90) + ul([self.tlink(n) for n in ts])
                alt = [(f"/report/{r}?format={f}", f) for f in ("csv", "tab", "rss")]
                alt.append((f"/report/{r}?sort=ticket&asc=0", "sort"))
                body = self.shell(self.reports[r], main, alt)
                return trap(body) if req.query else self.legit_page(f"r:{r}", body)
        if p == "/query":
            return trap(self.shell("Custom Query", self.query(q)))
        if parts[:1] == ["ticket"] and len(parts) == 2 and parts[1].isdigit():
            n = int(parts[1])
            if n in self.tname:
                if q.get("format"):
                    text = f"id,summary\n{n},{self.tname[n]}\n"
                    return Reply(text, TRAP, None, ctype="text/plain")
                extra = f"<p>Version {q['version']}</p>" if "version" in q else ""
                body, _ = self.ticket(n, extra)
                return trap(body) if req.query else self.legit_page(f"t:{n}", body)
        return not_found()
