"""A link farm inside the crawl's scope: spam pages under random paths of real hosts.

What it is
    A small company site (127.0.0.1) has been compromised: its blog posts carry
    a hidden footer link into ``/x7k2q9/cheap-...``, a directory of spam pages
    the attacker generates. Each spam page is stuffed with keywords and links
    to a dozen new random-token paths and to a dozen made-up shop hosts
    (``http://cheap-pills-<n>.example/``). The same farm lives on the company's
    shop host (127.0.0.2), which is in scope too: it is a seed of its own.
    Beside the farm stand look-alikes that are not farms: a partners page that
    links to two sister sites (127.0.0.3 and 127.0.0.4, whose pages link back)
    and a blogroll with fifteen outbound links to different real-looking hosts.

How it arises
    Hacked WordPress and Joomla installs ("pharma hacks", "Japanese keyword
    hacks") generate thousands of spam pages under random directories of a
    legitimate host, linked from injected footers, so that the host's reputation
    carries the spam. The pages live on a host the crawler was told to crawl.

How a naive crawler falls in
    Scope rules do not help: the farm is on the seed host. Each spam page links
    to twelve new spam paths, so the farm never runs out, and a host budget
    spent on spam leaves the real pages unfetched.

What catches it in robotkit
    ``trap-host``: a page that links many hosts its origin never linked before,
    in words the origin has mostly shown already, is a link-farm page; its
    random-token directories are one region (``/{tok}``), and once eight farm
    pages grew it without news the region is parked. ``off-scope`` keeps the
    crawler off the made-up hosts. The blogroll links many hosts in words new to
    the site, and the partners page links two sister hosts: neither is a farm.

Legitimate part: 29 pages on the main host (home, company pages, the blog and
its twelve posts, the product pages, partners and the blogroll). The shop host
and the two sister hosts have real pages too (``host_pages``); the ground truth
in :class:`~robotkit.traps.base.TrapSite` holds pages of the main host only, so
they count as neither part. Trap part: every farm path on the main host and the
shop host.
"""

from __future__ import annotations

import random
import re

from werkzeug import Request, Response

from robotkit.base.reasons import Reason
from robotkit.traps.base import (
    RequestContext,
    TrapSite,
    article,
    html_page,
    not_found,
    request_target,
)

POSTS = tuple(f"/blog/post-{n}" for n in range(1, 13))
PRODUCTS = tuple(f"/products/{name}" for name in ("kettle", "lamp", "desk", "chair", "shelf"))
COMPANY = ("/about", "/team", "/careers", "/contact", "/press", "/privacy", "/terms")
MAIN = ("/", *COMPANY, "/blog/", *POSTS, "/products/", *PRODUCTS, "/partners", "/links")
SHOP_HOST, SISTERS = 1, (2, 3)
HOST_PAGES: dict[int, tuple[str, ...]] = {
    SHOP_HOST: ("/", "/orders", "/delivery"),
    **{h: ("/", "/about", "/news", "/contact") for h in SISTERS},
}
"""Legitimate pages of the other hosts, by host index."""
BLOGROLL = (
    "alder-press", "birchwood-kitchen", "copper-kettle-co", "dunmore-design",
    "elmstreet-studio", "fernhill-farm", "glenview-books", "harbourlight",
    "ironbridge-tools", "juniper-journal", "kestrel-outdoors", "lakeside-lamps",
    "millbrook-makers", "northfield-notes", "oakridge-workshop",
)  # fmt: skip
FARM_WORDS = (
    "cheap", "pills", "casino", "bonus", "free", "replica", "watches", "best", "price",
    "discount", "buy", "now", "online", "pharmacy", "viagra", "loans", "crypto", "win",
)  # fmt: skip
_FARM = re.compile(r"^/(?=[a-z0-9]*\d)(?=[a-z0-9]*[a-z])[a-z0-9]{6}/[a-z-]+$")
LINKS_PER_PAGE = 12


def is_farm(target: str) -> bool:
    """A farm path: a six-character token of letters and digits, then a slug."""
    return _FARM.match(target) is not None


def farm_entry(seed: str) -> str:
    """A farm path chosen from ``seed``, the same every time."""
    return _farm_path(random.Random(seed))


def _farm_path(rng: random.Random) -> str:
    letters = "abcdefghijklmnopqrstuvwxyz"
    token = rng.choice("0123456789") + "".join(rng.choice(letters + "0123456789") for _ in range(4))
    token = token + rng.choice(letters)
    slug = "-".join(rng.sample(FARM_WORDS, 3))
    return f"/{token}/{slug}"


class ScopeFarm(TrapSite):
    name = "scope-farm"
    summary = "spam under random paths of the seed host; a blogroll and sister sites beside"
    caught_by = (Reason.TRAP_HOST,)

    legitimate_pages = frozenset(MAIN)
    host_pages = HOST_PAGES
    extra_hosts = ("127.0.0.2", "127.0.0.3", "127.0.0.4")
    seeds = ((0, "/"), (SHOP_HOST, "/"))
    """Where a crawl starts: the main host and the shop host, both in scope."""

    def is_trap(self, target: str, host: int = 0) -> bool:
        return host in (0, SHOP_HOST) and is_farm(target)

    def page(self, request: Request, ctx: RequestContext) -> Response:
        target = request_target(request)
        if ctx.host in (0, SHOP_HOST) and is_farm(target):
            return self._farm(target, ctx)
        if ctx.host != 0:
            return self._other_host(target, ctx)
        if target not in MAIN:
            return not_found()
        if target == "/":
            sections = [*COMPANY, "/blog/", "/products/", "/partners", "/links"]
            return article(self.name, "/", [(s, s) for s in sections])
        if target == "/blog/":
            return article(self.name, target, [(p, p) for p in POSTS])
        if target == "/products/":
            return article(self.name, target, [(p, p) for p in PRODUCTS])
        if target in POSTS:
            # The injected footer: one spam link per post.
            return article(self.name, target, [(farm_entry(target), "sponsored")])
        if target == "/partners":
            sisters = [(ctx.url(p, h), f"Sister site {h}") for h in SISTERS for p in HOST_PAGES[h]]
            shop = [(ctx.url("/", SHOP_HOST), "Our shop")]
            return article(self.name, target, sisters[:3] + shop)
        if target == "/links":
            roll = [(f"https://www.{name}.example/", name.replace("-", " ")) for name in BLOGROLL]
            return article(self.name, target, roll)
        return article(self.name, target)

    def _other_host(self, target: str, ctx: RequestContext) -> Response:
        pages = HOST_PAGES.get(ctx.host, ())
        if target not in pages:
            return not_found()
        links = [(p, p) for p in pages if p != target]
        links.append((ctx.url("/partners"), "Partners"))
        if ctx.host == SHOP_HOST and target == "/delivery":
            links.append((farm_entry(f"shop {target}"), "sponsored"))
        return article(f"{self.name} host {ctx.host}", target, links)

    def _farm(self, target: str, ctx: RequestContext) -> Response:
        rng = random.Random(f"{ctx.host} {target}")
        text = " ".join(rng.choice(FARM_WORDS) for _ in range(60))
        links = [(_farm_path(rng), rng.choice(FARM_WORDS)) for _ in range(LINKS_PER_PAGE)]
        for _ in range(LINKS_PER_PAGE):
            links.append((f"http://cheap-pills-{rng.randint(1, 10**5)}.example/", "best price"))
        return html_page(" ".join(rng.sample(FARM_WORDS, 4)), [text], links)
