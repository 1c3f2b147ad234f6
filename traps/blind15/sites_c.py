"""blind15 sites, part c: a MetaCPAN-style module index, a chess game database with an
opening explorer, a German learners' dictionary with inflection tables, and a currency
rate history site."""

from __future__ import annotations

import random
import re
from typing import ClassVar

from .common import (
    B15,
    Reply,
    Req,
    binary,
    day,
    h,
    is_day,
    month,
    not_found,
    num,
    pq,
    qs,
    quote,
    slugs,
    title_of,
    trap,
    ul,
    unquote,
)

# ----------------------------------------------------------------------------------------
# A MetaCPAN-style index of Perl distributions. Distributions `/dist/<Dist-Name>`,
# modules `/pod/<Module::Name>`, authors `/author/<PAUSEID>`, older releases
# `/release/<AUTHOR>/<Dist-Name>-<version>` (the latest release's URL is the dist page
# again), reverse dependencies `/requires/dist/<Dist>` with `?p=&size=&sort=[[2,1]]`.
# Under every distribution: source tree, Changes, contributors, versioned pods
# `/pod/release/<AUTHOR>/<Dist>-<v>/lib/<path>.pm`, and a diff between any two of its
# releases. `/recent?p=` without end (pages 1 and 2 real), searches for any words;
# reverse dependencies and far recent pages list made-up distributions whose pages and
# modules are their own (an endless graph in the real pages' URL shapes). robots.txt:
# account, login, logout, lab, ajax, raw files, download URLs.
# ----------------------------------------------------------------------------------------


def _camel(s: str) -> str:
    return "-".join(title_of(w).replace(" ", "") for w in s.split("-"))


class Metacpan(B15):
    """MetaCPAN: per-dist source/diff/versioned pods, reverse deps graph, recent pager."""

    name = "metacpan"
    kind = "MetaCPAN-style index: per-dist diff/source/pods, requires ?p=&sort=, recent ?p="
    theme = "archive"
    brand = "metaHPAN"
    robots_disallow: ClassVar[list[str]] = [
        "/account/",
        "/login/",
        "/logout",
        "/lab/",
        "/ajax/",
        "/raw/",
        "/download_url/",
    ]

    def make(self) -> None:
        self.dists = [_camel(s) for s in slugs(self.key("d"), 8, self.v, 2)]
        self.authors = [s.upper()[:6] for s in slugs(self.key("a"), 3, self.v, 1)]
        self.vers = {
            d: [f"0.{k:02d}" for k in range(1, 4 + i % 3)] for i, d in enumerate(self.dists)
        }
        self.add("home", "/", lambda r: self.home())
        self.add("recent", "/recent", lambda r: self.recent(1, ""))
        self.add("recent2", "/recent?p=2", lambda r: self.recent(2, ""))
        self.add("about", "/about/", lambda r: self.thin("About", "about", [("/about/faq", "FAQ")]))
        self.add("faq", "/about/faq", lambda r: self.thin("FAQ", "faq", [("/", "Home")]))
        for i, d in enumerate(self.dists):
            self.add(f"d{d}", f"/dist/{d}", lambda r, i=i: self.dist(i, ""))
            self.add(f"m{d}", f"/pod/{self.mod(d)}", lambda r, i=i: self.pod(i, ""))
        for a in self.authors:
            self.add(f"a{a}", f"/author/{a}", lambda r, a=a: self.author(a))
        for i in (0, 3, 5):
            d = self.dists[i]
            v = self.vers[d][0]
            t = f"/release/{self.authors[i % 3]}/{d}-{v}"
            self.add(f"r{d}", t, lambda r, i=i, v=v: self.dist(i, v))
        for i in (1, 2):
            d = self.dists[i]
            self.add(f"q{d}", f"/requires/dist/{d}", lambda r, i=i: self.requires(i))

    def mod(self, d: str) -> str:
        return d.replace("-", "::")

    def home(self) -> str:
        links = [("/recent", "Recent"), ("/about/", "About")]
        links += [(f"/dist/{d}", d) for d in self.dists[:4]]
        links += [("/account/settings", "Settings"), ("/login/", "Sign in")]
        return self.html("Search the HPAN", "home", ul(links), 30, 80)

    def recent(self, p: int, key: str) -> str:
        if p <= 2 and not key:
            links = [(f"/dist/{d}", d) for d in self.dists[(p - 1) * 4 : p * 4]]
        else:
            links = [(f"/dist/{d}", d) for d in self.fake(f"rec{p}", 4)]
        links.append((f"/recent?p={p + 1}", "Next"))
        if p > 1:
            links.append((f"/recent?p={p - 1}", "Previous"))
        links += [(f"/recent?p={p}&size={s}", f"{s} per page") for s in (50, 100)]
        return self.html(f"Recent releases, page {p}", key or f"rec{p}", ul(links), 20, 60)

    def fake(self, key: str, n: int) -> list[str]:
        return [_camel(s) for s in slugs(self.key("f" + key), n, self.v, 2)]

    def dist(self, i: int, v: str) -> str:
        d, a = self.dists[i], self.authors[i % 3]
        latest = self.vers[d][-1]
        links = [(f"/pod/{self.mod(d)}", self.mod(d)), (f"/author/{a}", a)]
        links += [(f"/release/{a}/{d}-{x}", x) for x in self.vers[d][:-1] if x != v]
        links += [(f"/dist/{d}/source", "Source"), (f"/dist/{d}/changes", "Changes")]
        links += [
            (f"/dist/{d}/contributors", "Contributors"),
            (f"/requires/dist/{d}", "Reverse deps"),
        ]
        prev = self.vers[d][-2]
        links.append((f"/diff/release/{a}/{d}-{prev}/{a}/{d}-{latest}", "Diff with previous"))
        links.append((f"/download_url/{d}", "Download"))
        return self.html(f"{d}-{v or latest}", f"d{d}{v}", ul(links), 60, 150)

    def pod(self, i: int, v: str) -> str:
        d, a = self.dists[i], self.authors[i % 3]
        path = "lib/" + d.replace("-", "/") + ".pm"
        links = [(f"/dist/{d}", d), (f"/dist/{d}/source/{path}", "Source")]
        links += [(f"/pod/release/{a}/{d}-{x}/{path}", x) for x in self.vers[d] if x != v]
        links += [(f"/search?q={pq(w)}", w) for w in slugs(self.key(f"sa{d}"), 2, self.v, 1)]
        links.append((f"/raw/{a}/{d}-{self.vers[d][-1]}/{path}", "Raw"))
        return self.html(self.mod(d), f"m{d}{v}", ul(links), 80, 200)

    def author(self, a: str) -> str:
        ix = [i for i in range(8) if i % 3 == self.authors.index(a)]
        links = [(f"/dist/{self.dists[i]}", self.dists[i]) for i in ix]
        links.append((f"/author/{a}/releases", "All releases"))
        return self.html(a, f"a{a}", ul(links), 20, 60)

    def requires(self, i: int) -> str:
        d = self.dists[i]
        links = [(f"/dist/{x}", x) for x in self.dists if x != d][i::3]
        links += [(f"/requires/dist/{d}?p=2", "Next")]
        links += [(f"/requires/dist/{d}?sort={pq(s)}", s) for s in ("[[2,1]]", "[[0,0]]")]
        return self.html(f"Reverse dependencies of {d}", f"q{d}", ul(links), 20, 60)

    def made_up(self, req: Req, d: str) -> Reply:
        a = self.authors[h(d) % 3]
        links = [(f"/pod/{self.mod(d)}", self.mod(d)), (f"/requires/dist/{d}", "Reverse deps")]
        links += [(f"/dist/{d}/source", "Source"), (f"/author/{a}", a)]
        links += [(f"/dist/{x}", x) for x in self.fake(d, 2)]
        return self.tr(req, d, links, 50, 130)

    def rest(self, req: Req) -> Reply:
        p, q = req.path, qs(req.query)
        if p == "/recent":
            return trap(self.recent(max(1, num(q, "p", 1)), f"t{req.target}"))
        m = re.fullmatch(r"/dist/([A-Z][A-Za-z0-9-]*)(/.*)?", p)
        if m:
            d, tail = m.group(1), m.group(2) or ""
            if not tail:
                return self.made_up(req, d)
            parts = [x for x in tail.split("/") if x]
            links = [(f"/dist/{d}", d)]
            if parts[0] == "source":
                for w in slugs(self.key("src" + tail), 3, self.v, 1):
                    links.append((f"/dist/{d}{tail.rstrip('/')}/{title_of(w)}", w))
            links += [(f"/dist/{d}/{t}", t) for t in ("changes", "contributors") if t != parts[0]]
            return self.tr(req, f"{d} {tail}", links)
        m = re.fullmatch(r"/pod/([A-Za-z0-9:]+)", p)
        if m:
            d = m.group(1).replace("::", "-")
            if d in self.dists:
                return self.copy(req, 0, f"/pod/{self.mod(d)}") or not_found()
            links = [(f"/dist/{d}", d)] + [
                (f"/pod/{self.mod(x)}", self.mod(x)) for x in self.fake(d, 3)
            ]
            return self.tr(req, m.group(1), links, 60, 150)
        m = re.fullmatch(r"/pod/release/([A-Z]+)/([A-Za-z-]+)-(\d+\.\d+)/lib/.*\.pm", p)
        if m and m.group(2) in self.dists:
            i = self.dists.index(m.group(2))
            return trap(self.pod(i, "" if m.group(3) == self.vers[m.group(2)][-1] else m.group(3)))
        m = re.fullmatch(r"/release/([A-Z]+)/([A-Za-z-]+)-(\d+\.\d+)", p)
        if m and m.group(2) in self.dists:
            i, v = self.dists.index(m.group(2)), m.group(3)
            return trap(self.dist(i, "" if v == self.vers[m.group(2)][-1] else v))
        m = re.fullmatch(
            r"/diff/release/([A-Z]+)/([A-Za-z-]+)-(\d+\.\d+)/([A-Z]+)/([A-Za-z-]+)-(\d+\.\d+)", p
        )
        if m and m.group(2) in self.dists:
            d, a = m.group(2), m.group(1)
            vs = [*self.vers[d], *(f"0.{k:02d}" for k in range(10, 40))]
            links = [
                (f"/diff/release/{a}/{d}-{x}/{a}/{d}-{y}", f"{x}..{y}")
                for x in vs[:3]
                for y in vs[h(p) % 20 :][:3]
                if x != y
            ]
            return self.tr(req, f"Diff {m.group(3)}..{m.group(6)} of {d}", links)
        m = re.fullmatch(r"/requires/dist/([A-Z][A-Za-z0-9-]*)", p)
        if m:
            d, pg = m.group(1), max(1, num(q, "p", 1))
            links = [(f"/dist/{x}", x) for x in self.fake(f"req{d}{pg}", 4)]
            links.append(
                (
                    f"/requires/dist/{d}?p={pg + 1}&size={num(q, 'size', 50)}"
                    f"&sort={pq(q.get('sort', '[[2,1]]'))}",
                    "Next",
                )
            )
            links += [(f"/requires/dist/{d}?p={pg}&size={s}", f"{s}") for s in (20, 100)]
            return self.tr(req, f"Reverse dependencies of {d}, page {pg}", links)
        if p == "/search" and q.get("q"):
            w = q["q"]
            pg = max(1, num(q, "p", 1))
            links = [(f"/pod/{self.mod(x)}", self.mod(x)) for x in self.fake("s" + w, 4)]
            links.append((f"/search?q={pq(w)}&p={pg + 1}", "Next"))
            links += [(f"/search?q={pq(w + ' ' + x)}", x) for x in slugs(self.key(w), 2, self.v, 1)]
            return self.tr(req, f"Search: {w}, page {pg}", links)
        m = re.fullmatch(r"/author/([A-Z]+)/releases", p)
        if m:
            pg = max(1, num(q, "p", 1))
            links = [(f"/author/{m.group(1)}/releases?p={pg + 1}", "Next")]
            links += [(f"/dist/{x}", x) for x in self.fake(req.target, 3)]
            return self.tr(req, f"Releases by {m.group(1)}", links)
        return not_found()


# ----------------------------------------------------------------------------------------
# A chess game database. Games `/game/<id>` (with `?ply=N` arrows, `?flip=1`,
# `/analysis?depth=` deeper without end, `/print`, a PGN download: the same family under
# every game), players `/player/<id>/<Name>` (any other name slug is the player again)
# with game lists `games?color=&result=&eco=&page=`, tournaments `?round=` (rounds 2
# and 3 are real, "Next round" goes on without end). The opening explorer
# `/explorer?moves=e4,c5,...`: each candidate move appends one more move (a comma list
# growing at every click), each position listing made-up games of its own; the six named
# openings' positions, linked from the ECO pages, are the real pages in the family.
# robots.txt: login, register, premium, API, downloads, play, messages.
# ----------------------------------------------------------------------------------------

_OPEN = (
    ("Sicilian Defence", "B", "e4,c5"),
    ("French Defence", "C", "e4,e6"),
    ("Caro-Kann Defence", "B", "e4,c6"),
    ("Queen's Gambit", "D", "d4,d5,c4"),
    ("King's Indian Defence", "E", "d4,Nf6,c4,g6"),
    ("English Opening", "A", "c4"),
)
_SAN = ("e4", "d4", "c4", "Nf3", "e5", "e6", "d5", "c5", "c6", "Nc6", "Nf6", "g6", "Bb5", "O-O")


class Chessdb(B15):
    """Chess database: explorer move lists growing per click, per-game ply/analysis arrows."""

    name = "chessdb"
    kind = "chess game database: explorer moves= appended, ?ply= and depth= per game, rounds"
    theme = "events"
    brand = "Tidemill Chess Archive"
    robots_disallow: ClassVar[list[str]] = [
        "/login",
        "/register",
        "/premium/",
        "/api/",
        "/download/",
        "/play/",
        "/messages/",
    ]

    def make(self) -> None:
        sur = slugs(self.key("p"), 6, self.v, 1)
        giv = slugs(self.key("g"), 6, self.v, 1)
        self.players = [f"{title_of(g)}-{title_of(s)}" for g, s in zip(giv, sur, strict=True)]
        self.pid = [20310 + 29 * k for k in range(6)]
        self.tours = [f"{s}-open-2026" for s in slugs(self.key("t"), 2, self.v, 1)]
        self.games = []
        for k in range(12):
            w, b = k % 6, (k + 1 + k // 6) % 6
            self.games.append((1048200 + 7919 * k, w, b, k % 6, k % 2, k // 2 % 3 + 1))
        self.add("home", "/", lambda r: self.home())
        self.add("openings", "/openings/", lambda r: self.thin("Openings", "op", self.ecolinks()))
        for L in "ABCDE":
            self.add(f"eco{L}", f"/openings/eco/{L}/", lambda r, L=L: self.eco(L))
        for o in range(6):
            self.add(f"x{o}", f"/explorer?moves={_OPEN[o][2]}", lambda r, o=o: self.explorer(r, o))
        for k in range(12):
            self.add(f"g{k}", f"/game/{self.games[k][0]}", lambda r, k=k: self.game(k, ""))
        for i in range(6):
            self.add(f"p{i}", self.purl(i), lambda r, i=i: self.player(i))
        for t in range(2):
            u = f"/tournament/{self.tours[t]}/"
            self.add(f"t{t}", u, lambda r, t=t: self.tour(t, 1, ""))
        for t in range(2):
            for rnd in (2, 3):
                u = f"/tournament/{self.tours[t]}/?round={rnd}"
                self.add(f"t{t}r{rnd}", u, lambda r, t=t, rnd=rnd: self.tour(t, rnd, ""))

    def purl(self, i: int) -> str:
        return f"/player/{self.pid[i]}/{self.players[i]}"

    def ecolinks(self) -> list[tuple[str, str]]:
        return [(f"/openings/eco/{L}/", f"ECO {L}") for L in "ABCDE"]

    def home(self) -> str:
        links = [("/openings/", "Openings"), *((self.purl(i), self.players[i]) for i in range(6))]
        links += [(f"/tournament/{t}/", title_of(t)) for t in self.tours]
        links += [("/login", "Log in"), ("/premium/", "Premium")]
        return self.html("Tidemill Chess Archive", "home", ul(links), 30, 80)

    def glinks(self, ks: list[int]) -> list[tuple[str, str]]:
        out = []
        for k in ks:
            gid, w, b, *_ = self.games[k]
            out.append((f"/game/{gid}", f"{self.players[w]} vs {self.players[b]}"))
        return out

    def eco(self, L: str) -> str:
        links = [(f"/explorer?moves={m}", n) for n, e, m in _OPEN if e == L]
        links += self.glinks([k for k in range(12) if _OPEN[self.games[k][3]][1] == L])
        return self.thin(f"ECO {L}", f"eco{L}", [*links, ("/openings/", "All openings")])

    def cands(self, moves: list[str]) -> list[tuple[str, str]]:
        rng = random.Random(self.key("c" + ",".join(moves)))
        out = []
        for m in rng.sample(_SAN, 4):
            out.append((f"/explorer?moves={','.join([*moves, m])}", m))
        return out

    def explorer(self, req: Req, o: int) -> str:
        moves = _OPEN[o][2].split(",")
        links = self.cands(moves) + self.glinks([k for k in range(12) if self.games[k][3] == o])
        links.append(
            (f"/explorer?moves={','.join(moves[:-1])}", "Back")
            if len(moves) > 1
            else ("/openings/", "Openings")
        )
        return self.html(_OPEN[o][0], f"x{o}", ul(links), 30, 80)

    def game(self, k: int, key: str) -> str:
        gid, w, b, o, t, _rnd = self.games[k]
        links = [(self.purl(w), self.players[w]), (self.purl(b), self.players[b])]
        links.append((f"/explorer?moves={_OPEN[o][2]}", _OPEN[o][0]))
        links.append((f"/tournament/{self.tours[t]}/", title_of(self.tours[t])))
        links += [(f"/game/{gid}?ply=1", "Start"), (f"/game/{gid}?flip=1", "Flip board")]
        links += [(f"/game/{gid}/analysis?depth=20", "Analyse"), (f"/game/{gid}/print", "Print")]
        links += [(f"/game/{gid}/pgn", "PGN"), (f"/download/{gid}.pgn", "Download")]
        return self.html(
            f"{self.players[w]} vs {self.players[b]}", key or f"g{k}", ul(links), 50, 140
        )

    def player(self, i: int) -> str:
        base = self.purl(i)
        links = self.glinks([k for k in range(12) if i in self.games[k][1:3]])
        links += [(f"{base}/games?color={c}", c) for c in ("white", "black")]
        links.append((f"/messages/new?to={self.pid[i]}", "Message"))
        return self.html(self.players[i].replace("-", " "), f"p{i}", ul(links), 30, 90)

    def tour(self, t: int, rnd: int, key: str) -> str:
        base = f"/tournament/{self.tours[t]}/"
        ks = [k for k in range(12) if self.games[k][4] == t and (key or self.games[k][5] == rnd)]
        links = self.glinks(ks) if not key else []
        if key:
            rng = random.Random(self.key(key))
            links = [(f"/game/{1200000 + rng.randrange(10**6)}", "game") for _ in range(3)]
        links.append((f"{base}?round={rnd + 1}", "Next round"))
        if rnd > 1:
            links.append((f"{base}?round={rnd - 1}" if rnd > 2 else base, "Previous round"))
        return self.html(
            f"{title_of(self.tours[t])}, round {rnd}", key or f"t{t}{rnd}", ul(links), 20, 60
        )

    def rest(self, req: Req) -> Reply:
        p, q = req.path, qs(req.query)
        if p == "/explorer" and "moves" in q:
            moves = [m for m in q["moves"].split(",") if m in _SAN]
            rng = random.Random(self.key("xg" + q["moves"]))
            links = self.cands(moves)
            links += [(f"/game/{1200000 + rng.randrange(10**6)}", "game") for _ in range(2)]
            return self.tr(req, "Explorer: " + " ".join(moves), links, 30, 70)
        m = re.fullmatch(r"/game/(\d+)(/analysis|/print|/pgn)?", p)
        if m:
            gid, sub = int(m.group(1)), m.group(2) or ""
            ks = [k for k, g in enumerate(self.games) if g[0] == gid]
            if sub == "/pgn":
                return binary(f"{gid}.pgn")
            if ks and sub == "/print":
                return trap(self.game(ks[0], ""))
            ply, depth = num(q, "ply", 0), num(q, "depth", 20)
            links = [(f"/game/{gid}", "Game"), (f"/game/{gid}?ply={ply + 1}", "Next move")]
            if ply > 0:
                links.append((f"/game/{gid}?ply={ply - 1}", "Previous move"))
            links += [
                (f"/game/{gid}/analysis?depth={depth + 2}", "Deeper"),
                (f"/game/{gid}?ply={ply}&flip=1", "Flip"),
            ]
            rng = random.Random(self.key(f"gm{gid}"))
            links.append((f"/explorer?moves={','.join(rng.sample(_SAN, 3))}", "Opening"))
            i = rng.randrange(6)
            links.append((f"/player/{self.pid[i]}/{self.players[i].lower()}", self.players[i]))
            return self.tr(req, f"Game {gid}{sub}, move {ply}", links, 40, 110)
        m = re.fullmatch(r"/player/(\d+)/([A-Za-z-]+)(/games)?", p)
        if m and int(m.group(1)) in self.pid:
            i = self.pid.index(int(m.group(1)))
            if not m.group(3):
                return trap(self.player(i))
            base = self.purl(i) + "/games"
            pg = max(1, num(q, "page", 1))
            cur = {k: v for k, v in q.items() if k in ("color", "result", "eco")}
            links = [(f"{base}?{self._q(cur, page=str(pg + 1))}", "Next page")]
            for k, vals in (
                ("color", ("white", "black")),
                ("result", ("win", "draw", "loss")),
                ("eco", tuple("ABCDE")),
            ):
                links += [(f"{base}?{self._q(cur, **{k: v})}", v) for v in vals if cur.get(k) != v]
            rng = random.Random(self.key(req.target))
            links += [(f"/game/{1200000 + rng.randrange(10**6)}", "game") for _ in range(2)]
            return self.tr(req, f"Games of {self.players[i]}, page {pg}", links)
        m = re.fullmatch(r"/tournament/([a-z0-9-]+)/", p)
        if m and m.group(1) in self.tours and "round" in q:
            return trap(
                self.tour(self.tours.index(m.group(1)), num(q, "round", 1), f"t{req.target}")
            )
        return not_found()

    def _q(self, cur: dict[str, str], **kw: str) -> str:
        d = {**cur, **kw}
        return "&".join(f"{k}={v}" for k, v in d.items())


# ----------------------------------------------------------------------------------------
# A German learners' dictionary (Wortfeld). Words `/wort/<Lemma>` (umlauts and ß
# percent-encoded), noun declensions `/deklination/<Lemma>`, verb conjugations
# `/konjugation/<verb>`, letter browse pages `/browse/<l>/` and `/browse/<l>/2` (the rest
# of the letter only there; `/3/` on are made-up words without end), word of the day
# `/wort-des-tages/<date>` (today and yesterday real, arrows both ways). Under every
# word: synonyms and rhymes listing made-up words (`/wort/<x>` pages of their own, an
# endless related graph), translations into six languages, `?drucken=1` and the
# lower-case/ß-folded alias (the word again); tables `?kasus=&numerus=&artikel=` and
# `?zeit=&modus=&person=` (finite products); comparisons `/vergleich/<a>,<b>,...` growing
# a word per click; `/suche?q=` for any words ("Meinten Sie" variants). robots.txt:
# account, login, API, vocabulary trainer, admin, export.
# ----------------------------------------------------------------------------------------

_NOUNS = ("Haus", "Hafen", "Straße", "Sand", "Garten", "Glocke", "Hütte", "Gabel")
_VERBS = ("holen", "sehen", "schreiben", "gehen")
_ADJS = ("hell", "hoch", "schön", "groß")
_WORDS = (*_NOUNS, *_VERBS, *_ADJS)
_LETTERS = ("h", "s", "g")
_LANGS = ("englisch", "franzoesisch", "spanisch", "italienisch", "polnisch", "tuerkisch")


def _u(w: str) -> str:
    return quote(w, safe="")


def _fold(w: str) -> str:
    return w.lower().replace("ß", "ss").replace("ü", "ue").replace("ö", "oe").replace("ä", "ae")


class Dictionary(B15):
    """Dictionary: inflection-table products, related-word graph, comparisons growing."""

    name = "dictionary"
    kind = "German dictionary: synonym graph, table products, /vergleich/a,b,c, word of the day"
    theme = "books"
    brand = "Wortfeld"
    robots_disallow: ClassVar[list[str]] = [
        "/konto/",
        "/anmelden",
        "/api/",
        "/vokabeltrainer/",
        "/admin/",
        "/export/",
    ]

    def make(self) -> None:
        self.add("home", "/", lambda r: self.home())
        bl = [(f"/browse/{L}/", L.upper()) for L in _LETTERS]
        self.add("browse", "/browse/", lambda r: self.thin("Wörter von A bis Z", "br", bl))
        for L in _LETTERS:
            self.add(f"b{L}", f"/browse/{L}/", lambda r, L=L: self.browse(L, 1))
            self.add(f"b{L}2", f"/browse/{L}/2", lambda r, L=L: self.browse(L, 2))
        for w in _WORDS:
            self.add(f"w{w}", f"/wort/{_u(w)}", lambda r, w=w: self.word(w))
        for w in _NOUNS[:6]:
            self.add(f"d{w}", f"/deklination/{_u(w)}", lambda r, w=w: self.table(w, "d", ""))
        for w in _VERBS:
            self.add(f"k{w}", f"/konjugation/{_u(w)}", lambda r, w=w: self.table(w, "k", ""))
        for d in ("2026-12-05", "2026-12-04"):
            self.add(f"t{d}", f"/wort-des-tages/{d}", lambda r, d=d: self.wotd(d, ""))

    def home(self) -> str:
        links = [("/browse/", "Stöbern"), ("/wort-des-tages/2026-12-05", "Wort des Tages")]
        links += [("/vokabeltrainer/", "Vokabeltrainer"), ("/anmelden", "Anmelden")]
        return self.html("Wortfeld: Wörterbuch", "home", ul(links), 30, 80)

    def letter(self, L: str) -> list[str]:
        return sorted((w for w in _WORDS if w.lower().startswith(L)), key=_fold)

    def browse(self, L: str, pg: int) -> str:
        ws = self.letter(L)
        shown = ws[:3] if pg == 1 else ws[3:]
        links = [(f"/wort/{_u(w)}", w) for w in shown]
        links.append((f"/browse/{L}/{pg + 1}", "weiter"))
        if pg > 1:
            links.append((f"/browse/{L}/", "zurück"))
        return self.html(f"Wörter mit {L.upper()}, Seite {pg}", f"b{L}{pg}", ul(links), 20, 50)

    def word(self, w: str, key: str = "") -> str:
        links = []
        if w in _NOUNS[:6]:
            links.append((f"/deklination/{_u(w)}", "Deklination"))
        if w in _VERBS:
            links.append((f"/konjugation/{_u(w)}", "Konjugation"))
        links += [(f"/wort/{_u(w)}/synonyme", "Synonyme"), (f"/wort/{_u(w)}/reime", "Reime")]
        links += [(f"/wort/{_u(w)}/uebersetzung/{lang}", lang) for lang in _LANGS[:3]]
        links += [(f"/wort/{_u(w)}?drucken=1", "Drucken"), (f"/vergleich/{_u(w)}", "Vergleichen")]
        links += [(f"/browse/{_fold(w)[0]}/", "Buchstabe"), ("/vokabeltrainer/add", "Merken")]
        return self.html(w, key or f"w{w}", ul(links), 60, 150)

    def table(self, w: str, kind: str, key: str) -> str:
        path = ("/deklination/" if kind == "d" else "/konjugation/") + _u(w)
        if kind == "d":
            opts = (
                ("kasus", ("nom", "gen", "dat", "akk")),
                ("numerus", ("sg", "pl")),
                ("artikel", ("def", "indef", "ohne")),
            )
        else:
            opts = (
                ("zeit", ("praesens", "praeteritum", "perfekt", "futur")),
                ("modus", ("ind", "konj1", "konj2")),
                ("person", ("1", "2", "3")),
            )
        links = [(f"/wort/{_u(w)}", w)]
        for k, vals in opts:
            links += [(f"{path}?{k}={v}", v) for v in vals]
        return self.html(
            f"{'Deklination' if kind == 'd' else 'Konjugation'} von {w}",
            key or f"{kind}{w}",
            ul(links),
            20,
            60,
        )

    def wotd(self, d: str, key: str) -> str:
        w = _WORDS[h(d) % len(_WORDS)] if not key else ""
        links = [(f"/wort/{_u(w)}", w)] if w else []
        links += [
            (f"/wort-des-tages/{day(d, -1)}", "vorheriger Tag"),
            (f"/wort-des-tages/{day(d, 1)}", "nächster Tag"),
        ]
        return self.html(f"Wort des Tages: {d}", key or f"t{d}", ul(links), 20, 50)

    def made(self, key: str, n: int) -> list[str]:
        return [title_of(s).replace(" ", "") for s in slugs(self.key("m" + key), n, self.v, 2)]

    def rest(self, req: Req) -> Reply:
        p, q = req.path, qs(req.query)
        up = unquote(p)
        m = re.fullmatch(r"/wort/([^/]+)(/.*)?", up)
        if m:
            w, tail = m.group(1), m.group(2) or ""
            real = next((x for x in _WORDS if _fold(x) == _fold(w)), None)
            if real and not tail:
                return trap(self.word(real))
            if not tail:
                links = [
                    (f"/wort/{_u(w)}/synonyme", "Synonyme"),
                    (f"/vergleich/{_u(w)}", "Vergleichen"),
                ]
                links += [(f"/wort/{_u(x)}", x) for x in self.made(w, 2)]
                return self.tr(req, w, links, 40, 110)
            links = [(f"/wort/{_u(w)}", w)]
            links += [(f"/wort/{_u(x)}", x) for x in self.made(up, 4)]
            if tail.startswith("/uebersetzung/"):
                links += [(f"/wort/{_u(w)}/uebersetzung/{lang}", lang) for lang in _LANGS]
            else:
                links += [(f"/wort/{_u(x.lower())}", x.lower()) for x in self.made(up + "l", 1)]
                alias = _fold(_WORDS[h(up) % len(_WORDS)])
                links.append((f"/wort/{alias}", alias))
            return self.tr(req, f"{w}: {tail.strip('/')}", links)
        m = re.fullmatch(r"/(deklination|konjugation)/([^/]+)", up)
        if m:
            w = m.group(2)
            kind = "d" if m.group(1) == "deklination" else "k"
            return trap(self.table(w, kind, f"t{req.target}"))
        m = re.fullmatch(r"/vergleich/([^/]+)", up)
        if m:
            ws = m.group(1).split(",")
            links = [(f"/wort/{_u(x)}", x) for x in ws[-3:]]
            for x in [*self.made(up, 2), _WORDS[h(up) % len(_WORDS)]]:
                links.append(("/vergleich/" + ",".join(_u(y) for y in [*ws, x]), "+ " + x))
            return self.tr(req, "Vergleich: " + ", ".join(ws), links)
        m = re.fullmatch(r"/browse/([a-z])/(\d+)", up)
        if m and m.group(1) in _LETTERS:
            pg = int(m.group(2))
            links = [(f"/wort/{_u(x)}", x) for x in self.made(up, 4)]
            links += [
                (f"/browse/{m.group(1)}/{pg + 1}", "weiter"),
                (f"/browse/{m.group(1)}/{max(1, pg - 1)}", "zurück"),
            ]
            return self.tr(req, f"Wörter mit {m.group(1).upper()}, Seite {pg}", links)
        m = re.fullmatch(r"/wort-des-tages/(\d{4}-\d{2}-\d{2})", up)
        if m and is_day(m.group(1)):
            body = self.wotd(m.group(1), f"t{req.target}")
            return trap(body)
        if p == "/suche" and q.get("q"):
            w = q["q"]
            links = [(f"/suche?q={pq(w + x)}", "Meinten Sie " + w + x) for x in ("e", "n", "s")]
            links += [(f"/wort/{_u(x)}", x) for x in self.made(w, 3)]
            return self.tr(req, f"Suche: {w}", links)
        return not_found()


# ----------------------------------------------------------------------------------------
# A currency rate history site. Currencies `/currency/<CODE>/`, pair pages
# `/rates/<A>-<B>/`, conversions `/convert/<amount>-<A>-to-<B>`, daily history
# `/history/<A>-<B>/<date>` (for the three major pairs yesterday and, along "previous
# day", the day before are real; arrows both ways), monthly `/history/<A>-<B>/<YYYY-MM>`
# (November real for the majors). Traps: every other day and month, every other pair of
# the six currencies (own rates), the lower-case pair as an alias, conversions of any
# amount ("x10", "+1", "swap"), charts `?start=&end=&interval=&chart=` with range arrows,
# and cross-rate tables `/cross-rates/?base=&amount=&c=A,B,...` growing a currency per
# click. robots.txt: API, account, login, alerts, widgets, downloads.
# ----------------------------------------------------------------------------------------

_CUR = ("EUR", "USD", "GBP", "CHF", "JPY", "SEK")
_PAIRS = (
    ("EUR", "USD"),
    ("GBP", "USD"),
    ("USD", "JPY"),
    ("EUR", "GBP"),
    ("EUR", "CHF"),
    ("USD", "SEK"),
)
_Y1, _Y2 = "2026-12-04", "2026-12-03"


def _amt(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".")


class Currency(B15):
    """Currency history: day/month arrows, any-amount conversions, cross tables growing."""

    name = "currency"
    kind = "currency rate history: day/month arrows, /convert/<amount>-A-to-B, cross-rate c= list"
    theme = "corp"
    brand = "Harbour FX"
    robots_disallow: ClassVar[list[str]] = [
        "/api/",
        "/account/",
        "/login",
        "/alerts/",
        "/widget/",
        "/download/",
    ]

    def make(self) -> None:
        self.add("home", "/", lambda r: self.home())
        cl = [(f"/currency/{c}/", c) for c in _CUR]
        self.add("curs", "/currencies/", lambda r: self.thin("All currencies", "curs", cl))
        self.add(
            "about", "/about", lambda r: self.thin("About Harbour FX", "about", [("/", "Home")])
        )
        for c in _CUR:
            self.add(f"c{c}", f"/currency/{c}/", lambda r, c=c: self.cur(c))
        for i, (a, b) in enumerate(_PAIRS):
            self.add(f"p{a}{b}", f"/rates/{a}-{b}/", lambda r, i=i: self.pair(i))
            self.add(
                f"v{a}{b}",
                f"/convert/100-{a}-to-{b}",
                lambda r, a=a, b=b: self.conv("100", a, b, ""),
            )
            if i < 3:
                for d in (_Y1, _Y2):
                    self.add(
                        f"h{a}{b}{d}",
                        f"/history/{a}-{b}/{d}",
                        lambda r, a=a, b=b, d=d: self.hday(a, b, d, ""),
                    )
                self.add(
                    f"m{a}{b}",
                    f"/history/{a}-{b}/2026-11",
                    lambda r, a=a, b=b: self.hmon(a, b, "2026-11", ""),
                )

    def rate(self, a: str, b: str, d: str) -> str:
        return f"{(h(a + b + d) % 200000) / 100000 + 0.5:.5f}"

    def home(self) -> str:
        links = [("/currencies/", "Currencies"), ("/about", "About")]
        links += [(f"/rates/{a}-{b}/", f"{a}/{b}") for a, b in _PAIRS]
        links += [("/login", "Log in"), ("/api/", "API")]
        return self.html("Exchange rates", "home", ul(links), 30, 80)

    def cur(self, c: str) -> str:
        links = [(f"/rates/{a}-{b}/", f"{a}/{b}") for a, b in _PAIRS if c in (a, b)]
        links += [
            (f"/cross-rates/?base={c}&amount=1&c=EUR,USD", "Cross rates"),
            ("/currencies/", "All"),
        ]
        return self.html(f"{c} exchange rates", f"c{c}", ul(links), 30, 80)

    def pair(self, i: int) -> str:
        a, b = _PAIRS[i]
        links = [(f"/convert/100-{a}-to-{b}", f"100 {a} in {b}")]
        if i < 3:
            links += [
                (f"/history/{a}-{b}/{_Y1}", "Yesterday"),
                (f"/history/{a}-{b}/2026-11", "November"),
            ]
        links += [(f"/history/{a}-{b}/?interval=daily&chart=line", "Chart")]
        links += [(f"/currency/{a}/", a), (f"/currency/{b}/", b), (f"/download/{a}{b}.csv", "CSV")]
        return self.html(f"{a} to {b}: {self.rate(a, b, '')}", f"p{a}{b}", ul(links), 50, 120)

    def conv(self, amt: str, a: str, b: str, key: str) -> str:
        try:
            x = float(amt)
        except ValueError:
            x = 1.0
        links = [
            (f"/convert/{_amt(x * 10)}-{a}-to-{b}", "x10"),
            (f"/convert/{_amt(x + 1)}-{a}-to-{b}", "+1"),
        ]
        links += [(f"/convert/{amt}-{b}-to-{a}", "Swap"), (f"/rates/{a}-{b}/", f"{a}/{b}")]
        return self.html(f"{amt} {a} to {b}", key or f"v{a}{b}", ul(links), 20, 50)

    def hday(self, a: str, b: str, d: str, key: str) -> str:
        links = [
            (f"/history/{a}-{b}/{day(d, -1)}", "previous day"),
            (f"/history/{a}-{b}/{day(d, 1)}", "next day"),
        ]
        links += [(f"/history/{a}-{b}/{d[:7]}", "month"), (f"/rates/{a}-{b}/", f"{a}/{b}")]
        links += [(f"/convert/100-{a}-to-{b}?date={d}", f"100 {a} on {d}")]
        return self.html(
            f"{a}/{b} on {d}: {self.rate(a, b, d)}", key or f"h{a}{b}{d}", ul(links), 20, 60
        )

    def hmon(self, a: str, b: str, ym: str, key: str) -> str:
        links = [(f"/history/{a}-{b}/{ym}-{dd:02d}", f"{dd}") for dd in (1, 8, 15, 22)]
        links += [
            (f"/history/{a}-{b}/{month(ym, -1)}", "previous month"),
            (f"/history/{a}-{b}/{month(ym, 1)}", "next month"),
        ]
        return self.html(f"{a}/{b} in {ym}", key or f"m{a}{b}{ym}", ul(links), 20, 60)

    def rest(self, req: Req) -> Reply:
        p, q = req.path, qs(req.query)
        m = re.fullmatch(r"/rates/([A-Za-z]{3})-([A-Za-z]{3})/", p)
        if m:
            a, b = m.group(1).upper(), m.group(2).upper()
            if (a, b) in _PAIRS:
                return self.copy(req, 0, f"/rates/{a}-{b}/") or not_found()
            if a in _CUR and b in _CUR and a != b:
                links = [
                    (f"/convert/100-{a}-to-{b}", f"100 {a}"),
                    (f"/history/{a}-{b}/{_Y1}", "Yesterday"),
                ]
                links += [
                    (f"/rates/{b}-{a}/", f"{b}/{a}"),
                    (f"/rates/{b}-{[c for c in _CUR if c != b][h(a + b) % 5]}/", "related"),
                ]
                return self.tr(req, f"{a} to {b}: {self.rate(a, b, '')}", links)
        m = re.fullmatch(r"/convert/(\d+(?:\.\d+)?)-([A-Z]{3})-to-([A-Z]{3})", p)
        if m and m.group(2) in _CUR and m.group(3) in _CUR:
            return trap(self.conv(m.group(1), m.group(2), m.group(3), f"t{req.target}"))
        m = re.fullmatch(r"/history/([A-Z]{3})-([A-Z]{3})/(\d{4}-\d{2}(?:-\d{2})?)?", p)
        if m and m.group(1) in _CUR and m.group(2) in _CUR:
            a, b, d = m.groups()
            if d and len(d) == 10 and is_day(d):
                return trap(self.hday(a, b, d, f"t{req.target}"))
            if d and len(d) == 7 and "01" <= d[5:] <= "12":
                return trap(self.hmon(a, b, d, f"t{req.target}"))
            if not d:
                st, en = q.get("start", "2026-11-05"), q.get("end", "2026-12-05")
                iv, ch = q.get("interval", "daily"), q.get("chart", "line")
                base = f"/history/{a}-{b}/"
                links = [
                    (
                        f"{base}?start={day(st, -30)}&end={day(en, -30)}&interval={iv}&chart={ch}",
                        "earlier",
                    )
                ]
                links += [
                    (f"{base}?start={st}&end={en}&interval={x}&chart={ch}", x)
                    for x in ("daily", "weekly", "monthly")
                    if x != iv
                ]
                links += [
                    (f"{base}?start={st}&end={en}&interval={iv}&chart={x}", x)
                    for x in ("line", "candle", "bar")
                    if x != ch
                ]
                links.append(
                    (f"{base}?start={day(st, -365)}&end={en}&interval={iv}&chart={ch}", "longer")
                )
                return self.tr(req, f"{a}/{b} from {st} to {en}", links)
        if p == "/cross-rates/" and q.get("base") in _CUR:
            cs = [c for c in q.get("c", "").split(",") if c in _CUR]
            amt = num(q, "amount", 1)
            base = f"/cross-rates/?base={q['base']}"
            links = [(f"{base}&amount={amt * 10}&c={','.join(cs)}", "x10")]
            links += [
                (f"{base}&amount={amt}&c={','.join([*cs, c])}", f"+ {c}")
                for c in _CUR
                if c != q["base"]
            ][:3]
            links += [(f"/cross-rates/?base={c}&amount={amt}&c={','.join(cs)}", c) for c in cs[:2]]
            return self.tr(req, f"Cross rates for {amt} {q['base']}", links)
        return not_found()
