"""Blind4 sites, part C: MapServer, AMP twins, Askbot, Koha, and a control."""

from __future__ import annotations

from typing import ClassVar
from urllib.parse import quote_plus

from traps.blind.kit import THEMES, Reply, Req, Site, a, doc, not_found, slugs, title_of, words_for
from traps.blind2.common import Link, bar, esc, prose, qlist, qs, trap, ul

# ----------------------------------------------------------------------------------------
# MapServer CGI in browse mode (the classic HTML-template interface): every map view links
# pan (N/S/E/W) and zoom in/out views, each a new `mapext=` extent, with layer toggles
# (`layers=`); each view's "identify" grid links `mode=nquery&mapxy=` click points.
# Legit look-alikes: the gazetteer of places and each place's query page
# (`mode=query&qlayer=towns&shapeindex=N`), the layer pages and the default county view.
# ----------------------------------------------------------------------------------------

_MS = "/cgi-bin/mapserv"
_MAP = "/srv/maps/county.map"
_LAYERS = ["roads", "towns", "hydro", "parcels"]
_HOME = (400000, 5100000, 480000, 5160000)


class MapServer(Site):
    """MapServer CGI browse templates: pan/zoom extents without end, layer toggles."""

    name = "mapserver"
    kind = "MapServer CGI: pan/zoom links mint new mapext= extents forever, layers=, mapxy="
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/maps/")]
    robots_disallow: ClassVar[list[str]] = [f"{_MS}?map={_MAP}&mode=map", "/tmp/ms_tmp/"]

    def build(self) -> None:
        self.vocab = words_for("travel")
        self.towns = slugs(self.key("towns"), 28, THEMES["travel"] + THEMES["gov"], 2)
        rng = self.rng("xy")
        self.xy = [(rng.randint(402000, 478000), rng.randint(5102000, 5158000)) for _ in self.towns]
        self.order = sorted(range(len(self.towns)), key=lambda i: self.towns[i])
        self.legit = {"home", "gaz:1", "gaz:2", "view"} | {f"layer:{x}" for x in _LAYERS}
        self.legit |= {f"town:{i}" for i in range(len(self.towns))}

    def browse(self, ext: tuple[int, ...], layers: list[str]) -> str:
        e = "+".join(str(v) for v in ext)
        return f"{_MS}?map={_MAP}&mode=browse&layers={'+'.join(layers)}&mapext={e}"

    def town_url(self, i: int) -> str:
        return f"{_MS}?map={_MAP}&mode=query&qlayer=towns&shapeindex={i}"

    def shell(self, title: str, main: str) -> str:
        nav = bar(
            [
                ("/maps/", "County maps"),
                ("/maps/towns.html", "Gazetteer"),
                (self.browse(_HOME, ["roads", "towns"]), "Map"),
            ]
        )
        body = f"<header>{nav}</header><main><h1>{esc(title)}</h1>{main}</main>"
        body += "<footer>MapServer 7.6</footer>"
        return doc(f"{title} - County GIS", body)

    def view(self, ext: tuple[int, ...], layers: list[str]) -> str:
        x0, y0, x1, y1 = ext
        w, h = x1 - x0, y1 - y0
        moves = {
            "North": (x0, y0 + h // 2, x1, y1 + h // 2),
            "South": (x0, y0 - h // 2, x1, y1 - h // 2),
            "East": (x0 + w // 2, y0, x1 + w // 2, y1),
            "West": (x0 - w // 2, y0, x1 - w // 2, y1),
            "Zoom out": (x0 - w // 2, y0 - h // 2, x1 + w // 2, y1 + h // 2),
        }
        if w >= 8:
            moves["Zoom in"] = (x0 + w // 4, y0 + h // 4, x1 - w // 4, y1 - h // 4)
        nav = [(self.browse(v, layers), k) for k, v in moves.items()]
        toggles = [
            (
                self.browse(ext, [x for x in _LAYERS if (x in layers) != (x == t)] or ["roads"]),
                f"toggle {t}",
            )
            for t in _LAYERS
        ]
        picks = [
            (
                f"{_MS}?map={_MAP}&mode=nquery&mapxy={x0 + w * i // 4}+{y0 + h * j // 4}"
                f"&layers={'+'.join(layers)}",
                f"identify {i},{j}",
            )
            for i in (1, 3)
            for j in (1, 3)
        ]
        img = (
            f"{_MS}?map={_MAP}&mode=map&layers={'+'.join(layers)}&mapext={'+'.join(map(str, ext))}"
        )
        inside = [i for i, (x, y) in enumerate(self.xy) if x0 <= x <= x1 and y0 <= y <= y1]
        return (
            f'<img src="/tmp/ms_tmp/{sum(ext) % 10**8}.png" alt=map>'
            f"<p>{bar(nav)}</p><p>{bar(toggles)}</p>"
            f"<p>{bar(picks)}</p><p>{a(img, 'Download map image')}</p>"
            f"<p>Extent {x0} {y0} {x1} {y1}; {len(inside)} towns in view.</p>"
        )

    def handle(self, req: Req) -> Reply:
        p, q = req.path, qs(req.query)
        if p == "/maps/":
            main = prose(self, "home", self.vocab) + ul(
                [(f"/maps/layers/{x}.html", x) for x in _LAYERS]
            )
            main += ul(
                [
                    ("/maps/towns.html", "Gazetteer"),
                    (self.browse(_HOME, ["roads", "towns"]), "County map"),
                ]
            )
            return (
                trap(self.shell("County maps", main))
                if req.query
                else self.legit_page("home", self.shell("County maps", main))
            )
        if p in ("/maps/towns.html", "/maps/towns-n-z.html"):
            half = self.order[:14] if p == "/maps/towns.html" else self.order[14:]
            main = prose(self, f"gaz:{p}", self.vocab, 20, 50) + ul(
                [(self.town_url(i), title_of(self.towns[i])) for i in half]
            )
            main += ul([("/maps/towns.html", "A-M"), ("/maps/towns-n-z.html", "N-Z")])
            pid = "gaz:1" if p == "/maps/towns.html" else "gaz:2"
            body = self.shell("Gazetteer", main)
            return trap(body) if req.query else self.legit_page(pid, body)
        if p.startswith("/maps/layers/") and p[13:-5] in _LAYERS and p.endswith(".html"):
            body = self.shell(p[13:-5], prose(self, f"layer:{p}", self.vocab))
            return trap(body) if req.query else self.legit_page(f"layer:{p[13:-5]}", body)
        if p != _MS or q.get("map") != _MAP:
            return not_found()
        mode = q.get("mode", "browse")
        if (
            mode == "query"
            and q.get("shapeindex", "").isdigit()
            and int(q["shapeindex"]) < len(self.towns)
        ):
            i = int(q["shapeindex"])
            x, y = self.xy[i]
            main = f"<p>Location {x} {y}</p>" + prose(self, f"town:{i}", self.vocab)
            around = self.browse((x - 4000, y - 3000, x + 4000, y + 3000), ["roads", "towns"])
            main += f"<p>{a(around, 'Show on map')}</p>"
            body = self.shell(title_of(self.towns[i]), main)
            ok = req.target == self.town_url(i)
            return self.legit_page(f"town:{i}", body) if ok else trap(body)
        layers = [x for x in q.get("layers", "").split(" ") if x in _LAYERS] or ["roads"]
        if mode == "nquery":
            try:
                mx, my = (int(v) for v in q.get("mapxy", "").split(" "))
            except ValueError:
                return not_found()
            near = min(
                range(len(self.towns)),
                key=lambda k: abs(self.xy[k][0] - mx) + abs(self.xy[k][1] - my),
            )
            main = f"<p>Nearest feature to {mx} {my}:</p>" + prose(self, f"town:{near}", self.vocab)
            return trap(self.shell(title_of(self.towns[near]), main))
        if mode != "browse":
            return not_found()
        try:
            ext = tuple(int(v) for v in q.get("mapext", " ".join(map(str, _HOME))).split(" "))
        except ValueError:
            return not_found()
        if len(ext) != 4 or ext[2] <= ext[0] or ext[3] <= ext[1]:
            return not_found("msWMSLoadGetMapParams(): invalid extent")
        body = self.shell(
            "County map",
            self.view(ext, layers)
            + (prose(self, "view", self.vocab, 30, 60) if ext == _HOME else ""),
        )
        if req.target == self.browse(_HOME, ["roads", "towns"]):
            return self.legit_page("view", body)
        return trap(body)


# ----------------------------------------------------------------------------------------
# AMP twins (the WordPress AMP plugin in "reader" mode): every post and archive has an AMP
# twin at `<url>amp/` (linked by `rel=amphtml` and a visible link); the reader template
# links other posts as `?amp=1` and its comments button is the relative `amp/`, so an AMP
# page at `/post/amp/` links `/post/amp/amp/`, which the endpoint also serves, and so on.
# Legit look-alikes: the posts, sections and their real `/page/2/` archives.
# ----------------------------------------------------------------------------------------


class AmpTwins(Site):
    """A news site with AMP twins: /amp/ endpoints nesting, ?amp=1 links."""

    name = "amp"
    kind = "AMP plugin: /amp/ twins of every page, relative amp/ nesting, ?amp=1 links"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/wp-admin/", "/wp-login.php"]
    per_page = 6

    def build(self) -> None:
        self.vocab = words_for("news")
        self.secs = slugs(self.key("secs"), 4, THEMES["news"], 1)
        self.posts = slugs(self.key("posts"), 28, self.vocab, 3)
        self.sec_of = {p: self.secs[i % 4] for i, p in enumerate(self.posts)}
        for p in self.posts[:6]:
            self.sec_of[p] = self.secs[0]
        self.date = {p: f"2026/{1 + i % 11:02d}" for i, p in enumerate(self.posts)}
        self.legit = {"home", "about"} | {f"post:{p}" for p in self.posts}
        for s in self.secs:
            n = len(self.in_sec(s))
            self.legit |= {f"sec:{s}:{k}" for k in range(1, (n - 1) // self.per_page + 2)}

    def in_sec(self, s: str) -> list[str]:
        return [p for p in self.posts if self.sec_of[p] == s]

    def purl(self, p: str) -> str:
        return f"/{self.date[p]}/{p}/"

    def page(self, title: str, main: str, path: str, amp: bool) -> str:
        if amp:
            body = (
                f"<header class=amp-wp-header>{a('/', 'The Harbour Herald')}</header>"
                f"<article class=amp-wp-article><h1>{esc(title)}</h1>{main}"
                f"<p>{a('amp/', 'Leave a comment')} {a(path, 'Exit mobile version')}</p></article>"
            )
            return doc(
                title, body, head="<script async src=https://cdn.ampproject.org/v0.js></script>"
            )
        nav = bar(
            [("/", "Home")]
            + [(f"/section/{s}/", title_of(s)) for s in self.secs]
            + [("/about/", "About")]
        )
        body = (
            f"<header>{nav}</header><main><h1>{esc(title)}</h1>{main}"
            f"<p>{a(path + 'amp/', 'Mobile (AMP) version')}</p></main>"
            f"<footer>{a('/wp-login.php', 'Log in')}</footer>"
        )
        return doc(title, body, head=f'<link rel="amphtml" href="{path}amp/">')

    def links(self, ps: list[str], amp: bool) -> str:
        return ul([(self.purl(p) + ("?amp=1" if amp else ""), title_of(p)) for p in ps])

    def handle(self, req: Req) -> Reply:
        path = req.path
        parts = [x for x in path.split("/") if x]
        amp = bool(parts) and parts[-1] == "amp"
        depth = 0
        while parts and parts[-1] == "amp":
            parts.pop()
            depth += 1
        q = qs(req.query)
        if q.get("amp") == "1":
            amp = True
        elif req.query:
            return not_found()
        base = "/" + "/".join(parts) + ("/" if parts else "")
        if not path.endswith("/"):
            return Reply(
                "",
                "other",
                None,
                301,
                headers={"Location": path + "/" + (f"?{req.query}" if req.query else "")},
            )
        reply: tuple[str, str] | None = None
        if not parts:
            main = prose(self, "home", self.vocab) + self.links(self.posts[-8:], amp)
            reply = ("home", self.page("The Harbour Herald", main, base, amp))
        elif parts == ["about"]:
            reply = ("about", self.page("About", prose(self, "about", self.vocab), base, amp))
        elif parts[0] == "section" and len(parts) in (2, 4) and parts[1] in self.secs:
            s = parts[1]
            pg = 1
            if len(parts) == 4:
                if parts[2] != "page" or not parts[3].isdigit() or int(parts[3]) < 2:
                    return not_found()
                pg = int(parts[3])
            ps = self.in_sec(s)
            chunk = ps[(pg - 1) * self.per_page : pg * self.per_page]
            if not chunk:
                return not_found("Nothing Found")
            nav: list[Link] = []
            if pg * self.per_page < len(ps):
                nav.append((f"/section/{s}/page/{pg + 1}/", "Older posts"))
            if pg > 1:
                nav.append(
                    (f"/section/{s}/" + (f"page/{pg - 1}/" if pg > 2 else ""), "Newer posts")
                )
            main = (
                prose(self, f"sec:{s}:{pg}", self.vocab, 30, 60)
                + self.links(chunk, amp)
                + f"<p>{bar(nav)}</p>"
            )
            reply = (f"sec:{s}:{pg}", self.page(title_of(s), main, base, amp))
        elif (
            len(parts) == 3
            and parts[2] in self.posts
            and "/".join(parts[:2]) == self.date[parts[2]]
        ):
            p = parts[2]
            i = self.posts.index(p)
            main = (
                prose(self, f"post:{p}", self.vocab)
                + "<h3>Related</h3>"
                + self.links([self.posts[(i + d) % 28] for d in (1, 9)], amp)
            )
            main += f"<p>Filed in {a(f'/section/{self.sec_of[p]}/', title_of(self.sec_of[p]))}</p>"
            reply = (f"post:{p}", self.page(title_of(p), main, base, amp))
        if reply is None:
            return not_found()
        pid, body = reply
        if amp or depth:
            return trap(body)
        return self.legit_page(pid, body)


# ----------------------------------------------------------------------------------------
# Askbot: the question list's state lives in path segments,
# `/questions/scope:<s>/sort:<o>/tags:<a>,<b>/page:<n>/`; each tag in the sidebar adds
# itself to the current tags (any order, any number), the sort and scope links keep the
# rest; question pages sort their answers (`?sort=`) and link answer permalinks
# (`?answer=<id>`).
# Legit look-alikes: the default list and its real `page:2/`..., each single tag's
# default list, the questions, the user profiles, the tags index.
# ----------------------------------------------------------------------------------------

_AB_SORTS = ["activity-desc", "activity-asc", "age-desc", "age-asc", "answers-desc", "votes-desc"]
_AB_SCOPES = ["all", "unanswered"]
_AB_DEFAULT = "/questions/scope:all/sort:activity-desc/"


class Askbot(Site):
    """Askbot Q&A: list state in path segments, tag sets growing in any order."""

    name = "askbot"
    kind = "Askbot: /questions/scope:/sort:/tags:a,b,../page:/ path state, tag sets in any order"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/questions/")]
    robots_disallow: ClassVar[list[str]] = [
        "/account/",
        "/messages/",
        "/search/",
        "/widgets/",
        "/api/",
        "/questions/ask/",
    ]
    per_page = 10

    def build(self) -> None:
        self.vocab = words_for("forum")
        self.qs_ = slugs(self.key("q"), 30, self.vocab, 4)
        self.tags = slugs(self.key("tags"), 6, THEMES["forum"], 1)
        self.users = slugs(self.key("users"), 6, THEMES["books"], 1)
        rng = self.rng("qt")
        self.tags_of = {i: set(rng.sample(self.tags, 2)) for i in range(30)}
        self.answers = {i: rng.randint(0, 4) for i in range(30)}
        self.legit = {"tags"} | {f"list:{k}" for k in (1, 2, 3)} | {f"tag:{t}" for t in self.tags}
        self.legit |= {f"q:{i}" for i in range(30)} | {f"u:{u}" for u in self.users}

    def qurl(self, i: int) -> str:
        return f"/question/{100 + i}/{self.qs_[i]}/"

    def lurl(self, scope: str, sort: str, tags: list[str], page: int) -> str:
        u = f"/questions/scope:{scope}/sort:{sort}/"
        if tags:
            u += "tags:" + ",".join(tags) + "/"
        return u + f"page:{page}/"

    def shell(self, title: str, main: str) -> str:
        nav = bar(
            [
                ("/questions/", "Questions"),
                ("/tags/", "Tags"),
                ("/users/", "People"),
                ("/questions/ask/", "Ask"),
            ]
        )
        body = f"<header>{nav} {a('/account/signin/', 'login')}</header>"
        body += f"<main><h1>{esc(title)}</h1>{main}</main>"
        return doc(f"{title} - Bench Q&A", body)

    def listing(self, scope: str, sort: str, tags: list[str], page: int) -> tuple[str, int]:
        items = [
            i
            for i in range(30)
            if set(tags) <= self.tags_of[i] and (scope == "all" or not self.answers[i])
        ]
        if sort.startswith("age"):
            items.sort(reverse=sort.endswith("desc"))
        elif sort.startswith("answers") or sort.startswith("votes"):
            items.sort(key=lambda i: (self.answers[i], i), reverse=True)
        else:
            items = [i for i in reversed(range(30)) if i in items]
            if sort.endswith("asc"):
                items.reverse()
        chunk = items[(page - 1) * self.per_page : page * self.per_page]
        rows = ul([(self.qurl(i), title_of(self.qs_[i])) for i in chunk])
        sorts = bar([(self.lurl(scope, s, tags, 1), s) for s in _AB_SORTS])
        scopes = bar([(self.lurl(s, sort, tags, 1), s) for s in _AB_SCOPES])
        side = bar([(self.lurl(scope, sort, [*tags, t], 1), t) for t in self.tags if t not in tags])
        npages = max(1, (len(items) - 1) // self.per_page + 1)
        pages = bar([(self.lurl(scope, sort, tags, k), str(k)) for k in range(1, npages + 1)])
        return f"<p>{scopes}</p><p>{sorts}</p>{rows}<p>{pages}</p><aside>Tags: {side}</aside>", len(
            chunk
        )

    def handle(self, req: Req) -> Reply:
        p = req.path
        if p == "/questions/":
            main, _ = self.listing("all", "activity-desc", [], 1)
            body = self.shell("Questions", prose(self, "list:1", self.vocab, 20, 40) + main)
            return trap(body) if req.query else self.legit_page("list:1", body)
        if p == "/tags/":
            main = ul([(self.lurl("all", "activity-desc", [t], 1), t) for t in self.tags]) + prose(
                self, "tags", self.vocab, 30, 60
            )
            return (
                trap(self.shell("Tags", main))
                if req.query
                else self.legit_page("tags", self.shell("Tags", main))
            )
        if p == "/users/":
            return Reply(
                self.shell(
                    "People", ul([(f"/users/{3 + k}/{u}/", u) for k, u in enumerate(self.users)])
                ),
                "other",
                None,
            )
        parts = [x for x in p.split("/") if x]
        if parts[:1] == ["users"] and len(parts) == 3 and parts[2] in self.users:
            u = parts[2]
            if parts[1] != str(3 + self.users.index(u)):
                return not_found()
            mine = [i for i in range(30) if i % 6 == self.users.index(u)]
            main = prose(self, f"u:{u}", self.vocab, 40, 90) + ul(
                [(self.qurl(i), title_of(self.qs_[i])) for i in mine]
            )
            body = self.shell(u, main)
            return trap(body) if req.query else self.legit_page(f"u:{u}", body)
        if (
            parts[:1] == ["question"]
            and len(parts) >= 2
            and parts[1].isdigit()
            and 0 <= int(parts[1]) - 100 < 30
        ):
            i = int(parts[1]) - 100
            if parts[2:] != [self.qs_[i]]:
                return Reply("", "other", None, 301, headers={"Location": self.qurl(i)})
            ans = []
            for k in range(self.answers[i]):
                aid = 1000 + 10 * i + k
                ans.append(
                    f"<div id=post-id-{aid}>{prose(self, f'a:{i}:{k}', self.vocab, 20, 50)}"
                    f"{a(f'{self.qurl(i)}?answer={aid}#post-id-{aid}', 'permalink')}</div>"
                )
            sorts = (
                bar([(f"{self.qurl(i)}?sort={s}", s) for s in ("votes", "oldest", "latest")])
                if ans
                else ""
            )
            tags = bar(
                [(self.lurl("all", "activity-desc", [t], 1), t) for t in sorted(self.tags_of[i])]
            )
            u = self.users[i % 6]
            main = (
                prose(self, f"q:{i}", self.vocab)
                + f"<p>{tags}</p><p>asked by {a(f'/users/{3 + i % 6}/{u}/', u)}</p>"
                + f"<p>{sorts}</p>"
                + "".join(ans)
                + ul([(self.qurl((i + 7) % 30), "Related: " + title_of(self.qs_[(i + 7) % 30]))])
            )
            body = self.shell(title_of(self.qs_[i]), main)
            return trap(body) if req.query else self.legit_page(f"q:{i}", body)
        if parts[:1] != ["questions"]:
            return not_found()
        st = {"scope": "all", "sort": "activity-desc", "tags": "", "page": "1"}
        for seg in parts[1:]:
            k, _, v = seg.partition(":")
            if k not in st:
                return not_found()
            st[k] = v
        tags = [t for t in st["tags"].split(",") if t]
        if (
            st["scope"] not in _AB_SCOPES
            or st["sort"] not in _AB_SORTS
            or any(t not in self.tags for t in tags)
            or not st["page"].isdigit()
        ):
            return not_found()
        page = int(st["page"])
        main, n = self.listing(st["scope"], st["sort"], tags, page)
        key = f"list:{','.join(tags)}:{page}:{st['sort']}:{st['scope']}"
        body = self.shell("Questions", prose(self, key, self.vocab, 20, 40) + main)
        if n and not req.query and st["scope"] == "all" and st["sort"] == "activity-desc":
            if not tags and page > 1 and p == self.lurl("all", "activity-desc", [], page):
                return self.legit_page(f"list:{page}", body)
            if len(tags) == 1 and page == 1 and p == self.lurl("all", "activity-desc", tags, 1):
                return self.legit_page(f"tag:{tags[0]}", body)
        return trap(body)


# ----------------------------------------------------------------------------------------
# Koha OPAC: every record links its author, subjects and series as searches
# (`opac-search.pl?q=au:"..."`, `su:`, `se:`); result pages offer facets that add a
# `limit=` each (kept in any order with the ones before), `sort_by=` orders, and link each
# hit as `opac-detail.pl?biblionumber=N&query_desc=...` (the result context, for the
# "next/previous result" browser).
# Legit look-alikes: each record's plain `opac-detail.pl?biblionumber=N`, the authority
# records, the public lists, the "New titles" list.
# ----------------------------------------------------------------------------------------

_K = "/cgi-bin/koha/"
_K_SORTS = ["relevance", "title_az", "title_za", "pubdate_dsc", "pubdate_asc", "call_number_asc"]


class Koha(Site):
    """Koha OPAC: record fields as search links, limit= facets stacking, query_desc."""

    name = "koha"
    kind = "Koha OPAC: au:/su:/se: search links from records, limit= facets stacking, sort_by="
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/cgi-bin/koha/opac-main.pl")]
    robots_disallow: ClassVar[list[str]] = [
        f"{_K}opac-export.pl",
        f"{_K}opac-user.pl",
        f"{_K}opac-addbybiblionumber.pl",
        f"{_K}opac-sendbasket.pl",
        f"{_K}opac-reserve.pl",
    ]

    def build(self) -> None:
        self.vocab = words_for("books")
        self.titles = slugs(self.key("titles"), 30, self.vocab, 3)
        self.authors = slugs(self.key("authors"), 6, THEMES["books"] + THEMES["travel"], 2)
        self.subjects = slugs(self.key("subj"), 8, THEMES["science"] + THEMES["travel"], 1)
        self.series = slugs(self.key("series"), 3, THEMES["books"], 2)
        rng = self.rng("recs")
        self.rec = {
            i: (
                self.authors[i % 6],
                sorted(rng.sample(self.subjects, 2)),
                self.series[i % 3] if i % 4 == 0 else "",
            )
            for i in range(30)
        }
        self.lists = slugs(self.key("lists"), 3, THEMES["books"], 2)
        self.legit = (
            {"main", "new"} | {f"b:{i}" for i in range(30)} | {f"auth:{k}" for k in range(6)}
        )
        self.legit |= {f"list:{k}" for k in range(3)}

    def det(self, i: int, ctx: str = "") -> str:
        return f"{_K}opac-detail.pl?biblionumber={100 + i}" + (
            f"&query_desc={quote_plus(ctx)}" if ctx else ""
        )

    def search(self, q: str, limits: list[str], sort: str = "") -> str:
        u = f"{_K}opac-search.pl?q={quote_plus(q)}"
        u += "".join(f"&limit={quote_plus(x)}" for x in limits)
        return u + (f"&sort_by={sort}" if sort else "")

    def shell(self, title: str, main: str) -> str:
        nav = bar(
            [
                (f"{_K}opac-main.pl", "Home"),
                (f"{_K}opac-shelves.pl?op=list&public=1", "Lists"),
                (f"{_K}opac-user.pl", "Log in to your account"),
            ]
        )
        body = f"<header>{nav}</header><main><h1>{esc(title)}</h1>{main}</main>"
        body += "<footer>Powered by Koha</footer>"
        return doc(f"{title} - Riverside Library catalog", body)

    def matches(self, q: str, limits: list[str]) -> list[int]:
        out = []
        for i, (au, su, se) in self.rec.items():
            fields = {f"au:{au}", f"se:{se}"} | {f"su:{s}" for s in su}
            terms = [q] + [x.replace("su-to:", "su:").replace("au-to:", "au:") for x in limits]
            if all(
                t.replace('"', "") in fields or t.replace('"', "") in self.titles[i] for t in terms
            ):
                out.append(i)
        return out

    def handle(self, req: Req) -> Reply:
        p, q = req.path, qs(req.query)
        if not p.startswith(_K):
            return not_found()
        script = p[len(_K) :]
        if script == "opac-main.pl":
            main = prose(self, "main", self.vocab) + ul(
                [(f"{_K}opac-search.pl?q=&sort_by=acqdate_dsc&count=10&new=1", "New titles")]
                + [
                    (f"{_K}opac-shelves.pl?op=view&shelfnumber={k + 1}", title_of(x))
                    for k, x in enumerate(self.lists)
                ]
            )
            return (
                trap(self.shell("Welcome", main))
                if req.query
                else self.legit_page("main", self.shell("Welcome", main))
            )
        if (
            script == "opac-detail.pl"
            and q.get("biblionumber", "").isdigit()
            and 0 <= int(q["biblionumber"]) - 100 < 30
        ):
            i = int(q["biblionumber"]) - 100
            au, su, se = self.rec[i]
            fields = [(self.search(f'au:"{au}"', []), f"Author: {title_of(au)}")]
            fields += [(self.search(f'su:"{s}"', []), f"Subject: {s}") for s in su]
            if se:
                fields.append((self.search(f'se:"{se}"', []), f"Series: {title_of(se)}"))
            fields.append(
                (
                    f"{_K}opac-authoritiesdetail.pl?authid={self.authors.index(au) + 1}",
                    "Authority record",
                )
            )
            tools = [
                (f"{_K}opac-export.pl?op=export&bib={100 + i}&format=ris", "Export"),
                (f"{_K}opac-addbybiblionumber.pl?biblionumber={100 + i}", "Save to list"),
            ]
            ctx = ""
            if "query_desc" in q:
                nxt = a(self.det((i + 1) % 30, q["query_desc"]), "Next result")
                prv = a(self.det((i - 1) % 30, q["query_desc"]), "Previous result")
                ctx = f"<p>{nxt} {prv}</p>"
            main = ul(fields) + prose(self, f"b:{i}", self.vocab) + f"<p>{bar(tools)}</p>" + ctx
            body = self.shell(title_of(self.titles[i]), main)
            return (
                self.legit_page(f"b:{i}", body)
                if req.query == f"biblionumber={100 + i}"
                else trap(body)
            )
        if (
            script == "opac-authoritiesdetail.pl"
            and q.get("authid", "").isdigit()
            and 1 <= int(q["authid"]) <= 6
        ):
            k = int(q["authid"]) - 1
            au = self.authors[k]
            main = prose(self, f"auth:{k}", self.vocab, 40, 100) + ul(
                [(self.search(f'au:"{au}"', []), "Search for this author")]
            )
            body = self.shell(title_of(au), main)
            return (
                self.legit_page(f"auth:{k}", body) if req.query == f"authid={k + 1}" else trap(body)
            )
        if script == "opac-shelves.pl":
            if q.get("op") == "list":
                return Reply(
                    self.shell(
                        "Lists",
                        ul(
                            [
                                (f"{_K}opac-shelves.pl?op=view&shelfnumber={k + 1}", x)
                                for k, x in enumerate(self.lists)
                            ]
                        ),
                    ),
                    "other",
                    None,
                )
            if (
                q.get("op") == "view"
                and q.get("shelfnumber", "").isdigit()
                and 1 <= int(q["shelfnumber"]) <= 3
            ):
                k = int(q["shelfnumber"]) - 1
                items = [i for i in range(30) if i % 3 == k]
                main = prose(self, f"list:{k}", self.vocab, 30, 60) + ul(
                    [(self.det(i), title_of(self.titles[i])) for i in items]
                )
                body = self.shell(title_of(self.lists[k]), main)
                ok = req.query == f"op=view&shelfnumber={k + 1}"
                return self.legit_page(f"list:{k}", body) if ok else trap(body)
            return not_found()
        if script == "opac-search.pl":
            if q.get("new") == "1" and req.query == "q=&sort_by=acqdate_dsc&count=10&new=1":
                main = prose(self, "new", self.vocab, 20, 40) + ul(
                    [(self.det(i), title_of(self.titles[i])) for i in range(29, 19, -1)]
                )
                return self.legit_page("new", self.shell("New titles", main))
            term = q.get("q", "")
            limits = [v for k, v in qlist(req.query) if k == "limit"]
            sort = q.get("sort_by", "")
            hits = self.matches(term, limits)
            if sort in ("title_az", "title_za"):
                hits.sort(key=lambda i: self.titles[i], reverse=sort == "title_za")
            elif sort.startswith("pubdate"):
                hits.sort(reverse=sort.endswith("dsc"))
            desc = term + "".join(f" and {x}" for x in limits)
            rows = ul([(self.det(i, desc), title_of(self.titles[i])) for i in hits])
            facets: list[Link] = []
            for i in hits:
                au, su, _ = self.rec[i]
                for f in [f"au-to:{au}"] + [f"su-to:{s}" for s in su]:
                    link = (self.search(term, [*limits, f], sort), f.split(":", 1)[1])
                    if f not in limits and link not in facets:
                        facets.append(link)
            sorts = bar([(self.search(term, limits, s), s) for s in _K_SORTS])
            main = f"<p>{len(hits)} result(s) for '{esc(desc)}'</p><p>Sort: {sorts}</p>{rows}"
            main += f"<aside>Refine your search: {ul(facets)}</aside>"
            return trap(self.shell("Results of search", main))
        return not_found()


# ----------------------------------------------------------------------------------------
# Control: a plain site with no traps.
# ----------------------------------------------------------------------------------------


class Control(Site):
    """A plain site with no traps."""

    name = "control"
    kind = "no traps: home, about, 5 sections of 6 pages, one robots-disallowed link"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/staff/"]

    def build(self) -> None:
        self.vocab = words_for("events")
        self.secs = slugs(self.key("secs"), 5, THEMES["events"], 1)
        self.pages = {s: slugs(self.key(f"p{s}"), 6, self.vocab, 2) for s in self.secs}
        self.legit = {"home", "about"} | {f"s:{s}" for s in self.secs}
        self.legit |= {f"p:{s}/{x}" for s in self.secs for x in self.pages[s]}

    def page(self, pid: str, title: str, links: list[Link]) -> Reply:
        nav = bar(
            [("/", "Home"), *[(f"/{s}/", title_of(s)) for s in self.secs], ("/about.html", "About")]
        )
        body = (
            f"<header>{nav}</header><main><h1>{esc(title)}</h1>{prose(self, pid, self.vocab)}"
            f"{ul(links)}</main><footer>{a('/staff/', 'Staff area')}</footer>"
        )
        return self.legit_page(pid, doc(title, body))

    def handle(self, req: Req) -> Reply:
        p = req.path
        if req.query:
            return not_found()
        if p == "/":
            return self.page(
                "home", "Riverside Arts Centre", [(f"/{s}/", title_of(s)) for s in self.secs]
            )
        if p == "/about.html":
            return self.page("about", "About", [])
        parts = [x for x in p.split("/") if x]
        if len(parts) == 1 and p.endswith("/") and parts[0] in self.secs:
            s = parts[0]
            return self.page(
                f"s:{s}", title_of(s), [(f"/{s}/{x}.html", title_of(x)) for x in self.pages[s]]
            )
        if (
            len(parts) == 2
            and parts[0] in self.secs
            and parts[1].endswith(".html")
            and parts[1][:-5] in self.pages[parts[0]]
        ):
            return self.page(
                f"p:{parts[0]}/{parts[1][:-5]}", title_of(parts[1][:-5]), [(f"/{parts[0]}/", "Up")]
            )
        return not_found()
