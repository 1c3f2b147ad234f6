"""A URL Frontier service (the crawler-commons ``urlfrontier`` gRPC API v2) that is
polite by itself: crawlers in any language put and get URLs, and robotkit decides
which go out and when (normalization and the URL-shape guard at ``PutURLs``;
robots.txt, fetched by the service, and each host's pacing at ``GetURLs``).

* :mod:`~robotkit.service.core`: crawls, queues and URL records over the frontier,
  the pacer and the guard (pure: no I/O, an injected clock), made of
  :mod:`~robotkit.service.records`, :mod:`~robotkit.service.crawls`,
  :mod:`~robotkit.service.intake`, :mod:`~robotkit.service.handout` and
  :mod:`~robotkit.service.inventory`;
* :mod:`~robotkit.service.metadata`: the metadata keys a client reports a fetch
  and a link with;
* :mod:`~robotkit.service.server`: the gRPC servicer (``grpc.aio``) and the
  robots.txt fetches;
* :mod:`~robotkit.service.proto`: the vendored ``.proto`` and its generated stubs.

``robotkit frontier serve`` runs it; docs/frontier-service.md is the manual. Needs
the ``frontier`` extra (``pip install 'robotkit[frontier]'``).
"""

from __future__ import annotations

from robotkit.service.core import DEFAULT_CRAWL, Ack, Incoming, ServiceCore, URLState

__all__ = ["DEFAULT_CRAWL", "Ack", "Incoming", "ServiceCore", "URLState"]
