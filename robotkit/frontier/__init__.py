"""The crawl's frontier: per-host BFS queues, seen sets, events, journal and checkpoints."""

from robotkit.frontier.durable import CheckpointError
from robotkit.frontier.events import FrontierEntry, FrontierEvent, FrontierSnapshot, Tier
from robotkit.frontier.frontier import Frontier
from robotkit.frontier.results import AddOutcome, AddResult, FrontierStats
from robotkit.frontier.seen import BloomSeenSet, ExactSeenSet, SeenSet, seen_set_for
from robotkit.frontier.store import FileStore, FrontierStore

__all__ = [
    "AddOutcome",
    "AddResult",
    "BloomSeenSet",
    "CheckpointError",
    "ExactSeenSet",
    "FileStore",
    "Frontier",
    "FrontierEntry",
    "FrontierEvent",
    "FrontierSnapshot",
    "FrontierStats",
    "FrontierStore",
    "SeenSet",
    "Tier",
    "seen_set_for",
]
