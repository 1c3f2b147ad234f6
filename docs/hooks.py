"""MkDocs hook: links from docs/ to ../ARCHITECTURE.md become links to its site page.

ARCHITECTURE.md stays at the repository's root, where code and docstrings point; the
site shows it as architecture.md (a pymdownx.snippets include). A page under docs/
links to ../ARCHITECTURE.md#section so that the link works on a code host too; the
site rewrites it to architecture.md#section, where mkdocs checks it (strict mode).
"""

from __future__ import annotations

import posixpath
import re

_LINK = re.compile(r"\]\(((?:\.\./)+)ARCHITECTURE\.md")


def on_page_markdown(markdown, page, config, files):  # noqa: ANN001, ANN201
    depth = page.file.src_uri.count("/")

    def relink(match: re.Match[str]) -> str:
        if len(match.group(1)) // 3 != depth + 1:
            return match.group(0)
        return "](" + posixpath.relpath("architecture.md", posixpath.dirname(page.file.src_uri) or ".")

    return _LINK.sub(relink, markdown)
