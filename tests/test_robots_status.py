"""The pure core: status table, freshness arithmetic and the sans-I/O engine fed
with response facts (no sockets; the fetch tests drive the same paths over HTTP)."""

from __future__ import annotations

from email.utils import formatdate

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from robotkit.base.reasons import Decision, Reason
from robotkit.robots.engine import FetchNeeded, RobotsEngine, RobotsResponse
from robotkit.robots.freshness import (
    BACKOFF_CAP,
    MAX_TTL,
    Headers,
    backoff,
    defer_for,
    lifetime,
    retry_after,
)
from robotkit.robots.status import FetchFailure, Profile, RobotsOutcome, classify
from robotkit.robots.verdict import Verdict

NOW = 1_700_000_000.0
TOKEN = "ExampleBot"


def http_date(when: float) -> str:
    return formatdate(when, usegmt=True)


@pytest.mark.parametrize(
    ("status", "classic", "rfc9309"),
    [
        (200, RobotsOutcome.RULES, RobotsOutcome.RULES),
        (204, RobotsOutcome.RULES, RobotsOutcome.RULES),
        (300, RobotsOutcome.ALLOW_ALL, RobotsOutcome.ALLOW_ALL),
        (400, RobotsOutcome.ALLOW_ALL, RobotsOutcome.ALLOW_ALL),
        (401, RobotsOutcome.DENY_ALL, RobotsOutcome.ALLOW_ALL),
        (403, RobotsOutcome.DENY_ALL, RobotsOutcome.ALLOW_ALL),
        (404, RobotsOutcome.ALLOW_ALL, RobotsOutcome.ALLOW_ALL),
        (410, RobotsOutcome.ALLOW_ALL, RobotsOutcome.ALLOW_ALL),
        (418, RobotsOutcome.ALLOW_ALL, RobotsOutcome.ALLOW_ALL),
        (429, RobotsOutcome.DEFERRED, RobotsOutcome.DEFERRED),
        (500, RobotsOutcome.DEFERRED, RobotsOutcome.DEFERRED),
        (503, RobotsOutcome.DEFERRED, RobotsOutcome.DEFERRED),
        (599, RobotsOutcome.DEFERRED, RobotsOutcome.DEFERRED),
    ],
)
def test_status_table(status: int, classic: RobotsOutcome, rfc9309: RobotsOutcome) -> None:
    assert classify(status, Profile.CLASSIC) is classic
    assert classify(status, Profile.RFC9309) is rfc9309


# -- freshness -----------------------------------------------------------------


def test_max_age_less_age() -> None:
    assert lifetime(Headers({"Cache-Control": "public, max-age=3600", "Age": "600"}), NOW) == 3000


def test_max_age_wins_over_expires() -> None:
    headers = Headers(
        {"Cache-Control": "max-age=300", "Expires": http_date(NOW + 9000), "Date": http_date(NOW)}
    )
    assert lifetime(headers, NOW) == 300


def test_expires_minus_date() -> None:
    headers = Headers({"Expires": http_date(NOW + 7200), "Date": http_date(NOW - 100)})
    assert lifetime(headers, NOW) == 7300


def test_expires_without_date_counts_from_receipt() -> None:
    assert lifetime(Headers({"Expires": http_date(NOW + 500)}), NOW) == 500


def test_invalid_expires_means_stale_so_floor() -> None:
    assert lifetime(Headers({"Expires": "0"}), NOW, floor=60) == 60


def test_default_is_24h() -> None:
    assert lifetime(Headers(), NOW) == 86_400


@pytest.mark.parametrize("value", ["no-cache", "no-store", "private, no-store, max-age=9999"])
def test_no_cache_and_no_store_mean_floor(value: str) -> None:
    assert lifetime(Headers({"Cache-Control": value}), NOW, floor=90) == 90


def test_clamped_to_floor_and_ceiling() -> None:
    assert lifetime(Headers({"Cache-Control": "max-age=5"}), NOW, floor=60) == 60
    assert lifetime(Headers({"Cache-Control": "max-age=5"}), NOW, floor=0) == 5
    assert lifetime(Headers({"Cache-Control": "max-age=999999"}), NOW) == MAX_TTL
    assert lifetime(Headers({"Cache-Control": "max-age=10", "Age": "50"}), NOW, floor=30) == 30


def test_headers_are_case_insensitive_and_join_repeats() -> None:
    headers = Headers([("cache-control", "public"), ("CACHE-CONTROL", "max-age=120")])
    assert headers.get("Cache-Control") == "public, max-age=120"
    assert lifetime(headers, NOW) == 120


def test_retry_after_seconds_and_date() -> None:
    assert retry_after(Headers({"Retry-After": "120"}), NOW) == 120
    assert retry_after(Headers({"Retry-After": http_date(NOW + 3600)}), NOW) == 3600
    assert retry_after(Headers({"Retry-After": http_date(NOW - 3600)}), NOW) == 0
    assert retry_after(Headers({"Retry-After": "soon"}), NOW) is None
    assert retry_after(Headers(), NOW) is None


def test_backoff_doubles_from_a_minute_and_is_capped() -> None:
    assert [backoff(n) for n in (1, 2, 3, 4)] == [60, 120, 240, 480]
    assert backoff(100) == BACKOFF_CAP == 86_400


def test_deferral_is_clamped_between_floor_and_cap() -> None:
    assert defer_for(Headers({"Retry-After": "5"}), 1, NOW, floor=60) == 60
    assert defer_for(Headers({"Retry-After": "999999"}), 1, NOW, floor=60) == BACKOFF_CAP
    assert defer_for(None, 3, NOW, floor=60) == 240


# -- the engine, fed with facts ------------------------------------------------


def fetch(engine: RobotsEngine, url: str, now: float = NOW) -> FetchNeeded:
    event = engine.check(url, TOKEN, now)
    assert isinstance(event, FetchNeeded)
    return event


def verdict(engine: RobotsEngine, url: str, now: float = NOW) -> Verdict:
    event = engine.check(url, TOKEN, now)
    assert isinstance(event, Verdict)
    return event


def answer(engine: RobotsEngine, event: FetchNeeded, response: RobotsResponse, now: float = NOW):  # type: ignore[no-untyped-def]
    return engine.receive(event, response, now)


def test_engine_asks_for_robots_txt_then_answers_from_cache() -> None:
    engine = RobotsEngine()
    event = fetch(engine, "http://Example.COM:80/private/x?q=1")
    assert event.url == "http://example.com/robots.txt"
    assert event.headers == {}
    body = b"User-agent: *\nDisallow: /private\n"
    answer(engine, event, RobotsResponse.http(200, {}, body))
    denied = verdict(engine, "http://example.com/private/x?q=1")
    assert denied.decision is Decision.DISALLOW
    assert denied.reason is Reason.ROBOTS_DISALLOW
    assert denied.rule is not None and denied.rule.line == 2
    assert denied.outcome is RobotsOutcome.RULES and denied.robots_status == 200
    assert verdict(engine, "http://example.com/public").allowed


@pytest.mark.parametrize(
    ("url", "reason"),
    [("ftp://example.com/x", Reason.UNSUPPORTED_SCHEME), ("http://", Reason.INVALID_URL)],
)
def test_invalid_urls_are_disallowed_without_fetch(url: str, reason: Reason) -> None:
    result = verdict(RobotsEngine(), url)
    assert result.decision is Decision.DISALLOW and result.reason is reason
    assert result.to_json(NOW)["robots_url"] is None


def test_deny_all_still_allows_robots_txt_itself() -> None:
    engine = RobotsEngine()
    answer(engine, fetch(engine, "http://a.test/"), RobotsResponse.http(403))
    assert verdict(engine, "http://a.test/page").reason is Reason.ROBOTS_DENY_ALL
    assert verdict(engine, "http://a.test/robots.txt").allowed


def test_redirect_hops_are_requested_one_by_one_and_recorded() -> None:
    engine = RobotsEngine()
    event = fetch(engine, "http://a.test/x")
    nxt = answer(engine, event, RobotsResponse.http(301, {"Location": "https://b.test/r"}))
    assert isinstance(nxt, FetchNeeded) and nxt.url == "https://b.test/r"
    assert nxt.origin == event.origin
    answer(engine, nxt, RobotsResponse.http(200, {}, b"User-agent: *\nDisallow: /x\n"))
    result = verdict(engine, "http://a.test/x")
    assert result.reason is Reason.ROBOTS_DISALLOW
    assert [(hop.url, hop.status) for hop in result.redirects] == [
        ("http://a.test/robots.txt", 301)
    ]
    assert result.robots_url == "http://a.test/robots.txt"


def test_redirect_to_unusable_url_counts_as_404() -> None:
    engine = RobotsEngine()
    event = fetch(engine, "http://a.test/x")
    state = answer(engine, event, RobotsResponse.http(302, {"Location": "ftp://b.test/r"}))
    assert not isinstance(state, FetchNeeded)
    assert state.outcome is RobotsOutcome.ALLOW_ALL and "unusable" in state.detail


def test_refused_redirect_hop_counts_as_404_and_is_cached() -> None:
    """A hop the shell will not send (its address policy) is a redirect that
    cannot be followed: allow all, as for a loop, cached for the origin's next
    pages. Only a hop can be refused: the first request is the page's origin."""
    engine = RobotsEngine()
    event = fetch(engine, "http://a.test/x")
    with pytest.raises(ValueError):
        engine.refuse(event, "no", NOW)
    hop = answer(engine, event, RobotsResponse.http(302, {"Location": "http://10.0.0.1/r"}))
    assert isinstance(hop, FetchNeeded)
    state = engine.refuse(hop, "redirect from a public address to 10.0.0.1", NOW)
    assert state.outcome is RobotsOutcome.ALLOW_ALL and state.status == 302
    assert "http://10.0.0.1/r" in state.detail and "10.0.0.1" in state.detail
    result = engine.check("http://a.test/y", TOKEN, NOW + 1)
    assert isinstance(result, Verdict) and result.reason is Reason.ALLOWED
    assert result.outcome is RobotsOutcome.ALLOW_ALL and result.detail == state.detail


def test_failure_defers_with_backoff_and_streak() -> None:
    engine = RobotsEngine(min_ttl=0)
    event = fetch(engine, "http://a.test/x")
    answer(engine, event, RobotsResponse.failed(FetchFailure.NETWORK_ERROR, "refused"))
    first = verdict(engine, "http://a.test/x")
    assert first.decision is Decision.DEFER and first.robots_status is None
    assert first.retry_after(NOW) == 60
    later = NOW + 61
    answer(engine, fetch(engine, "http://a.test/x", later), RobotsResponse.http(503), later)
    second = verdict(engine, "http://a.test/x", later)
    assert second.retry_after(later) == 120 and second.robots_status == 503


def test_304_without_a_conditional_request_is_not_a_renewal() -> None:
    engine = RobotsEngine()
    state = answer(engine, fetch(engine, "http://a.test/"), RobotsResponse.http(304))
    assert not isinstance(state, FetchNeeded)
    assert state.outcome is RobotsOutcome.ALLOW_ALL


def test_json_record_explains_the_rule() -> None:
    engine = RobotsEngine()
    answer(
        engine,
        fetch(engine, "http://a.test/"),
        RobotsResponse.http(200, {}, b"User-agent: *\nCrawl-delay: 5\nDisallow: /no\n"),
    )
    record = verdict(engine, "http://a.test/no").to_json(NOW)
    assert record["rule"] == {"line": 3, "text": "Disallow: /no"}
    assert record["crawl_delay"] == 5
    assert record["allowed"] is False and record["decision"] == "disallow"


def test_ambiguous_date_falls_back_to_receipt_time_and_bad_expires_is_stale() -> None:
    two_dates = Headers(
        [
            ("Date", http_date(NOW - 999)),
            ("Date", http_date(NOW)),
            ("Expires", http_date(NOW + 600)),
        ]
    )
    assert lifetime(two_dates, NOW) == 600
    two_expires = Headers([("Expires", http_date(NOW + 600)), ("Expires", http_date(NOW + 900))])
    assert lifetime(two_expires, NOW, floor=60) == 60


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["Cache-Control", "Age", "Expires", "Date", "Retry-After", "ETag"]),
        st.one_of(
            st.text(max_size=40),
            st.sampled_from(
                ["Mon, 01 Jan 99999 00:00:00 GMT", "max-age=" + "9" * 400, "9" * 400, "-1", "1.5"]
            ),
        ),
    ),
    st.integers(min_value=0, max_value=10),
)
@example({"Retry-After": "9" * 400, "Age": "9" * 400, "Cache-Control": "max-age=5"}, 1)
def test_hostile_headers_never_raise(fields: dict[str, str], failures: int) -> None:
    headers = Headers(fields)
    seconds = lifetime(headers, NOW, floor=60)
    assert 60 <= seconds <= MAX_TTL
    wait = defer_for(headers, failures, NOW, floor=60)
    assert 60 <= wait <= BACKOFF_CAP
