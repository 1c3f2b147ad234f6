"""Pages of a generated site as data: what a page says and links to, and how it is
rendered into a response.

A generated site holds its legitimate pages as :class:`PageSpec` values rather than
code, so the ground truth (which pages exist, on which host) and the responses come
from one declaration. Everything here is deterministic: text comes from hashing the
site's seed and the page's own name, never from global randomness or the clock.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field, replace

from werkzeug import Response

from robotkit.traps.base import RequestContext, html_page, prose

_NAMES = (
    "amber basin cedar delta ember fjord garnet harbor indigo juniper kestrel lumen "
    "marsh nimbus orchid pylon quarry rowan summit tidal umbra vertex willow yonder "
    "zinc acorn bramble cobalt drift elder flint glade hollow isle jasper knot "
    "ledger meadow north opal prairie quill ridge slate thorn upland vale wren"
)
WORDS = tuple(_NAMES.split())
"""Names for paths and slugs; the prose comes from :func:`robotkit.traps.base.prose`."""


def token(*parts: object, length: int = 8) -> str:
    """A hex token fixed by ``parts`` (site seed, page, purpose): the "random" ids a
    real site would mint, reproducible byte for byte."""
    text = "\x1f".join(str(p) for p in parts)
    return hashlib.sha256(text.encode()).hexdigest()[:length]


def rng_for(*parts: object) -> random.Random:
    """A private random stream for one response, fixed by ``parts``."""
    return random.Random(token(*parts, length=32))


def server_form(target: str) -> str:
    """A target as a server reads it: ``%5B``/``%5D`` decoded, since clients may
    escape the brackets of ``brand[]=`` while PHP-style servers treat both alike."""
    if "%" not in target:
        return target
    return target.replace("%5B", "[").replace("%5b", "[").replace("%5D", "]").replace("%5d", "]")


def path_of(target: str) -> str:
    return target.split("?", 1)[0]


@dataclass(frozen=True)
class Href:
    """A link: ``target`` as written on the page (``/x``, ``sub/``, ``?page=2``), or
    an absolute link to another host of the site when ``host`` is set."""

    target: str
    text: str
    host: int | None = None

    def render(self, ctx: RequestContext) -> str:
        return self.target if self.host is None else ctx.url(self.target, self.host)


@dataclass(frozen=True)
class PageSpec:
    """One page: title, paragraphs and links; ``canonical`` says how it names its own
    URL as canonical (RFC 6596): in HTML (``html``), in a ``Link`` header
    (``header``, RFC 8288 section 3) or not at all (None)."""

    title: str
    paragraphs: tuple[str, ...] = ()
    links: tuple[Href, ...] = ()
    canonical: str | None = None
    status: int = 200
    headers: tuple[tuple[str, str], ...] = field(default=())

    def with_links(self, *links: Href) -> PageSpec:
        return replace(self, links=self.links + links)


def render(spec: PageSpec, ctx: RequestContext, target: str) -> Response:
    """The response for ``spec`` served at ``target`` on the request's host."""
    canonical_url = ctx.url(target, ctx.host)
    headers = dict(spec.headers)
    html_canonical = None
    if spec.canonical == "html":
        html_canonical = canonical_url
    elif spec.canonical == "header":
        headers["Link"] = f'<{canonical_url}>; rel="canonical"'
    links = [(h.render(ctx), h.text) for h in spec.links]
    return html_page(
        spec.title,
        spec.paragraphs,
        links,
        canonical=html_canonical,
        status=spec.status,
        headers=headers,
    )


def text_of(seed: int, host: int, target: str, sentences: int) -> tuple[str, ...]:
    """Prose no other page has, ``sentences`` long, in paragraphs of up to six."""
    if sentences <= 0:
        return ()
    text = prose(f"generated {seed} {host} {target}", sentences)
    parts = text.split(". ")
    chunks = [". ".join(parts[i : i + 6]) for i in range(0, len(parts), 6)]
    return tuple(c if c.endswith(".") else c + "." for c in chunks)


def slug(rng: random.Random, words: int = 3) -> str:
    return "-".join(rng.sample(WORDS, words))


_ONSETS = [
    "b",
    "d",
    "f",
    "g",
    "k",
    "l",
    "m",
    "n",
    "p",
    "r",
    "s",
    "t",
    "v",
    "z",
    "br",
    "dr",
    "gl",
    "kr",
    "pl",
    "st",
    "tr",
]
_VOWELS = ["a", "e", "i", "o", "u", "ai", "ei", "ou"]


def coined(rng: random.Random, count: int) -> list[str]:
    """``count`` made-up words (``zorvak``, ``teliburn``): the names, brands and terms
    a real page has and no other page of its site; the prose vocabulary is small,
    so only such words make a page's own vocabulary."""
    return [
        "".join(rng.choice(_ONSETS) + rng.choice(_VOWELS) for _ in range(rng.randint(2, 3)))
        + rng.choice(("", "n", "k", "r", "s", "x"))
        for _ in range(count)
    ]
