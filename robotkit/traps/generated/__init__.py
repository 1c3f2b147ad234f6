"""Generated trap sites: realistic, varied sites drawn from a seed, with ground truth.

Why generate sites at all
    The hand-written trap sites each show one trap in its simplest shape, and a
    crawler tuned on them learns their shapes rather than the idea: give it a
    calendar under ``/agenda?ym=`` instead of ``/cal/2024/05/``, or release notes
    that differ only in a number, and it may fail. A generator draws many sites
    with different names, depths, parameters and look-alikes, so a rule can be
    measured on sites nobody wrote it against.

What one seed draws (``GeneratedSite(seed)``, from ``random.Random(seed)`` only)
    - Two to four hosts: the main one and sister hosts on other loopback
      addresses (127.0.0.2-9, same port), cross-linked from their home pages.
    - A legitimate part of 30 to 60 pages (:mod:`.legit`): articles of every
      length, pages that differ only in numbers, date archives, versioned docs
      with repeated path segments, pagination that ends, ``?lang=`` translations,
      ids in queries and hex ids in paths, a long faceted search URL, a partners
      page, moved pages; menus link everything. Half the sites add a
      related-items section of 40 to 150 templated pages (catalog, blog,
      recipes, Q&A) that link each other at random, drawn from a stream of its
      own so the rest of the seed's site is unchanged.
    - One or two traps of randomised shape (:mod:`.loops`, :mod:`.endless`,
      :mod:`.hostile`): directory, relative and PATH_INFO loops, redirect loops
      and lengthening chains, calendars, endless pagination, growing queries,
      facets in click order, session ids (query, ``;jsessionid=``, path segment),
      stacked duplicate forms with ``rel=canonical``, soft 404s, tarpits, an
      in-scope link farm, a section forbidden by robots.txt. Each trap brings its
      legitimate look-alike (the real months of a calendar, the real levels of a
      directory, a redirect that ends).
    Responses are fixed too: ids a real site would mint at random (sessions,
    share tokens) are hashes of the seed and the requested URL, so the same
    requests get the same bytes.

How the ground truth is made
    Every legitimate page is declared as data (host and target) before anything
    is served, and the same declaration renders it, so the list cannot drift from
    the site. A trap says which targets it generates (``is_trap``); a page reached
    under a second URL (a session id) maps to the page it shows (``classify``) and
    counts once, the rest as repeats. Anything else (robots.txt, redirect hops,
    a plain 404) is neither.

Why held-out seeds
    Rules tuned while looking at seeds 0-999 will fit them. Seeds from 1000 on
    are held out: measure a finished rule on them, and never change a rule
    because of what they show, or they stop measuring generalisation.
"""

from __future__ import annotations

from robotkit.traps.generated.site import KINDS, GeneratedSite

__all__ = ["KINDS", "GeneratedSite"]
