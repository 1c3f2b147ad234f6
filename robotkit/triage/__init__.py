"""What a crawl learns from each page and which URLs it still fetches: URL-shape rules,
blacklists, screening, news, regions and copies."""
