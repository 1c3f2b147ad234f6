"""robots.txt: rules (protego + explanation), status semantics, freshness, cache."""

from robotkit.robots.rules import MAX_ROBOTS_BYTES as MAX_ROBOTS_BYTES
from robotkit.robots.rules import RobotsRules as RobotsRules
from robotkit.robots.rules import RuleMatch as RuleMatch
from robotkit.robots.rules import RuleRef as RuleRef
from robotkit.robots.rules import decode_body as decode_body
