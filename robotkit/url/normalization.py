"""Normalization: one de-duplication key per page.

RFC 3986 section 6.2.2 on the parts :mod:`robotkit.url.parse` splits (the same lenient
WHATWG reading every other entry point uses), plus a crawler's rules for tracking
parameters, session ids, query order and fragments. The key is for the seen set and
the frontier; the original URL is always kept beside it, and robots.txt matching
never uses the key (ARCHITECTURE.md, "One URL, one parser").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from operator import itemgetter

from robotkit.url.hosts import BadHost, parse_host
from robotkit.url.listing import is_listing_display_query
from robotkit.url.nesting import unnested
from robotkit.url.parse import (
    DEFAULT_PORTS,
    HOST_CACHE,
    BadURL,
    InvalidURL,
    Origin,
    canonical_host,
    effective_port,
    origin_value,
    split_parts,
)
from robotkit.url.spelling import remove_dot_segments

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

# RFC 3986 section 3.3/3.4/3.2.1: what may appear unencoded in each component. Any other
# character is percent-encoded as UTF-8, and every ``%XX`` is rewritten to its canonical
# form; one regex pass per component finds both.
_PATH_FIX = re.compile(r"%[0-9A-Fa-f]{2}|[^A-Za-z0-9\-._~!$&'()*+,;=:@/]")
_QUERY_FIX = re.compile(r"%[0-9A-Fa-f]{2}|[^A-Za-z0-9\-._~!$&'()*+,;=:@/?]")
_USERINFO_FIX = re.compile(r"%[0-9A-Fa-f]{2}|[^A-Za-z0-9\-._~!$&'()*+,;=:]")
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
    ``strip_listing_sort`` drops a directory listing's sort query (``/docs/?C=M;O=A``,
    :mod:`robotkit.url.listing`).
    """

    strip_tracking: bool = True
    strip_session_ids: bool = True
    sort_query: bool = True
    sort_repeated_by_value: bool = False
    keep_hashbang: bool = True
    strip_listing_sort: bool = True
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
                key = parse_host(key)
            except BadHost as exc:
                raise ValueError(f"bad site {domain!r} in NormalizePolicy: {exc}") from None
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
        return origin_value(self.scheme, self.host, self.port)

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
    path, a directory listing's sort query (``/docs/?C=M;O=A``) removed, query
    parameters sorted by name (stable, so repeated names keep their order),
    fragment dropped unless it is a ``#!`` route.
    """
    try:
        scheme, host, port, userinfo, path, query, fragment = _normalize_parts(
            url, policy or DEFAULT_POLICY
        )
    except BadURL as exc:
        raise exc.for_url(url) from None
    return NormalizedURL(
        url, _serialize(scheme, host, port, userinfo, path, query, fragment), scheme, host,
        port, path, query,
    )  # fmt: skip


def normalize_or_none(
    url: str | NormalizedURL, policy: NormalizePolicy | None = None
) -> NormalizedURL | None:
    """:func:`normalize`, or ``None`` for a URL that cannot be fetched: for the
    callers that only skip such URLs (links of a page, learned state). A
    :class:`NormalizedURL` passes as it is: it was parsed once, under the policy of
    whoever parsed it, and is never parsed again."""
    if isinstance(url, NormalizedURL):
        return url
    try:
        return normalize(url, policy)
    except InvalidURL:
        return None


def request_form(url: str, host: str, policy: NormalizePolicy | None = None) -> str:
    """``url`` (on ``host``, as its :class:`NormalizedURL`'s origin names it) as
    written, less the query parameters its key drops by ``policy`` (tracking
    parameters, known session ids): the spelling to request. They name no other page
    (that is why the key drops them), so the page is requested under the spelling its
    key names whichever link was met first; a story first linked with ``?gclid=`` and
    then under its own URL was fetched once, with the ad click, and never as itself
    (blind2 ``tracking``). Nutch's URL normalizers rewrite the URL it fetches the
    same way."""
    policy = policy or DEFAULT_POLICY
    param_filter = policy._filter_for(host) if policy.sites else policy._global_filter
    if not param_filter.strips_anything:
        return url
    if ";" in url:
        url = _without_path_params(url, param_filter)
    return without_pairs(
        url, lambda pair: param_filter[_QUERY_FIX.sub(_percent_fix, pair.partition("=")[0])]
    )


def _without_path_params(url: str, param_filter: _ParamFilter) -> str:
    """``url`` as written, less the path parameters its key drops
    (``/about.html;jsessionid=0A1B.node2``): a servlet container names the session
    in them and serves the same resource without one (Servlet 4.0 section 7.1.3), so
    the page is asked for as itself. Requested with the id a page's links carried,
    each page of a Java site behind URL rewriting was fetched once under a session's
    spelling and never as itself (blind11 ``magnolia``: 6 of 33 pages)."""
    start = url.find("/", url.find("//") + 2) if "//" in url else 0
    ends = [i for i in (url.find("?"), url.find("#")) if i >= 0]
    end = min(ends) if ends else len(url)
    if start < 0 or ";" not in url[start:end]:
        return url
    # The key's own pass, its ASP.NET session segments aside (``/(S(…))/`` is kept:
    # the server answers its absence with a redirect to a new one).
    path = _strip_path_params(url[start:end], param_filter, session_ids=False)
    return url[:start] + path + url[end:]


def without_pairs(url: str, dropped: Callable[[str], bool]) -> str:
    """``url`` as written (its fragment kept), less the ``name=value`` pairs of its
    query that ``dropped`` says go: how a spelling to request is cut, by the
    normalization policy (:func:`request_form`) or by learned rules
    (:meth:`robotkit.url.rewrites.Rewrites.spelled`)."""
    head, question, rest = url.partition("?")
    if not question:
        return url
    query, hash_, fragment = rest.partition("#")
    pieces = [p for p in query.split("&") if p]
    kept = [p for p in pieces if not dropped(p)]
    if len(kept) == len(pieces):
        return url
    return head + (f"?{'&'.join(kept)}" if kept else "") + hash_ + fragment


def normalize_key(url: str, policy: NormalizePolicy | None = None) -> str:
    """Only the key of :func:`normalize` (the same rules, without building the object)."""
    try:
        return _serialize(*_normalize_parts(url, policy or DEFAULT_POLICY))
    except BadURL as exc:
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
    scheme, userinfo_raw, host_raw, port_raw, path, query, fragment, clean_path = split_parts(url)
    host = HOST_CACHE.get(host_raw) or canonical_host(host_raw)
    port = effective_port(scheme, port_raw) if port_raw else DEFAULT_PORTS[scheme]
    userinfo = _userinfo(userinfo_raw) if userinfo_raw else ""

    param_filter = policy._filter_for(host) if policy.sites else policy._global_filter
    if not clean_path:
        path = _PATH_FIX.sub(_percent_fix, path)
        if ";" in path or "(" in path:
            path = _strip_path_params(path, param_filter, policy.strip_session_ids)
    if "/." in path:
        path = remove_dot_segments(path)

    if query is not None:
        query = _normalize_query(query, param_filter, policy)
        if query and policy.strip_listing_sort and is_listing_display_query(path, query):
            query = None
        if query and ("%" in query or "?" in query):  # a return address in itself
            query = unnested(host, query, _fixed_query)

    if fragment is not None:
        fragment = (
            _QUERY_FIX.sub(_percent_fix, fragment)
            if policy.keep_hashbang and len(fragment) > 1 and fragment[0] == "!"
            else None
        )
    return scheme, host, port, userinfo, path, query, fragment


def _fixed_query(text: str) -> str:
    """``text`` percent-normalized as a query is."""
    return _QUERY_FIX.sub(_percent_fix, text)


def _userinfo(raw: str) -> str:
    """User and password percent-normalized, with the ``@``; an empty password (or
    both empty) left out, as the WHATWG serializer does."""
    if raw == ":":
        return ""
    user, _, password = raw.partition(":")
    userinfo = _USERINFO_FIX.sub(_percent_fix, user)
    if password:
        userinfo += ":" + _USERINFO_FIX.sub(_percent_fix, password)
    return userinfo + "@"


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
