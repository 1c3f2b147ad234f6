"""A fetched page read once: a bounded markup check, then links, meta robots, canonical
and main text."""
