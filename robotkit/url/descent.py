"""Relative links that descend beside their page: a path one level deeper per click.

A relative reference is resolved against its page's path without the page's last
segment (RFC 3986 section 5.2.3, "merge"). A page whose name is a directory served
without its trailing slash (``/en/Arts/Music`` for ``/en/Arts/Music/``) therefore
resolves ``Jazz/Bebop`` to ``/en/Arts/Jazz/Bebop``, beside itself rather than under it,
and the page there, written for its own directory, links ``Blues/Delta`` to
``/en/Arts/Jazz/Blues/Delta``: one level deeper at every click, of segments that look
distinct, so neither a repeated run (``repeated-path``) nor Heritrix's
``TooManyPathSegmentsDecideRule`` (20 segments) stops it soon. Apache's ``mod_dir``
answers a directory asked without its slash with a redirect to it (``DirectorySlash
On``) for exactly this reason: "relative URL references inside the directory index
would be resolved wrongly"; a site that serves the page anyway makes the trap.

A link *descends beside* its page (:func:`step`, ``BESIDE``) when the page's last
segment names no file (it has no ``.``: ``index.html`` and ``en.html`` are files whose
relative links are meant for their directory), and the link lies under the page's
parent directory, deeper than the page, but not under the page's own name. Relative
links resolve under the page's directory, so a run of links each under its page's
directory is what they make (a link elsewhere, an absolute one up the tree or to
another branch, ends the run), and it goes deeper at each descent beside and, once one
happened, at each step down as well (a two-segment relative link whose first segment
happens to be the page's own name: blind16 ``curlie``). Real navigation descends beside
a page a step or two in a run (a journal's home ``/index.php/j/index`` to its archive
``/index.php/j/issue/archive`` to an issue ``/index.php/j/issue/view/15``: blind6
``ojs``), and real trees go down from pages no run reached (a category to its
subcategories); the guard bounds the descents of a run
(:class:`robotkit.triage.guard.Guard`, ``max_descents``). Pure functions, no I/O.
"""

from __future__ import annotations

from enum import Enum

__all__ = ["Step", "step"]


class Step(Enum):
    """Where a link goes from its page, for a run of relative links."""

    ELSEWHERE = "elsewhere"
    """Not under the page's directory: the run ends."""
    ALONG = "along"
    """Under the page's directory, no deeper than the page (a sibling)."""
    DOWN = "down"
    """Deeper, under the page's own name, or under a page that is a directory or a file."""
    BESIDE = "beside"
    """Deeper, beside the page: under its parent directory, not under its name."""


def step(page: str, link: str) -> Step:
    """Where the path ``link`` goes from the path ``page`` (module docstring):
    ``/en/Arts/Music`` -> ``/en/Arts/Jazz/Bebop`` ``BESIDE``, -> ``/en/Arts/Jazz``
    ``ALONG``, -> ``/en/Arts/Music/Bebop`` ``DOWN``, -> ``/en/Jazz`` ``ELSEWHERE``;
    ``/docs/index.html`` -> ``/docs/api/x`` ``DOWN`` (a file's directory)."""
    parent, _, name = page.rpartition("/")
    prefix = parent + "/"
    if not link.startswith(prefix):
        return Step.ELSEWHERE
    tail = [seg for seg in link[len(prefix) :].split("/") if seg]
    if not parent and name and tail and tail[0] != name:
        # A page at the root (``/search``, ``/waterfall``): every path is under "/",
        # so its deep links are the site's records, not a relative link gone astray.
        return Step.ELSEWHERE
    if len(tail) < 2:
        return Step.ALONG if name else Step.DOWN if tail else Step.ALONG
    return Step.BESIDE if name and "." not in name and tail[0] != name else Step.DOWN
