"""Normalization throughput: robotkit against w3lib's ``canonicalize_url`` and
url-normalize's ``url_normalize``, on the same 50,000 distinct URLs, in one process.

The URLs are generated deterministically (seeded RNG): mixed hosts in mixed case, some
internationalized, some with ports; paths with dot segments and percent-encodings;
queries with tracking parameters, session ids and unsorted names; fragments. Each
function runs over the whole list ``--repeat`` times and the best run counts.

    .venv/bin/python benchmarks/bench_normalize.py [--count 50000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from url_normalize import url_normalize
from w3lib.url import canonicalize_url

from robotkit.url.normalization import normalize, normalize_key

WORDS = [
    "news",
    "products",
    "blog",
    "article",
    "category",
    "item",
    "shop",
    "cart",
    "search",
    "about",
    "help",
    "docs",
    "api",
    "user",
    "profile",
    "images",
    "static",
    "2024",
    "01",
    "15",
    "index",
    "page",
    "archive",
    "tag",
    "forum",
    "thread",
    "post",
    "view",
]
PARAMS = [
    "id",
    "page",
    "q",
    "sort",
    "lang",
    "ref",
    "category",
    "size",
    "color",
    "offset",
    "limit",
    "view",
    "p",
    "s",
]
TRACKING = ["utm_source", "utm_medium", "utm_campaign", "fbclid", "gclid", "msclkid", "_ga"]
SESSION = ["jsessionid", "PHPSESSID", "sid", "sessionid"]
TLDS = ["com", "org", "net", "de", "co.uk", "io", "fr"]
IDNA_HOSTS = ["bücher.de", "münchen.example", "例え.jp", "пример.рф", "café.fr"]


def make_urls(count: int, seed: int = 4) -> list[str]:
    rng = random.Random(seed)
    hosts = [
        f"{rng.choice(['www.', '', 'shop.', 'm.'])}site{i}.{rng.choice(TLDS)}" for i in range(400)
    ]
    urls: set[str] = set()
    while len(urls) < count:
        roll = rng.random()
        host = rng.choice(IDNA_HOSTS) if roll < 0.05 else rng.choice(hosts)
        if rng.random() < 0.2:
            host = host.upper() if rng.random() < 0.5 else host.title()
        scheme = "https" if rng.random() < 0.7 else "http"
        if rng.random() < 0.1:
            scheme = scheme.upper()
        port = rng.choice(["", "", "", "", ":443" if scheme.lower() == "https" else ":80", ":8080"])
        segments = [rng.choice(WORDS) for _ in range(rng.randint(0, 5))]
        if segments and rng.random() < 0.1:
            segments.insert(rng.randrange(len(segments)), rng.choice([".", ".."]))
        if segments and rng.random() < 0.15:
            segments[-1] += rng.choice(["%7euser", "%20x", "%c3%a9t%c3%a9", "caf\u00e9", "a%2fb"])
        if segments and rng.random() < 0.3:
            segments[-1] += rng.choice([".html", ".php", ".aspx"])
        path = "/" + "/".join(segments)
        if rng.random() < 0.03:
            path += f";jsessionid={rng.getrandbits(64):016X}"
        params = [f"{rng.choice(PARAMS)}={rng.randint(0, 999)}" for _ in range(rng.randint(0, 4))]
        if rng.random() < 0.25:
            params += [
                f"{name}={rng.choice(WORDS)}" for name in rng.sample(TRACKING, rng.randint(1, 3))
            ]
        if rng.random() < 0.05:
            params.append(f"{rng.choice(SESSION)}={rng.getrandbits(64):x}")
        rng.shuffle(params)
        url = f"{scheme}://{host}{port}{path}"
        if params:
            url += "?" + "&".join(params)
        if rng.random() < 0.1:
            url += "#" + rng.choice(["top", "comments", "!/app/view", "section-2"])
        urls.add(url)
    return sorted(urls, key=lambda _: rng.random())


def measure(
    contenders: list[tuple[str, Callable[[str], object]]], urls: list[str], repeat: int
) -> list[tuple[str, float, int]]:
    """Best time of each contender over ``repeat`` rounds; rounds interleave the
    contenders so that load from other processes hits them alike."""
    best = {name: float("inf") for name, _ in contenders}
    distinct = {}
    for _ in range(repeat):
        for name, fn in contenders:
            start = time.perf_counter()
            results = [fn(u) for u in urls]
            best[name] = min(best[name], time.perf_counter() - start)
            distinct[name] = len(set(results))
    return [(name, len(urls) / best[name], distinct[name]) for name, _ in contenders]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    urls = make_urls(args.count)
    contenders: list[tuple[str, Callable[[str], object]]] = [
        ("w3lib canonicalize_url", canonicalize_url),
        ("url_normalize", url_normalize),
        ("robotkit normalize_key", normalize_key),
        ("robotkit normalize", lambda u: normalize(u).key),
    ]
    rows = measure(contenders, urls, args.repeat)
    w3lib_rate = rows[0][1]
    print(f"{len(urls):,} distinct URLs, best of {args.repeat}")
    print(f"{'normalizer':<26}{'URLs/s':>12}{'vs w3lib':>10}{'distinct keys':>15}")
    for name, rate, distinct in rows:
        print(f"{name:<26}{rate:>12,.0f}{rate / w3lib_rate:>9.2f}x{distinct:>15,}")


if __name__ == "__main__":
    main()
