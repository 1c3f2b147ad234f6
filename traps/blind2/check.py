"""Self-check of the blind2 sites (and, through :func:`main`'s arguments, of the
blind3 ones), in process (no servers, no crawler).

For each site: a breadth-first walk from the seeds that follows only links answered as
LEGIT (and not disallowed) must reach every declared legit page; legit texts must differ;
a naive walk (every same-host link, no robots.txt) of at most --cap requests counts trap
answers, to show the trap space grows.

    python -m traps.blind2.check [--only NAME ...] [--cap 1500]
"""

from __future__ import annotations

import argparse
import sys
from collections import deque
from collections.abc import Callable, Sequence
from urllib.parse import urlsplit

from traps.blind.kit import DISALLOWED, LEGIT, TRAP, Req, Site
from traps.blind.naive import links

from . import SITES
from .run import addresses


def _fetch(site: Site, url: str) -> tuple[str, str | None, str, str] | None:
    """Dispatch `url` to `site`; (class, page id, final url, html) or None if off-site."""
    parts = urlsplit(url)
    base = f"{parts.scheme}://{parts.netloc}"
    if base not in site.bases:
        return None
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    req = Req(site.bases.index(base), base, target, parts.path or "/", parts.query, {})
    rep = site.dispatch(req)
    if rep.status in (301, 302, 303, 307, 308):
        loc = rep.headers.get("Location", "")
        return rep.cls, rep.page, (base + loc if loc.startswith("/") else loc), ""
    body = rep.body if isinstance(rep.body, str) else ""
    return rep.cls, rep.page, url, body if "html" in rep.ctype else ""


def walk(site: Site, cap: int, legit_only: bool) -> tuple[set[str], int, int, dict[str, str]]:
    """BFS; returns (legit ids reached, trap answers, requests, text by legit id)."""
    queue = deque(site.seeds())
    seen = set(queue)
    reached: set[str] = set()
    texts: dict[str, str] = {}
    traps = reqs = 0
    while queue and reqs < cap:
        url = queue.popleft()
        got = _fetch(site, url)
        reqs += 1
        if got is None:
            continue
        cls, pid, final, body = got
        if final != url and final not in seen:
            seen.add(final)
            queue.appendleft(final)
            continue
        traps += cls == TRAP
        if legit_only and (cls != LEGIT or cls == DISALLOWED):
            continue
        if cls == LEGIT and pid:
            reached.add(pid)
            texts.setdefault(pid, body)
        netlocs = {urlsplit(b).netloc for b in site.bases}
        for link in links(final, body):
            sp = urlsplit(link)
            if link in seen or sp.netloc not in netlocs:
                continue
            if legit_only and site.disallowed(sp.path + (f"?{sp.query}" if sp.query else "")):
                continue
            seen.add(link)
            queue.append(link)
    return reached, traps, reqs, texts


def check(
    factory: type[Site], index: int, cap: int, address_fn: Callable[[int], list[str]] = addresses
) -> bool:
    """Check one site (number ``index`` of its registry, on ``address_fn``'s
    addresses); print a line; True if fine."""
    site = factory()
    hosts = address_fn(index)
    site.bases = [f"http://{hosts[k]}:8{k}" for k in range(site.hosts)]
    reached, _, reqs, texts = walk(site, 100000, True)
    missing = sorted(site.legit - reached)
    dup = len(texts) - len({t for t in texts.values()})
    site2 = factory()
    site2.bases = site.bases
    _, traps, nreq, _ = walk(site2, cap, False)
    ok = not missing and not dup and 25 <= len(site.legit) <= 80
    print(
        f"{site.name:<12} legit {len(reached)}/{len(site.legit)} (walk {reqs} reqs)"
        f"  dup-texts {dup}  naive: {traps} traps in {nreq} reqs  {'ok' if ok else 'FAIL'}"
        + (f"\n    missing: {missing[:8]}" if missing else "")
    )
    return ok


def main(
    argv: list[str] | None = None,
    sites: Sequence[type[Site]] = SITES,
    address_fn: Callable[[int], list[str]] = addresses,
    prog: str = "python -m traps.blind2.check",
) -> int:
    """Check every site of ``sites`` (or --only some)."""
    ap = argparse.ArgumentParser(prog=prog, description=__doc__)
    ap.add_argument("--only", nargs="+", default=[])
    ap.add_argument("--cap", type=int, default=1500)
    args = ap.parse_args(argv)
    ok = True
    for i, f in enumerate(sites):
        if not args.only or f.name in args.only:
            ok &= check(f, i, args.cap, address_fn)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
