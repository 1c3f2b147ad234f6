"""A URL's template: its variable parts (numbers, ids, query values) replaced, so
that the URLs one page kind is served under share one name (``/item/{n}?page={n}``).

The triage counts what a template's pages add (:mod:`robotkit.triage.news`) and
compares a link's template with its page's (:mod:`robotkit.triage.copies`).
"""

from __future__ import annotations

import re

from robotkit.url.normalization import NormalizedURL, normalize_or_none

_DIGITS = re.compile(r"\d+")
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I)
_HEX_ID = re.compile(r"\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b", re.I)


def _template_text(text: str) -> str:
    text = _UUID.sub("{id}", text)
    text = _HEX_ID.sub("{id}", text)
    return _DIGITS.sub("{n}", text)


def url_template(url: str | NormalizedURL) -> str | None:
    """The URL with its variable parts replaced: digit runs by ``{n}``, UUIDs and
    long hex ids by ``{id}``, query values by ``{n}`` or ``{v}``, query names sorted
    (``http://x/item/42?page=3`` is ``http://x/item/{n}?page={n}``). ``None`` for an
    invalid URL."""
    norm = normalize_or_none(url)
    if norm is None:
        return None
    path = _template_text(norm.path)
    if not norm.query:
        return f"{norm.origin}{path}"
    names = []
    for part in norm.query.split("&"):
        name, sep, value = part.partition("=")
        if sep:
            value = "{n}" if value.isdigit() else "{v}"
        names.append(f"{_template_text(name)}{sep}{value}")
    return f"{norm.origin}{path}?{'&'.join(sorted(names))}"
