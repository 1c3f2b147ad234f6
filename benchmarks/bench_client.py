"""What the polite transport costs per request, against a bare ``httpx.Client``.

One local server (pytest-httpserver, keep-alive, in a process of its own so it does
not compete with the client for the interpreter lock) answers small HTML pages. The
same process then fetches N pages with a bare ``httpx.Client`` and N with
``PoliteClient`` (robots.txt, the trap guard, pacing with no delay, identity headers,
body cap, deadline, meta robots and links read), alternating rounds so that both
meet the same machine load. Reports the best round of each, in wall time and in
the client process's CPU time (all its threads), and their ratios: the figures to
compare before and after a change to the shell, as the absolute times depend on
the machine. On a loaded machine the CPU ratio is the steadier one.

Run: ``.venv/bin/python benchmarks/bench_client.py`` (about 20 s).
"""

from __future__ import annotations

import argparse
import logging
import multiprocessing
import time
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Event

import httpx
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response
from werkzeug.serving import WSGIRequestHandler

from robotkit.base.identity import Identity
from robotkit.http.client import PoliteClient

PAGE = "<html><head><title>p</title></head><body>" + '<a href="/a">a</a> ' * 20 + "</body></html>"


def serve(url: Queue[str], stop: Event) -> None:
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    WSGIRequestHandler.protocol_version = "HTTP/1.1"
    server = HTTPServer(host="127.0.0.1", port=0)
    server.start()

    def handler(request: Request) -> Response:
        if request.path == "/robots.txt":
            return Response("User-agent: *\nDisallow: /private\n", content_type="text/plain")
        return Response(PAGE, content_type="text/html")

    server.expect_request("").respond_with_handler(handler)
    url.put(server.url_for("/"))
    stop.wait()
    server.stop()


def timed(client: httpx.Client, root: str, count: int) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process) for ``count`` GETs."""
    began, cpu = time.perf_counter(), time.process_time()
    for n in range(count):
        client.get(f"{root}p{n}").raise_for_status()
    return time.perf_counter() - began, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    context = multiprocessing.get_context("spawn")
    urls: Queue[str] = context.Queue()
    stop = context.Event()
    server = context.Process(target=serve, args=(urls, stop))
    server.start()
    try:
        root = urls.get(timeout=60)
        identity = Identity.build("robotkit-bench", "1.0", "https://example.org/bot")
        bare_times: list[tuple[float, float]] = []
        polite_times: list[tuple[float, float]] = []
        with (
            httpx.Client() as bare,
            PoliteClient(identity, delay=0.0, allow_private=True) as polite,
        ):
            timed(bare, root, 50)  # warm up: connections, imports, robots.txt
            timed(polite, root, 50)
            for _ in range(args.rounds):
                bare_times.append(timed(bare, root, args.requests))
                polite_times.append(timed(polite, root, args.requests))
    finally:
        stop.set()
        server.join(timeout=30)
    n = args.requests
    best = {
        name: (min(t[0] for t in times), min(t[1] for t in times))
        for name, times in (("httpx.Client", bare_times), ("PoliteClient", polite_times))
    }
    print(f"{n} requests to one local server, best of {args.rounds} rounds")
    print(f"{'client':<16}{'wall s':>8}{'req/s':>8}{'CPU s':>8}{'CPU us/req':>12}")
    for name, (wall, cpu) in best.items():
        print(f"{name:<16}{wall:>8.2f}{n / wall:>8.0f}{cpu:>8.2f}{cpu / n * 1e6:>12.0f}")
    (bare_wall, bare_cpu), (polite_wall, polite_cpu) = best.values()
    print(f"ratio PoliteClient / httpx.Client: wall {polite_wall / bare_wall:.2f}", end="")
    print(f", CPU {polite_cpu / bare_cpu:.2f}")


if __name__ == "__main__":
    main()
