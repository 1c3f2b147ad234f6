"""Blind5 sites, part A: Mercurial hgweb, Fossil, Redmine."""

from __future__ import annotations

import datetime as dt
from typing import ClassVar

from traps.blind.kit import (
    GENERAL,
    Reply,
    Req,
    a,
    doc,
    not_found,
    slugs,
    title_of,
    words_for,
)
from traps.blind2.common import Link, bar, esc, prose, qs, ul

from .common import Canon

# ----------------------------------------------------------------------------------------
# Mercurial hgweb (paper style). hgweb's "session variables" (`revcount`, `style`) are
# carried into every link of a page once they are in its URL; the shortlog/graph "less"
# and "more" links halve and double `revcount` without end. Every path is also served at
# every changeset node and tag (`/file/<node>/<path>`, `annotate`, `diff`,
# `comparison`), and `/shortlog` is the same page as the repository root.
# Legit look-alikes: the real older shortlog page, the 16 changesets, the tree and the
# files at `tip`, the graph, tags, branches and bookmarks pages.
# ----------------------------------------------------------------------------------------

_HG = "/hg/toolkit"
_HG_FILES = {
    "src": ["cli.py", "config.py", "fetch.py", "store.py"],
    "docs": ["index.rst", "install.rst", "usage.rst"],
    "tests": ["test_cli.py", "test_fetch.py", "test_store.py"],
}


class HgWeb(Canon):
    """Mercurial hgweb: revcount sessionvar doubling forever, files at every node."""

    name = "hgweb"
    kind = "Mercurial hgweb: ?revcount= carried and doubled forever, files at every node/tag"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/hg/")]
    robots_disallow: ClassVar[list[str]] = [f"{_HG}/archive/", f"{_HG}/raw-"]
    per = 10

    def setup(self) -> None:
        self.vocab = words_for("archive")
        rng = self.rng("nodes")
        self.nodes = ["".join(rng.choice("0123456789abcdef") for _ in range(40)) for _ in range(16)]
        self.short = [n[:12] for n in self.nodes]
        self.paths = [f"{d}/{f}" for d, fs in _HG_FILES.items() for f in fs]
        self.changed = [sorted(set(rng.sample(self.paths, rng.randint(1, 3)))) for _ in self.nodes]
        for i, p in enumerate(self.paths):  # every file exists from some early revision
            self.changed[min(i, 15) if i < 4 else i % 5].append(p)
        self.changed = [sorted(set(c)) for c in self.changed]
        self.authors = ["Ada Brennan", "Tomasz Wilk", "Mei Okada", "Rui Santos"]
        self.tags = {"v1.0": 7, "v1.1": 12}
        self.reg("index", "/hg/")
        self.reg("home", f"{_HG}/")
        self.reg("older", f"{_HG}/shortlog/{self.short[5]}")
        self.reg("graph", f"{_HG}/graph")
        for x in ("tags", "branches", "bookmarks"):
            self.reg(x, f"{_HG}/{x}")
        for i, s in enumerate(self.short):
            self.reg(f"rev:{i}", f"{_HG}/rev/{s}")
        self.reg("tree:", f"{_HG}/file/tip/")
        for d in _HG_FILES:
            self.reg(f"tree:{d}", f"{_HG}/file/tip/{d}/")
        for p in self.paths:
            self.reg(f"file:{p}", f"{_HG}/file/tip/{p}")

    def rev_of(self, ref: str) -> int | None:
        if ref == "tip":
            return 15
        if ref in self.tags:
            return self.tags[ref]
        for i, n in enumerate(self.nodes):
            if len(ref) >= 12 and n.startswith(ref):
                return i
        return None

    def last_change(self, path: str, rev: int) -> int | None:
        hits = [i for i in range(rev + 1) if path in self.changed[i]]
        return hits[-1] if hits else None

    def u(self, path: str, rc: int | None) -> str:
        return f"{_HG}{path}" + (f"?revcount={rc}" if rc else "")

    def shell(self, title: str, main: str, rc: int | None) -> str:
        nav = bar(
            [
                (self.u("/shortlog", rc), "log"),
                (self.u("/graph", rc), "graph"),
                (self.u("/tags", rc), "tags"),
                (self.u("/bookmarks", rc), "bookmarks"),
                (self.u("/branches", rc), "branches"),
                (self.u("/rev/tip", rc), "changeset"),
                (self.u("/file/tip/", rc), "browse"),
                (f"{_HG}/archive/tip.tar.gz", "bz2"),
            ]
        )
        body = (
            f'<div class="menu"><a href="/hg/">Mercurial</a> {nav}</div>'
            f'<div class="main"><h2>{a("/hg/", "hg")} / {a(self.u("/", rc), "toolkit")}</h2>'
            f"<h3>{esc(title)}</h3>{main}</div>"
        )
        return doc(f"toolkit: {title}", body)

    def row(self, i: int, rc: int | None) -> str:
        r = self.rng(f"row{i}")
        age = f"{(15 - i) * 3 + r.randint(0, 2)} days ago"
        msg = " ".join(r.choice(self.vocab) for _ in range(r.randint(4, 9)))
        return (
            f"<tr><td>{age}</td><td>{esc(self.authors[i % 4])}</td>"
            f"<td>{a(self.u(f'/rev/{self.short[i]}', rc), msg)}</td></tr>"
        )

    def shortlog(self, start: int, rc: int | None, what: str) -> str:
        n = rc or self.per
        revs = list(range(start, max(-1, start - n), -1))
        rows = "".join(self.row(i, rc) for i in revs)
        links: list[Link] = [
            (f"{_HG}/{what}/tip?revcount={max(1, n // 2)}", "less"),
            (f"{_HG}/{what}/tip?revcount={n * 2}", "more"),
        ]
        if start + n <= 15:
            links.append((self.u(f"/{what}/{self.short[start + n]}", rc), f"(+{n})"))
        if revs[-1] > 0:
            links.append((self.u(f"/{what}/{self.short[revs[-1] - 1]}", rc), f"(-{n})"))
        links.append((self.u(f"/{what}/tip", rc), "tip"))
        return f"<table>{rows}</table><div class='navigate'>{bar(links, ' ')}</div>"

    def handle(self, req: Req) -> Reply:
        p = req.path
        q = qs(req.query)
        rc: int | None = None
        if "revcount" in q:
            if not q["revcount"].isdigit() or int(q["revcount"]) < 1:
                return not_found()
            rc = int(q["revcount"])
        if set(q) - {"revcount", "style"}:
            return not_found()
        if p == "/hg/":
            main = prose(self, "index", self.vocab, 40, 90) + ul([(f"{_HG}/", "toolkit")])
            body = doc("Mercurial repositories index", f"<h1>Repositories</h1>{main}")
            return self.serve(req, body)
        if not p.startswith(_HG):
            return not_found()
        rest = p[len(_HG) :]
        parts = rest.strip("/").split("/") if rest.strip("/") else []
        if rest in ("", "/") or (parts and parts[0] in ("shortlog", "graph", "log")):
            what = parts[0] if parts else "shortlog"
            what = "shortlog" if what == "log" else what
            ref = parts[1] if len(parts) > 1 else "tip"
            if what == "shortlog" and ref == "default":
                ref = "tip"
            start = self.rev_of(ref)
            if start is None or len(parts) > 2:
                return not_found("unknown revision")
            main = self.shortlog(start, rc, what)
            if what == "graph":
                main = prose(self, "graph-intro", self.vocab, 20, 40) + main
            elif req.target == f"{_HG}/":
                main = prose(self, "home-intro", self.vocab, 30, 60) + main
            return self.serve(req, self.shell(what, main, rc))
        if parts and parts[0] in ("tags", "branches", "bookmarks") and len(parts) == 1:
            if parts[0] == "tags":
                items = [(self.u("/rev/tip", rc), "tip")]
                items += [(self.u(f"/rev/{t}", rc), t) for t in self.tags]
            elif parts[0] == "branches":
                items = [(self.u("/shortlog/default", rc), "default")]
            else:
                items = []
            main = prose(self, parts[0], self.vocab, 15, 40) + ul(items)
            return self.serve(req, self.shell(parts[0], main, rc))
        if parts and parts[0] == "rev" and len(parts) == 2:
            i = self.rev_of(parts[1])
            if i is None:
                return not_found("unknown revision")
            s = self.short[i]
            links: list[Link] = []
            if i > 0:
                links.append((self.u(f"/rev/{self.short[i - 1]}", rc), "parent"))
            if i < 15:
                links.append((self.u(f"/rev/{self.short[i + 1]}", rc), "child"))
            links += [(self.u(f"/file/{s}/", rc), "browse"), (f"{_HG}/raw-rev/{s}", "raw")]
            files = [(self.u(f"/file/{s}/{f}", rc), f) for f in self.changed[i]]
            files += [(self.u(f"/diff/{s}/{f}", rc), f"diff {f}") for f in self.changed[i]]
            main = (
                f"<p>changeset {i}:{s} by {esc(self.authors[i % 4])}</p>"
                + prose(self, f"rev:{i}", self.vocab, 40, 120)
                + f"<p>{bar(links)}</p>"
                + ul(files)
            )
            return self.serve(req, self.shell(f"changeset {i}:{s}", main, rc))
        if parts and parts[0] in ("file", "annotate", "diff", "comparison") and len(parts) >= 2:
            view, i = parts[0], self.rev_of(parts[1])
            if i is None:
                return not_found("unknown revision")
            path = "/".join(parts[2:])
            ref = parts[1]
            if path in self.paths:
                last = self.last_change(path, i)
                if last is None:
                    return not_found("path not found in manifest")
                text = prose(self, f"file:{path}:{last}", self.vocab, 60, 160)
                if view == "annotate":
                    text = f"<p>annotated by {self.short[last]}</p>" + text
                elif view in ("diff", "comparison"):
                    text = f"<p>{view} against {self.short[max(0, last - 1)]}</p>" + text[:400]
                links = [
                    (self.u(f"/{v}/{ref}/{path}", rc), v)
                    for v in ("file", "annotate", "diff", "comparison")
                ]
                links += [
                    (self.u(f"/rev/{self.short[last]}", rc), "changeset"),
                    (f"{_HG}/raw-file/{ref}/{path}", "raw"),
                ]
                main = f"<p>{bar(links)}</p><pre>{text}</pre>"
                return self.serve(req, self.shell(f"{path} @ {i}:{self.short[i]}", main, rc))
            if view != "file" or not req.path.endswith("/"):
                return not_found()
            d = path.rstrip("/")
            if d == "":
                entries = [(self.u(f"/file/{ref}/{x}/", rc), x + "/") for x in _HG_FILES]
            elif d in _HG_FILES:
                entries = [
                    (self.u(f"/file/{ref}/{d}/{f}", rc), f)
                    for f in _HG_FILES[d]
                    if self.last_change(f"{d}/{f}", i) is not None
                ]
                entries.insert(0, (self.u(f"/file/{ref}/", rc), "[up]"))
            else:
                return not_found()
            main = prose(self, f"tree:{d}", self.vocab, 15, 40) + ul(entries)
            return self.serve(req, self.shell(f"/{d} @ {i}:{self.short[i]}", main, rc))
        return not_found()


# ----------------------------------------------------------------------------------------
# Fossil SCM. The timeline takes its window and its look from the query: `c=` (centred
# on a time), `b=`/`a=` (before/after), `n=` (how many), `y=` (event type) and `ss=`
# (view style); every time stamp in a timeline links a timeline centred on it, and the
# sub-menu links every type, style and count, keeping the rest. Each check-in is browsable
# (`/dir?ci=`, `/file?name=&ci=`, `/doc/<ci>/<file>`) at every check-in.
# Legit look-alikes: the default timeline and its one real "More" page, each check-in's
# `/info/` page, the wiki and ticket pages, the tree and files at `tip`, docs at `trunk`.
# ----------------------------------------------------------------------------------------

_FOSSIL_DOCS = ["www/index.md", "www/build.md", "www/faq.md", "www/changes.md"]
_FOSSIL_SRC = ["src/main.c", "src/parse.c", "src/util.c", "src/shell.c"]
_FOSSIL_TYPES = {"ci": "Check-ins", "w": "Wiki", "t": "Tickets", "e": "Technotes", "all": "All"}
_FOSSIL_SS = {"m": "Modern", "c": "Compact", "v": "Verbose", "j": "Columnar", "x": "Classic"}


class Fossil(Canon):
    """Fossil SCM: timeline windows c=/b=/a= x n= x y= x ss=, files at every check-in."""

    name = "fossil"
    kind = "Fossil SCM: /timeline?c=<any time>&n=&y=&ss= windows, /dir?ci= at every check-in"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/home")]
    robots_disallow: ClassVar[list[str]] = ["/zip", "/tarball", "/annotate", "/blame", "/login"]
    per = 20

    def setup(self) -> None:
        self.vocab = words_for("docs")
        rng = self.rng("events")
        t = dt.datetime(2026, 3, 2, 9, 0, 0)
        kinds = ["ci"] * 20 + ["w"] * 8 + ["t"] * 6 + ["e"] * 3
        rng.shuffle(kinds)
        kinds[0] = "ci"
        self.events: list[tuple[str, str, str]] = []  # (ts, type, key)
        counts = {"ci": 0, "w": 0, "t": 0, "e": 0}
        self.wiki = [title_of(s).replace(" ", "") for s in slugs(self.key("wiki"), 5, GENERAL, 2)]
        for k in kinds:
            t += dt.timedelta(hours=rng.randint(5, 60), minutes=rng.randint(0, 59))
            self.events.append((t.strftime("%Y-%m-%dT%H:%M:%S"), k, f"{k}{counts[k]}"))
            counts[k] += 1
        self.events.sort(reverse=True)
        self.ci = [e for e in reversed(self.events) if e[1] == "ci"]  # oldest first
        self.hash = {
            e[2]: "".join(rng.choice("0123456789abcdef") for _ in range(40))
            for e in self.events
            if e[1] in ("ci", "t", "e")
        }
        files = _FOSSIL_DOCS + _FOSSIL_SRC
        self.changed = [sorted(set(rng.sample(files, rng.randint(1, 3)))) for _ in self.ci]
        self.changed[0] = sorted(files)
        self.reg("home", "/home")
        self.reg("wcontent", "/wcontent")
        for w in self.wiki:
            self.reg(f"wiki:{w}", f"/wiki?name={w}")
        self.reg("timeline", "/timeline")
        self.reg("timeline:2", f"/timeline?n={self.per}&b={self.events[self.per][0]}")
        for i, e in enumerate(self.ci):
            self.reg(f"ci:{i}", f"/info/{self.hash[e[2]][:10]}")
        for e in self.events:
            if e[1] == "t":
                self.reg(f"tkt:{e[2]}", f"/tktview/{self.hash[e[2]][:10]}")
        self.reg("dir", "/dir?ci=tip")
        for f in _FOSSIL_DOCS:
            self.reg(f"doc:{f}", f"/doc/trunk/{f}")
        for f in _FOSSIL_SRC:
            self.reg(f"src:{f}", f"/file?name={f}&ci=tip")

    def shell(self, title: str, main: str) -> str:
        nav = bar(
            [
                ("/home", "Home"),
                ("/timeline", "Timeline"),
                ("/dir?ci=tip", "Files"),
                ("/wcontent", "Wiki"),
                ("/login", "Login"),
            ]
        )
        body = f"<div class='mainmenu'>{nav}</div><h1>{esc(title)}</h1>{main}"
        body += "<div class='footer'>This page was generated by Fossil 2.24</div>"
        return doc(f"Lanternfs: {title}", body)

    def ci_index(self, ref: str) -> int | None:
        if ref in ("tip", "trunk"):
            return len(self.ci) - 1
        for i, e in enumerate(self.ci):
            if len(ref) >= 4 and self.hash[e[2]].startswith(ref):
                return i
        return None

    def content(self, f: str, i: int) -> tuple[str, int]:
        last = max(k for k in range(i + 1) if f in self.changed[k])
        return prose(self, f"file:{f}:{last}", self.vocab, 60, 180), last

    def tl(self, params: dict[str, str]) -> str:
        order = ["n", "b", "a", "c", "y", "ss"]
        q = "&".join(f"{k}={params[k]}" for k in order if params.get(k))
        return "/timeline" + (f"?{q}" if q else "")

    def event_link(self, e: tuple[str, str, str]) -> Link:
        _, k, key = e
        if k == "ci":
            return f"/info/{self.hash[key][:10]}", f"[{self.hash[key][:10]}]"
        if k == "t":
            return f"/tktview/{self.hash[key][:10]}", f"Ticket [{self.hash[key][:10]}]"
        if k == "w":
            return f"/wiki?name={self.wiki[int(key[1:]) % 5]}", "Wiki edit"
        return f"/technote/{self.hash[key][:10]}", "Technote"

    def timeline(self, req: Req) -> Reply:
        q = qs(req.query)
        if set(q) - {"n", "b", "a", "c", "y", "ss"}:
            return not_found()
        y = q.get("y", "all")
        if y not in _FOSSIL_TYPES or q.get("ss", "m") not in _FOSSIL_SS:
            return not_found()
        n = q.get("n", str(self.per))
        if not n.isdigit() or not 1 <= int(n) <= 1000:
            return not_found()
        num = int(n)
        evs = [e for e in self.events if y == "all" or e[1] == y]
        if q.get("c"):
            before = [e for e in evs if e[0] <= q["c"]][: (num + 1) // 2]
            after = [e for e in evs if e[0] > q["c"]][-(num // 2) :] if num > 1 else []
            shown = after + before
        elif q.get("a"):
            shown = [e for e in evs if e[0] >= q["a"]][-num:]
        else:
            shown = [e for e in evs if not q.get("b") or e[0] <= q["b"]][:num]
        rows = []
        keep = {k: v for k, v in q.items() if k in ("y", "ss")}
        for e in shown:
            href, label = self.event_link(e)
            r = self.rng(f"ev{e[2]}")
            msg = " ".join(r.choice(self.vocab) for _ in range(r.randint(5, 12)))
            rows.append(
                f"<tr><td>{a(self.tl({**keep, 'c': e[0]}), e[0][11:16])}</td>"
                f"<td>{esc(msg)} {a(href, label)}</td></tr>"
            )
        more: list[Link] = []
        if shown:
            older = [e for e in evs if e[0] < shown[-1][0]]
            if older:
                more.append((self.tl({"n": n, "b": older[0][0], **keep}), "More ↓"))
            if q.get("b") or q.get("c") or q.get("a"):
                more.append((self.tl({"n": n, "a": shown[0][0], **keep}), "More ↑"))
        base = {k: v for k, v in q.items()}
        sub = [(self.tl({**base, "y": k}), v) for k, v in _FOSSIL_TYPES.items()]
        sub += [(self.tl({**base, "ss": k}), v) for k, v in _FOSSIL_SS.items()]
        sub += [(self.tl({**base, "n": str(k)}), f"{k} events") for k in (10, 25, 50, 100)]
        main = f"<div class='submenu'>{bar(sub)}</div>"
        if req.target == "/timeline":
            main += prose(self, "timeline", self.vocab, 20, 40)
        main += f"<table class='timelineTable'>{''.join(rows)}</table><p>{bar(more)}</p>"
        return self.serve(req, self.shell(f"{len(shown)} events", main))

    def handle(self, req: Req) -> Reply:
        p, q = req.path, qs(req.query)
        if p == "/":
            return Reply("", "other", None, 302, headers={"Location": "/home"})
        if p == "/home" and not req.query:
            links = [(f"/doc/trunk/{f}", f) for f in _FOSSIL_DOCS]
            links += [("/timeline", "Timeline"), ("/dir?ci=tip", "Browse files")]
            return self.serve(req, self.shell("Home", prose(self, "home", self.vocab) + ul(links)))
        if p == "/wcontent":
            links = [(f"/wiki?name={w}", w) for w in self.wiki]
            return self.serve(req, self.shell("Wiki pages", ul(links)))
        if p == "/wiki" and q.get("name") in self.wiki:
            w = q["name"]
            main = prose(self, f"wiki:{w}", self.vocab) + ul([("/wcontent", "All wiki pages")])
            return self.serve(req, self.shell(w, main))
        if p == "/timeline":
            return self.timeline(req)
        parts = p.strip("/").split("/")
        if parts[0] in ("info", "tktview", "technote") and len(parts) == 2:
            for e in self.events:
                h = self.hash.get(e[2], "")
                if h and len(parts[1]) >= 4 and h.startswith(parts[1]):
                    break
            else:
                return not_found("no such artifact")
            if e[1] != "ci":
                main = prose(self, f"tkt:{e[2]}", self.vocab)
                main += ul([(self.tl({"c": e[0]}), f"Context {e[0]}")])
                kind = "Ticket" if e[1] == "t" else "Technote"
                return self.serve(req, self.shell(f"{kind} {h[:10]}", main))
            i = self.ci.index(e)
            links: list[Link] = [
                (self.tl({"c": e[0]}), "Context"),
                (f"/dir?ci={h[:10]}", "Files"),
                (f"/zip/{h[:10]}.zip", "ZIP archive"),
            ]
            if i > 0:
                ph = self.hash[self.ci[i - 1][2]][:10]
                links += [(f"/info/{ph}", "parent"), (f"/vdiff?from={ph}&to={h[:10]}", "diff")]
            if i + 1 < len(self.ci):
                links.append((f"/info/{self.hash[self.ci[i + 1][2]][:10]}", "child"))
            files = [
                (f"/doc/{h[:10]}/{f}" if f.startswith("www/") else f"/file?name={f}&ci={h[:10]}", f)
                for f in self.changed[i]
            ]
            main = f"<p>{e[0]}</p>" + prose(self, f"ci:{i}", self.vocab, 40, 100)
            main += f"<p>{bar(links)}</p>" + ul(files)
            return self.serve(req, self.shell(f"Check-in [{h[:10]}]", main))
        if p == "/vdiff":
            i, j = self.ci_index(q.get("from", "")), self.ci_index(q.get("to", ""))
            if i is None or j is None:
                return not_found()
            files = sorted(
                {f for k in range(min(i, j) + 1, max(i, j) + 1) for f in self.changed[k]}
            )
            main = ul([(f"/file?name={f}&ci={q['to']}", f) for f in files])
            return self.serve(req, self.shell("Changes", main))
        if p == "/dir":
            i = self.ci_index(q.get("ci", ""))
            if i is None or set(q) - {"ci"}:
                return not_found()
            ref = q["ci"]
            links = [
                (f"/doc/{'trunk' if ref == 'tip' else ref}/{f}", f)
                for f in _FOSSIL_DOCS
                if any(f in self.changed[k] for k in range(i + 1))
            ]
            links += [
                (f"/file?name={f}&ci={ref}", f)
                for f in _FOSSIL_SRC
                if any(f in self.changed[k] for k in range(i + 1))
            ]
            main = prose(self, "dir", self.vocab, 15, 30) if ref == "tip" else ""
            return self.serve(req, self.shell(f"Files of check-in {ref}", main + ul(links)))
        if p == "/file" or (parts[0] == "doc" and len(parts) >= 3):
            if p == "/file":
                f, ref = q.get("name", ""), q.get("ci", "tip")
            else:
                f, ref = "/".join(parts[2:]), parts[1]
            i = self.ci_index(ref)
            if i is None or f not in _FOSSIL_DOCS + _FOSSIL_SRC:
                return not_found()
            if not any(f in self.changed[k] for k in range(i + 1)):
                return not_found("file not in check-in")
            text, last = self.content(f, i)
            h = self.hash[self.ci[last][2]][:10]
            links = [
                (f"/info/{h}", "Last change"),
                (f"/annotate?filename={f}&checkin={ref}", "annotate"),
            ]
            return self.serve(req, self.shell(f, f"<p>{bar(links)}</p>{text}"))
        return not_found()


# ----------------------------------------------------------------------------------------
# Redmine. The project activity page's "« Previous" link steps `from=` back 30 days at a
# time, for ever, long after the project began; the issue list's column headers prepend
# their column to `sort=` (Redmine keeps three criteria, toggling a repeated first one),
# kept in the paging links; issues link their `?tab=` views and `.atom`/`.pdf` exports.
# Legit look-alikes: the two real activity windows, the issue list and its real page 2,
# the 28 issues, the wiki pages, the member profiles.
# ----------------------------------------------------------------------------------------

_RM = "/projects/apollo"
_RM_COLS = ["id", "tracker", "status", "priority", "subject", "assigned_to", "updated_on"]
_RM_TODAY = dt.date(2026, 11, 30)


class Redmine(Canon):
    """Redmine: activity ?from= back forever, sort= criteria prepending, issue tabs."""

    name = "redmine"
    kind = "Redmine: activity ?from= stepping back forever, sort= column prepending, ?tab="
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, _RM)]
    robots_disallow: ClassVar[list[str]] = [
        "/issues/gantt",
        "/issues/calendar",
        "/activity",
        "/search",
        "/login",
        "/account/register",
        "/issues?sort=",
        "/issues?*sort=",
        "/issues/*.pdf",
    ]
    per_page = 25

    def setup(self) -> None:
        self.vocab = words_for("science")
        rng = self.rng("issues")
        self.users = [
            (7, "Ilse Varga"),
            (9, "Kofi Mensah"),
            (12, "Lena Park"),
            (15, "Omar Haddad"),
            (21, "Sofia Lund"),
        ]
        subj = slugs(self.key("subj"), 28, self.vocab, 4)
        self.issues = []
        for k in range(28):
            self.issues.append(
                {
                    "id": 101 + k,
                    "tracker": rng.choice(["Bug", "Feature", "Support"]),
                    "status": rng.choice(["New", "In Progress", "Resolved", "Closed"]),
                    "priority": rng.choice(["Low", "Normal", "High", "Urgent"]),
                    "subject": title_of(subj[k]).capitalize(),
                    "assigned_to": rng.choice(self.users)[1],
                    "updated_on": str(_RM_TODAY - dt.timedelta(days=rng.randint(0, 58))),
                }
            )
        self.wiki = ["Wiki", "Roadmap", "Building", "Calibration", "Data_formats", "Contributing"]
        self.reg("overview", _RM)
        self.reg("issues", f"{_RM}/issues")
        self.reg("issues:2", f"{_RM}/issues?page=2")
        for it in self.issues:
            self.reg(f"issue:{it['id']}", f"/issues/{it['id']}")
        self.reg("activity", f"{_RM}/activity")
        self.reg("activity:2", f"{_RM}/activity?from={_RM_TODAY - dt.timedelta(days=30)}")
        self.reg("wiki", f"{_RM}/wiki")
        for w in self.wiki[1:]:
            self.reg(f"wiki:{w}", f"{_RM}/wiki/{w}")
        self.reg("wiki:index", f"{_RM}/wiki/index")
        for uid, _ in self.users:
            self.reg(f"user:{uid}", f"/users/{uid}")

    def shell(self, title: str, main: str) -> str:
        top = bar([("/", "Home"), ("/projects", "Projects"), ("/login", "Sign in")])
        top += " " + a("/account/register", "Register")
        menu = bar(
            [
                (_RM, "Overview"),
                (f"{_RM}/activity", "Activity"),
                (f"{_RM}/issues", "Issues"),
                (f"{_RM}/wiki", "Wiki"),
                (f"/search?scope=subprojects&q=&id={_RM[10:]}", "Search"),
            ]
        )
        body = f"<div id='top-menu'>{top}</div><h1>Apollo</h1><div id='main-menu'>{menu}</div>"
        body += f"<div id='content'><h2>{esc(title)}</h2>{main}</div>"
        body += "<div id='footer'>Powered by Redmine © 2006-2024 Jean-Philippe Lang</div>"
        return doc(f"{title} - Apollo - Redmine", body)

    @staticmethod
    def click(crit: list[tuple[str, str]], col: str) -> list[tuple[str, str]]:
        if crit and crit[0][0] == col:
            return [(col, "asc" if crit[0][1] == "desc" else "desc"), *crit[1:]]
        first = (col, "desc" if col == "updated_on" else "asc")
        return [first, *[c for c in crit if c[0] != col]][:3]

    @staticmethod
    def sort_str(crit: list[tuple[str, str]]) -> str:
        return "%2C".join(c if d == "asc" else f"{c}%3Adesc" for c, d in crit)

    def issue_list(self, req: Req) -> Reply:
        q = qs(req.query)
        if set(q) - {"sort", "page", "per_page", "set_filter"}:
            return not_found()
        crit: list[tuple[str, str]] = []
        for part in q.get("sort", "id:desc").split(","):
            c, _, d = part.partition(":")
            if c not in _RM_COLS:
                return not_found()
            crit.append((c, "desc" if d == "desc" else "asc"))
        per = int(q["per_page"]) if q.get("per_page", "").isdigit() else self.per_page
        if per not in (25, 50, 100):
            return not_found()
        page = int(q["page"]) if q.get("page", "").isdigit() else 1
        items = list(self.issues)
        for c, d in reversed(crit):
            items.sort(key=lambda it, c=c: str(it[c]).zfill(6), reverse=d == "desc")
        pages = max(1, -(-len(items) // per))
        if not 1 <= page <= pages:
            return not_found()
        shown = items[(page - 1) * per : page * per]
        extra = "" if "sort" not in q else f"sort={self.sort_str(crit)}"
        heads = "".join(
            f"<th>{a(f'{_RM}/issues?sort={self.sort_str(self.click(crit, c))}', title_of(c))}</th>"
            for c in _RM_COLS
        )
        rows = "".join(
            "<tr>"
            + f"<td>{a('/issues/' + str(it['id']), '#' + str(it['id']))}</td>".join(
                f"<td>{esc(str(it[c]))}</td>" for c in _RM_COLS[1:]
            )
            + "</tr>"
            for it in shown
        )

        def pg(n: int) -> str:
            ps = [x for x in (extra, f"per_page={per}" if "per_page" in q else "") if x]
            ps.append(f"page={n}")
            return f"{_RM}/issues?" + "&".join(ps)

        nav = [(pg(n), str(n)) for n in range(1, pages + 1) if n != page]
        per_links = [
            (f"{_RM}/issues?per_page={n}" + (f"&{extra}" if extra else ""), str(n))
            for n in (25, 50, 100)
        ]
        main = f"<table><tr>{heads}</tr>{rows}</table><p>{bar(nav)}</p>"
        main += f"<p>Per page: {bar(per_links, ', ')}</p>"
        main += f"<p>{a(f'{_RM}/issues.atom', 'Atom')} {a('/issues.pdf', 'PDF')}</p>"
        if req.target in (f"{_RM}/issues", f"{_RM}/issues?page=2"):
            main = prose(self, f"issues{page}", self.vocab, 15, 30) + main
        return self.serve(req, self.shell("Issues", main))

    def activity(self, req: Req) -> Reply:
        q = qs(req.query)
        if set(q) - {"from", "user_id"}:
            return not_found()
        try:
            end = dt.date.fromisoformat(q["from"]) if "from" in q else _RM_TODAY
        except ValueError:
            return not_found()
        start = end - dt.timedelta(days=29)
        uid = q.get("user_id", "")
        names = {str(u): n for u, n in self.users}
        if uid and uid not in names:
            return not_found()
        evs = [
            it
            for it in self.issues
            if str(start) <= it["updated_on"] <= str(end)
            and (not uid or it["assigned_to"] == names[uid])
        ]
        evs.sort(key=lambda it: it["updated_on"], reverse=True)
        items = [
            (
                f"/issues/{it['id']}",
                f"{it['updated_on']} {it['tracker']} #{it['id']}: {it['subject']}",
            )
            for it in evs
        ]
        extra = f"&user_id={uid}" if uid else ""
        prev = f"{_RM}/activity?from={start - dt.timedelta(days=1)}{extra}"
        nav = [(prev, "« Previous")]
        if end < _RM_TODAY:
            nav.append(
                (
                    f"{_RM}/activity?from={min(_RM_TODAY, end + dt.timedelta(days=30))}{extra}",
                    "Next »",
                )
            )
        main = f"<p>From {start} to {end}</p>"
        main += ul(items) if items else "<p class='nodata'>No data to display</p>"
        main += f"<p>{bar(nav)}</p>"
        return self.serve(req, self.shell("Activity", main))

    def handle(self, req: Req) -> Reply:
        p, q = req.path, qs(req.query)
        if p == _RM and not req.query:
            links = [(f"{_RM}/issues", "View all issues"), (f"{_RM}/activity", "Activity")]
            links += [(f"/users/{u}", n) for u, n in self.users]
            main = prose(self, "overview", self.vocab) + ul(links)
            return self.serve(req, self.shell("Overview", main))
        if p == f"{_RM}/issues":
            return self.issue_list(req)
        if p == f"{_RM}/activity":
            return self.activity(req)
        if p.startswith("/issues/"):
            key = p[8:]
            base = key.split(".")[0]
            if not base.isdigit() or not 101 <= int(base) <= 128:
                return not_found()
            n = int(base)
            it = self.issues[n - 101]
            if key.endswith((".atom", ".pdf")):
                body = f"{it['subject']}\n" + prose(self, f"issue:{n}", self.vocab)
                return self.serve(req, self.shell(f"#{n} export", body))
            if (
                key != base
                or set(q) - {"tab"}
                or q.get("tab", "history") not in ("history", "notes", "properties")
            ):
                return not_found()
            uid = next(u for u, nm in self.users if nm == it["assigned_to"])
            links: list[Link] = [
                (f"/issues/{n}?tab={t}", t.title()) for t in ("history", "notes", "properties")
            ]
            nav: list[Link] = []
            if n > 101:
                nav.append((f"/issues/{n - 1}", "« Previous"))
            if n < 128:
                nav.append((f"/issues/{n + 1}", "Next »"))
            fields = "".join(
                f"<tr><th>{title_of(c)}</th><td>{esc(str(it[c]))}</td></tr>" for c in _RM_COLS[1:4]
            )
            main = (
                f"<p>{bar(nav)}</p><h3>{esc(it['subject'])}</h3><table>{fields}</table>"
                f"<p>Assignee: {a(f'/users/{uid}', it['assigned_to'])}</p>"
                + prose(self, f"issue:{n}", self.vocab)
                + f"<p>{bar(links)}</p><p>{a(f'/issues/{n}.atom', 'Atom')} "
                + f"{a(f'/issues/{n}.pdf', 'PDF')}</p>"
            )
            if "tab" in q:
                main += f"<p>Showing the {q['tab']} tab.</p>"
            return self.serve(req, self.shell(f"{it['tracker']} #{n}", main))
        if p.startswith("/users/") and p[7:].isdigit():
            uid = int(p[7:])
            names = dict(self.users)
            if uid not in names or req.query:
                return not_found()
            mine = [
                (f"/issues/{it['id']}", it["subject"])
                for it in self.issues
                if it["assigned_to"] == names[uid]
            ]
            main = prose(self, f"user:{uid}", self.vocab, 30, 80) + ul(mine)
            main += ul(
                [
                    (f"/activity?user_id={uid}", "Activity"),
                    (f"{_RM}/activity?user_id={uid}", "Activity in Apollo"),
                ]
            )
            return self.serve(req, self.shell(names[uid], main))
        if p.startswith(f"{_RM}/wiki"):
            rest = p[len(_RM) + 5 :].strip("/")
            if req.query:
                return not_found()
            if rest in ("", *self.wiki[1:]):
                links = [(f"{_RM}/wiki/{w}", w.replace("_", " ")) for w in self.wiki[1:]]
                links += [
                    (f"{_RM}/wiki/index", "Index by title"),
                    (f"{_RM}/wiki/date_index", "Index by date"),
                ]
                main = prose(self, f"wiki:{rest}", self.vocab) + ul(links)
                return self.serve(req, self.shell(rest or "Wiki", main))
            if rest in ("index", "date_index"):
                ws = self.wiki[1:] if rest == "index" else list(reversed(self.wiki[1:]))
                main = ul([(f"{_RM}/wiki/{w}", w.replace("_", " ")) for w in ws])
                return self.serve(req, self.shell("Index", main))
        if p == "/":
            return Reply("", "other", None, 302, headers={"Location": _RM})
        return not_found()


# ----------------------------------------------------------------------------------------
# OpenGrok. Every identifier in a cross-referenced source file links a project search
# (`/source/s?defs=X&project=P` for a use, `refs=X` for a definition); every search result
# page links the three `sort=` orders and the matching lines, and each file links its
# annotated view (`?a=true`) and every revision (`?r=<rev>`, annotated too). The space
# is finite but large: two searches per identifier, times three orders.
# Legit look-alikes: the project's directories, the current files, their history pages,
# and the real older revisions listed in those histories.
# ----------------------------------------------------------------------------------------

_OG = "/source"
_OG_P = "ringbuf"
_OG_FILES = {
    "src": ["ring.c", "alloc.c", "sync.c", "stats.c", "wire.c"],
    "include": ["ring.h", "alloc.h", "sync.h"],
    "test": ["test_ring.c", "test_sync.c", "bench.c"],
}
_OG_A = ["ring", "buf", "slot", "head", "tail", "cap", "mask", "wrap", "lock", "stat"]
_OG_B = ["push", "pop", "peek", "init", "free", "len", "reset", "grow", "copy", "sync", "flush"]
_OG_SORTS = ["relevancy", "fullpath", "lastmodtime"]


class OpenGrok(Canon):
    """OpenGrok: identifier searches (defs=/refs=) x sort=, ?a=true and ?r= views."""

    name = "opengrok"
    kind = "OpenGrok: every identifier links s?defs=/refs= searches x sort=, ?r=, ?a=true"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, f"{_OG}/")]
    robots_disallow: ClassVar[list[str]] = [f"{_OG}/download/", f"{_OG}/raw/", f"{_OG}/rss/"]

    def setup(self) -> None:
        rng = self.rng("code")
        self.vocab = words_for("docs")
        idents = [f"{x}_{y}" for x in _OG_A for y in _OG_B]
        rng.shuffle(idents)
        self.paths = [f"{d}/{f}" for d, fs in _OG_FILES.items() for f in fs]
        self.defs: dict[str, str] = {}
        self.code: dict[str, list[list[tuple[str, str]]]] = {}
        self.revs: dict[str, list[str]] = {}
        k = 0
        for p in self.paths:
            mine = idents[k : k + 6]
            k += 6
            for x in mine:
                self.defs[x] = p
            self.revs[p] = [
                "".join(rng.choice("0123456789abcdef") for _ in range(8))
                for _ in range(rng.randint(1, 3))
            ]
        pool = list(self.defs)
        for p in self.paths:
            lines: list[list[tuple[str, str]]] = []
            for x in [i for i, f in self.defs.items() if f == p]:
                lines.append([("kw", "int"), ("def", x), ("txt", "(struct ring *r, size_t n) {")])
                for _ in range(rng.randint(2, 4)):
                    lines.append(
                        [
                            ("txt", "    if ("),
                            ("use", rng.choice(pool)),
                            ("txt", f"(r, {rng.randint(0, 64)}) < 0)"),
                        ]
                    )
                    lines.append(
                        [("txt", "        return "), ("use", rng.choice(pool)), ("txt", "(r);")]
                    )
                lines.append([("txt", "}")])
            self.code[p] = lines
        self.reg("home", f"{_OG}/")
        self.reg("dir:", f"{_OG}/xref/{_OG_P}/")
        for d in _OG_FILES:
            self.reg(f"dir:{d}", f"{_OG}/xref/{_OG_P}/{d}/")
        for p in self.paths:
            self.reg(f"xref:{p}", f"{_OG}/xref/{_OG_P}/{p}")
            self.reg(f"hist:{p}", f"{_OG}/history/{_OG_P}/{p}")
            for r in self.revs[p][1:]:
                self.reg(f"rev:{p}@{r}", f"{_OG}/xref/{_OG_P}/{p}?r={r}")

    def shell(self, title: str, main: str) -> str:
        nav = bar([(f"{_OG}/", "Home"), (f"{_OG}/xref/{_OG_P}/", _OG_P)])
        body = f"<div id='bar'>{nav}</div><h1>{esc(title)}</h1>{main}"
        body += "<div id='footer'>Served by OpenGrok 1.13</div>"
        return doc(f"OpenGrok {title}", body)

    def s(self, kind: str, x: str, sort: str = "") -> str:
        return f"{_OG}/s?{kind}={x}&project={_OG_P}" + (f"&sort={sort}" if sort else "")

    def render(self, p: str, rev: int, annotate: bool) -> str:
        out = []
        lines = self.code[p]
        cut = len(lines) - 2 * (len(self.revs[p]) - 1 - rev)  # older revisions are shorter
        for n, line in enumerate(lines[: max(3, cut)], 1):
            parts = []
            for kind, tok in line:
                if kind == "def":
                    parts.append(a(self.s("refs", tok), tok))
                elif kind == "use":
                    parts.append(a(self.s("defs", tok), tok))
                else:
                    parts.append(esc(tok))
            who = f"{self.revs[p][min(rev, n % len(self.revs[p]))]} " if annotate else ""
            out.append(f'<a class="l" name="{n}" href="#{n}">{n}</a> {who}{"".join(parts)}')
        return "<pre>" + "\n".join(out) + "</pre>"

    def handle(self, req: Req) -> Reply:
        p, q = req.path, qs(req.query)
        if p == f"{_OG}/" and not req.query:
            main = prose(self, "home", self.vocab, 30, 70) + ul([(f"{_OG}/xref/{_OG_P}/", _OG_P)])
            return self.serve(req, self.shell("Projects", main))
        if p == f"{_OG}/s":
            kinds = [k for k in ("defs", "refs") if k in q]
            if (
                len(kinds) != 1
                or q.get("project") != _OG_P
                or set(q) - {"defs", "refs", "project", "sort"}
            ):
                return not_found()
            kind, x = kinds[0], q[kinds[0]]
            if x not in self.defs or q.get("sort", "relevancy") not in _OG_SORTS:
                return not_found()
            hits = []
            for f in self.paths:
                for n, line in enumerate(self.code[f], 1):
                    if any(t == x and (k == "def") == (kind == "defs") for k, t in line):
                        text = "".join(t for _, t in line)
                        hits.append((f, n, text))
            if q.get("sort") == "fullpath":
                hits.sort()
            elif q.get("sort") == "lastmodtime":
                hits.sort(key=lambda h: self.revs[h[0]][-1])
            rows = "".join(
                f"<tr><td>{a(f'{_OG}/xref/{_OG_P}/{f}#{n}', f'{f}:{n}')}</td><td>{esc(t)}</td>"
                f"<td>{a(f'{_OG}/history/{_OG_P}/{f}', 'H')} "
                f"{a(f'{_OG}/xref/{_OG_P}/{f}?a=true', 'A')}"
                f" {a(f'{_OG}/download/{_OG_P}/{f}', 'D')}</td></tr>"
                for f, n, t in hits
            )
            sorts = [(self.s(kind, x, so), so) for so in _OG_SORTS]
            main = (
                f"<p>Sort by: {bar(sorts)}</p><p>Searched {kind}:{esc(x)}</p><table>{rows}</table>"
            )
            return self.serve(req, self.shell(f"Search {x}", main))
        if p.startswith(f"{_OG}/history/{_OG_P}/"):
            f = p[len(f"{_OG}/history/{_OG_P}/") :]
            if f not in self.paths or req.query:
                return not_found()
            rows = [(f"{_OG}/xref/{_OG_P}/{f}?r={r}", f"r{r}") for r in reversed(self.revs[f])]
            rows += [
                (f"{_OG}/xref/{_OG_P}/{f}?r={r}&a=true", f"annotate r{r}") for r in self.revs[f]
            ]
            main = prose(self, f"hist:{f}", self.vocab, 20, 60) + ul(rows)
            return self.serve(req, self.shell(f"History {f}", main))
        if p.startswith(f"{_OG}/xref/{_OG_P}/"):
            f = p[len(f"{_OG}/xref/{_OG_P}/") :]
            if f == "" or f.rstrip("/") in _OG_FILES:
                if req.query or (f and not f.endswith("/")):
                    return not_found()
                d = f.rstrip("/")
                entries = (
                    [(f"{_OG}/xref/{_OG_P}/{x}/", x + "/") for x in _OG_FILES]
                    if not d
                    else [(f"{_OG}/xref/{_OG_P}/{d}/{x}", x) for x in _OG_FILES[d]]
                )
                main = prose(self, f"dir:{d}", self.vocab, 15, 40) + ul(entries)
                return self.serve(req, self.shell(f"/{d}", main))
            if f not in self.paths or set(q) - {"r", "a"}:
                return not_found()
            revs = self.revs[f]
            r = q.get("r", revs[-1])
            if r not in revs or q.get("a", "true") != "true":
                return not_found()
            i = revs.index(r)
            links = [
                (f"{_OG}/history/{_OG_P}/{f}", "History"),
                (
                    f"{_OG}/xref/{_OG_P}/{f}?a=true"
                    if "r" not in q
                    else f"{_OG}/xref/{_OG_P}/{f}?r={r}&a=true",
                    "Annotate",
                ),
                (f"{_OG}/raw/{_OG_P}/{f}", "Raw"),
                (f"{_OG}/download/{_OG_P}/{f}", "Download"),
            ]
            intro = prose(self, f"xref:{f}:{i}", self.vocab, 15, 30)
            main = f"<p>{bar(links)}</p>{intro}{self.render(f, i, 'a' in q)}"
            return self.serve(req, self.shell(f"{f} (r{r})", main))
        return not_found()
