"""Where one family's proof of barrenness serves another (ARCHITECTURE.md, "The waste
bound"; :mod:`robotkit.triage.kinship`): the ledger's rules, pure. The end of a crawl
with a URL they hold is tested with the other held URLs
(``tests/test_triage_waste_vouching.py``).
"""

from __future__ import annotations

from robotkit.triage.waste import BARREN, WasteLedger
from robotkit.url.normalization import normalize
from robotkit.url.template import query_form
from robotkit.url.waste import waste_family, waste_shape


def _fetch(ledger: WasteLedger, url: str, taught: bool = False) -> None:
    norm = normalize(url)
    family, shape, form = waste_family(norm), waste_shape(norm), query_form(norm)
    ledger.fetched("h", "r", url, url, taught, family, shape=shape, form=form)


def _barren(ledger: WasteLedger, url: str) -> bool:
    norm = normalize(url)
    return ledger.barren(waste_family(norm), waste_shape(norm))


def _held(ledger: WasteLedger, url: str) -> bool:
    norm = normalize(url)
    family, shape, form = waste_family(norm), waste_shape(norm), query_form(norm)
    return ledger.unvouched(url, family, shape, form)


def test_a_switch_barren_in_three_directories_is_held_in_a_fourth_before_its_first_page() -> None:
    """A language switch proven barren in one directory and again in two more is
    held in every other directory of its origin without a fetch there; in two
    directories only, the next one's first page is still fetched as evidence. A
    parameter naming objects is never held so: a commit is no tree at a commit."""
    ledger = WasteLedger()
    for n in range(BARREN):
        _fetch(ledger, f"http://h/a?lang=l{n}")
    _fetch(ledger, "http://h/r/b/x?lang=en")
    assert _barren(ledger, "http://h/r/b/x?lang=de")
    assert not _held(ledger, "http://h/r/c/y?lang=en")
    _fetch(ledger, "http://h/r/c/y?lang=en")
    assert _held(ledger, "http://h/r/e/z?lang=en")
    assert not _held(ledger, "http://h/r/e/z?page=next")  # other parameters
    assert not _held(ledger, "http://g/r/e/z?lang=en")  # another origin
    for where in ("tree/?id=", "tree/docs/?id=", "tree/docs/api/?id="):
        for n in range(BARREN):
            _fetch(ledger, f"http://h/git/{where}{n}a{n}")
    assert not _held(ledger, "http://h/git/log/x/?id=9a9")


def test_the_kinship_survives_a_snapshot() -> None:
    ledger = WasteLedger()
    for where in ("/a", "/r/b/x", "/r/c/y"):
        for lang in ("de", "fr", "it"):
            _fetch(ledger, f"http://h{where}?lang={lang}")
    again = WasteLedger()
    again.restore(ledger.snapshot())
    assert _held(again, "http://h/r/e/z?lang=fr")


def test_a_view_under_objects_masked_above_it_is_of_its_kind() -> None:
    """A wiki page's revision changes (``/books/*/page/*/revisions/*/changes``, its
    book and page masked as objects: blind10 ``bookstack``) name one view of every
    revision, as ``/@a/*/embed`` does: proven barren there, the first page of the
    view that teaches nothing under another directory (a shelf's revisions) makes
    its family barren too. Read at its first masked object (``/*/page``), the family
    was of no kind, and every directory proved the view again."""
    ledger = WasteLedger()
    for n in range(BARREN):
        _fetch(ledger, f"http://h/books/and-much/page/then-manuscript/revisions/{n}/changes")
    assert _barren(ledger, "http://h/books/as-time/page/so-far/revisions/1/changes")
    shelf = "http://h/shelves/old-tales/revisions/{n}/changes"
    assert not _barren(ledger, shelf.format(n=1))
    _fetch(ledger, shelf.format(n=1))
    assert _barren(ledger, shelf.format(n=2))


def test_another_view_of_the_objects_a_barren_view_filled_is_proven_by_one_page() -> None:
    """A catalogue links each record's views (``/Record/7/Holdings``, ``/TOC``,
    ``/Cite``): one of them proven barren by a full run, another view of the same
    object slot is barren after its first page that taught nothing, not three
    (blind9 ``vufind``). A first page that teaches leaves it alive (a record's real
    change page beside its empty history, blind3 ``django``), and so does a view
    under another slot or a slot none of whose views was barren by a full run."""
    ledger = WasteLedger()
    for n in range(BARREN):
        _fetch(ledger, f"http://h/Record/{n}/Holdings")
    assert _barren(ledger, "http://h/Record/9/Holdings")
    _fetch(ledger, "http://h/Record/1/TOC")
    assert _barren(ledger, "http://h/Record/9/TOC")
    _fetch(ledger, "http://h/Record/1/change", taught=True)
    assert not _barren(ledger, "http://h/Record/9/change")
    _fetch(ledger, "http://h/Author/1/Works")  # another slot
    assert not _barren(ledger, "http://h/Author/9/Works")
    _fetch(ledger, "http://h/Author/1/TOC")  # the same view: its kin (above)
    _fetch(ledger, "http://h/Author/2/Bio")  # a re-check alone proves no slot
    assert not _barren(ledger, "http://h/Author/9/Bio")


def test_a_selector_view_barren_in_one_directory_is_proven_by_one_page_in_another() -> None:
    """The tag filters and print form of every page (``en.tag-a.html``,
    ``en/products.print.html``) are one kind whatever the directory: proven barren
    in one, another directory's first selector page that taught nothing makes its
    family barren (blind5 ``aem``). The pages themselves are of another family."""
    ledger = WasteLedger()
    for tag in ("a", "b", "c"):
        _fetch(ledger, f"http://h/content/acme/en.tag-{tag}.html")
    assert _barren(ledger, "http://h/content/acme/en.tag-d.html")
    assert not _barren(ledger, "http://h/content/acme/en/products.tag-a.html")
    _fetch(ledger, "http://h/content/acme/en/products.tag-a.html")
    assert _barren(ledger, "http://h/content/acme/en/products.print.html")
    assert not _barren(ledger, "http://h/content/acme/en/products.html")


def test_a_host_that_made_traps_of_two_parameters_proves_the_next_by_fewer_pages() -> None:
    """A shop's list links a sort, a page size, a view mode and a currency switch,
    each parameter a family of its own (blind2 ``magento``): once two of them were
    proven barren by full runs, the next query family of the host none of whose
    pages taught is barren after its first page that taught nothing when its forms
    are of words alone (``?dir=asc``), after two when one names objects (a file's
    revisions, the first its head: blind5 ``opengrok``), not three. Not a family
    one page of which taught (the list's real pages, ``?p=2``), nor a family without
    a query (a folder's real children beside the chrome's copies, blind3
    ``plone``), nor another host; and it survives a snapshot."""
    ledger = WasteLedger()
    for name in ("limit", "mode"):
        _fetch(ledger, f"http://h/gear?{name}=1")
        assert not _barren(ledger, f"http://h/gear?{name}=2")
        for n in range(2, BARREN + 1):
            _fetch(ledger, f"http://h/gear?{name}={n}")
    _fetch(ledger, "http://h/gear?dir=asc")
    assert _barren(ledger, "http://h/gear?dir=desc")
    _fetch(ledger, "http://h/src/ring.c?r=06f74efc")
    assert not _barren(ledger, "http://h/src/ring.c?r=0dd5c8b5")
    _fetch(ledger, "http://h/src/wire.c?r=26977eee")
    assert _barren(ledger, "http://h/src/ring.c?r=0dd5c8b5")
    _fetch(ledger, "http://h/gear?p=2", taught=True)
    _fetch(ledger, "http://h/gear?p=9")
    assert not _barren(ledger, "http://h/gear?p=3")
    _fetch(ledger, "http://h/gear/bags/strap")
    assert not _barren(ledger, "http://h/gear/bags/belt")
    _fetch(ledger, "http://g/gear?dir=asc")
    assert not _barren(ledger, "http://g/gear?dir=desc")
    again = WasteLedger()
    again.restore(ledger.snapshot())
    _fetch(again, "http://h/gear?order=price")
    assert _barren(again, "http://h/gear?order=name")
