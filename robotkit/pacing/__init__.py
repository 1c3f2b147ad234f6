"""When a host may be fetched again: the pacer (delays, Crawl-delay, Retry-After,
backoff) and the readiness the frontier asks."""
