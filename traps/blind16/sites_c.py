"""blind16 sites, part c: a Flyspray bug tracker, a MARC-style mailing-list archive with
its mirror, a PmWiki farm of two fields, and a FluxBB forum."""

from __future__ import annotations

import re
from typing import ClassVar

from .common import (
    B16,
    Reply,
    Req,
    h,
    not_found,
    num,
    qlist,
    qs,
    quote,
    redirect,
    slugs,
    trap,
    ul,
)

# ----------------------------------------------------------------------------------------
# A Flyspray bug tracker. Task lists `index.php?do=index&project=<n>` sort by eight
# columns both ways, append `&status[]=` filters in click order and page on without end
# (`&pagenum=`); tasks `index.php?do=details&task_id=<id>`, whose "Watch this task" link
# carries `&return_to=<this URL>`, and whose answer page links "Stop watching" with its own
# URL as `return_to` (the URL nests per click). Real pages in the family: project 1's
# `&pagenum=2` (two tasks listed only there), and two roadmaps. robots.txt:
# `index.php?do=authenticate`, `do=register`, `do=admin`, `do=myprofile`, `do=newtask`.
# ----------------------------------------------------------------------------------------

FS = "/index.php?do="
_COLS = ("id", "tasktype", "category", "severity", "priority", "summary", "dateopened", "progress")
_STAT = ("open", "closed", "assigned", "unconfirmed", "new")


class Flyspray(B16):
    """Flyspray: order x sort x status[] lists, pagenum without end, return_to nesting."""

    name = "flyspray"
    kind = "Flyspray tracker: order/sort/status[] product, pagenum, return_to nesting"
    theme = "forum"
    brand = "Tidemill bug tracker"
    robots_disallow: ClassVar[list[str]] = [
        f"{FS}authenticate",
        f"{FS}register",
        f"{FS}admin",
        f"{FS}myprofile",
        f"{FS}newtask",
    ]

    def make(self) -> None:
        self.tn = self.made("task", 15)
        self.un = self.made("user", 4)
        self.pn = self.made("proj", 3)
        self.add("home", "/", lambda r: self.home())
        for p in (1, 2, 3):
            self.add(
                f"l{p}",
                f"{FS}index&project={p}",
                lambda r, p=p: self.tasks(p, "", "", (), 1, f"l{p}"),
            )
        self.add(
            "l1p2", f"{FS}index&project=1&pagenum=2", lambda r: self.tasks(1, "", "", (), 2, "l1p2")
        )
        for k in range(15):
            self.add(f"t{k}", self.tu(k), lambda r, k=k: self.task(k, f"t{k}", ""))
        for p in (1, 2):
            self.add(f"r{p}", f"{FS}roadmap&project={p}", lambda r, p=p: self.roadmap(p))
        for u in range(4):
            self.add(f"u{u}", f"{FS}user&id={u + 2}", lambda r, u=u: self.user(u))

    def tu(self, k: int) -> str:
        return f"{FS}details&task_id={101 + k}"

    def home(self) -> str:
        links = [(f"{FS}index&project={p}", self.pn[p - 1]) for p in (1, 2, 3)]
        links += [(f"{FS}roadmap&project={p}", "Roadmap") for p in (1, 2)]
        links += [(f"{FS}authenticate", "Login"), (f"{FS}register", "Register")]
        return self.html("Projects", "home", ul(links), 20, 60)

    def lurl(self, p: int, o: str, s: str, st: tuple[str, ...], pg: int) -> str:
        u = f"{FS}index&project={p}" + (f"&order={o}&sort={s}" if o else "")
        u += "".join(f"&status%5B%5D={x}" for x in st)
        return u + (f"&pagenum={pg}" if pg > 1 else "")

    def tasks(self, p: int, o: str, s: str, st: tuple[str, ...], pg: int, key: str) -> str:
        mine = [k for k in range(15) if k % 3 == p - 1]
        if key.startswith("l"):
            ks = mine[:3] if pg == 1 and p == 1 else mine[3:] if p == 1 else mine
        else:
            ks = [mine[(h(key) + j) % 5] for j in range(2)]
        links = [(self.tu(k), f"FS#{101 + k} {self.tn[k]}") for k in ks]
        links.append((self.lurl(p, o, s, st, pg + 1), "Next page"))
        for c in _COLS:
            for d in ("asc", "desc"):
                if (c, d) != (o, s):
                    links.append((self.lurl(p, c, d, st, 1), f"Sort by {c} {d}"))
        links += [(self.lurl(p, o, s, (*st, x), 1), f"Status {x}") for x in _STAT if x not in st]
        return self.html(f"{self.pn[p - 1]}: tasks, page {pg}", key, ul(links), 20, 60)

    def task(self, k: int, key: str, here: str) -> str:
        p = k % 3 + 1
        links = [
            (f"{FS}index&project={p}", self.pn[p - 1]),
            (f"{FS}user&id={k % 4 + 2}", self.un[k % 4]),
        ]
        links += [(self.tu(j), f"FS#{101 + j}") for j in (k - 1, k + 1) if 0 <= j < 15]
        rt = quote(here or self.tu(k), safe="")
        links.append(
            (f"{self.tu(k)}&action=details.add_notification&return_to={rt}", "Watch this task")
        )
        links.append((f"{FS}newtask&project={p}", "Add a task"))
        return self.html(f"FS#{101 + k}: {self.tn[k]}", key, ul(links), 60, 160)

    def roadmap(self, p: int) -> str:
        links = [(self.tu(k), self.tn[k]) for k in range(15) if k % 3 == p - 1]
        return self.html(f"Roadmap for {self.pn[p - 1]}", f"r{p}", ul(links), 30, 80)

    def user(self, u: int) -> str:
        links = [(self.tu(k), self.tn[k]) for k in range(15) if k % 4 == u]
        return self.thin(f"User {self.un[u]}", f"u{u}", links)

    def rest(self, req: Req) -> Reply:
        q, pairs = qs(req.query), qlist(req.query)
        if req.path != "/index.php":
            return not_found()
        if q.get("do") == "index" and q.get("project") in ("1", "2", "3"):
            st = tuple(v for k, v in pairs if k == "status[]" and v in _STAT)
            o, s = q.get("order", ""), q.get("sort", "")
            return trap(
                self.tasks(int(q["project"]), o, s, st, max(1, num(q, "pagenum", 1)), req.key)
            )
        if q.get("do") == "details" and q.get("task_id", "").isdigit():
            k = int(q["task_id"]) - 101
            if not 0 <= k < 15:
                return not_found()
            if "return_to" in q:
                links = [
                    (q["return_to"], "Back"),
                    (
                        f"{self.tu(k)}&action=details.remove_notification"
                        f"&return_to={quote(req.target, safe='')}",
                        "Stop watching",
                    ),
                ]
                return self.rich(req, f"You are now watching FS#{101 + k}", links)
            return trap(self.task(k, req.key, req.target))
        return not_found()


# ----------------------------------------------------------------------------------------
# A MARC-style mailing-list archive (host 0) and a mirror of it (host 1: its own home and
# FAQ; every other URL is host 0's page again). Lists `/?l=<list>`, months
# `/?l=<list>&r=<page>&b=<yyyymm>&w=2` ("next" pages and previous months without end;
# `w=1` and `w=3` views), messages `/?l=<list>&m=<id>&w=2` (a `w=1` copy of each), threads
# `/?t=<id>&r=1&w=2`, authors `/?a=<id>&r=1&w=2`: authors list made-up messages of
# made-up threads by more made-up authors. Real pages in the family: the first list's
# `r=2` for November and every list's October. robots.txt: /?q=mbox, /?q=raw, /cgi-bin/.
# ----------------------------------------------------------------------------------------


def _ym(b: int, k: int) -> int:
    n = (b // 100) * 12 + b % 100 - 1 + k
    return (n // 12) * 100 + n % 12 + 1


class Marcinfo(B16):
    """MARC: r= pages and b= months without end, w= views, author graph, mirror host."""

    name = "marcinfo"
    kind = "MARC-style list archive + mirror: r=/b= pages and months, w= copies, authors"
    theme = "archive"
    brand = "MARC: Mailing list ARChives"
    hosts = 2
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/"), (1, "/")]
    robots_disallow: ClassVar[list[str]] = ["/?q=mbox", "/?q=raw", "/cgi-bin/"]

    def make(self) -> None:
        self.lists = [
            s.replace("-", "-dev-", 1) if i == 0 else s
            for i, s in enumerate(slugs(self.key("l"), 3, self.v, 2))
        ]
        self.sub = self.made("subj", 12)
        self.mid = [176400000000 + h(self.key(f"m{k}"), 10**8) for k in range(12)]
        self.tid = [176300000000 + h(self.key(f"t{k}"), 10**8) for k in range(3)]
        self.add("home", "/", lambda r: self.home())
        for i, li in enumerate(self.lists):
            self.add(f"l{i}", f"/?l={li}", lambda r, i=i: self.lhome(i))
            for b in (202611, 202610):
                self.add(
                    f"m{i}{b}",
                    self.mu(i, b, 1),
                    lambda r, i=i, b=b: self.month(i, b, 1, "2", f"m{i}{b}"),
                )
        self.add("m0p2", self.mu(0, 202611, 2), lambda r: self.month(0, 202611, 2, "2", "m0p2"))
        for k in range(12):
            self.add(f"x{k}", self.xu(k), lambda r, k=k: self.msg(k, f"x{k}"))
        for t in range(3):
            self.add(f"t{t}", f"/?t={self.tid[t]}&r=1&w=2", lambda r, t=t: self.thread(t))
        self.add(
            "mhome",
            "/",
            lambda r: self.thin(
                "MARC mirror",
                "mh",
                [("/faq.html", "FAQ"), *[(f"/?l={li}", li) for li in self.lists]],
            ),
            1,
        )
        self.add("mfaq", "/faq.html", lambda r: self.html("Mirror FAQ", "mfaq", ""), 1)

    def mu(self, i: int, b: int, r: int, w: str = "2") -> str:
        return f"/?l={self.lists[i]}&r={r}&b={b}&w={w}"

    def xu(self, k: int, w: str = "2") -> str:
        return f"/?l={self.lists[k % 3]}&m={self.mid[k]}&w={w}"

    def msgs(self, i: int, b: int, r: int) -> list[int]:
        mine = [k for k in range(12) if k % 3 == i]
        if b == 202610:
            return mine[3:]
        if b == 202611:
            return (
                (mine[:2] if i == 0 else mine[:3])
                if r == 1
                else (mine[2:3] if i == 0 and r == 2 else [])
            )
        return []

    def home(self) -> str:
        links = [(f"/?l={li}", li) for li in self.lists]
        links += [("/?q=mbox", "mbox"), (self.bases[1] + "/", "Mirror")]
        return self.html("MARC", "home", ul(links), 20, 60)

    def lhome(self, i: int) -> str:
        links = [(self.mu(i, b, 1), f"{b}") for b in (202611, 202610)]
        return self.thin(f"List {self.lists[i]}", f"l{i}", links)

    def month(self, i: int, b: int, r: int, w: str, key: str) -> str:
        ks = self.msgs(i, b, r)
        links = [(self.xu(k), self.sub[k]) for k in ks]
        if not ks and not key.startswith("m"):
            links += [(f"/?a={h(key + str(j), 10**9)}&r=1&w=2", "Author") for j in (0, 1)]
        links += [
            (self.mu(i, b, r + 1, w), "Next"),
            (self.mu(i, _ym(b, -1), 1, w), "Previous month"),
        ]
        links += [(self.mu(i, b, r, x), f"view {x}") for x in "13" if x != w]
        return self.html(f"{self.lists[i]} {b} page {r}", key, ul(links), 15, 40)

    def msg(self, k: int, key: str) -> str:
        t = k % 3
        links = [(f"/?t={self.tid[t]}&r=1&w=2", "Thread"), (self.xu(k, "1"), "Plain view")]
        links += [(f"/?a={h(self.key(f'a{k}'), 10**9)}&r=1&w=2", "Author's messages")]
        links += [(f"/?l={self.lists[k % 3]}&m={self.mid[k]}&q=raw", "Download RAW")]
        return self.html(self.sub[k], key, ul(links), 60, 160)

    def thread(self, t: int) -> str:
        links = [(self.xu(k), self.sub[k]) for k in range(12) if k % 3 == t]
        return self.html(f"Thread: {self.sub[t]}", f"t{t}", ul(links), 20, 50)

    def rest(self, req: Req) -> Reply:
        if req.host_index == 1:
            got = self.copy(req)
            if got is not None:
                return got
            req0 = Req(0, self.bases[0], req.target, req.path, req.query, req.headers)
            rep = self.rest(req0)
            return trap(rep.body) if rep.status == 200 else rep
        q = qs(req.query)
        if req.path != "/":
            return not_found()
        li = q.get("l", "")
        if li in self.lists and q.get("m", "").isdigit():
            m = int(q["m"])
            if m in self.mid:
                k = self.mid.index(m)
                return trap(self.msg(k, f"x{k}"))
            nm = self.made(f"a{m}")[0]
            links = [
                (f"/?a={h(str(m), 10**9)}&r=1&w=2", nm),
                (f"/?t={h(str(m) + 't', 10**9)}&r=1&w=2", "Thread"),
            ]
            return self.rich(req, f"Re: {self.made(f's{m}')[0]}", links)
        if li in self.lists and q.get("b", "").isdigit() and len(q["b"]) == 6:
            i = self.lists.index(li)
            return trap(
                self.month(i, int(q["b"]), max(1, num(q, "r", 1)), q.get("w", "2"), req.key)
            )
        if q.get("a", "").isdigit() or q.get("t", "").isdigit():
            x = q.get("a") or q.get("t", "")
            links = [
                (
                    f"/?l={self.lists[h(x + str(j)) % 3]}&m={h(x + str(j), 10**12)}&w=2",
                    f"Message {j}",
                )
                for j in range(3)
            ]
            links.append(
                (
                    f"/?{'a' if 'a' in q else 't'}={x}&r={num(q, 'r', 1) + 1}&w=2",
                    "Next",
                )
            )
            who = "Author " + self.made("a" + x)[0] if "a" in q else "Thread " + x
            return self.rich(req, who, links)
        return not_found()


# ----------------------------------------------------------------------------------------
# A PmWiki farm: the main field (host 0) and a second field (host 1: its own home and
# three pages; the shared PmWiki documentation pages again). Pages `pmwiki.php?n=Group.Name`
# (also served as `pmwiki.php/Group/Name` and in any letter case), with an action family
# under every page: `action=print` (the page again), `diff`, `diff&source=y`,
# `diff&minor=y`, `attr`, `search`. Prose WikiWords link pages that do not exist; PmWiki
# answers them (200, "does not exist") and each names more made-up pages in both URL forms.
# Real pages in the family: the page history (`action=diff`) of three pages. robots.txt:
# /pmwiki.php?action= (edit, upload, login links are written action first), /uploads/.
# ----------------------------------------------------------------------------------------

PW = "/pmwiki.php"


class Pmwiki(B16):
    """PmWiki: action family under every page, case and path aliases, made-up pages."""

    name = "pmwiki"
    kind = "PmWiki farm (2 fields): per-page actions, case/path aliases, made-up WikiWords"
    theme = "docs"
    brand = "Tidemill wiki"
    hosts = 2
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, PW), (1, PW)]
    robots_disallow: ClassVar[list[str]] = [f"{PW}?action=", "/uploads/"]

    def make(self) -> None:
        cc = lambda s: "".join(w.capitalize() for w in s.split("-"))  # noqa: E731
        self.main = [cc(s) for s in slugs(self.key("main"), 12, self.v, 2)]
        self.docs = [cc(s) for s in slugs(self.key("doc"), 5, self.v, 2)]
        self.field = [cc(s) for s in slugs(self.key("field"), 3, self.v, 2)]
        self.names = [f"Main.{x}" for x in self.main] + [f"PmWiki.{x}" for x in self.docs]
        self.add("home", PW, lambda r: self.page("Main.HomePage", "home", 0))
        for n in self.names:
            self.add(n, f"{PW}?n={n}", lambda r, n=n: self.page(n, n, 0))
        for n in self.names[:3]:
            self.add(f"d{n}", f"{PW}?n={n}&action=diff", lambda r, n=n: self.diff(n, f"d{n}"))
        self.add(
            "rc",
            f"{PW}?n=Site.AllRecentChanges",
            lambda r: self.thin(
                "All recent changes", "rc", [(f"{PW}?n={n}", n) for n in self.names[:6]]
            ),
        )
        self.add(
            "sw",
            f"{PW}?n=Main.SearchWiki",
            lambda r: self.thin("Search wiki", "sw", [(PW, "Home")]),
        )
        self.add("fhome", PW, lambda r: self.page("Field.HomePage", "fhome", 1), 1)
        for x in self.field:
            self.add(
                f"f{x}", f"{PW}?n=Field.{x}", lambda r, x=x: self.page(f"Field.{x}", f"f{x}", 1), 1
            )

    def fam(self, n: str, real: bool = True) -> list[tuple[str, str]]:
        u = f"{PW}?n={n}"
        links = [(u + "&action=print", "Print"), (u + "&action=diff", "History")]
        links += [(u + "&action=attr", "Attributes")]
        return links + ([(f"{PW}?action=edit&n={n}", "Edit")] if real else [])

    def page(self, n: str, key: str, host: int) -> str:
        links = self.fam(n)
        if n == "Main.HomePage":
            links += [(f"{PW}?n={x}", x.split(".")[1]) for x in self.names[:8]]
            links += [
                (f"{PW}?n=Site.AllRecentChanges", "Recent changes"),
                (f"{PW}?n=Main.SearchWiki", "Search"),
            ]
        elif n == "Field.HomePage":
            links += [(f"{PW}?n=Field.{x}", x) for x in self.field] + [
                (f"{PW}?n=PmWiki.{x}", x) for x in self.docs[:3]
            ]
            links.append((self.bases[0] + PW, "Main field"))
        elif n in self.names:
            i = self.names.index(n)
            links += [
                (f"{PW}?n={self.names[(i + k) % 17]}", self.names[(i + k) % 17]) for k in (1, 5)
            ]
            links += [(f"{PW}?n={self.names[(i + 3) % 17].lower()}", "see also")]
            links += [
                (f"{PW}?n=Main.{self.made(f'w{n}{j}')[0].replace(' ', '')}", "?") for j in (0, 1)
            ]
        return self.html(n.replace(".", ": "), key, ul(links), 40, 120)

    def diff(self, n: str, key: str) -> str:
        u = f"{PW}?n={n}&action=diff"
        links = [
            (f"{PW}?n={n}", "View"),
            (u + "&source=y", "Show changes to markup"),
            (u + "&minor=y", "Show minor edits"),
        ]
        return self.html(f"{n} history", key, ul(links), 30, 80)

    def rest(self, req: Req) -> Reply:
        q = qs(req.query)
        n = q.get("n", "")
        if req.path.startswith(PW + "/"):
            n = ".".join(req.path[len(PW) + 1 :].split("/")[:2])
        m = re.fullmatch(r"([A-Za-z]+)[./]([A-Za-z]+)", n)
        if not m:
            return not_found()
        by = {
            x.lower(): x
            for x in [*self.names, "Main.HomePage", *[f"Field.{x}" for x in self.field]]
        }
        real = by.get(f"{m.group(1)}.{m.group(2)}".lower())
        act = q.get("action", "browse")
        if (real and (req.host_index == 0) != real.startswith("Field.")) or (real or "").startswith(
            "PmWiki."
        ):
            if act in ("diff",):
                return trap(self.diff(real, req.key))
            if act in ("browse", "print"):
                host = 0 if real.startswith("PmWiki.") else req.host_index
                got = self.copy(req, host, PW if real.endswith(".HomePage") else f"{PW}?n={real}")
                return got or not_found()
            if act == "attr":
                return trap(self.page(real, req.key, req.host_index))
            return not_found()
        if real:
            return not_found()
        g, nm = m.group(1).capitalize(), m.group(2)
        made = [x.replace(" ", "") for x in self.made(f"{g}{nm}".lower(), 2)]
        links = self.fam(f"{g}.{nm}", False) if act == "browse" else []
        links += [
            (f"{PW}?n={g}.{made[0]}", made[0]),
            (f"{PW}/{made[1][:3]}Group/{made[1]}", made[1]),
        ]
        links += [(f"{PW}?n={made[1][:4]}.{made[0]}", made[0])]
        return self.rich(req, f"{g}.{nm} does not exist", links)


# ----------------------------------------------------------------------------------------
# A FluxBB forum. Forums `viewforum.php?id=&p=`, topics `viewtopic.php?id=&p=` ("next" on
# and on), post permalinks `viewtopic.php?pid=<n>` (the topic page again), profiles. The
# "show recent / unanswered / user's posts" searches redirect to
# `search.php?search_id=<10 digits>`, minted per visit; each result page links more of
# them. "Login" carries `redirect_url=<this URL>`, and the login page's "Forgotten your
# password?" carries its own URL in turn. Real pages in the family: forum 1's `&p=2` and
# two long topics' `&p=2`. robots.txt: /post.php, /edit.php, /misc.php, /register.php.
# ----------------------------------------------------------------------------------------


class Fluxbb(B16):
    """FluxBB: search_id per visit (redirect), p= without end, pid copies, redirect_url."""

    name = "fluxbb"
    kind = "FluxBB forum: search_id minted by redirect, p= pages, pid copies, redirect_url"
    theme = "forum"
    brand = "Tidemill makers forum"
    robots_disallow: ClassVar[list[str]] = ["/post.php", "/edit.php", "/misc.php", "/register.php"]

    def make(self) -> None:
        self.fn = self.made("forum", 3)
        self.tn = self.made("topic", 12)
        self.un = self.made("user", 4)
        self.add("home", "/", lambda r: self.home())
        for f in range(3):
            self.add(
                f"f{f}", f"/viewforum.php?id={f + 1}", lambda r, f=f: self.forum(f, 1, f"f{f}")
            )
        self.add("f0p2", "/viewforum.php?id=1&p=2", lambda r: self.forum(0, 2, "f0p2"))
        for t in range(12):
            self.add(
                f"t{t}",
                f"/viewtopic.php?id={20 + t}",
                lambda r, t=t: self.topic(t, 1, f"t{t}", f"/viewtopic.php?id={20 + t}"),
            )
        for t in (0, 4):
            u = f"/viewtopic.php?id={20 + t}&p=2"
            self.add(f"t{t}p2", u, lambda r, t=t, u=u: self.topic(t, 2, f"t{t}p2", u))
        for u in range(4):
            self.add(f"u{u}", f"/profile.php?id={u + 2}", lambda r, u=u: self.profile(u))
        self.add(
            "ul",
            "/userlist.php",
            lambda r: self.thin(
                "User list", "ul", [(f"/profile.php?id={u + 2}", self.un[u]) for u in range(4)]
            ),
        )
        self.add(
            "search",
            "/search.php",
            lambda r: self.thin(
                "Search", "se", [("/search.php?action=show_recent", "Recent posts")]
            ),
        )
        self.add("help", "/help.php", lambda r: self.thin("Help", "he", [("/", "Index")]))

    def home(self) -> str:
        links = [(f"/viewforum.php?id={f + 1}", self.fn[f]) for f in range(3)]
        links += [("/userlist.php", "User list"), ("/search.php", "Search"), ("/help.php", "Help")]
        links += [
            ("/search.php?action=show_recent", "Recent posts"),
            ("/search.php?action=show_unanswered", "Unanswered"),
        ]
        links += [("/register.php", "Register"), ("/login.php?redirect_url=%2F", "Login")]
        return self.html("Tidemill makers forum", "home", ul(links), 20, 60)

    def forum(self, f: int, p: int, key: str) -> str:
        mine = [t for t in range(12) if t % 3 == f]
        ks = (
            mine[:3]
            if p == 1 and f == 0
            else mine[3:]
            if f == 0 and p == 2
            else mine
            if p == 1
            else []
        )
        links = [(f"/viewtopic.php?id={20 + t}", self.tn[t]) for t in ks]
        links.append((f"/viewforum.php?id={f + 1}&p={p + 1}", "Next"))
        links.append((f"/post.php?fid={f + 1}", "Post new topic"))
        return self.html(f"{self.fn[f]}, page {p}", key, ul(links), 15, 40)

    def topic(self, t: int, p: int, key: str, here: str) -> str:
        links = [(f"/viewforum.php?id={t % 3 + 1}", self.fn[t % 3])]
        for j in range(3):
            pid = 500 + 10 * t + 3 * p + j
            links.append((f"/viewtopic.php?pid={pid}#p{pid}", f"#{pid}"))
            links.append((f"/profile.php?id={(t + j) % 4 + 2}", self.un[(t + j) % 4]))
        links.append((f"/viewtopic.php?id={20 + t}&p={p + 1}", "Next"))
        links.append((f"/login.php?redirect_url={quote(here, safe='')}", "Login"))
        links.append((f"/post.php?tid={20 + t}", "Post reply"))
        return self.html(
            f"{self.tn[t]}" + (f" (page {p})" if p > 1 else ""), key, ul(links), 50, 140
        )

    def profile(self, u: int) -> str:
        links = [(f"/search.php?action=show_user_posts&user_id={u + 2}", "Show all posts")]
        return self.html(f"Profile: {self.un[u]}", f"u{u}", ul(links), 20, 50)

    def rest(self, req: Req) -> Reply:
        p, q = req.path, qs(req.query)
        if p in ("/viewtopic.php",) and q.get("pid", "").isdigit():
            pid = int(q["pid"])
            t, pg = ((pid - 500) // 10) % 12, max(1, (pid - 500) % 10 // 3)
            tgt = f"/viewtopic.php?id={20 + t}" + ("&p=2" if pg == 2 and t in (0, 4) else "")
            return self.copy(req, 0, tgt) or not_found()
        if p == "/viewtopic.php" and q.get("id", "").isdigit() and 0 <= int(q["id"]) - 20 < 12:
            return trap(self.topic(int(q["id"]) - 20, max(1, num(q, "p", 1)), req.key, req.target))
        if p == "/viewforum.php" and q.get("id") in ("1", "2", "3"):
            return trap(self.forum(int(q["id"]) - 1, max(1, num(q, "p", 1)), req.key))
        if p == "/search.php" and "action" in q:
            return redirect(f"/search.php?search_id={self.fresh(10, '0123456789')}")
        if p == "/search.php" and q.get("search_id", "").isdigit():
            sid, pg = q["search_id"], max(1, num(q, "p", 1))
            links = [
                (f"/viewtopic.php?pid={500 + h(sid + str(j), 120)}#p1", f"Post {j}")
                for j in range(4)
            ]
            links.append((f"/search.php?search_id={sid}&p={pg + 1}", "Next"))
            links.append(
                (f"/search.php?action=show_user_posts&user_id={h(sid, 4) + 2}", "More by this user")
            )
            return self.rich(req, f"Search results {sid}, page {pg}", links)
        if p == "/login.php" and "redirect_url" in q:
            links = [
                (q["redirect_url"], "Back"),
                (
                    f"/login.php?action=forget&redirect_url={quote(req.target, safe='')}",
                    "Forgotten your password?",
                ),
            ]
            return self.rich(req, "Login", links)
        return not_found()
