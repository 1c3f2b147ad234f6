"""A repository browser's handlers at a commit and at the head
(``robotkit.triage.routes``): gitweb renders a blob at ``HEAD``
(``a=blob;f=io.c;hb=HEAD``) and at each commit (``a=blob;f=io.c;h=…;hb=<hash>``).
The views at the commits grow the script's parked space; once they hold the blob
handler, the blobs at ``HEAD`` are still let in (blind6 ``gitweb``: the real blobs
were held with the views of every commit). The pure core, no clock."""

from __future__ import annotations

import hashlib

from robotkit.base.reasons import Reason
from robotkit.triage.regions import Regions, region_of
from robotkit.url.normalization import NormalizedURL, normalize

SCRIPT = "http://h/?p=r.git;a="


def _url(query: str) -> NormalizedURL:
    return normalize(SCRIPT + query)


def _commit(n: int) -> str:
    return hashlib.sha1(f"commit {n}".encode()).hexdigest()


def _at(name: str, n: int) -> NormalizedURL:
    return _url(f"blob;f={name};h={_commit(n + 100)};hb={_commit(n)}")


def _grow(regions: Regions, norm: NormalizedURL) -> str | None:
    return regions.count(norm, region_of(norm), news=False, grows=True)


def _parked() -> Regions:
    """A script's space parked by eight searches, after four commits that were news."""
    regions = Regions()
    for n in range(4):
        commit = _url(f"commit;h={_commit(n)}")
        regions.count(commit, region_of(commit), news=True, grows=True)
    for n in range(8):
        _grow(regions, _url(f"search;s=word{n};st=author"))
    assert region_of(_url("summary")) in regions.parked
    return regions


def test_the_blobs_at_head_are_let_in_once_the_views_at_each_commit_hold_the_handler() -> None:
    """Eight searches park the space (their handler held); three blobs at a commit
    and one at ``HEAD`` then grow the blob handler, none of them news (the blob at
    ``HEAD`` shows the text a commit's blob showed first). The handler is held for
    its views at a commit, not for the blobs at ``HEAD``."""
    regions, region = _parked(), region_of(_url("summary"))
    for n in range(3):
        _grow(regions, _at(f"src/f{n}.c", n))
    assert _grow(regions, _url("blob;f=Makefile;hb=HEAD")) is not None
    assert regions.held(_at("src/io.c", 7), region) is Reason.TRAP_HOST
    assert regions.held(_url("blob;f=src/io.c;hb=HEAD"), region) is None


def test_a_handler_without_views_at_a_commit_is_held_whole_as_before() -> None:
    """Four pages of a handler that name no commit grow it, none news: held whole."""
    regions, region = _parked(), region_of(_url("summary"))
    for n in range(4):
        _grow(regions, _url(f"blob;f=src/f{n}.c;hb=HEAD"))
    assert regions.held(_url("blob;f=src/io.c;hb=HEAD"), region) is Reason.TRAP_HOST
