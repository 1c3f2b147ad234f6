"""The trap sites served by a real Apache httpd: symlink loops under autoindex, a
path-info copy trap, and a project site with a sortable download area.

What was seen on a real Apache 2.4, and what each site rebuilds:

- ``apache-symlinks``: a documentation tree served with ``Options +Indexes
  +FollowSymLinks`` and three loop symlinks, ``parent -> ../..``, ``self -> .``
  and an absolute link back to the root. On the real tree robotkit made 104
  fetches through the loops (wget 3,473; Scrapy 2,905), plus 24 column-sort
  variants (``?C=M;O=A``) of 15 listings.
- ``apache-pathinfo``: ``AcceptPathInfo On`` (the default for PHP and CGI scripts)
  serves ``/library/index.html/anything`` as ``/library/index.html``. One typo link
  to ``/library/index.html/`` and every relative link of that page resolves under
  it: robotkit fetched 352 exact copies before stopping, and recorded the real
  pages reached later as ``duplicate-content`` of the copy.
- ``apache-downloads``: a project's site beside an autoindexed download area, its
  listings sortable by four columns in two orders, and ``current`` a link to the
  newest release (every file there a copy).
"""

from __future__ import annotations

import hashlib
import html
from collections.abc import Iterable, Sequence

from robotkit.traps.base import prose
from robotkit.traps.real.site import ApacheSite
from robotkit.traps.real.tree import Entry, Link, Tree

Links = Sequence[tuple[str, str]]


def document(title: str, seed: str, links: Links = (), nav: Links = ()) -> bytes:
    """A documentation page: navigation, a title, three paragraphs no other page
    has, its links as written (relative ones stay relative)."""

    def anchors(pairs: Iterable[tuple[str, str]]) -> str:
        return "".join(
            f'<li><a href="{html.escape(h)}">{html.escape(t)}</a></li>' for h, t in pairs
        )

    paragraphs = "".join(f"<p>{html.escape(prose(f'{seed} {n}', 4))}</p>" for n in range(3))
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title></head>\n<body>"
        f"<nav><ul>{anchors(nav)}</ul></nav>\n<main><h1>{html.escape(title)}</h1>\n"
        f"{paragraphs}\n<ul>{anchors(links)}</ul></main>\n"
        "<footer>Maintained by the documentation team.</footer></body></html>\n"
    ).encode()


def text_file(seed: str, lines: int = 12) -> bytes:
    return "\n".join(prose(f"{seed} {n}", 1) for n in range(lines)).encode() + b"\n"


def binary_file(seed: str, size: int = 4096) -> bytes:
    """Deterministic bytes that are not text (a release tarball's stand-in)."""
    out = b""
    block = seed.encode()
    while len(out) < size:
        block = hashlib.sha256(block).digest()
        out += block
    return b"\x1f\x8b\x08\x00" + out[: size - 4]


def chapters(folder: str, names: Sequence[str], extra: Links = ()) -> dict[str, Entry]:
    """Pages in one folder, each linking its neighbours by relative links."""
    pages: dict[str, Entry] = {}
    for i, name in enumerate(names):
        links: list[tuple[str, str]] = []
        if i > 0:
            links.append((f"{names[i - 1]}.html", "Previous"))
        if i + 1 < len(names):
            links.append((f"{names[i + 1]}.html", "Next"))
        title = f"{folder.rstrip('/').rpartition('/')[2].title()}: {name.replace('-', ' ')}"
        pages[f"{folder}{name}.html"] = document(title, f"{folder}{name}", [*links, *extra])
    return pages


# ------------------------------------------------------------- apache-symlinks

MANUAL: tuple[str, ...] = (
    "introduction",
    "installing",
    "first-run",
    "configuration",
    "logging",
    "security",
)
MANUAL += ("performance", "upgrading", "backups", "monitoring", "clustering", "glossary")
API: tuple[str, ...] = (
    "overview",
    "sessions",
    "queries",
    "results",
    "errors",
    "streams",
    "batches",
)
API += ("transactions", "hooks", "changelog")
HOWTO: tuple[str, ...] = (
    "migrate-data",
    "rotate-keys",
    "tune-cache",
    "proxy-setup",
    "offline-mode",
)
HOWTO += ("custom-plugins", "bulk-import", "export-reports", "audit-trail", "restore")
FAQ: tuple[str, ...] = (
    "licensing",
    "support",
    "platforms",
    "memory",
    "limits",
    "networking",
    "updates",
)
FAQ += ("contributing",)
NOTES: tuple[str, ...] = ("release-1-0", "release-1-1", "release-1-2", "release-2-0", "release-2-1")
NOTES += ("roadmap",)


class ApacheSymlinks(ApacheSite):
    """A documentation file server with autoindex listings and three loop links."""

    name = "apache-symlinks"
    summary = (
        "real Apache autoindex over a documentation tree with three loop symlinks "
        "(parent -> ../.., self -> ., an absolute link to the root)"
    )
    disallow = ("/private/",)
    tree = Tree(
        {
            "README.txt": text_file("readme"),
            **chapters("docs/manual/", MANUAL),
            "docs/manual/parent": Link("../.."),
            **chapters("docs/api/", API),
            "docs/api/api-reference.txt": text_file("api reference"),
            "docs/api/self": Link("."),
            **chapters("docs/howto/", HOWTO),
            "docs/howto/site-root": Link("/"),
            **chapters("docs/faq/", FAQ),
            **chapters("notes/", NOTES),
            "notes/CHANGES.txt": text_file("changes", 30),
            "notes/LICENSE.txt": text_file("license", 20),
            "private/staff-only.html": document("Staff only", "private staff"),
            "private/salaries.txt": text_file("salaries"),
        }
    )


# ------------------------------------------------------------- apache-pathinfo

GUIDE: tuple[str, ...] = (
    "getting-started",
    "concepts",
    "install",
    "configure",
    "deploy",
    "troubleshoot",
)
GUIDE += ("upgrade", "faq")
REFERENCE: tuple[str, ...] = (
    "cli",
    "config-file",
    "environment",
    "api",
    "errors",
    "limits",
    "formats",
)
REFERENCE += ("plugins", "security", "glossary")
TUTORIAL: tuple[str, ...] = (
    "hello",
    "routing",
    "templates",
    "forms",
    "storage",
    "testing",
    "packaging",
)
TUTORIAL += ("next-steps",)
NEWS: tuple[str, ...] = ("2024-01-release-3-0", "2024-03-security-fix", "2024-06-release-3-1")
NEWS += ("2024-09-conference", "2024-11-release-3-2")


def _library() -> dict[str, Entry]:
    """The library: a contents page whose relative links go down into three
    folders, and chapters that link back up with ``../index.html``."""
    up = [("../index.html", "Contents"), ("/", "Home")]
    contents = [(f"{folder}/{name}.html", name) for folder, names in LIBRARY for name in names]
    contents.append(("reference/options.txt", "All options (text)"))
    contents.append(("tutorial/sample-data.csv", "Sample data"))
    pages: dict[str, Entry] = {
        "library/index.html": document("Library contents", "library contents", contents),
        "library/reference/options.txt": text_file("options", 40),
        "library/tutorial/sample-data.csv": b"id,name,size\n"
        + b"".join(f"{n},item-{n},{n * 37 % 101}\n".encode() for n in range(50)),
    }
    for folder, names in LIBRARY:
        pages.update(chapters(f"library/{folder}/", names, up))
    return pages


LIBRARY = (("guide", GUIDE), ("reference", REFERENCE), ("tutorial", TUTORIAL))


class ApachePathInfo(ApacheSite):
    """A documentation site with ``AcceptPathInfo On`` and one typo link."""

    name = "apache-pathinfo"
    summary = (
        "real Apache with AcceptPathInfo On: one typo link to library/index.html/ and "
        "every relative link of the copy resolves under it"
    )
    directives = ("Options -Indexes +FollowSymLinks",)
    accept_path_info = True
    listed = ()
    disallow = ("/drafts/",)
    tree = Tree(
        {
            # The home page's navigation carries the typo: index.html/, not index.html.
            "index.html": document(
                "Project documentation",
                "home",
                [("about.html", "About"), ("news/index.html", "News")],
                nav=[("library/index.html/", "Library"), ("about.html", "About")],
            ),
            "about.html": document(
                "About the project",
                "about",
                [("library/index.html", "The library"), ("drafts/index.html", "Drafts")],
                nav=[("/", "Home")],
            ),
            "news/index.html": document(
                "News", "news", [(f"{n}.html", n) for n in NEWS], nav=[("/", "Home")]
            ),
            **chapters("news/", NEWS, [("index.html", "All news")]),
            **_library(),
            "drafts/index.html": document("Drafts", "drafts", [("roadmap.html", "Roadmap")]),
            "drafts/roadmap.html": document("Roadmap draft", "drafts roadmap"),
        }
    )


# ------------------------------------------------------------ apache-downloads

DOCS: tuple[str, ...] = (
    "quick-start",
    "installation",
    "configuration",
    "command-line",
    "api",
    "plugins",
)
DOCS += ("faq", "changelog")
RELEASES = ("1.0", "1.1", "2.0", "2.1")


def _downloads() -> dict[str, Entry]:
    files: dict[str, Entry] = {
        "download/README.html": document("Downloads", "downloads readme", [("releases/", "All")]),
        "download/KEYS.txt": text_file("signing keys", 20),
        "download/current": Link("releases/2.1"),
        "download/nightly/widget-nightly.tar.gz": binary_file("nightly"),
        "download/nightly/BUILD-LOG.txt": text_file("nightly build log"),
    }
    for version in RELEASES:
        folder = f"download/releases/{version}/"
        tarball = binary_file(f"widget {version}")
        files[f"{folder}widget-{version}.tar.gz"] = tarball
        digest = hashlib.sha256(tarball).hexdigest()
        files[f"{folder}widget-{version}.tar.gz.sha256"] = (
            f"{digest}  widget-{version}.tar.gz\n".encode()
        )
        notes = document(f"Widget {version} release notes", f"notes {version}")
        files[f"{folder}RELEASE-NOTES.html"] = notes
    return files


class ApacheDownloads(ApacheSite):
    """A project site and an autoindexed download area with column sorting."""

    name = "apache-downloads"
    summary = (
        "real Apache: a project site beside an autoindexed download area (sortable "
        "listings, current -> releases/2.1)"
    )
    directives = ("Options -Indexes +FollowSymLinks",)
    sections = (("download", ("Options +Indexes +FollowSymLinks", "IndexOptions FancyIndexing")),)
    listed = ("/download/",)
    disallow = ("/download/nightly/",)
    tree = Tree(
        {
            "index.html": document(
                "Widget",
                "widget home",
                [("docs/", "Documentation"), ("news/", "News"), ("download/", "Download")],
                nav=[("/about.html", "About")],
            ),
            "about.html": document("About Widget", "widget about", nav=[("/", "Home")]),
            "docs/index.html": document(
                "Widget documentation", "widget docs", [(f"{d}.html", d) for d in DOCS]
            ),
            **chapters("docs/", DOCS, [("index.html", "Contents"), ("/download/", "Download")]),
            "news/index.html": document(
                "Widget news", "widget news", [(f"{v}.html", v) for v in RELEASES]
            ),
            **chapters("news/", RELEASES, [("/download/current/", "Get the latest")]),
            **_downloads(),
        }
    )
