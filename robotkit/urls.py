"""URLs as a robot needs them: validity, origin keys and the robots.txt URL.

Pure functions, no I/O. Normalization for de-duplication lives here too (see
:func:`normalize`); robots.txt matching never uses it (ARCHITECTURE.md).
"""

from __future__ import annotations

import encodings.idna
import ipaddress
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from operator import itemgetter
from urllib.parse import SplitResult, unquote_to_bytes, urlsplit

import idna

from robotkit.reasons import Reason

SUPPORTED_SCHEMES = ("http", "https")
DEFAULT_PORTS = {"http": 80, "https": 443}


class InvalidURL(ValueError):
    """A URL the robot cannot fetch; ``reason`` is ``invalid-url`` or
    ``unsupported-scheme``."""

    def __init__(self, url: str, reason: Reason, detail: str) -> None:
        super().__init__(f"{detail}: {url!r}")
        self.url = url
        self.reason = reason
        self.detail = detail


@dataclass(frozen=True, order=True)
class Origin:
    """The key of a robots.txt file and of a cache entry: RFC 9309 section 2.3
    scopes a robots.txt to one scheme, host and port."""

    scheme: str
    host: str
    port: int

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        if DEFAULT_PORTS.get(self.scheme) == self.port:
            return f"{self.scheme}://{host}"
        return f"{self.scheme}://{host}:{self.port}"

    @property
    def robots_url(self) -> str:
        """RFC 9309 section 2.3: the file lives at ``/robots.txt`` of the origin."""
        return f"{self}/robots.txt"


def split_url(url: str) -> SplitResult:
    """Split an absolute http(s) URL, or raise :class:`InvalidURL` saying why."""
    if not isinstance(url, str):
        raise InvalidURL(repr(url), Reason.INVALID_URL, "not a string")
    text = url.strip()
    if not text:
        raise InvalidURL(url, Reason.INVALID_URL, "empty URL")
    if any(ord(c) < 0x20 or c == "\x7f" for c in text):
        raise InvalidURL(url, Reason.INVALID_URL, "control character in URL")
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as exc:
        raise InvalidURL(url, Reason.INVALID_URL, str(exc)) from None
    if not parts.scheme:
        raise InvalidURL(url, Reason.INVALID_URL, "not an absolute URL")
    scheme = parts.scheme.lower()
    if scheme not in SUPPORTED_SCHEMES:
        raise InvalidURL(url, Reason.UNSUPPORTED_SCHEME, f"unsupported scheme {scheme!r}")
    if not parts.hostname:
        raise InvalidURL(url, Reason.INVALID_URL, "no host")
    if port == 0:
        raise InvalidURL(url, Reason.INVALID_URL, "port 0")
    if any(c in parts.hostname for c in ' <>"{}|\\^`%'):
        raise InvalidURL(url, Reason.INVALID_URL, "invalid character in host")
    return parts


def origin_of(url: str) -> Origin:
    """The (scheme, host, port) of a URL, default port filled in, host spelled as
    :func:`normalize` spells it (lowercase, punycode, no trailing dot, canonical IP), so
    that robots.txt, pacing and frontier keys agree with ``normalize(url).origin``."""
    parts = split_url(url)
    scheme = parts.scheme.lower()
    raw = parts.hostname or ""
    try:
        host = _normalize_host(f"[{raw}]" if ":" in raw else raw)
    except _Bad as exc:
        raise exc.for_url(url) from None
    return Origin(scheme, host, parts.port or DEFAULT_PORTS[scheme])


def robots_url(url: str) -> str:
    """The robots.txt URL that governs ``url``."""
    return origin_of(url).robots_url


def path_and_query(url: str) -> str:
    """What robots.txt rules are matched against: the path (``/`` if empty) and the
    query, exactly as written (RFC 9309 section 2.2.2 leaves normalization of
    percent-encoding to the matcher)."""
    parts = split_url(url)
    path = parts.path or "/"
    return f"{path}?{parts.query}" if parts.query else path


# --------------------------------------------------------------------------------------
# Normalization: one de-duplication key per page (RFC 3986 section 6.2.2 plus the
# WHATWG URL Standard's lenient parsing, plus crawler rules for tracking parameters,
# session ids, query order and fragments). The key is for the seen set and the frontier;
# the original URL is always kept beside it.
# --------------------------------------------------------------------------------------

#: Query parameters that only tell an analytics tool where a click came from: they never
#: change the page. Matched case-insensitively on the decoded name. Sources: Google
#: (utm_*, gclid, gclsrc, dclid, gbraid, wbraid, _ga, _gl, srsltid, __utm*), Meta (fbclid,
#: igshid), Microsoft (msclkid), Mailchimp (mc_cid, mc_eid), Yandex (yclid, _openstat),
#: X/Twitter (twclid), TikTok (ttclid), LinkedIn (li_fat_id), HubSpot (_hsenc, _hsmi,
#: __hssc, __hstc, __hsfp, hsctatrk, hsa_*), Marketo (mkt_tok), Matomo/Piwik (mtm_*, pk_*
#: campaign names), Vero, Olytics, Klaviyo (_kx), Adobe (s_cid, ef_id), Wicked Reports.
TRACKING_PARAMS: frozenset[str] = frozenset(
    {
        "fbclid", "gclid", "gclsrc", "dclid", "gbraid", "wbraid", "msclkid", "mc_cid",
        "mc_eid", "_ga", "_gl", "yclid", "igshid", "twclid", "ttclid", "li_fat_id",
        "srsltid", "_hsenc", "_hsmi", "__hssc", "__hstc", "__hsfp", "hsctatrk", "mkt_tok",
        "vero_id", "vero_conv", "oly_anon_id", "oly_enc_id", "rb_clickid", "s_cid",
        "ef_id", "_openstat", "wickedid", "_kx", "pk_campaign", "pk_cpn", "pk_kwd",
        "pk_keyword", "pk_source", "pk_medium", "pk_content", "pk_cid",
    }
)  # fmt: skip

#: Name prefixes of tracking parameters (``utm_source``, ``mtm_campaign``, ``hsa_acc``,
#: ``__utmz``). ``utm`` alone is not one: a prefix needs its underscore.
TRACKING_PARAM_PREFIXES: tuple[str, ...] = ("utm_", "mtm_", "hsa_", "__utm")

#: Query and path parameters that carry a session id (Java servlets, PHP, ASP, ColdFusion,
#: osCommerce, Zen Cart and generic ``sid``): the same page under a new name per visit,
#: the classic crawler trap. ``sid`` means something on a few sites; keep it there with
#: a per-site allow list (:class:`SiteParams`).
SESSION_PARAMS: frozenset[str] = frozenset(
    {
        "jsessionid", "phpsessid", "sid", "sessionid", "session_id", "sessid", "sess_id",
        "aspsessionid", "cfid", "cftoken", "oscsid", "zenid",
    }
)  # fmt: skip

#: Name prefixes of session parameters: classic ASP appends eight letters to the name
#: (``ASPSESSIONIDQQGGQRTA``).
SESSION_PARAM_PREFIXES: tuple[str, ...] = ("aspsessionid",)

_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
_C0_AND_SPACE = "".join(chr(i) for i in range(0x21))
_TAB_NEWLINE = {ord("\t"): None, ord("\n"): None, ord("\r"): None}

# RFC 3986 section 3.3/3.4/3.2.1: what may appear unencoded in each component. Any other
# character is percent-encoded as UTF-8, and every ``%XX`` is rewritten to its canonical
# form; one regex pass per component finds both.
_PATH_FIX = re.compile(r"%[0-9A-Fa-f]{2}|[^A-Za-z0-9\-._~!$&'()*+,;=:@/]")
_QUERY_FIX = re.compile(r"%[0-9A-Fa-f]{2}|[^A-Za-z0-9\-._~!$&'()*+,;=:@/?]")
_USERINFO_FIX = re.compile(r"%[0-9A-Fa-f]{2}|[^A-Za-z0-9\-._~!$&'()*+,;=:]")
_URL_SHAPE = re.compile(r"([A-Za-z][A-Za-z0-9+\-.]*):([^?#]*)(?:\?([^#]*))?(?:#(.*))?", re.S)
_CLEAN_SHAPE = re.compile(
    r"(https?)://([a-z0-9.\-]+)(?::([0-9]{1,5}))?(/[A-Za-z0-9\-._~!$&'*+,=:@/]*)?"
    r"(?:\?([^#]*))?(?:#(.*))?",
    re.S,
)
_ASCII_HOST = re.compile(r"[a-z0-9\-._~!$&'()*+,;=]+")
_ENDS_IN_NUMBER = re.compile(r"(?:^|\.)(?:[0-9]+|0[xX][0-9A-Fa-f]*)$")
_ASPNET_SESSION_SEGMENT = re.compile(r"\((?:[A-Za-z]\([A-Za-z0-9_\-]*\))+\)")


class _PercentMap(dict[str, str]):
    """``%xx`` -> canonical form (RFC 3986 section 6.2.2.2: unreserved characters
    decoded, other octets with uppercase hex) and a single character -> its encoding;
    characters outside ASCII are added on first use."""

    def __missing__(self, char: str) -> str:
        encoded = "".join(f"%{b:02X}" for b in char.encode("utf-8"))
        self[char] = encoded
        return encoded


def _build_percent_map() -> _PercentMap:
    table = _PercentMap()
    for byte in range(256):
        hex_ = f"{byte:02X}"
        hi, lo = hex_[0], hex_[1]
        canonical = chr(byte) if chr(byte) in _UNRESERVED else f"%{hi}{lo}"
        for h in {hi, hi.lower()}:
            for lo_ in {lo, lo.lower()}:
                table[f"%{h}{lo_}"] = canonical
        if byte < 0x80:
            table[chr(byte)] = f"%{hi}{lo}"
    return table


_PERCENT = _build_percent_map()


def _percent_fix(match: re.Match[str]) -> str:
    return _PERCENT[match.group()]


class _Bad(Exception):
    """Internal: why a URL is garbage; turned into :class:`InvalidURL` at the surface."""

    def __init__(self, reason: Reason, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail

    def for_url(self, url: object) -> InvalidURL:
        return InvalidURL(url if isinstance(url, str) else repr(url), self.reason, self.detail)


@dataclass(frozen=True)
class SiteParams:
    """Per-site exceptions to the parameter rules. ``keep`` wins over everything
    (``keep={"sid"}`` for a site where ``sid`` names a page); ``drop`` removes more.
    Names are case-insensitive; a name ending in ``*`` is a prefix (``"ref_*"``, and
    ``"*"`` alone matches every name)."""

    keep: Collection[str] = frozenset()
    drop: Collection[str] = frozenset()

    def __post_init__(self) -> None:
        object.__setattr__(self, "keep", frozenset(n.lower() for n in self.keep))
        object.__setattr__(self, "drop", frozenset(n.lower() for n in self.drop))


def _split_globs(names: Collection[str]) -> tuple[frozenset[str], tuple[str, ...]]:
    exact = frozenset(n for n in names if not n.endswith("*"))
    prefixes = tuple(n[:-1] for n in names if n.endswith("*"))
    return exact, prefixes


class _ParamFilter(dict[str, bool]):
    """Decides, for one host, whether a parameter name is dropped: ``filter[name]``.
    Layers are checked from the most specific site to the global lists, then the
    built-in lists; answers are memoized (this dict) because a crawl sees the same few
    hundred names over and over."""

    def __init__(
        self,
        layers: list[tuple[frozenset[str], tuple[str, ...], frozenset[str], tuple[str, ...]]],
        tracking: bool,
        session: bool,
    ) -> None:
        super().__init__()
        self._layers = layers
        self._tracking = tracking
        self._session = session
        #: False when no name can be dropped, so the query loop can skip the lookups.
        self.strips_anything = tracking or session or any(lay[2] or lay[3] for lay in layers)

    def __missing__(self, name: str) -> bool:
        answer = self._decide(name.lower())
        if len(self) > 4096:
            self.clear()
        self[name] = answer
        return answer

    def _decide(self, name: str) -> bool:
        for keep, keep_prefixes, drop, drop_prefixes in self._layers:
            if name in keep or (keep_prefixes and name.startswith(keep_prefixes)):
                return False
            if name in drop or (drop_prefixes and name.startswith(drop_prefixes)):
                return True
        if self._tracking and (name in TRACKING_PARAMS or name.startswith(TRACKING_PARAM_PREFIXES)):
            return True
        return self._session and (name in SESSION_PARAMS or name.startswith(SESSION_PARAM_PREFIXES))


@dataclass(frozen=True)
class NormalizePolicy:
    """What :func:`normalize` does beyond RFC 3986 section 6.2.2.

    ``keep_params``/``drop_params`` are global allow and deny lists of parameter names
    (case-insensitive, ``name*`` for a prefix); ``sites`` maps a host or a domain suffix
    (``"example.com"`` covers ``www.example.com``) to :class:`SiteParams`, the most
    specific match first. Allow beats deny at each level, and any list beats the
    built-in :data:`TRACKING_PARAMS` and :data:`SESSION_PARAMS`. The same decision
    applies to query parameters and to path parameters (``;jsessionid=...``).

    ``sort_query`` sorts parameters by name, keeping the wire order of a repeated
    name's values (``tag=b&tag=a`` may be an ordered list); ``sort_repeated_by_value``
    also sorts those values, merging more URLs at the risk of merging two pages.
    """

    strip_tracking: bool = True
    strip_session_ids: bool = True
    sort_query: bool = True
    sort_repeated_by_value: bool = False
    keep_hashbang: bool = True
    keep_params: Collection[str] = frozenset()
    drop_params: Collection[str] = frozenset()
    sites: Mapping[str, SiteParams] = field(default_factory=dict, hash=False)
    _filters: dict[str, _ParamFilter] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )
    _global_filter: _ParamFilter = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "keep_params", frozenset(n.lower() for n in self.keep_params))
        object.__setattr__(self, "drop_params", frozenset(n.lower() for n in self.drop_params))
        sites: dict[str, SiteParams] = {}
        for domain, params in self.sites.items():
            key = domain.strip().lower().lstrip("*").strip(".")
            try:
                key = _normalize_host(key)
            except _Bad as exc:
                raise ValueError(f"bad site {domain!r} in NormalizePolicy: {exc.detail}") from None
            sites[key] = params
        object.__setattr__(self, "sites", sites)
        object.__setattr__(self, "_global_filter", self._filter_for(""))

    def _filter_for(self, host: str) -> _ParamFilter:
        cache_key = host if self.sites else ""
        found = self._filters.get(cache_key)
        if found is not None:
            return found
        layers = []
        if self.sites:
            labels = host.split(".")
            for i in range(len(labels)):
                site = self.sites.get(".".join(labels[i:]))
                if site is not None:
                    layers.append((*_split_globs(site.keep), *_split_globs(site.drop)))
        if self.keep_params or self.drop_params:
            layers.append((*_split_globs(self.keep_params), *_split_globs(self.drop_params)))
        found = _ParamFilter(layers, self.strip_tracking, self.strip_session_ids)
        if len(self._filters) > 10_000:
            self._filters.clear()
        self._filters[cache_key] = found
        return found


DEFAULT_POLICY = NormalizePolicy()


@dataclass(frozen=True, slots=True)
class NormalizedURL:
    """A URL as given (``original``, what to fetch and to log) beside its
    de-duplication ``key`` (what to put in a seen set), with the key's parts."""

    original: str
    key: str
    scheme: str
    host: str  # lowercase ASCII (punycode); an IPv6 address without its brackets
    port: int  # the effective port, default filled in
    path: str
    query: str | None

    @property
    def origin(self) -> Origin:
        """The robots.txt and politeness key of this URL (RFC 9309 section 2.3)."""
        return Origin(self.scheme, self.host, self.port)

    def __str__(self) -> str:
        return self.key


def normalize(url: str, policy: NormalizePolicy | None = None) -> NormalizedURL:
    """The de-duplication key of ``url`` with its parts; :class:`InvalidURL` (reason
    ``invalid-url`` or ``unsupported-scheme``) for anything that is not an http(s) URL.

    Rules, in order: WHATWG URL preprocessing (surrounding C0 controls and spaces
    stripped, tab/CR/LF removed, ``\\`` read as ``/``, any number of slashes after the
    scheme); RFC 3986 section 6.2.2 (scheme and host case, percent-encoding, dot
    segments per section 5.2.4, default port, empty path as ``/``); IDNA hosts to
    punycode (UTS 46, non-transitional), IPv4 in any WHATWG spelling to dotted quad,
    IPv6 compressed (RFC 5952) and bracketed, trailing dot removed; then the crawler
    rules of ``policy``: session and tracking parameters removed from the query and
    path, query parameters sorted by name (stable, so repeated names keep their order),
    fragment dropped unless it is a ``#!`` route.
    """
    try:
        scheme, host, port, userinfo, path, query, fragment = _normalize_parts(
            url, policy or DEFAULT_POLICY
        )
    except _Bad as exc:
        raise exc.for_url(url) from None
    return NormalizedURL(
        url, _serialize(scheme, host, port, userinfo, path, query, fragment), scheme, host,
        port, path, query,
    )  # fmt: skip


def normalize_or_none(url: str, policy: NormalizePolicy | None = None) -> NormalizedURL | None:
    """:func:`normalize`, or ``None`` for a URL that cannot be fetched: for the
    callers that only skip such URLs (links of a page, learned state)."""
    try:
        return normalize(url, policy)
    except InvalidURL:
        return None


def normalize_key(url: str, policy: NormalizePolicy | None = None) -> str:
    """Only the key of :func:`normalize` (the same rules, without building the object)."""
    try:
        return _serialize(*_normalize_parts(url, policy or DEFAULT_POLICY))
    except _Bad as exc:
        raise exc.for_url(url) from None


def _serialize(
    scheme: str,
    host: str,
    port: int,
    userinfo: str,
    path: str,
    query: str | None,
    fragment: str | None,
) -> str:
    text = f"{scheme}://{userinfo}[{host}]" if ":" in host else f"{scheme}://{userinfo}{host}"
    if port != DEFAULT_PORTS[scheme]:
        text = f"{text}:{port}"
    text += path
    if query is not None:
        text = f"{text}?{query}"
    if fragment is not None:
        text = f"{text}#{fragment}"
    return text


def _normalize_parts(
    url: str, policy: NormalizePolicy
) -> tuple[str, str, int, str, str, str | None, str | None]:
    if not isinstance(url, str):
        raise _Bad(Reason.INVALID_URL, "not a string")
    # WHATWG URL Standard, basic URL parser: strip leading/trailing C0 control or space,
    # remove all ASCII tab or newline.
    if url and (url[0] <= " " or url[-1] <= " "):
        url = url.strip(_C0_AND_SPACE)
    if "\t" in url or "\n" in url or "\r" in url:
        url = url.translate(_TAB_NEWLINE)
    if not url.isascii():
        try:
            url.encode("utf-8")
        except UnicodeEncodeError:
            raise _Bad(Reason.INVALID_URL, "lone surrogate in URL") from None
    fast = _CLEAN_SHAPE.fullmatch(url)
    if fast is not None:
        # Already-clean URL (lowercase scheme and host, plain path): nothing to split
        # further and nothing to percent-encode in the path.
        scheme, host_raw, port_raw, path, query, fragment = fast.groups()
        userinfo = ""
        clean_path = True
        if path is None:
            path = "/"
    else:
        scheme, userinfo, host_raw, port_raw, path, query, fragment = _split(url)
        clean_path = False
    host = _HOST_CACHE.get(host_raw)
    if host is None:
        host = _normalize_host(host_raw)
        if len(_HOST_CACHE) > 50_000:
            _HOST_CACHE.clear()
        _HOST_CACHE[host_raw] = host
    port = DEFAULT_PORTS[scheme]
    if port_raw:
        if not (port_raw.isascii() and port_raw.isdigit()):
            raise _Bad(Reason.INVALID_URL, f"bad port {port_raw!r}")
        port = int(port_raw)
        if not 0 < port <= 65535:
            raise _Bad(Reason.INVALID_URL, f"port {port} out of range")

    param_filter = policy._filter_for(host) if policy.sites else policy._global_filter
    if not clean_path:
        path = _PATH_FIX.sub(_percent_fix, path)
        if ";" in path or "(" in path:
            path = _strip_path_params(path, param_filter, policy.strip_session_ids)
    if "/." in path:
        path = remove_dot_segments(path)

    if query is not None:
        query = _normalize_query(query, param_filter, policy)

    if fragment is not None:
        fragment = (
            _QUERY_FIX.sub(_percent_fix, fragment)
            if policy.keep_hashbang and len(fragment) > 1 and fragment[0] == "!"
            else None
        )
    return scheme, host, port, userinfo, path, query, fragment


_HOST_CACHE: dict[str, str] = {}


def _split(url: str) -> tuple[str, str, str, str, str, str | None, str | None]:
    """Scheme, normalized userinfo (with its ``@``), raw host, raw port, raw path, raw
    query and raw fragment of any http(s) URL the WHATWG parser accepts."""
    shape = _URL_SHAPE.fullmatch(url)
    if shape is None:
        raise _Bad(Reason.INVALID_URL, "not an absolute URL" if url else "empty URL")
    scheme_raw, rest, query, fragment = shape.groups()
    scheme = scheme_raw if scheme_raw in DEFAULT_PORTS else scheme_raw.lower()
    if scheme not in DEFAULT_PORTS:
        raise _Bad(Reason.UNSUPPORTED_SCHEME, f"unsupported scheme {scheme!r}")

    # Special schemes: "\" is "/", and any run of slashes starts the authority
    # (WHATWG "special authority ignore slashes state").
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
        userinfo_raw, _, authority = authority.rpartition("@")
        if userinfo_raw and userinfo_raw != ":":
            user, _, password = userinfo_raw.partition(":")
            userinfo = _USERINFO_FIX.sub(_percent_fix, user)
            if password:
                userinfo += ":" + _USERINFO_FIX.sub(_percent_fix, password)
            userinfo += "@"
    if authority.startswith("["):
        end = authority.find("]")
        if end < 0:
            raise _Bad(Reason.INVALID_URL, "unclosed IPv6 bracket")
        host_raw, port_raw = authority[: end + 1], authority[end + 1 :]
        if port_raw and port_raw[0] != ":":
            raise _Bad(Reason.INVALID_URL, "junk after IPv6 address")
        port_raw = port_raw[1:]
    else:
        host_raw, _, port_raw = authority.partition(":")
    return scheme, userinfo, host_raw, port_raw, path, query, fragment


def _normalize_query(query: str, param_filter: _ParamFilter, policy: NormalizePolicy) -> str | None:
    """Percent-normalize, drop empty pieces and filtered parameters, sort by name.

    The sort is stable on the name alone: ``tag=b&tag=a`` can name a different list
    than ``tag=a&tag=b``, and ``a`` differs from ``a=`` on the wire, so both are kept
    as written (unless ``policy.sort_repeated_by_value``).
    """
    if not query:
        return None
    query = _QUERY_FIX.sub(_percent_fix, query)
    if ";" in query and param_filter.strips_anything:
        # ``?page=2;jsessionid=0A1B``: a session id glued on with ";" (HTML 4's other
        # query separator) goes too.
        query = "&".join([_strip_semicolon_params(p, param_filter) for p in query.split("&")])
    if "&" not in query:  # one parameter: nothing to sort
        return (
            None
            if param_filter.strips_anything and param_filter[query.partition("=")[0]]
            else query
        )
    pairs = [(p.partition("=")[0], p) for p in query.split("&") if p]
    if param_filter.strips_anything:
        pairs = [pair for pair in pairs if not param_filter[pair[0]]]
    if policy.sort_repeated_by_value:
        pairs.sort()
    elif policy.sort_query:
        pairs.sort(key=_NAME)
    return "&".join([piece for _, piece in pairs]) or None


_NAME = itemgetter(0)


def _strip_path_params(path: str, param_filter: _ParamFilter, session_ids: bool) -> str:
    """Remove filtered path parameters (``/cart;jsessionid=0A1B``, RFC 3986 section 3.3
    leaves ``;`` to the application and servlet containers use it for sessions) and
    ASP.NET cookieless session segments (``/(S(lit3py55t21z5v55vlm25s55))/page``)."""
    segments = path.split("/")
    kept_segments = []
    for segment in segments:
        if ";" in segment:
            segment = _strip_semicolon_params(segment, param_filter)
        if session_ids and segment.startswith("(") and _ASPNET_SESSION_SEGMENT.fullmatch(segment):
            continue
        kept_segments.append(segment)
    if kept_segments == segments:
        return path
    return "/".join(kept_segments) or "/"


def _strip_semicolon_params(text: str, param_filter: _ParamFilter) -> str:
    """``first;name=value;...`` without the parameters ``param_filter`` drops."""
    first, *params = text.split(";")
    kept = [p for p in params if not param_filter[p.partition("=")[0]]]
    return text if len(kept) == len(params) else ";".join([first, *kept])


def remove_dot_segments(path: str) -> str:
    """RFC 3986 section 5.2.4 for an absolute path: ``.`` and ``..`` segments resolved,
    ``..`` never climbing above the root; a path ending in a dot segment keeps its
    trailing slash."""
    segments = path.split("/")
    out: list[str] = []
    for segment in segments[1:]:
        if segment == "..":
            if out:
                out.pop()
        elif segment != ".":
            out.append(segment)
    if segments[-1] in (".", ".."):
        out.append("")
    return "/" + "/".join(out)


def _normalize_host(raw: str) -> str:
    """Host per WHATWG host parsing and RFC 3986 section 6.2.2.1: percent-decoded,
    IDNA to punycode (UTS 46 non-transitional, falling back to IDNA 2003 for labels
    IDNA 2008 refuses but browsers resolve, such as emoji), lowercase, trailing dot
    removed, IPv4 in any WHATWG spelling as a dotted quad, IPv6 compressed."""
    if raw.startswith("["):
        return _ipv6(raw[1:-1])
    host = raw
    if "%" in host:
        try:
            host = unquote_to_bytes(host).decode("utf-8")
        except UnicodeDecodeError:
            raise _Bad(Reason.INVALID_URL, "percent-encoded host is not UTF-8") from None
    if not host.isascii():
        host = _idna_to_ascii(host)
    host = host.lower().rstrip(".")
    if not host:
        raise _Bad(Reason.INVALID_URL, "no host")
    if not _ASCII_HOST.fullmatch(host):
        raise _Bad(Reason.INVALID_URL, f"invalid character in host {raw!r}")
    if _ENDS_IN_NUMBER.search(host):
        return _ipv4(host)
    if "xn--" in host:
        for label in host.split("."):
            if label.startswith("xn--"):
                _check_punycode(label)
    return host


def _idna_to_ascii(host: str) -> str:
    try:
        mapped = idna.uts46_remap(host, std3_rules=False, transitional=False)
    except (idna.IDNAError, ValueError):
        mapped = host
    labels = []
    for label in mapped.split("."):
        if label.isascii():
            labels.append(label)
            continue
        try:
            labels.append(idna.alabel(label).decode("ascii"))
        except (idna.IDNAError, UnicodeError, ValueError):
            try:
                labels.append(encodings.idna.ToASCII(label).decode("ascii"))
            except (UnicodeError, ValueError):
                raise _Bad(Reason.INVALID_URL, f"invalid international host {host!r}") from None
    return ".".join(labels)


def _check_punycode(label: str) -> None:
    """An ``xn--`` label must decode (WHATWG domain to ASCII fails otherwise)."""
    try:
        idna.ulabel(label)
    except (idna.IDNAError, UnicodeError, ValueError):
        try:  # IDNA 2003 (emoji labels): the label must round-trip
            decoded = label[4:].encode("ascii").decode("punycode")
            if encodings.idna.ToASCII(decoded).decode("ascii").lower() != label:
                raise ValueError(label)
        except (UnicodeError, ValueError):
            raise _Bad(Reason.INVALID_URL, f"invalid punycode label {label!r}") from None


def _ipv4(host: str) -> str:
    """WHATWG IPv4 parser: 1 to 4 parts, each decimal, ``0x`` hex or ``0`` octal, the
    last filling the remaining bytes (``http://0x7f.1/`` is ``127.0.0.1``)."""
    parts = host.split(".")
    if len(parts) > 4:
        raise _Bad(Reason.INVALID_URL, f"bad IPv4 address {host!r}")
    numbers = []
    for part in parts:
        try:
            if part[:2] in ("0x", "0X"):
                numbers.append(int(part[2:], 16) if len(part) > 2 else 0)
            elif len(part) > 1 and part[0] == "0":
                numbers.append(int(part[1:], 8))
            else:
                numbers.append(int(part, 10))
        except ValueError:
            raise _Bad(Reason.INVALID_URL, f"bad IPv4 address {host!r}") from None
    last = numbers.pop()
    if any(n > 255 for n in numbers) or last >= 256 ** (4 - len(numbers)):
        raise _Bad(Reason.INVALID_URL, f"IPv4 address out of range {host!r}")
    value = last
    for i, n in enumerate(numbers):
        value += n << (8 * (3 - i))
    return str(ipaddress.IPv4Address(value))


def _ipv6(inner: str) -> str:
    if "%" in inner:
        raise _Bad(Reason.INVALID_URL, "IPv6 zone identifiers are not fetchable")
    try:
        return ipaddress.IPv6Address(inner).compressed
    except ValueError:
        raise _Bad(Reason.INVALID_URL, f"bad IPv6 address {inner!r}") from None
