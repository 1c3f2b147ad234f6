"""What a fetched page adds that the crawl has not seen: the triage's measures of news.

Three measures, each with the memory it needs (all of it saved with the crawl's
state, so a resumed crawl judges as an uninterrupted one would):

- *likeness*: a page within ``similar_distance`` SimHash bits of the page that
  linked it, or of a recent page of its URL template, adds little (a re-sorted
  list, the next empty month);
- *new words*: how many of a page's words its region (or its origin) never showed;
  a page is news with ``min_new_words`` of them and a tenth of its own, or with
  ``min_own_words`` however long it is (a product or a post drawn by a long
  template has a name and a few terms of its own);
- *new passages*: whether a page has ``min_passage`` runs of ``passage_words``
  words in a row that its region never showed: a new sentence is news even in the
  words the site always uses (a forum's posts, a listing's README), where known
  items re-sorted or filtered make new runs only where two items meet;
- *retelling*: a query family asking at a number for a named object whose page
  was fetched, whose last ``RETOLD`` pages were each news by a passage alone (no
  word new to its region, no list), writes a passage for every number, and its next
  such members are no news (:meth:`PageNews.retells`);
- *link-farm shape*: a page that links many hosts its origin never linked before
  while saying almost nothing new.

ARCHITECTURE.md's trap policy table gives the reason for each limit.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl

from robotkit.base.snapshot import listed, pairs, typed
from robotkit.content import hamming, passage_shingles
from robotkit.triage.regions import LIST_ITEMS
from robotkit.triage.screening import waste_of
from robotkit.url.normalization import NormalizedURL
from robotkit.url.template import url_template
from robotkit.url.views import views

if TYPE_CHECKING:
    from robotkit.triage.screening import TriageConfig

__all__ = ["RETOLD", "PageNews"]

RETOLD = 3
"""Members of a query family in a row that were news by a passage alone, before its
next such members are no news (as many as ``BARREN`` pages make a family barren)."""


class PageNews:
    """The memory behind the measures above, and the measures."""

    def __init__(self, config: TriageConfig) -> None:
        self.config = config
        self.simhashes: dict[str, int] = {}
        self.recent: dict[str, deque[int]] = {}
        self.linked_hosts: dict[str, set[str]] = {}
        self.vocabulary: dict[str, set[str]] = {}
        self.passages: dict[str, set[int]] = {}
        self.retold: dict[str, int] = {}
        self.objects: set[str] = set()

    def like_others(self, url: str, referer: str | None, simhash: int) -> bool:
        """A page within ``similar_distance`` bits of the page that linked it, or of
        a recent page of its URL template: its links are demoted, never dropped.
        The page is remembered for the pages it links."""
        limit = self.config.similar_distance
        like = self.like_referer(referer, simhash)
        template = url_template(url)
        if template is not None:
            recent = self.recent.get(template)
            if recent is None:
                recent = self.recent[template] = deque(maxlen=self.config.template_window)
            like = like or any(hamming(simhash, old) <= limit for old in recent)
            recent.append(simhash)
        return like

    def like_referer(self, referer: str | None, simhash: int) -> bool:
        """Whether a page is within ``similar_distance`` bits of the page that linked it."""
        other = self.simhashes.get(referer) if referer is not None else None
        return other is not None and hamming(other, simhash) <= self.config.similar_distance

    def viewed(
        self, norm: NormalizedURL, of: NormalizedURL | None, referer: str | None, simhash: int
    ) -> bool:
        """Whether a page is a view of the page that linked it (``of``, fetched as
        ``referer``): like it, and the same resource with more
        (:func:`~robotkit.url.views.views`: ``/src/f/annotate`` of ``/src/f``,
        ``en.print.html`` of ``en.html``). Its annotations, comparisons and print forms
        under every page say nothing of the page, as its siblings of one template
        would; a translation or another version of a page, under another directory, is
        no view of it (blind3 ``rtd``)."""
        return views(norm, of) and self.like_referer(referer, simhash)

    def remember(self, url: str, simhash: int) -> None:
        """The fingerprint of a fetched page, for the pages it links."""
        self.simhashes[url] = simhash

    def new_words(self, scope: str, words: set[str]) -> int:
        """How many of ``words`` were never seen in ``scope`` (a region or an
        origin), remembering them."""
        vocabulary = self.vocabulary.setdefault(scope, set())
        new_words = words - vocabulary
        if len(vocabulary) < self.config.max_vocabulary:
            vocabulary.update(new_words)
        return len(new_words)

    def new_passage(self, region: str, prose: Sequence[str]) -> bool:
        """Whether a page's text outside its links holds ``min_passage`` runs of
        ``passage_words`` in a row that ``region`` never showed, remembering them.
        Makes a page novel in a region of documents (a path) only: in a query space,
        a program's view of its parameters, a page may write text made up for its
        query (a search's babble), so there new words are asked for. There a new
        passage still keeps a page that taught only by SimHash vouching (a product in
        its shop's words, blind8 ``opencart``; ARCHITECTURE.md, "The waste bound")."""
        if not prose:
            return False
        shingles = passage_shingles(prose, self.config.passage_words)
        known = self.passages.setdefault(region, set())
        run = longest = 0
        for shingle in shingles:
            run = run + 1 if shingle not in known else 0
            longest = max(longest, run)
        if len(known) < self.config.max_vocabulary:
            known.update(shingles)
        return longest >= self.config.min_passage

    def retells(self, asked: NormalizedURL, passage: bool, new: int, fresh: int) -> bool:
        """Whether a page news by a ``passage`` alone (no ``new`` word of its region, not
        a list of ``fresh`` URLs of its own) comes after ``RETOLD`` such pages of its query
        family in a row, one asking at a number for a named object whose page (its
        query without the numbers) was fetched: the family writes prose for every
        number (a repository browser's file at every revision, WebSVN's
        ``filedetails.php?path=…&rev=N&peg=N`` of ``filedetails.php?path=…``), and a
        passage there tells nothing of the site. Not a family of named objects alone
        (``filedetails.php?path=/trunk/README``), whose thin pages are each a file, nor
        of numbered ones (phpBB's ``viewtopic.php?f=1&t=101``, Joomla's
        ``index.php?option=com_content&view=article&id=5``), each a topic or an article.
        A member with new words ends the run: the family's pages differ by more than
        prose."""
        params = parse_qsl(asked.query or "")
        named = "&".join(sorted(f"{k}={v}" for k, v in params if not v.isdigit()))
        base = f"{asked.origin}{asked.path}?{named}"
        if len(params) == named.count("&") + bool(named):  # a named object, or nothing
            if named and len(self.objects) < self.config.max_vocabulary:
                self.objects.add(base)
            return False
        if base not in self.objects:
            return False
        family = str(waste_of(asked)[0])
        run = self.retold.get(family, 0)
        alone = passage and not new and fresh < LIST_ITEMS
        if alone and (run or len(self.retold) < self.config.max_vocabulary):
            self.retold[family] = run + 1
        elif new:
            self.retold.pop(family, None)
        return alone and run >= RETOLD

    def says_more(self, region: str, words: set[str]) -> tuple[bool, bool, int]:
        """Whether a page brings words its region has not shown yet (at least
        ``min_new_words`` and a tenth of its own, or ``min_own_words`` however long
        it is), whether the latter holds (words enough of its own to be a record of a
        template, however many words the template has), and how many it brings."""
        new = self.new_words(region, words)
        own = new >= max(self.config.min_new_words, self.config.min_own_words)
        return own or (new >= self.config.min_new_words and 10 * new >= len(words)), own, new

    def farm_page(
        self,
        norm: NormalizedURL,
        words: set[str],
        links: Iterable[tuple[str, NormalizedURL | None]],
        in_scope: Callable[[str], bool] | None,
    ) -> tuple[bool, int]:
        """Whether a page links many hosts its origin never linked before while
        saying almost nothing new: the shape of a link farm. A blogroll links many
        hosts once, in words the site has not used yet; a documentation page links
        many projects and brings words of its own. And how many of its ``words`` its
        origin never showed (remembered now): a page of its own to the self-growth
        bound (:meth:`robotkit.triage.growth.GrowthGate.judged`)."""
        origin = str(norm.origin)
        known = self.linked_hosts.setdefault(origin, set())
        fresh = set()
        for link, other in links:
            if in_scope is not None and in_scope(link):
                continue
            if other is not None and other.host not in known:
                fresh.add(other.host)
        known.update(fresh)
        # Text of its own is words: a random token in a farm's URLs and anchors
        # (``a8j3k0bc``) is new on every page and says nothing.
        text = sum(w.isalpha() for w in words - self.vocabulary.get(origin, set()))
        new_words = self.new_words(origin, words)
        if len(fresh) < self.config.farm_hosts or not words:
            return False, new_words
        # A page that brings text of its own is no farm page, however many hosts
        # it links: a library's documentation links dozens of projects.
        if text >= self.config.min_own_words:
            return False, new_words
        return new_words < self.config.farm_novelty * len(words), new_words

    def snapshot(self) -> dict[str, Any]:
        """The memory, as fields of the triage's snapshot."""
        return {
            "simhashes": sorted(self.simhashes.items()),
            "recent": [[t, list(values)] for t, values in self.recent.items()],
            "linked_hosts": [[o, sorted(hosts)] for o, hosts in self.linked_hosts.items()],
            "vocabulary": [[scope, sorted(words)] for scope, words in self.vocabulary.items()],
            "passages": [[scope, sorted(runs)] for scope, runs in self.passages.items()],
            "retold": sorted(self.retold.items()),
            "objects": sorted(self.objects),
        }

    def restore(self, data: dict[str, Any]) -> None:
        """Take back :meth:`snapshot`'s fields (inside the caller's ``reading``)."""
        window = self.config.template_window
        self.simhashes = {k: typed(v, int, "hash") for k, v in pairs(data, "simhashes", str)}
        self.recent = {
            k: deque(listed(v, "hash", int), maxlen=window) for k, v in pairs(data, "recent", str)
        }
        self.linked_hosts = {
            k: set(listed(v, "host", str)) for k, v in pairs(data, "linked_hosts", str)
        }
        self.vocabulary = {
            k: set(listed(v, "word", str)) for k, v in pairs(data, "vocabulary", str)
        }
        # A snapshot from before passages were counted has none.
        self.passages = {
            k: set(listed(v, "shingle", int))
            for k, v in (pairs(data, "passages", str) if "passages" in data else ())
        }
        retold = pairs(data, "retold", str) if "retold" in data else ()
        self.retold = {k: typed(v, int, "run") for k, v in retold}
        self.objects = set(listed(data.get("objects", []), "object", str))
