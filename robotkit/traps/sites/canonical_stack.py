"""Share links that stack: print, AMP and mobile prefixes and tracking parameters.

What it is
    A news site where every view of a story links to the other views by
    prefixing the *current* path (``/print/``, ``/amp/``, ``/m/``) and to share
    links that append tracking parameters to the *current* URL, known ones
    (``utm_source``) and unknown ones (``ref_src``, ``share``, ``cmpid``) with
    fresh values. Views stack: ``/m/amp/print/story-3?share=x&ref_src=y``. Every
    view names the story's one URL as its canonical (RFC 6596): most in
    ``<link rel="canonical">``, some only in a ``Link: <...>; rel="canonical"``
    response header (RFC 8288). Two real sections collide with the prefixes:
    ``/m/`` is the magazine, with its own articles, and ``/print/`` the print
    shop; their pages are canonical to themselves.

How it arises
    CMS templates that build view links from the request path, share buttons
    that add campaign parameters to whatever URL is shown, and mobile and AMP
    front ends mounted under a prefix of the same site.

How a naive crawler falls in
    Every view of a story offers new views and new share URLs, each a 200 with
    the story's text; prefixes stack and tracking values never repeat, so the
    views never run out. Stripping only the well-known ``utm_*`` parameters
    leaves the rest.

What catches it in robotkit
    ``duplicate-url``: a page whose canonical URL (from the markup or the
    ``Link`` header) is its own URL less some leading segments and parameters
    teaches that those prefixes and parameters name the same page on this site
    (:mod:`robotkit.url.learned`), so the other stacked forms are known before they
    are fetched; a share form proven a copy of its story is skipped on the other
    stories. The magazine and the print shop are canonical to themselves and are
    fetched.

Legitimate part: the home page, 24 stories at ``/story-N``, the magazine
(``/m/`` and four issues) and the print shop (``/print/`` and two pages): 33
pages. Trap part: every other URL of a story (a prefix or a query).
"""

from __future__ import annotations

import random
import re
import secrets

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

STORIES = tuple(f"/story-{n}" for n in range(1, 25))
MAGAZINE = ("/m/", *(f"/m/issue-{n}" for n in range(1, 5)))
PRINT_SHOP = ("/print/", "/print/posters", "/print/cards")
LEGIT = frozenset(["/", *STORIES, *MAGAZINE, *PRINT_SHOP])
PREFIXES = ("print", "amp", "m")
_STORY = re.compile(r"^/((?:(?:print|amp|m)/)*)(story-\d+)$")


def story_of(target: str) -> str | None:
    """The canonical story a view shows, whatever its prefixes and query."""
    match = _STORY.match(target.partition("?")[0])
    if match is None or f"/{match[2]}" not in STORIES:
        return None
    return f"/{match[2]}"


def header_only(story: str) -> bool:
    """Every third story names its canonical only in the ``Link`` header."""
    return int(story.rsplit("-", 1)[1]) % 3 == 0


def share_links(target: str) -> list[tuple[str, str]]:
    """The view and share links of a page, built from its own URL as the
    templates do: prefixes stack, tracking parameters append."""
    path, _, query = target.partition("?")
    joiner = "&" if query else "?"
    token = secrets.token_hex(4)
    links = [(f"/{p}{path}", p) for p in PREFIXES]
    links += [
        (f"{target}{joiner}utm_source=share&utm_medium=social&utm_campaign={token}", "share"),
        (f"{target}{joiner}ref_src=twsrc{token}", "tweet"),
        (f"{target}{joiner}share={token}", "copy link"),
        (f"{target}{joiner}cmpid=nl-{token}", "newsletter"),
    ]
    return links


def story_page(
    story: str, target: str, links: list[tuple[str, str]], canonical: str | None = None
) -> Response:
    """A story as one view renders it: the story's text, then a "most read" box
    and a comment count that the page cache built for this URL (seeded from it),
    as news templates do, so two views of a story are alike, not identical."""
    rng = random.Random(target)
    most_read = ", ".join(f"Story {rng.randint(1, len(STORIES))}" for _ in range(3))
    box = f"Most read: {most_read}. {rng.randint(0, 400)} comments."
    title = story.strip("/").replace("-", " ").title()
    paragraphs = [prose(f"canonical-stack {story}"), box]
    return html_page(title, paragraphs, [("/", "Home"), *links], canonical=canonical)


class CanonicalStack(TrapSite):
    name = "canonical-stack"
    summary = "print/amp/m prefixes and tracking params stack on share links; rel=canonical"
    caught_by = (Reason.DUPLICATE_URL,)

    legitimate_pages = LEGIT

    def is_trap(self, target: str, host: int = 0) -> bool:
        return target not in LEGIT and story_of(target) is not None

    def page(self, request: Request, ctx: RequestContext) -> Response:
        target = request_target(request)
        if target == "/":
            links = [(s, s) for s in STORIES] + [("/m/", "Magazine"), ("/print/", "Print shop")]
            return html_page("Front page", [prose(self.name)], links)
        if target in MAGAZINE or target in PRINT_SHOP:
            section = MAGAZINE if target in MAGAZINE else PRINT_SHOP
            links = [(p, p) for p in section if p != target]
            text = [prose(f"{self.name} {target}")]
            return html_page(target, text, [("/", "Home"), *links], canonical=ctx.url(target))
        story = story_of(target)
        if story is None:
            return not_found()
        canonical = ctx.url(story)
        if header_only(story):
            response = story_page(story, target, share_links(target))
            response.headers["Link"] = f'<{canonical}>; rel="canonical"'
            return response
        return story_page(story, target, share_links(target), canonical=canonical)
