"""The origin cache: keys, bounds, and what survives expiry (engine fed with facts)."""

from __future__ import annotations

from robotkit.base.reasons import Reason
from robotkit.robots.cache import RETAIN
from robotkit.robots.engine import FetchNeeded, RobotsEngine, RobotsResponse
from robotkit.robots.status import FetchFailure, Profile, RobotsOutcome
from robotkit.robots.verdict import Verdict
from robotkit.url.parse import origin_of

NOW = 1_700_000_000.0
TOKEN = "ExampleBot"
RULES = b"User-agent: *\nDisallow: /private\n"
DAY = 86_400.0


def load(
    engine: RobotsEngine,
    url: str,
    response: RobotsResponse,
    now: float = NOW,
) -> FetchNeeded:
    event = engine.check(url, TOKEN, now)
    assert isinstance(event, FetchNeeded)
    result = engine.receive(event, response, now)
    assert not isinstance(result, FetchNeeded)
    return event


def check(engine: RobotsEngine, url: str, now: float) -> Verdict:
    result = engine.check(url, TOKEN, now)
    assert isinstance(result, Verdict), result
    return result


def test_key_is_scheme_host_port() -> None:
    engine = RobotsEngine()
    load(engine, "http://Example.com/a", RobotsResponse.http(200, {}, RULES))
    assert isinstance(engine.check("http://example.COM:80/b", TOKEN, NOW), Verdict)
    for other in ("https://example.com/b", "http://example.com:8080/b", "http://www.example.com/"):
        event = engine.check(other, TOKEN, NOW)
        assert isinstance(event, FetchNeeded), other
        assert event.origin == origin_of(other)


def test_cache_is_bounded_least_recently_used_goes() -> None:
    engine = RobotsEngine(cache_size=2)
    for host in ("a", "b"):
        load(engine, f"http://{host}.test/", RobotsResponse.http(200, {}, RULES))
    engine.check("http://a.test/x", TOKEN, NOW)  # a is now the most recent
    load(engine, "http://c.test/", RobotsResponse.http(200, {}, RULES))
    assert len(engine.cache) == 2
    assert engine.state(origin_of("http://b.test/"), NOW) is None
    assert engine.state(origin_of("http://a.test/"), NOW) is not None


def test_expired_entry_without_validator_is_dropped_in_classic() -> None:
    engine = RobotsEngine()
    load(
        engine, "http://a.test/", RobotsResponse.http(200, {"Cache-Control": "max-age=600"}, RULES)
    )
    assert engine.state(origin_of("http://a.test/"), NOW + 599) is not None
    assert engine.state(origin_of("http://a.test/"), NOW + 601) is None
    event = engine.check("http://a.test/", TOKEN, NOW + 601)
    assert isinstance(event, FetchNeeded) and event.headers == {}


def test_expired_entry_with_validators_is_kept_for_a_conditional_get() -> None:
    engine = RobotsEngine()
    headers = {"Cache-Control": "max-age=600", "ETag": 'W/"1"', "Last-Modified": "x"}
    load(engine, "http://a.test/", RobotsResponse.http(200, headers, RULES))
    later = NOW + 20 * DAY
    event = engine.check("http://a.test/private", TOKEN, later)
    assert isinstance(event, FetchNeeded)
    assert event.headers == {"If-None-Match": 'W/"1"', "If-Modified-Since": "x"}
    renewed = engine.receive(
        event, RobotsResponse.http(304, {"ETag": 'W/"2"', "Cache-Control": "max-age=60"}), later
    )
    assert not isinstance(renewed, FetchNeeded)
    assert renewed.validators is not None and renewed.validators.etag == 'W/"2"'
    assert renewed.expires_at == later + 60
    result = engine.check("http://a.test/private", TOKEN, later + 1)
    assert isinstance(result, Verdict) and not result.allowed
    # an entry is retired once even revalidation is no longer worth it
    assert engine.state(origin_of("http://a.test/"), later + 60 + RETAIN + 1) is None


def test_conditional_headers_go_to_the_url_that_gave_the_copy() -> None:
    engine = RobotsEngine()
    event = engine.check("http://a.test/", TOKEN, NOW)
    assert isinstance(event, FetchNeeded)
    hop = engine.receive(event, RobotsResponse.http(301, {"Location": "http://b.test/r"}), NOW)
    assert isinstance(hop, FetchNeeded)
    engine.receive(hop, RobotsResponse.http(200, {"ETag": '"e"'}, RULES), NOW)
    later = NOW + 2 * DAY
    first = engine.check("http://a.test/", TOKEN, later)
    assert isinstance(first, FetchNeeded) and first.headers == {}
    second = engine.receive(first, RobotsResponse.http(301, {"Location": "http://b.test/r"}), later)
    assert isinstance(second, FetchNeeded) and second.headers == {"If-None-Match": '"e"'}


def test_rfc9309_keeps_a_good_copy_through_30_days() -> None:
    engine = RobotsEngine(profile=Profile.RFC9309)
    load(engine, "http://a.test/", RobotsResponse.http(200, {"Cache-Control": "max-age=60"}, RULES))
    later = NOW + 31 * DAY
    state = engine.state(origin_of("http://a.test/"), later)
    assert state is not None and state.outcome is RobotsOutcome.RULES
    load(engine, "http://a.test/", RobotsResponse.failed(FetchFailure.TIMEOUT), later)
    deferred = engine.state(origin_of("http://a.test/"), later)
    assert deferred is not None and deferred.outcome is RobotsOutcome.DEFERRED
    assert deferred.last_good is state


def test_unreachable_streak_is_remembered_across_expiry() -> None:
    engine = RobotsEngine(min_ttl=0)
    t = NOW
    for expected in (60, 120, 240, 480):
        load(engine, "http://a.test/", RobotsResponse.failed(FetchFailure.NETWORK_ERROR), t)
        state = engine.state(origin_of("http://a.test/"), t)
        assert state is not None and state.expires_at - t == expected
        assert state.unreachable_since == NOW
        t = state.expires_at
    load(engine, "http://a.test/", RobotsResponse.http(200, {}, RULES), t)
    state = engine.state(origin_of("http://a.test/"), t)
    assert state is not None and state.failures == 0 and state.unreachable_since is None


# --- the front: scheme://authority -> fresh state, one dict probe --------------------


def test_a_replaced_state_is_never_served_from_the_front() -> None:
    engine = RobotsEngine(min_ttl=60)
    headers = {"Cache-Control": "max-age=60"}
    event = engine.check("http://a.test/", TOKEN, NOW)
    assert isinstance(event, FetchNeeded)
    engine.receive(event, RobotsResponse.http(200, headers, RULES), NOW)
    assert not check(engine, "http://a.test/private", NOW).allowed  # now in the front
    assert engine.cache.front
    # A second answer to the same request replaces a state that is still fresh.
    relaxed = b"User-agent: *\nDisallow: /other\n"
    engine.receive(event, RobotsResponse.http(200, headers, relaxed), NOW + 1)
    assert check(engine, "http://a.test/private", NOW + 1).allowed
    # Expired: the front does not serve it either, the engine asks again.
    assert isinstance(engine.check("http://a.test/private", TOKEN, NOW + 61), FetchNeeded)
    # Dropping an entry, or everything, empties the front with it.
    load(engine, "http://a.test/", RobotsResponse.http(200, headers, RULES), NOW + 62)
    assert not check(engine, "http://a.test/private", NOW + 62).allowed
    engine.cache.pop(origin_of("http://a.test/"))
    assert not engine.cache.front
    assert isinstance(engine.check("http://a.test/private", TOKEN, NOW + 62), FetchNeeded)
    load(engine, "http://a.test/", RobotsResponse.http(200, headers, RULES), NOW + 62)
    check(engine, "http://a.test/x", NOW + 62)
    engine.cache.clear()
    assert not engine.cache.front
    assert isinstance(engine.check("http://a.test/x", TOKEN, NOW + 62), FetchNeeded)


def test_every_spelling_of_an_origin_gets_the_same_verdict() -> None:
    engine = RobotsEngine()
    load(engine, "http://a.test/", RobotsResponse.http(200, {}, RULES))
    for _ in range(2):  # the first round fills the front, the second reads it
        for url in (
            "http://a.test/private/x",
            "HTTP://A.TEST:80/private/x",
            "http://user@a.test/private/x",
            " http://a.test/private/x ",
            " http://a.test/private/x",
            "  http://a.test/private/x",
            "http://a.test/private/x#frag",
        ):
            got = check(engine, url, NOW)
            assert got.url == url
            assert not got.allowed and got.rule is not None and got.rule.line == 2, url
        assert check(engine, "http://a.test?q=/private", NOW).allowed  # a query, no path
        assert check(engine, "http://a.test", NOW).allowed
    assert len(engine.cache) == 1


def test_a_known_origin_does_not_make_a_bad_url_good() -> None:
    engine = RobotsEngine()
    load(engine, "http://a.test/", RobotsResponse.http(200, {}, RULES))
    assert check(engine, "http://a.test/public", NOW).allowed
    for url in ("http://a.test/pub\x00lic", "http://a.test/\x7f", "http://a.test/\x1b[2J"):
        got = check(engine, url, NOW)
        assert not got.allowed and got.reason is Reason.INVALID_URL, url
        assert got.detail == "control character in URL"
    assert check(engine, "http://a.test:99999/x", NOW).reason is Reason.INVALID_URL


def test_the_engine_reads_a_url_as_the_parser_does() -> None:
    """One parser: a newline inside is removed and extra slashes start the
    authority (WHATWG), so the hot path and the slow path judge the parsed URL."""
    engine = RobotsEngine()
    load(engine, "http://a.test/", RobotsResponse.http(200, {}, RULES))
    for _ in range(2):  # the second round takes the cache's front
        assert check(engine, "http://a.test/pub\nlic", NOW).allowed
        got = check(engine, "http:///a.test/private", NOW)
        assert got.reason is Reason.ROBOTS_DISALLOW and got.robots_url == "http://a.test/robots.txt"
        assert check(engine, "http:\\\\a.test\\private", NOW).reason is Reason.ROBOTS_DISALLOW
        assert (
            check(engine, "http://a.test/public/../private", NOW).reason is Reason.ROBOTS_DISALLOW
        )


def test_a_one_letter_host_is_cut_where_its_authority_ends() -> None:
    engine = RobotsEngine()
    for url in ("http://b/", "https://b/"):
        load(engine, url, RobotsResponse.http(200, {}, RULES))
        for _ in range(2):
            assert not check(engine, url + "private/x", NOW).allowed
            assert check(engine, url + "public/private", NOW).allowed


def test_the_front_is_bounded_like_the_cache() -> None:
    engine = RobotsEngine(cache_size=3)
    load(engine, "http://a.test/", RobotsResponse.http(200, {}, RULES))
    for i in range(10):
        assert check(engine, f"http://u{i}@a.test/private", NOW).rule is not None
        assert len(engine.cache.front) <= 3
