"""Related items: a catalog, a Q&A site and a recipe box whose pages link each other.

What it is
    Not a trap, but the shape of one. Sixty product pages (``/product/1`` to
    ``/product/60``), thirty questions (``/questions/7/how-to-...``) and twenty
    recipes (``/recipes?id=3``). One template writes most of every page: a long
    description, shipping terms, the shop's brand names, a few hundred words in
    all. Each page adds only its own name and a handful of specs or terms, five to
    twelve words no other page has (under a tenth of its words). Each links four
    to six other items of its section, drawn at random ("customers also bought",
    "related questions"); questions also link previous and next. The section
    indexes list only the first item (or three), so almost every item is reachable
    only through the related links of other items.

How it arises
    Shops, blogs, recipe sites, Q&A sites and wikis: records rendered by one
    template, with a recommendation box that links other records. It is the most
    common page shape on the web.

How a naive crawler falls in
    It does fine: the sections are finite. The danger is the opposite one. Every
    page brings new URLs of its own section and few words of its own, which is
    what a calendar or an endless pagination looks like too. A trap rule that
    calls such a page "nothing new" parks the section after a few pages and loses
    most of the catalog.

What catches it in robotkit
    Nothing does, as it should. A page that shows a few words its section never
    showed (at least five, a product's name and specs) is news, however long the
    template around them; only pages that bring (almost) nothing new, like the
    next empty calendar month, count towards parking a growing section.

Legitimate part: every page: the home page, three section indexes, 60 products,
30 questions and 20 recipes (114 pages). Trap part: none.
"""

from __future__ import annotations

from werkzeug import Request, Response

from robotkit.base.reasons import Reason
from robotkit.traps.base import (
    RequestContext,
    TrapSite,
    html_page,
    not_found,
    prose,
    request_target,
)
from robotkit.traps.generated.pages import coined, rng_for

HOME = "/"
SECTIONS = {
    # index: (item targets, heading of the related links, items the index lists)
    "/shop/": (tuple(f"/product/{n}" for n in range(1, 61)), "Customers also bought", 1),
    "/questions/": (
        tuple(
            f"/questions/{n}/how-to-{'-'.join(coined(rng_for('q', n), 2))}" for n in range(1, 31)
        ),
        "Related questions",
        3,
    ),
    "/recipes": (tuple(f"/recipes?id={n}" for n in range(1, 21)), "You may also like", 1),
}
CHAINED = "/questions/"
"""The section whose items also link previous and next."""
TEMPLATE = (
    prose("related-items template", 22),
    "Made by " + " ".join(coined(rng_for("related-items brands"), 40)) + ".",
)
"""The text every item page shows: about 300 words, 40 of them the shop's own terms."""
LEGIT = frozenset([HOME, *SECTIONS, *(t for items, _, _ in SECTIONS.values() for t in items)])


def _item(items: tuple[str, ...], heading: str, i: int, chained: bool) -> Response:
    """Item ``i`` of a section: its own words, the template, and 4 to 6 related
    items at random; always the next item too (as a related one, or as "Next" in
    a chained section), so that every item is reachable from the first."""
    rng = rng_for("related-items", items[i])
    own = coined(rng, rng.randint(5, 12))
    name = " ".join(own[:2]).title()
    others = [j for j in range(len(items)) if j != i]
    related = sorted({*rng.sample(others, rng.randint(4, 6)), *([i + 1] if not chained else [])})
    nav = [(j, label) for j, label in ((i - 1, "Previous"), (i + 1, "Next")) if chained]
    links = [(HOME, "Home"), *((items[j], label) for j, label in nav if 0 <= j < len(items))]
    links += [(items[j], f"{heading} {j + 1}") for j in related if j < len(items)]
    details = f"{name}: {', '.join(own[2:])}."
    return html_page(name, [details, *TEMPLATE], links)


class RelatedItems(TrapSite):
    name = "related-items"
    summary = "no trap: 110 templated items linking each other at random (catalog, Q&A, recipes)"
    caught_by: tuple[Reason, ...] = ()
    legitimate_pages = LEGIT

    def is_trap(self, target: str, host: int = 0) -> bool:
        return False

    def page(self, request: Request, ctx: RequestContext) -> Response:
        target = request_target(request)
        if target == HOME:
            return html_page(
                "Related items", ["A shop, questions, recipes."], [(s, s) for s in SECTIONS]
            )
        for index, (items, heading, listed) in SECTIONS.items():
            if target == index:
                return html_page(index.strip("/").title(), [], [(t, t) for t in items[:listed]])
            if target in items:
                return _item(items, heading, items.index(target), index == CHAINED)
        return not_found()
