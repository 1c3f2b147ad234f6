"""Shared machinery for the blind trap sites: text, HTML, request classes, servers."""

from __future__ import annotations

import html
import random
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar
from urllib.parse import parse_qsl, unquote

# Request classes.
ROBOTS = "robots"
LEGIT = "legit"
TRAP = "trap"
DISALLOWED = "disallowed"
OTHER = "other"  # 404s, redirects, assets: not scored

_GENERAL_TEXT = """
the of and to in is that for it as was with be by on not he this are or his from at which but
have an they you were her she there would their we him been has when who will more no if out so
said what up its about into than them can only other new some could time these two may then do
first any my now such like our over man me even most made after also did many before must
through back years where much your way well down should because each just those people how too
little state good very make world still own see men work long get here between both life being
under never day same another know while last might us great old year off come since against go
came right used take three place small found again part general system number water point group
interest public service house field report level study rate whole experience development order
paper future result method letter nature process market record account value record season
measure window harbour garden river lantern meadow copper signal engine station ledger quarry
orchard bridge compass canvas
"""
GENERAL = _GENERAL_TEXT.split()

_THEME_TEXT: dict[str, str] = {
    "archive": """
        mirror tarball checksum release kernel patch build source binary package
        compiler linker archive snapshot branch toolchain manifest signature
        distribution
    """,
    "docs": """
        configure install option directive module handler runtime parameter cache socket
        timeout buffer schema endpoint plugin template request response
    """,
    "corp": """
        customer solution enterprise support warranty product widget gizmo service
        contract invoice partner license subscription deployment quality
    """,
    "news": """
        minister council election budget weather league striker festival harbour inquiry
        protest markets inflation rainfall museum transport verdict
    """,
    "forum": """
        thread reply quote moderator signature upvote newbie solder firmware voltage
        resistor capacitor oscilloscope breadboard enclosure
    """,
    "shop": """
        cotton linen leather stitching pocket zipper waterproof breathable fit sleeve
        collar hood lining durable lightweight
    """,
    "events": """
        concert rehearsal choir orchestra workshop lecture exhibition tasting picnic
        ceremony volunteers tickets venue programme
    """,
    "science": """
        photon enzyme lattice entropy isotope genome protein orbit catalyst vector
        spectrum mantle plasma membrane tensor quantum
    """,
    "travel": """
        itinerary hostel ferry mountain coastline village museum cathedral trail market
        sunrise valley railway glacier
    """,
    "gov": """
        permit application resident council licence benefit eligibility deadline office
        document appeal payment renewal form
    """,
    "books": """
        novel author chapter edition paperback hardcover poetry memoir translation
        anthology publisher manuscript narrator
    """,
    "food": """
        recipe simmer saffron pastry sourdough ferment braise garlic roast harvest
        vinegar dumpling broth
    """,
}
THEMES: dict[str, list[str]] = {k: v.split() for k, v in _THEME_TEXT.items()}

_LANG_TEXT: dict[str, str] = {
    "es": """
        el la de que y en un ser se no haber por con su para como estar tener le lo todo
        pero más hacer o poder decir este ir otro ese si me ya ver porque dar cuando
        solicitud oficina plazo pago documento ayuda servicio vecino
    """,
    "fr": """
        le de un être et à il avoir ne je son que se qui ce dans en du elle au pour pas
        vous par sur faire plus dire me on mon demande bureau délai paiement aide
        service habitant
    """,
    "de": """
        der die und in den von zu das mit sich des auf für ist im dem nicht ein eine als
        auch es an werden aus er hat dass Antrag Amt Frist Zahlung Hilfe Dienst Bürger
    """,
}
LANG_VOCAB: dict[str, list[str]] = {k: v.split() for k, v in _LANG_TEXT.items()}


def words_for(theme: str) -> list[str]:
    return GENERAL + THEMES.get(theme, []) * 3


def make_paragraphs(
    key: str, vocab: Sequence[str], lo: int = 120, hi: int = 320, paras: int = 0
) -> list[str]:
    """Deterministic pseudo-prose: `lo`..`hi` words over `vocab`, seeded by `key`."""
    rng = random.Random(key)
    total = rng.randint(lo, hi)
    n_paras = paras or rng.randint(2, 4)
    per = max(20, total // n_paras)
    out: list[str] = []
    for _ in range(n_paras):
        sentences: list[str] = []
        count = 0
        while count < per:
            n = rng.randint(7, 17)
            ws = [rng.choice(vocab) for _ in range(n)]
            ws[0] = ws[0].capitalize()
            if rng.random() < 0.25:
                ws[rng.randrange(1, n)] += ","
            sentences.append(" ".join(ws) + rng.choice(".....?!"))
            count += n
        out.append(" ".join(sentences))
    return out


def paras_html(paras: Sequence[str]) -> str:
    return "\n".join(f"<p>{html.escape(p)}</p>" for p in paras)


def a(href: str, label: str, **attrs: str) -> str:
    extra = "".join(f' {k.rstrip("_")}="{html.escape(v)}"' for k, v in attrs.items())
    return f'<a href="{html.escape(href)}"{extra}>{html.escape(label)}</a>'


def title_of(slug: str) -> str:
    return slug.replace("-", " ").replace("_", " ").strip().title()


def slugs(key: str, n: int, vocab: Sequence[str], parts: int = 2) -> list[str]:
    """`n` distinct deterministic slugs like 'copper-harbour'."""
    rng = random.Random(key)
    seen: list[str] = []
    while len(seen) < n:
        s = "-".join(rng.choice(vocab).strip(",.").lower() for _ in range(parts))
        if s not in seen and all(c.isalnum() or c == "-" for c in s):
            seen.append(s)
    return seen


def doc(
    title: str,
    body: str,
    *,
    head: str = "",
    canonical: str | None = None,
    base: str | None = None,
    lang: str = "en",
    body_attrs: str = "",
) -> str:
    parts = ["<!DOCTYPE html>", f'<html lang="{lang}">', "<head>", '<meta charset="utf-8">']
    parts.append(f"<title>{html.escape(title)}</title>")
    if base:
        parts.append(f'<base href="{html.escape(base)}">')
    if canonical:
        parts.append(f'<link rel="canonical" href="{html.escape(canonical)}">')
    if head:
        parts.append(head)
    parts += ["</head>", f"<body{body_attrs}>", body, "</body>", "</html>"]
    return "\n".join(parts)


@dataclass
class Req:
    host_index: int
    base: str  # scheme://host:port of the host this request came to
    target: str  # raw request target: path and query, as sent
    path: str  # raw path, still percent-encoded
    query: str  # raw query, no '?'
    headers: dict[str, str]

    @property
    def params(self) -> list[tuple[str, str]]:
        return parse_qsl(self.query, keep_blank_values=True)

    @property
    def upath(self) -> str:
        return unquote(self.path)

    @property
    def key(self) -> str:
        return f"{self.host_index}|{self.target}"


@dataclass
class Reply:
    body: str | bytes = ""
    cls: str = LEGIT
    page: str | None = None
    status: int = 200
    ctype: str = "text/html; charset=utf-8"
    headers: dict[str, str] = field(default_factory=dict)


def not_found(msg: str = "Not Found") -> Reply:
    body = doc("404 Not Found", f"<h1>Not Found</h1><p>{html.escape(msg)}</p>")
    return Reply(body, OTHER, None, 404)


def redirect(location: str, status: int = 302) -> Reply:
    return Reply("", OTHER, None, status, headers={"Location": location})


@dataclass
class LogEntry:
    t: float
    host_index: int
    method: str
    target: str
    status: int
    cls: str
    page: str | None
    ua: str


class Site:
    """One trap site. Subclasses set name/kind/hosts, build pages, implement handle()."""

    name = "site"
    kind = ""
    hosts = 1
    seed_paths: ClassVar[list[tuple[int, str]]] = [(0, "/")]
    robots_disallow: ClassVar[list[str]] = []
    count_note = ""

    def __init__(self, seed: int = 20261203) -> None:
        self.seed = seed
        self.bases: list[str] = []
        self.legit: set[str] = set()
        self.log: list[LogEntry] = []
        self._lock = threading.Lock()
        self._first: dict[str, str] = {}
        self._counter = 0
        self.build()

    # -- for subclasses ------------------------------------------------------------------
    def build(self) -> None:
        raise NotImplementedError

    def handle(self, req: Req) -> Reply:
        raise NotImplementedError

    def robots_txt(self, req: Req) -> str:
        lines = ["User-agent: *"]
        lines += [f"Disallow: {p}" for p in self.robots_disallow]
        return "\n".join(lines) + "\n"

    def key(self, name: str) -> str:
        return f"{self.seed}:{self.name}:{name}"

    def rng(self, name: str) -> random.Random:
        return random.Random(self.key(name))

    def legit_page(self, pid: str, body: str) -> Reply:
        assert pid in self.legit, pid
        return Reply(body, LEGIT, pid)

    def alias(self, pid: str, req: Req, body: str) -> Reply:
        """A page reachable under many URLs: its first URL fetched counts as the legit
        fetch; the same URL again is a legit repeat; any other URL of it is a trap."""
        assert pid in self.legit, pid
        with self._lock:
            first = self._first.setdefault(pid, req.key)
        return Reply(body, LEGIT if first == req.key else TRAP, pid)

    def tick(self) -> int:
        with self._lock:
            self._counter += 1
            return self._counter

    def token(self, n: int = 12, alphabet: str = "0123456789abcdef") -> str:
        """A fresh token per call, deterministic from the seed and the call count."""
        rng = random.Random(self.key(f"tok{self.tick()}"))
        return "".join(rng.choice(alphabet) for _ in range(n))

    # -- plumbing --------------------------------------------------------------------------
    def disallowed(self, target: str) -> bool:
        return any(target.startswith(p) for p in self.robots_disallow if p)

    def dispatch(self, req: Req) -> Reply:
        if req.path == "/robots.txt":
            return Reply(self.robots_txt(req), ROBOTS, None, ctype="text/plain")
        if self.disallowed(req.target):
            body = doc("Restricted", "<h1>Restricted area</h1><p>Robots keep out.</p>")
            return Reply(body, DISALLOWED, None)
        return self.handle(req)

    def seeds(self) -> list[str]:
        return [self.bases[h] + p for h, p in self.seed_paths]


def _handler_for(site: Site, host_index: int) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        server_version = "Apache/2.4.62 (Unix)"

        def log_message(self, format: str, *args: object) -> None:
            pass

        def _serve(self, send_body: bool) -> None:
            target = self.path
            if target.startswith("http://") or target.startswith("https://"):
                target = "/" + target.split("/", 3)[3] if target.count("/") >= 3 else "/"
            path, _, query = target.partition("?")
            host = self.headers.get("Host") or site.bases[host_index].split("//", 1)[1]
            req = Req(host_index, "http://" + host, target, path, query, dict(self.headers))
            try:
                rep = site.dispatch(req)
            except Exception as exc:  # a bug in a site must show, not hang the crawler
                rep = Reply(f"internal error: {exc!r}", OTHER, None, 500, "text/plain")
            body = rep.body.encode("utf-8") if isinstance(rep.body, str) else rep.body
            with site._lock:
                site.log.append(
                    LogEntry(
                        time.time(),
                        host_index,
                        self.command,
                        target,
                        rep.status,
                        rep.cls,
                        rep.page,
                        self.headers.get("User-Agent", ""),
                    )
                )
            self.send_response(rep.status)
            self.send_header("Content-Type", rep.ctype)
            self.send_header("Content-Length", str(len(body)))
            for k, v in rep.headers.items():
                self.send_header(k, v)
            self.end_headers()
            if send_body:
                self.wfile.write(body)

        def do_GET(self) -> None:
            self._serve(True)

        def do_HEAD(self) -> None:
            self._serve(False)

    return Handler


class Servers:
    """Start a site's host(s) on loopback addresses, ephemeral ports."""

    def __init__(self, site: Site, addresses: Sequence[str]) -> None:
        self.site = site
        self.httpds: list[ThreadingHTTPServer] = []
        self.threads: list[threading.Thread] = []
        for i in range(site.hosts):
            httpd = ThreadingHTTPServer((addresses[i], 0), _handler_for(site, i))
            httpd.daemon_threads = True
            self.httpds.append(httpd)
            host, port = httpd.server_address[:2]
            site.bases.append(f"http://{host}:{port}")

    def __enter__(self) -> Servers:
        for httpd in self.httpds:
            t = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.2})
            t.daemon = True
            t.start()
            self.threads.append(t)
        return self

    def __exit__(self, *exc: object) -> None:
        for httpd in self.httpds:
            httpd.shutdown()
            httpd.server_close()


SiteFactory = Callable[[], Site]
