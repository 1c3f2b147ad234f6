"""Blind4 sites, part A: GitLab, ViewVC, DokuWiki."""

from __future__ import annotations

import hashlib
from typing import ClassVar

from traps.blind.kit import THEMES, Reply, Req, Site, a, doc, not_found, slugs, words_for
from traps.blind2.common import Link, bar, esc, prose, qs, trap, ul

# ----------------------------------------------------------------------------------------
# GitLab: tree/blob/blame/raw/history of every path under every ref (a branch, a tag, a
# full or short commit sha), GitLab 16's `?ref_type=heads` on navigation links, the blob's
# "Permalink" button (the same path under the head sha), commit `?view=parallel`/`?w=1`.
# Legit look-alikes: the tree and blobs at `main`, the commit list's real `?page=2`, every
# commit's own page (a real, different diff), the tags page.
# ----------------------------------------------------------------------------------------


class GitLab(Site):
    """A GitLab project: every path under every ref, ?ref_type=, permalinks, blame."""

    name = "gitlab"
    kind = "GitLab: /-/tree|blob|blame/<any ref or sha>/path, ?ref_type=heads, permalinks"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/acme/toolkit")]
    robots_disallow: ClassVar[list[str]] = [
        "/autocomplete/users",
        "/search",
        "/admin",
        "/users",
        "/help",
        "/*/raw",
        "/*/blame",
        "/*/commits/*/*",
        "/*/archive/",
    ]
    per_page = 6

    def build(self) -> None:
        self.vocab = words_for("archive")
        self.P = "/acme/toolkit"
        self.dirs = ["src", "docs", "tests"]
        names = slugs(self.key("files"), 12, THEMES["archive"], 1)
        ext = {"src": ".py", "docs": ".md", "tests": ".py"}
        self.files = ["README.md", "LICENSE", "setup.cfg"]
        for i, d in enumerate(self.dirs):
            self.files += [f"{d}/{n}{ext[d]}" for n in names[4 * i : 4 * i + 4]]
        rng = self.rng("commits")
        self.shas = [hashlib.sha1(self.key(f"c{i}").encode()).hexdigest() for i in range(10)]
        self.touch = [rng.sample(self.files, 2) for _ in self.shas]
        self.msgs = slugs(self.key("msgs"), 10, self.vocab, 4)
        self.tag_at = {"v1.0": 4, "v1.1": 7}
        self.legit = {"home", "tags", "commits:1", "commits:2"}
        self.legit |= {f"tree:{d}" for d in self.dirs} | {f"blob:{f}" for f in self.files}
        self.legit |= {f"commit:{s}" for s in self.shas}

    def ver(self, f: str, k: int) -> int:
        """Index of the last commit <= k that touched file f (-1: the initial import)."""
        return max([i for i in range(k + 1) if f in self.touch[i]], default=-1)

    def ref_index(self, ref: str) -> int | None:
        if ref == "main":
            return len(self.shas) - 1
        if ref in self.tag_at:
            return self.tag_at[ref]
        for i, s in enumerate(self.shas):
            if len(ref) >= 8 and s.startswith(ref):
                return i
        return None

    def readme(self) -> str:
        return prose(self, f"f:README.md:{self.ver('README.md', 9)}", self.vocab)

    def shell(self, title: str, main: str) -> str:
        side = bar([(self.P, "Project"), (f"{self.P}/-/commits/main", "Commits")])
        side += " | " + bar([(f"{self.P}/-/tags", "Tags"), ("/search?project_id=7", "Search")])
        body = (
            f"<header>{a('/', 'GitLab')} {a('/users/sign_in', 'Sign in')} "
            f"{a('/help', 'Help')}</header><nav>{side}</nav><main>{main}</main>"
        )
        return doc(f"{title} · acme / toolkit · GitLab", body)

    def tree(self, ref: str, k: int, d: str, rt: str) -> str:
        entries = [f for f in self.files if (f.rsplit("/", 1)[0] if "/" in f else "") == d]
        rows: list[Link] = []
        if not d:
            rows += [(f"{self.P}/-/tree/{ref}/{x}{rt}", x + "/") for x in self.dirs]
        rows += [(f"{self.P}/-/blob/{ref}/{f}{rt}", f.rsplit("/", 1)[-1]) for f in entries]
        last = max(self.ver(f, k) for f in entries)
        head = f"<p>Last commit: {a(f'{self.P}/-/commit/{self.shas[last]}', self.msgs[last])}</p>"
        return head + ul(rows)

    def blob(self, ref: str, k: int, f: str, rt: str) -> str:
        v = self.ver(f, k)
        sha = self.shas[k]
        tools = [
            (f"{self.P}/-/blame/{ref}/{f}{rt}", "Blame"),
            (f"{self.P}/-/commits/{ref}/{f}{rt}", "History"),
            (f"{self.P}/-/blob/{sha}/{f}", "Permalink"),
            (f"{self.P}/-/raw/{ref}/{f}{rt}", "Open raw"),
        ]
        return f"<h1>{esc(f)}</h1><p>{bar(tools)}</p>" + prose(self, f"f:{f}:{v}", self.vocab)

    def commits(self, page: int, ref: str, f: str = "") -> str:
        order = list(range(len(self.shas) - 1, -1, -1))
        if f:
            order = [i for i in order if f in self.touch[i]]
        chunk = order[(page - 1) * self.per_page : page * self.per_page]
        rows = [(f"{self.P}/-/commit/{self.shas[i]}", self.msgs[i]) for i in chunk]
        out = ul(rows)
        if not f and page * self.per_page < len(order):
            out += a(f"{self.P}/-/commits/{ref}?page={page + 1}", "Next")
        if not f and page > 1:
            out += a(
                f"{self.P}/-/commits/{ref}" + ("" if page == 2 else f"?page={page - 1}"), "Prev"
            )
        return out

    def commit(self, i: int, q: str) -> str:
        s = self.shas[i]
        parent = (
            f"<p>Parent {a(f'{self.P}/-/commit/{self.shas[i - 1][:8]}', self.shas[i - 1][:8])}</p>"
        )
        tools = [
            (f"{self.P}/-/tree/{s}", "Browse files"),
            (f"{self.P}/-/commit/{s}?view=parallel", "Side-by-side"),
            (f"{self.P}/-/commit/{s}?view=inline", "Inline"),
            (f"{self.P}/-/commit/{s}?w=1", "Hide whitespace changes"),
        ]
        files = ul([(f"{self.P}/-/blob/{s}/{f}", f) for f in self.touch[i]])
        return (
            f"<h1>{esc(self.msgs[i])}</h1><p>{bar(tools)}</p>"
            + (parent if i else "")
            + files
            + prose(self, f"diff:{i}", self.vocab, 60, 160)
        )

    def handle(self, req: Req) -> Reply:
        p, q = req.path, qs(req.query)
        P = self.P
        if p == P:
            body = self.shell("Project", self.tree("main", 9, "", "") + self.readme())
            return trap(body) if req.query else self.legit_page("home", body)
        if not p.startswith(P + "/-/"):
            return not_found()
        parts = p[len(P) + 3 :].split("/")
        view = parts[0]
        if view == "tags" and len(parts) == 1:
            rows = [(f"{P}/-/tree/{t}", t) for t in self.tag_at]
            body = self.shell("Tags", ul(rows) + prose(self, "tags", self.vocab, 40, 90))
            return trap(body) if req.query else self.legit_page("tags", body)
        if view == "commit" and len(parts) == 2:
            k = self.ref_index(parts[1])
            if k is None or parts[1] in ("main", *self.tag_at):
                return not_found()
            body = self.shell(self.msgs[k], self.commit(k, req.query))
            full = parts[1] == self.shas[k] and not req.query
            return self.legit_page(f"commit:{self.shas[k]}", body) if full else trap(body)
        if len(parts) < 2 or view not in ("tree", "blob", "blame", "raw", "commits"):
            return not_found()
        k = self.ref_index(parts[1])
        if k is None:
            return not_found("Ref not found")
        ref, path = parts[1], "/".join(parts[2:])
        rt = "?ref_type=heads" if ref == "main" else ""
        if view == "commits":
            if path and path not in self.files:
                return not_found()
            page = int(q["page"]) if q.get("page", "").isdigit() else 1
            body = self.shell("Commits", self.commits(page, ref, path))
            ok = ref == "main" and not path
            ok = ok and (page, req.query) in ((1, ""), (2, "page=2"))
            return self.legit_page(f"commits:{page}", body) if ok else trap(body)
        if view == "tree" and (path in ("", *self.dirs)):
            body = self.shell(path or "Files", self.tree(ref, k, path, rt))
            if ref == "main" and path and req.query in ("", "ref_type=heads"):
                return self.alias(f"tree:{path}", req, body)
            return trap(body)
        if path not in self.files:
            return not_found()
        if view == "raw":
            return Reply(
                prose(self, f"f:{path}:{self.ver(path, k)}", self.vocab),
                "trap",
                None,
                ctype="text/plain",
            )
        body = self.shell(path, self.blob(ref, k, path, rt))
        if view == "blame":
            return trap(
                body.replace("<main>", "<main><p>Blame: " + self.msgs[self.ver(path, k)] + "</p>")
            )
        if ref == "main" and req.query in ("", "ref_type=heads"):
            return self.alias(f"blob:{path}", req, body)
        return trap(body)


# ----------------------------------------------------------------------------------------
# ViewVC over a CVS repository: a "sticky" `pathrev=` (a tag picked from the menu) that every
# link then carries, `sortby=`/`sortdir=` column headers, `logsort=`, "[select for diffs]"
# (`r1=`) making every other revision a "diff to selected" link, so any pair of revisions is
# a diff page, and each diff page offers five `diff_format=`s; annotate views.
# Legit look-alikes: each file's log and every real revision's markup
# (`?revision=1.N&view=markup`), which really differ.
# ----------------------------------------------------------------------------------------

_VC_TAGS = ["MAIN", "REL_1_0", "REL_1_2", "REL_2_0", "HEAD"]


class ViewVC(Site):
    """ViewVC 1.1 over CVS: sticky pathrev, diffs of any two revisions, sorts."""

    name = "viewvc"
    kind = "ViewVC: sticky ?pathrev=, r1/r2 diffs of any pair, diff_format=, sortby=, logsort="
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/viewvc/pkgtools/")]
    robots_disallow: ClassVar[list[str]] = ["/viewvc/*checkout*/", "/viewvc/*docroot*/"]

    def build(self) -> None:
        self.vocab = words_for("docs")
        self.R = "/viewvc/pkgtools/"
        self.dirs = ["", "lib/", "doc/"]
        names = slugs(self.key("files"), 11, THEMES["docs"], 1)
        ext = ["c", "c", "h", "sh", "c", "c", "h", "mk", "txt", "txt", "html"]
        where = [""] * 4 + ["lib/"] * 4 + ["doc/"] * 3
        self.files = [f"{w}{n}.{e}" for w, n, e in zip(where, names, ext, strict=True)]
        rng = self.rng("revs")
        self.nrev = {f: rng.randint(2, 4) for f in self.files}
        self.authors = slugs(self.key("authors"), 5, THEMES["travel"], 1)
        self.legit = {f"dir:{d}" for d in self.dirs} | {f"log:{f}" for f in self.files}
        for f in self.files:
            self.legit |= {f"rev:{f}:1.{r}" for r in range(1, self.nrev[f] + 1)}

    def link(self, path: str, **kw: str) -> str:
        q = "&".join(f"{k}={v}" for k, v in kw.items() if v)
        return self.R + path + (f"?{q}" if q else "")

    def shell(self, title: str, main: str, pathrev: str) -> str:
        crumbs = bar([(self.link("", pathrev=pathrev), "[pkgtools]")])
        tags = " ".join(a(self.link("", pathrev=t), t) for t in _VC_TAGS)
        body = (
            f"<div class=vc_navheader>{crumbs} / {esc(title)}</div>"
            f"<p>Sticky Tag: {tags}</p><main>{main}</main>"
            "<address>ViewVC Help - Powered by ViewVC 1.1.28</address>"
        )
        return doc(f"[pkgtools] {title}", body)

    def listing(self, d: str, q: dict[str, str]) -> str:
        pr = q.get("pathrev", "")
        flip = "down" if q.get("sortdir") != "down" else ""
        heads = " ".join(
            a(self.link(d, sortby=c, sortdir=flip if q.get("sortby") == c else "", pathrev=pr), c)
            for c in ("file", "rev", "date", "author", "log")
        )
        subs = [x for x in self.dirs if x and d == "" and x != d]
        rows = [(self.link(x, pathrev=pr), x) for x in subs]
        if d:
            rows.insert(0, (self.link("", pathrev=pr), "Parent Directory"))
        for f in self.files:
            if f.rsplit("/", 1)[0] + "/" == d or ("/" not in f and d == ""):
                rows.append((self.link(f, view="log", pathrev=pr), f.rsplit("/", 1)[-1]))
        return f"<p>{heads}</p>" + ul(rows) + prose(self, f"dir:{d}", self.vocab, 40, 90)

    def logpage(self, f: str, q: dict[str, str]) -> str:
        pr, r1 = q.get("pathrev", ""), q.get("r1", "")
        sorts = " ".join(
            a(self.link(f, view="log", logsort=s, pathrev=pr), s) for s in ("cvs", "date", "rev")
        )
        items = []
        for r in range(self.nrev[f], 0, -1):
            rev = f"1.{r}"
            line = [
                a(self.link(f, revision=rev, view="markup", pathrev=pr), f"Revision {rev}"),
                a(self.link(f, revision=rev, view="annotate", pathrev=pr), "annotate"),
                a(f"/viewvc/*checkout*/pkgtools/{f}?revision={rev}", "download"),
                a(self.link(f, view="log", r1=rev, pathrev=pr), "[select for diffs]"),
            ]
            if r1 and r1 != rev:
                line.append(a(self.link(f, r1=r1, r2=rev, pathrev=pr), "diff to selected"))
            au = self.authors[r % len(self.authors)]
            items.append(f"<li>{' - '.join(line)} by {au}</li>")
        return f"<p>Sort log by: {sorts}</p><ul>{''.join(items)}</ul>" + prose(
            self, f"log:{f}", self.vocab, 50, 110
        )

    def handle(self, req: Req) -> Reply:
        p, q = req.path, qs(req.query)
        if not p.startswith(self.R):
            return not_found()
        rest = p[len(self.R) :]
        pr = q.get("pathrev", "")
        if pr and pr not in _VC_TAGS:
            return not_found("Invalid tag")
        if rest in self.dirs:
            body = self.shell(rest or "/", self.listing(rest, q), pr)
            return trap(body) if req.query else self.legit_page(f"dir:{rest}", body)
        if rest not in self.files:
            return not_found()
        f = rest
        revs = [f"1.{r}" for r in range(1, self.nrev[f] + 1)]
        if "r1" in q and "r2" in q:
            if q["r1"] not in revs or q["r2"] not in revs:
                return not_found()
            fmts = " ".join(
                a(self.link(f, r1=q["r1"], r2=q["r2"], diff_format=x, pathrev=pr), x)
                for x in "hucsl"
            )
            sides = [
                (self.link(f, revision=r, view="markup", pathrev=pr), r) for r in (q["r1"], q["r2"])
            ]
            main = f"<p>Diff format: {fmts}</p>{ul(sides)}<pre>"
            main += esc(prose(self, f"diff:{f}:{q['r1']}:{q['r2']}", self.vocab, 30, 60))
            return trap(self.shell(f, main + "</pre>", pr))
        view = q.get("view", "log" if "revision" not in q else "markup")
        if view == "log":
            body = self.shell(f"Log of {f}", self.logpage(f, q), pr)
            return trap(body) if req.query != "view=log" else self.legit_page(f"log:{f}", body)
        rev = q.get("revision", revs[-1])
        if rev not in revs or view not in ("markup", "annotate"):
            return not_found()
        text = prose(self, f"src:{f}:{rev}", self.vocab)
        other = "annotate" if view == "markup" else "markup"
        main = (
            f"<p>{a(self.link(f, view='log', pathrev=pr), 'Log')} "
            f"{a(self.link(f, revision=rev, view=other, pathrev=pr), other)}</p>"
            + f"<h1>Revision {rev} of {esc(f)}</h1>{text}"
        )
        body = self.shell(f, main, pr)
        if req.query == f"revision={rev}&view=markup":
            return self.legit_page(f"rev:{f}:{rev}", body)
        return trap(body)


# ----------------------------------------------------------------------------------------
# DokuWiki (userewrite=1): the "Log In" action link carries a fresh `sectok=` on every
# page it is shown on, the log-in page included, so `?do=login&sectok=...` never repeats;
# the sitemap (`?do=index`) is served under every page id and expands any namespace with
# `&idx=ns`; "Old revisions" lists link a diff of each revision against the current one,
# and every diff page offers `difftype=` and older/newer pairs (`rev2[0]=&rev2[1]=`);
# `?do=backlink`, `?do=recent` on every page.
# Legit look-alikes: each page, its "Old revisions" list (`?do=revisions`), its real old
# revisions (`?rev=<timestamp>`), the sitemap at `/start?do=index`.
# ----------------------------------------------------------------------------------------


class DokuWiki(Site):
    """DokuWiki with nice URLs: ?do= actions, fresh sectok, idx=, revision diffs."""

    name = "dokuwiki"
    kind = "DokuWiki: ?do=login&sectok=<fresh>, do=index&idx= under any id, rev2[] diff pairs"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/start")]
    robots_disallow: ClassVar[list[str]] = [
        "/lib/",
        "/_media/",
        "/_detail/",
        "/_export/",
        "/feed.php",
    ]

    def build(self) -> None:
        self.vocab = words_for("science")
        self.ns = slugs(self.key("ns"), 3, THEMES["science"], 1)
        self.pages = ["start", "wiki:welcome"]
        for n in self.ns:
            self.pages.append(f"{n}:start")
            self.pages += [f"{n}:{s}" for s in slugs(self.key(f"p{n}"), 6, THEMES["science"], 1)]
        rng = self.rng("revs")
        self.revs: dict[str, list[int]] = {}
        for i, pg in enumerate(self.pages):
            k = rng.choice([1, 1, 1, 2, 3]) if i > 1 and not pg.endswith(":start") else 1
            t = 1700000000 + i * 86400 * 3
            self.revs[pg] = sorted(t + j * rng.randint(9000, 900000) for j in range(k))
        self.legit = {f"pg:{p}" for p in self.pages} | {"index"}
        self.legit |= {f"revs:{p}" for p in self.pages}
        for pg, rs in self.revs.items():
            self.legit |= {f"old:{pg}:{r}" for r in rs[:-1]}

    def shell(self, pid: str, title: str, main: str) -> str:
        tok = self.token(32)
        tools = [
            (f"/{pid}?do=revisions", "Old revisions"),
            (f"/{pid}?do=backlink", "Backlinks"),
            (f"/{pid}?do=recent", "Recent Changes"),
            (f"/{pid}?do=index", "Sitemap"),
            (f"/_export/xhtml/{pid}", "Export"),
            (f"/{pid}?do=login&sectok={tok}", "Log In"),
        ]
        crumbs = bar([(f"/{p}", p.rsplit(":", 1)[-1]) for p in ("start", pid) if p], " &raquo; ")
        body = (
            f"<div class=tools>{bar(tools)}</div><div class=breadcrumbs>Trace: {crumbs}</div>"
            f"<div class=page>{main}</div>"
            f"<div class=footer>{a('/feed.php', 'Recent changes RSS feed')} "
            "Driven by DokuWiki</div>"
        )
        return doc(f"{title} [Science Notes]", body)

    def links_of(self, pg: str) -> list[Link]:
        if pg == "start":
            return [(f"/{n}:start", n) for n in self.ns] + [("/wiki:welcome", "welcome")]
        if pg.endswith(":start"):
            n = pg.split(":")[0]
            return [(f"/{p}", p) for p in self.pages if p.startswith(n + ":") and p != pg]
        i = self.pages.index(pg)
        return [(f"/{self.pages[(i + k) % len(self.pages)]}", "see also") for k in (1, 5)]

    def page_body(self, pg: str, rev: int) -> str:
        media = a(f"/_media/{pg.split(':')[0]}:figure.png", "figure.png")
        return (
            f"<h1>{esc(pg)}</h1>"
            + prose(self, f"{pg}:{rev}", self.vocab)
            + ul(self.links_of(pg))
            + media
        )

    def sitemap(self, pid: str, idx: str) -> str:
        rows = []
        for n in self.ns:
            rows.append(a(f"/{pid}?do=index&idx={n}", n + ":"))
            if idx == n:
                rows += [a(f"/{p}", p) for p in self.pages if p.startswith(n + ":")]
        return (
            "<h1>Sitemap</h1><p>This is a sitemap over all available pages.</p><ul>"
            + "".join(f"<li>{r}</li>" for r in rows)
            + "</ul>"
        )

    def handle(self, req: Req) -> Reply:
        pid = req.path[1:]
        q = qs(req.query)
        if pid not in self.pages:
            return not_found("This topic does not exist yet")
        rs = self.revs[pid]
        do = q.get("do", "")
        if not req.query:
            return self.legit_page(f"pg:{pid}", self.shell(pid, pid, self.page_body(pid, rs[-1])))
        if "rev" in q and len(q) == 1:
            r = int(q["rev"]) if q["rev"].isdigit() else 0
            body = self.shell(
                pid, pid, self.page_body(pid, max([x for x in rs if x <= r], default=rs[0]))
            )
            if r in rs[:-1]:
                return self.legit_page(f"old:{pid}:{r}", body)
            return trap(body)
        if do == "revisions":
            items = [
                f"<li>{a(f'/{pid}?rev={r}', str(r))} {a(f'/{pid}?do=diff&rev={r}', 'diff')}</li>"
                for r in rs[:-1]
            ]
            items.append(f"<li>{a(f'/{pid}', 'current')}</li>")
            body = self.shell(pid, f"{pid} - Old revisions", f"<ul>{''.join(items)}</ul>")
            ok = req.query == "do=revisions"
            return self.legit_page(f"revs:{pid}", body) if ok else trap(body)
        if do == "index":
            body = self.shell(pid, "Sitemap", self.sitemap(pid, q.get("idx", "")))
            ok = pid == "start" and req.query == "do=index"
            return self.legit_page("index", body) if ok else trap(body)
        if do == "diff":
            pair = sorted(
                {int(v) for k, v in q.items() if k in ("rev", "rev2[0]", "rev2[1]") and v.isdigit()}
            )
            lo = pair[0] if pair else rs[0]
            hi = pair[-1] if len(pair) > 1 else rs[-1]
            dt = q.get("difftype", "sidebyside")
            nav = [
                (f"/{pid}?do=diff&rev2[0]={lo - 1}&rev2[1]={hi}&difftype={dt}", "older"),
                (f"/{pid}?do=diff&rev2[0]={lo}&rev2[1]={hi + 1}&difftype={dt}", "newer"),
                (f"/{pid}?do=diff&rev2[0]={lo}&rev2[1]={hi}&difftype=inline", "Inline"),
                (f"/{pid}?do=diff&rev2[0]={lo}&rev2[1]={hi}&difftype=sidebyside", "Side by Side"),
            ]
            main = f"<h1>Differences</h1><p>{bar(nav)}</p>" + prose(
                self, f"d{pid}{lo}{hi}", self.vocab, 20, 40
            )
            return trap(self.shell(pid, f"{pid} - diff", main))
        if do in ("backlink", "recent", "login"):
            if do == "backlink":
                main = ul(
                    [
                        (f"/{p}", p)
                        for p in self.pages
                        if pid in [x[0][1:] for x in self.links_of(p)]
                    ]
                )
            elif do == "recent":
                main = ul([(f"/{p}?do=diff", p) for p in self.pages[-10:]])
            else:
                main = "<form><input name=u><input name=p type=password></form>"
            return trap(self.shell(pid, f"{pid} - {do}", main))
        return trap(self.shell(pid, pid, self.page_body(pid, rs[-1])))
