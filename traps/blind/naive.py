"""A deliberately naive breadth-first crawler, used to check the trap harness.

No robots.txt, no URL normalisation beyond dropping #fragments, regex link extraction,
same host(s) as the seeds, stops at --max-pages fetches (and --max-depth if given).

    python -m traps.blind.naive SEED... [--max-pages N] [--max-depth D] [--output FILE]
"""

from __future__ import annotations

import argparse
import html
import json
import re
import sys
import time
import urllib.error
import urllib.request
from collections import deque
from urllib.parse import urldefrag, urljoin, urlsplit

HREF = re.compile(r"""href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>'"]+))""", re.I)
BASE = re.compile(r"""<base\s[^>]*href\s*=\s*["']([^"']+)["']""", re.I)


def links(page_url: str, text: str) -> list[str]:
    m = BASE.search(text)
    base = urljoin(page_url, html.unescape(m.group(1))) if m else page_url
    out = []
    for g in HREF.finditer(text):
        raw = html.unescape(next(x for x in g.groups() if x is not None)).strip()
        if not raw or raw.startswith(("javascript:", "mailto:", "#")):
            continue
        out.append(urldefrag(urljoin(base, raw))[0])
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("seeds", nargs="+")
    ap.add_argument("--max-pages", type=int, default=1000)
    ap.add_argument("--max-depth", type=int, default=None)
    ap.add_argument("--output", default=None)
    args = ap.parse_args(argv)
    hosts = {urlsplit(s).netloc for s in args.seeds}
    queue: deque[tuple[str, int]] = deque((s, 0) for s in args.seeds)
    seen = set(args.seeds)
    out = open(args.output, "w") if args.output else None  # noqa: SIM115
    fetched = 0
    while queue and fetched < args.max_pages:
        url, depth = queue.popleft()
        fetched += 1
        status: int | None = None
        body = ""
        final = url
        try:
            with urllib.request.urlopen(url, timeout=10) as resp:
                status, final = resp.status, resp.geturl()
                if "html" in resp.headers.get("Content-Type", ""):
                    body = resp.read(2_000_000).decode("utf-8", "replace")
        except urllib.error.HTTPError as e:
            status = e.code
        except (urllib.error.URLError, OSError):
            status = None
        if out:
            rec = {
                "url": url,
                "event": "fetched" if status else "failed",
                "status": status,
                "depth": depth,
                "time": time.time(),
            }
            out.write(json.dumps(rec) + "\n")
        if not body or (args.max_depth is not None and depth >= args.max_depth):
            continue
        for link in links(final, body):
            if (
                link not in seen
                and urlsplit(link).scheme in ("http", "https")
                and urlsplit(link).netloc in hosts
            ):
                seen.add(link)
                queue.append((link, depth + 1))
    if out:
        out.close()
    print(f"naive: fetched {fetched}, frontier left {len(queue)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
