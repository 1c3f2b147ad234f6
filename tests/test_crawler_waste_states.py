"""The waste bound on an archive (blind11 ``atom``): a record's display standards,
named by path parameters after its name (``/index.php/<slug>;isad``), are views of
the record and a family of their own. A real loopback server; the paths are the
server's.
"""

from __future__ import annotations

import random

from werkzeug import Request

from robotkit.url.normalization import normalize
from robotkit.url.views import states, views
from robotkit.url.waste import waste_family
from tests.test_crawler_waste import vocabulary
from tests.test_crawler_waste_exports import crawl_paths, page

STANDARDS = ("isad", "dc", "rad", "mods")


def test_a_records_display_standards_are_views_of_it_and_prove_their_family_barren() -> None:
    """An archive lists 6 fonds ``/index.php/<slug>``, each linking its 3 series
    (only there); each description links the same record under four display
    standards (``;isad``, ``;dc``, ``;rad``, ``;mods``), its text again with the
    standard's name in its title (an echoed copy), and each view links its own print
    form, a URL not met before. Of the family of the descriptions
    (``/index.php/*``), the views made it barren and the series waited for good;
    or, each leading somewhere new, they proved nothing and every description paid
    for its four views (blind11 ``atom``: 72 trap fetches). A view of the page that
    linked it by its path parameters is of a family of its own
    (``/index.php/*;{s}``) and proves it barren; every description is fetched."""
    rng = random.Random(11)
    words = vocabulary(rng, 500)
    slugs = ["-".join(rng.sample(words, 2)) for _ in range(24)]
    fonds = {slugs[i]: slugs[i + 1 : i + 4] for i in range(0, 24, 4)}
    records = {slug: " ".join(rng.choices(words, k=60)) for slug in slugs}

    def handler(request: Request) -> tuple[str, str] | None:
        path, query = request.path, request.query_string.decode()
        if path in ("/", "/index.php/browse"):
            return page("Archive", "the county archive", [f"/index.php/{s}" for s in fonds]), (
                "text/html"
            )
        slug, _, standard = path.removeprefix("/index.php/").partition(";")
        if slug not in records or standard not in ("", *STANDARDS) or query not in ("", "print=1"):
            return None
        here = f"/index.php/{slug}" + (f";{standard}" if standard else "")
        links = ["/index.php/browse", f"{here}?print=1"]
        links += [f"/index.php/{s}" for s in fonds.get(slug, [])]
        links += [f"/index.php/{slug};{s}" for s in STANDARDS if s != standard]
        title = slug + (f" [{standard}]" if standard else "")
        return page(title, records[slug], links), "text/html"

    seen = crawl_paths(handler)
    missing = [slug for slug in records if f"/index.php/{slug}" not in seen]
    assert missing == [], missing
    shown = [path for path in seen if ";" in path and "?" not in path]
    assert len(shown) <= 20, shown


def test_path_parameters_after_a_pages_name_are_a_view_of_it() -> None:
    """Not a directory's index, not another page of the directory."""
    record = normalize("http://a/index.php/a-fonds")
    assert states(normalize("http://a/index.php/a-fonds;isad"), record)
    assert views(normalize("http://a/index.php/a-fonds;isad"), record)
    assert not states(normalize("http://a/index.php/other;isad"), record)
    assert not states(normalize("http://a/docs/;x"), normalize("http://a/docs/"))
    assert waste_family(normalize("http://a/index.php/a-fonds;isad")) == "http://a/index.php/*;{s}"
    assert waste_family(normalize("http://a/index.php/a-fonds")) == "http://a/index.php/*"


def test_a_search_written_in_the_path_is_one_family_in_any_click_order() -> None:
    """A code review site lists 24 changes; each change page links the searches for
    its owner, project and branch (``/q/owner:kim``), and each result page suggests
    refining it by one term more (``/q/owner:kim+branch:stable-3.0``), in click
    order. A project's name has slashes (``project:plugins/meter``) and a branch a
    number, so the refinements fell into directories of their own (``/q/*``,
    ``/q/{v}``, ``/q/owner:kim+project:plugins/*/``), none barren: 22 refinement
    fetches here (blind11 ``gerrit``: 49). A search of two terms or more written in
    the path is one family, whatever its terms: 13; every change is still fetched."""
    owners = ["kim", "lee", "ana", "bo"]
    projects = ["core", "plugins/meter", "infra/ci"]
    branches = ["main", "stable-3.0"]
    changes = {
        n: {"owner": owners[n % 4], "project": projects[n % 3], "branch": branches[n % 2]}
        for n in range(1, 25)
    }
    rng = random.Random(22)
    words = vocabulary(rng, 400)
    subjects = {n: " ".join(rng.choices(words, k=40)) for n in changes}
    terms = [f"owner:{o}" for o in owners] + [f"project:{p}" for p in projects]
    terms += [f"branch:{b}" for b in branches]

    def handler(request: Request) -> tuple[str, str] | None:
        path = request.path
        if path == "/":
            return page("Changes", "open changes", [f"/c/{n}" for n in changes]), "text/html"
        if path.startswith("/c/") and path[3:].isdigit() and int(path[3:]) in changes:
            c = changes[int(path[3:])]
            links = ["/"] + [f"/q/{name}:{value}" for name, value in c.items()]
            return page(f"Change {path[3:]}", subjects[int(path[3:])], links), "text/html"
        if not path.startswith("/q/"):
            return None
        asked = path[3:].split("+")
        pairs = [term.partition(":") for term in asked]
        if any(term not in terms for term in asked):
            return None
        hits = [n for n, c in changes.items() if all(c[k] == v for k, _, v in pairs)]
        links = ["/"] + [f"/c/{n}" for n in hits]
        links += [f"{path}+{term}" for term in terms if term not in asked]
        prose = " ".join(random.Random(path).choices(words, k=30))  # its own words
        return page(f"Search {' '.join(asked)}", f"{len(hits)} changes {prose}", links), (
            "text/html"
        )

    seen = crawl_paths(handler)
    missing = [n for n in changes if f"/c/{n}" not in seen]
    assert missing == [], missing
    refined = [path for path in seen if path.startswith("/q/") and "+" in path]
    assert len(refined) <= 20, refined
