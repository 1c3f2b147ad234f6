"""Where a request may go: the address policy, the resolver, and the rule for
redirect chains, shared by page fetches and robots.txt fetches.

A robot that fetches any URL it is handed can be turned against its own network
(server-side request forgery): a link, or a redirect, to ``http://10.0.0.5/`` or
``http://169.254.169.254/``. So every request's host is resolved before it is sent,
and refused unless every address is public (RFC 6890 special-purpose ranges are
not). A chain that began at a public address never turns to a non-public one, even
when private targets are allowed: that turn is the forgery. The resolver may answer
differently when the connection is made (DNS rebinding), so the same judgement is
made again on the address a new connection really reached
(:mod:`robotkit.http.sockets`).
"""

from __future__ import annotations

import asyncio
import inspect
import ipaddress
import socket
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx

from robotkit.base.reasons import Reason
from robotkit.http.errors import AddressRefused
from robotkit.robots.status import Hop
from robotkit.url.parse import origin_of

Resolver = Callable[[str, int], Sequence[str]]
AsyncResolver = Callable[[str, int], Sequence[str] | Awaitable[Sequence[str]]]


def addresses_of(infos: Sequence[tuple[Any, ...]]) -> list[str]:
    """The distinct addresses of ``getaddrinfo`` results."""
    return sorted({str(info[4][0]) for info in infos})


def system_resolver(host: str, port: int) -> list[str]:
    """The addresses the system resolver gives for ``host``."""
    return addresses_of(socket.getaddrinfo(host, port, type=socket.SOCK_STREAM))


def literal_address(host: str) -> list[str] | None:
    """``host`` as the one address it spells, or None when it is a name."""
    try:
        return [str(ipaddress.ip_address(host.strip("[]")))]
    except ValueError:
        return None


@dataclass
class RedirectChain:
    """The redirect chain of one logical request: its hops so far, the target of
    the next one, and whether it began at a public address (all the address rule
    needs to know about the past)."""

    hops: list[Hop] = field(default_factory=list)
    pending: str | None = None
    public_start: bool = False


@dataclass(frozen=True)
class AddressPolicy:
    """Which addresses a request may go to (server-side request forgery guard)."""

    allow_private: bool = False
    """Allow private, loopback and link-local targets (crawling an intranet or
    localhost on purpose). A redirect from a public address to such a target is
    refused even then."""
    public_addresses: frozenset[str] = frozenset()
    """Addresses to treat as public (tests mark 127.0.0.x servers this way)."""

    def is_public(self, address: str) -> bool:
        if address in self.public_addresses:
            return True
        try:
            ip = ipaddress.ip_address(address.split("%", 1)[0])
        except ValueError:
            return False
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        return ip.is_global and not ip.is_multicast

    def judge(self, url: str, addresses: Sequence[str], chain: RedirectChain, is_hop: bool) -> None:
        """Refuse (:class:`AddressRefused`) a target that is not public, unless
        private targets are allowed and the chain did not begin at a public one.
        A first request records in ``chain`` whether it was public."""
        public = bool(addresses) and all(self.is_public(a) for a in addresses)
        if not is_hop:
            chain.public_start = public
        if public:
            return
        shown = ", ".join(addresses) or "no address"
        if is_hop and chain.public_start:
            detail = f"redirect from a public address to {shown}"
        elif not self.allow_private:
            detail = f"{shown} is not public (allow_private=True to crawl it)"
        else:
            return
        raise AddressRefused(url, Reason.PRIVATE_ADDRESS, detail, redirects=tuple(chain.hops))

    def peer_judge(self, url: str, chain: RedirectChain, is_hop: bool) -> Callable[[str], None]:
        """:meth:`judge` again, on the one address a new connection reached."""
        return lambda address: self.judge(url, [address], chain, is_hop)


Resolved = Sequence[str] | OSError | UnicodeError
"""A host's addresses, or why it could not be resolved."""


@dataclass(frozen=True)
class AddressScreen:
    """One transport's address policy with its resolver: what its page fetches and
    its robots.txt fetches (every redirect hop included) are judged by. A literal
    address is never handed to the resolver."""

    policy: AddressPolicy = AddressPolicy()
    resolver: AsyncResolver | None = None
    """``(host, port) -> addresses``; None: the system's (on the event loop for
    the async face). A sync transport's resolver must not be a coroutine."""

    def resolve(self, host: str, port: int) -> Resolved:
        """The addresses of ``host``, blocking."""
        literal = literal_address(host)
        if literal is not None:
            return literal
        try:
            found = (self.resolver or system_resolver)(host, port)
        except (OSError, UnicodeError) as error:  # "a..b": an empty IDNA label
            return error
        if inspect.isawaitable(found):
            raise TypeError("an async resolver needs the async transport")
        return found

    async def aresolve(self, host: str, port: int) -> Resolved:
        """The addresses of ``host``, on the event loop."""
        literal = literal_address(host)
        if literal is not None:
            return literal
        try:
            if self.resolver is None:
                loop = asyncio.get_running_loop()
                return addresses_of(await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM))
            found = self.resolver(host, port)
            return await found if inspect.isawaitable(found) else found
        except (OSError, UnicodeError) as error:
            return error

    def judge(
        self,
        url: str,
        host: str,
        resolved: object,
        chain: RedirectChain,
        is_hop: bool,
        request: httpx.Request | None = None,
    ) -> None:
        """Judge the addresses :meth:`resolve` found for ``url``'s ``host``; an
        unresolvable host is a connection error, as httpx would raise."""
        if isinstance(resolved, (OSError, UnicodeError)):
            message = f"cannot resolve {host}: {resolved}"
            raise httpx.ConnectError(message, request=request) from resolved
        assert isinstance(resolved, Sequence)
        self.policy.judge(url, list(resolved), chain, is_hop)


class ChainJudge:
    """The address rule for a redirect chain its caller follows itself, hop by hop
    (the robots.txt fetcher: to httpx each hop is a new request, so the chain is
    kept here). Each hop is judged before it is sent, by the screen's resolver,
    and again on the address its connection reached."""

    def __init__(self, screen: AddressScreen) -> None:
        self.screen = screen
        self.chain = RedirectChain()

    @staticmethod
    def screen_of(client: object, transport: object) -> AddressScreen | None:
        """The address screen of the polite transport behind ``transport`` (or
        ``client``'s), when it is one or the robots transport of one."""
        if client is not None:
            transport = getattr(client, "_transport", None)  # httpx has no public hook
        screen = getattr(transport, "address_screen", None)
        return screen if isinstance(screen, AddressScreen) else None

    def check(self, url: str, is_hop: bool) -> None:
        """Resolve ``url``'s host and judge it, blocking; raises
        :class:`AddressRefused`, or ``httpx.ConnectError`` for a host with no
        address."""
        origin = origin_of(url)
        resolved = self.screen.resolve(origin.host, origin.port)
        self.screen.judge(url, origin.host, resolved, self.chain, is_hop)

    async def acheck(self, url: str, is_hop: bool) -> None:
        """:meth:`check` on the event loop."""
        origin = origin_of(url)
        resolved = await self.screen.aresolve(origin.host, origin.port)
        self.screen.judge(url, origin.host, resolved, self.chain, is_hop)

    def peer_judge(self, url: str, is_hop: bool) -> Callable[[str], None]:
        return self.screen.policy.peer_judge(url, self.chain, is_hop)
