"""Versioned, validated JSON snapshots of what a component learned.

A resumed crawl should not pay again for what it already learned (page
fingerprints, soft-404 answers, trap regions, the automatic blacklist). Each
learning component turns its state into plain JSON with ``snapshot()`` and
rebuilds it with ``restore(data)``. Data read back from disk may be damaged or
from another version, so every snapshot names its kind and version, and every
value is type-checked as it is read: bad data raises :class:`SnapshotError`
with a sentence that says what is wrong, never a ``KeyError`` from deep inside.

Pure core: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from robotkit.base.errors import DataError

__all__ = ["SnapshotError", "header", "listed", "opened", "pairs", "reading", "typed"]

T = TypeVar("T")


class SnapshotError(DataError):
    """A snapshot that cannot be restored: another kind or version, or bad data."""


class _BadValue(SnapshotError):
    """A value of the wrong type; :func:`reading` names the snapshot it was in."""


def header(kind: str, version: int) -> dict[str, Any]:
    """The first two keys of every snapshot."""
    return {"kind": kind, "version": version}


def opened(data: Any, kind: str, version: int) -> dict[str, Any]:
    """``data`` as a snapshot of ``kind`` at ``version``, or :class:`SnapshotError`."""
    if not isinstance(data, dict) or data.get("kind") != kind:
        raise SnapshotError(f"not a {kind} snapshot")
    if data.get("version") != version:
        raise SnapshotError(
            f"{kind} snapshot version {data.get('version')!r} (this robotkit reads {version})"
        )
    return data


def typed(value: Any, kind: type[T], what: str) -> T:
    """``value`` if it is a ``kind`` (a bool is not an int), else :class:`SnapshotError`
    naming ``what``."""
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise _BadValue(f"{what}: expected {kind.__name__}, got {type(value).__name__}")
    return value


@contextmanager
def reading(kind: str) -> Iterator[None]:
    """Turn the errors of reading malformed data (a missing key, a list of the wrong
    length, an unknown code) into one :class:`SnapshotError` naming ``kind``."""
    try:
        yield
    except _BadValue as exc:
        raise SnapshotError(f"bad {kind} snapshot: {exc}") from None
    except SnapshotError:
        raise
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
        detail = f"missing {exc}" if isinstance(exc, KeyError) else str(exc)
        raise SnapshotError(f"bad {kind} snapshot: {detail}") from None


def listed(value: Any, what: str, kind: type[T]) -> list[T]:
    """``value`` if it is a list of ``kind`` (checked as :func:`typed` does)."""
    return [typed(x, kind, what) for x in typed(value, list, what)]


def pairs(data: dict[str, Any], name: str, key_kind: type[Any]) -> list[tuple[Any, Any]]:
    """The ``[key, value]`` pairs of one snapshot field (a dict saved as a list of
    pairs, so that its keys need not be strings), keys type-checked."""
    return [
        (typed(key, key_kind, name), value)
        for key, value in (typed(p, list, name) for p in listed(data[name], name, list))
    ]
