"""Small helpers shared by the blind2 and blind3 sites (on top of `traps.blind.kit`)."""

from __future__ import annotations

import html
from collections.abc import Sequence
from urllib.parse import parse_qsl

from traps.blind.kit import LEGIT, TRAP, Reply, Site, a, doc, make_paragraphs, paras_html

Link = tuple[str, str]


def ul(links: Sequence[Link], cls: str = "") -> str:
    """An HTML list of links."""
    attr = f' class="{cls}"' if cls else ""
    return f"<ul{attr}>" + "".join(f"<li>{a(h, t)}</li>" for h, t in links) + "</ul>"


def bar(links: Sequence[Link], sep: str = " | ") -> str:
    """Links in a line, as in a header or footer."""
    return sep.join(a(h, t) for h, t in links)


def prose(site: Site, key: str, vocab: Sequence[str], lo: int = 120, hi: int = 320) -> str:
    """Seeded paragraphs for `key` on `site`."""
    return paras_html(make_paragraphs(site.key(key), vocab, lo, hi))


def qs(query: str) -> dict[str, str]:
    """The query as a dict (last value wins)."""
    return dict(parse_qsl(query, keep_blank_values=True))


def qlist(query: str) -> list[tuple[str, str]]:
    """The query as a list of pairs, in order, with repeats."""
    return parse_qsl(query, keep_blank_values=True)


def esc(s: str) -> str:
    """HTML-escape text."""
    return html.escape(s)


def trap(body: str, status: int = 200) -> Reply:
    """A page in the trap space."""
    return Reply(body, TRAP, None, status)


def legit(site: Site, pid: str, body: str) -> Reply:
    """A legit page at its canonical URL."""
    return site.legit_page(pid, body)


def is_legit(rep: Reply) -> bool:
    """Whether a reply is a legit page."""
    return rep.cls == LEGIT


__all__ = ["Link", "bar", "doc", "esc", "is_legit", "legit", "prose", "qlist", "qs", "trap", "ul"]
