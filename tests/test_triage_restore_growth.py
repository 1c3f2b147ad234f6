"""A restored triage's growth bound reads URLs through the restored triage itself
(:meth:`robotkit.triage.triage.Triage.restore`,
:meth:`robotkit.triage.growth.GrowthGate.restored`): its parser and its keys, so a
part of the triage replaced later is the one the bound reads by. A bound restored
into a temporary triage read URLs through that one, kept alive beside it."""

from __future__ import annotations

import gc
import json

from robotkit.triage.triage import Triage
from robotkit.triage.waste import Waiting
from robotkit.url.learned import LearnedRules
from robotkit.url.normalization import normalize

SITE = "http://h"


def _triages(gate: object) -> list[Triage]:
    """The triages ``gate`` refers to: through its attributes, to the objects its
    bound methods are bound to."""
    found: dict[int, Triage] = {}
    reached = gc.get_referents(gate)
    for _ in range(3):
        found |= {id(each): each for each in reached if isinstance(each, Triage)}
        reached = gc.get_referents(*reached)
    return list(found.values())


def _restored(held: str, referer: str) -> Triage:
    """A new triage restored from one that held ``held``, linked by ``referer``."""
    triage = Triage()
    triage.growth.offered(held, referer)
    triage.growth.hold(Waiting(held, held, 2, referer, ""))
    restored = Triage()
    restored.restore(json.loads(json.dumps(triage.snapshot())))
    return restored


HELD = f"{SITE}/day/1001"


def test_the_restored_growth_gate_reads_through_the_restoring_triage() -> None:
    """The restored gate refers to the triage restored into, and to no other, and gives
    back the URL held."""
    restored = _restored(HELD, f"{SITE}/day/1000")
    assert _triages(restored.growth) == [restored]
    assert [w.url for w in restored.growth.leave()[0]] == [HELD]


def test_the_restored_growth_gate_keys_by_the_rules_the_triage_has_now() -> None:
    """A URL held under its key, linked again under a spelling with a parameter the
    triage's rules (replaced after the restore) drop, is the URL held."""
    site = LearnedRules()  # a token stamped into every link, proven by two responses
    for page, token in (("/", "4ab9d1356cee413f"), ("/day/1000", "9c0e2a77d1f04b1e")):
        links = [normalize(f"{SITE}/day/{n}?stamp={token}") for n in (1000, 1001, 1002)]
        site.observe_links(normalize(f"{SITE}{page}"), links)
    restored = _restored(HELD, f"{SITE}/")
    restored.rules = site
    back = restored.growth.copied(f"{HELD}?stamp=77d1f04b1e9c0e2a", f"{SITE}/")
    assert back is not None and back.key == HELD
