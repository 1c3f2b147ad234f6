"""Render a gauntlet HTML report in headless Chromium and check the pictures show.

    python traps/check_report_render.py REPORT.html

CI runs this after ``robotkit traps score --html REPORT.html``: the test suite checks
the report's structure (HTML5, one well-formed SVG per site); this checks that a
real browser draws it. The report is rendered twice, as written and with its SVG
pictures taken out, and the pictures must add pixels of the colours for fetched
legitimate pages and for trap regions (the colour key alone has a few of each).
The screenshot's PNG is read with the standard library only. Exit 0 when the
pictures show, 1 when they do not, 2 when Chromium is missing or fails.
"""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib
from collections import Counter
from pathlib import Path

from robotkit.traps.report import FETCHED, TRAP_FETCHED

BROWSERS = ("chromium", "chromium-browser")
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--window-size=1000,1400",
)
"""Headless, as root, on a machine with no network: without the background flags
Chromium keeps trying to reach Google's hosts."""
MIN_PIXELS = 200
"""Pixels of a colour the pictures must add over the page without them."""
TOLERANCE = 12
"""How far (per channel) a pixel may be from a colour and still count (anti-aliasing)."""


def rgb(colour: str) -> tuple[int, int, int]:
    value = int(colour.lstrip("#"), 16)
    return value >> 16, (value >> 8) & 0xFF, value & 0xFF


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def pixels(png: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and the unfiltered rows of an 8-bit RGB or RGBA PNG
    (the PNG specification, section 9: filters)."""
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG file")
    pos, data, header = 8, b"", b""
    while pos < len(png):
        (length,) = struct.unpack(">I", png[pos : pos + 4])
        kind, body = png[pos + 4 : pos + 8], png[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            data += body
        pos += 12 + length
    width, height, depth, colour_type, _, _, interlace = struct.unpack(">IIBBBBB", header)
    if depth != 8 or colour_type not in (2, 6) or interlace:
        raise ValueError(f"unsupported PNG: depth {depth}, colour type {colour_type}")
    step = 3 if colour_type == 2 else 4
    raw = zlib.decompress(data)
    stride = width * step
    rows: list[bytes] = []
    previous = bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        if kind == 1:
            for i in range(step, stride):
                line[i] = (line[i] + line[i - step]) & 0xFF
        elif kind == 2:
            line = bytearray((x + p) & 0xFF for x, p in zip(line, previous, strict=True))
        elif kind == 3:
            for i in range(stride):
                left = line[i - step] if i >= step else 0
                line[i] = (line[i] + ((left + previous[i]) >> 1)) & 0xFF
        elif kind == 4:
            for i in range(stride):
                left = line[i - step] if i >= step else 0
                up_left = previous[i - step] if i >= step else 0
                line[i] = (line[i] + _paeth(left, previous[i], up_left)) & 0xFF
        rows.append(bytes(line if step == 3 else _drop_alpha(line)))
        previous = line
    return width, height, rows


def _drop_alpha(line: bytearray) -> bytes:
    return bytes(b for i, b in enumerate(line) if i % 4 != 3)


def count_colours(png: bytes, colours: list[str]) -> Counter[str]:
    """How many pixels are within :data:`TOLERANCE` of each colour."""
    _, _, rows = pixels(png)
    wanted = {colour: rgb(colour) for colour in colours}
    seen: Counter[tuple[int, int, int]] = Counter()
    for row in rows:
        seen.update(zip(row[0::3], row[1::3], row[2::3], strict=True))
    found: Counter[str] = Counter()
    for (r, g, b), n in seen.items():
        for name, (cr, cg, cb) in wanted.items():
            if max(abs(r - cr), abs(g - cg), abs(b - cb)) <= TOLERANCE:
                found[name] += n
    return found


def screenshot(browser: str, page: Path, out: Path, profile: Path) -> bytes:
    command = [browser, *FLAGS, f"--user-data-dir={profile}", f"--screenshot={out}"]
    subprocess.run([*command, page.as_uri()], capture_output=True, timeout=120, check=True)
    return out.read_bytes()


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    report = Path(argv[0]).resolve()
    browser = next((b for b in map(shutil.which, BROWSERS) if b), None)
    if browser is None:
        print("no chromium on PATH (apt-get install chromium)", file=sys.stderr)
        return 2
    html = report.read_text(encoding="utf-8")
    bare = re.sub(r"<svg\b.*?</svg>", "", html, flags=re.S)
    colours = [FETCHED, TRAP_FETCHED]
    with tempfile.TemporaryDirectory(prefix="gauntlet-render-") as tmp:
        work = Path(tmp)
        (work / "bare.html").write_text(bare, encoding="utf-8")
        try:
            full = screenshot(browser, report, work / "full.png", work / "profile")
            without = screenshot(browser, work / "bare.html", work / "bare.png", work / "profile")
        except (subprocess.SubprocessError, OSError) as exc:
            print(f"chromium failed: {exc}", file=sys.stderr)
            return 2
    with_pictures, alone = count_colours(full, colours), count_colours(without, colours)
    ok = True
    for colour in colours:
        added = with_pictures[colour] - alone[colour]
        print(f"{colour}: {with_pictures[colour]} pixels, {added} from the pictures")
        ok = ok and added >= MIN_PIXELS
    print("pictures rendered" if ok else "pictures missing from the rendered report")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
