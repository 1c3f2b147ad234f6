"""The page corpus, shared by tests and benchmarks: the large one
(``shared/corpus/html-pages.tar.gz``: 518 real documentation pages) when it is
beside the repository, else the sample committed in ``tests/data`` (37 of those
pages, ``tests/data/README.md``), so a fresh clone runs every test.

``tests`` is not a package: test modules import this one as ``page_corpus`` (pytest
puts this folder on ``sys.path``), and ``benchmarks/`` scripts add the folder first.
A corpus is read in place, as its README asks.
"""

from __future__ import annotations

import tarfile
from collections.abc import Iterator
from pathlib import Path

NAME = Path("shared") / "corpus" / "html-pages.tar.gz"
HERE = Path(__file__).resolve().parent
SAMPLE = HERE.parent / "data" / "html-pages-sample.tar.gz"
"""The committed sample: every origin and kind of markup of the large corpus."""


def find_corpus(start: Path = HERE) -> Path | None:
    """``shared/corpus/html-pages.tar.gz`` in the nearest folder above ``start`` that
    has it (beside the repository, or beside the folder of its worktrees), or None."""
    for folder in (start.resolve(), *start.resolve().parents):
        if (folder / NAME).is_file():
            return folder / NAME
    return None


def corpus(start: Path = HERE) -> Path:
    """The corpus the tests read: the large one when it is found from ``start``,
    else the committed sample, which is always there."""
    return find_corpus(start) or SAMPLE


def pages(corpus: Path) -> Iterator[tuple[str, str]]:
    """(URL, HTML) for every page, decoded as UTF-8 leniently; the URL is the
    page's path under ``https://docs.example/``."""
    with tarfile.open(corpus) as tar:
        for member in tar:
            if member.isfile() and member.name.endswith(".html"):
                data = tar.extractfile(member)
                assert data is not None
                path = member.name.split("/", 1)[1]
                yield f"https://docs.example/{path}", data.read().decode("utf-8", "replace")
