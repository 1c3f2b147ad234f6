"""The gauntlet's HTML report: one self-contained file, a table and per site a picture.

The picture is the site's link graph as the crawler met it. Legitimate pages are
dots, green when the crawler fetched them and red when it missed them, laid out in
columns by their link distance from the seeds. Trap URLs are too many to draw one by
one, so they are gathered by region (a first directory, a page's query space, or
another host): orange when the crawler fetched some (the count says how many), grey
when the site linked into the region and the crawler rightly stayed out. Lines are
the legitimate pages' links. Everything is inline (SVG and CSS, no scripts, no
external files), so the report opens anywhere and can be mailed.

The module only renders; :mod:`robotkit.traps.score` runs the crawls and gathers the
links (:attr:`~robotkit.traps.score.GauntletRun.links`).
"""

from __future__ import annotations

import html
import math
from collections import Counter, deque
from collections.abc import Sequence
from dataclasses import dataclass, field

from robotkit.traps.base import PageKind, page_key, target_of
from robotkit.traps.bench import CrawlResult
from robotkit.traps.score import GauntletRun

FETCHED = "#2e7d32"
MISSED = "#c62828"
TRAP_FETCHED = "#ef6c00"
AVOIDED = "#9e9e9e"
COLOURS = {
    FETCHED: "legitimate page fetched",
    MISSED: "legitimate page missed",
    TRAP_FETCHED: "trap region the crawler fetched from",
    AVOIDED: "trap region linked, rightly avoided",
}

MAX_PAGES_DRAWN = 60
"""Legitimate pages drawn per site (missed ones first); the rest are counted."""
MAX_REGIONS_DRAWN = 8
"""Trap regions drawn per site (the most fetched first); the rest become one."""
MAX_EDGES_DRAWN = 400
ROWS = 12
"""Dots per column before a column wraps."""
REPEATS = "(pages fetched again)"
"""The region a repeated request for a legitimate page counts in."""


def region(host: int, target: str) -> str:
    """The trap region of a URL: its first directory (``/cal/``), the query space
    of its page (``/events?``), or the page itself; other hosts are prefixed."""
    path, query = target_of(target).partition("?")[::2]
    parts = [p for p in path.split("/") if p]
    if len(parts) > 1 or (parts and path.endswith("/")):
        name = f"/{parts[0]}/"
    else:
        name = f"{path}?" if query else path
    return page_key(host, name)


@dataclass
class Graph:
    """What one site's picture shows."""

    pages: dict[str, bool] = field(default_factory=dict)
    """Legitimate page key to whether it was fetched."""
    depth: dict[str, int] = field(default_factory=dict)
    fetched: Counter[str] = field(default_factory=Counter)
    """Trap requests per region."""
    avoided: Counter[str] = field(default_factory=Counter)
    """Distinct trap URLs linked from legitimate pages and not fetched, per region."""
    edges: set[tuple[str, str]] = field(default_factory=set)
    """(page key, page key or ``region:`` name)."""


def graph_of(run: GauntletRun) -> Graph:
    site, score = run.site, run.result.score
    missing = set(score.missing)
    graph = Graph(pages={key: key not in missing for key in sorted(site.legitimate_keys)})
    seen_traps: set[tuple[int, str]] = set()
    found: set[str] = set()
    for request in run.running.requests_seen:
        page = site.classify(request.target, request.host)
        if page.kind is PageKind.TRAP:
            graph.fetched[region(request.host, request.target)] += 1
            seen_traps.add((request.host, target_of(request.target)))
        elif page.kind is PageKind.LEGITIMATE:
            if page.key in found:
                graph.fetched[REPEATS] += 1
            found.add(page.key)
    linked: set[tuple[int, str]] = set()
    for (host, target), links in run.links.items():
        source = site.classify(target, host).key
        for to_host, to_target in links:
            page = site.classify(to_target, to_host)
            if page.kind is PageKind.LEGITIMATE:
                graph.edges.add((source, page.key))
            elif page.kind is PageKind.TRAP:
                graph.edges.add((source, "region:" + region(to_host, to_target)))
                if (to_host, to_target) not in seen_traps:
                    linked.add((to_host, to_target))
    graph.avoided.update(region(h, t) for h, t in linked)
    graph.depth = _depths(graph, [page_key(h, t) for h, t in site.seed_paths])
    return graph


def _depths(graph: Graph, seeds: Sequence[str]) -> dict[str, int]:
    """Link distance of each legitimate page from the seeds; unreached pages go
    one column past the deepest."""
    out: dict[str, list[str]] = {}
    for a, b in sorted(graph.edges):
        if not b.startswith("region:"):
            out.setdefault(a, []).append(b)
    depth = {s: 0 for s in seeds if s in graph.pages}
    queue = deque(depth)
    while queue:
        key = queue.popleft()
        for nxt in out.get(key, []):
            if nxt not in depth:
                depth[nxt] = depth[key] + 1
                queue.append(nxt)
    last = max(depth.values(), default=-1) + 1
    return {key: depth.get(key, last) for key in graph.pages}


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def svg(graph: Graph, label: str) -> str:
    """The picture: an inline ``<svg>`` that is also well-formed XML."""
    order = sorted(graph.pages, key=lambda k: (graph.pages[k], graph.depth[k], k))
    drawn = sorted(order[:MAX_PAGES_DRAWN], key=lambda k: (graph.depth[k], k))
    hidden = len(order) - len(drawn)
    fetched, avoided = Counter(graph.fetched), Counter(graph.avoided)
    regions = sorted(set(fetched) | set(avoided), key=lambda r: (-fetched[r], r))
    if len(regions) > MAX_REGIONS_DRAWN:
        rest = regions[MAX_REGIONS_DRAWN - 1 :]
        regions = [*regions[: MAX_REGIONS_DRAWN - 1], "(other regions)"]
        fetched["(other regions)"] = sum(fetched[r] for r in rest)
        avoided["(other regions)"] = sum(avoided[r] for r in rest)
    where: dict[str, tuple[float, float]] = {}
    x = 20.0
    for depth in sorted({graph.depth[k] for k in drawn}):
        column = [k for k in drawn if graph.depth[k] == depth]
        for index, key in enumerate(column):
            where[key] = (x + 18 * (index // ROWS), 24 + 18 * (index % ROWS))
        x += 18 * ((len(column) - 1) // ROWS) + 60
    trap_x = x + 30
    for index, name in enumerate(regions):
        where["region:" + name] = (trap_x, 24 + 30 * index)
    rows = max((y for key, (_, y) in where.items() if key in graph.pages), default=0)
    height = 40 + max(rows, 30 * len(regions))
    width = trap_x + 260
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height}" '
        f'viewBox="0 0 {width:.0f} {height}" role="img" aria-label="{_e(label)}">',
        f"<title>{_e(label)}</title>",
    ]
    edges = [(a, b) for a, b in sorted(graph.edges) if a in where and b in where]
    for a, b in edges[:MAX_EDGES_DRAWN]:
        (x1, y1), (x2, y2) = where[a], where[b]
        parts.append(
            f'<line x1="{x1:.0f}" y1="{y1:.0f}" x2="{x2:.0f}" y2="{y2:.0f}" '
            'stroke="#c8c8c8" stroke-width="0.8"/>'
        )
    for key in drawn:
        cx, cy = where[key]
        colour = FETCHED if graph.pages[key] else MISSED
        state = "fetched" if graph.pages[key] else "missed"
        parts.append(
            f'<circle cx="{cx:.0f}" cy="{cy:.0f}" r="6" fill="{colour}">'
            f"<title>{_e(key)} ({state})</title></circle>"
        )
    for name in regions:
        cx, cy = where["region:" + name]
        count, left = fetched[name], avoided[name]
        colour = TRAP_FETCHED if count else AVOIDED
        radius = 7 + 3 * math.log10(1 + count)
        text = f"{name}: {count} fetched" + (f", {left} avoided" if left else "")
        parts.append(
            f'<circle cx="{cx:.0f}" cy="{cy:.0f}" r="{radius:.1f}" fill="{colour}">'
            f"<title>{_e(text)}</title></circle>"
            f'<text x="{cx + 16:.0f}" y="{cy + 4:.0f}" font-size="11" '
            f'font-family="sans-serif">{_e(text)}</text>'
        )
    if hidden:
        parts.append(
            f'<text x="20" y="{height - 8}" font-size="11" font-family="sans-serif">'
            f"+ {hidden} more legitimate pages, all fetched</text>"
        )
    parts.append("</svg>")
    return "".join(parts)


_STYLE = """
body { font-family: sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; }
th, td { border: 1px solid #ccc; padding: 2px 8px; text-align: right; }
td:first-child, th:first-child { text-align: left; }
.fail { color: #c62828; } .pass { color: #2e7d32; }
section { margin-top: 2em; } svg { display: block; border: 1px solid #eee; }
.key span { display: inline-block; width: 12px; height: 12px; border-radius: 6px; }
"""


def ended_text(result: CrawlResult) -> str:
    """How a crawl ended, for a table: done, budget, killed at the limit, or error;
    with the command's exit status."""
    if result.ended == "cut":
        return f"killed at {result.cut:g} s"
    code = "" if result.exit_code is None else f", exit {result.exit_code}"
    return f"{result.ended}{code}"


def render(runs: Sequence[GauntletRun], command: str) -> str:
    """The whole report as one HTML5 document."""
    passed = sum(run.result.passed for run in runs)
    rows = []
    sections = []
    for run in runs:
        result, score = run.result, run.result.score
        verdict = "pass" if result.passed else "fail"
        anchor = f"site-{_e(run.name)}"
        rows.append(
            f'<tr><td><a href="#{anchor}">{_e(run.name)}</a></td>'
            f"<td>{score.legit_found}/{score.legit_total}</td><td>{score.trap_fetched}</td>"
            f"<td>{len(score.robots_violations)}</td><td>{_e(ended_text(result))}</td>"
            f'<td>{result.seconds:.1f}</td><td class="{verdict}">{verdict}</td></tr>'
        )
        why = "".join(f"<li>{_e(line)}</li>" for line in run.failures())
        picture = svg(graph_of(run), f"{run.name}: link graph as the crawler met it")
        sections.append(
            f'<section id="{anchor}"><h2>{_e(run.name)} '
            f'<span class="{verdict}">{verdict}</span></h2>'
            f"<p>{_e(run.site.summary)}</p>"
            + (f"<ul>{why}</ul>" if why else "")
            + picture
            + "</section>"
        )
    key = " ".join(f'<span style="background:{c}"></span> {_e(t)}' for c, t in COLOURS.items())
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>Trap gauntlet: {passed}/{len(runs)} passed</title><style>{_STYLE}</style>"
        f"</head><body><h1>Trap gauntlet: {passed}/{len(runs)} sites passed</h1>"
        f"<p>Crawler: <code>{_e(command)}</code></p>"
        "<table><thead><tr><th>site</th><th>legitimate found</th><th>trap fetches</th>"
        "<th>robots violations</th><th>how it ended</th><th>seconds</th><th>verdict</th>"
        f"</tr></thead><tbody>{''.join(rows)}</tbody></table>"
        f'<p class="key">{key}</p>{"".join(sections)}</body></html>\n'
    )
