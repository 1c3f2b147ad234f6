"""robots.txt: rules and their index, status semantics, freshness, cache, engine."""

from robotkit.robots.cache import OriginState as OriginState
from robotkit.robots.cache import RobotsCache as RobotsCache
from robotkit.robots.engine import FetchNeeded as FetchNeeded
from robotkit.robots.engine import RobotsEngine as RobotsEngine
from robotkit.robots.engine import RobotsResponse as RobotsResponse
from robotkit.robots.engine import file_state as file_state
from robotkit.robots.freshness import Headers as Headers
from robotkit.robots.freshness import Validators as Validators
from robotkit.robots.rules import MAX_ROBOTS_BYTES as MAX_ROBOTS_BYTES
from robotkit.robots.rules import GroupRules as GroupRules
from robotkit.robots.rules import RobotsRules as RobotsRules
from robotkit.robots.rules import RuleMatch as RuleMatch
from robotkit.robots.rules import RuleRef as RuleRef
from robotkit.robots.rules import decode_body as decode_body
from robotkit.robots.status import FetchFailure as FetchFailure
from robotkit.robots.status import Hop as Hop
from robotkit.robots.status import Profile as Profile
from robotkit.robots.status import RobotsOutcome as RobotsOutcome
from robotkit.robots.verdict import Verdict as Verdict

__all__ = [
    "MAX_ROBOTS_BYTES",
    "FetchFailure",
    "FetchNeeded",
    "GroupRules",
    "Headers",
    "Hop",
    "OriginState",
    "Profile",
    "RobotsCache",
    "RobotsEngine",
    "RobotsOutcome",
    "RobotsResponse",
    "RobotsRules",
    "RuleMatch",
    "RuleRef",
    "Validators",
    "Verdict",
    "decode_body",
    "file_state",
]
