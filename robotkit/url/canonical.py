"""What a page's ``rel=canonical`` (RFC 6596) teaches about its origin's URLs.

A page whose canonical URL is its own URL less some leading path segments and some
parameters says that those name the same page: ``/amp/x`` and ``/print/x?share=tw``
are ``/x``. The prefixes are named forms (a word, never an empty or token-like
segment), and a parameter whose value the canonical changes is no parameter dropped.
A canonical that keeps a query names the script's object by it: the parameters it
drops are learned on the pages of its template only
(:func:`robotkit.url.rewrites.template_drops`; blind8 ``opencart``). Kept apart from
:mod:`robotkit.url.learned`, which holds the rules it learns and asks it. Pure: no I/O.
"""

from __future__ import annotations

from robotkit.url.normalization import NormalizedURL
from robotkit.url.rewrites import (
    Rewrites,
    is_token,
    param_name,
    path_segments,
    query_pairs,
    template_drops,
)

__all__ = ["learn_from_canonical"]


def learn_from_canonical(rewrites: Rewrites, page: NormalizedURL, canonical: NormalizedURL) -> bool:
    """Learn into ``rewrites`` the prefixes and parameters ``page``'s ``canonical`` URL
    drops (see the module docstring). Returns whether anything new was learned."""
    if page.origin != canonical.origin:
        return False
    seg_page, seg_canon = path_segments(page.path), path_segments(canonical.path)
    extra = len(seg_page) - len(seg_canon)
    if extra < 0 or seg_page[extra:] != seg_canon:
        return False
    prefixes = {seg.lower() for seg in seg_page[:extra] if seg and not is_token(seg)}
    if len(prefixes) != extra:
        return False  # an empty or token-like prefix is not a named form
    canon_pairs = set(query_pairs(canonical.query))
    page_pairs = query_pairs(page.query)
    if not canon_pairs <= set(page_pairs):
        return False
    params = {param_name(p) for p in page_pairs if p not in canon_pairs}
    if params & {param_name(p) for p in canon_pairs}:
        return False  # a value changed, not a parameter dropped
    if not prefixes and not params:
        return False
    rules = rewrites.of(page)
    before = (len(rules.prefixes), len(rules.params))
    rules.prefixes |= prefixes
    if canon_pairs:  # the object is named by its query: dropped on its template only
        new = template_drops(rules, canonical.path, set(map(param_name, canon_pairs)), params)
        return new or before[0] != len(rules.prefixes)
    rules.params |= params
    return (len(rules.prefixes), len(rules.params)) != before
