"""blind17 sites, part a: a Koji build system web UI, Launchpad with its bugs host, a
Debian-style debbugs tracker, and the control."""

from __future__ import annotations

from typing import ClassVar

from .common import (
    B17,
    Reply,
    Req,
    binary,
    h,
    moved,
    not_found,
    num,
    pq,
    qjoin,
    qpairs,
    qs,
    title_of,
    ul,
    unquote,
)

# ----------------------------------------------------------------------------------------
# A Koji build system web UI (/koji/...). Real: the summary, the packages and builds
# tables and their second pages (`?start=50`), eight packages, eight builds, six tasks,
# three users, three tags, two build hosts. Every table links its column sorts
# (`order=<col>` / `order=-<col>`), state/type filters and "next" `start=` steps, each
# clicked key moved to the end of the query (keys in click order); `start=100` onwards
# lists made-up builds. Records link records: builds -> tasks -> child tasks (ids ever
# larger) -> rpms -> files -> builds, made-up where the id is not a real one, each with a
# `getfile?...&offset=` log counter. Thin legit pages, rich made-up pages.
# robots.txt: login/logout, watchlogs, the hub API, the file tree.
# ----------------------------------------------------------------------------------------

_KCOLS = ("name", "build_id", "completion_time", "state", "owner_name")


class Koji(B17):
    """Koji web UI: order=/start=/state= tables in click order, task/rpm record graph."""

    name = "koji"
    kind = "Koji build system web UI: sort/filter tables in click order, start=, task graph"
    theme = "docs"
    brand = "Tidemill Koji"
    robots_disallow: ClassVar[list[str]] = [
        "/koji/login",
        "/koji/logout",
        "/koji/watchlogs",
        "/kojihub",
        "/kojifiles/",
    ]

    def make(self) -> None:
        self.pk = self.made("pk", 8)
        self.pid = [301 + 7 * k for k in range(8)]
        self.bid = [2401000 + 37 * k for k in range(8)]
        self.nvr = [f"{p}-{1 + k % 3}.{k}.{2 + k}-1.tm42" for k, p in enumerate(self.pk)]
        self.tid = [98765000 + 11 * k for k in range(6)]
        self.users = self.made("us", 3, 1)
        self.uid = [12 + 5 * k for k in range(3)]
        self.tags = ["tm42", "tm42-build", "tm42-updates-candidate"]
        self.hosts_ = ["buildvm-a01.tidemill.lan", "buildvm-a02.tidemill.lan"]
        nav = [("/koji/", "Summary"), ("/koji/packages", "Packages"), ("/koji/builds", "Builds")]
        nav += [("/koji/tasks", "Tasks"), ("/koji/tags", "Tags"), ("/koji/hosts", "Hosts")]
        nav += [("/koji/login", "login")]
        self.navl = nav
        self.add("root", "/", lambda r: self.thin("Tidemill build service", "root", nav))
        self.add("sum", "/koji/", lambda r: self.summary())
        self.add("pk1", "/koji/packages", lambda r: self.table("packages", 0))
        self.add("pk2", "/koji/packages?start=50", lambda r: self.table("packages", 50))
        self.add("bl1", "/koji/builds", lambda r: self.table("builds", 0))
        self.add("bl2", "/koji/builds?start=50", lambda r: self.table("builds", 50))
        self.add("tg", "/koji/tags", lambda r: self.thin("Tags", "tg", self.taglinks()))
        hl = [(f"/koji/hostinfo?hostID={k + 1}", n) for k, n in enumerate(self.hosts_)]
        self.add("hs", "/koji/hosts", lambda r: self.thin("Hosts", "hs", hl))
        for k in range(8):
            self.add(
                f"p{k}", f"/koji/packageinfo?packageID={self.pid[k]}", lambda r, k=k: self.pkg(k)
            )
            self.add(
                f"b{k}", f"/koji/buildinfo?buildID={self.bid[k]}", lambda r, k=k: self.binfo(k)
            )
        for k in range(6):
            self.add(f"t{k}", f"/koji/taskinfo?taskID={self.tid[k]}", lambda r, k=k: self.task(k))
        for k in range(3):
            self.add(f"u{k}", f"/koji/userinfo?userID={self.uid[k]}", lambda r, k=k: self.user(k))
            self.add(f"g{k}", f"/koji/taginfo?tagID={k + 1}", lambda r, k=k: self.tag(k))
        for k in range(2):
            self.add(
                f"h{k}",
                f"/koji/hostinfo?hostID={k + 1}",
                lambda r, k=k: self.thin(self.hosts_[k], f"h{k}", self.navl[:3]),
            )

    def taglinks(self) -> list[tuple[str, str]]:
        return [(f"/koji/taginfo?tagID={k + 1}", t) for k, t in enumerate(self.tags)]

    def summary(self) -> str:
        links = list(self.navl)
        links += [
            (f"/koji/buildinfo?buildID={b}", n) for b, n in zip(self.bid, self.nvr, strict=True)
        ]
        links += [
            (f"/koji/taskinfo?taskID={t}", f"build ({self.nvr[k]})") for k, t in enumerate(self.tid)
        ]
        links += [
            (f"/koji/userinfo?userID={u}", n) for u, n in zip(self.uid, self.users, strict=True)
        ]
        return self.html("Koji summary", "sum", ul(links), 30, 80)

    def sorts(self, path: str, pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
        out = []
        for c in _KCOLS:
            cur = dict(pairs).get("order", "")
            out.append((qjoin(path, moved(pairs, "order", c if cur != c else "-" + c)), c))
        for s in ("0", "1", "2", "3", "4"):
            out.append((qjoin(path, moved(pairs, "state", s)), f"state {s}"))
        return out

    def table(self, what: str, start: int) -> str:
        path = f"/koji/{what}"
        pairs = [("start", str(start))] if start else []
        idx = range(0, 5) if start == 0 else range(5, 8)
        if what == "packages":
            links = [(f"/koji/packageinfo?packageID={self.pid[k]}", self.pk[k]) for k in idx]
        else:
            links = [(f"/koji/buildinfo?buildID={self.bid[k]}", self.nvr[k]) for k in idx]
        links += self.sorts(path, pairs)
        links.append((qjoin(path, moved(pairs, "start", str(start + 50))), "next >>>"))
        return self.html(
            f"{what.title()} {start + 1}-{start + 50}", f"tb{what}{start}", ul(links), 10, 30
        )

    def pkg(self, k: int) -> str:
        links = [(f"/koji/buildinfo?buildID={self.bid[j]}", self.nvr[j]) for j in (k, (k + 3) % 8)]
        links += self.taglinks()[:2]
        links.append(
            (f"/koji/packageinfo?packageID={self.pid[k]}&buildOrder=-completion_time", "sort")
        )
        return self.thin(self.pk[k], f"pk{k}", links)

    def binfo(self, k: int) -> str:
        links = [(f"/koji/packageinfo?packageID={self.pid[k]}", self.pk[k])]
        if k < 6:
            links.append((f"/koji/taskinfo?taskID={self.tid[k]}", "task"))
        links.append((f"/koji/userinfo?userID={self.uid[k % 3]}", self.users[k % 3]))
        links += [(f"/koji/rpminfo?rpmID={self.bid[k] * 3 + j}", f"rpm {j}") for j in range(2)]
        links.append((f"/kojifiles/packages/{self.pk[k]}/", "download"))
        return self.thin(self.nvr[k], f"bd{k}", links)

    def task(self, k: int) -> str:
        links = [(f"/koji/buildinfo?buildID={self.bid[k]}", self.nvr[k])]
        links.append((f"/koji/hostinfo?hostID={k % 2 + 1}", self.hosts_[k % 2]))
        links += [(f"/koji/taskinfo?taskID={self.tid[k] + j}", f"buildArch {j}") for j in (1, 2)]
        links.append((f"/koji/getfile?taskID={self.tid[k] + 1}&name=build.log&offset=0", "log"))
        return self.thin(f"Task {self.tid[k]}", f"tk{k}", links)

    def user(self, k: int) -> str:
        links = [(f"/koji/builds?userID={self.uid[k]}", "builds")]
        links.append((f"/koji/tasks?owner={self.users[k]}", "tasks"))
        return self.thin(self.users[k], f"us{k}", links + self.navl[:2])

    def tag(self, k: int) -> str:
        links = [(f"/koji/buildinfo?buildID={self.bid[j]}", self.nvr[j]) for j in range(k, 8, 3)]
        links.append((f"/koji/taginfo?tagID={k + 1}&all=1", "show inherited"))
        return self.thin(self.tags[k], f"tg{k}", links)

    def records(self, seed: int, n: int = 6) -> list[tuple[str, str]]:
        """Links to made-up records of several kinds, ids from `seed`."""
        rng = self.rr(str(seed))
        names = self.made(f"rc{seed}", n)
        shapes = ("buildinfo?buildID", "taskinfo?taskID", "rpminfo?rpmID", "packageinfo?packageID")
        out = []
        for j, nm in enumerate(names):
            shape = shapes[(seed + j) % len(shapes)]
            out.append((f"/koji/{shape}={rng.randrange(10**6, 10**8)}", nm))
        return out

    def rest(self, req: Req) -> Reply:
        p, q, pairs = req.path, qs(req.query), qpairs(req.query)
        if p in ("/koji/packages", "/koji/builds", "/koji/tasks"):
            start = num(q, "start", 0)
            links = [*self.navl, *self.records(h(req.target), 8), *self.sorts(p, pairs)]
            links.append((qjoin(p, moved(pairs, "start", str(start + 50))), "next >>>"))
            if start >= 50:
                links.append((qjoin(p, moved(pairs, "start", str(start - 50))), "<<< previous"))
            return self.tr(req, f"{p[6:].title()} from {start}", links)
        if p.startswith("/koji/") and p[6:] in ("buildinfo", "taskinfo", "rpminfo", "packageinfo"):
            rid = max(1, num(q, p[6:].replace("info", "ID").replace("rpmID", "rpmID"), 0))
            for key in ("buildID", "taskID", "rpmID", "packageID"):
                rid = num(q, key, rid)
            name = self.made(f"n{rid}", 1, 3)[0]
            links = [*self.navl[:3], *self.records(rid)]
            links.append((f"/koji/taskinfo?taskID={rid * 10 + 1}", "child task"))
            links.append((f"/koji/fileinfo?rpmID={rid}&filename=/usr/bin/{name}", "file"))
            links.append((f"/koji/getfile?taskID={rid}&name=build.log&offset=0", "log"))
            return self.tr(req, f"{p[6:]} {rid}: {name}", links)
        if p in (
            "/koji/fileinfo",
            "/koji/getfile",
            "/koji/userinfo",
            "/koji/hostinfo",
            "/koji/taginfo",
        ):
            seed = h(req.target)
            links = [*self.navl[:3], *self.records(seed, 5)]
            if p == "/koji/getfile":
                nxt = moved(pairs, "offset", str(num(q, "offset", 0) + 65536))
                links.append((qjoin(p, nxt), "more"))
            return self.tr(req, f"{p[6:]} {unquote(req.query)[:60]}", links)
        if p == "/koji/rpmlist":
            return binary("rpmlist.txt")
        return not_found()


# ----------------------------------------------------------------------------------------
# Launchpad, with its bugs host (2 hosts). Main host: the project, its series, two
# milestones, announcements, downloads, three people. Bugs host: the bug listing (batches
# of 8, `?memo=8&start=8` real, later batches made-up bugs), twelve bugs, two tag pages.
# The bugs host answers the project's own pages again (copies); the main host answers
# `/+bugs` and `/+bug/N` again (copies). Tag links add the tag to `field.tag=` (a list
# growing per click), status/importance/orderby facets in click order, made-up bugs
# linking made-up people `/~name` and their `+reportedbugs` (another path shape),
# comments `/+bug/N/comments/K` without end, `+subscribe?next=<the current URL>` nesting.
# robots.txt: +login, +editstatus, +filebug, +api.
# ----------------------------------------------------------------------------------------

_LP_STAT = ("New", "Confirmed", "Triaged", "In Progress", "Fix Released")
_LP_IMP = ("Critical", "High", "Medium", "Low", "Wishlist")


class Launchpad(B17):
    """Launchpad: 2 hosts with copies, memo/start batches, field.tag lists, next= nesting."""

    name = "launchpad"
    kind = "Launchpad + bugs host: copies across hosts, batches, tag lists, next= nesting"
    theme = "forum"
    brand = "Launchpad"
    hosts = 2
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/"), (1, "/tidemill/+bugs")]
    robots_disallow: ClassVar[list[str]] = ["/+login", "/+api", "/+filebug"]

    def make(self) -> None:
        self.people = self.made("pp", 3, 1)
        self.bugs = [2081000 + 131 * k for k in range(12)]
        self.btitles = [title_of(s) for s in self.made("bt", 12, 4)]
        self.tags = ["crash", "ui"]
        nav = [("/tidemill", "Overview"), ("/tidemill/trunk", "trunk series")]
        nav += [("/tidemill/+milestone/1.0", "1.0"), ("/tidemill/+milestone/1.1", "1.1")]
        nav += [("/tidemill/+announcements", "Announcements"), ("/tidemill/+download", "Downloads")]
        self.nav0 = nav
        home = [*nav, *[(f"/~{p}", p) for p in self.people], ("/+login", "Log in")]
        self.add("home", "/", lambda r: self.html("Launchpad", "home", ul(home), 20, 50))
        self.add("proj", "/tidemill", lambda r: self.project())
        for k, (t, lbl) in enumerate(nav[1:]):
            self.add(
                f"n{k}", t, lambda r, t=t, lbl=lbl: self.thin(lbl, t, self.nav0 + self.bl([0, 1]))
            )
        for k, p in enumerate(self.people):
            self.add(f"u{p}", f"/~{p}", lambda r, k=k: self.person(k))
        self.add("bugs", "/tidemill/+bugs", lambda r: self.listing(0), 1)
        self.add("bugs2", "/tidemill/+bugs?memo=8&start=8", lambda r: self.listing(8), 1)
        for t in self.tags:
            self.add(f"tag{t}", f"/tidemill/+bugs?field.tag={t}", lambda r, t=t: self.tagged(t), 1)
        for k in range(12):
            self.add(f"b{k}", f"/tidemill/+bug/{self.bugs[k]}", lambda r, k=k: self.bug(k), 1)

    def bl(self, idx: list[int]) -> list[tuple[str, str]]:
        return [
            (self.url(1, f"/tidemill/+bug/{self.bugs[k]}"), f"Bug #{self.bugs[k]}") for k in idx
        ]

    def project(self) -> str:
        links = [*self.nav0, (self.url(1, "/tidemill/+bugs"), "Bugs"), *self.bl([2, 3])]
        links += [
            (self.url(1, "/tidemill"), "Bugs overview"),
            (f"/~{self.people[0]}", "maintainer"),
        ]
        return self.html("Tidemill in Launchpad", "proj", ul(links), 40, 90)

    def person(self, k: int) -> str:
        links = [(f"/~{self.people[k]}/+reportedbugs", "Reported bugs"), ("/tidemill", "Tidemill")]
        return self.thin(self.people[k], f"pp{k}", links + self.bl([k + 4]))

    def facets(self, pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
        p = "/tidemill/+bugs"
        out = [(qjoin(p, moved(pairs, "field.status", s)), s) for s in _LP_STAT]
        out += [(qjoin(p, moved(pairs, "field.importance", s)), s) for s in _LP_IMP[:3]]
        out += [(qjoin(p, moved(pairs, "orderby", o)), o) for o in ("-importance", "-id", "status")]
        return out

    def listing(self, start: int) -> str:
        pairs = [("memo", str(start)), ("start", str(start))] if start else []
        idx = range(start, min(start + 8, 12))
        links = self.bl(list(idx)) + self.facets(pairs)
        nxt = start + 8
        links.append((f"/tidemill/+bugs?memo={nxt}&start={nxt}", "Next"))
        links += [(f"/tidemill/+bugs?field.tag={t}", t) for t in self.tags]
        links.append((self.url(0, "/tidemill"), "Tidemill"))
        return self.html(f"Bugs {start + 1}-{start + 8}", f"ls{start}", ul(links), 10, 30)

    def tagged(self, t: str) -> str:
        idx = [k for k in range(12) if k % 2 == self.tags.index(t)]
        links = self.bl(idx[:4])
        links += [
            (f"/tidemill/+bugs?field.tag={t}+{o}", f"+{o}") for o in ("regression", "needs-design")
        ]
        return self.thin(f"Bugs tagged {t}", f"tag{t}", links)

    def bug(self, k: int) -> str:
        links = [(self.url(0, f"/~{self.people[k % 3]}"), self.people[k % 3])]
        links.append((f"/tidemill/+bugs?field.tag={self.tags[k % 2]}", self.tags[k % 2]))
        links.append((f"/tidemill/+bug/{self.bugs[k]}/comments/1", "comment 1"))
        nxt = pq(f"/tidemill/+bug/{self.bugs[k]}")
        links.append((f"/tidemill/+bug/{self.bugs[k]}/+subscribe?next={nxt}", "Subscribe"))
        links.append((f"/tidemill/+bug/{self.bugs[k]}/+editstatus", "edit"))
        return self.html(f"Bug #{self.bugs[k]}: {self.btitles[k]}", f"bug{k}", ul(links), 40, 90)

    def fake_bugs(self, seed: str, n: int = 5) -> list[tuple[str, str]]:
        rng = self.rr(seed)
        return [
            (f"/tidemill/+bug/{rng.randrange(2000000, 2200000)}", title_of(t))
            for t in self.made("fb" + seed, n, 3)
        ]

    def rest(self, req: Req) -> Reply:
        p, q, pairs = req.path, qs(req.query), qpairs(req.query)
        hi = req.host_index
        other = self.copy(req, 1 - hi)
        if other is not None:
            return other
        if p == "/tidemill/+bugs":
            links = self.fake_bugs(req.target, 6) + self.facets(pairs)
            start = num(q, "start", 0) + 8
            links.append(
                (qjoin(p, moved(moved(pairs, "memo", str(start)), "start", str(start))), "Next")
            )
            tags = unquote(q.get("field.tag", "").replace("+", " ")).split()
            for w in self.made("tg" + req.target, 3, 1):
                links.append((qjoin(p, moved(pairs, "field.tag", "+".join([*tags, w]))), w))
            return self.tr(req, f"Bugs: {' '.join(tags) or 'all'}", links)
        parts = p.split("/")
        if p.startswith("/tidemill/+bug/") and len(parts) >= 4:
            bid = parts[3]
            base = f"/tidemill/+bug/{bid}"
            who = self.made("who" + req.target, 2, 1)
            links = [(f"/~{w}", w) for w in who] + self.fake_bugs(req.target, 3)
            c = num({"c": parts[5]}, "c", 0) if len(parts) > 5 else 0
            links.append((f"{base}/comments/{c + 1}", f"comment {c + 1}"))
            here = pq(req.target)
            links.append((f"{base}/+subscribe?next={here}", "Subscribe"))
            return self.tr(
                req, f"Bug #{bid}: {title_of(self.made('t' + req.target, 1, 4)[0])}", links
            )
        if p.startswith("/~"):
            nm = p[2:].split("/")[0]
            links = [(f"/~{nm}/+reportedbugs?start={num(q, 'start', 0) + 10}", "more")]
            links += [(self.url(1, t), lbl) for t, lbl in self.fake_bugs(req.target, 4)]
            links += [(f"/~{w}", w) for w in self.made("fr" + req.target, 2, 1)]
            return self.tr(req, f"{nm} in Launchpad", links)
        return not_found()


# ----------------------------------------------------------------------------------------
# debbugs as on a Debian-style bug tracker: `/cgi-bin/pkgreport.cgi?pkg=<p>` for six
# packages (and `?src=` for two, `?maint=<email>` for two, one `;archive=yes` real), 16
# bugs `/cgi-bin/bugreport.cgi?bug=<n>` and three real `;msg=5` message pages, static help
# pages. Every report page links its options `;dist=`, `;archive=`, `;repeatmerged=`,
# `;ordering=`, `;bug-rev=`, `;pend-exc=` in click order (';'-separated keys); bug pages
# link `;msg=N` past the last message (made-up messages), `;mbox=yes` (downloads),
# "merged with" and "blocks" bugs, made-up bugs for any other number, which link
# made-up packages' reports. robots.txt: control, the SOAP interface, the mbox files.
# ----------------------------------------------------------------------------------------

_DBOPTS = {
    "dist": ("unstable", "testing", "stable"),
    "archive": ("both", "yes", "no"),
    "repeatmerged": ("no", "yes"),
    "ordering": ("normal", "raw", "age"),
    "bug-rev": ("yes",),
    "pend-exc": ("done", "fixed"),
}


class Debbugs(B17):
    """debbugs: ;-separated report options in click order, ;msg= counters, made-up bugs."""

    name = "debbugs"
    kind = "debbugs tracker: ;-options in click order, ;msg= past the end, made-up bugs"
    theme = "science"
    brand = "Tidemill bug tracking system"
    robots_disallow: ClassVar[list[str]] = ["/cgi-bin/soap.cgi", "/control", "/mbox/"]

    def make(self) -> None:
        self.pk = self.made("pk", 6, 1)
        self.src = self.pk[:2]
        self.maint = [f"{n}@tidemill.example" for n in self.made("mt", 2, 1)]
        self.bugs = [1071100 + 29 * k for k in range(16)]
        self.bt = [title_of(s) for s in self.made("bt", 16, 4)]
        nav = [("/", "Bugs"), ("/Reporting.html", "Reporting"), ("/Access.html", "Access")]
        nav += [("/Developer.html", "Developer")]
        self.nav = nav
        home = [*nav, *[(self.rep("pkg", p), p) for p in self.pk]]
        home += [(self.rep("maint", m), m) for m in self.maint]
        home += [(self.rep("src", s), f"source {s}") for s in self.src]
        self.add("home", "/", lambda r: self.html("Bug tracking system", "home", ul(home), 20, 60))
        for t in nav[1:]:
            self.add(t[0], t[0], lambda r, t=t: self.html(t[1], t[0], ul(self.nav), 60, 150))
        for k, p in enumerate(self.pk):
            self.add(f"p{p}", self.rep("pkg", p), lambda r, k=k: self.report("pkg", k))
        for k, s in enumerate(self.src):
            self.add(f"s{s}", self.rep("src", s), lambda r, k=k: self.report("src", k))
        for k, m in enumerate(self.maint):
            self.add(f"m{k}", self.rep("maint", m), lambda r, k=k: self.report("maint", k))
        self.add(
            "arch", self.rep("pkg", self.pk[0]) + ";archive=yes", lambda r: self.report("arch", 0)
        )
        for k in range(16):
            self.add(f"b{k}", self.bug_url(k), lambda r, k=k: self.bug(k))
        for k in (0, 5, 9):
            self.add(f"m5{k}", self.bug_url(k) + ";msg=5", lambda r, k=k: self.msg(k))

    def rep(self, key: str, v: str) -> str:
        return f"/cgi-bin/pkgreport.cgi?{key}={pq(v)}"

    def bug_url(self, k: int) -> str:
        return f"/cgi-bin/bugreport.cgi?bug={self.bugs[k]}"

    def opts(self, base: str, pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
        out = []
        for key, vals in _DBOPTS.items():
            for v in vals:
                np = moved(pairs, key, v)
                out.append((base + "?" + ";".join(f"{a}={b}" for a, b in np), f"{key}={v}"))
        return out

    def report(self, key: str, k: int) -> str:
        if key == "arch":
            idx, title, pairs = (
                [14, 15],
                f"Archived bugs in {self.pk[0]}",
                [("pkg", self.pk[0]), ("archive", "yes")],
            )
        else:
            v = {"pkg": self.pk, "src": self.src, "maint": self.maint}[key][k]
            idx = [
                j
                for j in range(14)
                if j % (6 if key == "pkg" else 2) == k % (6 if key == "pkg" else 2)
            ]
            title, pairs = f"Bugs in {v}", [(key, pq(v))]
        links = [(self.bug_url(j), f"#{self.bugs[j]}: {self.bt[j]}") for j in idx]
        links += self.opts("/cgi-bin/pkgreport.cgi", pairs)[:8]
        if key == "pkg" and k == 0:
            links.append((self.rep("pkg", self.pk[0]) + ";archive=yes", "archived bugs"))
        return self.html(title, f"r{key}{k}", ul(links), 10, 30)

    def bug(self, k: int) -> str:
        p = self.pk[k % 6]
        links = [(self.rep("pkg", p), p), (self.bug_url((k + 7) % 16), "merged with")]
        links += [(self.bug_url(k) + f";msg={m}", f"message {m}") for m in (5, 10)]
        links += [(self.bug_url(k) + ";mbox=yes", "mbox"), ("/control", "control")]
        return self.html(f"#{self.bugs[k]} - {self.bt[k]}", f"bug{k}", ul(links), 40, 100)

    def msg(self, k: int) -> str:
        links = [
            (self.bug_url(k), f"#{self.bugs[k]}"),
            (self.bug_url(k) + ";msg=10", "next message"),
        ]
        return self.thin(f"Message 5 to #{self.bugs[k]}", f"msg{k}", links)

    def rest(self, req: Req) -> Reply:
        p, pairs = req.path, qpairs(req.query)
        q = {k: unquote(v) for k, v in pairs}
        if p == "/cgi-bin/pkgreport.cgi":
            rng = self.rr(req.target)
            links = [
                (f"/cgi-bin/bugreport.cgi?bug={rng.randrange(900000, 1200000)}", t)
                for t in self.made(req.target, 6, 4)
            ]
            links += self.opts(p, pairs)
            links += [(self.rep("src", s), s) for s in self.made("sp" + req.target, 2, 1)]
            return self.tr(
                req, "Bug report: " + ", ".join(f"{a}={b}" for a, b in q.items())[:80], links
            )
        if p == "/cgi-bin/bugreport.cgi" and q.get("bug", "").isdigit():
            bug = int(q["bug"])
            if "mbox" in q or "att" in q:
                return binary(f"bug{bug}.mbox")
            m = num(q, "msg", 0)
            base = f"/cgi-bin/bugreport.cgi?bug={bug}"
            rng = self.rr(req.target)
            links = [
                (f"{base};msg={m + 5}", "next message"),
                (f"{base};att=1;msg={m + 2}", "attachment"),
            ]
            links += [
                (f"/cgi-bin/bugreport.cgi?bug={rng.randrange(900000, 1200000)}", "merged with")
                for _ in range(3)
            ]
            links += [(self.rep("pkg", w), w) for w in self.made("bp" + req.target, 2, 1)]
            return self.tr(req, f"#{bug} message {m}", links)
        return not_found()


# ----------------------------------------------------------------------------------------
# The control: a small static site (a local choir), no traps.
# ----------------------------------------------------------------------------------------


class Control(B17):
    """No traps: home, about, four sections of six pages, one disallowed link."""

    name = "control"
    kind = "no traps (static site)"
    theme = "events"
    brand = "Harbour Street Choir"
    robots_disallow: ClassVar[list[str]] = ["/members/"]

    def make(self) -> None:
        secs = ("concerts", "repertoire", "news", "join")
        self.secs = {s: self.made(s, 6) for s in secs}
        nav = [(f"/{s}/", title_of(s)) for s in secs]
        nav += [("/about/", "About"), ("/members/", "Members")]
        self.add("home", "/", lambda r: self.html("Harbour Street Choir", "home", ul(nav)))
        self.add("about", "/about/", lambda r: self.html("About us", "about", ul([("/", "Home")])))
        for s, ps in self.secs.items():
            idx = [(f"/{s}/{p}/", title_of(p)) for p in ps]
            self.add(f"s{s}", f"/{s}/", lambda r, s=s, x=idx: self.html(title_of(s), s, ul(x)))
            for p in ps:
                back = [(f"/{s}/", title_of(s)), ("/", "Home")]
                self.add(
                    f"p{s}{p}",
                    f"/{s}/{p}/",
                    lambda r, s=s, p=p, b=back: self.html(title_of(p), f"p{s}{p}", ul(b)),
                )
