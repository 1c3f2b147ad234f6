"""The waste bound on a photo gallery (blind10 ``coppermine``): the meta albums'
picture pages (``album=lastup&pid=7``) and the albums' own (``album=2&pid=7``) are
one family of one script and its parameters. A real loopback server; the paths are
the server's.
"""

from __future__ import annotations

import random
from urllib.parse import parse_qs, urlsplit

from werkzeug import Request

from robotkit.triage.waste import BARREN, WasteLedger
from tests.test_crawler_waste import vocabulary
from tests.test_crawler_waste_exports import crawl_paths, page
from tests.test_triage_forms import _form

META = ("lastup", "lastcom", "topn", "toprated", "lastalb", "random")
ALBUMS, PER_ALBUM = 4, 6


class Gallery:
    """Six meta albums under the home page, each showing the last album's six
    pictures in its own context; a category (linked after them) of four albums of six
    pictures each. A picture's page is the same text in every context."""

    def __init__(self, seed: int = 10) -> None:
        words = vocabulary(random.Random(seed), 400)
        rng = random.Random(seed)
        self.text = {
            pid: " ".join(rng.sample(words, 40)) for pid in range(1, ALBUMS * PER_ALBUM + 1)
        }

    @staticmethod
    def pictures(album: int) -> range:
        return range((album - 1) * PER_ALBUM + 1, album * PER_ALBUM + 1)

    def handle(self, request: Request) -> tuple[str, str] | None:
        parts = urlsplit(request.full_path)
        query = {k: v[0] for k, v in parse_qs(parts.query).items()}
        album = query.get("album", "")
        if parts.path == "/":
            links = [f"/thumbnails.php?album={m}" for m in META] + ["/index.php?cat=1"]
            return page("Gallery", "Photo gallery home.", links), "text/html"
        if parts.path == "/index.php":
            links = [f"/thumbnails.php?album={a}" for a in range(1, ALBUMS + 1)]
            return page("Category", "The albums of the category.", links), "text/html"
        if parts.path == "/thumbnails.php":
            if album in META:
                pids = self.pictures(ALBUMS)
                return page(
                    f"Meta {album}",
                    f"The {album} pictures.",
                    [f"/displayimage.php?album={album}&pid={p}" for p in pids],
                ), "text/html"
            if not album.isdigit() or not 1 <= int(album) <= ALBUMS:
                return None
            links = [f"/displayimage.php?album={album}&pid={p}" for p in self.pictures(int(album))]
            return page(f"Album {album}", f"Album {album} of the category.", links), "text/html"
        if parts.path == "/displayimage.php":
            pid = int(query.get("pid", "0"))
            if pid not in self.text:
                return None
            return page(f"Picture {pid}", self.text[pid], ["/"]), "text/html"
        return None


def test_an_albums_pictures_are_not_held_by_the_meta_albums_copies_of_them() -> None:
    """The meta albums are fetched first: their pictures, each shown in six contexts,
    are copies after the first context, and make the family ``displayimage.php?album
    &pid`` barren and the host's budget spent before the category's albums are read.
    The albums' pictures (``album={n}&pid={n}``, a number where the copies had a word)
    are the family's other form, never fetched: held with the family, they waited for
    good (the 18 pictures of the other three albums lost). Tried until its pages are
    mostly copies, the form proves itself on the first album's pictures."""
    site = Gallery()
    seen = crawl_paths(site.handle)
    # The last album's pictures were read under the meta albums' URLs first: their
    # text is the crawl's, and the albums' own URLs of them are copies by then.
    real = {
        f"/displayimage.php?album={a}&pid={p}"
        for a in range(1, ALBUMS)
        for p in Gallery.pictures(a)
    }
    assert real <= set(seen), sorted(real - set(seen))
    copies = [path for path in seen if "album=" in path and any(m in path for m in META)]
    assert len(copies) <= len(META) * PER_ALBUM, len(copies)


def test_a_form_naming_an_object_where_the_barren_forms_had_a_word_is_tried() -> None:
    ledger = WasteLedger(budget=0)
    family = "http://h/displayimage.php?album&pid"
    copy = _form("http://h/displayimage.php?album=lastup&pid=7")
    picture = _form("http://h/displayimage.php?album=2&pid=7")
    assert (copy, picture) == ("album=lastup&pid={n}", "album={n}&pid={n}")
    for n in range(BARREN):
        url = f"http://h/displayimage.php?album=lastup&pid={n}"
        ledger.fetched("h", "r", url, None, False, family, form=copy)
    assert ledger.barren(family)
    assert ledger.unvouched("c", family, form=copy)
    # Another word (another meta album) is one more view: held with its family.
    assert ledger.unvouched("t", family, form=_form("http://h/displayimage.php?album=topn&pid=7"))
    # Other parameters (a slideshow of a picture) are no object of the copies' form.
    slides = _form("http://h/displayimage.php?album=lastup&pid=7&slideshow=5000")
    assert ledger.unvouched("s", family, form=slides)
    # The pictures' form, never fetched, is not held; nor while it teaches as often as not.
    assert not ledger.unvouched("p", family, form=picture)
    for taught in (True, True, False):
        url = "http://h/displayimage.php?album=2&pid=7"
        ledger.fetched("h", "r", url, None, taught, family, form=picture)
    assert not ledger.unvouched("p", family, form=picture)
    # As many copies as pages that taught, over its last ``TRIAL * BARREN`` pages: tried
    # still (a picture shown under another album's number, ``album=4&pid=15``, is one).
    url = "http://h/displayimage.php?album=3&pid=9"
    ledger.fetched("h", "r", url, None, False, family, form=picture)
    assert not ledger.unvouched("p", family, form=picture)
    # Mostly copies: held.
    ledger.fetched("h", "r", url, None, False, family, form=picture)
    assert ledger.unvouched("p", family, form=picture)
    # Pages of other parameters in the family (a picture's full size) are no word
    # form of it: the pictures' form is tried beside them.
    again = WasteLedger(budget=0)
    for n in range(BARREN):
        url = f"http://h/displayimage.php?album=lastup&pid={n}"
        again.fetched("h", "r", url, None, False, family, form=copy)
    full = _form("http://h/displayimage.php?pid=7&fullsize=1")
    again.fetched(
        "h", "r", "http://h/displayimage.php?pid=7&fullsize=1", None, False, family, form=full
    )
    assert not again.unvouched("p", family, form=picture)
    # A form whose first page was a copy is done at once.
    other = WasteLedger(budget=0)
    for n in range(BARREN):
        url = f"http://h/displayimage.php?album=lastup&pid={n}"
        other.fetched("h", "r", url, None, False, family, form=copy)
    other.fetched(
        "h", "r", "http://h/displayimage.php?album=2&pid=7", None, False, family, form=picture
    )
    assert other.unvouched("p", family, form=picture)


class SampledGallery(Gallery):
    """The meta albums show pictures of every album, each its own sample: most
    pictures are read first under a meta album, and the album's own URL of such a
    picture is a copy of it when its turn comes."""

    def __init__(self, seed: int = 10) -> None:
        super().__init__(seed)
        rng = random.Random(seed)
        self.samples = {m: sorted(rng.sample(sorted(self.text), 5)) for m in META}
        words = vocabulary(rng, 400)
        self.about = {a: " ".join(rng.sample(words, 30)) for a in range(1, ALBUMS + 1)}

    def handle(self, request: Request) -> tuple[str, str] | None:
        parts = urlsplit(request.full_path)
        album = parse_qs(parts.query).get("album", [""])[0]
        if parts.path == "/thumbnails.php" and album in META:
            links = [f"/displayimage.php?album={album}&pid={p}" for p in self.samples[album]]
            return page(f"Meta {album}", f"The {album} pictures.", links), "text/html"
        if parts.path == "/thumbnails.php" and album.isdigit() and int(album) in self.about:
            pids = self.pictures(int(album))
            links = [f"/displayimage.php?album={album}&pid={p}" for p in pids]
            return page(f"Album {album}", self.about[int(album)], links), "text/html"
        return super().handle(request)


def test_an_albums_own_url_of_a_picture_a_meta_album_showed_first_is_the_page() -> None:
    """An album's first picture was shown first under a meta album: its own URL
    (``album=1&pid=1``), a number where the copy had a word (``album=lastup``), is
    the page and the meta album's the copy, so it does not end its form's trial; ended
    by it, the albums' other pictures waited for good (blind10 ``coppermine``: 20 of
    46 pages)."""
    site = SampledGallery()
    shown = {p for pids in site.samples.values() for p in pids}
    assert 1 in shown and len(shown) >= ALBUMS * PER_ALBUM // 2
    seen = crawl_paths(site.handle)
    real = {
        f"/displayimage.php?album={a}&pid={p}"
        for a in range(1, ALBUMS + 1)
        for p in Gallery.pictures(a)
    }
    assert real <= set(seen), sorted(real - set(seen))
