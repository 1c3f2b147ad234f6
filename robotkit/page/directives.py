"""Robot directives of a page: the ``robots`` meta tag and the ``X-Robots-Tag``
header, read into one :class:`RobotsDirectives` per robot.

Pure: text in, facts out. The rules are not in an RFC; they follow the de-facto
specification the big search engines publish (the "robots meta tag" and the
``X-Robots-Tag`` header) and what crawlers such as Nutch and Heritrix do:

* directives are case-insensitive and comma-separated; unknown ones are kept but
  have no effect;
* ``<meta name="robots">`` and an unprefixed ``X-Robots-Tag`` speak to every robot,
  ``<meta name="examplebot">`` and ``X-Robots-Tag: examplebot: nofollow`` only to the
  robot with that product token;
* when several apply, the most restrictive wins (``noindex`` beats ``all``, the
  smallest ``max-snippet`` wins, the earliest ``unavailable_after`` wins);
* a colon after a directive name (``max-snippet:20``, ``unavailable_after: <date>``)
  is a value, never a robot name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from types import MappingProxyType
from typing import Any

from robotkit.base.headervalues import parse_http_date

_IMAGE_PREVIEW_ORDER = {"none": 0, "standard": 1, "large": 2}

# Directive names that take a value after a colon: their colon is not a robot name.
_VALUED = frozenset({"max-snippet", "max-image-preview", "max-video-preview", "unavailable_after"})
_FLAGS = frozenset(
    {
        "all",
        "none",
        "index",
        "follow",
        "noindex",
        "nofollow",
        "noarchive",
        "nocache",
        "nosnippet",
        "noimageindex",
        "notranslate",
        "indexifembedded",
        "noodp",
        "noydir",
    }
)
_BOOLEAN = frozenset(
    {"noindex", "nofollow", "noarchive", "nosnippet", "noimageindex", "notranslate"}
)
# A robot name as it can appear before a colon: a product token (RFC 9309 2.2.1).
_AGENT = re.compile(r"^[a-z0-9_.\-]+$", re.IGNORECASE)


def _min_limit(a: int | None, b: int | None) -> int | None:
    """The stricter of two size limits, where -1 means "no limit"."""
    if a is None or b is None:
        return b if a is None else a
    return min(a, b, key=lambda n: float("inf") if n < 0 else n)


def _min_optional(a: float | None, b: float | None) -> float | None:
    if a is None or b is None:
        return b if a is None else a
    return min(a, b)


@dataclass(frozen=True)
class RobotsDirectives:
    """What a page allows this robot to do with it; the default allows all."""

    noindex: bool = False
    nofollow: bool = False
    noarchive: bool = False
    nosnippet: bool = False
    noimageindex: bool = False
    notranslate: bool = False
    max_snippet: int | None = None
    """Characters of snippet allowed; -1 means no limit, 0 means none."""
    max_image_preview: str | None = None
    """``none``, ``standard`` or ``large``."""
    max_video_preview: int | None = None
    """Seconds of video preview allowed; -1 means no limit."""
    unavailable_after: float | None = None
    """Unix seconds after which the page is to be treated as noindex."""
    unknown: tuple[str, ...] = ()

    @property
    def index(self) -> bool:
        return not self.noindex

    @property
    def follow(self) -> bool:
        return not self.nofollow

    def is_unavailable(self, now: float) -> bool:
        """True once ``unavailable_after`` has passed: noindex from then on."""
        return self.noindex or (self.unavailable_after is not None and now > self.unavailable_after)

    def merge(self, other: RobotsDirectives) -> RobotsDirectives:
        """Both sets at once, the most restrictive value of each winning."""
        preview = [p for p in (self.max_image_preview, other.max_image_preview) if p]
        return RobotsDirectives(
            noindex=self.noindex or other.noindex,
            nofollow=self.nofollow or other.nofollow,
            noarchive=self.noarchive or other.noarchive,
            nosnippet=self.nosnippet or other.nosnippet,
            noimageindex=self.noimageindex or other.noimageindex,
            notranslate=self.notranslate or other.notranslate,
            max_snippet=_min_limit(self.max_snippet, other.max_snippet),
            max_image_preview=min(preview, key=_IMAGE_PREVIEW_ORDER.__getitem__)
            if preview
            else None,
            max_video_preview=_min_limit(self.max_video_preview, other.max_video_preview),
            unavailable_after=_min_optional(self.unavailable_after, other.unavailable_after),
            unknown=tuple(dict.fromkeys(self.unknown + other.unknown)),
        )


ALLOW_ALL = RobotsDirectives()


def parse_date(text: str) -> float | None:
    """Unix seconds of an ``unavailable_after`` date: RFC 822/850/1123 or ISO 8601
    (both forms are in use); None when unreadable, so the directive is ignored."""
    seconds = parse_http_date(text)
    if seconds is not None:
        return seconds
    try:
        when = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return when.timestamp()


def _parse_int(text: str) -> int | None:
    text = text.strip()
    if re.fullmatch(r"-?\d{1,9}", text):
        return max(-1, int(text))
    return None


def _apply(directives: RobotsDirectives, name: str, value: str | None) -> RobotsDirectives:
    """One directive added to a set (most restrictive wins within one list too)."""
    change: RobotsDirectives
    if name == "none":
        change = RobotsDirectives(noindex=True, nofollow=True)
    elif name in _BOOLEAN:
        flags: dict[str, Any] = {name: True}
        change = replace(ALLOW_ALL, **flags)
    elif name == "nocache":  # Bing's spelling of noarchive
        change = RobotsDirectives(noarchive=True)
    elif name in _FLAGS:
        return directives  # all, index, follow and retired flags restrict nothing
    elif name == "max-snippet" and value is not None and (n := _parse_int(value)) is not None:
        change = RobotsDirectives(max_snippet=n)
    elif name == "max-video-preview" and value is not None and (n := _parse_int(value)) is not None:
        change = RobotsDirectives(max_video_preview=n)
    elif name == "max-image-preview" and value and value.strip().lower() in _IMAGE_PREVIEW_ORDER:
        change = RobotsDirectives(max_image_preview=value.strip().lower())
    elif name == "unavailable_after" and value is not None and (t := parse_date(value)) is not None:
        change = RobotsDirectives(unavailable_after=t)
    else:
        token = name if value is None else f"{name}:{value.strip()}"
        return replace(directives, unknown=(*directives.unknown, token))
    return directives.merge(change)


def _tokens(text: str) -> list[str]:
    """Comma-separated tokens, with the commas inside an ``unavailable_after`` date
    (``Friday, 25-Jun-2010 15:00:00 GMT``) glued back on."""
    out: list[str] = []
    for raw in text.split(","):
        token = raw.strip()
        if not token:
            continue
        head = token.split(":", 1)[0].strip().lower()
        if (
            out
            and "unavailable_after" in out[-1].lower()
            and head not in _FLAGS
            and head not in _VALUED
            and ":" not in token.split(" ", 1)[0]
        ):
            out[-1] = f"{out[-1]}, {token}"
        else:
            out.append(token)
    return out


def parse_directives(text: str) -> RobotsDirectives:
    """The directives of one meta ``content`` attribute (no robot names here)."""
    directives = ALLOW_ALL
    for token in _tokens(text):
        name, sep, value = token.partition(":")
        directives = _apply(directives, name.strip().lower(), value if sep else None)
    return directives


@dataclass(frozen=True)
class RobotsTags:
    """Directives for every robot and directives for named robots, as found on a
    page (meta tags) or in its response headers (X-Robots-Tag)."""

    generic: RobotsDirectives = ALLOW_ALL
    by_agent: Mapping[str, RobotsDirectives] = field(default_factory=lambda: MappingProxyType({}))

    def for_robot(self, product_token: str) -> RobotsDirectives:
        """What applies to the robot with this product token: the generic rules and
        its own, the most restrictive winning (names compared case-insensitively)."""
        own = self.by_agent.get(product_token.lower())
        return self.generic if own is None else self.generic.merge(own)

    def merge(self, other: RobotsTags) -> RobotsTags:
        agents = dict(self.by_agent)
        for name, directives in other.by_agent.items():
            agents[name] = agents[name].merge(directives) if name in agents else directives
        return RobotsTags(self.generic.merge(other.generic), MappingProxyType(agents))


def _add(
    generic: RobotsDirectives,
    agents: dict[str, RobotsDirectives],
    agent: str | None,
    name: str,
    value: str | None,
) -> RobotsDirectives:
    if agent is None:
        return _apply(generic, name, value)
    agents[agent] = _apply(agents.get(agent, ALLOW_ALL), name, value)
    return generic


def parse_x_robots_tag(values: Iterable[str]) -> RobotsTags:
    """All ``X-Robots-Tag`` header values of a response.

    A value may open with a robot name and a colon (``examplebot: noindex``); that
    name then governs the directives after it in the same value, until another
    name. A header folded from several lines (joined with commas) keeps working, as
    every ``name:`` switches the target again.
    """
    generic = ALLOW_ALL
    agents: dict[str, RobotsDirectives] = {}
    for value in values:
        agent: str | None = None
        for token in _tokens(value):
            head, sep, rest = token.partition(":")
            name = head.strip().lower()
            if sep and name not in _VALUED and name not in _FLAGS and _AGENT.match(name):
                agent = name
                inner = rest.strip()
                if not inner:
                    continue
                head, sep, rest = inner.partition(":")
                name = head.strip().lower()
            generic = _add(generic, agents, agent, name, rest if sep else None)
    return RobotsTags(generic, MappingProxyType(agents))


def meta_tags(pairs: Iterable[tuple[str, str]]) -> RobotsTags:
    """Robots tags from ``(name, content)`` meta pairs: ``robots`` for every robot,
    any other name only for the robot with that product token."""
    generic = ALLOW_ALL
    agents: dict[str, RobotsDirectives] = {}
    for name, content in pairs:
        parsed = parse_directives(content)
        if name == "robots":
            generic = generic.merge(parsed)
        elif _AGENT.match(name):
            agents[name] = agents[name].merge(parsed) if name in agents else parsed
    return RobotsTags(generic, MappingProxyType(agents))
