"""URLs: one parser (WHATWG-style), canonical hosts, the de-duplication key and the URL
rules a crawl learns from a site."""
