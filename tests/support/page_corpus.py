"""The page corpus (``shared/corpus/html-pages.tar.gz``: 518 real documentation
pages), shared by tests and benchmarks.

``tests`` is not a package: test modules import this one as ``page_corpus`` (pytest
puts this folder on ``sys.path``), and ``benchmarks/`` scripts add the folder first.
The corpus is read in place, as its README asks.
"""

from __future__ import annotations

import tarfile
from collections.abc import Iterator
from pathlib import Path

NAME = Path("shared") / "corpus" / "html-pages.tar.gz"


def find_corpus() -> Path | None:
    """``shared/corpus/html-pages.tar.gz`` in the nearest folder above this one that
    has it: beside the repository, or beside the folder of its worktrees."""
    for folder in Path(__file__).resolve().parents:
        if (folder / NAME).is_file():
            return folder / NAME
    return None


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
