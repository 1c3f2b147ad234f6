"""The crawl's frontier: breadth-first per-host queues, seen sets, typed change events,
and the journal and checkpoints that survive a kill."""
