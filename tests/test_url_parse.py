"""URL normalization (issue 4): every rule in a table, trap spellings beside the
legitimate look-alikes that must stay apart, and hypothesis for idempotence and for
never raising anything but InvalidURL."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robotkit.base.reasons import Reason
from robotkit.url.normalization import (
    SESSION_PARAMS,
    TRACKING_PARAMS,
    NormalizedURL,
    NormalizePolicy,
    SiteParams,
    normalize,
    normalize_key,
)
from robotkit.url.parse import (
    InvalidURL,
    LinkResolver,
    Origin,
    origin_of,
    parse_url,
    path_and_query,
    resolve,
    robots_url,
)
from robotkit.url.redact import masked
from robotkit.url.spelling import remove_dot_segments

# (given, expected key)
RFC3986 = [
    # 6.2.2.1 case: scheme and host lowercase, percent-encoding hex uppercase
    ("HTTP://www.EXAMPLE.com/", "http://www.example.com/"),
    ("http://example.com/%3a%2f", "http://example.com/%3A%2F"),
    # the path keeps its case
    ("http://example.com/Path/File.HTML", "http://example.com/Path/File.HTML"),
    # 6.2.2.2 percent-encoding: unreserved characters decoded, reserved ones kept
    ("http://example.com/%7Euser/%41%62c%2D%2E%5F", "http://example.com/~user/Abc-._"),
    ("http://example.com/a%2Fb", "http://example.com/a%2Fb"),
    ("http://example.com/?q=a%26b%3Dc", "http://example.com/?q=a%26b%3Dc"),
    # characters that must be encoded are encoded (UTF-8)
    ("http://example.com/a b", "http://example.com/a%20b"),
    ("http://example.com/caf\u00e9?q=\u00fc", "http://example.com/caf%C3%A9?q=%C3%BC"),
    ('http://example.com/"<>`{}|^[]', "http://example.com/%22%3C%3E%60%7B%7D%7C%5E%5B%5D"),
    ("http://example.com/100%", "http://example.com/100%25"),
    ("http://example.com/%zz", "http://example.com/%25zz"),
    # 6.2.2.3 dot segments (5.2.4 examples)
    ("http://a/b/c/./../../g", "http://a/g"),
    ("http://a/mid/content=5/../6", "http://a/mid/6"),
    ("http://a/b/c/d;p?q", "http://a/b/c/d;p?q"),
    ("http://a/b/c/..", "http://a/b/"),
    ("http://a/b/c/.", "http://a/b/c/"),
    ("http://a/../../g", "http://a/g"),
    ("http://a/b/%2E%2E/c", "http://a/c"),
    ("http://a/b/.%2e/c", "http://a/c"),
    ("http://a/b/..c/.d", "http://a/b/..c/.d"),
    ("http://a/.well-known/x", "http://a/.well-known/x"),
    # 6.2.3 scheme-based: default port, empty path
    ("http://example.com:80/", "http://example.com/"),
    ("https://example.com:443/x", "https://example.com/x"),
    ("http://example.com:443/", "http://example.com:443/"),
    ("https://example.com:80/", "https://example.com:80/"),
    ("http://example.com:0080/", "http://example.com/"),
    ("http://example.com:/", "http://example.com/"),
    ("http://example.com", "http://example.com/"),
    ("http://example.com?x=1", "http://example.com/?x=1"),
    # an empty query is no query; double slashes in a path stay
    ("http://example.com/a?", "http://example.com/a"),
    ("http://example.com//a//b", "http://example.com//a//b"),
    # userinfo kept, normalized; empty userinfo dropped
    ("http://User:P%61ss@example.com/", "http://User:Pass@example.com/"),
    ("http://user:@example.com/", "http://user@example.com/"),
    ("http://@example.com/", "http://example.com/"),
    ("http://:@example.com/", "http://example.com/"),
]

WHATWG = [
    ("  http://example.com/  ", "http://example.com/"),
    ("\x00\x1f http://example.com/x\x0c", "http://example.com/x"),
    ("http://exa\tmple.com/pa\nth?q=\r1", "http://example.com/path?q=1"),
    ("http:\\\\example.com\\a\\b", "http://example.com/a/b"),
    ("http://example.com/a?x=\\y", "http://example.com/a?x=%5Cy"),
    ("http:example.com/a", "http://example.com/a"),
    ("http:/example.com/a", "http://example.com/a"),
    ("http:////example.com/a", "http://example.com/a"),
    ("http://%65xample.com/", "http://example.com/"),
    ("http://0x7f.1/", "http://127.0.0.1/"),
    ("http://2130706433/", "http://127.0.0.1/"),
    ("http://0177.0.0.1/", "http://127.0.0.1/"),
    ("http://127.0.0.1./", "http://127.0.0.1/"),
    ("http://a?b@c/", "http://a/?b@c/"),
]

HOSTS = [
    ("http://B\u00fccher.DE/", "http://xn--bcher-kva.de/"),
    ("http://XN--BCHER-KVA.de/", "http://xn--bcher-kva.de/"),
    ("https://fa\u00df.de/", "https://xn--fa-hia.de/"),  # UTS 46 non-transitional
    ("http://\u4f8b\u3002\u30c6\u30b9\u30c8/", "http://xn--fsq.xn--zckzah/"),
    ("http://i\u2764.ws/", "http://xn--i-7iq.ws/"),  # emoji: IDNA 2003 fallback
    ("http://example.com./", "http://example.com/"),
    ("http://www.example.com.:8080/", "http://www.example.com:8080/"),
    ("http://my_host.example.com/", "http://my_host.example.com/"),
    ("http://[2001:DB8:0:0:0:0:0:1]/", "http://[2001:db8::1]/"),
    ("http://[::1]:8080/x", "http://[::1]:8080/x"),
    ("http://[::FFFF:1.2.3.4]/", "http://[::ffff:102:304]/"),
]

FRAGMENTS = [
    ("http://example.com/page#section", "http://example.com/page"),
    ("http://example.com/page#", "http://example.com/page"),
    ("http://example.com/#!/inbox/2", "http://example.com/#!/inbox/2"),
    ("http://example.com/#!", "http://example.com/"),
    ("http://example.com/#!/a b?z=1&a=2", "http://example.com/#!/a%20b?z=1&a=2"),
    ("http://example.com/?b=1&a=2#x", "http://example.com/?a=2&b=1"),
]

QUERIES = [
    ("http://example.com/?b=2&a=1", "http://example.com/?a=1&b=2"),
    # blank values kept; a and a= stay distinct, in wire order
    ("http://example.com/?b=&a", "http://example.com/?a&b="),
    ("http://example.com/?a=&a", "http://example.com/?a=&a"),
    # repeated names keep their order (a list parameter's order can matter)
    ("http://example.com/?tag=z&id=1&tag=a", "http://example.com/?id=1&tag=z&tag=a"),
    # empty pieces dropped; '+' is not '%20'
    ("http://example.com/?&&a=1&&", "http://example.com/?a=1"),
    ("http://example.com/?q=a+b&r=a%20b", "http://example.com/?q=a+b&r=a%20b"),
    ("http://example.com/?%61=1", "http://example.com/?a=1"),
    ("http://example.com/?a=%e2%82%ac", "http://example.com/?a=%E2%82%AC"),
    ("http://example.com/?=x", "http://example.com/?=x"),
    ("http://example.com/?a=1;b=2", "http://example.com/?a=1;b=2"),
]

TRACKING = [
    (
        "http://example.com/p?utm_source=news&utm_medium=email&utm_campaign=x&id=7",
        "http://example.com/p?id=7",
    ),
    ("http://example.com/p?UTM_Source=x&id=7", "http://example.com/p?id=7"),
    ("http://example.com/p?utm%5Fsource=x", "http://example.com/p"),
    ("http://example.com/?fbclid=IwAR0&gclid=abc&dclid=1&msclkid=2", "http://example.com/"),
    ("http://example.com/?mc_eid=1&mc_cid=2&_ga=3&_gl=4&yclid=5&igshid=6", "http://example.com/"),
    ("http://example.com/?mtm_campaign=a&pk_campaign=b&hsa_acc=c&__utmz=d", "http://example.com/"),
]

SESSIONS = [
    ("http://example.com/a?jsessionid=0A1B2C&x=1", "http://example.com/a?x=1"),
    ("http://example.com/a?PHPSESSID=e3b0c44298fc1c149afbf4c8996fb924", "http://example.com/a"),
    ("http://example.com/a?sid=1&sessionid=2&session_id=3&sessid=4", "http://example.com/a"),
    ("http://example.com/a?CFID=1&CFTOKEN=2&ASPSESSIONID=3", "http://example.com/a"),
    ("http://example.com/a?ASPSESSIONIDQQGGQRTA=KBLBOMLDFGHEJ", "http://example.com/a"),
    ("http://example.com/a?osCsid=1&zenid=2", "http://example.com/a"),
    # as a path parameter, any length, any case, with other path parameters kept
    ("http://example.com/cart;jsessionid=0A1B2C3D?x=1", "http://example.com/cart?x=1"),
    ("http://example.com/cart;JSESSIONID=" + "f" * 200, "http://example.com/cart"),
    ("http://example.com/a;v=1;jsessionid=x;w=2/b", "http://example.com/a;v=1;w=2/b"),
    ("http://example.com/;jsessionid=x", "http://example.com/"),
    ("http://example.com/list?page=2;jsessionid=0A1B&b=1", "http://example.com/list?b=1&page=2"),
    ("http://example.com/?q=a;b;sid=1", "http://example.com/?q=a;b"),
    ("http://example.com/x/..;jsessionid=1/y", "http://example.com/y"),
    # ASP.NET cookieless sessions live in a path segment
    (
        "http://example.com/(S(lit3py55t21z5v55vlm25s55))/page.aspx",
        "http://example.com/page.aspx",
    ),
    ("http://example.com/shop/(X(1)S(abc))/cart", "http://example.com/shop/cart"),
]

LOOK_ALIKES = [
    # legitimate pages that share a prefix or a word with a stripped parameter
    "http://example.com/?sidebar=1",
    "http://example.com/?utm=1",
    "http://example.com/?utmost=1",
    "http://example.com/?side=left",
    "http://example.com/?sids=1",
    "http://example.com/?session=keynote",
    "http://example.com/?gclid_help=1",
    "http://example.com/?pk=7",
    "http://example.com/session/",
    "http://example.com/jsessionid/",
    "http://example.com/a;version=2",
    "http://example.com/(S)/",
    "http://example.com/wiki/Foo_(bar)",
    "http://example.com/?q=utm_source",
    "http://example.com/#!/utm_source=x",
]


def _table(rows: list[tuple[str, str]]) -> list[object]:
    return [pytest.param(given, expected, id=repr(given)[:60]) for given, expected in rows]


@pytest.mark.parametrize(
    ("given", "expected"),
    _table(RFC3986 + WHATWG + HOSTS + FRAGMENTS + QUERIES + TRACKING + SESSIONS),
)
def test_normalize_table(given: str, expected: str) -> None:
    assert normalize_key(given) == expected
    # the key is a fixed point, and normalize() agrees with normalize_key()
    assert normalize_key(expected) == expected
    result = normalize(given)
    assert result.key == expected
    assert result.original == given


@pytest.mark.parametrize("url", LOOK_ALIKES)
def test_look_alikes_are_left_alone(url: str) -> None:
    assert normalize_key(url) == url


def test_trap_spellings_collapse_to_one_key() -> None:
    spellings = [
        "http://www.example.com/shop/item?id=3",
        "HTTP://WWW.EXAMPLE.COM:80/shop/./item?id=3#reviews",
        "http://www.example.com/shop/x/../item?id=3&utm_source=feed",
        "http://www.example.com/shop/item;jsessionid=A1B2?id=3&PHPSESSID=77",
        "http://www.example.com./shop/item?id=3&",
        "  http://www.example.com/shop/%69tem?%69d=3\n",
    ]
    assert {normalize_key(u) for u in spellings} == {"http://www.example.com/shop/item?id=3"}


def test_normalized_url_carries_original_and_parts() -> None:
    result = normalize("HTTPS://Bücher.de:8443/a/../b?z=1&a=2&utm_medium=x#top")
    assert result == NormalizedURL(
        original="HTTPS://Bücher.de:8443/a/../b?z=1&a=2&utm_medium=x#top",
        key="https://xn--bcher-kva.de:8443/b?a=2&z=1",
        scheme="https",
        host="xn--bcher-kva.de",
        port=8443,
        path="/b",
        query="a=2&z=1",
    )
    assert result.origin == Origin("https", "xn--bcher-kva.de", 8443)
    assert str(result) == result.key
    v6 = normalize("http://[::1]/")
    assert (v6.host, v6.port, v6.key) == ("::1", 80, "http://[::1]/")
    assert str(v6.origin) == "http://[::1]"


INVALID = [
    ("", Reason.INVALID_URL),
    ("   ", Reason.INVALID_URL),
    ("example.com/page", Reason.INVALID_URL),
    ("//example.com/page", Reason.INVALID_URL),
    ("/relative/path", Reason.INVALID_URL),
    ("http://", Reason.INVALID_URL),
    ("http:///", Reason.INVALID_URL),
    ("http://?q", Reason.INVALID_URL),
    ("http://exa mple.com/", Reason.INVALID_URL),
    ("http://exa<mple.com/", Reason.INVALID_URL),
    ("http://example.com:65536/", Reason.INVALID_URL),
    ("http://example.com:0/", Reason.INVALID_URL),
    ("http://example.com:8o/", Reason.INVALID_URL),
    ("http://example.com:80:80/", Reason.INVALID_URL),
    ("http://[::1/", Reason.INVALID_URL),
    ("http://[::1]x/", Reason.INVALID_URL),
    ("http://[12345::]/", Reason.INVALID_URL),
    ("http://[fe80::1%25eth0]/", Reason.INVALID_URL),
    ("http://256.0.0.1/", Reason.INVALID_URL),
    ("http://1.2.3.4.5/", Reason.INVALID_URL),
    ("http://example.09/", Reason.INVALID_URL),
    ("http://xn--a.com/", Reason.INVALID_URL),
    ("http://%ff.com/", Reason.INVALID_URL),
    ("http://.../", Reason.INVALID_URL),
    ("http://exa\ud800mple.com/", Reason.INVALID_URL),
    # One parser: a control character other than tab, CR and LF is refused by every
    # entry point (a robot does not send it; check-url always refused it).
    ("http://example.com/a\x01b", Reason.INVALID_URL),
    ("ftp://example.com/file", Reason.UNSUPPORTED_SCHEME),
    ("mailto:bot@example.com", Reason.UNSUPPORTED_SCHEME),
    ("javascript:alert(1)", Reason.UNSUPPORTED_SCHEME),
    ("data:text/html,hi", Reason.UNSUPPORTED_SCHEME),
    ("localhost:8080/x", Reason.UNSUPPORTED_SCHEME),
]


@pytest.mark.parametrize(("url", "reason"), INVALID)
def test_garbage_is_invalid_with_a_reason(url: str, reason: Reason) -> None:
    with pytest.raises(InvalidURL) as caught:
        normalize(url)
    assert caught.value.reason is reason
    assert caught.value.url == url
    with pytest.raises(InvalidURL):
        normalize_key(url)


def test_non_string_is_invalid() -> None:
    with pytest.raises(InvalidURL) as caught:
        normalize(b"http://example.com/")  # type: ignore[arg-type]
    assert caught.value.reason is Reason.INVALID_URL


def test_documented_lists_hold_the_issue_names() -> None:
    assert {"fbclid", "gclid", "msclkid", "mc_eid", "_ga"} <= TRACKING_PARAMS
    assert {"jsessionid", "phpsessid", "sid", "sessionid", "aspsessionid"} <= SESSION_PARAMS


# ---- policy: global and per-site allow and deny lists --------------------------------

SID_URL = "http://www.forum.example/viewtopic?sid=42&t=7&utm_source=x"


def test_per_site_allow_list_keeps_sid_only_there() -> None:
    policy = NormalizePolicy(sites={"forum.example": SiteParams(keep={"SID"})})
    assert normalize_key(SID_URL, policy) == "http://www.forum.example/viewtopic?sid=42&t=7"
    assert normalize_key("http://forum.example/?sid=1", policy) == "http://forum.example/?sid=1"
    # another site, and a look-alike domain, still lose it
    assert normalize_key("http://other.example/?sid=1&t=7", policy) == "http://other.example/?t=7"
    assert normalize_key("http://notforum.example/?sid=1", policy) == "http://notforum.example/"
    # the default policy strips it everywhere
    assert normalize_key(SID_URL) == "http://www.forum.example/viewtopic?t=7"


def test_more_specific_site_wins() -> None:
    policy = NormalizePolicy(
        sites={
            "example.com": SiteParams(keep={"sid"}),
            "shop.example.com": SiteParams(drop={"sid", "ref"}),
        }
    )
    assert normalize_key("http://example.com/?sid=1", policy) == "http://example.com/?sid=1"
    assert normalize_key("http://a.shop.example.com/?sid=1&ref=2&x=3", policy) == (
        "http://a.shop.example.com/?x=3"
    )


def test_global_lists_and_prefix_globs() -> None:
    policy = NormalizePolicy(keep_params={"utm_content"}, drop_params={"ref", "trk_*"})
    key = normalize_key("http://e.com/?utm_content=a&utm_source=b&ref=c&trk_x=1&trk=2", policy)
    assert key == "http://e.com/?trk=2&utm_content=a"


def test_global_deny_applies_to_path_parameters_and_site_keep_overrides_it() -> None:
    policy = NormalizePolicy(
        drop_params={"ver"}, sites={"keep.example": SiteParams(keep={"jsessionid"})}
    )
    assert normalize_key("http://e.com/a;ver=2;x=1", policy) == "http://e.com/a;x=1"
    assert normalize_key("http://keep.example/a;jsessionid=9", policy) == (
        "http://keep.example/a;jsessionid=9"
    )


def test_site_keep_star_keeps_everything() -> None:
    policy = NormalizePolicy(sites={"raw.example": SiteParams(keep={"*"})})
    url = "http://raw.example/?sid=2&utm_source=1"
    assert normalize_key(url, policy) == url


def test_switches() -> None:
    url = "http://e.com/a;jsessionid=1?b=1&utm_source=x&a=2&sid=3#!/r"
    assert normalize_key(url, NormalizePolicy(strip_tracking=False)) == (
        "http://e.com/a?a=2&b=1&utm_source=x#!/r"
    )
    assert normalize_key(url, NormalizePolicy(strip_session_ids=False)) == (
        "http://e.com/a;jsessionid=1?a=2&b=1&sid=3#!/r"
    )
    assert normalize_key(url, NormalizePolicy(sort_query=False, keep_hashbang=False)) == (
        "http://e.com/a?b=1&a=2"
    )


def test_repeated_names_sorted_by_value_only_on_request() -> None:
    url = "http://e.com/?tag=z&id=1&tag=a&tag"
    assert normalize_key(url) == "http://e.com/?id=1&tag=z&tag=a&tag"
    by_value = NormalizePolicy(sort_repeated_by_value=True)
    assert normalize_key(url, by_value) == "http://e.com/?id=1&tag&tag=a&tag=z"


def test_site_keys_are_normalized_and_bad_ones_refused() -> None:
    policy = NormalizePolicy(sites={"*.B\u00fccher.DE.": SiteParams(keep={"sid"})})
    assert (
        normalize_key("http://www.bücher.de/?sid=1", policy) == "http://www.xn--bcher-kva.de/?sid=1"
    )
    with pytest.raises(ValueError, match="bad site"):
        NormalizePolicy(sites={"exa mple.com": SiteParams()})


# ---- helpers and the older URL functions ---------------------------------------------


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/a/b/c/./../../g", "/a/g"),
        ("/./a", "/a"),
        ("/..", "/"),
        ("/a/..", "/"),
        ("/a//../b", "/a/b"),
        ("/a/b/", "/a/b/"),
        ("/a/%2E/b", "/a/b"),
        ("/a/b/%2e%2E/c", "/a/c"),
        ("/a/.%2e", "/"),
        ("/a%2eb/c", "/a%2eb/c"),
    ],
)
def test_remove_dot_segments(path: str, expected: str) -> None:
    assert remove_dot_segments(path) == expected


def test_origin_helpers_still_work() -> None:
    assert origin_of("HTTP://Example.COM./x") == Origin("http", "example.com", 80)
    assert robots_url("https://example.com:8443/a?b") == "https://example.com:8443/robots.txt"
    assert path_and_query("http://example.com") == "/"
    assert path_and_query("http://example.com/a%7e?b=1&a") == "/a%7e?b=1&a"
    with pytest.raises(InvalidURL):
        origin_of("ftp://example.com/")


@pytest.mark.parametrize(
    "url",
    [
        "http://B\u00fccher.de/x",
        "https://[2001:DB8:0::1]:8443/",
        "http://0x7f.1/",
        "http://Example.COM.:8080/a?b",
    ],
)
def test_origin_of_agrees_with_normalize(url: str) -> None:
    assert origin_of(url) == normalize(url).origin
    assert robots_url(url) == f"{normalize(url).origin}/robots.txt"


# ---- properties ---------------------------------------------------------------------

_SEGMENT = st.text(
    alphabet=st.sampled_from(list("abcXYZ019-._~%2eE;=!$()*+,:@ \u00e9\u4f8b")), max_size=8
)
_HOST = st.one_of(
    st.sampled_from(
        ["example.com", "EXAMPLE.com.", "b\u00fccher.de", "127.0.0.1", "0x7f.1", "[::1]",
         "[2001:DB8::1]", "%65x.com", "xn--bcher-kva.de", "a_b.example"]
    ),
    st.from_regex(r"[a-zA-Z0-9-]{1,10}(\.[a-zA-Z]{1,5}){0,2}\.?", fullmatch=True),
)  # fmt: skip
_PARAM = st.tuples(
    st.sampled_from(["a", "B", "utm_source", "sid", "jsessionid", "%61", "q", "", "fbclid"]),
    st.sampled_from(["", "=", "=1", "=x%2fy", "=%7e", "=a b", "=\u00fc", "=a+b"]),
).map("".join)


@st.composite
def _urls(draw: st.DrawFn) -> str:
    scheme = draw(st.sampled_from(["http", "HTTPS", "hTTp"]))
    slashes = draw(st.sampled_from(["://", ":/", ":\\\\", ":///"]))
    userinfo = draw(st.sampled_from(["", "", "u:p@", "@", "U%41@"]))
    host = draw(_HOST)
    port = draw(st.sampled_from(["", "", ":80", ":443", ":8080", ":"]))
    path = "/" + "/".join(draw(st.lists(_SEGMENT, max_size=5)))
    query = draw(st.one_of(st.none(), st.lists(_PARAM, max_size=5).map("&".join)))
    fragment = draw(st.one_of(st.none(), st.sampled_from(["", "top", "!/r/1", "!", "!a b"])))
    url = f"{scheme}{slashes}{userinfo}{host}{port}{path}"
    if query is not None:
        url += "?" + query
    if fragment is not None:
        url += "#" + fragment
    return url


@settings(max_examples=400, deadline=None)
@given(_urls())
def test_normalizing_twice_gives_the_same_key(url: str) -> None:
    try:
        key = normalize_key(url)
    except InvalidURL:
        return
    assert normalize_key(key) == key
    assert key.isascii()


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_arbitrary_text_raises_only_invalid_url(text: str) -> None:
    for candidate in (text, "http://" + text, "https://example.com/" + text, "http:" + text):
        try:
            key = normalize_key(candidate)
        except InvalidURL as exc:
            assert exc.reason in (Reason.INVALID_URL, Reason.UNSUPPORTED_SCHEME)
        else:
            assert normalize_key(key) == key


# -- the one parser: resolution and the host identity ------------------------------

RFC3986_BASE = "http://a/b/c/d;p?q"
#: RFC 3986 sections 5.4.1 and 5.4.2, fragments dropped (a robot never fetches one)
#: and ``http:g`` read as the WHATWG parser (and RFC 3986's backward-compatible
#: parsers) read it, relative to an ``http`` base.
RFC3986_EXAMPLES = [
    ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"),
    ("/g", "http://a/g"), ("//g", "http://g/"), ("?y", "http://a/b/c/d;p?y"),
    ("g?y", "http://a/b/c/g?y"), ("#s", "http://a/b/c/d;p?q"), ("g#s", "http://a/b/c/g"),
    ("g?y#s", "http://a/b/c/g?y"), (";x", "http://a/b/c/;x"), ("g;x", "http://a/b/c/g;x"),
    ("g;x?y#s", "http://a/b/c/g;x?y"), ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"),
    ("./", "http://a/b/c/"), ("..", "http://a/b/"), ("../", "http://a/b/"),
    ("../g", "http://a/b/g"), ("../..", "http://a/"), ("../../", "http://a/"),
    ("../../g", "http://a/g"), ("../../../g", "http://a/g"), ("../../../../g", "http://a/g"),
    ("/./g", "http://a/g"), ("/../g", "http://a/g"), ("g.", "http://a/b/c/g."),
    (".g", "http://a/b/c/.g"), ("g..", "http://a/b/c/g.."), ("..g", "http://a/b/c/..g"),
    ("./../g", "http://a/b/g"), ("./g/.", "http://a/b/c/g/"), ("g/./h", "http://a/b/c/g/h"),
    ("g/../h", "http://a/b/c/h"), ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
    ("g;x=1/../y", "http://a/b/c/y"), ("g?y/./x", "http://a/b/c/g?y/./x"),
    ("g#s/../x", "http://a/b/c/g"), ("http:g", "http://a/b/c/g"), ("g:h", None),
    ("https:g", "https://g/"), ("\\g\\h", "http://a/g/h"), ("//[::1", None),
]  # fmt: skip


@pytest.mark.parametrize(("reference", "expected"), RFC3986_EXAMPLES)
def test_resolve_follows_rfc3986_section_5_4(reference: str, expected: str | None) -> None:
    assert resolve(RFC3986_BASE, reference) == expected


@pytest.mark.parametrize(
    ("reference", "expected"),
    [
        # One page, written with escaped unreserved characters and escaped dot
        # segments (an old server decodes both): requested under its one spelling.
        ("/~tensor/pubs/pa%70er2.html", "http://h/~tensor/pubs/paper2.html"),
        ("/%7etensor/", "http://h/~tensor/"),
        ("/courses/%2E/cs310/", "http://h/courses/cs310/"),
        ("notes/%2e%2E/notes/week%201.html", "http://h/c/notes/week%201.html"),
        # Escapes of other characters name other paths: kept.
        ("a%2Fb/%3F", "http://h/c/a%2Fb/%3F"),
        ("?q=%7E", "http://h/c/p.html?q=%7E"),
    ],
)
def test_a_links_escapes_of_unreserved_characters_and_dots_are_resolved(
    reference: str, expected: str
) -> None:
    base = "http://h/c/p.html"
    assert resolve(base, reference) == expected
    assert LinkResolver(base).resolve(reference) == expected


def test_a_parsed_url_is_what_a_browser_sends() -> None:
    parsed = parse_url("HTTP://User@EXAMPLE.com:80/a/./b/../c d?x=<1>#frag")
    assert parsed.origin == Origin("http", "example.com", 80)
    assert parsed.target == "/a/c%20d?x=%3C1%3E"
    assert parsed.href == "http://User@example.com/a/c%20d?x=%3C1%3E"
    assert parse_url(parsed.href) == parse_url(parsed.href)._replace(original=parsed.href)
    with pytest.raises(InvalidURL):
        parse_url("http:///")


def test_origin_keys_for_pacing_and_scope() -> None:
    http, https = Origin("http", "x.test", 80), Origin("https", "x.test", 443)
    assert http.pacing_key == ("x.test", 80) and https.pacing_key == ("x.test", 443)
    assert http.scope_key == https.scope_key == ("x.test", None)
    assert Origin("http", "x.test", 8080).scope_key == ("x.test", 8080)
    assert Origin("https", "x.test", 80).pacing_key == http.pacing_key


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("redis://:pw@host:6379/0", "redis://:***@host:6379/0"),
        ("rediss://user:p%40ss:w@host/1", "rediss://user:***@host/1"),
        ("redis://token@host", "redis://***@host"),  # a lone userinfo may be the secret
        ("unix://:pw@/tmp/redis.sock?db=0", "unix://:***@/tmp/redis.sock?db=0"),
        ("redis://host/0?db=1&password=pw&x=y", "redis://host/0?db=1&password=***&x=y"),
        ("redis://host:6379/0", "redis://host:6379/0"),
        ("http://host/users/@me?a=b", "http://host/users/@me?a=b"),  # "@" of a path
        ("not a url", "not a url"),
        ("", ""),
    ],
)
def test_row2_masked_url_hides_credentials_only(url: str, shown: str) -> None:
    assert masked(url) == shown
