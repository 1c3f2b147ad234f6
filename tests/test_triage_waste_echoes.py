"""The waste bound's "same words" (ARCHITECTURE.md, "The waste bound"): a page whose
words are an earlier page's but for those its URL echoes taught nothing, and a
query's array parameters (``sorting[price]``) are one family."""

from __future__ import annotations

import random

from robotkit.traps.base import prose
from robotkit.triage.triage import PageFacts, Triage
from robotkit.url.normalization import normalize
from robotkit.url.waste import waste_family, waste_shape

HOST = "http://127.0.0.1:8000"
FLAKE = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def _page(title: str, words: str, links: list[tuple[str, str]]) -> str:
    items = "".join(f'<li><a href="{url}">{label}</a></li>' for url, label in links)
    head = f"<head><title>{title} - town.social</title></head>"
    return f"<html>{head}<body><h1>{title}</h1><ul>{items}</ul><p>{words}</p></body></html>"


def test_a_notice_saying_an_earlier_ones_words_but_its_own_ids_tail_taught_nothing() -> None:
    # A fediverse timeline mints remote notices per response (blind12 pleroma): each
    # page is titled by its id's tail ("Post 00M7DJ") and writes one of a few texts.
    rng = random.Random(3)

    def flake() -> str:
        return "AZ" + "".join(rng.choice(FLAKE) for _ in range(16))

    triage = Triage()
    home = f"{HOST}/"
    about = [(f"{HOST}/about", "About")]
    html = _page("Home", prose("home", 60), about)
    assert triage.judge(PageFacts(home, home, 200, html, links=[about[0][0]]), set()).taught
    texts = [prose(f"notice {k}", 25) for k in range(3)]
    referer, taught = home, []
    for n in range(9):
        url = f"{HOST}/notice/{(fid := flake())}"
        obj = f"{HOST}/objects/{flake()[2:10].lower()}-{flake()[2:14].lower()}"
        links = [(f"{HOST}/notice/{flake()}", "boost 1"), (obj, "original")]
        html = _page(f"Post {fid[-6:]}", texts[n % 3], links)
        facts = PageFacts(url, url, 200, html, links=[u for u, _ in links], referer=referer)
        taught.append(triage.judge(facts, set(), lambda _: True).taught)
        referer = url
    assert taught == [True] * 3 + [False] * 6


def test_the_keys_of_an_array_parameter_are_one_family() -> None:
    # Sylius sorts a taxon by ``sorting[price]=asc``, ``sorting[name]=desc``, ...:
    # PHP reads one array ``sorting`` (blind12 sylius: a family per sort key, each
    # proven barren on its own).
    price = normalize("http://shop.test/en_GB/taxons/boots?sorting%5Bprice%5D=asc")
    name = normalize("http://shop.test/en_GB/taxons/tents?sorting[name]=desc&limit=9")
    assert waste_family(price) == waste_family(name) == "http://shop.test/en_GB/taxons/*?sorting"
    assert waste_shape(price) == "sorting"
    assert waste_shape(name) == "limit&sorting"
    plain = normalize("http://shop.test/en_GB/taxons/boots?sorting=price")
    assert waste_family(plain) == waste_family(price)
