"""A word-named directory's own index below another, asking for an object by its id
(``/repo/commit/?id=<sha>``), is a command of the site, as a script's name is
(``product.do?id=``): its pages are a family apart from the other commands'
(``tree/?id=``). A slug's index (a blog post's ``/2024/05/hello-world/?replytocom=``)
and a wiki page's asking for a numbered version (Phriction's ``/w/first/?v=2``) name
objects and stay masked, and a top directory's (``/de/``, a store view's home) is the
site's home again. Pure;
the crawl is blind2 ``cgit``'s (traps/README.md)."""

from __future__ import annotations

from robotkit.url.normalization import normalize
from robotkit.url.waste import waste_family

REPO = "http://git.test/cgit/robo.git"
SHA = "6c3de576c2db5f218fb10901b35e171e15934691"


def test_a_word_named_directorys_index_keeps_its_name_in_its_family() -> None:
    """cgit's commands are directories (``commit/``, ``tree/``): a commit and the tree
    at it are two families, while the slugs of a blog's posts are still masked."""
    commit = waste_family(normalize(f"{REPO}/commit/?id={SHA}"))
    tree = waste_family(normalize(f"{REPO}/tree/?id={SHA}"))
    assert commit != tree
    first = waste_family(normalize("http://blog.test/2024/05/hello-world/?replytocom=5"))
    other = waste_family(normalize("http://blog.test/2024/05/other-post/?replytocom=7"))
    assert first == other
    store = waste_family(normalize("http://shop.test/de/?___store=de&___from_store=default"))
    home = waste_family(normalize("http://shop.test/?___store=de&___from_store=default"))
    assert store == home  # a top directory's index: a store view's home (blind2 magento)
    first = waste_family(normalize("http://wiki.test/w/first/?v=2"))
    other = waste_family(normalize("http://wiki.test/w/voltage/?v=2"))
    assert first == other  # a wiki's pages' versions (blind10 phabricator)
