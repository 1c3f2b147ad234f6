"""Blind6 sites, part B: Mastodon (two instances), Open Journal Systems, gitweb, the control."""

from __future__ import annotations

import datetime as dt
from typing import ClassVar
from urllib.parse import quote

from traps.blind.kit import (
    OTHER,
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
from traps.blind2.common import Link, bar, esc, prose, ul

from .common import Hosted, enc, params

# ----------------------------------------------------------------------------------------
# Mastodon, two federated instances (host 0 `harbour.social`, host 1 `fediverse.town`).
# Public profiles page with "Load more" `?max_id=` and "newer" `?min_id=`; the tabs
# `with_replies`, `media` and `tagged/<tag>` list the same toots; each instance serves
# its cached copies of the other's accounts and toots (`/@bob@fediverse.town`,
# `/@bob@fediverse.town/<local id>`); toots have `/embed` views, `/interact/` pages and an
# ActivityPub alternate `/users/<u>/statuses/<id>` that redirects to the HTML page.
# Legit look-alikes: each account's profile, alice's real second page, the toots at their
# home instance, the tag pages, the about and directory pages of both instances.
# ----------------------------------------------------------------------------------------

_MA_HOSTS = ["harbour.social", "fediverse.town"]
_MA_USERS = {"alice": (0, 22), "marek": (0, 7), "jun": (0, 5), "bob": (1, 9), "ines": (1, 5)}
_MA_TAGS = ["tidepools", "birding", "harbourlife"]
_MA_WORDS = [
    "low",
    "tide",
    "this",
    "morning",
    "the",
    "rock",
    "pools",
    "were",
    "full",
    "of",
    "anemones",
    "and",
    "a",
    "tiny",
    "shore",
    "crab",
    "heron",
    "on",
    "the",
    "slipway",
    "again",
    "ferry",
    "late",
    "fog",
    "over",
    "the",
    "bar",
    "seals",
    "hauled",
    "out",
    "at",
    "the",
    "point",
    "new",
    "sensor",
    "on",
    "the",
    "pier",
    "is",
    "live",
    "the",
    "kelp",
    "bed",
    "looks",
    "healthier",
    "than",
    "last",
    "year",
    "anyone",
    "know",
    "what",
    "this",
    "sea",
    "slug",
    "is",
    "storm",
    "coming",
    "in",
    "tonight",
    "lovely",
    "light",
    "on",
    "the",
    "water",
]


class Mastodon(Hosted):
    """Mastodon: max_id/min_id windows, profile tabs, remote copies, /embed, redirects."""

    name = "mastodon"
    kind = "Mastodon x2: ?max_id=/?min_id= windows, tabs, remote-account copies, /embed"
    hosts = 2
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/about"), (1, "/about")]
    robots_disallow: ClassVar[list[str]] = ["/media_proxy/", "/interact/"]
    per = 20

    def robots_txt(self, req: Req) -> str:
        return (
            "# See http://www.robotstxt.org/robotstxt.html for documentation on how to use "
            "the robots.txt file\n\nUser-agent: *\nDisallow: /media_proxy/\nDisallow: /interact/\n"
        )

    def setup(self) -> None:
        rng = self.rng("toots")
        self.toots: list[dict] = []
        t0 = dt.datetime(2025, 3, 1, 8, 0, tzinfo=dt.timezone.utc)
        order = [u for u, (_, n) in _MA_USERS.items() for _ in range(n)]
        rng.shuffle(order)
        for k, u in enumerate(order):
            t = t0 + dt.timedelta(hours=13 * k + rng.randint(0, 9), minutes=rng.randint(0, 59))
            tid = (int(t.timestamp() * 1000) << 16) + rng.randint(0, 65535)
            words = " ".join(rng.choice(_MA_WORDS) for _ in range(rng.randint(9, 24)))
            tags = [x for x in _MA_TAGS if rng.random() < 0.3]
            reply = None
            earlier = [i for i, x in enumerate(self.toots) if x["user"] != u]
            if u != "alice" and earlier and rng.random() < 0.35:
                reply = rng.choice(earlier)
            mention = rng.choice([x for x in _MA_USERS if x != u]) if rng.random() < 0.3 else None
            media = rng.random() < 0.25
            self.toots.append(
                {
                    "user": u,
                    "t": t,
                    "id": tid,
                    "text": words,
                    "tags": tags,
                    "reply": reply,
                    "mention": mention,
                    "media": media,
                }
            )
        self.toots.sort(key=lambda x: -x["id"])  # newest first
        for i, x in enumerate(self.toots):  # replies point at older toots only
            if x["reply"] is not None:
                old = self.reply_target(x, i)
                x["reply"] = old
        for h in (0, 1):
            self.reg(f"about{h}", "/about", h)
            self.reg(f"explore{h}", "/explore", h)
        for u, (h, _) in _MA_USERS.items():
            self.reg(f"@{u}", f"/@{u}", h)
        mine = self.posts("alice", "toots")
        self.reg("@alice:2", f"/@alice?max_id={mine[self.per - 1]['id']}", 0)
        for x in self.toots:
            self.reg(f"s{x['id']}", f"/@{x['user']}/{x['id']}", _MA_USERS[x["user"]][0])
        for tag in _MA_TAGS:
            for h in (0, 1):
                self.reg(f"tag{h}:{tag}", f"/tags/{tag}", h)

    def reply_target(self, x: dict, i: int) -> int | None:
        older = [j for j in range(i + 1, len(self.toots)) if self.toots[j]["user"] != x["user"]]
        return older[len(older) // 3] if older else None

    def posts(self, u: str, tab: str, tag: str = "") -> list[dict]:
        out = [x for x in self.toots if x["user"] == u]
        if tab == "toots":
            out = [x for x in out if x["reply"] is None]
        elif tab == "media":
            out = [x for x in out if x["media"]]
        elif tab == "tagged":
            out = [x for x in out if tag in x["tags"]]
        return out

    def home(self, u: str) -> int:
        return _MA_USERS[u][0]

    def acct_url(self, u: str, h: int) -> str:
        """Where host `h` links account `u`: its own page, or its local copy of a remote one."""
        if self.home(u) == h:
            return f"/@{u}"
        return f"/@{u}@{_MA_HOSTS[self.home(u)]}"

    def toot_url(self, x: dict, h: int) -> str:
        if self.home(x["user"]) == h:
            return f"/@{x['user']}/{x['id']}"
        return f"/@{x['user']}@{_MA_HOSTS[self.home(x['user'])]}/{x['id'] + 4099}"

    def canonical_toot(self, x: dict) -> str:
        return self.url(self.home(x["user"]), f"/@{x['user']}/{x['id']}")

    def render(self, x: dict, h: int, detailed: bool = False) -> str:
        u = x["user"]
        text = esc(x["text"])
        if x["mention"]:
            m = x["mention"]
            text = (
                f"{a(self.url(self.home(m), f'/@{m}'), f'@{m}@{_MA_HOSTS[self.home(m)]}')} " + text
            )
        tags = " ".join(a(f"/tags/{t}", f"#{t}") for t in x["tags"])
        when = x["t"].strftime("%b %d, %Y, %H:%M")
        link = self.toot_url(x, h)
        media = '<div class="media-gallery">[photo]</div>' if x["media"] else ""
        acts = ""
        if detailed:
            acts = bar(
                [
                    (f"/interact/{x['id']}?type={k}", k.title())
                    for k in ("reply", "reblog", "favourite")
                ]
                + [(f"{link}/embed", "Embed"), (f"{link}/reblogs", f"{x['id'] % 7} boosts")]
                + [(f"{link}/favourites", f"{x['id'] % 11} favourites")]
            )
        return (
            f'<div class="entry"><div class="status__info">'
            f"{a(self.acct_url(u, h), f'@{u}@{_MA_HOSTS[self.home(u)]}')} · {a(link, when)}</div>"
            f'<div class="status__content"><p>{text} {tags}</p>{media}</div>{acts}</div>'
        )

    def shell(self, h: int, title: str, main: str, head: str = "") -> str:
        nav = bar([("/about", "About"), ("/explore", "Profile directory")])
        body = (
            f'<div class="public-layout"><div class="header">'
            f"{a('/about', _MA_HOSTS[h])} {nav}</div>"
            f'<div class="container">{main}</div>'
            f'<div class="footer">{_MA_HOSTS[h]} · Powered by Mastodon v3.5.3</div></div>'
        )
        return doc(f"{title} - {_MA_HOSTS[h]}", body, head=head)

    def timeline(self, h: int, base: str, items: list[dict], q: dict[str, str]) -> str:
        mx, mn = q.get("max_id", ""), q.get("min_id", "")
        if mx.isdigit():
            items = [x for x in items if x["id"] < int(mx)]
            page = items[: self.per]
        elif mn.isdigit():
            items = [x for x in items if x["id"] > int(mn)]
            page = items[-self.per :]
            items = items[len(items) - len(page) :]
        else:
            page = items[: self.per]
        out = "".join(self.render(x, h) for x in page)
        nav: list[Link] = []
        if page and (mx or mn):
            nav.append((f"{base}?min_id={page[0]['id']}", "Show newer"))
        if len(items) > len(page):
            nav.append((f"{base}?max_id={page[-1]['id']}", "Load more"))
        return out + f'<div class="pagination">{bar(nav)}</div>'

    def profile(self, req: Req, u: str, tab: str, tag: str, copy: bool) -> Reply:
        h = req.host_index
        q = params(req.query)
        root = self.acct_url(u, h)
        tabs = bar(
            [
                (root, "Toots"),
                (f"{root}/with_replies", "Toots and replies"),
                (f"{root}/media", "Media"),
            ]
        )
        feat = bar([(f"{root}/tagged/{t}", f"#{t}") for t in _MA_TAGS])
        base = root + {"toots": "", "replies": "/with_replies", "media": "/media"}.get(
            tab, f"/tagged/{tag}"
        )
        bio = prose(self, f"bio{u}", words_for("travel"), 20, 40)
        main = (
            f'<div class="card"><h1>@{u}@{_MA_HOSTS[self.home(u)]}</h1>{bio}'
            f'<p>{len(self.posts(u, "all"))} Posts</p></div><div class="tabs">{tabs}</div>'
            f'<div class="featured-tags">{feat}</div>'
            + self.timeline(h, base, self.posts(u, tab, tag), q)
        )
        if copy:
            main = (
                "<p>This profile is from another server; information may be incomplete. "
                f"{a(self.url(self.home(u), f'/@{u}'), 'Browse more on the original profile')}</p>"
                + main
            )
        return self.serve(req, self.shell(h, f"@{u}", main))

    def handle(self, req: Req) -> Reply:
        h, path = req.host_index, req.path
        q = params(req.query)
        if path == "/":
            return redirect("/about")
        if path == "/about":
            local = [u for u in _MA_USERS if self.home(u) == h]
            main = (
                f"<h1>{_MA_HOSTS[h]}</h1>{prose(self, f'about{h}', words_for('travel'), 80, 160)}"
                + "<h3>Active users</h3>"
                + ul([(f"/@{u}", f"@{u}") for u in local])
            )
            return self.serve(req, self.shell(h, "About", main))
        if path == "/explore":
            accts = [u for u in _MA_USERS if q.get("local") != "1" or self.home(u) == h]
            if q.get("order") == "new":
                accts.reverse()
            rows = [(self.acct_url(u, h), f"@{u}@{_MA_HOSTS[self.home(u)]}") for u in accts]
            opts = bar(
                [
                    ("/explore?order=active", "Recently active"),
                    ("/explore?order=new", "New arrivals"),
                    ("/explore?local=1", "From this server"),
                    ("/explore?order=active&local=0", "From known fediverse"),
                ]
            )
            return self.serve(
                req,
                self.shell(
                    h, "Profile directory", f"<h1>Browse a profile directory</h1>{opts}{ul(rows)}"
                ),
            )
        if path.startswith("/tags/"):
            tag = path[6:]
            if tag not in _MA_TAGS:
                return not_found()
            items = [x for x in self.toots if tag in x["tags"]]
            main = f"<h1>#{tag}</h1>" + self.timeline(h, path, items, q)
            return self.serve(req, self.shell(h, f"#{tag}", main))
        if path.startswith("/users/") and "/statuses/" in path:
            u, _, sid = path[7:].partition("/statuses/")
            return redirect(f"/@{u}/{sid}") if u in _MA_USERS and self.home(u) == h else not_found()
        if not path.startswith("/@"):
            return not_found()
        parts = path[2:].split("/")
        acct = parts[0]
        user, _, dom = acct.partition("@")
        if user not in _MA_USERS:
            return not_found()
        if dom:
            if dom == _MA_HOSTS[h]:
                return redirect("/@" + user + ("/" + "/".join(parts[1:]) if parts[1:] else ""))
            if dom != _MA_HOSTS[self.home(user)]:
                return not_found()
        elif self.home(user) != h:
            return not_found()
        copy = bool(dom)
        rest = parts[1:]
        if not rest:
            return self.profile(req, user, "toots", "", copy)
        if rest == ["with_replies"]:
            return self.profile(req, user, "replies", "", copy)
        if rest == ["media"]:
            return self.profile(req, user, "media", "", copy)
        if len(rest) == 2 and rest[0] == "tagged" and rest[1] in _MA_TAGS:
            return self.profile(req, user, "tagged", rest[1], copy)
        if rest[0].isdigit() and len(rest) <= 2:
            sid = int(rest[0]) - (4099 if copy else 0)
            hit = [x for x in self.toots if x["id"] == sid and x["user"] == user]
            if not hit or (len(rest) == 2 and rest[1] not in ("embed", "reblogs", "favourites")):
                return not_found()
            x = hit[0]
            if len(rest) == 2 and rest[1] != "embed":
                who = [u for k, u in enumerate(_MA_USERS) if (x["id"] >> k) % 2 and u != user]
                rows = [(self.acct_url(u, h), f"@{u}@{_MA_HOSTS[self.home(u)]}") for u in who]
                main = self.render(x, h) + f"<h3>{rest[1].title()}</h3>" + ul(rows)
                return self.serve(req, self.shell(h, rest[1].title(), main))
            if len(rest) == 2:
                return self.serve(
                    req, doc("Embed", f'<div class="embed">{self.render(x, h)}</div>')
                )
            anc = self.toots[x["reply"]] if x["reply"] is not None else None
            kids = [y for y in self.toots if y["reply"] is not None and self.toots[y["reply"]] is x]
            ctx = ""
            if anc:
                up = a(self.canonical_toot(anc), "In reply to")
                ctx += f'<div class="ancestors">{up} {self.render(anc, h)}</div>'
            ctx += self.render(x, h, True)
            for y in kids:
                down = a(self.canonical_toot(y), "Reply")
                ctx += f'<div class="descendants">{down} {self.render(y, h)}</div>'
            head = (
                f'<link rel="alternate" type="application/activity+json" '
                f'href="/users/{user}/statuses/{x["id"]}">'
                if not copy
                else ""
            )
            title = f'{user}: "{x["text"][:40]}"'
            return self.serve(req, self.shell(h, title, ctx, head))
        return not_found()


# ----------------------------------------------------------------------------------------
# Open Journal Systems 3.3 (default theme, Citation Style Language plugin, keyword cloud,
# "similar articles"). Each article offers ten "How to cite" formats
# (`citationstylelanguage/get/<style>?submissionId=&publicationId=`); `issue/current` and
# `issue/view/<id>/showToc` repeat an issue, `version/<current>` the article; keyword and
# similarity links open `search/search?query=` result lists, paged with `searchPage=`; the
# language links pass through `user/setLocale/<loc>?source=<current URL>` (a redirect).
# Legit look-alikes: the real older versions of four articles, the four issues, the PDF
# galley pages, the announcements and the about pages.
# ----------------------------------------------------------------------------------------

_OJ = "/index.php/jcb"
_OJ_STYLES = [
    "acm-sig-proceedings",
    "acs-nano",
    "apa",
    "associacao-brasileira-de-normas-tecnicas",
    "chicago-author-date",
    "harvard-cite-them-right",
    "ieee",
    "modern-language-association",
    "turabian-fullnote-bibliography",
    "vancouver",
]
_OJ_KW = [
    "salt marsh",
    "eelgrass",
    "sediment transport",
    "sea-level rise",
    "benthic fauna",
    "estuary",
    "mangrove",
    "dune vegetation",
    "shorebirds",
    "coastal erosion",
    "phytoplankton",
    "tidal flats",
    "invasive species",
    "kelp forest",
]
_OJ_PLACES = ["the Wadden Sea", "Chesapeake Bay", "the Solent", "Moreton Bay", "Puget Sound"]
_OJ_NAMES = [
    "Ingrid Solberg",
    "Kwame Mensah",
    "Lucía Herrera",
    "Hiroshi Tanaka",
    "Fiona MacLeod",
    "Rahul Desai",
    "Élodie Martin",
    "Samuel Okafor",
    "Marta Kowalska",
    "Ben Ashworth",
]


class OJS(Hosted):
    """Open Journal Systems: citation styles, version/showToc/current copies, searches."""

    name = "ojs"
    kind = "Open Journal Systems 3: CSL how-to-cite x10, version/ and showToc copies, search"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, f"{_OJ}/index")]
    robots_disallow: ClassVar[list[str]] = [
        f"{_OJ}/login",
        f"{_OJ}/user/register",
        "/cache/",
        "/lib/pkp/",
    ]

    def setup(self) -> None:
        self.vocab = words_for("science")
        r = self.rng("arts")
        self.issues = [(12 + k, 2023 + k // 2, 1 + k % 2) for k in range(4)]  # id, year, no
        self.arts: list[dict] = []
        for k in range(24):
            kws = r.sample(_OJ_KW, 3)
            place = r.choice(_OJ_PLACES)
            title = f"{kws[0].capitalize()} and {kws[1]} in {place}"
            self.arts.append(
                {
                    "id": 140 + 3 * k + r.randint(0, 2),
                    "title": title,
                    "kw": kws,
                    "authors": r.sample(_OJ_NAMES, r.randint(1, 3)),
                    "issue": k // 6,
                    "pubs": [1000 + 2 * k] + ([1001 + 2 * k] if k % 6 == 2 else []),
                    "galley": 300 + 5 * k,
                }
            )
        self.reg("home", f"{_OJ}/index")
        for p in (
            "about",
            "about/editorialTeam",
            "about/submissions",
            "about/contact",
            "issue/archive",
            "announcement",
        ):
            self.reg(p, f"{_OJ}/{p}")
        for n in range(1, 4):
            self.reg(f"ann{n}", f"{_OJ}/announcement/view/{n}")
        for iid, _, _ in self.issues:
            self.reg(f"issue{iid}", f"{_OJ}/issue/view/{iid}")
        for x in self.arts:
            self.reg(f"art{x['id']}", f"{_OJ}/article/view/{x['id']}")
            self.reg(f"gal{x['id']}", f"{_OJ}/article/view/{x['id']}/{x['galley']}")
            if len(x["pubs"]) > 1:
                self.reg(f"old{x['id']}", f"{_OJ}/article/view/{x['id']}/version/{x['pubs'][0]}")

    def shell(self, req: Req, title: str, main: str) -> str:
        src = enc(req.target)
        nav = bar(
            [
                (f"{_OJ}/issue/current", "Current"),
                (f"{_OJ}/issue/archive", "Archives"),
                (f"{_OJ}/announcement", "Announcements"),
                (f"{_OJ}/about", "About"),
            ]
        )
        cloud = " ".join(a(f"{_OJ}/search/search?query={quote(k)}", k) for k in _OJ_KW)
        langs = bar(
            [
                (f"{_OJ}/user/setLocale/{loc}?source={src}", name)
                for loc, name in (
                    ("en_US", "English"),
                    ("fr_CA", "Français (Canada)"),
                    ("es_ES", "Español (España)"),
                )
            ]
        )
        body = (
            f'<header class="pkp_structure_head"><h1>'
            f"{a(f'{_OJ}/index', 'Journal of Coastal Biogeography')}</h1>"
            f"<nav>{nav} {a(f'{_OJ}/login', 'Login')}"
            f" {a(f'{_OJ}/user/register', 'Register')}</nav></header>"
            f'<div class="pkp_structure_main"><h2>{esc(title)}</h2>{main}</div>'
            f'<div class="pkp_structure_sidebar"><div class="block_keyword_cloud">{cloud}</div>'
            f'<div class="block_language">{langs}</div></div>'
            f"<footer>{a(f'{_OJ}/about/submissions', 'Submissions')}"
            f" · Platform & workflow by OJS / PKP</footer>"
        )
        return doc(f"{title} | Journal of Coastal Biogeography", body)

    def art_row(self, x: dict) -> str:
        view = f"{_OJ}/article/view/{x['id']}"
        return (
            f'<div class="obj_article_summary"><h3>{a(view, x["title"])}</h3>'
            f'<div class="authors">{esc(", ".join(x["authors"]))}</div>'
            f"{a(view + '/' + str(x['galley']), 'PDF')}</div>"
        )

    def issue_page(self, req: Req, k: int) -> Reply:
        iid, y, no = self.issues[k]
        arts = [x for x in self.arts if x["issue"] == k]
        main = (
            f"<p>Vol. {y - 2017} No. {no} ({y})</p>{prose(self, f'issue{k}', self.vocab, 40, 80)}"
            + "".join(self.art_row(x) for x in arts)
            + f"<p>{a(f'{_OJ}/issue/view/{iid}/showToc', 'Table of contents')}</p>"
        )
        return self.serve(req, self.shell(req, f"Vol. {y - 2017} No. {no} ({y})", main))

    def article(self, req: Req, x: dict, pub: int) -> Reply:
        old = pub != x["pubs"][-1]
        sid, aid = x["id"], f"{_OJ}/article/view/{x['id']}"
        csl = f"{_OJ}/citationstylelanguage"
        cites = "".join(
            f"<li>{a(f'{csl}/get/{s}?submissionId={sid}&publicationId={pub}', s)}</li>"
            for s in _OJ_STYLES
        )
        dl = bar(
            [
                (
                    f"{_OJ}/citationstylelanguage/download/{f}?submissionId={sid}&publicationId={pub}",
                    f.upper(),
                )
                for f in ("ris", "bibtex")
            ]
        )
        versions = ""
        if len(x["pubs"]) > 1:
            versions = "<h3>Versions</h3>" + ul(
                [
                    (
                        f"{aid}/version/{p}",
                        f"Version {n} ({'current' if n == len(x['pubs']) else 'outdated'})",
                    )
                    for n, p in enumerate(x["pubs"], 1)
                ]
            )
        _, y, no = self.issues[x["issue"]]
        vol = f"Vol. {y - 2017} No. {no} ({y})"
        simq = f"{_OJ}/search/search?query=" + "+".join(quote(k) for k in x["kw"])
        similar = [y for y in self.arts if y is not x and set(y["kw"]) & set(x["kw"])][:3]
        main = (
            (
                f"<p class='outdated'>This is an outdated version. "
                f"{a(aid, 'Read the most recent version')}.</p>"
                if old
                else ""
            )
            + f"<p>{esc(', '.join(x['authors']))}</p><h3>Abstract</h3>"
            + prose(self, f"abs{sid}{pub}", self.vocab, 150, 260)
            + f"<p>Keywords: {esc(', '.join(x['kw']))}</p>"
            + f"<p>{a(aid + '/' + str(x['galley']), 'PDF')}</p>"
            + f'<div class="citation"><h3>How to Cite</h3><ul>{cites}</ul>'
            + f"<p>Download Citation {dl}</p></div>"
            + versions
            + "<h3>Similar Articles</h3>"
            + ul([(f"{_OJ}/article/view/{y['id']}", y["title"]) for y in similar])
            + f"<p>{a(simq, 'advanced similarity search')}</p>"
            + f"<p>Issue: {a(_OJ + '/issue/view/' + str(self.issues[x['issue']][0]), vol)}</p>"
        )
        return self.serve(req, self.shell(req, x["title"], main))

    def handle(self, req: Req) -> Reply:
        path, q = req.path, params(req.query)
        if path in ("/", "/index.php", "/index.php/", _OJ, _OJ + "/"):
            return redirect(f"{_OJ}/index")
        if not path.startswith(_OJ + "/"):
            return not_found()
        rest = path[len(_OJ) + 1 :].strip("/").split("/")
        op = "/".join(rest)
        if op == "index":
            main = (
                prose(self, "home", self.vocab, 80, 140)
                + "<h3>Current issue</h3>"
                + "".join(self.art_row(x) for x in self.arts if x["issue"] == 3)
                + f"<p>{a(f'{_OJ}/issue/archive', 'View All Issues')}</p>"
            )
            return self.serve(req, self.shell(req, "Home", main))
        if op in ("about", "about/editorialTeam", "about/submissions", "about/contact"):
            extra = (
                ul(
                    [
                        (f"{_OJ}/{p}", t)
                        for p, t in (
                            ("about/editorialTeam", "Editorial Team"),
                            ("about/submissions", "Submissions"),
                            ("about/contact", "Contact"),
                        )
                    ]
                )
                if op == "about"
                else ""
            )
            return self.serve(
                req,
                self.shell(
                    req, op.split("/")[-1].title(), prose(self, op, self.vocab, 90, 200) + extra
                ),
            )
        if op == "issue/archive":
            rows = [
                (f"{_OJ}/issue/view/{iid}", f"Vol. {y - 2017} No. {no} ({y})")
                for iid, y, no in reversed(self.issues)
            ]
            return self.serve(req, self.shell(req, "Archives", ul(rows)))
        if op == "issue/current":
            return self.issue_page(req, 3)
        if rest[:2] == ["issue", "view"] and len(rest) in (3, 4):
            ids = [i for i, _, _ in self.issues]
            if (
                rest[2].isdigit()
                and int(rest[2]) in ids
                and (len(rest) == 3 or rest[3] == "showToc")
            ):
                return self.issue_page(req, ids.index(int(rest[2])))
            return not_found()
        if op == "announcement":
            rows = [
                (f"{_OJ}/announcement/view/{n}", t)
                for n, t in (
                    (3, "Call for papers: special issue on blue carbon"),
                    (2, "New section editor appointed"),
                    (1, "The journal is now indexed in DOAJ"),
                )
            ]
            return self.serve(req, self.shell(req, "Announcements", ul(rows)))
        if rest[:2] == ["announcement", "view"] and len(rest) == 3 and rest[2] in ("1", "2", "3"):
            return self.serve(
                req,
                self.shell(
                    req,
                    f"Announcement {rest[2]}",
                    prose(self, f"ann{rest[2]}", self.vocab, 60, 120),
                ),
            )
        if rest[:2] == ["article", "view"] and len(rest) >= 3 and rest[2].isdigit():
            hit = [x for x in self.arts if x["id"] == int(rest[2])]
            if not hit:
                return not_found()
            x = hit[0]
            if len(rest) == 3:
                return self.article(req, x, x["pubs"][-1])
            if (
                len(rest) == 5
                and rest[3] == "version"
                and rest[4].isdigit()
                and int(rest[4]) in x["pubs"]
            ):
                return self.article(req, x, int(rest[4]))
            if len(rest) == 4 and rest[3] == str(x["galley"]):
                dlu = f"{_OJ}/article/download/{x['id']}/{x['galley']}"
                back = f"{_OJ}/article/view/{x['id']}"
                main = f"<p>{a(back, '← Back to Article Details')}</p>"
                main += f'<iframe src="{dlu}"></iframe><p>{a(dlu, "Download PDF")}</p>'
                return self.serve(req, self.shell(req, f"View of {x['title']}", main))
            return not_found()
        if rest[:2] == ["article", "download"]:
            return Reply(b"%PDF-1.5\n%...\n", OTHER, None, ctype="application/pdf")
        if (
            rest[:2] == ["citationstylelanguage", "get"]
            and len(rest) == 3
            and rest[2] in _OJ_STYLES
        ):
            hit = [x for x in self.arts if str(x["id"]) == q.get("submissionId")]
            if not hit:
                return not_found()
            x = hit[0]
            cite = f"{', '.join(x['authors'])} ({2023 + x['issue'] // 2}). {x['title']}."
            cite += " Journal of Coastal Biogeography."
            return self.serve(
                req,
                f'<div class="csl-bib-body"><div class="csl-entry">{esc(cite)} [{rest[2]}]</div>'
                "</div>",
            )
        if rest[:2] == ["citationstylelanguage", "download"]:
            return Reply("TY  - JOUR\n", OTHER, None, ctype="application/x-research-info-systems")
        if rest[:2] == ["user", "setLocale"]:
            src = q.get("source", "")
            return redirect(src if src.startswith("/") else f"{_OJ}/index")
        if op == "search/search" or op == "search":
            terms = [t for t in q.get("query", "").lower().replace("+", " ").split() if t]
            hits = [
                x
                for x in self.arts
                if any(t in " ".join(x["kw"]) + " " + x["title"].lower() for t in terms)
            ]
            page = int(q.get("searchPage", "1")) if q.get("searchPage", "1").isdigit() else 1
            per = 10
            shown = hits[(page - 1) * per : page * per]
            pager = bar(
                [
                    (
                        f"{_OJ}/search/search?query={quote(q.get('query', ''))}&searchPage={n}",
                        str(n),
                    )
                    for n in range(1, -(-len(hits) // per) + 1)
                ]
            )
            main = (
                f"<p>{len(hits)} items</p>"
                + "".join(self.art_row(x) for x in shown)
                + f"<p>{pager}</p>"
            )
            return self.serve(req, self.shell(req, "Search", main))
        return not_found()


# ----------------------------------------------------------------------------------------
# gitweb (git's own CGI browser, `;`-separated query). Every commit links its tree, each
# changed file's blob, blobdiff, history and blame at that commit, its commitdiff, a
# shortlog from that commit (`a=shortlog;h=<sha>`, paging `pg=`), and author searches
# (`a=search;h=<sha>;st=author;s=<name>`); trees link every blob at that commit.
# Legit look-alikes: the project list, the two summaries, shortlogs and tag lists, the
# commits, the trees and blobs at HEAD.
# ----------------------------------------------------------------------------------------

_GW_PROJECTS = {
    "tidecalc.git": (
        "Harmonic tide prediction library",
        {
            "src": ["harmonics.c", "predict.c", "io.c"],
            "doc": ["README", "CONSTITUENTS"],
            "": ["Makefile"],
        },
        18,
    ),
    "chartkit.git": (
        "Nautical chart tile renderer",
        {"lib": ["tiles.py", "render.py"], "": ["setup.py", "README.md"]},
        9,
    ),
}
_GW_AUTHORS = ["Nils Berg", "Aoife Byrne", "Carlos Pena", "Yuki Mori"]


class Gitweb(Hosted):
    """gitweb: tree/blob/blame/history/blobdiff at every commit, shortlog;h=, searches."""

    name = "gitweb"
    kind = "gitweb: ;a=tree|blob|blame|history at every ;hb=<sha>, shortlog;h=;pg=, a=search"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/git/"]
    per = 10

    def setup(self) -> None:
        self.vocab = words_for("archive")
        r = self.rng("commits")
        self.repo: dict[str, dict] = {}
        for p, (desc, tree, n) in _GW_PROJECTS.items():
            files = [f"{d}/{f}" if d else f for d, fs in tree.items() for f in fs]
            commits = []
            for i in range(n):
                sha = "".join(r.choice("0123456789abcdef") for _ in range(40))
                changed = sorted(
                    set(r.sample(files, r.randint(1, 3)) + ([files[i]] if i < len(files) else []))
                )
                verb = r.choice(["Fix", "Add", "Refactor", "Document", "Speed up", "Test"])
                what = r.choice(["handling", "support", "parsing", "output", "checks"])
                msg = f"{verb} {r.choice(self.vocab)} {what}"
                commits.append(
                    {
                        "sha": sha,
                        "changed": changed,
                        "msg": msg,
                        "author": r.choice(_GW_AUTHORS),
                        "date": dt.datetime(2025, 1, 3)
                        + dt.timedelta(days=9 * i + r.randint(0, 5)),
                    }
                )
            commits.reverse()  # newest first
            dirs = sorted({f.rsplit("/", 1)[0] for f in files if "/" in f})
            self.repo[p] = {
                "desc": desc,
                "files": files,
                "dirs": dirs,
                "commits": commits,
                "tags": {
                    f"v0.{k + 1}": commits[len(commits) - 1 - 4 * k]["sha"] for k in range(n // 5)
                },
            }
            self.reg(f"sum:{p}", f"/?p={p};a=summary")
            self.reg(f"log:{p}", f"/?p={p};a=shortlog")
            if n > self.per:
                self.reg(f"log2:{p}", f"/?p={p};a=shortlog;pg=1")
            self.reg(f"tags:{p}", f"/?p={p};a=tags")
            self.reg(f"tree:{p}", f"/?p={p};a=tree")
            for d in dirs:
                self.reg(f"tree:{p}:{d}", f"/?p={p};a=tree;f={d};hb=HEAD")
            for f in files:
                self.reg(f"blob:{p}:{f}", f"/?p={p};a=blob;f={f};hb=HEAD")
            for c in commits:
                self.reg(f"c:{c['sha']}", f"/?p={p};a=commit;h={c['sha']}")
        self.reg("list", "/")

    def obj(self, *parts: str) -> str:
        return "".join(self.rng("|".join(parts)).choice("0123456789abcdef") for _ in range(40))

    def shell(self, p: str | None, title: str, main: str) -> str:
        nav = ""
        if p:
            nav = bar(
                [
                    (f"/?p={p};a=summary", "summary"),
                    (f"/?p={p};a=shortlog", "shortlog"),
                    (f"/?p={p};a=log", "log"),
                    (f"/?p={p};a=commit;h=HEAD", "commit"),
                    (f"/?p={p};a=commitdiff;h=HEAD", "commitdiff"),
                    (f"/?p={p};a=tree", "tree"),
                ]
            )
        body = (
            f'<div class="page_header">{a("/", "projects")}'
            + (f" / {a(f'/?p={p};a=summary', p)}" if p else "")
            + f' / {esc(title)}</div><div class="page_nav">{nav}</div>{main}'
            + f'<div class="page_footer">{a(f"/?p={p};a=rss", "RSS") if p else ""}</div>'
        )
        return doc(f"{p or 'git'} - {title}", body)

    def idx(self, p: str, ref: str) -> int | None:
        cs = self.repo[p]["commits"]
        if ref in ("HEAD", "master", "refs/heads/master"):
            return 0
        if ref in self.repo[p]["tags"]:
            ref = self.repo[p]["tags"][ref]
        for i, c in enumerate(cs):
            if len(ref) >= 7 and c["sha"].startswith(ref):
                return i
        return None

    def log_rows(self, p: str, start: int, n: int) -> str:
        cs = self.repo[p]["commits"]
        rows = []
        for c in cs[start : start + n]:
            s = c["sha"]
            links = bar(
                [
                    (f"/?p={p};a=commit;h={s}", "commit"),
                    (f"/?p={p};a=commitdiff;h={s}", "commitdiff"),
                    (f"/?p={p};a=tree;h={self.obj(p, s, 'tree')};hb={s}", "tree"),
                    (f"/?p={p};a=snapshot;h={s};sf=tgz", "snapshot"),
                ]
            )
            author = a(f"/?p={p};a=search;h={s};s={quote(c['author'])};st=author", c["author"])
            rows.append(
                f"<tr><td>{c['date']:%Y-%m-%d}</td><td>{author}</td>"
                f"<td>{a(f'/?p={p};a=commit;h={s}', c['msg'])}</td><td>{links}</td></tr>"
            )
        return '<table class="shortlog">' + "".join(rows) + "</table>"

    def handle(self, req: Req) -> Reply:
        if req.path != "/":
            return not_found()
        q = params(req.query)
        if not req.query:
            rows = [(f"/?p={p};a=summary", f"{p} — {v['desc']}") for p, v in self.repo.items()]
            return self.serve(req, self.shell(None, "projects", "<h2>Projects</h2>" + ul(rows)))
        p = q.get("p", "")
        if p not in self.repo:
            return not_found()
        R = self.repo[p]
        cs = R["commits"]
        act = q.get("a", "summary")
        if act in ("rss", "atom", "opml", "snapshot", "blob_plain"):
            return Reply(
                "<rss/>" if act != "snapshot" else b"\x1f\x8b",
                OTHER,
                None,
                ctype="application/octet-stream",
            )
        if act == "summary":
            main = (
                f"<table><tr><td>description</td><td>{esc(R['desc'])}</td></tr>"
                f"<tr><td>URL</td><td>{a(f'/git/{p}', f'http://git.example/git/{p}')}</td></tr></table>"
                f"{prose(self, f'readme{p}', self.vocab, 60, 120)}"
                f"<h3>{a(f'/?p={p};a=shortlog', 'shortlog')}</h3>{self.log_rows(p, 0, self.per)}"
                f"<h3>{a(f'/?p={p};a=tags', 'tags')}</h3>"
                + ul([(f"/?p={p};a=commit;h={s}", t) for t, s in R["tags"].items()])
            )
            return self.serve(req, self.shell(p, "summary", main))
        if act == "tags":
            rows = [(f"/?p={p};a=commit;h={s}", t) for t, s in R["tags"].items()]
            rows += [(f"/?p={p};a=shortlog;h=refs/tags/{t}", f"{t} shortlog") for t in R["tags"]]
            return self.serve(req, self.shell(p, "tags", ul(rows)))
        i = self.idx(p, q.get("hb") or q.get("h") or "HEAD")
        if i is None and act in ("shortlog", "log", "commit", "commitdiff", "search"):
            h = q.get("h", "")
            i = self.idx(p, h.replace("refs/tags/", "")) if h else 0
        if i is None:
            return not_found()
        c = cs[i]
        if act in ("shortlog", "log", "search"):
            pg = int(q.get("pg", "0")) if q.get("pg", "0").isdigit() else 0
            start = i + pg * (self.per if act != "log" else 5)
            n = self.per if act != "log" else 5
            pager: list[Link] = [(f"/?p={p};a={act}", "HEAD")]
            base = f"/?p={p};a={act};h={c['sha']}" if "h" in q else f"/?p={p};a={act}"
            if act == "search":
                base += f";s={quote(q.get('s', ''))};st={q.get('st', 'author')}"
            if pg > 0:
                pager.append((f"{base};pg={pg - 1}", "prev"))
            if start + n < len(cs):
                pager.append((f"{base};pg={pg + 1}", "next"))
            main = self.log_rows(p, start, n) + f'<div class="page_nav">{bar(pager)}</div>'
            return self.serve(req, self.shell(p, act, main))
        s = c["sha"]
        if act in ("commit", "commitdiff"):
            files = "".join(
                f"<tr><td>{a(f'/?p={p};a=blob;f={f};h={self.obj(p, s, f)};hb={s}', f)}</td><td>"
                + bar(
                    [
                        (
                            f"/?p={p};a=blobdiff;f={f};h={self.obj(p, s, f)}"
                            f";hp={self.obj(p, 'p' + s, f)};hb={s}",
                            "diff",
                        ),
                        (f"/?p={p};a=blob;f={f};h={self.obj(p, s, f)};hb={s}", "blob"),
                        (f"/?p={p};a=history;f={f};h={s}", "history"),
                        (f"/?p={p};a=blame;f={f};hb={s}", "blame"),
                    ]
                )
                + "</td></tr>"
                for f in c["changed"]
            )
            parent = f"/?p={p};a=commit;h={cs[i + 1]['sha']}" if i + 1 < len(cs) else ""
            tree = f"/?p={p};a=tree;h={self.obj(p, s, 'tree')};hb={s}"
            main = (
                f"<h3>{esc(c['msg'])}</h3><table><tr><td>author</td><td>{esc(c['author'])}</td></tr>"
                f"<tr><td>commit</td><td>{s}</td></tr>"
                f"<tr><td>tree</td><td>{a(tree, 'tree')} | "
                f"{a(f'/?p={p};a=snapshot;h={s};sf=tgz', 'snapshot')}</td></tr>"
                + (
                    f"<tr><td>parent</td><td>{a(parent, cs[i + 1]['sha'])}</td></tr>"
                    if parent
                    else ""
                )
                + f"</table>{prose(self, f'msg{s}', self.vocab, 20, 60)}<table>{files}</table>"
                + f"<p>{a(f'/?p={p};a=shortlog;h={s}', 'shortlog from here')}</p>"
            )
            if act == "commitdiff":
                main += (
                    "<pre>" + "\n".join(f"--- a/{f}\n+++ b/{f}" for f in c["changed"]) + "</pre>"
                )
            return self.serve(req, self.shell(p, act, main))
        f = q.get("f", "")
        hb = q.get("hb") or ("HEAD" if "h" not in q else s)
        if act == "tree":
            if f and f not in R["dirs"]:
                return not_found()
            entries = [x for x in R["files"] if (x.rsplit("/", 1)[0] if "/" in x else "") == f]
            subdirs = [d for d in R["dirs"] if not f and "/" not in d]
            rows = [
                (
                    f"/?p={p};a=tree;f={d};hb={hb}"
                    if hb == "HEAD"
                    else f"/?p={p};a=tree;f={d};h={self.obj(p, s, d)};hb={hb}",
                    d + "/",
                )
                for d in subdirs
            ]
            rows += [
                (
                    f"/?p={p};a=blob;f={x};hb={hb}"
                    if hb == "HEAD"
                    else f"/?p={p};a=blob;f={x};h={self.obj(p, s, x)};hb={hb}",
                    x,
                )
                for x in entries
            ]
            rows += [(f"/?p={p};a=history;f={x};hb={hb}", f"{x} history") for x in entries]
            return self.serve(req, self.shell(p, f"tree {f or '/'}", ul(rows)))
        if f not in R["files"]:
            return not_found()
        last = next((j for j in range(i, len(cs)) if f in cs[j]["changed"]), len(cs) - 1)
        if act in ("blob", "blame", "blobdiff"):
            body = prose(self, f"blob{p}{f}{last}", self.vocab, 60, 160)
            extra = bar(
                [
                    (f"/?p={p};a=blob_plain;f={f};hb={hb}", "raw"),
                    (f"/?p={p};a=blame;f={f};hb={hb}", "blame"),
                    (f"/?p={p};a=history;f={f};hb={hb}", "history"),
                    (f"/?p={p};a=blob;f={f};hb=HEAD", "HEAD"),
                ]
            )
            return self.serve(
                req, self.shell(p, f"{act} {f}", f"<div>{extra}</div><pre>{body}</pre>")
            )
        if act == "history":
            rows = [
                (
                    f"/?p={p};a=blob;f={f};h={self.obj(p, cs[j]['sha'], f)};hb={cs[j]['sha']}",
                    f"{cs[j]['date']:%Y-%m-%d} {cs[j]['msg']}",
                )
                for j in range(i, len(cs))
                if f in cs[j]["changed"]
            ]
            return self.serve(req, self.shell(p, f"history {f}", ul(rows)))
        return not_found()


# ----------------------------------------------------------------------------------------
# Control: a plain site with no traps.
# ----------------------------------------------------------------------------------------


class Control(Hosted):
    """A plain site with no traps."""

    name = "control"
    kind = "no traps: home, about, 4 sections of 7 pages, one robots-disallowed link"
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = ["/intranet/"]

    def setup(self) -> None:
        self.vocab = words_for("travel")
        self.secs = ["walks", "ferries", "museums", "markets"]
        self.pages = {s: slugs(self.key(f"p{s}"), 7, self.vocab, 2) for s in self.secs}
        self.reg("home", "/")
        self.reg("about", "/about/")
        for s in self.secs:
            self.reg(f"s:{s}", f"/{s}/")
            for x in self.pages[s]:
                self.reg(f"p:{s}/{x}", f"/{s}/{x}/")

    def handle(self, req: Req) -> Reply:
        pid = self.pid_of(req)
        if pid is None:
            return not_found()
        links: list[Link] = []
        if pid == "home":
            links = [(f"/{s}/", title_of(s)) for s in self.secs]
        elif pid.startswith("s:"):
            links = [(f"/{pid[2:]}/{x}/", title_of(x)) for x in self.pages[pid[2:]]]
        elif pid.startswith("p:"):
            links = [(f"/{pid[2:].split('/')[0]}/", "Back to the section")]
        nav = bar(
            [("/", "Home"), *[(f"/{s}/", title_of(s)) for s in self.secs], ("/about/", "About")]
        )
        title = (
            "Estuary Visitor Guide"
            if pid == "home"
            else title_of(pid.split("/")[-1].split(":")[-1])
        )
        body = (
            f"<header>{nav}</header><main><h1>{esc(title)}</h1>{prose(self, pid, self.vocab)}"
            f"{ul(links)}</main><footer>{a('/intranet/', 'Staff intranet')}</footer>"
        )
        return self.serve(req, doc(title, body))
