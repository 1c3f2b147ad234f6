"""One exception root: every exception class robotkit defines (but the internal
ones that never leave their module) is a :class:`RobotkitError`, and the tree drawn
in :mod:`robotkit.base.errors` names each of them."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import httpx
import pytest

import robotkit
import robotkit.base.errors
from robotkit.base.errors import DataError, RobotkitError, UnavailableError, UsageError
from robotkit.http import Deferred, PolitenessError, ResponseTooSlow
from robotkit.url.parse import InvalidURL, parse_url

INTERNAL = {"BadURL", "BadHost"}
"""Raised and caught inside their own module (robotkit.url), never by a public call."""


def _exception_classes() -> dict[str, type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    for info in pkgutil.walk_packages(robotkit.__path__, "robotkit."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if (
                inspect.isclass(value)
                and issubclass(value, BaseException)
                and value.__module__ == info.name
                and not name.startswith("_")
            ):
                found[name] = value
    return found


def test_every_exception_robotkit_defines_is_a_robotkit_error() -> None:
    classes = _exception_classes()
    assert {"InvalidURL", "PolitenessError", "SharedStateUnavailable", "Refused"} <= set(classes)
    strays = sorted(
        name
        for name, cls in classes.items()
        if name not in INTERNAL and not issubclass(cls, RobotkitError)
    )
    assert strays == []


def test_the_tree_in_the_docstring_names_every_exception() -> None:
    tree = robotkit.base.errors.__doc__ or ""
    missing = sorted(name for name in _exception_classes() if name not in tree)
    assert missing == []


def test_families_keep_the_builtin_kinds_callers_already_catch() -> None:
    assert issubclass(UsageError, ValueError) and issubclass(DataError, ValueError)
    assert issubclass(UnavailableError, RuntimeError)
    assert issubclass(PolitenessError, httpx.RequestError)
    assert issubclass(ResponseTooSlow, httpx.ReadTimeout)
    assert issubclass(Deferred, RobotkitError)


def test_a_public_call_raises_a_robotkit_error() -> None:
    with pytest.raises(RobotkitError) as caught:
        parse_url("http://exa mple.org/")
    assert isinstance(caught.value, InvalidURL) and isinstance(caught.value, ValueError)
