"""URLs as a robot needs them: one parser behind validity, origins, link resolution
and normalization.

Every entry point (:func:`parse_url`, :func:`origin_of`, :func:`resolve`, and
:func:`robotkit.url.normalization.normalize` through :func:`split_parts`) reads a URL the way
the WHATWG URL Standard's parser does, because what a browser does with a link is
what a crawler must do: ``http:///example.com/a`` and ``http:\\\\example.com\\a`` both
name ``/a`` on ``example.com``. So a URL is valid, has an origin and a key, or is
refused, with one answer everywhere. Pure functions, no I/O; the de-duplication
policy lives in :mod:`robotkit.url.normalization` and robots.txt matching never uses it
(ARCHITECTURE.md, "One URL, one parser").

(Why this module is a little over 500 lines: the split, the parsed URL, origins and
link resolution are one parser; resolution works on the split's private parts and
patterns, and apart, each would have to expose them.)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple, Protocol

from robotkit.base.errors import UsageError
from robotkit.base.reasons import Reason
from robotkit.url.hosts import BadHost, parse_host
from robotkit.url.redact import masked
from robotkit.url.spelling import decode_unreserved, has_dot_segment, remove_dot_segments

SUPPORTED_SCHEMES = ("http", "https")
DEFAULT_PORTS = {"http": 80, "https": 443}


class InvalidURL(UsageError):
    """A URL the robot cannot fetch; ``reason`` is ``invalid-url`` or
    ``unsupported-scheme``."""

    def __init__(self, url: str, reason: Reason, detail: str) -> None:
        super().__init__(f"{detail}: {masked(url)!r}")  # ``url`` keeps it as given
        self.url = url
        self.reason = reason
        self.detail = detail


class BadURL(Exception):
    """Internal: why a URL is garbage; turned into :class:`InvalidURL` at the surface."""

    def __init__(self, reason: Reason, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail

    def for_url(self, url: object) -> InvalidURL:
        return InvalidURL(url if isinstance(url, str) else repr(url), self.reason, self.detail)


PacingKey = tuple[str, int]
"""A server as the pacer sees it: (host, port)."""

ScopeKey = tuple[str, "int | None"]
"""A site as a crawl's scope sees it: (host, port, or None for the scheme's default)."""


@dataclass(frozen=True, order=True)
class Origin:
    """The key of a robots.txt file and of a cache entry: RFC 9309 section 2.3
    scopes a robots.txt to one scheme, host and port. The one host identity: the
    other keys a robot needs are derived from it (:attr:`pacing_key`,
    :attr:`scope_key`)."""

    scheme: str
    host: str  # lowercase ASCII (punycode); an IPv6 address without its brackets
    port: int  # the effective port, default filled in

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        if DEFAULT_PORTS.get(self.scheme) == self.port:
            return f"{self.scheme}://{host}"
        return f"{self.scheme}://{host}:{self.port}"

    @property
    def robots_url(self) -> str:
        """RFC 9309 section 2.3: the file lives at ``/robots.txt`` of the origin."""
        return f"{self}/robots.txt"

    @property
    def pacing_key(self) -> PacingKey:
        """(host, port) without the scheme: http and https on one host and port are
        one server to be gentle with."""
        return (self.host, self.port)

    @property
    def scope_key(self) -> ScopeKey:
        """(host, port or None): http and https on their default ports are one site
        (a link from ``http://x/`` to ``https://x/a`` stays in a crawl's scope), any
        other port is another site (two loopback servers are two sites)."""
        return (self.host, None if DEFAULT_PORTS.get(self.scheme) == self.port else self.port)


_ORIGIN_VALUES: dict[tuple[str, str, int], Origin] = {}


def origin_value(scheme: str, host: str, port: int) -> Origin:
    """The :class:`Origin` of these parts, one object per origin while the table
    lasts: a crawl asks for the origin of each URL it judges many times over, for
    a few origins, and building a frozen dataclass costs more than finding it."""
    parts = (scheme, host, port)
    found = _ORIGIN_VALUES.get(parts)
    if found is None:
        if len(_ORIGIN_VALUES) >= _ORIGINS_SIZE:
            _ORIGIN_VALUES.clear()
        found = _ORIGIN_VALUES[parts] = Origin(scheme, host, port)
    return found


# --------------------------------------------------------------------------------------
# The split: WHATWG URL Standard, basic URL parser, for the special schemes http(s).
# --------------------------------------------------------------------------------------

_C0_AND_SPACE = "".join(chr(i) for i in range(0x21))
_TAB_NEWLINE = {ord("\t"): None, ord("\n"): None, ord("\r"): None}
_URL_SHAPE = re.compile(r"([A-Za-z][A-Za-z0-9+\-.]*):([^?#]*)(?:\?([^#]*))?(?:#(.*))?", re.S)
_CLEAN_SHAPE = re.compile(
    r"(https?)://([a-z0-9.\-]+)(?::([0-9]{1,5}))?(/[A-Za-z0-9\-._~!$&'*+,=:@/]*)?"
    r"(?:\?([^#]*))?(?:#(.*))?",
    re.S,
)
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+\-.]*:")


_Split = tuple[str, str, str, str, str, "str | None", "str | None", bool]
"""A URL cut into its raw parts: scheme (lowercase), userinfo (as written, without
its ``@``), host, port, path (never empty), query and fragment as written after
WHATWG preprocessing (``\\`` read as ``/``), and whether the path holds only
characters no rule rewrites. A plain tuple, not a NamedTuple: the split runs once
per URL on every crawl's hot path, and building a NamedTuple costs as much again."""


def _preprocess(url: str) -> str:
    """WHATWG basic URL parser, first steps: strip leading and trailing C0 controls
    and spaces, remove every ASCII tab and newline (an attribute wrapped over two
    lines). Any other control character left inside makes no URL a robot should
    send (a browser would escape it; a robot refuses it, and says so); a lone
    surrogate is no URL either."""
    if url and (url[0] <= " " or url[-1] <= " "):
        url = url.strip(_C0_AND_SPACE)
    if "\t" in url or "\n" in url or "\r" in url:
        url = url.translate(_TAB_NEWLINE)
    if _CONTROL.search(url):
        raise BadURL(Reason.INVALID_URL, "control character in URL")
    if not url.isascii():
        try:
            url.encode("utf-8")
        except UnicodeEncodeError:
            raise BadURL(Reason.INVALID_URL, "lone surrogate in URL") from None
    return url


def split_parts(url: object) -> _Split:
    """The raw parts of any http(s) URL the WHATWG parser accepts, or :class:`BadURL`."""
    if not isinstance(url, str):
        raise BadURL(Reason.INVALID_URL, "not a string")
    if not url.isprintable() or url[:1] == " " or url[-1:] == " ":
        # Anything to strip, remove or refuse is unprintable or a space at an end
        # (a lone surrogate too); the common URL skips the preprocessing.
        url = _preprocess(url)
    fast = _CLEAN_SHAPE.fullmatch(url)
    if fast is not None:
        # Already-clean URL (lowercase scheme and host, plain path): nothing to split
        # further and nothing to percent-encode in the path.
        scheme, host, port, path, query, fragment = fast.groups()
        return (scheme, "", host, port or "", path or "/", query, fragment, True)
    shape = _URL_SHAPE.fullmatch(url)
    if shape is None:
        raise BadURL(Reason.INVALID_URL, "not an absolute URL" if url else "empty URL")
    scheme_raw, rest, query, fragment = shape.groups()
    scheme = scheme_raw if scheme_raw in DEFAULT_PORTS else scheme_raw.lower()
    if scheme not in DEFAULT_PORTS:
        raise BadURL(Reason.UNSUPPORTED_SCHEME, f"unsupported scheme {scheme!r}")
    # Authority and path of a special URL: "\\" is "/", and any run of slashes
    # starts the authority (WHATWG "special authority ignore slashes state").
    if "\\" in rest:
        rest = rest.replace("\\", "/")
    rest = rest.lstrip("/")
    slash = rest.find("/")
    if slash < 0:
        authority, path = rest, "/"
    else:
        authority, path = rest[:slash], rest[slash:]
    userinfo = ""
    if "@" in authority:
        userinfo, _, authority = authority.rpartition("@")
    if authority.startswith("["):
        end = authority.find("]")
        if end < 0:
            raise BadURL(Reason.INVALID_URL, "unclosed IPv6 bracket")
        host, port = authority[: end + 1], authority[end + 1 :]
        if port and port[0] != ":":
            raise BadURL(Reason.INVALID_URL, "junk after IPv6 address")
        port = port[1:]
    else:
        host, _, port = authority.partition(":")
    return (scheme, userinfo, host, port, path, query, fragment, False)


def canonical_host(raw: str) -> str:
    """:func:`robotkit.url.hosts.parse_host`, remembered: a crawl sees few hosts many
    times."""
    host = HOST_CACHE.get(raw)
    if host is None:
        try:
            host = parse_host(raw)
        except BadHost as exc:
            raise BadURL(Reason.INVALID_URL, str(exc)) from None
        if len(HOST_CACHE) > 50_000:
            HOST_CACHE.clear()
        HOST_CACHE[raw] = host
    return host


HOST_CACHE: dict[str, str] = {}


def effective_port(scheme: str, raw: str) -> int:
    """The effective port: the scheme's default, or 1 to 65535 in ASCII digits."""
    if not raw:
        return DEFAULT_PORTS[scheme]
    if not (raw.isascii() and raw.isdigit()):
        raise BadURL(Reason.INVALID_URL, f"bad port {raw!r}")
    port = int(raw)
    if not 0 < port <= 65535:
        raise BadURL(Reason.INVALID_URL, f"port {port} out of range")
    return port


# --------------------------------------------------------------------------------------
# The parsed URL: what to fetch, what robots.txt judges, and its origin.
# --------------------------------------------------------------------------------------

# WHATWG path and query percent-encode sets (for the special schemes): what a browser
# escapes before it sends a request. Existing ``%XX`` are left as written.
_PATH_ESCAPE = re.compile(r"[\x00-\x20\x7f\"<>`{}]|[^\x00-\x7f]")
_QUERY_ESCAPE = re.compile(r"[\x00-\x20\x7f\"<>']|[^\x00-\x7f]")


def _escape(match: re.Match[str]) -> str:
    return "".join(f"%{b:02X}" for b in match.group().encode("utf-8"))


class ParsedURL(NamedTuple):
    """A URL read once, passed along and never parsed again: ``original`` as given,
    the canonical host and effective port, and the path and query a browser would
    send (dot segments resolved per RFC 3986 section 5.2.4, unsafe characters
    percent-encoded as the WHATWG URL Standard says, existing escapes as written)."""

    original: str
    scheme: str
    userinfo: str  # as written, without its "@"
    host: str  # lowercase ASCII (punycode), dotted-quad IPv4, bare compressed IPv6
    port: int
    path: str
    query: str | None
    fragment: str | None

    @property
    def origin(self) -> Origin:
        """The robots.txt and politeness key of this URL (RFC 9309 section 2.3)."""
        return origin_value(self.scheme, self.host, self.port)

    @property
    def target(self) -> str:
        """The request target (RFC 9110 section 7.1): path and query, what the
        server sees and what robots.txt rules are matched against."""
        return self.path if self.query is None else f"{self.path}?{self.query}"

    @property
    def href(self) -> str:
        """The URL to fetch: canonical host, default port left out, no fragment."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        userinfo = f"{self.userinfo}@" if self.userinfo else ""
        port = "" if DEFAULT_PORTS[self.scheme] == self.port else f":{self.port}"
        return f"{self.scheme}://{userinfo}{host}{port}{self.target}"

    def __str__(self) -> str:
        return self.href


@lru_cache(maxsize=8192)
def _parse_cached(url: str) -> ParsedURL:
    """The one cache of parsed URLs (and so of URL -> origin): bounded, since a
    crawl meets millions of URLs and re-asks about the recent few."""
    scheme, userinfo, host, port, path, query, fragment, clean = split_parts(url)
    if not clean:
        if _PATH_ESCAPE.search(path):
            path = _PATH_ESCAPE.sub(_escape, path)
        if has_dot_segment(path):
            path = remove_dot_segments(path)
    elif "/." in path:
        path = remove_dot_segments(path)
    if query and _QUERY_ESCAPE.search(query):
        query = _QUERY_ESCAPE.sub(_escape, query)
    userinfo = "" if userinfo in ("", ":") else userinfo.removesuffix(":")
    return ParsedURL(
        url,
        scheme,
        userinfo,
        canonical_host(host),
        effective_port(scheme, port),
        path,
        query,
        fragment,
    )


def parse_url(url: str) -> ParsedURL:
    """The parts of an absolute http(s) URL, or :class:`InvalidURL` saying why."""
    if not isinstance(url, str):
        raise InvalidURL(repr(url), Reason.INVALID_URL, "not a string")
    try:
        return _parse_cached(url)
    except BadURL as exc:
        raise exc.for_url(url) from None


class HasOrigin(Protocol):
    """A URL parsed already (:class:`ParsedURL`, a normalized URL): it knows its
    origin, and nobody parses it again."""

    @property
    def origin(self) -> Origin: ...


_PLAIN_ORIGIN = re.compile(r"https?://[a-z0-9.-]+(?::[0-9]{1,5})?(?=[/?#]|\Z)")
_ORIGINS: dict[str, Origin] = {}
_ORIGINS_SIZE = 65_536


def origin_of(url: str | HasOrigin) -> Origin:
    """The (scheme, host, port) of a URL, default port filled in, host spelled as
    :func:`robotkit.url.normalization.normalize` spells it (lowercase, punycode, no
    trailing dot, canonical IP): robots.txt, pacing and frontier keys all agree. A URL
    parsed already gives its own origin."""
    if isinstance(url, str):
        # A printable URL whose authority is plain lowercase ``host[:port]`` has the
        # origin (or the error) of every URL with that prefix: remembered per prefix,
        # since a crawl meets millions of URLs on a few hosts and parsing a whole URL
        # costs more than a frontier's add.
        plain = _PLAIN_ORIGIN.match(url) if url.isprintable() else None
        if plain is None:
            return parse_url(url).origin
        prefix = plain.group()
        found = _ORIGINS.get(prefix)
        if found is None:
            found = parse_url(url).origin
            if len(_ORIGINS) >= _ORIGINS_SIZE:
                _ORIGINS.clear()
            _ORIGINS[prefix] = found
        return found
    origin = getattr(url, "origin", None)
    if isinstance(origin, Origin):
        return origin
    raise InvalidURL(repr(url), Reason.INVALID_URL, "not a string")


def robots_url(url: str) -> str:
    """The robots.txt URL that governs ``url``."""
    return parse_url(url).origin.robots_url


def path_and_query(url: str) -> str:
    """What robots.txt rules are matched against: the request target of the parsed
    URL, escapes as written (RFC 9309 section 2.2.2 leaves normalization of
    percent-encoding to the matcher)."""
    return parse_url(url).target


# --------------------------------------------------------------------------------------
# Link resolution: RFC 3986 section 5.2 on the parts the same parser split.
# --------------------------------------------------------------------------------------


def resolve(base: str, reference: str) -> str | None:
    """The absolute http(s) URL of ``reference`` found on the page at ``base`` (RFC
    3986 section 5.2.2, with the WHATWG parser's leniency for the special schemes:
    ``\\`` is ``/``, ``http:x`` is relative to an ``http`` base), authority as
    written, fragment dropped; a relative reference's path with the escapes of
    unreserved characters decoded and its dot segments, escaped ones too, removed
    (:func:`decode_unreserved`, :func:`remove_dot_segments`). None for any other
    scheme or a result that is no fetchable URL."""
    if not isinstance(reference, str):
        return None
    try:
        ref = _preprocess(reference)
        scheme_match = _SCHEME.match(ref)
        if scheme_match is not None:
            scheme = scheme_match.group()[:-1].lower()
            if scheme not in DEFAULT_PORTS:
                return None
            rest = ref[scheme_match.end() :]
            if rest[:1] in ("/", "\\") or split_parts(base)[0] != scheme:
                return _joined(split_parts(ref))
            ref = rest  # WHATWG: same special scheme without slashes is relative
        return _joined(_relative(split_parts(base), ref))
    except BadURL:
        return None


class LinkResolver:
    """:func:`resolve` against one base, for the ~190 links of a page, with a fast
    path for the two common kinds of link: a plain absolute ``http(s)://host/path``
    and a plain relative path (``intro.html``, ``api/x.html?v=2#top``). The base is
    split and its authority checked once; a link of either kind is then answered
    with what :func:`resolve` would compute for it, minus the steps that cannot
    change it (see :meth:`fast`); any other link goes through :func:`resolve`.
    ARCHITECTURE.md, "Page processing"."""

    __slots__ = ("_base", "_directory", "_origin")

    def __init__(self, base: str) -> None:
        self._base = base
        self._origin: str | None = None
        self._directory = ""
        try:
            parts = split_parts(base)
            self._origin = _origin_text(parts)
        except BadURL:
            return
        path = parts[4]
        self._directory = path[: path.rfind("/") + 1]

    def resolve(self, reference: str) -> str | None:
        """:func:`resolve` of ``reference`` against this base."""
        if not isinstance(reference, str):
            return None
        return self.fast(reference) or resolve(self._base, reference)

    def fast(self, reference: str) -> str | None:
        """The URL of a plain link, which is :func:`resolve`'s answer for it; None
        when the link is not plain (then :func:`resolve` decides).

        Why the answers agree: a plain link is printable ASCII without spaces, so
        WHATWG preprocessing returns it unchanged. A plain absolute link is what
        :func:`split_parts` reads by its clean shape, and its host and port are
        checked here as :func:`resolve` checks them. A plain relative link has no
        ``:`` before its query (so no scheme) and is an absolute path (one ``/``,
        never ``//``: no authority) or starts with none of ``/ \\ . ? #`` (a
        relative path, merged with the base's directory, RFC 3986 sections 5.2.2
        and 5.2.3); its escapes of unreserved characters are decoded as
        :func:`resolve` decodes them (:func:`decode_unreserved`); with no dot segment
        in the result, section 5.2.4 leaves it alone; its authority is the base's,
        checked once."""
        if self._origin is not None and _PLAIN_RELATIVE.fullmatch(reference):
            head, question, query = reference.partition("#")[0].partition("?")
            path = decode_unreserved(head if head[0] == "/" else self._directory + head)
            if not has_dot_segment(path):
                text = self._origin + path
                return f"{text}?{query}" if question else text
            return None
        clean = _CLEAN_SHAPE.fullmatch(reference) if reference.isprintable() else None
        if clean is None or " " in reference:
            return None
        scheme, host, port, path, query, _ = clean.groups()
        try:
            text = _origin_text((scheme, "", host, port or "", "", None, None, True))
        except BadURL:
            return None
        text += path or "/"
        return text if query is None else f"{text}?{query}"


_PLAIN_RELATIVE = re.compile(
    r"(?:/(?!/)|[A-Za-z0-9\-_~!$&'*+,;=@%])[A-Za-z0-9\-._~!$&'*+,;=@%/]*"
    r"(?:\?[!-\"$-~]*)?(?:#[!-~]*)?"
)
"""A path of printable ASCII, no ``:``, ``\\`` or space before its query, starting
with one ``/`` (an absolute path) or with none of ``/ . ? #`` (a relative one); then
a query and a fragment of printable ASCII (no space)."""


def _relative(base: _Split, ref: str) -> _Split:
    """RFC 3986 section 5.2.2 for a reference without a scheme."""
    if ref[:2] in ("//", "\\\\", "/\\", "\\/"):  # network-path: the base's scheme only
        return split_parts(f"{base[0]}:{ref}")
    ref, hash_, fragment_ = ref.partition("#")
    fragment = fragment_ if hash_ else None
    head, question, query_ = ref.partition("?")
    query = query_ if question else None
    if "\\" in head:
        head = head.replace("\\", "/")
    scheme, userinfo, host, port, base_path, base_query, _, _ = base
    if not head:
        path = base_path
        if query is None:
            query = base_query
    elif head.startswith("/"):
        path = head
    else:
        path = base_path[: base_path.rfind("/") + 1] + head
    path = decode_unreserved(path)
    if has_dot_segment(path) or path.startswith("."):
        path = remove_dot_segments(path if path.startswith("/") else "/" + path)
    return (scheme, userinfo, host, port, path, query, fragment, False)


def _origin_text(parts: _Split) -> str:
    """``scheme://authority`` as written, once its host and port are known to be
    valid (:class:`BadURL` if not)."""
    scheme, userinfo, host, port = parts[:4]
    canonical_host(host)
    effective_port(scheme, port)
    authority = f"{userinfo}@{host}" if userinfo else host
    return f"{scheme}://{authority}:{port}" if port else f"{scheme}://{authority}"


def _joined(parts: _Split) -> str:
    """The resolved URL as text (authority as written), once its host and port
    are known to be valid."""
    text = _origin_text(parts) + parts[4]
    query = parts[5]
    return text if query is None else f"{text}?{query}"
