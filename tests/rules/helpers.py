"""Build small cases and rule on them."""

from __future__ import annotations

import copy
from typing import Any

from claimlaw.engine.api import rule
from claimlaw.facts import Ruling, case_from_dict

SEED_4C = "N:AJT432.2.QT84.T4 87.QJT543.J7.AQ2 K95.K986.AK952.7 Q6.A7.63.KJ98653"
SEED_4C_PLAY = [["D4", "D7", "DA", "D3"], ["DK", "D6", "D8", "DJ"], ["SK", "S6", "S2", "S7"],
                ["S9", "SQ", "SA", "S8"], ["H2", "H3", "HK", "HA"]]

# A three-card ending: West (declarer, 3NT) to lead from dummy (East); see examples/3nt-defender-claim-endplay.yaml
ENDING_3NT = {"position": "N:.A.K3. .2..32 ..J.KQ 3..AQ.", "contract": "3NT", "declarer": "W", "leader": "E",
              "won": {"NS": 3, "EW": 7}}


def make(base: dict[str, Any] | None = None, **parts: Any) -> dict[str, Any]:
    d = copy.deepcopy(base) if base else {"board": {"contract": "4S", "declarer": "S"},
                                          "claim": {"by": "S", "says": "claim"}}
    for k, v in parts.items():
        if isinstance(v, dict) and isinstance(d.get(k), dict):
            d[k] = {**d[k], **v}
        else:
            d[k] = v
    return d


def ruled(data: dict[str, Any], **kw: Any) -> Ruling:
    return rule(case_from_dict(data), **kw)
