"""A URL's record in a crawl shared on Redis (:mod:`robotkit.shared.crawl`): what a
host's pending URLs, inbox and drained links hold, packed without field names, the
host's own part of each URL left out. One place for the format the workers of a crawl
read each other's records in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from robotkit.frontier.events import Tier
from robotkit.triage.chains import Chain

__all__ = ["Offer", "full", "offer_of", "offers_of", "short", "text_of"]


def short(host: str, url: str) -> str:
    """A URL of ``host`` as stored in its keys: its path alone (a key is a whole URL,
    so it never starts with ``/``). Ten bytes and more saved in every pending URL,
    inbox link and referer."""
    if url.startswith(host) and url[len(host) : len(host) + 1] == "/":
        return url[len(host) :]
    return url


def full(host: str, stored: str) -> str:
    """The URL :func:`short` stored."""
    return host + stored if stored.startswith("/") else stored


@dataclass(frozen=True, slots=True)
class Offer:
    """A URL on its way to its host's owner, as kept in Redis: found at ``depth``
    on ``referer`` by a page ``streak`` copies deep (:meth:`robotkit.triage.triage.Triage.screen`),
    or (``taken``) already screened and queued in ``tier`` by an owner."""

    url: str
    key: str
    depth: int
    referer: str | None
    streak: int = 0
    tier: Tier = Tier.MAIN
    taken: bool = False
    chain: Chain | None = None
    """The chain of self-grown links ``referer`` is at, when the URL may be a step of it
    (:meth:`robotkit.triage.growth.GrowthGate.chain`): the worker that screens or
    fetches the URL may not be the one that fetched its referer."""

    def record(self, host: str) -> str:
        """Packed, without field names: ``depth streak tier taken referred``, the
        referer and the URL (empty when it is its key, which the record is stored
        under), each its path alone when on ``host`` (:func:`short`), then the chain
        when there is one (:meth:`Chain.packed`; most links have none: not a byte more
        for them)."""
        flags = f"{self.depth} {self.streak} {int(self.tier)} {int(self.taken)} "
        flags += "1" if self.referer is not None else "0"
        url = "" if self.url == self.key else short(host, self.url)
        chain = "" if self.chain is None else f"\0{self.chain.packed()}"
        return f"{flags}\0{short(host, self.referer or '')}\0{url}{chain}"

    @classmethod
    def of_record(cls, host: str, key: bytes | str, record: bytes | str) -> Offer:
        flags, referer, url, *chain = text_of(record).split("\0", 3)
        depth, streak, tier, taken, referred = flags.split(" ")
        key, referer = full(host, text_of(key)), full(host, referer)
        return cls(
            full(host, url) or key,
            key,
            int(depth),
            referer if referred == "1" else None,
            int(streak),
            Tier(int(tier)),
            taken == "1",
            Chain.unpacked(chain[0]) if chain else None,
        )


def text_of(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def offers_of(host: str, flat: Sequence[bytes | str]) -> list[Offer]:
    return [Offer.of_record(host, flat[i], flat[i + 1]) for i in range(0, len(flat), 2)]


def offer_of(host: str, item: bytes | str) -> Offer:
    key, _, record = text_of(item).partition("\0")
    return Offer.of_record(host, key, record)
