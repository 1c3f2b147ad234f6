"""Hosts as the WHATWG URL Standard parses them, so that every spelling of one host
(``EXAMPLE.com.``, ``b\u00fccher.de``, ``0x7f.1``, ``[0:0::1]``) is one key.

Pure functions, no I/O (IDNA tables come from the ``idna`` package). Used by
:mod:`robotkit.url.parse` for every URL, and by the modules that take host names from
people (blacklists, per-site normalization settings).
"""

from __future__ import annotations

import encodings.idna
import ipaddress
import re
from urllib.parse import unquote_to_bytes

import idna


class BadHost(ValueError):
    """A host no robot can fetch; the message says why."""


_ASCII_HOST = re.compile(r"[a-z0-9\-._~!$&'()*+,;=]+")
_ENDS_IN_NUMBER = re.compile(r"(?:^|\.)(?:[0-9]+|0[xX][0-9A-Fa-f]*)$")


def parse_host(raw: str) -> str:
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
            raise BadHost("percent-encoded host is not UTF-8") from None
    if not host.isascii():
        host = _idna_to_ascii(host)
    host = host.lower().rstrip(".")
    if not host:
        raise BadHost("no host")
    if not _ASCII_HOST.fullmatch(host):
        raise BadHost(f"invalid character in host {raw!r}")
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
                raise BadHost(f"invalid international host {host!r}") from None
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
            raise BadHost(f"invalid punycode label {label!r}") from None


def _ipv4(host: str) -> str:
    """WHATWG IPv4 parser: 1 to 4 parts, each decimal, ``0x`` hex or ``0`` octal, the
    last filling the remaining bytes (``http://0x7f.1/`` is ``127.0.0.1``)."""
    parts = host.split(".")
    if len(parts) > 4:
        raise BadHost(f"bad IPv4 address {host!r}")
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
            raise BadHost(f"bad IPv4 address {host!r}") from None
    last = numbers.pop()
    if any(n > 255 for n in numbers) or last >= 256 ** (4 - len(numbers)):
        raise BadHost(f"IPv4 address out of range {host!r}")
    value = last
    for i, n in enumerate(numbers):
        value += n << (8 * (3 - i))
    return str(ipaddress.IPv4Address(value))


def _ipv6(inner: str) -> str:
    if "%" in inner:
        raise BadHost("IPv6 zone identifiers are not fetchable")
    try:
        return ipaddress.IPv6Address(inner).compressed
    except ValueError:
        raise BadHost(f"bad IPv6 address {inner!r}") from None


def is_loopback_host(host: str) -> bool:
    """Whether ``host`` names a loopback address literally (127.0.0.0/8, ``::1`` or
    ``localhost``): no resolver is involved, so there is nothing to forge."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False
