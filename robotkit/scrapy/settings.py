"""The ``ROBOTKIT_*`` Scrapy settings, read once into one typed record.

Every piece of the add-on reads its options from here, so a setting has one name,
one default and one check. A bad value stops the crawl at start with a clear
message (:class:`scrapy.exceptions.UsageError`), never mid-crawl.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from pathlib import Path

from scrapy.exceptions import UsageError
from scrapy.settings import BaseSettings

from robotkit.robots import freshness
from robotkit.robots.status import Profile
from robotkit.triage.guard import Blacklist, BlacklistSyntaxError, GuardConfig
from robotkit.url.redact import masked


@dataclass(frozen=True)
class RobotkitSettings:
    """What the add-on needs to know, with robotkit's defaults."""

    user_agent: str
    """Scrapy's own ``USER_AGENT``: the robot answers to its product token."""
    from_: str | None = None
    profile: Profile = Profile.CLASSIC
    robots_min_ttl: float = freshness.DEFAULT_MIN_TTL
    delay: float = 0.0
    """The least gap per host, end of a response to the next start: the larger of
    ``ROBOTKIT_DELAY`` and Scrapy's ``DOWNLOAD_DELAY``."""
    max_crawl_delay: float = 30.0
    max_defer: float = 30.0
    """The longest a request waits for a host (a deferred robots.txt, Retry-After,
    backoff); a longer wait drops it with its reason, so a crawl ends by itself."""
    guard: GuardConfig = field(default_factory=GuardConfig)
    blacklist: Blacklist | None = None
    redis_url: str | None = None
    """The Redis that several Scrapy processes share their politeness on
    (ARCHITECTURE.md, "Shared state"); None keeps it in the process."""
    crawl_id: str = "default"
    """The crawl's key namespace on that Redis: processes of one crawl share it."""
    soft404_probes: bool = True

    def __repr__(self) -> str:
        """The dataclass's repr with ``redis_url``'s password masked: Scrapy and
        users log the settings."""
        shown = {f.name: getattr(self, f.name) for f in fields(self)}
        if self.redis_url is not None:
            shown["redis_url"] = masked(self.redis_url)
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in shown.items())})"

    @classmethod
    def from_scrapy(cls, settings: BaseSettings) -> RobotkitSettings:
        try:
            profile = Profile(settings.get("ROBOTKIT_PROFILE", Profile.CLASSIC.value))
        except ValueError:
            raise UsageError(
                "ROBOTKIT_PROFILE must be 'classic' or 'rfc9309', "
                f"not {settings.get('ROBOTKIT_PROFILE')!r}"
            ) from None
        numbers = {
            name: _number(settings, name, default)
            for name, default in (
                ("ROBOTKIT_ROBOTS_MIN_TTL", freshness.DEFAULT_MIN_TTL),
                ("ROBOTKIT_DELAY", 0.0),
                ("DOWNLOAD_DELAY", 0.0),
                ("ROBOTKIT_MAX_CRAWL_DELAY", 30.0),
                ("ROBOTKIT_MAX_DEFER", 30.0),
            )
        }
        guard_options = settings.getdict("ROBOTKIT_GUARD")
        try:
            guard = GuardConfig(**guard_options)
        except (TypeError, ValueError) as error:
            raise UsageError(f"ROBOTKIT_GUARD: {error}") from None
        blacklist = None
        path = settings.get("ROBOTKIT_BLACKLIST")
        if path:
            try:
                blacklist = Blacklist.from_file(Path(path))
            except (OSError, BlacklistSyntaxError) as error:
                raise UsageError(f"ROBOTKIT_BLACKLIST: {error}") from None
        return cls(
            user_agent=str(settings.get("USER_AGENT") or ""),
            from_=settings.get("ROBOTKIT_FROM") or None,
            profile=profile,
            robots_min_ttl=numbers["ROBOTKIT_ROBOTS_MIN_TTL"],
            delay=max(numbers["ROBOTKIT_DELAY"], numbers["DOWNLOAD_DELAY"]),
            max_crawl_delay=numbers["ROBOTKIT_MAX_CRAWL_DELAY"],
            max_defer=numbers["ROBOTKIT_MAX_DEFER"],
            guard=guard,
            blacklist=blacklist,
            redis_url=settings.get("ROBOTKIT_REDIS_URL") or None,
            crawl_id=str(settings.get("ROBOTKIT_CRAWL_ID") or "default"),
            soft404_probes=settings.getbool("ROBOTKIT_SOFT404_PROBES", True),
        )


def _number(settings: BaseSettings, name: str, default: float) -> float:
    """A finite, non-negative number of seconds, or a UsageError naming the setting."""
    raw = settings.get(name, default)
    try:
        value = float(raw)
    except (TypeError, ValueError):
        raise UsageError(f"{name} must be a number of seconds, not {raw!r}") from None
    if not value >= 0 or value == float("inf"):
        raise UsageError(f"{name} must be a finite number >= 0, not {raw!r}")
    return value
