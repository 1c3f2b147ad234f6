"""Generated traps that mint new URLs for the same few pages: calendars, pagination
past the end, growing queries, facets in click order, session ids and stacked
duplicate forms of one article.

Their legitimate look-alikes are the real months, pages, items and articles they
wrap: a crawler has to fetch those and leave the endless rest.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlencode

from werkzeug import Response

from robotkit.traps.base import RequestContext, html_page
from robotkit.traps.generated.pages import WORDS, Href, path_of, rng_for, slug, text_of, token
from robotkit.traps.generated.plan import Plan
from robotkit.traps.generated.trap import Trap


class Calendar(Trap):
    """Month pages with previous / next links that never stop, in the path
    (``/events/2024/05/``) or the query (``/events?month=2024-05``)."""

    kind = "calendar"

    def __init__(self, plan: Plan, host: int) -> None:
        super().__init__(plan, host)
        rng = plan.rng
        self.base = f"/{plan.name(('events', 'calendar', 'agenda', 'schedule', 'bookings'))}"
        self.param = rng.choice((None, None, "month", "ym", "date", "m"))
        year = rng.randint(2012, 2026)
        months = sorted(rng.sample(range(1, 13), rng.randint(1, 2)))
        self.events = {(year, m): f"{self.base}/event/{slug(rng, 2)}" for m in months}
        self.legit = frozenset([*(self._url(y, m) for y, m in self.events), *self.events.values()])
        form = "path" if self.param is None else f"query {self.param}="
        self.shape = f"{form} under {self.base}"
        for month in months:
            plan.attach(host, Href(self._url(year, month), f"Events {year}-{month:02d}"))

    def _url(self, year: int, month: int) -> str:
        if self.param is None:
            return f"{self.base}/{year}/{month:02d}/"
        return f"{self.base}?{self.param}={year}-{month:02d}"

    def _month(self, target: str) -> tuple[int, int] | None:
        if self.param is None:
            match = re.fullmatch(re.escape(self.base) + r"/(\d{1,4})/(\d\d)/", target)
        else:
            match = re.fullmatch(
                re.escape(f"{self.base}?{self.param}=") + r"(\d{1,4})-(\d\d)", target
            )
        if match is None or not 1 <= int(match[2]) <= 12:
            return None
        return int(match[1]), int(match[2])

    def is_trap(self, target: str, host: int) -> bool:
        month = self._month(target) if host == self.host else None
        return month is not None and month not in self.events

    def respond(self, target: str, ctx: RequestContext) -> Response | None:
        if ctx.host != self.host:
            return None
        if target in self.events.values():
            return html_page("Event", text_of(self.seed, self.host, target, 5), [("/", "Home")])
        month = self._month(target)
        if month is None:
            return None
        year, number = month
        previous = (year, number - 1) if number > 1 else (year - 1, 12)
        following = (year, number + 1) if number < 12 else (year + 1, 1)
        links = [(self._url(*previous), "Previous month"), (self._url(*following), "Next month")]
        event = self.events.get(month)
        text = "One event this month." if event else "No events this month."
        if event:
            links.insert(0, (event, "Event"))
        return html_page(f"{year}-{number:02d}", [text], links)


class EndlessPagination(Trap):
    """A list with a "next" link on every page, also past the last real one; the
    page number in the query (``?page=``, ``?offset=``) or the path (``/page/7/``)."""

    kind = "endless-pagination"

    def __init__(self, plan: Plan, host: int) -> None:
        super().__init__(plan, host)
        rng = plan.rng
        self.base = f"/{plan.name(('results', 'feed', 'latest', 'catalogue', 'index', 'all'))}"
        self.param = rng.choice(("page", "p", "pg", "offset", "start", None))
        self.step = rng.choice((10, 20, 25)) if self.param in ("offset", "start") else 1
        self.real = rng.randint(2, 3)
        self.items = {n: f"{self.base}/{slug(rng, 2)}" for n in range(1, self.real + 1)}
        self.legit = frozenset([*(self._url(n) for n in self.items), *self.items.values()])
        form = "path /page/N/" if self.param is None else f"?{self.param}= step {self.step}"
        self.shape = f"{self.real} real pages, {form}"
        plan.attach(host, Href(self._url(1), self.base.strip("/").title()))

    def _url(self, n: int) -> str:
        if self.param is None:
            return f"{self.base}/page/{n}/"
        value = (n - 1) * self.step if self.step > 1 else n
        return f"{self.base}?{self.param}={value}"

    def _number(self, target: str) -> int | None:
        if self.param is None:
            match = re.fullmatch(re.escape(self.base) + r"/page/(-?\d+)/", target)
        else:
            match = re.fullmatch(re.escape(f"{self.base}?{self.param}=") + r"(-?\d+)", target)
        if match is None:
            return None
        value = int(match[1])
        return value // self.step + 1 if self.step > 1 else value

    def is_trap(self, target: str, host: int) -> bool:
        n = self._number(target) if host == self.host else None
        if n is None:
            return False
        return target != self._url(n) or n not in self.items

    def respond(self, target: str, ctx: RequestContext) -> Response | None:
        if ctx.host != self.host:
            return None
        if target in self.items.values():
            return html_page("Item", text_of(self.seed, self.host, target, 4), [("/", "Home")])
        n = self._number(target)
        if n is None:
            return None
        links = [(self._url(n + 1), "Next page")]
        if n > 1:
            links.insert(0, (self._url(n - 1), "Previous page"))
        item = self.items.get(n)
        if item is not None:
            links.insert(0, (item, "Item"))
        return html_page(f"Page {n}", ["One result." if item else "No more results."], links)


class GrowingQuery(Trap):
    """Links that append a parameter to the query they were found on:
    ``/news/3?ref=1`` links to ``/news/4?ref=1&ref=1``."""

    kind = "growing-query"

    def __init__(self, plan: Plan, host: int) -> None:
        super().__init__(plan, host)
        rng = plan.rng
        self.base = f"/{plan.name(('bulletin', 'digest', 'press', 'notices', 'briefs'))}"
        self.param = rng.choice(("ref", "from", "src", "a", "filter", "tag", "f"))
        self.value = rng.choice(("1", "home", "list", "x"))
        self.items = [f"{self.base}/{n}" for n in range(1, rng.randint(2, 3) + 1)]
        self.legit = frozenset([f"{self.base}/", *self.items])
        self.shape = f"&{self.param}={self.value} appended under {self.base}"
        plan.attach(host, Href(f"{self.base}/", self.base.strip("/").title()))

    def is_trap(self, target: str, host: int) -> bool:
        return host == self.host and "?" in target and path_of(target) in self.legit

    def respond(self, target: str, ctx: RequestContext) -> Response | None:
        path, _, query = target.partition("?")
        if ctx.host != self.host or path not in self.legit:
            return None
        if path.endswith("/") and not query:
            links = [(item, item) for item in self.items]
        else:
            grown = f"{query}&{self.param}={self.value}" if query else f"{self.param}={self.value}"
            links = [(f"{item}?{grown}", item) for item in self.items]
            links.append((f"{self.base}/?{grown}", "All"))
        return html_page(path, text_of(self.seed, self.host, path, 4), links)


FACET_VALUES = {
    "color": ("red", "blue", "black", "white", "green"),
    "colour": ("navy", "olive", "grey", "cream"),
    "size": ("xs", "s", "m", "l", "xl", "xxl"),
    "brand": tuple(WORDS[:6]),
    "material": ("wool", "cotton", "linen", "silk"),
    "sort": ("price", "name", "newest", "rating"),
    "orderby": ("date", "title", "popularity"),
    "dir": ("asc", "desc"),
    "view": ("grid", "list"),
    "per_page": ("12", "24", "48"),
}


class Facets(Trap):
    """A product list whose facet, sort and page links add parameters in click
    order: the same selection has as many URLs as orders of clicking it."""

    kind = "facets"

    def __init__(self, plan: Plan, host: int) -> None:
        super().__init__(plan, host)
        rng = plan.rng
        self.base = f"/{plan.name(('outlet', 'market', 'collection', 'range', 'gear'))}"
        self.facets = {
            k: FACET_VALUES[k] for k in rng.sample(sorted(FACET_VALUES), rng.randint(3, 6))
        }
        self.page_param = rng.choice(("page", "p", "pg"))
        self.products = [f"{self.base}/{slug(rng, 2)}" for _ in range(rng.randint(2, 4))]
        self.legit = frozenset([self.base, *self.products])
        self.shape = f"{', '.join(self.facets)} and {self.page_param}= on {self.base}"
        plan.attach(host, Href(self.base, self.base.strip("/").title()))

    def is_trap(self, target: str, host: int) -> bool:
        return host == self.host and target.startswith(self.base + "?")

    def respond(self, target: str, ctx: RequestContext) -> Response | None:
        path, _, query = target.partition("?")
        if ctx.host != self.host or path not in self.legit:
            return None
        if path != self.base:
            return html_page(
                "Product", text_of(self.seed, self.host, path, 3), [(self.base, "Back")]
            )
        pairs = parse_qsl(query)
        items = list(self.products)
        rng_for(self.seed, "facets", dict(pairs).get("sort", "")).shuffle(items)
        links = [(item, item.rsplit("/", 1)[1]) for item in items]
        controls = [(k, v) for k, values in self.facets.items() for v in values]
        controls += [(self.page_param, str(n)) for n in (1, 2, 3)]
        for key, value in controls:
            # A changed parameter moves to the end: the template re-appends it.
            kept = [(k, v) for k, v in pairs if k != key]
            links.append((f"{self.base}?{urlencode([*kept, (key, value)])}", f"{key}: {value}"))
        selection = ", ".join(f"{k}={v}" for k, v in pairs) or "none"
        return html_page(self.base.strip("/").title(), [f"Filters: {selection}."], links)


SESSION_PATHS = ("(S({}))", "s-{}", "{}", "sid{}", "~{}")


class SessionIds(Trap):
    """A members area whose every link carries a session id minted for this response:
    in the query, as ``;jsessionid=``, or as a path segment (``/<session>/rest``)."""

    kind = "session-ids"

    def __init__(self, plan: Plan, host: int) -> None:
        super().__init__(plan, host)
        rng = plan.rng
        self.base = f"/{plan.name(('members', 'portal', 'my', 'club', 'community'))}"
        self.style = rng.choice(("query", "jsessionid", "path"))
        self.param = rng.choice(("sid", "PHPSESSID", "s", "session", "sessionid", "zenid"))
        self.path_form = rng.choice(SESSION_PATHS)
        self.length = rng.choice((16, 24, 32))
        self.pages = [
            f"{self.base}/",
            *(f"{self.base}/{w}" for w in rng.sample(WORDS, rng.randint(1, 3))),
        ]
        self.legit = frozenset(self.pages)
        self.canonical = rng.random() < 0.5
        form = {"query": f"?{self.param}=", "jsessionid": ";jsessionid=", "path": self.path_form}
        self.shape = f"session as {self.style} {form[self.style]!r} under {self.base}"
        before, after = self.path_form.split("{}")
        hexa = "[0-9a-fA-F]+"
        self._path_session = re.compile(f"^/{re.escape(before)}{hexa}{re.escape(after)}(/.*)$")
        self._query_session = re.compile(rf"(^|&){re.escape(self.param)}=[^&]*")
        entry = self._with_session(self.pages[0], token(self.seed, "entry", length=self.length))
        plan.attach(host, Href(entry if rng.random() < 0.7 else self.pages[0], "Members"))

    def _with_session(self, page: str, session: str) -> str:
        if self.style == "query":
            return f"{page}?{self.param}={session}"
        if self.style == "jsessionid":
            return f"{page};jsessionid={session.upper()}"
        return "/" + self.path_form.format(session) + page

    def _strip(self, target: str) -> str:
        """The page a target shows, without its session id."""
        if self.style == "path":
            match = self._path_session.match(target)
            return match[1] if match else target
        path, _, query = target.partition("?")
        if self.style == "jsessionid":
            path = re.sub(r";jsessionid=[^/?]*", "", path, flags=re.IGNORECASE)
        else:
            query = self._query_session.sub("", query).lstrip("&")
        return f"{path}?{query}" if query else path

    def legit_key(self, target: str, host: int) -> str | None:
        page = self._strip(target)
        return page if host == self.host and page in self.legit else None

    def is_trap(self, target: str, host: int) -> bool:
        return False  # every URL of a page is that page: see legit_key

    def respond(self, target: str, ctx: RequestContext) -> Response | None:
        page = self._strip(target)
        if ctx.host != self.host or page not in self.legit:
            return None
        session = token(self.seed, "session", target, length=self.length)
        links = [
            (self._with_session(p, session), p.rstrip("/").rsplit("/", 1)[1].title())
            for p in self.pages
        ]
        canonical = ctx.url(page, ctx.host) if self.canonical else None
        paragraphs = text_of(self.seed, self.host, page, 3)
        response = html_page(page, paragraphs, [*links, ("/", "Home")], canonical=canonical)
        response.set_cookie("SESSION", session, path="/")
        return response


TRACKING = ("utm_source", "utm_medium", "utm_campaign", "fbclid", "gclid", "ref", "mc_cid", "share")


class DuplicateForms(Trap):
    """Articles whose share links stack another form on the URL they are on: a
    ``/print/``, ``/amp/`` or ``/m/`` prefix, one more tracking parameter. Every
    form names the article's canonical URL, in HTML or in a ``Link`` header."""

    kind = "duplicate-forms"

    def __init__(self, plan: Plan, host: int) -> None:
        super().__init__(plan, host)
        rng = plan.rng
        self.base = plan.name(("article", "story", "read", "p", "entry"))
        self.prefixes = rng.sample(
            ("print", "amp", "m", "mobile", "lite", "share"), rng.randint(1, 3)
        )
        self.tracking = rng.sample(TRACKING, rng.randint(1, 3))
        self.via = rng.choice(("html", "header"))
        self.slugs = [slug(rng, 3) for _ in range(rng.randint(2, 4))]
        self.legit = frozenset(f"/{self.base}/{s}" for s in self.slugs)
        plan.used.update(self.prefixes)
        forms = f"prefixes {'/'.join(self.prefixes)}, {'&'.join(self.tracking)}"
        self.shape = f"{forms}, canonical in {self.via}"
        for target in sorted(self.legit):
            plan.attach(host, Href(target, target.rsplit("/", 1)[1].replace("-", " ").title()))

    def _article(self, target: str) -> str | None:
        """The canonical target a form of an article stands for, else None."""
        path, _, query = target.partition("?")
        if query and any(
            k not in self.tracking for k, _ in parse_qsl(query, keep_blank_values=True)
        ):
            return None
        segments = path.strip("/").split("/")
        while segments and segments[0] in self.prefixes:
            segments.pop(0)
        canonical = "/" + "/".join(segments)
        return canonical if canonical in self.legit else None

    def is_trap(self, target: str, host: int) -> bool:
        return host == self.host and target not in self.legit and self._article(target) is not None

    def respond(self, target: str, ctx: RequestContext) -> Response | None:
        canonical = self._article(target) if ctx.host == self.host else None
        if canonical is None:
            return None
        path, _, query = target.partition("?")
        shares = [(f"/{p}{path}" + (f"?{query}" if query else ""), p) for p in self.prefixes]
        for i, key in enumerate(self.tracking):
            value = token(self.seed, "share", target, i, length=6)
            shares.append((f"{target}{'&' if query else '?'}{key}={value}", "Share"))
        url = ctx.url(canonical, ctx.host)
        headers = {"Link": f'<{url}>; rel="canonical"'} if self.via == "header" else None
        html_canonical = url if self.via == "html" else None
        paragraphs = text_of(self.seed, self.host, canonical, 6)
        return html_page(canonical, paragraphs, shares, canonical=html_canonical, headers=headers)
