"""blind16 sites, part b: a Tripadvisor-style travel review site, the Curlie web directory
with its old DMOZ mirror, and a Zen Cart shop."""

from __future__ import annotations

import re
from typing import ClassVar

from .common import B16, Reply, Req, h, not_found, num, qs, slugs, title_of, trap, ul

# ----------------------------------------------------------------------------------------
# A Tripadvisor-style travel site for one town (geo id g187001). Lists
# `/Hotels-g187001-Tidemill-Hotels.html` with `-oa30-` offsets ("next" without end) and
# amenity filters `-zfa<n>-` appended per click; places `/Hotel_Review-g187001-d<id>-
# Reviews-<Name>-Tidemill.html` with review pages `-or10-`, `-or20-`... Every place links
# single reviews `/ShowUserReviews-g<geo>-d<id>-r<review>-<Name>-<Town>.html`, each links
# its reviewer `/Profile/<user>`, whose other reviews are of made-up places in made-up
# towns (`/Hotel_Review-g<geo>-d<id>-Reviews-...`): an endless graph of made-up records
# across three path shapes. Real pages in the family: the hotel list's `-oa30-` (three
# hotels only there) and `-or10-` of four busy hotels. robots.txt: /Saves, /SmartDeals,
# /UserReviewEdit, /Commerce.
# ----------------------------------------------------------------------------------------

G = 187001
TOWN = "Tidemill"


class Tripadvisor(B16):
    """Tripadvisor: offsets in the file name, filters appended, review/profile graph."""

    name = "tripadvisor"
    kind = "Tripadvisor-style reviews: -oa30-/-or10- offsets, -zfa- filters, profile graph"
    theme = "travel"
    brand = "Tidemill travel reviews"
    robots_disallow: ClassVar[list[str]] = ["/Saves", "/SmartDeals", "/UserReviewEdit", "/Commerce"]

    def make(self) -> None:
        self.places: dict[str, list[tuple[int, str]]] = {}
        for kind, n, base in (
            ("Hotel", 9, 70000),
            ("Restaurant", 6, 80000),
            ("Attraction", 4, 90000),
        ):
            names = self.made(kind, n)
            self.places[kind] = [
                (base + 1237 * k + 11, nm.replace(" ", "_")) for k, nm in enumerate(names)
            ]
        self.add("home", "/", lambda r: self.home())
        self.add("tour", f"/Tourism-g{G}-{TOWN}-Vacations.html", lambda r: self.tour())
        self.add("hl", self.hlist((), 0), lambda r: self.hotels((), 0, "hl"))
        self.add("hl30", self.hlist((), 30), lambda r: self.hotels((), 30, "hl30"))
        self.add("rl", f"/Restaurants-g{G}-{TOWN}.html", lambda r: self.plist("Restaurant", "rl"))
        self.add(
            "al",
            f"/Attractions-g{G}-Activities-{TOWN}.html",
            lambda r: self.plist("Attraction", "al"),
        )
        for kind, ps in self.places.items():
            for k, (d, nm) in enumerate(ps):
                self.add(
                    f"{kind}{k}",
                    self.pu(kind, G, d, nm, TOWN, 0),
                    lambda r, kind=kind, k=k: self.place(kind, k, 0, f"{kind}{k}"),
                )
                if kind == "Hotel" and k < 4:
                    self.add(
                        f"{kind}{k}or10",
                        self.pu(kind, G, d, nm, TOWN, 10),
                        lambda r, k=k: self.place("Hotel", k, 10, f"Hotel{k}or10"),
                    )

    def pu(self, kind: str, g: int, d: int, nm: str, town: str, o: int) -> str:
        off = f"or{o}-" if o else ""
        return f"/{kind}_Review-g{g}-d{d}-Reviews-{off}{nm}-{town}.html"

    def hlist(self, fs: tuple[int, ...], o: int) -> str:
        mid = "".join(f"-zfa{f}" for f in fs) + (f"-oa{o}" if o else "")
        return f"/Hotels-g{G}{mid}-{TOWN}-Hotels.html"

    def home(self) -> str:
        links = [(f"/Tourism-g{G}-{TOWN}-Vacations.html", f"{TOWN} tourism")]
        links += [(f"/Saves/{G}", "My trips"), ("/Commerce?geo=187001", "Deals")]
        return self.html("Read reviews, compare prices", "home", ul(links), 30, 90)

    def tour(self) -> str:
        links = [(self.hlist((), 0), "Hotels"), (f"/Restaurants-g{G}-{TOWN}.html", "Restaurants")]
        links += [(f"/Attractions-g{G}-Activities-{TOWN}.html", "Things to do"), ("/", "Home")]
        return self.html(f"{TOWN} tourism", "tour", ul(links), 50, 130)

    def hotels(self, fs: tuple[int, ...], o: int, key: str) -> str:
        ps = self.places["Hotel"]
        if key in ("hl", "hl30"):
            ks = range(0, 6) if o == 0 else range(6, 9)
        else:
            ks = [(h(key) + j) % 9 for j in range(3)]
        links = [(self.pu("Hotel", G, ps[k][0], ps[k][1], TOWN, 0), ps[k][1]) for k in ks]
        links.append((self.hlist(fs, o + 30), "Next"))
        links += [
            (self.hlist((*fs, a), 0), f"Amenity {a}") for a in (3, 9, 17, 21, 36) if a not in fs
        ]
        return self.html(f"Hotels in {TOWN}" + (f" from {o}" if o else ""), key, ul(links), 20, 60)

    def plist(self, kind: str, key: str) -> str:
        links = [(self.pu(kind, G, d, nm, TOWN, 0), nm) for d, nm in self.places[kind]]
        return self.thin(f"{kind}s in {TOWN}", key, links)

    def place(self, kind: str, k: int, o: int, key: str) -> str:
        d, nm = self.places[kind][k]
        links = [(self.pu(kind, G, d, nm, TOWN, o + 10), "Next reviews")]
        for j in range(3):
            r = h(f"{key}{j}", 10**9)
            links.append((f"/ShowUserReviews-g{G}-d{d}-r{r}-{nm}-{TOWN}.html", f"Review {r}"))
        links += [
            (self.pu(kind, G, d2, n2, TOWN, 0), n2) for d2, n2 in self.places[kind][k + 1 : k + 2]
        ]
        links.append((f"/UserReviewEdit-g{G}-d{d}", "Write a review"))
        return self.html(
            f"{nm.replace('_', ' ')}" + (f", reviews from {o}" if o else ""),
            key,
            ul(links),
            60,
            160,
        )

    def madeplace(self, req: Req, kind: str, g: int, d: int, nm: str, town: str, o: int) -> Reply:
        links = [(self.pu(kind, g, d, nm, town, o + 10), "Next reviews")]
        for j in range(2):
            r = h(f"{req.target}{j}", 10**9)
            links.append((f"/ShowUserReviews-g{g}-d{d}-r{r}-{nm}-{town}.html", f"Review {r}"))
        return self.rich(req, f"{nm.replace('_', ' ')}, {town.replace('_', ' ')}", links)

    def rest(self, req: Req) -> Reply:
        p = req.path
        m = re.fullmatch(rf"/Hotels-g{G}((?:-zfa\d+)*)(?:-oa(\d+))?-{TOWN}-Hotels\.html", p)
        if m:
            fs = tuple(int(x) for x in re.findall(r"\d+", m.group(1)))
            return trap(self.hotels(fs, int(m.group(2) or 0), req.key))
        m = re.fullmatch(
            r"/(Hotel|Restaurant|Attraction)_Review-g(\d+)-d(\d+)-Reviews-(?:or(\d+)-)?([A-Za-z_]+)-([A-Za-z_]+)\.html",
            p,
        )
        if m:
            kind, g, d, o = m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4) or 0)
            real = [k for k, (dd, _) in enumerate(self.places[kind]) if dd == d]
            if g == G and real:
                return trap(self.place(kind, real[0], o, req.key))
            return self.madeplace(req, kind, g, d, m.group(5), m.group(6), o)
        m = re.fullmatch(
            r"/ShowUserReviews-g(\d+)-d(\d+)-r(\d+)-([A-Za-z_]+)-([A-Za-z_]+)\.html", p
        )
        if m:
            user = self.made("u" + m.group(3))[0].replace(" ", "")
            links = [(f"/Profile/{user}", f"Reviewer {user}")]
            links.append(
                (
                    f"/Hotel_Review-g{m.group(1)}-d{m.group(2)}-Reviews-{m.group(4)}-{m.group(5)}.html",
                    "All reviews",
                )
            )
            return self.rich(req, f"Review {m.group(3)} of {m.group(4).replace('_', ' ')}", links)
        m = re.fullmatch(r"/Profile/([A-Za-z]+)", p)
        if m:
            links = []
            for j in range(3):
                x = h(f"{req.target}{j}", 10**6)
                g2, d2, r2 = 180000 + x % 9000, 100000 + x, h(f"{x}", 10**9)
                nm, town = (s.replace(" ", "_") for s in self.made(f"p{x}", 2))
                links.append(
                    (f"/ShowUserReviews-g{g2}-d{d2}-r{r2}-{nm}-{town}.html", f"Review of {nm}")
                )
                links.append((self.pu("Hotel", g2, d2, nm, town, 0), nm))
            links.append((f"/Profile/{m.group(1)}?tab=forum", "Forum posts"))
            return self.rich(req, f"Profile of {m.group(1)}", links)
        return not_found()


# ----------------------------------------------------------------------------------------
# Curlie (the Open Directory's successor) on host 0 and an old DMOZ mirror on host 1 (its
# own home, history and about pages; every category again under the DMOZ path
# `/<Top>/<Sub>/`). Categories `/en/<Top>/<Sub>[/<Subsub>]`; every category shows an
# A-H letter bar `/en/<path>/<L>` and "@" cross-links to related categories written as
# relative links (`Top/Sub`), which the directory resolves anywhere: each click appends the
# related path to the current one (`/en/A/B/C/D/...`). Real pages in the family: the letter
# pages A and B of the largest category. robots.txt: /public/, /editors/.
# ----------------------------------------------------------------------------------------


class Curlie(B16):
    """Curlie: letter bars under every category, relative @links append segments, mirror."""

    name = "curlie"
    kind = "Curlie directory + DMOZ mirror: A-H letter bars, relative @links append segments"
    theme = "general"
    brand = "Curlie"
    hosts = 2
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/en"), (1, "/")]
    robots_disallow: ClassVar[list[str]] = ["/public/", "/editors/"]

    def make(self) -> None:
        tops = [title_of(s).replace(" ", "_") for s in slugs_(self, "top", 4)]
        subs = [title_of(s).replace(" ", "_") for s in slugs_(self, "sub", 12)]
        ss = [title_of(s).replace(" ", "_") for s in slugs_(self, "ss", 4)]
        self.tree: dict[str, list[str]] = {"": tops}
        for i, t in enumerate(tops):
            self.tree[t] = [f"{t}/{s}" for s in subs[3 * i : 3 * i + 3]]
        for j, parent in enumerate(
            [
                self.tree[tops[0]][0],
                self.tree[tops[0]][1],
                self.tree[tops[1]][0],
                self.tree[tops[1]][1],
            ]
        ):
            self.tree.setdefault(parent, []).append(f"{parent}/{ss[j]}")
        self.cats = [c for kids in self.tree.values() for c in kids]
        self.add("home", "/en", lambda r: self.cat("", "home", 0))
        for c in self.cats:
            self.add(f"c{c}", f"/en/{c}", lambda r, c=c: self.cat(c, f"c{c}", 0))
        big = self.tree[tops[0]][0]
        for letter in "AB":
            self.add(
                f"l{letter}",
                f"/en/{big}/{letter}",
                lambda r, L=letter, b=big: self.letter(b, L, f"l{L}"),
            )
        self.add(
            "about",
            "/docs/en/about.html",
            lambda r: self.thin("About Curlie", "ab", [("/en", "Home")]),
        )
        self.add("guide", "/docs/en/guidelines.html", lambda r: self.html("Guidelines", "gd", ""))
        self.add("dhome", "/", lambda r: self.dmoz(), 1)
        self.add(
            "dhist",
            "/docs/history.html",
            lambda r: self.html("History of the directory", "dh", ""),
            1,
        )
        self.add(
            "dabout",
            "/about.html",
            lambda r: self.thin("About this mirror", "dab", [("/", "Home")]),
            1,
        )

    def cat(self, c: str, key: str, host: int) -> str:
        pre = "/en/" if host == 0 else "/"
        end = "" if host == 0 else "/"
        links = [
            (f"{pre}{k}{end}", k.rsplit("/", 1)[-1].replace("_", " ")) for k in self.tree.get(c, [])
        ]
        if c:
            links += [(f"/en/{c}/{L}", L) for L in "ABCDEFGH"]
            j = self.cats.index(c)
            for k in (3, 7):
                rel = self.cats[(j + k) % len(self.cats)]
                links.append((rel, f"@ {rel.replace('_', ' ')}"))
            links.append((f"/public/suggest?cat={c}", "Suggest a site"))
            links += [(f"https://www.{s}.example/", title_of(s)) for s in slugs_(self, c, 2)]
        links += (
            [("/docs/en/about.html", "About"), ("/docs/en/guidelines.html", "Guidelines")]
            if not c
            else []
        )
        title = c.replace("/", ": ").replace("_", " ") or "Curlie - the collector of URLs"
        return self.html(title, key, ul(links), 20, 60)

    def letter(self, c: str, L: str, key: str) -> str:
        links = [(f"https://www.{s}.example/", title_of(s)) for s in slugs_(self, key, 3)]
        links += [(f"/en/{c}/{x}", x) for x in "ABCDEFGH" if x != L] + [(f"/en/{c}", "Up")]
        return self.html(f"{c.replace('_', ' ')}: {L}", key, ul(links), 15, 40)

    def dmoz(self) -> str:
        links = [(f"/{t}/", t.replace("_", " ")) for t in self.tree[""]]
        links += [
            ("/docs/history.html", "History"),
            ("/about.html", "About"),
            (self.bases[0] + "/en", "Curlie"),
        ]
        return self.html("Open Directory (mirror)", "dhome", ul(links), 30, 80)

    def find(self, segs: list[str]) -> str | None:
        for n in (3, 2, 1):
            c = "/".join(segs[-n:])
            if len(segs) >= n and c in self.cats:
                return c
        return None

    def rest(self, req: Req) -> Reply:
        segs = [s for s in req.path.split("/") if s]
        if req.host_index == 0 and (not segs or segs[0] != "en"):
            return not_found()
        segs = segs[1:] if segs and segs[0] == "en" else segs
        if segs and len(segs[-1]) == 1 and segs[-1] in "ABCDEFGH":
            c = "/".join(segs[:-1])
            if c in self.cats:
                links = [(f"/en/{c}/{x}", x) for x in "ABCDEFGH"]
                return self.tr(req, f"{c}: {segs[-1]}", links)
            return not_found()
        c = self.find(segs)
        if c is not None:
            return trap(self.cat(c, req.key, req.host_index))
        return not_found()


def slugs_(site: B16, key: str, n: int) -> list[str]:
    """`n` slugs for `key` on `site`."""
    return slugs(site.key(key), n, site.v, 2)


# ----------------------------------------------------------------------------------------
# A Zen Cart shop. `index.php?main_page=index&cPath=1_12` categories, products
# `main_page=product_info&cPath=&products_id=`. Listings sort (`&sort=2a`...), order
# (`&disp_order=`) and filter by manufacturer (`&filter_id=`); "also purchased" links
# extend the current cPath by one more category (`cPath=1_12_21_32...`). Until cookies are
# confirmed Zen Cart writes the session into every link: the "Write a review" and "Tell a
# friend" links carry a `zenid` minted for this response, and every page under a zenid
# links the whole shop again with it. Real pages in the family: `products_new&page=2`
# (beside the listing sorts and pages) and the shop home `/`. robots.txt: account,
# checkout, shopping cart, login.
# ----------------------------------------------------------------------------------------

ZC = "/index.php?main_page="


class Zencart(B16):
    """Zen Cart: zenid per response, cPath grows per click, sort x order x filter."""

    name = "zencart"
    kind = "Zen Cart shop: zenid session tokens, cPath appended, sort/disp_order/filter_id"
    theme = "shop"
    brand = "Tidemill Outfitters"
    robots_disallow: ClassVar[list[str]] = [
        f"{ZC}account",
        f"{ZC}checkout",
        f"{ZC}shopping_cart",
        f"{ZC}login",
    ]

    def make(self) -> None:
        self.cn = {
            c: t
            for c, t in zip(
                ["1", "2", "3", "1_11", "1_12", "2_21", "2_22", "3_31", "3_32"],
                self.made("cat", 9),
                strict=True,
            )
        }
        self.pn = self.made("prod", 12)
        self.pcat = [["1_11", "1_12", "2_21", "2_22", "3_31", "3_32"][k // 2] for k in range(12)]
        self.add("home", "/", lambda r: self.page("home", {}, ""))
        for c in self.cn:
            self.add(
                f"c{c}", f"{ZC}index&cPath={c}", lambda r, c=c: self.page("index", {"cPath": c}, "")
            )
        for k in range(12):
            self.add(
                f"p{k}",
                self.purl(k, self.pcat[k], ""),
                lambda r, k=k: self.page(
                    "product_info", {"products_id": str(100 + k), "cPath": self.pcat[k]}, ""
                ),
            )
        for m in (
            "shippinginfo",
            "privacy",
            "conditions",
            "contact_us",
            "products_new",
            "specials",
        ):
            self.add(m, f"{ZC}{m}", lambda r, m=m: self.page(m, {}, ""))
        self.add(
            "new2",
            f"{ZC}products_new&page=2",
            lambda r: self.page("products_new", {"page": "2"}, ""),
        )

    def purl(self, k: int, cpath: str, z: str) -> str:
        return self.z(f"{ZC}product_info&cPath={cpath}&products_id={100 + k}", z)

    def z(self, url: str, z: str) -> str:
        return url + f"&zenid={z}" if z else url

    def nav(self, z: str) -> list[tuple[str, str]]:
        links = [(self.z(f"{ZC}index&cPath={c}", z), self.cn[c]) for c in ("1", "2", "3")]
        links += [
            (self.z(f"{ZC}{m}", z), title_of(m))
            for m in (
                "products_new",
                "specials",
                "shippinginfo",
                "privacy",
                "conditions",
                "contact_us",
            )
        ]
        return [*links, (f"{ZC}shopping_cart", "Cart")]

    def page(self, main: str, q: dict[str, str], z: str, key: str = "") -> str:
        links = self.nav(z)
        if z:
            links.insert(0, (self.z(f"{ZC}index", z), "Home"))
        title = title_of(main)
        if main == "index" and q.get("cPath") in self.cn:
            c = q["cPath"]
            title = self.cn[c]
            links += [
                (self.z(f"{ZC}index&cPath={k}", z), self.cn[k])
                for k in self.cn
                if k.startswith(c + "_")
            ]
            links += [
                (self.purl(k, self.pcat[k], z), self.pn[k]) for k in range(12) if self.pcat[k] == c
            ]
            if "_" in c:
                base = self.z(f"{ZC}index&cPath={c}", z)
                srt, do, fid = q.get("sort", ""), q.get("disp_order", ""), q.get("filter_id", "")
                opts = (
                    [("sort", f"{n}{d}") for n in range(1, 6) for d in "ad"]
                    + [("disp_order", str(n)) for n in range(1, 8)]
                    + [("filter_id", str(n)) for n in range(1, 5)]
                )
                cur = {"sort": srt, "disp_order": do, "filter_id": fid}
                for kk, v in opts:
                    if cur[kk] != v:
                        nq = {**cur, kk: v}
                        links.append(
                            (base + "".join(f"&{a}={b}" for a, b in nq.items() if b), f"{kk} {v}")
                        )
        elif (
            main == "product_info"
            and q.get("products_id", "").isdigit()
            and 0 <= int(q["products_id"]) - 100 < 12
        ):
            k = int(q["products_id"]) - 100
            title = self.pn[k]
            cp = q.get("cPath", self.pcat[k])
            tok = z or self.fresh(26, "0123456789abcdefghijklmnopqrstuv")
            links += [
                (f"{ZC}product_reviews_write&products_id={100 + k}&zenid={tok}", "Write a review")
            ]
            links += [(f"{ZC}tell_a_friend&products_id={100 + k}&zenid={tok}", "Tell a friend")]
            for j in (3, 7):
                k2 = (k + j) % 12
                links.append(
                    (
                        self.purl(k2, f"{cp}_{self.pcat[k2].split('_')[1]}", z),
                        f"Also purchased: {self.pn[k2]}",
                    )
                )
        elif main == "products_new":
            pg = num(q, "page", 1)
            ks = (
                range(0, 8)
                if pg == 1
                else range(8, 12)
                if pg == 2
                else [(pg * 5 + j) % 12 for j in range(2)]
            )
            links += [(self.purl(k, self.pcat[k], z), self.pn[k]) for k in ks]
            links.append((self.z(f"{ZC}products_new&page={pg + 1}", z), "Next"))
            title = f"New products, page {pg}"
        elif main == "home":
            title = "Welcome to Tidemill Outfitters"
        key = key or f"{main}{q.get('cPath', '')}{q.get('products_id', '')}{q.get('page', '')}"
        return self.html(title, key, ul(links), 30, 100)

    def rest(self, req: Req) -> Reply:
        q = qs(req.query)
        if req.path != "/index.php":
            return not_found()
        main = q.get("main_page", "index")
        z = re.sub(r"[^0-9a-v]", "", q.get("zenid", ""))[:26]
        if (
            main in ("product_reviews_write", "tell_a_friend")
            and q.get("products_id", "").isdigit()
        ):
            k = (int(q["products_id"]) - 100) % 12
            links = [*self.nav(z), (self.purl(k, self.pcat[k], z), self.pn[k])]
            return self.rich(req, f"{title_of(main)}: {self.pn[k]}", links)
        known = (
            "index",
            "product_info",
            "shippinginfo",
            "privacy",
            "conditions",
            "contact_us",
            "products_new",
            "specials",
        )
        if main in known:
            if main == "index" and not q.get("cPath"):
                main = "home"
            return trap(self.page(main, q, z, req.key))
        return not_found()
