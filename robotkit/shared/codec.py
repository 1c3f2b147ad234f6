"""An origin's robots.txt state as JSON, and back: what the shared cache stores.

A :class:`~robotkit.robots.cache.OriginState` holds parsed rules, which do not
travel; the rules' decoded text does (:attr:`robotkit.robots.rules.RobotsRules.text`,
kept by an engine with ``keep_text``), and :meth:`RobotsRules.from_text` rebuilds
the same rules from it, line numbers included, so a verdict explains itself the same
in every worker. Everything else (status, outcome, freshness, redirects,
validators, the unreachable streak and its last good copy) is plain data.
"""

from __future__ import annotations

import json
from typing import Any

from robotkit.base.errors import DataError
from robotkit.robots.cache import OriginState
from robotkit.robots.freshness import Validators
from robotkit.robots.rules import RobotsRules
from robotkit.robots.status import Hop, RobotsOutcome
from robotkit.url.parse import Origin

__all__ = ["FORMAT", "StateFormatError", "decode_state", "encode_state"]

FORMAT = 1
"""Version of the encoding; a state of another version is refused, not guessed."""


class StateFormatError(DataError):
    """A stored state that is not one this robotkit wrote."""


def encode_state(state: OriginState) -> str:
    """``state`` as JSON text. Raises ``ValueError`` when its rules have no text
    (they were parsed without ``keep_text``): such a state cannot be shared."""
    return json.dumps({"format": FORMAT, **_fields(state)}, separators=(",", ":"))


def decode_state(text: str | bytes) -> OriginState:
    """The state :func:`encode_state` wrote; :class:`StateFormatError` otherwise."""
    try:
        data = json.loads(text)
        if data.get("format") != FORMAT:
            raise StateFormatError(f"shared robots.txt state of format {data.get('format')!r}")
        return _state(data)
    except StateFormatError:
        raise
    except (ValueError, TypeError, KeyError, AttributeError) as error:
        raise StateFormatError(f"unreadable shared robots.txt state: {error}") from None


def _fields(state: OriginState) -> dict[str, Any]:
    rules = state.rules
    if rules is not None and rules.text is None:
        raise ValueError("rules without their text cannot be shared (parse with keep_text)")
    origin = state.origin
    validators = state.validators
    return {
        "robots_url": state.robots_url,
        "outcome": state.outcome.value,
        "status": state.status,
        "fetched_at": state.fetched_at,
        "expires_at": state.expires_at,
        "origin": None if origin is None else [origin.scheme, origin.host, origin.port],
        "rules": None if rules is None else [rules.text, rules.truncated],
        "final_url": state.final_url,
        "redirects": [[hop.url, hop.status, hop.location] for hop in state.redirects],
        "validators": None if validators is None else [validators.etag, validators.last_modified],
        "failures": state.failures,
        "unreachable_since": state.unreachable_since,
        "last_good": None if state.last_good is None else _fields(state.last_good),
        "detail": state.detail,
    }


def _state(data: dict[str, Any]) -> OriginState:
    origin, rules, validators = data["origin"], data["rules"], data["validators"]
    last_good = data["last_good"]
    return OriginState(
        robots_url=str(data["robots_url"]),
        outcome=RobotsOutcome(data["outcome"]),
        status=None if data["status"] is None else int(data["status"]),
        fetched_at=float(data["fetched_at"]),
        expires_at=float(data["expires_at"]),
        origin=None if origin is None else Origin(str(origin[0]), str(origin[1]), int(origin[2])),
        rules=None
        if rules is None
        else RobotsRules.from_text(str(rules[0]), bool(rules[1]), keep_text=True),
        final_url=data["final_url"],
        redirects=tuple(Hop(str(u), int(s), str(loc)) for u, s, loc in data["redirects"]),
        validators=None if validators is None else Validators(*validators),
        failures=int(data["failures"]),
        unreachable_since=data["unreachable_since"],
        last_good=None if last_good is None else _state(last_good),
        detail=str(data["detail"]),
    )
